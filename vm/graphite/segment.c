/* Segment model: the slot pool and its linked list, slot attributes,
 * attachment trees, positioning (graphite2's finalise order) and the
 * character <-> slot associations.  Justification is in justify.c. */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "common/check.h"
#include "common/convert.h"
#include "graphite/grv.h"

static void init_slot(grv_slot *s)
{
    memset(s, 0, sizeof *s);
    s->prev = s->next = s->parent = s->child = s->sibling = GRV_NIL;
    s->last_pass = s->last_rule = -1;
}

static void init_extra(grv_slot_extra *e)
{
    memset(e, 0, sizeof *e);
    e->before = e->after = -1;
}

/* Clears a slot's few words with the library's memset, quick at this
 * size: gcc, knowing that a slot has at least 6 words, expanded it in
 * place into `rep stosq`, whose start-up took 57% of grv_new_slot's time
 * (perf, DBSILBR latin.txt). */
static inline void clear_words(int16_t *w, size_t n)
{
    FV_OPAQUE(n);
    memset(w, 0, n * sizeof *w);
}

/* Grows the slot pool to at least `cap` slots: one allocation holds the
 * slots and, after them, their extras and their words, each with one spare
 * row (grv_extra, grv_slot_words), none of it cleared: grv_new_slot
 * initialises each slot and its extras as it hands them out and clears its
 * words (a new slot's user attributes are 0 and its justification values
 * not loaded; grv_free_slot clears them again).  seg->extras and
 * seg->words point into the block; freeing seg->slots frees all three. */
int grv_reserve_slots(grv_seg *seg, uint32_t cap)
{
    if (cap <= seg->pool_cap)
        return 1;
    size_t nw = grv_words_per_slot(seg);
    if ((uint64_t)cap * sizeof(grv_slot) > SIZE_MAX / 4 ||
        ((uint64_t)cap + 1) * sizeof(grv_slot_extra) > SIZE_MAX / 4 ||
        ((uint64_t)cap + 1) * nw * sizeof(int16_t) > SIZE_MAX / 4)
        return 0;
    /* the slots' and extras' sizes are multiples of 4 (the extras' and
     * words' alignment), so each part starts aligned after the one before */
    _Static_assert(sizeof(grv_slot) % _Alignof(grv_slot_extra) == 0, "extras follow the slots");
    _Static_assert(sizeof(grv_slot_extra) % sizeof(int16_t) == 0, "words follow the extras");
    size_t slot_bytes = (size_t)cap * sizeof(grv_slot);
    size_t extra_bytes = ((size_t)cap + 1) * sizeof(grv_slot_extra);
    grv_slot *ns = fv_mem_alloc(seg->mem, slot_bytes + extra_bytes +
                                              ((size_t)cap + 1) * nw * sizeof(int16_t));
    if (!ns)
        return 0;
    grv_slot_extra *nextras = (grv_slot_extra *)(void *)((unsigned char *)ns + slot_bytes);
    int16_t *nwords = (int16_t *)(void *)((unsigned char *)nextras + extra_bytes);
    if (seg->pool_len) {
        memcpy(ns, seg->slots, (size_t)seg->pool_len * sizeof(grv_slot));
        memcpy(nextras, seg->extras, (size_t)seg->pool_len * sizeof(grv_slot_extra));
        memcpy(nwords, seg->words, (size_t)seg->pool_len * nw * sizeof(int16_t));
    }
    fv_mem_free(seg->mem, seg->slots);
    seg->slots = ns;
    seg->extras = nextras;
    seg->words = nwords;
    seg->pool_cap = cap;
    return 1;
}

void grv_free_pool(grv_seg *seg)
{
    fv_mem_free(seg->mem, seg->slots);
    seg->slots = NULL;
    seg->extras = NULL;
    seg->words = NULL;
    seg->pool_len = seg->pool_cap = 0;
}

grv_slot *grv_link_fault(grv_seg *seg, int32_t i)
{
    if (!seg->link_fault) {
        seg->link_fault = 1;
        seg->link_fault_index = i;
        seg->link_fault_pass = seg->cur_pass;
    }
    init_slot(&seg->spare);
    return &seg->spare;
}

grv_slot_extra *grv_extra_fault(grv_seg *seg, int32_t i)
{
    grv_link_fault(seg, i);
    grv_slot_extra *spare = &seg->extras[seg->pool_cap];
    init_extra(spare);
    return spare;
}

int16_t *grv_words_fault(grv_seg *seg, int32_t i)
{
    grv_link_fault(seg, i);
    int16_t *spare = seg->words + (size_t)seg->pool_cap * grv_words_per_slot(seg);
    memset(spare, 0, grv_words_per_slot(seg) * sizeof(int16_t));
    return spare;
}

fv_status grv_link_status(const grv_seg *seg, fv_error *err)
{
    if (!seg->link_fault)
        return FV_OK;
    fv_error_clear(err);
    err->kind = FV_E_GR_SLOT_LINK;
    err->program = FV_PROG_GR_PASS;
    err->index = seg->link_fault_index;
    snprintf(err->detail, sizeof err->detail, "pass %d: slot link %d outside the pool of %u slots",
             seg->link_fault_pass, (int)seg->link_fault_index, seg->pool_len);
    return FV_E_GR_SLOT_LINK;
}

/* Grows the full pool.  The growth holds the old pool and the new one at
 * once, which is the segment's peak when it grows at all, so the first
 * growth past the text's reservation (face.c pool_reservation)
 * adds half: Awami Nastaliq, whose lines grow most in the corpus, needs at
 * most 1.81 times its text (urdu.txt line 2: 131 slots for 95 characters;
 * four-fold held 610 slots at once, half again 321).  Later growths are
 * four-fold: a segment still growing tends to grow to its budget, and every
 * step copies the pool and touches fresh pages (measured with `fontvm shape
 * --bench` on graphite2's general.ttf, whose segments grow to the 64x
 * limit: fontvm/graphite2 0.40 doubling, 1.3 four-fold, 2026-11-28).  No
 * growth goes past what the running passes can use (grv_bound_pool: their
 * insert budget), which general.ttf's segments reach (latin.txt: 1,090,000
 * bytes at the last growth with four-fold steps up to the bound, 814,000
 * going to the bound from 16 times below it).  If the memory cap
 * refuses a growth, the least one (a slot more, or the bound) is tried
 * before the segment fails. */
static int grow_pool(grv_seg *seg)
{
    uint64_t cap = seg->pool_cap;
    uint64_t want = seg->pool_growths == 0 ? cap + cap / 2 + 16 : cap * 4;
    uint64_t least = cap + 1;
    uint64_t bound = (uint64_t)seg->pool_at_passes +
                     (seg->passes_inserts > 0 ? (uint64_t)seg->passes_inserts : 0) +
                     GRV_MAX_SLOTS + 2;
    if (seg->passes_inserts > 0 && bound > cap) {
        least = bound < cap + 16 ? bound : cap + 16;
        /* within 16 times: after one more four-fold growth the next would
         * reach the bound, so go there at once (holding the bound and at
         * most a quarter of it, not the bound and up to all of it) */
        if (want > bound || bound <= cap * 16)
            want = bound;
    }
    /* slot indexes are int32 */
    if (want > INT32_MAX)
        want = INT32_MAX;
    if (least > want)
        least = want;
    if (cap >= INT32_MAX)
        return 0;
    if (!grv_reserve_slots(seg, (uint32_t)want) &&
        (least == want || !grv_reserve_slots(seg, (uint32_t)least)))
        return 0;
    seg->pool_growths++;
    return 1;
}

int32_t grv_new_slot(grv_seg *seg)
{
    if (seg->free_list > 0 && (uint32_t)(seg->free_list - 1) < seg->pool_len) {
        int32_t i = seg->free_list - 1;
        int32_t nx = grv_link(seg, i)->next;
        seg->free_list = (nx >= 0 && (uint32_t)nx < seg->pool_len) ? nx + 1 : 0;
        init_slot(grv_link(seg, i));
        init_extra(grv_extra(seg, i));
        return i;
    }
    FV_TESTCASE(seg->pool_len == seg->pool_cap); /* the pool grows */
    if (seg->pool_len == seg->pool_cap && !grow_pool(seg))
        return GRV_NIL;
    /* a new index, not a link: the pool has room for it (above) */
    int32_t i = (int32_t)seg->pool_len++;
    init_slot(&seg->slots[i]);
    init_extra(&seg->extras[i]);
    clear_words(seg->words + (size_t)i * grv_words_per_slot(seg), grv_words_per_slot(seg));
    return i;
}

/* graphite2's Segment::freeSlot: the slot leaves its attachment tree (its
 * children are detached), is cleared with its user attributes and goes to
 * the front of the free list.  The caller has unlinked it from the stream. */
void grv_free_slot(grv_seg *seg, int32_t si)
{
    grv_slot *s = grv_sl(seg, si);
    if (!s)
        return;
    if (seg->first == si)
        seg->first = s->next;
    if (seg->last == si)
        seg->last = s->prev;
    if (s->parent != GRV_NIL)
        grv_slot_remove_child(seg, s->parent, si);
    for (int n = 0; s->child != GRV_NIL && n < GRV_MAX_DEPTH * 100; n++) {
        (void)fv_budget_spend(&seg->budget, 1); /* the pass checks it */
        int32_t c = s->child;
        if (grv_link(seg, c)->parent == si) {
            grv_link(seg, c)->parent = GRV_NIL;
            grv_slot_remove_child(seg, si, c);
        } else {
            s->child = GRV_NIL;
        }
    }
    init_slot(s);
    init_extra(grv_extra(seg, si));
    clear_words(grv_slot_words(seg, si), grv_words_per_slot(seg));
    s->next = seg->free_list - 1;
    seg->free_list = si + 1;
}

void grv_set_glyph(grv_seg *seg, int32_t si, uint32_t gid)
{
    grv_slot *s = grv_sl(seg, si);
    const fv_gr_face *face = seg->face;
    if (!s)
        return;
    s->gid = (uint16_t)gid;
    if (gid >= face->num_glyphs) {
        s->realgid = 0;
        s->advx = 0;
        s->advy = 0;
        return;
    }
    uint32_t real = (uint16_t)grv_glyph_attr(face, gid, face->silf.attr_pseudo);
    if (real > face->num_glyphs)
        real = 0;
    s->realgid = (uint16_t)real;
    uint32_t mg = (real && real < face->num_glyphs) ? real : gid;
    s->advx = face->glyphs[mg].advance;
    s->advy = 0;
    if (face->silf.attr_skip_passes) {
        /* COMPAT(graphite2): 1.3.14 merges the first attribute as a byte
         * (passes 8-15 are never skipped) and, with more than 16 passes,
         * merges the second one shifted by 16 as a separate mask, which
         * clears bits 0-15: only passes 16-31 can then be skipped.
         * Measured on Awami Nastaliq (20 passes): its collision pass 10 runs
         * in graphite2 although every glyph's bits say skip. */
        seg->pass_bits &= (uint8_t)grv_glyph_attr(face, gid, face->silf.attr_skip_passes);
        if (face->silf.num_passes > 16)
            seg->pass_bits &= (uint32_t)(uint16_t)grv_glyph_attr(
                                  face, gid, face->silf.attr_skip_passes + 1u) << 16;
    }
}

static grv_char *charinfo(grv_seg *seg, int32_t i)
{
    if (i < 0 || (uint32_t)i >= seg->num_chars)
        return NULL;
    return &seg->chars[i];
}

int32_t grv_get_attr(grv_seg *seg, int32_t si, uint32_t attr, uint32_t sub)
{
    grv_slot *s = grv_sl(seg, si);
    if (!s)
        return 0;
    grv_char *c;
    if (attr >= GRV_SLAT_JSTRETCH && attr < GRV_SLAT_JSTRETCH + 20 && attr != GRV_SLAT_JWIDTH)
        return grv_get_justify(seg, si, (attr - GRV_SLAT_JSTRETCH) / 5, (attr - GRV_SLAT_JSTRETCH) % 5);
    switch (attr) {
    case GRV_SLAT_ADVX: return fv_f32_to_i32(s->advx);
    case GRV_SLAT_ADVY: return fv_f32_to_i32(s->advy);
    case GRV_SLAT_ATTTO: return s->parent != GRV_NIL ? 1 : 0;
    case GRV_SLAT_ATTX: return fv_f32_to_i32(grv_extra(seg, si)->attx);
    case GRV_SLAT_ATTY: return fv_f32_to_i32(grv_extra(seg, si)->atty);
    case GRV_SLAT_ATTWITHX: return fv_f32_to_i32(grv_extra(seg, si)->withx);
    case GRV_SLAT_ATTWITHY: return fv_f32_to_i32(grv_extra(seg, si)->withy);
    case GRV_SLAT_ATTLEVEL: return s->attlevel;
    case GRV_SLAT_BREAK: c = charinfo(seg, s->original); return c ? c->break_weight : 0;
    case GRV_SLAT_DIR: return seg->dir & 1;
    case GRV_SLAT_INSERT: return !(s->flags & GRV_SF_NOINSERT);
    case GRV_SLAT_POSX: return fv_f32_to_i32(s->posx);
    case GRV_SLAT_POSY: return fv_f32_to_i32(s->posy);
    case GRV_SLAT_SHIFTX: return fv_f32_to_i32(s->shiftx);
    case GRV_SLAT_SHIFTY: return fv_f32_to_i32(s->shifty);
    case GRV_SLAT_MEASURESOL: return -1;
    case GRV_SLAT_MEASUREEOL: return -1;
    case GRV_SLAT_JWIDTH: return fv_f32_to_i32(grv_extra(seg, si)->just);
    case GRV_SLAT_USERDEFNV1: sub = 0; /* fall through */
    case GRV_SLAT_USERDEFN: return grv_user_attr(seg, si, sub);
    case GRV_SLAT_SEGSPLIT: c = charinfo(seg, s->original); return c ? (c->flags & 3) : 0;
    case GRV_SLAT_BIDILEVEL: return s->bidilevel;
    default:
        if (attr >= GRV_SLAT_COLFLAGS && attr < GRV_SLAT_MAX)
            return grv_coll_get_attr(seg, si, attr);
        return 0;
    }
}

void grv_slot_child(grv_seg *seg, int32_t parent, int32_t child)
{
    grv_slot *p = grv_sl(seg, parent);
    if (!p || parent == child)
        return;
    if (p->child == GRV_NIL) {
        p->child = child;
    } else {
        int32_t c = p->child;
        int n = 0;
        while (c != child && grv_link(seg, c)->sibling != GRV_NIL && n++ < GRV_MAX_DEPTH * 100)
            c = grv_link(seg, c)->sibling;
        (void)fv_budget_spend(&seg->budget, (uint32_t)n); /* the walk; checked by the caller */
        if (c != child)
            grv_link(seg, c)->sibling = child;
    }
}

void grv_slot_remove_child(grv_seg *seg, int32_t parent, int32_t child)
{
    grv_slot *p = grv_sl(seg, parent);
    if (!p || p->child == GRV_NIL)
        return;
    if (p->child == child) {
        p->child = grv_link(seg, child)->sibling;
        grv_link(seg, child)->sibling = GRV_NIL;
        return;
    }
    int n = 0;
    for (int32_t c = p->child; c != GRV_NIL && n++ < GRV_MAX_DEPTH * 100; c = grv_link(seg, c)->sibling) {
        if (grv_link(seg, c)->sibling == child) {
            grv_link(seg, c)->sibling = grv_link(seg, child)->sibling;
            grv_link(seg, child)->sibling = GRV_NIL;
            break;
        }
    }
    (void)fv_budget_spend(&seg->budget, (uint32_t)n); /* the walk; checked by the caller */
}

void grv_set_attr(grv_seg *seg, grv_slotmap *map, int32_t si, uint32_t attr, int sub,
                  int32_t value32)
{
    grv_slot *s = grv_sl(seg, si);
    if (!s)
        return;
    /* Slot attributes are 16-bit in graphite2 (setAttr takes an int16). */
    int16_t value = (int16_t)(uint16_t)(uint32_t)value32;
    uint32_t nu = seg->face->silf.num_user;
    grv_char *c;
    if (attr == GRV_SLAT_USERDEFNV1) {
        attr = GRV_SLAT_USERDEFN;
        sub = 0;
        if (nu == 0)
            return;
    } else if (attr >= GRV_SLAT_JSTRETCH && attr < GRV_SLAT_JSTRETCH + 20 &&
               attr != GRV_SLAT_JWIDTH) {
        grv_set_justify(seg, si, (attr - GRV_SLAT_JSTRETCH) / 5, (attr - GRV_SLAT_JSTRETCH) % 5,
                        value);
        return;
    }
    switch (attr) {
    case GRV_SLAT_ADVX: s->advx = value; break;
    case GRV_SLAT_ADVY: s->advy = value; break;
    case GRV_SLAT_ATTTO: {
        uint16_t idx = (uint16_t)value;
        if (!map || (int)idx >= map->size)
            break;
        int32_t other = grv_map_begin(map)[idx];
        if (other == GRV_NIL || other == si || other == s->parent ||
            (grv_link(seg, other)->flags & GRV_SF_COPIED))
            break;
        if (s->parent != GRV_NIL) {
            grv_slot_remove_child(seg, s->parent, si);
            s->parent = GRV_NIL;
        }
        int count = 0, found = 0;
        for (int32_t p = other; p != GRV_NIL && count < GRV_MAX_DEPTH + 1; p = grv_link(seg, p)->parent) {
            count++;
            if (p == si)
                found = 1;
        }
        for (int32_t p = s->child; p != GRV_NIL && count < GRV_MAX_DEPTH + 1; p = grv_link(seg, p)->child)
            count++;
        for (int32_t p = s->sibling; p != GRV_NIL && count < GRV_MAX_DEPTH + 1; p = grv_link(seg, p)->sibling)
            count++;
        if (count < GRV_MAX_DEPTH && !found) {
            grv_slot_child(seg, other, si);
            s->parent = other;
            /* COMPAT(graphite2): the slot's map position arrives as an
             * unsigned byte, so after an Insert at the segment's start (map
             * position -1) it reads 255 and even a later slot takes the
             * attach-point branch (gr_diff F-22a, measured). */
            if ((seg->face->silf.direction & 1) ^ ((int)idx > (int)(uint8_t)sub)) {
                grv_extra(seg, si)->withx = s->advx;
                grv_extra(seg, si)->withy = 0;
            } else {
                grv_extra(seg, si)->attx = grv_link(seg, other)->advx;
                grv_extra(seg, si)->atty = 0;
            }
        }
        break;
    }
    case GRV_SLAT_ATTX: grv_extra(seg, si)->attx = value; break;
    case GRV_SLAT_ATTY: grv_extra(seg, si)->atty = value; break;
    case GRV_SLAT_ATTWITHX: grv_extra(seg, si)->withx = value; break;
    case GRV_SLAT_ATTWITHY: grv_extra(seg, si)->withy = value; break;
    case GRV_SLAT_ATTLEVEL: s->attlevel = (uint8_t)value; break;
    case GRV_SLAT_BREAK:
        c = charinfo(seg, s->original);
        if (c)
            c->break_weight = value;
        break;
    case GRV_SLAT_INSERT:
        if (value)
            s->flags &= (uint8_t)~GRV_SF_NOINSERT;
        else
            s->flags |= GRV_SF_NOINSERT;
        break;
    case GRV_SLAT_SHIFTX: s->shiftx = value; break;
    case GRV_SLAT_SHIFTY: s->shifty = value; break;
    case GRV_SLAT_JWIDTH: grv_extra(seg, si)->just = value; break;
    case GRV_SLAT_SEGSPLIT:
        c = charinfo(seg, s->original);
        if (c)
            c->flags |= (uint8_t)(value & 3);
        break;
    case GRV_SLAT_USERDEFN:
        if (sub >= 0 && (uint32_t)sub < nu)
            grv_slot_words(seg, si)[sub] = value;
        break;
    case GRV_SLAT_BIDILEVEL: s->bidilevel = (uint8_t)value; break;
    default:
        if (attr >= GRV_SLAT_COLFLAGS && attr < GRV_SLAT_MAX)
            grv_coll_set_attr(seg, si, attr, value);
        break;
    }
}

typedef struct grv_rect {
    float blx, bly, trx, try_;
    int empty;
} grv_rect;

static void rect_widen(grv_rect *r, float blx, float bly, float trx, float try_)
{
    if (r->empty) {
        r->blx = blx; r->bly = bly; r->trx = trx; r->try_ = try_;
        r->empty = 0;
        return;
    }
    if (blx < r->blx) r->blx = blx;
    if (bly < r->bly) r->bly = bly;
    if (trx > r->trx) r->trx = trx;
    if (try_ > r->try_) r->try_ = try_;
}

static void flood_shift(grv_seg *seg, int32_t s, float dx, int depth)
{
    while (s != GRV_NIL && depth < GRV_MAX_DEPTH) {
        grv_link(seg, s)->posx += dx;
        if (grv_link(seg, s)->child != GRV_NIL)
            flood_shift(seg, grv_link(seg, s)->child, dx, depth + 1);
        s = grv_link(seg, s)->sibling;
        depth++;
    }
}

/* graphite2's Slot::finalise: positions slot s (and its attachment tree)
 * relative to base; returns the advance the cluster reaches. */
static void finalise(grv_seg *seg, int32_t si, float basex, float basey, grv_rect *bbox,
                     unsigned attr_level, float *cluster_min, int rtl, int final, int depth,
                     float *resx, float *resy)
{
    grv_slot *s = grv_link(seg, si);
    *resx = 0;
    *resy = 0;
    /* one step of the work budget per slot positioned: rule code can ask
     * for a whole attachment tree's metrics with one instruction */
    (void)fv_budget_spend(&seg->budget, GRV_STEPS_PER_SLOT_POSITIONED); /* checked by the caller */
    if (depth > GRV_MAX_DEPTH || (attr_level && s->attlevel > attr_level))
        return;
    const grv_slot_extra *e = grv_extra(seg, si);
    float shiftx = s->shiftx * (float)(rtl * -2 + 1) + e->just, shifty = s->shifty;
    float tadv = s->advx + e->just;
    float rx, ry;
    if (final && seg->coll) {
        /* collision moves of finished passes; a kerned glyph's move is in
         * its advance instead, except right to left */
        const grv_coll *c = grv_coll_of(seg, si);
        if (c && (!(c->flags & GRV_COLL_KERN) || rtl)) {
            shiftx += c->offx;
            shifty += c->offy;
        }
    }
    const fv_gr_face *face = seg->face;
    /* graphite2's gr_font (grv_font): everything in pixels; a hinted font's
     * advance for the glyph replaces its design advance */
    const grv_font *font = seg->font;
    float scale = 1.0f;
    if (font) {
        scale = font->scale;
        shiftx *= scale;
        shifty *= scale;
        uint32_t mg = s->realgid ? s->realgid : s->gid;
        if (font->advance && mg < face->num_glyphs)
            tadv = (s->advx - (float)face->glyphs[mg].advance + e->just) * scale +
                   font->advance(font->user, (uint16_t)mg);
        else
            tadv *= scale;
    }
    s->posx = basex + shiftx;
    s->posy = basey + shifty;
    if (s->parent == GRV_NIL) {
        rx = basex + tadv;
        ry = basey + s->advy * scale;
        *cluster_min = s->posx;
    } else {
        s->posx += (e->attx - e->withx) * scale;
        s->posy += (e->atty - e->withy) * scale;
        float tadvx = s->advx >= 0.5f ? s->posx + tadv - shiftx : 0.f;
        rx = tadvx;
        ry = 0;
        if ((s->advx >= 0.5f || s->posx < 0) && s->posx < *cluster_min)
            *cluster_min = s->posx;
    }
    if (s->gid < face->num_glyphs) {
        const grv_glyph *g = &face->glyphs[s->gid];
        rect_widen(bbox, (float)g->x_min * scale + s->posx, (float)g->y_min * scale + s->posy,
                   (float)g->x_max * scale + s->posx, (float)g->y_max * scale + s->posy);
    }
    if (s->child != GRV_NIL && s->child != si && grv_link(seg, s->child)->parent == si) {
        float tx, ty;
        finalise(seg, s->child, s->posx, s->posy, bbox, attr_level, cluster_min, rtl, final,
                 depth + 1, &tx, &ty);
        if ((s->parent == GRV_NIL || s->advx >= 0.5f) && tx > rx) {
            rx = tx;
            ry = ty;
        }
    }
    if (s->parent != GRV_NIL && s->sibling != GRV_NIL && s->sibling != si &&
        grv_link(seg, s->sibling)->parent == s->parent) {
        float tx, ty;
        finalise(seg, s->sibling, basex, basey, bbox, attr_level, cluster_min, rtl, final,
                 depth + 1, &tx, &ty);
        if (tx > rx) {
            rx = tx;
            ry = ty;
        }
    }
    if (s->parent == GRV_NIL && *cluster_min < basex) {
        float adj = s->posx - *cluster_min;
        rx += adj;
        s->posx += adj;
        if (s->child != GRV_NIL)
            flood_shift(seg, s->child, adj, depth + 1);
    }
    *resx = rx;
    *resy = ry;
}

void grv_finalise_tree(grv_seg *seg, int32_t si, float basex, float basey, int rtl, int final)
{
    if (!grv_sl(seg, si))
        return;
    grv_rect bbox = {0, 0, 0, 0, 1};
    float cm = basex, rx, ry;
    finalise(seg, si, basex, basey, &bbox, 0, &cm, rtl, final, 0, &rx, &ry);
}

/* graphite2's bidi class of a slot: its glyph's directionality attribute
 * (Silf attrDirectionality); 16 is a non-spacing mark.
 * COMPAT(graphite2): the class is the attribute's low byte (measured on
 * Awami Nastaliq with a mark's value set to 0x0110, 0x0210, 0x1010,
 * 0x7F10, 0x8010 and 0xFF10: each kept as a mark, 0x0111 and 17 not;
 * F-44). */
#define GRV_BIDI_NSM 16
static int is_nsm(grv_seg *seg, int32_t si)
{
    int16_t dir = grv_glyph_attr(seg->face, grv_link(seg, si)->gid, seg->face->silf.attr_dir);
    return (uint8_t)dir == GRV_BIDI_NSM;
}

/* COMPAT(graphite2): reversing keeps every run of non-spacing marks after
 * the slot it follows ([B1 m1 B2 m2 m3] becomes [B2 m2 m3 B1 m1]), and
 * marks before the first other slot stay where they are; an all-mark
 * stream is left alone.  Reversing twice restores the order, but a stream
 * reversed for a pass, for positioning or when the characters are
 * associated has its marks after their bases (measured on Awami's reversed
 * pass 6: the char table of graphite2, KD-6).
 *
 * The stream reversed runs from seg->first to the end of the chain, and
 * the run of marks found last ends at seg->last.  Justification sets
 * seg->first and seg->last to its line's ends for the line's positioning
 * (grv_justify), and there graphite2's reversal shows three things the
 * whole stream never does, reproduced here step by step: a line of one
 * cluster (first == last) is left alone; a first slot that is not the
 * chain's head keeps its predecessor in front; and marks at the chain's
 * end after the line's last base (seg->last) are taken to end at that
 * base, which puts them back after it and walks the slots reversed so far
 * once more, restoring their order (measured with C probes on Padauk's
 * myanmar.txt line 2 made with gr_nobidi, whose last slot is a mark: the
 * line keeps its order and only its first cluster is positioned).  Where
 * the line's first cluster ends with marks too that walk never ends in
 * graphite2 (it hangs): here it stops after twice the slots (finishing
 * walks took at most 1.8 times in 2,100 random lines of 6 fonts, and every
 * line that stopped here hangs graphite2, justify_random.py), and 0 is
 * returned with the stream's links broken,
 * for grv_justify to restore (conformance/known.toml
 * gr2-justify-line-reversal). */
int grv_reverse_slots(grv_seg *seg)
{
    seg->dir ^= 64;
    if (seg->first == seg->last)
        return 1;
    uint32_t guard = seg->pool_len + 1;
    int32_t cur = seg->first;
    while (cur != GRV_NIL && guard && is_nsm(seg, cur)) {
        cur = grv_link(seg, cur)->next;
        guard--;
    }
    if (cur == GRV_NIL || !guard)
        return 1;
    const int32_t lead = grv_link(seg, cur)->prev; /* stays in front */
    int32_t head = GRV_NIL, tail = cur;
    /* each slot is taken once, or twice when the marks at the chain's end
     * send the walk back over the slots reversed so far */
    uint64_t steps = 2 * (uint64_t)seg->pool_len + 2;
    while (cur != GRV_NIL && steps--) {
        grv_slot *c = grv_link(seg, cur);
        int32_t next = c->next;
        if (!is_nsm(seg, cur)) {
            if (head != GRV_NIL)
                grv_link(seg, head)->prev = cur;
            c->next = head;
            head = cur;
            cur = next;
            continue;
        }
        /* marks (cur follows a slot taken before it, head is set): the
         * run from cur goes after the slot in front */
        int32_t after_run = next;
        uint32_t g = seg->pool_len + 1;
        while (after_run != GRV_NIL && g-- && is_nsm(seg, after_run))
            after_run = grv_link(seg, after_run)->next;
        int32_t run_end = after_run != GRV_NIL ? grv_link(seg, after_run)->prev : seg->last;
        if (head == GRV_NIL || run_end == GRV_NIL)
            break; /* only in a stream whose links went wrong: unfinished */
        grv_slot *h = grv_link(seg, head), *e = grv_link(seg, run_end);
        int32_t behind = h->next;
        if (behind != GRV_NIL)
            grv_link(seg, behind)->prev = run_end;
        else
            tail = run_end;
        next = e->next;
        e->next = behind;
        c->prev = head;
        h->next = cur;
        cur = next;
    }
    if (cur != GRV_NIL)
        return 0; /* a walk graphite2 does not finish: the stream is broken */
    grv_link(seg, head)->prev = lead;
    if (lead != GRV_NIL)
        grv_link(seg, lead)->next = head;
    else
        seg->first = head;
    seg->last = tail;
    return 1;
}

int grv_position_slots(grv_seg *seg, int32_t start, int32_t end, int rtl, float *advx,
                       float *advy)
{
    float cx = 0, cy = 0, cluster_min = 0;
    grv_rect bbox = {0, 0, 0, 0, 1};
    int reorder = grv_currdir(seg) != rtl;
    *advx = *advy = 0;
    if (reorder) {
        if (!grv_reverse_slots(seg))
            return 0;
        int32_t t = start;
        start = end;
        end = t;
    }
    if (start == GRV_NIL)
        start = seg->first;
    if (end == GRV_NIL)
        end = seg->last;
    if (start != GRV_NIL && end != GRV_NIL) {
        uint32_t guard = seg->pool_len + 1;
        if (rtl) {
            int32_t stop = grv_link(seg, start)->prev;
            for (int32_t s = end; s != GRV_NIL && s != stop && guard--; s = grv_link(seg, s)->prev) {
                if (grv_link(seg, s)->parent == GRV_NIL) {
                    cluster_min = cx;
                    finalise(seg, s, cx, cy, &bbox, 0, &cluster_min, rtl, 1, 0, &cx, &cy);
                }
            }
        } else {
            int32_t stop = grv_link(seg, end)->next;
            for (int32_t s = start; s != GRV_NIL && s != stop && guard--; s = grv_link(seg, s)->next) {
                if (grv_link(seg, s)->parent == GRV_NIL) {
                    cluster_min = cx;
                    finalise(seg, s, cx, cy, &bbox, 0, &cluster_min, rtl, 1, 0, &cx, &cy);
                }
            }
        }
    }
    *advx = cx;
    *advy = cy;
    return reorder ? grv_reverse_slots(seg) : 1;
}

int32_t grv_glyph_metric(grv_seg *seg, int32_t si, uint32_t metric, uint32_t level)
{
    const fv_gr_face *face = seg->face;
    grv_slot *s = grv_sl(seg, si);
    if (!s)
        return 0;
    /* COMPAT(graphite2): its ascent metric reads 0 (gr_diff F-22c, measured
     * on small.ttf with hhea's and OS/2's ascenders and head's yMax changed;
     * no font of the corpus reads it). */
    if (metric == GRV_MET_ASCENT)
        return 0;
    if (metric == GRV_MET_DESCENT)
        return face->descent;
    float blx, bly, trx, try_, advx, advy;
    if (level == 0) {
        uint32_t g = s->realgid ? s->realgid : s->gid;
        if (g >= face->num_glyphs)
            return 0;
        const grv_glyph *gl = &face->glyphs[g];
        blx = gl->x_min; bly = gl->y_min; trx = gl->x_max; try_ = gl->y_max;
        advx = gl->advance; advy = 0;
    } else {
        int32_t root = si;
        for (int d = 0; grv_link(seg, root)->parent != GRV_NIL && d < GRV_MAX_DEPTH; d++)
            root = grv_link(seg, root)->parent;
        /* COMPAT(graphite2): the cluster's box starts as its base glyph's
         * own box at the cluster's origin, before the base's shift, and
         * then takes every glyph of the cluster where it stands (KD-14:
         * charis_r_gr, right to left, U+0410 U+04C6 U+1DCD U+0361: rule
         * 31 of pass 4 reads bbWidth of the double circumflex shifted by
         * 344, and only this box gives graphite2's 2214, the box shifted
         * alone 1870; all 2,000 generated lines of charis agree with it). */
        grv_rect bbox = {0, 0, 0, 0, 1};
        uint32_t base_gid = grv_link(seg, root)->gid;
        if (base_gid < face->num_glyphs) {
            const grv_glyph *bg = &face->glyphs[base_gid];
            bbox.blx = bg->x_min; bbox.bly = bg->y_min; bbox.trx = bg->x_max; bbox.try_ = bg->y_max;
            bbox.empty = 0;
        }
        /* COMPAT(graphite2): the cluster is laid out in the stream's
         * current direction, which a pass run reversed flips, not the
         * segment's: a shifted mark moves by +shiftX in a right-to-left
         * segment's reversed pass (F-46: AndikaNewBasic-BI, right to left,
         * U+0302 U+035E U+033F U+035E U+0303: pass 5 rule 23's bbWidth
         * is 2150 in graphite2, 2003 with the segment's direction). */
        float cm = 0;
        finalise(seg, root, 0, 0, &bbox, level, &cm, grv_currdir(seg), 0, 0, &advx, &advy);
        blx = bbox.blx; bly = bbox.bly; trx = bbox.trx; try_ = bbox.try_;
    }
    switch (metric) {
    case GRV_MET_LSB: return fv_f32_to_i32(blx);
    case GRV_MET_RSB: return fv_f32_to_i32(advx - trx);
    case GRV_MET_BBTOP: return fv_f32_to_i32(try_);
    case GRV_MET_BBBOTTOM: return fv_f32_to_i32(bly);
    case GRV_MET_BBLEFT: return fv_f32_to_i32(blx);
    case GRV_MET_BBRIGHT: return fv_f32_to_i32(trx);
    case GRV_MET_BBHEIGHT: return fv_f32_to_i32(try_ - bly);
    case GRV_MET_BBWIDTH: return fv_f32_to_i32(trx - blx);
    case GRV_MET_ADVWIDTH: return fv_f32_to_i32(advx);
    case GRV_MET_ADVHEIGHT: return fv_f32_to_i32(advy);
    default: return 0;
    }
}

void grv_associate_chars(grv_seg *seg)
{
    int32_t nc = (int32_t)seg->num_chars;
    for (int32_t i = 0; i < nc; i++) {
        seg->chars[i].before = -1;
        seg->chars[i].after = -1;
    }
    int32_t i = 0;
    uint32_t guard = seg->pool_len + 1;
    for (int32_t s = seg->first; s != GRV_NIL && guard--; s = grv_link(seg, s)->next) {
        grv_slot *sl = grv_link(seg, s);
        const grv_slot_extra *e = grv_extra(seg, s);
        sl->index = i;
        int32_t j = e->before;
        if (j >= 0) {
            for (; j <= e->after && j < nc; j++) {
                grv_char *c = &seg->chars[j];
                if (c->before == -1 || i < c->before)
                    c->before = i;
                if (c->after < i)
                    c->after = i;
            }
        }
        i++;
    }
    guard = seg->pool_len + 1;
    for (int32_t s = seg->first; s != GRV_NIL && guard--; s = grv_link(seg, s)->next) {
        const grv_slot *sl = grv_link(seg, s);
        grv_slot_extra *e = grv_extra(seg, s);
        int32_t a;
        for (a = e->after + 1; a < nc && a >= 0 && seg->chars[a].after < 0; a++)
            seg->chars[a].after = sl->index;
        e->after = a - 1;
        for (a = e->before - 1; a >= 0 && a < nc && seg->chars[a].before < 0; a--)
            seg->chars[a].before = sl->index;
        e->before = a + 1;
    }
}

void grv_set_feature(grv_seg *seg, uint32_t index, int32_t value)
{
    if (index >= seg->face->num_features)
        return;
    uint32_t maxv = seg->face->features[index].max_value;
    uint32_t v = (uint32_t)value;
    if (v > maxv)
        v = maxv;
    seg->feats[index] = (int32_t)v;
}
