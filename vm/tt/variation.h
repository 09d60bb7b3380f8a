/* Glyph variations at a size's location (gvar), applied by the glyph
 * loader before the glyph program as FreeType 2.12.1 applies them
 * (TT_Vary_Apply_Glyph_Deltas' results, learnt by experiment). */
#ifndef FV_TT_VARIATION_H
#define FV_TT_VARIATION_H

#include "sfnt/var.h"
#include "tt/interp.h"

/* Per execution context: the varied points of the glyph being loaded. */
typedef struct tt_var_buf {
    sfnt_gvar_scratch gvar;
    int32_t *org_x, *org_y;    /* font units, outline (or components) + 4 phantoms */
    int32_t *dx, *dy;          /* 16.16 deltas */
    uint16_t *ends;
    uint32_t cap, ends_cap;
} tt_var_buf;

void tt_var_buf_free(fv_mem *mem, tt_var_buf *b);

/* Takes the request's location into the size (s->coords, s->varied). */
fv_status tt_var_size_location(fv_tt_size *s, const fv_tt_size_request *req, fv_error *err);

/* Computes the deltas of a simple glyph's points (`units`: g's
 * num_points, font units, as sfnt_glyph_points decoded them) and its
 * phantoms `pp` (font units) at the size's location into b->dx/dy.  Call
 * only for a size at a non-default location. */
fv_status tt_var_simple(const fv_tt_size *size, tt_var_buf *b, fv_mem *mem, const sfnt_glyph *g,
                        const tt_vec *units, const tt_vec pp[4], fv_error *err);
/* The same for a composite glyph: one point per component (its x/y
 * offset when the component has one, else 0, 0) then the phantoms. */
fv_status tt_var_composite(const fv_tt_size *size, tt_var_buf *b, fv_mem *mem,
                           const sfnt_glyph *g, const tt_vec pp[4], fv_error *err);

/* tt_var_composite, then the deltas applied: to the components' x/y
 * offsets (in g, which the loader parsed for this load) and to pp, in
 * whole font units. */
fv_status tt_var_composite_apply(const fv_tt_size *size, tt_var_buf *b, fv_mem *mem,
                                 sfnt_glyph *g, tt_vec pp[4], fv_error *err);

/* The hmtx advance `adv` of glyph gid at the size's location: with HVAR
 * its delta added, and FreeType 2.12.1 then drops pp2's gvar x delta only:
 * pp1 still takes its x delta (tt_var_simple), which moves the origin and,
 * pp2 staying put, changes pp2 - pp1 (measured on copies of Karla Italic
 * with pp1's deltas set to -300, 0 and +300 units: FreeType's outlines and
 * the advances of its empty glyphs move with them).  Without HVAR, hmtx's:
 * the phantom points' gvar deltas vary it. */
int64_t tt_var_advance(const fv_tt_size *size, uint32_t gid, int64_t adv);
/* The same for vmtx's advance height `adv` and VVAR, which FreeType
 * 2.12.1 adds in place of pp4's gvar y delta (tt_var_simple). */
int64_t tt_var_vadvance(const fv_tt_size *size, uint32_t gid, int64_t adv);

/* A point moved by a 16.16 delta: in whole font units as FreeType rounds
 * the outline it hands the hinter (zone orus), and scaled to 26.6 from the
 * unrounded position (zone cur). */
static inline int64_t tt_var_rounded(int64_t units, int32_t delta)
{
    return units + (((int64_t)delta + 0x8000) >> 16);
}
int64_t tt_var_scaled(int64_t units, int32_t delta, int64_t scale);

#endif
