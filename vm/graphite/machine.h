/* The Graphite stack machine: its stack bounds, state and results, the
 * load-time verifier's context, and the compile and run entry points
 * (verify.c, machine.c).  The opcodes themselves: opcodes.h. */
#ifndef FV_GRAPHITE_MACHINE_H
#define FV_GRAPHITE_MACHINE_H

#include <stdint.h>

#include "common/mem.h"
#include "fontvm/error.h"
#include "graphite/face.h"
#include "graphite/opcodes.h"
#include "graphite/segment.h"

/* ---- budgets (graphite2 1.3.14's values in the comments) ---- */
#define GRV_STACK_MAX 1024        /* vm::Machine STACK_MAX = 1 << 10 */
/* Cells below the stack's base that an opcode may touch when the stack holds
 * fewer values at run time than the verifier counted (a slot reference that
 * finds no slot pushes nothing; SetFeat pops without being counted): the
 * deepest opcode (Cond) reaches 3 below.  graphite2 keeps such a guard too
 * and fails the run only when an opcode *ends* below the base. */
#define GRV_STACK_GUARD 3

/* Machine results. */
typedef enum grv_status {
    GRV_FINISHED = 0,
    GRV_STACK_UNDERFLOW,
    GRV_STACK_NOT_EMPTY,
    GRV_STACK_OVERFLOW,
    GRV_SLOT_OFFSET_OUT_OF_BOUNDS,
    GRV_DIED_EARLY,
    GRV_OUT_OF_STEPS      /* the segment's or the pass's step budget is spent */
} grv_status;

typedef struct grv_machine {
    grv_seg *seg;
    grv_slotmap *map;
    grv_status status;
    int positioned;
    int32_t cells[GRV_STACK_GUARD + GRV_STACK_MAX]; /* guard, then the stack */
} grv_machine;

/* The load-time verifier (verify.c): one piece of code, constraint or
 * action, of one rule of a pass of type GRV_PASS_* (graphite2's passtype,
 * from the Silf pass indexes). */
enum { GRV_PASS_UNKNOWN = 0, GRV_PASS_LINEBREAK, GRV_PASS_SUBSTITUTE, GRV_PASS_POSITIONING,
       GRV_PASS_JUSTIFICATION };

typedef struct grv_verify_ctx {
    const fv_gr_face *face;
    const grv_silf *silf;
    int is_constraint;
    int pass_type;       /* GRV_PASS_* (graphite2's passtype) */
    int rule_length;     /* slots in the rule (sort) */
    int pre_context;
    uint32_t pass_index, rule_index;
} grv_verify_ctx;
fv_status grv_verify(const grv_verify_ctx *ctx, grv_code code, fv_error *err);

/* Decodes code->code into code->insns, with a temporary copy of the
 * current slot before the opcode at each of the `copies` code offsets
 * (ascending; silf.c plan_copies); any bytes are accepted (what cannot be
 * decoded becomes a GRV_XOP_BAD that stops the rule), so the verifier's
 * verdict, not this, decides what a font may run.  grv_compile_into
 * writes at `out`, which holds room for them (silf.c code_bound; empty code
 * gets no instructions); grv_compile and grv_compile_planned allocate them
 * instead (FV_E_NOMEM only), and grv_code_free releases what they
 * allocated. */
void grv_compile_into(grv_code *code, const uint32_t *copies, uint32_t num_copies, grv_insn *out);
fv_status grv_compile_planned(fv_mem *mem, grv_code *code, const uint32_t *copies,
                              uint32_t num_copies);
fv_status grv_compile(fv_mem *mem, grv_code *code);
void grv_code_free(fv_mem *mem, grv_code *code);
/* Runs decoded code (grv_compile) at map entry *mapi; mapb is the rule's
 * first non-pre-context entry.  Returns the code's result; m->status says
 * how the run ended; *mapi (and *is_out) the map entry and slot it left. */
int32_t grv_run(grv_machine *m, const grv_code *code, int *mapi, int mapb, int32_t *is_out);
/* "switch" or "computed-goto": the dispatch of grv_run's untraced runs in
 * this build (machine.c). */
const char *grv_dispatch_kind(void);

#endif
