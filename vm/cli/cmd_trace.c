/* `fontvm trace`: every instruction fontvm executes for one glyph at one
 * size (the size's prep, then the glyph's programs), with the stack top
 * before and after and the points each instruction moved:
 *
 *   fontvm trace FONT --ppem N --glyph G [--mode v35|v40|v40-mono|v40-lcd]
 *                [--pedantic] [--face N] [--glyf-only]
 *                [--variations TAG=V,... | --named-instance N]
 *
 *   glyf[36] @17    MIRP[01101]     [.. 5 412] -> [.. 5]        p12 (438,0)->(448,0)
 *
 * Coordinates are 26.6; twilight points are written t12, glyph points p12.
 * fpgm runs when the face is made, before a trace can be attached, so it is
 * not shown. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fontvm/var.h"
#include "fontvm/tt.h"

/* How many values of the stack top are printed. */
#define TRACE_STACK_SHOWN 4

typedef struct trace_state {
    int glyf_only;
    uint64_t count;
    /* The stack after the previous instruction: the next one's "before". */
    int32_t top[TRACE_STACK_SHOWN];
    uint32_t depth;
    int seen;    /* an instruction has run: depth and top are its stack */
} trace_state;

/* "[.. 3 412]": the top values, the deepest shown first; "?" for values
 * not known (a stack this trace has not seen being built). */
static void stack_text(const int32_t *top, uint32_t depth, int known, char *buf, size_t size)
{
    uint32_t shown = depth < TRACE_STACK_SHOWN ? depth : TRACE_STACK_SHOWN;
    int used = snprintf(buf, size, "[%s", depth > shown ? ".." : "");
    for (uint32_t i = shown; i > 0; i--) {
        const char *sep = (i == shown && depth == shown) ? "" : " ";
        size_t at = used < 0 ? 0 : ((size_t)used < size ? (size_t)used : size - 1);
        if (known)
            used += snprintf(buf + at, size - at, "%s%ld", sep, (long)top[i - 1]);
        else
            used += snprintf(buf + at, size - at, "%s?", sep);
    }
    size_t at = used < 0 ? 0 : ((size_t)used < size ? (size_t)used : size - 1);
    snprintf(buf + at, size - at, "]");
}

static void on_event(void *user, const fv_tt_trace_event *ev)
{
    trace_state *ts = user;
    /* "before" is what the previous instruction left: the stack is one for
     * all programs of a run, so after a CALL the function starts on the
     * stack the CALL left (the instruction before may be in another
     * program).  Only when the depths disagree (a new run) is it unknown. */
    char before[96], after[96];
    int known = ev->stack_depth_before == 0 || (ts->seen && ts->depth == ev->stack_depth_before);
    int shown = !ts->glyf_only || ev->program == FV_PROG_GLYF;
    if (shown)
        stack_text(ts->top, ev->stack_depth_before, known, before, sizeof before);

    uint32_t top = ev->stack_depth < TRACE_STACK_SHOWN ? ev->stack_depth : TRACE_STACK_SHOWN;
    for (uint32_t i = 0; i < top; i++)
        ts->top[i] = ev->stack[ev->stack_depth - 1 - i];
    ts->depth = ev->stack_depth;
    ts->seen = 1;
    if (!shown)
        return;
    ts->count++;
    stack_text(ts->top, ev->stack_depth, 1, after, sizeof after);

    char where[48];
    if (ev->program == FV_PROG_GLYF)
        snprintf(where, sizeof where, "glyf[%lu] @%lu", (unsigned long)ev->glyph,
                 (unsigned long)ev->pc);
    else
        snprintf(where, sizeof where, "%s @%lu", fv_program_name(ev->program), (unsigned long)ev->pc);
    printf("%-16s %-16s %s -> %s", where, ev->mnemonic ? ev->mnemonic : "?", before, after);
    for (uint32_t i = 0; i < ev->num_moved; i++)
        printf("  %c%lu (%ld,%ld)->(%ld,%ld)", ev->moved_zone[i] == 0 ? 't' : 'p',
               (unsigned long)ev->moved_points[i], (long)ev->moved_old_xy[2 * i],
               (long)ev->moved_old_xy[2 * i + 1], (long)ev->moved_new_xy[2 * i],
               (long)ev->moved_new_xy[2 * i + 1]);
    printf("\n");
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: fontvm trace FONT --ppem N --glyph G [--mode v35|v40|v40-mono|v40-lcd]\n"
            "                    [--pedantic] [--face N] [--glyf-only]\n"
            "                    [--variations TAG=V,... | --named-instance N]\n"
            "       fontvm trace FONT (--text S | --text-file F | -u LIST | --codes HEX...)\n"
            "                    [any option of fontvm shape]\n\n"
            "TrueType: prints every instruction fontvm executes for glyph G (prep, then\n"
            "the glyph's programs, with the functions they call): program, pc, mnemonic,\n"
            "the stack top before -> after, and the points it moved (26.6; p = glyph\n"
            "zone, t = twilight).  --ppem as hint takes it (0.016 to 16384), --glyph a\n"
            "glyph id or name of the font, --face 0 to 65535; --glyf-only hides prep and\n"
            "the functions.  Every option takes --opt value or --opt=value.\n"
            "Graphite (with text): each pass's slot stream in and out, and every rule that\n"
            "fired with its constraint and action code, command by command with its\n"
            "arguments and the stack before it (the same as `fontvm shape --trace`).\n");
}

/* With text to shape, the trace is the Graphite one that `fontvm shape
 * --trace` prints: the arguments go to shape with --trace added. */
static int graphite_trace(int argc, char **argv)
{
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args) {
        fprintf(stderr, "fontvm trace: out of memory\n");
        return CLI_PROBLEM;
    }
    for (int i = 0; i < argc; i++)
        args[i] = argv[i];
    args[argc] = (char *)"--trace";
    int rc = cmd_shape(argc + 1, args);
    free(args);
    return rc;
}

int cmd_trace(int argc, char **argv)
{
    /* Text to shape (in any of shape's spellings) makes it a Graphite trace. */
    static const char *const text_options[] = {"--text", "--text-file", "--codes", "--unicodes"};
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "-u", 2))
            return graphite_trace(argc, argv);
        for (size_t k = 0; k < sizeof text_options / sizeof text_options[0]; k++) {
            size_t len = strlen(text_options[k]);
            if (!strncmp(argv[i], text_options[k], len) && (argv[i][len] == '\0' || argv[i][len] == '='))
                return graphite_trace(argc, argv);
        }
    }
    static const struct option options[] = {
        {"help", no_argument, NULL, 'h'},         {"pedantic", no_argument, NULL, 'P'},
        {"glyf-only", no_argument, NULL, 'G'},    {"ppem", required_argument, NULL, 'p'},
        {"mode", required_argument, NULL, 'm'},   {"glyph", required_argument, NULL, 'g'},
        {"face", required_argument, NULL, 'f'},
        {"variations", required_argument, NULL, 'V'},
        {"named-instance", required_argument, NULL, 'I'}, {NULL, 0, NULL, 0}};
    const char *ppem = NULL, *mode_s = "v40", *glyph_s = NULL;
    const char *variations = NULL, *named = NULL;
    int32_t coords[FV_VAR_MAX_AXES];
    int pedantic = 0, glyf_only = 0, opt;
    uint32_t face_index = 0, gid = 0;
    cli_getopt_begin();
    while ((opt = cli_getopt(argc, argv, "trace", options)) != -1) {
        switch (opt) {
        case 'h': usage(stdout); return CLI_OK;
        case 'P': pedantic = 1; break;
        case 'G': glyf_only = 1; break;
        case 'p': ppem = optarg; break;
        case 'm': mode_s = optarg; break;
        case 'g': glyph_s = optarg; break;
        case 'V': variations = optarg; break;
        case 'I': named = optarg; break;
        case 'f':
            if (cli_opt_uint("trace", "--face", optarg, 0, 0xFFFF, &face_index))
                return CLI_BAD_INPUT;
            break;
        default: return CLI_BAD_INPUT;
        }
    }
    if (optind >= argc)
        return cli_usage_error("trace", "missing FONT");
    if (optind + 1 < argc)
        return cli_usage_error("trace", "only one FONT may be given");
    const char *path = argv[optind];
    fv_tt_size_request req;
    if (cli_tt_request("trace", ppem, mode_s, pedantic, &req) != CLI_OK)
        return CLI_BAD_INPUT;
    if (!glyph_s)
        return cli_usage_error("trace", "missing --glyph (a glyph id or name)");

    trace_state ts;
    memset(&ts, 0, sizeof ts);
    ts.glyf_only = glyf_only;
    /* The size (and its prep) is made only once the glyph id is known to be
     * valid, so bad input prints nothing on stdout. */
    cli_tt_session ss;
    int rc = cli_tt_open(path, face_index, NULL, NULL, NULL, &ss);
    if (rc != CLI_OK)
        return rc;
    fv_error err;
    if ((rc = cli_glyph_one("trace", "--glyph", glyph_s, ss.font, &gid)) != CLI_OK)
        goto done;
    if ((rc = cli_var_location("trace", ss.font, variations, named, coords, &req)) != CLI_OK)
        goto done;
    fv_tt_exec_set_trace(ss.exec, on_event, &ts);
    if (fv_tt_size_new(ss.face, ss.exec, &req, &ss.size, &err) != FV_OK) {
        ss.size = NULL;
        rc = cli_fail(path, &err);
        goto done;
    }
    fv_tt_outline o;
    memset(&o, 0, sizeof o);
    fv_error_clear(&err);
    fv_status st = fv_tt_hint_glyph(ss.size, ss.exec, gid, &o, &err);
    if (st == FV_OK) {
        printf("# glyph %lu: %lu instructions, %lu points, advance %ld (26.6)\n",
               (unsigned long)gid, (unsigned long)ts.count, (unsigned long)o.num_points,
               (long)o.advance_x);
        rc = CLI_OK;
    } else {
        char msg[256];
        fv_error_format(&err, msg, sizeof msg);
        printf("# glyph %lu: %lu instructions, failed: %s\n", (unsigned long)gid,
               (unsigned long)ts.count, msg);
        rc = CLI_PROBLEM;
    }
    fv_tt_outline_free(ss.face, &o);
    if (fflush(stdout) != 0)
        rc = CLI_PROBLEM;
done:
    cli_tt_close(&ss);
    return rc;
}
