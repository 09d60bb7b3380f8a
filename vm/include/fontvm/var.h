/* fontvm — variable fonts: axes, named instances and locations.
 *
 * A location is a list of normalized coordinates, one per axis, in 16.16
 * fixed point (-0x10000 .. 0x10000), exactly the "blend coordinates"
 * FreeType keeps (FT_Get_Var_Blend_Coordinates).  The functions below make
 * one from design coordinates (FT_Set_Var_Design_Coordinates: clamped to
 * the axis, normalized, mapped through avar), from a named instance
 * (FT_Set_Named_Instance) or from normalized coordinates
 * (FT_Set_Var_Blend_Coordinates: avar not applied; a value outside
 * [-1, 1] is refused, as FreeType refuses it), in FreeType
 * 2.12.1's fixed-point arithmetic.  fv_tt_size_request takes a location. */
#ifndef FONTVM_VAR_H
#define FONTVM_VAR_H

#include <stdint.h>

#include "fontvm/api.h"
#include "fontvm/error.h"
#include "fontvm/fontvm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most axes fontvm reads (variable fonts in use have up to ~16); an
 * fvar with more makes the font static with FV_E_UNSUPPORTED
 * (fv_font_var_error). */
#define FV_VAR_MAX_AXES 64

typedef struct fv_var_axis {
    uint32_t tag;                 /* 'wght' etc. */
    int32_t min, def, max;        /* 16.16 design units (an axis whose default
                                   * lies outside its range is that one value,
                                   * as FreeType reads it) */
    uint16_t flags;               /* fvar flags (0x0001: hidden) */
    uint16_t name_id;
} fv_var_axis;

typedef struct fv_var_instance {
    uint16_t subfamily_name_id;
    uint16_t ps_name_id;          /* 0xFFFF when the font gives none */
    const int32_t *design;        /* one 16.16 design coordinate per axis */
} fv_var_instance;

/* Number of axes; 0 for a static font, or a variable font whose fvar or
 * gvar cannot be read (fv_font_var_error then says why). */
FV_API uint32_t fv_font_var_axis_count(const fv_font *font);
FV_API uint32_t fv_font_var_instance_count(const fv_font *font);
/* FV_E_BAD_ARGUMENT when index is out of range. */
FV_API fv_status fv_font_var_axis(const fv_font *font, uint32_t index, fv_var_axis *out);
FV_API fv_status fv_font_var_instance(const fv_font *font, uint32_t index, fv_var_instance *out);
/* FV_OK for a static font or readable variation tables, else the error
 * that made fontvm treat the font as static. */
FV_API fv_status fv_font_var_error(const fv_font *font, fv_error *err);

/* Locations: `normalized` receives fv_font_var_axis_count(font) values.
 * Missing trailing coordinates (n below the axis count) are the default
 * (FreeType's blend call keeps a face's earlier values there; fontvm's
 * locations have no earlier value); extra ones are ignored.  A font without axes gives FV_E_BAD_ARGUMENT. */
FV_API fv_status fv_font_var_from_design(const fv_font *font, const int32_t *design, uint32_t n,
                                         int32_t *normalized, fv_error *err);
FV_API fv_status fv_font_var_from_normalized(const fv_font *font, const int32_t *coords, uint32_t n,
                                             int32_t *normalized, fv_error *err);
/* Named instance `number`, 1-based as FT_Set_Named_Instance (0 is the
 * default location). */
FV_API fv_status fv_font_var_from_instance(const fv_font *font, uint32_t number,
                                           int32_t *normalized, fv_error *err);

/* Axis tag from its four-character spelling ("wght"; shorter tags are
 * padded with spaces, as hb-view reads them); -1 when not 1-4 printable
 * ASCII characters. */
FV_API int fv_var_tag_parse(const char *text, uint32_t *tag);

#ifdef __cplusplus
}
#endif
#endif
