/* Fuzz target `gr_font_diff` (differential, whole fonts): a real Graphite
 * font, mutated table by table (mutator/font.c: Silf, Glat, Gloc, Feat,
 * cmap, hmtx and the rest), plus text, made into a face and shaped by
 * graphite2 1.3.14 and by fontvm through the conformance library
 * (conformance/graphite/gr_compare.h, the comparison fvconform-gr makes).
 * The face decision (graphite2 makes a face / fontvm makes one) and the
 * segment decision are compared like the glyphs: any difference in them,
 * or in glyphs, positions, attachments or the character mapping, aborts
 * with a readable report.
 *
 * Input: [font][text: n big-endian u16 code points][8-byte trailer],
 * gr_font's layout, so its seeds and cases replay here too:
 *   [0..1] unused (no allocation failures: both engines must see the same)
 *   [2]    n, the number of text code points before the trailer
 *   [3]    bit 0 right-to-left, bit 1 language 'ENG ', bit 2 a feature
 *   [4..5] feature id   [6..7] feature value (signed) */
#include <stdlib.h>
#include <string.h>

#include "fontvm/fontvm.h"
#include "fuzz.h"
#define FVFUZZ_DIFF_REPORT_GR 1
#include "support/diff_report.h"
#include "support/gr_request.h"

#define GR_FONT_DIFF_TRAILER 8
/* The corpus' Awami Nastaliq (491 KB) is the largest seed: collision
 * avoidance is where graphite2 and fontvm differed last (issue 15). */
#define GR_FONT_DIFF_MAX_INPUT (512 * 1024)

static int run(const fvfuzz_ctx *ctx, const uint8_t *data, size_t size)
{
    /* both engines keep pointers into the font: a copy of exactly its size */
    fvfuzz_font_input fi;
    if (fvfuzz_font_copy(data, size, GR_FONT_DIFF_TRAILER, &fi) != 0)
        return 0;
    const uint8_t *font = fi.font;
    size_t font_len = fi.font_len;

    fvfuzz_gr_pair p;
    fvfuzz_gr_pair_open(&p, ctx, font, font_len);
    if (ctx->log)
        fprintf(ctx->log, "face: graphite2 %s, fontvm %s\n", p.gr2 ? "makes one" : p.gr2_error,
                p.face ? "makes one" : p.fv_error);
    if ((p.gr2 != NULL) != (p.face != NULL)) {
        fprintf(stderr,
                "gr_font_diff: graphite2 and fontvm decide differently: face\n"
                "  graphite2: %s\n  fontvm:    %s\n",
                p.gr2 ? "makes a face" : p.gr2_error, p.face ? "makes a face" : p.fv_error);
        fvfuzz_fail("gr_font_diff", "face decision differs (report above)");
    }
    if (p.gr2 != NULL) {
        grc_features feats;
        grc_request req = fvfuzz_gr_request(&fi.in, fi.text, fi.n, &feats);
        char what[96];
        snprintf(what, sizeof what, "font of %zu bytes", font_len);
        fvfuzz_gr_compare(&p, &req, "gr_font_diff", what, ctx->log);
    }
    fvfuzz_gr_pair_close(&p);
    fvfuzz_font_copy_free(&fi);
    return 0;
}

FVFUZZ_TARGET(gr_font_diff, GR_FONT_DIFF_MAX_INPUT, run)
FVFUZZ_CODE_MUTATOR(gr_font_diff)
