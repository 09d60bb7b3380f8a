/* fontvm's graphite2 drop-in: the objects behind graphite2's opaque handles.
 *
 * A gr_face owns the fontvm font and Graphite face and is reference counted:
 * each font, segment and feature-value set made from it holds a reference,
 * so that graphite2's handles may be destroyed in any order (the face's
 * memory goes when the last of them goes).  A segment keeps the engine's
 * live slot stream (grv_seg) for gr_slot_attr and gr_seg_justify, and an
 * array of gr_slot handles in stream order, rebuilt after justification.
 *
 * The API functions are named GR2_NAME(x): gr_x in the drop-in libraries,
 * fvg2_x in the static library the differential fuzz twin links beside the
 * real graphite2 (compat/graphite2/CMakeLists.txt). */
#ifndef FV_COMPAT_GRAPHITE2_FVG2_H
#define FV_COMPAT_GRAPHITE2_FVG2_H

#include <stdatomic.h>
#include <stdint.h>

#include "fontvm/fontvm.h"
#include "fontvm/graphite.h"
#include "graphite/grv.h"
#ifdef FVG2_PREFIXED
#include "fvg2_api.h"
#endif
#include "graphite2/Font.h"
#include "graphite2/Log.h"
#include "graphite2/Segment.h"

/* Largest table a get_table callback may hand us, and largest font we
 * assemble from them: graphite2 has no bound; fontvm's font memory cap
 * would refuse more anyway. */
#define FVG2_MAX_TABLE_BYTES (256u * 1024u * 1024u)

struct gr_feature_ref {
    const gr_face *face;
    uint16_t index;          /* Feat entry (fv_gr_face.features) */
};

struct gr_face {
    atomic_int refs;         /* the face handle, its fonts, segments, feature values */
    fv_font *font;
    fv_gr_face *gr;
    uint8_t *sfnt;           /* sfnt bytes assembled from get_table, or NULL */
    gr_faceinfo info;
    struct gr_feature_ref *frefs;  /* one per Feat entry */
    uint16_t *listed;        /* Feat indexes gr_face_fref enumerates */
    uint16_t num_listed;
};

struct gr_feature_val {
    const gr_face *face;
    uint16_t num;            /* the face's feature count */
    int32_t values[];        /* by Feat index */
};

struct gr_font {
    const gr_face *face;     /* referenced */
    float ppm, scale;        /* scale = ppm / upem */
    const void *handle;
    gr_advance_fn advance_x, advance_y;  /* hinted advances, or NULL */
    grv_font engine;         /* the same for the engine's positioning */
};

struct gr_char_info {
    uint32_t unicode;
    int32_t break_weight, before, after;
    size_t base;
};

struct gr_slot {
    gr_segment *seg;
    int32_t pool;            /* the engine's slot (grv_seg pool index) */
    uint32_t pos;            /* position in the stream */
    int32_t parent, child, sibling;  /* positions, -1 for none */
    uint16_t gid;
    uint8_t cut_before;      /* gr_slot_linebreak_before */
    float x, y;              /* origin, scaled */
};

struct gr_segment {
    const gr_face *face;     /* referenced */
    grv_seg seg;
    float scale;             /* of the font it was made with (1 without) */
    int scaled;              /* positions are in pixels (made with a font) */
    float advance_x_total, advance_y_total;
    uint32_t num_slots;
    gr_slot *slots;
    uint32_t num_chars;
    gr_char_info *chars;
};

/* face.c */
void fvg2_face_ref(const gr_face *face);
void fvg2_face_unref(const gr_face *face);

#endif
