/* fontvm — SIL Graphite shaping (owned by vm/graphite; see issue 4).
 *
 * fv_gr_face parses and verifies Silf/Glat/Gloc/Feat/Sill of a font once;
 * fv_gr_shape shapes one segment of text with graphite2's semantics.
 * Positions are in font units (no scaling), as graphite2 with a NULL font.
 * The owner of vm/graphite may extend this header but must keep what is
 * here. */
#ifndef FONTVM_GRAPHITE_H
#define FONTVM_GRAPHITE_H

#include <stddef.h>
#include <stdint.h>

#include "fontvm/api.h"
#include "fontvm/error.h"
#include "fontvm/fontvm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fv_gr_face fv_gr_face;

typedef struct fv_gr_feature_setting {
    uint32_t id;       /* feature id (a tag or a number) */
    int32_t value;
} fv_gr_feature_setting;

typedef struct fv_gr_shape_request {
    const uint32_t *text;               /* Unicode scalar values */
    size_t length;
    const fv_gr_feature_setting *features;
    size_t num_features;
    uint32_t lang;                      /* language tag, 0 for default */
    int rtl;                            /* right-to-left segment */
} fv_gr_shape_request;

typedef struct fv_gr_slot_info {
    uint32_t gid;
    float x, y;                 /* origin, font units */
    int32_t attached_to;        /* slot index of the parent, -1 if none */
    int insert;                 /* slot was inserted by a rule */
    int32_t break_weight;
    int32_t before, after;      /* char indexes (graphite2's before/after) */
} fv_gr_slot_info;

typedef struct fv_gr_char_info {
    int32_t before, after;      /* slot indexes */
    int32_t base;               /* code point index */
} fv_gr_char_info;

typedef struct fv_gr_segment {
    size_t num_slots;
    fv_gr_slot_info *slots;
    float advance_x, advance_y;
    size_t num_chars;
    fv_gr_char_info *chars;
} fv_gr_segment;

FV_API fv_status fv_gr_face_new(fv_font *font, fv_gr_face **out, fv_error *err);
FV_API void fv_gr_face_free(fv_gr_face *face);

FV_API fv_status fv_gr_shape(fv_gr_face *face, const fv_gr_shape_request *req,
                             fv_gr_segment **out, fv_error *err);
FV_API void fv_gr_segment_free(fv_gr_face *face, fv_gr_segment *seg);

#ifdef __cplusplus
}
#endif
#endif
