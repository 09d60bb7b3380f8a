/* TrueType opcodes: the enum, names, stack effects and the decoder, all
 * generated from opcodes.def.  Used by the interpreter and by `fontvm
 * disasm` / `fontvm trace`. */
#ifndef FV_TT_OPCODES_H
#define FV_TT_OPCODES_H

#include <stddef.h>
#include <stdint.h>

#include "common/check.h"
#include "common/reader.h"
#include "fontvm/error.h"

typedef enum tt_inline {
    TT_INLINE_NONE = 0,
    TT_INLINE_NPUSHB,
    TT_INLINE_NPUSHW,
    TT_INLINE_PUSHB,
    TT_INLINE_PUSHW
} tt_inline;

typedef enum tt_family {
    TT_FAM_NONE = 0, /* undefined opcode */
    TT_FAM_PUSH,
    TT_FAM_STACK,
    TT_FAM_STORAGE,
    TT_FAM_GSTATE,
    TT_FAM_POINTS,
    TT_FAM_DELTA,
    TT_FAM_ARITH,
    TT_FAM_CONTROL,
    TT_FAM_ROUND,
    TT_FAM_MISC
} tt_family;

/* First opcode of each range: TT_OP_MIRP == 0xE0 etc. */
enum {
#define X(m, first, bits, pops, pushes, inl, fam) TT_OP_##m = first,
#include "tt/opcodes.def"
#undef X
};

/* GETVARIATION and GETDATA: FreeType 2.12.1 runs them only in variation
 * fonts, elsewhere as undefined opcodes (an IDEF or Invalid_Opcode), as
 * fontvm does everywhere; they keep FreeType's stack effects: GETDATA
 * pushes one value (tt_stack_effects), GETVARIATION a variable count,
 * which leaves the stack top where the last instruction put it (interp.c). */
enum { TT_OP_GETVARIATION = 0x91, TT_OP_GETDATA = 0x92 };

/* Static facts about one opcode byte. */
typedef struct tt_opinfo {
    const char *name;   /* base mnemonic, NULL when undefined */
    uint8_t first;      /* first opcode of its range */
    uint8_t flag_bits;
    uint8_t pops, pushes;
    uint8_t inline_rule; /* tt_inline */
    uint8_t family;      /* tt_family */
} tt_opinfo;

/* TT_EACH_<bits>(first, E, a) expands E(op, a) for each of the 2^bits
 * opcodes of a range: the dense tables and the dispatch are generated from
 * opcodes.def with it. */
#define TT_EACH_0(f, E, a) E(f, a)
#define TT_EACH_1(f, E, a) TT_EACH_0(f, E, a) TT_EACH_0((f) + 1, E, a)
#define TT_EACH_2(f, E, a) TT_EACH_1(f, E, a) TT_EACH_1((f) + 2, E, a)
#define TT_EACH_3(f, E, a) TT_EACH_2(f, E, a) TT_EACH_2((f) + 4, E, a)
#define TT_EACH_4(f, E, a) TT_EACH_3(f, E, a) TT_EACH_3((f) + 8, E, a)
#define TT_EACH_5(f, E, a) TT_EACH_4(f, E, a) TT_EACH_4((f) + 16, E, a)

/* Bytes that follow each opcode byte, for fixed-length instructions (0 for
 * most; PUSHB[n] n + 1 bytes, PUSHW[n] 2(n + 1)), or TT_COUNTED_INLINE for
 * NPUSHB/NPUSHW, whose count byte follows.  Undefined opcodes: 0. */
#define TT_COUNTED_INLINE 0xFF
extern const uint8_t tt_inline_bytes[256];

/* Values each opcode pops (bits 0-7) and pushes (bits 8-15), opcodes.def's
 * counts (undefined opcodes: 0, 0, but GETDATA 0, 1), and TT_EFFECT_INLINE
 * when inline data follows the opcode: everything the interpreter loop
 * needs before the dispatch in one load. */
#define TT_EFFECT_INLINE (1u << 16)
extern const uint32_t tt_stack_effects[256];
static inline uint32_t tt_pops_of(uint32_t effect) { return effect & 0xFFu; }
static inline uint32_t tt_pushes_of(uint32_t effect) { return (effect >> 8) & 0xFFu; }

/* Table of 256 entries, generated from opcodes.def. */
const tt_opinfo *tt_opinfo_get(uint8_t op);

/* Base mnemonic ("MIRP"); "UNDEF" for an undefined opcode. */
const char *tt_opcode_name(uint8_t op);
/* Whether the opcode is defined by the instruction set. */
int tt_opcode_defined(uint8_t op);

/* Mnemonic with flags, e.g. "MIRP[01101]", "PUSHB[010]", "SVTCA[0]", "ADD",
 * or "UNDEF_0x91".  Returns what snprintf returns. */
int tt_format_mnemonic(uint8_t op, char *buf, size_t n);

/* One decoded instruction. */
typedef struct tt_insn {
    uint32_t pc;
    uint8_t opcode;
    uint32_t length;       /* bytes including inline data */
    uint32_t num_values;   /* inline push values */
    fv_span data;          /* the inline data bytes (after any count byte) */
    uint8_t value_size;    /* 1 (bytes) or 2 (words) */
} tt_insn;

/* Length in bytes of the instruction at `pc` (inline push data included),
 * or 0 when it runs past `len`.  The hot path of the interpreter and of
 * IF/FDEF skipping: one table lookup and one bounds check.  The caller
 * guarantees pc < len. */
static inline uint32_t tt_insn_length(const uint8_t *code, uint64_t len, uint64_t pc)
{
    uint64_t n = tt_inline_bytes[code[pc]];
    if (n == TT_COUNTED_INLINE) {
        if (len - pc < 2)
            return 0;
        n = 1 + (uint64_t)code[pc + 1] * (code[pc] == TT_OP_NPUSHW ? 2u : 1u);
    }
    n += 1;
    FV_TESTCASE(n == len - pc);     /* the inline data ends exactly at the code's end */
    FV_TESTCASE(n == len - pc + 1); /* one byte short */
    return n <= len - pc ? (uint32_t)n : 0;
}

/* Decodes the instruction at `pc`.  Returns FV_OK, or TT_CODE_OVERFLOW when
 * pc is at/after the end or the inline data is truncated. */
fv_status tt_decode(fv_span code, uint32_t pc, tt_insn *out);
/* The i-th inline value (words are sign-extended, bytes are unsigned). */
int32_t tt_insn_value(const tt_insn *in, uint32_t i);

#endif
