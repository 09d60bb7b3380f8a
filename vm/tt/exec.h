/* The execution context object behind fv_tt_exec, and the program runner. */
#ifndef FV_TT_EXEC_H
#define FV_TT_EXEC_H

#include "sfnt/sfnt.h"
#include "tt/interp.h"
#include "tt/variation.h"
#include "tt/zone.h"

struct fv_tt_exec {
    fv_tt_face *face;
    fv_mem *mem;
    uint64_t counts[256];
    uint64_t last_load_steps; /* budget steps of the last glyph load */
    uint64_t max_run_steps;   /* most budget steps of one fpgm/prep run */
    fv_tt_trace_fn trace;
    void *trace_user;
    fv_tt_diag_fn diag;       /* fv_tt_exec_set_diagnostics; NULL: off */
    void *diag_user;
    /* Trace scratch (grown on demand while tracing). */
    tt_vec *snap;
    uint32_t snap_cap;
    uint32_t *mv_points;
    int32_t *mv_old, *mv_new;
    uint8_t *mv_zone;
    uint32_t mv_cap;
    int32_t *trace_stack;
    uint32_t trace_stack_cap;
    /* Glyph-load scratch, kept from one load to the next so that a warm
     * context allocates nothing per glyph (FreeType keeps its glyph loader
     * the same way): the outline being assembled, the zone a glyph program
     * runs on, and one parsed glyph per composite nesting level. */
    tt_vec *load_pts;
    uint8_t *load_tags;
    uint32_t load_pts_cap;
    uint32_t *load_ends;
    uint32_t load_ends_cap;
    tt_zone_buf load_zone;
    int64_t *cvt_copy, *storage_copy; /* copy-on-write buffers (cvt.c) */
    uint32_t cvt_copy_len, storage_copy_len;
    /* One parsed glyph per nesting level reached so far (levels are
     * reached in order; at most SFNT_MAX_COMPOSITE_DEPTH + 1).  Grown on
     * demand: most fonts nest one or two levels, and a fixed array of 101
     * pointers was 808 of the context's bytes. */
    sfnt_glyph **load_glyphs;
    uint32_t load_levels;
    tt_var_buf var;           /* glyph variations (vm/tt/variation.c) */
};

/* Runs the program in range `range` from its start (TT_RunIns).  The
 * context's resources, gs, zones and zp pointers must be set up. */
fv_status tt_execute(tt_ctx *c, int range);
/* "switch" or "computed-goto": the dispatch compiled into this build. */
const char *tt_dispatch_kind(void);

#endif
