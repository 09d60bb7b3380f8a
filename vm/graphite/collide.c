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
 * fails) or FV_E_GR_BUDGET. */
#include <math.h>
#include <string.h>

#include "common/convert.h"
#include "graphite/grv.h"

/* ---- budgets (graphite2 has none of these: its vectors grow freely) ---- */
/* Free/cost intervals per axis while fixing one glyph.  Each neighbour adds
 * at most 3 per box (one removal splits one, two margin bands), 17 boxes
 * and 5 sequence regions: a range of ~80 glyphs fits; longer ranges fail
 * the segment rather than grow without bound. */
#define GRV_COLL_MAX_ZONES 8192
#define GRV_COLL_ZONES_START 64   /* intervals allocated per zone at first */
/* Horizontal slices of the kerning profile (line height / (margin/2.25)):
 * 65536 covers a 147,000-unit tall line at the minimum margin of 10. */
#define GRV_COLL_MAX_SLICES 65536
/* Neighbours examined while fixing or kerning one glyph (the segment's
 * slot count bounds it; this bounds a corrupted list walk). */
#define GRV_COLL_WALK(seg) ((seg)->pool_len + 1)
/* Attachment depth, as Slot::finalise (GRV_MAX_DEPTH). */

#define BIG 1e38f
#define ISQRT2 0.707106781f

static float fmaxf_(float a, float b) { return a > b ? a : b; }
static float fminf_(float a, float b) { return a < b ? a : b; }
static float sqr(float a) { return a * a; }

/* ---------------------------------------------------------------------- */
/* Glyph shapes */

typedef struct cbox { float xi, yi, xa, ya; } cbox;

static int glyph_ok(const fv_gr_face *face, uint32_t gid) { return gid < face->num_glyphs; }

static cbox glyph_box(const fv_gr_face *face, uint32_t gid)
{
    cbox b = {0, 0, 0, 0};
    if (gid < face->num_glyphs) {
        const grv_glyph *g = &face->glyphs[gid];
        b.xi = g->x_min; b.yi = g->y_min; b.xa = g->x_max; b.ya = g->y_max;
    }
    return b;
}

static grv_slant glyph_slant(const fv_gr_face *face, uint32_t gid)
{
    grv_slant z = {0, 0, 0, 0};
    if (face->octaboxes && gid < face->num_glyphs && face->octaboxes[gid].present)
        return face->octaboxes[gid].sl;
    return z;
}

static unsigned glyph_nsubs(const fv_gr_face *face, uint32_t gid)
{
    if (!face->octaboxes || gid >= face->num_glyphs || !face->octaboxes[gid].present)
        return 0;
    const grv_octabox *o = &face->octaboxes[gid];
    if ((uint64_t)o->first_sub + o->num_subs > face->num_subboxes)
        return 0;
    return o->num_subs;
}

static const grv_subbox *glyph_sub(const fv_gr_face *face, uint32_t gid, unsigned i)
{
    return &face->subboxes[face->octaboxes[gid].first_sub + i];
}

/* ---------------------------------------------------------------------- */
/* Per-slot collision state */

grv_coll *grv_coll_of(grv_seg *seg, int32_t s)
{
    grv_slot *sl = grv_sl(seg, s);
    if (!sl || !seg->coll || sl->index < 0 || (uint32_t)sl->index >= seg->num_coll)
        return NULL;
    return &seg->coll[sl->index];
}

/* The glyph's collision attributes, from Silf attCollisions on: flags,
 * min.x, min.y, max.x, max.y, margin, marginweight, seq.class,
 * seq.proxclass, seq.order, seq.above.xoffset, seq.above.weight,
 * seq.below.xlimit, seq.below.weight, seq.valign.height,
 * seq.valign.weight.  exclude.* have no glyph attribute. */
static void coll_from_glyph(const fv_gr_face *face, uint32_t gid, grv_coll *c)
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
        coll_from_glyph(seg->face, grv_link(seg, s)->gid, c);
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

/* ---------------------------------------------------------------------- */
/* Zones: along one axis, the sorted, contiguous intervals of positions the
 * glyph may take, each with cost(p) = sm*p^2 - 2*smx*p + c (p relative to
 * the search origin).  Removing an interval forbids it; inserting adds a
 * cost over an interval (splitting the intervals it overlaps). */

typedef struct zex {
    float x, xm;       /* [x, xm) */
    float c, sm, smx;
    uint8_t open;      /* the initial interval: ends the search when worse */
} zex;

typedef struct zone {
    zex *v;
    uint32_t n, cap;   /* cap grows (zone_insert_at) up to the budget */
    fv_mem *mem;
    float mlen, mwt;   /* margin band width and weight */
    float pos, posm;   /* the axis' limits */
    fv_status st;      /* FV_E_GR_BUDGET once the budget was hit */
} zone;

static zex zex_weighted(int diag, float xmin, float xmax, float f, float a0, float m, float xi,
                        float ai, float c, int nega)
{
    zex e;
    e.x = xmin;
    e.xm = xmax;
    e.open = 0;
    if (!diag) {
        e.sm = m + f;
        e.smx = m * xi;
        e.c = m * xi * xi + f * a0 * a0 + c;
    } else {
        /* a diagonal step of 1 in s or d is 1/2 in x and y: costs are
         * quartered */
        float xia = nega ? xi - ai : xi + ai;
        e.sm = 0.25f * (m + 2.f * f);
        e.smx = 0.25f * m * xia;
        e.c = 0.25f * (m * xia * xia + 2.f * f * a0 * a0) + c;
    }
    return e;
}

static int zone_insert_at(zone *z, uint32_t i, zex e)
{
    if (z->n >= GRV_COLL_MAX_ZONES) {
        z->st = FV_E_GR_BUDGET;
        return 0;
    }
    if (z->n == z->cap) {
        /* grow by doubling: most zones hold a few intervals, and zeroing
         * the whole budget for every collision pass cost more than the
         * collision work itself (Awami: 132M of 198M instructions) */
        uint32_t cap = z->cap * 2 > GRV_COLL_MAX_ZONES + 1 ? GRV_COLL_MAX_ZONES + 1 : z->cap * 2;
        zex *v = fv_mem_alloc(z->mem, (size_t)cap * sizeof(zex));
        if (!v) {
            z->st = FV_E_NOMEM;
            return 0;
        }
        memcpy(v, z->v, (size_t)z->n * sizeof(zex));
        fv_mem_free(z->mem, z->v);
        z->v = v;
        z->cap = cap;
    }
    memmove(&z->v[i + 1], &z->v[i], (size_t)(z->n - i) * sizeof(zex));
    z->v[i] = e;
    z->n++;
    return 1;
}

static void zone_erase_at(zone *z, uint32_t i)
{
    memmove(&z->v[i], &z->v[i + 1], (size_t)(z->n - i - 1) * sizeof(zex));
    z->n--;
}

/* The initial interval: cost = squared distance from where the glyph was,
 * p^2 + a0^2 along x or y; along a diagonal (s or d, with a0 the other
 * diagonal coordinate) (s^2 + d^2) / 2, the same distance (measured: the
 * x+y move of U+0646 U+0642 U+0634's noon dot with agca=1 only wins with
 * it). */
static void zone_init(zone *z, int diag, float xmin, float xmax, float mlen, float mwt, float a0)
{
    z->mlen = mlen;
    z->mwt = mwt;
    z->pos = xmin;
    z->posm = xmax;
    z->n = 0;
    zex e = zex_weighted(diag, xmin, xmax, 1, a0, 0, 0, 0, 0, 0);
    e.open = 1;
    if (z->cap)
        z->v[z->n++] = e;
}

/* where p lies relative to e: bit 0 before it, bit 1 at or past its end */
static unsigned outcode(const zex *e, float p) { return (unsigned)((p >= e->xm) << 1) | (p < e->x); }

static void zex_add(zex *a, const zex *b)
{
    a->c += b->c;
    a->sm += b->sm;
    a->smx += b->smx;
    a->open = 0;
}

/* splits v[i] at p: v[i] keeps [p, xm), the returned copy is [x, p) */
static zex zex_split(zex *e, float p)
{
    zex l = *e;
    l.xm = p;
    e->x = p;
    return l;
}

/* COMPAT(graphite2): an interval that a split or a removal leaves empty is
 * dropped (measured: kept, a zero-width interval at the edge of an
 * exclusion offers a place with no margin cost, and 27 more of Awami's
 * 327 corpus words move differently).  An inverted one (x > xm) is kept:
 * it is only ever the initial interval of an axis whose limits cross once
 * the glyph's offset from earlier passes or its current shift is taken
 * off (nothing can be added to or removed from it: both are clipped to
 * the axis' limits, which leaves them empty), and graphite2
 * moves the glyph to its xm end when that is the cheapest.  Measured
 * (KD-7): Awami, left to right, مرۆڤێک (U+0645 U+0631 U+06C6 U+06A4
 * U+06CE U+06A9), pass 17 limits x to +-10 around a mark that pass 10
 * had moved 81.8 to the right; graphite2 moves it along x - y to x = 10
 * (the limit), which dropping the interval never offers. */
static void zone_compact(zone *z)
{
    /* COMPAT(graphite2): an axis whose limits coincide keeps its one
     * position (nothing can be added to or removed from it: both are
     * clipped to the limits, which leaves them empty), so a glyph whose
     * collision limits are all zero stays put and is not colliding.
     * Measured (KD-12): Awami, ڃݭڎݣتڱؐڔ left to right, pass 16's rules
     * set limits 0,0,0,0 on two dot glyphs; graphite2 reads them back as
     * fixed, not colliding (flags 65), fontvm had them colliding (97),
     * and the glyph after them, which a colliding neighbour's sequence
     * region shuts in, did not move where graphite2's moved (22, -22). */
    int pinned = z->pos == z->posm;
    uint32_t o = 0;
    for (uint32_t i = 0; i < z->n; i++)
        if (z->v[i].x < z->v[i].xm || z->v[i].x > z->v[i].xm || pinned)
            z->v[o++] = z->v[i];
    z->n = o;
}

static void zone_add_cost_split(zone *z, zex e);

static void zone_add_cost(zone *z, zex e)
{
    zone_add_cost_split(z, e);
    zone_compact(z);
}

static void zone_add_cost_split(zone *z, zex e)
{
    if (e.x < z->pos)
        e.x = z->pos;
    if (e.xm > z->posm)
        e.xm = z->posm;
    if (e.x >= e.xm)
        return;
    for (uint32_t i = 0; i < z->n && e.x < e.xm; i++) {
        unsigned oa = outcode(&e, z->v[i].x), ob = outcode(&e, z->v[i].xm);
        if (oa & ob)
            continue;
        switch (oa ^ ob) {
        case 0: /* e covers v[i]: add to it, keep what is right of it */
            zex_add(&z->v[i], &e);
            e.x = z->v[i].xm;
            break;
        case 1: /* e starts inside v[i] */
            if (z->v[i].xm != e.x) {
                zex l = zex_split(&z->v[i], e.x);
                if (!zone_insert_at(z, i, l))
                    return;
                i++;
                zex_add(&z->v[i], &e);
                e.x = z->v[i].xm;
            }
            break;
        case 2: /* e ends inside v[i] */
            if (e.xm != z->v[i].x) {
                e.x = z->v[i].x;
                zex l = zex_split(&z->v[i], e.xm);
                if (!zone_insert_at(z, i, l))
                    return;
                zex_add(&z->v[i], &e);
                return;
            }
            break;
        case 3: /* v[i] covers e */
            if (e.xm != e.x) {
                zex l = zex_split(&z->v[i], e.x);
                if (!zone_insert_at(z, i, l))
                    return;
                i++;
                zex m = zex_split(&z->v[i], e.xm);
                if (!zone_insert_at(z, i, m))
                    return;
                zex_add(&z->v[i], &e);
                return;
            }
            break;
        }
    }
}

static void zone_remove_split(zone *z, float x, float xm);

static void zone_remove(zone *z, float x, float xm)
{
    zone_remove_split(z, x, xm);
    zone_compact(z);
}

static void zone_remove_split(zone *z, float x, float xm)
{
    if (x < z->pos)
        x = z->pos;
    if (xm > z->posm)
        xm = z->posm;
    if (x >= xm)
        return;
    for (uint32_t i = 0; i < z->n; i++) {
        unsigned oa = outcode(&z->v[i], x), ob = outcode(&z->v[i], xm);
        if (oa & ob)
            continue;
        switch (oa ^ ob) {
        case 0: /* v[i] covers [x, xm): keep both sides */
            if (z->v[i].x != x) {
                zex l = zex_split(&z->v[i], x);
                if (!zone_insert_at(z, i, l))
                    return;
                i++;
            }
            z->v[i].x = xm;
            return;
        case 1: /* removal covers v[i]'s left part */
            z->v[i].x = xm;
            return;
        case 2: /* removal covers v[i]'s right part */
            z->v[i].xm = x;
            if (z->v[i].x != z->v[i].xm)
                break;
            /* nothing left of v[i] */
            /* fall through */
        case 3:
            zone_erase_at(z, i);
            i--; /* wraps to UINT32_MAX at 0; the loop's i++ brings it back */
            break;
        }
    }
}

static void zone_weighted(zone *z, int axis, float xmin, float xmax, float f, float a0, float m,
                          float xi, float ai, float c, int nega)
{
    zone_add_cost(z, zex_weighted(axis >= 2, xmin, xmax, f, a0, m, xi, ai, c, nega));
}

static void zone_exclude_with_margins(zone *z, float xmin, float xmax, int axis)
{
    zone_remove(z, xmin, xmax);
    zone_weighted(z, axis, xmin - z->mlen, xmin, 0, 0, z->mwt, xmin - z->mlen, 0, 0, 0);
    zone_weighted(z, axis, xmax, xmax + z->mlen, 0, 0, z->mwt, xmax + z->mlen, 0, 0, 0);
}

static float zex_cost(const zex *e, float p) { return (e->sm * p - 2 * e->smx) * p + e->c; }

/* the cheapest point of e for a search from origin */
static float zex_best(const zex *e, float origin)
{
    if (e->sm < 0) {
        /* a concave cost: an end (or the origin) */
        float res = e->x, cl = zex_cost(e, e->x);
        if (e->x < origin && e->xm > origin) {
            float co = zex_cost(e, origin);
            if (co < cl) {
                cl = co;
                res = origin;
            }
        }
        float cr = zex_cost(e, e->xm);
        return cl > cr ? e->xm : res;
    }
    float zx = e->smx / e->sm + origin;
    if (zx < e->x)
        return e->x;
    if (zx > e->xm)
        return e->xm;
    return zx;
}

/* returns 1 to stop the scan */
static int zex_track(const zex *e, float *best_c, float *best_x, float origin)
{
    float p = zex_best(e, origin), lc = zex_cost(e, p - origin);
    if (e->open && lc > *best_c)
        return 1;
    if (lc < *best_c) {
        *best_c = lc;
        *best_x = p;
    }
    return 0;
}

static float zone_closest(const zone *z, float origin, float *cost)
{
    float best_c = 3.40282347e38f, best_x = 0;
    uint32_t lo = 0, hi = z->n, start;
    for (;;) {
        if (lo >= hi) {
            start = lo;
            break;
        }
        uint32_t p = (lo + hi) >> 1;
        unsigned oc = outcode(&z->v[p], origin);
        if (oc == 0) {
            start = p;
            break;
        }
        if (oc == 1)
            hi = p;
        else
            lo = p + 1;
    }
    for (uint32_t i = start; i < z->n; i++)
        if (zex_track(&z->v[i], &best_c, &best_x, origin))
            break;
    for (uint32_t i = start; i-- > 0;)
        if (zex_track(&z->v[i], &best_c, &best_x, origin))
            break;
    *cost = best_c == 3.40282347e38f ? -1 : best_c;
    return best_x;
}

/* ---------------------------------------------------------------------- */
/* Shifting one glyph */

enum {
    SEQ_LEFTDOWN = 1, SEQ_RIGHTUP = 2, SEQ_NOABOVE = 4, SEQ_NOBELOW = 8, SEQ_NOLEFT = 16,
    SEQ_NORIGHT = 32
};

typedef struct shifter {
    zone z[4];               /* x, y, sum (x+y), diff (x-y) */
    int32_t target;
    uint16_t tgid;
    cbox lim;                /* collision limits relative to the offset */
    float shx, shy;          /* the target's current shift */
    float ofx, ofy;          /* its offset from earlier passes */
    float orx, ory;          /* its origin without the offset */
    float margin, margin_wt;
    uint16_t seq_class, seq_prox, seq_order;
} shifter;

static fv_status shifter_alloc(grv_seg *seg, shifter *sc)
{
    memset(sc, 0, sizeof *sc);
    for (int i = 0; i < 4; i++) {
        sc->z[i].mem = seg->mem;
        sc->z[i].v = fv_mem_alloc(seg->mem, GRV_COLL_ZONES_START * sizeof(zex));
        if (!sc->z[i].v)
            return FV_E_NOMEM;
        sc->z[i].cap = GRV_COLL_ZONES_START;
    }
    return FV_OK;
}

static void shifter_free(grv_seg *seg, shifter *sc)
{
    for (int i = 0; i < 4; i++)
        fv_mem_free(seg->mem, sc->z[i].v);
}

static void shifter_init(grv_seg *seg, shifter *sc, int32_t s, const grv_coll *c, int dir)
{
    const fv_gr_face *face = seg->face;
    uint16_t gid = grv_link(seg, s)->gid;
    cbox bb = glyph_box(face, gid);
    (void)bb;
    cbox lim = {c->lim_xi, c->lim_yi, c->lim_xa, c->lim_ya};
    float ox = c->offx, oy = c->offy, cx = c->shiftx, cy = c->shifty;
    if (ox != 0.f || oy != 0.f) {
        sc->lim.xi = lim.xi - ox; sc->lim.yi = lim.yi - oy;
        sc->lim.xa = lim.xa - ox; sc->lim.ya = lim.ya - oy;
    } else {
        sc->lim = lim;
    }
    float m = c->margin, mw = c->margin_wt;
    const cbox *L = &sc->lim;
    zone_init(&sc->z[0], 0, L->xi + ox, L->xa + ox, m, mw, oy + cy);
    zone_init(&sc->z[1], 0, L->yi + oy, L->ya + oy, m, mw, ox + cx);
    {
        float sh = ox + oy + cx + cy;
        float mn = -2 * fminf_(cx - L->xi, cy - L->yi) + sh;
        float mx = 2 * fminf_(L->xa - cx, L->ya - cy) + sh;
        zone_init(&sc->z[2], 1, mn, mx, m / ISQRT2, mw, ox - oy + cx - cy);
    }
    {
        float sh = ox - oy + cx - cy;
        float mn = -2 * fminf_(cx - L->xi, L->ya - cy) + sh;
        float mx = 2 * fminf_(L->xa - cx, cy - L->yi) + sh;
        zone_init(&sc->z[3], 1, mn, mx, m / ISQRT2, mw, ox + oy + cx + cy);
    }
    for (int i = 0; i < 4; i++)
        sc->z[i].st = FV_OK;
    sc->target = s;
    sc->tgid = gid;
    if ((dir & 1) == 0)
        sc->lim.xi = -1 * lim.xa; /* COMPAT(graphite2): left to right, only the left limit is mirrored */
    sc->ofx = ox;
    sc->ofy = oy;
    sc->shx = cx;
    sc->shy = cy;
    sc->orx = grv_link(seg, s)->posx - ox;
    sc->ory = grv_link(seg, s)->posy - oy;
    sc->margin = m;
    sc->margin_wt = mw;
    sc->seq_class = c->seq_class;
    sc->seq_prox = c->seq_prox;
    sc->seq_order = c->seq_order;
}

/* A weighted region of the sequence rules (seq.above/below/valign),
 * mapped onto axis `axis` of the target. */
static void add_box_slope(shifter *sc, int isx, cbox box, cbox bb, grv_slant sb, float orgx,
                          float orgy, float weight, float m, int minright, int axis)
{
    float a, c;
    switch (axis) {
    case 0:
        if (box.yi < orgy + bb.ya && box.ya > orgy + bb.yi && box.xa - box.xi > 0) {
            a = orgy + 0.5f * (bb.yi + bb.ya);
            c = 0.5f * (bb.xi + bb.xa);
            if (isx)
                zone_weighted(&sc->z[0], 0, box.xi - c, box.xa - c, weight, a, m,
                              (minright ? box.xa : box.xi) - c, a, 0, 0);
            else
                zone_weighted(&sc->z[0], 0, box.xi - c, box.xa - c, weight, a, 0, 0, orgy,
                              m * (a * a + sqr((minright ? box.ya : box.yi) - 0.5f * (bb.yi + bb.ya))),
                              0);
        }
        break;
    case 1:
        if (box.xi < orgx + bb.xa && box.xa > orgx + bb.xi && box.ya - box.yi > 0) {
            a = orgx + 0.5f * (bb.xi + bb.xa);
            c = 0.5f * (bb.yi + bb.ya);
            if (isx)
                zone_weighted(&sc->z[1], 1, box.yi - c, box.ya - c, weight, a, 0, 0, orgx,
                              m * (a * a + sqr((minright ? box.xa : box.xi) - 0.5f * (bb.xi + bb.xa))),
                              0);
            else
                zone_weighted(&sc->z[1], 1, box.yi - c, box.ya - c, weight, a, m,
                              (minright ? box.ya : box.yi) - c, a, 0, 0);
        }
        break;
    case 2:
        if (box.xi - box.ya < orgx - orgy + sb.da && box.xa - box.yi > orgx - orgy + sb.di) {
            float d = orgx - orgy + 0.5f * (sb.di + sb.da);
            c = 0.5f * (sb.si + sb.sa);
            float smax = fminf_(2 * box.xa - d, 2 * box.ya + d);
            float smin = fmaxf_(2 * box.xi - d, 2 * box.yi + d);
            if (smin > smax)
                return;
            float si;
            a = d;
            if (isx)
                si = 2 * (minright ? box.xa : box.xi) - a;
            else
                si = 2 * (minright ? box.ya : box.yi) + a;
            zone_weighted(&sc->z[2], 2, smin - c, smax - c, weight / 2, a, m / 2, si, 0, 0, isx);
        }
        break;
    case 3:
        if (box.xi + box.yi < orgx + orgy + sb.sa && box.xa + box.ya > orgx + orgy + sb.si) {
            float s = orgx + orgy + 0.5f * (sb.si + sb.sa);
            c = 0.5f * (sb.di + sb.da);
            float dmax = fminf_(2 * box.xa - s, s - 2 * box.yi);
            float dmin = fmaxf_(2 * box.xi - s, s - 2 * box.ya);
            if (dmin > dmax)
                return;
            float di;
            a = s;
            if (isx)
                di = 2 * (minright ? box.xa : box.xi) - a;
            else
                di = 2 * (minright ? box.ya : box.yi) + a;
            zone_weighted(&sc->z[3], 3, dmin - c, dmax - c, weight / 2, a, m / 2, di, 0, 0, !isx);
        }
        break;
    default:
        break;
    }
}

/* the furthest diagonal reach of a box corner, for remove_box */
static float sdm(float vi, float va, float mx, float my, int greater)
{
    float res = 2 * mx - vi;
    float other = vi + 2 * my;
    if (greater ? res > other : res < other) {
        res = va + 2 * my;
        float o2 = 2 * mx - va;
        if (greater ? res > o2 : res < o2)
            res = mx + my;
    }
    return res;
}

static void remove_box(shifter *sc, cbox box, cbox bb, grv_slant sb, float orgx, float orgy,
                       int axis)
{
    float c;
    switch (axis) {
    case 0:
        if (box.yi < orgy + bb.ya && box.ya > orgy + bb.yi && box.xa - box.xi > 0) {
            c = 0.5f * (bb.xi + bb.xa);
            zone_remove(&sc->z[0], box.xi - c, box.xa - c);
        }
        break;
    case 1:
        if (box.xi < orgx + bb.xa && box.xa > orgx + bb.xi && box.ya - box.yi > 0) {
            c = 0.5f * (bb.yi + bb.ya);
            zone_remove(&sc->z[1], box.yi - c, box.ya - c);
        }
        break;
    case 2:
        if (box.xi - box.ya < orgx - orgy + sb.da && box.xa - box.yi > orgx - orgy + sb.di &&
            box.xa - box.xi > 0 && box.ya - box.yi > 0) {
            float di = orgx - orgy + sb.di, da = orgx - orgy + sb.da;
            float smax = sdm(di, da, box.xa, box.ya, 1);
            float smin = sdm(da, di, box.xi, box.yi, 0);
            c = 0.5f * (sb.si + sb.sa);
            zone_remove(&sc->z[2], smin - c, smax - c);
        }
        break;
    case 3:
        if (box.xi + box.yi < orgx + orgy + sb.sa && box.xa + box.ya > orgx + orgy + sb.si &&
            box.xa - box.xi > 0 && box.ya - box.yi > 0) {
            float si = orgx + orgy + sb.si, sa = orgx + orgy + sb.sa;
            float dmax = sdm(si, sa, box.xa, -box.yi, 1);
            float dmin = sdm(sa, si, box.xi, -box.ya, 0);
            c = 0.5f * (sb.di + sb.da);
            zone_remove(&sc->z[3], dmin - c, dmax - c);
        }
        break;
    default:
        break;
    }
}

static cbox mkbox(float xi, float yi, float xa, float ya)
{
    cbox b = {xi, yi, xa, ya};
    return b;
}

/* Adds neighbour (glyph gid at origin ox, oy, collision state cs, current
 * shift csx, csy) to the target's zones; sets *hascol when it collides.
 * Returns 0 when a glyph is out of range (the segment fails). */
static int shifter_merge(grv_seg *seg, shifter *sc, uint16_t gid, float ox, float oy,
                         const grv_coll *cs, float csx, float csy, int is_after, int same_cluster,
                         int *hascol, int is_excl)
{
    const fv_gr_face *face = seg->face;
    int iscol = 0;
    if (!glyph_ok(face, gid))
        return 0;
    const float sx = ox - sc->orx + csx;
    const float sy = oy - sc->ory + csy;
    const float sd = sx - sy, ss = sx + sy;
    cbox bb = glyph_box(face, gid);
    int order = 0;
    int same_class = sc->seq_prox == 0 && cs->seq_class == sc->seq_class;
    if (same_cluster && sc->seq_class &&
        (same_class || (sc->seq_prox != 0 && cs->seq_class == sc->seq_prox)))
        order = sc->seq_order;
    if (order || (sx + bb.xa + sc->margin >= sc->lim.xi && sx + bb.xi - sc->margin <= sc->lim.xa) ||
        (sy + bb.ya + sc->margin >= sc->lim.yi && sy + bb.yi - sc->margin <= sc->lim.ya)) {
        const float tx = sc->ofx + sc->shx, ty = sc->ofy + sc->shy;
        const float td = tx - ty, ts = tx + ty;
        grv_slant sb = glyph_slant(face, gid);
        cbox tbb = glyph_box(face, sc->tgid);
        grv_slant tsb = glyph_slant(face, sc->tgid);
        float above_wt = cs->above_wt, below_wt = cs->below_wt, valign_wt = cs->valign_wt;
        if (is_after) {
            /* the neighbour follows the target: mirror the order */
            order ^= same_class ? 0x3f : 0x3;
            order ^= (((order >> 1) & order) & 0x15) * 3;
        }
        for (int i = 0; i < 4; i++) {
            float vmin, vmax, omin, omax, otmin, otmax, cmin, cmax, torg, lm;
            switch (i) {
            case 0:
                vmin = fmaxf_(fmaxf_(bb.xi - tbb.xa + sx, sb.di - tsb.da + ty + sd),
                              sb.si - tsb.sa - ty + ss);
                vmax = fminf_(fminf_(bb.xa - tbb.xi + sx, sb.da - tsb.di + ty + sd),
                              sb.sa - tsb.si - ty + ss);
                otmin = tbb.yi + ty; otmax = tbb.ya + ty;
                omin = bb.yi + sy; omax = bb.ya + sy;
                torg = sc->ofx;
                cmin = sc->lim.xi + torg;
                cmax = sc->lim.xa - tbb.xi + tbb.xa + torg;
                lm = sc->margin;
                break;
            case 1:
                vmin = fmaxf_(fmaxf_(bb.yi - tbb.ya + sy, tsb.di - sb.da + tx - sd),
                              sb.si - tsb.sa - tx + ss);
                vmax = fminf_(fminf_(bb.ya - tbb.yi + sy, tsb.da - sb.di + tx - sd),
                              sb.sa - tsb.si - tx + ss);
                otmin = tbb.xi + tx; otmax = tbb.xa + tx;
                omin = bb.xi + sx; omax = bb.xa + sx;
                torg = sc->ofy;
                cmin = sc->lim.yi + torg;
                cmax = sc->lim.ya - tbb.yi + tbb.ya + torg;
                lm = sc->margin;
                break;
            case 2:
                vmin = fmaxf_(fmaxf_(sb.si - tsb.sa + ss, 2 * (bb.yi - tbb.ya + sy) + td),
                              2 * (bb.xi - tbb.xa + sx) - td);
                vmax = fminf_(fminf_(sb.sa - tsb.si + ss, 2 * (bb.ya - tbb.yi + sy) + td),
                              2 * (bb.xa - tbb.xi + sx) - td);
                otmin = tsb.di + td; otmax = tsb.da + td;
                omin = sb.di + sd; omax = sb.da + sd;
                torg = sc->ofx + sc->ofy;
                cmin = sc->lim.xi + sc->lim.yi + torg;
                cmax = sc->lim.xa + sc->lim.ya - tsb.si + tsb.sa + torg;
                lm = sc->margin / ISQRT2;
                break;
            default:
                vmin = fmaxf_(fmaxf_(sb.di - tsb.da + sd, 2 * (bb.xi - tbb.xa + sx) - ts),
                              -2 * (bb.ya - tbb.yi + sy) + ts);
                vmax = fminf_(fminf_(sb.da - tsb.di + sd, 2 * (bb.xa - tbb.xi + sx) - ts),
                              -2 * (bb.yi - tbb.ya + sy) + ts);
                otmin = tsb.si + ts; otmax = tsb.sa + ts;
                omin = sb.si + ss; omax = sb.sa + ss;
                torg = sc->ofx - sc->ofy;
                cmin = sc->lim.xi - sc->lim.ya + torg;
                cmax = sc->lim.xa - sc->lim.yi - tsb.di + tsb.da + torg;
                lm = sc->margin / ISQRT2;
                break;
            }
            if (order) {
                float orgx = tx, orgy = ty;
                float xminf = sc->lim.xi + sc->ofx + tbb.xi;
                float xpinf = sc->lim.xa + sc->ofx + tbb.xa;
                float ypinf = sc->lim.ya + sc->ofy + tbb.ya;
                float yminf = sc->lim.yi + sc->ofy + tbb.yi;
                switch (order) {
                case SEQ_RIGHTUP: {
                    float r1x = cs->above_xoff + 0.5f * (bb.xi + bb.xa) + sx;
                    float r3x = cs->below_xlim + bb.xa + sx + 0.5f * (tbb.xa - tbb.xi);
                    float r2y = 0.5f * (bb.yi + bb.ya) + sy;
                    add_box_slope(sc, 1, mkbox(xminf, r2y, r1x, ypinf), tbb, tsb, orgx, orgy, 0,
                                  above_wt, 1, i);
                    remove_box(sc, mkbox(xminf, yminf, r3x, r2y), tbb, tsb, orgx, orgy, i);
                    add_box_slope(sc, 1, mkbox(r3x, yminf, xpinf, r2y - cs->valign_ht), tbb, tsb,
                                  orgx, orgy, below_wt, 0, 1, i);
                    add_box_slope(sc, 0, mkbox(sx + bb.xi, r2y, xpinf, r2y + cs->valign_ht), tbb,
                                  tsb, orgx, orgy, 0, valign_wt, 1, i);
                    add_box_slope(sc, 0, mkbox(sx + bb.xi, r2y - cs->valign_ht, xpinf, r2y), tbb,
                                  tsb, orgx, orgy, below_wt, valign_wt, 0, i);
                    break;
                }
                case SEQ_LEFTDOWN: {
                    /* COMPAT(graphite2): measured on Awami's 327 corpus
                     * words in both directions and on copies of the font
                     * with the sequence attributes changed (KD-7 in
                     * conformance/graphite/KNOWN_DIFFERENCES.md): the
                     * left-down order is the right-up geometry turned
                     * half a turn about the neighbour, except that both
                     * vertical-alignment bands carry the below weight.
                     * The above-weighted region lies right of r1x and
                     * below the neighbour's centre; the forbidden region
                     * right of r3x (xlimit before the neighbour's left
                     * edge, less half the glyph's width) and above the
                     * centre; the below-weighted region left of r3x and
                     * above the upper band.  Right to left the glyphs
                     * rarely reach these regions (all 327 words are
                     * identical either way); left to right 4 words and 3
                     * corpus lines moved differently. */
                    float r1x = cs->above_xoff + 0.5f * (bb.xi + bb.xa) + sx;
                    float r3x = bb.xi - cs->below_xlim + sx - 0.5f * (tbb.xa - tbb.xi);
                    float r2y = 0.5f * (bb.yi + bb.ya) + sy;
                    /* COMPAT(graphite2): along x only (axis 0, where the
                     * target's height is fixed), the below weight goes by
                     * where the target lies against the neighbour's
                     * centre r2y (KD-22): the region above the upper band
                     * counts only when the target lies wholly above that
                     * band, the upper band's below weight only when the
                     * target's centre is at or above r2y (its alignment
                     * weight always), and the lower band's second weight
                     * (KD-11) only when the centre is below r2y.
                     * Measured on Awami Nastaliq, pass 10 with one round:
                     * ݣࣇ (U+0763 U+08C7) right to left, the neighbour's
                     * below weight w moves the dots as w/2 does with the
                     * four regions (graphite2 counts it twice, whatever
                     * the valign height from 0 to 700 or the below x
                     * limit from -50 to -200); with this rule 0 of
                     * 120,000 random three- and four-letter words differ
                     * after that pass (29 with every region counted), and
                     * 13 of 16,000 generated lines (21).  Along y and the
                     * diagonals every region counts (the same rule there:
                     * 1,237 words differ). */
                    int along_x = i == 0;
                    float tcy = orgy + 0.5f * (tbb.yi + tbb.ya);
                    int centre_below = tcy < r2y;
                    add_box_slope(sc, 1, mkbox(r1x, yminf, xpinf, r2y), tbb, tsb, orgx, orgy, 0,
                                  above_wt, 0, i);
                    remove_box(sc, mkbox(r3x, r2y, xpinf, ypinf), tbb, tsb, orgx, orgy, i);
                    if (!along_x || orgy + tbb.yi >= r2y + cs->valign_ht)
                        add_box_slope(sc, 1, mkbox(xminf, r2y + cs->valign_ht, r3x, ypinf), tbb, tsb,
                                      orgx, orgy, below_wt, 0, 0, i);
                    add_box_slope(sc, 0, mkbox(xminf, r2y, sx + bb.xa, r2y + cs->valign_ht), tbb,
                                  tsb, orgx, orgy, along_x && centre_below ? 0 : below_wt,
                                  valign_wt, 1, i);
                    add_box_slope(sc, 0, mkbox(xminf, r2y - cs->valign_ht, sx + bb.xa, r2y), tbb,
                                  tsb, orgx, orgy, below_wt, valign_wt, 0, i);
                    /* COMPAT(graphite2): the lower band left of r3x
                     * carries the below weight once more (KD-11):
                     * measured, ټࣿٽځ (U+067C U+08FF U+067D U+0681) right
                     * to left, pass 10 with one round, the neighbour's
                     * below weight w moves the three dots along x + y
                     * exactly as 2w does with one region there; in
                     * ڐثݵڱڻ (U+0690 U+062B U+0775 U+06B1 U+06BB) left to
                     * right, with any below weight from 10 to 100,
                     * graphite2 puts U+06B1's dots exactly where their
                     * centre crosses r3x, where this region ends. */
                    if (!along_x || centre_below)
                        add_box_slope(sc, 1, mkbox(xminf, r2y - cs->valign_ht, r3x, r2y), tbb, tsb,
                                      orgx, orgy, below_wt, 0, 0, i);
                    break;
                }
                case SEQ_NOABOVE:
                    remove_box(sc, mkbox(bb.xi - tbb.xa + sx, sy + bb.ya, bb.xa - tbb.xi + sx, ypinf),
                               tbb, tsb, orgx, orgy, i);
                    break;
                case SEQ_NOBELOW:
                    remove_box(sc, mkbox(bb.xi - tbb.xa + sx, yminf, bb.xa - tbb.xi + sx, sy + bb.yi),
                               tbb, tsb, orgx, orgy, i);
                    break;
                case SEQ_NOLEFT:
                    remove_box(sc, mkbox(xminf, bb.yi - tbb.ya + sy, bb.xi - tbb.xa + sx,
                                         bb.ya - tbb.yi + sy), tbb, tsb, orgx, orgy, i);
                    break;
                case SEQ_NORIGHT:
                    remove_box(sc, mkbox(bb.xa - tbb.xi + sx, bb.yi - tbb.ya + sy, xpinf,
                                         bb.ya - tbb.yi + sy), tbb, tsb, orgx, orgy, i);
                    break;
                default:
                    break;
                }
            }
            if (vmax < cmin - lm || vmin > cmax + lm || omax < otmin - lm || omin > otmax + lm)
                continue;
            unsigned nsub = glyph_nsubs(face, gid);
            if (nsub) {
                int any = 0;
                for (unsigned j = 0; j < nsub; j++) {
                    const grv_subbox *q = glyph_sub(face, gid, j);
                    const grv_slant *qs = &q->sl;
                    switch (i) {
                    case 0:
                        vmin = fmaxf_(fmaxf_(q->xi - tbb.xa + sx, qs->di - tsb.da + sd + ty),
                                      qs->si - tsb.sa + ss - ty);
                        vmax = fminf_(fminf_(q->xa - tbb.xi + sx, qs->da - tsb.di + sd + ty),
                                      qs->sa - tsb.si + ss - ty);
                        omin = q->yi + sy; omax = q->ya + sy;
                        break;
                    case 1:
                        vmin = fmaxf_(fmaxf_(q->yi - tbb.ya + sy, tsb.di - qs->da - sd + tx),
                                      qs->si - tsb.sa + ss - tx);
                        vmax = fminf_(fminf_(q->ya - tbb.yi + sy, tsb.da - qs->di - sd + tx),
                                      qs->sa - tsb.si + ss - tx);
                        omin = q->xi + sx; omax = q->xa + sx;
                        break;
                    case 2:
                        vmin = fmaxf_(fmaxf_(qs->si - tsb.sa + ss, 2 * (q->yi - tbb.ya + sy) + td),
                                      2 * (q->xi - tbb.xa + sx) - td);
                        vmax = fminf_(fminf_(qs->sa - tsb.si + ss, 2 * (q->ya - tbb.yi + sy) + td),
                                      2 * (q->xa - tbb.xi + sx) - td);
                        omin = qs->di + sd; omax = qs->da + sd;
                        break;
                    default:
                        vmin = fmaxf_(fmaxf_(qs->di - tsb.da + sd, 2 * (q->xi - tbb.xa + sx) - ts),
                                      -2 * (q->ya - tbb.yi + sy) + ts);
                        vmax = fminf_(fminf_(qs->da - tsb.di + sd, 2 * (q->xa - tbb.xi + sx) - ts),
                                      -2 * (q->yi - tbb.ya + sy) + ts);
                        omin = qs->si + ss; omax = qs->sa + ss;
                        break;
                    }
                    if (vmax < cmin - lm || vmin > cmax + lm || omax < otmin - lm ||
                        omin > otmax + lm)
                        continue;
                    if (omin > otmax)
                        zone_weighted(&sc->z[i], i, vmin - lm, vmax + lm, 0, 0, 0, 0, 0,
                                      sqr(lm - omin + otmax) * sc->margin_wt, 0);
                    else if (omax < otmin)
                        zone_weighted(&sc->z[i], i, vmin - lm, vmax + lm, 0, 0, 0, 0, 0,
                                      sqr(lm - otmin + omax) * sc->margin_wt, 0);
                    else
                        zone_exclude_with_margins(&sc->z[i], vmin, vmax, i);
                    any = 1;
                }
                if (any)
                    iscol = 1;
            } else {
                iscol = 1;
                if (omin > otmax)
                    zone_weighted(&sc->z[i], i, vmin - lm, vmax + lm, 0, 0, 0, 0, 0,
                                  sqr(lm - omin + otmax) * sc->margin_wt, 0);
                else if (omax < otmin)
                    zone_weighted(&sc->z[i], i, vmin - lm, vmax + lm, 0, 0, 0, 0, 0,
                                  sqr(lm - otmin + omax) * sc->margin_wt, 0);
                else
                    zone_exclude_with_margins(&sc->z[i], vmin, vmax, i);
            }
        }
    }
    int res = 1;
    if (cs->excl_glyph > 0 && glyph_ok(face, cs->excl_glyph) && !is_excl) {
        /* collision.exclude.glyph: a phantom glyph at the neighbour's
         * origin + exclude.offset, with its own glyph collision attributes */
        grv_coll ex;
        coll_from_glyph(face, cs->excl_glyph, &ex);
        res = shifter_merge(seg, sc, cs->excl_glyph, ox + cs->exclx, oy + cs->excly, &ex, csx, csy,
                            is_after, same_cluster, &iscol, 1);
    }
    if (iscol)
        *hascol = 1;
    return res;
}

static void shifter_resolve(shifter *sc, int *iscol, float *rx, float *ry)
{
    float total = 3.40282347e38f / 2;
    float bx = 0, by = 0;
    *iscol = 1;
    for (int i = 0; i < 4; i++) {
        float base, cost = -1, best, px = 0, py = 0;
        switch (i) {
        case 0: base = sc->ofx; break;
        case 1: base = sc->ofy; break;
        case 2: base = sc->ofx + sc->ofy; break;
        default: base = sc->ofx - sc->ofy; break;
        }
        best = zone_closest(&sc->z[i], 0, &cost) - base;
        if (cost >= 0.0f) {
            *iscol = 0;
            switch (i) {
            case 0: px = best; py = sc->shy; break;
            case 1: px = sc->shx; py = best; break;
            case 2:
                px = 0.5f * (best + sc->shx - sc->shy);
                py = 0.5f * (best - sc->shx + sc->shy);
                break;
            default:
                px = 0.5f * (best + sc->shx + sc->shy);
                py = 0.5f * (sc->shx + sc->shy - best);
                break;
            }
            if (cost < total - 0.01f) {
                total = cost;
                bx = px;
                by = py;
            }
        }
    }
    *rx = bx;
    *ry = by;
}

static int32_t cluster_base(grv_seg *seg, int32_t s)
{
    for (int d = 0; grv_link(seg, s)->parent != GRV_NIL && d < GRV_MAX_DEPTH; d++)
        s = grv_link(seg, s)->parent;
    return s;
}

static int is_child_of(grv_seg *seg, int32_t s, int32_t base)
{
    int d = 0;
    for (int32_t p = grv_link(seg, s)->parent; p != GRV_NIL && d < GRV_MAX_DEPTH;
         p = grv_link(seg, p)->parent, d++)
        if (p == base)
            return 1;
    return 0;
}

/* the glyph or one of its attachment ancestors is kerned */
static int in_kern_cluster(grv_seg *seg, int32_t s)
{
    for (int d = 0; s != GRV_NIL && d <= GRV_MAX_DEPTH; s = grv_link(seg, s)->parent, d++) {
        const grv_coll *c = grv_coll_of(seg, s);
        if (c && (c->flags & GRV_COLL_KERN))
            return 1;
    }
    return 0;
}

typedef struct collpass {
    grv_seg *seg;
    const grv_pass *pass;
    int dir;
    float threshold;
    shifter sc;
    fv_status st;   /* why a step returned -1 when it was not the budget */
} collpass;

#define SEGFAIL 0

/* Fixes one glyph: gathers its neighbours from `start` (forwards, or
 * backwards when `rev`) to the end of the collision range, then moves it
 * to the cheapest free place.  Returns 0 when the segment fails. */
static int resolve_one(collpass *cp, int32_t fix, int32_t start, int rev, int *moved, int *hascol)
{
    grv_seg *seg = cp->seg;
    shifter *sc = &cp->sc;
    grv_coll *cf = grv_coll_of(seg, fix);
    if (!cf || !glyph_ok(seg->face, grv_link(seg, fix)->gid))
        return SEGFAIL;
    shifter_init(seg, sc, fix, cf, cp->dir);
    int collides = 0;
    /* whether the walk is past the target (it starts past it when it runs
     * backwards from the end of the range) */
    int after = rev;
    int rtl = cp->dir & 1;
    int32_t base = cluster_base(seg, fix);
    uint32_t guard = GRV_COLL_WALK(seg);
    for (int32_t nb = start; nb != GRV_NIL && guard--;
         nb = rev ? grv_link(seg, nb)->prev : grv_link(seg, nb)->next) {
        grv_coll *cn = grv_coll_of(seg, nb);
        if (!cn)
            return SEGFAIL;
        int same_cluster = is_child_of(seg, nb, base);
        if (nb != fix && !(cn->flags & (GRV_COLL_IGNORE | GRV_COLL_ISSPACE)) &&
            /* COMPAT(graphite2): a neighbour in another kerned cluster is
             * left out on either side of the target; kerning places those
             * clusters later.  Measured on Awami Nastaliq: with the
             * neighbours after the target taken in, 4 of the 327 corpus
             * words and 3 corpus lines differed (KD-5); left out, all are
             * identical.  Taking in only those before the target is far
             * worse (19 words), and with the font's Silf direction flipped
             * to left to right leaving them out is still the closest
             * (conformance/graphite/KNOWN_DIFFERENCES.md, KD-5). */
            (nb == base || same_cluster || !in_kern_cluster(seg, nb)) &&
            (!rev || !(cn->flags & GRV_COLL_FIX) ||
             ((cn->flags & GRV_COLL_KERN) && !same_cluster) || (cn->flags & GRV_COLL_ISCOL))) {
            if (!shifter_merge(seg, sc, grv_link(seg, nb)->gid, grv_link(seg, nb)->posx,
                               grv_link(seg, nb)->posy, cn, cn->shiftx, cn->shifty, after,
                               same_cluster, &collides, 0))
                return SEGFAIL;
        } else if (nb == fix) {
            after = !after;
        }
        if (nb != start && (cn->flags & (rev ? GRV_COLL_START : GRV_COLL_END)))
            break;
    }
    for (int i = 0; i < 4; i++)
        if (sc->z[i].st != FV_OK) {
            cp->st = sc->z[i].st;
            return -1;
        }
    int iscol = 0;
    if (collides || cf->shiftx != 0.f || cf->shifty != 0.f) {
        float nx, ny;
        shifter_resolve(sc, &iscol, &nx, &ny);
        if (fabsf(nx) < 1e38f && fabsf(ny) < 1e38f) {
            if (sqr(nx - cf->shiftx) + sqr(ny - cf->shifty) >= cp->threshold * cp->threshold)
                *moved = 1;
            cf->shiftx = nx;
            cf->shifty = ny;
            int32_t child = grv_link(seg, fix)->child;
            if (child != GRV_NIL)
                grv_finalise_tree(seg, child, grv_link(seg, fix)->posx + nx, grv_link(seg, fix)->posy + ny,
                                  rtl, 0);
        }
    }
    if (iscol)
        cf->flags |= GRV_COLL_ISCOL | GRV_COLL_KNOWN;
    else
        cf->flags = (uint16_t)((cf->flags & ~GRV_COLL_ISCOL) | GRV_COLL_KNOWN);
    if (iscol)
        *hascol = 1;
    return 1;
}

static int fixable(const grv_coll *c, unsigned mask, unsigned want)
{
    return c && (c->flags & mask) == want;
}

/* graphite2's rounds: fix every glyph forwards; then, up to rounds - 1
 * times while something collides or moved, fix the colliding ones
 * backwards (holding them for the round) and, while the last forward
 * round or these backward fixes moved something, everything forwards
 * again. */
static int shift_pass(collpass *cp)
{
    grv_seg *seg = cp->seg;
    int32_t start = seg->first;
    int hascol = 0, moved = 0;
    uint32_t ranges = GRV_COLL_WALK(seg);
    while (start != GRV_NIL && ranges--) {
        int32_t end = GRV_NIL;
        hascol = 0;
        uint32_t guard = GRV_COLL_WALK(seg);
        for (int32_t s = start; s != GRV_NIL && guard--; s = grv_link(seg, s)->next) {
            grv_coll *c = grv_coll_of(seg, s);
            if (!c)
                return SEGFAIL;
            if (fixable(c, GRV_COLL_FIX | GRV_COLL_KERN, GRV_COLL_FIX)) {
                int r = resolve_one(cp, s, start, 0, &moved, &hascol);
                if (r <= 0)
                    return r;
            }
            if (s != start && (c->flags & GRV_COLL_END)) {
                end = grv_link(seg, s)->next;
                break;
            }
        }
        for (int round = 0; round < cp->pass->num_coll_runs - 1; round++) {
            if (!(hascol || moved))
                continue;
            if (hascol) {
                hascol = 0;
                int32_t lend = end != GRV_NIL ? grv_link(seg, end)->prev : seg->last;
                int32_t lstart = grv_link(seg, start)->prev;
                guard = GRV_COLL_WALK(seg);
                for (int32_t s = lend; s != lstart && s != GRV_NIL && guard--;
                     s = grv_link(seg, s)->prev) {
                    grv_coll *c = grv_coll_of(seg, s);
                    if (!c)
                        return SEGFAIL;
                    if (fixable(c, GRV_COLL_FIX | GRV_COLL_KERN | GRV_COLL_ISCOL,
                                GRV_COLL_FIX | GRV_COLL_ISCOL)) {
                        int r = resolve_one(cp, s, lend, 1, &moved, &hascol);
                        if (r <= 0)
                            return r;
                        c->flags |= GRV_COLL_TEMPLOCK;
                    }
                }
            }
            /* COMPAT(graphite2): when neither the last forward round nor
             * these backward fixes moved a glyph by the threshold, the
             * rounds end here, after the
             * backward fixes, and the glyphs they held stay held (their
             * TEMPLOCK flag is still set when graphite2's segment is read
             * back).  Measured on Awami Nastaliq, pass 10 with 1 to 5
             * rounds: ڱڳڵڷڹںڻڼ left to right is identical after 3 rounds,
             * and graphite2's 4th and 5th change nothing where a 4th
             * forward round moved U+06BB's dots by (0.56, -0.56)
             * (conformance/graphite/KNOWN_DIFFERENCES.md, KD-10). */
            if (!moved)
                break;
            moved = 0;
            guard = GRV_COLL_WALK(seg);
            for (int32_t s = start; s != end && s != GRV_NIL && guard--; s = grv_link(seg, s)->next) {
                grv_coll *c = grv_coll_of(seg, s);
                if (!c)
                    return SEGFAIL;
                if (fixable(c, GRV_COLL_FIX | GRV_COLL_TEMPLOCK | GRV_COLL_KERN, GRV_COLL_FIX)) {
                    int r = resolve_one(cp, s, start, 0, &moved, &hascol);
                    if (r <= 0)
                        return r;
                } else if (c->flags & GRV_COLL_TEMPLOCK) {
                    c->flags &= (uint16_t)~GRV_COLL_TEMPLOCK;
                }
            }
        }
        start = end;
    }
    return 1;
}

/* ---------------------------------------------------------------------- */
/* Kerning */

typedef struct kerner {
    float *edges;
    int nslices;
    float slice, miny, maxy, mingap, xbound, margin;
    float lim_xi, lim_xa, offx;
    int hit;
} kerner;

/* One box's edge within a horizontal slice `width` high: x is the box's
 * x edge, td and ts where its difference (x - y) and sum (x + y) diagonal
 * bounds cross the slice's centre line; over the slice each diagonal spans
 * td +- width/2 and ts +- width/2.  COMPAT(graphite2), measured (twelve
 * kerned pairs of Awami Nastaliq pin it, tests/graphite/test_gr_collide.c):
 * when one diagonal's span lies wholly on the inner side of the other's,
 * the edge is that span's outer end, capped by x; when the spans cross,
 * the edge is x alone (the diagonals are ignored). */
static float slice_edge_right(float td, float ts, float hw, float x)
{
    float al = td - hw, au = td + hw, bl = ts - hw, bu = ts + hw;
    if (al < bl) {
        if (au < bu)
            return fminf_(au, x);
    } else if (au > bu) {
        return fminf_(bl, x);
    }
    return x;
}

static float slice_edge_left(float td, float ts, float hw, float x)
{
    float al = td - hw, au = td + hw, bl = ts - hw, bu = ts + hw;
    if (bl > al) {
        if (bu > au)
            return fmaxf_(bl, x);
    } else if (au > bu) {
        return fmaxf_(al, x);
    }
    return x;
}

/* The glyph's edge (right when `right`, else left) within the slice centred
 * on y, `width` high, widened by margin: over its sub-boxes that reach the
 * slice, or its bounding octabox when it has none.  -BIG/BIG: nothing
 * there. */
static float get_edge(const fv_gr_face *face, uint16_t gid, float sx, float sy, float y,
                      float width, float margin, int right)
{
    float res = right ? -BIG : BIG, hw = width / 2;
    unsigned nsub = glyph_nsubs(face, gid);
    if (nsub) {
        /* sub-boxes: the margin widens the box and both diagonals */
        for (unsigned i = 0; i < nsub; i++) {
            const grv_subbox *q = glyph_sub(face, gid, i);
            if (sy + q->yi - margin > y + hw || sy + q->ya + margin < y - hw)
                continue;
            float x;
            if (right)
                x = slice_edge_right(sx - sy + q->sl.da + margin + y,
                                     sx + sy + q->sl.sa + margin - y, hw, sx + q->xa + margin);
            else
                x = slice_edge_left(sx - sy + q->sl.di - margin + y,
                                    sx + sy + q->sl.si - margin - y, hw, sx + q->xi - margin);
            if (right ? x > res : x < res)
                res = x;
        }
    } else {
        /* the bounding octabox: the margin is added to the result */
        cbox bb = glyph_box(face, gid);
        grv_slant sb = glyph_slant(face, gid);
        if (sy + bb.yi - margin > y + hw || sy + bb.ya + margin < y - hw)
            return res;
        if (right)
            res = slice_edge_right(sx - sy + y + sb.da, sx + sy - y + sb.sa, hw, sx + bb.xa) + margin;
        else
            res = slice_edge_left(sx - sy + y + sb.di, sx + sy - y + sb.si, hw, sx + bb.xi) - margin;
    }
    return res;
}

/* next slot of the attachment tree below `s` (children, siblings, then up) */
static int32_t next_in_cluster(grv_seg *seg, int32_t s)
{
    const grv_slot *sl = grv_link(seg, s);
    if (sl->child != GRV_NIL)
        return sl->child;
    if (sl->sibling != GRV_NIL)
        return sl->sibling;
    int d = 0;
    for (int32_t p = sl->parent; p != GRV_NIL && d < GRV_MAX_DEPTH; p = grv_link(seg, p)->parent, d++)
        if (grv_link(seg, p)->sibling != GRV_NIL)
            return grv_link(seg, p)->sibling;
    return GRV_NIL;
}

/* Returns 1 when ready, 0 when there is nothing to kern, -1 when the slices
 * exceed the budget (or the glyph is out of range), -2 out of memory. */
static int kerner_init(grv_seg *seg, kerner *k, int32_t fix, const grv_coll *cf, int dir,
                       float ymin, float ymax)
{
    const fv_gr_face *face = seg->face;
    float margin = cf->margin;
    if (margin < 10)
        margin = 10;
    k->lim_xi = cf->lim_xi;
    k->lim_xa = cf->lim_xa;
    k->offx = cf->offx;
    k->slice = margin / 1.5f;
    k->maxy = ymax + margin;
    k->miny = ymin - margin;
    float ns = (k->maxy - k->miny + 2) / (k->slice / 1.5f) + 1.f;
    if (!(ns >= 0) || ns > GRV_COLL_MAX_SLICES)
        return -1;
    k->nslices = (int)ns;
    k->edges = fv_mem_array(seg->mem, k->nslices ? (size_t)k->nslices : 1, sizeof(float));
    if (!k->edges)
        return -2; /* out of memory */
    for (int i = 0; i < k->nslices; i++)
        k->edges[i] = (dir & 1) ? BIG : -BIG;
    k->xbound = (dir & 1) ? BIG : -BIG;
    int32_t base = cluster_base(seg, fix);
    uint32_t guard = GRV_COLL_WALK(seg);
    for (int32_t s = base; s != GRV_NIL && guard--; s = next_in_cluster(seg, s)) {
        const grv_coll *c = grv_coll_of(seg, s);
        uint16_t gid = grv_link(seg, s)->gid;
        if (!c || !glyph_ok(face, gid))
            return 0;
        cbox bs = glyph_box(face, gid);
        float ox = grv_link(seg, s)->posx, oy = grv_link(seg, s)->posy;
        float x = ox + c->shiftx + ((dir & 1) ? bs.xi : bs.xa);
        float toff = c->shifty - k->miny + 1 + oy;
        int smin = fv_f32_to_i32((bs.yi + toff) / k->slice);
        if (smin < 0)
            smin = 0;
        int smax = fv_f32_to_i32((bs.ya + toff) / k->slice + 1);
        if (smax > k->nslices - 1)
            smax = k->nslices - 1;
        for (int i = smin; i <= smax; i++) {
            float y = k->miny - 1 + ((float)i + .5f) * k->slice;
            if ((dir & 1) && x < k->edges[i]) {
                float t = get_edge(face, gid, ox + c->shiftx, oy + c->shifty, y, k->slice, margin, 0);
                if (t < k->edges[i]) {
                    k->edges[i] = t;
                    if (t < k->xbound)
                        k->xbound = t;
                }
            } else if (!(dir & 1) && x > k->edges[i]) {
                float t = get_edge(face, gid, ox + c->shiftx, oy + c->shifty, y, k->slice, margin, 1);
                if (t > k->edges[i]) {
                    k->edges[i] = t;
                    if (t > k->xbound)
                        k->xbound = t;
                }
            }
        }
    }
    k->mingap = 1e37f;
    k->margin = margin;
    k->hit = 0;
    return 1;
}

/* returns 1 on a collision (or no overlap), 0 otherwise; -1 bad glyph */
static int kerner_merge(grv_seg *seg, kerner *k, int32_t s, float csx, float csy, float space,
                        int dir)
{
    const fv_gr_face *face = seg->face;
    int rtl = (dir & 1) * 2 - 1;
    uint16_t gid = grv_link(seg, s)->gid;
    if (!glyph_ok(face, gid))
        return -1;
    cbox bb = glyph_box(face, gid);
    const float sx = grv_link(seg, s)->posx + csx;
    float x = (sx + (rtl > 0 ? bb.xa : bb.xi)) * (float)rtl;
    if (k->hit && x < (float)rtl * (k->xbound - k->mingap - space))
        return 0;
    const float sy = grv_link(seg, s)->posy + csy;
    int smin = fv_f32_to_i32((bb.yi + (1 - k->miny + sy)) / k->slice + 1);
    if (smin < 1)
        smin = 1;
    smin -= 1;
    int smax = fv_f32_to_i32((bb.ya + (1 - k->miny + sy)) / k->slice + 1);
    if (smax > k->nslices - 2)
        smax = k->nslices - 2;
    smax += 1;
    if (smin > smax)
        return 0;
    int collides = 0, nooverlap = 1;
    for (int i = smin; i <= smax; i++) {
        if (i < 0 || i >= k->nslices)
            continue;
        float here = k->edges[i] * (float)rtl;
        if (here > 9e37f)
            continue;
        if (!k->hit || x > here - k->mingap - space) {
            float y = k->miny - 1 + ((float)i + .5f) * k->slice;
            float m = get_edge(face, gid, sx, sy, y, k->slice, 0, rtl > 0) * (float)rtl + 2 * space;
            if (m < -8e37f)
                continue;
            nooverlap = 0;
            float t = here - m;
            if (t < k->mingap || (!k->hit && !collides)) {
                k->mingap = t;
                collides = 1;
            }
        }
    }
    if (nooverlap)
        k->mingap = fmaxf_(k->mingap, k->xbound - (float)rtl * (space + k->margin + x));
    if (collides && !nooverlap)
        k->hit = 1;
    return collides | nooverlap;
}

static int kern_one(collpass *cp, int32_t fix, float *ymin, float *ymax)
{
    grv_seg *seg = cp->seg;
    const fv_gr_face *face = seg->face;
    int dir = cp->dir;
    int32_t base = cluster_base(seg, fix);
    grv_coll *cf = grv_coll_of(seg, base);
    if (!cf)
        return SEGFAIL;
    cbox bbb = glyph_box(face, grv_link(seg, fix)->gid);
    const float by = grv_link(seg, fix)->posy + cf->shifty;
    if (base != fix) {
        cf->flags |= GRV_COLL_KERN | GRV_COLL_FIX;
        return 1;
    }
    int seen_end = (cf->flags & GRV_COLL_END) != 0;
    int inited = 0, collides = 0;
    unsigned space_count = 0;
    float space = 0;
    kerner k;
    memset(&k, 0, sizeof k);
    *ymax = fmaxf_(by + bbb.ya, *ymax);
    *ymin = fminf_(by + bbb.yi, *ymin);
    int ret = 1;
    uint32_t guard = GRV_COLL_WALK(seg);
    for (int32_t nb = grv_link(seg, fix)->next; nb != GRV_NIL && guard--; nb = grv_link(seg, nb)->next) {
        uint16_t ngid = grv_link(seg, nb)->gid;
        if (!glyph_ok(face, ngid))
            goto out; /* COMPAT(graphite2): no kern, no failure */
        cbox bb = glyph_box(face, ngid);
        grv_coll *cn = grv_coll_of(seg, nb);
        if (!cn) {
            ret = SEGFAIL;
            goto out;
        }
        /* COMPAT(graphite2): the kerned cluster's own marks are skipped
         * and do not widen the slices' vertical range (measured: the kasra
         * of U+0625 U+0650 U+064A U+0627 and the hamza of U+0627 U+0644
         * U+0625 U+062E ..., both with agca=1, kern as if the range ended
         * at the glyphs seen before the cluster's base) */
        if (is_child_of(seg, nb, base))
            continue;
        if ((bb.yi == 0.f && bb.ya == 0.f) || (cn->flags & GRV_COLL_ISSPACE)) {
            /* COMPAT(graphite2): measured, a pass with kern flags 1
             * (Awami's) kerns across zero-height glyphs (ZWSP); only 2 is
             * taken to stop there (no corpus font uses it) */
            if (cp->pass->kern_colls == 2)
                break;
            space += grv_link(seg, nb)->advx;
            space_count++;
        } else {
            space_count = 0;
            if (nb != fix && !(cn->flags & GRV_COLL_IGNORE)) {
                seen_end = 1;
                if (!inited) {
                    int r = kerner_init(seg, &k, fix, cf, dir, *ymin, *ymax);
                    if (r < 0) {
                        if (r == -2)
                            cp->st = FV_E_NOMEM;
                        ret = -1;
                        goto out;
                    }
                    if (r == 0)
                        goto out;
                    inited = 1;
                }
                int r = kerner_merge(seg, &k, nb, cn->shiftx, cn->shifty, space, dir);
                if (r < 0)
                    goto out;
                collides |= r;
            }
        }
        if (cn->flags & GRV_COLL_END) {
            if (seen_end && space_count < 2)
                break;
            seen_end = 1;
        }
    }
    if (collides) {
        float need = (float)(1 - 2 * (dir & 1)) * k.mingap;
        float mv = fminf_(k.lim_xa - k.offx, fmaxf_(need, k.lim_xi - k.offx));
        /* the glyph's advance grows by the kern (less this pass's earlier
         * kern, which it already has) */
        grv_link(seg, fix)->advx += mv - cf->shiftx;
        grv_link(seg, fix)->advy -= cf->shifty;
        cf->shiftx = mv;
        cf->shifty = 0;
    }
out:
    fv_mem_free(seg->mem, k.edges);
    return ret;
}

static int kern_pass(collpass *cp)
{
    grv_seg *seg = cp->seg;
    const fv_gr_face *face = seg->face;
    int32_t start = seg->first;
    float ymin = 1e38f, ymax = -1e38f;
    uint32_t guard = GRV_COLL_WALK(seg);
    for (int32_t s = seg->first; s != GRV_NIL && guard--; s = grv_link(seg, s)->next) {
        uint16_t gid = grv_link(seg, s)->gid;
        if (!glyph_ok(face, gid))
            return SEGFAIL;
        grv_coll *c = grv_coll_of(seg, s);
        if (!c)
            return SEGFAIL;
        cbox bb = glyph_box(face, gid);
        float y = grv_link(seg, s)->posy + c->shifty;
        if (!(c->flags & GRV_COLL_ISSPACE)) {
            ymax = fmaxf_(y + bb.ya, ymax);
            ymin = fminf_(y + bb.yi, ymin);
        }
        if (start != GRV_NIL &&
            (c->flags & (GRV_COLL_KERN | GRV_COLL_FIX)) == (GRV_COLL_KERN | GRV_COLL_FIX)) {
            int r = kern_one(cp, s, &ymin, &ymax);
            if (r <= 0)
                return r;
        }
        if (c->flags & GRV_COLL_END)
            start = GRV_NIL;
        if (c->flags & GRV_COLL_START)
            start = s;
    }
    return 1;
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
    if (p->num_coll_runs) {
        /* positions with the offsets of earlier passes */
        float ax, ay;
        grv_position_slots(seg, GRV_NIL, GRV_NIL, silf->direction != 0, &ax, &ay);
        st = shifter_alloc(seg, &cp.sc);
        if (st == FV_OK)
            r = shift_pass(&cp);
        shifter_free(seg, &cp.sc);
        if (st != FV_OK)
            goto fail;
    }
    if (r > 0 && p->kern_colls)
        r = kern_pass(&cp);
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
