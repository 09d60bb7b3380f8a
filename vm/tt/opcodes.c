/* Opcode tables and decoder generated from opcodes.def. */
#include "tt/opcodes.h"

#include <stdio.h>

/* Each range must fit in the byte space.  (Ranges need not be aligned: MD
 * is 0x49-0x4A; the flags are op - first.  Order and disjointness are
 * checked by tests/tt/test_interp_opcodes.c.) */
#define X(m, first, bits, pops, pushes, inl, fam)                                    \
    _Static_assert((first) + (1 << (bits)) <= 256, #m " range exceeds 0xFF");
#include "tt/opcodes.def"
#undef X

#define TT_INLINE_BYTES_NONE(f) 0
#define TT_INLINE_BYTES_PUSHB(f) (((f) & 7) + 1)
#define TT_INLINE_BYTES_PUSHW(f) (2 * (((f) & 7) + 1))
#define TT_INLINE_BYTES_NPUSHB(f) TT_COUNTED_INLINE
#define TT_INLINE_BYTES_NPUSHW(f) TT_COUNTED_INLINE
#define TT_INLINE_BYTES_AT(f, inl) [(f)] = TT_INLINE_BYTES_##inl(f),
const uint8_t tt_inline_bytes[256] = {
#define X(m, first, bits, pops, pushes, inl, fam) TT_EACH_##bits(first, TT_INLINE_BYTES_AT, inl)
#include "tt/opcodes.def"
#undef X
};

#define TT_HAS_INLINE_NONE 0u
#define TT_HAS_INLINE_PUSHB TT_EFFECT_INLINE
#define TT_HAS_INLINE_PUSHW TT_EFFECT_INLINE
#define TT_HAS_INLINE_NPUSHB TT_EFFECT_INLINE
#define TT_HAS_INLINE_NPUSHW TT_EFFECT_INLINE
#define TT_STACK_EFFECT_AT(f, e) [(f)] = (e),
const uint32_t tt_stack_effects[256] = {
#define X(m, first, bits, pops, pushes, inl, fam) \
    TT_EACH_##bits(first, TT_STACK_EFFECT_AT, (pops) | (pushes) << 8 | TT_HAS_INLINE_##inl)
#include "tt/opcodes.def"
#undef X
    /* COMPAT(freetype): undefined here, but FreeType 2.12.1 reserves the
     * slot GETDATA pushes before it runs the IDEF (tt_diff finding F-23). */
    [TT_OP_GETDATA] = 1 << 8,
};

/* The dense table: each byte of each range gets the range's facts;
 * undefined opcodes stay { NULL, 0, ... } (name NULL). */
#define TT_OPINFO_AT(f, e) [(f)] = e,
#define X(m, first, bits, pops, pushes, inl, fam) \
    TT_EACH_##bits(first, TT_OPINFO_AT,            \
                   ((tt_opinfo){#m, first, bits, pops, pushes, TT_INLINE_##inl, TT_FAM_##fam}))
static const tt_opinfo opinfo_table[256] = {
#include "tt/opcodes.def"
};
#undef X
#undef TT_OPINFO_AT

const tt_opinfo *tt_opinfo_get(uint8_t op)
{
    return &opinfo_table[op];
}

const char *tt_opcode_name(uint8_t op)
{
    const tt_opinfo *i = tt_opinfo_get(op);
    return i->name ? i->name : "UNDEF";
}

int tt_opcode_defined(uint8_t op)
{
    return tt_opinfo_get(op)->name != NULL;
}

int tt_format_mnemonic(uint8_t op, char *buf, size_t n)
{
    const tt_opinfo *i = tt_opinfo_get(op);
    if (i->name == NULL)
        return snprintf(buf, n, "UNDEF_0x%02X", (unsigned)op);
    if (i->flag_bits == 0)
        return snprintf(buf, n, "%s", i->name);
    char bits[8];
    unsigned nb = i->flag_bits;
    unsigned flags = (unsigned)op - i->first;
    for (unsigned k = 0; k < nb; k++)
        bits[k] = (char)('0' + ((flags >> (nb - 1 - k)) & 1));
    bits[nb] = '\0';
    return snprintf(buf, n, "%s[%s]", i->name, bits);
}

fv_status tt_decode(fv_span code, uint32_t pc, tt_insn *out)
{
    /* The length and its bounds check are the interpreter's own
     * (tt_insn_length), so disassembly and execution cannot disagree. */
    if ((uint64_t)pc >= code.len)
        return FV_E_TT_CODE_OVERFLOW;
    uint32_t length = tt_insn_length(code.data, code.len, pc);
    if (length == 0)
        return FV_E_TT_CODE_OVERFLOW;
    uint8_t op = code.data[pc];
    uint32_t header = 1, size = 1;
    switch ((tt_inline)tt_opinfo_get(op)->inline_rule) {
    case TT_INLINE_NPUSHW: header = 2; size = 2; break;
    case TT_INLINE_NPUSHB: header = 2; break;
    case TT_INLINE_PUSHW: size = 2; break;
    case TT_INLINE_PUSHB:
    case TT_INLINE_NONE:
    default: break;
    }
    out->pc = pc;
    out->opcode = op;
    out->length = length;
    out->num_values = (length - header) / size;
    out->data.data = code.data + pc + header;
    out->data.len = length - header;
    out->value_size = (uint8_t)size;
    return FV_OK;
}

int32_t tt_insn_value(const tt_insn *in, uint32_t i)
{
    if (in->value_size == 2) {
        int16_t v = 0;
        (void)fv_rd_s16(in->data, (uint64_t)i * 2, &v);
        return v;
    }
    uint8_t b = 0;
    (void)fv_rd_u8(in->data, i, &b);
    return b;
}
