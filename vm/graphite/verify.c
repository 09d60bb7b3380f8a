/* Load-time verifier for Graphite rule code, modelled on what graphite2's
 * code decoder rejects: unknown or unimplemented opcodes, opcodes not allowed
 * in this kind of code or pass, arguments running off the end, a static stack
 * count going negative or past the machine's depth, class/attribute/feature/
 * metric indexes out of range, ContextItem skips leaving the code or nesting,
 * slot references outside the rule, and code that does not end in a return. */
#include <stdio.h>
#include <string.h>

#include "graphite/machine.h"

static fv_status vfail(const grv_verify_ctx *ctx, fv_error *err, fv_status kind, uint32_t pc,
                       int opcode, int64_t index, grv_code code, const char *detail)
{
    fv_error_clear(err);
    err->kind = kind;
    err->program = ctx->is_constraint ? FV_PROG_GR_PASS_CONSTRAINT : FV_PROG_GR_PASS;
    err->pc = pc;
    err->opcode = opcode;
    err->index = index;
    err->table = SFNT_TAG_Silf;
    err->offset = code.offset + pc;
    err->glyph = FV_NO_VALUE;
    if (ctx->rule_index == UINT32_MAX)
        snprintf(err->detail, sizeof err->detail, "pass %u constraint: %s", ctx->pass_index,
                 detail);
    else
        snprintf(err->detail, sizeof err->detail, "pass %u rule %u: %s", ctx->pass_index,
                 ctx->rule_index, detail);
    return kind;
}

static int is_return(int op)
{
    return op >= 0 && op < GRV_OP_COUNT && (grv_ops[op].rule & GRV_R_RETURN);
}

/* The decoder state, as graphite2's code loader keeps it: where the output
 * slot is (out_index/out_length), which input slot the code refers from
 * (slotref), the static stack depth and whether we are inside a
 * ContextItem block. */
typedef struct vstate {
    const grv_verify_ctx *ctx;
    grv_code code;
    fv_error *err;
    int out_index, slotref, depth, in_ctxt;
    /* COMPAT(graphite2): the output length is an unsigned 16-bit count: a
     * Delete that takes it below zero wraps it, after which the "past the
     * rule" bound of Next no longer bites, while the next Insert wraps it
     * back to 0 (gr_diff F-13, measured: "CopyNext; Delete; Delete; Next;
     * Delete; Next; Delete; Insert; RetZero" loads in graphite2 1.3.14). */
    uint16_t out_length;
    int last_op;
    uint32_t cur_pc, fail_pc;
    int cur_op, fail_op;
    uint32_t end;         /* current decode limit (a ContextItem block's end) */
    fv_status st;
    int64_t bad;
    const char *why;
} vstate;

static int vfailed(vstate *v, fv_status kind, int64_t index, const char *why)
{
    if (v->st == FV_OK) {
        v->st = kind;
        v->bad = index;
        v->why = why;
        v->fail_pc = v->cur_pc;
        v->fail_op = v->cur_op;
    }
    return 0;
}

static int valid_upto(vstate *v, uint32_t limit, uint32_t x)
{
    if (limit == 0 || x >= limit)
        return vfailed(v, FV_E_GR_BAD_INDEX, x,
                       "class, attribute, feature or metric index out of range");
    return 1;
}

static int test_ref(vstate *v, int index)
{
    const grv_verify_ctx *c = v->ctx;
    if (c->is_constraint && !v->in_ctxt) {
        if (index > 0 || -index > c->pre_context)
            return vfailed(v, FV_E_GR_BAD_INDEX, index, "slot reference outside the rule");
    } else if (c->rule_length == 0 || v->slotref + c->pre_context + index >= c->rule_length ||
               v->slotref + c->pre_context + index < 0) {
        return vfailed(v, FV_E_GR_BAD_INDEX, index, "slot reference outside the rule");
    }
    return 1;
}

static int test_context(vstate *v)
{
    if (v->out_index >= v->out_length || v->out_index < 0 || v->slotref >= GRV_NUM_CONTEXTS - 1)
        return vfailed(v, FV_E_GR_BAD_INDEX, v->out_index, "output slot outside the rule");
    return 1;
}

/* How many indexes each slot attribute accepts in the indexed opcodes
 * (graphite2: index 0 only for most, 255 component refs, numUser user
 * attributes, none for the justification levels and later attributes). */
static uint32_t attr_index_limit(const grv_verify_ctx *c, uint32_t slat)
{
    if (slat == GRV_SLAT_USERDEFN)
        return c->silf->num_user;
    if (slat == GRV_SLAT_COMPREF)
        return 255;
    if (slat < 30)
        return 1;
    return 0;
}

static int underflow(vstate *v)
{
    return vfailed(v, FV_E_GR_STACK_UNDERFLOW, v->depth, "pops more than was pushed");
}

static int decode(vstate *v, uint32_t pc, uint32_t end);

/* The checks of one argument (its kind's, opcodes.def): its value x, read
 * at `a`; `slat` is the slot attribute an Index argument indexes.  Returns
 * 0 on a failure. */
static inline int check_arg(vstate *v, grv_arg kind, int32_t x, const uint8_t *a, uint32_t slat,
                     uint64_t insn_end)
{
    const grv_verify_ctx *c = v->ctx;
    switch (kind) {
    case GRV_ARG_Slot:
        return test_ref(v, x);
    case GRV_ARG_Class8: case GRV_ARG_Class16:
        return valid_upto(v, c->silf->num_classes, (uint32_t)x);
    case GRV_ARG_GAttr8: case GRV_ARG_GAttr16:
        return valid_upto(v, c->face->num_attrs, (uint32_t)x);
    case GRV_ARG_Slat: case GRV_ARG_SlatI:
        return valid_upto(v, GRV_SLAT_MAX, (uint32_t)x);
    case GRV_ARG_Index:
        return valid_upto(v, attr_index_limit(c, slat), (uint32_t)x);
    case GRV_ARG_Metric:
        /* COMPAT(graphite2): the bound is kgmetDescent, so Descent itself is
         * rejected. */
        return valid_upto(v, GRV_MET_DESCENT, (uint32_t)x);
    case GRV_ARG_Feat:
        return valid_upto(v, c->face->num_features, (uint32_t)x);
    case GRV_ARG_Slots:
        if (x == 0)
            return vfailed(v, FV_E_GR_BAD_INDEX, 0, "Assoc with no slots");
        /* last to first: the failure reported is the last bad offset's */
        for (int32_t k = x; k; k--)
            if (!test_ref(v, (int8_t)a[k]))
                return 0;
        return 1;
    case GRV_ARG_CtxSlot:
        return valid_upto(v, (uint32_t)c->rule_length, (uint32_t)(uint16_t)(c->pre_context + x));
    case GRV_ARG_Skip:
        if (insn_end + (uint32_t)x >= v->end)
            return vfailed(v, FV_E_GR_CODE_OVERRUN, x, "ContextItem skips past the end");
        return 1;
    default: /* immediates, metric levels, unused bytes */
        return 1;
    }
}

/* Checks one opcode and its arguments, all from its opcodes.def line, in
 * graphite2's order (the first failure is the one reported): where it may
 * appear, its length, the static stack count, the output position
 * (Next/Insert/Delete), each argument, then what its rule class needs.
 * Returns the opcode's total length, or 0. */
static uint32_t check_op(vstate *v, uint32_t pc)
{
    const grv_verify_ctx *c = v->ctx;
    fv_span s = v->code.code;
    int op = s.data[pc];
    v->cur_pc = pc;
    v->cur_op = op;
    if (op >= GRV_OP_COUNT)
        return (uint32_t)vfailed(v, FV_E_GR_BAD_OPCODE, op, "unknown opcode");
    const grv_opinfo *oi = &grv_ops[op];
    if ((oi->where & GRV_UNIMPL) || !(oi->where & (c->is_constraint ? GRV_IN_C : GRV_IN_A)))
        return (uint32_t)vfailed(v, FV_E_GR_BAD_OPCODE, op,
                                 (oi->where & GRV_UNIMPL) ? "unimplemented opcode"
                                 : c->is_constraint ? "action opcode in constraint code"
                                                    : "opcode not allowed in action code");
    uint32_t nargs;
    if (GRV_LAYOUT_KIND(oi->layout, 0) == GRV_ARG_Slots) {
        if (pc + 1 >= v->end)
            return (uint32_t)vfailed(v, FV_E_GR_CODE_OVERRUN, -1, "arguments run off the end");
        nargs = 1u + s.data[pc + 1];
    } else {
        nargs = oi->arg_bytes;
    }
    if ((uint64_t)pc + nargs >= v->end)
        return (uint32_t)vfailed(v, FV_E_GR_CODE_OVERRUN, -1, "arguments run off the end");
    const uint8_t *a = s.data + pc + 1;
    uint32_t rule = oi->rule;
    if ((oi->where & GRV_SUBST) && c->pass_type >= GRV_PASS_POSITIONING)
        return (uint32_t)vfailed(v, FV_E_GR_BAD_OPCODE, op,
                                 (rule & GRV_R_INSERT) ? "Insert outside a substitution pass"
                                                       : "Delete outside a substitution pass");
    if (!(rule & GRV_R_UNCOUNTED_POP)) {
        int before = v->depth;
        v->depth += (int)oi->pushes - (int)oi->pops;
        if (before < (int)oi->pops)
            underflow(v);
    }
    if (rule & GRV_R_NEXT) {
        v->out_index++;
        if (v->out_index < -1 || v->out_index > v->out_length || v->slotref > c->rule_length)
            vfailed(v, FV_E_GR_BAD_INDEX, v->out_index, "Next moves past the rule");
    } else if (rule & GRV_R_INSERT) {
        v->out_length++;
        if (v->out_index < 0)
            v->out_index++;
        if (v->out_index < -1 || v->out_index >= v->out_length)
            vfailed(v, FV_E_GR_BAD_INDEX, v->out_index, "output slot outside the rule");
    } else if (rule & GRV_R_DELETE) {
        if (v->out_index < c->pre_context)
            vfailed(v, FV_E_GR_BAD_INDEX, v->out_index, "Delete in the pre-context");
        v->out_index--;
        v->out_length--;
        if (v->out_index < -1 || v->out_index > v->out_length)
            vfailed(v, FV_E_GR_BAD_INDEX, v->out_index, "output slot outside the rule");
    }
    uint32_t slat = 0, off = 0;
    int plain_userdefn = 0;
    int32_t ctx_slot = 0, skip = 0;
    for (uint32_t i = 0, layout = oi->layout; layout && i < GRV_LAYOUT_ARGS; i++) {
        grv_arg kind = GRV_LAYOUT_KIND(layout, i);
        if (kind == GRV_ARG_NONE)
            break;
        int32_t x = grv_arg_value(kind, a + off);
        if (kind == GRV_ARG_Slat || kind == GRV_ARG_SlatI)
            slat = (uint32_t)x;
        plain_userdefn |= kind == GRV_ARG_Slat && x == GRV_SLAT_USERDEFN;
        if (kind == GRV_ARG_CtxSlot)
            ctx_slot = x;
        if (kind == GRV_ARG_Skip)
            skip = x;
        check_arg(v, kind, x, a + off, slat, (uint64_t)pc + 1 + nargs);
        off += grv_arg_kinds[kind].bytes;
    }
    if (plain_userdefn)
        vfailed(v, FV_E_GR_BAD_INDEX, GRV_SLAT_USERDEFN, "user attribute without an index");
    if (rule & GRV_R_WRITES)
        test_context(v);
    if ((rule & GRV_R_CONTEXT) && v->in_ctxt)
        vfailed(v, FV_E_GR_BAD_OPCODE, op, "nested ContextItem");
    if (v->st != FV_OK)
        return 0;
    /* slot tracking after the checks (graphite2's analysis step) */
    if (rule & GRV_R_NEXT)
        v->slotref++;
    else if ((rule & GRV_R_INSERT) && v->slotref >= 0)
        v->slotref--;
    v->last_op = op;
    if (rule & GRV_R_CONTEXT) {
        /* decode the block as the context of its slot */
        uint32_t block = pc + 1 + nargs, block_end = block + (uint32_t)skip;
        uint32_t saved_end = v->end;
        v->in_ctxt = 1;
        v->out_index = c->pre_context + ctx_slot;
        v->slotref = ctx_slot;
        v->out_length = (uint16_t)c->rule_length;
        if (!decode(v, block, block_end))
            return 0;
        v->end = saved_end;
        v->out_length = 1;
        v->out_index = 0;
        v->slotref = 0;
        v->in_ctxt = 0;
        return 1u + nargs + (uint32_t)skip;
    }
    return 1u + nargs;
}

static int decode(vstate *v, uint32_t pc, uint32_t end)
{
    v->end = end;
    while (pc < end) {
        uint32_t n = check_op(v, pc);
        if (!n) {
            if (v->st == FV_OK)
                v->st = FV_E_GR_BAD_OPCODE;
            return 0;
        }
        pc += n;
        v->end = end;
    }
    return 1;
}

fv_status grv_verify(const grv_verify_ctx *ctx, grv_code code, fv_error *err)
{
    if (code.code.len == 0)
        return FV_OK;
    vstate v;
    memset(&v, 0, sizeof v);
    v.ctx = ctx;
    v.code = code;
    v.err = err;
    v.out_index = ctx->is_constraint ? 0 : ctx->pre_context;
    v.out_length = (uint16_t)(ctx->is_constraint ? 1 : ctx->rule_length);
    v.last_op = -1;
    v.st = FV_OK;
    uint32_t len = code.code.len > UINT32_MAX ? UINT32_MAX : (uint32_t)code.code.len;
    /* find the failing pc by decoding; remember it through last position */
    if (!decode(&v, 0, len)) {
        return vfail(ctx, err, v.st, v.fail_pc, v.fail_op, v.bad, code,
                     v.why ? v.why : "bad code");
    }
    if (!is_return(v.last_op))
        return vfail(ctx, err, FV_E_GR_NO_RETURN, len, v.last_op, -1, code,
                     "code does not end with a return");
    return FV_OK;
}
