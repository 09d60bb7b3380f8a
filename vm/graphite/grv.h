/* Graphite engine internals: the parsed face (Silf/Glat/Gloc/Feat/Sill), the
 * segment (slots, characters) and the machine state shared by verify.c,
 * machine.c, pass.c, segment.c and the public API in face.c.
 *
 * Slots live in a pool and are linked by int32 indexes (GRV_NIL = none), so
 * growing the pool never invalidates a reference, and every link is checked
 * against the pool size before use, in every build: grv_link (a link the
 * engine wrote, an invariant) or grv_sl (an index that may be out of range
 * by design, NULL then). */
#ifndef FV_GRAPHITE_GRV_H
#define FV_GRAPHITE_GRV_H

#include <stdint.h>
#include <stdio.h>

#include "common/budget.h"
#include "common/compat.h"
#include "common/mem.h"
#include "common/reader.h"
#include "fontvm/error.h"
#include "fontvm/graphite.h"
#include "graphite/opcodes.h"
#include "sfnt/sfnt.h"

/* ---- budgets (graphite2 1.3.14's values in the comments) ---- */
#define GRV_STACK_MAX 1024        /* vm::Machine STACK_MAX = 1 << 10 */
/* Cells below the stack's base that an opcode may touch when the stack holds
 * fewer values at run time than the verifier counted (a slot reference that
 * finds no slot pushes nothing; SetFeat pops without being counted): the
 * deepest opcode (Cond) reaches 3 below.  graphite2 keeps such a guard too
 * and fails the run only when an opcode *ends* below the base. */
#define GRV_STACK_GUARD 3
#define GRV_MAX_SLOTS 64          /* SlotMap::MAX_SLOTS: slots one FSM match may span */
#define GRV_SEG_GROWTH 64         /* MAX_SEG_GROWTH_FACTOR: slots may grow to 64x the text */
#define GRV_MAX_DEPTH 100         /* Slot::finalise / attachment chain depth limit */
#define GRV_MAX_PASSES 128        /* passes per Silf subtable we accept (u8 count) */
#define GRV_MAX_TEXT 1000000u     /* code points per segment (memory bound, not in graphite2) */
#define GRV_MAX_JLEVELS 4         /* justification levels kept per slot (fonts use 1) */
/* Largest fv_gr_shape_request.justify_percent (fontvm shape --justify's
 * bound too): a line justified to 100 times its natural width. */
#define GRV_MAX_JUSTIFY_PERCENT 10000
#define GRV_JUSTIFY_ROUNDS 1000   /* level-0 justification retries (graphite2: unbounded loop) */
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
/* Bytes an LZ4-compressed Silf or Glat table may expand to.  graphite2
 * takes any size its 27-bit field holds (128 MB) and so did fontvm, up to
 * the font's memory cap; the largest in the default corpus is Awami
 * Nastaliq's Silf, 1,331,103 bytes (from 167,035). */
#define GRV_BUDGET_TABLE_BYTES (32u * 1024u * 1024u)
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

/* A piece of rule code (a sub-span of the Silf subtable). */
typedef struct grv_code {
    fv_span code;
    uint32_t offset;   /* offset of the code inside the Silf subtable */
    /* Action code only: where graphite2's loader puts a temporary copy of
     * the current slot into the rule map (before the opcode at each of
     * these code offsets, ascending), so that later reads of that map entry
     * see the slot as it was; NULL/0 for none (see silf.c plan_copies). */
    const uint32_t *copies;
    uint32_t num_copies;
    /* The decoded form the machine runs (grv_compile); NULL until then. */
    grv_insn *insns;
    uint32_t num_insns;   /* including the final GRV_XOP_END and GRV_XOP_BAD */
} grv_code;

typedef struct grv_rule {
    uint16_t sort;        /* number of slots the rule spans (incl. pre-context) */
    uint8_t pre_context;
    grv_code constraint;  /* empty: always true */
    grv_code action;
    uint8_t deletes;      /* action contains Delete or makes temporary copies:
                           * collect garbage after it */
} grv_rule;

typedef struct grv_pass {
    uint8_t flags, max_rule_loop, max_rule_context, max_backup;
    uint8_t num_coll_runs, kern_colls, reverse_dir, collision_threshold;
    uint16_t num_rules, num_rows, num_transitional, num_success, num_columns;
    uint16_t min_pre, max_pre;
    uint32_t num_cols_glyphs;   /* entries in cols */
    uint16_t *cols;             /* glyph -> column, 0xFFFF = none */
    uint16_t *trans;            /* num_transitional * num_columns */
    uint16_t *start_states;     /* max_pre - min_pre + 1 */
    uint32_t *state_rule_off;   /* num_success + 1 offsets into state_rules */
    uint16_t *state_rules;      /* per success state, sorted by (sort desc, index asc) */
    grv_rule *rules;
    grv_code pass_constraint;
} grv_pass;

typedef struct grv_pseudo {
    uint32_t unicode;
    uint16_t gid;
} grv_pseudo;

typedef struct grv_silf {
    uint32_t version;       /* Silf table version */
    uint32_t rule_version;
    uint16_t max_glyph_id;
    uint8_t num_passes, i_subst, i_pos, i_just, i_bidi, flags;
    uint8_t attr_pseudo, attr_break, attr_dir, attr_mirror, attr_skip_passes;
    uint8_t num_jlevels;
    uint8_t jattr[GRV_MAX_JLEVELS][4]; /* per level: stretch, shrink, step, weight attrs */
    uint16_t num_lig_comp;
    uint8_t num_user, max_comp_per_lig, direction, attr_collisions;
    uint16_t lb_gid;
    uint16_t num_pseudo;
    grv_pseudo *pseudos;
    uint16_t num_classes, num_linear;
    uint32_t *class_off;     /* num_classes + 1, in u16 units into class_data */
    uint16_t *class_data;
    uint32_t class_data_len;
    grv_pass *passes;
    fv_span data;            /* the (decompressed) subtable */
} grv_silf;

typedef struct grv_feature {
    uint32_t id;
    uint16_t flags, label;
    uint16_t num_settings;
    int16_t *setting_values;
    uint16_t *setting_labels;
    uint32_t max_value;
    int32_t default_value;
} grv_feature;

typedef struct grv_lang {
    uint32_t tag;
    uint16_t num_settings;
    uint32_t *feat_ids;
    int16_t *values;
} grv_lang;

/* Per-glyph data: metrics from hmtx/glyf and Graphite attributes from Glat. */
typedef struct grv_glyph {
    uint16_t advance;
    int16_t x_min, y_min, x_max, y_max;
} grv_glyph;

/* Glat v3 collision octabox of one glyph (GDL manual, "Collision
 * avoidance": the glyph's bounding box cut by the two diagonal bounds, and
 * up to 16 sub-boxes of a 4x4 grid, each with its own diagonal bounds).
 * The file stores each edge as a fraction n/255 of the glyph's bounding box
 * (x/y) or of its diagonal extent (x+y "sum" and x-y "diff"); these are
 * the edges in font units. */
typedef struct grv_slant {
    float si, sa, di, da;  /* x+y min/max, x-y min/max */
} grv_slant;

typedef struct grv_subbox {
    float xi, xa, yi, ya;
    grv_slant sl;
} grv_subbox;

typedef struct grv_octabox {
    grv_slant sl;          /* the glyph's overall diagonal bounds */
    uint32_t first_sub;    /* index into fv_gr_face.subboxes */
    uint8_t num_subs;
    uint8_t present;       /* 0: no octabox (slant bounds all 0) */
} grv_octabox;

struct fv_gr_face {
    fv_font *font;
    fv_mem *mem;
    const sfnt_font *sfnt;
    uint32_t num_glyphs;          /* maxp glyph count */
    uint16_t upem;
    int16_t descent;              /* hhea (graphite2 reads 0 for the ascent metric) */
    grv_glyph *glyphs;            /* num_glyphs */
    uint16_t num_attrs;           /* from Gloc */
    int16_t *attrs;               /* num_glyphs * num_attrs, dense */
    grv_octabox *octaboxes;       /* num_glyphs, Glat v3 only (else NULL) */
    uint8_t collision_boxes;      /* Glat version >= 3.0 read as signed: collisions usable */
    grv_subbox *subboxes;
    uint32_t num_subboxes;
    uint8_t *decompressed[2];     /* owned LZ4 output for Silf / Glat */
    /* The cmap's answer for every BMP code point (sfnt_cmap_fill_bmp), so
     * that shaping does not search the cmap per character; NULL when the
     * subtable is not in the form the one-walk fill needs (then each
     * character is looked up). */
    uint16_t *cmap_bmp;
    grv_silf silf;
    uint16_t num_features;
    grv_feature *features;
    uint16_t num_langs;
    grv_lang *langs;
    fv_gr_trace_fn trace;
    void *trace_user;
    uint64_t *op_counts;
};

/* ---- slots and segments ---- */
#define GRV_SF_DELETED 1u
#define GRV_SF_COPIED 2u
#define GRV_SF_NOINSERT 4u   /* insert-before forbidden (gr_slatInsert == 0) */
#define GRV_SF_INSERTED 8u   /* created by INSERT */

typedef struct grv_slot {
    uint16_t gid, realgid;
    int32_t original, before, after;
    int32_t prev, next, parent, child, sibling;
    float advx, advy, posx, posy, shiftx, shifty, attx, atty, withx, withy, just;
    uint8_t flags, attlevel, bidilevel;
    int32_t index;               /* position after associate_chars */
    int16_t last_pass, last_rule;/* provenance: which pass/rule last changed it */
    /* user attributes and justification values: seg->words */
} grv_slot;

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

typedef struct grv_seg {
    fv_gr_face *face;
    fv_mem *mem;
    grv_slot *slots;       /* pool */
    /* Per-slot words beside the pool (grv_slot_words): the slot's num_user
     * user attributes, then its justification block (GRV_JUST_WORDS: a
     * "loaded" word, graphite2's SlotJustify, and 5 values per level).
     * Kept out of grv_slot so that the slot stays small: the FSM and the
     * machine index slots all the time. */
    int16_t *words;        /* pool_cap * grv_words_per_slot */
    uint32_t pool_len, pool_cap;
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
    uint64_t pass_steps_max;  /* most steps any one pass took (measurement) */
    /* A link that named no slot of the pool (grv_link): the first such
     * index, and the slot grv_link hands out instead.  Never set unless an
     * engine invariant broke; the segment then fails with gr_slot_link. */
    int link_fault;
    int32_t link_fault_index;
    int link_fault_pass;
    grv_slot spare;
    /* tracing */
    fv_gr_trace_fn trace;
    void *trace_user;
    uint64_t *op_counts;   /* GRV_OP_COUNT counters or NULL */
} grv_seg;

/* Slot map for one rule match: entries [-1 .. GRV_MAX_SLOTS] (index 0 of
 * `buf` is the slot before the first). */
typedef struct grv_slotmap {
    int32_t buf[GRV_MAX_SLOTS + 4];
    int size;            /* pushed entries */
    int context;         /* number of pre-context slots */
    int32_t highwater;
    int highpassed;
    int64_t max_size;    /* remaining insert budget */
} grv_slotmap;

static inline int32_t *grv_map_begin(grv_slotmap *m) { return &m->buf[1]; }

/* Machine results. */
typedef enum grv_status {
    GRV_FINISHED = 0,
    GRV_STACK_UNDERFLOW,
    GRV_STACK_NOT_EMPTY,
    GRV_STACK_OVERFLOW,
    GRV_SLOT_OFFSET_OUT_OF_BOUNDS,
    GRV_DIED_EARLY,
    GRV_OUT_OF_STEPS      /* the segment's or the pass's step budget is spent */
} grv_status;

typedef struct grv_machine {
    grv_seg *seg;
    grv_slotmap *map;
    grv_status status;
    int positioned;
    int32_t cells[GRV_STACK_GUARD + GRV_STACK_MAX]; /* guard, then the stack */
} grv_machine;

/* ---- functions ---- */
fv_status grv_silf_load(fv_gr_face *face, fv_span table, fv_error *err);
void grv_silf_free(fv_gr_face *face);
fv_status grv_glat_load(fv_gr_face *face, fv_span glat, fv_span gloc, fv_error *err);
fv_status grv_feat_load(fv_gr_face *face, fv_span feat, fv_error *err);
fv_status grv_sill_load(fv_gr_face *face, fv_span sill, fv_error *err);
void grv_feat_free(fv_gr_face *face);
fv_status grv_lz4_table(fv_gr_face *face, fv_span in, uint32_t tag, int slot, fv_span *out,
                        fv_error *err);

/* Verifies one piece of code.  `is_constraint`: constraint vs action code;
 * `pass_type`: 0 substitution(or line-break), 1 positioning, 2 justification. */
enum { GRV_PASS_UNKNOWN = 0, GRV_PASS_LINEBREAK, GRV_PASS_SUBSTITUTE, GRV_PASS_POSITIONING,
       GRV_PASS_JUSTIFICATION };

typedef struct grv_verify_ctx {
    const fv_gr_face *face;
    const grv_silf *silf;
    int is_constraint;
    int pass_type;       /* GRV_PASS_* (graphite2's passtype) */
    int rule_length;     /* slots in the rule (sort) */
    int pre_context;
    uint32_t pass_index, rule_index;
} grv_verify_ctx;
fv_status grv_verify(const grv_verify_ctx *ctx, grv_code code, fv_error *err);

/* Runs code with the map positioned at `*mapi` (index into map begin).
 * Returns the value on the stack (0 if empty); m->status tells failures.
 * `mapb` is the index of the rule's first non-pre-context slot. */
/* Decodes code->code (and its planned copies) into code->insns; any bytes
 * are accepted (what cannot be decoded becomes a GRV_XOP_BAD that stops the
 * rule), so the verifier's verdict, not this, decides what a font may run.
 * FV_E_NOMEM only.  grv_code_free releases the decoded form. */
fv_status grv_compile(fv_mem *mem, grv_code *code);
void grv_code_free(fv_mem *mem, grv_code *code);
/* Runs decoded code (grv_compile) at map entry *mapi; mapb is the rule's
 * first non-pre-context entry.  Returns the code's result; m->status says
 * how the run ended; *mapi (and *is_out) the map entry and slot it left. */
int32_t grv_run(grv_machine *m, const grv_code *code, int *mapi, int mapb, int32_t *is_out);

/* Segment helpers (segment.c). */
int16_t grv_glyph_attr(const fv_gr_face *face, uint32_t gid, uint32_t attr);
int32_t grv_class_glyph(const grv_silf *silf, uint32_t cls, int32_t index);
int32_t grv_class_index(const grv_silf *silf, uint32_t cls, uint32_t gid);
int32_t grv_new_slot(grv_seg *seg);
int grv_reserve_slots(grv_seg *seg, uint32_t cap);
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
#define GRV_JUST_WORDS (1 + GRV_MAX_JLEVELS * 5)
static inline size_t grv_words_per_slot(const grv_seg *seg)
{
    return (size_t)seg->face->silf.num_user + GRV_JUST_WORDS;
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
void grv_reverse_slots(grv_seg *seg);
static inline int grv_currdir(const grv_seg *seg) { return ((seg->dir >> 6) ^ seg->dir) & 1; }
void grv_position_slots(grv_seg *seg, int32_t start, int32_t end, int rtl, float *advx,
                        float *advy);
void grv_associate_chars(grv_seg *seg);
int32_t grv_get_justify(grv_seg *seg, int32_t s, unsigned level, unsigned sub);
void grv_set_justify(grv_seg *seg, int32_t s, unsigned level, unsigned sub, int32_t value);
void grv_link_clusters(grv_seg *seg);
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

fv_status grv_silf_verify(fv_gr_face *face, fv_error *err);
fv_status grv_face_new(fv_font *font, fv_gr_face **out, int verify, fv_error *err);

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
void grv_mirror_slots(grv_seg *seg);
fv_status grv_run_passes(grv_seg *seg, unsigned first, unsigned last, int dobidi,
                         fv_error *err);

#endif
