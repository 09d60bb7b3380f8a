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
    FV_TESTCASE(n && len == 16 + 8 * n); /* no glyph id array */
    /* COMPAT(graphite2): the four arrays and the pad between endCode and
     * startCode must fit the length (measured: 3 segments in a length of
     * 39 map nothing, in 40 they map) */
    if (len > s.len || n == 0 || len < 16 + 8 * n)
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

/* A format 4 subtable's arrays, as graphite2 walks them. */
typedef struct {
    fv_span s;
    uint32_t n;     /* segments */
    uint16_t len;   /* the subtable's length field */
} format4;

static uint16_t f4_end(const format4 *t, uint32_t i)
{
    uint16_t v = 0;
    (void)fv_rd_u16(t->s, 14 + 2 * (uint64_t)i, &v);
    return v;
}

static uint16_t f4_start(const format4 *t, uint32_t i)
{
    uint16_t v = 0;
    (void)fv_rd_u16(t->s, 16 + 2 * (uint64_t)t->n + 2 * (uint64_t)i, &v);
    return v;
}

/* Code point c through segment i: its glyph, 0 when c is outside the
 * segment or the glyph id array entry lies past the subtable's length. */
static uint16_t f4_glyph(const format4 *t, uint32_t i, uint32_t c)
{
    uint32_t n = t->n;
    uint16_t start = f4_start(t, i), delta = 0, range = 0;
    if (c < start || c > f4_end(t, i))
        return 0;
    uint64_t ranges = 16 + 6 * (uint64_t)n;
    (void)fv_rd_u16(t->s, ranges - 2 * (uint64_t)n + 2 * (uint64_t)i, &delta);
    (void)fv_rd_u16(t->s, ranges + 2 * (uint64_t)i, &range);
    if (range == 0)
        return (uint16_t)(c + delta);
    /* COMPAT(graphite2): idRangeOffset counts whole 16-bit units (an odd
     * offset loses its low bit) */
    uint64_t at = ranges + 2 * (uint64_t)i + (range & ~1u) + 2 * (uint64_t)(c - start);
    uint16_t g = 0;
    if (at + 1 >= t->len || fv_rd_u16(t->s, at, &g) != FV_OK || g == 0)
        return 0;
    return (uint16_t)(g + delta);
}

/* The segment graphite2's search over endCode finds for c (it assumes the
 * ends are sorted: on a table whose ends are not, it may find a segment
 * that does not hold c, or miss one that does); n when there is none. */
static uint32_t f4_search(const format4 *t, uint32_t c)
{
    uint32_t lo = 0, count = t->n;
    while (count > 0) {
        uint32_t half = count >> 1, mid = lo + half;
        if (c <= f4_end(t, mid)) {
            if (half == 0 || c > f4_end(t, mid - 1))
                return mid;
            count = half;
        } else {
            lo = mid + 1;
            count -= half + 1;
        }
    }
    return t->n;
}

/* The code point after c in graphite2's walk of the subtable, and in *seg
 * the segment whose answer it takes: within c's segment (found from *seg
 * by stepping down past segments starting after c, then up past segments
 * ending before it) the next code point, else the next segment's start;
 * 0xFFFF ends the walk. */
static uint32_t f4_next(const format4 *t, uint32_t c, uint32_t *seg)
{
    uint32_t i = *seg;
    while (i > 0 && f4_start(t, i) > c)
        i--;
    while (i + 1 < t->n && f4_end(t, i) < c)
        i++;
    uint32_t start = f4_start(t, i);
    if (start > c)
        c = start - 1;
    if (f4_end(t, i) > c) {
        *seg = i;
        return c + 1;
    }
    *seg = i + 1;
    return i + 1 >= t->n ? 0xFFFF : f4_start(t, i + 1);
}

/* Pages of the BMP map: 256 code points each; the compact map keeps only
 * pages with a glyph, behind a page index (page 0 of the compact map is
 * the shared empty one). */
#define BMP_PAGES 256u
#define PAGE_SIZE 256u

/* The whole BMP map while it is built: a page is zeroed when first given a
 * glyph and only live pages are ever read, so a font mapping a few pages
 * costs a few pages of work, not 65,536 code points (fvfuzz's gr_font
 * spent more time here than in the rest of the face). */
typedef struct {
    uint16_t *words;          /* BMP_PAGES * PAGE_SIZE, live pages only valid */
    uint8_t live[BMP_PAGES];  /* 1: the page has been zeroed and written */
} bmp_scratch;

static void bmp_put(bmp_scratch *m, uint32_t c, uint16_t g)
{
    uint16_t *page = m->words + (size_t)(c >> 8) * PAGE_SIZE;
    if (!m->live[c >> 8]) {
        if (g == 0)
            return; /* a page never written is all zeros already */
        memset(page, 0, PAGE_SIZE * sizeof(uint16_t));
        m->live[c >> 8] = 1;
    }
    page[c & 0xFF] = g;
}

/* Writes the BMP subtable's answers into map as graphite2's cmap cache
 * does: it walks the code points from the first segment's start with
 * f4_next and asks each for its glyph, through the segment the walk is in
 * or, while the walk is in the first segment, through f4_search.  A walk
 * that steps back (unsorted segments) answers the code point it lands on
 * again, then goes on after the furthest one reached; code point 0xFFFF is
 * never asked (measured: fuzz/FINDINGS.md F-33, a first segment
 * U+0020..U+4020 before one U+0061..U+0063 leaves 'a' to the second and
 * U+0300 unmapped). */
static void fill_format4(const format4 *t, bmp_scratch *map)
{
    uint32_t seg = 0, furthest = 0;
    uint32_t c = f4_start(t, 0);
    /* each pass moves `furthest` on by one at least: at most 65,535 passes */
    while (c < 0xFFFF) {
        uint32_t via = seg ? seg : f4_search(t, c);
        bmp_put(map, c, via < t->n ? f4_glyph(t, via, c) : 0);
        if (c <= furthest)
            c = furthest + 1;
        furthest = c;
        c = f4_next(t, c, &seg);
    }
}

/* face->cmap_bmp from the built map: the page index, then the empty page,
 * then every page holding a glyph. */
static fv_status compact_bmp(fv_gr_face *face, const bmp_scratch *full, fv_error *err)
{
    uint32_t used = 0;
    uint16_t index[BMP_PAGES];
    for (uint32_t p = 0; p < BMP_PAGES; p++) {
        const uint16_t *page = full->words + p * PAGE_SIZE;
        uint32_t k = 0;
        /* a live page may still be all zeros: the BMP walk unmaps what the
         * SMP subtable mapped */
        while (full->live[p] && k < PAGE_SIZE && page[k] == 0)
            k++;
        index[p] = full->live[p] && k < PAGE_SIZE ? (uint16_t)++used : 0;
    }
    size_t words = BMP_PAGES + (size_t)(used + 1) * PAGE_SIZE;
    uint16_t *map = fv_mem_array(face->mem, words, sizeof(uint16_t));
    if (!map)
        return sfnt_fail(err, FV_E_NOMEM, FV_TAG('c', 'm', 'a', 'p'), 0, "character map");
    memcpy(map, index, sizeof index);
    memset(map + BMP_PAGES, 0, PAGE_SIZE * sizeof(uint16_t));
    for (uint32_t p = 0; p < BMP_PAGES; p++)
        if (index[p])
            memcpy(map + BMP_PAGES + (size_t)index[p] * PAGE_SIZE, full->words + p * PAGE_SIZE,
                   PAGE_SIZE * sizeof(uint16_t));
    face->cmap_bmp = map;
    return FV_OK;
}

fv_status grv_cmap_load(fv_gr_face *face, fv_error *err)
{
    fv_span cmap = face->tables.cmap;
    static const uint16_t bmp_ids[][2] = {{3, 1}, {0, 3}, {0, 2}, {0, 1}, {0, 0}};
    static const uint16_t smp_ids[][2] = {{3, 10}, {0, 4}};
    /* built whole, then kept compact: what the face holds is the pages in
     * use (issue 20: the whole map was 128 KiB of every face) */
    bmp_scratch full;
    /* not cleared: bmp_put zeroes a page when it first gets a glyph */
    full.words = fv_mem_alloc(face->mem, 0x10000 * sizeof(uint16_t));
    if (!full.words)
        return sfnt_fail(err, FV_E_NOMEM, FV_TAG('c', 'm', 'a', 'p'), 0, "character map");
    memset(full.live, 0, sizeof full.live);
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
            bmp_put(&full, c, (uint16_t)(g + (c - lo)));
        }
    }
    for (size_t k = 0; k < sizeof bmp_ids / sizeof bmp_ids[0]; k++) {
        format4 t = {find_subtable(cmap, bmp_ids[k][0], bmp_ids[k][1]), 0, 0};
        t.n = format4_segments(t.s);
        if (t.n) {
            (void)fv_rd_u16(t.s, 2, &t.len);
            fill_format4(&t, &full);
            break;
        }
    }
    fv_status st = compact_bmp(face, &full, err);
    fv_mem_free(face->mem, full.words);
    return st;
}

uint32_t grv_cmap_lookup(const fv_gr_face *face, uint32_t c)
{
    if (c <= 0xFFFF) {
        const uint16_t *map = face->cmap_bmp;
        return map ? map[BMP_PAGES + ((size_t)map[c >> 8] << 8) + (c & 0xFF)] : 0;
    }
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
