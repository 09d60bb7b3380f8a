/* How often prep runs, against FreeType 2.12.1 (tt_diff findings F-3 and
 * F-17): a size's first prep run sees a fresh execution context (subpixel
 * lean, grayscale ClearType and v35 grayscale off), and the first glyph
 * load re-runs prep with its own flags, keeping storage and twilight — so
 * prep runs twice in v35, v40 and v40-lcd, once in v40-mono, a failing
 * second run fails the size, and the second run starts from the graphics
 * state the first left (F-20), so a round state set at the end of prep
 * can make the second run fail (F-21).  Every case is hinted by fontvm
 * and by the real FreeType, and both must agree. */
#include "synth_diff.h"

enum { SVTCA_Y = 0x00, SRP0 = 0x10, SZPS = 0x16, RTG = 0x18, RTHG = 0x19, SMD = 0x1A,
       CALL = 0x2B, FDEF = 0x2C, ENDF = 0x2D, WCVTP = 0x44, RCVT = 0x45, GC0 = 0x46, IF = 0x58,
       EIF = 0x59, SDB = 0x5E, RS = 0x43, WS = 0x42, ADD = 0x60, SUB = 0x61, SCFS = 0x48,
       ROUND0 = 0x68, ROUND2 = 0x6A, DELTAC1 = 0x73, SROUND = 0x76, GETINFO = 0x88,
       MDRP_MIN = 0xC8 };

static const fv_tt_mode all_modes[] = {FV_TT_V35, FV_TT_V40, FV_TT_V40_MONO, FV_TT_V40_LCD};

/* prep: storage[0] += GETINFO(grayscale) + 64 per run; the glyph program
 * sets point 1's y to storage[0]. */
static void test_runs_and_grayscale(void **state)
{
    (void)state;
    sd_code prep = {0}, glyph = {0};
    sd_push(&prep, 0);
    sd_push(&prep, 0);
    sd_op(&prep, RS);
    sd_push(&prep, 32); /* GETINFO selector: grayscale (result 4096) */
    sd_op(&prep, GETINFO);
    sd_op(&prep, ADD);
    sd_push(&prep, 64);
    sd_op(&prep, ADD);
    sd_op(&prep, WS);
    sd_op(&glyph, SVTCA_Y);
    sd_push(&glyph, 1);
    sd_push(&glyph, 0);
    sd_op(&glyph, RS);
    sd_op(&glyph, SCFS);
    fvsynth_tt p = sd_font();
    p.prep = prep.b, p.prep_len = prep.len;
    p.glyph_code = glyph.b, p.glyph_code_len = glyph.len;
    /* v35: the first run sees grayscale off, the second on. */
    static const int32_t want[4] = {4096 + 128, 128, 64, 128};
    for (int m = 0; m < 4; m++) {
        sd_result r;
        sd_run(&p, 12, all_modes[m], 0, 0, &r);
        SD_ASSERT_IDENTICAL(&r);
        assert_int_equal(r.fv.y[1], want[m]);
        sd_free(&r);
    }
}

/* prep fails only when storage[0] is already set: on its second run. */
static void test_failing_second_run(void **state)
{
    (void)state;
    static const uint8_t prep[] = {
        0xB0, 0x00, RS, IF, 0x93 /* undefined opcode */, EIF, 0xB1, 0x00, 0x01, WS,
    };
    fvsynth_tt p = sd_font();
    p.prep = prep, p.prep_len = sizeof prep;
    static const uint32_t gids[] = {0, 0};
    for (int m = 0; m < 4; m++) {
        sd_result r[2];
        sd_run_seq(&p, 12, all_modes[m], 0, gids, 2, r);
        for (int i = 0; i < 2; i++) {
            if (all_modes[m] == FV_TT_V40_MONO)
                SD_ASSERT_IDENTICAL(&r[i]);
            else
                SD_ASSERT_BOTH_FAIL(&r[i], "prep@4:UNDEF_0x93");
            sd_free(&r[i]);
        }
    }
}

/* prep first stores what three parts of the graphics state do — storage[0]
 * = ROUND(40), storage[1] = MDRP[min] of twilight point 1 from a distance
 * of 0, storage[2] = DELTAC1 at ppem 12 with the default delta base on a
 * zeroed CVT entry — then sets SROUND (period 1 px, phase 1/4, threshold
 * 11/8), SMD 100 and SDB 12.  The glyph program copies storage[0..2] into
 * the y of points 1..3: the second run saw the state the first left. */
static void test_second_run_graphics_state(void **state)
{
    (void)state;
    sd_code prep = {0}, glyph = {0};
    sd_push(&prep, 0);
    sd_push_op(&prep, 40, ROUND0);
    sd_op(&prep, WS);
    sd_push(&prep, 1);
    sd_push_op(&prep, 0, SZPS); /* every zone pointer on the twilight zone */
    sd_push_op(&prep, 0, SRP0);
    sd_push_op(&prep, 1, MDRP_MIN);
    sd_push_op(&prep, 1, GC0);
    sd_push_op(&prep, 0, GC0);
    sd_op(&prep, SUB);
    sd_op(&prep, WS);
    sd_push(&prep, 2);
    sd_push(&prep, 0);
    sd_push_op(&prep, 0, WCVTP);
    sd_push(&prep, 0x37); /* ppem 9 + 3, step -1 (-8/64 at shift 3) */
    sd_push(&prep, 0);
    sd_push_op(&prep, 1, DELTAC1);
    sd_push_op(&prep, 0, RCVT);
    sd_op(&prep, WS);
    sd_push_op(&prep, 0x5F, SROUND);
    sd_push_op(&prep, 100, SMD);
    sd_push_op(&prep, 12, SDB);
    sd_op(&glyph, SVTCA_Y);
    for (int k = 0; k < 3; k++) {
        sd_push(&glyph, 1 + k);
        sd_push_op(&glyph, k, RS);
        sd_op(&glyph, SCFS);
    }
    fvsynth_tt p = sd_font();
    p.prep = prep.b, p.prep_len = prep.len;
    p.glyph_code = glyph.b, p.glyph_code_len = glyph.len;
    for (int m = 0; m < 4; m++) {
        sd_result r;
        sd_run(&p, 12, all_modes[m], 0, 0, &r);
        SD_ASSERT_IDENTICAL(&r);
        if (all_modes[m] == FV_TT_V40_MONO) { /* one run, default state */
            assert_int_equal(r.fv.y[1], 64);
            assert_int_equal(r.fv.y[2], 64);
            assert_int_equal(r.fv.y[3], -8);
        } else { /* (40 + 88 - 16) floored, + 16; SMD 100; no delta at 12 + 3 */
            assert_int_equal(r.fv.y[1], 80);
            assert_int_equal(r.fv.y[2], 100);
            assert_int_equal(r.fv.y[3], 0);
        }
        sd_free(&r);
    }
}

/* tt_diff F-21, minimised: fpgm `FDEF ENDF` on an empty stack defines an
 * empty function 0; prep `ROUND[10] CALL RTHG` rounds the missing argument
 * (0) and calls that function.  The first run rounds with RTG (0: CALL 0)
 * and ends in RTHG; the second run starts in RTHG, so ROUND gives 32 and
 * CALL 32 fails (FreeType: Invalid_Reference): every load fails in v35,
 * v40 and v40-lcd.  Set back to RTG before prep ends, both runs call 0. */
static void test_second_run_carried_round_state(void **state)
{
    (void)state;
    static const uint8_t fpgm[] = {FDEF, ENDF};
    static const uint8_t prep_rthg[] = {ROUND2, CALL, RTHG};
    static const uint8_t prep_rtg[] = {ROUND2, CALL, RTHG, RTG};
    fvsynth_tt p = sd_font();
    p.fpgm = fpgm, p.fpgm_len = sizeof fpgm;
    for (int m = 0; m < 4; m++) {
        sd_result r;
        p.prep = prep_rthg, p.prep_len = sizeof prep_rthg;
        sd_run(&p, 11, all_modes[m], 0, 0, &r);
        if (all_modes[m] == FV_TT_V40_MONO) /* one run */
            SD_ASSERT_IDENTICAL(&r);
        else
            SD_ASSERT_BOTH_FAIL(&r, "prep@1:CALL: invalid function 32");
        sd_free(&r);
        p.prep = prep_rtg, p.prep_len = sizeof prep_rtg;
        sd_run(&p, 11, all_modes[m], 0, 0, &r);
        SD_ASSERT_IDENTICAL(&r);
        sd_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_and_grayscale),
        cmocka_unit_test(test_failing_second_run),
        cmocka_unit_test(test_second_run_graphics_state),
        cmocka_unit_test(test_second_run_carried_round_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
