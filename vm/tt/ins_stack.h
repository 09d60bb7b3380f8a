/* Push and stack instructions.
 * NPUSHB 0x40, NPUSHW 0x41, PUSHB 0xB0-B7, PUSHW 0xB8-BF; DUP 0x20, POP 0x21,
 * CLEAR 0x22, SWAP 0x23, DEPTH 0x24, CINDEX 0x25, MINDEX 0x26, ROLL 0x8A.
 * Spec: OpenType "Pushing data onto the interpreter stack", "Managing the
 * stack".  Each handler (or family of handlers) is written once under a
 * header as in ins_points.c: mnemonic and opcodes, what it pops (top of
 * the stack first) and pushes, spec section, and the FreeType behaviour it
 * follows where that is not the spec's.  args[0] is the deepest of the
 * fixed arguments. */
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

/* NPUSHB 0x40, NPUSHW 0x41: push n bytes, push n words.  Pop nothing;
 * push the n values that follow the count byte n in the instruction
 * stream: unsigned bytes (NPUSHB) or signed big-endian words (NPUSHW).
 * PUSHB[abc] 0xB0-0xB7, PUSHW[abc] 0xB8-0xBF: push bytes, push words.  The
 * same for abc + 1 values and no count byte.  Spec: "Pushing data onto the
 * interpreter stack" / NPUSHB, NPUSHW, PUSHB, PUSHW.
 * FreeType: more values than the stack has room for is an overflow
 * (tt_push_inline). */
TT_INLINE_HANDLER(NPUSHB) { return tt_push_inline(c, args, 2, c->code.data[c->ip + 1], 0); }
TT_INLINE_HANDLER(NPUSHW) { return tt_push_inline(c, args, 2, c->code.data[c->ip + 1], 1); }
TT_INLINE_HANDLER(PUSHB) { return tt_push_inline(c, args, 1, (uint32_t)(c->opcode & 7) + 1, 0); }
TT_INLINE_HANDLER(PUSHW) { return tt_push_inline(c, args, 1, (uint32_t)(c->opcode & 7) + 1, 1); }

/* DUP 0x20: duplicate top stack element.  Pops e; pushes e, e.  POP 0x21:
 * pop top stack element.  Pops e; pushes nothing.  Spec: "Managing the
 * stack" / DUP, POP. */
TT_INLINE_HANDLER(DUP) { (void)c; args[1] = args[0]; return FV_OK; }
TT_INLINE_HANDLER(POP) { (void)c; (void)args; return FV_OK; }

/* CLEAR 0x22: clear the entire stack.  Pops every element; pushes
 * nothing.  Spec: "Managing the stack" / CLEAR. */
TT_INLINE_HANDLER(CLEAR)
{
    (void)args;
    c->new_top = 0;
    return FV_OK;
}

/* SWAP 0x23: swap the top two elements on the stack.  Pops e2, then e1;
 * pushes e2, then e1 (e1 on top).  Spec: "Managing the stack" / SWAP. */
TT_INLINE_HANDLER(SWAP)
{
    (void)c;
    int64_t t = args[0];
    args[0] = args[1];
    args[1] = t;
    return FV_OK;
}

/* DEPTH 0x24: returns the depth of the stack.  Pops nothing; pushes the
 * number of elements that were on the stack.  Spec: "Managing the stack" /
 * DEPTH. */
TT_INLINE_HANDLER(DEPTH)
{
    args[0] = c->top;
    return FV_OK;
}

/* CINDEX 0x25: copy the indexed element to the top of the stack.  Pops k;
 * pushes a copy of the k-th element (1 = the one below k).  Spec:
 * "Managing the stack" / CINDEX.
 * FreeType: k out of range is an invalid reference that pushes 0 (an
 * error only when hinting is pedantic). */
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

/* MINDEX 0x26: move the indexed element to the top of the stack.  Pops k;
 * pushes nothing (the k-th element moves to the top, the ones above it
 * down one place).  Spec: "Managing the stack" / MINDEX.
 * FreeType: k out of range is an invalid reference that only pops k (an
 * error only when hinting is pedantic).  fontvm spends a step per
 * FV_BUDGET_COPY_PER_STEP elements moved. */
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

/* ROLL 0x8A: roll the top three stack elements.  Pops a, b, then c;
 * pushes b, a, then c (the third element comes to the top).  Spec:
 * "Managing the stack" / ROLL. */
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
