/* Harmattan (Debian fonts-sil-harmattan) against the real graphite2: a
 * Silf 4.1 font whose only collision pass, pass 7, has no rules, two shift
 * rounds and kerning (flags 0x0a), and which every glyph's skip-pass
 * attribute marks as skippable (KD-9 in
 * conformance/graphite/KNOWN_DIFFERENCES.md).
 *
 * - the kerned reh and zain of حخدذرزسش, both directions, pinned to
 *   graphite2's fractional positions;
 * - copies of the font whose glyphs all mark every pass skippable, with
 *   pass 6's flags rewritten: graphite2 runs the pass (its rules set the
 *   kerning limits) only when the flags ask for collision shift rounds,
 *   and fontvm must do the same;
 * - every line of harmattan_lines.txt (the font's cmap in runs, bases with
 *   marks, random words), arabic.txt and urdu.txt, Regular and Bold, in
 *   both directions: glyphs and positions identical. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gr_engines.h"
#include "graphite/grv.h"

#define HARMATTAN_DIR "/usr/share/fonts/truetype/harmattan/"
#define HARMATTAN_LINES 708

static const uint32_t hah_to_sheen[] = {0x62d, 0x62e, 0x62f, 0x630, 0x631, 0x632, 0x633, 0x634};

/* graphite2 1.3.14's x of each slot of حخدذرزسش (gr_slot_origin_X). */
static void check_hah_to_sheen(engines *e, int dir, const double *want)
{
    grc_run ref, fv;
    assert_int_equal(shape_both(e, hah_to_sheen, 8, dir, &ref, &fv), 0);
    assert_int_equal(ref.num_glyphs, 8);
    for (size_t i = 0; i < 8; i++) {
        print_message("dir %d slot %zu gid %u: graphite2 x %.2f, fontvm x %.2f\n", dir, i,
                      ref.glyphs[i].gid, ref.glyphs[i].x, fv.glyphs[i].x);
        assert_true(fabs(ref.glyphs[i].x - want[i]) < 0.01);
    }
    assert_true(grc_same_positions(&ref, &fv));
    grc_run_free(&ref);
    grc_run_free(&fv);
}

/* The reh (gid 565) and the zain are kerned by pass 7 within the limits
 * pass 6's rule 5 gives them (-1000..1000); before KD-9 fontvm skipped
 * pass 7 and placed the right-to-left slot 0 at 6839, graphite2 at
 * 6700.24. */
static void test_kerned_reh_and_zain(void **state)
{
    (void)state;
    engines e;
    assert_int_equal(engines_open_file(&e, HARMATTAN_DIR "Harmattan-Regular.ttf"), 0);
    /* the font as KD-9 describes it */
    const grv_silf *silf = &e.face->silf;
    assert_int_equal(silf->num_passes, 8);
    assert_int_equal(silf->attr_skip_passes, 1);
    assert_int_equal(silf->passes[7].flags, 0x0a);
    assert_int_equal(silf->passes[7].num_rules, 0);
    static const double rtl[8] = {6700.24, 5751.24, 4879.24, 4113.24,
                                  3558.24, 2950.65, 1915, 0};
    static const double ltr[8] = {0, 1028, 2076, 2842, 3412.41, 4032.81, 4728.81, 6083.81};
    check_hah_to_sheen(&e, 1, rtl);
    check_hah_to_sheen(&e, 0, ltr);
    engines_close(&e);
}

static uint32_t be16(const unsigned char *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Offset and length of table `tag`, 0 when absent or out of the file. */
static int find_table(const unsigned char *f, size_t size, const char *tag, uint32_t *off,
                      uint32_t *len)
{
    if (size < 12)
        return 0;
    uint32_t ntab = be16(f + 4);
    for (uint32_t t = 0; t < ntab && 12 + 16 * (size_t)(t + 1) <= size; t++) {
        const unsigned char *rec = f + 12 + 16 * t;
        if (memcmp(rec, tag, 4) != 0)
            continue;
        *off = be32(rec + 8);
        *len = be32(rec + 12);
        return *off <= size && *len <= size - *off;
    }
    return 0;
}

/* A copy of the font where every glyph that stores glyph attribute `attr`
 * has it set to `value`, and pass `pass`'s flags byte is `flags`.  Both
 * tables are patched in place (Harmattan's Glat v3 and Silf v4 are
 * uncompressed).  NULL when the tables are not as expected. */
static unsigned char *patched_copy(const engines *e, unsigned attr, int16_t value,
                                   unsigned pass, uint8_t flags)
{
    uint32_t glat, glat_len, gloc, gloc_len, silf, silf_len;
    if (!find_table(e->font, e->size, "Glat", &glat, &glat_len) ||
        !find_table(e->font, e->size, "Gloc", &gloc, &gloc_len) ||
        !find_table(e->font, e->size, "Silf", &silf, &silf_len) || glat_len < 8 ||
        gloc_len < 8 || silf_len < 16)
        return NULL;
    unsigned char *out = malloc(e->size);
    if (!out)
        return NULL;
    memcpy(out, e->font, e->size);
    unsigned char *gt = out + glat, *lc = out + gloc, *st = out + silf;
    /* Glat v3, not compressed; bit 0 of its flags: octaboxes */
    if (be32(gt) != 0x00030000u || (be32(gt + 4) >> 27) != 0)
        goto bad;
    int octa = be32(gt + 4) & 1;
    int wide = be16(lc + 4) & 1;
    uint32_t nloc = (gloc_len - 8) / (wide ? 4 : 2);
    for (uint32_t g = 0; g + 1 < nloc; g++) {
        uint32_t p = wide ? be32(lc + 8 + 4 * g) : be16(lc + 8 + 2 * g);
        uint32_t end = wide ? be32(lc + 12 + 4 * g) : be16(lc + 10 + 2 * g);
        if (end > glat_len || p > end)
            goto bad;
        if (octa) {
            if (p + 6 > end)
                goto bad;
            unsigned subs = 0;
            for (uint32_t bm = be16(gt + p); bm; bm &= bm - 1)
                subs++;
            p += 6 + 8 * subs;
        }
        while (p + 4 <= end) {
            uint32_t first = be16(gt + p), count = be16(gt + p + 2);
            p += 4;
            if (p + 2 * count > end)
                goto bad;
            if (attr >= first && attr < first + count) {
                gt[p + 2 * (attr - first)] = (unsigned char)((uint16_t)value >> 8);
                gt[p + 2 * (attr - first) + 1] = (unsigned char)value;
            }
            p += 2 * count;
        }
    }
    /* Silf v4: the first subtable; its passOffset (+4) locates the pass
     * offsets, numPasses is at +14 */
    uint32_t sub = be32(st + 12);
    if (sub > silf_len - 16 || pass >= st[sub + 14])
        goto bad;
    uint32_t po = sub + be16(st + sub + 4) + 4 * pass;
    if (po > silf_len - 4 || sub + be32(st + po) >= silf_len)
        goto bad;
    st[sub + be32(st + po)] = flags;
    return out;
bad:
    free(out);
    return NULL;
}

/* KD-9: every glyph marks pass 7 (collision only, no rules) skippable, and
 * graphite2 kerns there all the same.  With a copy whose glyphs mark every
 * pass skippable, graphite2 still runs pass 6 (whose rule 5 gives the reh
 * and zain their kerning limits, so the kern shows) when pass 6's flags
 * ask for shift rounds (bits 0-2), and skips it otherwise: kerning bits
 * (3-4) or other bits do not make it run.  fontvm must agree. */
static void test_collision_passes_ignore_skip_bits(void **state)
{
    (void)state;
    static const struct { uint8_t flags; int runs; } cases[] = {
        {0x01, 1}, {0x02, 1}, {0x04, 1}, {0x00, 0},
        {0x08, 0}, {0x10, 0}, {0x18, 0}, {0x40, 0}, {0x80, 0},
    };
    engines orig;
    assert_int_equal(engines_open_file(&orig, HARMATTAN_DIR "Harmattan-Regular.ttf"), 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned char *font = patched_copy(&orig, 1, 0xff, 6, cases[i].flags);
        assert_non_null(font);
        engines e;
        assert_int_equal(engines_open(&e, font, orig.size), 0);
        assert_int_equal(e.face->silf.passes[6].flags, cases[i].flags);
        grc_run ref, fv;
        assert_int_equal(shape_both(&e, hah_to_sheen, 8, 0, &ref, &fv), 0);
        assert_int_equal(ref.num_glyphs, 8);
        /* unkerned, the reh (slot 4) is at 3640: every pass skipped but
         * the collision pass 7, no limits, no kern */
        print_message("pass 6 flags 0x%02x: reh at %.2f in graphite2, %.2f in fontvm\n",
                      cases[i].flags, ref.glyphs[4].x, fv.glyphs[4].x);
        assert_int_equal(ref.glyphs[4].x < 3600, cases[i].runs);
        assert_true(grc_same_positions(&ref, &fv));
        grc_run_free(&ref);
        grc_run_free(&fv);
        engines_close(&e);
    }
    engines_close(&orig);
}

/* Lines of `file` shaped in direction `dir`: *lines counted, *positions
 * with the same glyphs and positions, *records identical as the runner
 * compares them (also the advance and the per-character table). */
static void count_lines(engines *e, const char *file, int dir, int *lines, int *positions,
                        int *records)
{
    char line[4096];
    uint32_t text[1024];
    FILE *f = test_open_source(file);
    *lines = *positions = *records = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        size_t n = grc_utf8_decode(line, strlen(line), text, 1024);
        if (!n)
            continue;
        (*lines)++;
        grc_run ref, fv;
        if (shape_both(e, text, n, dir, &ref, &fv) != 0)
            continue;
        *positions += grc_same_positions(&ref, &fv);
        *records += grc_compare_gr(&ref, &fv).status == GRC_IDENTICAL;
        grc_run_free(&ref);
        grc_run_free(&fv);
    }
    fclose(f);
}

/* Every line, both fonts, both directions: glyphs and positions identical
 * (before KD-9: harmattan_lines.txt 629 / 708 left to right and 640 / 708
 * right to left, arabic.txt 12 and 10 / 23, urdu.txt 6 and 9 / 18), and
 * the whole record with the per-character table too (32 generated lines
 * right to left differed there until KD-8 was fixed). */
static void test_lines(void **state)
{
    (void)state;
    static const char *const fonts[] = {"Harmattan-Regular.ttf", "Harmattan-Bold.ttf"};
    static const char *const files[] = {"tests/graphite/harmattan_lines.txt",
                                        "corpus/texts/arabic.txt", "corpus/texts/urdu.txt"};
    for (size_t fi = 0; fi < 2; fi++) {
        char path[256];
        snprintf(path, sizeof path, "%s%s", HARMATTAN_DIR, fonts[fi]);
        engines e;
        assert_int_equal(engines_open_file(&e, path), 0);
        for (size_t t = 0; t < 3; t++) {
            for (int dir = 0; dir <= 1; dir++) {
                int lines, positions, records;
                count_lines(&e, files[t], dir, &lines, &positions, &records);
                print_message("%s %s %s: positions %d / %d, records %d / %d\n", fonts[fi],
                              files[t], dir ? "rtl" : "ltr", positions, lines, records, lines);
                if (t == 0)
                    assert_int_equal(lines, HARMATTAN_LINES);
                assert_true(lines > 0);
                assert_int_equal(positions, lines);
                assert_int_equal(records, lines);
            }
        }
        engines_close(&e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kerned_reh_and_zain),
        cmocka_unit_test(test_collision_passes_ignore_skip_bits),
        cmocka_unit_test(test_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
