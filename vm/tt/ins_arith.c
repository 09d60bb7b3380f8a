/* Arithmetic and logic: LT..NEQ 0x50-55, AND 0x5A, OR 0x5B, NOT 0x5C,
 * ADD 0x60, SUB 0x61, DIV 0x62, MUL 0x63, ABS 0x64, NEG 0x65, FLOOR 0x66,
 * CEILING 0x67, MAX 0x8B, MIN 0x8C.  Spec: "Arithmetic and math
 * instructions", "Logical functions".  All arithmetic wraps on 64 bits
 * like FreeType's ADD_LONG family. */
#include "tt/ins.h"

fv_status tt_ins_arith(tt_ctx *c, int64_t *args)
{
    int64_t a = args[0];
    switch (c->ops[c->opcode].first) {
    case TT_OP_LT: args[0] = a < args[1]; break;
    case TT_OP_LTEQ: args[0] = a <= args[1]; break;
    case TT_OP_GT: args[0] = a > args[1]; break;
    case TT_OP_GTEQ: args[0] = a >= args[1]; break;
    case TT_OP_EQ: args[0] = a == args[1]; break;
    case TT_OP_NEQ: args[0] = a != args[1]; break;
    case TT_OP_AND: args[0] = a && args[1]; break;
    case TT_OP_OR: args[0] = a || args[1]; break;
    case TT_OP_NOT: args[0] = !a; break;
    case TT_OP_ADD: args[0] = tt_add(a, args[1]); break;
    case TT_OP_SUB: args[0] = tt_sub(a, args[1]); break;
    case TT_OP_DIV:
        if (args[1] == 0)
            return tt_fail(c, FV_E_TT_DIVIDE_BY_ZERO, a);
        args[0] = fv_muldiv_no_round(a, 64, args[1]);
        break;
    case TT_OP_MUL: args[0] = tt_muldiv(a, args[1], 64); break;
    case TT_OP_ABS: args[0] = tt_abs(a); break;
    case TT_OP_NEG: args[0] = tt_neg(a); break;
    case TT_OP_FLOOR: args[0] = tt_floor(a); break;
    case TT_OP_CEILING: args[0] = tt_ceil(a); break;
    case TT_OP_MAX: args[0] = a > args[1] ? a : args[1]; break;
    case TT_OP_MIN: args[0] = a < args[1] ? a : args[1]; break;
    default: return tt_fail(c, FV_E_TT_INVALID_OPCODE, c->opcode);
    }
    return FV_OK;
}
