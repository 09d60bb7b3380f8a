/* Arithmetic and logic: LT..NEQ 0x50-55, AND 0x5A, OR 0x5B, NOT 0x5C,
 * ADD 0x60, SUB 0x61, DIV 0x62, MUL 0x63, ABS 0x64, NEG 0x65, FLOOR 0x66,
 * CEILING 0x67, MAX 0x8B, MIN 0x8C.  Spec: "Arithmetic and math
 * instructions", "Logical functions".  All arithmetic wraps on 64 bits
 * like FreeType's ADD_LONG family. */
#ifndef FV_TT_INS_ARITH_H
#define FV_TT_INS_ARITH_H

#include "tt/ins.h"

/* Binary operations: args[0] op args[1] into args[0]. */
TT_INLINE_HANDLER(LT) { (void)c; args[0] = args[0] < args[1]; return FV_OK; }
TT_INLINE_HANDLER(LTEQ) { (void)c; args[0] = args[0] <= args[1]; return FV_OK; }
TT_INLINE_HANDLER(GT) { (void)c; args[0] = args[0] > args[1]; return FV_OK; }
TT_INLINE_HANDLER(GTEQ) { (void)c; args[0] = args[0] >= args[1]; return FV_OK; }
TT_INLINE_HANDLER(EQ) { (void)c; args[0] = args[0] == args[1]; return FV_OK; }
TT_INLINE_HANDLER(NEQ) { (void)c; args[0] = args[0] != args[1]; return FV_OK; }
TT_INLINE_HANDLER(AND) { (void)c; args[0] = args[0] && args[1]; return FV_OK; }
TT_INLINE_HANDLER(OR) { (void)c; args[0] = args[0] || args[1]; return FV_OK; }
TT_INLINE_HANDLER(NOT) { (void)c; args[0] = !args[0]; return FV_OK; }
TT_INLINE_HANDLER(ADD) { (void)c; args[0] = tt_add(args[0], args[1]); return FV_OK; }
TT_INLINE_HANDLER(SUB) { (void)c; args[0] = tt_sub(args[0], args[1]); return FV_OK; }

TT_INLINE_HANDLER(DIV)
{
    if (args[1] == 0)
        return tt_fail(c, FV_E_TT_DIVIDE_BY_ZERO, args[0]);
    args[0] = fv_muldiv_no_round(args[0], 64, args[1]);
    return FV_OK;
}

TT_INLINE_HANDLER(MUL) { (void)c; args[0] = tt_muldiv(args[0], args[1], 64); return FV_OK; }
TT_INLINE_HANDLER(ABS) { (void)c; args[0] = tt_abs(args[0]); return FV_OK; }
TT_INLINE_HANDLER(NEG) { (void)c; args[0] = tt_neg(args[0]); return FV_OK; }
TT_INLINE_HANDLER(FLOOR) { (void)c; args[0] = tt_floor(args[0]); return FV_OK; }
TT_INLINE_HANDLER(CEILING) { (void)c; args[0] = tt_ceil(args[0]); return FV_OK; }
TT_INLINE_HANDLER(MAX) { (void)c; args[0] = args[0] > args[1] ? args[0] : args[1]; return FV_OK; }
TT_INLINE_HANDLER(MIN) { (void)c; args[0] = args[0] < args[1] ? args[0] : args[1]; return FV_OK; }

#endif
