/* `fontvm hint`: hints glyphs of a font at one size and mode and prints the
 * outlines FreeType would return (issue 3):
 *
 *   fontvm hint FONT --ppem N [--mode v35|v40|v40-mono|v40-lcd]
 *               [--glyphs all|A-B|g1,g2] [--pedantic] [--face N] (--json|--quiet)
 *
 * --json: one object per glyph and line,
 *   {"gid":36,"ppem":12,"mode":"v40","advance":512,"points":[[438,0],...],"error":null}
 * --quiet: one summary line.
 *
 * The TrueType argument helpers shared with `trace` and `bench` are in
 * cli_tt.c. */

#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli.h"
#include "fontvm/tt.h"

/* ---- glyph selection ----------------------------------------------------- */

#define HINT_MAX_RANGES 256

typedef struct glyph_ranges {
    int all;
    uint32_t n;
    uint32_t first[HINT_MAX_RANGES], last[HINT_MAX_RANGES];
} glyph_ranges;

/* "all", "A-B", "g1,g2,A-B" (glyph ids). */
static int parse_glyphs(const char *s, glyph_ranges *r)
{
    memset(r, 0, sizeof *r);
    if (strcmp(s, "all") == 0) {
        r->all = 1;
        return 0;
    }
    const char *p = s;
    while (*p) {
        char item[32];
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof item || r->n >= HINT_MAX_RANGES)
            return -1;
        memcpy(item, p, len);
        item[len] = '\0';
        char *dash = strchr(item, '-');
        uint32_t a, b;
        if (dash) {
            *dash = '\0';
            if (cli_parse_uint(item, UINT32_MAX, &a) || cli_parse_uint(dash + 1, UINT32_MAX, &b) ||
                b < a)
                return -1;
        } else {
            if (cli_parse_uint(item, UINT32_MAX, &a))
                return -1;
            b = a;
        }
        r->first[r->n] = a;
        r->last[r->n] = b;
        r->n++;
        p += len;
        if (*p == ',') {
            p++;
            if (!*p)
                return -1;
        }
    }
    return r->n ? 0 : -1;
}

/* ---- the command --------------------------------------------------------- */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: fontvm hint FONT --ppem N [--mode v35|v40|v40-mono|v40-lcd]\n"
            "                   [--glyphs all|A-B|g1,g2] [--pedantic] [--face N] (--json|--quiet)\n\n"
            "Hints glyphs as FreeType's FT_Load_Glyph(NO_AUTOHINT|NO_BITMAP|target) does.\n"
            "  --ppem N    12, 10.5 or 12x16 (x and y ppem); 72 dpi\n"
            "  --mode M    interpreter and target (default v40)\n"
            "  --glyphs G  glyph ids: all (default), a range A-B, or a list\n"
            "  --pedantic  turn faults FreeType ignores into errors (FT_LOAD_PEDANTIC)\n"
            "  --json      one JSON object per glyph and line (26.6 points, phantom points excluded)\n"
            "  --quiet     hint and print a one-line summary only\n"
            "Exit status: 0 every glyph hinted, 1 some glyph failed, 2 bad input.\n");
}

static json_t *error_json(const fv_error *err)
{
    char msg[256];
    fv_error_format(err, msg, sizeof msg);
    static const char *const programs[] = {"none", "fpgm", "prep", "glyf", "pass", "constraint"};
    const char *prog = (unsigned)err->program < sizeof programs / sizeof programs[0]
                           ? programs[err->program]
                           : "none";
    json_t *e = json_object();
    json_object_set_new(e, "kind", json_string(fv_status_name(err->kind)));
    json_object_set_new(e, "program", json_string(prog));
    json_object_set_new(e, "glyph",
                        err->glyph == FV_NO_VALUE ? json_null() : json_integer(err->glyph));
    json_object_set_new(e, "pc", err->pc == FV_NO_VALUE ? json_null() : json_integer(err->pc));
    json_object_set_new(e, "message", json_string(msg));
    return e;
}

static json_t *ppem_json(int32_t x, int32_t y)
{
    if (x != y) {
        char label[64];
        cli_tt_size_label(x, y, label, sizeof label);
        return json_string(label);
    }
    if (x % 64 == 0)
        return json_integer(x / 64);
    return json_real((double)x / 64.0);
}

int cmd_hint(int argc, char **argv)
{
    static const struct option options[] = {
        {"help", no_argument, NULL, 'h'},          {"json", no_argument, NULL, 'j'},
        {"quiet", no_argument, NULL, 'q'},         {"pedantic", no_argument, NULL, 'P'},
        {"ppem", required_argument, NULL, 'p'},    {"mode", required_argument, NULL, 'm'},
        {"glyphs", required_argument, NULL, 'g'},  {"face", required_argument, NULL, 'f'},
        {NULL, 0, NULL, 0}};
    const char *ppem = NULL, *mode_s = "v40", *glyphs_s = "all";
    int json = 0, quiet = 0, pedantic = 0, opt;
    uint32_t face_index = 0;
    cli_getopt_begin();
    while ((opt = cli_getopt(argc, argv, "hint", options)) != -1) {
        switch (opt) {
        case 'h': usage(stdout); return CLI_OK;
        case 'j': json = 1; break;
        case 'q': quiet = 1; break;
        case 'P': pedantic = 1; break;
        case 'p': ppem = optarg; break;
        case 'm': mode_s = optarg; break;
        case 'g': glyphs_s = optarg; break;
        case 'f':
            if (cli_parse_uint(optarg, UINT32_MAX, &face_index))
                return cli_usage_error("hint", "--face expects a face index");
            break;
        default: return CLI_BAD_INPUT;
        }
    }
    if (optind >= argc)
        return cli_usage_error("hint", "missing FONT");
    if (optind + 1 < argc)
        return cli_usage_error("hint", "only one FONT may be given");
    const char *path = argv[optind];
    if (json == quiet)
        return cli_usage_error("hint", "give exactly one of --json and --quiet");
    fv_tt_size_request req;
    if (cli_tt_request("hint", ppem, mode_s, pedantic, &req) != CLI_OK)
        return CLI_BAD_INPUT;
    const int32_t x26 = req.x_ppem_26d6, y26 = req.y_ppem_26d6;
    const fv_tt_mode mode = req.mode;
    glyph_ranges ranges;
    if (parse_glyphs(glyphs_s, &ranges))
        return cli_usage_error("hint", "--glyphs expects all, A-B or a list of glyph ids");

    cli_tt_session ss;
    int rc = cli_tt_open(path, face_index, &req, NULL, NULL, &ss);
    if (rc != CLI_OK)
        return rc;
    uint32_t num_glyphs = fv_font_glyph_count(ss.font);
    if (ranges.all) {
        ranges.n = num_glyphs ? 1 : 0;
        ranges.first[0] = 0;
        ranges.last[0] = num_glyphs ? num_glyphs - 1 : 0;
    }
    for (uint32_t i = 0; i < ranges.n; i++) {
        if (ranges.last[i] >= num_glyphs) {
            char msg[128];
            snprintf(msg, sizeof msg, "glyph %u is beyond the font's %u glyphs", ranges.last[i],
                     num_glyphs);
            rc = cli_usage_error("hint", msg);
            goto done;
        }
    }

    fv_error err;
    uint64_t ok = 0, failed = 0;
    fv_error first_err;
    fv_error_clear(&first_err);
    double t0 = cli_tt_now();
    for (uint32_t r = 0; r < ranges.n; r++) {
        for (uint64_t gid = ranges.first[r]; gid <= ranges.last[r]; gid++) {
            fv_tt_outline o;
            memset(&o, 0, sizeof o);
            fv_error_clear(&err);
            fv_status st = fv_tt_hint_glyph(ss.size, ss.exec, (uint32_t)gid, &o, &err);
            if (st == FV_OK) {
                ok++;
            } else {
                if (failed++ == 0)
                    first_err = err;
            }
            if (json) {
                json_t *g = json_object();
                json_object_set_new(g, "gid", json_integer((json_int_t)gid));
                json_object_set_new(g, "ppem", ppem_json(x26, y26));
                json_object_set_new(g, "mode", json_string(fv_tt_mode_name(mode)));
                if (st == FV_OK) {
                    json_t *pts = json_array();
                    for (uint32_t i = 0; i < o.num_points; i++)
                        json_array_append_new(pts, json_pack("[I,I]", (json_int_t)o.x[i],
                                                             (json_int_t)o.y[i]));
                    json_object_set_new(g, "advance", json_integer(o.advance_x));
                    json_object_set_new(g, "points", pts);
                    json_object_set_new(g, "error", json_null());
                } else {
                    json_object_set_new(g, "advance", json_null());
                    json_object_set_new(g, "points", json_null());
                    json_object_set_new(g, "error", error_json(&err));
                }
                char *line = json_dumps(g, JSON_COMPACT | JSON_PRESERVE_ORDER);
                json_decref(g);
                if (line) {
                    fputs(line, stdout);
                    fputc('\n', stdout);
                    free(line);
                }
            }
            fv_tt_outline_free(ss.face, &o);
        }
    }
    double secs = cli_tt_now() - t0;
    if (quiet) {
        char label[64];
        cli_tt_size_label(x26, y26, label, sizeof label);
        printf("%s: hinted %llu glyphs at %s ppem (%s%s): %llu ok, %llu failed, %.3f s",
               path, (unsigned long long)(ok + failed), label, fv_tt_mode_name(mode),
               pedantic ? ", pedantic" : "", (unsigned long long)ok, (unsigned long long)failed,
               secs);
        if (failed) {
            char msg[256];
            fv_error_format(&first_err, msg, sizeof msg);
            printf("; first error: %s", msg);
        }
        printf("\n");
    }
    rc = failed ? CLI_PROBLEM : CLI_OK;
    if (fflush(stdout) != 0)
        rc = CLI_PROBLEM;
done:
    cli_tt_close(&ss);
    return rc;
}
