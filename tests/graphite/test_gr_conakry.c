/* Conakry (Debian fonts-evertype-conakry, N'Ko) against the real graphite2:
 * KD-20 of conformance/graphite/KNOWN_DIFFERENCES.md.  The font's Silf
 * direction byte is 3, which graphite2 reads as direction 2: even, so the
 * bidi step treats the font as left to right, but the final positioning
 * takes it as right to left because it is not zero.  Positioning then
 * reverses the stream, keeping non-spacing marks (directionality 16) after
 * their bases, and walks between the swapped ends, so a mark that ends up
 * outside that walk keeps x = 0 and a segment whose walk is empty has
 * advance 0:
 *
 * - the reproducer sequences (a mark after the first base, after a later
 *   base, two marks, a leading mark, a mark after a space or a digit), both
 *   directions, whole records identical and graphite2's values pinned;
 * - copies of the font with the direction byte set to 0..5: the rule
 *   (bidi uses bit 0 of the byte minus 1, positioning whether it is zero)
 *   holds for each, both directions.
 *
 * Skipped when the font is not installed (scripts/lib/packages.txt lists
 * the package).  Every expectation was measured with graphite2 1.3.14. */
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

#define CONAKRY "/usr/share/fonts/truetype/evertype-conakry/Conakry.ttf"

/* hmtx advances, font units (2048 per em) */
#define ADV_A 909
#define ADV_B 1024

static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The file offset of the first Silf subtable's direction byte; Conakry's
 * Silf is version 2 (uncompressed, offsets right after the 8-byte header). */
static size_t direction_offset(const uint8_t *f, size_t size)
{
    assert_true(size >= 12);
    uint32_t n = be16(f + 4);
    for (uint32_t i = 0; i < n && 12 + 16 * (size_t)(i + 1) <= size; i++) {
        const uint8_t *rec = f + 12 + 16 * i;
        if (memcmp(rec, "Silf", 4) != 0)
            continue;
        uint32_t off = be32(rec + 8), len = be32(rec + 12);
        assert_true(off <= size && len <= size - off && len >= 12);
        const uint8_t *silf = f + off;
        assert_int_equal(be32(silf), 0x20000);
        uint32_t sub = be32(silf + 8);
        /* maxGlyphID..attrSkipPasses are 19 bytes, then numJLevels, the
         * levels (8 bytes each), numLigComp (2), numUserDefn, maxCompPerLig */
        assert_true(sub + 20 <= len);
        uint32_t dir = sub + 20 + 8 * (uint32_t)silf[sub + 19] + 4;
        assert_true(dir < len);
        return off + dir;
    }
    fail_msg("no Silf table");
    return 0;
}

/* Shapes `codes` with both engines; asserts both succeed and agree on the
 * whole record, and returns graphite2's run (the caller frees it). */
static grc_run shape_both(const uint8_t *font, size_t size, const uint32_t *codes, size_t n,
                          int rtl)
{
    char msg[256];
    fv_error err;
    fv_font *vf = NULL;
    fv_gr_face *face = NULL;
    grc_gr2 *g = grc_gr2_open(font, size, msg, sizeof msg);
    assert_non_null(g);
    assert_int_equal(fv_font_open_memory(font, size, 0, NULL, &vf, &err), FV_OK);
    assert_int_equal(fv_gr_face_new(vf, &face, &err), FV_OK);
    grc_features feats;
    memset(&feats, 0, sizeof feats);
    grc_request req = {codes, n, &feats, rtl};
    grc_run ref, fv;
    assert_int_equal(grc_gr2_shape(g, &req, &ref), 0);
    assert_int_equal(grc_fv_shape(face, &req, &fv), 0);
    assert_true(ref.ok && fv.ok);
    print_message("%s:", rtl ? "rtl" : "ltr");
    for (size_t i = 0; i < n; i++)
        print_message(" %04X", codes[i]);
    print_message(" | graphite2");
    for (size_t i = 0; i < ref.num_glyphs; i++)
        print_message(" %u@%g", ref.glyphs[i].gid, ref.glyphs[i].x);
    print_message(" adv %g | fontvm", ref.advance_x);
    for (size_t i = 0; i < fv.num_glyphs; i++)
        print_message(" %u@%g", fv.glyphs[i].gid, fv.glyphs[i].x);
    print_message(" adv %g\n", fv.advance_x);
    assert_int_equal(grc_compare_gr(&ref, &fv).status, GRC_IDENTICAL);
    grc_run_free(&fv);
    fv_gr_face_free(face);
    fv_font_close(vf);
    grc_gr2_close(g);
    return ref;
}

/* The font, or the test is skipped with a line saying why. */
static uint8_t *read_font_or_skip(size_t *size)
{
    uint8_t *font = test_read_file(CONAKRY, size);
    if (!font) {
        print_message("skipped: %s absent (package fonts-evertype-conakry)\n", CONAKRY);
        skip();
    }
    return font;
}

typedef struct seq {
    size_t n;
    uint32_t codes[6];
} seq;

/* a b c, space, digit one/two, U+0303 (tildecomb, directionality 16) */
static const seq sequences[] = {
    {3, {0x61, 0x303, 0x62}},
    {4, {0x61, 0x62, 0x303, 0x63}},
    {4, {0x61, 0x303, 0x303, 0x62}},
    {2, {0x303, 0x61}},
    {2, {0x61, 0x303}},
    {1, {0x303}},
    {3, {0x303, 0x61, 0x62}},
    {4, {0x303, 0x61, 0x303, 0x62}},
    {4, {0x61, 0x20, 0x303, 0x62}},
    {3, {0x31, 0x303, 0x32}},
    {2, {0x20, 0x303}},
    {6, {0x61, 0x303, 0x20, 0x303, 0x62, 0x303}},
    {5, {0x7CA, 0x7EB, 0x7CB, 0x20, 0x7CC}}, /* N'Ko letters and a tone mark */
};

/* The reproducer: a~b left to right puts the tilde at 0 with a (fontvm had
 * it at a's advance); right to left only b and the tilde are placed
 * (advance = b's); a trailing or leading mark empties the walk. */
static void test_reproducer(void **state)
{
    (void)state;
    size_t size;
    uint8_t *font = read_font_or_skip(&size);
    static const uint32_t a_tilde_b[3] = {0x61, 0x303, 0x62};
    grc_run r = shape_both(font, size, a_tilde_b, 3, 0);
    assert_int_equal(r.num_glyphs, 3);
    assert_int_equal(r.glyphs[1].gid, 254);
    assert_true(r.glyphs[0].x == 0 && r.glyphs[1].x == 0 && r.glyphs[2].x == ADV_A);
    assert_true(r.advance_x == ADV_A + ADV_B);
    grc_run_free(&r);

    r = shape_both(font, size, a_tilde_b, 3, 1);
    assert_true(r.glyphs[0].x == 0 && r.glyphs[1].x == ADV_B && r.glyphs[2].x == 0);
    assert_true(r.advance_x == ADV_B);
    grc_run_free(&r);

    static const uint32_t a_tilde[2] = {0x61, 0x303}, tilde_a[2] = {0x303, 0x61};
    for (int rtl = 0; rtl < 2; rtl++) {
        r = shape_both(font, size, a_tilde, 2, rtl);
        assert_true(r.advance_x == 0);
        grc_run_free(&r);
        r = shape_both(font, size, tilde_a, 2, rtl);
        assert_true(r.advance_x == 0);
        grc_run_free(&r);
    }
    free(font);
}

/* Every sequence, both directions, on the font and on copies with the
 * direction byte 0..5. */
static void test_direction_byte(void **state)
{
    (void)state;
    size_t size;
    uint8_t *font = read_font_or_skip(&size);
    size_t dir = direction_offset(font, size);
    assert_int_equal(font[dir], 3);
    for (uint8_t d = 0; d <= 5; d++) {
        font[dir] = d;
        print_message("direction byte %u\n", d);
        for (size_t i = 0; i < sizeof sequences / sizeof sequences[0]; i++)
            for (int rtl = 0; rtl < 2; rtl++) {
                grc_run r = shape_both(font, size, sequences[i].codes, sequences[i].n, rtl);
                grc_run_free(&r);
            }
    }
    free(font);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reproducer),
        cmocka_unit_test(test_direction_byte),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
