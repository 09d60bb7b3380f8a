/* Instruction families: one handler per family, each switching on the
 * opcode's range (opcodes.def).  `args` points at the instruction's fixed
 * arguments, args[0] deepest; the dispatcher has checked they exist and that
 * the fixed pushes fit.  Handlers return FV_OK or the error they raised with
 * tt_fail (context filled in). */
#ifndef FV_TT_INS_H
#define FV_TT_INS_H

#include "tt/interp.h"

fv_status tt_ins_push(tt_ctx *c, int64_t *args);    /* NPUSHB/W, PUSHB/W */
fv_status tt_ins_stack(tt_ctx *c, int64_t *args);   /* DUP..ROLL */
fv_status tt_ins_storage(tt_ctx *c, int64_t *args); /* RS WS RCVT WCVTP WCVTF */
fv_status tt_ins_gstate(tt_ctx *c, int64_t *args);  /* vectors, rp/zp, loop, cut-ins... */
fv_status tt_ins_points(tt_ctx *c, int64_t *args);  /* outline instructions */
fv_status tt_ins_delta(tt_ctx *c, int64_t *args);   /* DELTAP1-3, DELTAC1-3 */
fv_status tt_ins_arith(tt_ctx *c, int64_t *args);   /* arithmetic, comparison, logic */
fv_status tt_ins_control(tt_ctx *c, int64_t *args); /* IF/ELSE/EIF, jumps, FDEF/CALL/IDEF */
fv_status tt_ins_round(tt_ctx *c, int64_t *args);   /* round states, ROUND, ODD/EVEN */
fv_status tt_ins_misc(tt_ctx *c, int64_t *args);    /* MPPEM MPS GETINFO DEBUG */
/* An undefined opcode: run its IDEF or fail (Ins_UNKNOWN). */
fv_status tt_ins_unknown(tt_ctx *c);

/* Moves execution to (range, ip) (Ins_Goto_CodeRange). */
fv_status tt_goto_range(tt_ctx *c, int range, uint32_t ip);
/* Advances over the current instruction to the next one (SkipCode). */
fv_status tt_skip_code(tt_ctx *c);

#endif
