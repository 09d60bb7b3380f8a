/* Glyph loading and hinting as FreeType's TrueType loader does it
 * (load_truetype_glyph, TT_Process_Simple_Glyph, TT_Hint_Glyph,
 * TT_Process_Composite_Component, TT_Process_Composite_Glyph). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt/gstate.h"
#include "tt/objects.h"
#include "tt/variation.h"
#include "tt/zone.h"

/* The outline being assembled (FreeType's gloader base outline). */
typedef struct gl_base {
    uint32_t n_points, cap;
    tt_vec *pts;
    uint8_t *tags;
    uint32_t n_contours, ccap;
    uint32_t *ends; /* absolute point indices */
} gl_base;

typedef struct gl_loader {
    fv_tt_size *size;
    const sfnt_font *sf;
    fv_mem *mem;
    tt_ctx c;
    int hinted;
    gl_base base;
    tt_vec pp[4];
    uint32_t composite_stack[SFNT_MAX_COMPOSITE_DEPTH + 1];
    fv_error *err;
} gl_loader;

static fv_status fail(gl_loader *L, fv_status kind, uint32_t gid, const char *detail)
{
    if (L->err) {
        fv_error_clear(L->err);
        L->err->kind = kind;
        L->err->glyph = gid;
        L->err->table = SFNT_TAG_glyf;
        if (detail) {
            size_t n = strlen(detail);
            if (n >= sizeof L->err->detail)
                n = sizeof L->err->detail - 1;
            memcpy(L->err->detail, detail, n);
            L->err->detail[n] = '\0';
        }
    }
    return kind;
}

/* The load's work outside the programs, as steps of its budget (points
 * parsed, copied into a zone or transformed): budget_steps once spent. */
static fv_status spend(gl_loader *L, uint32_t gid, uint64_t n)
{
    if (FV_LIKELY(fv_budget_spend(&L->c.budget, n)))
        return FV_OK;
    fail(L, FV_E_BUDGET_STEPS, gid, NULL);
    if (L->err) {
        L->err->index = (int64_t)fv_budget_used(&L->c.budget);
        snprintf(L->err->detail, sizeof L->err->detail, "%" PRId64 " steps allowed per glyph load",
                 L->c.budget.limit);
    }
    return FV_E_BUDGET_STEPS;
}

/* Room for `points` more points and `contours` more contours, and past
 * them for `phantoms` more (the 4 phantom points of a zone hinted on the
 * outline; not counted against the 0xFFFF points FreeType allows). */
static fv_status base_reserve(gl_loader *L, uint32_t points, uint32_t contours, uint32_t phantoms)
{
    gl_base *b = &L->base;
    uint64_t need = (uint64_t)b->n_points + points;
    if (need > 0xFFFF)
        return fail(L, FV_E_BAD_GLYPH, L->c.glyph, "too many points");
    if (need + phantoms > b->cap) {
        /* Grown in steps of 16 points (a composite adds its components'
         * one by one), not more: the buffer lives as long as the context. */
        uint32_t cap = ((uint32_t)need + phantoms + 15u) & ~15u;
        tt_vec *p = fv_mem_array(L->mem, cap, sizeof(tt_vec));
        uint8_t *t = fv_mem_array(L->mem, cap, 1);
        if (!p || !t) {
            fv_mem_free(L->mem, p);
            fv_mem_free(L->mem, t);
            return fail(L, FV_E_NOMEM, L->c.glyph, NULL);
        }
        if (b->n_points) {
            memcpy(p, b->pts, b->n_points * sizeof(tt_vec));
            memcpy(t, b->tags, b->n_points);
        }
        fv_mem_free(L->mem, b->pts);
        fv_mem_free(L->mem, b->tags);
        b->pts = p;
        b->tags = t;
        b->cap = cap;
    }
    uint64_t cneed = (uint64_t)b->n_contours + contours;
    if (cneed > b->ccap) {
        uint32_t cap = (uint32_t)cneed + 16;
        uint32_t *e = fv_mem_array(L->mem, cap, sizeof(uint32_t));
        if (!e)
            return fail(L, FV_E_NOMEM, L->c.glyph, NULL);
        if (b->n_contours)
            memcpy(e, b->ends, b->n_contours * sizeof(uint32_t));
        fv_mem_free(L->mem, b->ends);
        b->ends = e;
        b->ccap = cap;
    }
    return FV_OK;
}

/* tt_get_metrics + tt_loader_set_pp, in font units. */
static fv_status set_phantoms(gl_loader *L, uint32_t gid, const sfnt_glyph *g)
{
    uint16_t adv = 0, vadv = 0;
    int16_t lsb = 0, tsb = 0;
    fv_error e;
    if (sfnt_hmetrics(L->sf, gid, &adv, &lsb, &e) != FV_OK)
        return fail(L, e.kind, gid, "hmtx");
    int64_t advance = L->size->varied ? tt_var_advance(L->size, gid, adv) : adv;
    int64_t top_bearing, vadvance;
    if (L->sf->has_vhea) {
        if (sfnt_vmetrics(L->sf, gid, &vadv, &tsb, &e) != FV_OK)
            return fail(L, e.kind, gid, "vmtx");
        top_bearing = tsb;
        vadvance = L->size->varied ? tt_var_vadvance(L->size, gid, vadv) : vadv;
    } else if (L->size->face->has_os2) {
        /* COMPAT(freetype): the height is the distance between ascender
         * and descender, whichever is higher (fuzz F-41). */
        const fv_tt_face *f = L->size->face;
        top_bearing = (int16_t)(f->typo_ascender - g->y_max);
        vadvance = (uint16_t)abs(f->typo_ascender - f->typo_descender);
    } else {
        top_bearing = (int16_t)(L->sf->hhea.ascender - g->y_max);
        vadvance = (uint16_t)abs(L->sf->hhea.ascender - L->sf->hhea.descender);
    }
    const tt_modeflags *m = &L->size->mode;
    /* COMPAT(freetype): v40 grayscale ClearType centres pp3/pp4 on x. */
    int use_aw_2 = m->v40 && m->subpixel_lean && m->grayscale_cleartype;
    L->pp[0].x = (int64_t)g->x_min - lsb;
    L->pp[0].y = 0;
    L->pp[1].x = L->pp[0].x + advance;
    L->pp[1].y = 0;
    L->pp[2].x = use_aw_2 ? advance / 2 : 0;
    L->pp[2].y = (int64_t)g->y_max + top_bearing;
    L->pp[3].x = use_aw_2 ? advance / 2 : 0;
    L->pp[3].y = L->pp[2].y - vadvance;
    return FV_OK;
}

/* varied_point at a location (not inlined: the rare case). */
static FV_NOINLINE void varied_point_at(const tt_var_buf *var, uint32_t k, int64_t x, int64_t y,
                                        int64_t xs, int64_t ys, tt_vec *orus, tt_vec *cur)
{
    orus->x = tt_var_rounded(x, var->dx[k]);
    orus->y = tt_var_rounded(y, var->dy[k]);
    cur->x = tt_var_scaled(x, var->dx[k], xs);
    cur->y = tt_var_scaled(y, var->dy[k], ys);
}

/* A point of a glyph at the size's location: in font units as the hinter
 * sees them (orus) and scaled (cur).  `var` is NULL at the default, the
 * common case, inlined (a call took 49 instructions a phantom point;
 * callgrind, DejaVu Sans at 12 ppem). */
static FV_ALWAYS_INLINE void varied_point(const tt_var_buf *var, uint32_t k, int64_t x, int64_t y,
                                          int64_t xs, int64_t ys, tt_vec *orus, tt_vec *cur)
{
    if (FV_LIKELY(!var)) {
        orus->x = x;
        orus->y = y;
        cur->x = fv_mulfix(x, xs);
        cur->y = fv_mulfix(y, ys);
        return;
    }
    varied_point_at(var, k, x, y, xs, ys, orus, cur);
}

static void scale_phantoms(gl_loader *L)
{
    int64_t xs = L->size->m.x_scale, ys = L->size->m.y_scale;
    for (int i = 0; i < 4; i++) {
        L->pp[i].x = fv_mulfix(L->pp[i].x, xs);
        if (i >= 2)
            L->pp[i].y = fv_mulfix(L->pp[i].y, ys);
    }
}

/* TT_Hint_Glyph on a prepared zone whose last 4 points are the phantoms. */
static fv_status hint_zone(gl_loader *L, tt_zone *z, fv_span ins, int composite)
{
    tt_ctx *c = &L->c;
    uint32_t n = z->n_points;
    fv_status spent = spend(L, c->glyph, n);
    if (spent != FV_OK)
        return spent;
    if (ins.len > 0)
        memcpy(z->org, z->cur, n * sizeof(tt_vec));
    c->gs = L->size->gs;
    if (composite) {
        c->exec_x_scale = c->exec_y_scale = 0x10000;
        memcpy(z->orus, z->cur, n * sizeof(tt_vec));
    } else {
        c->exec_x_scale = L->size->m.x_scale;
        c->exec_y_scale = L->size->m.y_scale;
    }
    z->cur[n - 4].x = tt_round(z->cur[n - 4].x);
    z->cur[n - 3].x = tt_round(z->cur[n - 3].x);
    z->cur[n - 2].y = tt_round(z->cur[n - 2].y);
    z->cur[n - 1].y = tt_round(z->cur[n - 1].y);
    if (ins.len > 0) {
        c->ranges[TT_RANGE_GLYPH] = ins;
        c->have_range[TT_RANGE_GLYPH] = 1;
        c->is_composite = composite;
        c->pts = *z;
        /* TT_Run_Context's resets. */
        c->zp0 = c->zp1 = c->zp2 = &c->pts;
        c->gs.gep0 = c->gs.gep1 = c->gs.gep2 = 1;
        c->gs.pv_x = c->gs.fv_x = c->gs.dv_x = 0x4000;
        c->gs.pv_y = c->gs.fv_y = c->gs.dv_y = 0;
        c->gs.round_state = TT_ROUND_GRID;
        c->gs.loop = 1;
        c->top = 0;
        c->call_top = 0;
        /* COMPAT(freetype): every glyph program run starts from the size's
         * CVT and storage; a copy made by an earlier run (a component's, or
         * another glyph's) is not seen (cvt.h; measured, tt_diff F-5). */
        c->cvt = L->size->cvt;
        c->cvt_is_copy = 0;
        c->storage = L->size->storage;
        c->storage_is_copy = 0;
        fv_status st = tt_execute(c, TT_RANGE_GLYPH);
        /* The twilight limit of this run stays for the rest of the load.
         * A spent budget ends the load (a hardening limit: FreeType would
         * go on, slowly).  FV_OK is tested first: fv_status_is_budget
         * compares names (52 instructions a glyph program; callgrind,
         * Liberation Mono). */
        if (st != FV_OK && (st == FV_E_NOMEM || fv_status_is_budget(st) || c->pedantic))
            return st;
        /* COMPAT(freetype): other glyph program errors keep the partly
         * hinted glyph. */
        if (st != FV_OK && c->ex->diag) {
            fv_error where = c->err ? *c->err : (fv_error){.kind = st};
            c->ex->diag(c->ex->diag_user, FV_TT_DIAG_GLYPH_STOPPED, &where);
        }
        if (st != FV_OK && c->err)
            fv_error_clear(c->err);
    }
    if (!(L->size->mode.v40 && c->backward_compatibility))
        for (int i = 0; i < 4; i++)
            L->pp[i] = z->cur[n - 4 + (uint32_t)i];
    return FV_OK;
}

static fv_status load_glyph(gl_loader *L, uint32_t gid, uint32_t depth);

static fv_status process_simple(gl_loader *L, const sfnt_glyph *g)
{
    uint32_t np = g->num_points, nc = (uint32_t)g->num_contours;
    fv_status st = base_reserve(L, np, nc, 4);
    if (st != FV_OK)
        return st;
    gl_base *b = &L->base;
    uint32_t start = b->n_points;
    int64_t xs = L->size->m.x_scale, ys = L->size->m.y_scale;
    tt_zone z;
    /* glyf is decoded straight where the points are used, in font units:
     * into the zone's orus when hinted (hinted where the outline is
     * assembled, the phantoms just past the glyph's points: base_reserve
     * made room), else into the outline, scaled there in place.  The
     * flags go to the outline's tags, cut to their SFNT_ON_CURVE
     * (TT_TAG_ON) bit below. */
    tt_vec *units = b->pts + start;
    if (L->hinted) {
        if (tt_zone_reserve(L->mem, &L->c.ex->load_zone, np + 4, nc, b->pts + start,
                            b->tags + start, &z) != FV_OK)
            return fail(L, FV_E_NOMEM, g->gid, NULL);
        units = z.orus;
    }
    fv_error e;
    if (sfnt_glyph_points(g, b->tags + start, units, &e) != FV_OK) {
        if (L->err)
            *L->err = e;
        return e.kind;
    }
    const tt_var_buf *var = NULL;
    if (L->size->varied) {
        st = tt_var_simple(L->size, &L->c.ex->var, L->mem, g, units, L->pp, L->err);
        if (st != FV_OK)
            return st;
        var = &L->c.ex->var;
    }
    if (L->hinted) {
        if (var)
            for (uint32_t i = 0; i < np; i++) {
                varied_point(var, i, z.orus[i].x, z.orus[i].y, xs, ys, &z.orus[i], &z.cur[i]);
                z.tags[i] &= SFNT_ON_CURVE;
            }
        else
            /* The default instance, the common case: a loop of its own. */
            for (uint32_t i = 0; i < np; i++) {
                z.cur[i].x = fv_mulfix(z.orus[i].x, xs);
                z.cur[i].y = fv_mulfix(z.orus[i].y, ys);
                z.tags[i] &= SFNT_ON_CURVE;
            }
        memset(z.tags + np, 0, 4);
        for (uint32_t i = np; i < np + 4; i++)
            varied_point(var, i, L->pp[i - np].x, L->pp[i - np].y, xs, ys, &z.orus[i], &z.cur[i]);
        for (uint32_t i = 0; i < nc; i++)
            z.contours[i] = g->end_points[i];
        /* The scaled phantoms stand unless the hinted ones are taken over
         * (not in v40 backward-compatibility mode). */
        tt_vec pp_units[2] = {L->pp[0], L->pp[1]};
        for (uint32_t i = 0; i < 4; i++)
            L->pp[i] = z.cur[np + i];
        /* COMPAT(freetype): at a location of a font with HVAR, FreeType
         * 2.12.1 keeps the advance v40's backward-compatibility mode
         * reports (the phantoms it does not take from the hinted zone) in
         * whole font units, unvaried but for HVAR's rounded delta, scaled as
         * at the default instance; the zone's phantoms are scaled from
         * their unrounded varied positions like every point.  Karla
         * Italic's quotesingle at wght=300 (HVAR -43.5 units), 24.8 ppem:
         * pp2 at 201 units is 159/64 px (2 px hinted) this way, 160/64 (3
         * px) through the zone; FreeType's v40 advance is 2 px, its v35
         * one 3 px.  With pp1 moved by gvar (a copy of the font) the v40
         * advance stays 2 px and the outline stays put. */
        if (var && L->size->face->var->has_hvar)
            for (uint32_t i = 0; i < 2; i++)
                L->pp[i].x = fv_mulfix(pp_units[i].x, xs);
        st = hint_zone(L, &z, g->instructions, 0);
        if (st != FV_OK)
            return st;
    } else {
        tt_vec orus;
        tt_vec *pts = b->pts + start;
        uint8_t *tags = b->tags + start;
        for (uint32_t i = 0; i < np; i++) {
            if (var)
                varied_point(var, i, pts[i].x, pts[i].y, xs, ys, &orus, &pts[i]);
            else {
                pts[i].x = fv_mulfix(pts[i].x, xs);
                pts[i].y = fv_mulfix(pts[i].y, ys);
            }
            tags[i] &= SFNT_ON_CURVE;
        }
        for (uint32_t i = 0; i < 4; i++)
            varied_point(var, np + i, L->pp[i].x, L->pp[i].y, xs, ys, &orus, &L->pp[i]);
    }
    for (uint32_t i = 0; i < nc; i++)
        b->ends[b->n_contours + i] = start + g->end_points[i];
    b->n_points += np;
    b->n_contours += nc;
    return FV_OK;
}

/* TT_Process_Composite_Component: transform and place the points just
 * loaded for component `comp` (from num_base to the end). */
static fv_status place_component(gl_loader *L, const sfnt_component *comp, uint32_t start,
                                 uint32_t num_base)
{
    gl_base *b = &L->base;
    uint16_t fl = comp->flags;
    int have_scale = (fl & (SFNT_WE_HAVE_A_SCALE | SFNT_WE_HAVE_AN_X_AND_Y_SCALE |
                            SFNT_WE_HAVE_A_TWO_BY_TWO)) != 0;
    /* 2.14 to 16.16 as FreeType reads them. */
    int64_t xx = (int64_t)comp->xx * 4, yx = (int64_t)comp->yx * 4;
    int64_t xy = (int64_t)comp->xy * 4, yy = (int64_t)comp->yy * 4;
    fv_status st = spend(L, comp->glyph, b->n_points - num_base);
    if (st != FV_OK)
        return st;
    if (have_scale)
        for (uint32_t i = num_base; i < b->n_points; i++) {
            int64_t x = b->pts[i].x, y = b->pts[i].y;
            b->pts[i].x = tt_add(fv_mulfix(x, xx), fv_mulfix(y, xy));
            b->pts[i].y = tt_add(fv_mulfix(x, yx), fv_mulfix(y, yy));
        }
    int64_t x, y;
    if (!(fl & SFNT_ARGS_ARE_XY_VALUES)) {
        /* Point matching: point k of the earlier components meets point l
         * of this one. */
        uint64_t k = (uint64_t)(uint32_t)comp->arg1 + start;
        uint64_t l = (uint64_t)(uint32_t)comp->arg2 + num_base;
        if (k >= num_base || l >= b->n_points)
            return fail(L, FV_E_BAD_GLYPH, L->c.glyph, "component point match out of range");
        x = tt_sub(b->pts[k].x, b->pts[l].x);
        y = tt_sub(b->pts[k].y, b->pts[l].y);
    } else {
        x = comp->arg1;
        y = comp->arg2;
        if (!x && !y)
            return FV_OK;
        if (have_scale && (fl & SFNT_SCALED_COMPONENT_OFFSET)) {
            x = fv_mulfix(x, tt_hypot(xx, xy));
            y = fv_mulfix(y, tt_hypot(yy, yx));
        }
        x = fv_mulfix(x, L->size->m.x_scale);
        y = fv_mulfix(y, L->size->m.y_scale);
        if ((fl & SFNT_ROUND_XY_TO_GRID) && L->hinted) {
            /* COMPAT(freetype): x is rounded only by v35 (integer advances
             * under subpixel hinting). */
            if (!L->size->mode.v40)
                x = tt_round(x);
            y = tt_round(y);
        }
    }
    if (x || y)
        for (uint32_t i = num_base; i < b->n_points; i++) {
            b->pts[i].x = tt_add(b->pts[i].x, x);
            b->pts[i].y = tt_add(b->pts[i].y, y);
        }
    return FV_OK;
}

static fv_status process_composite(gl_loader *L, const sfnt_glyph *g, uint32_t start_point,
                                   uint32_t start_contour)
{
    gl_base *b = &L->base;
    fv_span ins = g->instructions;
    if (g->instructions_status != FV_OK) {
        /* COMPAT(freetype): instructions FreeType could not read, now that
         * it reads them (glyf.c composite_instructions). */
        fail(L, g->instructions_status, g->gid, g->instructions_why);
        if (L->err)
            L->err->offset = g->instructions_at > UINT32_MAX ? UINT32_MAX - 1 : (uint32_t)g->instructions_at;
        return g->instructions_status;
    }
    if (ins.len == 0)
        return FV_OK;
    uint32_t n = b->n_points - start_point;
    uint32_t nc = b->n_contours - start_contour;
    /* The zone is the components' points where they are, the phantoms
     * just past them. */
    fv_status st = base_reserve(L, 0, 0, 4);
    if (st != FV_OK)
        return st;
    tt_zone z;
    if (tt_zone_reserve(L->mem, &L->c.ex->load_zone, n + 4, nc, b->pts + start_point,
                        b->tags + start_point, &z) != FV_OK)
        return fail(L, FV_E_NOMEM, g->gid, NULL);
    /* Components' programs touched points: untouch them. */
    for (uint32_t i = 0; i < n; i++)
        z.tags[i] = (uint8_t)(z.tags[i] & ~TT_TAG_TOUCH_BOTH);
    for (uint32_t i = 0; i < 4; i++) {
        z.cur[n + i] = L->pp[i];
        z.tags[n + i] = 0;
    }
    for (uint32_t i = 0; i < nc; i++) {
        uint32_t e = b->ends[start_contour + i] - start_point;
        z.contours[i] = (uint16_t)(e < n ? e : (n ? n - 1 : 0));
    }
    return hint_zone(L, &z, ins, 1);
}

/* Gives the context a parsed glyph of its own for every nesting level up
 * to `depth`, kept for reuse (levels are reached in order, so this adds
 * one). */
static FV_NOINLINE fv_status add_levels(gl_loader *L, uint32_t depth)
{
    fv_tt_exec *ex = L->c.ex;
    sfnt_glyph **levels = fv_mem_array(L->mem, (size_t)depth + 1, sizeof *levels);
    if (!levels)
        return FV_E_NOMEM;
    if (ex->load_levels)
        memcpy(levels, ex->load_glyphs, ex->load_levels * sizeof *levels);
    fv_mem_free(L->mem, ex->load_glyphs);
    ex->load_glyphs = levels;
    for (; ex->load_levels <= depth; ex->load_levels++)
        if ((levels[ex->load_levels] = fv_mem_calloc(L->mem, sizeof *levels[0])) == NULL)
            return FV_E_NOMEM;
    return FV_OK;
}

static fv_status load_glyph(gl_loader *L, uint32_t gid, uint32_t depth)
{
    fv_error e;
    if (depth > SFNT_MAX_COMPOSITE_DEPTH)
        return fail(L, FV_E_COMPOSITE_DEPTH, gid, NULL);
    fv_tt_exec *ex = L->c.ex;
    if (FV_UNLIKELY(depth >= ex->load_levels) && add_levels(L, depth) != FV_OK)
        return fail(L, FV_E_NOMEM, gid, NULL);
    sfnt_glyph *g = ex->load_glyphs[depth];
    if (sfnt_glyph_reload(L->sf, gid, L->mem, g, &e) != FV_OK) {
        if (L->err)
            *L->err = e;
        return e.kind;
    }
    /* Parsing is work in proportion to the glyph's points and components,
     * done again for every reference. */
    fv_status st = spend(L, gid, 1 + (uint64_t)g->num_points + g->num_components);
    if (st != FV_OK)
        return st;
    st = set_phantoms(L, gid, g);
    if (st != FV_OK)
        goto done;
    if (g->num_contours == 0) {
        /* Empty glyph: scaled phantoms, no hinting.  COMPAT(freetype): at
         * a location FreeType 2.12.1 gives an empty glyph's phantoms their
         * gvar deltas too, in whole font units (a space's advance without
         * HVAR; with HVAR pp1's x delta still moves the origin). */
        if (L->size->varied) {
            st = tt_var_composite_apply(L->size, &L->c.ex->var, L->mem, g, L->pp, L->err);
            if (st != FV_OK)
                goto done;
        }
        scale_phantoms(L);
        goto done;
    }
    if (g->num_contours > 0) {
        uint32_t saved = L->c.glyph;
        L->c.glyph = gid;
        st = process_simple(L, g);
        L->c.glyph = saved;
        goto done;
    }
    /* Composite: refuse cycles. */
    for (uint32_t i = 0; i < depth; i++)
        if (L->composite_stack[i] == gid) {
            st = fail(L, FV_E_COMPOSITE_DEPTH, gid, "recursive composite");
            goto done;
        }
    L->composite_stack[depth] = gid;
    uint32_t start_point = L->base.n_points, start_contour = L->base.n_contours;
    if (L->size->varied) {
        st = tt_var_composite_apply(L->size, &L->c.ex->var, L->mem, g, L->pp, L->err);
        if (st != FV_OK)
            goto done;
    }
    scale_phantoms(L);
    for (uint32_t k = 0; k < g->num_components; k++) {
        const sfnt_component *comp = &g->components[k];
        /* Every reference at every level counts: depth and cycle checks
         * alone let 1,000 x 1,000 x 1,000 references through. */
        if (!fv_budget_component(&L->c.budget)) {
            st = fail(L, FV_E_BUDGET_COMPONENTS, gid, NULL);
            if (L->err) {
                L->err->index = L->c.budget.components; /* the reference refused */
                snprintf(L->err->detail, sizeof L->err->detail,
                         "more than %d component references per glyph load",
                         FV_BUDGET_TT_COMPONENTS);
            }
            goto done;
        }
        tt_vec saved_pp[4];
        memcpy(saved_pp, L->pp, sizeof saved_pp);
        uint32_t num_base = L->base.n_points;
        st = load_glyph(L, comp->glyph, depth + 1);
        if (st != FV_OK)
            goto done;
        if (!(comp->flags & SFNT_USE_MY_METRICS))
            memcpy(L->pp, saved_pp, sizeof saved_pp);
        if (L->base.n_points == num_base)
            continue;
        st = place_component(L, comp, start_point, num_base);
        if (st != FV_OK)
            goto done;
    }
    if (L->hinted && g->num_components > 0 &&
        (g->components[g->num_components - 1].flags & SFNT_WE_HAVE_INSTRUCTIONS) &&
        L->base.n_points > start_point) {
        uint32_t saved = L->c.glyph;
        L->c.glyph = gid;
        st = process_composite(L, g, start_point, start_contour);
        L->c.glyph = saved;
    }
done:
    return st;
}

/* hdmx device width for (ppem, gid), or -1. */
static int hdmx_width(const fv_tt_face *f, uint32_t ppem, uint32_t gid)
{
    for (uint32_t i = 0; i < f->hdmx_records; i++) {
        uint64_t off = 8 + (uint64_t)i * f->hdmx_record_size;
        uint8_t size;
        if (fv_rd_u8(f->hdmx, off, &size) != FV_OK)
            return -1;
        if (size == ppem) {
            uint64_t idx = (uint64_t)gid + 2;
            uint8_t w;
            if (idx < f->hdmx_record_size && fv_rd_u8(f->hdmx, off + idx, &w) == FV_OK)
                return w;
            return -1;
        }
    }
    return -1;
}

fv_status fv_tt_hint_glyph(fv_tt_size *size, fv_tt_exec *exec, uint32_t gid, fv_tt_outline *out,
                           fv_error *err)
{
    fv_error_clear(err);
    if (out)
        memset(out, 0, sizeof *out);
    if (!size || !exec || !out || exec->face != size->face) {
        if (err)
            err->kind = FV_E_BAD_ARGUMENT;
        return FV_E_BAD_ARGUMENT;
    }
    out->gid = gid;
    if (size->ready != FV_OK) {
        if (err)
            *err = size->ready_err;
        return size->ready;
    }
    fv_tt_face *face = size->face;
    /* Not zeroed as a whole (it is large and this runs per glyph):
     * tt_ctx_init clears c, composite_stack[i] is written before it is read,
     * everything else is set here. */
    gl_loader loader;
    gl_loader *L = &loader;
    memset(L->pp, 0, sizeof L->pp);
    L->size = size;
    L->sf = face->sf;
    L->mem = face->mem;
    L->err = err;
    tt_ctx_init(&L->c, size, exec, err);
    L->c.program = FV_PROG_GLYF;
    /* One budget for the whole load: every component, every program. */
    fv_budget_start(&L->c.budget, FV_BUDGET_TT_GLYPH_STEPS, FV_BUDGET_TT_COMPONENTS);
    /* The outline buffer is the context's, kept between loads. */
    L->base.pts = exec->load_pts;
    L->base.tags = exec->load_tags;
    L->base.cap = exec->load_pts_cap;
    L->base.ends = exec->load_ends;
    L->base.ccap = exec->load_ends_cap;
    L->base.n_points = 0;
    L->base.n_contours = 0;
    /* So are the copy-on-write buffers, when they fit this size's arrays. */
    if (exec->cvt_copy_len == L->c.cvt_size)
        L->c.cvt_copy = exec->cvt_copy;
    if (exec->storage_copy_len == L->c.storage_size)
        L->c.storage_copy = exec->storage_copy;
    L->c.ranges[TT_RANGE_FONT] = face->sf->fpgm;
    L->c.gs = size->gs;
    /* instruct_control bit 0: prep turned hinting off. */
    L->hinted = !(size->gs.instruct_control & 1);
    /* COMPAT(freetype): v40 backward compatibility unless the prep
     * "signed the waiver" (INSTCTRL selector 3), never for MONO. */
    L->c.backward_compatibility =
        size->mode.v40 && size->mode.subpixel_lean && !(size->gs.instruct_control & 4);
    /* hdmx widths are a hinted load's, whether or not prep switched the
     * glyph programs off (INSTCTRL selector 1): FreeType 2.12.1 takes them
     * then too (Monlam's Tibetan fonts below 20 ppem; test_tt_hdmx). */
    int use_hdmx = !(size->mode.v40 && L->c.backward_compatibility) && !face->fixed_pitch;

    fv_status st = load_glyph(L, gid, 0);
    if (st == FV_OK) {
        gl_base *b = &L->base;
        out->num_points = b->n_points;
        out->num_contours = b->n_contours;
        /* One block: x and y (int32), then the contour ends (uint16), then
         * the tags; fv_tt_outline_free frees it through out->x.  Points and
         * contours are at most 0xFFFF each (base_reserve), so the size
         * cannot overflow. */
        size_t np1 = (size_t)b->n_points + 1, nc1 = (size_t)b->n_contours + 1;
        uint8_t *block =
            fv_mem_alloc(L->mem, 2 * np1 * sizeof(int32_t) + nc1 * sizeof(uint16_t) + np1);
        if (block) {
            out->x = (int32_t *)(void *)block;
            out->y = out->x + np1;
            out->contour_ends = (uint16_t *)(void *)(out->y + np1);
            out->tags = (uint8_t *)(out->contour_ends + nc1);
        }
        if (!block) {
            fv_tt_outline_free(face, out);
            st = FV_E_NOMEM;
            if (err)
                err->kind = st;
        } else {
            /* The outline is translated so that pp1 is the origin. */
            int64_t dx = L->pp[0].x;
            /* Two loops on pointers that do not alias, which the compiler
             * vectorises (one loop through out-> was 11 instructions a
             * point; callgrind, DejaVu Sans at 12 ppem). */
            const tt_vec *restrict pts = b->pts;
            const uint8_t *restrict tags = b->tags;
            int32_t *restrict ox = out->x, *restrict oy = out->y;
            uint8_t *restrict otags = out->tags;
            uint32_t n = b->n_points;
            for (uint32_t i = 0; i < n; i++) {
                ox[i] = (int32_t)tt_sub(pts[i].x, dx);
                oy[i] = (int32_t)pts[i].y;
            }
            for (uint32_t i = 0; i < n; i++)
                otags[i] = tags[i] & TT_TAG_ON;
            for (uint32_t i = 0; i < b->n_contours; i++)
                out->contour_ends[i] = (uint16_t)b->ends[i];
            int64_t adv = tt_sub(L->pp[1].x, L->pp[0].x);
            int w = use_hdmx ? hdmx_width(face, size->m.x_ppem, gid) : -1;
            if (w >= 0)
                adv = (int64_t)w * 64;
            /* FT_Load_Glyph grid-fits the advance of hinted loads. */
            out->advance_x = (int32_t)tt_round(adv);
            out->lsb_x = (int32_t)L->pp[0].x;
        }
    }
    if (L->c.cvt_copy != exec->cvt_copy) {
        fv_mem_free(L->mem, exec->cvt_copy);
        exec->cvt_copy = L->c.cvt_copy;
        exec->cvt_copy_len = L->c.cvt_size;
    }
    if (L->c.storage_copy != exec->storage_copy) {
        fv_mem_free(L->mem, exec->storage_copy);
        exec->storage_copy = L->c.storage_copy;
        exec->storage_copy_len = L->c.storage_size;
    }
    exec->last_load_steps = fv_budget_used(&L->c.budget);
    exec->load_pts = L->base.pts;
    exec->load_tags = L->base.tags;
    exec->load_pts_cap = L->base.cap;
    exec->load_ends = L->base.ends;
    exec->load_ends_cap = L->base.ccap;
    return st;
}

void fv_tt_outline_free(fv_tt_face *face, fv_tt_outline *out)
{
    if (!face || !out)
        return;
    fv_mem_free(face->mem, out->x); /* the one block holding all four arrays */
    out->x = out->y = NULL;
    out->tags = NULL;
    out->contour_ends = NULL;
    out->num_points = out->num_contours = 0;
}
