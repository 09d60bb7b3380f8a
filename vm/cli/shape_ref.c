/* The reference side of `fontvm shape` (built with the reference
 * libraries): graphite2 itself through the differential runner's backend
 * (--engine graphite2), and the speed comparison (--bench). */
#include <stdlib.h>
#include <string.h>

#include <graphite2/Font.h>
#include <graphite2/Segment.h>

#include "sfnt/font.h"
#include "shape.h"

struct shape_ref {
    grc_gr2 *gr2;
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

/* fontvm and graphite2 alternate pass by pass, so both see the same
 * machine state (caches, frequency) over the run.  Every line is decoded
 * once, so only shaping is timed. */
int shape_ref_bench(shape_ref *r, fv_gr_face *face, const shape_opts *o, const char *path,
                    const char *text_file, const cli_lines *lines, uint32_t repeat)
{
    (void)r;
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
