/* Advances of glyphs past hmtx's long metrics, against the real graphite2:
 * KD-21 of conformance/graphite/KNOWN_DIFFERENCES.md.  graphite2 gives such
 * a glyph advance 0 unless its side bearing ends strictly before the end
 * of hmtx, so the last glyph of an hmtx of exactly the right size has no
 * advance (Debian's Andika New Basic: nine.Diag with dg69=1).
 *
 * - charis_r_gr from graphite2's own test fonts, copied in memory with
 *   hhea.numberOfHMetrics set to the glyph of 'a' and the hmtx record's
 *   length set so that a's side bearing ends 2 bytes before, at, and 1 or 2
 *   bytes past the end of the table: 'a', "ab" and "ba" in both directions,
 *   whole records identical to graphite2's and its advances pinned;
 * - AndikaNewBasic-R (fonts-sil-andikanewbasic, the --extended set) with
 *   dg69=1 when it is installed: "9" and "459" identical, advance 0.
 *
 * Every expectation was measured with graphite2 1.3.14. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gr_engines.h"

#define ANDIKA "/usr/share/fonts/truetype/andikanewbasic/AndikaNewBasic-R.ttf"

static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (24 - 8 * i));
}

/* The directory record of table `tag` (its offset and length fields). */
static uint8_t *table_record(uint8_t *f, size_t size, const char *tag)
{
    assert_true(size >= 12);
    uint32_t n = be16(f + 4);
    for (uint32_t i = 0; i < n && 12 + 16 * (size_t)(i + 1) <= size; i++)
        if (memcmp(f + 12 + 16 * i, tag, 4) == 0)
            return f + 12 + 16 * i;
    fail_msg("no %s table", tag);
    return NULL;
}

/* Shapes `codes` with both engines on a copy of `font` (features "dg69=1"
 * when `dg69`); asserts both succeed and agree on the whole record, and
 * returns graphite2's run (the caller frees it). */
static grc_run shape_font(const uint8_t *font, size_t size, const uint32_t *codes, size_t n,
                          int rtl, int dg69)
{
    char msg[256];
    unsigned char *copy = malloc(size);
    assert_non_null(copy);
    memcpy(copy, font, size);
    engines e;
    assert_int_equal(engines_open(&e, copy, size), 0);
    grc_features feats;
    memset(&feats, 0, sizeof feats);
    if (dg69)
        assert_int_equal(grc_parse_features("dg69=1", &feats, msg, sizeof msg), 0);
    grc_request req = {codes, n, &feats, rtl};
    grc_run ref, fv;
    assert_int_equal(grc_shape_both(e.g, e.face, &req, &ref, &fv), 0);
    assert_true(ref.ok && fv.ok);
    print_message("%s %zu chars: graphite2 adv %g, fontvm adv %g\n", rtl ? "rtl" : "ltr", n,
                  ref.advance_x, fv.advance_x);
    assert_int_equal(grc_compare_gr(&ref, &fv).status, GRC_IDENTICAL);
    grc_run_free(&fv);
    engines_close(&e);
    return ref;
}

static void test_bearing_at_the_end(void **state)
{
    (void)state;
    char path[1024];
    test_source_path(path, sizeof path, "corpus/peer/graphite2/fonts/charis_r_gr.ttf");
    size_t size;
    uint8_t *font = test_read_file(path, &size);
    assert_non_null(font);
    static const uint32_t a[1] = {'a'}, ab[2] = {'a', 'b'}, ba[2] = {'b', 'a'};
    grc_run r = shape_font(font, size, a, 1, 0, 0);
    uint32_t gid_a = r.glyphs[0].gid;
    grc_run_free(&r);
    assert_true(gid_a > 1);
    /* advance of glyph gid_a - 1, the last long metric once a is short */
    uint8_t *hmtx = table_record(font, size, "hmtx"), *hhea = table_record(font, size, "hhea");
    uint32_t hmtx_off = be32(hmtx + 8), hhea_off = be32(hhea + 8);
    assert_true(hhea_off + 36 <= size && hmtx_off + 4 * (size_t)gid_a + 2 <= size);
    float last_long = (float)be16(font + hmtx_off + 4 * (gid_a - 1));
    put16(font + hhea_off + 34, gid_a);
    for (uint32_t extra = 0; extra <= 4; extra++) {
        /* a's side bearing is bytes 4*gid_a .. 4*gid_a + 2 */
        put32(hmtx + 12, 4 * gid_a + extra);
        print_message("hmtx of %u bytes: a's bearing ends %d bytes before its end\n",
                      4 * gid_a + extra, (int)extra - 2);
        for (int rtl = 0; rtl < 2; rtl++) {
            r = shape_font(font, size, a, 1, rtl, 0);
            assert_true(r.advance_x == (extra >= 3 ? last_long : 0.f));
            grc_run_free(&r);
            r = shape_font(font, size, ab, 2, rtl, 0);
            grc_run_free(&r);
            r = shape_font(font, size, ba, 2, rtl, 0);
            grc_run_free(&r);
        }
    }
    free(font);
}

static void test_andika_last_glyph(void **state)
{
    (void)state;
    size_t size;
    uint8_t *font = test_read_file(ANDIKA, &size);
    if (!font) {
        print_message("skipped: %s absent (package fonts-sil-andikanewbasic)\n", ANDIKA);
        skip();
    }
    static const uint32_t nine[1] = {'9'}, four_five_nine[3] = {'4', '5', '9'};
    grc_run r = shape_font(font, size, nine, 1, 0, 1);
    assert_int_equal(r.num_glyphs, 1);
    assert_int_equal(r.glyphs[0].gid, 926); /* nine.Diag, the last glyph */
    assert_true(r.advance_x == 0.f);
    grc_run_free(&r);
    r = shape_font(font, size, four_five_nine, 3, 0, 1);
    assert_true(r.advance_x == 2400.f); /* 4 and 5: 1200 each */
    grc_run_free(&r);
    free(font);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bearing_at_the_end),
        cmocka_unit_test(test_andika_last_glyph),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
