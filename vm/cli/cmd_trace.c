/* `fontvm trace`: every instruction fontvm executes for one glyph at one
 * size (the size's prep, then the glyph's programs), with the stack top
 * before and after and the points each instruction moved:
 *
 *   fontvm trace FONT --ppem N --glyph G [--mode v35|v40|v40-mono|v40-lcd]
 *                [--pedantic] [--face N] [--glyf-only]
 *
 *   glyf[36] @17    MIRP[01101]     [.. 5 412] -> [.. 5]        p12 (438,0)->(448,0)
 *
 * Coordinates are 26.6; twilight points are written t12, glyph points p12.
 * fpgm runs when the face is made, before a trace can be attached, so it is
 * not shown. */

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fontvm/tt.h"

/* How many values of the stack top are printed. */
#define TRACE_STACK_SHOWN 4

typedef struct trace_state {
    int glyf_only;
    uint64_t count;
    /* The stack after the previous instruction: the next one's "before". */
    int32_t top[TRACE_STACK_SHOWN];
    uint32_t depth;
    fv_program last_program;
} trace_state;

static const char *program_name(fv_program p)
{
    switch (p) {
    case FV_PROG_FPGM: return "fpgm";
    case FV_PROG_PREP: return "prep";
    case FV_PROG_GLYF: return "glyf";
    default: return "?";
    }
}

/* "[.. 3 412]": the top values, the deepest shown first; "?" for values
 * not known (the first instruction after a program switch). */
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
    if (ts->glyf_only && ev->program != FV_PROG_GLYF)
        return;
    ts->count++;
    /* "before": what the previous instruction left, when it is the same
     * program run and the depths agree; otherwise the values are unknown. */
    char before[96], after[96];
    int known = ev->stack_depth_before == 0 ||
                (ev->program == ts->last_program && ts->depth == ev->stack_depth_before);
    stack_text(ts->top, ev->stack_depth_before, known, before, sizeof before);

    uint32_t shown = ev->stack_depth < TRACE_STACK_SHOWN ? ev->stack_depth : TRACE_STACK_SHOWN;
    for (uint32_t i = 0; i < shown; i++)
        ts->top[i] = ev->stack[ev->stack_depth - 1 - i];
    ts->depth = ev->stack_depth;
    ts->last_program = ev->program;
    stack_text(ts->top, ev->stack_depth, 1, after, sizeof after);

    char where[48];
    if (ev->program == FV_PROG_GLYF)
        snprintf(where, sizeof where, "glyf[%lu] @%lu", (unsigned long)ev->glyph,
                 (unsigned long)ev->pc);
    else
        snprintf(where, sizeof where, "%s @%lu", program_name(ev->program), (unsigned long)ev->pc);
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
            "                    [--pedantic] [--face N] [--glyf-only]\n\n"
            "Prints every instruction fontvm executes for glyph G (prep, then the glyph's\n"
            "programs): program, pc, mnemonic, the stack top before -> after, and the\n"
            "points it moved (26.6; p = glyph zone, t = twilight).\n");
}

int cmd_trace(int argc, char **argv)
{
    const char *path = NULL, *ppem = NULL, *mode_s = "v40", *glyph_s = NULL;
    int pedantic = 0, glyf_only = 0;
    uint32_t face_index = 0, gid = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            usage(stdout);
            return CLI_OK;
        }
        if (strcmp(a, "--pedantic") == 0) {
            pedantic = 1;
        } else if (strcmp(a, "--glyf-only") == 0) {
            glyf_only = 1;
        } else if (strcmp(a, "--ppem") == 0 || strcmp(a, "--mode") == 0 ||
                   strcmp(a, "--glyph") == 0 || strcmp(a, "--face") == 0) {
            if (i + 1 >= argc)
                return cli_usage_error("trace", "an option needs a value");
            const char *v = argv[++i];
            if (a[2] == 'p')
                ppem = v;
            else if (a[2] == 'm')
                mode_s = v;
            else if (a[2] == 'g')
                glyph_s = v;
            else if (cli_parse_uint(v, UINT32_MAX, &face_index))
                return cli_usage_error("trace", "--face expects a face index");
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("trace", "unknown option");
        } else if (!path) {
            path = a;
        } else {
            return cli_usage_error("trace", "only one FONT may be given");
        }
    }
    if (!path)
        return cli_usage_error("trace", "missing FONT");
    if (!ppem)
        return cli_usage_error("trace", "missing --ppem");
    if (!glyph_s || cli_parse_uint(glyph_s, UINT32_MAX, &gid))
        return cli_usage_error("trace", "--glyph expects a glyph id");
    int32_t x26, y26;
    if (cli_tt_parse_size(ppem, &x26, &y26))
        return cli_usage_error("trace", "--ppem expects a size like 12, 10.5 or 12x16");
    fv_tt_mode mode;
    if (cli_tt_parse_mode(mode_s, &mode))
        return cli_usage_error("trace", "--mode expects v35, v40, v40-mono or v40-lcd");

    fv_font *font = NULL;
    fv_tt_face *face = NULL;
    fv_tt_exec *exec = NULL;
    fv_tt_size *size = NULL;
    fv_error err;
    trace_state ts;
    memset(&ts, 0, sizeof ts);
    ts.glyf_only = glyf_only;
    int rc = cli_open_font(path, face_index, &font);
    if (rc != CLI_OK)
        return rc;
    if (gid >= fv_font_glyph_count(font)) {
        char msg[128];
        snprintf(msg, sizeof msg, "glyph %lu is beyond the font's %lu glyphs", (unsigned long)gid,
                 (unsigned long)fv_font_glyph_count(font));
        rc = cli_usage_error("trace", msg);
        goto done;
    }
    if (fv_tt_face_new(font, &face, &err) != FV_OK) {
        face = NULL;
        rc = cli_fail(path, &err);
        goto done;
    }
    if (fv_tt_exec_new(face, &exec, &err) != FV_OK) {
        exec = NULL;
        rc = cli_fail(path, &err);
        goto done;
    }
    fv_tt_exec_set_trace(exec, on_event, &ts);
    fv_tt_size_request req = {.x_ppem_26d6 = x26, .y_ppem_26d6 = y26, .mode = mode,
                              .pedantic = pedantic};
    if (fv_tt_size_new(face, exec, &req, &size, &err) != FV_OK) {
        size = NULL;
        rc = cli_fail(path, &err);
        goto done;
    }
    fv_tt_outline o;
    memset(&o, 0, sizeof o);
    fv_error_clear(&err);
    fv_status st = fv_tt_hint_glyph(size, exec, gid, &o, &err);
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
    fv_tt_outline_free(face, &o);
    if (fflush(stdout) != 0)
        rc = CLI_PROBLEM;
done:
    if (exec)
        fv_tt_exec_set_trace(exec, NULL, NULL);
    fv_tt_size_free(size);
    fv_tt_exec_free(exec);
    fv_tt_face_free(face);
    fv_font_close(font);
    return rc;
}
