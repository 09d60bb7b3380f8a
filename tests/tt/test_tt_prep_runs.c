/* How often prep runs, against FreeType 2.12.1 (tt_diff findings F-3 and
 * F-17): a size's first prep run sees a fresh execution context (subpixel
 * lean, grayscale ClearType and v35 grayscale off), and the first glyph
 * load re-runs prep with its own flags, keeping storage and twilight — so
 * prep runs twice in v35, v40 and v40-lcd, once in v40-mono, and a failing
 * second run fails the size.  Every case is hinted by fontvm and by the real
 * FreeType, and both must agree. */
#include "synth_diff.h"

enum { SVTCA_Y = 0x00, IF = 0x58, EIF = 0x59, RS = 0x43, WS = 0x42, ADD = 0x60, SCFS = 0x48,
       GETINFO = 0x88 };

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_and_grayscale),
        cmocka_unit_test(test_failing_second_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
