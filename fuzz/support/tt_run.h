/* Helpers shared by the TrueType targets: run the hinter on a font at one
 * size and mode over a list of glyphs, printing the instruction trace when
 * the replay tool asks for it and adding opcode counts to the context. */
#ifndef FVFUZZ_TT_RUN_H
#define FVFUZZ_TT_RUN_H

#include <stdint.h>

#include "fontvm/tt.h"
#include "fuzz.h"
#include "synth/tt_synth.h"

typedef struct fvfuzz_tt_size {
    int32_t x_ppem_26d6, y_ppem_26d6;
    fv_tt_mode mode;
    int pedantic;
    /* A location (num_coords normalized 16.16 coordinates), or none. */
    const int32_t *coords;
    uint32_t num_coords;
} fvfuzz_tt_size;

/* Opens a TrueType face on `font` and hints each size over `glyphs`.
 * Everything is freed before returning.  Returns the number of glyphs
 * hinted without error (for the caller's curiosity only). */
uint32_t fvfuzz_tt_hint(const fvfuzz_ctx *ctx, fv_font *font, const fvfuzz_tt_size *sizes,
                        uint32_t num_sizes, const uint32_t *glyphs, uint32_t num_glyphs);

/* fv_tt_mode from any byte. */
static inline fv_tt_mode fvfuzz_tt_mode(uint8_t b)
{
    static const fv_tt_mode modes[4] = {FV_TT_V35, FV_TT_V40, FV_TT_V40_MONO, FV_TT_V40_LCD};
    return modes[b & 3];
}

/* The input layout tt_program and tt_diff share (documented at the top of
 * fuzz/tt_program.c): the code split into fpgm, prep and glyph program by
 * instruction counts, and the 16 trailing bytes read into the synthetic
 * font's parameters and one hinting configuration. */
#define FVFUZZ_TT_TRAILER 16

/* The optional variation trailer after it ("VR", see fuzz/tt_program.c). */
#define FVFUZZ_TT_VAR_TRAILER 8

typedef struct fvfuzz_tt_input {
    fvsynth_tt font;       /* points into the fuzzer's input: no copy */
    fvfuzz_tt_size size;   /* the one size and mode to hint at (size.coords
                            * points at coord below when there is a location) */
    uint16_t alloc_config; /* trailer [0..1], for fvfuzz_alloc_init */
    int32_t coord;         /* the location's one coordinate (16.16) */
} fvfuzz_tt_input;

void fvfuzz_tt_decode_input(const uint8_t *data, size_t size, fvfuzz_tt_input *out);

/* Builds the synthetic font into a malloc'd buffer (*len bytes), or
 * returns NULL if malloc failed.  A font that does not fit its own bound
 * is a bug in the synthesizer: reported through fvfuzz_fail. */
uint8_t *fvfuzz_tt_build_font(const fvsynth_tt *p, const char *target, size_t *len);

#endif
