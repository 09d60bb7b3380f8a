/* The segment being shaped: the slot pool and its links, characters,
 * collision state, the slot map of one rule match (its conventions are
 * documented at grv_slotmap), slot and glyph attribute numbers, the work
 * budget, and the functions of segment.c, justify.c, pass.c and collide*.c.
 *
 * Slots live in a pool and are linked by int32 indexes (GRV_NIL = none), so
 * growing the pool never invalidates a reference, and every link is checked
 * against the pool size before use, in every build: grv_link (a link the
 * engine wrote, an invariant) or grv_sl (an index that may be out of range
 * by design, NULL then). */
#ifndef FV_GRAPHITE_SEGMENT_H
#define FV_GRAPHITE_SEGMENT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/budget.h"
#include "common/compat.h"
#include "common/mem.h"
#include "fontvm/error.h"
#include "graphite/face.h"

/* ---- budgets (graphite2 1.3.14's values in the comments) ---- */
#define GRV_MAX_SLOTS 64          /* SlotMap::MAX_SLOTS: slots one FSM match may span */
#define GRV_SEG_GROWTH 64         /* MAX_SEG_GROWTH_FACTOR: slots may grow to 64x the text */
#define GRV_MAX_DEPTH 100         /* Slot::finalise / attachment chain depth limit */
#define GRV_MAX_TEXT 1000000u     /* code points per segment (memory bound, not in graphite2) */
/* Largest fv_gr_shape_request.justify_percent (fontvm shape --justify's
 * bound too): a line justified to 100 times its natural width. */
#define GRV_MAX_JUSTIFY_PERCENT 10000
#define GRV_JUSTIFY_ROUNDS 1000   /* level-0 justification retries (graphite2: unbounded loop) */
/* Steps of the work budget per slot a justification round walks (a few
 * justify-attribute reads and float operations, ~5 ns: one rule step).
 * 1,000 rounds over the 6,400 slots a 100-character segment may grow to
 * would be 6.4 M steps, more than the segment's budget: justification
 * spends what the passes left, and stops with budget_steps. */
#define GRV_JUSTIFY_STEPS_PER_SLOT 1u
/* Steps of one pass's rule loop: every slot that can exist (the stream plus
 * its insert budget) is passed at most maxRuleLoop (>= 1 after loading)
 * times before the loop is forced on, so more steps mean no progress.  A
 * defensive bound (graphite2 has none): only a circular slot stream, which
 * no known input makes, could reach it. */
#define GRV_PASS_STEPS(slots, max_rule_loop) \
    (((uint64_t)(slots) + 2) * ((uint64_t)(max_rule_loop) + 2))

/* ---- work budget of a segment (issue 14) ----
 * graphite2 bounds the steps of a pass (none of our GRV_PASS_STEPS) and
 * the growth of the slot stream (GRV_SEG_GROWTH, mirrored: an Insert past
 * it makes the rule die), but not the work of one step: up to 128
 * candidate rules (MAX_RULES), each testing its constraint at up to 63
 * slots, each run up to 64K instructions long, and every pass of up to 128
 * may loop so.  fontvm counts that work in steps (budget.h's unit: one
 * instruction run or skipped, one slot the FSM walked, one candidate rule
 * offered, one pass-loop step) and stops a segment that spends more than
 * its budget, which grows with its text; one pass may spend a quarter of
 * it.
 * graphite2 has no such limit: a segment stopped here is a hardening limit
 * (budget_steps), not a refusal graphite2 makes.  Headroom over the default
 * corpus and the time bound: README.md, "Hardening". */
#define GRV_BUDGET_STEPS_BASE 500000ull
#define GRV_BUDGET_STEPS_PER_CHAR 50000ull
#define GRV_BUDGET_PASS_STEPS_BASE 125000ull
#define GRV_BUDGET_PASS_STEPS_PER_CHAR 12500ull
/* Steps one slot positioned costs (Slot::finalise: a metric of a cluster
 * or an attachment-point read positions a whole tree with one instruction);
 * measured ~30 ns a slot against ~2 ns a simple step. */
#define GRV_STEPS_PER_SLOT_POSITIONED 16u
static inline uint64_t grv_budget_segment_steps(uint32_t chars)
{
    return GRV_BUDGET_STEPS_BASE + GRV_BUDGET_STEPS_PER_CHAR * chars;
}
static inline uint64_t grv_budget_pass_steps(uint32_t chars)
{
    return GRV_BUDGET_PASS_STEPS_BASE + GRV_BUDGET_PASS_STEPS_PER_CHAR * chars;
}

#define GRV_NIL (-1)

/* Slot attribute numbers (graphite2 gr_attrCode). */
enum {
    GRV_SLAT_ADVX = 0, GRV_SLAT_ADVY, GRV_SLAT_ATTTO, GRV_SLAT_ATTX, GRV_SLAT_ATTY,
    GRV_SLAT_ATTGPT, GRV_SLAT_ATTXOFF, GRV_SLAT_ATTYOFF, GRV_SLAT_ATTWITHX,
    GRV_SLAT_ATTWITHY, GRV_SLAT_WITHGPT, GRV_SLAT_ATTWITHXOFF, GRV_SLAT_ATTWITHYOFF,
    GRV_SLAT_ATTLEVEL, GRV_SLAT_BREAK, GRV_SLAT_COMPREF, GRV_SLAT_DIR, GRV_SLAT_INSERT,
    GRV_SLAT_POSX, GRV_SLAT_POSY, GRV_SLAT_SHIFTX, GRV_SLAT_SHIFTY, GRV_SLAT_USERDEFNV1,
    GRV_SLAT_MEASURESOL, GRV_SLAT_MEASUREEOL, GRV_SLAT_JSTRETCH, GRV_SLAT_JSHRINK,
    GRV_SLAT_JSTEP, GRV_SLAT_JWEIGHT, GRV_SLAT_JWIDTH,
    GRV_SLAT_SEGSPLIT = GRV_SLAT_JSTRETCH + 29,
    GRV_SLAT_USERDEFN, GRV_SLAT_BIDILEVEL, GRV_SLAT_COLFLAGS,
    GRV_SLAT_MAX = 78
};

/* Glyph metric numbers (graphite2 metrics enum). */
enum {
    GRV_MET_LSB = 0, GRV_MET_RSB, GRV_MET_BBTOP, GRV_MET_BBBOTTOM, GRV_MET_BBLEFT,
    GRV_MET_BBRIGHT, GRV_MET_BBHEIGHT, GRV_MET_BBWIDTH, GRV_MET_ADVWIDTH,
    GRV_MET_ADVHEIGHT, GRV_MET_ASCENT, GRV_MET_DESCENT, GRV_MET_COUNT
};

/* ---- slots and segments ---- */
#define GRV_SF_DELETED 1u
#define GRV_SF_COPIED 2u
#define GRV_SF_NOINSERT 4u   /* insert-before forbidden (gr_slatInsert == 0) */
#define GRV_SF_INSERTED 8u   /* created by INSERT */

/* A slot is 64 bytes, the fields the FSM walks (gid, prev, next) in its
 * first 12: run_fsm and the rule loop chase prev/next links, and an index
 * becomes an address with one shift at this size where 92 bytes took a
 * multiply (and 96 a scaled lea and a shift) on each step of the chain
 * (charis_r_gr udhr_eng.txt, shape --bench: 0.88 -> 0.95 of graphite2's
 * speed with the slot padded to 128 bytes; 96 bytes changed nothing).  The
 * fields no pass walks are in grv_slot_extra, beside the pool. */
typedef struct grv_slot {
    uint16_t gid, realgid;
    int32_t prev, next;
    int32_t original, parent, child, sibling;
    float advx, advy, posx, posy, shiftx, shifty;
    uint8_t flags, attlevel, bidilevel;
    int32_t index;               /* position after associate_chars */
    int16_t last_pass, last_rule;/* provenance: which pass/rule last changed it */
    /* user attributes and justification values: seg->words */
} grv_slot;
_Static_assert(sizeof(grv_slot) == 64, "a slot index becomes an address with a shift");

/* The rest of a slot (seg->extras, by pool index): its attachment offsets,
 * justified width and character range.  Copied, cleared and grown with the
 * slot by every function that does so to the slot. */
typedef struct grv_slot_extra {
    float attx, atty, withx, withy, just;
    int32_t before, after;
} grv_slot_extra;

typedef struct grv_char {
    uint32_t unicode;
    int32_t before, after, base;
    int16_t break_weight;
    uint8_t flags;
} grv_char;

/* Per-slot collision state (Silf flag 0x20; GDL manual, "Collision
 * avoidance"), created before the first positioning pass from the glyph's
 * collision attributes (Silf attCollisions, 16 glyph attributes from
 * there) and changed by rules through the collision slot attributes. */
enum {
    GRV_COLL_FIX = 1,        /* move this glyph to fix collisions */
    GRV_COLL_IGNORE = 2,     /* never collides */
    GRV_COLL_START = 4,      /* first glyph of a collision range */
    GRV_COLL_END = 8,        /* last glyph of a collision range */
    GRV_COLL_KERN = 16,      /* fix collisions by kerning (space after it) */
    GRV_COLL_ISCOL = 32,     /* still colliding (set by the engine) */
    GRV_COLL_KNOWN = 64,     /* resolved (set by the engine) */
    GRV_COLL_ISSPACE = 128,  /* counts as a space when kerning */
    GRV_COLL_TEMPLOCK = 256  /* held in place for one round (engine) */
};

typedef struct grv_coll {
    float lim_xi, lim_yi, lim_xa, lim_ya;  /* collision.min/.max */
    float shiftx, shifty;                  /* this pass's move */
    float offx, offy;                      /* moves of finished passes */
    float exclx, excly;                    /* collision.exclude.offset */
    uint16_t flags, margin, margin_wt, excl_glyph;
    uint16_t seq_class, seq_prox, seq_order;
    int16_t above_xoff, below_xlim;
    uint16_t above_wt, below_wt, valign_ht, valign_wt;
} grv_coll;

/* graphite2's gr_font, for the positioning that gr_make_seg and
 * gr_seg_justify do with one (compat/graphite2): positions and advances in
 * pixels at `scale`, and the glyph's own advance replaced by `advance`
 * (hinted advances) when set.  graphite2 uses the font in these final
 * positionings only, never while passes run. */
typedef struct grv_font {
    float scale;
    float (*advance)(const void *user, uint16_t gid);
    const void *user;
} grv_font;

typedef struct grv_seg {
    fv_gr_face *face;
    fv_mem *mem;
    grv_slot *slots;       /* pool */
    /* Per-slot words beside the pool (grv_slot_words): the slot's num_user
     * user attributes, then its justification block (grv_just_words: a
     * "loaded" word, graphite2's SlotJustify, and 5 values per level).
     * Kept out of grv_slot so that the slot stays small: the FSM and the
     * machine index slots all the time. */
    int16_t *words;        /* pool_cap * grv_words_per_slot */
    grv_slot_extra *extras;/* pool_cap + 1 (a spare row), in the pool's block */
    uint32_t pool_len, pool_cap;
    /* Growth of the pool (grv_new_slot): how often it grew, and what the
     * passes now running started with (grv_bound_pool; 0 and 0: unknown),
     * from which it knows the most slots they can need. */
    uint32_t pool_growths;
    uint32_t pool_at_passes;
    int64_t passes_inserts;
    /* 1 + the first freed slot (linked through `next`), 0 if none: freed
     * slots are reused first, as graphite2's free list (zero means empty so
     * that a zeroed segment is valid). */
    int32_t free_list;
    int32_t first, last;
    int32_t slot_count;
    grv_char *chars;
    uint32_t num_chars;
    int32_t *feats;        /* current feature values, face->num_features */
    uint8_t dir;           /* bit 0: rtl; bit 6 toggled by reverse */
    uint32_t pass_bits;
    grv_coll *coll;        /* by slot index (grv_slot.index), NULL until initialised */
    uint32_t num_coll;
    float advx, advy;
    int cur_pass, cur_rule;   /* for provenance and tracing; rule -1: pass constraint */
    int in_constraint;        /* running constraint code */
    /* Work budget (grv_budget_*): `budget` is what the running pass may
     * still spend (its share, or what the segment has left if less), which
     * every counted piece of work spends (fv_budget_spend); `steps` is what
     * finished passes spent, `steps_limit` the segment's whole budget. */
    fv_budget budget;
    uint64_t steps, steps_limit;
    /* what the running pass spends its budget on besides its rules
     * ("collision shifting", "collision kerning"), or the work after the
     * passes ("positioning", "justification"); NULL: rules.  Named in the
     * budget_steps error. */
    const char *budget_stage;
    uint64_t pass_steps_max;  /* most steps any one pass took (measurement) */
    /* A link that named no slot of the pool (grv_link): the first such
     * index, and the slot grv_link hands out instead.  Never set unless an
     * engine invariant broke; the segment then fails with gr_slot_link. */
    int link_fault;
    int32_t link_fault_index;
    int link_fault_pass;
    grv_slot spare;
    /* the font grv_position_slots positions with, NULL for design units
     * (set only around a final positioning, see grv_font) */
    const grv_font *font;
    /* tracing */
    fv_gr_trace_fn trace;
    void *trace_user;
    uint64_t *op_counts;   /* GRV_OP_COUNT counters or NULL */
} grv_seg;

/* The slot map of one rule match (pass.c run_fsm fills it, the machine and
 * pass.c's rule loop use it).  Conventions, once for every file:
 *
 * - Entries are slot indexes (GRV_NIL: none), addressed from
 *   grv_map_begin(m): entry -1 (buf[0]) is the slot before the first
 *   mapped one (GRV_NIL at the start of the stream), entries 0 .. size-1
 *   the slots the FSM walked: first `context` pre-context slots, then the
 *   ones it matched, and last the slot where the walk stopped (GRV_NIL at
 *   the end of the stream).  At most GRV_MAX_SLOTS + 2 entries are pushed.
 * - A rule of sort n and pre-context p that fires spans the entries
 *   context-p .. context-p+n-1; entry `context` is its first
 *   non-pre-context slot, the one its action starts at.
 * - mapb (grv_run) is that entry, `context`; mapi is the entry the running
 *   code is at (Next moves it on; the rule's slot offsets are relative to
 *   it, ContextItem's to mapb).  A reference below entry -1 fails the run
 *   (GRV_SLOT_OFFSET_OUT_OF_BOUNDS); one at or past `size` reads no slot
 *   (COMPAT(graphite2): it reads stale entries).  A temporary copy
 *   (GRV_XOP_TEMP_COPY) replaces the current entry with a copy of its slot.
 * - highwater is the slot after the one the pass's rule loop last started
 *   a new round from; highpassed says the current slot has moved past it
 *   (Next over it, an action's skip).  The rule loop (pass.c run_pass)
 *   starts a fresh round of max_rule_loop tries whenever it reaches or
 *   passes highwater, and jumps to highwater when a round runs out: this is
 *   graphite2's guard against rules that never move on.  Insert and Delete
 *   keep them right (machine.c).
 * - max_size is what may still be inserted in this pass (GRV_SEG_GROWTH
 *   times the slots); each Insert spends one, and the one that spends the
 *   last kills the rule. */
typedef struct grv_slotmap {
    int32_t buf[GRV_MAX_SLOTS + 4];
    int size;            /* pushed entries */
    int context;         /* number of pre-context slots */
    int32_t highwater;
    int highpassed;
    int64_t max_size;    /* remaining insert budget */
} grv_slotmap;

static inline int32_t *grv_map_begin(grv_slotmap *m) { return &m->buf[1]; }

/* Segment helpers (segment.c). */
int32_t grv_new_slot(grv_seg *seg);
int grv_reserve_slots(grv_seg *seg, uint32_t cap);
/* Passes start that may insert `inserts` slots: the pool never needs
 * more than that over its size now, and a rule's temporary copies (which
 * are freed after its action; a slot freed is reused before the pool
 * grows).  Two stores: this runs for every segment. */
static inline void grv_bound_pool(grv_seg *seg, int64_t inserts)
{
    seg->pool_at_passes = seg->pool_len;
    seg->passes_inserts = inserts;
}
/* Frees the pool (slots, extras and words are one block) and empties it. */
void grv_free_pool(grv_seg *seg);
void grv_free_slot(grv_seg *seg, int32_t s);
static inline grv_slot *grv_sl(grv_seg *seg, int32_t i)
{
    return (i >= 0 && (uint32_t)i < seg->pool_len) ? &seg->slots[i] : NULL;
}
/* The slot a link names.  Links (prev, next, parent, child, sibling, the
 * stream's first and last, slot-map entries) are written only by the engine
 * and the pool never shrinks, so a link in use is always a pool index: an
 * invariant, not an input check.  It is checked anyway, in every build
 * (FV_NEVER): a link outside the pool gives the segment's spare slot, whose
 * links are all GRV_NIL so that every walk ends, and records the fault;
 * fv_gr_shape then fails the segment with gr_slot_link. */
FV_COLD grv_slot *grv_link_fault(grv_seg *seg, int32_t i);
static inline grv_slot *grv_link(grv_seg *seg, int32_t i)
{
    if (FV_NEVER((uint32_t)i >= seg->pool_len))
        return grv_link_fault(seg, i);
    return &seg->slots[i];
}
/* FV_OK, or gr_slot_link with the first bad index and the pass that was
 * running (seg->cur_pass) when grv_link found it. */
fv_status grv_link_status(const grv_seg *seg, fv_error *err);
/* The extra fields of slot `i`; a link outside the pool gives the spare
 * row after the pool's and records the fault (grv_link). */
FV_COLD grv_slot_extra *grv_extra_fault(grv_seg *seg, int32_t i);
static inline grv_slot_extra *grv_extra(grv_seg *seg, int32_t i)
{
    if (FV_NEVER((uint32_t)i >= seg->pool_len))
        return grv_extra_fault(seg, i);
    return &seg->extras[i];
}
/* A slot's justification block: a "loaded" word, then 5 values for each
 * level a rule may address: level 0 always (grv_get_justify), and the
 * font's levels up to GRV_MAX_JLEVELS.  Sized by the font, not by the
 * largest count: most fonts have one level or none, and 21 words a slot
 * were a third of a segment's pool (charis_r_gr). */
static inline size_t grv_just_words(const grv_silf *silf)
{
    unsigned nj = silf->num_jlevels;
    return 1u + 5u * (nj == 0 ? 1u : nj < GRV_MAX_JLEVELS ? nj : GRV_MAX_JLEVELS);
}
static inline size_t grv_words_per_slot(const grv_seg *seg)
{
    return (size_t)seg->face->silf.num_user + grv_just_words(&seg->face->silf);
}
/* The words of slot `i`; a link outside the pool gives the spare row
 * after the pool's (grv_reserve_slots) and records the fault (grv_link). */
FV_COLD int16_t *grv_words_fault(grv_seg *seg, int32_t i);
static inline int16_t *grv_slot_words(grv_seg *seg, int32_t i)
{
    if (FV_NEVER((uint32_t)i >= seg->pool_len))
        return grv_words_fault(seg, i);
    return seg->words + (size_t)i * grv_words_per_slot(seg);
}
/* Copies slot src's words to slot dst's (user attributes and
 * justification values, for the copies rules make) with the library's
 * memcpy: gcc expanded the copy in place into `rep movsq`, slow to start
 * for these few bytes (see clear_words in segment.c). */
static inline void grv_copy_words(grv_seg *seg, int32_t dst, int32_t src)
{
    size_t bytes = grv_words_per_slot(seg) * sizeof(int16_t);
    FV_OPAQUE(bytes);
    memcpy(grv_slot_words(seg, dst), grv_slot_words(seg, src), bytes);
}
/* User attribute `sub` of slot `i` (a valid slot), 0 past the font's
 * count: what grv_get_attr gives for gr_slatUserDefn. */
static inline int32_t grv_user_attr(grv_seg *seg, int32_t i, uint32_t sub)
{
    return sub < seg->face->silf.num_user ? grv_slot_words(seg, i)[sub] : 0;
}
void grv_set_glyph(grv_seg *seg, int32_t s, uint32_t gid);
int32_t grv_get_attr(grv_seg *seg, int32_t s, uint32_t attr, uint32_t sub);
void grv_set_attr(grv_seg *seg, grv_slotmap *map, int32_t s, uint32_t attr, int sub,
                  int32_t value);
int32_t grv_glyph_metric(grv_seg *seg, int32_t s, uint32_t metric, uint32_t level);
/* 0 when the reversal stopped where graphite2's never ends (justification
 * only, grv_justify): the stream's links are then broken. */
int grv_reverse_slots(grv_seg *seg);
static inline int grv_currdir(const grv_seg *seg) { return ((seg->dir >> 6) ^ seg->dir) & 1; }
/* 0 when a reversal for the walk stopped (grv_reverse_slots) */
int grv_position_slots(grv_seg *seg, int32_t start, int32_t end, int rtl, float *advx,
                       float *advy);
void grv_associate_chars(grv_seg *seg);
/* Justification (justify.c). */
int32_t grv_get_justify(grv_seg *seg, int32_t s, unsigned level, unsigned sub);
void grv_set_justify(grv_seg *seg, int32_t s, unsigned level, unsigned sub, int32_t value);
void grv_link_clusters(grv_seg *seg);
/* 1 when seg runs against its font's direction, where graphite2 reverses
 * the stream to justify it (for most lines: the first cluster alone is
 * positioned, the rest of the line stays in place; grv_justify). */
int grv_justify_against(const grv_seg *seg);
float grv_justify(grv_seg *seg, float width);
static inline int32_t grv_get_feature(const grv_seg *seg, uint32_t index)
{
    if (index >= seg->face->num_features)
        return 0;
    return seg->feats[index];
}
void grv_set_feature(grv_seg *seg, uint32_t index, int32_t value);
void grv_slot_child(grv_seg *seg, int32_t parent, int32_t child);
void grv_slot_remove_child(grv_seg *seg, int32_t parent, int32_t child);

/* fv_gr_shape without the copy-out (face.c): shapes the request into *seg
 * and leaves it alive, positioned and justified, for callers that read the
 * slots themselves (compat/graphite2, graphite2's API).  On failure *seg is
 * empty and needs no release; on success release it with grv_seg_release.
 * With a font, the final positions are graphite2's for that gr_font (in
 * pixels); NULL gives design units, as fv_gr_shape. */
fv_status grv_shape_segment(fv_gr_face *face, const fv_gr_shape_request *req,
                            const grv_font *font, grv_seg *seg, fv_error *err);
void grv_seg_release(grv_seg *seg);

/* Collision avoidance and kerning (collide.c). */
fv_status grv_coll_init(grv_seg *seg, fv_error *err);
grv_coll *grv_coll_of(grv_seg *seg, int32_t s);
int32_t grv_coll_get_attr(grv_seg *seg, int32_t s, uint32_t attr);
void grv_coll_set_attr(grv_seg *seg, int32_t s, uint32_t attr, int16_t value);
fv_status grv_coll_run_pass(grv_seg *seg, const grv_pass *p, uint32_t pi, fv_error *err);
/* graphite2's Slot::finalise on one attachment subtree: positions `si`
 * (and its children and siblings) from base (x, y); `final` adds the
 * collision offsets. */
void grv_finalise_tree(grv_seg *seg, int32_t si, float basex, float basey, int rtl, int final);

/* Passes (pass.c). */
/* After the passes (positioning, justification), which spend what the
 * passes left of the segment's budget: FV_OK, or budget_steps naming
 * seg->budget_stage when that is spent. */
fv_status grv_budget_status(const grv_seg *seg, fv_error *err);
void grv_mirror_slots(grv_seg *seg);
fv_status grv_run_passes(grv_seg *seg, unsigned first, unsigned last, int dobidi,
                         fv_error *err);

#endif
