/* fvconform-gr: shapes every line of a text file with graphite2, with
 * HarfBuzz's graphite2 shaper and with fontvm, compares, and writes the
 * JSON Lines records of conformance/RECORDS.md on stdout.
 *
 *   fvconform-gr --font PATH --text-file F [--features id=v,...] [--lang xx]
 *                [--rtl] [--ref graphite2|harfbuzz|both] [--detail-limit N]
 *                [--self-check]
 *
 * --self-check replaces fontvm by graphite2 itself: the graphite2 side is
 * then identical by construction and the HarfBuzz side checks the
 * derivation in gr_derive_hb.c against the real HarfBuzz. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <graphite2/Font.h>
#include <hb.h>
#include <jansson.h>

#include "fontvm/fontvm.h"
#include "fontvm/graphite.h"
#include "gr_compare.h"
#include "jsonl.h"

/* Longest line shaped, in code points (the UDHR lines are < 2000). */
#define MAX_LINE_CHARS 65536

typedef struct counts {
    long cases, identical, different, err_fv, err_ref, err_both, hardening_limit;
} counts;

typedef struct runner {
    const char *font_path, *texts, *features_spec;
    grc_features features;
    char features_text[512];
    int rtl, want_gr, want_hb, self_check;
    long detail_limit;
    uint16_t upem;
    grc_gr2 *gr2;
    grc_hb *hb;
    fv_font *font;
    fv_gr_face *face;
    counts c_gr, c_hb;
    /* Why a side could not open the font (empty when it could): every line is
     * then a failed shaping on that side, so a font both engines reject is
     * counted as agreement ("fails in both"), not as a runner failure. */
    char fv_open_error[GRC_ERROR_MAX], gr2_open_error[GRC_ERROR_MAX], hb_open_error[GRC_ERROR_MAX];
    int fv_open_budget;  /* fontvm refused the face at a budget (budget_table_size) */
    long detail_gr, detail_hb;
    /* fontvm's executed-opcode counts over every line, for the gr_opcodes
     * record.  Counted while shaping for the first reference only, so a
     * line compared against both references counts once. */
    uint64_t op_counts[256];
} runner;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void emit(json_t *o)
{
    fvc_emit_record(o, JSON_ENSURE_ASCII);
}

static unsigned char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = NULL;
    size_t cap = 0, len = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 1 << 16;
            unsigned char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t r = fread(buf + len, 1, cap - len, f);
        len += r;
        if (r == 0)
            break;
    }
    fclose(f);
    *size = len;
    return buf;
}

static json_t *gr_glyphs_json(const grc_run *r)
{
    json_t *a = json_array();
    for (size_t i = 0; i < r->num_glyphs; i++)
        json_array_append_new(a, json_pack("{s:I,s:f,s:f}", "gid", (json_int_t)r->glyphs[i].gid, "x",
                                           r->glyphs[i].x, "y", r->glyphs[i].y));
    return a;
}

/* HarfBuzz glyphs as absolute positions (pen + offset) plus raw values. */
static json_t *hb_glyphs_json(const grc_hb_run *r)
{
    json_t *a = json_array();
    long pen = 0;
    for (size_t i = 0; i < r->num_glyphs; i++) {
        const grc_hb_glyph *g = &r->glyphs[i];
        json_array_append_new(
            a, json_pack("{s:I,s:f,s:f,s:I,s:i,s:i,s:i,s:i}", "gid", (json_int_t)g->gid, "x",
                         (double)(pen + g->x_offset), "y", (double)g->y_offset, "cluster",
                         (json_int_t)g->cluster, "x_advance", g->x_advance, "y_advance",
                         g->y_advance, "x_offset", g->x_offset, "y_offset", g->y_offset));
        pen += g->x_advance;
    }
    return a;
}

static json_t *slot_json(json_t *glyphs, long slot)
{
    if (slot < 0 || (size_t)slot >= json_array_size(glyphs))
        return json_null();
    return json_incref(json_array_get(glyphs, (size_t)slot));
}

static void count(counts *c, grc_status st)
{
    c->cases++;
    switch (st) {
    case GRC_IDENTICAL: c->identical++; break;
    case GRC_DIFFERENT: c->different++; break;
    case GRC_ERROR_FONTVM_ONLY: c->err_fv++; break;
    case GRC_ERROR_REF_ONLY: c->err_ref++; break;
    case GRC_ERROR_BOTH: c->err_both++; break;
    case GRC_HARDENING_LIMIT: c->hardening_limit++; break;
    }
}

/* The pass and rule that last changed fontvm's slot `slot` (its trace
 * fields last_pass/last_rule); null when the slot does not exist in fontvm's
 * output or no rule touched it (it is then as the cmap and the bidi order
 * made it). */
static json_t *culprit_json(const grc_run *fv, long slot)
{
    int32_t pass, rule;
    if (!grc_fv_culprit(fv, slot, &pass, &rule))
        return json_null();
    return json_pack("{s:i,s:i,s:I}", "pass", (int)pass, "rule", (int)rule, "slot", (json_int_t)slot);
}

static void emit_case(runner *R, long line, const char *text, size_t text_len, const char *ref,
                      grc_diff d, const char *ref_error, const char *fontvm_error, json_t *ref_glyphs,
                      json_t *fv_glyphs, long *detail_count, const char *what, json_t *culprit)
{
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string("gr_case"));
    json_object_set_new(o, "font", json_string(R->font_path));
    json_object_set_new(o, "texts", json_string(R->texts));
    json_object_set_new(o, "line", json_integer(line));
    json_object_set_new(o, "text", json_stringn_nocheck(text, text_len));
    json_object_set_new(o, "features", json_string(R->features_text));
    json_object_set_new(o, "rtl", json_boolean(R->rtl));
    json_object_set_new(o, "ref", json_string(ref));
    json_object_set_new(o, "status", json_string(grc_status_name(d.status)));
    json_object_set_new(o, "ref_error", ref_error ? json_string(ref_error) : json_null());
    json_object_set_new(o, "fontvm_error", fontvm_error ? json_string(fontvm_error) : json_null());
    if (d.status == GRC_DIFFERENT) {
        json_object_set_new(o, "first_diff",
                            json_pack("{s:I,s:s,s:o,s:o}", "slot", (json_int_t)d.slot, "what", what,
                                      "ref", slot_json(ref_glyphs, d.slot), "fontvm",
                                      slot_json(fv_glyphs, d.slot)));
    } else {
        json_object_set_new(o, "first_diff", json_null());
    }
    json_object_set_new(o, "culprit", culprit ? culprit : json_null());
    if (!strcmp(ref, "harfbuzz") && ref_glyphs) {
        /* The largest magnitude HarfBuzz gave on the line: its int overflow
         * (KD-13) also shows in glyphs after the first difference, whose
         * advances it feeds. */
        json_int_t most = 0;
        for (size_t i = 0; i < json_array_size(ref_glyphs); i++) {
            static const char *const keys[] = {"x_advance", "y_advance", "x_offset", "y_offset"};
            for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
                json_int_t v = json_integer_value(json_object_get(json_array_get(ref_glyphs, i), keys[k]));
                json_int_t a = v < 0 ? -v : v;
                if (a > most)
                    most = a;
            }
        }
        json_object_set_new(o, "ref_max_abs", json_integer(most));
    }
    if (*detail_count < R->detail_limit && ref_glyphs && fv_glyphs) {
        (*detail_count)++;
        json_object_set_new(o, "detail",
                            json_pack("{s:O,s:O,s:i}", "ref_glyphs", ref_glyphs, "fontvm_glyphs",
                                      fv_glyphs, "units_per_em", (int)R->upem));
    }
    emit(o);
}

/* A failed run carrying `why` (the side could not open the font). */
static void failed_run(grc_run *out, const char *why)
{
    memset(out, 0, sizeof *out);
    snprintf(out->error, sizeof out->error, "%s", why);
}

static int shape_graphite2(runner *R, const grc_request *req, grc_run *out)
{
    if (!R->gr2) {
        failed_run(out, R->gr2_open_error);
        return 0;
    }
    return grc_gr2_shape(R->gr2, req, out);
}

static int shape_harfbuzz(runner *R, const grc_request *req, grc_hb_run *out)
{
    if (!R->hb) {
        memset(out, 0, sizeof *out);
        snprintf(out->error, sizeof out->error, "%s", R->hb_open_error);
        return 0;
    }
    return grc_hb_shape(R->hb, req, out);
}

static int shape_fontvm_or_self(runner *R, const grc_request *req, grc_run *out)
{
    if (R->self_check)
        return shape_graphite2(R, req, out);
    if (!R->face) {
        failed_run(out, R->fv_open_error);
        out->hardening_limit = R->fv_open_budget;
        return 0;
    }
    return grc_fv_shape(R->face, req, out);
}

static void set_trace(runner *R, uint64_t *counts_out)
{
    if (!R->self_check && R->face)
        fv_gr_set_trace(R->face, NULL, NULL, counts_out);
}

static int do_line(runner *R, long line, const char *text, size_t text_len, uint32_t *cps)
{
    size_t n = grc_utf8_decode(text, text_len, cps, MAX_LINE_CHARS);
    if (R->want_gr) {
        grc_request req = {cps, n, &R->features, R->rtl ? 1 : 0};
        grc_run ref, fv;
        set_trace(R, R->op_counts);
        int rc = shape_graphite2(R, &req, &ref) != 0 || shape_fontvm_or_self(R, &req, &fv) != 0;
        set_trace(R, NULL);
        if (rc)
            return -1;
        grc_diff d = grc_compare_gr(&ref, &fv);
        count(&R->c_gr, d.status);
        if (d.status != GRC_IDENTICAL) {
            json_t *rg = ref.ok ? gr_glyphs_json(&ref) : NULL;
            json_t *fg = fv.ok ? gr_glyphs_json(&fv) : NULL;
            emit_case(R, line, text, text_len, "graphite2", d, ref.ok ? NULL : ref.error,
                      fv.ok ? NULL : fv.error, rg, fg, &R->detail_gr, d.what,
                      d.status == GRC_DIFFERENT ? culprit_json(&fv, d.slot) : NULL);
            json_decref(rg);
            json_decref(fg);
        }
        grc_run_free(&ref);
        grc_run_free(&fv);
    }
    if (R->want_hb) {
        /* HarfBuzz asks graphite2 for "no bidi" plus the direction. */
        grc_request req = {cps, n, &R->features, R->rtl ? 3 : 0};
        grc_hb_run ref, fvh;
        grc_run fv;
        if (!R->want_gr)
            set_trace(R, R->op_counts);
        int rc = shape_harfbuzz(R, &req, &ref) != 0 || shape_fontvm_or_self(R, &req, &fv) != 0
                 || grc_derive_hb(&fv, &req, &fvh) != 0;
        set_trace(R, NULL);
        if (rc)
            return -1;
        grc_diff d = grc_compare_hb(&ref, &fvh);
        count(&R->c_hb, d.status);
        if (d.status != GRC_IDENTICAL) {
            json_t *rg = ref.ok ? hb_glyphs_json(&ref) : NULL;
            json_t *fg = fvh.ok ? hb_glyphs_json(&fvh) : NULL;
            emit_case(R, line, text, text_len, "harfbuzz", d, ref.ok ? NULL : ref.error,
                      fv.ok ? NULL : fv.error, rg, fg, &R->detail_hb, d.what,
                      d.status == GRC_DIFFERENT && d.slot >= 0 && (size_t)d.slot < fvh.num_glyphs
                          ? culprit_json(&fv, fvh.glyphs[d.slot].slot)
                          : NULL);
            json_decref(rg);
            json_decref(fg);
        }
        grc_run_free(&fv);
        grc_hb_run_free(&ref);
        grc_hb_run_free(&fvh);
    }
    return 0;
}

static void emit_summary(runner *R, const char *ref, const counts *c, double seconds)
{
    const char *name = fv_font_family(R->font);
    emit(json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:f}", "type", "gr_summary",
                   "font", R->font_path, "font_name", name ? name : "", "texts", R->texts,
                   "features", R->features_text, "ref", ref, "cases", (json_int_t)c->cases,
                   "identical", (json_int_t)c->identical, "different", (json_int_t)c->different,
                   "error_fontvm_only", (json_int_t)c->err_fv, "error_ref_only",
                   (json_int_t)c->err_ref, "error_both", (json_int_t)c->err_both,
                   "hardening_limit", (json_int_t)c->hardening_limit, "seconds", seconds));
}

/* Executed-opcode counts keyed by the names of vm/graphite/opcodes.def
 * (fv_gr_opcode_name), as the report's coverage table reads them; only
 * opcodes that ran. */
static void emit_opcodes(runner *R)
{
    json_t *c = json_object();
    for (int op = 0; op < 256; op++) {
        if (!R->op_counts[op])
            continue;
        const char *name = fv_gr_opcode_name(op);
        char hex[8];
        snprintf(hex, sizeof hex, "0x%02X", (unsigned)op);
        json_object_set_new(c, name ? name : hex, json_integer((json_int_t)R->op_counts[op]));
    }
    emit(json_pack("{s:s,s:s,s:o}", "type", "gr_opcodes", "font", R->font_path, "counts", c));
}

static int usage(void)
{
    fprintf(stderr, "usage: fvconform-gr --font PATH --text-file F [--features id=v,...] [--lang xx]\n"
                    "                    [--rtl] [--ref graphite2|harfbuzz|both] [--detail-limit N]\n"
                    "                    [--self-check]\n");
    return 2;
}

int main(int argc, char **argv)
{
    runner R;
    memset(&R, 0, sizeof R);
    R.want_gr = R.want_hb = 1;
    R.detail_limit = 20;
    const char *lang = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--font") && v) {
            R.font_path = v; i++;
        } else if (!strcmp(a, "--text-file") && v) {
            R.texts = v; i++;
        } else if (!strcmp(a, "--features") && v) {
            R.features_spec = v; i++;
        } else if (!strcmp(a, "--lang") && v) {
            lang = v; i++;
        } else if (!strcmp(a, "--rtl")) {
            R.rtl = 1;
        } else if (!strcmp(a, "--self-check")) {
            R.self_check = 1;
        } else if (!strcmp(a, "--detail-limit") && v) {
            R.detail_limit = strtol(v, NULL, 10); i++;
        } else if (!strcmp(a, "--ref") && v) {
            R.want_gr = !strcmp(v, "graphite2") || !strcmp(v, "both");
            R.want_hb = !strcmp(v, "harfbuzz") || !strcmp(v, "both");
            if (!R.want_gr && !R.want_hb)
                return usage();
            i++;
        } else {
            return usage();
        }
    }
    if (!R.font_path || !R.texts)
        return usage();
    char msg[256];
    if (grc_parse_features(R.features_spec, &R.features, msg, sizeof msg) != 0) {
        fprintf(stderr, "fvconform-gr: %s\n", msg);
        return 2;
    }
    if (lang && grc_parse_tag(lang, strlen(lang), &R.features.lang) != 0) {
        fprintf(stderr, "fvconform-gr: bad language '%s'\n", lang);
        return 2;
    }
    grc_format_features(&R.features, R.features_text, sizeof R.features_text);

    emit(json_pack("{s:s,s:i,s:s,s:s,s:s,s:s,s:s}", "type", "run", "schema", 1, "runner", "gr",
                   "fontvm", fv_version(), "freetype", "", "graphite2", "1.3.14", "harfbuzz",
                   hb_version_string()));
    size_t font_size = 0, text_size = 0;
    unsigned char *font = slurp(R.font_path, &font_size);
    unsigned char *texts = slurp(R.texts, &text_size);
    if (!font || !texts) {
        fvc_emit_error(!font ? "cannot read the font" : "cannot read the text file");
        free(font);
        free(texts);
        return 1;
    }
    int rc = 0;
    uint32_t *cps = malloc(MAX_LINE_CHARS * sizeof *cps);
    fv_error err;
    fv_error_clear(&err);
    fv_status fv_open = fv_font_open_memory(font, font_size, 0, NULL, &R.font, &err);
    /* graphite2 and HarfBuzz read sfnt only: a WOFF/WOFF2 file reaches them
     * as the sfnt bytes fontvm decoded it to (tests/sfnt checks that
     * decoder against the original fonts and against FreeType's). */
    const uint8_t *sfnt = font;
    size_t sfnt_size = font_size;
    if (fv_open == FV_OK)
        fv_font_sfnt_data(R.font, &sfnt, &sfnt_size);
    R.gr2 = grc_gr2_open(sfnt, sfnt_size, R.gr2_open_error, sizeof R.gr2_open_error);
    R.hb = grc_hb_open(sfnt, sfnt_size, R.hb_open_error, sizeof R.hb_open_error);
    if (fv_open != FV_OK || fv_gr_face_new(R.font, &R.face, &err) != FV_OK) {
        R.face = NULL;
        fv_error_format(&err, R.fv_open_error, sizeof R.fv_open_error);
        R.fv_open_budget = fv_status_is_budget(err.kind);
    }
    if (!cps) {
        fvc_emit_error("out of memory");
        rc = 1;
        goto done;
    }
    R.upem = R.gr2 ? grc_gr2_upem(R.gr2) : (R.font ? fv_font_units_per_em(R.font) : 0);

    long total = 0;
    for (size_t i = 0; i < text_size; i++)
        total += texts[i] == '\n';
    if (text_size && texts[text_size - 1] != '\n')
        total++;
    double t0 = now(), last = t0;
    long line = 0;
    size_t pos = 0;
    while (pos < text_size) {
        size_t end = pos;
        while (end < text_size && texts[end] != '\n')
            end++;
        size_t len = end - pos;
        if (len && texts[pos + len - 1] == '\r')
            len--;
        line++;
        if (do_line(&R, line, (const char *)texts + pos, len, cps) != 0) {
            fvc_emit_error("out of memory");
            rc = 1;
            goto done;
        }
        pos = end + 1;
        double t = now();
        if (t - last >= 0.5) {
            emit(json_pack("{s:s,s:I,s:I}", "type", "progress", "done", (json_int_t)line, "total",
                           (json_int_t)total));
            fflush(stdout);
            last = t;
        }
    }
    emit(json_pack("{s:s,s:I,s:I}", "type", "progress", "done", (json_int_t)line, "total",
                   (json_int_t)total));
    double secs = now() - t0;
    if (R.want_gr)
        emit_summary(&R, "graphite2", &R.c_gr, secs);
    if (R.want_hb)
        emit_summary(&R, "harfbuzz", &R.c_hb, secs);
    if (!R.self_check)
        emit_opcodes(&R);
done:
    fflush(stdout);
    /* The references may hold the font's decoded bytes: close them first. */
    grc_gr2_close(R.gr2);
    grc_hb_close(R.hb);
    if (R.face)
        fv_gr_face_free(R.face);
    if (R.font)
        fv_font_close(R.font);
    free(cps);
    free(font);
    free(texts);
    return rc;
}
