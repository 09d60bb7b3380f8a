/* The HarfBuzz side of the Graphite comparison turns a graphite2-style
 * segment into HarfBuzz glyphs, clusters, advances and offsets
 * (conformance/graphite/gr_derive_hb.c).  Applied to graphite2's own
 * segments it must reproduce HarfBuzz's graphite2 shaper exactly, line for
 * line, on the peer fonts and texts (left to right and right to left). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gr_compare.h"
#include "test_support.h"

/* Shapes up to max_lines lines; returns the number of lines checked and
 * fails on the first one whose derivation differs from HarfBuzz. */
static long check_features(const char *font_rel, int font_in_tree, const char *text_rel, int rtl, long max_lines, const char *features)
{
    char fp[1024], tp[1024];
    if (font_in_tree)
        test_source_path(fp, sizeof fp, font_rel);
    else
        snprintf(fp, sizeof fp, "%s", font_rel);
    test_source_path(tp, sizeof tp, text_rel);
    size_t fsize = 0, tsize = 0;
    unsigned char *font = test_read_file(fp, &fsize);
    unsigned char *text = test_read_file(tp, &tsize);
    if (!font || !text) {
        free(font);
        free(text);
        fail_msg("cannot read %s", font ? tp : fp);
    }
    char err[GRC_ERROR_MAX];
    grc_gr2 *g = grc_gr2_open(font, fsize, err, sizeof err);
    grc_hb *h = grc_hb_open(font, fsize, err, sizeof err);
    assert_non_null(g);
    assert_non_null(h);
    uint32_t *cps = malloc(sizeof *cps * 8192);
    assert_non_null(cps);
    grc_features feats;
    assert_int_equal(grc_parse_features(features, &feats, err, sizeof err), 0);
    long lines = 0;
    size_t pos = 0;
    while (pos < tsize && lines < max_lines) {
        size_t end = pos;
        while (end < tsize && text[end] != '\n')
            end++;
        size_t n = grc_utf8_decode((const char *)text + pos, end - pos, cps, 8192);
        grc_request req = {cps, n, &feats, rtl ? 3 : 0};
        grc_run run;
        grc_hb_run ref, derived;
        assert_int_equal(grc_gr2_shape(g, &req, &run), 0);
        assert_int_equal(grc_hb_shape(h, &req, &ref), 0);
        assert_int_equal(grc_derive_hb(&run, &req, &derived), 0);
        grc_diff d = grc_compare_hb(&ref, &derived);
        if (d.status != GRC_IDENTICAL)
            fail_msg("%s line %ld: %s at slot %ld (%s)", text_rel, lines + 1, grc_status_name(d.status),
                     d.slot, d.what);
        grc_run_free(&run);
        grc_hb_run_free(&ref);
        grc_hb_run_free(&derived);
        lines++;
        pos = end + 1;
    }
    free(cps);
    grc_gr2_close(g);
    grc_hb_close(h);
    free(font);
    free(text);
    return lines;
}

static long check(const char *font_rel, int font_in_tree, const char *text_rel,
                  int rtl, long max_lines)
{
    return check_features(font_rel, font_in_tree, text_rel, rtl, max_lines, "");
}

static void test_ltr_peer(void **state)
{
    (void)state;
    assert_int_equal(check(TEST_PEER_GRAPHITE2 "/fonts/Padauk.ttf", 1, TEST_PEER_GRAPHITE2 "/texts/my_HeadwordSyllables.txt", 0, 800), 800);
    assert_int_equal(check(TEST_PEER_GRAPHITE2 "/fonts/charis_r_gr.ttf", 1, TEST_PEER_GRAPHITE2 "/texts/udhr_eng.txt", 0, 100000), 340);
    /* udhr_nep has lines where HarfBuzz's pen runs ahead after a cluster
     * merge; the derivation reproduces that. */
    assert_int_equal(check(TEST_PEER_GRAPHITE2 "/fonts/Annapurnarc2.ttf", 1, TEST_PEER_GRAPHITE2 "/texts/udhr_nep.txt", 0, 100000), 208);
}

static void test_rtl_arabic(void **state)
{
    (void)state;
    assert_int_equal(check(TEST_PEER_GRAPHITE2 "/fonts/Scheherazadegr.ttf", 1, "corpus/texts/arabic.txt", 1, 100000), 23);
    assert_int_equal(check("/usr/share/fonts/truetype/scheherazade/Scheherazade-Regular.ttf", 0, "corpus/texts/arabic.txt", 1, 100000), 23);
}

static void test_other_scripts(void **state)
{
    (void)state;
    assert_int_equal(check("/usr/share/fonts/truetype/abyssinica/AbyssinicaSIL-Regular.ttf", 0, "corpus/texts/ethiopic.txt", 0, 100000), 31);
    assert_int_equal(check("/usr/share/fonts/truetype/padauk/Padauk-Regular.ttf", 0, "corpus/texts/myanmar.txt", 0, 100000), 26);
    assert_int_equal(check("/usr/share/fonts/truetype/annapurna/AnnapurnaSIL-Regular.ttf", 0, "corpus/texts/devanagari_nepali.txt", 0, 100000), 24);
}

/* Padauk's hsln gives slots a vertical advance: HarfBuzz takes it as the
 * glyph's y_advance and moves the y offsets of what follows. */
static void test_vertical_advance(void **state)
{
    (void)state;
    assert_int_equal(check_features(TEST_PEER_GRAPHITE2 "/fonts/Padauk.ttf", 1,
                                    TEST_PEER_GRAPHITE2 "/texts/my_HeadwordSyllables.txt", 0, 100000,
                                    "hsln=1"),
                     3667);
}

/* Awami Nastaliq's collision shifts and kerns are fractional: HarfBuzz
 * truncates (advances as they are made, offsets against the integer pen),
 * where rounding matched 1 of its 41 corpus lines.  Both directions and
 * the collision settings (agca 3 default, 1 kerning only, 0 off), lines
 * and single words. */
static void test_fractional_positions(void **state)
{
    (void)state;
    const char *awami = "/usr/share/fonts/truetype/awami/AwamiNastaliq-Regular.ttf";
    FILE *f = fopen(awami, "rb");
    if (!f)
        skip();
    fclose(f);
    assert_int_equal(check(awami, 0, "corpus/texts/arabic.txt", 1, 100000), 23);
    assert_int_equal(check(awami, 0, "corpus/texts/urdu.txt", 1, 100000), 18);
    assert_int_equal(check(awami, 0, "corpus/texts/arabic.txt", 0, 100000), 23);
    assert_int_equal(check(awami, 0, "corpus/texts/urdu.txt", 0, 100000), 18);
    assert_int_equal(check_features(awami, 0, "corpus/texts/urdu.txt", 1, 100000, "agca=1"), 18);
    assert_int_equal(check_features(awami, 0, "corpus/texts/arabic.txt", 1, 100000, "agca=0"), 23);
    /* One word a line: the first cluster's advance (truncated segment
     * advance less truncated origin) shows on short segments. */
    assert_int_equal(check(awami, 0, "tests/graphite/awami_words.txt", 1, 100000), 327);
    assert_int_equal(check_features(awami, 0, "tests/graphite/awami_words.txt", 1, 100000, "agca=1"), 327);
    assert_int_equal(check(awami, 0, "tests/graphite/awami_words.txt", 0, 100000), 327);
    /* A cluster's advance is truncated after each step is added (an int
     * += float), not step by step: " U+0685 U+030A U+066F" left to right,
     * the space's cluster advance 54 (225 + (54.83 - 225)), not 55; then
     * the 12 generated lines (conformance/graphite/gen_texts.py, seed 1)
     * where the old rule was one unit off. */
    assert_int_equal(check(awami, 0, "tests/graphite/awami_hb_lines.txt", 0, 100000), 13);
    /* An offset is the glyph origin less the pen in single precision, then
     * truncated: U+06B5 28 times left to right (conformance/graphite/
     * gen_odd_texts.py, 2026-11-29): slot 14, graphite2's x a hair above
     * 5966, less the pen 18858 truncates to -12892 as HarfBuzz gives it in
     * float, to -12891 in double. */
    assert_int_equal(check(awami, 0, "tests/graphite/awami_hb_offset_lines.txt", 0, 100000), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ltr_peer),
        cmocka_unit_test(test_rtl_arabic),
        cmocka_unit_test(test_other_scripts),
        cmocka_unit_test(test_vertical_advance),
        cmocka_unit_test(test_fractional_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
