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
 * Optionally followed by an 8-byte variation trailer (the input then ends
 * [code][16-byte trailer][8-byte variation trailer]):
 *
 *   [0..1]  "VR" (what marks it; an input without it has no variations)
 *   [2]     bits 1-3 cvar, HVAR, avar besides fvar and gvar
 *           (FVSYNTH_VAR_*), bit 4 no location (the default instance)
 *   [3]     the location: wght's normalized coordinate, signed, in 128ths
 *   [4]     the largest delta in font units (0 is taken as 1)
 *   [5..7]  seed of the deltas
 *
 * fvfuzz_tt_decode_input (fuzz/support/tt_run.c) reads this layout for
 * tt_program and tt_diff alike. */
#include <stdlib.h>

#include "fontvm/fontvm.h"
#include "fuzz.h"
#include "support/tt_run.h"
#include "synth/tt_synth.h"

/* 64 KiB of code: above the largest real fpgm in the corpus (~20 KiB). */
#define TT_PROGRAM_MAX_INPUT (64 * 1024)

static int run(const fvfuzz_ctx *ctx, const uint8_t *data, size_t size)
{
    fvfuzz_tt_input in;
    fvfuzz_tt_decode_input(data, size, &in);
    size_t font_len = 0;
    uint8_t *font_data = fvfuzz_tt_build_font(&in.font, "tt_program", &font_len);
    if (font_data == NULL)
        return 0;

    fvfuzz_alloc fa;
    fvfuzz_alloc_init(&fa, in.alloc_config);
    fv_font *font = NULL;
    fv_error err;
    if (fv_font_open_memory(font_data, font_len, 0, &fa.a, &font, &err) == FV_OK) {
        const uint32_t glyphs[2] = {0, 1};
        fvfuzz_tt_hint(ctx, font, &in.size, 1, glyphs, in.font.composite ? 2 : 1);
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
