/* The kerner: a glyph flagged collision.fix|kern that is the base of its
 * cluster gets extra advance so that its cluster clears the glyphs after
 * it, measured slice by slice over the line's height (each slice's
 * nearest edges of both sides, from the octaboxes).  Slices are bounded by
 * GRV_COLL_MAX_SLICES.  See collide.c for the model. */
#include "graphite/collide.h"


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

/* What one get_edge costs in the work budget: the bounding octabox or
 * its sub-boxes (GRV_COLL_SUBBOX_EDGES_PER_STEP a step). */
static uint32_t edge_steps(const fv_gr_face *face, uint16_t gid)
{
    return 1u + glyph_nsubs(face, gid) / GRV_COLL_SUBBOX_EDGES_PER_STEP;
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
    FV_TESTCASE(ns > GRV_COLL_MAX_SLICES); /* a profile too tall for the slice budget */
    if (!(ns >= 0) || ns > GRV_COLL_MAX_SLICES)
        return -1;
    k->nslices = fv_f32_to_i32(ns); /* in range (checked above) */
    (void)fv_budget_spend(&seg->budget, 1u + (uint32_t)k->nslices / GRV_COLL_SLICES_PER_STEP);
    k->edges = fv_mem_array(seg->mem, k->nslices ? (size_t)k->nslices : 1, sizeof(float));
    if (!k->edges)
        return -2; /* out of memory */
    for (int i = 0; i < k->nslices; i++)
        k->edges[i] = (dir & 1) ? BIG : -BIG;
    k->xbound = (dir & 1) ? BIG : -BIG;
    int32_t base = cluster_base(seg, fix);
    uint32_t guard = GRV_COLL_WALK(seg);
    for (int32_t s = base; s != GRV_NIL && guard--; s = next_in_cluster(seg, s)) {
        const grv_coll *c = coll_at(seg, s);
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
        const uint32_t esteps = edge_steps(face, gid);
        if (smax >= smin)
            (void)fv_budget_spend(&seg->budget, (uint64_t)(smax - smin + 1) * esteps);
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
    (void)fv_budget_spend(&seg->budget, (uint64_t)(smax - smin + 1) * edge_steps(face, gid));
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
    int32_t base = coll_cluster_base(cp, fix);
    grv_coll *cf = coll_at(seg, base);
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
        if (FV_UNLIKELY(!fv_budget_spend(&seg->budget, GRV_COLL_STEPS_PER_NEIGHBOUR))) {
            cp->st = FV_E_BUDGET_STEPS;
            ret = -1;
            goto out;
        }
        uint16_t ngid = grv_link(seg, nb)->gid;
        if (!glyph_ok(face, ngid))
            goto out; /* COMPAT(graphite2): no kern, no failure */
        cbox bb = glyph_box(face, ngid);
        grv_coll *cn = coll_at(seg, nb);
        if (!cn) {
            ret = SEGFAIL;
            goto out;
        }
        /* COMPAT(graphite2): the kerned cluster's own marks are skipped
         * and do not widen the slices' vertical range (measured: the kasra
         * of U+0625 U+0650 U+064A U+0627 and the hamza of U+0627 U+0644
         * U+0625 U+062E ..., both with agca=1, kern as if the range ended
         * at the glyphs seen before the cluster's base) */
        if (coll_is_child_of(cp, nb, base))
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

int grv_kern_pass(collpass *cp)
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
        grv_coll *c = coll_at(seg, s);
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

