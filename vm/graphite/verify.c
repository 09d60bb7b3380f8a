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

fv_status grv_verify(const grv_verify_ctx *ctx, grv_code code, fv_error *err)
{
    const fv_gr_face *face = ctx->face;
    const grv_silf *silf = &face->silf;
    fv_span s = code.code;
    uint32_t pc = 0;
    int64_t depth = 0;
    int last_op = -1;
    uint32_t ctxt_end = 0; /* end of the current ContextItem block, 0 if none */
    int slotpos = 0;       /* slots advanced by NEXT/COPY_NEXT in action code */
    if (s.len == 0)
        return FV_OK;
    while (pc < s.len) {
        int op = s.data[pc];
        if (ctxt_end && pc >= ctxt_end)
            ctxt_end = 0;
        if (op >= GRV_OP_COUNT)
            return vfail(ctx, err, FV_E_GR_BAD_OPCODE, pc, op, op, code, "unknown opcode");
        const grv_opinfo *oi = &grv_ops[op];
        if (oi->where & GRV_UNIMPL)
            return vfail(ctx, err, FV_E_GR_BAD_OPCODE, pc, op, op, code,
                         "unimplemented opcode");
        if (!(oi->where & (ctx->is_constraint ? GRV_IN_C : GRV_IN_A)))
            return vfail(ctx, err, FV_E_GR_BAD_OPCODE, pc, op, op, code,
                         ctx->is_constraint ? "action opcode in constraint code"
                                            : "constraint opcode in action code");
        if ((oi->where & GRV_SUBST) && ctx->positioning)
            return vfail(ctx, err, FV_E_GR_BAD_OPCODE, pc, op, op, code,
                         "substitution opcode in a positioning pass");
        uint32_t nargs;
        if (oi->args < 0) {
            if (pc + 1 >= s.len)
                return vfail(ctx, err, FV_E_GR_CODE_OVERRUN, pc, op, -1, code,
                             "arguments run off the end");
            nargs = 1u + s.data[pc + 1];
        } else {
            nargs = (uint32_t)oi->args;
        }
        if ((uint64_t)pc + 1 + nargs > s.len)
            return vfail(ctx, err, FV_E_GR_CODE_OVERRUN, pc, op, -1, code,
                         "arguments run off the end");
        const uint8_t *a = s.data + pc + 1;
        depth -= oi->pops;
        if (depth < 0)
            return vfail(ctx, err, FV_E_GR_STACK_UNDERFLOW, pc, op, depth, code,
                         "pops more than was pushed");
        depth += oi->pushes;
        if (depth > GRV_STACK_MAX)
            return vfail(ctx, err, FV_E_GR_STACK_OVERFLOW, pc, op, depth, code,
                         "stack deeper than the machine allows");
        int64_t bad = -1;
        int slotref_present = 0;
        int slotref = 0;
        switch (op) {
        case GRV_OP_PUT_GLYPH_8BIT_OBS:
            if (a[0] >= silf->num_classes) bad = a[0];
            break;
        case GRV_OP_PUT_GLYPH: {
            uint32_t cls = (uint32_t)a[0] << 8 | a[1];
            if (cls >= silf->num_classes) bad = cls;
            break;
        }
        case GRV_OP_PUT_SUBS_8BIT_OBS:
            slotref_present = 1; slotref = (int8_t)a[0];
            if (a[1] >= silf->num_classes) bad = a[1];
            else if (a[2] >= silf->num_classes) bad = a[2];
            break;
        case GRV_OP_PUT_SUBS: {
            uint32_t ic = (uint32_t)a[1] << 8 | a[2], oc = (uint32_t)a[3] << 8 | a[4];
            slotref_present = 1; slotref = (int8_t)a[0];
            if (ic >= silf->num_classes) bad = ic;
            else if (oc >= silf->num_classes) bad = oc;
            break;
        }
        case GRV_OP_PUT_COPY:
            slotref_present = 1; slotref = (int8_t)a[0];
            break;
        case GRV_OP_ASSOC:
            for (uint32_t k = 0; k < a[0]; k++) {
                int r = (int8_t)a[1 + k];
                int p = ctx->pre_context + slotpos + r;
                if (p < 0 || p >= ctx->rule_length)
                    return vfail(ctx, err, FV_E_GR_BAD_INDEX, pc, op, r, code,
                                 "slot reference outside the rule");
            }
            break;
        case GRV_OP_CNTXT_ITEM: {
            int off = (int8_t)a[0];
            if (ctxt_end)
                return vfail(ctx, err, FV_E_GR_BAD_OPCODE, pc, op, -1, code,
                             "nested ContextItem");
            if (ctx->pre_context + off < 0 || ctx->pre_context + off >= ctx->rule_length)
                return vfail(ctx, err, FV_E_GR_BAD_INDEX, pc, op, off, code,
                             "ContextItem slot outside the rule");
            uint64_t end = (uint64_t)pc + 3 + a[1];
            if (end >= s.len)
                return vfail(ctx, err, FV_E_GR_CODE_OVERRUN, pc, op, a[1], code,
                             "ContextItem skips past the end");
            ctxt_end = (uint32_t)end;
            break;
        }
        case GRV_OP_ATTR_SET: case GRV_OP_ATTR_ADD: case GRV_OP_ATTR_SUB:
        case GRV_OP_ATTR_SET_SLOT:
            if (a[0] >= GRV_SLAT_MAX) bad = a[0];
            break;
        case GRV_OP_IATTR_SET_SLOT: case GRV_OP_IATTR_SET: case GRV_OP_IATTR_ADD:
        case GRV_OP_IATTR_SUB:
            if (a[0] >= GRV_SLAT_MAX) bad = a[0];
            else if (a[0] == GRV_SLAT_USERDEFN && a[1] >= silf->num_user) bad = a[1];
            break;
        case GRV_OP_PUSH_SLOT_ATTR:
            if (a[0] >= GRV_SLAT_MAX) bad = a[0];
            slotref_present = 1; slotref = (int8_t)a[1];
            break;
        case GRV_OP_PUSH_ISLOT_ATTR:
            if (a[0] >= GRV_SLAT_MAX) bad = a[0];
            else if (a[0] == GRV_SLAT_USERDEFN && a[2] >= silf->num_user) bad = a[2];
            slotref_present = 1; slotref = (int8_t)a[1];
            break;
        case GRV_OP_PUSH_GLYPH_ATTR_OBS: case GRV_OP_PUSH_ATT_TO_GATTR_OBS:
            if (a[0] >= face->num_attrs) bad = a[0];
            slotref_present = 1; slotref = (int8_t)a[1];
            break;
        case GRV_OP_PUSH_GLYPH_ATTR: case GRV_OP_PUSH_ATT_TO_GLYPH_ATTR: {
            uint32_t at = (uint32_t)a[0] << 8 | a[1];
            if (at >= face->num_attrs) bad = at;
            slotref_present = 1; slotref = (int8_t)a[2];
            break;
        }
        case GRV_OP_PUSH_GLYPH_METRIC: case GRV_OP_PUSH_ATT_TO_GLYPH_METRIC:
            if (a[0] >= GRV_MET_COUNT) bad = a[0];
            slotref_present = 1; slotref = (int8_t)a[1];
            break;
        case GRV_OP_PUSH_FEAT: case GRV_OP_SET_FEAT:
            if (a[0] >= face->num_features) bad = a[0];
            slotref_present = 1; slotref = (int8_t)a[1];
            break;
        case GRV_OP_INSERT:
            /* the inserted slot takes no map entry: the following Next
             * stays on the same input slot */
            slotpos--;
            break;
        case GRV_OP_NEXT: case GRV_OP_COPY_NEXT:
            slotpos++;
            break;
        default:
            break;
        }
        if (bad >= 0)
            return vfail(ctx, err, FV_E_GR_BAD_INDEX, pc, op, bad, code,
                         "class, attribute, feature or metric index out of range");
        if (slotref_present) {
            /* Constraint code runs at every slot of the rule, so an offset
             * may reach back or forward by up to the rule's length. */
            int p = ctx->is_constraint ? slotref : ctx->pre_context + slotpos + slotref;
            /* Inserts step the map back, so an action may reach before the
             * rule; graphite2 accepts that at load and the machine checks
             * it at run time. */
            int lo = -GRV_MAX_SLOTS;
            if (p < lo || p >= ctx->rule_length)
                return vfail(ctx, err, FV_E_GR_BAD_INDEX, pc, op, slotref, code,
                             "slot reference outside the rule");
        }
        last_op = op;
        pc += 1 + nargs;
    }
    if (!is_return(last_op))
        return vfail(ctx, err, FV_E_GR_NO_RETURN, pc, last_op, -1, code,
                     "code does not end with a return");
    return FV_OK;
}
