/* GETVARIATION (0x91) and GETDATA (0x92) in a font without variations,
 * against FreeType 2.12.1 (tt_diff finding F-23).  Both engines run them
 * as undefined opcodes (an IDEF here), but with FreeType's stack effects:
 * GETDATA reserves one slot, which shows what the stack memory held there;
 * GETVARIATION's push count is variable, so FreeType leaves the stack top
 * at the new top its execution context computed last — within a run the
 * current top, at a run's first instruction the top the previous run
 * (fpgm, a prep run, a glyph program) ended with, over that run's values.
 * Every case is hinted by fontvm and by the real FreeType, and both must
 * agree. */
#include "synth_diff.h"

enum { SVTCA_Y = 0x00, DEPTH = 0x24, POP = 0x21, SWAP = 0x23, FDEF = 0x2C, ENDF = 0x2D,
       WS = 0x42, RS = 0x43, SCFS = 0x48, IDEF = 0x89, GETVARIATION = 0x91, GETDATA = 0x92 };

static const fv_tt_mode all_modes[] = {FV_TT_V35, FV_TT_V40, FV_TT_V40_MONO, FV_TT_V40_LCD};

/* fpgm: an empty IDEF for `op`, then pushes `n` values 7, 8, ... */
static void idef_fpgm(sd_code *f, uint8_t op, int n)
{
    sd_push(f, op);
    sd_op(f, IDEF);
    sd_op(f, ENDF);
    for (int i = 0; i < n; i++)
        sd_push(f, 7 + i);
}

/* The synthetic font with these programs (prep may be NULL). */
static fvsynth_tt font_with(const sd_code *f, const sd_code *prep, const sd_code *g)
{
    fvsynth_tt p = sd_font();
    p.fpgm = f->b, p.fpgm_len = f->len;
    if (prep)
        p.prep = prep->b, p.prep_len = prep->len;
    p.glyph_code = g->b, p.glyph_code_len = g->len;
    return p;
}

/* Glyph code: the value on top becomes point `pt`'s y. */
static void show_top_at(sd_code *g, int32_t pt)
{
    sd_op(g, SVTCA_Y);
    sd_push(g, pt);
    sd_op(g, SWAP);
    sd_op(g, SCFS);
}

/* Glyph code: DEPTH, then point 1's y = the depth and point 2's y = the
 * value below it (with none, the missing arguments move point 0 instead). */
static void show_depth_and_top(sd_code *g)
{
    sd_op(g, DEPTH);
    show_top_at(g, 1);
    show_top_at(g, 2);
}

/* Hints glyph 0 in every mode; point 1's y must be want_depth[mode] and,
 * unless want_top is negative, point 2's y want_top. */
static void run_all_modes(const fvsynth_tt *p, const int32_t want_depth[4], int32_t want_top)
{
    for (int m = 0; m < 4; m++) {
        sd_result r;
        sd_run(p, 12, all_modes[m], 0, 0, &r);
        SD_ASSERT_IDENTICAL(&r);
        assert_int_equal(r.fv.y[1], want_depth[m]);
        if (want_top >= 0)
            assert_int_equal(r.fv.y[2], want_top);
        sd_free(&r);
    }
}

static const int32_t depth1[4] = {1, 1, 1, 1}, depth3[4] = {3, 3, 3, 3};

/* The F-23 mechanism: fpgm ends with 7 8 9 on the stack; GETVARIATION as
 * the glyph program's first instruction brings the three back. */
static void test_getvariation_first_in_run(void **state)
{
    (void)state;
    sd_code f = {0}, g = {0};
    idef_fpgm(&f, GETVARIATION, 3);
    sd_op(&g, GETVARIATION);
    show_depth_and_top(&g);
    fvsynth_tt p = font_with(&f, NULL, &g);
    run_all_modes(&p, depth3, 9);
}

/* After another instruction of the same run it changes nothing. */
static void test_getvariation_within_run(void **state)
{
    (void)state;
    sd_code f = {0}, g = {0};
    idef_fpgm(&f, GETVARIATION, 3);
    sd_push(&g, 5);
    sd_op(&g, GETVARIATION);
    show_depth_and_top(&g);
    fvsynth_tt p = font_with(&f, NULL, &g);
    run_all_modes(&p, depth1, 5);
}

/* prep: storage[0] = the depth after GETVARIATION, then pushes 3 values.
 * Its first run starts from fpgm's 3; where prep runs twice, the second
 * starts from the first run's end, 3 + 3. */
static void test_getvariation_prep_runs(void **state)
{
    (void)state;
    sd_code f = {0}, prep = {0}, g = {0};
    idef_fpgm(&f, GETVARIATION, 3);
    sd_op(&prep, GETVARIATION);
    sd_op(&prep, DEPTH);
    sd_push(&prep, 0);
    sd_op(&prep, SWAP);
    sd_op(&prep, WS);
    sd_push(&prep, 1);
    sd_push(&prep, 2);
    sd_push(&prep, 3);
    sd_push(&g, 0);
    sd_op(&g, RS);
    show_top_at(&g, 1);
    fvsynth_tt p = font_with(&f, &prep, &g);
    static const int32_t want[4] = {6, 6, 3, 6};
    run_all_modes(&p, want, -1);
}

/* The glyph program of one load leaves 2 values; the next load's first
 * GETVARIATION brings them back. */
static void test_getvariation_next_glyph(void **state)
{
    (void)state;
    sd_code f = {0}, g = {0};
    idef_fpgm(&f, GETVARIATION, 0);
    sd_op(&g, GETVARIATION);
    show_depth_and_top(&g);
    sd_push(&g, 40);
    sd_push(&g, 50);
    fvsynth_tt p = font_with(&f, NULL, &g);
    static const uint32_t gids[] = {0, 0};
    for (int m = 0; m < 4; m++) {
        sd_result r[2];
        sd_run_seq(&p, 12, all_modes[m], 0, gids, 2, r);
        for (int i = 0; i < 2; i++)
            SD_ASSERT_IDENTICAL(&r[i]);
        assert_int_equal(r[0].fv.y[1], 0);
        assert_int_equal(r[1].fv.y[1], 2);
        assert_int_equal(r[1].fv.y[2], 50);
        sd_free(&r[0]);
        sd_free(&r[1]);
    }
}

/* GETDATA pushes one slot: what the stack memory held there (the 9 the
 * program pushed and popped). */
static void test_getdata_pushes_one(void **state)
{
    (void)state;
    sd_code f = {0}, g = {0};
    idef_fpgm(&f, GETDATA, 0);
    sd_push(&g, 9);
    sd_op(&g, POP);
    sd_op(&g, GETDATA);
    show_depth_and_top(&g);
    fvsynth_tt p = font_with(&f, NULL, &g);
    run_all_modes(&p, depth1, 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_getvariation_first_in_run),
        cmocka_unit_test(test_getvariation_within_run),
        cmocka_unit_test(test_getvariation_prep_runs),
        cmocka_unit_test(test_getvariation_next_glyph),
        cmocka_unit_test(test_getdata_pushes_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
