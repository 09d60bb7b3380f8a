/* The worst cases the TrueType budgets allow, timed (issue 14).
 *
 *   tt_budget_bench                 adversarial fonts: for each, the steps a
 *                                   glyph load or size set-up spent, its
 *                                   time (fastest of 3) and ns per step
 *   tt_budget_bench [--sizes L] --corpus FONT...  real fonts: the most steps any glyph
 *                                   load and any fpgm/prep run spent, at
 *                                   every size of scripts/conform in all
 *                                   four modes (the headroom under the
 *                                   budgets), and the slowest load
 *
 * Run on the release build (build/release/tests/adversarial/); the README's
 * "Hardening" section quotes its output.  Exit 0, or 1 when a worst case
 * took over 100 ms or a corpus font came within a factor of 10 of a budget. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/budget.h"
#include "fontvm/fontvm.h"
#include "fontvm/tt.h"
#include "tt_bombs.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: the machine is shared */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct result {
    fv_status st;
    uint64_t steps;
    double seconds;
} result;

/* Opens the font, makes a size (fpgm, prep), hints gid (when gid >= 0);
 * keeps the fastest of 3 runs of the timed part. */
static int measure(const uint8_t *font, size_t len, fv_tt_mode mode, long gid, result *r)
{
    r->seconds = 1e9;
    for (int pass = 0; pass < 3; pass++) {
        fv_font *f = NULL;
        fv_tt_face *face = NULL;
        fv_tt_exec *ex = NULL;
        fv_tt_size *size = NULL;
        fv_error err;
        if (fv_font_open_memory(font, len, 0, NULL, &f, &err) != FV_OK ||
            fv_tt_face_new(f, &face, &err) != FV_OK || fv_tt_exec_new(face, &ex, &err) != FV_OK) {
            fprintf(stderr, "cannot open the font: %s\n", fv_status_name(err.kind));
            return -1;
        }
        fv_tt_size_request req = {.x_ppem_26d6 = 12 * 64, .y_ppem_26d6 = 12 * 64, .mode = mode};
        double t0 = now_s();
        fv_tt_size_new(face, ex, &req, &size, &err);
        double t1 = now_s();
        fv_tt_outline out;
        fv_status st = fv_tt_hint_glyph(size, ex, gid >= 0 ? (uint32_t)gid : 0, &out, &err);
        double t2 = now_s();
        fv_tt_outline_free(face, &out);
        double t = gid >= 0 ? t2 - t1 : t1 - t0;
        if (t < r->seconds)
            r->seconds = t;
        r->st = st;
        r->steps = gid >= 0 ? fv_tt_exec_last_load_steps(ex) : fv_tt_exec_max_run_steps(ex);
        fv_tt_size_free(size);
        fv_tt_exec_free(ex);
        fv_tt_face_free(face);
        fv_font_close(f);
    }
    return 0;
}

/* ---- Worst-case programs ---------------------------------------------- */

/* A glyph of `points` points in one contour (all at 0,0 but the last at
 * 500,500) carrying `code`. */
static void glyph_points(tb_buf *g, uint32_t points, const tb_buf *code)
{
    tb_u16(g, 1);
    tb_u16(g, 0); tb_u16(g, 0); tb_u16(g, 500); tb_u16(g, 500);
    tb_u16(g, points - 1);
    tb_u16(g, (unsigned)code->len);
    for (size_t i = 0; i < code->len; i++)
        tb_u8(g, code->p[i]);
    for (uint32_t i = 0; i + 1 < points; i++)
        tb_u8(g, 0x31); /* on curve, x and y same as the previous point */
    tb_u8(g, 0x01);     /* the last: word deltas */
    tb_u16(g, 500);
    tb_u16(g, 500);
}

/* Wraps `body` (which leaves the stack as it found it) in a loop that runs
 * until FreeType's per-run limits stop it: PUSHB 1, body, PUSHW -back, JMPR. */
static void looped(tb_buf *code, const tb_buf *body)
{
    tb_pushb(code, 1);
    size_t start = code->len;
    for (size_t i = 0; i < body->len; i++)
        tb_u8(code, body->p[i]);
    size_t jmpr_at = code->len + 3;
    tb_pushw(code, -(int)(jmpr_at - start));
    tb_u8(code, TB_JMPR);
}

/* Glyph 1 carries `code` on a glyph of `points` points; glyph 2 is a
 * composite of `refs` references to it: one load runs the program `refs`
 * times until the load's budget is spent. */
static uint8_t *program_font(const tb_buf *code, uint32_t points, uint32_t refs, uint32_t cvt,
                             uint16_t stack, size_t *len)
{
    tb_spec s;
    tb_spec_init(&s, 3);
    s.cvt_count = cvt;
    s.max_stack = stack;
    s.max_points = (uint16_t)(points > 0xFFFF ? 0xFFFF : points);
    glyph_points(&s.glyphs[1], points, code);
    tb_glyph_composite(&s.glyphs[2], refs, 1, NULL);
    uint8_t *font = tb_build(&s, len);
    tb_spec_free(&s);
    return font;
}

typedef struct worst {
    const char *name;
    uint8_t *font;
    size_t len;
    fv_tt_mode mode;
    long gid; /* -1: time the size set-up */
} worst;

static void repeat(tb_buf *b, const uint8_t *bytes, size_t n, size_t times)
{
    for (size_t t = 0; t < times; t++)
        for (size_t i = 0; i < n; i++)
            tb_u8(b, bytes[i]);
}

/* len is read after font is made (the generators write it). */
static void add(worst *w, int *n, const char *name, uint8_t *font, const size_t *len,
                fv_tt_mode mode, long gid)
{
    w[*n] = (worst){name, font, *len, mode, gid};
    (*n)++;
}

/* Adds the case of `unit` repeated `times` times in a JMPR loop, as the
 * program of a glyph of `points` points referenced `refs` times. */
static void add_looped(worst *w, int *n, const char *name, const uint8_t *unit, size_t unit_len,
                       size_t times, uint32_t points, uint32_t refs, uint32_t cvt, uint16_t stack,
                       fv_tt_mode mode)
{
    tb_buf body = {0}, code = {0};
    size_t len;
    repeat(&body, unit, unit_len, times);
    looped(&code, &body);
    add(w, n, name, program_font(&code, points, refs, cvt, stack, &len), &len, mode, 2);
    tb_free(&body);
    tb_free(&code);
}

static int run_worst_cases(void)
{
    worst w[24];
    int n = 0;
    size_t len;
    tb_buf body = {0}, code = {0};

    /* Plain one-byte instructions. */
    static const uint8_t duppop[] = {TB_DUP, TB_POP};
    add_looped(w, &n, "DUP/POP loop, 8 components", duppop, 2, 16000, 8, 8, 0, 64, FV_TT_V40);

    /* MIRP with every option (rounding, minimum distance, cut-in). */
    static const uint8_t mirp[] = {0xB1, 2, 1, 0xFF}; /* PUSHB[1] 2 1; MIRP[11111] */
    add_looped(w, &n, "MIRP[11111] loop", mirp, 4, 8000, 8, 8, 16, 64, FV_TT_V35);

    /* ISECT (two lines, a division) and SDPVTL[1] (a vector normalised). */
    static const uint8_t isect[] = {0xB4, 4, 0, 1, 2, 3, 0x0F}; /* PUSHB[4] p a0 a1 b0 b1; ISECT */
    add_looped(w, &n, "ISECT loop", isect, 7, 4500, 8, 8, 0, 64, FV_TT_V35);
    static const uint8_t sdpvtl[] = {0xB1, 1, 6, 0x87}; /* PUSHB[1] 1 6; SDPVTL[1] */
    add_looped(w, &n, "SDPVTL[1] loop", sdpvtl, 4, 8000, 8, 8, 0, 64, FV_TT_V35);

    /* DELTAP1 of 127 pairs, each moving a point at this size. */
    for (int k = 0; k < 120; k++) {
        tb_u8(&body, TB_NPUSHB);
        tb_u8(&body, 255);
        for (int i = 0; i < 127; i++) {
            tb_u8(&body, 0x37); /* ppem 9 + 3 = 12, one step */
            tb_u8(&body, 1);    /* point 1 */
        }
        tb_u8(&body, 127);
        tb_u8(&body, 0x5D); /* DELTAP1 */
    }
    looped(&code, &body);
    add(w, &n, "DELTAP1 of 127 pairs", program_font(&code, 8, 8, 0, 512, &len), &len, FV_TT_V35, 2);
    tb_free(&body), tb_free(&code);

    /* SHPIX looped over 250 points per instruction. */
    tb_pushb(&body, 250);
    tb_u8(&body, 0x17); /* SLOOP */
    tb_u8(&body, TB_NPUSHB);
    tb_u8(&body, 251);
    tb_fill(&body, 1, 250);
    tb_u8(&body, 64);
    tb_u8(&body, 0x38); /* SHPIX */
    {
        tb_buf one = body;
        tb_buf many = {0};
        repeat(&many, one.p, one.len, 100);
        tb_free(&body);
        body = many;
    }
    looped(&code, &body);
    add(w, &n, "SLOOP 250 SHPIX loop", program_font(&code, 8, 8, 0, 512, &len), &len, FV_TT_V35, 2);
    tb_free(&body), tb_free(&code);

    /* IUP on 30,000 points, both axes, again and again (v35 allows it). */
    static const uint8_t iup[] = {0x30, 0x31, 0xB0, 1, 0x2F}; /* IUP[y] IUP[x]; touch: PUSHB 1 MDAP */
    repeat(&body, iup + 2, 3, 1);
    add_looped(w, &n, "IUP on 30,000 points", iup, 2, 1000, 30000, 2, 0, 64, FV_TT_V35);

    /* SHZ of the glyph zone (30,000 points). */
    static const uint8_t shz[] = {0xB0, 1, 0x36}; /* PUSHB 1; SHZ[rp2] */
    add_looped(w, &n, "SHZ of 30,000 points", shz, 3, 1000, 30000, 2, 0, 64, FV_TT_V35);

    /* MINDEX 1,000 deep on a stack of 1,020 values. */
    for (int i = 0; i < 4; i++) {
        tb_u8(&code, TB_NPUSHB);
        tb_u8(&code, 255);
        tb_fill(&code, 7, 255);
    }
    static const uint8_t mindex[] = {0xB8, 0x03, 0xE8, 0x26}; /* PUSHW 1000; MINDEX */
    repeat(&body, mindex, 4, 8000);
    {
        tb_buf loop = {0};
        looped(&loop, &body);
        for (size_t i = 0; i < loop.len; i++)
            tb_u8(&code, loop.p[i]);
        tb_free(&loop);
    }
    add(w, &n, "MINDEX 1,000 deep", program_font(&code, 8, 8, 0, 2048, &len), &len, FV_TT_V35, 2);
    tb_free(&body), tb_free(&code);

    /* Skipped IF bodies. */
    tb_pushb(&body, 0);
    tb_u8(&body, TB_IF);
    tb_fill(&body, TB_SVTCA_Y, 30000);
    tb_u8(&body, TB_EIF);
    looped(&code, &body);
    add(w, &n, "skipped IF body", program_font(&code, 8, 8, 0, 64, &len), &len, FV_TT_V40, 2);
    tb_free(&body), tb_free(&code);

    /* Copy-on-write of a 65,535-entry CVT by every component. */
    static const uint8_t wcvt[] = {0xB1, 0, 0, 0x44}; /* PUSHB[1] 0 0; WCVTP */
    repeat(&code, wcvt, 4, 1);
    add(w, &n, "CVT copy per component", program_font(&code, 8, 2000, 65535, 64, &len), &len, FV_TT_V40, 2);
    tb_free(&code);

    /* The fonts. */
    add(w, &n, "1,000^3 empty components", tb_composite_fanout(1000, 3, 1, NULL, &len), &len,
        FV_TT_V40, 4);
    add(w, &n, "60 KB IF skipped under LOOPCALL 20000 (prep)",
        tb_skipped_loopcall(60000, 20000, &len), &len, FV_TT_V40, -1);

    int slow = 0;
    double worst_ns = 0;
    printf("%-46s %-18s %12s %10s %9s\n", "case", "result", "steps", "ms", "ns/step");
    for (int i = 0; i < n; i++) {
        result r;
        if (measure(w[i].font, w[i].len, w[i].mode, w[i].gid, &r) != 0)
            return 2;
        double ns = r.steps ? r.seconds * 1e9 / (double)r.steps : 0;
        /* The bound: the slowest step among the cases that spent a budget. */
        if (r.steps >= FV_BUDGET_TT_PROGRAM_STEPS && ns > worst_ns)
            worst_ns = ns;
        printf("%-46s %-18s %12llu %10.2f %9.2f\n", w[i].name, fv_status_name(r.st),
               (unsigned long long)r.steps, r.seconds * 1e3, ns);
        slow += r.seconds > 0.100;
        free(w[i].font);
    }
    printf("budgets: %d steps per glyph load, %d per fpgm/prep run; slowest step %.2f ns: "
           "a glyph load at most %.1f ms, a size set-up (fpgm + prep twice) at most %.1f ms\n",
           FV_BUDGET_TT_GLYPH_STEPS, FV_BUDGET_TT_PROGRAM_STEPS, worst_ns,
           worst_ns * FV_BUDGET_TT_GLYPH_STEPS * 1e-6, 3 * worst_ns * FV_BUDGET_TT_PROGRAM_STEPS * 1e-6);
    return slow ? 1 : 0;
}

/* ---- Corpus headroom ---------------------------------------------------- */

static const char *const corpus_sizes[] = {"6", "7", "8", "9", "10", "11", "12", "13", "14",
                                           "15", "16", "17", "18", "19", "20", "21", "22", "23",
                                           "24", "28", "32", "36", "42", "48", "56", "64", "72",
                                           "10.5", "24.8"};

static int run_corpus(int argc, char **argv, const char *const *sizes, size_t num_sizes)
{
    uint64_t max_load = 0, max_run = 0;
    double slowest_load = 0;
    char where_load[300] = "", where_run[300] = "", where_slow[300] = "";
    for (int a = 0; a < argc; a++) {
        fv_font *f = NULL;
        fv_tt_face *face = NULL;
        fv_tt_exec *ex = NULL;
        fv_error err;
        if (fv_font_open_file(argv[a], 0, NULL, &f, &err) != FV_OK ||
            fv_tt_face_new(f, &face, &err) != FV_OK || fv_tt_exec_new(face, &ex, &err) != FV_OK) {
            fprintf(stderr, "%s: cannot open (%s)\n", argv[a], fv_status_name(err.kind));
            return 2;
        }
        uint32_t glyphs = fv_font_glyph_count(f);
        for (int m = 0; m < 4; m++)
            for (size_t s = 0; s < num_sizes; s++) {
                fv_tt_size_request req = {.x_ppem_26d6 = (int32_t)(atof(sizes[s]) * 64 + 0.5),
                                          .y_ppem_26d6 = (int32_t)(atof(sizes[s]) * 64 + 0.5),
                                          .mode = (fv_tt_mode)m};
                fv_tt_size *size = NULL;
                if (fv_tt_size_new(face, ex, &req, &size, &err) != FV_OK)
                    continue;
                if (fv_tt_exec_max_run_steps(ex) > max_run) {
                    max_run = fv_tt_exec_max_run_steps(ex);
                    snprintf(where_run, sizeof where_run, "%s %s %s", argv[a], sizes[s],
                             fv_tt_mode_name((fv_tt_mode)m));
                }
                for (uint32_t g = 0; g < glyphs; g++) {
                    fv_tt_outline out;
                    double t0 = now_s();
                    fv_tt_hint_glyph(size, ex, g, &out, &err);
                    double t = now_s() - t0;
                    fv_tt_outline_free(face, &out);
                    uint64_t steps = fv_tt_exec_last_load_steps(ex);
                    if (steps > max_load) {
                        max_load = steps;
                        snprintf(where_load, sizeof where_load, "%s %s %s glyph %u", argv[a],
                                 sizes[s], fv_tt_mode_name((fv_tt_mode)m), g);
                    }
                    if (t > slowest_load) {
                        slowest_load = t;
                        snprintf(where_slow, sizeof where_slow, "%s %s %s glyph %u", argv[a],
                                 sizes[s], fv_tt_mode_name((fv_tt_mode)m), g);
                    }
                }
                fv_tt_size_free(size);
            }
        fv_tt_exec_free(ex);
        fv_tt_face_free(face);
        fv_font_close(f);
    }
    printf("most steps of one glyph load: %llu (%s): %.0fx under the budget of %d\n",
           (unsigned long long)max_load, where_load,
           max_load ? (double)FV_BUDGET_TT_GLYPH_STEPS / (double)max_load : 0.0,
           FV_BUDGET_TT_GLYPH_STEPS);
    printf("most steps of one fpgm/prep run: %llu (%s): %.0fx under the budget of %d\n",
           (unsigned long long)max_run, where_run,
           max_run ? (double)FV_BUDGET_TT_PROGRAM_STEPS / (double)max_run : 0.0,
           FV_BUDGET_TT_PROGRAM_STEPS);
    printf("slowest glyph load: %.3f ms (%s)\n", slowest_load * 1e3, where_slow);
    return max_load * 10 > FV_BUDGET_TT_GLYPH_STEPS || max_run * 10 > FV_BUDGET_TT_PROGRAM_STEPS;
}

int main(int argc, char **argv)
{
    /* --sizes 6,12,24.8 (before --corpus): fewer sizes than scripts/conform's. */
    static const char *chosen[sizeof corpus_sizes / sizeof *corpus_sizes];
    size_t num_chosen = 0;
    if (argc > 2 && strcmp(argv[1], "--sizes") == 0) {
        for (char *t = strtok(argv[2], ","); t && num_chosen < sizeof chosen / sizeof *chosen;
             t = strtok(NULL, ","))
            chosen[num_chosen++] = t;
        argc -= 2;
        argv += 2;
    }
    if (argc > 1 && strcmp(argv[1], "--corpus") == 0) {
        if (num_chosen)
            return run_corpus(argc - 2, argv + 2, chosen, num_chosen);
        return run_corpus(argc - 2, argv + 2, corpus_sizes, sizeof corpus_sizes / sizeof *corpus_sizes);
    }
    if (argc > 1) {
        fprintf(stderr, "usage: tt_budget_bench [[--sizes LIST] --corpus FONT...]\n");
        return 2;
    }
    return run_worst_cases();
}
