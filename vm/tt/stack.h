/* The value stack.  The dispatcher checks each opcode's fixed pops/pushes
 * (opcodes.def) before the handler runs, so a handler's args[0..pops) and
 * the pushed slots are in bounds.  Instructions that pop a variable number
 * of values (loops, deltas, CLEAR, MINDEX, CINDEX) use these accessors. */
#ifndef FV_TT_STACK_H
#define FV_TT_STACK_H

#include "tt/interp.h"

/* Pops one more value below the fixed arguments (loop instructions);
 * returns 0 and leaves *v untouched when none is left. */
static inline int tt_stack_pop_extra(tt_ctx *c, int64_t *v)
{
    if (c->args == 0)
        return 0;
    c->args--;
    *v = c->stack[c->args];
    return 1;
}

/* The element `depth` below the arguments (1 = just below). */
static inline int tt_stack_peek(const tt_ctx *c, uint64_t depth, int64_t *v)
{
    if (depth == 0 || depth > c->args)
        return 0;
    *v = c->stack[c->args - depth];
    return 1;
}

#endif
