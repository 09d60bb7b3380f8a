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
#define GRV_COLL_ZONES_START 8   /* intervals allocated per zone at first */
/* Horizontal slices of the kerning profile (line height / (margin/2.25)):
 * 65536 covers a 147,000-unit tall line at the minimum margin of 10. */
#define GRV_COLL_MAX_SLICES 65536
/* Neighbours examined while fixing or kerning one glyph (the segment's
 * slot count bounds it; this bounds a corrupted list walk). */
#define GRV_COLL_WALK(seg) ((seg)->pool_len + 1)
/* Attachment depth, as Slot::finalise (GRV_MAX_DEPTH). */

/* ---- what collision work costs in the segment's work budget ----
 * A collision pass runs inside its pass's share of the budget (pass.c
 * run_pass; segment.h, "work budget of a segment").  Its work is bounded
 * by the slots (every glyph against every neighbour of its range, up to 7
 * rounds, zones of up to GRV_COLL_MAX_ZONES intervals each), but that
 * bound is large: 6,400 slots of a 100-character segment fixed against
 * each other is 41 M neighbour merges per round.  So the shifter and the
 * kerner charge their loops in the budget's steps, sized from the release
 * build's time per unit against the ~5 ns of a rule step (README.md,
 * "Hardening"), and stop with budget_steps when the pass's share is spent.
 * graphite2 charges nothing: a segment stopped here is a hardening limit.
 *
 * One step per neighbour examined while fixing or kerning a glyph (the
 * walk, the tests of its box against the range and the target). */
#define GRV_COLL_STEPS_PER_NEIGHBOUR 1u
/* Attachment links walked per step: a dependent load each, which
 * measured (release, Awami with 100-letter chains) 20-35 ns per step at 2
 * links a step under load; at 1 the walk costs what a rule step does. */
#define GRV_COLL_LINKS_PER_STEP 1u
/* A neighbour within the target's reach is tested on each of the 4 axes,
 * its box and each of its sub-boxes (~30 float operations each, and the
 * sequence regions): one step per box or sub-box per axis.  (At one step
 * per sub-box for all 4 axes, measured, a step cost ~24 ns.) */
#define GRV_COLL_STEPS_PER_BOX_AXIS 3u
/* A zone operation (remove an interval, add a cost) scans, splits and
 * compacts every interval of the zone: one step, plus one per this many
 * intervals (a few ns each: compare, copy). */
#define GRV_COLL_ZONE_ENTRIES_PER_STEP 4u
/* The kerner's profile: one step per slice edge computed (a glyph's
 * bounding octabox, and one more per this many of its sub-boxes tested,
 * ~10 float operations each: at one step per sub-box a step measured
 * ~1.2 ns), and one per GRV_COLL_SLICES_PER_STEP slices set up (a store
 * each) when a kerned glyph starts. */
#define GRV_COLL_SUBBOX_EDGES_PER_STEP 4u
#define GRV_COLL_SLICES_PER_STEP 16u

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
    fv_budget *budget; /* the segment's work budget, charged per operation */
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
    /* Memo of the attachment chains, by pool index (the tree does not
     * change while a collision pass shifts and kerns; only positions,
     * advances and collision flags do): each slot's root, GRV_CHAIN_UNKNOWN
     * until asked, GRV_NIL when its chain is longer than GRV_MAX_DEPTH (or
     * cyclic: the walks then run as before); and whether any slot of its
     * chain is kerned (0 unknown, 1 no, 2 yes; shifting only, when kern
     * flags do not change).  Without it every neighbour of every glyph
     * walked its chain: a cursive script attaches a whole word into one
     * chain (Awami Nastaliq), and those walks were 92% of a 100-letter
     * word's collision work. */
    int32_t *root;
    uint8_t *kerned;
    uint32_t memo_len;
} collpass;

#define GRV_CHAIN_UNKNOWN (-2)

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

/* Links walked up an attachment chain, charged to the budget: a cursive
 * script attaches a whole word into one chain (Awami Nastaliq), so each
 * neighbour's walk may be GRV_MAX_DEPTH links long. */
static inline void charge_links(grv_seg *seg, uint32_t links)
{
    (void)fv_budget_spend(&seg->budget, (links + GRV_COLL_LINKS_PER_STEP - 1) / GRV_COLL_LINKS_PER_STEP);
}

/* The root of s's attachment chain (memoised in cp), GRV_NIL when the
 * chain is longer than GRV_MAX_DEPTH links. */
int32_t grv_chain_root_walk(collpass *cp, int32_t s);
static inline int32_t chain_root(collpass *cp, int32_t s)
{
    if (FV_LIKELY(cp->root && s >= 0 && (uint32_t)s < cp->memo_len &&
                  cp->root[s] != GRV_CHAIN_UNKNOWN))
        return cp->root[s];
    return grv_chain_root_walk(cp, s);
}

static inline int is_child_of(grv_seg *seg, int32_t s, int32_t base)
{
    int d = 0, found = 0;
    for (int32_t p = grv_link(seg, s)->parent; p != GRV_NIL && d < GRV_MAX_DEPTH;
         p = grv_link(seg, p)->parent, d++)
        if (p == base) {
            found = 1;
            break;
        }
    charge_links(seg, (uint32_t)d);
    return found;
}

/* cluster_base and is_child_of through the memo: with both chains at most
 * GRV_MAX_DEPTH links long, base is a root, and it is an ancestor of s
 * within the walk's reach exactly when it is s's root; otherwise the
 * walks decide, as before. */
static inline int32_t coll_cluster_base(collpass *cp, int32_t s)
{
    int32_t r = chain_root(cp, s);
    return r != GRV_NIL ? r : cluster_base(cp->seg, s);
}

static inline int coll_is_child_of(collpass *cp, int32_t s, int32_t base)
{
    int32_t r = chain_root(cp, s);
    if (r != GRV_NIL && chain_root(cp, base) == base)
        return r == base && s != base;
    return is_child_of(cp->seg, s, base);
}


/* ---- slot state (collide.c), the shifter (collide_shift.c) and the
 * kerner (collide_kern.c) ---- */
void grv_coll_from_glyph(const fv_gr_face *face, uint32_t gid, grv_coll *c);
fv_status grv_shifter_alloc(grv_seg *seg, shifter *sc);
fv_status grv_chain_memo_alloc(collpass *cp);
void grv_chain_memo_free(collpass *cp);
void grv_shifter_free(grv_seg *seg, shifter *sc);
/* Both return 1 when done, 0 when the segment fails, -1 when a budget
 * ran out (cp->st says which). */
int grv_shift_pass(collpass *cp);
int grv_kern_pass(collpass *cp);

#endif
