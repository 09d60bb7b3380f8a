/* Collision zones: the interval algebra the shifter works in.  Along one
 * axis (x, y or a diagonal) the positions a glyph may still take form a
 * sorted list of intervals, each with a quadratic cost; neighbours remove
 * intervals (where the glyph would collide) and add costs (margins,
 * sequence penalties), and the cheapest point is read off at the end.
 * Measured against graphite2 1.3.14 where the GDL manual is silent
 * (COMPAT(graphite2)); every list is bounded by GRV_COLL_MAX_ZONES. */
#include "graphite/collide.h"

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
    FV_TESTCASE(z->n == GRV_COLL_MAX_ZONES - 1); /* the last interval the budget allows */
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
void grv_zone_init(zone *z, int diag, float xmin, float xmax, float mlen, float mwt, float a0)
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

/* One zone operation's steps: it scans, splits and compacts every
 * interval.  The shifter checks the budget once per neighbour. */
static void zone_charge(zone *z)
{
    if (z->budget)
        (void)fv_budget_spend(z->budget, 1u + z->n / GRV_COLL_ZONE_ENTRIES_PER_STEP);
}

static void zone_add_cost(zone *z, zex e)
{
    zone_charge(z);
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

void grv_zone_remove(zone *z, float x, float xm)
{
    zone_charge(z);
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

void grv_zone_weighted(zone *z, int axis, float xmin, float xmax, float f, float a0, float m,
                          float xi, float ai, float c, int nega)
{
    zone_add_cost(z, zex_weighted(axis >= 2, xmin, xmax, f, a0, m, xi, ai, c, nega));
}

void grv_zone_exclude_with_margins(zone *z, float xmin, float xmax, int axis)
{
    grv_zone_remove(z, xmin, xmax);
    grv_zone_weighted(z, axis, xmin - z->mlen, xmin, 0, 0, z->mwt, xmin - z->mlen, 0, 0, 0);
    grv_zone_weighted(z, axis, xmax, xmax + z->mlen, 0, 0, z->mwt, xmax + z->mlen, 0, 0, 0);
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

float grv_zone_closest(const zone *z, float origin, float *cost)
{
    if (z->budget)
        (void)fv_budget_spend(z->budget, 1u + z->n / GRV_COLL_ZONE_ENTRIES_PER_STEP);
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
