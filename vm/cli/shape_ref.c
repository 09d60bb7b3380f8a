/* The reference side of `fontvm shape` (built with the reference
 * libraries): graphite2 itself through the differential runner's backend
 * (--engine graphite2), and the speed comparison (--bench). */
#include <stdlib.h>
#include <string.h>

#include <graphite2/Font.h>
#include <graphite2/Segment.h>

#include "cli_mem.h"
#include "sfnt/font.h"
#include "shape.h"

struct shape_ref {
    grc_gr2 *gr2;
    const fv_font *font; /* the font fontvm shapes (the memory pass reopens its bytes) */
};

int shape_ref_open(const fv_font *font, const char *path, shape_ref **out)
{
    char why[200];
    shape_ref *r = calloc(1, sizeof *r);
    if (!r) {
        fprintf(stderr, "fontvm shape: out of memory\n");
        return CLI_PROBLEM;
    }
    r->gr2 = grc_gr2_open(font->owned_data, font->owned_size, why, sizeof why);
    if (!r->gr2) {
        fprintf(stderr, "fontvm shape: %s: %s\n", path, why);
        free(r);
        return CLI_BAD_INPUT;
    }
    r->font = font;
    *out = r;
    return CLI_OK;
}

void shape_ref_close(shape_ref *r)
{
    if (!r)
        return;
    grc_gr2_close(r->gr2);
    free(r);
}

int shape_ref_shape(shape_ref *r, const grc_request *req, grc_run *out)
{
    return grc_gr2_shape(r->gr2, req, out);
}

/* ---- --bench ---- */

typedef struct bench_text {
    uint32_t *cps;
    size_t n;
} bench_text;

/* One pass over the lines with fontvm; counts segments made. */
static double bench_fontvm(fv_gr_face *face, const fv_gr_shape_request *base,
                           const bench_text *lines, size_t count, size_t *made)
{
    fv_gr_shape_request req = *base;
    double t0 = cli_tt_now();
    for (size_t i = 0; i < count; i++) {
        req.text = lines[i].cps;
        req.length = lines[i].n;
        fv_gr_segment *seg = NULL;
        if (fv_gr_shape(face, &req, &seg, NULL) == FV_OK && seg) {
            (*made)++;
            fv_gr_segment_free(face, seg);
        }
    }
    return cli_tt_now() - t0;
}

/* The same with graphite2: gr_make_seg with no font (font units), the
 * feature values built once outside the timed loop. */
static double bench_graphite2(gr_face *face, const gr_feature_val *fv, int rtl,
                              const bench_text *lines, size_t count, size_t *made)
{
    double t0 = cli_tt_now();
    for (size_t i = 0; i < count; i++) {
        gr_segment *seg = gr_make_seg(NULL, face, 0, fv, gr_utf32, lines[i].cps, lines[i].n, rtl);
        if (seg) {
            (*made)++;
            gr_seg_destroy(seg);
        }
    }
    return cli_tt_now() - t0;
}

/* One face opened and closed by fontvm: 1, or 0 when it cannot open it. */
static int open_fontvm_once(const uint8_t *data, size_t size)
{
    fv_font *f = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    int ok = fv_font_open_memory(data, size, 0, NULL, &f, &err) == FV_OK &&
             fv_gr_face_new(f, &face, &err) == FV_OK;
    if (face)
        fv_gr_face_free(face);
    fv_font_close(f);
    return ok;
}

/* Opening the face, timed on its own: what a caller pays once per font and
 * a whole-font fuzz target once per input.  fontvm: the font on the bytes
 * and its Graphite face; graphite2: gr_make_face_with_ops on the same bytes
 * with gr_face_preloadAll (grc_gr2_open), as HarfBuzz makes its faces.
 * Batches of `per` opens alternate engine by engine; the best batch of
 * each is kept, as for shaping.  Returns 0 when either engine cannot open
 * the face (the bench has already shaped with both, so it does not). */
static int bench_open(const uint8_t *data, size_t size, uint32_t repeat, double *fv_us,
                      double *gr_us)
{
    char why[200];
    /* enough opens per batch for ~20 ms (one Awami face is ~2 ms): shorter
     * batches let one interruption decide a font's ratio */
    double t0 = cli_tt_now();
    if (!open_fontvm_once(data, size))
        return 0;
    double once = cli_tt_now() - t0;
    uint32_t per = once > 0 ? (uint32_t)(0.02 / once) : 1000;
    per = per < 1 ? 1 : per > 1000 ? 1000 : per;
    double best_fv = 0, best_gr = 0;
    for (uint32_t k = 0; k < repeat; k++) {
        t0 = cli_tt_now();
        for (uint32_t i = 0; i < per; i++)
            if (!open_fontvm_once(data, size))
                return 0;
        double a = cli_tt_now() - t0;
        t0 = cli_tt_now();
        for (uint32_t i = 0; i < per; i++) {
            grc_gr2 *g = grc_gr2_open(data, size, why, sizeof why);
            if (!g)
                return 0;
            grc_gr2_close(g);
        }
        double b = cli_tt_now() - t0;
        best_fv = k == 0 || a < best_fv ? a : best_fv;
        best_gr = k == 0 || b < best_gr ? b : best_gr;
    }
    *fv_us = best_fv / per * 1e6;
    *gr_us = best_gr / per * 1e6;
    return 1;
}

/* The memory pass (untimed): both engines metered the same way, malloc
 * interposed (cli_mem.h), since graphite2 has no allocator hook; fontvm's
 * default allocator is malloc too.  face: bytes held by an open face
 * (fontvm: a font on the file's bytes, which the caller already holds, and
 * its Graphite face; graphite2: gr_make_file_face with gr_face_preloadAll,
 * which reads the tables it uses into memory of its own).  segment: the
 * most one segment of the text took while it was made and freed. */
typedef struct gr_memory {
    size_t face, segment;
} gr_memory;

static void memory_fontvm(const fv_font *font, const fv_gr_shape_request *base_req,
                          const bench_text *lines, size_t count, gr_memory *out)
{
    cli_meter m = {0, 0};
    fv_font *f = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    const uint8_t *data;
    size_t size;
    fv_font_sfnt_data(font, &data, &size);
    memset(out, 0, sizeof *out);
    cli_malloc_meter_start(&m);
    if (fv_font_open_memory(data, size, 0, NULL, &f, &err) != FV_OK ||
        fv_gr_face_new(f, &face, &err) != FV_OK)
        goto done;
    out->face = m.in_use;
    fv_gr_shape_request req = *base_req;
    for (size_t i = 0; i < count; i++) {
        size_t base = cli_meter_mark(&m);
        req.text = lines[i].cps;
        req.length = lines[i].n;
        fv_gr_segment *seg = NULL;
        if (fv_gr_shape(face, &req, &seg, NULL) == FV_OK && seg)
            fv_gr_segment_free(face, seg);
        if (m.peak - base > out->segment)
            out->segment = m.peak - base;
    }
done:
    cli_malloc_meter_stop();
    if (face)
        fv_gr_face_free(face);
    fv_font_close(f);
}

static void memory_graphite2(const char *path, const shape_opts *o, int rtl,
                             const bench_text *lines, size_t count, gr_memory *out)
{
    cli_meter m = {0, 0};
    memset(out, 0, sizeof *out);
    cli_malloc_meter_start(&m);
    gr_face *gr = gr_make_file_face(path, gr_face_preloadAll);
    gr_feature_val *fv = gr ? gr_face_featureval_for_lang(gr, o->features.lang) : NULL;
    if (!fv)
        goto done;
    out->face = m.in_use;
    for (size_t i = 0; i < o->features.n; i++) {
        const gr_feature_ref *ref = gr_face_find_fref(gr, o->features.f[i].id);
        if (ref)
            gr_fref_set_feature_value(ref, (gr_uint16)o->features.f[i].value, fv);
    }
    for (size_t i = 0; i < count; i++) {
        size_t base = cli_meter_mark(&m);
        gr_segment *seg = gr_make_seg(NULL, gr, 0, fv, gr_utf32, lines[i].cps, lines[i].n, rtl);
        if (seg)
            gr_seg_destroy(seg);
        if (m.peak - base > out->segment)
            out->segment = m.peak - base;
    }
done:
    cli_malloc_meter_stop();
    if (fv)
        gr_featureval_destroy(fv);
    if (gr)
        gr_face_destroy(gr);
}

/* fontvm and graphite2 alternate pass by pass, so both see the same
 * machine state (caches, frequency) over the run.  Every line is decoded
 * once, so only shaping is timed. */
int shape_ref_bench(shape_ref *r, fv_gr_face *face, const shape_opts *o, const char *path,
                    const char *text_file, const cli_lines *lines, uint32_t repeat)
{
    int rtl = o->direction == 1;
    bench_text *texts = calloc(lines->count ? lines->count : 1, sizeof *texts);
    gr_face *gr = gr_make_file_face(path, gr_face_preloadAll);
    gr_feature_val *fv = gr ? gr_face_featureval_for_lang(gr, o->features.lang) : NULL;
    int rc = CLI_OK;
    if (!texts || !gr || !fv) {
        fprintf(stderr, "fontvm shape: %s\n", !texts ? "out of memory"
                                              : "graphite2 cannot load the font");
        rc = texts ? CLI_BAD_INPUT : CLI_PROBLEM;
        goto done;
    }
    for (size_t i = 0; i < lines->count; i++) {
        texts[i].cps = malloc((lines->lines[i].len ? lines->lines[i].len : 1) * sizeof(uint32_t));
        if (!texts[i].cps) {
            rc = CLI_PROBLEM;
            goto done;
        }
        texts[i].n = grc_utf8_decode(lines->lines[i].text, lines->lines[i].len, texts[i].cps,
                                     lines->lines[i].len);
    }
    fv_gr_feature_setting feats[GRC_MAX_FEATURES];
    for (size_t i = 0; i < o->features.n; i++) {
        feats[i].id = o->features.f[i].id;
        feats[i].value = o->features.f[i].value;
        const gr_feature_ref *ref = gr_face_find_fref(gr, o->features.f[i].id);
        if (ref)
            gr_fref_set_feature_value(ref, (gr_uint16)o->features.f[i].value, fv);
    }
    fv_gr_shape_request req;
    memset(&req, 0, sizeof req);
    req.features = o->features.n ? feats : NULL;
    req.num_features = o->features.n;
    req.lang = o->features.lang;
    req.rtl = rtl;
    /* Other work on the machine only ever slows a pass down, so the fastest
     * pass of each engine is the measure (the mean is printed too). */
    double t_fv = 0, t_gr = 0, best_fv = 0, best_gr = 0;
    size_t made_fv = 0, made_gr = 0, count = lines->count;
    for (uint32_t k = 0; k < repeat; k++) {
        double a = bench_fontvm(face, &req, texts, count, &made_fv);
        double b = bench_graphite2(gr, fv, rtl, texts, count, &made_gr);
        t_fv += a;
        t_gr += b;
        best_fv = k == 0 || a < best_fv ? a : best_fv;
        best_gr = k == 0 || b < best_gr ? b : best_gr;
    }
    double segs = (double)count;
    double sps_fv = best_fv > 0 ? segs / best_fv : 0, sps_gr = best_gr > 0 ? segs / best_gr : 0;
    double mean_fv = t_fv > 0 ? segs * repeat / t_fv : 0;
    double mean_gr = t_gr > 0 ? segs * repeat / t_gr : 0;
    printf("font: %s\ntext: %s (%zu lines) x %u passes\n", path, text_file, count, (unsigned)repeat);
    printf("           best pass segments/s    mean segments/s   segments made\n");
    printf("fontvm     %20.0f %18.0f %15zu\n", sps_fv, mean_fv, made_fv);
    printf("graphite2  %20.0f %18.0f %15zu\n", sps_gr, mean_gr, made_gr);
    printf("ratio fontvm/graphite2: %.2f (best), %.2f (mean)\n", sps_gr > 0 ? sps_fv / sps_gr : 0.0,
           mean_gr > 0 ? mean_fv / mean_gr : 0.0);
    double open_fv = 0, open_gr = 0;
    if (bench_open(r->font->owned_data, r->font->owned_size, repeat, &open_fv, &open_gr))
        printf("face open us (best batch): fontvm %.1f graphite2 %.1f; ratio fontvm/graphite2: %.2f\n",
               open_fv, open_gr, open_fv > 0 ? open_gr / open_fv : 0.0);
    if (cli_malloc_meter_available()) {
        gr_memory mf, mg;
        memory_fontvm(r->font, &req, texts, count, &mf);
        memory_graphite2(path, o, rtl, texts, count, &mg);
        printf("memory KiB (malloc interposed, untimed pass): face fontvm %.1f graphite2 %.1f; "
               "segment peak fontvm %.1f graphite2 %.1f\n",
               (double)mf.face / 1024.0, (double)mg.face / 1024.0, (double)mf.segment / 1024.0,
               (double)mg.segment / 1024.0);
    } else {
        printf("memory: not measured in this build (malloc is the sanitizer's)\n");
    }
    rc = made_fv == made_gr ? CLI_OK : CLI_PROBLEM;
done:
    for (size_t i = 0; texts && i < lines->count; i++)
        free(texts[i].cps);
    free(texts);
    if (fv)
        gr_featureval_destroy(fv);
    if (gr)
        gr_face_destroy(gr);
    return rc;
}
