/* HVAR and VVAR: advance deltas from an item variation store (OpenType
 * "Item Variation Store" and "DeltaSetIndexMap"), as FreeType 2.12.1
 * applies them to hmtx and vmtx advances at a location.  The two tables
 * share the header layout this reads (version, store offset, advance
 * mapping offset); their side-bearing and origin mappings are not used
 * (FreeType 2.12.1 does not move the phantom points by them: measured,
 * tests/tt/make_var_fonts.py var_phantoms_hvar.ttf and _vvar.ttf). */
#include <string.h>

#include "common/check.h"
#include "common/fixed.h"
#include "sfnt/var.h"

#define METRICS_VAR_VERSION 0x00010000u
#define IVS_FORMAT 1
/* ItemVariationData.wordDeltaCount: 32-bit deltas (OpenType 1.9), which
 * FreeType 2.12.1 does not read: fontvm ignores such an HVAR as well. */
#define IVS_LONG_WORDS 0x8000
#define IVS_WORD_COUNT_MASK 0x7FFF
#define MAP_INNER_BITS_MASK 0x0F
#define MAP_ENTRY_SIZE_MASK 0x30

/* Reads table `tag` (HVAR or VVAR) into *h; *present is set once the
 * whole table has been validated. */
static fv_status open_metrics_var(const sfnt_font *f, const sfnt_var *v, uint32_t tag, sfnt_hvar *h,
                                  int *present, fv_error *err)
{
    fv_span t;
    if (!sfnt_find_table(f, tag, &t))
        return FV_OK;
    /* COMPAT(freetype): FreeType 2.12.1 reads HVAR and VVAR from the
     * file, bounded by its end but not by the table's length: a table cut
     * inside its advance mapping takes the mapping's count and entries
     * from the padding and the next table (measured on copies of
     * var_phantoms_hvar.ttf and _vvar.ttf cut there: the deltas FreeType
     * applies are those of the bytes that follow; fuzz/FINDINGS.md F-49). */
    (void)fv_span_tail(f->file, (uint64_t)(t.data - f->file.data), &t);
    uint32_t version, store_at, map_at;
    if (fv_rd_u32(t, 0, &version) || fv_rd_u32(t, 4, &store_at) || fv_rd_u32(t, 8, &map_at))
        return sfnt_fail(err, FV_E_TRUNCATED, tag, t.len, "header");
    if (version != METRICS_VAR_VERSION)
        return sfnt_fail(err, FV_E_BAD_VERSION, tag, 0, NULL);
    fv_span store;
    uint16_t format, data_count;
    uint32_t regions_at;
    if (fv_span_tail(t, store_at, &store) || fv_rd_u16(store, 0, &format) ||
        fv_rd_u32(store, 2, &regions_at) || fv_rd_u16(store, 6, &data_count))
        return sfnt_fail(err, FV_E_TRUNCATED, tag, store_at, "item variation store");
    if (format != IVS_FORMAT)
        return sfnt_fail(err, FV_E_BAD_VERSION, tag, store_at, "item variation store format");
    if (!fv_span_has(store, 8, 4 * (uint64_t)data_count))
        return sfnt_fail(err, FV_E_TRUNCATED, tag, store_at + 8, "item variation data offsets");
    uint16_t axis_count, region_count;
    if (fv_rd_u16(store, regions_at, &axis_count) || fv_rd_u16(store, (uint64_t)regions_at + 2, &region_count))
        return sfnt_fail(err, FV_E_TRUNCATED, tag, (uint64_t)store_at + regions_at, "region list");
    if (axis_count != v->num_axes)
        return sfnt_fail(err, FV_E_BAD_TABLE, tag, (uint64_t)store_at + regions_at, "region axisCount differs from fvar");
    if (!fv_span_has(store, (uint64_t)regions_at + 4, (uint64_t)region_count * axis_count * 6))
        return sfnt_fail(err, FV_E_TRUNCATED, tag, (uint64_t)store_at + regions_at, "regions");
    for (uint32_t i = 0; i < data_count; i++) {
        uint32_t at;
        uint16_t items, words, nregions;
        fv_span d;
        (void)fv_rd_u32(store, 8 + 4 * (uint64_t)i, &at);
        if (fv_span_tail(store, at, &d) || fv_rd_u16(d, 0, &items) || fv_rd_u16(d, 2, &words) ||
            fv_rd_u16(d, 4, &nregions))
            return sfnt_fail(err, FV_E_TRUNCATED, tag, (uint64_t)store_at + at, "item variation data");
        if (words & IVS_LONG_WORDS)
            return sfnt_fail(err, FV_E_UNSUPPORTED, tag, (uint64_t)store_at + at + 2, "32-bit deltas");
        if ((words & IVS_WORD_COUNT_MASK) > nregions)
            return sfnt_fail(err, FV_E_BAD_TABLE, tag, (uint64_t)store_at + at + 2, "more word deltas than regions");
        for (uint32_t r = 0; r < nregions; r++) {
            uint16_t ri;
            if (fv_rd_u16(d, 6 + 2 * (uint64_t)r, &ri))
                return sfnt_fail(err, FV_E_TRUNCATED, tag, (uint64_t)store_at + at + 6, "region indices");
            if (ri >= region_count)
                return sfnt_fail(err, FV_E_BAD_TABLE, tag, (uint64_t)store_at + at + 6, "region index out of range");
        }
        uint64_t row = (uint64_t)nregions + (words & IVS_WORD_COUNT_MASK);
        if (!fv_span_has(d, 6 + 2 * (uint64_t)nregions, row * items))
            return sfnt_fail(err, FV_E_TRUNCATED, tag, (uint64_t)store_at + at, "delta sets");
    }
    if (map_at) {
        uint8_t map_format, entry_format;
        uint32_t map_count = 0;
        fv_span m;
        if (fv_span_tail(t, map_at, &m) || fv_rd_u8(m, 0, &map_format) || fv_rd_u8(m, 1, &entry_format))
            return sfnt_fail(err, FV_E_TRUNCATED, tag, map_at, "advance mapping");
        uint64_t entries_at = 4;
        if (map_format == 0) {
            uint16_t c16;
            if (fv_rd_u16(m, 2, &c16))
                return sfnt_fail(err, FV_E_TRUNCATED, tag, map_at, "advance mapping");
            map_count = c16;
        } else if (map_format == 1) {
            if (fv_rd_u32(m, 2, &map_count))
                return sfnt_fail(err, FV_E_TRUNCATED, tag, map_at, "advance mapping");
            entries_at = 6;
        } else {
            return sfnt_fail(err, FV_E_BAD_VERSION, tag, map_at, "advance mapping format");
        }
        uint32_t entry_size = ((entry_format & MAP_ENTRY_SIZE_MASK) >> 4) + 1u;
        if (!fv_span_has(m, entries_at, (uint64_t)map_count * entry_size))
            return sfnt_fail(err, FV_E_TRUNCATED, tag, map_at, "advance mapping entries");
        fv_span_sub(m, entries_at, (uint64_t)map_count * entry_size, &h->map);
        h->map_count = map_count;
        h->map_entry_size = entry_size;
        h->map_inner_bits = (entry_format & MAP_INNER_BITS_MASK) + 1u;
        /* COMPAT(freetype): a mapping of no entries counts as none:
         * glyph ids index the store's first item variation data (F-49). */
        h->has_map = map_count != 0;
    }
    h->store = store;
    h->regions_at = regions_at;
    h->data_count = data_count;
    *present = 1;
    return FV_OK;
}

fv_status sfnt_hvar_open(const sfnt_font *f, sfnt_var *v, fv_error *err)
{
    return open_metrics_var(f, v, SFNT_TAG_HVAR, &v->hvar, &v->has_hvar, err);
}

fv_status sfnt_vvar_open(const sfnt_font *f, sfnt_var *v, fv_error *err)
{
    return open_metrics_var(f, v, SFNT_TAG_VVAR, &v->vvar, &v->has_vvar, err);
}

/* The scalar of region `r` at coords (16.16), per the OpenType rules for
 * item variation regions. */
static int64_t region_scalar(const sfnt_var *v, const sfnt_hvar *h, uint32_t r, const int32_t *coords)
{
    int64_t scalar = 0x10000;
    uint64_t at = (uint64_t)h->regions_at + 4 + (uint64_t)r * v->num_axes * 6;
    for (uint32_t a = 0; a < v->num_axes; a++, at += 6) {
        int16_t s16 = 0, p16 = 0, e16 = 0;
        (void)fv_rd_s16(h->store, at, &s16);
        (void)fv_rd_s16(h->store, at + 2, &p16);
        (void)fv_rd_s16(h->store, at + 4, &e16);
        int64_t start = (int64_t)s16 * 4, peak = (int64_t)p16 * 4, end = (int64_t)e16 * 4;
        int64_t c = coords[a];
        if (start > peak || peak > end)
            continue; /* invalid axis region: no effect */
        if (start < 0 && end > 0 && peak != 0)
            continue;
        if (peak == 0 || c == peak)
            continue;
        if (c <= start || c >= end)
            return 0;
        if (c < peak)
            scalar = fv_muldiv(scalar, c - start, peak - start);
        else
            scalar = fv_muldiv(scalar, end - c, end - peak);
    }
    return scalar;
}

static int32_t advance_delta(const sfnt_var *v, const sfnt_hvar *h, uint32_t gid, const int32_t *coords)
{
    uint32_t outer = 0, inner = gid;
    if (h->has_map) {
        if (FV_NEVER(h->map_count == 0)) /* has_map says there are entries */
            return 0;
        uint32_t i = gid < h->map_count ? gid : h->map_count - 1;
        uint32_t entry = 0;
        for (uint32_t k = 0; k < h->map_entry_size; k++) {
            uint8_t b = 0;
            (void)fv_rd_u8(h->map, (uint64_t)i * h->map_entry_size + k, &b);
            entry = entry << 8 | b;
        }
        outer = entry >> h->map_inner_bits;
        inner = entry & ((1u << h->map_inner_bits) - 1);
    }
    if (outer >= h->data_count)
        return 0;
    uint32_t at = 0;
    (void)fv_rd_u32(h->store, 8 + 4 * (uint64_t)outer, &at);
    fv_span d = {NULL, 0};
    uint16_t items = 0, words = 0, nregions = 0;
    (void)fv_span_tail(h->store, at, &d);
    (void)fv_rd_u16(d, 0, &items);
    (void)fv_rd_u16(d, 2, &words);
    (void)fv_rd_u16(d, 4, &nregions);
    if (inner >= items)
        return 0;
    uint32_t nwords = words & IVS_WORD_COUNT_MASK;
    uint64_t row = 6 + 2 * (uint64_t)nregions + (uint64_t)inner * (nregions + nwords);
    int64_t sum = 0;
    for (uint32_t r = 0; r < nregions; r++) {
        uint16_t ri = 0;
        (void)fv_rd_u16(d, 6 + 2 * (uint64_t)r, &ri);
        int64_t delta;
        if (r < nwords) {
            int16_t w = 0;
            (void)fv_rd_s16(d, row + 2 * (uint64_t)r, &w);
            delta = w;
        } else {
            uint8_t b = 0;
            (void)fv_rd_u8(d, row + 2 * (uint64_t)nwords + (r - nwords), &b);
            delta = (int8_t)b;
        }
        int64_t scalar = region_scalar(v, h, ri, coords);
        if (scalar)
            sum += fv_mulfix(delta * 65536, scalar);
    }
    return (int32_t)((sum + 0x8000) >> 16);
}

int32_t sfnt_hvar_advance_delta(const sfnt_var *v, uint32_t gid, const int32_t *coords)
{
    return v->has_hvar ? advance_delta(v, &v->hvar, gid, coords) : 0;
}

int32_t sfnt_vvar_advance_delta(const sfnt_var *v, uint32_t gid, const int32_t *coords)
{
    return v->has_vvar ? advance_delta(v, &v->vvar, gid, coords) : 0;
}
