/* The conformance runner's classification of budget errors (issue 14): a
 * font FreeType 2.12.1 hints (slowly or not) and fontvm refuses with a
 * budget_* error is a "hardening_limit" case, not a failure.  Both engines
 * really run, through the runner's own library (conformance/tt). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tt_bombs.h"
#include "tt_compare.h"

/* Loads `gid` of `font` at 12 ppem v40 with both engines and compares. */
static ttc_status compare_glyph(const uint8_t *font, size_t len, uint32_t gid, ttc_glyph *ref,
                                ttc_glyph *fv_out)
{
    char errbuf[200];
    ttc_ft *ft = NULL;
    ttc_fv *fv = NULL;
    fv_error err;
    assert_int_equal(ttc_ft_open_memory(font, len, 0, &ft, errbuf, sizeof errbuf), 0);
    assert_int_equal(ttc_fv_open_memory(font, len, 0, &fv, &err), 0);
    ttc_size size;
    assert_int_equal(ttc_size_parse("12", &size), 0);
    assert_int_equal(ttc_ft_set_size(ft, &size, FV_TT_V40, 0, errbuf, sizeof errbuf), 0);
    assert_int_equal(ttc_fv_set_size(fv, &size, FV_TT_V40, 0, &err), 0);
    ttc_ft_load(ft, gid, ref);
    ttc_fv_load(fv, gid, fv_out);
    ttc_diff d;
    ttc_status st = ttc_compare(ref, fv_out, &d);
    ttc_fv_close(fv);
    ttc_ft_close(ft);
    return st;
}

/* 45 x 45 references: FreeType hints all 2,025 squares, fontvm stops at
 * 2,048 references. */
static void test_components_are_a_hardening_limit(void **state)
{
    (void)state;
    size_t len;
    uint8_t *font = tb_composite_fanout(45, 2, 0, NULL, &len);
    ttc_glyph ref, fv;
    ttc_glyph_init(&ref);
    ttc_glyph_init(&fv);
    assert_int_equal(compare_glyph(font, len, 3, &ref, &fv), TTC_HARDENING_LIMIT);
    assert_true(ref.loaded);
    assert_int_equal(ref.num_points, 45 * 45 * 4);
    assert_false(fv.loaded);
    assert_true(fv.hardening_limit);
    assert_non_null(strstr(fv.error, "budget components"));
    assert_string_equal(ttc_status_name(TTC_HARDENING_LIMIT), "hardening_limit");
    /* Within the budget both agree. */
    free(font);
    font = tb_composite_fanout(44, 2, 0, NULL, &len);
    assert_int_equal(compare_glyph(font, len, 3, &ref, &fv), TTC_IDENTICAL);
    ttc_glyph_free(&ref);
    ttc_glyph_free(&fv);
    free(font);
}

/* A prep run spent skipping: every load of the size stops at the limit in
 * fontvm; FreeType runs the whole 1,000-call loop and hints the glyph. */
static void test_prep_budget_is_a_hardening_limit(void **state)
{
    (void)state;
    size_t len;
    uint8_t *font = tb_skipped_loopcall(60000, 1000, &len);
    ttc_glyph ref, fv;
    ttc_glyph_init(&ref);
    ttc_glyph_init(&fv);
    assert_int_equal(compare_glyph(font, len, 0, &ref, &fv), TTC_HARDENING_LIMIT);
    assert_non_null(strstr(fv.error, "budget skipped"));
    ttc_glyph_free(&ref);
    ttc_glyph_free(&fv);
    free(font);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_components_are_a_hardening_limit),
        cmocka_unit_test(test_prep_budget_is_a_hardening_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
