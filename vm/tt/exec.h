/* The execution context object behind fv_tt_exec, and the program runner. */
#ifndef FV_TT_EXEC_H
#define FV_TT_EXEC_H

#include "tt/interp.h"

struct fv_tt_exec {
    fv_tt_face *face;
    fv_mem *mem;
    int64_t *stack;
    uint32_t stack_size;
    tt_opinfo ops[256];        /* dense copy of opcodes.def */
    uint64_t counts[256];
    fv_tt_trace_fn trace;
    void *trace_user;
    /* Trace scratch (grown on demand while tracing). */
    tt_vec *snap;
    uint32_t snap_cap;
    uint32_t *mv_points;
    int32_t *mv_old, *mv_new;
    uint8_t *mv_zone;
    uint32_t mv_cap;
    int32_t *trace_stack;
    uint32_t trace_stack_cap;
};

/* Runs the program in range `range` from its start (TT_RunIns).  The
 * context's resources, gs, zones and zp pointers must be set up. */
fv_status tt_execute(tt_ctx *c, int range);
/* "switch" or "computed-goto": the dispatch compiled into this build. */
const char *tt_dispatch_kind(void);

#endif
