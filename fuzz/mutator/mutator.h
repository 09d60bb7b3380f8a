/* Structure-aware mutation of TrueType and Graphite bytecode.
 *
 * The code targets (tt_program, tt_diff, gr_code, gr_diff) take inputs laid
 * out as  [bytecode][trailer of fixed length].  Byte-level mutation mostly
 * breaks the instruction stream (a flipped push count swallows the rest of
 * the program), so this mutator decodes the bytecode into instructions and
 * edits it instruction by instruction: insert, delete, replace or duplicate
 * an instruction, change a push operand to an interesting value, grow or
 * shrink a push while fixing its count, splice a function (FDEF..ENDF) or a
 * run of instructions from another input, and occasionally tweak one byte
 * of the trailer.  The result always decodes back into whole instructions.
 *
 * Engine glue: fuzz.h's FVFUZZ_CODE_MUTATOR (libFuzzer's
 * LLVMFuzzerCustomMutator / LLVMFuzzerCustomCrossOver) and
 * mutator/afl_mutator.c (AFL++'s custom mutator library interface).
 * No global state: randomness comes from the engine's seed in each call. */
#ifndef FVFUZZ_MUTATOR_H
#define FVFUZZ_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* FVMUT_FONT: the input is [sfnt font][text][trailer] (tt_font_diff,
 * gr_font_diff), mutated table by table (mutator/font.c). */
typedef enum fvmut_kind { FVMUT_TT = 0, FVMUT_GR = 1, FVMUT_FONT = 2 } fvmut_kind;

typedef struct fvmut_layout {
    fvmut_kind kind;
    size_t trailer; /* trailing configuration bytes left alone (mostly) */
    /* FVMUT_FONT: 1 + the trailer byte holding the number of 16-bit text
     * units between the font and the trailer; 0 when there is no text. */
    size_t text_units_at;
} fvmut_layout;

/* tt_program and tt_diff inputs may end in an 8-byte variation trailer
 * after the 16-byte one, marked by "VR" (fuzz/tt_program.c): the mutator
 * keeps it with the trailer.  Its length in data[0..size), or 0. */
#define FVMUT_TT_VAR_TRAILER 8
static inline size_t fvmut_tt_var_trailer(const uint8_t *data, size_t size, size_t trailer)
{
    return size >= trailer + FVMUT_TT_VAR_TRAILER && data[size - 8] == 'V' &&
                   data[size - 7] == 'R'
               ? FVMUT_TT_VAR_TRAILER
               : 0;
}

/* The layout of a code or font target by name ("tt_program", ...); 0 if
 * unknown. */
int fvmut_layout_for(const char *target, fvmut_layout *out);

typedef struct fvmut_rng {
    uint64_t s;
} fvmut_rng;

void fvmut_rng_seed(fvmut_rng *r, uint64_t seed);
uint32_t fvmut_rand(fvmut_rng *r, uint32_t bound); /* [0, bound), 0 if bound == 0 */

/* Length in bytes of the instruction at code[pc] (clipped to the code). */
size_t fvmut_insn_len(fvmut_kind kind, const uint8_t *code, size_t len, size_t pc);

/* Mutates data[0..size) in place (capacity max); returns the new size
 * (never above max, never 0 when size > 0). */
size_t fvmut_mutate(const fvmut_layout *l, uint8_t *data, size_t size, size_t max,
                    fvmut_rng *rng);

/* Writes into out (capacity max) a child of a and b: a's trailer and a's
 * code with a function or run of instructions from b spliced in.  Returns
 * its size. */
size_t fvmut_crossover(const fvmut_layout *l, const uint8_t *a, size_t an, const uint8_t *b,
                       size_t bn, uint8_t *out, size_t max, fvmut_rng *rng);

/* The FVMUT_FONT mutations (mutator/font.c); fvmut_mutate and
 * fvmut_crossover call them for FVMUT_FONT layouts.  fvmut_font_mutate
 * returns 0 when the input has no plain sfnt directory or the chosen edit
 * did not apply (the input is then unchanged); crossover returns 0 when it
 * made nothing. */
size_t fvmut_font_mutate(const fvmut_layout *l, uint8_t *data, size_t size, size_t max,
                         fvmut_rng *rng);
size_t fvmut_font_crossover(const fvmut_layout *l, const uint8_t *a, size_t an,
                            const uint8_t *b, size_t bn, uint8_t *out, size_t max,
                            fvmut_rng *rng);

/* TrueType opcodes the mutator knows by name. */
enum {
    FVMUT_TT_FDEF = 0x2C,
    FVMUT_TT_ENDF = 0x2D,
    FVMUT_TT_NPUSHB = 0x40,
    FVMUT_TT_NPUSHW = 0x41,
    FVMUT_TT_PUSHB0 = 0xB0,
    FVMUT_TT_PUSHW0 = 0xB8
};

/* fvmut_insn_len for TrueType, inline: tt_program and tt_diff split every
 * input into programs by instruction count (fuzz/support/tt_run.c), which
 * walks up to 2 x 65535 instructions per run. */
static inline size_t fvmut_tt_insn_len(const uint8_t *code, size_t len, size_t pc)
{
    if (pc >= len)
        return 0;
    uint8_t op = code[pc];
    size_t n = 1;
    if (op == FVMUT_TT_NPUSHB)
        n = pc + 1 < len ? 2 + (size_t)code[pc + 1] : 2;
    else if (op == FVMUT_TT_NPUSHW)
        n = pc + 1 < len ? 2 + 2 * (size_t)code[pc + 1] : 2;
    else if (op >= FVMUT_TT_PUSHB0 && op < FVMUT_TT_PUSHW0)
        n = 1 + (size_t)(op - FVMUT_TT_PUSHB0 + 1);
    else if (op >= FVMUT_TT_PUSHW0)
        n = 1 + 2 * (size_t)(op - FVMUT_TT_PUSHW0 + 1);
    return n < len - pc ? n : len - pc;
}

#ifdef __cplusplus
}
#endif
#endif
