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

#define LINT_DEFAULT_SIZES "9,10,11,12,13,14,15,16,18,20,24,10.5"
#define LINT_MAX_SIZES 64

/* The classes, in the order they are printed: X(id, name, what). */
#define LINT_CLASSES(X)                                                                         \
    X(CVT, "cvt_out_of_range", "CVT index out of range (read as 0, write ignored)")             \
    X(STORAGE, "storage_out_of_range", "storage index out of range (read as 0, write ignored)") \
    X(POINT, "point_out_of_range", "point index outside its zone (instruction skipped)")        \
    X(ZONE, "zone_out_of_range", "zone pointer not 0 or 1 (SZP ignored)")                       \
    X(REFERENCE, "reference_out_of_range", "reference point, contour or loop out of range")     \
    X(ARGUMENT, "bad_argument", "invalid instruction argument (ignored)")                       \
    X(UNDERFLOW, "stack_underflow", "stack underflow (missing values read as 0)")               \
    X(IGNORED_OTHER, "ignored_other", "another fault FreeType ignores")                         \
    X(DIVIDE, "division_by_zero", "division by zero (glyph program stopped)")                   \
    X(FUNCTION, "undefined_function", "call of an undefined function (glyph program stopped)")  \
    X(OPCODE, "undefined_instruction", "undefined opcode without IDEF (glyph program stopped)") \
    X(FT_LIMIT, "program_limit", "FreeType's instruction, loop or jump limit (stopped)")        \
    X(STOPPED_OTHER, "glyph_program_stopped", "glyph program stopped by another fault")        \
    X(AFTER_IUP, "after_iup", "v40: move after IUP[x] and IUP[y] dropped (cannot act)")         \
    X(PREP, "prep_failed", "fpgm or prep failed: no glyph hinted at this size")                 \
    X(HARDENING, "hardening_limit", "a fontvm work budget stopped the load (FreeType goes on)") \
    X(LOAD, "glyph_failed", "the glyph could not be loaded")

enum {
#define LINT_ENUM(id, name, what) LINT_##id,
    LINT_CLASSES(LINT_ENUM)
#undef LINT_ENUM
        LINT_COUNT
};
static const char *const lint_names[] = {
#define LINT_NAME(id, name, what) name,
    LINT_CLASSES(LINT_NAME)
#undef LINT_NAME
};
static const char *const lint_whats[] = {
#define LINT_WHAT(id, name, what) what,
    LINT_CLASSES(LINT_WHAT)
#undef LINT_WHAT
};

typedef struct lint_class {
    uint64_t count;
    uint64_t glyphs;     /* glyph loads it happened in */
    uint32_t last_load;  /* the load last counted in glyphs (1-based) */
    int have_first;
    fv_error first;
} lint_class;

typedef struct lint_state {
    lint_class cls[LINT_COUNT];
    uint32_t load;       /* 1-based number of the current glyph load, 0 = size setup */
} lint_state;

static int class_of_ignored(fv_status kind)
{
    switch (kind) {
    case FV_E_TT_INVALID_CVT: return LINT_CVT;
    case FV_E_TT_INVALID_STORAGE: return LINT_STORAGE;
    case FV_E_TT_INVALID_POINT: return LINT_POINT;
    case FV_E_TT_INVALID_ZONE: return LINT_ZONE;
    case FV_E_TT_INVALID_REFERENCE: return LINT_REFERENCE;
    case FV_E_TT_BAD_ARGUMENT: return LINT_ARGUMENT;
    case FV_E_TT_STACK_UNDERFLOW: return LINT_UNDERFLOW;
    default: return LINT_IGNORED_OTHER;
    }
}

static int class_of_stopped(fv_status kind)
{
    switch (kind) {
    case FV_E_TT_DIVIDE_BY_ZERO: return LINT_DIVIDE;
    case FV_E_TT_INVALID_FUNCTION: return LINT_FUNCTION;
    case FV_E_TT_INVALID_OPCODE: return LINT_OPCODE;
    case FV_E_TT_EXEC_BUDGET: return LINT_FT_LIMIT;
    default: return LINT_STOPPED_OTHER;
    }
}

static void note(lint_state *s, int k, const fv_error *where)
{
    lint_class *c = &s->cls[k];
    c->count++;
    if (s->load == 0 || c->last_load != s->load) {
        c->last_load = s->load;
        if (s->load != 0)
            c->glyphs++;
    }
    if (!c->have_first) {
        c->have_first = 1;
        c->first = *where;
    }
}

static void on_diag(void *user, fv_tt_diag_kind what, const fv_error *where)
{
    lint_state *s = user;
    int k = what == FV_TT_DIAG_AFTER_IUP      ? LINT_AFTER_IUP
            : what == FV_TT_DIAG_IGNORED ? class_of_ignored(where->kind)
                                              : class_of_stopped(where->kind);
    note(s, k, where);
}

/* "glyf[36]@17:RCVT: invalid cvt 412"; after-IUP notes have no fault
 * kind, so they are spelled here. */
static void location_text(int k, const fv_error *e, char *buf, size_t size)
{
    if (k == LINT_AFTER_IUP) {
        char glyph[32] = "";
        if (e->glyph != FV_NO_VALUE)
            snprintf(glyph, sizeof glyph, "[%" PRIu32 "]", e->glyph);
        int n = snprintf(buf, size, "%s%s@%" PRIu32 ":%.24s: point %" PRId64 " not moved after IUP",
                         fv_program_name(e->program), glyph, e->pc, e->opname, e->index);
        if (n < 0 && size > 0)
            buf[0] = '\0';
        return;
    }
    fv_error_format(e, buf, size);
}

static json_t *location_json(int k, const fv_error *e)
{
    char msg[256];
    location_text(k, e, msg, sizeof msg);
    json_t *o = json_object();
    json_object_set_new(o, "program", json_string(fv_program_name(e->program)));
    json_object_set_new(o, "glyph", e->glyph == FV_NO_VALUE ? json_null() : json_integer(e->glyph));
    json_object_set_new(o, "pc", e->pc == FV_NO_VALUE ? json_null() : json_integer(e->pc));
    json_object_set_new(o, "opcode", e->opcode < 0 ? json_null() : json_string(e->opname));
    json_object_set_new(o, "kind", json_string(k == LINT_AFTER_IUP ? "after_iup" : fv_status_name(e->kind)));
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
    for (int k = 0; k < LINT_COUNT; k++)
        fprintf(out, "  %-22s %s\n", lint_names[k], lint_whats[k]);
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
                     lint_state *st, fv_error *size_err)
{
    fv_error err;
    memset(st, 0, sizeof *st);
    fv_tt_exec_set_diagnostics(ss->exec, on_diag, st);
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
            if (err.program == FV_PROG_FPGM || err.program == FV_PROG_PREP) {
                if (!prep_noted++)
                    note(st, LINT_PREP, &err);
            } else {
                note(st, fv_status_is_budget(rc) ? LINT_HARDENING : LINT_LOAD, &err);
            }
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
    lint_state *states = calloc(nsizes, sizeof *states);
    if (!states) {
        cli_tt_close(&ss);
        fprintf(stderr, "fontvm lint: out of memory\n");
        return CLI_BAD_INPUT;
    }
    lint_class total[LINT_COUNT];
    memset(total, 0, sizeof total);
    int found = 0;
    for (size_t i = 0; i < nsizes; i++) {
        fv_error err;
        fv_error_clear(&err);
        if (lint_size(&ss, &reqs[i], num_glyphs, &states[i], &err) != 0) {
            rc = cli_fail(path, &err);
            goto done;
        }
        for (int k = 0; k < LINT_COUNT; k++) {
            const lint_class *c = &states[i].cls[k];
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
            for (int k = 0; k < LINT_COUNT; k++) {
                const lint_class *c = &states[i].cls[k];
                if (!c->count)
                    continue;
                json_t *e = json_object();
                json_object_set_new(e, "count", json_integer((json_int_t)c->count));
                json_object_set_new(e, "glyphs", json_integer((json_int_t)c->glyphs));
                json_object_set_new(e, "first", location_json(k, &c->first));
                json_object_set_new(d, lint_names[k], e);
            }
            json_object_set_new(s, "diagnostics", d);
            json_array_append_new(sizes, s);
        }
        json_object_set_new(root, "sizes", sizes);
        json_t *t = json_object();
        for (int k = 0; k < LINT_COUNT; k++) {
            if (!total[k].count)
                continue;
            json_t *e = json_object();
            json_object_set_new(e, "count", json_integer((json_int_t)total[k].count));
            json_object_set_new(e, "glyphs", json_integer((json_int_t)total[k].glyphs));
            json_object_set_new(e, "sizes", json_integer(total[k].last_load));
            json_object_set_new(e, "first", location_json(k, &total[k].first));
            json_object_set_new(t, lint_names[k], e);
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
        for (int k = 0; k < LINT_COUNT; k++) {
            if (!total[k].count)
                continue;
            char msg[256];
            location_text(k, &total[k].first, msg, sizeof msg);
            printf("  %-22s %8" PRIu64 " in %" PRIu64 " glyph load%s at %" PRIu32 " size%s; first: ",
                   lint_names[k], total[k].count, total[k].glyphs, total[k].glyphs == 1 ? "" : "s",
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
