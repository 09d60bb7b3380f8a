/* Fuzz target `tt_font`: a whole font file through the sfnt reader and the
 * TrueType hinter at two sizes.  Trailer (8 bytes):
 *   [0..1] allocator configuration     [2] face index
 *   [3]    glyph seed: which glyphs beyond the first ones are hinted
 *   [4]    bits 0-1 mode of the first size, 2-3 of the second, 4 pedantic
 *   [5]    ppem of the first size (0 -> 12), [6] of the second (0 -> 17)
 *   [7]    bit 0: half-pixel sizes, bit 1: second size non-square */
#include "fontvm/fontvm.h"
#include "fuzz.h"
#include "support/tt_run.h"

#define TT_FONT_TRAILER 8
/* Glyphs hinted per size: the first few (notdef, space, often composites)
 * plus a strided sample, so a big font stays near 1,000 exec/s. */
#define TT_FONT_FIRST_GLYPHS 4
#define TT_FONT_MAX_GLYPHS 12
/* 1 MiB: the reader and hinter see every structure well below that. */
#define TT_FONT_MAX_INPUT (1 << 20)

static int run(const fvfuzz_ctx *ctx, const uint8_t *data, size_t size)
{
    fvfuzz_input in;
    fvfuzz_split(data, size, TT_FONT_TRAILER, &in);
    fvfuzz_alloc fa;
    fvfuzz_alloc_init(&fa, fvfuzz_u16(&in, 0));
    fv_font *font = NULL;
    fv_error err;
    if (fv_font_open_memory(in.payload, in.payload_len, fvfuzz_u8(&in, 2) % 4, &fa.a, &font,
                            &err) != FV_OK) {
        fvfuzz_log_error(ctx, "open", &err);
        fvfuzz_alloc_check_clean(&fa, "tt_font");
        return 0;
    }
    uint32_t n = fv_font_glyph_count(font);
    uint32_t glyphs[TT_FONT_MAX_GLYPHS + 1], count = 0;
    for (uint32_t g = 0; g < n && g < TT_FONT_FIRST_GLYPHS; g++)
        glyphs[count++] = g;
    if (n > TT_FONT_FIRST_GLYPHS) {
        uint32_t step = (n - TT_FONT_FIRST_GLYPHS) / (TT_FONT_MAX_GLYPHS - TT_FONT_FIRST_GLYPHS) + 1;
        for (uint32_t g = TT_FONT_FIRST_GLYPHS + fvfuzz_u8(&in, 3) % step;
             g < n && count < TT_FONT_MAX_GLYPHS; g += step)
            glyphs[count++] = g;
    }
    glyphs[count++] = n; /* one past the end: must be a clean error */

    uint8_t modes = fvfuzz_u8(&in, 4), extra = fvfuzz_u8(&in, 7);
    int32_t half = (extra & 1) ? 32 : 0;
    int32_t p1 = (fvfuzz_u8(&in, 5) ? fvfuzz_u8(&in, 5) : 12) * 64 + half;
    int32_t p2 = (fvfuzz_u8(&in, 6) ? fvfuzz_u8(&in, 6) : 17) * 64 + half;
    fvfuzz_tt_size sizes[2] = {
        {p1, p1, fvfuzz_tt_mode(modes), (modes & 0x10) != 0, NULL, 0},
        {p2, (extra & 2) ? p2 + 5 * 64 : p2, fvfuzz_tt_mode((uint8_t)(modes >> 2)),
         (modes & 0x10) != 0, NULL, 0},
    };
    fvfuzz_tt_hint(ctx, font, sizes, 2, glyphs, count);
    fv_font_close(font);
    fvfuzz_alloc_check_clean(&fa, "tt_font");
    return 0;
}

FVFUZZ_TARGET(tt_font, TT_FONT_MAX_INPUT, run)
