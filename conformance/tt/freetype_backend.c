/* The reference side of the TrueType comparison: the real FreeType library
 * (Debian's libfreetype 2.12.1), used only through its public API.
 *
 * The interpreter version is a property of the TrueType driver module of an
 * FT_Library, so each version gets its own library and face.  A size
 * configuration gets a fresh FT_Size so no state (CVT, storage, the
 * mono/subpixel prep re-run FreeType does when the target changes) leaks
 * from one configuration into the next. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_DRIVER_H
#include FT_MODULE_H
#include FT_MULTIPLE_MASTERS_H
#include FT_SIZES_H

#include "tt_compare.h"

/* FreeType's error names, from its public error list (fterrors.h is made to
 * be included this way to build such tables).  `e` arrives as
 * FT_ERR_CAT(FT_ERR_PREFIX, name): it is expanded before it is made a
 * string, so the name reads FT_Err_Invalid_Opcode. */
#undef FTERRORS_H_
#define TTC_STRING(x) #x
#define TTC_EXPANDED_STRING(x) TTC_STRING(x)
#define FT_ERRORDEF(e, v, s) {e, TTC_EXPANDED_STRING(e)},
#define FT_ERROR_START_LIST {
#define FT_ERROR_END_LIST {0, NULL}};
static const struct {
    int code;
    const char *name;
} ft_error_names[] =
#include FT_ERRORS_H

static const char *ft_error_name(FT_Error e)
{
    for (size_t i = 0; ft_error_names[i].name; i++)
        if (ft_error_names[i].code == e)
            return ft_error_names[i].name;
    return "FT_Err_unknown";
}

enum { TTC_FT_V35 = 0, TTC_FT_V40 = 1, TTC_FT_VERSIONS = 2 };

struct ttc_ft {
    const char *path;           /* copy, or NULL for memory fonts */
    const uint8_t *data;
    size_t size;
    uint32_t face_index;
    FT_Library lib[TTC_FT_VERSIONS];
    FT_Face face[TTC_FT_VERSIONS];
    FT_Size cur_size;           /* the configuration's size (owned by face[cur]) */
    int cur;                    /* index into lib/face of the current size */
    int size_ok;
    char size_error[128];
    FT_Int32 load_flags;
    char name[160];
    FT_Fixed coords[TTC_MAX_AXES]; /* the location, for every set_size */
    uint32_t num_coords;
    int design;                    /* coords are design coordinates */
    uint32_t named_instance;       /* 1-based FT_Set_Named_Instance, or 0 */
    int varied[TTC_FT_VERSIONS];   /* coordinates were set on face[v] */
};

static int open_version(ttc_ft *ft, int v, char *errbuf, size_t errsize)
{
    if (ft->face[v])
        return 0;
    FT_Error e = FT_Init_FreeType(&ft->lib[v]);
    if (e) {
        snprintf(errbuf, errsize, "FT_Init_FreeType: %s", ft_error_name(e));
        return -1;
    }
    FT_UInt version = v == TTC_FT_V35 ? TT_INTERPRETER_VERSION_35 : TT_INTERPRETER_VERSION_40;
    e = FT_Property_Set(ft->lib[v], "truetype", "interpreter-version", &version);
    if (e) {
        snprintf(errbuf, errsize, "interpreter-version %u: %s", version, ft_error_name(e));
        return -1;
    }
    if (ft->path)
        e = FT_New_Face(ft->lib[v], ft->path, (FT_Long)ft->face_index, &ft->face[v]);
    else
        e = FT_New_Memory_Face(ft->lib[v], ft->data, (FT_Long)ft->size, (FT_Long)ft->face_index,
                               &ft->face[v]);
    if (e) {
        ft->face[v] = NULL;
        snprintf(errbuf, errsize, "FT_New_Face: %s", ft_error_name(e));
        return -1;
    }
    return 0;
}

static int ttc_ft_open(ttc_ft *ft, ttc_ft **out, char *errbuf, size_t errsize)
{
    /* Open the v40 face now so bad fonts are reported at open time. */
    if (open_version(ft, TTC_FT_V40, errbuf, errsize) != 0) {
        ttc_ft_close(ft);
        return -1;
    }
    FT_Face f = ft->face[TTC_FT_V40];
    snprintf(ft->name, sizeof ft->name, "%s%s%s", f->family_name ? f->family_name : "",
             f->style_name ? " " : "", f->style_name ? f->style_name : "");
    *out = ft;
    return 0;
}

int ttc_ft_open_file(const char *path, uint32_t face_index, ttc_ft **out, char *errbuf,
                     size_t errsize)
{
    ttc_ft *ft = calloc(1, sizeof *ft);
    char *copy = malloc(strlen(path) + 1);
    if (!ft || !copy) {
        free(ft);
        free(copy);
        snprintf(errbuf, errsize, "out of memory");
        return -1;
    }
    strcpy(copy, path);
    ft->path = copy;
    ft->face_index = face_index;
    return ttc_ft_open(ft, out, errbuf, errsize);
}

int ttc_ft_open_memory(const uint8_t *data, size_t size, uint32_t face_index, ttc_ft **out,
                       char *errbuf, size_t errsize)
{
    ttc_ft *ft = calloc(1, sizeof *ft);
    if (!ft) {
        snprintf(errbuf, errsize, "out of memory");
        return -1;
    }
    ft->data = data;
    ft->size = size;
    ft->face_index = face_index;
    return ttc_ft_open(ft, out, errbuf, errsize);
}

void ttc_ft_close(ttc_ft *ft)
{
    if (!ft)
        return;
    for (int v = 0; v < TTC_FT_VERSIONS; v++) {
        /* FT_Done_Face frees the face's sizes too. */
        if (ft->face[v])
            FT_Done_Face(ft->face[v]);
        if (ft->lib[v])
            FT_Done_FreeType(ft->lib[v]);
    }
    free((char *)ft->path);
    free(ft);
}

uint32_t ttc_ft_num_glyphs(const ttc_ft *ft)
{
    return (uint32_t)ft->face[TTC_FT_V40]->num_glyphs;
}

uint32_t ttc_ft_units_per_em(const ttc_ft *ft)
{
    return ft->face[TTC_FT_V40]->units_per_EM;
}

const char *ttc_ft_font_name(const ttc_ft *ft)
{
    return ft->name;
}

void ttc_ft_glyph_name(const ttc_ft *ft, uint32_t gid, char *buf, size_t size)
{
    buf[0] = '\0';
    FT_Face f = ft->face[TTC_FT_V40];
    if (size == 0 || !FT_HAS_GLYPH_NAMES(f))
        return;
    if (FT_Get_Glyph_Name(f, gid, buf, (FT_UInt)size) != 0)
        buf[0] = '\0';
}

void ttc_ft_version(char *buf, size_t size)
{
    FT_Library lib;
    FT_Int major = 0, minor = 0, patch = 0;
    if (FT_Init_FreeType(&lib) == 0) {
        FT_Library_Version(lib, &major, &minor, &patch);
        FT_Done_FreeType(lib);
    }
    snprintf(buf, size, "%d.%d.%d", major, minor, patch);
}

int ttc_ft_set_size(ttc_ft *ft, const ttc_size *size, fv_tt_mode mode, int pedantic,
                    char *errbuf, size_t errsize)
{
    ft->size_ok = 0;
    if (ft->cur_size) {
        FT_Done_Size(ft->cur_size);
        ft->cur_size = NULL;
    }
    int v = mode == FV_TT_V35 ? TTC_FT_V35 : TTC_FT_V40;
    if (open_version(ft, v, ft->size_error, sizeof ft->size_error) != 0)
        goto fail;
    ft->cur = v;
    FT_Error e = 0;
    if (ft->num_coords == 0 && !ft->named_instance && ft->varied[v]) {
        /* No location: the default instance as a fresh face has it (once
         * coordinates are set, a face keeps its variation state: GETVARIATION
         * defined, the variation path even at the default). */
        FT_Done_Face(ft->face[v]);
        FT_Done_FreeType(ft->lib[v]);
        ft->face[v] = NULL;
        ft->lib[v] = NULL;
        ft->varied[v] = 0;
        if (open_version(ft, v, ft->size_error, sizeof ft->size_error) != 0)
            goto fail;
    } else if (ft->named_instance && FT_HAS_MULTIPLE_MASTERS(ft->face[v])) {
        /* FreeType's own named-instance path (fvar's coordinates through
         * its design normalization and avar), read back by
         * ttc_ft_blend_coords. */
        ft->varied[v] = 1;
        e = FT_Set_Named_Instance(ft->face[v], ft->named_instance);
        if (e) {
            snprintf(ft->size_error, sizeof ft->size_error, "FT_Set_Named_Instance %u: %s",
                     ft->named_instance, ft_error_name(e));
            goto fail;
        }
    } else if (ft->num_coords > 0 && FT_HAS_MULTIPLE_MASTERS(ft->face[v])) {
        ft->varied[v] = 1;
        /* Every axis, every time: the faces outlive configurations. */
        FT_Fixed all[TTC_MAX_AXES] = {0};
        FT_MM_Var *mm = NULL;
        e = FT_Get_MM_Var(ft->face[v], &mm);
        FT_UInt na = e == 0 && mm->num_axis < TTC_MAX_AXES ? mm->num_axis : TTC_MAX_AXES;
        if (mm)
            FT_Done_MM_Var(ft->lib[v], mm);
        memcpy(all, ft->coords, ft->num_coords * sizeof(FT_Fixed));
        /* Design coordinates go through FreeType's own normalization and
         * avar mapping, which ttc_ft_blend_coords reads back. */
        if (e == 0)
            e = ft->design ? FT_Set_Var_Design_Coordinates(ft->face[v], na, all)
                           : FT_Set_Var_Blend_Coordinates(ft->face[v], na, all);
        if (e) {
            snprintf(ft->size_error, sizeof ft->size_error, "%s: %s",
                     ft->design ? "FT_Set_Var_Design_Coordinates" : "FT_Set_Var_Blend_Coordinates",
                     ft_error_name(e));
            goto fail;
        }
    } else if (ft->num_coords || ft->named_instance) {
        snprintf(ft->size_error, sizeof ft->size_error, "a location for a font without axes");
        goto fail;
    }
    e = FT_New_Size(ft->face[v], &ft->cur_size);
    if (e == 0)
        e = FT_Activate_Size(ft->cur_size);
    if (e == 0)
        e = FT_Set_Char_Size(ft->face[v], size->x_26d6, size->y_26d6, 72, 72);
    if (e) {
        snprintf(ft->size_error, sizeof ft->size_error, "FT_Set_Char_Size: %s", ft_error_name(e));
        goto fail;
    }
    FT_Int32 target = FT_LOAD_TARGET_NORMAL;
    if (mode == FV_TT_V40_MONO)
        target = FT_LOAD_TARGET_MONO;
    else if (mode == FV_TT_V40_LCD)
        target = FT_LOAD_TARGET_LCD;
    ft->load_flags = FT_LOAD_NO_AUTOHINT | FT_LOAD_NO_BITMAP | target;
    if (pedantic)
        ft->load_flags |= FT_LOAD_PEDANTIC;
    ft->size_ok = 1;
    return 0;
fail:
    snprintf(errbuf, errsize, "%s", ft->size_error);
    return -1;
}

int ttc_ft_set_location(ttc_ft *ft, const int32_t *coords, uint32_t n, char *errbuf,
                        size_t errsize)
{
    if (n > TTC_MAX_AXES) {
        snprintf(errbuf, errsize, "more than %d coordinates", TTC_MAX_AXES);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        ft->coords[i] = coords[i];
    ft->num_coords = n;
    ft->design = 0;
    ft->named_instance = 0;
    return 0;
}

void ttc_ft_set_named_instance(ttc_ft *ft, uint32_t number)
{
    ft->num_coords = 0;
    ft->design = 0;
    ft->named_instance = number;
}

int ttc_ft_set_design_location(ttc_ft *ft, const int32_t *design, uint32_t n, char *errbuf,
                               size_t errsize)
{
    if (ttc_ft_set_location(ft, design, n, errbuf, errsize) != 0)
        return -1;
    ft->design = n > 0;
    return 0;
}

int ttc_ft_blend_coords(const ttc_ft *ft, int32_t *out, uint32_t n)
{
    if (!ft->size_ok || !ft->face[ft->cur] || n > TTC_MAX_AXES)
        return -1;
    FT_Fixed got[TTC_MAX_AXES];
    if (FT_Get_Var_Blend_Coordinates(ft->face[ft->cur], n, got) != 0)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        out[i] = (int32_t)got[i];
    return 0;
}

void ttc_ft_load(ttc_ft *ft, uint32_t gid, ttc_glyph *out)
{
    if (!ft->size_ok) {
        ttc_glyph_fail(out, ft->size_error);
        return;
    }
    FT_Face f = ft->face[ft->cur];
    FT_Error e = FT_Load_Glyph(f, gid, ft->load_flags);
    if (e) {
        ttc_glyph_fail(out, ft_error_name(e));
        return;
    }
    FT_GlyphSlot slot = f->glyph;
    if (slot->format != FT_GLYPH_FORMAT_OUTLINE) {
        ttc_glyph_fail(out, "FreeType returned a non-outline glyph");
        return;
    }
    const FT_Outline *o = &slot->outline;
    uint32_t np = o->n_points > 0 ? (uint32_t)o->n_points : 0;
    uint32_t nc = o->n_contours > 0 ? (uint32_t)o->n_contours : 0;
    if (ttc_glyph_reset(out, np, nc) != 0) {
        ttc_glyph_fail(out, "out of memory");
        return;
    }
    for (uint32_t i = 0; i < np; i++) {
        out->x[i] = (int32_t)o->points[i].x;
        out->y[i] = (int32_t)o->points[i].y;
        out->on_curve[i] = (uint8_t)(FT_CURVE_TAG(o->tags[i]) == FT_CURVE_TAG_ON);
    }
    for (uint32_t i = 0; i < nc; i++)
        out->contour_ends[i] = (uint32_t)(uint16_t)o->contours[i];
    out->num_points = np;
    out->num_contours = nc;
    out->advance_x = (int32_t)slot->advance.x;
    out->loaded = 1;
}
