/* cmap: choose a Unicode subtable (format 12 preferred, else format 4) and
 * look code points up in it.  Every read of the subtable is bounded. */
#include "sfnt/sfnt.h"

/* Validates a subtable's header and returns its span. */
static fv_status subtable_span(fv_span cmap, uint32_t offset, uint16_t format, fv_span *out,
                               fv_error *err)
{
    uint64_t length;
    if (format == 12) {
        uint32_t len32, ngroups;
        if (fv_rd_u32(cmap, (uint64_t)offset + 4, &len32) != FV_OK ||
            fv_rd_u32(cmap, (uint64_t)offset + 12, &ngroups) != FV_OK)
            return sfnt_fail(err, FV_E_TRUNCATED, SFNT_TAG_cmap, offset, "format 12 header");
        length = len32;
        if (length < 16 + (uint64_t)ngroups * 12)
            return sfnt_fail(err, FV_E_BAD_TABLE, SFNT_TAG_cmap, offset, "format 12 groups exceed length");
    } else {
        uint16_t len16, segx2;
        if (fv_rd_u16(cmap, (uint64_t)offset + 2, &len16) != FV_OK ||
            fv_rd_u16(cmap, (uint64_t)offset + 6, &segx2) != FV_OK)
            return sfnt_fail(err, FV_E_TRUNCATED, SFNT_TAG_cmap, offset, "format 4 header");
        length = len16;
        if (segx2 & 1)
            return sfnt_fail(err, FV_E_BAD_TABLE, SFNT_TAG_cmap, offset + 6, "odd segCountX2");
        /* Some fonts store a wrong 16-bit length for large format 4
         * subtables; FreeType then uses the rest of the table, so do we. */
        if (length < 16 + (uint64_t)segx2 * 4)
            length = cmap.len - offset;
        if (length < 16 + (uint64_t)segx2 * 4)
            return sfnt_fail(err, FV_E_BAD_TABLE, SFNT_TAG_cmap, offset, "format 4 arrays exceed length");
    }
    if (fv_span_sub(cmap, offset, length, out) != FV_OK) {
        /* Tolerate a length running past the table end when the arrays fit. */
        if (fv_span_tail(cmap, offset, out) != FV_OK)
            return sfnt_fail(err, FV_E_TRUNCATED, SFNT_TAG_cmap, offset, "subtable past the table end");
    }
    return FV_OK;
}

fv_status sfnt_cmap_select(sfnt_font *f, fv_error *err);

fv_status sfnt_cmap_select(sfnt_font *f, fv_error *err)
{
    fv_span cmap;
    uint16_t n;
    if (!sfnt_find_table(f, SFNT_TAG_cmap, &cmap))
        return FV_OK;
    if (fv_rd_u16(cmap, 2, &n) != FV_OK)
        return sfnt_fail(err, FV_E_TRUNCATED, SFNT_TAG_cmap, 0, "header");
    int best = 0; /* higher is better */
    uint32_t best_offset = 0;
    uint16_t best_format = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t rec = 4 + (uint64_t)i * 8;
        uint16_t platform, encoding, format;
        uint32_t offset;
        if (fv_rd_u16(cmap, rec, &platform) != FV_OK || fv_rd_u16(cmap, rec + 2, &encoding) != FV_OK ||
            fv_rd_u32(cmap, rec + 4, &offset) != FV_OK)
            return sfnt_fail(err, FV_E_TRUNCATED, SFNT_TAG_cmap, rec, "encoding record");
        if (fv_rd_u16(cmap, offset, &format) != FV_OK)
            return sfnt_fail(err, FV_E_TRUNCATED, SFNT_TAG_cmap, offset, "subtable format");
        int unicode = platform == 0 || (platform == 3 && (encoding == 1 || encoding == 10));
        int rank = 0;
        if (unicode && format == 12)
            rank = 3;
        else if (unicode && format == 4)
            rank = 2;
        else if (platform == 3 && encoding == 0 && format == 4)
            rank = 1; /* Windows Symbol */
        if (rank > best) {
            best = rank;
            best_offset = offset;
            best_format = format;
        }
    }
    if (best == 0)
        return FV_OK;
    fv_status st = subtable_span(cmap, best_offset, best_format, &f->cmap_sub, err);
    if (st != FV_OK)
        return st;
    f->cmap_format = best_format;
    return FV_OK;
}

static uint32_t lookup4(fv_span s, uint32_t cp)
{
    uint16_t segx2;
    if (cp > 0xFFFF || fv_rd_u16(s, 6, &segx2) != FV_OK)
        return 0;
    uint32_t segs = segx2 / 2u;
    uint64_t ends = 14, starts = ends + segx2 + 2, deltas = starts + segx2, ranges = deltas + segx2;
    /* Binary search on endCode. */
    uint32_t lo = 0, hi = segs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint16_t end;
        if (fv_rd_u16(s, ends + (uint64_t)mid * 2, &end) != FV_OK)
            return 0;
        if (cp > end)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo >= segs)
        return 0;
    uint16_t start, delta, range;
    uint64_t i2 = (uint64_t)lo * 2;
    if (fv_rd_u16(s, starts + i2, &start) != FV_OK || fv_rd_u16(s, deltas + i2, &delta) != FV_OK ||
        fv_rd_u16(s, ranges + i2, &range) != FV_OK)
        return 0;
    if (cp < start)
        return 0;
    if (range == 0)
        return (cp + delta) & 0xFFFFu;
    uint16_t gid;
    uint64_t at = ranges + i2 + range + (uint64_t)(cp - start) * 2;
    if (fv_rd_u16(s, at, &gid) != FV_OK || gid == 0)
        return 0;
    return (gid + delta) & 0xFFFFu;
}

static uint32_t lookup12(fv_span s, uint32_t cp)
{
    uint32_t ngroups;
    if (fv_rd_u32(s, 12, &ngroups) != FV_OK)
        return 0;
    uint32_t lo = 0, hi = ngroups;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint64_t g = 16 + (uint64_t)mid * 12;
        uint32_t start, end, gid;
        if (fv_rd_u32(s, g, &start) != FV_OK || fv_rd_u32(s, g + 4, &end) != FV_OK ||
            fv_rd_u32(s, g + 8, &gid) != FV_OK)
            return 0;
        if (cp < start)
            hi = mid;
        else if (cp > end)
            lo = mid + 1;
        else
            return gid + (cp - start);
    }
    return 0;
}

uint32_t sfnt_cmap_lookup(const sfnt_font *f, uint32_t cp)
{
    uint32_t gid = 0;
    if (f->cmap_format == 12)
        gid = lookup12(f->cmap_sub, cp);
    else if (f->cmap_format == 4)
        gid = lookup4(f->cmap_sub, cp);
    return gid < f->maxp.num_glyphs ? gid : 0;
}
