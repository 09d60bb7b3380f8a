/* Outline instructions and deltas on a small square glyph.  Points (26.6,
 * scale 1.0): 0 (0,0) 1 (0,100) 2 (100,100) 3 (100,0) 4 (50,50); one
 * contour 0-3 and one single-point contour 4. */
#include "test_interp_harness.h"

static const int32_t pts[] = { 0, 0, 0, 100, 100, 100, 100, 0, 50, 50 };
static const uint16_t ends[] = { 3, 4 };

static void setup(harness *h, int pedantic)
{
    h_init(h, pts, 5, ends, 2, pedantic);
}

static void test_mdap_miap(void **state)
{
    (void)state;
    harness h;
    setup(&h, 0);
    h.cvt[1] = 130;
    /* x axis: MDAP[1] 4 rounds 50 -> 64 ; MIAP[1] 2 cvt1 -> 128 (cut-in ok) */
    RUN(&h, 0x01, 0xB0, 4, 0x2F, 0xB1, 2, 1, 0x3F);
    assert_int_equal(h.c.pts.cur[4].x, 64);
    assert_int_equal(h.c.pts.cur[4].y, 50);
    assert_true(h.c.pts.tags[4] & TT_TAG_TOUCH_X);
    assert_int_equal(h.c.pts.cur[2].x, 128);
    assert_int_equal(h.c.gs.rp0, 2);
    h_free(&h);
}

static void test_mdrp_mirp(void **state)
{
    (void)state;
    harness h;
    setup(&h, 0);
    h.cvt[0] = 120;
    /* x: SRP0 0; MDRP[rp0,min,rnd] 3 -> 100 rounds to 128; MIRP 2 via cvt0 */
    RUN(&h, 0x01, 0xB0, 0, 0x10, 0xB0, 3, 0xDC, 0xB1, 2, 0, 0xE4);
    assert_int_equal(h.c.pts.cur[3].x, 128);
    assert_int_equal(h.c.gs.rp0, 3);
    /* MIRP[00100] from rp0=3 (128) to 2: org distance 0 (same x), cvt 120
     * beyond the cut-in (68), so the outline distance 0 is used. */
    assert_int_equal(h.c.pts.cur[2].x, 128);
    assert_int_equal(h.c.gs.rp2, 2);
    h_free(&h);
}

static void test_shp_ip_iup(void **state)
{
    (void)state;
    harness h;
    setup(&h, 0);
    /* y: move point 1 up by 28 (SHPIX), then IP point 4 between 0 and 1,
     * then IUP[y] */
    RUN(&h, 0x00, 0xB1, 1, 28, 0x38, 0xB0, 0, 0x11, 0xB0, 1, 0x12, 0xB0, 4, 0x39, 0x30);
    assert_int_equal(h.c.pts.cur[1].y, 128);
    /* org distance 50 of 100, current range 128 -> 64 */
    assert_int_equal(h.c.pts.cur[4].y, 64);
    /* IUP[y] on contour 0: 0 and 3 untouched... point 1 touched only: shift */
    assert_int_equal(h.c.pts.cur[2].y, 128);
    assert_int_equal(h.c.pts.cur[3].y, 28);
    /* SHP[rp1=0] with loop 2 moves 2 and 3 by rp1's displacement (0). */
    RUN(&h, 0xB0, 0, 0x11, 0xB2, 2, 3, 2, 0x17, 0x33);
    assert_int_equal(h.c.gs.loop, 1);
    assert_int_equal(h.c.top, 0);
    h_free(&h);
}

static void test_deltas(void **state)
{
    (void)state;
    harness h;
    setup(&h, 0);
    h.cvt[2] = 64;
    /* ppem 12, delta base 9: arg 0x3F = ppem 12, step +8 -> 8 * 64 / 8 = 64 */
    RUN(&h, 0x00, 0xB2, 0x3F, 4, 1, 0x5D);
    assert_int_equal(h.c.pts.cur[4].y, 50 + 64);
    /* Other ppem: no move.  DELTAC1 on cvt 2: arg 0x30 = step -8 -> -64 */
    RUN(&h, 0xB2, 0x2F, 4, 1, 0x5D, 0xB2, 0x30, 2, 1, 0x73, 0xB0, 2, 0x45);
    assert_int_equal(h.c.pts.cur[4].y, 50 + 64);
    assert_int_equal(h_top(&h, 0), 0);
    /* Shift 6: 1/64 px steps */
    RUN(&h, 0xB0, 6, 0x5F, 0xB2, 0x3F, 4, 1, 0x5D);
    assert_int_equal(h.c.pts.cur[4].y, 50 + 64 + 8);
    h_free(&h);
}

static void test_vectors_and_measure(void **state)
{
    (void)state;
    harness h;
    setup(&h, 0);
    /* SPVTL[0] 0 -> 2: diagonal; GC[0] 2 = |(100,100)| = 141 */
    RUN(&h, 0xB1, 2, 0, 0x06, 0x0C, 0xB0, 2, 0x46);
    assert_int_equal(h_top(&h, 2), 0x2D41);
    assert_int_equal(h_top(&h, 1), 0x2D41);
    assert_int_equal(h_top(&h, 0), 141);
    /* MD[1] (original) and MD[0] (current) along x */
    RUN(&h, 0x01, 0xB1, 2, 0, 0x4A, 0xB1, 2, 0, 0x49);
    assert_int_equal(h_top(&h, 1), 100);
    assert_int_equal(h_top(&h, 0), 100);
    /* ISECT: lines 0-2 and 1-3 meet at (50,50); move point 4 there */
    RUN(&h, 0xB4, 4, 0, 2, 1, 3, 0x0F);
    assert_int_equal(h.c.pts.cur[4].x, 50);
    assert_int_equal(h.c.pts.cur[4].y, 50);
    /* FLIPPT 4 turns it off-curve; FLIPRGON 0..3 keeps them on */
    RUN(&h, 0xB0, 4, 0x80, 0xB1, 3, 0, 0x81);
    assert_int_equal(h.c.pts.tags[4] & TT_TAG_ON, 0);
    assert_int_equal(h.c.pts.tags[3] & TT_TAG_ON, TT_TAG_ON);
    h_free(&h);
}

static void test_point_errors(void **state)
{
    (void)state;
    harness h;
    setup(&h, 1);
    /* Zone has 5 + 4 phantom points: 9 and above are invalid. */
    RUN_ERR(&h, FV_E_TT_INVALID_POINT, 0x01, 0xB0, 9, 0x2F);
    assert_int_equal(h.err.index, 9);
    assert_int_equal(h.err.pc, 3);
    assert_string_equal(h.err.opname, "MDAP[1]");
    char buf[128];
    fv_error_format(&h.err, buf, sizeof buf);
    assert_non_null(strstr(buf, "glyf[7]@3:MDAP[1]"));
    assert_non_null(strstr(buf, "9"));
    RUN_ERR(&h, FV_E_TT_INVALID_POINT, 0xB1, 200, 1, 0xED);
    assert_string_equal(h.err.opname, "MIRP[01101]");
    RUN_ERR(&h, FV_E_TT_INVALID_CVT, 0xB1, 1, 40, 0xED);
    RUN_ERR(&h, FV_E_TT_STACK_UNDERFLOW, 0xB0, 3, 0x17, 0xB0, 1, 0x39);
    h_free(&h);
    /* Non-pedantic: the same faults are ignored as FreeType does. */
    setup(&h, 0);
    RUN(&h, 0x01, 0xB0, 9, 0x2F, 0xB1, 200, 1, 0xED, 0xB1, 1, 40, 0xED);
    assert_int_equal(h.c.pts.cur[1].x, 0);
    h_free(&h);
}

static void test_twilight(void **state)
{
    (void)state;
    harness h;
    setup(&h, 0);
    h.cvt[1] = 200;
    /* SZP0 0; MIAP[0] twilight 1 from cvt 1 along x: org = cur = (200,0) */
    RUN(&h, 0x01, 0xB0, 0, 0x13, 0xB1, 1, 1, 0x3E);
    assert_int_equal(h.c.twilight.org[1].x, 200);
    assert_int_equal(h.c.twilight.cur[1].x, 200);
    h_free(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mdap_miap),
        cmocka_unit_test(test_mdrp_mirp),
        cmocka_unit_test(test_shp_ip_iup),
        cmocka_unit_test(test_deltas),
        cmocka_unit_test(test_vectors_and_measure),
        cmocka_unit_test(test_point_errors),
        cmocka_unit_test(test_twilight),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
