/* `fontvm shape`: shapes text with fontvm's Graphite engine and prints it
 * as hb-shape does (text or JSON), as gr2fonttest -log does (graphite2's
 * own test expectations compare byte for byte), or as a table of slots.
 * The options are hb-shape's where they mean the same. */
#include <stdlib.h>
#include <string.h>

#include "graphite/grv.h"
#include "sfnt/font.h"
#include "shape.h"

static const char help[] =
    "usage: fontvm shape FONT [TEXT] [options]\n"
    "       fontvm shape FONT --codes HEX...    (gr2fonttest's -codes)\n"
    "\n"
    "Shapes text with the font's Graphite rules.  Output is hb-shape's: one line\n"
    "per segment, [name=cluster@dx,dy+advance|...], as `hb-shape --shapers=graphite2`\n"
    "prints it.  Every option takes its value as --opt value or --opt=value.\n"
    "\n"
    "text (one of them; none: standard input, one segment per line):\n"
    "  TEXT                    one segment (UTF-8)\n"
    "  --text S                the same\n"
    "  --text-file F           one segment per line of F\n"
    "  -u, --unicodes LIST     code points in hex: U+1019,U+102C or 1019 102c\n"
    "  --codes HEX...          the same, as separate arguments (gr2fonttest)\n"
    "shaping:\n"
    "  --features LIST         hb-shape's syntax: kern, +kern, -liga, kern=0, aalt=2;\n"
    "                          Graphite feature numbers too (1024=1); lang=xx selects\n"
    "                          the language as gr2fonttest -feat does.  A feature the\n"
    "                          font lacks is ignored with a warning\n"
    "  --direction ltr|rtl     default: from --script, else from the script of the\n"
    "                          text's first letter, as hb-shape guesses it (--rtl)\n"
    "  --language TAG          BCP 47 tag; its first part selects the font's language\n"
    "                          settings (Sill), as HarfBuzz passes it (--lang xx: the\n"
    "                          tag as gr2fonttest takes it)\n"
    "  --script TAG            ISO 15924 tag; sets the direction when --direction is\n"
    "                          not given, as in hb-shape (Graphite shaping itself\n"
    "                          takes no script; --format table shows it)\n"
    "  --justify P             justify each segment to P% of its natural width, as\n"
    "                          gr2fonttest -j P does (1 to 10000)\n"
    "output:\n"
    "  -O, --output-format F   text (hb-shape's, the default), json (hb-shape's),\n"
    "                          gr2log (gr2fonttest -log, byte for byte) or table\n"
    "                          (graphite2's slots in font units); --format is the same\n"
    "  --json                  --output-format json\n"
    "  --font-size N           hb-shape's font size: positions in units of N per em\n"
    "                          (default: the font's units per em, 1 to 1000000)\n"
    "  --ppem N                gr2log's scale (default 12, gr2fonttest's; 1 to 100000)\n"
    "  --no-glyph-names        glyph ids instead of post table names\n"
    "  --no-clusters, --no-positions, --no-advances, --ned   as hb-shape\n"
    "  --trace                 before each segment: every pass's slot stream in and\n"
    "                          out, every rule that fired with its constraint and\n"
    "                          action code command by command and the stack before\n"
    "                          each, and the rules whose constraint failed\n"
    "with the reference libraries (a build with FONTVM_BUILD_CONFORMANCE):\n"
    "  --engine fontvm|graphite2   shape with graphite2 itself, same printers\n"
    "  --bench [--repeat N]    speed: every line of --text-file shaped N times\n"
    "                          (default 20, 1 to 100000) by fontvm and graphite2,\n"
    "                          passes alternating; segments/s and their ratio\n"
    "\n"
    "Exit status: 0 every segment shaped, 1 a segment failed, 2 bad input.\n";

#define BENCH_DEFAULT_REPEAT 20u
#define BENCH_MAX_REPEAT 100000u

enum {
    OPT_TEXT = 256, OPT_TEXT_FILE, OPT_CODES, OPT_FEATURES, OPT_DIRECTION, OPT_RTL,
    OPT_LANGUAGE, OPT_LANG, OPT_SCRIPT, OPT_FONT_SIZE, OPT_FORMAT, OPT_JSON, OPT_NO_NAMES,
    OPT_NO_CLUSTERS, OPT_NO_POSITIONS, OPT_NO_ADVANCES, OPT_NED, OPT_PPEM, OPT_JUSTIFY,
    OPT_TRACE, OPT_ENGINE, OPT_BENCH, OPT_REPEAT
};

static const struct option options[] = {
    {"help", no_argument, NULL, 'h'},
    {"text", required_argument, NULL, OPT_TEXT},
    {"text-file", required_argument, NULL, OPT_TEXT_FILE},
    {"unicodes", required_argument, NULL, 'u'},
    {"codes", required_argument, NULL, OPT_CODES},
    {"features", required_argument, NULL, OPT_FEATURES},
    {"direction", required_argument, NULL, OPT_DIRECTION},
    {"rtl", no_argument, NULL, OPT_RTL},
    {"language", required_argument, NULL, OPT_LANGUAGE},
    {"lang", required_argument, NULL, OPT_LANG},
    {"script", required_argument, NULL, OPT_SCRIPT},
    {"font-size", required_argument, NULL, OPT_FONT_SIZE},
    {"output-format", required_argument, NULL, 'O'},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"json", no_argument, NULL, OPT_JSON},
    {"no-glyph-names", no_argument, NULL, OPT_NO_NAMES},
    {"no-clusters", no_argument, NULL, OPT_NO_CLUSTERS},
    {"no-positions", no_argument, NULL, OPT_NO_POSITIONS},
    {"no-advances", no_argument, NULL, OPT_NO_ADVANCES},
    {"ned", no_argument, NULL, OPT_NED},
    {"ppem", required_argument, NULL, OPT_PPEM},
    {"justify", required_argument, NULL, OPT_JUSTIFY},
    {"trace", no_argument, NULL, OPT_TRACE},
    {"engine", required_argument, NULL, OPT_ENGINE},
    {"bench", no_argument, NULL, OPT_BENCH},
    {"repeat", required_argument, NULL, OPT_REPEAT},
    {NULL, 0, NULL, 0}};

typedef struct shape_args {
    const char *path, *text, *text_file, *unicodes, *features, *lang, *language;
    int codes_given, use_graphite2, want_trace, want_bench;
    uint32_t repeat;
    char **codes;             /* --codes values and the positionals after FONT */
    size_t num_codes;
} shape_args;

static int parse_format(const char *option, const char *v, shape_opts *o)
{
    static const struct { const char *name; shape_format f; } formats[] = {
        {"text", SHAPE_HB_TEXT}, {"json", SHAPE_HB_JSON}, {"gr2log", SHAPE_GR2LOG},
        {"table", SHAPE_TABLE}};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (!strcmp(v, formats[i].name)) {
            o->format = formats[i].f;
            return CLI_OK;
        }
    return cli_bad_value("shape", option, v, "expected text, json, gr2log or table");
}

static int parse_options(int argc, char **argv, shape_args *a, shape_opts *o)
{
    int opt;
    uint32_t v;
    cli_getopt_begin();
    while ((opt = cli_getopt_short(argc, argv, "shape", "u:O:", options)) != -1) {
        switch (opt) {
        case 'h': fputs(help, stdout); return -1;
        case OPT_TEXT: a->text = optarg; break;
        case OPT_TEXT_FILE: a->text_file = optarg; break;
        case 'u': a->unicodes = optarg; break;
        case OPT_CODES:
            a->codes_given = 1;
            a->codes[a->num_codes++] = optarg;
            break;
        case OPT_FEATURES: a->features = optarg; break;
        case OPT_DIRECTION:
            if (!strcmp(optarg, "ltr") || !strcmp(optarg, "rtl"))
                o->direction = !strcmp(optarg, "rtl");
            else
                return cli_bad_value("shape", "--direction", optarg, "expected ltr or rtl");
            break;
        case OPT_RTL: o->direction = 1; break;
        case OPT_LANGUAGE: a->language = optarg; break;
        case OPT_LANG: a->lang = optarg; break;
        case OPT_SCRIPT:
            if (shape_script_direction(optarg) < 0)
                return cli_bad_value("shape", "--script", optarg,
                                     "expected an ISO 15924 tag of 4 letters (Arab, Mymr)");
            o->script = optarg;
            break;
        case OPT_FONT_SIZE:
            if (strcmp(optarg, "upem") != 0) {
                if (cli_opt_uint("shape", "--font-size", optarg, 1, 1000000, &v) != CLI_OK)
                    return CLI_BAD_INPUT;
                o->font_size = v;
            }
            break;
        case 'O': if (parse_format("--output-format", optarg, o)) return CLI_BAD_INPUT; break;
        case OPT_FORMAT: if (parse_format("--format", optarg, o)) return CLI_BAD_INPUT; break;
        case OPT_JSON: o->format = SHAPE_HB_JSON; break;
        case OPT_NO_NAMES: o->glyph_names = 0; break;
        case OPT_NO_CLUSTERS: o->clusters = 0; break;
        case OPT_NO_POSITIONS: o->positions = 0; break;
        case OPT_NO_ADVANCES: o->advances = 0; break;
        case OPT_NED: o->clusters = o->advances = 0; break;
        case OPT_PPEM:
            if (cli_opt_uint("shape", "--ppem", optarg, 1, 100000, &v) != CLI_OK)
                return CLI_BAD_INPUT;
            o->ppem = v;
            break;
        case OPT_JUSTIFY:
            if (cli_opt_uint("shape", "--justify", optarg, 1, 10000, &o->justify_percent))
                return CLI_BAD_INPUT;
            break;
        case OPT_TRACE: a->want_trace = 1; break;
        case OPT_ENGINE:
            if (strcmp(optarg, "fontvm") && strcmp(optarg, "graphite2"))
                return cli_bad_value("shape", "--engine", optarg, "expected fontvm or graphite2");
            a->use_graphite2 = !strcmp(optarg, "graphite2");
            break;
        case OPT_BENCH: a->want_bench = 1; break;
        case OPT_REPEAT:
            if (cli_opt_uint("shape", "--repeat", optarg, 1, BENCH_MAX_REPEAT, &a->repeat))
                return CLI_BAD_INPUT;
            break;
        default: return CLI_BAD_INPUT;
        }
    }
    if (optind >= argc)
        return cli_usage_error("shape", "missing FONT");
    a->path = argv[optind++];
    if (a->codes_given) {
        /* gr2fonttest -codes: every argument after the font is a code. */
        while (optind < argc)
            a->codes[a->num_codes++] = argv[optind++];
    } else if (optind < argc) {
        if (optind + 1 < argc)
            return cli_usage_error("shape", "one FONT and one TEXT at a time (quote the text)");
        if (a->text || a->text_file || a->unicodes)
            return cli_usage_error("shape", "TEXT given together with --text, --text-file or -u");
        a->text = argv[optind++];
    }
    if ((a->text != NULL) + (a->text_file != NULL) + (a->unicodes != NULL) + a->codes_given > 1)
        return cli_usage_error("shape", "give one of TEXT, --text, --text-file, -u, --codes");
    if (a->want_bench && (!a->text_file || a->use_graphite2 || a->want_trace))
        return cli_usage_error("shape", "--bench wants --text-file, without --engine or --trace");
    if (a->want_trace && a->use_graphite2)
        return cli_usage_error("shape", "--trace traces fontvm, not graphite2");
    if (a->features && shape_parse_features(a->features, o) != CLI_OK)
        return CLI_BAD_INPUT;
    if (a->language && shape_parse_language(a->language, o) != CLI_OK)
        return CLI_BAD_INPUT;
    if (a->lang && grc_parse_tag(a->lang, strlen(a->lang), &o->features.lang) != 0)
        return cli_bad_value("shape", "--lang", a->lang, "expected a tag of 1 to 4 characters");
    return CLI_OK;
}

/* hb-shape's default direction: the horizontal direction of the script of
 * the first character that has one (not Common or Inherited: digits,
 * punctuation, spaces, symbols, combining marks).  Right-to-left scripts
 * are the blocks listed; the Common and Inherited characters inside them
 * are skipped. */
static int is_common_or_inherited(uint32_t c)
{
    static const uint32_t ranges[][2] = {
        {0x0000, 0x0040}, {0x005B, 0x0060}, {0x007B, 0x00A9}, {0x00AB, 0x00B9},
        {0x00BB, 0x00BF}, {0x00D7, 0x00D7}, {0x00F7, 0x00F7}, {0x02B9, 0x02DF},
        {0x02E5, 0x036F}, {0x0589, 0x0589}, {0x0605, 0x0605}, {0x060C, 0x060C},
        {0x061B, 0x061C}, {0x061F, 0x061F}, {0x0640, 0x0640}, {0x064B, 0x0655},
        {0x0670, 0x0670}, {0x06DD, 0x06DD}, {0x0964, 0x0965}, {0x0E3F, 0x0E3F},
        {0x1CD0, 0x1CFF}, {0x1DC0, 0x1DFF}, {0x2000, 0x2BFF}, {0x2E00, 0x2E7F},
        {0x3000, 0x3004}, {0x3006, 0x3006}, {0x3008, 0x3020}, {0x302A, 0x3037},
        {0x303C, 0x303F}, {0xFD3E, 0xFD3F}, {0xFE00, 0xFE0F}, {0xFE10, 0xFE6F},
        {0xFEFF, 0xFEFF}, {0xFF01, 0xFF20}, {0xFF3B, 0xFF40}, {0xFF5B, 0xFF65},
        {0xFFF0, 0xFFFF}, {0x1F000, 0x1FBFF}, {0xE0000, 0xE01EF}};
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (c >= ranges[i][0] && c <= ranges[i][1])
            return 1;
    return 0;
}

static int is_rtl_script_char(uint32_t c)
{
    return (c >= 0x0590 && c <= 0x08FF) || (c >= 0xFB1D && c <= 0xFDFF) ||
           (c >= 0xFE70 && c <= 0xFEFE) || (c >= 0x10800 && c <= 0x10FFF) ||
           (c >= 0x1E800 && c <= 0x1EFFF);
}

static int guess_rtl(const uint32_t *text, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!is_common_or_inherited(text[i]))
            return is_rtl_script_char(text[i]);
    return 0;
}

typedef struct shape_job {
    shape_opts o;
    fv_gr_face *face;
    shape_ref *ref;
    shape_trace *trace;
    shape_printer printer;
    uint32_t *cps;
    size_t segments;
    int failures;
} shape_job;

static void shape_segment(shape_job *j, const char *line, size_t len, const uint32_t *text,
                          size_t n)
{
    int rtl = j->o.direction >= 0 ? j->o.direction
              : j->o.script    ? shape_script_direction(j->o.script)
                               : guess_rtl(text, n);
    int hb_format = j->o.format == SHAPE_HB_TEXT || j->o.format == SHAPE_HB_JSON;
    /* COMPAT(harfbuzz): HarfBuzz asks graphite2 for a right-to-left
     * segment without its bidi pass (gr_make_seg direction 3), having
     * ordered the text itself; gr2fonttest -rtl asks with it (1). */
    grc_request req = {text, n, &j->o.features, rtl ? (hb_format ? 3 : 1) : 0};
    grc_run run;
    memset(&run, 0, sizeof run);
    j->segments++;
    int hb_empty = n == 0 && hb_format;
    if (!hb_empty) {
        if (j->trace)
            shape_trace_begin(j->trace, line, len);
        if (j->ref)
            shape_ref_shape(j->ref, &req, &run);
        else if (j->face)
            grc_fv_shape_justified(j->face, &req, (float)j->o.justify_percent, &run);
        else
            snprintf(run.error, sizeof run.error, "the font has no usable Graphite tables");
        if (j->trace)
            shape_trace_end(j->trace);
        if (!run.ok) {
            j->failures++;
            if (hb_format && j->face)
                fprintf(stderr, "fontvm shape: segment %zu: %s\n", j->segments, run.error);
        }
    }
    shape_print(&j->printer, text, n, rtl, &run);
    grc_run_free(&run);
}

static int shape_lines(shape_job *j, const char *path)
{
    cli_lines lines;
    int rc = cli_read_lines("shape", path, &lines);
    if (rc != CLI_OK)
        return rc;
    for (size_t i = 0; i < lines.count; i++) {
        size_t n = grc_utf8_decode(lines.lines[i].text, lines.lines[i].len, j->cps, SHAPE_MAX_CHARS);
        shape_segment(j, lines.lines[i].text, lines.lines[i].len, j->cps, n);
    }
    cli_lines_free(&lines);
    return CLI_OK;
}

static int run_bench(shape_job *j, const shape_args *a)
{
    cli_lines lines;
    int rc = cli_read_lines("shape", a->text_file, &lines);
    if (rc == CLI_OK)
        rc = shape_ref_bench(j->ref, j->face, &j->o, a->path, a->text_file, &lines, a->repeat);
    cli_lines_free(&lines);
    return rc;
}

/* The codes of --codes / -u as one segment. */
static int shape_codes(shape_job *j, const shape_args *a)
{
    size_t n = 0;
    for (size_t i = 0; i < a->num_codes; i++) {
        long got = cli_parse_unicodes("shape", "--codes", a->codes[i], j->cps + n, SHAPE_MAX_CHARS - n);
        if (got < 0)
            return CLI_BAD_INPUT;
        n += (size_t)got;
    }
    if (a->unicodes) {
        long got = cli_parse_unicodes("shape", "--unicodes", a->unicodes, j->cps, SHAPE_MAX_CHARS);
        if (got < 0)
            return CLI_BAD_INPUT;
        n = (size_t)got;
    }
    shape_segment(j, "", 0, j->cps, n);
    return CLI_OK;
}

int cmd_shape(int argc, char **argv)
{
    shape_args a;
    memset(&a, 0, sizeof a);
    a.repeat = BENCH_DEFAULT_REPEAT;
    shape_job j;
    memset(&j, 0, sizeof j);
    j.o.direction = -1;
    j.o.format = SHAPE_HB_TEXT;
    j.o.ppem = 12;
    j.o.glyph_names = j.o.clusters = j.o.positions = j.o.advances = 1;
    a.codes = calloc((size_t)argc + 1, sizeof *a.codes);
    j.cps = malloc(SHAPE_MAX_CHARS * sizeof *j.cps);
    fv_font *font = NULL;
    cli_names *names = NULL;
    cli_out *writer = NULL;
    int rc = !a.codes || !j.cps ? CLI_PROBLEM : parse_options(argc, argv, &a, &j.o);
    if (rc != CLI_OK) {
        rc = rc < 0 ? CLI_OK : rc; /* --help */
        goto done;
    }
    if ((rc = cli_open_font(a.path, 0, &font)) != CLI_OK)
        goto done;
    j.o.upem = fv_font_units_per_em(font);
    fv_error err;
    fv_error_clear(&err);
    if (fv_gr_face_new(font, &j.face, &err) != FV_OK) {
        j.face = NULL;
        rc = cli_fail(a.path, &err);
        /* hb-shape shapes every line of such a font and fails each (exit
         * 1); in its formats, so does fontvm, after the one line above. */
        int hb_format = j.o.format == SHAPE_HB_TEXT || j.o.format == SHAPE_HB_JSON;
        if (!hb_format || a.use_graphite2 || a.want_bench || a.want_trace)
            goto done;
        rc = CLI_OK;
    } else {
        shape_check_features(j.face, &j.o);
    }
    if ((a.use_graphite2 || a.want_bench) && (rc = shape_ref_open(font, a.path, &j.ref)) != CLI_OK)
        goto done;
    if (a.want_bench) {
        rc = run_bench(&j, &a);
        goto done;
    }
    if (a.want_trace) {
        j.trace = shape_trace_new(stdout, j.face);
        if (!j.trace) {
            rc = CLI_PROBLEM;
            goto done;
        }
        fv_gr_set_trace(j.face, shape_trace_event, j.trace, NULL);
    }
    names = cli_names_open(font);
    writer = malloc(sizeof *writer);
    if (!writer) {
        rc = CLI_PROBLEM;
        goto done;
    }
    cli_out_init(writer, stdout);
    j.printer.w = writer;
    j.printer.out = stdout;
    j.printer.o = &j.o;
    j.printer.names = names;
    if (a.text)
        shape_segment(&j, a.text, strlen(a.text), j.cps,
                      grc_utf8_decode(a.text, strlen(a.text), j.cps, SHAPE_MAX_CHARS));
    else if (a.codes_given || a.unicodes)
        rc = shape_codes(&j, &a);
    else
        rc = shape_lines(&j, a.text_file ? a.text_file : "/dev/stdin");
    if (rc == CLI_OK && j.failures)
        rc = CLI_PROBLEM;
    if (fflush(stdout) != 0 && rc == CLI_OK)
        rc = CLI_PROBLEM;
done:
    if (j.face)
        fv_gr_set_trace(j.face, NULL, NULL, NULL);
    shape_trace_free(j.trace);
    shape_ref_close(j.ref);
    cli_names_close(names);
    if (j.face)
        fv_gr_face_free(j.face);
    fv_font_close(font);
    free(j.cps);
    free(a.codes);
    free(writer);
    return rc;
}
