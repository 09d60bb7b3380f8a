/* CVT and storage writes of glyph programs against FreeType 2.12.1
 * (tt_diff finding F-5, corpus/tt_diff/regress/556984ed-diverged): each
 * glyph program run starts from the size's CVT and storage (a component's
 * writes are not seen by the next component or the composite's program),
 * except that WCVTF without an earlier CVT write in the run writes the
 * size's CVT itself, seen by every later run and glyph.  Every case is
 * hinted by fontvm and by the real FreeType, and both must agree. */
#include "synth_diff.h"

enum { SVTCA_Y = 0x00, SHPIX = 0x38, MIAP0 = 0x3E, RS = 0x43, WS = 0x42, RCVT = 0x45,
       WCVTP = 0x44, WCVTF = 0x70, ADD = 0x60, DELTAC1 = 0x73 };

static const fv_tt_mode all_modes[] = {FV_TT_V35, FV_TT_V40, FV_TT_V40_MONO, FV_TT_V40_LCD};

/* Loads gids in order on one size in every mode; all must be identical. */
static void all_identical(const fvsynth_tt *p, const uint32_t *gids, size_t n, sd_result *keep)
{
    for (size_t m = 0; m < 4; m++) {
        sd_result r[4];
        assert_true(n <= 4);
        sd_run_seq(p, 12, all_modes[m], 0, gids, n, r);
        for (size_t i = 0; i < n; i++) {
            SD_ASSERT_IDENTICAL(&r[i]);
            if (keep != NULL && m == 0)
                keep[i] = r[i];
            else
                sd_free(&r[i]);
        }
    }
}

/* The finding, minimised: glyph program `MIRP[11011] WCVTF` on an empty
 * stack (arguments read as zeros: MIRP reads CVT[0], WCVTF sets it to 0). */
static void test_f5_minimal(void **state)
{
    (void)state;
    static const uint8_t glyph[] = {0xFB, WCVTF};
    fvsynth_tt p = sd_font();
    p.num_points = 16;
    p.num_contours = 4;
    p.cvt_count = 32;
    p.seed = 117443334;
    p.composite = 1;
    p.glyph_code = glyph, p.glyph_code_len = sizeof glyph;
    static const uint32_t gids[] = {0, 0, 1, 1};
    sd_result r[4];
    all_identical(&p, gids, 4, r);
    /* The second load sees CVT[0] = 0 written by the first. */
    assert_int_equal(r[0].fv.num_points, r[1].fv.num_points);
    assert_true(memcmp(r[0].fv.x, r[1].fv.x, r[0].fv.num_points * sizeof(int32_t)) != 0 ||
                memcmp(r[0].fv.y, r[1].fv.y, r[0].fv.num_points * sizeof(int32_t)) != 0);
    for (int i = 0; i < 4; i++)
        sd_free(&r[i]);
}

/* WCVTF writes the size's CVT: MIAP[0] on point 1 reads CVT[0], then
 * WCVTF sets CVT[0] to 1000 font units. */
static void test_wcvtf_persists(void **state)
{
    (void)state;
    sd_code g = {0};
    sd_op(&g, SVTCA_Y);
    sd_push(&g, 1);
    sd_push(&g, 0);
    sd_op(&g, MIAP0);
    sd_push(&g, 0);
    sd_push(&g, 1000);
    sd_op(&g, WCVTF);
    fvsynth_tt p = sd_font();
    p.composite = 1;
    p.glyph_code = g.b, p.glyph_code_len = g.len;
    static const uint32_t gids[] = {0, 0, 1};
    sd_result r[3];
    all_identical(&p, gids, 3, r);
    /* 12 ppem, 2048 units: 1000 units are 375/64 px (5.86 px). */
    assert_int_not_equal(r[0].fv.y[1], 375);
    assert_int_equal(r[1].fv.y[1], 375);
    for (int i = 0; i < 3; i++)
        sd_free(&r[i]);

    /* After a WCVTP in the same run, WCVTF writes the run's copy: nothing
     * persists. */
    sd_code g2 = {0};
    memcpy(&g2, &g, sizeof g2);
    g2.len = 0;
    sd_op(&g2, SVTCA_Y);
    sd_push(&g2, 1);
    sd_push(&g2, 0);
    sd_op(&g2, MIAP0);
    sd_push(&g2, 2);
    sd_push(&g2, 64);
    sd_op(&g2, WCVTP);
    sd_push(&g2, 0);
    sd_push(&g2, 1000);
    sd_op(&g2, WCVTF);
    p.glyph_code = g2.b, p.glyph_code_len = g2.len;
    all_identical(&p, gids, 3, r);
    assert_int_equal(r[0].fv.y[1], r[1].fv.y[1]);
    for (int i = 0; i < 3; i++)
        sd_free(&r[i]);
}

/* P: SHPIX point 1 by value(0); value(0) += 64 — with the CVT (WCVTP), the
 * CVT through DELTAC1, or storage (WS).  The composite glyph 1 runs P three
 * times (two components, then the composite): each run must see the
 * unchanged value. */
static void per_run_program(sd_code *g, int kind)
{
    memset(g, 0, sizeof *g);
    sd_push(g, 1);
    sd_push(g, 0);
    sd_op(g, kind == 2 ? RS : RCVT);
    sd_op(g, SHPIX);
    if (kind == 1) {
        /* DELTAC1 at 12 ppem (delta base 9): +8 steps of 1/8 px on CVT[0]. */
        sd_push(g, (12 - 9) << 4 | 15);
        sd_push(g, 0);
        sd_push(g, 1);
        sd_op(g, DELTAC1);
        return;
    }
    sd_push(g, 0);
    sd_push(g, 0);
    sd_op(g, kind == 2 ? RS : RCVT);
    sd_push(g, 64);
    sd_op(g, ADD);
    sd_op(g, kind == 2 ? WS : WCVTP);
}

static void test_writes_last_one_run(void **state)
{
    (void)state;
    for (int kind = 0; kind < 3; kind++) {
        sd_code g;
        per_run_program(&g, kind);
        fvsynth_tt p = sd_font();
        p.composite = 1;
        p.glyph_code = g.b, p.glyph_code_len = g.len;
        static const uint32_t gids[] = {1, 0, 1};
        sd_result r[3];
        all_identical(&p, gids, 3, r);
        /* The same result before and after other loads. */
        assert_memory_equal(r[0].fv.x, r[2].fv.x, r[0].fv.num_points * sizeof(int32_t));
        for (int i = 0; i < 3; i++)
            sd_free(&r[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f5_minimal),
        cmocka_unit_test(test_wcvtf_persists),
        cmocka_unit_test(test_writes_last_one_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
