/* Load-time verifier for Graphite rule code, modelled on what graphite2's
 * code decoder rejects: unknown or unimplemented opcodes, opcodes not allowed
 * in this kind of code or pass, arguments running off the end, a static stack
 * count going negative or past the machine's depth, class/attribute/feature/
 * metric indexes out of range, ContextItem skips leaving the code or nesting,
 * slot references outside the rule, and code that does not end in a return. */
#include <string.h>

#include "graphite/grv.h"

const grv_opinfo grv_ops[GRV_OP_COUNT] = {
#define X(name, code, args, pops, pushes, where, fmt) [code] = {#name, fmt, args, pops, pushes, where},
#include "graphite/opcodes.def"
#undef X
};

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
    return op == GRV_OP_POP_RET || op == GRV_OP_RET_ZERO || op == GRV_OP_RET_TRUE;
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

#define GRV_NUMCONTEXTS 256 /* graphite2's NUMCONTEXTS: contexts tracked per rule */

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
    if (v->out_index >= v->out_length || v->out_index < 0 || v->slotref >= GRV_NUMCONTEXTS - 1)
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

/* Checks one opcode and its arguments; returns its total length or 0. */
static uint32_t check_op(vstate *v, uint32_t pc)
{
    const grv_verify_ctx *c = v->ctx;
    const fv_gr_face *face = c->face;
    const grv_silf *silf = c->silf;
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
    if (oi->args < 0) {
        if (pc + 1 >= v->end)
            return (uint32_t)vfailed(v, FV_E_GR_CODE_OVERRUN, -1, "arguments run off the end");
        nargs = 1u + s.data[pc + 1];
    } else {
        nargs = (uint32_t)oi->args;
    }
    if ((uint64_t)pc + nargs >= v->end)
        return (uint32_t)vfailed(v, FV_E_GR_CODE_OVERRUN, -1, "arguments run off the end");
    const uint8_t *a = s.data + pc + 1;
    int positioning = c->pass_type >= GRV_PASS_POSITIONING;
    switch (op) {
    case GRV_OP_PUSH_BYTE: case GRV_OP_PUSH_BYTE_U: case GRV_OP_PUSH_SHORT:
    case GRV_OP_PUSH_SHORT_U: case GRV_OP_PUSH_LONG: case GRV_OP_PUSH_VERSION:
    case GRV_OP_PUSH_PROC_STATE: case GRV_OP_PUSH_IGLYPH_ATTR:
        v->depth++;
        break;
    case GRV_OP_ADD: case GRV_OP_SUB: case GRV_OP_MUL: case GRV_OP_DIV: case GRV_OP_MIN:
    case GRV_OP_MAX: case GRV_OP_AND: case GRV_OP_OR: case GRV_OP_EQUAL: case GRV_OP_NOT_EQ:
    case GRV_OP_LESS: case GRV_OP_GTR: case GRV_OP_LESS_EQ: case GRV_OP_GTR_EQ:
    case GRV_OP_BITOR: case GRV_OP_BITAND:
        if (--v->depth <= 0)
            underflow(v);
        break;
    case GRV_OP_NEG: case GRV_OP_TRUNC8: case GRV_OP_TRUNC16: case GRV_OP_NOT:
    case GRV_OP_BITNOT: case GRV_OP_SETBITS:
        if (v->depth <= 0)
            underflow(v);
        break;
    case GRV_OP_COND:
        v->depth -= 2;
        if (v->depth <= 0)
            underflow(v);
        break;
    case GRV_OP_NEXT: case GRV_OP_COPY_NEXT:
        v->out_index++;
        if (v->out_index < -1 || v->out_index > v->out_length || v->slotref > c->rule_length)
            vfailed(v, FV_E_GR_BAD_INDEX, v->out_index, "Next moves past the rule");
        break;
    case GRV_OP_PUT_GLYPH_8BIT_OBS:
        valid_upto(v, silf->num_classes, a[0]);
        test_context(v);
        break;
    case GRV_OP_PUT_SUBS_8BIT_OBS:
        test_ref(v, (int8_t)a[0]);
        valid_upto(v, silf->num_classes, a[1]);
        valid_upto(v, silf->num_classes, a[2]);
        test_context(v);
        break;
    case GRV_OP_PUT_COPY:
        test_ref(v, (int8_t)a[0]);
        test_context(v);
        break;
    case GRV_OP_INSERT:
        if (positioning)
            return (uint32_t)vfailed(v, FV_E_GR_BAD_OPCODE, op, "Insert outside a substitution pass");
        v->out_length++;
        if (v->out_index < 0)
            v->out_index++;
        if (v->out_index < -1 || v->out_index >= v->out_length)
            vfailed(v, FV_E_GR_BAD_INDEX, v->out_index, "output slot outside the rule");
        break;
    case GRV_OP_DELETE:
        if (positioning)
            return (uint32_t)vfailed(v, FV_E_GR_BAD_OPCODE, op, "Delete outside a substitution pass");
        if (v->out_index < c->pre_context)
            vfailed(v, FV_E_GR_BAD_INDEX, v->out_index, "Delete in the pre-context");
        v->out_index--;
        v->out_length--;
        if (v->out_index < -1 || v->out_index > v->out_length)
            vfailed(v, FV_E_GR_BAD_INDEX, v->out_index, "output slot outside the rule");
        break;
    case GRV_OP_ASSOC:
        if (a[0] == 0)
            vfailed(v, FV_E_GR_BAD_INDEX, 0, "Assoc with no slots");
        for (uint32_t k = a[0]; k; k--)
            test_ref(v, (int8_t)a[k]);
        test_context(v);
        break;
    case GRV_OP_CNTXT_ITEM:
        valid_upto(v, (uint32_t)c->rule_length, (uint32_t)(uint16_t)(c->pre_context + (int8_t)a[0]));
        if ((uint64_t)pc + 3 + a[1] >= v->end)
            vfailed(v, FV_E_GR_CODE_OVERRUN, a[1], "ContextItem skips past the end");
        if (v->in_ctxt)
            vfailed(v, FV_E_GR_BAD_OPCODE, op, "nested ContextItem");
        break;
    case GRV_OP_ATTR_SET: case GRV_OP_ATTR_ADD: case GRV_OP_ATTR_SUB: case GRV_OP_ATTR_SET_SLOT:
        if (--v->depth < 0)
            underflow(v);
        valid_upto(v, GRV_SLAT_MAX, a[0]);
        if (a[0] == GRV_SLAT_USERDEFN)
            vfailed(v, FV_E_GR_BAD_INDEX, a[0], "user attribute without an index");
        test_context(v);
        break;
    case GRV_OP_IATTR_SET_SLOT: case GRV_OP_IATTR_SET: case GRV_OP_IATTR_ADD:
    case GRV_OP_IATTR_SUB:
        if (--v->depth < 0)
            underflow(v);
        if (valid_upto(v, GRV_SLAT_MAX, a[0]))
            valid_upto(v, attr_index_limit(c, a[0]), a[1]);
        test_context(v);
        break;
    case GRV_OP_PUSH_SLOT_ATTR:
        v->depth++;
        valid_upto(v, GRV_SLAT_MAX, a[0]);
        test_ref(v, (int8_t)a[1]);
        if (a[0] == GRV_SLAT_USERDEFN)
            vfailed(v, FV_E_GR_BAD_INDEX, a[0], "user attribute without an index");
        break;
    case GRV_OP_PUSH_GLYPH_ATTR_OBS: case GRV_OP_PUSH_ATT_TO_GATTR_OBS:
        v->depth++;
        valid_upto(v, face->num_attrs, a[0]);
        test_ref(v, (int8_t)a[1]);
        break;
    case GRV_OP_PUSH_GLYPH_METRIC: case GRV_OP_PUSH_ATT_TO_GLYPH_METRIC:
        v->depth++;
        /* COMPAT(graphite2): the bound is kgmetDescent, so Descent itself is
         * rejected. */
        valid_upto(v, GRV_MET_DESCENT, a[0]);
        test_ref(v, (int8_t)a[1]);
        break;
    case GRV_OP_PUSH_FEAT:
        v->depth++;
        valid_upto(v, face->num_features, a[0]);
        test_ref(v, (int8_t)a[1]);
        break;
    case GRV_OP_PUSH_ISLOT_ATTR:
        v->depth++;
        if (valid_upto(v, GRV_SLAT_MAX, a[0])) {
            test_ref(v, (int8_t)a[1]);
            valid_upto(v, attr_index_limit(c, a[0]), a[2]);
        }
        break;
    case GRV_OP_POP_RET:
        if (--v->depth < 0)
            underflow(v);
        break;
    case GRV_OP_PUT_SUBS:
        test_ref(v, (int8_t)a[0]);
        valid_upto(v, silf->num_classes, (uint32_t)a[1] << 8 | a[2]);
        valid_upto(v, silf->num_classes, (uint32_t)a[3] << 8 | a[4]);
        test_context(v);
        break;
    case GRV_OP_PUT_GLYPH:
        valid_upto(v, silf->num_classes, (uint32_t)a[0] << 8 | a[1]);
        test_context(v);
        break;
    case GRV_OP_PUSH_GLYPH_ATTR: case GRV_OP_PUSH_ATT_TO_GLYPH_ATTR:
        v->depth++;
        valid_upto(v, face->num_attrs, (uint32_t)a[0] << 8 | a[1]);
        test_ref(v, (int8_t)a[2]);
        break;
    case GRV_OP_SET_FEAT:
        /* COMPAT(graphite2): its loader does not count SetFeat's pop. */
        valid_upto(v, face->num_features, a[0]);
        test_ref(v, (int8_t)a[1]);
        break;
    default:
        break;
    }
    if (v->st != FV_OK)
        return 0;
    /* slot tracking after the checks (graphite2's analysis step) */
    if (op == GRV_OP_NEXT || op == GRV_OP_COPY_NEXT)
        v->slotref++;
    else if (op == GRV_OP_INSERT && v->slotref >= 0)
        v->slotref--;
    v->last_op = op;
    if (op == GRV_OP_CNTXT_ITEM) {
        /* decode the block as the context of its slot */
        int8_t off = (int8_t)a[0];
        uint32_t block = pc + 3, block_end = pc + 3 + a[1];
        uint32_t saved_end = v->end;
        v->in_ctxt = 1;
        v->out_index = c->pre_context + off;
        v->slotref = off;
        v->out_length = (uint16_t)c->rule_length;
        if (!decode(v, block, block_end))
            return 0;
        v->end = saved_end;
        v->out_length = 1;
        v->out_index = 0;
        v->slotref = 0;
        v->in_ctxt = 0;
        return 3u + a[1];
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
