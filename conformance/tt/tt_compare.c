/* The comparison itself, size parsing and the glyph buffers shared by both
 * backends. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt_compare.h"

/* FreeType accepts far more, but no hinting question needs more than this
 * and it keeps x*64 well inside int32. */
#define TTC_MAX_PPEM 16384.0

static int parse_ppem(const char *s, char **end, int32_t *out)
{
    errno = 0;
    double v = strtod(s, end);
    if (*end == s || errno != 0 || !(v > 0.0) || v > TTC_MAX_PPEM)
        return -1;
    *out = (int32_t)lround(v * 64.0);
    return *out > 0 ? 0 : -1;
}

int ttc_size_parse(const char *text, ttc_size *out)
{
    char *end;
    if (!text || !*text || strlen(text) >= sizeof out->label)
        return -1;
    /* strtod would accept " 12", "+12", "0x10", "inf": only digits and '.'. */
    for (const char *p = text; *p; p++)
        if (!((*p >= '0' && *p <= '9') || *p == '.' || *p == 'x'))
            return -1;
    if (parse_ppem(text, &end, &out->x_26d6) != 0)
        return -1;
    if (*end == 'x') {
        const char *y = end + 1;
        if (parse_ppem(y, &end, &out->y_26d6) != 0)
            return -1;
    } else {
        out->y_26d6 = out->x_26d6;
    }
    if (*end != '\0')
        return -1;
    snprintf(out->label, sizeof out->label, "%s", text);
    return 0;
}

void ttc_glyph_init(ttc_glyph *g)
{
    memset(g, 0, sizeof *g);
}

void ttc_glyph_free(ttc_glyph *g)
{
    free(g->x);
    free(g->y);
    free(g->on_curve);
    free(g->contour_ends);
    ttc_glyph_init(g);
}

int ttc_glyph_reset(ttc_glyph *g, uint32_t num_points, uint32_t num_contours)
{
    g->loaded = 0;
    g->hardening_limit = 0;
    g->error[0] = '\0';
    g->num_points = g->num_contours = 0;
    g->advance_x = 0;
    if (num_points > g->cap_points) {
        uint32_t cap = num_points < 64 ? 64 : num_points;
        int32_t *x = realloc(g->x, cap * sizeof *x);
        if (x)
            g->x = x;
        int32_t *y = realloc(g->y, cap * sizeof *y);
        if (y)
            g->y = y;
        uint8_t *t = realloc(g->on_curve, cap);
        if (t)
            g->on_curve = t;
        if (!x || !y || !t)
            return -1;
        g->cap_points = cap;
    }
    if (num_contours > g->cap_contours) {
        uint32_t cap = num_contours < 16 ? 16 : num_contours;
        uint32_t *c = realloc(g->contour_ends, cap * sizeof *c);
        if (!c)
            return -1;
        g->contour_ends = c;
        g->cap_contours = cap;
    }
    return 0;
}

void ttc_glyph_fail(ttc_glyph *g, const char *error)
{
    g->loaded = 0;
    g->hardening_limit = 0;
    g->num_points = g->num_contours = 0;
    g->advance_x = 0;
    snprintf(g->error, sizeof g->error, "%s", error && *error ? error : "unknown error");
}

const char *ttc_status_name(ttc_status s)
{
    switch (s) {
    case TTC_IDENTICAL: return "identical";
    case TTC_DIFFERENT: return "different";
    case TTC_ERROR_FONTVM_ONLY: return "error_fontvm_only";
    case TTC_ERROR_REF_ONLY: return "error_ref_only";
    case TTC_ERROR_BOTH: return "error_both";
    case TTC_HARDENING_LIMIT: return "hardening_limit";
    case TTC_STATUS_COUNT: break;
    }
    return "?";
}

ttc_status ttc_compare(const ttc_glyph *ref, const ttc_glyph *fontvm, ttc_diff *out)
{
    memset(out, 0, sizeof *out);
    out->point = -1;
    if (!ref->loaded || !fontvm->loaded) {
        if (!ref->loaded && !fontvm->loaded)
            out->status = TTC_ERROR_BOTH;
        else if (ref->loaded && fontvm->hardening_limit)
            out->status = TTC_HARDENING_LIMIT;
        else
            out->status = ref->loaded ? TTC_ERROR_FONTVM_ONLY : TTC_ERROR_REF_ONLY;
        return out->status;
    }
    int differ = ref->advance_x != fontvm->advance_x || ref->num_points != fontvm->num_points ||
                 ref->num_contours != fontvm->num_contours;
    uint32_t n = ref->num_points < fontvm->num_points ? ref->num_points : fontvm->num_points;
    for (uint32_t i = 0; i < n; i++) {
        if (ref->x[i] != fontvm->x[i] || ref->y[i] != fontvm->y[i]) {
            out->point = (int32_t)i;
            out->ref_xy[0] = ref->x[i];
            out->ref_xy[1] = ref->y[i];
            out->fontvm_xy[0] = fontvm->x[i];
            out->fontvm_xy[1] = fontvm->y[i];
            differ = 1;
            break;
        }
    }
    for (uint32_t i = 0; !differ && i < n; i++)
        differ = ref->on_curve[i] != fontvm->on_curve[i];
    for (uint32_t i = 0; !differ && i < ref->num_contours; i++)
        differ = ref->contour_ends[i] != fontvm->contour_ends[i];
    out->status = differ ? TTC_DIFFERENT : TTC_IDENTICAL;
    return out->status;
}
