/* KD-14 (conformance/graphite/KNOWN_DIFFERENCES.md): a cluster metric
 * (PushGlyphMetric with a cluster level) starts from the base glyph's own
 * box at the cluster's origin, before its shift.  charis_r_gr shaped right
 * to left (against the font's direction) reads the width of a shifted
 * double diacritic this way; against the real graphite2: the reproducer,
 * then the three generated lines (conformance/graphite/gen_texts.py, seed
 * 1) that differed, record for record. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gr_engines.h"

static int setup(void **state)
{
    engines *e = calloc(1, sizeof *e);
    char path[1024];
    if (!e)
        return -1;
    test_source_path(path, sizeof path, TEST_PEER_GRAPHITE2 "/fonts/charis_r_gr.ttf");
    if (engines_open_file(e, path) != 0) {
        free(e);
        return -1;
    }
    *state = e;
    return 0;
}

static int teardown(void **state)
{
    engines_close(*state);
    free(*state);
    return 0;
}

/* 1 when graphite2 and fontvm give the same record (glyphs, positions
 * within 1/64 unit, advance, chars); right to left. */
static int identical_rtl(engines *e, const uint32_t *text, size_t n)
{
    grc_run ref, fv;
    if (shape_both(e, text, n, 1, &ref, &fv) != 0)
        return 0;
    int same = grc_compare_gr(&ref, &fv).status == GRC_IDENTICAL;
    grc_run_free(&ref);
    grc_run_free(&fv);
    return same;
}

static void test_shifted_double_diacritic(void **state)
{
    engines *fx = *state;
    /* graphite2 1.3.14: U+0361 (gid 2650) at x 777, fontvm before 949 */
    static const uint32_t text[] = {0x410, 0x4c6, 0x1dcd, 0x361};
    assert_true(identical_rtl(fx, text, 4));
}

static void test_generated_lines(void **state)
{
    engines *fx = *state;
    char line[4096];
    uint32_t text[1024];
    FILE *f = test_open_source("tests/graphite/charis_metric_lines.txt");
    int lines = 0, same = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        size_t n = grc_utf8_decode(line, strlen(line), text, 1024);
        if (!n)
            continue;
        lines++;
        same += identical_rtl(fx, text, n);
    }
    fclose(f);
    print_message("charis right to left, generated lines identical: %d / %d\n", same, lines);
    assert_int_equal(lines, 3);
    assert_int_equal(same, lines);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shifted_double_diacritic),
        cmocka_unit_test(test_generated_lines),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
