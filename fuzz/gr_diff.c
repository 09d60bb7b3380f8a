/* Fuzz target `gr_diff` (differential): rule code from the input patched
 * into a copy of a small real Graphite font, shaped by graphite2 1.3.14 and
 * by fontvm through the conformance library (conformance/graphite/
 * gr_compare.h, the same comparison as fvconform-gr).  Any difference in
 * glyphs, positions, attachments, character mapping or error state aborts
 * with a readable report.
 *
 * The base font is embedded at configure time (FVFUZZ_GR_DIFF_FONT in
 * fuzz/CMakeLists.txt, graphite2's test font small.ttf by default): a
 * generated Graphite font would need a second Silf writer.  Where the rule
 * code sits is taken from fontvm's own parse of the base font (each rule's
 * constraint and action span inside the Silf subtable); the input replaces
 * the chosen span in place: the code is cut to the span's length and
 * padded at the front with Nop (0x00), so the code still ends where the
 * input ends (graphite2 requires code to end with a return).
 *
 * Input: [code][16-byte trailer]
 *   [0..1]  unused (no allocation failures: both engines must see the same)
 *   [2]     which rule span (mod the number of constraint and action spans)
 *   [3]     bit 0 right-to-left
 *   [4]     text length 1..11
 *   [5..15] text: each byte picks one of the code points the font maps */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fontvm/fontvm.h"
#include "fontvm/graphite.h"
#include "fuzz.h"
#include "gr_diff_font.h" /* generated: fvfuzz_gr_diff_font[], _len */
#include "graphite/grv.h"
#include "mutator/mutator.h"
#include "sfnt/sfnt.h"
#define FVFUZZ_DIFF_REPORT_GR 1
#include "support/diff_report.h"
#include "support/gr_trace.h"

#define GR_DIFF_TRAILER 16
/* A span of the base font is at most a few dozen bytes. */
#define GR_DIFF_MAX_INPUT 1024
#define GR_DIFF_MAX_SPANS 64
#define GR_DIFF_MAX_TEXT 11
/* Code points searched for in the base font's cmap (Latin, some
 * punctuation and combining marks cover the Graphite test fonts). */
#define GR_DIFF_CP_FIRST 0x20u
#define GR_DIFF_CP_LAST 0x24Fu
#define GR_DIFF_MAX_CPS 64

typedef struct span {
    size_t off, len;
    uint32_t pass, rule;
    int constraint;
} span;

/* The rule code spans of the base font, from fontvm's parse.  Returns the
 * number found; the mapped code points go to cps. */
static size_t find_spans(const uint8_t *font, size_t size, span *out, uint32_t *cps,
                         size_t *ncps)
{
    fv_font *f = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    size_t n = 0;
    *ncps = 0;
    if (fv_font_open_memory(font, size, 0, NULL, &f, &err) != FV_OK)
        fvfuzz_fail("gr_diff", "fontvm cannot open the base font");
    if (fv_gr_face_new(f, &face, &err) != FV_OK)
        fvfuzz_fail("gr_diff", "fontvm rejects the base font's Graphite tables");
    const grv_silf *s = &face->silf;
    uintptr_t base = (uintptr_t)font, sub = (uintptr_t)s->data.data;
    if (face->decompressed[0] != NULL || sub < base || sub - base > size)
        fvfuzz_fail("gr_diff", "base font's Silf is compressed or not in place");
    size_t sub_off = (size_t)(sub - base);
    for (uint32_t p = 0; p < s->num_passes; p++) {
        const grv_pass *ps = &s->passes[p];
        for (uint32_t r = 0; r < ps->num_rules && n < GR_DIFF_MAX_SPANS; r++) {
            const grv_code *c[2] = {&ps->rules[r].constraint, &ps->rules[r].action};
            for (int k = 0; k < 2 && n < GR_DIFF_MAX_SPANS; k++) {
                if (c[k]->code.len == 0 || sub_off + c[k]->offset + c[k]->code.len > size)
                    continue;
                out[n].off = sub_off + c[k]->offset;
                out[n].len = c[k]->code.len;
                out[n].pass = p;
                out[n].rule = r;
                out[n].constraint = k == 0;
                n++;
            }
        }
    }
    for (uint32_t cp = GR_DIFF_CP_FIRST; cp <= GR_DIFF_CP_LAST && *ncps < GR_DIFF_MAX_CPS; cp++)
        if (grv_cmap_lookup(face, cp) != 0)
            cps[(*ncps)++] = cp;
    fv_gr_face_free(face);
    fv_font_close(f);
    return n;
}

static int run(const fvfuzz_ctx *ctx, const uint8_t *data, size_t size)
{
    fvfuzz_input in;
    fvfuzz_split(data, size, GR_DIFF_TRAILER, &in);
    const uint8_t *base = fvfuzz_gr_diff_font;
    size_t font_len = fvfuzz_gr_diff_font_len;
    span spans[GR_DIFF_MAX_SPANS];
    uint32_t cps[GR_DIFF_MAX_CPS];
    size_t ncps;
    size_t nspans = find_spans(base, font_len, spans, cps, &ncps);
    if (nspans == 0 || ncps == 0)
        fvfuzz_fail("gr_diff", "base font has no rule code or no mapped characters");

    uint8_t *font = malloc(font_len);
    if (font == NULL)
        return 0;
    memcpy(font, base, font_len);
    const span *sp = &spans[fvfuzz_u8(&in, 2) % nspans];
    size_t n = in.payload_len < sp->len ? in.payload_len : sp->len;
    memset(font + sp->off, 0x00, sp->len - n); /* Nop */
    memcpy(font + sp->off + (sp->len - n), in.payload, n);

    uint32_t text[GR_DIFF_MAX_TEXT];
    size_t tlen = 1 + fvfuzz_u8(&in, 4) % GR_DIFF_MAX_TEXT;
    for (size_t i = 0; i < tlen; i++)
        text[i] = cps[fvfuzz_u8(&in, 5 + i) % ncps];
    grc_features feats;
    memset(&feats, 0, sizeof feats);
    grc_request req = {text, tlen, &feats, fvfuzz_u8(&in, 3) & 1};

    grc_run ref, sub;
    memset(&ref, 0, sizeof ref);
    memset(&sub, 0, sizeof sub);
    char msg[GRC_ERROR_MAX];
    grc_gr2 *g = grc_gr2_open(font, font_len, msg, sizeof msg);
    if (g) {
        grc_gr2_shape(g, &req, &ref);
    } else {
        ref.ok = 0;
        snprintf(ref.error, sizeof ref.error, "graphite2 face: %.150s", msg);
    }
    fv_font *f = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    if (fv_font_open_memory(font, font_len, 0, NULL, &f, &err) == FV_OK &&
        fv_gr_face_new(f, &face, &err) == FV_OK) {
        fvfuzz_gr_trace_install(ctx, face);
        grc_fv_shape(face, &req, &sub);
    } else {
        sub.ok = 0;
        fv_error_format(&err, sub.error, sizeof sub.error);
    }
    grc_diff d = grc_compare_gr(&ref, &sub);
    if (ctx->log)
        fprintf(ctx->log, "pass %u rule %u %s (%zu bytes): %s\n", sp->pass, sp->rule,
                sp->constraint ? "constraint" : "action", sp->len, grc_status_name(d.status));
    /* a budget stop where graphite2 finished is fontvm's hardening limit */
    if (d.status != GRC_IDENTICAL && d.status != GRC_ERROR_BOTH &&
        d.status != GRC_HARDENING_LIMIT) {
        fprintf(stderr,
                "gr_diff: graphite2 and fontvm differ: %s (%s, slot %ld)\n"
                "  patched pass %u rule %u %s at font offset %zu (%zu bytes, %zu from the input)"
                ", %s, %zu characters:",
                grc_status_name(d.status), d.what, d.slot, sp->pass, sp->rule,
                sp->constraint ? "constraint" : "action", sp->off, sp->len, n,
                req.rtl ? "rtl" : "ltr", tlen);
        for (size_t i = 0; i < tlen; i++)
            fprintf(stderr, " U+%04X", text[i]);
        fprintf(stderr, "\n");
        fvfuzz_report_gr_run("graphite2", &ref);
        fvfuzz_report_gr_run("fontvm", &sub);
        fvfuzz_fail("gr_diff", "%s (report above)", grc_status_name(d.status));
    }
    grc_run_free(&ref);
    grc_run_free(&sub);
    if (face)
        fv_gr_face_free(face);
    if (f)
        fv_font_close(f);
    if (g)
        grc_gr2_close(g);
    free(font);
    return 0;
}

FVFUZZ_TARGET(gr_diff, GR_DIFF_MAX_INPUT, run)
FVFUZZ_CODE_MUTATOR(gr_diff)
