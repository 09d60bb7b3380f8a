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

/* Format 4's four parallel arrays (endCode, startCode, idDelta,
 * idRangeOffset) as offsets into the subtable. */
typedef struct fmt4 {
    uint32_t segs;
    uint64_t ends, starts, deltas, ranges;
} fmt4;

static int fmt4_layout(fv_span s, fmt4 *f)
{
    uint16_t segx2;
    if (fv_rd_u16(s, 6, &segx2) != FV_OK)
        return 0;
    f->segs = segx2 / 2u;
    f->ends = 14;
    f->starts = f->ends + segx2 + 2;
    f->deltas = f->starts + segx2;
    f->ranges = f->deltas + segx2;
    return 1;
}

/* The glyph segment i (at i2 = 2 i in each array) gives code point cp,
 * start <= cp <= end, before the glyph count check. */
static uint32_t fmt4_glyph(fv_span s, const fmt4 *f, uint64_t i2, uint16_t start, uint16_t delta,
                           uint16_t range, uint32_t cp)
{
    if (range == 0)
        return (cp + delta) & 0xFFFFu;
    uint16_t gid;
    uint64_t at = f->ranges + i2 + range + (uint64_t)(cp - start) * 2;
    if (fv_rd_u16(s, at, &gid) != FV_OK || gid == 0)
        return 0;
    return (gid + delta) & 0xFFFFu;
}

static uint32_t lookup4(fv_span s, uint32_t cp)
{
    fmt4 f;
    if (cp > 0xFFFF || !fmt4_layout(s, &f))
        return 0;
    /* Binary search on endCode. */
    uint32_t lo = 0, hi = f.segs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint16_t end;
        if (fv_rd_u16(s, f.ends + (uint64_t)mid * 2, &end) != FV_OK)
            return 0;
        if (cp > end)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo >= f.segs)
        return 0;
    uint16_t start, delta, range;
    uint64_t i2 = (uint64_t)lo * 2;
    if (fv_rd_u16(s, f.starts + i2, &start) != FV_OK || fv_rd_u16(s, f.deltas + i2, &delta) != FV_OK ||
        fv_rd_u16(s, f.ranges + i2, &range) != FV_OK)
        return 0;
    if (cp < start)
        return 0;
    return fmt4_glyph(s, &f, i2, start, delta, range, cp);
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

/* Format 4 under sorted ends: lookup4's binary search finds, for cp, the
 * first segment whose end is >= cp, so segment i answers the code points
 * after the previous segment's end up to its own end (those below its
 * start are unmapped). */
static int fill4(fv_span s, uint32_t num_glyphs, uint16_t *map)
{
    fmt4 f;
    if (!fmt4_layout(s, &f) || !fv_span_has(s, f.ranges, (uint64_t)f.segs * 2))
        return 0;
    uint32_t first = 0; /* first code point not answered by an earlier segment */
    for (uint32_t i = 0; i < f.segs; i++) {
        uint16_t end = 0, start = 0, delta = 0, range = 0; /* read below: the span holds all four arrays */
        uint64_t i2 = (uint64_t)i * 2;
        (void)fv_rd_u16(s, f.ends + i2, &end);
        (void)fv_rd_u16(s, f.starts + i2, &start);
        (void)fv_rd_u16(s, f.deltas + i2, &delta);
        (void)fv_rd_u16(s, f.ranges + i2, &range);
        if (i > 0) {
            uint16_t prev = 0;
            (void)fv_rd_u16(s, f.ends + i2 - 2, &prev);
            if (end < prev)
                return 0; /* unsorted: the binary search's answer depends on the path */
        }
        for (uint32_t cp = start > first ? start : first; cp <= end; cp++) {
            uint32_t gid = fmt4_glyph(s, &f, i2, start, delta, range, cp);
            map[cp] = (uint16_t)(gid < num_glyphs ? gid : 0);
        }
        if ((uint32_t)end + 1 > first)
            first = (uint32_t)end + 1;
    }
    return 1;
}

/* Format 12 with groups in order and apart (start <= end, each start after
 * the previous end): lookup12 answers a code point from the group holding
 * it, or 0. */
static int fill12(fv_span s, uint32_t num_glyphs, uint16_t *map)
{
    uint32_t ngroups;
    if (fv_rd_u32(s, 12, &ngroups) != FV_OK || !fv_span_has(s, 16, (uint64_t)ngroups * 12))
        return 0;
    uint64_t prev_end = 0;
    for (uint32_t i = 0; i < ngroups; i++) {
        uint32_t start = 0, end = 0, gid = 0; /* read below: the span holds every group */
        uint64_t g = 16 + (uint64_t)i * 12;
        (void)fv_rd_u32(s, g, &start);
        (void)fv_rd_u32(s, g + 4, &end);
        (void)fv_rd_u32(s, g + 8, &gid);
        if (start > end || (i > 0 && start <= prev_end))
            return 0;
        prev_end = end;
        for (uint32_t cp = start; cp <= end && cp <= 0xFFFF; cp++) {
            uint32_t v = gid + (cp - start);
            map[cp] = (uint16_t)(v < num_glyphs ? v : 0);
        }
    }
    return 1;
}

int sfnt_cmap_fill_bmp(const sfnt_font *f, uint16_t *map)
{
    /* gids are below num_glyphs <= 0xFFFF, so every answer fits 16 bits */
    if (f->cmap_format == 12)
        return fill12(f->cmap_sub, f->maxp.num_glyphs, map);
    if (f->cmap_format == 4)
        return fill4(f->cmap_sub, f->maxp.num_glyphs, map);
    return 1; /* no subtable: everything unmapped, as the zeroed map says */
}
