/* Collision avoidance and kerning (vm/graphite/collide*.c) against the real
 * graphite2 on Awami Nastaliq (Debian fonts-sil-awami-nastaliq), the corpus
 * font that uses them.
 *
 * - octaboxes: Glat v3 read for every glyph (counts pinned);
 * - kerning (اس: the alef kerned against the seen) and a kern across a
 *   ZWSP (U+0628 U+200B U+0628), exactly as graphite2;
 * - ten kerned digit pairs, exactly as graphite2;
 * - the four words of KD-5 (conformance/graphite/KNOWN_DIFFERENCES.md),
 *   where a glyph of another kerned cluster overlaps the target of a shift
 *   pass and graphite2 leaves it out of the target's neighbours;
 * - every word of awami_words.txt (the Arabic-script words of urdu.txt and
 *   arabic.txt) and every corpus line shaped by both engines: all agree
 *   within 1/64 unit, with the defaults, with the font's feature agca=1
 *   (kerning only) and agca=0 (no collision avoidance);
 * - the same left to right, against the font's direction (KD-7): the five
 *   words that differed, every word and every corpus line;
 * - the generated lines that differed (awami_gen_lines.txt, KD-10: the
 *   shift rounds end when nothing moved; KD-11: the left-down lower band
 *   left of r3x carries the below weight twice; KD-12: an axis whose
 *   limits coincide keeps its one place; KD-22: along x the left-down
 *   below weight goes by where the target lies against the neighbour's
 *   centre; KD-22 and F-35: a diagonal answer goes back to x and y
 *   through the summed other diagonal; a glyph flagged START and END is
 *   a collision range of its own), record for record. */
#include <math.h>
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
#include "graphite/grv.h"
#include "test_support.h"

#define AWAMI "/usr/share/fonts/truetype/awami/AwamiNastaliq-Regular.ttf"
#define AWAMI_WORDS 327

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
    char msg[256];
    fv_error err;
    if (!fx)
        return -1;
    fx->font = test_read_file(AWAMI, &fx->size);
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

/* Shapes `text` with graphite2 and with fontvm; `features` as fvconform-gr
 * --features takes them ("" for none), `dir` graphite2's direction bits (1
 * right to left, the font's own direction; 0 left to right).  Returns 0
 * with both runs filled (the caller frees them), -1 when either engine or
 * the features failed. */
static int shape_both(fixture *fx, const uint32_t *text, size_t n, const char *features, int dir,
                      grc_run *ref, grc_run *fv)
{
    grc_features feats;
    char msg[256];
    memset(&feats, 0, sizeof feats);
    if (features[0] && grc_parse_features(features, &feats, msg, sizeof msg) != 0)
        return -1;
    grc_request req = {text, n, &feats, dir};
    return grc_shape_both(fx->g, fx->face, &req, ref, fv);
}

/* 1 when both engines give the same slots (gid, origin within 1/64). */
static int same_as_graphite2_dir(fixture *fx, const uint32_t *text, size_t n,
                                 const char *features, int dir)
{
    grc_run ref, fv;
    if (shape_both(fx, text, n, features, dir, &ref, &fv) != 0)
        return 0;
    int same = grc_same_positions(&ref, &fv);
    grc_run_free(&ref);
    grc_run_free(&fv);
    return same;
}

static int same_as_graphite2_f(fixture *fx, const uint32_t *text, size_t n, const char *features)
{
    return same_as_graphite2_dir(fx, text, n, features, 1);
}

/* The whole comparison of the conformance runner (glyphs, positions,
 * advance, each slot's chars and the per-character table). */
static int record_identical_dir(fixture *fx, const uint32_t *text, size_t n,
                                const char *features, int dir)
{
    grc_run ref, fv;
    if (shape_both(fx, text, n, features, dir, &ref, &fv) != 0)
        return 0;
    int same = grc_compare_gr(&ref, &fv).status == GRC_IDENTICAL;
    grc_run_free(&ref);
    grc_run_free(&fv);
    return same;
}

static int record_identical(fixture *fx, const uint32_t *text, size_t n, const char *features)
{
    return record_identical_dir(fx, text, n, features, 1);
}

static int same_as_graphite2(fixture *fx, const uint32_t *text, size_t n)
{
    return same_as_graphite2_f(fx, text, n, "");
}

static void test_octaboxes(void **state)
{
    fixture *fx = *state;
    const fv_gr_face *face = fx->face;
    assert_non_null(face->octaboxes);
    uint32_t present = 0, subs = 0;
    for (uint32_t g = 0; g < face->num_glyphs; g++) {
        const grv_octabox *o = &face->octaboxes[g];
        present += o->present;
        subs += o->num_subs;
        assert_true((uint64_t)o->first_sub + o->num_subs <= face->num_subboxes);
        /* edges lie within the glyph's diagonal extent, in order */
        if (o->present && g < face->sfnt->maxp.num_glyphs) {
            const grv_glyph *gl = &face->glyphs[g];
            assert_true(o->sl.si <= o->sl.sa && o->sl.di <= o->sl.da);
            assert_true(o->sl.si >= (float)(gl->x_min + gl->y_min));
            assert_true(o->sl.sa <= (float)(gl->x_max + gl->y_max));
        }
    }
    assert_int_equal(present, 1662);
    assert_int_equal(subs, 5166);
    assert_int_equal(face->num_subboxes, 5166);
}

static void test_shift_and_kern(void **state)
{
    fixture *fx = *state;
    static const uint32_t kern[] = {0x627, 0x633};              /* اس: alef kerned */
    static const uint32_t zwsp[] = {0x628, 0x200b, 0x628};      /* kern across ZWSP */
    assert_true(same_as_graphite2(fx, kern, 2));
    assert_true(same_as_graphite2(fx, zwsp, 3));
}

/* Kerning of two digits: graphite2's kerns here are fractional (42.965,
 * 19.537, -97.498, ...) and pin down how a slice's edge is taken from the
 * diagonal bounds (collide_kern.c slice_edge_right/slice_edge_left); alef +
 * zain (163) and meem + zheh + dal (303.455) pin the octabox case (a glyph
 * without sub-boxes on either side). */
static void test_kern_digit_pairs(void **state)
{
    fixture *fx = *state;
    static const uint32_t pairs[][2] = {
        {0x664, 0x665}, {0x665, 0x664}, {0x667, 0x668}, {0x668, 0x669}, {0x661, 0x662},
        {0x662, 0x663}, {0x6f2, 0x6f0}, {0x6f0, 0x6f2}, {0x6f4, 0x6f5}, {0x663, 0x664},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        if (!same_as_graphite2(fx, pairs[i], 2))
            fail_msg("digits U+%04X U+%04X differ from graphite2", (unsigned)pairs[i][0],
                     (unsigned)pairs[i][1]);
    }
    static const uint32_t alef_zain[] = {0x627, 0x632};
    static const uint32_t meem_zheh[] = {0x645, 0x698, 0x62f, 0x647};
    assert_true(same_as_graphite2_f(fx, alef_zain, 2, "agca=1"));
    assert_true(same_as_graphite2_f(fx, meem_zheh, 4, "agca=1"));
    /* the kerned cluster's own marks do not widen the slices' range */
    static const uint32_t alef_kasra[] = {0x625, 0x650, 0x64a, 0x627};
    static const uint32_t al_ikha[] = {0x627, 0x644, 0x625, 0x62e, 0x627, 0x621, 0x2e};
    assert_true(same_as_graphite2_f(fx, alef_kasra, 4, "agca=1"));
    assert_true(same_as_graphite2_f(fx, al_ikha, 7, "agca=1"));
    /* a diagonal move costs its Euclidean distance: the noon's dot moves
     * along x+y (-7.53, 31.39) rather than straight up (0, 38.92) */
    static const uint32_t nuqs[] = {0x646, 0x642, 0x634};
    assert_true(same_as_graphite2_f(fx, nuqs, 3, "agca=1"));
    /* sequence order left-down (collision.seq.*): the dots of U+0686 stay
     * where they are below the dot of U+0628; U+06CC's dots likewise */
    static const uint32_t bachcha[] = {0x628, 0x686, 0x6c1};
    static const uint32_t bayt[] = {0x628, 0x6cc, 0x62a};
    assert_true(same_as_graphite2(fx, bachcha, 3));
    assert_true(same_as_graphite2(fx, bayt, 3));
}

/* KD-5: in a shift pass a glyph of another kerned cluster is not a
 * neighbour of the target, before it or after it.  In each word the target
 * (a mark or dots) overlaps such a glyph by a few units along a diagonal
 * (in مژده the zheh's dots overlap the dal's top sub-box by 14 units along
 * x+y); graphite2 leaves the target where it is, and so must fontvm. */
static void test_kerned_neighbours_left_out(void **state)
{
    fixture *fx = *state;
    static const uint32_t mozhdah[] = {0x645, 0x698, 0x62f, 0x647};
    static const uint32_t musa[] = {0x645, 0x64f, 0x648, 0x633, 0x64e, 0x649, 0x670};
    static const uint32_t al_rasul[] = {0x627, 0x644, 0x631, 0x651, 0x64e, 0x633,
                                        0x64f, 0x648, 0x644, 0x64f};
    static const uint32_t izzat[] = {0x639, 0x632, 0x62a};
    assert_true(same_as_graphite2(fx, mozhdah, 4));
    assert_true(same_as_graphite2(fx, musa, 7));
    assert_true(same_as_graphite2(fx, al_rasul, 10));
    assert_true(same_as_graphite2(fx, izzat, 3));
}

#define TEXT_MAX 1024

/* Reads the next line of f that holds text ('#' starts a comment line),
 * decodes it into text (TEXT_MAX code points) and returns its length; 0 at
 * the end of the file.  With `rtl`, a line is "ltr" or "rtl", a tab, then
 * the text, and *rtl says which. */
static size_t next_text_line(FILE *f, uint32_t *text, int *rtl)
{
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] == '#')
            continue;
        const char *t = line;
        if (rtl) {
            char *tab = strchr(line, '\t');
            assert_non_null(tab);
            *tab = 0;
            assert_true(strcmp(line, "ltr") == 0 || strcmp(line, "rtl") == 0);
            *rtl = strcmp(line, "rtl") == 0;
            t = tab + 1;
        }
        size_t n = grc_utf8_decode(t, strlen(t), text, TEXT_MAX);
        if (n)
            return n;
    }
    return 0;
}

static int count_lines(fixture *fx, const char *file, const char *features, int dir, int *words)
{
    FILE *f = test_open_source(file);
    int same = 0;
    uint32_t text[TEXT_MAX];
    size_t n;
    *words = 0;
    while ((n = next_text_line(f, text, NULL)) != 0) {
        (*words)++;
        same += dir ? same_as_graphite2_f(fx, text, n, features)
                    : record_identical_dir(fx, text, n, features, dir);
    }
    fclose(f);
    return same;
}

/* KD-6: Awami's pass 6 runs reversed and is the last before the
 * characters are associated; graphite2 reverses a stream keeping each run
 * of non-spacing marks (bidi class 16) after its base, so the char table
 * holds the indexes of that order.  gr2fonttest -rtl -feat agca=0 on
 * U+0645 U+0650 U+0646 U+0652 (slots 1035 1343 1070 1471 1335 in the end):
 * char before/after 3/3, 4/4, 0/2, 1/1 (a plain reversal gives 4/4, 3/3,
 * 1/2, 0/0).  Then every word, collision avoidance off, record for record. */
static void test_char_table_after_reversed_pass(void **state)
{
    fixture *fx = *state;
    const uint32_t min[4] = {0x645, 0x650, 0x646, 0x652};
    grc_features feats;
    char msg[256];
    memset(&feats, 0, sizeof feats);
    assert_int_equal(grc_parse_features("agca=0", &feats, msg, sizeof msg), 0);
    grc_request req = {min, 4, &feats, 1};
    grc_run fv;
    assert_int_equal(grc_fv_shape(fx->face, &req, &fv), 0);
    assert_true(fv.ok);
    assert_int_equal(fv.num_chars, 4);
    const int32_t before[4] = {3, 4, 0, 1}, after[4] = {3, 4, 2, 1};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(fv.chars[i].before, before[i]);
        assert_int_equal(fv.chars[i].after, after[i]);
    }
    grc_run_free(&fv);
    assert_true(record_identical(fx, min, 4, "agca=0"));
    assert_true(record_identical(fx, min, 4, ""));

    FILE *f = test_open_source("tests/graphite/awami_words.txt");
    uint32_t text[TEXT_MAX];
    int words = 0, same = 0;
    size_t n;
    while ((n = next_text_line(f, text, NULL)) != 0) {
        words++;
        same += record_identical(fx, text, n, "agca=0");
    }
    fclose(f);
    print_message("Awami words, agca=0, whole records identical: %d / %d\n", same, words);
    assert_int_equal(words, AWAMI_WORDS);
    assert_int_equal(same, AWAMI_WORDS);
}

/* Awami has no bidi pass: graphite2 mirrors a direction-3 segment (right
 * to left, no bidi: what HarfBuzz asks for) before the first pass.
 * graphite2, `(a)` + U+203A: 21 118 19 167 with direction 3, 19 118 21 190
 * with directions 1 and 7 (bit 4: no mirroring). */
static void test_mirroring_without_bidi_pass(void **state)
{
    fixture *fx = *state;
    const uint32_t text[4] = {0x28, 0x61, 0x29, 0x203a};
    const uint32_t mirrored[4] = {21, 118, 19, 167}, plain[4] = {19, 118, 21, 190};
    grc_features feats;
    memset(&feats, 0, sizeof feats);
    const int dirs[3] = {3, 1, 7};
    for (int k = 0; k < 3; k++) {
        grc_request req = {text, 4, &feats, dirs[k]};
        grc_run ref, fv;
        assert_int_equal(grc_gr2_shape(fx->g, &req, &ref), 0);
        assert_int_equal(grc_fv_shape(fx->face, &req, &fv), 0);
        assert_true(ref.ok && fv.ok);
        assert_int_equal(fv.num_glyphs, 4);
        for (size_t i = 0; i < 4; i++)
            assert_int_equal(fv.glyphs[i].gid, dirs[k] == 3 ? mirrored[i] : plain[i]);
        assert_int_equal(grc_compare_gr(&ref, &fv).status, GRC_IDENTICAL);
        grc_run_free(&ref);
        grc_run_free(&fv);
    }
}

static int count_words(fixture *fx, const char *features, int *words)
{
    return count_lines(fx, "tests/graphite/awami_words.txt", features, 1, words);
}

static void test_words_against_graphite2(void **state)
{
    fixture *fx = *state;
    int words = 0;
    int same = count_words(fx, "", &words);
    print_message("Awami words identical to graphite2: %d / %d\n", same, words);
    assert_int_equal(words, AWAMI_WORDS);
    assert_int_equal(same, AWAMI_WORDS);
    same = count_words(fx, "agca=1", &words);
    print_message("Awami words identical to graphite2, kerning only (agca=1): %d / %d\n", same,
                  words);
    assert_int_equal(same, AWAMI_WORDS);
    /* collision avoidance off: the rest of the engine, exact */
    same = count_words(fx, "agca=0", &words);
    assert_int_equal(same, AWAMI_WORDS);
}

/* The corpus lines of the conformance run (conform.toml): every line is
 * identical, with kerning only (agca=1) and with the defaults. */
static void test_corpus_lines(void **state)
{
    fixture *fx = *state;
    int n1 = 0, n2 = 0;
    int k1 = count_lines(fx, "corpus/texts/urdu.txt", "agca=1", 1, &n1);
    int k2 = count_lines(fx, "corpus/texts/arabic.txt", "agca=1", 1, &n2);
    print_message("kerning only: urdu %d / %d, arabic %d / %d\n", k1, n1, k2, n2);
    assert_int_equal(k1, n1);
    assert_int_equal(k2, n2);
    int d1 = count_lines(fx, "corpus/texts/urdu.txt", "", 1, &n1);
    int d2 = count_lines(fx, "corpus/texts/arabic.txt", "", 1, &n2);
    print_message("defaults: urdu %d / %d, arabic %d / %d\n", d1, n1, d2, n2);
    assert_int_equal(d1, n1);
    assert_int_equal(d2, n2);
}

/* KD-7 (conformance/graphite/KNOWN_DIFFERENCES.md): shaped left to right,
 * against the font's direction, the marks meet the left-down sequence
 * regions of the collision passes from sides that right to left never
 * shows, and a later pass's limits can cross an earlier pass's offset.
 * The five words that differed (graphite2 1.3.14: عجیب's dots at
 * (1953.05, 1109.86), fontvm (1997.10, 1132.96); إِيَّاكَ's kasra at
 * (393, -1066), fontvm (43, -1378.34)); then every word and every corpus
 * line, record for record, with the defaults and with kerning only. */
static void test_left_to_right(void **state)
{
    fixture *fx = *state;
    static const uint32_t ajib[] = {0x639, 0x62c, 0x6cc, 0x628};
    static const uint32_t hafiz[] = {0x62d, 0x627, 0x641, 0x650, 0x638, 0x60c};
    static const uint32_t iyyaka[] = {0x625, 0x650, 0x64a, 0x64e, 0x651, 0x627, 0x643, 0x64e};
    static const uint32_t wa_iyyaka[] = {0x648, 0x64e, 0x625, 0x650, 0x64a,
                                         0x64e, 0x651, 0x627, 0x643, 0x64e};
    static const uint32_t kurdish[] = {0x645, 0x631, 0x6c6, 0x6a4, 0x6ce, 0x6a9};
    assert_true(record_identical_dir(fx, ajib, 4, "", 0));
    assert_true(record_identical_dir(fx, hafiz, 6, "", 0));
    assert_true(record_identical_dir(fx, iyyaka, 8, "", 0));
    assert_true(record_identical_dir(fx, wa_iyyaka, 10, "", 0));
    assert_true(record_identical_dir(fx, kurdish, 6, "", 0));

    int words = 0;
    int same = count_lines(fx, "tests/graphite/awami_words.txt", "", 0, &words);
    print_message("Awami words left to right, records identical: %d / %d\n", same, words);
    assert_int_equal(words, AWAMI_WORDS);
    assert_int_equal(same, AWAMI_WORDS);
    same = count_lines(fx, "tests/graphite/awami_words.txt", "agca=1", 0, &words);
    assert_int_equal(same, AWAMI_WORDS);
    int n1 = 0, n2 = 0;
    int d1 = count_lines(fx, "corpus/texts/urdu.txt", "", 0, &n1);
    int d2 = count_lines(fx, "corpus/texts/arabic.txt", "", 0, &n2);
    print_message("left to right: urdu %d / %d, arabic %d / %d\n", d1, n1, d2, n2);
    assert_int_equal(d1, n1);
    assert_int_equal(d2, n2);
}

/* KD-10: pass 10's fourth forward round, which graphite2 does not run when
 * nothing moved in the third, moved U+06BB's dots by (0.56, -0.56) (left
 * to right).  KD-11: the left-down lower band left of r3x carries the
 * below weight twice (U+067C U+08FF U+067D U+0681 right to left: the three
 * dots of U+0681 landed (5.15, 5.15) from graphite2's place; U+06B7 U+075C
 * U+062E and U+0690 U+062B U+0775 U+06B1 U+06BB left to right).  KD-12:
 * dots whose limits pass 16 sets to 0,0,0,0 stay put and do not collide
 * (U+0683 U+076D U+068E U+0763 U+062A U+06B1 U+0610 U+0694 left to right).
 * Then every generated line that differed before these fixes, in the
 * direction it was generated for, record for record. */
static void test_generated_lines(void **state)
{
    fixture *fx = *state;
    static const uint32_t letters[] = {0x6b1, 0x6b3, 0x6b5, 0x6b7, 0x6b9, 0x6ba, 0x6bb, 0x6bc};
    static const uint32_t lower_band[] = {0x67c, 0x8ff, 0x67d, 0x681};
    static const uint32_t lower_band_x[] = {0x6b7, 0x75c, 0x62e};
    static const uint32_t band_edge[] = {0x690, 0x62b, 0x775, 0x6b1, 0x6bb};
    static const uint32_t zero_limits[] = {0x683, 0x76d, 0x68e, 0x763, 0x62a, 0x6b1, 0x610, 0x694};
    assert_true(record_identical_dir(fx, letters, 8, "", 0));
    assert_true(record_identical_dir(fx, lower_band, 4, "", 1));
    assert_true(record_identical_dir(fx, lower_band_x, 3, "", 0));
    assert_true(record_identical_dir(fx, band_edge, 5, "", 0));
    assert_true(record_identical_dir(fx, zero_limits, 8, "", 0));

    FILE *f = test_open_source("tests/graphite/awami_gen_lines.txt");
    uint32_t text[TEXT_MAX];
    int lines = 0, same = 0, rtl = 0;
    size_t n;
    while ((n = next_text_line(f, text, &rtl)) != 0) {
        lines++;
        int ok = record_identical_dir(fx, text, n, "", rtl);
        if (!ok)
            print_message("differs: line %d of awami_gen_lines.txt (%s)\n", lines, rtl ? "rtl" : "ltr");
        same += ok;
    }
    fclose(f);
    print_message("generated lines identical: %d / %d\n", same, lines);
    assert_int_equal(lines, 139);
    assert_int_equal(same, lines);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_octaboxes),
        cmocka_unit_test(test_shift_and_kern),
        cmocka_unit_test(test_kern_digit_pairs),
        cmocka_unit_test(test_kerned_neighbours_left_out),
        cmocka_unit_test(test_words_against_graphite2),
        cmocka_unit_test(test_corpus_lines),
        cmocka_unit_test(test_char_table_after_reversed_pass),
        cmocka_unit_test(test_mirroring_without_bidi_pass),
        cmocka_unit_test(test_left_to_right),
        cmocka_unit_test(test_generated_lines),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
