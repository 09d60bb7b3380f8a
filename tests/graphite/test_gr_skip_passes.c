/* Which Graphite passes run and reverse the slot stream, against the real
 * graphite2 (KD-8 of conformance/graphite/KNOWN_DIFFERENCES.md), on Akatab
 * (Debian fonts-sil-akatab: Silf 4.0, left to right, pass 2 has the
 * reverse-direction flag 0x20) and Harmattan (fonts-sil-harmattan: Silf
 * 4.1, right to left, pass 0 flags 0x20, pass 1 has a pass constraint):
 *
 * - a pass whose skip-passes bit is set (the glyph attribute graphite2 ANDs
 *   over the segment's glyphs) does not run and does not reverse, even with
 *   flags 0x20;
 * - a pass that runs reverses only once its pass constraint has held;
 * - the char table keeps the slot indexes of the moment after the
 *   substitution passes.
 *
 * Fonts are patched in memory (a pass's flags byte, a glyph attribute);
 * every expectation below was measured with graphite2 1.3.14. */
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

#define AKATAB "/usr/share/fonts/truetype/akatab/Akatab-Regular.ttf"
#define HARMATTAN "/usr/share/fonts/truetype/harmattan/Harmattan-Regular.ttf"

static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The table `tag` of the font: offset and length, 0 when missing. */
static int find_table(const uint8_t *f, size_t size, const char *tag, uint32_t *off,
                      uint32_t *len)
{
    if (size < 12)
        return 0;
    uint32_t n = be16(f + 4);
    for (uint32_t i = 0; i < n && 12 + 16 * (size_t)(i + 1) <= size; i++) {
        const uint8_t *rec = f + 12 + 16 * i;
        if (memcmp(rec, tag, 4) != 0)
            continue;
        *off = be32(rec + 8);
        *len = be32(rec + 12);
        return *off <= size && *len <= size - *off;
    }
    return 0;
}

/* Sets pass `pass`'s flags byte (first subtable; the Silf table must be
 * stored uncompressed, as in both fonts here). */
static void set_pass_flags(uint8_t *f, size_t size, unsigned pass, uint8_t flags)
{
    uint32_t off, len;
    assert_true(find_table(f, size, "Silf", &off, &len));
    const uint8_t *silf = f + off;
    assert_true(be32(silf) >= 0x30000 && be32(silf) < 0x50000); /* Silf 3/4: not compressed */
    uint32_t sub = be32(silf + 12);
    assert_true(sub + 16 < len);
    assert_true(pass < silf[sub + 14]);
    uint32_t po = sub + be16(silf + sub + 4) + 4 * pass;
    assert_true(po + 4 <= len);
    uint32_t ps = sub + be32(silf + po);
    assert_true(ps < len);
    f[off + ps] = flags;
}

/* Sets glyph attribute `attr` of glyph `gid` in Glat v1-v3 (uncompressed);
 * the glyph's entry must already hold the attribute. */
static void set_glyph_attr(uint8_t *f, size_t size, uint32_t gid, uint32_t attr, int16_t value)
{
    uint32_t goff, glen, loff, llen;
    assert_true(find_table(f, size, "Glat", &goff, &glen));
    assert_true(find_table(f, size, "Gloc", &loff, &llen));
    const uint8_t *glat = f + goff, *gloc = f + loff;
    uint32_t ver = be32(glat);
    int longoff = be16(gloc + 4) & 1;
    assert_true(8 + (gid + 2) * (longoff ? 4u : 2u) <= llen);
    uint32_t o = longoff ? be32(gloc + 8 + 4 * gid) : be16(gloc + 8 + 2 * gid);
    uint32_t e = longoff ? be32(gloc + 12 + 4 * gid) : be16(gloc + 10 + 2 * gid);
    assert_true(o <= e && e <= glen);
    if (ver >= 0x30000) {
        assert_int_equal(be32(glat + 4) >> 27, 0); /* not compressed */
        if (be32(glat + 4) & 1) {                  /* octaboxes: bitmap, diagonals, sub-boxes */
            uint32_t bits = be16(glat + o), k = 0;
            for (; bits; bits &= bits - 1)
                k++;
            o += 6 + 8 * k;
        }
    }
    while (o < e) {
        uint32_t a, n;
        if (ver >= 0x20000) {
            a = be16(glat + o);
            n = be16(glat + o + 2);
            o += 4;
        } else {
            a = glat[o];
            n = glat[o + 1];
            o += 2;
        }
        if (attr >= a && attr < a + n) {
            uint8_t *v = f + goff + o + 2 * (attr - a);
            v[0] = (uint8_t)((uint16_t)value >> 8);
            v[1] = (uint8_t)value;
            return;
        }
        o += 2 * n;
    }
    fail_msg("glyph %u has no attribute %u", gid, attr);
}

typedef struct engines {
    grc_gr2 *g;
    fv_font *vf;
    fv_gr_face *face;
} engines;

static void open_engines(const uint8_t *font, size_t size, engines *e)
{
    char msg[256];
    fv_error err;
    memset(e, 0, sizeof *e);
    e->g = grc_gr2_open(font, size, msg, sizeof msg);
    assert_non_null(e->g);
    assert_int_equal(fv_font_open_memory(font, size, 0, NULL, &e->vf, &err), FV_OK);
    assert_int_equal(fv_gr_face_new(e->vf, &e->face, &err), FV_OK);
}

static void close_engines(engines *e)
{
    fv_gr_face_free(e->face);
    fv_font_close(e->vf);
    grc_gr2_close(e->g);
}

/* Shapes with both engines; asserts the records are identical and that
 * char i's before/after is slot chars[i] and slot 1's glyph is gid1 in
 * both. */
static void expect(engines *e, const uint32_t *text, size_t n, const char *features, int rtl,
                   uint32_t gid1, const int32_t *chars)
{
    grc_features feats;
    char msg[256];
    memset(&feats, 0, sizeof feats);
    assert_int_equal(grc_parse_features(features, &feats, msg, sizeof msg), 0);
    grc_request req = {text, n, &feats, rtl};
    grc_run runs[2];
    assert_int_equal(grc_gr2_shape(e->g, &req, &runs[0]), 0);
    assert_int_equal(grc_fv_shape(e->face, &req, &runs[1]), 0);
    for (int k = 0; k < 2; k++) {
        const grc_run *r = &runs[k];
        assert_true(r->ok);
        assert_int_equal(r->num_chars, n);
        assert_true(r->num_glyphs > 1);
        print_message("%s: slot 1 gid %u, chars", k ? "fontvm" : "graphite2", r->glyphs[1].gid);
        for (size_t i = 0; i < n; i++)
            print_message(" %d/%d", r->chars[i].before, r->chars[i].after);
        print_message("\n");
        assert_int_equal(r->glyphs[1].gid, gid1);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(r->chars[i].before, chars[i]);
            assert_int_equal(r->chars[i].after, chars[i]);
        }
    }
    assert_int_equal(grc_compare_gr(&runs[0], &runs[1]).status, GRC_IDENTICAL);
    grc_run_free(&runs[0]);
    grc_run_free(&runs[1]);
}

static const uint32_t punct[4] = {0x20, 0x21, 0x22, 0x23}; /* glyphs 3 4 5 6 */
static const int32_t forward[4] = {0, 1, 2, 3}, backward[4] = {3, 2, 1, 0};

/* Akatab ` !"#`: the glyphs' skip-passes attribute (1) leaves only pass 1
 * (which substitutes glyph 4 by 515); pass 2 (flags 0x20) is skipped too.
 * Left to right nothing reverses the stream: char i -> slot i (fontvm ran
 * pass 2 regardless of its bit and numbered the reversed stream, char 0 ->
 * slot 3).  Right to left pass 1 reverses the stream into the font's
 * direction and the char table numbers that order: char 0 -> slot 3. */
static void test_akatab_skipped_reverse_pass(void **state)
{
    (void)state;
    size_t size;
    uint8_t *font = test_read_file(AKATAB, &size);
    assert_non_null(font);
    engines e;
    open_engines(font, size, &e);
    expect(&e, punct, 4, "", 0, 515, forward);
    expect(&e, punct, 4, "", 1, 515, backward);
    close_engines(&e);
    free(font);
}

/* Akatab with the flag moved: pass 1 gets flags 0x20, pass 2 none.  With
 * every glyph's skip-passes bits 127 (passes 0-6) graphite2 does not run
 * pass 1 (glyph 4 stays) and does not reverse; with 125 (pass 1 not
 * skipped) pass 1 substitutes and reverses, and the char table numbers the
 * reversed stream.  With 120 (passes 0-2 run) the original pass 2 reverses. */
static void test_skip_bit_wins_over_reverse_flag(void **state)
{
    (void)state;
    size_t size;
    uint8_t *orig = test_read_file(AKATAB, &size);
    assert_non_null(orig);
    static const struct {
        int move_flag;
        int16_t bits;
        uint32_t gid1;
        const int32_t *chars;
    } cases[] = {
        {1, 127, 4, forward}, {1, 125, 515, backward}, {1, 0, 515, forward},
        {0, 125, 515, forward}, {0, 124, 515, forward}, {0, 120, 515, backward},
        {0, 121, 515, backward},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint8_t *font = malloc(size);
        assert_non_null(font);
        memcpy(font, orig, size);
        if (cases[c].move_flag) {
            set_pass_flags(font, size, 1, 0x20);
            set_pass_flags(font, size, 2, 0x00);
        }
        for (uint32_t g = 3; g <= 6; g++)
            set_glyph_attr(font, size, g, 1, cases[c].bits);
        print_message("flag on pass %d, skip bits %d\n", cases[c].move_flag ? 1 : 2,
                      cases[c].bits);
        engines e;
        open_engines(font, size, &e);
        expect(&e, punct, 4, "", 0, cases[c].gid1, cases[c].chars);
        close_engines(&e);
        free(font);
    }
    free(orig);
}

/* Harmattan, right to left, بتث (glyphs 296 316 332): pass 0's flag
 * cleared, pass 1 given flags 0x20, the glyphs' skip-passes bits 253 (only
 * pass 1 runs).  Pass 1's constraint is `feature ut53 == 1` (a hidden
 * feature, default 1): when it holds, pass 1 reverses (char 0 -> slot 2);
 * with ut53=0 the pass does nothing, no reversal either. */
static void test_failed_pass_constraint_does_not_reverse(void **state)
{
    (void)state;
    size_t size;
    uint8_t *font = test_read_file(HARMATTAN, &size);
    assert_non_null(font);
    set_pass_flags(font, size, 0, 0x00);
    set_pass_flags(font, size, 1, 0x20);
    static const uint32_t gids[3] = {296, 316, 332};
    for (size_t i = 0; i < 3; i++)
        set_glyph_attr(font, size, gids[i], 1, 253);
    static const uint32_t text[3] = {0x628, 0x62a, 0x62b};
    static const int32_t fwd[3] = {0, 1, 2}, rev[3] = {2, 1, 0};
    engines e;
    open_engines(font, size, &e);
    expect(&e, text, 3, "", 1, 316, rev);
    expect(&e, text, 3, "ut53=1", 1, 316, rev);
    expect(&e, text, 3, "ut53=0", 1, 316, fwd);
    close_engines(&e);
    free(font);
}

/* Every line of a text file in one direction: whole records identical to
 * graphite2 (*same) and char tables identical (*chars). */
static int count_lines(const char *font_path, const char *file, int rtl, int *same, int *chars)
{
    size_t size;
    uint8_t *font = test_read_file(font_path, &size);
    assert_non_null(font);
    engines e;
    open_engines(font, size, &e);
    FILE *f = test_open_source(file);
    char line[4096];
    uint32_t text[1024];
    grc_features feats;
    memset(&feats, 0, sizeof feats);
    int lines = 0;
    *same = *chars = 0;
    while (fgets(line, sizeof line, f)) {
        size_t len = strcspn(line, "\r\n");
        size_t n = grc_utf8_decode(line, len, text, 1024);
        if (!n)
            continue;
        lines++;
        grc_request req = {text, n, &feats, rtl};
        grc_run ref, fv;
        assert_int_equal(grc_gr2_shape(e.g, &req, &ref), 0);
        assert_int_equal(grc_fv_shape(e.face, &req, &fv), 0);
        *same += grc_compare_gr(&ref, &fv).status == GRC_IDENTICAL;
        int ch = ref.ok && fv.ok && ref.num_chars == fv.num_chars;
        for (size_t i = 0; ch && i < ref.num_chars; i++)
            ch = ref.chars[i].before == fv.chars[i].before &&
                 ref.chars[i].after == fv.chars[i].after;
        *chars += ch;
        grc_run_free(&ref);
        grc_run_free(&fv);
    }
    fclose(f);
    close_engines(&e);
    free(font);
    print_message("%s %s: %d lines, %d identical, %d with the same char table\n", file,
                  rtl ? "rtl" : "ltr", lines, *same, *chars);
    return lines;
}

/* Akatab's generated lines (cmap runs, bases with marks, words): every
 * record identical in both directions (before the fix 275 and 487 of
 * 506). */
static void test_akatab_lines(void **state)
{
    (void)state;
    for (int rtl = 0; rtl < 2; rtl++) {
        int same, chars;
        int lines = count_lines(AKATAB, "tests/graphite/akatab_lines.txt", rtl, &same, &chars);
        assert_int_equal(lines, 506);
        assert_int_equal(same, lines);
        assert_int_equal(chars, lines);
    }
}

/* Harmattan's generated lines: every char table identical in both
 * directions (before the fix, right to left, 29 lines differed first in
 * the char table).  Positions may still differ (kerning, not this test's
 * subject). */
static void test_harmattan_char_tables(void **state)
{
    (void)state;
    for (int rtl = 0; rtl < 2; rtl++) {
        int same, chars;
        int lines =
            count_lines(HARMATTAN, "tests/graphite/harmattan_lines.txt", rtl, &same, &chars);
        assert_int_equal(lines, 708);
        assert_int_equal(chars, lines);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_akatab_skipped_reverse_pass),
        cmocka_unit_test(test_skip_bit_wins_over_reverse_flag),
        cmocka_unit_test(test_failed_pass_constraint_does_not_reverse),
        cmocka_unit_test(test_akatab_lines),
        cmocka_unit_test(test_harmattan_char_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
