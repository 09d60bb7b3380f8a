/* Collision avoidance and kerning (Silf flag 0x20, Silf 5 pass collision
 * flags, Glat v3 octaboxes): the GDL manual's "Collision avoidance"
 * chapter describes the model; where it is silent, the behaviour here was
 * measured against graphite2 1.3.14 (the reference) and is marked
 * COMPAT(graphite2).
 *
 * The model.  Each slot carries a grv_coll (collision.flags, .min/.max,
 * .margin, .marginweight, .exclude.*, .seq.*).  A pass whose collision
 * flags ask for it runs, after its rules:
 *
 *  - shifting (pass flags & 7 = rounds): every glyph with collision.flags
 *    FIX (and not KERN) is moved to the cheapest place where it collides
 *    with nothing in its collision range (START..END), looking along four
 *    axes (x, y and the two diagonals).  Along each axis the positions
 *    still free form a list of intervals ("zones"), each with a quadratic
 *    cost (distance from where the glyph started, plus margin and
 *    sequence penalties); the cheapest point over the four axes wins.
 *    Later rounds re-fix the glyphs still colliding, backwards, then all
 *    glyphs forwards again.
 *  - kerning (pass flags bits 3-4): a glyph flagged FIX|KERN that is the
 *    base of its cluster gets extra advance so that its cluster clears the
 *    glyphs after it, measured slice by slice over the line's height.
 *  - finishing: each glyph's move of this pass is added to its offset,
 *    which positioning (grv_finalise_tree with `final`) adds to its shift.
 *
 * Shapes come from the octaboxes (glat.c): the glyph's bounding box cut by
 * two diagonal bounds, and optionally sub-boxes for a finer outline.
 *
 * Hardening: every slot, glyph and index is checked; every list is bounded
 * by a named budget (GRV_COLL_*); float -> int conversions are clamped;
 * errors are FV_E_GR_SEGMENT_FAILED (what graphite2 does: the segment
 * fails) or FV_E_GR_BUDGET; the work is charged to the pass's share of the
 * segment's work budget (collide.h) and stops with FV_E_BUDGET_STEPS.
 *
 * The files: this one holds the per-slot collision state and the pass
 * driver (grv_coll_run_pass); collide_zone.c the zone/interval algebra,
 * collide_shift.c the shifter, collide_kern.c the kerner; collide.h what
 * they share. */
#include "graphite/collide.h"

/* ---------------------------------------------------------------------- */
/* Per-slot collision state */

grv_coll *grv_coll_of(grv_seg *seg, int32_t s)
{
    return coll_at(seg, s);
}

/* The glyph's collision attributes, from Silf attCollisions on: flags,
 * min.x, min.y, max.x, max.y, margin, marginweight, seq.class,
 * seq.proxclass, seq.order, seq.above.xoffset, seq.above.weight,
 * seq.below.xlimit, seq.below.weight, seq.valign.height,
 * seq.valign.weight.  exclude.* have no glyph attribute. */
void grv_coll_from_glyph(const fv_gr_face *face, uint32_t gid, grv_coll *c)
{
    memset(c, 0, sizeof *c);
    uint32_t a = face->silf.attr_collisions;
    if (gid >= face->num_glyphs)
        return;
#define GA(k) grv_glyph_attr(face, gid, a + (k))
    c->flags = (uint16_t)GA(0);
    c->lim_xi = GA(1);
    c->lim_yi = GA(2);
    c->lim_xa = GA(3);
    c->lim_ya = GA(4);
    c->margin = (uint16_t)GA(5);
    c->margin_wt = (uint16_t)GA(6);
    c->seq_class = (uint16_t)GA(7);
    c->seq_prox = (uint16_t)GA(8);
    c->seq_order = (uint16_t)GA(9);
    c->above_xoff = GA(10);
    c->above_wt = (uint16_t)GA(11);
    c->below_xlim = GA(12);
    c->below_wt = (uint16_t)GA(13);
    c->valign_ht = (uint16_t)GA(14);
    c->valign_wt = (uint16_t)GA(15);
#undef GA
}

fv_status grv_coll_init(grv_seg *seg, fv_error *err)
{
    uint32_t n = 0, guard = GRV_COLL_WALK(seg);
    for (int32_t s = seg->first; s != GRV_NIL && guard--; s = grv_link(seg, s)->next)
        n++;
    seg->coll = fv_mem_array(seg->mem, n ? n : 1, sizeof(grv_coll));
    if (!seg->coll) {
        fv_error_clear(err);
        err->kind = FV_E_NOMEM;
        return FV_E_NOMEM;
    }
    seg->num_coll = n;
    memset(seg->coll, 0, (size_t)(n ? n : 1) * sizeof(grv_coll));
    guard = GRV_COLL_WALK(seg);
    for (int32_t s = seg->first; s != GRV_NIL && guard--; s = grv_link(seg, s)->next) {
        grv_coll *c = grv_coll_of(seg, s);
        if (!c) {
            /* COMPAT(graphite2): a slot numbered past the slot count
             * fails the segment (Segment::initCollisions) */
            fv_error_clear(err);
            err->kind = FV_E_GR_SEGMENT_FAILED;
            snprintf(err->detail, sizeof err->detail, "collision state: slot index out of range");
            return FV_E_GR_SEGMENT_FAILED;
        }
        grv_coll_from_glyph(seg->face, grv_link(seg, s)->gid, c);
    }
    return FV_OK;
}

int32_t grv_coll_get_attr(grv_seg *seg, int32_t s, uint32_t attr)
{
    const grv_coll *c = grv_coll_of(seg, s);
    if (!c)
        return 0;
    switch (attr) {
    case GRV_SLAT_COLFLAGS: return c->flags;
    case GRV_SLAT_COLFLAGS + 1: return fv_f32_to_i32(c->lim_xi);
    case GRV_SLAT_COLFLAGS + 2: return fv_f32_to_i32(c->lim_yi);
    case GRV_SLAT_COLFLAGS + 3: return fv_f32_to_i32(c->lim_xa);
    case GRV_SLAT_COLFLAGS + 4: return fv_f32_to_i32(c->lim_ya);
    /* COMPAT(graphite2): collision.shift reads the glyph's whole move so
     * far (finished passes' offsets plus this pass's shift): measured,
     * Awami's word-space rules after its kerning pass read the kern of the
     * word before the space (every agca=1 corpus line depends on it) */
    case GRV_SLAT_COLFLAGS + 5: return fv_f32_to_i32(c->offx + c->shiftx);
    case GRV_SLAT_COLFLAGS + 6: return fv_f32_to_i32(c->offy + c->shifty);
    case GRV_SLAT_COLFLAGS + 7: return c->margin;
    case GRV_SLAT_COLFLAGS + 8: return c->margin_wt;
    case GRV_SLAT_COLFLAGS + 9: return c->excl_glyph;
    case GRV_SLAT_COLFLAGS + 10: return fv_f32_to_i32(c->exclx);
    case GRV_SLAT_COLFLAGS + 11: return fv_f32_to_i32(c->excly);
    case GRV_SLAT_COLFLAGS + 12: return c->seq_class;
    case GRV_SLAT_COLFLAGS + 13: return c->seq_prox;
    case GRV_SLAT_COLFLAGS + 14: return c->seq_order;
    case GRV_SLAT_COLFLAGS + 15: return c->above_xoff;
    case GRV_SLAT_COLFLAGS + 16: return c->above_wt;
    case GRV_SLAT_COLFLAGS + 17: return c->below_xlim;
    case GRV_SLAT_COLFLAGS + 18: return c->below_wt;
    case GRV_SLAT_COLFLAGS + 19: return c->valign_ht;
    case GRV_SLAT_COLFLAGS + 20: return c->valign_wt;
    default: return 0;
    }
}

void grv_coll_set_attr(grv_seg *seg, int32_t s, uint32_t attr, int16_t v)
{
    grv_coll *c = grv_coll_of(seg, s);
    if (!c)
        return;
    if (attr == GRV_SLAT_COLFLAGS) {
        c->flags = (uint16_t)v;
        return;
    }
    switch (attr) {
    case GRV_SLAT_COLFLAGS + 1: c->lim_xi = v; break;
    case GRV_SLAT_COLFLAGS + 2: c->lim_yi = v; break;
    case GRV_SLAT_COLFLAGS + 3: c->lim_xa = v; break;
    case GRV_SLAT_COLFLAGS + 4: c->lim_ya = v; break;
    case GRV_SLAT_COLFLAGS + 5: c->shiftx = v; break;
    case GRV_SLAT_COLFLAGS + 6: c->shifty = v; break;
    case GRV_SLAT_COLFLAGS + 7: c->margin = (uint16_t)v; break;
    case GRV_SLAT_COLFLAGS + 8: c->margin_wt = (uint16_t)v; break;
    case GRV_SLAT_COLFLAGS + 9: c->excl_glyph = (uint16_t)v; break;
    case GRV_SLAT_COLFLAGS + 10: c->exclx = v; break;
    case GRV_SLAT_COLFLAGS + 11: c->excly = v; break;
    case GRV_SLAT_COLFLAGS + 12: c->seq_class = (uint16_t)v; break;
    case GRV_SLAT_COLFLAGS + 13: c->seq_prox = (uint16_t)v; break;
    case GRV_SLAT_COLFLAGS + 14: c->seq_order = (uint16_t)v; break;
    case GRV_SLAT_COLFLAGS + 15: c->above_xoff = v; break;
    case GRV_SLAT_COLFLAGS + 16: c->above_wt = (uint16_t)v; break;
    case GRV_SLAT_COLFLAGS + 17: c->below_xlim = v; break;
    case GRV_SLAT_COLFLAGS + 18: c->below_wt = (uint16_t)v; break;
    case GRV_SLAT_COLFLAGS + 19: c->valign_ht = (uint16_t)v; break;
    case GRV_SLAT_COLFLAGS + 20: c->valign_wt = (uint16_t)v; break;
    default: return;
    }
    /* COMPAT(graphite2): changing any other collision attribute makes the
     * glyph "not yet known" again */
    c->flags &= (uint16_t)~GRV_COLL_KNOWN;
}


fv_status grv_chain_memo_alloc(collpass *cp)
{
    grv_seg *seg = cp->seg;
    cp->memo_len = seg->pool_len;
    cp->root = fv_mem_array(seg->mem, cp->memo_len ? cp->memo_len : 1, sizeof(int32_t));
    cp->kerned = fv_mem_array(seg->mem, cp->memo_len ? cp->memo_len : 1, 1);
    if (!cp->root || !cp->kerned) {
        grv_chain_memo_free(cp);
        return FV_E_NOMEM;
    }
    for (uint32_t i = 0; i < cp->memo_len; i++)
        cp->root[i] = GRV_CHAIN_UNKNOWN;
    memset(cp->kerned, 0, cp->memo_len ? cp->memo_len : 1);
    (void)fv_budget_spend(&seg->budget, 1u + cp->memo_len / GRV_COLL_ZONE_ENTRIES_PER_STEP);
    return FV_OK;
}

void grv_chain_memo_free(collpass *cp)
{
    fv_mem_free(cp->seg->mem, cp->root);
    fv_mem_free(cp->seg->mem, cp->kerned);
    cp->root = NULL;
    cp->kerned = NULL;
    cp->memo_len = 0;
}

int32_t grv_chain_root_walk(collpass *cp, int32_t s)
{
    grv_seg *seg = cp->seg;
    int32_t r = s;
    int d = 0;
    while (grv_link(seg, r)->parent != GRV_NIL && d <= GRV_MAX_DEPTH) {
        r = grv_link(seg, r)->parent;
        d++;
    }
    charge_links(seg, (uint32_t)d);
    if (d > GRV_MAX_DEPTH)
        r = GRV_NIL; /* too deep, or a cycle: the callers walk as before */
    if (cp->root && s >= 0 && (uint32_t)s < cp->memo_len)
        cp->root[s] = r;
    return r;
}

fv_status grv_coll_run_pass(grv_seg *seg, const grv_pass *p, uint32_t pi, fv_error *err)
{
    collpass cp;
    memset(&cp, 0, sizeof cp);
    cp.seg = seg;
    cp.pass = p;
    const grv_silf *silf = &seg->face->silf;
    /* COMPAT(graphite2): the pass works in the font's direction */
    cp.dir = silf->direction;
    cp.threshold = p->collision_threshold ? p->collision_threshold : 10;
    int r = 1;
    fv_status st = FV_OK;
    seg->budget_stage = "collision shifting";
    st = grv_chain_memo_alloc(&cp);
    if (st != FV_OK)
        goto fail;
    if (p->num_coll_runs) {
        /* positions with the offsets of earlier passes */
        float ax, ay;
        grv_position_slots(seg, GRV_NIL, GRV_NIL, silf->direction != 0, &ax, &ay);
        st = grv_shifter_alloc(seg, &cp.sc);
        if (st == FV_OK)
            r = grv_shift_pass(&cp);
        grv_shifter_free(seg, &cp.sc);
        if (st != FV_OK) {
            grv_chain_memo_free(&cp);
            goto fail;
        }
    }
    if (r > 0 && p->kern_colls) {
        seg->budget_stage = "collision kerning";
        r = grv_kern_pass(&cp);
    }
    grv_chain_memo_free(&cp);
    /* a budget spent by the last neighbour's work stops the pass too, so
     * that no pass ends beyond its share */
    if (r > 0 && FV_UNLIKELY(seg->budget.left < 0))
        return FV_E_BUDGET_STEPS; /* run_pass names it */
    if (r < 0 && cp.st == FV_E_BUDGET_STEPS)
        return FV_E_BUDGET_STEPS;
    seg->budget_stage = NULL;
    if (r > 0) {
        /* this pass's moves become offsets */
        uint32_t guard = GRV_COLL_WALK(seg);
        for (int32_t s = seg->first; s != GRV_NIL && guard--; s = grv_link(seg, s)->next) {
            grv_coll *c = grv_coll_of(seg, s);
            if (c && (c->shiftx != 0 || c->shifty != 0)) {
                c->offx += c->shiftx;
                c->offy += c->shifty;
                c->shiftx = 0;
                c->shifty = 0;
            }
        }
        return FV_OK;
    }
    st = r < 0 ? (cp.st != FV_OK ? cp.st : FV_E_GR_BUDGET) : FV_E_GR_SEGMENT_FAILED;
fail:
    fv_error_clear(err);
    err->kind = st;
    err->program = FV_PROG_GR_PASS;
    snprintf(err->detail, sizeof err->detail, "pass %u: collision %s", pi,
             st == FV_E_GR_BUDGET ? "budget exhausted" : st == FV_E_NOMEM ? "out of memory"
                                                                           : "glyph out of range");
    return st;
}
