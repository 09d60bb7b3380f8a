/* The character map as graphite2 1.3.14 reads it, which is not FreeType's
 * (vm/sfnt/cmap.c): graphite2 never refuses a face for its subtables (only
 * for the cmap header, tables.c), picks its own subtables, skips the ones
 * it finds malformed instead of failing, and does not clamp glyph ids to
 * maxp's count.  With gr_face_cacheCmap (part of gr_face_preloadAll, what
 * the conformance runner and HarfBuzz ask for) it reads the map once into
 * per-code-point answers: the SMP subtable's first, then the BMP
 * subtable's code points over them.
 *
 * Subtables, in graphite2's order of preference (the first encoding record
 * with the platform and encoding ids, and only that one):
 *   BMP: format 4 at (3,1), (0,3), (0,2), (0,1), (0,0);
 *   SMP: format 12 at (3,10), (0,4).
 * Behaviour measured on corpus fonts with cmap fields rewritten one at a
 * time (conformance/graphite/header_sweep.py, variant "sfnt"). */
#include <string.h>

#include "common/check.h"
#include "graphite/face.h"

/* The subtable of encoding record (platform, encoding), or an empty span:
 * the first record with those ids decides; its offset must leave room for
 * the format (and for formats 4 and 12 their length field, which must not
 * run past the end of cmap, or for a record followed by another, past that
 * record's offset). */
static fv_span find_subtable(fv_span cmap, uint16_t platform, uint16_t encoding)
{
    fv_span none = {NULL, 0};
    uint16_t n = 0;
    (void)fv_rd_u16(cmap, 2, &n);
    if (n == 0 || 12 + 8 * (uint64_t)(n - 1) > cmap.len)
        return none;
    for (uint32_t i = 0; i < n; i++) {
        uint16_t p = 0, e = 0;
        uint32_t off = 0;
        (void)fv_rd_u16(cmap, 4 + 8 * (uint64_t)i, &p);
        (void)fv_rd_u16(cmap, 6 + 8 * (uint64_t)i, &e);
        (void)fv_rd_u32(cmap, 8 + 8 * (uint64_t)i, &off);
        if (p != platform || e != encoding)
            continue;
        if (off > cmap.len - 2)
            return none;
        uint16_t format = 0;
        (void)fv_rd_u16(cmap, off, &format);
        uint64_t limit = cmap.len - off;
        if (i + 1 < n) {
            uint32_t next = 0;
            (void)fv_rd_u32(cmap, 8 + 8 * (uint64_t)(i + 1), &next);
            limit = next;
        }
        if (format == 4) {
            uint16_t len = 0;
            if (off > cmap.len - 4)
                return none;
            (void)fv_rd_u16(cmap, (uint64_t)off + 2, &len);
            if (len > limit)
                return none;
        } else if (format == 12) {
            /* COMPAT(graphite2): the 32-bit length is read from the two
             * bytes after the format (the reserved field and the length's
             * high half) */
            uint32_t len = 0;
            if (off > cmap.len - 6)
                return none;
            (void)fv_rd_u32(cmap, (uint64_t)off + 2, &len);
            if (len > limit)
                return none;
        }
        fv_span s;
        (void)fv_span_tail(cmap, off, &s);
        return s;
    }
    return none;
}

/* A format 4 subtable graphite2 uses: its length inside cmap and large
 * enough for its segments, at least one segment, the last ending at
 * U+FFFF.  Returns the segment count, 0 for an unusable subtable. */
static uint32_t format4_segments(fv_span s)
{
    uint16_t format = 0, len = 0, seg2 = 0, last = 0;
    if (s.len < 14 || fv_rd_u16(s, 0, &format) != FV_OK || format != 4)
        return 0;
    (void)fv_rd_u16(s, 2, &len);
    (void)fv_rd_u16(s, 6, &seg2);
    uint32_t n = seg2 >> 1;
    FV_TESTCASE(len == s.len);           /* the subtable ends cmap */
    FV_TESTCASE(n && len == 14 + 8 * n); /* no glyph id array */
    if (len > s.len || n == 0 || len < 14 + 8 * n)
        return 0;
    (void)fv_rd_u16(s, 14 + 2 * (uint64_t)(n - 1), &last);
    return last == 0xFFFF ? n : 0;
}

/* A format 12 subtable graphite2 uses: its length inside cmap and exactly
 * its groups'.  Returns the group count, 0 for an unusable subtable. */
static uint32_t format12_groups(fv_span s, int *ok)
{
    uint16_t format = 0;
    uint32_t len = 0, n = 0;
    *ok = 0;
    if (s.len < 28 || fv_rd_u16(s, 0, &format) != FV_OK || format != 12)
        return 0;
    (void)fv_rd_u32(s, 4, &len);
    (void)fv_rd_u32(s, 12, &n);
    if (len > s.len || len < 28 || n > 0x10000000u || (uint64_t)len != 16 + 12 * (uint64_t)n)
        return 0;
    *ok = 1;
    return n;
}

/* Code point c in format 4 segment i (n segments): its glyph, 0 when the
 * glyph id array entry lies past the subtable's length. */
static uint16_t format4_glyph(fv_span s, uint32_t n, uint32_t i, uint32_t c)
{
    uint16_t start = 0, delta = 0, range = 0, len = 0;
    uint64_t ends = 14, starts = ends + 2 * (uint64_t)n + 2;
    uint64_t deltas = starts + 2 * (uint64_t)n, ranges = deltas + 2 * (uint64_t)n;
    (void)fv_rd_u16(s, starts + 2 * (uint64_t)i, &start);
    (void)fv_rd_u16(s, deltas + 2 * (uint64_t)i, &delta);
    (void)fv_rd_u16(s, ranges + 2 * (uint64_t)i, &range);
    (void)fv_rd_u16(s, 2, &len);
    if (range == 0)
        return (uint16_t)(c + delta);
    uint64_t at = ranges + 2 * (uint64_t)i + range + 2 * (uint64_t)(c - start);
    uint16_t g = 0;
    if (at + 1 >= len || fv_rd_u16(s, at, &g) != FV_OK || g == 0)
        return 0;
    return (uint16_t)(g + delta);
}

/* Writes the BMP subtable's answers into map: segment by segment, each
 * code point from the segment's start (or just after the last one
 * written) to its end. */
static void fill_format4(fv_span s, uint32_t n, uint16_t *map)
{
    int64_t last = -1;
    for (uint32_t i = 0; i < n; i++) {
        uint16_t start = 0, end = 0;
        (void)fv_rd_u16(s, 14 + 2 * (uint64_t)i, &end);
        (void)fv_rd_u16(s, 14 + 2 * (uint64_t)n + 2 + 2 * (uint64_t)i, &start);
        int64_t c = start > last ? start : last + 1;
        for (; c <= end; c++)
            map[c] = format4_glyph(s, n, i, (uint32_t)c);
        if (end > last)
            last = end;
    }
}

fv_status grv_cmap_load(fv_gr_face *face, fv_error *err)
{
    fv_span cmap = face->tables.cmap;
    static const uint16_t bmp_ids[][2] = {{3, 1}, {0, 3}, {0, 2}, {0, 1}, {0, 0}};
    static const uint16_t smp_ids[][2] = {{3, 10}, {0, 4}};
    face->cmap_bmp = fv_mem_array(face->mem, 0x10000, sizeof(uint16_t));
    if (!face->cmap_bmp)
        return sfnt_fail(err, FV_E_NOMEM, FV_TAG('c', 'm', 'a', 'p'), 0, "character map");
    memset(face->cmap_bmp, 0, 0x10000 * sizeof(uint16_t));
    face->cmap_smp.data = NULL;
    face->cmap_smp.len = 0;
    face->cmap_smp_groups = 0;
    for (size_t k = 0; k < sizeof smp_ids / sizeof smp_ids[0]; k++) {
        fv_span s = find_subtable(cmap, smp_ids[k][0], smp_ids[k][1]);
        int ok;
        uint32_t n = format12_groups(s, &ok);
        if (ok) {
            face->cmap_smp = s;
            face->cmap_smp_groups = n;
            break;
        }
    }
    /* the SMP subtable's answers below U+10000 (the first group holding a
     * code point answers for it) */
    uint8_t seen[0x10000 / 8];
    memset(seen, 0, sizeof seen);
    for (uint32_t i = 0; i < face->cmap_smp_groups; i++) {
        uint32_t lo = 0, hi = 0, g = 0;
        uint64_t at = 16 + 12 * (uint64_t)i;
        (void)fv_rd_u32(face->cmap_smp, at, &lo);
        (void)fv_rd_u32(face->cmap_smp, at + 4, &hi);
        (void)fv_rd_u32(face->cmap_smp, at + 8, &g);
        for (uint32_t c = lo; c <= hi && c <= 0xFFFF; c++) {
            if (seen[c >> 3] & (1u << (c & 7)))
                continue;
            seen[c >> 3] |= (uint8_t)(1u << (c & 7));
            face->cmap_bmp[c] = (uint16_t)(g + (c - lo));
        }
    }
    for (size_t k = 0; k < sizeof bmp_ids / sizeof bmp_ids[0]; k++) {
        fv_span s = find_subtable(cmap, bmp_ids[k][0], bmp_ids[k][1]);
        uint32_t n = format4_segments(s);
        if (n) {
            fill_format4(s, n, face->cmap_bmp);
            break;
        }
    }
    return FV_OK;
}

uint32_t grv_cmap_lookup(const fv_gr_face *face, uint32_t c)
{
    if (c <= 0xFFFF)
        return face->cmap_bmp ? face->cmap_bmp[c] : 0;
    if (c > 0x10FFFF)
        return 0;
    /* COMPAT(graphite2): the first group holding c answers, in file order,
     * and the glyph id is cut to 16 bits */
    for (uint32_t i = 0; i < face->cmap_smp_groups; i++) {
        uint32_t lo = 0, hi = 0, g = 0;
        uint64_t at = 16 + 12 * (uint64_t)i;
        (void)fv_rd_u32(face->cmap_smp, at, &lo);
        (void)fv_rd_u32(face->cmap_smp, at + 4, &hi);
        (void)fv_rd_u32(face->cmap_smp, at + 8, &g);
        if (c >= lo && c <= hi)
            return (uint16_t)(g + (c - lo));
    }
    return 0;
}
