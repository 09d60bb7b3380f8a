/* Which move FreeType 2.12.1 makes (tt_diff findings F-12 and F-18): when
 * F_dot_P is exactly 1.0 and the freedom vector is (small, 0x4000) or
 * (0x4000, small) — SFVTL on a long, nearly vertical or horizontal line
 * normalises to that — FreeType moves and touches along that axis only;
 * when F_dot_P was clamped to 1.0 (freedom and projection vectors at right
 * angles) it makes the general move, distance * fv / F_dot_P, which wraps
 * for distances of 2^50 and more.  Every case is hinted by fontvm and by
 * the real FreeType, and both must agree. */
#include "synth_diff.h"

enum { SVTCA_Y = 0x00, SVTCA_X = 0x01, SPVTCA_Y = 0x02, SPVTCA_X = 0x03, SFVTCA_Y = 0x04,
       SFVTL0 = 0x08, GFV = 0x0D, SRP0 = 0x10, SWAP = 0x23, IUP_Y = 0x30, IUP_X = 0x31,
       SHPIX = 0x38, GC0 = 0x46, SCFS = 0x48, ADD = 0x60, DIV = 0x62, MUL = 0x63,
       MDRP_RND = 0xC4 };

static const fv_tt_mode all_modes[] = {FV_TT_V35, FV_TT_V40, FV_TT_V40_MONO, FV_TT_V40_LCD};

/* Point 2 moved to (-176, 161543) (or the transpose): the line from point 0
 * (204, 192) to it gives the freedom vector (-38, 0x4000) (or (0x4000, -37)). */
static void set_long_line(sd_code *g, int vertical)
{
    sd_op(g, vertical ? SVTCA_X : SVTCA_Y);
    sd_push(g, 2);
    sd_push(g, -176);
    sd_op(g, SCFS);
    sd_op(g, vertical ? SVTCA_Y : SVTCA_X);
    sd_push(g, 2);
    sd_push(g, 161543);
    sd_op(g, SCFS);
    sd_push(g, 2);
    sd_push(g, 0);
    sd_op(g, SFVTL0);
}

/* Puts the freedom vector's components into x of points 5 and 6. */
static void read_fv(sd_code *g)
{
    sd_op(g, GFV);
    sd_op(g, SVTCA_X);
    sd_push(g, 5);
    sd_op(g, SWAP);
    sd_op(g, SCFS); /* x5 = fv.y */
    sd_push(g, 6);
    sd_op(g, SWAP);
    sd_op(g, SCFS); /* x6 = fv.x */
}

static void run_all_modes(const sd_code *g, sd_result *v35)
{
    fvsynth_tt p = sd_font();
    p.glyph_code = g->b, p.glyph_code_len = g->len;
    for (int m = 0; m < 4; m++) {
        sd_result r;
        sd_run(&p, 12, all_modes[m], 0, 0, &r);
        SD_ASSERT_IDENTICAL(&r);
        if (m == 0 && v35 != NULL)
            *v35 = r;
        else
            sd_free(&r);
    }
}

static void test_vectors(void **state)
{
    (void)state;
    for (int vertical = 0; vertical < 2; vertical++) {
        sd_code g = {0};
        set_long_line(&g, !vertical);
        read_fv(&g);
        sd_result r;
        run_all_modes(&g, &r);
        /* Outline x is relative to phantom point 1 (0 here). */
        int32_t fx = r.fv.x[6], fy = r.fv.x[5];
        if (!vertical) {
            assert_int_equal(fx, -38);
            assert_int_equal(fy, 0x4000);
        } else {
            assert_int_equal(fx, 0x4000);
            assert_int_equal(fy, -37);
        }
        sd_free(&r);
    }
}

/* SCFS point 1 along that freedom vector with the projection vector on the
 * same axis, then IUP on the other axis after moving points 0 and 3 along
 * it: point 1 was not touched on the other axis, so IUP interpolates it. */
static void test_move_one_axis(void **state)
{
    (void)state;
    for (int vertical = 0; vertical < 2; vertical++) {
        sd_code g = {0};
        set_long_line(&g, !vertical);
        sd_op(&g, vertical ? SPVTCA_X : SPVTCA_Y);
        sd_push(&g, 1);
        sd_push(&g, 20000);
        sd_op(&g, SCFS);
        sd_result r;
        run_all_modes(&g, &r);
        /* v35: only the axis of the 1.0 component moved. */
        if (!vertical) {
            assert_int_equal(r.fv.y[1], 20000);
            assert_int_equal(r.fv.x[1], 606); /* x as scaled, not moved */
        } else {
            assert_int_equal(r.fv.x[1], 20000);
        }
        sd_free(&r);

        sd_op(&g, vertical ? SVTCA_Y : SVTCA_X);
        sd_push(&g, 0);
        sd_push(&g, 64);
        sd_op(&g, SHPIX);
        sd_push(&g, 3);
        sd_push(&g, 64);
        sd_op(&g, SHPIX);
        sd_op(&g, vertical ? IUP_Y : IUP_X);
        run_all_modes(&g, &r);
        if (!vertical)
            assert_int_equal(r.fv.x[1], 36); /* interpolated: not touched in x */
        sd_free(&r);
    }
}

/* Point 2 at x = 32767^5 / 64^4 (2^51) as rp0, projection on x, freedom
 * on y (F_dot_P 0, clamped to 1.0): MDRP point 4 moves it in y by about
 * -2^51, through the general move; its y / 2^32 goes into point 5. */
static void test_clamped_general_move(void **state)
{
    (void)state;
    sd_code g = {0};
    sd_op(&g, SVTCA_X);
    sd_push(&g, 2);
    sd_push(&g, 32767);
    for (int i = 0; i < 4; i++) {
        sd_push(&g, 32767);
        sd_op(&g, MUL);
    }
    sd_op(&g, SCFS);
    sd_push(&g, 2);
    sd_op(&g, SRP0);
    sd_op(&g, SFVTCA_Y);
    sd_op(&g, SPVTCA_X);
    sd_push(&g, 4);
    sd_op(&g, MDRP_RND);
    sd_op(&g, SVTCA_Y);
    sd_push(&g, 5);
    sd_push(&g, 4);
    sd_op(&g, GC0);
    for (int i = 0; i < 4; i++) {
        sd_push(&g, 16384);
        sd_op(&g, DIV); /* a * 64 / 16384 */
    }
    sd_op(&g, SCFS);
    sd_result r;
    run_all_modes(&g, &r);
    /* The wrapped move: 2^50 less than the plain sum (524208 * 2^32). */
    assert_int_equal(r.fv.y[5], 262064);
    sd_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_move_one_axis),
        cmocka_unit_test(test_clamped_general_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
