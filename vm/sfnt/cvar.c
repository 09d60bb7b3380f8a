/* cvar: CVT variations, applied to the font's CVT before prep as FreeType
 * 2.12.1 applies them (tt_face_vary_cvt's results, learnt by
 * experiment). */
#include <string.h>

#include "common/fixed.h"
#include "sfnt/var.h"

#define CVAR_VERSION 0x00010000u

static fv_status cvar_fail(fv_error *err, fv_status kind, uint64_t offset, const char *detail)
{
    return sfnt_fail(err, kind, SFNT_TAG_cvar, offset, detail);
}

fv_status sfnt_cvar_apply(const sfnt_var *v, const sfnt_font *f, const int32_t *coords,
                          int32_t *cvt, sfnt_gvar_scratch *s, fv_mem *mem, fv_error *err)
{
    uint32_t n = f->cvt_count;
    for (uint32_t i = 0; i < n; i++)
        cvt[i] = (int32_t)f->cvt[i] * 64;
    fv_span t;
    if (!sfnt_find_table(f, SFNT_TAG_cvar, &t) || n == 0)
        return FV_OK;
    uint32_t version;
    uint16_t count_flags, data_offset;
    if (fv_rd_u32(t, 0, &version) || fv_rd_u16(t, 4, &count_flags) || fv_rd_u16(t, 6, &data_offset))
        return cvar_fail(err, FV_E_TRUNCATED, t.len, "header");
    if (version != CVAR_VERSION)
        return cvar_fail(err, FV_E_BAD_VERSION, 0, NULL);
    uint32_t na = v->num_axes;
    if (!sfnt_gvar_scratch_reserve(mem, s, n, na))
        return cvar_fail(err, FV_E_NOMEM, FV_NO_VALUE, NULL);
    int64_t *sum = s->sum;
    memset(sum, 0, (size_t)n * sizeof(int64_t));
    uint64_t pos = data_offset, hdr = 8;
    uint32_t shared_n = 0;
    int have_shared = (count_flags & SFNT_TUPLES_SHARE_POINT_NUMBERS) != 0;
    if (have_shared && sfnt_tuple_read_points(t, &pos, s->shared_points, &shared_n))
        return cvar_fail(err, FV_E_TRUNCATED, pos, "shared point numbers");
    int32_t *peak = s->peaks, *start = s->peaks + na, *end = s->peaks + 2 * (size_t)na;
    for (uint32_t k = 0; k < (count_flags & SFNT_TUPLE_COUNT_MASK); k++) {
        uint16_t size, index;
        uint64_t hdr_at = hdr;
        fv_status st = sfnt_tuple_read_header(v, t, &hdr, &size, &index, peak, start, end);
        if (st != FV_OK)
            return cvar_fail(err, st, hdr_at, st == FV_E_BAD_TABLE ? "tuple index out of range"
                                                                  : "tuple variation header");
        uint64_t tuple_at = pos;
        pos += size;
        int32_t scalar = sfnt_var_tuple_scalar(na, coords, peak, (index & SFNT_TUPLE_INTERMEDIATE_REGION) != 0,
                                               start, end);
        if (scalar == 0)
            continue;
        fv_span td;
        if (fv_span_sub(t, tuple_at, size, &td))
            return cvar_fail(err, FV_E_TRUNCATED, tuple_at, "tuple data");
        uint64_t tp = 0;
        const uint16_t *points = s->shared_points;
        uint32_t np = have_shared ? shared_n : 0;
        int private_points = (index & SFNT_TUPLE_PRIVATE_POINT_NUMBERS) != 0;
        if (private_points) {
            if (sfnt_tuple_read_points(td, &tp, s->private_points, &np))
                return cvar_fail(err, FV_E_TRUNCATED, tuple_at + tp, "point numbers");
            points = s->private_points;
        }
        uint32_t nd = np ? np : n;
        if (nd > s->cap)
            return cvar_fail(err, FV_E_BAD_TABLE, tuple_at, "more deltas than CVT entries");
        if (sfnt_tuple_read_deltas(td, &tp, s->packed_x, nd))
            return cvar_fail(err, FV_E_TRUNCATED, tuple_at + tp, "packed deltas");
        if (np == 0 && !private_points) {
            /* COMPAT(freetype): FreeType 2.12.1 applies a tuple whose
             * shared point numbers are "every CVT entry" to none of them
             * (measured with make_var_fonts.py's var_cvar.ttf; upstream
             * FreeType fixed it after 2.12.1, "cvar deltas not applied to
             * all shared points"). */
            continue;
        }
        for (uint32_t j = 0; j < nd; j++) {
            uint32_t idx = np ? points[j] : j;
            if (idx < n)
                sum[idx] += fv_mulfix((int64_t)s->packed_x[j] * 65536, scalar);
        }
    }
    /* COMPAT(freetype): 2.12.1 keeps the varied CVT in 26.6 font units
     * (measured: a fractional delta moves a MIAP'd point). */
    for (uint32_t i = 0; i < n; i++)
        cvt[i] = (int32_t)((int64_t)f->cvt[i] * 64 + ((sum[i] + 0x200) >> 10));
    return FV_OK;
}
