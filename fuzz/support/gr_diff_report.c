/* See diff_report.h (Graphite part). */
#define FVFUZZ_DIFF_REPORT_GR 1
#include "support/diff_report.h"

#include <stdio.h>
#include <string.h>

#include "fontvm/fontvm.h"
#include "fuzz.h"
#include "support/gr_trace.h"

void fvfuzz_report_gr_run(const char *who, const grc_run *r)
{
    if (!r->ok) {
        fprintf(stderr, "  %-9s error: %s\n", who, r->error);
        return;
    }
    fprintf(stderr, "  %-9s %zu slots, advance (%.2f,%.2f):", who, r->num_glyphs, r->advance_x,
            r->advance_y);
    for (size_t i = 0; i < r->num_glyphs && i < 16; i++) {
        fprintf(stderr, " %u@(%.2f,%.2f)[%d..%d]", r->glyphs[i].gid, r->glyphs[i].x,
                r->glyphs[i].y, r->glyphs[i].before, r->glyphs[i].after);
        if (r->glyphs[i].attached_to >= 0)
            fprintf(stderr, "^%d", r->glyphs[i].attached_to);
    }
    fprintf(stderr, "\n  %-9s chars (before..after slot):", "");
    for (size_t i = 0; i < r->num_chars && i < 16; i++)
        fprintf(stderr, " %d..%d", r->chars[i].before, r->chars[i].after);
    fprintf(stderr, "\n");
}

void fvfuzz_gr_pair_open(fvfuzz_gr_pair *p, const fvfuzz_ctx *ctx, const uint8_t *font, size_t len)
{
    memset(p, 0, sizeof *p);
    p->gr2 = grc_gr2_open(font, len, p->gr2_error, sizeof p->gr2_error);
    fv_error err;
    if (fv_font_open_memory(font, len, 0, NULL, &p->font, &err) != FV_OK) {
        p->font = NULL;
        fv_error_format(&err, p->fv_error, sizeof p->fv_error);
        return;
    }
    if (fv_gr_face_new(p->font, &p->face, &err) != FV_OK) {
        p->face = NULL;
        fv_error_format(&err, p->fv_error, sizeof p->fv_error);
        return;
    }
    fvfuzz_gr_trace_install(ctx, p->face);
}

void fvfuzz_gr_pair_close(fvfuzz_gr_pair *p)
{
    if (p->face)
        fv_gr_face_free(p->face);
    if (p->font)
        fv_font_close(p->font);
    grc_gr2_close(p->gr2);
    memset(p, 0, sizeof *p);
}

void fvfuzz_gr_compare(const fvfuzz_gr_pair *p, const grc_request *req, const char *target,
                       const char *what, FILE *log)
{
    grc_run ref, sub;
    memset(&ref, 0, sizeof ref);
    memset(&sub, 0, sizeof sub);
    if (p->gr2)
        grc_gr2_shape(p->gr2, req, &ref);
    else
        snprintf(ref.error, sizeof ref.error, "graphite2 face: %.150s", p->gr2_error);
    if (p->face)
        grc_fv_shape(p->face, req, &sub);
    else
        snprintf(sub.error, sizeof sub.error, "fontvm face: %.150s", p->fv_error);
    grc_diff d = grc_compare_gr(&ref, &sub);
    if (log)
        fprintf(log, "%s: %s\n", what, grc_status_name(d.status));
    /* a budget stop where graphite2 finished is fontvm's hardening limit */
    if (d.status != GRC_IDENTICAL && d.status != GRC_ERROR_BOTH &&
        d.status != GRC_HARDENING_LIMIT) {
        fprintf(stderr, "%s: graphite2 and fontvm differ: %s (%s, slot %ld)\n  %s, %s, %zu characters:",
                target, grc_status_name(d.status), d.what, d.slot, what, req->rtl ? "rtl" : "ltr",
                req->length);
        for (size_t i = 0; i < req->length && i < 64; i++)
            fprintf(stderr, " U+%04X", req->text[i]);
        fprintf(stderr, "\n");
        if (req->features && (req->features->n || req->features->lang)) {
            char feats[256];
            grc_format_features(req->features, feats, sizeof feats);
            fprintf(stderr, "  features %s\n", feats);
        }
        fvfuzz_report_gr_run("graphite2", &ref);
        fvfuzz_report_gr_run("fontvm", &sub);
        fvfuzz_fail(target, "%s (report above)", grc_status_name(d.status));
    }
    grc_run_free(&ref);
    grc_run_free(&sub);
}
