/* fontvm — SIL Graphite shaping (owned by vm/graphite; see issue 4).
 *
 * fv_gr_face parses and verifies Silf/Glat/Gloc/Feat/Sill of a font once;
 * fv_gr_shape shapes one segment of text with graphite2's semantics.
 * Positions are in font units (no scaling), as graphite2 with a NULL font.
 * The owner of vm/graphite may extend this header but must keep what is
 * here.
 *
 * Threads: a face is read-only while shaping, so several threads may call
 * fv_gr_shape on one face at once (each segment is the caller's; the
 * font's memory accounting is atomic).  fv_gr_set_trace changes the face:
 * call it before the face is shared, or while no fv_gr_shape runs on it.
 * To trace or count one call among several, put the hook and counters in
 * that call's request; opcode counters are incremented atomically, so
 * threads may share one array. */
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
    int32_t value;     /* taken as its low 16 bits, unsigned, as graphite2's
                          gr_fref_set_feature_value takes a gr_uint16; one
                          above the feature's largest setting is ignored */
} fv_gr_feature_setting;

struct fv_gr_trace_event;

typedef struct fv_gr_shape_request {
    const uint32_t *text;               /* Unicode scalar values */
    size_t length;
    const fv_gr_feature_setting *features;
    size_t num_features;
    uint32_t lang;                      /* language tag, 0 for default */
    int rtl;                            /* right-to-left segment; graphite2's gr_bidirtl
                                           bits also work (2 = no bidi, 4 = no mirror) */
    /* gr2fonttest -j: after shaping, justify the segment (gr_seg_justify,
     * complete line) to this percentage of its natural advance; 0 = off.
     * NaN, infinities, negative values and values above 10000 are refused
     * (bad_argument, the value in the error's detail). */
    float justify_percent;
    /* Tracing for this call only (see fv_gr_set_trace; the same types as
     * fv_gr_trace_fn): when `trace` or `op_counts` is set, this call uses
     * these three and not the face's. */
    void (*trace)(void *user, const struct fv_gr_trace_event *ev);
    void *trace_user;
    uint64_t *op_counts;
} fv_gr_shape_request;

typedef struct fv_gr_slot_info {
    uint32_t gid;
    float x, y;                 /* origin, font units */
    int32_t attached_to;        /* slot index of the parent, -1 if none */
    int insert;                 /* slot was inserted by a rule */
    int32_t break_weight;
    int32_t before, after;      /* char indexes (graphite2's before/after) */
    /* Additions for gr2fonttest's log and diagnostics. */
    float attach_x, attach_y;   /* attach.at (gr_slatAttX/Y), font units */
    float with_x, with_y;       /* attach.with (gr_slatAttWithX/Y) */
    float advance_x, advance_y; /* the slot's own advance */
    int32_t original;           /* char index the slot originated from */
    int32_t last_pass, last_rule; /* pass and rule that last changed the slot, -1 if none */
} fv_gr_slot_info;

typedef struct fv_gr_char_info {
    int32_t before, after;      /* slot indexes */
    int32_t base;               /* code point index */
    uint32_t unicode;
    int32_t break_weight;
} fv_gr_char_info;

typedef struct fv_gr_segment {
    size_t num_slots;
    fv_gr_slot_info *slots;
    float advance_x, advance_y;
    size_t num_chars;
    fv_gr_char_info *chars;
    /* Work the segment took, in the steps its budget counts (instructions
     * run, FSM slots walked, candidate rules, pass-loop steps): in all, and
     * in its most expensive pass.  For measuring fonts against the budget. */
    uint64_t steps, max_pass_steps;
} fv_gr_segment;

/* Tracing (for `fontvm trace` and coverage).  Events are delivered in order
 * while fv_gr_shape runs on this face; pass NULL to switch tracing off.  The
 * pointers in an event are valid only during the call. */
typedef enum fv_gr_trace_kind {
    FV_GR_TRACE_PASS_BEGIN = 0,  /* pass starts: slot stream in gids/num_slots */
    FV_GR_TRACE_PASS_END,        /* pass ended: slot stream after it */
    FV_GR_TRACE_RULE,            /* rule `rule` fired at slot `slot` */
    FV_GR_TRACE_OP,              /* an opcode is about to execute (pc, opcode, stack) */
    FV_GR_TRACE_BIDI             /* the bidi pass reversed the slots */
} fv_gr_trace_kind;

typedef struct fv_gr_trace_event {
    fv_gr_trace_kind kind;
    int32_t pass;              /* pass index, -1 if n/a */
    int32_t rule;              /* rule index, -1 if n/a */
    int is_constraint;         /* FV_GR_TRACE_OP: running constraint code */
    uint32_t pc;               /* offset of the opcode inside its code */
    int32_t opcode;
    const int32_t *stack;      /* bottom first */
    size_t stack_depth;
    const uint32_t *gids;      /* slot stream (PASS_*), in order */
    size_t num_slots;
    int32_t slot;              /* RULE: index in the stream of the rule's first slot */
} fv_gr_trace_event;

typedef void (*fv_gr_trace_fn)(void *user, const fv_gr_trace_event *ev);

/* Sets the trace hook and an optional array of 256 opcode execution counters
 * (incremented atomically, never reset, by every later fv_gr_shape on this
 * face whose request brings no hooks of its own).  Not while another thread
 * shapes with this face (see Threads above). */
FV_API void fv_gr_set_trace(fv_gr_face *face, fv_gr_trace_fn fn, void *user,
                            uint64_t *op_counts);
/* Mnemonic of a Graphite opcode ("PUSH_BYTE"), NULL if unknown. */
FV_API const char *fv_gr_opcode_name(int opcode);

FV_API fv_status fv_gr_face_new(fv_font *font, fv_gr_face **out, fv_error *err);
FV_API void fv_gr_face_free(fv_gr_face *face);

FV_API fv_status fv_gr_shape(fv_gr_face *face, const fv_gr_shape_request *req,
                             fv_gr_segment **out, fv_error *err);
FV_API void fv_gr_segment_free(fv_gr_face *face, fv_gr_segment *seg);

#ifdef __cplusplus
}
#endif
#endif
