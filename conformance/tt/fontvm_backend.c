/* The subject side of the TrueType comparison: fontvm, through its public
 * TrueType API, plus the culprit search that re-runs a glyph with the trace
 * hook.  The culprit search reads the composite structure through the
 * internal sfnt reader to map component point numbers to outline points. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fontvm/fontvm.h"
#include "fontvm/tt.h"
#include "sfnt/font.h"
#include "sfnt/sfnt.h"
#include "tt_compare.h"
#include "tt_lint.h"

struct ttc_fv {
    fv_font *font;
    fv_tt_face *face;
    fv_tt_exec *exec;       /* comparison loads (counted for coverage) */
    fv_tt_exec *trace_exec; /* culprit re-runs, made on first use */
    fv_tt_size *size;
    char face_error[160];   /* when face/exec could not be made */
    char size_error[160];   /* when the size could not be made */
    int32_t coords[TTC_MAX_AXES]; /* the location */
    uint32_t num_coords;
    ttl_state lint;         /* the faults FreeType tolerates, this size */
};

static void format_error(const fv_error *err, char *buf, size_t size)
{
    if (fv_error_format(err, buf, size) <= 0)
        snprintf(buf, size, "%s", fv_status_name(err->kind));
}

static int ttc_fv_finish_open(ttc_fv *fv, ttc_fv **out, fv_error *err)
{
    fv_status st = fv_tt_face_new(fv->font, &fv->face, err);
    if (st == FV_OK)
        st = fv_tt_exec_new(fv->face, &fv->exec, err);
    if (st == FV_OK)
        fv_tt_exec_set_diagnostics(fv->exec, ttl_on_diag, &fv->lint);
    if (st != FV_OK)
        format_error(err, fv->face_error, sizeof fv->face_error);
    *out = fv;
    /* A font that opens but cannot be hinted still yields an object: every
     * load then fails with the reason, which the comparison reports. */
    return 0;
}

int ttc_fv_open_file(const char *path, uint32_t face_index, ttc_fv **out, fv_error *err)
{
    ttc_fv *fv = calloc(1, sizeof *fv);
    if (!fv) {
        fv_error_clear(err);
        err->kind = FV_E_NOMEM;
        return -1;
    }
    if (fv_font_open_file(path, face_index, NULL, &fv->font, err) != FV_OK) {
        free(fv);
        return -1;
    }
    return ttc_fv_finish_open(fv, out, err);
}

int ttc_fv_open_memory(const uint8_t *data, size_t size, uint32_t face_index, ttc_fv **out,
                       fv_error *err)
{
    ttc_fv *fv = calloc(1, sizeof *fv);
    if (!fv) {
        fv_error_clear(err);
        err->kind = FV_E_NOMEM;
        return -1;
    }
    if (fv_font_open_memory(data, size, face_index, NULL, &fv->font, err) != FV_OK) {
        free(fv);
        return -1;
    }
    return ttc_fv_finish_open(fv, out, err);
}

void ttc_fv_close(ttc_fv *fv)
{
    if (!fv)
        return;
    fv_tt_size_free(fv->size);
    fv_tt_exec_free(fv->trace_exec);
    fv_tt_exec_free(fv->exec);
    fv_tt_face_free(fv->face);
    fv_font_close(fv->font);
    free(fv);
}

fv_font *ttc_fv_font(ttc_fv *fv)
{
    return fv->font;
}

int ttc_fv_set_size(ttc_fv *fv, const ttc_size *size, fv_tt_mode mode, int pedantic,
                    fv_error *err)
{
    fv_error_clear(err);
    fv_tt_size_free(fv->size);
    fv->size = NULL;
    fv->size_error[0] = '\0';
    memset(&fv->lint, 0, sizeof fv->lint);
    if (fv->face_error[0]) {
        snprintf(fv->size_error, sizeof fv->size_error, "%s", fv->face_error);
        return -1;
    }
    fv_tt_size_request req = {.x_ppem_26d6 = size->x_26d6,
                              .y_ppem_26d6 = size->y_26d6,
                              .mode = mode,
                              .pedantic = pedantic,
                              .coords = fv->num_coords ? fv->coords : NULL,
                              .num_coords = fv->num_coords};
    if (fv_tt_size_new(fv->face, fv->exec, &req, &fv->size, err) != FV_OK) {
        fv->size = NULL;
        format_error(err, fv->size_error, sizeof fv->size_error);
        return -1;
    }
    return 0;
}

int ttc_fv_set_location(ttc_fv *fv, const int32_t *coords, uint32_t n)
{
    if (n > TTC_MAX_AXES)
        return -1;
    memcpy(fv->coords, coords, n * sizeof(int32_t));
    fv->num_coords = n;
    return 0;
}

static void hint_into(ttc_fv *fv, fv_tt_exec *exec, uint32_t gid, ttc_glyph *out)
{
    if (!fv->size) {
        ttc_glyph_fail(out, fv->size_error[0] ? fv->size_error : "no size");
        return;
    }
    fv_tt_outline o;
    fv_error err;
    memset(&o, 0, sizeof o);
    fv_error_clear(&err);
    if (fv_tt_hint_glyph(fv->size, exec, gid, &o, &err) != FV_OK) {
        char buf[160];
        format_error(&err, buf, sizeof buf);
        ttc_glyph_fail(out, buf);
        out->hardening_limit = fv_status_is_budget(err.kind);
        fv_tt_outline_free(fv->face, &o);
        return;
    }
    if (ttc_glyph_reset(out, o.num_points, o.num_contours) != 0) {
        ttc_glyph_fail(out, "out of memory (runner)");
    } else {
        for (uint32_t i = 0; i < o.num_points; i++) {
            out->x[i] = o.x[i];
            out->y[i] = o.y[i];
            out->on_curve[i] = (uint8_t)(o.tags[i] & 1u);
        }
        for (uint32_t i = 0; i < o.num_contours; i++)
            out->contour_ends[i] = o.contour_ends[i];
        out->num_points = o.num_points;
        out->num_contours = o.num_contours;
        out->advance_x = o.advance_x;
        out->loaded = 1;
    }
    fv_tt_outline_free(fv->face, &o);
}

void ttc_fv_load(ttc_fv *fv, uint32_t gid, ttc_glyph *out)
{
    fv->lint.load++;
    hint_into(fv, fv->exec, gid, out);
}

const ttl_state *ttc_fv_lint(const ttc_fv *fv)
{
    return &fv->lint;
}

const char *ttc_fv_face_error(const ttc_fv *fv)
{
    return fv->face_error[0] ? fv->face_error : NULL;
}

const char *ttc_fv_size_error(const ttc_fv *fv)
{
    return fv->size_error[0] ? fv->size_error : NULL;
}

const uint64_t *ttc_fv_opcode_counts(const ttc_fv *fv)
{
    return fv->exec ? fv_tt_exec_opcode_counts(fv->exec) : NULL;
}

/* ---- culprit search ------------------------------------------------------ */

/* One glyph program run during a load, in execution order (as FreeType runs
 * them: each component's own program as it is loaded, then the composite's
 * program over all the composite's points), with the outline index of its
 * first point. */
typedef struct ttc_run {
    uint32_t gid;
    uint32_t first_point;
    uint32_t num_points; /* outline points of the run's zone (no phantoms) */
} ttc_run;

/* A composite tree is bounded by the composite depth limit and by this
 * number of program runs (more than any real font has). */
#define TTC_MAX_RUNS 4096

typedef struct culprit_search {
    ttc_run runs[TTC_MAX_RUNS];
    uint32_t num_runs;
    uint32_t run;        /* index of the run the trace is in */
    int run_started;     /* events already seen in `run` */
    uint32_t target;
    ttc_culprit *out;
} culprit_search;

/* Appends the runs of glyph gid starting at outline point *next. */
static void collect_runs(const fv_font *font, fv_mem *mem, uint32_t gid, uint32_t depth,
                         uint32_t *next, culprit_search *cs)
{
    if (depth > SFNT_MAX_COMPOSITE_DEPTH || cs->num_runs >= TTC_MAX_RUNS)
        return;
    sfnt_glyph g;
    fv_error err;
    memset(&g, 0, sizeof g);
    if (sfnt_glyph_load(fv_font_sfnt(font), gid, mem, &g, &err) != FV_OK)
        return;
    uint32_t first = *next;
    if (g.num_contours >= 0) {
        *next += g.num_points;
    } else {
        for (uint32_t i = 0; i < g.num_components; i++)
            collect_runs(font, mem, g.components[i].glyph, depth + 1, next, cs);
    }
    if (cs->num_runs < TTC_MAX_RUNS)
        cs->runs[cs->num_runs++] =
            (ttc_run){.gid = gid, .first_point = first, .num_points = *next - first};
    sfnt_glyph_free(mem, &g);
}

static void culprit_trace(void *user, const fv_tt_trace_event *ev)
{
    culprit_search *cs = user;
    if (ev->program != FV_PROG_GLYF || cs->num_runs == 0)
        return;
    /* Move to the run this event belongs to.  A run of the same glyph as the
     * current one starts when pc is back at 0 (two identical components in
     * a row); a program jumping back to its very first byte would be
     * misattributed, which only makes the culprit less precise. */
    uint32_t r = cs->run;
    if (cs->runs[r].gid != ev->glyph || (cs->run_started && ev->pc == 0)) {
        uint32_t j = cs->run_started ? r + 1 : r;
        while (j < cs->num_runs && cs->runs[j].gid != ev->glyph)
            j++;
        if (j == cs->num_runs)
            return;
        cs->run = r = j;
        cs->run_started = 0;
    }
    cs->run_started = 1;
    for (uint32_t i = 0; i < ev->num_moved; i++) {
        /* Twilight points and the zone's phantom points are not outline points. */
        if (ev->moved_zone[i] != 1 || ev->moved_points[i] >= cs->runs[r].num_points)
            continue;
        uint64_t global = (uint64_t)cs->runs[r].first_point + ev->moved_points[i];
        if (global == cs->target) {
            cs->out->found = 1;
            cs->out->program = ev->program;
            cs->out->glyph = ev->glyph;
            cs->out->pc = ev->pc;
            snprintf(cs->out->mnemonic, sizeof cs->out->mnemonic, "%s",
                     ev->mnemonic ? ev->mnemonic : "?");
        }
    }
}

void ttc_fv_culprit(ttc_fv *fv, uint32_t gid, uint32_t point, ttc_culprit *out)
{
    memset(out, 0, sizeof *out);
    if (!fv->size)
        return;
    if (!fv->trace_exec) {
        fv_error err;
        if (fv_tt_exec_new(fv->face, &fv->trace_exec, &err) != FV_OK) {
            fv->trace_exec = NULL;
            return;
        }
    }
    culprit_search *cs = calloc(1, sizeof *cs);
    if (!cs)
        return;
    cs->target = point;
    cs->out = out;
    uint32_t next = 0;
    collect_runs(fv->font, fv_font_mem(fv->font), gid, 0, &next, cs);
    ttc_glyph g;
    ttc_glyph_init(&g);
    fv_tt_exec_set_trace(fv->trace_exec, culprit_trace, cs);
    hint_into(fv, fv->trace_exec, gid, &g);
    fv_tt_exec_set_trace(fv->trace_exec, NULL, NULL);
    ttc_glyph_free(&g);
    free(cs);
}
