/* gvar: glyph variation data (OpenType "Tuple Variation Store" in gvar),
 * the deltas of a glyph's points at a location, with the deltas of
 * untouched points inferred (IUP), as FreeType 2.12.1 computes them in
 * 16.16 font units. */
#include <stdint.h>
#include <string.h>

#include "common/budget.h"
#include "common/fixed.h"
#include "sfnt/var.h"

#define GVAR_VERSION 0x00010000u
#define GVAR_HEADER_SIZE 20u
#define GVAR_LONG_OFFSETS 0x0001

#define TUPLES_SHARE_POINT_NUMBERS SFNT_TUPLES_SHARE_POINT_NUMBERS
#define TUPLE_COUNT_MASK SFNT_TUPLE_COUNT_MASK
#define TUPLE_EMBEDDED_PEAK 0x8000
#define TUPLE_INTERMEDIATE_REGION SFNT_TUPLE_INTERMEDIATE_REGION
#define TUPLE_PRIVATE_POINT_NUMBERS SFNT_TUPLE_PRIVATE_POINT_NUMBERS
#define TUPLE_INDEX_MASK 0x0FFF

/* Packed point numbers and deltas. */
#define POINTS_ARE_WORDS 0x80
#define POINT_RUN_COUNT_MASK 0x7F
#define DELTAS_ARE_ZERO 0x80
#define DELTAS_ARE_WORDS 0x40
#define DELTA_RUN_COUNT_MASK 0x3F

static fv_status gvar_fail(fv_error *err, fv_status kind, uint64_t offset, const char *detail)
{
    return sfnt_fail(err, kind, SFNT_TAG_gvar, offset, detail);
}

fv_status sfnt_gvar_open(const sfnt_font *f, fv_mem *mem, sfnt_var *v, fv_error *err);
fv_status sfnt_gvar_open(const sfnt_font *f, fv_mem *mem, sfnt_var *v, fv_error *err)
{
    fv_span t;
    if (!sfnt_find_table(f, SFNT_TAG_gvar, &t))
        return FV_OK;
    sfnt_gvar *g = &v->gvar;
    uint32_t version, shared_at, data_at;
    uint16_t axis_count, shared_count, glyph_count, flags;
    if (fv_rd_u32(t, 0, &version) || fv_rd_u16(t, 4, &axis_count) || fv_rd_u16(t, 6, &shared_count) ||
        fv_rd_u32(t, 8, &shared_at) || fv_rd_u16(t, 12, &glyph_count) || fv_rd_u16(t, 14, &flags) ||
        fv_rd_u32(t, 16, &data_at))
        return gvar_fail(err, FV_E_TRUNCATED, t.len, "header");
    if (version != GVAR_VERSION)
        return gvar_fail(err, FV_E_BAD_VERSION, 0, NULL);
    if (axis_count != v->num_axes)
        return gvar_fail(err, FV_E_BAD_TABLE, 4, "axisCount differs from fvar");
    if (glyph_count != f->maxp.num_glyphs)
        return gvar_fail(err, FV_E_BAD_TABLE, 12, "glyphCount differs from maxp");
    g->long_offsets = (flags & GVAR_LONG_OFFSETS) != 0;
    uint64_t offsets_len = ((uint64_t)glyph_count + 1) * (g->long_offsets ? 4 : 2);
    if (!fv_span_has(t, GVAR_HEADER_SIZE, offsets_len))
        return gvar_fail(err, FV_E_TRUNCATED, GVAR_HEADER_SIZE, "glyph offsets");
    uint64_t shared_len = (uint64_t)shared_count * axis_count * 2;
    if (!fv_span_has(t, shared_at, shared_len))
        return gvar_fail(err, FV_E_TRUNCATED, shared_at, "shared tuples");
    if (data_at > t.len)
        return gvar_fail(err, FV_E_TRUNCATED, 16, "glyphVariationDataArrayOffset");
    g->shared = fv_mem_array(mem, shared_len ? (size_t)shared_count * axis_count : 1, sizeof(int32_t));
    if (!g->shared)
        return gvar_fail(err, FV_E_NOMEM, FV_NO_VALUE, NULL);
    for (uint64_t i = 0; i < (uint64_t)shared_count * axis_count; i++) {
        int16_t c = 0;
        (void)fv_rd_s16(t, shared_at + 2 * i, &c);
        g->shared[i] = (int32_t)c * 4;
    }
    g->table = t;
    g->shared_count = shared_count;
    g->glyph_count = glyph_count;
    g->data_offset = data_at;
    g->offsets_at = GVAR_HEADER_SIZE;
    v->has_gvar = 1;
    return FV_OK;
}

void sfnt_gvar_scratch_free(fv_mem *mem, sfnt_gvar_scratch *s)
{
    fv_mem_free(mem, s->org);
    fv_mem_free(mem, s->moved);
    fv_mem_free(mem, s->sum);
    fv_mem_free(mem, s->touched);
    fv_mem_free(mem, s->shared_points);
    fv_mem_free(mem, s->private_points);
    fv_mem_free(mem, s->packed_x);
    fv_mem_free(mem, s->packed_y);
    fv_mem_free(mem, s->peaks);
    memset(s, 0, sizeof *s);
}

/* Point numbers and packed deltas can name up to 0xFFFF points, whatever
 * the glyph's count: the buffers hold at least that many. */
#define MAX_PACKED 0xFFFFu

/* An array of n entries the caller writes before reading: not zeroed (the
 * packed arrays are 128 KB each, and a size with cvar reserves them anew;
 * zeroing them cost more than hinting the font, see README). */
static void *written_array(fv_mem *mem, size_t n, size_t size)
{
    return n > SIZE_MAX / size ? NULL : fv_mem_alloc(mem, n * size);
}

int sfnt_gvar_scratch_reserve(fv_mem *mem, sfnt_gvar_scratch *s, uint32_t n, uint32_t num_axes)
{
    if (s->org && s->points_cap >= n && s->axes_cap >= num_axes)
        return 1;
    sfnt_gvar_scratch_free(mem, s);
    /* Per point of the glyph (or CVT entry): n.  Point numbers and packed
     * deltas: as many as a tuple may list (a 15-bit count, or every point),
     * whatever n is. */
    uint32_t cap = n > MAX_PACKED ? n : MAX_PACKED;
    size_t per_point = n ? n : 1;
    s->org = fv_mem_array(mem, 2 * per_point, sizeof(int64_t));
    s->moved = fv_mem_array(mem, 2 * per_point, sizeof(int64_t));
    s->sum = fv_mem_array(mem, 2 * per_point, sizeof(int64_t));
    s->touched = fv_mem_array(mem, per_point, 1);
    s->shared_points = written_array(mem, cap, sizeof(uint16_t));
    s->private_points = written_array(mem, cap, sizeof(uint16_t));
    s->packed_x = written_array(mem, cap, sizeof(int16_t));
    s->packed_y = written_array(mem, cap, sizeof(int16_t));
    s->peaks = fv_mem_array(mem, 3 * (size_t)(num_axes ? num_axes : 1), sizeof(int32_t));
    if (!s->org || !s->moved || !s->sum || !s->touched || !s->shared_points ||
        !s->private_points || !s->packed_x || !s->packed_y || !s->peaks) {
        sfnt_gvar_scratch_free(mem, s);
        return 0;
    }
    s->cap = cap;
    s->points_cap = n;
    s->axes_cap = num_axes;
    return 1;
}

/* Packed point numbers at *pos of d.  *count 0 means every point. */
fv_status sfnt_tuple_read_points(fv_span d, uint64_t *pos, uint16_t *points, uint32_t *count)
{
    uint8_t b;
    if (fv_rd_u8(d, *pos, &b))
        return FV_E_TRUNCATED;
    *pos += 1;
    uint32_t n = b;
    if (b & POINTS_ARE_WORDS) {
        uint8_t lo;
        if (fv_rd_u8(d, *pos, &lo))
            return FV_E_TRUNCATED;
        *pos += 1;
        n = (uint32_t)(b & POINT_RUN_COUNT_MASK) << 8 | lo;
    }
    *count = n;
    uint16_t point = 0;
    for (uint32_t i = 0; i < n;) {
        uint8_t ctrl;
        if (fv_rd_u8(d, *pos, &ctrl))
            return FV_E_TRUNCATED;
        *pos += 1;
        uint32_t run = (uint32_t)(ctrl & POINT_RUN_COUNT_MASK) + 1;
        for (uint32_t k = 0; k < run && i < n; k++, i++) {
            uint16_t step;
            if (ctrl & POINTS_ARE_WORDS) {
                if (fv_rd_u16(d, *pos, &step))
                    return FV_E_TRUNCATED;
                *pos += 2;
            } else {
                uint8_t s8;
                if (fv_rd_u8(d, *pos, &s8))
                    return FV_E_TRUNCATED;
                *pos += 1;
                step = s8;
            }
            point = (uint16_t)(point + step);
            points[i] = point;
        }
    }
    return FV_OK;
}

/* n packed deltas at *pos of d. */
fv_status sfnt_tuple_read_deltas(fv_span d, uint64_t *pos, int16_t *out, uint32_t n)
{
    for (uint32_t i = 0; i < n;) {
        uint8_t ctrl;
        if (fv_rd_u8(d, *pos, &ctrl))
            return FV_E_TRUNCATED;
        *pos += 1;
        uint32_t run = (uint32_t)(ctrl & DELTA_RUN_COUNT_MASK) + 1;
        for (uint32_t k = 0; k < run && i < n; k++, i++) {
            if (ctrl & DELTAS_ARE_ZERO) {
                out[i] = 0;
            } else if (ctrl & DELTAS_ARE_WORDS) {
                if (fv_rd_s16(d, *pos, &out[i]))
                    return FV_E_TRUNCATED;
                *pos += 2;
            } else {
                uint8_t b;
                if (fv_rd_u8(d, *pos, &b))
                    return FV_E_TRUNCATED;
                *pos += 1;
                out[i] = (int8_t)b;
            }
        }
    }
    return FV_OK;
}

/* Infers the deltas of untouched points between touched points p1 and p2
 * (exclusive, walking the contour [first, last] forward from p1), one
 * axis: org are the original coordinates and out the moved ones, 16.16. */
static void infer_range(uint32_t p1, uint32_t p2, uint32_t first, uint32_t last, const int64_t *org,
                        int64_t *out)
{
    /* org and out hold x, y pairs: the caller passes them offset by the
     * axis, and indices are doubled here. */
    int64_t in1 = org[2 * p1], in2 = org[2 * p2], out1 = out[2 * p1], out2 = out[2 * p2];
    if (in1 > in2) {
        int64_t t = in1;
        in1 = in2;
        in2 = t;
        t = out1;
        out1 = out2;
        out2 = t;
    }
    /* COMPAT(freetype): reference points at one coordinate with different
     * deltas leave the points between them unmoved. */
    if (in1 == in2 && out1 != out2)
        return;
    int64_t d1 = out1 - in1, d2 = out2 - in2;
    int64_t scale = in1 != in2 ? fv_divfix(out2 - out1, in2 - in1) : 0;
    for (uint32_t p = p1 == last ? first : p1 + 1; p != p2; p = p == last ? first : p + 1) {
        int64_t c = org[2 * p];
        if (c <= in1)
            out[2 * p] = c + d1;
        else if (c >= in2)
            out[2 * p] = c + d2;
        else
            out[2 * p] = out1 + fv_mulfix(c - in1, scale);
    }
}

static uint32_t next_in_contour(uint32_t p, uint32_t first, uint32_t last)
{
    return p == last ? first : p + 1;
}

/* IUP over every contour, on 16.16 coordinates. */
static void infer_untouched(uint32_t num_contours, const uint16_t *ends, uint32_t n_outline,
                            const uint8_t *touched, const int64_t *org, int64_t *out)
{
    uint32_t first = 0;
    for (uint32_t c = 0; c < num_contours; c++) {
        uint32_t last = ends[c];
        if (last >= n_outline || last < first)
            return; /* the glyph loader refuses such contours first */
        uint32_t start = first;
        while (start <= last && !touched[start])
            start++;
        for (uint32_t p = start; start <= last;) {
            uint32_t q = next_in_contour(p, first, last);
            while (!touched[q])
                q = next_in_contour(q, first, last);
            if (q == p) {
                /* One touched point: the whole contour moves with it. */
                for (uint32_t k = first; k <= last; k++) {
                    out[2 * k] = org[2 * k] + (out[2 * p] - org[2 * p]);
                    out[2 * k + 1] = org[2 * k + 1] + (out[2 * p + 1] - org[2 * p + 1]);
                }
                break;
            }
            infer_range(p, q, first, last, org, out);
            infer_range(p, q, first, last, org + 1, out + 1);
            p = q;
            if (p == start)
                break;
        }
        first = last + 1;
    }
}

static fv_status glyph_data(const sfnt_gvar *g, uint32_t gid, fv_span *out, fv_error *err)
{
    uint64_t at = g->offsets_at + (uint64_t)gid * (g->long_offsets ? 4 : 2);
    uint32_t start = 0, end = 0;
    if (g->long_offsets) {
        (void)fv_rd_u32(g->table, at, &start);
        (void)fv_rd_u32(g->table, at + 4, &end);
    } else {
        uint16_t s = 0, e = 0;
        (void)fv_rd_u16(g->table, at, &s);
        (void)fv_rd_u16(g->table, at + 2, &e);
        start = (uint32_t)s * 2;
        end = (uint32_t)e * 2;
    }
    out->data = NULL;
    out->len = 0;
    if (end <= start)
        return end < start ? gvar_fail(err, FV_E_BAD_TABLE, at, "glyph offsets decrease") : FV_OK;
    if (fv_span_sub(g->table, (uint64_t)g->data_offset + start, (uint64_t)end - start, out))
        return gvar_fail(err, FV_E_TRUNCATED, (uint64_t)g->data_offset + start, "glyph variation data");
    return FV_OK;
}

/* Reads one tuple variation header at *hdr into peak (and start/end for
 * an intermediate region); returns the tuple index word in *index. */
fv_status sfnt_tuple_read_header(const sfnt_var *v, fv_span d, uint64_t *hdr, uint16_t *size,
                                   uint16_t *index, int32_t *peak, int32_t *start, int32_t *end)
{
    uint32_t na = v->num_axes;
    if (fv_rd_u16(d, *hdr, size) || fv_rd_u16(d, *hdr + 2, index))
        return FV_E_TRUNCATED;
    *hdr += 4;
    if (*index & TUPLE_EMBEDDED_PEAK) {
        for (uint32_t i = 0; i < na; i++, *hdr += 2) {
            int16_t c;
            if (fv_rd_s16(d, *hdr, &c))
                return FV_E_TRUNCATED;
            peak[i] = (int32_t)c * 4;
        }
    } else {
        uint32_t k = *index & TUPLE_INDEX_MASK;
        if (k >= v->gvar.shared_count)
            return FV_E_BAD_TABLE;
        memcpy(peak, v->gvar.shared + (size_t)k * na, na * sizeof(int32_t));
    }
    if (*index & TUPLE_INTERMEDIATE_REGION)
        for (uint32_t i = 0; i < 2 * na; i++, *hdr += 2) {
            int16_t c;
            if (fv_rd_s16(d, *hdr, &c))
                return FV_E_TRUNCATED;
            (i < na ? start : end)[i % na] = (int32_t)c * 4;
        }
    return FV_OK;
}

/* Adds one tuple's deltas, scaled, to s->sum: every point's when np is 0,
 * else those of the listed points with the others inferred. */
static void add_tuple(sfnt_gvar_scratch *s, int32_t scalar, const uint16_t *points, uint32_t np,
                      uint32_t n_points, const uint16_t *ends, uint32_t num_contours)
{
    int64_t *sum = s->sum, *org = s->org, *moved = s->moved;
    if (np == 0) {
        for (uint32_t i = 0; i < n_points; i++) {
            sum[2 * i] += fv_mulfix((int64_t)s->packed_x[i] * 65536, scalar);
            sum[2 * i + 1] += fv_mulfix((int64_t)s->packed_y[i] * 65536, scalar);
        }
        return;
    }
    memset(s->touched, 0, n_points);
    memcpy(moved, org, 2 * (size_t)n_points * sizeof(int64_t));
    for (uint32_t k = 0; k < np; k++) {
        uint32_t p = points[k];
        if (p >= n_points)
            continue;
        s->touched[p] = 1;
        moved[2 * p] += fv_mulfix((int64_t)s->packed_x[k] * 65536, scalar);
        moved[2 * p + 1] += fv_mulfix((int64_t)s->packed_y[k] * 65536, scalar);
    }
    infer_untouched(num_contours, ends, n_points >= 4 ? n_points - 4 : 0, s->touched, org, moved);
    for (uint32_t i = 0; i < 2 * n_points; i++)
        sum[i] += moved[i] - org[i];
}

static int32_t saturate32(int64_t v)
{
    return (int32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}

fv_status sfnt_gvar_glyph_deltas(const sfnt_var *v, uint32_t gid, const int32_t *coords,
                                 uint32_t n_points, const int32_t *org_x, const int32_t *org_y,
                                 const uint16_t *ends, uint32_t num_contours, int32_t *dx,
                                 int32_t *dy, sfnt_gvar_scratch *s, fv_mem *mem, fv_error *err)
{
    for (uint32_t i = 0; i < n_points; i++)
        dx[i] = dy[i] = 0;
    const sfnt_gvar *g = &v->gvar;
    if (!v->has_gvar || gid >= g->glyph_count)
        return FV_OK;
    fv_span d;
    fv_status st = glyph_data(g, gid, &d, err);
    if (st != FV_OK || d.len == 0)
        return st;
    uint64_t base = (uint64_t)(d.data - g->table.data); /* for error offsets */
    uint16_t count_flags, data_offset;
    if (fv_rd_u16(d, 0, &count_flags) || fv_rd_u16(d, 2, &data_offset))
        return gvar_fail(err, FV_E_TRUNCATED, base, "glyph variation header");
    uint32_t num_tuples = count_flags & TUPLE_COUNT_MASK;
    if (num_tuples == 0)
        return FV_OK;
    uint32_t na = v->num_axes;
    if (!sfnt_gvar_scratch_reserve(mem, s, n_points, na))
        return gvar_fail(err, FV_E_NOMEM, FV_NO_VALUE, NULL);
    for (uint32_t i = 0; i < n_points; i++) {
        s->org[2 * i] = (int64_t)org_x[i] * 65536;
        s->org[2 * i + 1] = (int64_t)org_y[i] * 65536;
    }
    memset(s->sum, 0, 2 * (size_t)n_points * sizeof(int64_t));
    uint64_t pos = data_offset; /* serialized data */
    uint32_t shared_n = 0;
    int have_shared = (count_flags & TUPLES_SHARE_POINT_NUMBERS) != 0;
    if (have_shared && sfnt_tuple_read_points(d, &pos, s->shared_points, &shared_n))
        return gvar_fail(err, FV_E_TRUNCATED, base + pos, "shared point numbers");
    int32_t *peak = s->peaks, *start = s->peaks + na, *end = s->peaks + 2 * (size_t)na;
    uint64_t hdr = 4;
    fv_budget budget;
    fv_budget_start(&budget, FV_BUDGET_GVAR_GLYPH_STEPS, 0);
    for (uint32_t t = 0; t < num_tuples; t++) {
        uint16_t size, index;
        uint64_t hdr_at = hdr;
        st = sfnt_tuple_read_header(v, d, &hdr, &size, &index, peak, start, end);
        if (st != FV_OK)
            return gvar_fail(err, st, base + hdr_at,
                             st == FV_E_BAD_TABLE ? "shared tuple index out of range"
                                                  : "tuple variation header");
        uint64_t tuple_at = pos;
        pos += size;
        int32_t scalar = sfnt_var_tuple_scalar(na, coords, peak, (index & TUPLE_INTERMEDIATE_REGION) != 0,
                                               start, end);
        if (scalar == 0)
            continue;
        fv_span td;
        if (fv_span_sub(d, tuple_at, size, &td))
            return gvar_fail(err, FV_E_TRUNCATED, base + tuple_at, "tuple data");
        uint64_t tp = 0;
        const uint16_t *points = s->shared_points;
        uint32_t np = have_shared ? shared_n : 0; /* 0: every point */
        if (index & TUPLE_PRIVATE_POINT_NUMBERS) {
            if (sfnt_tuple_read_points(td, &tp, s->private_points, &np))
                return gvar_fail(err, FV_E_TRUNCATED, base + tuple_at + tp, "point numbers");
            points = s->private_points;
        }
        uint32_t nd = np ? np : n_points;
        if (nd > s->cap)
            return gvar_fail(err, FV_E_BAD_TABLE, base + tuple_at, "more deltas than points");
        if (!fv_budget_spend(&budget, (uint64_t)n_points + nd))
            return gvar_fail(err, FV_E_BUDGET_STEPS, base + tuple_at,
                             "glyph deltas beyond the work budget (FV_BUDGET_GVAR_GLYPH_STEPS)");
        if (sfnt_tuple_read_deltas(td, &tp, s->packed_x, nd) || sfnt_tuple_read_deltas(td, &tp, s->packed_y, nd))
            return gvar_fail(err, FV_E_TRUNCATED, base + tuple_at + tp, "packed deltas");
        add_tuple(s, scalar, points, np, n_points, ends, num_contours);
    }
    for (uint32_t i = 0; i < n_points; i++) {
        dx[i] = saturate32(s->sum[2 * i]);
        dy[i] = saturate32(s->sum[2 * i + 1]);
    }
    return FV_OK;
}
