/* A Graphite face and segment built in memory from the engine's internal
 * structures (vm/graphite/grv.h), with no font file, for the gr_code target:
 * raw rule code goes through grv_verify and then the machine (grv_run) on a
 * slot stream whose glyphs the input chooses.
 *
 * The face: FVSYNTH_GR_GLYPHS glyphs (advance 100*(g+1), a fixed bounding
 * box), FVSYNTH_GR_ATTRS glyph attributes (attribute a of glyph g is
 * 10*g + a, so attachment and metric reads see distinct values),
 * FVSYNTH_GR_CLASSES classes (the first FVSYNTH_GR_LINEAR linear, two
 * glyphs each; the rest lookup classes of two glyphs), 2 user slot
 * attributes, FVSYNTH_GR_FEATURES features (values 0..3) and one justification level.  The
 * counts are large enough that most rule code taken from real fonts passes
 * the verifier's index checks.
 * Everything lives inside the fvsynth_gr object; the only heap memory is the
 * segment's slot pool, allocated by the engine through `mem`. */
#ifndef FVFUZZ_GR_SYNTH_H
#define FVFUZZ_GR_SYNTH_H

#include <stdint.h>

#include "graphite/grv.h"

#define FVSYNTH_GR_GLYPHS 16
#define FVSYNTH_GR_ATTRS 32
#define FVSYNTH_GR_CLASSES 256
#define FVSYNTH_GR_LINEAR 248
#define FVSYNTH_GR_FEATURES 32
/* Slots in the synthetic stream: more than any rule may span in our runs
 * (a rule's sort is at most 16 here), fewer than GRV_MAX_SLOTS. */
#define FVSYNTH_GR_MAX_SLOTS 24

typedef struct fvsynth_gr {
    fv_mem mem;
    fv_gr_face face;
    grv_pass pass;
    grv_feature feats[FVSYNTH_GR_FEATURES];
    int16_t fvals[2];
    uint16_t flabels[2];
    grv_seg seg;
    int32_t feat_vals[FVSYNTH_GR_FEATURES];
    grv_char chars[FVSYNTH_GR_MAX_SLOTS];
    /* Not cleared by fvsynth_gr_face (see there): from here on, tables it
     * writes whole, then what fvsynth_gr_segment sets. */
    uint32_t class_off[FVSYNTH_GR_CLASSES + 1];
    uint16_t class_data[FVSYNTH_GR_LINEAR * 2 + (FVSYNTH_GR_CLASSES - FVSYNTH_GR_LINEAR) * 8];
    grv_glyph glyphs[FVSYNTH_GR_GLYPHS];
    int16_t attrs[FVSYNTH_GR_GLYPHS * FVSYNTH_GR_ATTRS]; /* by attribute, as fv_gr_face holds them */
    grv_attr_col attr_col[FVSYNTH_GR_ATTRS];
    grv_slotmap map;
    grv_machine m;
} fvsynth_gr;

/* Builds the face; library memory goes through `a`. */
void fvsynth_gr_face(fvsynth_gr *f, const fv_allocator *a);
/* Builds a segment of n (1..FVSYNTH_GR_MAX_SLOTS) slots with glyphs
 * gids[i] % FVSYNTH_GR_GLYPHS, all in the rule map, and points the machine
 * at it.  Returns 0, or -1 when a slot allocation was refused. */
int fvsynth_gr_segment(fvsynth_gr *f, const uint8_t *gids, int n, int rtl);
/* Frees the slot pool. */
void fvsynth_gr_free(fvsynth_gr *f);

#endif
