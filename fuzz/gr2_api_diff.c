/* Fuzz target `gr2_api_diff` (differential): the same font and text through
 * the real graphite2 1.3.14 (conformance/graphite's reference runner, which
 * calls graphite2's API as HarfBuzz does) and through fontvm's drop-in
 * graphite2 API (support/gr2_api_drive.c, the same calls under fvg2_*
 * names, in the same process).  The face decision, then the segment —
 * glyphs, origins, attachments, insert flags, break weights, char infos,
 * advances — are compared; any difference but a fontvm hardening limit
 * aborts with a report.
 *
 * Input: gr_font_diff's layout (its seeds replay here):
 *   [0..1] unused   [2] n
 *   [3]    bit 0 right-to-left, bit 1 language 'ENG ', bit 2 a feature,
 *          bit 3 the drop-in gets the text as UTF-8 (graphite2 as UTF-32)
 *   [4..5] feature id   [6..7] feature value (signed) */
#include <stdlib.h>
#include <string.h>

#include "fontvm/fontvm.h"
#include "fontvm/graphite.h"
#include "fuzz.h"
#include "support/gr2_api_drive.h"
#include "support/gr_request.h"

#define GR2_API_DIFF_TRAILER 8
#define GR2_API_DIFF_MAX_INPUT (512 * 1024)

/* fontvm's own verdict on a segment the drop-in did not make: 1 when one
 * of its work budgets stopped it (a hardening limit, not a difference). */
static int stopped_by_budget(const uint8_t *font, size_t len, const grc_request *req)
{
    fv_font *f = NULL;
    fv_gr_face *face = NULL;
    int budget = 0;
    if (fv_font_open_memory(font, len, 0, NULL, &f, NULL) == FV_OK &&
        fv_gr_face_new(f, &face, NULL) == FV_OK) {
        fv_gr_feature_setting fs[GRC_MAX_FEATURES];
        size_t nf = 0;
        for (; nf < req->features->n && nf < GRC_MAX_FEATURES; nf++) {
            fs[nf].id = req->features->f[nf].id;
            fs[nf].value = req->features->f[nf].value;
        }
        fv_gr_shape_request r;
        memset(&r, 0, sizeof r);
        r.text = req->text;
        r.length = req->length;
        r.features = fs;
        r.num_features = nf;
        r.lang = req->features->lang;
        r.rtl = req->rtl;
        fv_gr_segment *seg = NULL;
        fv_error err;
        if (fv_gr_shape(face, &r, &seg, &err) != FV_OK)
            budget = fv_status_is_budget(err.kind);
        fv_gr_segment_free(face, seg);
    }
    fv_gr_face_free(face);
    fv_font_close(f);
    return budget;
}

static int run(const fvfuzz_ctx *ctx, const uint8_t *data, size_t size)
{
    fvfuzz_font_input fi;
    if (fvfuzz_font_copy(data, size, GR2_API_DIFF_TRAILER, &fi) != 0)
        return 0;
    const uint8_t *font = fi.font;
    size_t font_len = fi.font_len, n = fi.n;
    grc_features feats;
    grc_request req = fvfuzz_gr_request(&fi.in, fi.text, n, &feats);
    uint8_t flags = fvfuzz_u8(&fi.in, 3);

    char gr2_err[GRC_ERROR_MAX] = "";
    grc_gr2 *g = grc_gr2_open(font, font_len, gr2_err, sizeof gr2_err);
    grc_run ref, ours;
    memset(&ref, 0, sizeof ref);
    double sum = 0;
    int face = fvfuzz_gr2_api_drive(font, font_len, &req, (flags & 8) ? FVFUZZ_GR2_UTF8 : 0, 0, &ours,
                                    &sum);
    if (ctx->log)
        fprintf(ctx->log, "face: graphite2 %s, drop-in %s\n", g ? "makes one" : gr2_err,
                face ? "makes one" : "refuses");
    if ((g != NULL) != (face != 0)) {
        fprintf(stderr, "gr2_api_diff: the face decision differs: graphite2 %s, drop-in %s\n",
                g ? "makes a face" : gr2_err, face ? "makes a face" : "refuses");
        fvfuzz_fail("gr2_api_diff", "face decision differs (report above)");
    }
    if (g) {
        grc_gr2_shape(g, &req, &ref);
        if (ref.ok && !ours.ok && stopped_by_budget(font, font_len, &req))
            ours.hardening_limit = 1;
        grc_diff d = grc_compare_gr(&ref, &ours);
        if (ctx->log)
            fprintf(ctx->log, "segment: %s (%zu / %zu slots)\n", grc_status_name(d.status),
                    ref.num_glyphs, ours.num_glyphs);
        if (d.status != GRC_IDENTICAL && d.status != GRC_ERROR_BOTH &&
            d.status != GRC_HARDENING_LIMIT) {
            fprintf(stderr, "gr2_api_diff: %s at slot %ld (%s); %zu chars, %s\n",
                    grc_status_name(d.status), d.slot, d.what, n, (flags & 1) ? "rtl" : "ltr");
            for (size_t i = 0; i < ref.num_glyphs || i < ours.num_glyphs; i++) {
                if (i >= 24) {
                    fprintf(stderr, "  ...\n");
                    break;
                }
                const grc_glyph *a = i < ref.num_glyphs ? &ref.glyphs[i] : NULL;
                const grc_glyph *b = i < ours.num_glyphs ? &ours.glyphs[i] : NULL;
                fprintf(stderr, "  %2zu graphite2 %5d %9.2f %8.2f att %3d | drop-in %5d %9.2f %8.2f att %3d\n", i,
                        a ? (int)a->gid : -1, a ? a->x : 0, a ? a->y : 0, a ? a->attached_to : 0,
                        b ? (int)b->gid : -1, b ? b->x : 0, b ? b->y : 0, b ? b->attached_to : 0);
            }
            fvfuzz_fail("gr2_api_diff", "graphite2 and the drop-in differ (report above)");
        }
        grc_run_free(&ref);
        grc_gr2_close(g);
    }
    grc_run_free(&ours);
    fvfuzz_font_copy_free(&fi);
    return 0;
}

FVFUZZ_TARGET(gr2_api_diff, GR2_API_DIFF_MAX_INPUT, run)
FVFUZZ_CODE_MUTATOR(gr2_api_diff)
