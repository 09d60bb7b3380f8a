/* The Graphite opcode table and the instruction decoder, generated from
 * opcodes.def, with the static checks of the list. */
#include "graphite/opcodes.h"

#include <string.h>

/* opcodes.def's runs_as column: OWN, PUSH or AS(OTHER). */
#define GRV_RUNS_OWN(name) GRV_OP_##name
#define GRV_RUNS_PUSH(name) GRV_XOP_PUSH
#define GRV_RUNS_AS(other) GRV_OP_##other GRV_RUNS_DROP
#define GRV_RUNS_DROP(name)

const grv_opinfo grv_ops[GRV_OP_COUNT] = {
#define X(name, code, runs_as, where, rule, pops, pushes, args)                             \
    [code] = {#name, GRV_LAYOUT(args), rule, GRV_LAYOUT_BYTES(GRV_LAYOUT(args)), pops,   \
              pushes, where,               \
              GRV_RUNS_##runs_as(name)},
#include "graphite/opcodes.def"
#undef X
};

/* The list is in opcode order without gaps, so that GRV_OP_COUNT bounds it
 * and the table above has no hole. */
enum {
#define X(name, code, runs_as, where, rule, pops, pushes, args) GRV_SEQ_##name,
#include "graphite/opcodes.def"
#undef X
};
#define X(name, code, runs_as, where, rule, pops, pushes, args)                              \
    _Static_assert(GRV_SEQ_##name == (code), #name " is out of order or after a gap");        \
    _Static_assert(GRV_LAYOUT_BYTES(GRV_LAYOUT(args)) <= 5, #name ": arguments longer than PutSubs'");     \
    _Static_assert((pops) <= 3 && (pushes) <= 1, #name ": stack effect beyond Cond's");        \
    _Static_assert(!((rule) & (GRV_R_READS | GRV_R_COPIES)) || GRV_LAYOUT_HAS(GRV_LAYOUT(args), GRV_ARG_Slot), \
                   #name " reads a slot but has no Slot argument");                           \
    _Static_assert(!GRV_LAYOUT_HAS(GRV_LAYOUT(args), GRV_ARG_Index) || GRV_LAYOUT_HAS(GRV_LAYOUT(args), GRV_ARG_SlatI), \
                   #name ": an Index argument needs the SlatI it indexes");                   \
    _Static_assert(!GRV_LAYOUT_HAS(GRV_LAYOUT(args), GRV_ARG_Slots) || GRV_LAYOUT_KIND(GRV_LAYOUT(args), 1) == 0,     \
                   #name ": Slots (a counted list) must be the only argument");               \
    _Static_assert(!((where) & GRV_SUBST) || ((where) & GRV_IN_A),                            \
                   #name ": substitution-only opcodes are action code");                      \
    _Static_assert(!((where) & GRV_UNIMPL) || !((where) & (GRV_IN_C | GRV_IN_A)),             \
                   #name ": unimplemented yet allowed");                                      \
    _Static_assert(!((rule) & GRV_R_RETURN) || ((where) & GRV_IN_C && (where) & GRV_IN_A),    \
                   #name ": returns must end both kinds of code");
#include "graphite/opcodes.def"
#undef X

/* Each kind's width is GRV_ARG_BYTES's, the one the layouts are measured in. */
#define KIND(k, is_signed, field) [GRV_ARG_##k] = {GRV_ARG_BYTES(GRV_ARG_##k), is_signed, GRV_FIELD_##field},
const grv_arg_kind grv_arg_kinds[GRV_ARG_KIND_COUNT] = {
    KIND(NONE, 0, NONE)
    KIND(S8, 1, AB) KIND(U8, 0, AB) KIND(S16, 1, AB) KIND(U16, 0, AB) KIND(S32, 1, AB)
    KIND(Unused, 0, NONE)
    KIND(Slot, 1, SLOT)
    KIND(Class8, 0, AB) KIND(Class16, 0, AB)
    KIND(GAttr8, 0, AB) KIND(GAttr16, 0, AB)
    KIND(Slat, 0, U8) KIND(SlatI, 0, U8) KIND(Index, 0, AB)
    KIND(Metric, 0, U8) KIND(Level, 0, AB)
    KIND(Feat, 0, U8)
    KIND(Slots, 0, LIST)
    KIND(CtxSlot, 1, SLOT) KIND(Skip, 0, TARGET)
};
#undef KIND
_Static_assert(GRV_ARG_KIND_COUNT <= 256, "an argument kind must fit a layout byte");

uint32_t grv_decode_insn(fv_span s, uint32_t pc, grv_insn *in)
{
    memset(in, 0, sizeof *in);
    in->pc = (uint16_t)pc; /* pc < s.len <= GRV_MAX_CODE_BYTES (grv_compile) */
    in->xop = GRV_XOP_BAD;
    in->op = s.data[pc];
    uint32_t length = grv_insn_length(s, pc);
    if (length == 0)
        return 0;
    const grv_opinfo *oi = &grv_ops[in->op];
    in->xop = oi->runs_as;
    if (oi->layout == 0)
        return length;
    const uint8_t *a = s.data + pc + 1;
    int ab = 0;
    for (uint32_t i = 0, off = 0; i < GRV_LAYOUT_ARGS; i++) {
        grv_arg k = GRV_LAYOUT_KIND(oi->layout, i);
        if (k == GRV_ARG_NONE)
            break;
        int32_t v = grv_arg_value(k, a + off);
        switch ((grv_arg_field)grv_arg_kinds[k].field) {
        case GRV_FIELD_AB:
            if (ab++)
                in->b = (uint16_t)v;
            else
                in->a = v;
            break;
        case GRV_FIELD_SLOT: in->slot = (int8_t)v; break;
        case GRV_FIELD_U8: in->u8 = (uint8_t)v; break;
        /* the offsets, a[1..count], stay in the code */
        case GRV_FIELD_LIST: in->u8 = (uint8_t)v; in->a = (int32_t)(pc + 1 + off + 1); break;
        /* a byte offset until grv_compile resolves it to an instruction */
        case GRV_FIELD_TARGET: in->a = (int32_t)(pc + length + (uint32_t)v); break;
        case GRV_FIELD_NONE:
        default: break;
        }
        off += grv_arg_kinds[k].bytes;
    }
    return length;
}
