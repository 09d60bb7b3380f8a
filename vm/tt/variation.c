/* Glyph variations for the loader: gvar deltas of a glyph's points. */
#include <string.h>

#include "common/fixed.h"
#include "tt/objects.h"
#include "tt/variation.h"

void tt_var_buf_free(fv_mem *mem, tt_var_buf *b)
{
    sfnt_gvar_scratch_free(mem, &b->gvar);
    fv_mem_free(mem, b->org_x);
    fv_mem_free(mem, b->org_y);
    fv_mem_free(mem, b->dx);
    fv_mem_free(mem, b->dy);
    fv_mem_free(mem, b->ends);
    memset(b, 0, sizeof *b);
}

fv_status tt_var_size_location(fv_tt_size *s, const fv_tt_size_request *req, fv_error *err)
{
    const sfnt_var *v = s->face->var;
    if (req->num_coords == 0)
        return FV_OK;
    if (!req->coords || !v)
        return sfnt_fail(err, FV_E_BAD_ARGUMENT, 0, FV_NO_VALUE,
                         req->coords ? "a location for a font without axes" : "coords is NULL");
    s->coords = fv_mem_array(s->face->mem, v->num_axes, sizeof(int32_t));
    if (!s->coords)
        return sfnt_fail(err, FV_E_NOMEM, 0, FV_NO_VALUE, NULL);
    if (sfnt_var_blend(v, req->coords, req->num_coords, s->coords) != 0)
        return sfnt_fail(err, FV_E_BAD_ARGUMENT, 0, FV_NO_VALUE,
                         "a normalized coordinate outside [-1, 1]");
    /* COMPAT(freetype): a location, even the default one, puts FreeType
     * 2.12.1 on its variation path (FT_FACE_FLAG_VARIATION after any
     * FT_Set_Var_*_Coordinates), which scales points from their unrounded
     * varied positions: the default instance hinted through a location can
     * differ by a rounding from the one hinted without (measured, Karla). */
    s->varied = 1;
    /* cvar: the CVT at the location, which prep then scales. */
    fv_span cvar;
    const sfnt_font *sf = s->face->sf;
    if (sf->cvt_count > 0 && sfnt_find_table(sf, SFNT_TAG_cvar, &cvar)) {
        s->cvt_units = fv_mem_array(s->face->mem, sf->cvt_count, sizeof(int32_t));
        if (!s->cvt_units)
            return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_cvar, FV_NO_VALUE, NULL);
        sfnt_gvar_scratch scratch;
        memset(&scratch, 0, sizeof scratch);
        fv_status st = sfnt_cvar_apply(v, sf, s->coords, s->cvt_units, &scratch, s->face->mem, err);
        sfnt_gvar_scratch_free(s->face->mem, &scratch);
        if (st != FV_OK)
            return st;
    }
    return FV_OK;
}

static int reserve(tt_var_buf *b, fv_mem *mem, uint32_t n, uint32_t nc)
{
    if (n > b->cap) {
        fv_mem_free(mem, b->org_x);
        fv_mem_free(mem, b->org_y);
        fv_mem_free(mem, b->dx);
        fv_mem_free(mem, b->dy);
        uint32_t cap = n + 64;
        b->org_x = fv_mem_array(mem, cap, sizeof(int32_t));
        b->org_y = fv_mem_array(mem, cap, sizeof(int32_t));
        b->dx = fv_mem_array(mem, cap, sizeof(int32_t));
        b->dy = fv_mem_array(mem, cap, sizeof(int32_t));
        b->cap = b->org_x && b->org_y && b->dx && b->dy ? cap : 0;
        if (!b->cap)
            return 0;
    }
    if (nc > b->ends_cap || !b->ends) {
        fv_mem_free(mem, b->ends);
        uint32_t cap = nc + 16;
        b->ends = fv_mem_array(mem, cap, sizeof(uint16_t));
        b->ends_cap = b->ends ? cap : 0;
        if (!b->ends)
            return 0;
    }
    return 1;
}

static void put_phantoms(tt_var_buf *b, uint32_t at, const tt_vec pp[4])
{
    for (uint32_t i = 0; i < 4; i++) {
        b->org_x[at + i] = (int32_t)pp[i].x;
        b->org_y[at + i] = (int32_t)pp[i].y;
    }
}

static fv_status deltas(const fv_tt_size *size, tt_var_buf *b, fv_mem *mem, uint32_t gid, uint32_t n,
                        uint32_t nc, fv_error *err)
{
    const sfnt_var *v = size->face->var;
    fv_status st = sfnt_gvar_glyph_deltas(v, gid, size->coords, n, b->org_x, b->org_y, b->ends, nc,
                                          b->dx, b->dy, &b->gvar, mem, err);
    if (st != FV_OK && err)
        err->glyph = gid;
    /* COMPAT(freetype): each phantom point takes gvar's delta on one
     * axis only: pp1 and pp2 on x, pp3 and pp4 on y (FreeType 2.12.1 drops
     * the others).  Measured on a synthetic font whose glyph program
     * copies every phantom's current, original and original-unit (MD[1])
     * coordinates into outline points (var_phantoms.ttf of
     * tests/tt/make_var_fonts.py):
     * pp1/pp2 y and pp3/pp4 x stay where hmtx and the vertical metrics
     * put them, with the deltas given to every point or to the phantoms
     * alone, with HVAR or VVAR or neither (fuzz F-36: an IUP[y] that
     * reads pp1's y through the fpgm).
     * With HVAR, pp2 keeps its place on x too (HVAR has varied the advance
     * already) while pp1 takes its x delta, which moves the origin (v35
     * and native v40 shift the outline by the hinted pp1), with or without
     * HVAR's lsb mapping.  Measured on copies of Karla Italic at wght=300:
     * pp2's gvar deltas zeroed or made 4 times larger change nothing, pp1
     * given -43.5 units shifts quotesingle (simple) and acute (composite)
     * by 1 px at 24.8 ppem in v35.
     * With VVAR, likewise, pp4 keeps its place on y (VVAR has varied the
     * vertical advance: tt_var_vadvance) while pp3 takes its y delta;
     * VVAR's top side bearing mapping moves neither.  Measured on
     * var_phantoms_vvar.ttf at wght -1, -0.5, 0.5 and 1, with HVAR and
     * without, with VVAR's advance mapping and without (implicit glyph
     * ids): pp4's original y is pp3's unvaried y less vmtx's advance plus
     * VVAR's rounded delta. */
    if (st == FV_OK && n >= 4) {
        b->dy[n - 4] = b->dy[n - 3] = 0;
        b->dx[n - 2] = b->dx[n - 1] = 0;
        if (v->has_hvar)
            b->dx[n - 3] = 0;
        if (v->has_vvar)
            b->dy[n - 1] = 0;
    }
    return st;
}

fv_status tt_var_simple(const fv_tt_size *size, tt_var_buf *b, fv_mem *mem, const sfnt_glyph *g,
                        const tt_vec *units, const tt_vec pp[4], fv_error *err)
{
    uint32_t np = g->num_points, nc = (uint32_t)g->num_contours;
    if (!reserve(b, mem, np + 4, nc))
        return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_gvar, FV_NO_VALUE, NULL);
    /* glyf's coordinates are sums of 16-bit deltas: they fit in 32 bits
     * (glyf.c read_coords). */
    for (uint32_t i = 0; i < np; i++) {
        b->org_x[i] = (int32_t)units[i].x;
        b->org_y[i] = (int32_t)units[i].y;
    }
    put_phantoms(b, np, pp);
    memcpy(b->ends, g->end_points, nc * sizeof(uint16_t));
    return deltas(size, b, mem, g->gid, np + 4, nc, err);
}

fv_status tt_var_composite(const fv_tt_size *size, tt_var_buf *b, fv_mem *mem,
                           const sfnt_glyph *g, const tt_vec pp[4], fv_error *err)
{
    uint32_t n = g->num_components;
    if (!reserve(b, mem, n + 4, 0))
        return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_gvar, FV_NO_VALUE, NULL);
    for (uint32_t i = 0; i < n; i++) {
        const sfnt_component *c = &g->components[i];
        int xy = (c->flags & SFNT_ARGS_ARE_XY_VALUES) != 0;
        b->org_x[i] = xy ? c->arg1 : 0;
        b->org_y[i] = xy ? c->arg2 : 0;
    }
    put_phantoms(b, n, pp);
    return deltas(size, b, mem, g->gid, n + 4, 0, err);
}

fv_status tt_var_composite_apply(const fv_tt_size *size, tt_var_buf *b, fv_mem *mem,
                                 sfnt_glyph *g, tt_vec pp[4], fv_error *err)
{
    fv_status st = tt_var_composite(size, b, mem, g, pp, err);
    if (st != FV_OK)
        return st;
    uint32_t n = g->num_components;
    for (uint32_t i = 0; i < n; i++) {
        sfnt_component *c = &g->components[i];
        /* Point-matched components have no offset to vary. */
        if (!(c->flags & SFNT_ARGS_ARE_XY_VALUES))
            continue;
        c->arg1 = (int32_t)tt_var_rounded(c->arg1, b->dx[i]);
        c->arg2 = (int32_t)tt_var_rounded(c->arg2, b->dy[i]);
    }
    for (uint32_t i = 0; i < 4; i++) {
        pp[i].x = tt_var_rounded(pp[i].x, b->dx[n + i]);
        pp[i].y = tt_var_rounded(pp[i].y, b->dy[n + i]);
    }
    return FV_OK;
}

int64_t tt_var_advance(const fv_tt_size *size, uint32_t gid, int64_t adv)
{
    /* COMPAT(freetype): the varied advance is kept as hmtx keeps it, an
     * unsigned 16-bit value, so one HVAR makes negative wraps around:
     * Roboto Flex's percent sign at wdth 25, XTRA 323, YOPQ 135 (1,848
     * units, HVAR -2,002) is 65,382 units wide in FreeType 2.12.1 (351 px
     * at 11 ppem, 63,850 px at 2,000: measured), fuzz/FINDINGS.md F-48. */
    return (uint16_t)(adv + sfnt_hvar_advance_delta(size->face->var, gid, size->coords));
}

int64_t tt_var_vadvance(const fv_tt_size *size, uint32_t gid, int64_t adv)
{
    return (uint16_t)(adv + sfnt_vvar_advance_delta(size->face->var, gid, size->coords));
}

int64_t tt_var_scaled(int64_t units, int32_t delta, int64_t scale)
{
    /* The unrounded position in 26.6 font units, scaled, then to 26.6
     * pixels. */
    int64_t u = units * 64 + (((int64_t)delta + 0x200) >> 10);
    return (fv_mulfix(u, scale) + 32) >> 6;
}
