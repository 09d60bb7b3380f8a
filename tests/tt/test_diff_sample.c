/* Differential sample against the real FreeType (issue 3): a fixed set of
 * fonts x sizes (integer, 10.5, and 12x16 with different x and y ppem) x all
 * four modes, compared glyph by glyph with the runner's own comparison
 * (conformance/tt).  The goal is 0 non-identical cases; the exact counts per
 * font and mode are kept in tests/tt/diff_sample_expected.txt so that any
 * change in conformance, better or worse, fails here and must be recorded
 * deliberately.
 *
 *   test_diff_sample FONTKEY     (one ctest per font, so -j2 uses both cores)
 *
 * Budget: under 3 minutes for all fonts under ASan on 2 cores; each font
 * compares a fixed stride of its glyphs (SAMPLE_GLYPHS of them). */
#define _POSIX_C_SOURCE 200809L

#include "test_support.h"

#include <string.h>
#include <time.h>

#include "tt_compare.h"

/* Glyphs compared per font (every k-th glyph id, from 0). */
#define SAMPLE_GLYPHS 400
#define EXPECTED_FILE "tests/tt/diff_sample_expected.txt"
/* Differences printed to the test log, to start debugging from. */
#define SHOW_DIFFS 8

static const struct {
    const char *key, *path;
} sample_fonts[] = {
    {"LiberationSans-Regular", "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf"},
    {"DejaVuSans", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"},
    {"Arimo-Regular", "/usr/share/fonts/truetype/croscore/Arimo-Regular.ttf"},
    {"NotoSans-Regular", "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"},
};

static const char *const sample_sizes[] = {"9", "10.5", "12", "12x16", "17", "24"};

static const char *font_key; /* argv[1]: which sample font this process runs */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Looks up "KEY MODE cases identical different fv_only ref_only both". */
static int read_expected(const char *key, const char *mode, unsigned long long expect[6])
{
    char path[1024];
    const char *src = getenv("FONTVM_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/%s", src ? src : ".", EXPECTED_FILE);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[512];
    int found = -1;
    while (found != 0 && fgets(line, sizeof line, f)) {
        char k[128], m[32];
        unsigned long long v[6];
        if (line[0] == '#')
            continue;
        if (sscanf(line, "%127s %31s %llu %llu %llu %llu %llu %llu", k, m, &v[0], &v[1], &v[2],
                   &v[3], &v[4], &v[5]) != 8)
            continue;
        if (strcmp(k, key) == 0 && strcmp(m, mode) == 0) {
            for (int i = 0; i < 6; i++)
                expect[i] = v[i];
            found = 0;
        }
    }
    fclose(f);
    return found;
}

static void test_sample_font(void **state)
{
    (void)state;
    const char *path = NULL;
    for (size_t i = 0; i < sizeof sample_fonts / sizeof sample_fonts[0]; i++)
        if (strcmp(sample_fonts[i].key, font_key) == 0)
            path = sample_fonts[i].path;
    assert_non_null(path);

    char errbuf[256];
    ttc_ft *ft = NULL;
    assert_int_equal(ttc_ft_open_file(path, 0, &ft, errbuf, sizeof errbuf), 0);
    ttc_fv *fv = NULL;
    fv_error err;
    assert_int_equal(ttc_fv_open_file(path, 0, &fv, &err), 0);

    uint32_t n = ttc_ft_num_glyphs(ft);
    uint32_t stride = (n + SAMPLE_GLYPHS - 1) / SAMPLE_GLYPHS;
    if (stride == 0)
        stride = 1;
    ttc_glyph ref, sub;
    ttc_glyph_init(&ref);
    ttc_glyph_init(&sub);
    double t_ft = 0, t_fv = 0;
    uint64_t loads = 0;
    int mismatches = 0, shown = 0;

    for (int m = FV_TT_V35; m <= FV_TT_V40_LCD; m++) {
        fv_tt_mode mode = (fv_tt_mode)m;
        uint64_t counts[TTC_STATUS_COUNT] = {0}, cases = 0;
        for (size_t s = 0; s < sizeof sample_sizes / sizeof sample_sizes[0]; s++) {
            ttc_size size;
            assert_int_equal(ttc_size_parse(sample_sizes[s], &size), 0);
            double t0 = now_s();
            assert_int_equal(ttc_ft_set_size(ft, &size, mode, 0, errbuf, sizeof errbuf), 0);
            double t1 = now_s();
            ttc_fv_set_size(fv, &size, mode, 0, &err);
            t_fv += now_s() - t1;
            t_ft += t1 - t0;
            for (uint32_t gid = 0; gid < n; gid += stride) {
                t0 = now_s();
                ttc_ft_load(ft, gid, &ref);
                t1 = now_s();
                ttc_fv_load(fv, gid, &sub);
                t_fv += now_s() - t1;
                t_ft += t1 - t0;
                loads++;
                ttc_diff d;
                ttc_status st = ttc_compare(&ref, &sub, &d);
                counts[st]++;
                cases++;
                if (st != TTC_IDENTICAL && shown < SHOW_DIFFS) {
                    shown++;
                    ttc_culprit c;
                    memset(&c, 0, sizeof c);
                    if (st == TTC_DIFFERENT && d.point >= 0)
                        ttc_fv_culprit(fv, gid, (uint32_t)d.point, &c);
                    printf("  %s %s %s gid %u: %s", font_key, sample_sizes[s],
                           fv_tt_mode_name(mode), gid, ttc_status_name(st));
                    if (st == TTC_DIFFERENT)
                        printf(" point %d ref (%d,%d) fontvm (%d,%d) adv %d/%d np %u/%u", d.point,
                               d.ref_xy[0], d.ref_xy[1], d.fontvm_xy[0], d.fontvm_xy[1],
                               ref.advance_x, sub.advance_x, ref.num_points, sub.num_points);
                    if (!ref.loaded)
                        printf(" ref_error \"%s\"", ref.error);
                    if (!sub.loaded)
                        printf(" fontvm_error \"%s\"", sub.error);
                    if (c.found)
                        printf(" culprit %s[%u]@%u %s", fv_program_name(c.program), c.glyph,
                               c.pc, c.mnemonic);
                    printf("\n");
                }
            }
        }
        printf("%s %s %llu %llu %llu %llu %llu %llu\n", font_key, fv_tt_mode_name(mode),
               (unsigned long long)cases, (unsigned long long)counts[TTC_IDENTICAL],
               (unsigned long long)counts[TTC_DIFFERENT],
               (unsigned long long)counts[TTC_ERROR_FONTVM_ONLY],
               (unsigned long long)counts[TTC_ERROR_REF_ONLY],
               (unsigned long long)counts[TTC_ERROR_BOTH]);
        unsigned long long expect[6];
        if (read_expected(font_key, fv_tt_mode_name(mode), expect) != 0) {
            printf("  no expectation for %s %s in %s: add the line above\n", font_key,
                   fv_tt_mode_name(mode), EXPECTED_FILE);
            mismatches++;
            continue;
        }
        int same = expect[0] == cases;
        for (int i = 0; i <= TTC_ERROR_BOTH; i++)
            same = same && expect[1 + i] == counts[i];
        /* No sample font may come near a work budget (vm/common/budget.h). */
        same = same && counts[TTC_HARDENING_LIMIT] == 0;
        if (!same) {
            printf("  %s %s differs from %s: expected %llu cases, %llu identical, %llu "
                   "different, %llu/%llu/%llu errors (fontvm only/ref only/both)\n",
                   font_key, fv_tt_mode_name(mode), EXPECTED_FILE, expect[0], expect[1],
                   expect[2], expect[3], expect[4], expect[5]);
            mismatches++;
        }
    }
    printf("%s: %llu loads per engine; FreeType %.0f glyphs/s, fontvm %.0f glyphs/s\n", font_key,
           (unsigned long long)loads, t_ft > 0 ? (double)loads / t_ft : 0.0,
           t_fv > 0 ? (double)loads / t_fv : 0.0);
    ttc_glyph_free(&ref);
    ttc_glyph_free(&sub);
    ttc_fv_close(fv);
    ttc_ft_close(ft);
    assert_int_equal(mismatches, 0);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_diff_sample FONTKEY (LiberationSans-Regular, DejaVuSans, "
                        "Arimo-Regular, NotoSans-Regular)\n");
        return 2;
    }
    font_key = argv[1];
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_sample_font)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
