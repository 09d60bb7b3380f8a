/* fv_tt_size: scaling as FT_Set_Char_Size + tt_size_reset, then the font
 * program and the CVT program as tt_size_init_bytecode / tt_size_run_prep
 * run them.  COMPAT(freetype): like FreeType, fpgm runs once per size (its
 * function table is per size); it depends on nothing size-specific. */
#include <stddef.h>
#include <string.h>

#include "tt/defs.h"
#include "tt/gstate.h"
#include "tt/objects.h"
#include "tt/variation.h"
#include "tt/zone.h"

static void mode_flags(fv_tt_mode mode, tt_modeflags *f)
{
    f->v40 = mode != FV_TT_V35;
    f->subpixel_lean = mode == FV_TT_V40 || mode == FV_TT_V40_LCD;
    f->grayscale_cleartype = mode == FV_TT_V40;
    f->grayscale = mode == FV_TT_V35; /* !lean && target != MONO */
}

_Static_assert(offsetof(tt_ctx, calls) + sizeof(((tt_ctx *)0)->calls) == sizeof(tt_ctx),
               "tt_ctx.calls must be the last member (tt_ctx_init)");

void tt_ctx_init(tt_ctx *c, fv_tt_size *size, fv_tt_exec *ex, fv_error *err)
{
    memset(c, 0, offsetof(tt_ctx, calls));
    c->ex = ex;
    c->mem = ex->mem;
    c->glyph = FV_NO_VALUE;
    c->pedantic = size->req.pedantic;
    c->mode = size->mode;
    /* COMPAT(freetype): the glyph count behind the LOOPCALL and negative
     * jump ceilings is FreeType's face glyph count: maxp's numGlyphs cut
     * to the glyphs a short loca covers when the file has no room for the
     * missing entries (sfnt.c read_loca; F-30). */
    const sfnt_font *loaded = size->face->sf;
    c->num_glyphs = loaded->has_loca ? loaded->loca_glyphs : loaded->maxp.num_glyphs;
    c->m = size->m;
    c->exec_x_scale = size->m.x_scale;
    c->exec_y_scale = size->m.y_scale;
    c->defs = &size->defs;
    c->cvt = size->cvt;
    c->cvt_size = size->cvt_size;
    c->storage = size->storage;
    c->storage_size = size->storage_size;
    c->twilight = size->twilight;
    c->zp0 = c->zp1 = c->zp2 = &c->pts;
    const sfnt_font *sf = size->face->sf;
    c->ranges[TT_RANGE_FONT] = sf->fpgm;
    c->have_range[TT_RANGE_FONT] = sf->fpgm.len > 0;
    c->ranges[TT_RANGE_CVT] = sf->prep;
    c->have_range[TT_RANGE_CVT] = sf->prep.len > 0;
    c->stack = size->stack;
    c->stack_size = size->stack_size;
    c->kept_new_top = &size->new_top;
    if (size->varied) {
        c->var_coords = size->coords;
        c->var_axes = size->face->var->num_axes;
    }
    c->period = 64;
    c->err = err;
    /* One budget per fpgm or prep run; glyph loads start their own. */
    fv_budget_start(&c->budget, FV_BUDGET_TT_PROGRAM_STEPS, FV_BUDGET_TT_COMPONENTS);
}

static fv_status run_fpgm(fv_tt_size *s, fv_tt_exec *ex, fv_error *err)
{
    tt_ctx c;
    tt_ctx_init(&c, s, ex, err);
    /* The font program sees no size (tt_size_run_fpgm). */
    c.m.x_ppem = c.m.y_ppem = 0;
    c.m.x_scale = c.m.y_scale = 0;
    c.m.ppem = 0;
    c.m.scale = 0;
    c.exec_x_scale = c.exec_y_scale = 0;
    /* COMPAT(freetype): fpgm runs before the load's mode flags are set. */
    memset(&c.mode, 0, sizeof c.mode);
    c.mode.v40 = s->mode.v40;
    tt_gs_default(&c.gs);
    c.program = FV_PROG_FPGM;
    if (s->face->sf->fpgm.len == 0)
        return FV_OK;
    return tt_execute(&c, TT_RANGE_FONT);
}

/* COMPAT(freetype): a new execution context starts with the subpixel
 * lean, grayscale ClearType and (v35) grayscale flags off; the first load
 * that wants any of them on re-executes prep (tt_loader_init), so prep runs
 * twice for v40, v40-lcd and v35 (grayscale: every target but MONO), once
 * for v40-mono.  Measured against FreeType 2.12.1: tt_diff findings F-3
 * (v40) and F-17 (v35). */
static int prep_reruns(const fv_tt_size *s)
{
    return s->mode.subpixel_lean || s->mode.grayscale_cleartype || s->mode.grayscale;
}

static fv_status run_prep(fv_tt_size *s, fv_tt_exec *ex, fv_error *err, int fresh)
{
    const sfnt_font *sf = s->face->sf;
    /* CVT values are kept in 26.6 font units and scaled with scale >> 6. */
    int64_t scale = tt_asr(s->m.scale, 6);
    for (uint32_t i = 0; i < s->cvt_size; i++)
        s->cvt[i] = fv_mulfix(s->cvt_units ? s->cvt_units[i] : (int64_t)sf->cvt[i] * 64, scale);
    for (uint32_t i = 0; fresh && i < s->twilight.n_points; i++) {
        s->twilight.org[i].x = s->twilight.org[i].y = 0;
        s->twilight.cur[i].x = s->twilight.cur[i].y = 0;
        /* No instruction reads a twilight point's touch flags (IUP works on
         * the glyph zone), so clearing them changes no result; lint's
         * twilight_unset reads them as "set since this reset". */
        s->twilight.tags[i] = 0;
    }
    if (fresh) {
        memset(s->storage, 0, (size_t)s->storage_size * sizeof(int64_t));
        tt_gs_default(&s->gs);
    }
    fv_status st = FV_OK;
    tt_ctx c;
    tt_ctx_init(&c, s, ex, err);
    /* COMPAT(freetype): a re-run starts from the graphics state the first
     * run left (with the resets below) and from its super-round
     * parameters: round state, minimum distance, delta base... carry over
     * (measured against FreeType 2.12.1, tt_diff finding F-20). */
    if (!fresh) {
        c.period = s->period;
        c.phase = s->phase;
        c.threshold = s->threshold;
    }
    if (fresh && prep_reruns(s)) {
        /* COMPAT(freetype): the first prep run uses the new exec context's
         * flags (lean, cleartype and grayscale off); tt_loader_init then
         * re-runs it with the load's flags, keeping storage and twilight
         * (see caller). */
        memset(&c.mode, 0, sizeof c.mode);
        c.mode.v40 = s->mode.v40;
    }
    c.gs = s->gs;
    c.program = FV_PROG_PREP;
    /* COMPAT(freetype): prep runs with backward compatibility off (it is
     * only switched on when a glyph load starts). */
    c.backward_compatibility = 0;
    if (sf->prep.len > 0)
        st = tt_execute(&c, TT_RANGE_CVT);
    /* COMPAT(freetype): "the MS rasterizer doesn't allow the following
     * graphics state variables to be modified by the CVT program". */
    tt_gs saved = c.gs;
    saved.dv_x = saved.pv_x = saved.fv_x = 0x4000;
    saved.dv_y = saved.pv_y = saved.fv_y = 0;
    saved.rp0 = saved.rp1 = saved.rp2 = 0;
    saved.gep0 = saved.gep1 = saved.gep2 = 1;
    saved.loop = 1;
    s->gs = saved;
    s->period = c.period;
    s->phase = c.phase;
    s->threshold = c.threshold;
    return st;
}

fv_status fv_tt_size_new(fv_tt_face *face, fv_tt_exec *exec, const fv_tt_size_request *req,
                         fv_tt_size **out, fv_error *err)
{
    fv_error_clear(err);
    if (!face || !exec || !req || !out || exec->face != face) {
        if (err)
            err->kind = FV_E_BAD_ARGUMENT;
        return FV_E_BAD_ARGUMENT;
    }
    const sfnt_font *sf = face->sf;
    fv_tt_size *s = fv_mem_calloc(face->mem, sizeof *s);
    if (!s)
        goto nomem;
    s->face = face;
    s->req = *req;
    s->req.coords = NULL; /* the caller's array: the size keeps its copy */
    mode_flags(req->mode, &s->mode);
    fv_status vst = tt_var_size_location(s, req, err);
    if (vst != FV_OK) {
        fv_tt_size_free(s);
        return vst;
    }

    /* FT_Set_Char_Size at 72 dpi: a zero dimension copies the other, and
     * each is at least one pixel. */
    int64_t w = req->x_ppem_26d6, h = req->y_ppem_26d6;
    if (w == 0)
        w = h;
    else if (h == 0)
        h = w;
    if (w < 64)
        w = 64;
    if (h < 64)
        h = 64;
    if (!face->scalable) {
        /* COMPAT(freetype): a face of bitmap strikes takes only the
         * strikes' sizes (FT_Match_Size: ppem rounded to whole pixels), and
         * then loads no outline (FT_LOAD_NO_BITMAP fails every glyph). */
        uint32_t x_px = (uint32_t)((w + 32) >> 6), y_px = (uint32_t)((h + 32) >> 6);
        if (!sfnt_strike_has_ppem(sf, x_px, y_px)) {
            fv_tt_size_free(s);
            return sfnt_fail(err, FV_E_NOT_SCALABLE, 0, FV_NO_VALUE, "no strike of this size");
        }
        s->ready = FV_E_NOT_SCALABLE;
        sfnt_fail(&s->ready_err, FV_E_NOT_SCALABLE, 0, FV_NO_VALUE, face->not_scalable_why);
        *out = s;
        return FV_OK;
    }
    uint16_t upem = sf->head.units_per_em;
    s->m.x_scale = fv_divfix(w, upem);
    s->m.y_scale = fv_divfix(h, upem);
    s->m.x_ppem = (uint16_t)((w + 32) >> 6);
    s->m.y_ppem = (uint16_t)((h + 32) >> 6);
    /* head.flags bit 3: "force ppem to integer values" — FreeType then
     * rescales from the rounded ppem (tt_size_reset).
     * COMPAT(freetype): so does a size whose ppem, rounded to whole pixels
     * in x and in y, is a bitmap strike's: FreeType selects the strike and
     * scales the outlines at its ppem (measured on Konatu, EBLC strikes,
     * head.flags bit 3 clear: at 9.3 ppem FreeType's outlines are those of
     * 9 ppem; the hunt of 2026-11-29, F-47). */
    if ((sf->head.flags & 8) || sfnt_strike_has_ppem(sf, s->m.x_ppem, s->m.y_ppem)) {
        s->m.x_scale = fv_divfix((int64_t)s->m.x_ppem << 6, upem);
        s->m.y_scale = fv_divfix((int64_t)s->m.y_ppem << 6, upem);
    }
    if (s->m.x_ppem >= s->m.y_ppem) {
        s->m.scale = s->m.x_scale;
        s->m.ppem = s->m.x_ppem;
        s->m.x_ratio = 0x10000;
        s->m.y_ratio = fv_divfix(s->m.y_ppem, s->m.x_ppem);
    } else {
        s->m.scale = s->m.y_scale;
        s->m.ppem = s->m.y_ppem;
        s->m.x_ratio = fv_divfix(s->m.x_ppem, s->m.y_ppem);
        s->m.y_ratio = 0x10000;
    }
    s->m.point_size = s->m.ppem * 64; /* FT_MulDiv(ppem, 64 * 72, 72) */

    if (tt_defs_alloc(face->mem, &s->defs, tt_defs_function_capacity(sf->maxp.v1_fields, sf->maxp.max_function_defs),
                      sf->maxp.max_instruction_defs) != FV_OK)
        goto nomem;
    s->cvt_size = sf->cvt_count;
    s->cvt = fv_mem_array(face->mem, (size_t)s->cvt_size + 1, sizeof(int64_t));
    s->storage_size = sf->maxp.max_storage;
    s->storage = fv_mem_array(face->mem, (size_t)s->storage_size + 1, sizeof(int64_t));
    s->stack_size = (uint32_t)sf->maxp.max_stack_elements + TT_STACK_EXTRA;
    s->stack = fv_mem_array(face->mem, s->stack_size, sizeof(int64_t));
    if (!s->cvt || !s->storage || !s->stack)
        goto nomem;
    if (tt_zone_alloc(face->mem, &s->twilight,
                      (uint32_t)sf->maxp.max_twilight_points + TT_TWILIGHT_EXTRA, 0) != FV_OK)
        goto nomem;
    tt_gs_default(&s->gs);

    fv_error perr;
    fv_error_clear(&perr);
    s->ready = run_fpgm(s, exec, &perr);
    if (s->ready == FV_OK)
        s->ready = run_prep(s, exec, &perr, 1);
    /* COMPAT(freetype): a change of the lean/cleartype/grayscale flags
     * re-executes prep (only the CVT is rescaled); a failing run fails the
     * size. */
    if (s->ready == FV_OK && prep_reruns(s))
        s->ready = run_prep(s, exec, &perr, 0);
    if (s->ready == FV_E_NOMEM)
        goto nomem;
    s->ready_err = perr;
    *out = s;
    return FV_OK;
nomem:
    fv_tt_size_free(s);
    if (err)
        err->kind = FV_E_NOMEM;
    return FV_E_NOMEM;
}

void fv_tt_size_free(fv_tt_size *s)
{
    if (!s)
        return;
    fv_mem *m = s->face->mem;
    tt_defs_free(m, &s->defs);
    fv_mem_free(m, s->cvt);
    fv_mem_free(m, s->storage);
    fv_mem_free(m, s->stack);
    fv_mem_free(m, s->coords);
    fv_mem_free(m, s->cvt_units);
    tt_zone_free(m, &s->twilight);
    fv_mem_free(m, s);
}
