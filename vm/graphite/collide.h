/* Private to the collision files (collide.c, collide_zone.c,
 * collide_shift.c, collide_kern.c): the budgets, the glyph shapes, the
 * zone (interval) type the shifter works on, and the state one collision
 * pass shares between shifting and kerning.  collide.c's top comment
 * describes the model. */
#ifndef FV_GRAPHITE_COLLIDE_H
#define FV_GRAPHITE_COLLIDE_H

#include <math.h>
#include <string.h>

#include "common/check.h"
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

static inline float fmaxf_(float a, float b) { return a > b ? a : b; }
static inline float fminf_(float a, float b) { return a < b ? a : b; }
static inline float sqr(float a) { return a * a; }

/* ---------------------------------------------------------------------- */
/* Glyph shapes */

typedef struct cbox { float xi, yi, xa, ya; } cbox;

static inline int glyph_ok(const fv_gr_face *face, uint32_t gid) { return gid < face->num_glyphs; }

static inline cbox glyph_box(const fv_gr_face *face, uint32_t gid)
{
    cbox b = {0, 0, 0, 0};
    if (gid < face->num_glyphs) {
        const grv_glyph *g = &face->glyphs[gid];
        b.xi = g->x_min; b.yi = g->y_min; b.xa = g->x_max; b.ya = g->y_max;
    }
    return b;
}

static inline grv_slant glyph_slant(const fv_gr_face *face, uint32_t gid)
{
    grv_slant z = {0, 0, 0, 0};
    if (face->octaboxes && gid < face->num_glyphs && face->octaboxes[gid].present)
        return face->octaboxes[gid].sl;
    return z;
}

static inline unsigned glyph_nsubs(const fv_gr_face *face, uint32_t gid)
{
    if (!face->octaboxes || gid >= face->num_glyphs || !face->octaboxes[gid].present)
        return 0;
    const grv_octabox *o = &face->octaboxes[gid];
    if ((uint64_t)o->first_sub + o->num_subs > face->num_subboxes)
        return 0;
    return o->num_subs;
}

static inline const grv_subbox *glyph_sub(const fv_gr_face *face, uint32_t gid, unsigned i)
{
    return &face->subboxes[face->octaboxes[gid].first_sub + i];
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

/* ---- the zone algebra (collide_zone.c) ---- */
void grv_zone_init(zone *z, int diag, float xmin, float xmax, float mlen, float mwt, float a0);
void grv_zone_remove(zone *z, float x, float xm);
void grv_zone_weighted(zone *z, int axis, float xmin, float xmax, float f, float a0, float m,
                       float xi, float ai, float c, int nega);
void grv_zone_exclude_with_margins(zone *z, float xmin, float xmax, int axis);
float grv_zone_closest(const zone *z, float origin, float *cost);

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

typedef struct collpass {
    grv_seg *seg;
    const grv_pass *pass;
    int dir;
    float threshold;
    shifter sc;
    fv_status st;   /* why a step returned -1 when it was not the budget */
} collpass;

#define SEGFAIL 0

/* Slot s's collision state, or NULL (grv_coll_of, inlined for the
 * shifter's and kerner's neighbour walks: a call per neighbour cost 1% of
 * Awami Nastaliq's shaping). */
static inline grv_coll *coll_at(grv_seg *seg, int32_t s)
{
    grv_slot *sl = grv_sl(seg, s);
    if (!sl || !seg->coll || sl->index < 0 || (uint32_t)sl->index >= seg->num_coll)
        return NULL;
    return &seg->coll[sl->index];
}

/* Attachment clusters (GRV_MAX_DEPTH bounds every walk). */
static inline int32_t cluster_base(grv_seg *seg, int32_t s)
{
    for (int d = 0; grv_link(seg, s)->parent != GRV_NIL && d < GRV_MAX_DEPTH; d++)
        s = grv_link(seg, s)->parent;
    return s;
}

static inline int is_child_of(grv_seg *seg, int32_t s, int32_t base)
{
    int d = 0;
    for (int32_t p = grv_link(seg, s)->parent; p != GRV_NIL && d < GRV_MAX_DEPTH;
         p = grv_link(seg, p)->parent, d++)
        if (p == base)
            return 1;
    return 0;
}


/* ---- slot state (collide.c), the shifter (collide_shift.c) and the
 * kerner (collide_kern.c) ---- */
void grv_coll_from_glyph(const fv_gr_face *face, uint32_t gid, grv_coll *c);
fv_status grv_shifter_alloc(grv_seg *seg, shifter *sc);
void grv_shifter_free(grv_seg *seg, shifter *sc);
/* Both return 1 when done, 0 when the segment fails, -1 when a budget
 * ran out (cp->st says which). */
int grv_shift_pass(collpass *cp);
int grv_kern_pass(collpass *cp);

#endif
