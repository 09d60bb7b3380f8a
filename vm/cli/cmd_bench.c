/* `fontvm bench`: hinting speed of fontvm against FreeType, measured in the
 * same process and run (issue 3):
 *
 *   fontvm bench FONT... [--sizes 9,10,12,16] [--mode v35|v40|v40-mono|v40-lcd]
 *                [--repeat N]
 *
 * For each font, every glyph is hinted at every size, by fontvm and then by
 * FreeType (FT_LOAD_NO_AUTOHINT | FT_LOAD_NO_BITMAP | target, a fresh size
 * per configuration, exactly what the differential runner compares).  Making
 * the size (CVT scaling and prep) is inside the timed part for both; opening
 * the font and running fpgm are not.  Prints glyphs/s for both engines, the
 * ratio fontvm/FreeType (> 1: fontvm is faster) and fontvm's peak memory for
 * each loaded font. */

#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fontvm/tt.h"

#ifdef FONTVM_CLI_WITH_REFERENCES
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_DRIVER_H
#include FT_MODULE_H
#include FT_SIZES_H
#endif

#define BENCH_MAX_SIZES 64
#define BENCH_MAX_FONTS 256
/* Text sizes people read, plus a fractional and a non-square one. */
#define BENCH_DEFAULT_SIZES "9,10,11,12,13,14,15,16,18,20,24,10.5,12x16"

typedef struct bench_opts {
    int32_t x[BENCH_MAX_SIZES], y[BENCH_MAX_SIZES];
    uint32_t num_sizes;
    fv_tt_mode mode;
    uint32_t repeat;
} bench_opts;

typedef struct bench_result {
    uint64_t glyphs;   /* glyph loads per engine (glyphs * sizes * repeat) */
    uint64_t failed;
    double seconds;
} bench_result;

static int parse_sizes(const char *list, bench_opts *o)
{
    char buf[1024];
    if (strlen(list) >= sizeof buf)
        return -1;
    strcpy(buf, list);
    o->num_sizes = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (o->num_sizes >= BENCH_MAX_SIZES ||
            cli_tt_parse_size(t, &o->x[o->num_sizes], &o->y[o->num_sizes]))
            return -1;
        o->num_sizes++;
    }
    return o->num_sizes ? 0 : -1;
}

/* fontvm: returns CLI_OK or prints the error and returns CLI_BAD_INPUT. */
static int bench_fontvm(const char *path, const bench_opts *o, bench_result *r, size_t *peak,
                        uint32_t *num_glyphs)
{
    cli_tt_session ss;
    fv_error err;
    memset(r, 0, sizeof *r);
    int rc = cli_tt_open(path, 0, NULL, NULL, NULL, &ss); /* sizes are made per pass below */
    if (rc != CLI_OK)
        return rc;
    *num_glyphs = fv_font_glyph_count(ss.font);
    double t0 = cli_tt_now();
    for (uint32_t rep = 0; rep < o->repeat; rep++) {
        for (uint32_t s = 0; s < o->num_sizes; s++) {
            fv_tt_size *size = NULL;
            fv_tt_size_request req = {.x_ppem_26d6 = o->x[s], .y_ppem_26d6 = o->y[s],
                                      .mode = o->mode, .pedantic = 0};
            if (fv_tt_size_new(ss.face, ss.exec, &req, &size, &err) != FV_OK) {
                rc = cli_fail(path, &err);
                goto done;
            }
            for (uint32_t gid = 0; gid < *num_glyphs; gid++) {
                fv_tt_outline out;
                memset(&out, 0, sizeof out);
                if (fv_tt_hint_glyph(size, ss.exec, gid, &out, &err) != FV_OK)
                    r->failed++;
                fv_tt_outline_free(ss.face, &out);
                r->glyphs++;
            }
            fv_tt_size_free(size);
        }
    }
    r->seconds = cli_tt_now() - t0;
    *peak = fv_font_peak_memory(ss.font);
done:
    cli_tt_close(&ss);
    return rc;
}

#ifdef FONTVM_CLI_WITH_REFERENCES
/* FreeType: 0, or -1 after printing why. */
static int bench_freetype(const char *path, const bench_opts *o, bench_result *r)
{
    FT_Library lib = NULL;
    FT_Face face = NULL;
    int rc = -1;
    memset(r, 0, sizeof *r);
    FT_UInt version = o->mode == FV_TT_V35 ? TT_INTERPRETER_VERSION_35 : TT_INTERPRETER_VERSION_40;
    FT_Int32 flags = FT_LOAD_NO_AUTOHINT | FT_LOAD_NO_BITMAP;
    if (o->mode == FV_TT_V40_MONO)
        flags |= FT_LOAD_TARGET_MONO;
    else if (o->mode == FV_TT_V40_LCD)
        flags |= FT_LOAD_TARGET_LCD;
    if (FT_Init_FreeType(&lib) ||
        FT_Property_Set(lib, "truetype", "interpreter-version", &version) ||
        FT_New_Face(lib, path, 0, &face)) {
        fprintf(stderr, "fontvm bench: %s: FreeType cannot open the font\n", path);
        goto done;
    }
    double t0 = cli_tt_now();
    for (uint32_t rep = 0; rep < o->repeat; rep++) {
        for (uint32_t s = 0; s < o->num_sizes; s++) {
            FT_Size size = NULL;
            if (FT_New_Size(face, &size) || FT_Activate_Size(size) ||
                FT_Set_Char_Size(face, o->x[s], o->y[s], 72, 72)) {
                fprintf(stderr, "fontvm bench: %s: FreeType cannot set the size\n", path);
                goto done;
            }
            for (FT_Long gid = 0; gid < face->num_glyphs; gid++) {
                if (FT_Load_Glyph(face, (FT_UInt)gid, flags))
                    r->failed++;
                r->glyphs++;
            }
            FT_Done_Size(size);
        }
    }
    r->seconds = cli_tt_now() - t0;
    rc = 0;
done:
    if (face)
        FT_Done_Face(face);
    if (lib)
        FT_Done_FreeType(lib);
    return rc;
}
#endif

static void usage(FILE *out)
{
    fprintf(out,
            "usage: fontvm bench FONT... [--sizes LIST] [--mode v35|v40|v40-mono|v40-lcd] "
            "[--repeat N]\n\n"
            "Hints every glyph at every size with fontvm and with FreeType in the same run\n"
            "and prints glyphs/s for each, the ratio fontvm/FreeType (> 1: fontvm faster)\n"
            "and fontvm's peak memory per loaded font.\n"
            "  --sizes LIST  ppem list (default " BENCH_DEFAULT_SIZES ")\n"
            "  --mode M      default v40\n"
            "  --repeat N    passes over the sizes (default 1)\n");
}

static double rate(const bench_result *r)
{
    return r->seconds > 0 ? (double)r->glyphs / r->seconds : 0.0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

int cmd_bench(int argc, char **argv)
{
    bench_opts o;
    memset(&o, 0, sizeof o);
    o.mode = FV_TT_V40;
    o.repeat = 1;
    const char *sizes = BENCH_DEFAULT_SIZES;
    const char *fonts[BENCH_MAX_FONTS];
    uint32_t num_fonts = 0;
    static const struct option options[] = {
        {"help", no_argument, NULL, 'h'},        {"sizes", required_argument, NULL, 's'},
        {"mode", required_argument, NULL, 'm'},  {"repeat", required_argument, NULL, 'r'},
        {NULL, 0, NULL, 0}};
    int opt;
    cli_getopt_begin();
    while ((opt = cli_getopt(argc, argv, "bench", options)) != -1) {
        switch (opt) {
        case 'h': usage(stdout); return CLI_OK;
        case 's': sizes = optarg; break;
        case 'm':
            if (cli_tt_parse_mode(optarg, &o.mode))
                return cli_usage_error("bench", "--mode expects v35, v40, v40-mono or v40-lcd");
            break;
        case 'r':
            if (cli_parse_uint(optarg, 1000000, &o.repeat) || o.repeat == 0)
                return cli_usage_error("bench", "--repeat expects a positive number");
            break;
        default: return CLI_BAD_INPUT;
        }
    }
    for (int i = optind; i < argc; i++) {
        if (num_fonts >= BENCH_MAX_FONTS)
            return cli_usage_error("bench", "too many fonts");
        fonts[num_fonts++] = argv[i];
    }
    if (num_fonts == 0)
        return cli_usage_error("bench", "missing FONT");
    if (parse_sizes(sizes, &o))
        return cli_usage_error("bench", "--sizes expects a list like 9,10,12,10.5,12x16");

    printf("fontvm bench: mode %s, %u sizes x %u pass(es)", fv_tt_mode_name(o.mode), o.num_sizes,
           o.repeat);
#ifdef FONTVM_CLI_WITH_REFERENCES
    {
        FT_Library lib;
        FT_Int maj = 0, min = 0, pat = 0;
        if (FT_Init_FreeType(&lib) == 0) {
            FT_Library_Version(lib, &maj, &min, &pat);
            FT_Done_FreeType(lib);
        }
        printf(", fontvm %s vs FreeType %d.%d.%d\n", fv_version(), maj, min, pat);
    }
#else
    printf(", fontvm %s (built without FreeType: no comparison)\n", fv_version());
#endif
    printf("%-34s %7s %13s %13s %7s %11s\n", "font", "glyphs", "fontvm g/s", "FreeType g/s",
           "ratio", "peak mem");
    bench_result tot_fv = {0, 0, 0}, tot_ft = {0, 0, 0};
    int rc = CLI_OK;
    for (uint32_t f = 0; f < num_fonts; f++) {
        bench_result rf, rt;
        size_t peak = 0;
        uint32_t n = 0;
        int r = bench_fontvm(fonts[f], &o, &rf, &peak, &n);
        if (r != CLI_OK) {
            rc = r;
            continue;
        }
        tot_fv.glyphs += rf.glyphs;
        tot_fv.seconds += rf.seconds;
        tot_fv.failed += rf.failed;
        char ft_rate[32] = "-", ratio[32] = "-";
#ifdef FONTVM_CLI_WITH_REFERENCES
        if (bench_freetype(fonts[f], &o, &rt) == 0) {
            tot_ft.glyphs += rt.glyphs;
            tot_ft.seconds += rt.seconds;
            tot_ft.failed += rt.failed;
            snprintf(ft_rate, sizeof ft_rate, "%.0f", rate(&rt));
            if (rate(&rt) > 0)
                snprintf(ratio, sizeof ratio, "%.2f", rate(&rf) / rate(&rt));
        } else {
            rc = CLI_BAD_INPUT;
        }
#else
        (void)rt;
#endif
        printf("%-34s %7u %13.0f %13s %7s %8.2f MiB", base_name(fonts[f]), n, rate(&rf), ft_rate,
               ratio, (double)peak / (1024.0 * 1024.0));
        if (rf.failed)
            printf("  (%llu fontvm loads failed)", (unsigned long long)rf.failed);
        printf("\n");
        fflush(stdout);
    }
    if (tot_fv.glyphs) {
        printf("%-34s %7s %13.0f", "total", "", rate(&tot_fv));
        if (tot_ft.glyphs && rate(&tot_ft) > 0)
            printf(" %13.0f %7.2f", rate(&tot_ft), rate(&tot_fv) / rate(&tot_ft));
        printf("   (%llu loads per engine)\n", (unsigned long long)tot_fv.glyphs);
    }
    return rc;
}
