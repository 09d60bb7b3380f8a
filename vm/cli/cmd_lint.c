/* `fontvm lint`: hinting diagnostics for font developers (issue 19).
 *
 *   fontvm lint FONT [--ppem LIST] [--mode M] [--face N] [--json]
 *
 * Hints every glyph at each size and counts the faults FreeType tolerates
 * without a word: the ones it ignores unless FT_LOAD_PEDANTIC (a CVT,
 * storage, point, zone or reference index out of range, a bad argument,
 * missing stack values read as zeros), glyph programs stopped by a fault
 * whose partly hinted glyph FreeType keeps (division by zero, an undefined
 * function or instruction, FreeType's instruction and loop limits), and
 * v40 moves dropped after IUP[x] and IUP[y]; besides them, what makes a
 * load fail: a failed fpgm or prep (every glyph of that size unhinted) and
 * fontvm's own hardening limits.  Each class has a count, the number of
 * glyphs it happened in and its first location (program, glyph, pc,
 * opcode).  The faults come from the interpreter's diagnostics hook
 * (fv_tt_exec_set_diagnostics), called only where FreeType tolerates one.
 * FontVal's rasterization tests are the model. */

#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "fontvm/tt.h"
#include "tt_lint.h"

#define LINT_DEFAULT_SIZES "9,10,11,12,13,14,15,16,18,20,24,10.5"
#define LINT_MAX_SIZES 64

static json_t *location_json(int k, const fv_error *e)
{
    char msg[256];
    ttl_location_text(k, e, msg, sizeof msg);
    json_t *o = json_object();
    json_object_set_new(o, "program", json_string(fv_program_name(e->program)));
    json_object_set_new(o, "glyph", e->glyph == FV_NO_VALUE ? json_null() : json_integer(e->glyph));
    json_object_set_new(o, "pc", e->pc == FV_NO_VALUE ? json_null() : json_integer(e->pc));
    json_object_set_new(o, "opcode", e->opcode < 0 ? json_null() : json_string(e->opname));
    /* the classes that are no fault (e->kind FV_OK) are their own kind */
    json_object_set_new(o, "kind", json_string(e->kind == FV_OK ? ttl_name(k) : fv_status_name(e->kind)));
    json_object_set_new(o, "index", e->index == INT64_MIN ? json_null() : json_integer(e->index));
    json_object_set_new(o, "message", json_string(msg));
    return o;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: fontvm lint FONT [--ppem LIST] [--mode v35|v40|v40-mono|v40-lcd]\n"
            "                        [--face N] [--json]\n\n"
            "Hints every glyph at each size and reports the faults FreeType tolerates\n"
            "silently, with counts and the first location (program, glyph, pc, opcode):\n");
    for (int k = 0; k < TTL_COUNT; k++)
        fprintf(out, "  %-22s %s\n", ttl_name(k), ttl_what(k));
    fprintf(out,
            "  --ppem LIST   sizes, comma-separated: 12, 10.5 or 12x16 each\n"
            "                (default " LINT_DEFAULT_SIZES ")\n"
            "  --mode M      interpreter and target (default v40; after_iup is v40's)\n"
            "  --face N      face of a collection (0 to 65535, default 0)\n"
            "  --json        one JSON object: font, mode, glyphs, per size the counts\n"
            "                and first locations, and the totals\n"
            "Every option takes its value as --opt value or --opt=value.\n"
            "Exit status: 0 nothing found, 1 some diagnostic, 2 bad input.\n");
}

/* Runs one size: every glyph hinted with the hook on. */
static int lint_size(cli_tt_session *ss, const fv_tt_size_request *req, uint32_t num_glyphs,
                     ttl_state *st, fv_error *size_err)
{
    fv_error err;
    memset(st, 0, sizeof *st);
    fv_tt_exec_set_diagnostics(ss->exec, ttl_on_diag, st);
    fv_tt_size *size = NULL;
    if (fv_tt_size_new(ss->face, ss->exec, req, &size, size_err) != FV_OK) {
        fv_tt_exec_set_diagnostics(ss->exec, NULL, NULL);
        return -1;
    }
    int prep_noted = 0;
    for (uint32_t gid = 0; gid < num_glyphs; gid++) {
        fv_tt_outline o;
        memset(&o, 0, sizeof o);
        fv_error_clear(&err);
        st->load = gid + 1;
        fv_status rc = fv_tt_hint_glyph(size, ss->exec, gid, &o, &err);
        if (rc != FV_OK) {
            int k = ttl_class_of_load_error(&err);
            if (k != TTL_PREP || !prep_noted++)
                ttl_note(st, k, &err);
        }
        fv_tt_outline_free(ss->face, &o);
    }
    fv_tt_exec_set_diagnostics(ss->exec, NULL, NULL);
    fv_tt_size_free(size);
    return 0;
}

int cmd_lint(int argc, char **argv)
{
    static const struct option options[] = {
        {"help", no_argument, NULL, 'h'},       {"json", no_argument, NULL, 'j'},
        {"ppem", required_argument, NULL, 'p'}, {"mode", required_argument, NULL, 'm'},
        {"face", required_argument, NULL, 'f'}, {NULL, 0, NULL, 0}};
    const char *sizes_s = LINT_DEFAULT_SIZES, *mode_s = "v40";
    int json = 0, opt;
    uint32_t face_index = 0;
    cli_getopt_begin();
    while ((opt = cli_getopt(argc, argv, "lint", options)) != -1) {
        switch (opt) {
        case 'h': usage(stdout); return CLI_OK;
        case 'j': json = 1; break;
        case 'p': sizes_s = optarg; break;
        case 'm': mode_s = optarg; break;
        case 'f':
            if (cli_opt_uint("lint", "--face", optarg, 0, 0xFFFF, &face_index))
                return CLI_BAD_INPUT;
            break;
        default: return CLI_BAD_INPUT;
        }
    }
    if (optind >= argc)
        return cli_usage_error("lint", "missing FONT");
    if (optind + 1 < argc)
        return cli_usage_error("lint", "only one FONT may be given");
    const char *path = argv[optind];

    /* The sizes and the mode are checked before the font is read. */
    fv_tt_size_request reqs[LINT_MAX_SIZES];
    size_t nsizes = 0;
    char list[1024];
    if (strlen(sizes_s) >= sizeof list)
        return cli_bad_value("lint", "--ppem", sizes_s, "expected at most 64 sizes");
    strcpy(list, sizes_s);
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (nsizes == LINT_MAX_SIZES)
            return cli_bad_value("lint", "--ppem", sizes_s, "expected at most 64 sizes");
        if (cli_tt_request("lint", tok, mode_s, 0, &reqs[nsizes]) != CLI_OK)
            return CLI_BAD_INPUT;
        nsizes++;
    }
    if (nsizes == 0)
        return cli_bad_value("lint", "--ppem", sizes_s, "expected " CLI_TT_PPEM_RANGE);

    cli_tt_session ss;
    int rc = cli_tt_open(path, face_index, NULL, NULL, NULL, &ss);
    if (rc != CLI_OK)
        return rc;
    uint32_t num_glyphs = fv_font_glyph_count(ss.font);
    ttl_state *states = calloc(nsizes, sizeof *states);
    if (!states) {
        cli_tt_close(&ss);
        fprintf(stderr, "fontvm lint: out of memory\n");
        return CLI_BAD_INPUT;
    }
    ttl_class total[TTL_COUNT];
    memset(total, 0, sizeof total);
    int found = 0;
    for (size_t i = 0; i < nsizes; i++) {
        fv_error err;
        fv_error_clear(&err);
        if (lint_size(&ss, &reqs[i], num_glyphs, &states[i], &err) != 0) {
            rc = cli_fail(path, &err);
            goto done;
        }
        for (int k = 0; k < TTL_COUNT; k++) {
            const ttl_class *c = &states[i].cls[k];
            if (!c->count)
                continue;
            found = 1;
            total[k].count += c->count;
            total[k].glyphs += c->glyphs;
            total[k].last_load++; /* sizes it happened at */
            if (!total[k].have_first) {
                total[k].have_first = 1;
                total[k].first = c->first;
            }
        }
    }

    char label[64];
    if (json) {
        json_t *root = json_object();
        json_object_set_new(root, "font", json_string(path));
        json_object_set_new(root, "face", json_integer(face_index));
        json_object_set_new(root, "mode", json_string(fv_tt_mode_name(reqs[0].mode)));
        json_object_set_new(root, "glyphs", json_integer(num_glyphs));
        json_t *sizes = json_array();
        for (size_t i = 0; i < nsizes; i++) {
            json_t *s = json_object(), *d = json_object();
            cli_tt_size_label(reqs[i].x_ppem_26d6, reqs[i].y_ppem_26d6, label, sizeof label);
            json_object_set_new(s, "ppem", json_string(label));
            for (int k = 0; k < TTL_COUNT; k++) {
                const ttl_class *c = &states[i].cls[k];
                if (!c->count)
                    continue;
                json_t *e = json_object();
                json_object_set_new(e, "count", json_integer((json_int_t)c->count));
                json_object_set_new(e, "glyphs", json_integer((json_int_t)c->glyphs));
                json_object_set_new(e, "first", location_json(k, &c->first));
                json_object_set_new(d, ttl_name(k), e);
            }
            json_object_set_new(s, "diagnostics", d);
            json_array_append_new(sizes, s);
        }
        json_object_set_new(root, "sizes", sizes);
        json_t *t = json_object();
        for (int k = 0; k < TTL_COUNT; k++) {
            if (!total[k].count)
                continue;
            json_t *e = json_object();
            json_object_set_new(e, "count", json_integer((json_int_t)total[k].count));
            json_object_set_new(e, "glyphs", json_integer((json_int_t)total[k].glyphs));
            json_object_set_new(e, "sizes", json_integer(total[k].last_load));
            json_object_set_new(e, "first", location_json(k, &total[k].first));
            json_object_set_new(t, ttl_name(k), e);
        }
        json_object_set_new(root, "totals", t);
        char *text = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
        json_decref(root);
        if (text) {
            puts(text);
            free(text);
        }
    } else {
        printf("%s: %s, %" PRIu32 " glyphs at %zu size%s\n", path,
               fv_tt_mode_name(reqs[0].mode), num_glyphs, nsizes, nsizes == 1 ? "" : "s");
        if (!found)
            printf("  no fault FreeType tolerates\n");
        for (int k = 0; k < TTL_COUNT; k++) {
            if (!total[k].count)
                continue;
            char msg[256];
            ttl_location_text(k, &total[k].first, msg, sizeof msg);
            printf("  %-22s %8" PRIu64 " in %" PRIu64 " glyph load%s at %" PRIu32 " size%s; first: ",
                   ttl_name(k), total[k].count, total[k].glyphs, total[k].glyphs == 1 ? "" : "s",
                   total[k].last_load, total[k].last_load == 1 ? "" : "s");
            for (size_t i = 0; i < nsizes; i++)
                if (states[i].cls[k].count) {
                    cli_tt_size_label(reqs[i].x_ppem_26d6, reqs[i].y_ppem_26d6, label,
                                      sizeof label);
                    break;
                }
            printf("%s ppem, %s\n", label, msg);
        }
    }
    rc = found ? CLI_PROBLEM : CLI_OK;
    if (fflush(stdout) != 0)
        rc = CLI_PROBLEM;
done:
    free(states);
    cli_tt_close(&ss);
    return rc;
}
