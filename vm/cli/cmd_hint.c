/* `fontvm hint`: hints glyphs of a font at one size and mode and prints the
 * outlines FreeType would return (issue 3):
 *
 *   fontvm hint FONT --ppem N [--mode v35|v40|v40-mono|v40-lcd]
 *               [--glyphs G | --text S | -u LIST] [--pedantic] [--face N]
 *               [--json | --quiet]
 *
 * The default output lists each glyph's advance, contours and points with
 * their on/off-curve flags, as ftdump and ftgrid list points; --json gives
 * one object per glyph and line,
 *   {"gid":36,"ppem":12,"mode":"v40","advance":512,"points":[[438,0],...],
 *    "contours":[10,21],"flags":[1,0,...],"error":null}
 * and --quiet one summary line.
 *
 * The TrueType argument helpers shared with `trace` and `bench` are in
 * cli_tt.c; glyph selection is cli_glyphs.c's. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "cli_out.h"
#include "fontvm/var.h"
#include "fontvm/tt.h"
#include "gr_compare.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: fontvm hint FONT --ppem N [--mode v35|v40|v40-mono|v40-lcd]\n"
            "                   [--glyphs G | --text S | -u LIST] [--pedantic] [--face N]\n"
            "                   [--variations TAG=V,... | --named-instance N] [--json | --quiet]\n\n"
            "Hints glyphs as FreeType's FT_Load_Glyph(NO_AUTOHINT|NO_BITMAP|target) does and\n"
            "prints, per glyph, its advance, contours and points (26.6 and pixels) with\n"
            "their on/off-curve flags, like ftdump's and ftgrid's point listing.\n"
            "  --ppem N      pixels per em at 72 dpi: 12, 10.5 or 12x16 (x and y), from\n"
            "                0.016 (1/64) to 16384\n"
            "  --mode M      interpreter and target (default v40)\n"
            "  --glyphs G    all (default), or any number of glyph ids, ranges A-B and\n"
            "                glyph names (post table, or gidN), separated by commas\n"
            "  --text S      the glyphs of the characters of S, through the cmap\n"
            "  -u, --unicodes LIST   the same for code points: U+0041,U+0042\n"
            "  --pedantic    turn faults FreeType ignores into errors (FT_LOAD_PEDANTIC)\n"
            "  --face N      face of a collection (0 to 65535, default 0)\n"
            "  --variations TAG=V,...  a variable font's location in design units, as\n"
            "                hb-view takes it: wght=700,wdth=80 (other axes at default)\n"
            "  --named-instance N  a variable font's named instance (1 to the count\n"
            "                fontvm info lists; 0 the default location)\n"
            "  --json        one JSON object per glyph and line: gid, ppem, mode, advance,\n"
            "                points ([x,y] in 26.6, phantom points excluded), contours\n"
            "                (each contour's last point), flags (1 on curve, 0 off), error\n"
            "  --quiet       hint and print a one-line summary only\n"
            "Every option takes its value as --opt value or --opt=value.\n"
            "Exit status: 0 every glyph hinted, 1 some glyph failed, 2 bad input.\n");
}

/* The error object of a glyph that failed: kind, program, glyph, pc,
 * message. */
static void write_error(cli_out *w, const fv_error *err)
{
    char msg[256];
    fv_error_format(err, msg, sizeof msg);
    static const char *const programs[] = {"none", "fpgm", "prep", "glyf", "pass", "constraint"};
    const char *prog = (unsigned)err->program < sizeof programs / sizeof programs[0]
                           ? programs[err->program]
                           : "none";
    const char *kind = fv_status_name(err->kind);
    cli_out_str(w, "{\"kind\":");
    cli_out_json_string(w, kind, strlen(kind));
    cli_out_str(w, ",\"program\":");
    cli_out_json_string(w, prog, strlen(prog));
    cli_out_str(w, ",\"glyph\":");
    if (err->glyph == FV_NO_VALUE)
        cli_out_str(w, "null");
    else
        cli_out_u64(w, err->glyph);
    cli_out_str(w, ",\"pc\":");
    if (err->pc == FV_NO_VALUE)
        cli_out_str(w, "null");
    else
        cli_out_u64(w, err->pc);
    cli_out_str(w, ",\"message\":");
    cli_out_json_string(w, msg, strlen(msg));
    cli_out_byte(w, '}');
}

/* The constant start of every line after the gid: ,"ppem":P,"mode":"M",
 * made once per run.  jansson formats the ppem (an integer, a real such
 * as 10.5, or a "12x16" label) as the lines always had it. */
static int line_head(int32_t x, int32_t y, fv_tt_mode mode, char *buf, size_t size)
{
    json_t *p;
    if (x != y) {
        char label[64];
        cli_tt_size_label(x, y, label, sizeof label);
        p = json_string(label);
    } else if (x % 64 == 0) {
        p = json_integer(x / 64);
    } else {
        p = json_real((double)x / 64.0);
    }
    char *ppem = p ? json_dumps(p, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    json_decref(p);
    if (!ppem)
        return -1;
    int n = snprintf(buf, size, ",\"ppem\":%s,\"mode\":\"%s\"", ppem, fv_tt_mode_name(mode));
    free(ppem);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

/* One glyph's line, keys in the order of the jansson objects this
 * replaced (the lines are byte for byte the same: tests/cli/test_cli.sh
 * "hint --json bytes"). */
static void print_json(cli_out *w, uint32_t gid, const char *head, fv_status st,
                       const fv_tt_outline *o, const fv_error *err)
{
    cli_out_str(w, "{\"gid\":");
    cli_out_u64(w, gid);
    cli_out_str(w, head);
    if (st == FV_OK) {
        cli_out_str(w, ",\"advance\":");
        cli_out_i64(w, o->advance_x);
        cli_out_str(w, ",\"points\":[");
        for (uint32_t i = 0; i < o->num_points; i++) {
            cli_out_room(w, 2 * CLI_OUT_SLACK);
            char *p = w->buf + w->len;
            if (i)
                *p++ = ',';
            *p++ = '[';
            p = cli_out_fmt_i64(p, o->x[i]);
            *p++ = ',';
            p = cli_out_fmt_i64(p, o->y[i]);
            *p++ = ']';
            w->len = (size_t)(p - w->buf);
        }
        cli_out_str(w, "],\"contours\":[");
        for (uint32_t c = 0; c < o->num_contours; c++) {
            if (c)
                cli_out_byte(w, ',');
            cli_out_u64(w, o->contour_ends[c]);
        }
        cli_out_str(w, "],\"flags\":[");
        for (uint32_t i = 0; i < o->num_points;) {
            /* in blocks, one space check each */
            uint32_t end = o->num_points - i > 1024 ? i + 1024 : o->num_points;
            cli_out_room(w, 2 * 1024);
            char *p = w->buf + w->len;
            if (i == 0)
                *p++ = (char)('0' + (o->tags[i++] & 1));
            for (; i < end; i++) {
                *p++ = ',';
                *p++ = (char)('0' + (o->tags[i] & 1));
            }
            w->len = (size_t)(p - w->buf);
        }
        cli_out_str(w, "],\"error\":null}\n");
    } else {
        cli_out_str(w, ",\"advance\":null,\"points\":null,\"contours\":null,\"flags\":null,"
                       "\"error\":");
        write_error(w, err);
        cli_out_str(w, "}\n");
    }
}

/* ftdump/ftgrid-style listing: a header per glyph, then each contour's
 * points with their flag, 26.6 coordinates and pixels. */
static void print_listing(uint32_t gid, const char *name, fv_status st, const fv_tt_outline *o,
                          const fv_error *err)
{
    if (st != FV_OK) {
        char msg[256];
        fv_error_format(err, msg, sizeof msg);
        printf("glyph %lu (%s): error: %s [%s]\n\n", (unsigned long)gid, name, msg,
               fv_status_name(err->kind));
        return;
    }
    printf("glyph %lu (%s): advance %ld (%.2f px), %lu contour%s, %lu point%s\n",
           (unsigned long)gid, name, (long)o->advance_x, o->advance_x / 64.0,
           (unsigned long)o->num_contours, o->num_contours == 1 ? "" : "s",
           (unsigned long)o->num_points, o->num_points == 1 ? "" : "s");
    uint32_t first = 0;
    for (uint32_t c = 0; c < o->num_contours; c++) {
        uint32_t last = o->contour_ends[c];
        printf("  contour %lu: points %lu-%lu\n", (unsigned long)c, (unsigned long)first,
               (unsigned long)last);
        for (uint32_t i = first; i <= last && i < o->num_points; i++)
            printf("    %5lu  %-3s  %7ld %7ld   (%8.3f, %8.3f)\n", (unsigned long)i,
                   (o->tags[i] & 1) ? "on" : "off", (long)o->x[i], (long)o->y[i], o->x[i] / 64.0,
                   o->y[i] / 64.0);
        first = last + 1;
    }
    putchar('\n');
}

enum { OUT_LISTING, OUT_JSON, OUT_QUIET };

int cmd_hint(int argc, char **argv)
{
    static const struct option options[] = {
        {"help", no_argument, NULL, 'h'},          {"json", no_argument, NULL, 'j'},
        {"quiet", no_argument, NULL, 'q'},         {"pedantic", no_argument, NULL, 'P'},
        {"ppem", required_argument, NULL, 'p'},    {"mode", required_argument, NULL, 'm'},
        {"glyphs", required_argument, NULL, 'g'},  {"face", required_argument, NULL, 'f'},
        {"text", required_argument, NULL, 't'},    {"unicodes", required_argument, NULL, 'u'},
        {"variations", required_argument, NULL, 'V'},
        {"named-instance", required_argument, NULL, 'I'},
        {NULL, 0, NULL, 0}};
    const char *ppem = NULL, *mode_s = "v40", *glyphs_s = NULL, *text = NULL, *unicodes = NULL;
    const char *variations = NULL, *named = NULL;
    int32_t coords[FV_VAR_MAX_AXES];
    int out = OUT_LISTING, pedantic = 0, opt;
    uint32_t face_index = 0;
    cli_getopt_begin();
    while ((opt = cli_getopt_short(argc, argv, "hint", "u:", options)) != -1) {
        switch (opt) {
        case 'h': usage(stdout); return CLI_OK;
        case 'j':
        case 'q':
            if (out != OUT_LISTING && out != (opt == 'j' ? OUT_JSON : OUT_QUIET))
                return cli_usage_error("hint", "give one of --json and --quiet");
            out = opt == 'j' ? OUT_JSON : OUT_QUIET;
            break;
        case 'P': pedantic = 1; break;
        case 'p': ppem = optarg; break;
        case 'm': mode_s = optarg; break;
        case 'g': glyphs_s = optarg; break;
        case 't': text = optarg; break;
        case 'u': unicodes = optarg; break;
        case 'V': variations = optarg; break;
        case 'I': named = optarg; break;
        case 'f':
            if (cli_opt_uint("hint", "--face", optarg, 0, 0xFFFF, &face_index))
                return CLI_BAD_INPUT;
            break;
        default: return CLI_BAD_INPUT;
        }
    }
    if (optind >= argc)
        return cli_usage_error("hint", "missing FONT");
    if (optind + 1 < argc)
        return cli_usage_error("hint", "only one FONT may be given");
    if ((glyphs_s != NULL) + (text != NULL) + (unicodes != NULL) > 1)
        return cli_usage_error("hint", "give one of --glyphs, --text and -u");
    const char *path = argv[optind];
    fv_tt_size_request req;
    if (cli_tt_request("hint", ppem, mode_s, pedantic, &req) != CLI_OK)
        return CLI_BAD_INPUT;
    const int32_t x26 = req.x_ppem_26d6, y26 = req.y_ppem_26d6;
    const fv_tt_mode mode = req.mode;

    /* The glyph list is checked before the size (and its prep) is made, so
     * bad input prints nothing on stdout. */
    cli_tt_session ss;
    int rc = cli_tt_open(path, face_index, NULL, NULL, NULL, &ss);
    if (rc != CLI_OK)
        return rc;
    cli_names *names = cli_names_open(ss.font);
    cli_glyph_list glyphs = {NULL, 0, 0};
    uint32_t *cps = NULL;
    if (text || unicodes) {
        size_t cap = text ? strlen(text) + 1 : strlen(unicodes) + 1;
        cps = malloc(cap * sizeof *cps);
        long n = !cps ? -1
                 : text ? (long)grc_utf8_decode(text, strlen(text), cps, cap)
                        : cli_parse_unicodes("hint", "--unicodes", unicodes, cps, cap);
        rc = n < 0 ? CLI_BAD_INPUT : cli_glyphs_add_chars("hint", cps, (size_t)n, ss.font, &glyphs);
    } else {
        rc = cli_glyphs_add_spec("hint", "--glyphs", glyphs_s ? glyphs_s : "all", ss.font, names,
                                 &glyphs);
    }
    if (rc == CLI_OK)
        rc = cli_var_location("hint", ss.font, variations, named, coords, &req);
    fv_error err;
    if (rc == CLI_OK && fv_tt_size_new(ss.face, ss.exec, &req, &ss.size, &err) != FV_OK) {
        ss.size = NULL;
        rc = cli_fail(path, &err);
    }
    if (rc != CLI_OK)
        goto done;

    uint64_t ok = 0, failed = 0;
    fv_error first_err;
    fv_error_clear(&first_err);
    /* The JSON lines' writer: 64 KB, so on the heap. */
    cli_out *w = NULL;
    char head[128];
    if (out == OUT_JSON) {
        w = malloc(sizeof *w);
        if (!w || line_head(x26, y26, mode, head, sizeof head) != 0) {
            fprintf(stderr, "fontvm hint: out of memory\n");
            rc = CLI_PROBLEM;
            free(w);
            goto done;
        }
        cli_out_init(w, stdout);
    }
    double t0 = cli_tt_now();
    for (size_t i = 0; i < glyphs.n; i++) {
        uint32_t gid = glyphs.gids[i];
        fv_tt_outline o;
        memset(&o, 0, sizeof o);
        fv_error_clear(&err);
        fv_status st = fv_tt_hint_glyph(ss.size, ss.exec, gid, &o, &err);
        if (st == FV_OK)
            ok++;
        else if (failed++ == 0)
            first_err = err;
        if (out == OUT_JSON) {
            print_json(w, gid, head, st, &o, &err);
        } else if (out == OUT_LISTING) {
            char name[256];
            cli_glyph_name(names, gid, name, sizeof name);
            print_listing(gid, name, st, &o, &err);
        }
        fv_tt_outline_free(ss.face, &o);
    }
    if (w) {
        cli_out_flush(w);
        free(w);
    }
    double secs = cli_tt_now() - t0;
    if (out == OUT_QUIET) {
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
    free(cps);
    cli_glyphs_free(&glyphs);
    cli_names_close(names);
    cli_tt_close(&ss);
    return rc;
}
