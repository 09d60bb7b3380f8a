/* Push and stack instructions.
 * NPUSHB 0x40, NPUSHW 0x41, PUSHB 0xB0-B7, PUSHW 0xB8-BF; DUP 0x20, POP 0x21,
 * CLEAR 0x22, SWAP 0x23, DEPTH 0x24, CINDEX 0x25, MINDEX 0x26, ROLL 0x8A.
 * Spec: OpenType "Pushing data onto the interpreter stack", "Managing the
 * stack". */
#ifndef FV_TT_INS_STACK_H
#define FV_TT_INS_STACK_H

#include <string.h>
#include "tt/ins.h"
#include "tt/stack.h"

/* Pushes the n inline values that follow the first `header` bytes of the
 * instruction at c->ip: bytes, or big-endian signed words when `words`.
 * The interpreter loop has checked that the instruction's c->length bytes
 * lie inside c->code (tt_insn_length); the length check below re-derives
 * that layout, so no read can leave the code. */
static inline fv_status tt_push_inline(tt_ctx *c, int64_t *args, uint32_t header, uint32_t n,
                                       int words)
{
    if (header + (uint64_t)n * (words ? 2u : 1u) != c->length)
        return tt_fail(c, FV_E_TT_CODE_OVERFLOW, c->ip);
    /* FreeType: BOUNDS(L, stackSize + 1 - top) is an overflow. */
    if ((uint64_t)n > (uint64_t)c->stack_size - c->top)
        return tt_fail(c, FV_E_TT_STACK_OVERFLOW, n);
    const uint8_t *p = c->code.data + c->ip + header;
    if (words) {
        for (uint32_t k = 0; k < n; k++)
            args[k] = (int16_t)(uint16_t)((unsigned)p[2 * k] << 8 | p[2 * k + 1]);
    } else {
        for (uint32_t k = 0; k < n; k++)
            args[k] = p[k];
    }
    c->new_top += n;
    return FV_OK;
}

/* NPUSHx: the count byte follows the opcode (inside the checked length). */
TT_INLINE_HANDLER(NPUSHB) { return tt_push_inline(c, args, 2, c->code.data[c->ip + 1], 0); }
TT_INLINE_HANDLER(NPUSHW) { return tt_push_inline(c, args, 2, c->code.data[c->ip + 1], 1); }
TT_INLINE_HANDLER(PUSHB) { return tt_push_inline(c, args, 1, (uint32_t)(c->opcode & 7) + 1, 0); }
TT_INLINE_HANDLER(PUSHW) { return tt_push_inline(c, args, 1, (uint32_t)(c->opcode & 7) + 1, 1); }

TT_INLINE_HANDLER(DUP) { (void)c; args[1] = args[0]; return FV_OK; }
TT_INLINE_HANDLER(POP) { (void)c; (void)args; return FV_OK; }

TT_INLINE_HANDLER(CLEAR)
{
    (void)args;
    c->new_top = 0;
    return FV_OK;
}

TT_INLINE_HANDLER(SWAP)
{
    (void)c;
    int64_t t = args[0];
    args[0] = args[1];
    args[1] = t;
    return FV_OK;
}

TT_INLINE_HANDLER(DEPTH)
{
    args[0] = c->top;
    return FV_OK;
}

TT_INLINE_HANDLER(CINDEX)
{
    int64_t l = args[0], v;
    if (l <= 0 || !tt_stack_peek(c, (uint64_t)l, &v)) {
        args[0] = 0;
        return tt_soft(c, FV_E_TT_INVALID_REFERENCE, l);
    }
    args[0] = v;
    return FV_OK;
}

TT_INLINE_HANDLER(MINDEX)
{
    int64_t l = args[0];
    if (l <= 0 || (uint64_t)l > c->args)
        return tt_soft(c, FV_E_TT_INVALID_REFERENCE, l);
    if (FV_UNLIKELY(l > FV_BUDGET_COPY_PER_STEP)) {
        fv_status st = tt_spend(c, (uint64_t)l / FV_BUDGET_COPY_PER_STEP);
        if (st != FV_OK)
            return st;
    }
    uint32_t from = c->args - (uint32_t)l;
    int64_t k = c->stack[from];
    memmove(&c->stack[from], &c->stack[from + 1], (size_t)(l - 1) * sizeof(int64_t));
    c->stack[c->args - 1] = k;
    return FV_OK;
}

TT_INLINE_HANDLER(ROLL)
{
    (void)c;
    int64_t a = args[2];
    args[2] = args[0];
    args[0] = args[1];
    args[1] = a;
    return FV_OK;
}

#endif
