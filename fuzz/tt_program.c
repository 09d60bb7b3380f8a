/* Fuzz target `tt_program`: raw TrueType bytecode run as fpgm, prep and
 * glyph program in a synthetic font (fuzz/synth/tt_synth.c) whose
 * parameters come from the input's 16 trailing bytes:
 *
 *   [0..1]  allocator configuration (fvfuzz_alloc_init)
 *   [2..3]  instructions of the code that form fpgm
 *   [4..5]  instructions after those that form prep; the rest is glyph 0's
 *   [6]     bits 0-1 mode (v35, v40, v40-mono, v40-lcd), 2 pedantic,
 *           3 also hint composite glyph 1, 4 add half a pixel to the size,
 *           5 head.flags bit 3 (integer ppem), 6 y ppem differs from x,
 *           7 units per em 1000 instead of 2048
 *   [7]     ppem (0 is taken as 1)
 *   [8]     points in glyph 0 (mod FVSYNTH_MAX_POINTS + 1)
 *   [9]     contours (mod points + 1, at least 1 with points)
 *   [10]    CVT entries / 4      [11] maxStorage / 4   [12] maxTwilightPoints
 *   [13]    maxFunctionDefs / 2 (also maxInstructionDefs)
 *   [14]    maxStackElements / 4 [15] seed for coordinates and CVT values
 *
 * Splitting by instruction count (not bytes) keeps the split stable under
 * the structure-aware mutator's insertions. */
#include <stdlib.h>

#include "fontvm/fontvm.h"
#include "fuzz.h"
#include "mutator/mutator.h"
#include "support/tt_run.h"
#include "synth/tt_synth.h"

#define TT_PROGRAM_TRAILER 16
/* 64 KiB of code: above the largest real fpgm in the corpus (~20 KiB). */
#define TT_PROGRAM_MAX_INPUT (64 * 1024)

/* Byte length of the first `count` instructions of code. */
static size_t insn_prefix(const uint8_t *code, size_t len, size_t count)
{
    size_t pc = 0;
    for (size_t i = 0; i < count && pc < len; i++)
        pc += fvmut_insn_len(FVMUT_TT, code, len, pc);
    return pc;
}

static int run(const fvfuzz_ctx *ctx, const uint8_t *data, size_t size)
{
    fvfuzz_input in;
    fvfuzz_split(data, size, TT_PROGRAM_TRAILER, &in);
    size_t fpgm_len = insn_prefix(in.payload, in.payload_len, fvfuzz_u16(&in, 2));
    size_t prep_len = insn_prefix(in.payload + fpgm_len, in.payload_len - fpgm_len,
                                  fvfuzz_u16(&in, 4));
    size_t glyph_off = fpgm_len + prep_len;
    size_t glyph_len = in.payload_len - glyph_off;
    if (glyph_len > 0xFFFF)
        glyph_len = 0xFFFF;

    uint8_t flags = fvfuzz_u8(&in, 6);
    fvsynth_tt p = {0};
    p.fpgm = in.payload;
    p.fpgm_len = fpgm_len;
    p.prep = in.payload + fpgm_len;
    p.prep_len = prep_len;
    p.glyph_code = in.payload + glyph_off;
    p.glyph_code_len = glyph_len;
    p.num_points = (uint16_t)(fvfuzz_u8(&in, 8) % (FVSYNTH_MAX_POINTS + 1));
    p.num_contours = p.num_points ? (uint16_t)(1 + fvfuzz_u8(&in, 9) % p.num_points) : 0;
    p.cvt_count = (uint16_t)(fvfuzz_u8(&in, 10) * 4);
    p.max_storage = (uint16_t)(fvfuzz_u8(&in, 11) * 4);
    p.max_twilight = fvfuzz_u8(&in, 12);
    p.max_function_defs = (uint16_t)(fvfuzz_u8(&in, 13) * 2);
    p.max_instruction_defs = p.max_function_defs;
    p.max_stack = (uint16_t)(fvfuzz_u8(&in, 14) * 4);
    p.units_per_em = (flags & 0x80) ? 1000 : 2048;
    p.head_flags = (flags & 0x20) ? 0x0008 : 0;
    p.seed = fvfuzz_u8(&in, 15) * 0x01000193u + 1;
    p.composite = (flags & 0x08) != 0;

    size_t cap = fvsynth_tt_bound(&p);
    uint8_t *font_data = malloc(cap);
    if (font_data == NULL)
        return 0;
    size_t font_len = fvsynth_tt_build(&p, font_data, cap);
    if (font_len == 0)
        fvfuzz_fail("tt_program", "synthetic font did not fit its bound (%zu bytes)", cap);

    fvfuzz_alloc fa;
    fvfuzz_alloc_init(&fa, fvfuzz_u16(&in, 0));
    fv_font *font = NULL;
    fv_error err;
    if (fv_font_open_memory(font_data, font_len, 0, &fa.a, &font, &err) == FV_OK) {
        uint32_t ppem = fvfuzz_u8(&in, 7) ? fvfuzz_u8(&in, 7) : 1;
        int32_t x = (int32_t)(ppem * 64 + ((flags & 0x10) ? 32 : 0));
        fvfuzz_tt_size sz = {x, (flags & 0x40) ? x + 3 * 64 : x, fvfuzz_tt_mode(flags),
                             (flags & 0x04) != 0};
        const uint32_t glyphs[2] = {0, 1};
        fvfuzz_tt_hint(ctx, font, &sz, 1, glyphs, p.composite ? 2 : 1);
        fv_font_close(font);
    } else if (fa.failures == 0) {
        /* Our own font must always open unless an allocation was refused. */
        char buf[200];
        fv_error_format(&err, buf, sizeof buf);
        fvfuzz_fail("tt_program", "synthetic font rejected: %s", buf);
    }
    fvfuzz_alloc_check_clean(&fa, "tt_program");
    free(font_data);
    return 0;
}

FVFUZZ_TARGET(tt_program, TT_PROGRAM_MAX_INPUT, run)
FVFUZZ_CODE_MUTATOR(tt_program)
