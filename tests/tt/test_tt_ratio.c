/* The CVT stretch at non-square ppem (tt_diff finding F-19).  FreeType
 * 2.12.1 reads a CVT entry at x_ppem != y_ppem as cvt * ratio, the ratio
 * being the length of (x_ratio * pv.x, y_ratio * pv.y), and takes that
 * length from its CORDIC (FT_Hypot, the public FT_Vector_Length), not from
 * the Newton normaliser that SPVTL and friends use: the two differ in the
 * last bit for about 4 in 10 vectors, which moved a MIRP's point by 1/64.
 * The length is checked against FT_Vector_Length directly, and MIRPs along
 * many projection vectors at non-square sizes are hinted by fontvm and by
 * the real FreeType, and both must agree. */
#include "synth_diff.h"

#include <math.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_TRIGONOMETRY_H

#include "tt/gstate.h"

enum { SPVFS = 0x0A, SFVTCA_Y = 0x04, MIRP_PLAIN = 0xE0 };

static void check_length(int64_t x, int64_t y)
{
    FT_Vector v = {(FT_Pos)x, (FT_Pos)y};
    int64_t ref = FT_Vector_Length(&v), got = tt_hypot(x, y);
    if (ref != got)
        fail_msg("length of (%lld, %lld): FreeType %lld, fontvm %lld", (long long)x,
                 (long long)y, (long long)ref, (long long)got);
}

/* Every ratio-sized vector on a grid (both signs, both orders), then
 * components of every magnitude up to 2^30. */
static void test_length(void **state)
{
    (void)state;
    for (int64_t a = -0x20000; a <= 0x20000; a += 97)
        for (int64_t b = -0x20000; b <= 0x20000; b += 4099) {
            check_length(a, b);
            check_length(b, a);
        }
    uint64_t s = 0x9E3779B97F4A7C15u;
    for (int i = 0; i < 200000; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        int64_t x = (int64_t)(s & 0x3FFFFFFF) >> (s >> 32 & 31);
        int64_t y = (int64_t)(s >> 34 & 0x3FFFFFFF) >> (s >> 40 & 31);
        check_length(s >> 62 & 1 ? -x : x, s >> 63 ? -y : y);
    }
    /* The ratio of F-19: x_ratio 93/96 times pv.x 0x2D41, pv.y 0x2D41. */
    assert_int_equal(tt_hypot(44892, 46340), 64519);
}

/* SPVFS (px, py), freedom vector on y, MIRP (no rounding, no minimum
 * distance) of points 1..7 from point 0 by CVT entries 0..3. */
static void mirp_program(sd_code *g, int px, int py)
{
    sd_push(g, px);
    sd_push(g, py);
    sd_op(g, SPVFS);
    sd_op(g, SFVTCA_Y);
    for (int p = 1; p < 8; p++) {
        sd_push(g, p);
        sd_push(g, p % 4);
        sd_op(g, MIRP_PLAIN);
    }
}

static const struct {
    int32_t x, y;
} sizes[] = {{93 * 64, 96 * 64}, {96 * 64, 93 * 64}, {12 * 64, 16 * 64},
             {672, 12 * 64},     {40 * 64, 41 * 64}, {150 * 64, 97 * 64}};

static void test_mirp_stretched(void **state)
{
    (void)state;
    fvsynth_tt p = sd_font();
    p.units_per_em = 1000;
    p.cvt_count = 4;
    const uint32_t gid = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int a = 0; a < 48; a++) {
            /* Directions over the upper half plane, not on an axis. */
            int px = (int)(16384 * cos((a + 0.5) * 3.14159265358979 / 48));
            int py = (int)(16384 * sin((a + 0.5) * 3.14159265358979 / 48));
            sd_code g = {0};
            mirp_program(&g, px, py);
            p.glyph_code = g.b, p.glyph_code_len = g.len;
            fv_tt_mode mode = a % 2 ? FV_TT_V40 : FV_TT_V35;
            sd_result r;
            sd_run_size(&p, sizes[k].x, sizes[k].y, mode, 0, &gid, 1, &r);
            if (r.diff.status != TTC_IDENTICAL)
                fail_msg("%d/64 x %d/64 ppem, SPVFS (%d, %d), %s: %s, point %d y FreeType %d, "
                         "fontvm %d",
                         sizes[k].x, sizes[k].y, px, py, fv_tt_mode_name(mode),
                         ttc_status_name(r.diff.status), r.diff.point, r.diff.ref_xy[1],
                         r.diff.fontvm_xy[1]);
            sd_free(&r);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_length),
        cmocka_unit_test(test_mirp_stretched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
