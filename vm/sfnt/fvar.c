/* fvar (axes and named instances) and avar (axis segment maps), and the
 * normalization of coordinates as FreeType 2.12.1 computes it
 * (FT_Set_Var_Design_Coordinates, FT_Set_Var_Blend_Coordinates). */
#include <string.h>

#include "common/fixed.h"
#include "fontvm/var.h"
#include "sfnt/var.h"

#define FVAR_VERSION 0x00010000u
#define FVAR_AXIS_SIZE 20u
#define AVAR_VERSION 0x00010000u
#define FIXED_ONE 0x10000

static fv_status read_fvar(const sfnt_font *f, fv_mem *mem, sfnt_var *v, fv_error *err)
{
    fv_span t;
    (void)sfnt_find_table(f, SFNT_TAG_fvar, &t);
    uint32_t version;
    uint16_t axes_offset, axis_count, axis_size, instance_count, instance_size;
    if (fv_rd_u32(t, 0, &version) || fv_rd_u16(t, 4, &axes_offset) ||
        fv_rd_u16(t, 8, &axis_count) || fv_rd_u16(t, 10, &axis_size) ||
        fv_rd_u16(t, 12, &instance_count) || fv_rd_u16(t, 14, &instance_size))
        return sfnt_fail(err, FV_E_TRUNCATED, SFNT_TAG_fvar, t.len, "header");
    if (version != FVAR_VERSION)
        return sfnt_fail(err, FV_E_BAD_VERSION, SFNT_TAG_fvar, 0, NULL);
    if (axis_count == 0)
        return sfnt_fail(err, FV_E_BAD_TABLE, SFNT_TAG_fvar, 8, "no axes");
    if (axis_count > FV_VAR_MAX_AXES)
        return sfnt_fail(err, FV_E_UNSUPPORTED, SFNT_TAG_fvar, 8, "more axes than fontvm reads");
    if (axis_size != FVAR_AXIS_SIZE)
        return sfnt_fail(err, FV_E_BAD_TABLE, SFNT_TAG_fvar, 10, "axisSize is not 20");
    uint32_t coords_size = 4u * axis_count;
    int has_ps_name = instance_size == coords_size + 6;
    if (instance_size != coords_size + 4 && !has_ps_name)
        return sfnt_fail(err, FV_E_BAD_TABLE, SFNT_TAG_fvar, 14, "instanceSize does not fit axisCount");
    uint64_t axes_end = (uint64_t)axes_offset + (uint64_t)axis_count * FVAR_AXIS_SIZE;
    uint64_t end = axes_end + (uint64_t)instance_count * instance_size;
    if (!fv_span_has(t, axes_offset, end - axes_offset))
        return sfnt_fail(err, FV_E_TRUNCATED, SFNT_TAG_fvar, t.len, "axes and instances");
    v->axes = fv_mem_array(mem, axis_count, sizeof *v->axes);
    v->instances = fv_mem_array(mem, instance_count ? instance_count : 1, sizeof *v->instances);
    v->instance_coords =
        fv_mem_array(mem, (size_t)(instance_count ? instance_count : 1) * axis_count, sizeof(int32_t));
    if (!v->axes || !v->instances || !v->instance_coords)
        return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_fvar, FV_NO_VALUE, NULL);
    v->num_axes = axis_count;
    v->num_instances = instance_count;
    for (uint32_t i = 0; i < axis_count; i++) {
        uint64_t at = axes_offset + (uint64_t)i * FVAR_AXIS_SIZE;
        sfnt_axis *a = &v->axes[i];
        /* In bounds: checked above. */
        (void)fv_rd_u32(t, at, &a->tag);
        (void)fv_rd_s32(t, at + 4, &a->min);
        (void)fv_rd_s32(t, at + 8, &a->def);
        (void)fv_rd_s32(t, at + 12, &a->max);
        (void)fv_rd_u16(t, at + 16, &a->flags);
        (void)fv_rd_u16(t, at + 18, &a->name_id);
        /* COMPAT(freetype): an axis whose default lies outside its range
         * becomes the single value `default` (measured: FT_Get_MM_Var). */
        if (a->min > a->def || a->def > a->max)
            a->min = a->max = a->def;
    }
    for (uint32_t i = 0; i < instance_count; i++) {
        uint64_t at = axes_end + (uint64_t)i * instance_size;
        sfnt_instance *in = &v->instances[i];
        int32_t *coords = v->instance_coords + (size_t)i * axis_count;
        (void)fv_rd_u16(t, at, &in->subfamily_name_id);
        (void)fv_rd_u16(t, at + 2, &in->flags);
        for (uint32_t k = 0; k < axis_count; k++)
            (void)fv_rd_s32(t, at + 4 + 4 * (uint64_t)k, &coords[k]);
        in->ps_name_id = 0xFFFF;
        if (has_ps_name)
            (void)fv_rd_u16(t, at + 4 + coords_size, &in->ps_name_id);
        in->coords = coords;
    }
    return FV_OK;
}

/* avar version 1; anything malformed leaves v->avar NULL: FreeType then
 * normalizes without it. */
static fv_status read_avar(const sfnt_font *f, fv_mem *mem, sfnt_var *v, fv_error *err)
{
    fv_span t;
    if (!sfnt_find_table(f, SFNT_TAG_avar, &t))
        return FV_OK;
    uint32_t version;
    uint16_t axis_count;
    if (fv_rd_u32(t, 0, &version) || fv_rd_u16(t, 6, &axis_count) || version != AVAR_VERSION ||
        axis_count != v->num_axes)
        return FV_OK;
    /* First pass: the maps' sizes, all inside the table. */
    uint64_t pos = 8, total = 0;
    for (uint32_t i = 0; i < axis_count; i++) {
        uint16_t n;
        if (fv_rd_u16(t, pos, &n) || !fv_span_has(t, pos + 2, 4 * (uint64_t)n))
            return FV_OK;
        total += n;
        pos += 2 + 4 * (uint64_t)n;
    }
    sfnt_avar_map *maps = fv_mem_array(mem, axis_count, sizeof *maps);
    int32_t *values = fv_mem_array(mem, total ? 2 * total : 1, sizeof(int32_t));
    if (!maps || !values) {
        fv_mem_free(mem, maps);
        fv_mem_free(mem, values);
        return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_avar, FV_NO_VALUE, NULL);
    }
    pos = 8;
    int32_t *next = values;
    for (uint32_t i = 0; i < axis_count; i++) {
        uint16_t n = 0;
        (void)fv_rd_u16(t, pos, &n);
        pos += 2;
        maps[i].count = n;
        maps[i].from = next;
        maps[i].to = next + n;
        next += 2 * (size_t)n;
        for (uint32_t k = 0; k < n; k++, pos += 4) {
            int16_t from = 0, to = 0;
            (void)fv_rd_s16(t, pos, &from);
            (void)fv_rd_s16(t, pos + 2, &to);
            maps[i].from[k] = (int32_t)from * 4;
            maps[i].to[k] = (int32_t)to * 4;
        }
    }
    v->avar = maps;
    return FV_OK;
}

fv_status sfnt_gvar_open(const sfnt_font *f, fv_mem *mem, sfnt_var *v, fv_error *err);

void sfnt_var_close(fv_mem *mem, sfnt_var *v)
{
    if (!v)
        return;
    fv_mem_free(mem, v->axes);
    fv_mem_free(mem, v->instances);
    fv_mem_free(mem, v->instance_coords);
    if (v->avar) {
        fv_mem_free(mem, v->avar[0].from);
        fv_mem_free(mem, v->avar);
    }
    fv_mem_free(mem, v->gvar.shared);
    fv_mem_free(mem, v);
}

fv_status sfnt_var_open(const sfnt_font *f, fv_mem *mem, sfnt_var **out, fv_error *err)
{
    fv_span t;
    *out = NULL;
    if (!sfnt_find_table(f, SFNT_TAG_fvar, &t))
        return FV_OK;
    sfnt_var *v = fv_mem_calloc(mem, sizeof *v);
    if (!v)
        return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_fvar, FV_NO_VALUE, NULL);
    fv_status st = read_fvar(f, mem, v, err);
    if (st == FV_OK)
        st = read_avar(f, mem, v, err);
    if (st == FV_OK)
        st = sfnt_gvar_open(f, mem, v, err);
    if (st == FV_OK) {
        /* A malformed HVAR is ignored: advances then vary through the
         * phantom points. */
        fv_error hvar_err;
        if (sfnt_hvar_open(f, v, &hvar_err) != FV_OK)
            v->has_hvar = 0;
        /* The same for VVAR and the vertical advance.  COMPAT(freetype):
         * a font without vertical metrics (vhea and vmtx) ignores VVAR:
         * its phantom pp4 keeps gvar's y delta (measured on copies of
         * var_phantoms_vvar.ttf without vhea and vmtx, and without vmtx). */
        if (f->has_vhea && sfnt_vvar_open(f, v, &hvar_err) != FV_OK)
            v->has_vvar = 0;
    }
    if (st != FV_OK) {
        sfnt_var_close(mem, v);
        return st;
    }
    *out = v;
    return FV_OK;
}

/* The avar segment map applied to one normalized coordinate: the segment
 * is the first whose end lies above the coordinate (a coordinate at or past
 * the last `from` is kept as it is). */
static int32_t avar_map(const sfnt_avar_map *m, int32_t c)
{
    for (uint32_t j = 1; j < m->count; j++)
        if (c < m->from[j])
            return (int32_t)(fv_muldiv((int64_t)c - m->from[j - 1], (int64_t)m->to[j] - m->to[j - 1],
                                       (int64_t)m->from[j] - m->from[j - 1]) +
                             m->to[j - 1]);
    return c;
}

void sfnt_var_normalize(const sfnt_var *v, const int64_t *design, uint32_t n, int32_t *normalized)
{
    for (uint32_t i = 0; i < v->num_axes; i++) {
        const sfnt_axis *a = &v->axes[i];
        int64_t c = i < n ? design[i] : a->def;
        int64_t r = 0;
        /* COMPAT(freetype): a coordinate beyond the range is -1 or 1 even
         * on an axis whose default is that end (Inter's slnt, 0 at max:
         * any positive value normalizes to 1; measured). */
        if (c > a->max)
            r = FIXED_ONE;
        else if (c < a->min)
            r = -FIXED_ONE;
        else if (c < a->def)
            r = fv_divfix(c - a->def, (int64_t)a->def - a->min);
        else if (c > a->def)
            r = fv_divfix(c - a->def, (int64_t)a->max - a->def);
        normalized[i] = (int32_t)r;
    }
    if (v->avar)
        for (uint32_t i = 0; i < v->num_axes; i++)
            normalized[i] = avar_map(&v->avar[i], normalized[i]);
}

int64_t sfnt_var_instance_design(const sfnt_var *v, uint32_t index, uint32_t axis)
{
    /* COMPAT(freetype): FreeType 2.12.1 reads instance coordinates as
     * unsigned 32-bit values, so a negative one is above every axis range
     * and FT_Set_Named_Instance puts that axis at +1 (measured: Inter's
     * slnt=-10 instances). */
    return (int64_t)(uint32_t)v->instances[index].coords[axis];
}

int sfnt_var_blend(const sfnt_var *v, const int32_t *blend, uint32_t n, int32_t *normalized)
{
    for (uint32_t i = 0; i < n && i < v->num_axes; i++)
        if (blend[i] < -FIXED_ONE || blend[i] > FIXED_ONE)
            return -1;
    for (uint32_t i = 0; i < v->num_axes; i++)
        normalized[i] = i < n ? blend[i] : 0;
    return 0;
}

int32_t sfnt_var_tuple_scalar(uint32_t num_axes, const int32_t *coords, const int32_t *peak,
                              int intermediate, const int32_t *start, const int32_t *end)
{
    int64_t scalar = FIXED_ONE;
    for (uint32_t i = 0; i < num_axes; i++) {
        int32_t p = peak[i], c = coords[i];
        if (p == 0)
            continue; /* the tuple does not depend on this axis */
        if (c == 0)
            return 0;
        if (c == p)
            continue;
        if (!intermediate) {
            if (c < (p < 0 ? p : 0) || c > (p > 0 ? p : 0))
                return 0;
            scalar = fv_muldiv(scalar, c, p);
        } else {
            int32_t s = start[i], e = end[i];
            if (c < s || c > e)
                return 0;
            if (c < p)
                scalar = fv_muldiv(scalar, (int64_t)c - s, (int64_t)p - s);
            else
                scalar = fv_muldiv(scalar, (int64_t)e - c, (int64_t)e - p);
        }
    }
    return (int32_t)scalar;
}
