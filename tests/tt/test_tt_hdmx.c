/* hdmx device widths against FreeType 2.12.1, found by the extended set
 * (scripts/conform --extended): Monlam's Tibetan fonts switch glyph
 * programs off below 20 ppem (prep: INSTCTRL selector 1), and FreeType
 * still takes a hinted load's advance from hdmx there — 8 px where the
 * hinted advance rounds to 7 at 9 ppem, 26,817 v35 cases.  Inhibiting the
 * glyph programs does not make the load unhinted.  And FreeType takes
 * hdmx only when its records are numGlyphs + 2 bytes padded to 4
 * (summersby.ttf's are shorter).  Every case is hinted by
 * fontvm and by the real FreeType, and both must agree. */
#include "synth_diff.h"

enum { INSTCTRL = 0x8E };

static const fv_tt_mode all_modes[] = {FV_TT_V35, FV_TT_V40, FV_TT_V40_MONO, FV_TT_V40_LCD};

/* Hints glyph 0 at 12 ppem in every mode with both engines, which must
 * agree; want_px[m] is the advance in pixels fontvm must give in mode m,
 * or -1 for "not hdmx's 3 px" (the hinted advance). */
static void expect_modes(const fvsynth_tt *p, const int32_t want_px[4])
{
    for (int m = 0; m < 4; m++) {
        sd_result r;
        sd_run(p, 12, all_modes[m], 0, 0, &r);
        SD_ASSERT_IDENTICAL(&r);
        if (want_px[m] >= 0)
            assert_int_equal(r.fv.advance_x, want_px[m] * 64);
        else
            assert_int_not_equal(r.fv.advance_x, 3 * 64);
        sd_free(&r);
    }
}

static fvsynth_tt hdmx_font(uint8_t ppem)
{
    fvsynth_tt p = sd_font();
    p.hdmx_ppem = ppem;
    p.hdmx_width = 3;
    return p;
}

/* hdmx says 3 px at 12 ppem for every glyph: v35 and mono take it, v40 in
 * backward compatibility (subpixel and LCD) does not. */
static const int32_t hdmx_taken[4] = {3, -1, 3, -1};
static const int32_t hdmx_ignored[4] = {-1, -1, -1, -1};

static void test_hdmx_hinted(void **state)
{
    (void)state;
    fvsynth_tt p = hdmx_font(12);
    expect_modes(&p, hdmx_taken);
}

/* prep switches glyph programs off (INSTCTRL selector 1): still hdmx. */
static void test_hdmx_with_glyph_programs_inhibited(void **state)
{
    (void)state;
    static const uint8_t prep_inhibit[] = {0xB1, 0x01, 0x01, INSTCTRL}; /* PUSHB 1 1 */
    fvsynth_tt p = hdmx_font(12);
    p.prep = prep_inhibit, p.prep_len = sizeof prep_inhibit;
    expect_modes(&p, hdmx_taken);
}

/* Another size than hdmx's record: the hinted advance. */
static void test_hdmx_other_ppem(void **state)
{
    (void)state;
    fvsynth_tt p = hdmx_font(13);
    expect_modes(&p, hdmx_ignored);
}

/* A record of another size than numGlyphs + 2 padded to 4 (one glyph:
 * 4 bytes) makes FreeType ignore the table: unpadded (3), longer (5, 8,
 * 12).  What fontvm must then do too. */
static void test_hdmx_record_size(void **state)
{
    (void)state;
    static const uint8_t sizes[] = {3, 5, 8, 12};
    for (size_t k = 0; k < sizeof sizes; k++) {
        fvsynth_tt p = hdmx_font(12);
        p.hdmx_record_size = sizes[k];
        expect_modes(&p, hdmx_ignored);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hdmx_hinted),
        cmocka_unit_test(test_hdmx_with_glyph_programs_inhibited),
        cmocka_unit_test(test_hdmx_other_ppem),
        cmocka_unit_test(test_hdmx_record_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
