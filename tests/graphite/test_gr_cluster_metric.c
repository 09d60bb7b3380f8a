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

#include "fontvm/fontvm.h"
#include "fontvm/graphite.h"
#include "gr_compare.h"
#include "test_support.h"

typedef struct fixture {
    unsigned char *font;
    size_t size;
    grc_gr2 *g;
    fv_font *vf;
    fv_gr_face *face;
} fixture;

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    char path[1024], msg[256];
    fv_error err;
    if (!fx)
        return -1;
    test_source_path(path, sizeof path, TEST_PEER_GRAPHITE2 "/fonts/charis_r_gr.ttf");
    fx->font = test_read_file(path, &fx->size);
    if (!fx->font)
        return -1;
    fx->g = grc_gr2_open(fx->font, fx->size, msg, sizeof msg);
    if (!fx->g || fv_font_open_memory(fx->font, fx->size, 0, NULL, &fx->vf, &err) != FV_OK ||
        fv_gr_face_new(fx->vf, &fx->face, &err) != FV_OK)
        return -1;
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    fv_gr_face_free(fx->face);
    fv_font_close(fx->vf);
    grc_gr2_close(fx->g);
    free(fx->font);
    free(fx);
    return 0;
}

/* 1 when graphite2 and fontvm give the same record (glyphs, positions
 * within 1/64 unit, advance, chars); right to left. */
static int identical_rtl(fixture *fx, const uint32_t *text, size_t n)
{
    grc_features feats;
    memset(&feats, 0, sizeof feats);
    grc_request req = {text, n, &feats, 1};
    grc_run ref, fv;
    if (grc_shape_both(fx->g, fx->face, &req, &ref, &fv) != 0)
        return 0;
    int same = grc_compare_gr(&ref, &fv).status == GRC_IDENTICAL;
    grc_run_free(&ref);
    grc_run_free(&fv);
    return same;
}

static void test_shifted_double_diacritic(void **state)
{
    fixture *fx = *state;
    /* graphite2 1.3.14: U+0361 (gid 2650) at x 777, fontvm before 949 */
    static const uint32_t text[] = {0x410, 0x4c6, 0x1dcd, 0x361};
    assert_true(identical_rtl(fx, text, 4));
}

static void test_generated_lines(void **state)
{
    fixture *fx = *state;
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
