/* fvconform-tt-load: FreeType 2.12.1's and fontvm's load decisions on a
 * stream of (damaged) TrueType fonts on stdin: does the face open, does each
 * size set up, and does each sampled glyph load to the same outline.  It is
 * the C half of the TrueType mutation sweep (tt_sweep.py), which needs a
 * verdict for thousands of fonts without starting a process for each.
 *
 *   fvconform-tt-load [--sizes 12,20] [--modes v35,v40] [--glyphs N]
 *
 * Input: records of a font length (unsigned 32-bit little-endian) followed
 * by the font bytes.
 * Output: one JSON object per record, in order (conformance/tt/README.md):
 *   {"type":"tt_load","agree":B,
 *    "face":{"freetype":E,"fontvm":E},          E: null (ok) or the error
 *    "sizes":[{"size":"12","mode":"v40","freetype":E,"fontvm":E},...],
 *    "glyphs":{"cases":N,"identical":N,"different":N,"error_fontvm_only":N,
 *              "error_ref_only":N,"error_both":N},
 *    "first":{"gid":G,"size":"12","mode":"v40","status":S,
 *             "freetype":E,"fontvm":E} or null}
 * "agree" is true when both engines take the same face and size decisions
 * and every glyph case is identical or fails in both.  "sizes" is empty
 * when either face was refused.  The glyphs compared are N glyph ids spread
 * evenly over the font, the first and the last included.
 *
 * Exit status: 0 at the end of the input; 2 on a bad command line or a
 * malformed record (a {"type":"error"} record names it); 1 out of memory. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "jsonl.h"
#include "tt_compare.h"

/* Larger than any real font, so that a corrupt length fails with a message
 * instead of a huge allocation. */
#define MAX_FONT_BYTES (256u << 20)
#define MAX_SIZES 8
#define DEFAULT_GLYPH_SAMPLE 12
#define MAX_GLYPH_SAMPLE 4096

typedef struct options {
    ttc_size sizes[MAX_SIZES];
    uint32_t num_sizes;
    fv_tt_mode modes[4];
    uint32_t num_modes;
    uint32_t glyph_sample;
} options;

static void emit(json_t *o)
{
    fvc_emit_record(o, JSON_ENSURE_ASCII);
    /* The driver waits for each answer before sending the next font. */
    fflush(stdout);
}

static int fail(int status, const char *msg)
{
    fvc_emit_error(msg);
    return status;
}

static int usage(const char *msg)
{
    fprintf(stderr, "fvconform-tt-load: %s\n"
                    "usage: fvconform-tt-load [--sizes 12,20] [--modes v35,v40] [--glyphs N] "
                    "< records (see conformance/tt/README.md)\n", msg);
    return 2;
}

static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->glyph_sample = DEFAULT_GLYPH_SAMPLE;
    const char *sizes = "12,20", *modes = "v35,v40";
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc)
            return usage("missing value after an option (or unknown option)");
        if (strcmp(argv[i], "--sizes") == 0)
            sizes = argv[i + 1];
        else if (strcmp(argv[i], "--modes") == 0)
            modes = argv[i + 1];
        else if (strcmp(argv[i], "--glyphs") == 0) {
            char *end;
            unsigned long n = strtoul(argv[i + 1], &end, 10);
            if (*end || n == 0 || n > MAX_GLYPH_SAMPLE)
                return usage("--glyphs: expected a count from 1 to 4096");
            o->glyph_sample = (uint32_t)n;
        } else
            return usage("unknown option");
    }
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", sizes);
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (o->num_sizes >= MAX_SIZES || ttc_size_parse(t, &o->sizes[o->num_sizes++]) != 0)
            return usage("--sizes: expected up to 8 sizes like 12,10.5,12x16");
    snprintf(buf, sizeof buf, "%s", modes);
    save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (o->num_modes >= 4 || fv_tt_mode_parse(t, &o->modes[o->num_modes++]) != 0)
            return usage("--modes: expected a list of v35,v40,v40-mono,v40-lcd");
    if (!o->num_sizes || !o->num_modes)
        return usage("--sizes and --modes may not be empty");
    return 0;
}

static json_t *decision(const char *error)
{
    return error ? json_string(error) : json_null();
}

static json_t *pair(const char *ref_error, const char *fontvm_error)
{
    return json_pack("{s:o,s:o}", "freetype", decision(ref_error), "fontvm",
                     decision(fontvm_error));
}

/* Glyph id k of a sample of n spread evenly over num_glyphs (first and last
 * included). */
static uint32_t sample_gid(uint32_t k, uint32_t n, uint32_t num_glyphs)
{
    if (n <= 1 || num_glyphs <= 1)
        return 0;
    return (uint32_t)((uint64_t)k * (num_glyphs - 1) / (n - 1));
}

typedef struct verdict {
    int agree;
    uint64_t counts[TTC_STATUS_COUNT];
    json_t *sizes, *first;
} verdict;

static void compare_sizes(const options *o, ttc_ft *ft, ttc_fv *fv, verdict *v, ttc_glyph *ref,
                          ttc_glyph *sub)
{
    uint32_t num_glyphs = ttc_ft_num_glyphs(ft);
    uint32_t n = o->glyph_sample < num_glyphs ? o->glyph_sample : num_glyphs;
    for (uint32_t mi = 0; mi < o->num_modes; mi++)
        for (uint32_t si = 0; si < o->num_sizes; si++) {
            const ttc_size *sz = &o->sizes[si];
            char ft_err[160], fv_err_text[160];
            fv_error ferr;
            int ft_failed = ttc_ft_set_size(ft, sz, o->modes[mi], 0, ft_err, sizeof ft_err) != 0;
            int fv_failed = ttc_fv_set_size(fv, sz, o->modes[mi], 0, &ferr) != 0;
            if (fv_failed)
                snprintf(fv_err_text, sizeof fv_err_text, "%s", ttc_fv_size_error(fv));
            json_t *rec = pair(ft_failed ? ft_err : NULL, fv_failed ? fv_err_text : NULL);
            json_object_set_new(rec, "size", json_string(sz->label));
            json_object_set_new(rec, "mode", json_string(fv_tt_mode_name(o->modes[mi])));
            json_array_append_new(v->sizes, rec);
            if (ft_failed != fv_failed)
                v->agree = 0;
            for (uint32_t k = 0; k < n; k++) {
                uint32_t gid = sample_gid(k, n, num_glyphs);
                ttc_ft_load(ft, gid, ref);
                ttc_fv_load(fv, gid, sub);
                ttc_diff d;
                ttc_status st = ttc_compare(ref, sub, &d);
                v->counts[st]++;
                if (st == TTC_IDENTICAL || st == TTC_ERROR_BOTH)
                    continue;
                v->agree = 0;
                if (v->first)
                    continue;
                v->first = json_pack("{s:i,s:s,s:s,s:s}", "gid", (json_int_t)gid, "size",
                                     sz->label, "mode", fv_tt_mode_name(o->modes[mi]), "status",
                                     ttc_status_name(st));
                json_t *errors = pair(ref->loaded ? NULL : ref->error,
                                      sub->loaded ? NULL : sub->error);
                json_object_update(v->first, errors);
                json_decref(errors);
                if (st == TTC_DIFFERENT)
                    json_object_set_new(v->first, "point", json_integer(d.point));
            }
        }
}

static json_t *ask(const options *o, const uint8_t *font, size_t size)
{
    char ft_err[256] = "", fv_err[160] = "";
    ttc_ft *ft = NULL;
    ttc_fv *fv = NULL;
    fv_error ferr;
    fv_error_clear(&ferr);
    int ft_ok = ttc_ft_open_memory(font, size, 0, &ft, ft_err, sizeof ft_err) == 0;
    int fv_ok = ttc_fv_open_memory(font, size, 0, &fv, &ferr) == 0;
    if (!fv_ok)
        fv_error_format(&ferr, fv_err, sizeof fv_err);
    else if (ttc_fv_face_error(fv)) {
        snprintf(fv_err, sizeof fv_err, "%s", ttc_fv_face_error(fv));
        fv_ok = 0;
    }
    verdict v = {.agree = ft_ok == fv_ok, .sizes = json_array(), .first = NULL};
    if (ft_ok && fv_ok) {
        ttc_glyph ref, sub;
        ttc_glyph_init(&ref);
        ttc_glyph_init(&sub);
        compare_sizes(o, ft, fv, &v, &ref, &sub);
        ttc_glyph_free(&ref);
        ttc_glyph_free(&sub);
    }
    ttc_ft_close(ft);
    ttc_fv_close(fv);
    json_t *glyphs = json_object();
    for (int st = 0; st < TTC_STATUS_COUNT; st++)
        json_object_set_new(glyphs, ttc_status_name((ttc_status)st),
                            json_integer((json_int_t)v.counts[st]));
    uint64_t cases = 0;
    for (int st = 0; st < TTC_STATUS_COUNT; st++)
        cases += v.counts[st];
    json_object_set_new(glyphs, "cases", json_integer((json_int_t)cases));
    return json_pack("{s:s,s:b,s:o,s:o,s:o,s:o}", "type", "tt_load", "agree", v.agree, "face",
                     pair(ft_ok ? NULL : ft_err, fv_ok ? NULL : fv_err), "sizes", v.sizes,
                     "glyphs", glyphs, "first", v.first ? v.first : json_null());
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return rc;
    for (long record = 1;; record++) {
        uint32_t font_len;
        int r = fvc_read_u32le(&font_len);
        if (r == 0)
            return 0;
        char msg[128];
        if (r < 0)
            return fail(2, "truncated record header");
        if (font_len > MAX_FONT_BYTES) {
            snprintf(msg, sizeof msg, "record %ld: bad header (font %u bytes)", record, font_len);
            return fail(2, msg);
        }
        /* Exactly sized, so that an overread in either engine shows under ASan. */
        uint8_t *font = malloc(font_len ? font_len : 1);
        if (!font)
            return fail(1, "out of memory");
        if (font_len && fvc_read_exact(font, font_len) != 1) {
            free(font);
            snprintf(msg, sizeof msg, "record %ld: truncated", record);
            return fail(2, msg);
        }
        json_t *answer = ask(&o, font, font_len);
        free(font);
        if (!answer)
            return fail(1, "out of memory");
        emit(answer);
    }
}
