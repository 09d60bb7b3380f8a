/* `fontvm hint --json` as a user runs it: the output parses, has the
 * documented fields, and matches the real FreeType's outlines and advances
 * for a few glyphs and configurations; bad input exits 2 with one line on
 * stderr.  Also `fontvm trace` on a hinted glyph. */
#define _POSIX_C_SOURCE 200809L

#include "test_support.h"

#include <string.h>
#include <sys/wait.h>

#include <jansson.h>

#include "fontvm/var.h"
#include "tt_compare.h"

#define LIBERATION "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf"
#define DEJAVU "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#define KARLA "/usr/share/fonts/truetype/karla-variable/Karla[wght].ttf"
#define INTER "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf"

/* Runs a shell command; returns its exit status and its stdout (caller frees). */
static int run(const char *cmd, char **out)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 65536, len = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    for (;;) {
        if (len + 1 >= cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        size_t n = fread(buf + len, 1, cap - len - 1, p);
        if (n == 0)
            break;
        len += n;
    }
    buf[len] = '\0';
    int st = pclose(p);
    *out = buf;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Hints `glyphs` with the CLI (plus `extra` options) and compares each
 * JSON line with FreeType at the location coords[0..n) (normalized; n = 0:
 * none). */
static void check_at(const char *font, const char *ppem, const char *mode_name, const char *glyphs,
                     int expected_lines, const char *extra, const int32_t *coords, uint32_t n)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' hint '%s' --ppem %s --mode %s --glyphs %s --json %s",
             FONTVM_CLI_PATH, font, ppem, mode_name, glyphs, extra);
    char *out = NULL;
    int rc = run(cmd, &out);
    assert_int_equal(rc, 0);

    ttc_ft *ft = NULL;
    char errbuf[256];
    assert_int_equal(ttc_ft_open_file(font, 0, &ft, errbuf, sizeof errbuf), 0);
    ttc_size size;
    assert_int_equal(ttc_size_parse(ppem, &size), 0);
    fv_tt_mode mode;
    assert_int_equal(fv_tt_mode_parse(mode_name, &mode), 0);
    assert_int_equal(ttc_ft_set_location(ft, coords, n, errbuf, sizeof errbuf), 0);
    assert_int_equal(ttc_ft_set_size(ft, &size, mode, 0, errbuf, sizeof errbuf), 0);
    ttc_glyph ref;
    ttc_glyph_init(&ref);

    int lines = 0;
    char *save = NULL;
    for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        json_error_t jerr;
        json_t *g = json_loads(line, 0, &jerr);
        assert_non_null(g);
        assert_true(json_is_object(g));
        json_t *gid = json_object_get(g, "gid");
        assert_true(json_is_integer(gid));
        assert_string_equal(json_string_value(json_object_get(g, "mode")), mode_name);
        json_t *jp = json_object_get(g, "ppem");
        assert_non_null(jp);
        if (strchr(ppem, 'x'))
            assert_string_equal(json_string_value(jp), ppem);
        else
            assert_true(json_number_value(jp) * 64.0 == (double)size.x_26d6);
        assert_true(json_is_null(json_object_get(g, "error")));

        ttc_ft_load(ft, (uint32_t)json_integer_value(gid), &ref);
        assert_true(ref.loaded);
        assert_int_equal(json_integer_value(json_object_get(g, "advance")), ref.advance_x);
        json_t *pts = json_object_get(g, "points");
        assert_true(json_is_array(pts));
        assert_int_equal(json_array_size(pts), ref.num_points);
        for (uint32_t i = 0; i < ref.num_points; i++) {
            json_t *pt = json_array_get(pts, i);
            assert_int_equal(json_array_size(pt), 2);
            assert_int_equal(json_integer_value(json_array_get(pt, 0)), ref.x[i]);
            assert_int_equal(json_integer_value(json_array_get(pt, 1)), ref.y[i]);
        }
        json_decref(g);
        lines++;
    }
    assert_int_equal(lines, expected_lines);
    ttc_glyph_free(&ref);
    ttc_ft_close(ft);
    free(out);
}

static void check_against_freetype(const char *font, const char *ppem, const char *mode_name,
                                   const char *glyphs, int expected_lines)
{
    check_at(font, ppem, mode_name, glyphs, expected_lines, "", NULL, 0);
}

/* --variations (design units) and --named-instance against FreeType at the
 * same location (normalized by fontvm/var.h, which test_var_coords checks
 * against FreeType's own normalization). */
static void test_hint_variations(void **state)
{
    (void)state;
    fv_font *font;
    fv_error err;
    int32_t coords[4];
    assert_int_equal(fv_font_open_file(KARLA, 0, NULL, &font, &err), FV_OK);
    int32_t design = 700 << 16;
    assert_int_equal(fv_font_var_from_design(font, &design, 1, coords, &err), FV_OK);
    check_at(KARLA, "12", "v40", "36-40", 5, "--variations wght=700", coords, 1);
    design = (int32_t)(250.5 * 65536);
    assert_int_equal(fv_font_var_from_design(font, &design, 1, coords, &err), FV_OK);
    check_at(KARLA, "17.5", "v35", "36,68", 2, "--variations=wght=250.5", coords, 1);
    assert_int_equal(fv_font_var_from_instance(font, 2, coords, &err), FV_OK);
    check_at(KARLA, "9", "v40-mono", "36", 1, "--named-instance 2", coords, 1);
    fv_font_close(font);
    assert_int_equal(fv_font_open_file(INTER, 0, NULL, &font, &err), FV_OK);
    int32_t both[2] = {900 << 16, -(5 << 16)};
    assert_int_equal(fv_font_var_from_design(font, both, 2, coords, &err), FV_OK);
    check_at(INTER, "12", "v40-lcd", "36-38", 3, "--variations slnt=-5,wght=900", coords, 2);
    fv_font_close(font);
    /* trace takes the same options: Karla's prep at its boldest instance. */
    char cmd[1024], *out = NULL;
    snprintf(cmd, sizeof cmd, "'%s' trace '%s' --ppem 12 --glyph 36 --named-instance 6",
             FONTVM_CLI_PATH, KARLA);
    assert_int_equal(run(cmd, &out), 0);
    assert_non_null(strstr(out, "prep @0"));
    free(out);
}

static void test_hint_json_matches_freetype(void **state)
{
    (void)state;
    /* 'A' of the example: {"gid":36,"ppem":12,"mode":"v40","advance":512,...} */
    check_against_freetype(LIBERATION, "12", "v40", "36", 1);
    check_against_freetype(LIBERATION, "10.5", "v35", "36-40,68", 6);
    check_against_freetype(DEJAVU, "12x16", "v40-mono", "36,68,72", 3);
    check_against_freetype(DEJAVU, "17", "v40-lcd", "36-38", 3);
}

static void test_hint_quiet_summary(void **state)
{
    (void)state;
    char cmd[1024], *out = NULL;
    snprintf(cmd, sizeof cmd, "'%s' hint '%s' --ppem 12 --glyphs 0-99 --quiet", FONTVM_CLI_PATH,
             LIBERATION);
    assert_int_equal(run(cmd, &out), 0);
    assert_non_null(strstr(out, "hinted 100 glyphs"));
    assert_non_null(strstr(out, "100 ok, 0 failed"));
    char *nl = strchr(out, '\n');
    assert_non_null(nl);
    assert_int_equal(nl[1], '\0'); /* one line */
    free(out);
}

static void test_trace_prints_instructions(void **state)
{
    (void)state;
    char cmd[1024], *out = NULL;
    snprintf(cmd, sizeof cmd, "'%s' trace '%s' --ppem 12 --glyph 36 --glyf-only", FONTVM_CLI_PATH,
             LIBERATION);
    assert_int_equal(run(cmd, &out), 0);
    /* Liberation Sans 'A' has a glyph program that moves its points. */
    assert_non_null(strstr(out, "glyf[36] @0"));
    assert_non_null(strstr(out, "->"));
    assert_non_null(strstr(out, " p"));
    assert_non_null(strstr(out, "# glyph 36:"));
    free(out);
}

/* Each bad invocation: exit status 2, exactly one line on stderr, nothing
 * on stdout. */
static void test_bad_input_exits_2(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "hint",
        "hint " LIBERATION " --json",                       /* no --ppem */
        "hint " LIBERATION " --ppem 32767",                 /* beyond the ppem range (no --json: the listing) */
        "hint " LIBERATION " --ppem 12 --json --quiet",     /* both */
        "hint " LIBERATION " --ppem abc --json",
        "hint " LIBERATION " --ppem 0 --json",
        "hint " LIBERATION " --ppem -12 --json",
        "hint " LIBERATION " --ppem 12x --json",
        "hint " LIBERATION " --ppem 12 --mode v38 --json",
        "hint " LIBERATION " --ppem 12 --glyphs 5-2 --json",
        "hint " LIBERATION " --ppem 12 --glyphs 99999 --json",
        "hint " LIBERATION " --ppem 12 --glyphs 1,,2 --json",
        "hint " LIBERATION " --ppem 12 --bogus --json",
        "hint /nonexistent/font.ttf --ppem 12 --json",
        "hint /etc/hostname --ppem 12 --json",
        "trace " LIBERATION " --ppem 12",                   /* no --glyph */
        "trace " LIBERATION " --ppem 12 --glyph 99999",
        "trace " LIBERATION " --ppem 1.2.3 --glyph 36",
        "bench",
        "bench " LIBERATION " --sizes 12,,x",
        "bench " LIBERATION " --repeat 0",
        "hint " LIBERATION " --ppem 12 --variations wght=700",      /* no axes */
        "hint '" KARLA "' --ppem 12 --variations wdth=80",          /* no such axis */
        "hint '" KARLA "' --ppem 12 --variations wght",             /* no value */
        "hint '" KARLA "' --ppem 12 --variations wght=heavy",
        "hint '" KARLA "' --ppem 12 --variations wght=700,,",
        "hint '" KARLA "' --ppem 12 --named-instance 7",            /* 6 instances */
        "hint '" KARLA "' --ppem 12 --named-instance 1 --variations wght=700",
        "trace '" KARLA "' --ppem 12 --glyph 36 --variations wdth=80",
        "trace '" KARLA "' --ppem 12 --glyph 36 --named-instance 9",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[1024], *out = NULL;
        snprintf(cmd, sizeof cmd, "'%s' %s 2>&1 >/dev/null", FONTVM_CLI_PATH, bad[i]);
        int rc = run(cmd, &out);
        if (rc != 2)
            fprintf(stderr, "fontvm %s: exit %d\n", bad[i], rc);
        assert_int_equal(rc, 2);
        size_t len = strlen(out);
        assert_true(len > 1);
        assert_int_equal(out[len - 1], '\n');
        if (memchr(out, '\n', len - 1))
            fprintf(stderr, "fontvm %s: more than one line:\n%s", bad[i], out);
        assert_null(memchr(out, '\n', len - 1));
        free(out);
        snprintf(cmd, sizeof cmd, "'%s' %s 2>/dev/null", FONTVM_CLI_PATH, bad[i]);
        rc = run(cmd, &out);
        assert_int_equal(rc, 2);
        assert_string_equal(out, "");
        free(out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hint_json_matches_freetype),
        cmocka_unit_test(test_hint_variations),
        cmocka_unit_test(test_hint_quiet_summary),
        cmocka_unit_test(test_trace_prints_instructions),
        cmocka_unit_test(test_bad_input_exits_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
