/* Glyphs of variable fonts at locations, hinted by fontvm and by the real
 * FreeType 2.12.1 through the conformance library: every glyph of each
 * font at its named instances and at -1, -0.32, 0.42 and 1 on every axis
 * (and the corners of two- and three-axis fonts) and at seeded random
 * locations, at three sizes, in all four modes, must be identical (points,
 * contours, advance).  With font paths as arguments (the synthetic fonts
 * of make_var_fonts.py) it checks those, at five sizes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fontvm/var.h"
#include "tt_compare.h"

#define MAX_AXES 16
#define MAX_LOCATIONS 64

typedef struct location {
    int32_t coords[MAX_AXES];
    char label[48];
} location;

/* The locations: named instances, then each axis alone at -1,
 * -0.32, 0.42 and 1, then every corner when there are at most 3 axes. */
static uint32_t locations_of(fv_font *font, location *out)
{
    uint32_t na = fv_font_var_axis_count(font), n = 0;
    fv_error err;
    assert_true(na > 0 && na <= MAX_AXES);
    for (uint32_t k = 1; k <= fv_font_var_instance_count(font) && n < MAX_LOCATIONS; k++, n++) {
        assert_int_equal(fv_font_var_from_instance(font, k, out[n].coords, &err), FV_OK);
        snprintf(out[n].label, sizeof out[n].label, "instance %u", k);
    }
    static const int32_t steps[] = {-0x10000, -20972, 27525, 0x10000}; /* -0.32, 0.42 */
    for (uint32_t a = 0; a < na; a++)
        for (size_t s = 0; s < 4 && n < MAX_LOCATIONS; s++, n++) {
            memset(out[n].coords, 0, sizeof out[n].coords);
            out[n].coords[a] = steps[s];
            snprintf(out[n].label, sizeof out[n].label, "axis %u at %d", a, steps[s]);
        }
    if (na >= 2 && na <= 3)
        for (uint32_t c = 0; c < (1u << na) && n < MAX_LOCATIONS; c++, n++) {
            for (uint32_t a = 0; a < na; a++)
                out[n].coords[a] = (c >> a) & 1 ? 0x10000 : -0x10000;
            snprintf(out[n].label, sizeof out[n].label, "corner %u", c);
        }
    /* A few seeded random locations (any 16.16 value, not only 2.14). */
    uint64_t seed = 0x1234567ULL;
    for (int r = 0; r < 4 && n < MAX_LOCATIONS; r++, n++) {
        for (uint32_t a = 0; a < na; a++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            out[n].coords[a] = (int32_t)((seed >> 33) % 0x20001) - 0x10000;
        }
        snprintf(out[n].label, sizeof out[n].label, "random %d", r);
    }
    return n;
}

static const fv_tt_mode modes[] = {FV_TT_V35, FV_TT_V40, FV_TT_V40_MONO, FV_TT_V40_LCD};

static void check_font(const char *path, const char *const *sizes, size_t nsizes)
{
    char errbuf[200];
    fv_error err;
    ttc_ft *ft = NULL;
    ttc_fv *fv = NULL;
    if (ttc_ft_open_file(path, 0, &ft, errbuf, sizeof errbuf) != 0)
        fail_msg("FreeType cannot open %s: %s", path, errbuf);
    assert_int_equal(ttc_fv_open_file(path, 0, &fv, &err), 0);
    location locs[MAX_LOCATIONS + 1];
    uint32_t nloc = locations_of(ttc_fv_font(fv), locs);
    uint32_t na = fv_font_var_axis_count(ttc_fv_font(fv));
    uint32_t glyphs = ttc_ft_num_glyphs(ft);
    ttc_glyph ref, mine;
    ttc_glyph_init(&ref);
    ttc_glyph_init(&mine);
    uint64_t cases = 0, different = 0, both_fail = 0;
    /* Location nloc is "none" (the font as opened), last, after faces
     * have had coordinates. */
    for (uint32_t l = 0; l <= nloc; l++) {
        uint32_t n = l < nloc ? na : 0;
        if (l == nloc)
            snprintf(locs[l].label, sizeof locs[l].label, "no location");
        assert_int_equal(ttc_ft_set_location(ft, locs[l].coords, n, errbuf, sizeof errbuf), 0);
        assert_int_equal(ttc_fv_set_location(fv, locs[l].coords, n), 0);
        for (size_t s = 0; s < nsizes; s++)
            for (size_t m = 0; m < 4; m++) {
                ttc_size size;
                assert_int_equal(ttc_size_parse(sizes[s], &size), 0);
                assert_int_equal(ttc_ft_set_size(ft, &size, modes[m], 0, errbuf, sizeof errbuf), 0);
                assert_int_equal(ttc_fv_set_size(fv, &size, modes[m], 0, &err), 0);
                for (uint32_t g = 0; g < glyphs; g++) {
                    ttc_ft_load(ft, g, &ref);
                    ttc_fv_load(fv, g, &mine);
                    ttc_diff d;
                    cases++;
                    ttc_status st = ttc_compare(&ref, &mine, &d);
                    /* Both failing agrees (var_cvar.ttf without a location:
                     * GETVARIATION is then an undefined opcode to both). */
                    both_fail += st == TTC_ERROR_BOTH;
                    if (st != TTC_IDENTICAL && st != TTC_ERROR_BOTH) {
                        if (different++ < 10)
                            print_message("%s %s size %s %s glyph %u: %s point %d ref (%d,%d) "
                                          "fontvm (%d,%d) adv %d/%d %s|%s\n",
                                          path, locs[l].label, sizes[s], fv_tt_mode_name(modes[m]), g,
                                          ttc_status_name(d.status), d.point, d.ref_xy[0],
                                          d.ref_xy[1], d.fontvm_xy[0], d.fontvm_xy[1],
                                          ref.advance_x, mine.advance_x, ref.error, mine.error);
                    }
                }
            }
    }
    print_message("%s: %u locations and none, %llu cases, %llu different, %llu failing in both\n",
                  path, nloc, (unsigned long long)cases, (unsigned long long)different,
                  (unsigned long long)both_fail);
    ttc_glyph_free(&ref);
    ttc_glyph_free(&mine);
    ttc_fv_close(fv);
    ttc_ft_close(ft);
    assert_int_equal(different, 0);
}

static const char *const sizes[] = {"9", "12", "17.5"};

static void test_karla(void **state)
{
    (void)state;
    check_font("/usr/share/fonts/truetype/karla-variable/Karla[wght].ttf", sizes, 3);
}

static void test_karla_italic(void **state)
{
    (void)state;
    check_font("/usr/share/fonts/truetype/karla-variable/Karla-Italic[wght].ttf", sizes, 3);
}

static void test_inter(void **state)
{
    (void)state;
    check_font("/usr/share/fonts/truetype/inter-vf/Inter.var.ttf", sizes + 1, 1);
}

/* The fonts given on the command line (make_var_fonts.py's), at more
 * sizes. */
static int num_given;
static char **given;

static void test_given_fonts(void **state)
{
    (void)state;
    static const char *const more_sizes[] = {"9", "12", "17.5", "24.8", "40"};
    for (int i = 0; i < num_given; i++)
        check_font(given[i], more_sizes, 5);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        num_given = argc - 1;
        given = argv + 1;
        const struct CMUnitTest tests[] = {cmocka_unit_test(test_given_fonts)};
        return cmocka_run_group_tests(tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_karla),
        cmocka_unit_test(test_karla_italic),
        cmocka_unit_test(test_inter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
