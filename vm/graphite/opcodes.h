/* Graphite opcodes: the enum, the per-opcode facts and the argument kinds,
 * all generated from opcodes.def, and the decoder that reads an
 * instruction's arguments (grv_decode_insn).  Used by the verifier
 * (verify.c), the loader's copy plan (silf.c), the machine's compile step
 * (machine.c) and the disassembler (disasm.c). */
#ifndef FV_GRAPHITE_OPCODES_H
#define FV_GRAPHITE_OPCODES_H

#include <stdint.h>

#include "common/reader.h"

/* Where an opcode may appear (opcodes.def's `where`). */
#define GRV_IN_C 1u
#define GRV_IN_A 2u
#define GRV_SUBST 4u
#define GRV_UNIMPL 8u

/* What the verifier and the copy plan must know about an opcode
 * (opcodes.def's `rule`).  graphite2's loader makes the same distinctions. */
#define GRV_R_READS 0x001u   /* reads the slot at its Slot argument: "referenced" in the copy plan */
#define GRV_R_WRITES 0x002u  /* writes the current output slot, which must be inside the rule */
#define GRV_R_CHANGES 0x004u /* changes the current slot's glyph or characters: "changed" */
#define GRV_R_COPIES 0x008u  /* copies the slot at its Slot argument over the current one: a
                              * change unless that is the current slot (offset 0) */
#define GRV_R_NEXT 0x010u    /* the output and input positions move on one slot */
#define GRV_R_INSERT 0x020u  /* inserts a slot before the output position */
#define GRV_R_DELETE 0x040u  /* deletes the output slot */
#define GRV_R_CONTEXT 0x080u /* ContextItem: the following block runs at another slot */
#define GRV_R_RETURN 0x100u  /* ends the code: what a piece of code must end with */
/* COMPAT(graphite2): its loader does not count this opcode's pop (SetFeat),
 * so the verifier does not either; the machine's stack guard covers it. */
#define GRV_R_UNCOUNTED_POP 0x200u

/* graphite2's NUMCONTEXTS: the slots its load-time analysis of one rule's
 * code tracks (the verifier's and the copy plan's slot records). */
#define GRV_NUM_CONTEXTS 256

enum grv_opcode {
#define X(name, code, runs_as, where, rule, pops, pushes, args) GRV_OP_##name = code,
#include "graphite/opcodes.def"
#undef X
    GRV_OP_COUNT
};
_Static_assert(GRV_OP_COUNT == 0x43, "opcode table must cover 0x00..0x42");

/* Machine-only operations of decoded code, after the real opcodes. */
enum grv_xop {
    GRV_XOP_PUSH = GRV_OP_COUNT, /* every Push* form: push `a` */
    GRV_XOP_TEMP_COPY,           /* graphite2's TEMP_COPY of the current slot */
    GRV_XOP_END,                 /* the end of the code: finish */
    GRV_XOP_BAD,                 /* undecodable or refused opcode: the rule dies */
    GRV_XOP_COUNT
};

/* Argument kinds (opcodes.def's argument columns): each one's width and
 * signedness, what it names (which decides the verifier's check) and the
 * grv_insn field the decoder puts it in are in grv_arg_kinds (opcodes.c). */
typedef enum grv_arg {
    GRV_ARG_NONE = 0,
    GRV_ARG_S8, GRV_ARG_U8, GRV_ARG_S16, GRV_ARG_U16, GRV_ARG_S32, /* immediates: a, then b */
    GRV_ARG_Unused,          /* a byte graphite2 ignores (PushProcState) */
    GRV_ARG_Slot,            /* slot offset from the current slot: slot; in the rule */
    GRV_ARG_Class8, GRV_ARG_Class16,   /* a, then b; below the class count */
    GRV_ARG_GAttr8, GRV_ARG_GAttr16,   /* glyph attribute: a; below Gloc's count */
    GRV_ARG_Slat,            /* slot attribute without an index: u8; not userDefn */
    GRV_ARG_SlatI,           /* slot attribute with an index: u8 */
    GRV_ARG_Index,           /* the index of the SlatI before it: a */
    GRV_ARG_Metric,          /* glyph metric: u8 */
    GRV_ARG_Level,           /* metric level: a */
    GRV_ARG_Feat,            /* feature: u8; below the feature count */
    GRV_ARG_Slots,           /* Assoc: count (u8), then count slot offsets (a: their pc) */
    GRV_ARG_CtxSlot,         /* ContextItem's slot, from the rule's start: slot */
    GRV_ARG_Skip,            /* bytes ContextItem skips: a (the target's pc) */
    GRV_ARG_KIND_COUNT
} grv_arg;

/* The argument kind of argument i (0..GRV_LAYOUT_ARGS-1) of a layout
 * (grv_opinfo.layout: one kind per byte, the first argument lowest). */
#define GRV_LAYOUT_KIND(layout, i) ((grv_arg)(((layout) >> (8 * (i))) & 0xFFu))
#define GRV_LAYOUT_ARGS 3

/* opcodes.def's argument column as a layout: GRV_LAYOUT(A2(Feat, Slot)).
 * The .def's A0..A3 are spelled out here, under the GRV_ prefix, so that
 * every reader of the list (opcodes.c, the fuzz mutator) measures the
 * arguments the same way. */
#define GRV_LAYOUT(args) GRV_LAYOUT_##args
#define GRV_LAYOUT_A0 0u
#define GRV_LAYOUT_A1(a) ((uint32_t)GRV_ARG_##a)
#define GRV_LAYOUT_A2(a, b) (GRV_LAYOUT_A1(a) | (uint32_t)GRV_ARG_##b << 8)
#define GRV_LAYOUT_A3(a, b, c) (GRV_LAYOUT_A2(a, b) | (uint32_t)GRV_ARG_##c << 16)

/* Bytes of one argument kind (Slots: its count byte; the offsets follow) and
 * of a layout; constant expressions, for tables and static checks. */
#define GRV_ARG_BYTES(k)                                                                  \
    ((k) == GRV_ARG_NONE ? 0                                                              \
     : ((k) == GRV_ARG_S16 || (k) == GRV_ARG_U16 || (k) == GRV_ARG_Class16 ||             \
        (k) == GRV_ARG_GAttr16)                                                           \
         ? 2                                                                              \
     : (k) == GRV_ARG_S32 ? 4                                                             \
                          : 1)
#define GRV_LAYOUT_BYTES(layout)                                                          \
    (GRV_ARG_BYTES(GRV_LAYOUT_KIND(layout, 0)) + GRV_ARG_BYTES(GRV_LAYOUT_KIND(layout, 1)) + \
     GRV_ARG_BYTES(GRV_LAYOUT_KIND(layout, 2)))
#define GRV_LAYOUT_HAS(layout, k)                                                         \
    (GRV_LAYOUT_KIND(layout, 0) == (k) || GRV_LAYOUT_KIND(layout, 1) == (k) ||            \
     GRV_LAYOUT_KIND(layout, 2) == (k))

/* Static facts about one opcode, dense by opcode. */
typedef struct grv_opinfo {
    const char *name;      /* opcodes.def's NAME */
    uint32_t layout;       /* A0..A3: argument kinds */
    uint16_t rule;         /* GRV_R_* */
    uint8_t arg_bytes;     /* bytes of the arguments (Assoc: its count byte only) */
    uint8_t pops, pushes, where;
    uint8_t runs_as;       /* grv_insn.xop */
} grv_opinfo;
extern const grv_opinfo grv_ops[GRV_OP_COUNT];

/* How the decoder, the verifier and the disassembler treat one argument
 * kind. */
typedef enum grv_arg_field {
    GRV_FIELD_NONE,    /* read, not kept */
    GRV_FIELD_AB,      /* the next free of a, b */
    GRV_FIELD_SLOT,    /* slot */
    GRV_FIELD_U8,      /* u8 */
    GRV_FIELD_LIST,    /* u8 := count, a := pc of the list */
    GRV_FIELD_TARGET   /* a := the instruction's end + value */
} grv_arg_field;
typedef struct grv_arg_kind {
    uint8_t bytes;
    uint8_t is_signed;
    uint8_t field;     /* grv_arg_field */
} grv_arg_kind;
extern const grv_arg_kind grv_arg_kinds[GRV_ARG_KIND_COUNT];

/* Reads argument `k` (bytes, signedness of its kind) at p; the caller has
 * checked that the bytes are there. */
static inline int32_t grv_arg_value(grv_arg k, const uint8_t *p)
{
    const grv_arg_kind *ak = &grv_arg_kinds[k];
    switch (ak->bytes) {
    case 1: return ak->is_signed ? (int32_t)(int8_t)p[0] : (int32_t)p[0];
    case 2: {
        uint16_t v = (uint16_t)(p[0] << 8 | p[1]);
        return ak->is_signed ? (int32_t)(int16_t)v : (int32_t)v;
    }
    case 4:
        return (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]);
    default:
        return 0;
    }
}

/* Bytes of the arguments of the opcode at `pc` (< s.len), Assoc's counted
 * offsets included; an Assoc whose count byte is missing counts 1. */
static inline uint64_t grv_arg_bytes(fv_span s, uint32_t pc)
{
    const grv_opinfo *oi = &grv_ops[s.data[pc]];
    if (GRV_LAYOUT_KIND(oi->layout, 0) != GRV_ARG_Slots)
        return oi->arg_bytes;
    return pc + 1 < s.len ? 1u + (uint64_t)s.data[pc + 1] : 1u;
}

/* Length in bytes of the instruction at `pc` (< s.len), or 0 when it
 * cannot run: an unknown or unimplemented opcode, or arguments past the
 * end.  What grv_decode_insn returns, without decoding. */
static inline uint32_t grv_insn_length(fv_span s, uint32_t pc)
{
    uint8_t op = s.data[pc];
    if (op >= GRV_OP_COUNT || (grv_ops[op].where & GRV_UNIMPL))
        return 0;
    uint64_t nargs = grv_arg_bytes(s, pc);
    return pc + 1 + nargs > s.len ? 0 : (uint32_t)(1 + nargs);
}

/* One decoded instruction (machine.c grv_compile): the opcode's arguments
 * read once at load, so that running code reads no byte twice and needs no
 * length or bounds check per instruction.  Every field is in range by
 * construction, whatever bytes the font holds. */
typedef struct grv_insn {
    uint8_t xop;      /* what the machine does: a GRV_OP_* or GRV_XOP_* */
    uint8_t op;       /* the opcode byte (counters, trace); 0xFF for XOPs */
    int8_t slot;      /* the slot-offset argument, where there is one */
    uint8_t u8;       /* slot attribute, metric, feature, or Assoc's count */
    int32_t a;        /* pushed value, class, glyph attribute, SetBits mask,
                       * attribute index, metric level, Assoc's first offset
                       * byte, or ContextItem's target instruction */
    uint16_t b;       /* PutSubs' output class, SetBits' value (16-bit
                       * arguments; PushIGlyphAttr's unused index byte is
                       * kept as its low 16 bits) */
    uint16_t pc;      /* byte offset of the opcode in the code: rule code is
                       * at most GRV_MAX_CODE_BYTES long (grv_compile) */
} grv_insn;
/* 12 bytes an instruction (16 with 32-bit b and pc: a quarter of a big
 * face's decoded rules, Awami Nastaliq's 29,930 instructions). */
_Static_assert(sizeof(grv_insn) == 12, "grv_insn stays 12 bytes");
/* Rule code lengths: Silf's code offsets and the pass constraint's length
 * are 16-bit, so no font's code is longer. */
#define GRV_MAX_CODE_BYTES 0xFFFFu

/* Decodes the instruction at `pc` (< s.len) into *in; returns its length in
 * bytes, or 0 when it cannot run (unknown or refused opcode, arguments past
 * the end): then *in is a GRV_XOP_BAD.  The one reading of opcode
 * arguments (grv_compile, silf.c's copy plan), driven by opcodes.def. */
uint32_t grv_decode_insn(fv_span s, uint32_t pc, grv_insn *in);

#endif
