/* Arithmetic and logic: LT..NEQ 0x50-55, AND 0x5A, OR 0x5B, NOT 0x5C,
 * ADD 0x60, SUB 0x61, DIV 0x62, MUL 0x63, ABS 0x64, NEG 0x65, FLOOR 0x66,
 * CEILING 0x67, MAX 0x8B, MIN 0x8C.  Spec: "Arithmetic and math
 * instructions", "Logical functions".  All arithmetic wraps on 64 bits
 * like FreeType's ADD_LONG family.  Each family of handlers is written
 * once under a header as in ins_points.c: mnemonic and opcodes, what it
 * pops (top of the stack first) and pushes, spec section, and the FreeType
 * behaviour it follows where that is not the spec's.  A binary operation
 * finds e1 (popped second) in args[0] and e2 (popped first) in args[1],
 * and leaves its result in args[0]. */
#ifndef FV_TT_INS_ARITH_H
#define FV_TT_INS_ARITH_H

#include "tt/ins.h"

/* LT 0x50, LTEQ 0x51, GT 0x52, GTEQ 0x53, EQ 0x54, NEQ 0x55: less than,
 * less than or equal, greater than, greater than or equal, equal, not
 * equal.  Pop e2, then e1; push 1 if e1 < (<=, >, >=, ==, !=) e2, else 0.
 * Spec: "Logical functions" / LT, LTEQ, GT, GTEQ, EQ, NEQ. */
TT_INLINE_HANDLER(LT) { (void)c; args[0] = args[0] < args[1]; return FV_OK; }
TT_INLINE_HANDLER(LTEQ) { (void)c; args[0] = args[0] <= args[1]; return FV_OK; }
TT_INLINE_HANDLER(GT) { (void)c; args[0] = args[0] > args[1]; return FV_OK; }
TT_INLINE_HANDLER(GTEQ) { (void)c; args[0] = args[0] >= args[1]; return FV_OK; }
TT_INLINE_HANDLER(EQ) { (void)c; args[0] = args[0] == args[1]; return FV_OK; }
TT_INLINE_HANDLER(NEQ) { (void)c; args[0] = args[0] != args[1]; return FV_OK; }
/* AND 0x5A, OR 0x5B: logical and, or.  Pop e2, then e1; push 1 if both
 * (AND) or either (OR) are non-zero, else 0.  NOT 0x5C: logical not.  Pops
 * e; pushes 1 if it is 0, else 0.  Spec: "Logical functions" / AND, OR,
 * NOT. */
TT_INLINE_HANDLER(AND) { (void)c; args[0] = args[0] && args[1]; return FV_OK; }
TT_INLINE_HANDLER(OR) { (void)c; args[0] = args[0] || args[1]; return FV_OK; }
TT_INLINE_HANDLER(NOT) { (void)c; args[0] = !args[0]; return FV_OK; }
/* ADD 0x60, SUB 0x61: add, subtract.  Pop n2, then n1; push n1 + n2 (n1 -
 * n2).  Spec: "Arithmetic and math instructions" / ADD, SUB.  Wraps on 64
 * bits. */
TT_INLINE_HANDLER(ADD) { (void)c; args[0] = tt_add(args[0], args[1]); return FV_OK; }
TT_INLINE_HANDLER(SUB) { (void)c; args[0] = tt_sub(args[0], args[1]); return FV_OK; }

/* DIV 0x62: divide.  Pops n2, then n1 (26.6); pushes n1 * 64 / n2,
 * truncated.  Spec: "Arithmetic and math instructions" / DIV.
 * FreeType: dividing by 0 is an error (tt_divide_by_zero); no rounding
 * (FT_MulDiv_No_Round). */
TT_INLINE_HANDLER(DIV)
{
    if (args[1] == 0)
        return tt_fail(c, FV_E_TT_DIVIDE_BY_ZERO, args[0]);
    args[0] = fv_muldiv_no_round(args[0], 64, args[1]);
    return FV_OK;
}

/* MUL 0x63: multiply.  Pops n2, then n1 (26.6); pushes n1 * n2 / 64,
 * rounded.  Spec: "Arithmetic and math instructions" / MUL. */
TT_INLINE_HANDLER(MUL) { (void)c; args[0] = tt_muldiv(args[0], args[1], 64); return FV_OK; }
/* ABS 0x64, NEG 0x65, FLOOR 0x66, CEILING 0x67: absolute value, negate,
 * floor, ceiling.  Pop n (26.6); push |n|, -n, n rounded down or up to a
 * whole pixel.  Spec: "Arithmetic and math instructions" / ABS, NEG,
 * FLOOR, CEILING. */
TT_INLINE_HANDLER(ABS) { (void)c; args[0] = tt_abs(args[0]); return FV_OK; }
TT_INLINE_HANDLER(NEG) { (void)c; args[0] = tt_neg(args[0]); return FV_OK; }
TT_INLINE_HANDLER(FLOOR) { (void)c; args[0] = tt_floor(args[0]); return FV_OK; }
TT_INLINE_HANDLER(CEILING) { (void)c; args[0] = tt_ceil(args[0]); return FV_OK; }
/* MAX 0x8B, MIN 0x8C: maximum, minimum of top two stack elements.  Pop e2,
 * then e1; push the larger (smaller).  Spec: "Arithmetic and math
 * instructions" / MAX, MIN. */
TT_INLINE_HANDLER(MAX) { (void)c; args[0] = args[0] > args[1] ? args[0] : args[1]; return FV_OK; }
TT_INLINE_HANDLER(MIN) { (void)c; args[0] = args[0] < args[1] ? args[0] : args[1]; return FV_OK; }

#endif
