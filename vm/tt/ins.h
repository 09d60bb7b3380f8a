/* Instruction handlers, grouped by family in ins_<family>.c.  `args` points
 * at the instruction's fixed arguments, args[0] deepest; the dispatcher has checked they exist and that
 * the fixed pushes fit.  Handlers return FV_OK or the error they raised with
 * tt_fail (context filled in). */
#ifndef FV_TT_INS_H
#define FV_TT_INS_H

#include "tt/interp.h"

/* One handler per opcode range of opcodes.def, named after its mnemonic
 * (tt_op_MIRP handles 0xE0-0xFF and reads its flags from c->opcode).  The
 * dispatcher (interp.c) reaches them through one switch or label table
 * generated from the same list, so there is a single dispatch per
 * instruction. */
#define TT_HANDLER(m) fv_status tt_op_##m(tt_ctx *c, int64_t *args)
#define X(m, first, bits, pops, pushes, inl, fam) TT_HANDLER(m);
#include "tt/opcodes.def"
#undef X

/* An undefined opcode: run its IDEF or fail (Ins_UNKNOWN). */
fv_status tt_ins_unknown(tt_ctx *c);

/* Moves execution to (range, ip) (Ins_Goto_CodeRange). */
fv_status tt_goto_range(tt_ctx *c, int range, uint32_t ip);
/* Advances over the current instruction to the next one (SkipCode). */
fv_status tt_skip_code(tt_ctx *c);

#endif
