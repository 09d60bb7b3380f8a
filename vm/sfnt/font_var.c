/* The public variation API of fv_font (fontvm/var.h) over sfnt_var. */
#include <string.h>

#include "fontvm/var.h"
#include "sfnt/font.h"

void fv_font_open_variations(fv_font *f)
{
    fv_error_clear(&f->var_err);
    if (sfnt_var_open(f->sfnt, &f->mem, &f->var, &f->var_err) != FV_OK)
        f->var = NULL;
}

FV_API uint32_t fv_font_var_axis_count(const fv_font *font)
{
    return font && font->var ? font->var->num_axes : 0;
}

FV_API uint32_t fv_font_var_instance_count(const fv_font *font)
{
    return font && font->var ? font->var->num_instances : 0;
}

static fv_status bad_argument(fv_error *err, const char *detail)
{
    return sfnt_fail(err, FV_E_BAD_ARGUMENT, 0, FV_NO_VALUE, detail);
}

FV_API fv_status fv_font_var_axis(const fv_font *font, uint32_t index, fv_var_axis *out)
{
    if (!out || index >= fv_font_var_axis_count(font))
        return FV_E_BAD_ARGUMENT;
    const sfnt_axis *a = &font->var->axes[index];
    out->tag = a->tag;
    out->min = a->min;
    out->def = a->def;
    out->max = a->max;
    out->flags = a->flags;
    out->name_id = a->name_id;
    return FV_OK;
}

FV_API fv_status fv_font_var_instance(const fv_font *font, uint32_t index, fv_var_instance *out)
{
    if (!out || index >= fv_font_var_instance_count(font))
        return FV_E_BAD_ARGUMENT;
    const sfnt_instance *in = &font->var->instances[index];
    out->subfamily_name_id = in->subfamily_name_id;
    out->ps_name_id = in->ps_name_id;
    out->design = in->coords;
    return FV_OK;
}

FV_API fv_status fv_font_var_error(const fv_font *font, fv_error *err)
{
    fv_error_clear(err);
    if (!font)
        return FV_E_BAD_ARGUMENT;
    if (err)
        *err = font->var_err;
    return font->var_err.kind;
}

static fv_status check_axes(const fv_font *font, const void *in, uint32_t n, const int32_t *normalized,
                            fv_error *err)
{
    fv_error_clear(err);
    if (!font || !normalized || (n && !in))
        return bad_argument(err, NULL);
    if (!font->var)
        return bad_argument(err, "the font has no variation axes");
    return FV_OK;
}

FV_API fv_status fv_font_var_from_design(const fv_font *font, const int32_t *design, uint32_t n,
                                         int32_t *normalized, fv_error *err)
{
    fv_status st = check_axes(font, design, n, normalized, err);
    if (st != FV_OK)
        return st;
    int64_t wide[FV_VAR_MAX_AXES];
    uint32_t na = font->var->num_axes;
    if (n > na)
        n = na;
    for (uint32_t i = 0; i < n; i++)
        wide[i] = design[i];
    sfnt_var_normalize(font->var, wide, n, normalized);
    return FV_OK;
}

FV_API fv_status fv_font_var_from_normalized(const fv_font *font, const int32_t *coords, uint32_t n,
                                             int32_t *normalized, fv_error *err)
{
    fv_status st = check_axes(font, coords, n, normalized, err);
    if (st == FV_OK && sfnt_var_blend(font->var, coords, n, normalized) != 0)
        return bad_argument(err, "a normalized coordinate outside [-1, 1]");
    return st;
}

FV_API fv_status fv_font_var_from_instance(const fv_font *font, uint32_t number, int32_t *normalized,
                                           fv_error *err)
{
    fv_status st = check_axes(font, NULL, 0, normalized, err);
    if (st != FV_OK)
        return st;
    if (number > font->var->num_instances)
        return bad_argument(err, "no such named instance");
    int64_t wide[FV_VAR_MAX_AXES];
    uint32_t na = number ? font->var->num_axes : 0;
    for (uint32_t i = 0; i < na; i++)
        wide[i] = sfnt_var_instance_design(font->var, number - 1, i);
    sfnt_var_normalize(font->var, wide, na, normalized);
    return FV_OK;
}

FV_API int fv_var_tag_parse(const char *text, uint32_t *tag)
{
    size_t n = text ? strlen(text) : 0;
    if (n == 0 || n > 4 || !tag)
        return -1;
    uint32_t t = 0;
    for (size_t i = 0; i < 4; i++) {
        unsigned c = i < n ? (unsigned char)text[i] : ' ';
        if (c < 0x20 || c > 0x7E)
            return -1;
        t = t << 8 | c;
    }
    *tag = t;
    return 0;
}
