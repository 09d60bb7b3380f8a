/* Push and stack instructions.
 * NPUSHB 0x40, NPUSHW 0x41, PUSHB 0xB0-B7, PUSHW 0xB8-BF; DUP 0x20, POP 0x21,
 * CLEAR 0x22, SWAP 0x23, DEPTH 0x24, CINDEX 0x25, MINDEX 0x26, ROLL 0x8A.
 * Spec: OpenType "Pushing data onto the interpreter stack", "Managing the
 * stack". */
#include <string.h>

#include "tt/ins.h"
#include "tt/stack.h"

fv_status tt_ins_push(tt_ctx *c, int64_t *args)
{
    tt_insn in;
    if (tt_decode(c->code, (uint32_t)c->ip, &in) != FV_OK)
        return tt_fail(c, FV_E_TT_CODE_OVERFLOW, c->ip);
    /* FreeType: BOUNDS(L, stackSize + 1 - top) is an overflow. */
    if ((uint64_t)in.num_values > (uint64_t)c->stack_size - c->top)
        return tt_fail(c, FV_E_TT_STACK_OVERFLOW, in.num_values);
    for (uint32_t k = 0; k < in.num_values; k++)
        args[k] = tt_insn_value(&in, k);
    c->new_top += in.num_values;
    return FV_OK;
}

fv_status tt_ins_stack(tt_ctx *c, int64_t *args)
{
    switch (c->ops[c->opcode].first) {
    case TT_OP_DUP:
        args[1] = args[0];
        return FV_OK;
    case TT_OP_POP:
        return FV_OK;
    case TT_OP_CLEAR:
        c->new_top = 0;
        return FV_OK;
    case TT_OP_SWAP: {
        int64_t t = args[0];
        args[0] = args[1];
        args[1] = t;
        return FV_OK;
    }
    case TT_OP_DEPTH:
        args[0] = c->top;
        return FV_OK;
    case TT_OP_CINDEX: {
        int64_t l = args[0], v;
        if (l <= 0 || !tt_stack_peek(c, (uint64_t)l, &v)) {
            args[0] = 0;
            return tt_soft(c, FV_E_TT_INVALID_REFERENCE, l);
        }
        args[0] = v;
        return FV_OK;
    }
    case TT_OP_MINDEX: {
        int64_t l = args[0];
        if (l <= 0 || (uint64_t)l > c->args)
            return tt_soft(c, FV_E_TT_INVALID_REFERENCE, l);
        uint32_t from = c->args - (uint32_t)l;
        int64_t k = c->stack[from];
        memmove(&c->stack[from], &c->stack[from + 1], (size_t)(l - 1) * sizeof(int64_t));
        c->stack[c->args - 1] = k;
        return FV_OK;
    }
    case TT_OP_ROLL: {
        int64_t a = args[2];
        args[2] = args[0];
        args[0] = args[1];
        args[1] = a;
        return FV_OK;
    }
    default:
        return tt_fail(c, FV_E_TT_INVALID_OPCODE, c->opcode);
    }
}
