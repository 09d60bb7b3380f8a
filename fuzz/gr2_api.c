/* Fuzz target `gr2_api`: fontvm's graphite2 drop-in (compat/graphite2)
 * through its C API, as HarfBuzz's graphite2 shaper drives it (face from a
 * table callback, the language's feature values and one feature by id,
 * segment, slot walk, char infos), plus what other users call: a font with
 * an advance callback, every gr_attrCode of every slot, labels, languages,
 * justification, UTF-8 text and destruction in either order.  No
 * comparison: crashes, sanitizer reports and leaks are the findings.
 *
 * Input: [font][text: n big-endian u16 code points][8-byte trailer],
 * gr_font's layout, so its seeds replay here:
 *   [0..1] unused   [2] n
 *   [3]    bit 0 right-to-left, bit 1 language 'ENG ', bit 2 a feature,
 *          bits 3-7 the extras of support/gr2_api_drive.h (font, justify,
 *          attributes, face destroyed first, UTF-8)
 *   [4..5] feature id   [6..7] feature value (signed; its low 7 bits also
 *          pick the justification width, 80..207%) */
#include "fuzz.h"
#include "support/gr2_api_drive.h"
#include "support/gr_request.h"

#define GR2_API_TRAILER 8
#define GR2_API_MAX_INPUT (1 << 20)

static int run(const fvfuzz_ctx *ctx, const uint8_t *data, size_t size)
{
    fvfuzz_font_input fi;
    if (fvfuzz_font_copy(data, size, GR2_API_TRAILER, &fi) != 0)
        return 0;
    grc_features feats;
    grc_request req = fvfuzz_gr_request(&fi.in, fi.text, fi.n, &feats);
    uint8_t flags = fvfuzz_u8(&fi.in, 3);
    unsigned extras = (unsigned)(flags >> 3) & 0x1Fu & ~(unsigned)FVFUZZ_GR2_FILE_FACE;
    grc_run r;
    double sum = 0;
    int face = fvfuzz_gr2_api_drive(fi.font, fi.font_len, &req, extras, fvfuzz_u16(&fi.in, 6) & 0x7Fu,
                                    &r, &sum);
    if (ctx->log)
        fprintf(ctx->log, "face %s, segment %s: %zu slots, advance %.2f (sum %.1f)\n",
                face ? "made" : "refused", r.ok ? "made" : r.error, r.num_glyphs, r.advance_x, sum);
    grc_run_free(&r);
    fvfuzz_font_copy_free(&fi);
    return 0;
}

FVFUZZ_TARGET(gr2_api, GR2_API_MAX_INPUT, run)
FVFUZZ_CODE_MUTATOR(gr2_api)
