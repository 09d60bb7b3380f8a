/* Differential sample of the Graphite default corpus: every font of
 * corpus/texts/graphite_corpus.tsv on a fixed few lines of its texts
 * (right to left for the Arabic fonts, with some declared features),
 * shaped by the real graphite2 1.3.14, by the real HarfBuzz 6.0.0
 * restricted to its graphite2 shaper, and by fontvm, compared as
 * fvconform-gr compares them (conformance/graphite).
 *
 * The per-font counts (identical, different, errors) are pinned in
 * tests/graphite/diff_sample_expected.txt: the goal is all identical, and
 * any change, better or worse, must be deliberate (update the file with the
 * table this test prints).  Every non-identical case is explained in
 * conformance/graphite/KNOWN_DIFFERENCES.md.  The sample also checks that
 * fontvm's opcode counters (the gr_opcodes record) count executed code. */
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

/* Longest sample line, in code points. */
#define SAMPLE_MAX_CHARS 8192

typedef struct sample {
    const char *font;     /* "peer/..." under corpus/peer/graphite2, else under
                             /usr/share/fonts/truetype */
    const char *texts;    /* "peer/..." as above, "texts/..." under corpus/ */
    const char *lines;    /* 1-based line numbers, comma separated */
    const char *features; /* fvconform-gr --features syntax, "" for defaults */
    int rtl;
} sample;

/* A fixed few lines per font and text: the first lines of each text (UDHR
 * article 1 where the text has it), the lines where differences were found
 * (KNOWN_DIFFERENCES.md), and one or two declared features per font. */
static const sample samples[] = {
    {"padauk/Padauk-Regular.ttf", "texts/myanmar.txt", "1,2,3,4,5", "", 0},
    {"padauk/Padauk-Regular.ttf", "texts/myanmar.txt", "1,2,3,4,5", "vtta=1,lldt=1", 0},
    {"padauk/Padauk-Regular.ttf", "peer/texts/my_HeadwordSyllables.txt", "1,2,2098,3362", "", 0},
    {"padauk/Padauk-Regular.ttf", "texts/latin.txt", "1,2", "", 0},
    {"padauk/Padauk-Bold.ttf", "texts/myanmar.txt", "1,2,3", "cv01=1", 0},
    {"padauk/PadaukBook-Regular.ttf", "texts/myanmar.txt", "1,2,3", "", 0},
    {"padauk/PadaukBook-Bold.ttf", "texts/myanmar.txt", "1,2,3", "", 0},
    {"abyssinica/AbyssinicaSIL-Regular.ttf", "texts/ethiopic.txt", "1,2,3", "", 0},
    {"abyssinica/AbyssinicaSIL-Regular.ttf", "texts/ethiopic.txt", "1,2", "cv01=1,cv04=2", 0},
    {"abyssinica/AbyssinicaSIL-Regular.ttf", "texts/latin.txt", "1", "", 0},
    {"annapurna/AnnapurnaSIL-Regular.ttf", "texts/devanagari_nepali.txt", "1,2,3,4", "", 0},
    {"annapurna/AnnapurnaSIL-Regular.ttf", "texts/devanagari_nepali.txt", "1,2,3,4", "jhav=1,krav=1", 0},
    {"annapurna/AnnapurnaSIL-Regular.ttf", "peer/texts/udhr_nep.txt", "1,2", "", 0},
    {"annapurna/AnnapurnaSIL-Bold.ttf", "texts/devanagari_nepali.txt", "1,2", "", 0},
    {"scheherazade/Scheherazade-Regular.ttf", "texts/arabic.txt", "1,2,3,17", "", 1},
    {"scheherazade/Scheherazade-Regular.ttf", "texts/arabic.txt", "1,2,3", "cv12=1,cv48=2", 1},
    {"scheherazade/Scheherazade-Regular.ttf", "texts/latin.txt", "1", "", 0},
    {"scheherazade/Scheherazade-Bold.ttf", "texts/arabic.txt", "1,17", "", 1},
    {"peer/fonts/Padauk.ttf", "peer/texts/my_HeadwordSyllables.txt", "1,2,3,2098,3362", "", 0},
    {"peer/fonts/Padauk.ttf", "peer/texts/my_HeadwordSyllables.txt", "1,2,3,2098,3362", "hsln=1", 0},
    {"peer/fonts/Padauk.ttf", "texts/myanmar.txt", "1,2", "kdot=1", 0},
    {"peer/fonts/Padauk.ttf", "peer/texts/test_small.txt", "1,2,3", "", 0},
    {"peer/fonts/Annapurnarc2.ttf", "peer/texts/udhr_nep.txt", "1,2", "", 0},
    {"peer/fonts/Annapurnarc2.ttf", "texts/devanagari_nepali.txt", "1,2", "2001=1", 0},
    {"peer/fonts/Scheherazadegr.ttf", "texts/arabic.txt", "1,2,17", "", 1},
    {"peer/fonts/Scheherazadegr_noglyfs.ttf", "texts/arabic.txt", "1,17", "", 1},
    {"peer/fonts/charis_r_gr.ttf", "peer/texts/udhr_eng.txt", "1,2", "", 0},
    {"peer/fonts/charis_r_gr.ttf", "texts/latin.txt", "10,11", "", 0},
    {"peer/fonts/charis_r_gr.ttf", "texts/latin.txt", "10,11", "1056=1", 0},
    {"peer/fonts/charis_r_gr.ttf", "peer/texts/test_small.txt", "1", "1024=2", 0},
    {"peer/fonts/general.ttf", "peer/texts/test_small.txt", "1,2,3", "", 0},
    {"peer/fonts/general.ttf", "texts/latin.txt", "1,2", "", 0},
    {"peer/fonts/grtest1gr.ttf", "peer/texts/test_small.txt", "1,2,3", "", 0},
    {"peer/fonts/small.ttf", "peer/texts/test_small.txt", "1,2,3", "", 0},
    {"peer/fonts/underflow.ttf", "peer/texts/test_small.txt", "1,2,3", "", 0},
    /* cross-direction: the segment runs against the font's direction
     * (KNOWN_DIFFERENCES.md KD-3, KD-4). */
    {"peer/fonts/charis_r_gr.ttf", "texts/latin.txt", "3", "", 1},
    {"scheherazade/Scheherazade-Regular.ttf", "texts/arabic.txt", "1", "", 0},
    {"peer/fonts/Padauk.ttf", "texts/myanmar.txt", "1", "", 1},
    {"peer/fonts/small.ttf", "texts/latin.txt", "6", "", 1},
};

#define NUM_SAMPLES (sizeof samples / sizeof samples[0])
#define MAX_FONTS NUM_SAMPLES

/* Counts per (font, reference). */
typedef struct tally {
    char font[128];
    const char *ref;
    long cases, identical, different, err_fv, err_ref, err_both;
} tally;

typedef struct sample_state {
    tally t[MAX_FONTS * 2];
    size_t n;
    uint64_t ops_total;
    long segments_made;
} sample_state;

static void resolve(char *out, size_t size, const char *rel)
{
    char tree_rel[512];
    if (!strncmp(rel, "peer/", 5) || !strncmp(rel, "texts/", 6)) {
        /* peer/X is graphite2's suite (corpus/peer/graphite2/X), texts/X
         * the corpus texts (corpus/texts/X). */
        if (!strncmp(rel, "peer/", 5))
            snprintf(tree_rel, sizeof tree_rel, TEST_PEER_GRAPHITE2 "/%s", rel + 5);
        else
            snprintf(tree_rel, sizeof tree_rel, "corpus/%s", rel);
        test_source_path(out, size, tree_rel);
    }
    else
        snprintf(out, size, "/usr/share/fonts/truetype/%s", rel);
}

static tally *tally_for(sample_state *st, const char *font, const char *ref)
{
    for (size_t i = 0; i < st->n; i++)
        if (!strcmp(st->t[i].font, font) && !strcmp(st->t[i].ref, ref))
            return &st->t[i];
    assert_true(st->n < sizeof st->t / sizeof st->t[0]);
    tally *t = &st->t[st->n++];
    memset(t, 0, sizeof *t);
    snprintf(t->font, sizeof t->font, "%s", font);
    t->ref = ref;
    return t;
}

static void count(tally *t, grc_status s)
{
    t->cases++;
    switch (s) {
    case GRC_IDENTICAL: t->identical++; break;
    case GRC_DIFFERENT: t->different++; break;
    case GRC_ERROR_FONTVM_ONLY: t->err_fv++; break;
    case GRC_ERROR_REF_ONLY: t->err_ref++; break;
    case GRC_ERROR_BOTH: t->err_both++; break;
    case GRC_HARDENING_LIMIT: t->err_fv++; break; /* none expected: counted as failing */
    }
}

/* Line `want` (1-based) of text; NULL when the file is shorter. */
static const char *line_at(const unsigned char *text, size_t size, long want, size_t *len)
{
    size_t pos = 0;
    for (long line = 1; pos < size; line++) {
        size_t end = pos;
        while (end < size && text[end] != '\n')
            end++;
        if (line == want) {
            *len = end - pos;
            if (*len && text[pos + *len - 1] == '\r')
                (*len)--;
            return (const char *)text + pos;
        }
        pos = end + 1;
    }
    return NULL;
}

static void run_sample(sample_state *st, const sample *s, uint32_t *cps)
{
    char fp[1024], tp[1024], msg[256];
    resolve(fp, sizeof fp, s->font);
    resolve(tp, sizeof tp, s->texts);
    size_t fsize = 0, tsize = 0;
    unsigned char *font = test_read_file(fp, &fsize);
    unsigned char *text = test_read_file(tp, &tsize);
    if (!font || !text)
        fail_msg("cannot read %s", !font ? fp : tp);
    grc_features feats;
    if (grc_parse_features(s->features, &feats, msg, sizeof msg) != 0)
        fail_msg("%s: %s", s->font, msg);
    grc_gr2 *g = grc_gr2_open(font, fsize, msg, sizeof msg);
    grc_hb *h = grc_hb_open(font, fsize, msg, sizeof msg);
    assert_non_null(g);
    assert_non_null(h);
    fv_font *vf = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    fv_error_clear(&err);
    assert_int_equal(fv_font_open_memory(font, fsize, 0, NULL, &vf, &err), FV_OK);
    assert_int_equal(fv_gr_face_new(vf, &face, &err), FV_OK);
    uint64_t ops[256];
    memset(ops, 0, sizeof ops);
    fv_gr_set_trace(face, NULL, NULL, ops);
    tally *tg = tally_for(st, s->font, "graphite2");
    tally *th = tally_for(st, s->font, "harfbuzz");
    long made = 0;

    const char *p = s->lines;
    while (*p) {
        char *end;
        long want = strtol(p, &end, 10);
        assert_true(end != p && want > 0);
        p = *end == ',' ? end + 1 : end;
        size_t len = 0;
        const char *line = line_at(text, tsize, want, &len);
        if (!line)
            fail_msg("%s has no line %ld", s->texts, want);
        size_t n = grc_utf8_decode(line, len, cps, SAMPLE_MAX_CHARS);

        grc_request req = {cps, n, &feats, s->rtl ? 1 : 0};
        grc_run ref, fv;
        assert_int_equal(grc_gr2_shape(g, &req, &ref), 0);
        assert_int_equal(grc_fv_shape(face, &req, &fv), 0);
        grc_diff d = grc_compare_gr(&ref, &fv);
        count(tg, d.status);
        if (d.status != GRC_IDENTICAL)
            printf("  %s %s line %ld [%s]%s vs graphite2: %s at slot %ld (%s)\n", s->font, s->texts,
                   want, s->features, s->rtl ? " rtl" : "", grc_status_name(d.status), d.slot, d.what);
        made += fv.ok;
        grc_run_free(&ref);
        grc_run_free(&fv);

        /* HarfBuzz asks graphite2 for "no bidi" plus the direction. */
        grc_request hreq = {cps, n, &feats, s->rtl ? 3 : 0};
        grc_hb_run href, hfv;
        assert_int_equal(grc_hb_shape(h, &hreq, &href), 0);
        fv_gr_set_trace(face, NULL, NULL, NULL);
        assert_int_equal(grc_fv_shape(face, &hreq, &fv), 0);
        fv_gr_set_trace(face, NULL, NULL, ops);
        assert_int_equal(grc_derive_hb(&fv, &hreq, &hfv), 0);
        d = grc_compare_hb(&href, &hfv);
        count(th, d.status);
        if (d.status != GRC_IDENTICAL)
            printf("  %s %s line %ld [%s]%s vs HarfBuzz: %s at glyph %ld (%s)\n", s->font, s->texts,
                   want, s->features, s->rtl ? " rtl" : "", grc_status_name(d.status), d.slot, d.what);
        grc_run_free(&fv);
        grc_hb_run_free(&href);
        grc_hb_run_free(&hfv);
    }
    /* The counters the gr_opcodes record is built from (a Latin line may
     * match no rule of a Myanmar font, so they are summed over the sample). */
    for (size_t i = 0; i < 256; i++)
        st->ops_total += ops[i];
    st->segments_made += made;
    fv_gr_face_free(face);
    fv_font_close(vf);
    grc_gr2_close(g);
    grc_hb_close(h);
    free(font);
    free(text);
}

/* diff_sample_expected.txt: "font ref cases identical different
 * error_fontvm_only error_ref_only error_both" per line, '#' comments. */
static void check_pinned(const sample_state *st)
{
    FILE *f = test_open_source("tests/graphite/diff_sample_expected.txt");
    char line[512];
    size_t seen = 0;
    int bad = 0;
    while (fgets(line, sizeof line, f)) {
        char font[256], ref[32];
        long c[6];
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "%255s %31s %ld %ld %ld %ld %ld %ld", font, ref, &c[0], &c[1], &c[2], &c[3],
                   &c[4], &c[5]) != 8) {
            fclose(f);
            fail_msg("bad line in diff_sample_expected.txt: %s", line);
        }
        const tally *t = NULL;
        for (size_t i = 0; i < st->n; i++)
            if (!strcmp(st->t[i].font, font) && !strcmp(st->t[i].ref, ref))
                t = &st->t[i];
        if (!t) {
            printf("expected %s %s, not in the sample\n", font, ref);
            bad = 1;
            continue;
        }
        seen++;
        long got[6] = {t->cases, t->identical, t->different, t->err_fv, t->err_ref, t->err_both};
        if (memcmp(got, c, sizeof c) != 0) {
            printf("%s %s: expected %ld %ld %ld %ld %ld %ld, measured %ld %ld %ld %ld %ld %ld\n", font,
                   ref, c[0], c[1], c[2], c[3], c[4], c[5], got[0], got[1], got[2], got[3], got[4],
                   got[5]);
            bad = 1;
        }
    }
    fclose(f);
    if (seen != st->n) {
        printf("%zu (font, reference) pairs measured, %zu pinned\n", st->n, seen);
        bad = 1;
    }
    if (bad) {
        puts("measured (font ref cases identical different error_fontvm_only error_ref_only "
             "error_both):");
        for (size_t i = 0; i < st->n; i++) {
            const tally *t = &st->t[i];
            printf("%s %s %ld %ld %ld %ld %ld %ld\n", t->font, t->ref, t->cases, t->identical,
                   t->different, t->err_fv, t->err_ref, t->err_both);
        }
        fail_msg("the Graphite differential sample changed (see above)");
    }
}

static void test_diff_sample(void **state)
{
    (void)state;
    sample_state *st = calloc(1, sizeof *st);
    uint32_t *cps = malloc(SAMPLE_MAX_CHARS * sizeof *cps);
    assert_non_null(st);
    assert_non_null(cps);
    for (size_t i = 0; i < NUM_SAMPLES; i++)
        run_sample(st, &samples[i], cps);
    assert_true(st->segments_made > 0);
    assert_true(st->ops_total > 0);
    check_pinned(st);
    free(cps);
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diff_sample),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
