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
 * instruction.  The families of short, frequent instructions (PUSH, STACK,
 * ARITH, STORAGE) are static inline in ins_<family>.h, named tt_fast_<M>,
 * so that the dispatcher inlines them; the others are functions in
 * ins_<family>.c. */
#define TT_HANDLER(m) fv_status tt_op_##m(tt_ctx *c, int64_t *args)
#define TT_INLINE_HANDLER(m) static inline fv_status tt_fast_##m(tt_ctx *c, int64_t *args)
/* The handler of mnemonic m in family fam: TT_HANDLER_OF(fam, m). */
#define TT_HANDLER_OF(fam, m) TT_HANDLER_OF_##fam(m)
#define TT_HANDLER_OF_PUSH(m) tt_fast_##m
#define TT_HANDLER_OF_STACK(m) tt_fast_##m
#define TT_HANDLER_OF_ARITH(m) tt_fast_##m
#define TT_HANDLER_OF_STORAGE(m) tt_fast_##m
#define TT_HANDLER_OF_GSTATE(m) tt_op_##m
#define TT_HANDLER_OF_POINTS(m) tt_op_##m
#define TT_HANDLER_OF_DELTA(m) tt_op_##m
#define TT_HANDLER_OF_CONTROL(m) tt_op_##m
#define TT_HANDLER_OF_ROUND(m) tt_op_##m
#define TT_HANDLER_OF_MISC(m) tt_op_##m
/* Declarations of the out-of-line ones. */
#define TT_DECLARE_PUSH(m)
#define TT_DECLARE_STACK(m)
#define TT_DECLARE_ARITH(m)
#define TT_DECLARE_STORAGE(m)
#define TT_DECLARE_GSTATE(m) TT_HANDLER(m);
#define TT_DECLARE_POINTS(m) TT_HANDLER(m);
#define TT_DECLARE_DELTA(m) TT_HANDLER(m);
#define TT_DECLARE_CONTROL(m) TT_HANDLER(m);
#define TT_DECLARE_ROUND(m) TT_HANDLER(m);
#define TT_DECLARE_MISC(m) TT_HANDLER(m);
#define X(m, first, bits, pops, pushes, inl, fam) TT_DECLARE_##fam(m)
#include "tt/opcodes.def"
#undef X

/* An undefined opcode: run its IDEF or fail (Ins_UNKNOWN). */
fv_status tt_ins_unknown(tt_ctx *c);
/* The same, except GETVARIATION and GETDATA at a location (ins_var.c). */
fv_status tt_ins_unknown_or_variation(tt_ctx *c, int64_t *args);

/* Moves execution to (range, ip) (Ins_Goto_CodeRange). */
fv_status tt_goto_range(tt_ctx *c, int range, uint32_t ip);
/* Advances over the current instruction to the next one (SkipCode). */
fv_status tt_skip_code(tt_ctx *c);

#endif
