/* Public API: fv_gr_face (tables parsed and verified once) and fv_gr_shape. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "graphite/grv.h"
#include "sfnt/font.h"


const char *fv_gr_opcode_name(int opcode)
{
    if (opcode < 0 || opcode >= GRV_OP_COUNT)
        return NULL;
    return grv_ops[opcode].name;
}

void fv_gr_set_trace(fv_gr_face *face, fv_gr_trace_fn fn, void *user, uint64_t *op_counts)
{
    if (!face)
        return;
    face->trace = fn;
    face->trace_user = user;
    face->op_counts = op_counts;
}

fv_status grv_face_new(fv_font *font, fv_gr_face **out, int verify, fv_error *err);

fv_status fv_gr_face_new(fv_font *font, fv_gr_face **out, fv_error *err)
{
    return grv_face_new(font, out, 1, err);
}

/* Keeps the rule code, not the tables it came in.  What the face reads
 * after loading is copied out of graphite2's own tables (attributes,
 * octaboxes, features, languages, classes, FSM tables, decoded rules)
 * except the rule code's bytes, which the machine reads for Assoc's slot
 * list; so the tables the loader decompressed (LZ4: Awami Nastaliq's Silf
 * expands to 1,331,103 bytes, its Glat too) are freed, and the Silf's rule
 * code moves to a block of its own (Awami: 54,923 bytes), as graphite2
 * keeps its code and lets its tables go.  Nothing else points into them:
 * silf.data is cleared then (an uncompressed Silf stays the font's). */
static fv_status own_rule_code(fv_gr_face *face, fv_error *err)
{
    for (unsigned i = 0; i < GRV_TABLE_SLOTS; i++) {
        if (i == GRV_SLOT_SILF)
            continue;
        fv_mem_free(face->mem, face->decompressed[i]);
        face->decompressed[i] = NULL;
    }
    /* hmtx, glyf and loca are read at load only (load_metrics), and may
     * have pointed into the buffers just freed (F-39) */
    face->tables.hmtx = (fv_span){NULL, 0};
    face->tables.glyf = (fv_span){NULL, 0};
    face->tables.loca = (fv_span){NULL, 0};
    uint8_t *silf_bytes = face->decompressed[GRV_SLOT_SILF];
    if (!silf_bytes)
        return FV_OK; /* the code lies in the font's own bytes */
    grv_silf *silf = &face->silf;
    uint64_t total = 0;
    for (uint32_t i = 0; i < silf->num_passes; i++) {
        const grv_pass *p = &silf->passes[i];
        total += p->pass_constraint.code.len;
        for (uint32_t r = 0; r < p->num_rules; r++)
            total += (uint64_t)p->rules[r].constraint.code.len + p->rules[r].action.code.len;
    }
    /* (each span lies inside the subtable, so total is far below the cap) */
    uint8_t *own = total > SIZE_MAX / 2 ? NULL : fv_mem_alloc(face->mem, (size_t)(total ? total : 1));
    if (!own) {
        fv_error_clear(err);
        err->kind = FV_E_NOMEM;
        return FV_E_NOMEM;
    }
    size_t at = 0;
    for (uint32_t i = 0; i < silf->num_passes; i++) {
        grv_pass *p = &silf->passes[i];
        grv_code *codes[2];
        for (uint32_t r = 0; r <= p->num_rules; r++) {
            unsigned nc = 0;
            if (r == p->num_rules) {
                codes[nc++] = &p->pass_constraint;
            } else {
                codes[nc++] = &p->rules[r].constraint;
                codes[nc++] = &p->rules[r].action;
            }
            for (unsigned k = 0; k < nc; k++) {
                grv_code *c = codes[k];
                if (!c->code.len)
                    continue;
                memcpy(own + at, c->code.data, c->code.len);
                c->code.data = own + at;
                at += c->code.len;
            }
        }
    }
    silf->data.data = NULL;
    silf->data.len = 0;
    fv_mem_free(face->mem, silf_bytes);
    face->decompressed[GRV_SLOT_SILF] = own;
    return FV_OK;
}

/* verify = 0 loads without running the verifier (for the disassembler, so
 * that a rejected font can still be inspected). */
fv_status grv_face_new(fv_font *font, fv_gr_face **out, int verify, fv_error *err)
{
    fv_error scratch;
    if (!err)
        err = &scratch;
    fv_error_clear(err);
    if (!font || !out) {
        err->kind = FV_E_BAD_ARGUMENT;
        return FV_E_BAD_ARGUMENT;
    }
    fv_mem *mem = fv_font_mem(font);
    const sfnt_font *sf = fv_font_sfnt(font);
    fv_gr_face *face = fv_mem_calloc(mem, sizeof *face);
    if (!face) {
        err->kind = FV_E_NOMEM;
        return FV_E_NOMEM;
    }
    face->font = font;
    face->mem = mem;
    face->sfnt = sf;
    face->upem = sf->head.units_per_em;
    face->descent = sf->hhea.descender;
    fv_span silf, glat, gloc, feat, sill;
    fv_status st;
    /* Every table as graphite2 gets it from its caller (tables.c). */
    if (!grv_table(sf, SFNT_TAG_Silf, &silf)) {
        st = sfnt_fail(err, FV_E_MISSING_TABLE, SFNT_TAG_Silf, 0, "not a Graphite font");
        goto fail;
    }
    /* COMPAT(graphite2): head, hhea, hmtx, maxp, cmap, glyf and loca are
     * checked as graphite2 checks them (stricter than FreeType). */
    st = grv_sfnt_tables(face, err);
    if (st != FV_OK)
        goto fail;
    face->num_glyphs = face->tables.maxp_glyphs;
    /* COMPAT(graphite2): its own tables come through its decompressing
     * wrapper (tables.c), which leaves a table it cannot decode absent:
     * no Feat or Sill then, and no face without Silf, Glat or Gloc. */
    const char *dropped;
    st = grv_gr_table(face, SFNT_TAG_Silf, 0x00050000u, GRV_SLOT_SILF, &silf, &dropped, err);
    if (st == FV_OK && dropped)
        st = sfnt_fail(err, FV_E_GR_BAD_SILF, SFNT_TAG_Silf, 4, dropped);
    if (st == FV_OK)
        st = grv_gr_table(face, SFNT_TAG_Glat, 0x00030000u, GRV_SLOT_GLAT, &glat, &dropped, err);
    if (st == FV_OK && dropped)
        st = sfnt_fail(err, FV_E_GR_BAD_GLAT, SFNT_TAG_Glat, 4, dropped);
    if (st == FV_OK)
        st = grv_gr_table(face, SFNT_TAG_Gloc, 0xffffffffu, GRV_SLOT_GLOC, &gloc, &dropped, err);
    if (st == FV_OK && dropped)
        st = sfnt_fail(err, FV_E_GR_BAD_GLAT, SFNT_TAG_Gloc, 4, dropped);
    if (st == FV_OK)
        st = grv_gr_table(face, SFNT_TAG_Feat, 0xffffffffu, GRV_SLOT_FEAT, &feat, &dropped, err);
    if (st == FV_OK)
        st = grv_gr_table(face, SFNT_TAG_Sill, 0xffffffffu, GRV_SLOT_SILL, &sill, &dropped, err);
    if (st != FV_OK)
        goto fail;
    st = grv_glat_load(face, glat, gloc, err);
    if (st != FV_OK)
        goto fail;
    st = grv_feat_load(face, feat, err);
    if (st != FV_OK)
        goto fail;
    st = grv_sill_load(face, sill, err);
    if (st != FV_OK)
        goto fail;
    st = grv_silf_load(face, silf, err);
    if (st != FV_OK)
        goto fail;
    if (verify) {
        st = grv_silf_verify(face, err);
        if (st != FV_OK)
            goto fail;
    }
    st = grv_cmap_load(face, err);
    if (st == FV_OK)
        st = own_rule_code(face, err);
    if (st != FV_OK)
        goto fail;
    *out = face;
    return FV_OK;
fail:
    fv_gr_face_free(face);
    return st;
}

void fv_gr_face_free(fv_gr_face *face)
{
    if (!face)
        return;
    fv_mem *mem = face->mem;
    grv_silf_free(face);
    grv_feat_free(face);
    fv_mem_free(mem, face->glyphs);
    fv_mem_free(mem, face->attrs);
    fv_mem_free(mem, face->attr_col);
    fv_mem_free(mem, face->attr_base);
    fv_mem_free(mem, face->attr_groups);
    fv_mem_free(mem, face->attr_values);
    fv_mem_free(mem, face->octaboxes);
    fv_mem_free(mem, face->subboxes);
    for (unsigned i = 0; i < GRV_TABLE_SLOTS; i++)
        fv_mem_free(mem, face->decompressed[i]);
    fv_mem_free(mem, face->cmap_bmp);
    fv_mem_free(mem, face);
}

static uint32_t find_pseudo(const grv_silf *silf, uint32_t u)
{
    for (uint32_t i = 0; i < silf->num_pseudo; i++)
        if (silf->pseudos[i].unicode == u)
            return silf->pseudos[i].gid;
    return 0;
}

/* The character block (seg->chars) holds the characters, the feature values and, at
 * this offset, room for fv_gr_shape's result header (a few dozen bytes, so
 * that the result needs no block of its own: fv_gr_shape). */
static size_t result_head_at(size_t nchars, uint32_t num_features)
{
    size_t at = nchars * sizeof(grv_char) + (size_t)num_features * sizeof(int32_t);
    return (at + _Alignof(fv_gr_segment) - 1) & ~(size_t)(_Alignof(fv_gr_segment) - 1);
}

static void seg_free(grv_seg *seg)
{
    grv_free_pool(seg);
    fv_mem_free(seg->mem, seg->chars);
    fv_mem_free(seg->mem, seg->coll);
}

static void init_features(const fv_gr_face *face, grv_seg *seg, const fv_gr_shape_request *req)
{
    grv_features_for_lang(face, req->lang, seg->feats);
    for (size_t k = 0; k < req->num_features; k++) {
        for (uint32_t i = 0; i < face->num_features; i++) {
            if (face->features[i].id == req->features[k].id)
                grv_feature_set(&face->features[i], &seg->feats[i], req->features[k].value);
        }
    }
}

/* A request fv_gr_shape refuses before shaping, with what was wrong. */
static fv_status bad_request(fv_error *err, const char *fmt, ...)
{
    va_list ap;
    err->kind = FV_E_BAD_ARGUMENT;
    va_start(ap, fmt);
    vsnprintf(err->detail, sizeof err->detail, fmt, ap);
    va_end(ap);
    return FV_E_BAD_ARGUMENT;
}

void grv_seg_release(grv_seg *seg)
{
    if (seg && seg->mem)
        seg_free(seg);
    if (seg)
        memset(seg, 0, sizeof *seg);
}

/* The slots fv_gr_shape reserves for a text of n characters: the text,
 * an eighth more and POOL_FIXED_SPARE, which covers every segment of the
 * default corpus but Awami Nastaliq's and general.ttf's, and what the
 * face's segments needed beyond that so far (face->pool_spare): Awami's
 * lines need up to 1.81 times their text (of its 2,041 lines in the
 * default bench jobs 459 grew with the fixed reservation, 1 with this). */
#define POOL_FIXED_SPARE 14
static uint32_t pool_reservation(fv_gr_face *face, uint32_t n)
{
    uint64_t spare = atomic_load_explicit(&face->pool_spare, memory_order_relaxed);
    return (uint32_t)(n + n / 8 + POOL_FIXED_SPARE + (((uint64_t)n * spare) >> 8));
}

/* After a segment made: raises face->pool_spare to what it needed beyond
 * its text and POOL_FIXED_SPARE (per 256 characters, at most 256: a segment
 * that grows further, as general.ttf's to the insert limit, grows). */
static void learn_pool_spare(fv_gr_face *face, const grv_seg *seg)
{
    uint32_t n = seg->num_chars;
    if (n == 0 || seg->pool_len <= n + POOL_FIXED_SPARE)
        return;
    uint64_t need = (((uint64_t)seg->pool_len - n - POOL_FIXED_SPARE) << 8) / n;
    uint32_t want = need > 256 ? 256u : (uint32_t)need;
    uint32_t have = atomic_load_explicit(&face->pool_spare, memory_order_relaxed);
    while (want > have && !atomic_compare_exchange_weak_explicit(&face->pool_spare, &have, want,
                                                                 memory_order_relaxed,
                                                                 memory_order_relaxed)) {
    }
}

fv_status grv_shape_segment(fv_gr_face *face, const fv_gr_shape_request *req,
                            const grv_font *font, grv_seg *segp, fv_error *err)
{
    fv_error scratch;
    if (!err)
        err = &scratch;
    fv_error_clear(err);
    if (segp)
        memset(segp, 0, sizeof *segp);
    if (!face || !req || !segp || (req->length && !req->text) ||
        (req->num_features && !req->features)) {
        err->kind = FV_E_BAD_ARGUMENT;
        return FV_E_BAD_ARGUMENT;
    }
    if (req->length > GRV_MAX_TEXT)
        return bad_request(err, "text of %zu code points (at most %u)", req->length,
                           GRV_MAX_TEXT);
    /* COMPAT(graphite2): gr_seg_justify takes any float width and its
     * int(float) casts are undefined past the int range; we refuse what no
     * line layout asks for instead (NaN, infinities, negative or above
     * 100 times the natural width; the CLI's --justify has the same bound). */
    if (!(req->justify_percent >= 0 && req->justify_percent <= GRV_MAX_JUSTIFY_PERCENT))
        return bad_request(err, "justify_percent %g (0 = off, at most %d)",
                           (double)req->justify_percent, GRV_MAX_JUSTIFY_PERCENT);
    fv_status st = FV_OK;
    const grv_silf *silf = &face->silf;
    grv_seg seg;
    memset(&seg, 0, sizeof seg);
    seg.face = face;
    seg.mem = face->mem;
    seg.first = seg.last = GRV_NIL;
    seg.cur_pass = -1;
    /* graphite2's gr_bidirtl bits: 1 rtl, 2 no bidi, 4 no mirroring */
    seg.dir = (uint8_t)((uint32_t)req->rtl & 7u);
    seg.pass_bits = silf->attr_skip_passes ? 0xffffffffu : 0;
    if (req->trace || req->op_counts) {
        seg.trace = req->trace;
        seg.trace_user = req->trace_user;
        seg.op_counts = req->op_counts;
    } else {
        seg.trace = face->trace;
        seg.trace_user = face->trace_user;
        seg.op_counts = face->op_counts;
    }
    seg.num_chars = (uint32_t)req->length;
    seg.steps_limit = grv_budget_segment_steps(seg.num_chars);
    /* what the work outside the passes spends (each pass has its own) */
    fv_budget_start(&seg.budget, (int64_t)seg.steps_limit, 0);
    /* One block for the characters and the feature values, one for the
     * pool (pool_reservation: growing slot by slot was
     * most of the per-segment set-up), none of it cleared: every character
     * is written below, every feature by init_features, every slot as
     * grv_new_slot hands it out.  Per-segment allocations were 6% of
     * shaping short lines (callgrind, Padauk my_HeadwordSyllables.txt). */
    _Static_assert(sizeof(grv_char) % sizeof(int32_t) == 0, "features follow the characters");
    size_t nchars = req->length ? req->length : 1;
    seg.chars = fv_mem_alloc(seg.mem, result_head_at(nchars, face->num_features) +
                                          sizeof(fv_gr_segment));
    seg.feats = seg.chars ? (int32_t *)(void *)(seg.chars + nchars) : NULL;
    if (!seg.chars || !grv_reserve_slots(&seg, pool_reservation(face, seg.num_chars))) {
        st = FV_E_NOMEM;
        err->kind = st;
        goto done;
    }
    init_features(face, &seg, req);
    for (uint32_t i = 0; i < seg.num_chars; i++) {
        uint32_t u = req->text[i];
        uint32_t gid = grv_cmap_lookup(face, u);
        if (!gid)
            gid = find_pseudo(silf, u);
        grv_char *c = &seg.chars[i];
        c->unicode = u;
        c->base = (int32_t)i;
        c->before = c->after = (int32_t)i;
        c->flags = 0;
        c->break_weight = gid < face->num_glyphs ? grv_glyph_attr(face, gid, silf->attr_break) : 0;
        int32_t s = grv_new_slot(&seg);
        if (s == GRV_NIL) {
            st = FV_E_NOMEM;
            err->kind = st;
            goto done;
        }
        grv_slot *sl = grv_link(&seg, s);
        sl->original = (int32_t)i;
        grv_extra(&seg, s)->before = grv_extra(&seg, s)->after = (int32_t)i;
        grv_set_glyph(&seg, s, gid);
        sl->prev = seg.last;
        if (seg.last != GRV_NIL)
            grv_link(&seg, seg.last)->next = s;
        else
            seg.first = s;
        seg.last = s;
        seg.slot_count++;
    }
    /* COMPAT(graphite2): a font without a bidi pass is mirrored before its
     * first pass (Awami Nastaliq, direction 3: `(` becomes `)`). */
    if (silf->i_bidi == 0xff)
        grv_mirror_slots(&seg);
    if (silf->num_passes)
        st = grv_run_passes(&seg, 0, silf->i_pos, 1, err);
    if (st != FV_OK)
        goto done;
    /* COMPAT(graphite2): characters are associated with slots once, after
     * the substitution passes, and never again: the char table keeps the
     * slot indexes of that moment (a later reversal or positioning pass
     * does not renumber them) and a positioning pass's Assoc changes only
     * the slot's own before/after (F-1, F-6, KD-4). */
    grv_associate_chars(&seg);
    if (silf->num_passes)
        st = grv_run_passes(&seg, silf->i_pos, silf->num_passes, 0, err);
    if (st != FV_OK)
        goto done;
    seg.cur_pass = -1;
    /* positioning and justification spend what the passes left of the
     * segment's budget (graphite2's loops are bounded by the slots, but
     * justification may walk them 1,000 times) */
    fv_budget_start(&seg.budget,
                    (int64_t)(seg.steps_limit > seg.steps ? seg.steps_limit - seg.steps : 0), 0);
    seg.budget_stage = "positioning";
    /* finalise: position everything, restore the logical direction.
     * COMPAT(graphite2): positioning takes the font as right to left when
     * its direction is not 0, while the bidi step and the passes test bit 0
     * (KD-20: Conakry's direction 2 reverses the stream here, and marks
     * after the first base fall outside the walk). */
    seg.font = font;
    grv_position_slots(&seg, seg.first, seg.last, silf->direction != 0, &seg.advx, &seg.advy);
    seg.font = NULL;
    if (grv_currdir(&seg) != (seg.dir & 1))
        grv_reverse_slots(&seg);
    grv_link_clusters(&seg);
    st = grv_budget_status(&seg, err);
    if (st != FV_OK)
        goto done;
    seg.budget_stage = "justification";
    if (req->justify_percent > 0)
        seg.advx = grv_justify(&seg, seg.advx * req->justify_percent / 100.0f);
    st = grv_budget_status(&seg, err);
    if (st != FV_OK)
        goto done;
    st = grv_link_status(&seg, err);
    if (st != FV_OK)
        goto done;
done:
    if (st != FV_OK) {
        seg_free(&seg);
        return st;
    }
    learn_pool_spare(face, &seg);
    *segp = seg;
    return FV_OK;
}

/* What number_stream found out about the stream. */
enum {
    STREAM_REORDERED = 1,  /* it does not visit the pool forwards */
    STREAM_ATTACHED = 2,   /* some slot has a parent */
    STREAM_GAPS = 4        /* forwards, but not over positions 0 .. n-1 */
};

/* Numbers the stream's slots 0, 1, ... in their `index` (what the result
 * reports) and counts them in *count; returns STREAM_* flags. */
static unsigned number_stream(grv_seg *seg, uint32_t *count)
{
    uint32_t n = 0, guard = seg->pool_len; /* so n <= pool_len */
    int32_t last = -1;
    int32_t parents = GRV_NIL; /* stays GRV_NIL (all ones) while no slot has a parent */
    uint32_t back = 0;
    for (int32_t s = seg->first; s != GRV_NIL && guard--;) {
        grv_slot *sl = grv_link(seg, s);
        sl->index = (int32_t)n++;
        back |= (uint32_t)(s <= last);
        parents &= sl->parent;
        last = s;
        s = sl->next;
    }
    *count = n;
    return (back ? STREAM_REORDERED : (uint32_t)last + 1 != n ? STREAM_GAPS : 0u) |
           (parents != GRV_NIL ? STREAM_ATTACHED : 0u);
}

/* Each stream slot's parent link becomes the parent's number (-1: none),
 * the result's attached_to: the slots are moved and converted after this,
 * and links name pool positions.  Nothing follows a parent link again. */
static void resolve_parents(grv_seg *seg, uint32_t n)
{
    int32_t s = seg->first;
    for (uint32_t k = 0; k < n && s != GRV_NIL; k++) {
        grv_slot *sl = grv_link(seg, s);
        sl->parent = sl->parent != GRV_NIL ? grv_link(seg, sl->parent)->index : -1;
        s = sl->next;
    }
}

/* A stream that visits the pool forwards with gaps (slots freed or
 * deleted between): slot number k moves down to position k, with its
 * extras; a slot moved never lands on one still to move. */
static void compact_pool(grv_seg *seg, uint32_t n)
{
    int32_t s = seg->first;
    for (uint32_t k = 0; k < n && s != GRV_NIL; k++) {
        const grv_slot *sl = grv_link(seg, s);
        int32_t next = sl->next;
        if ((uint32_t)s != k) {
            seg->slots[k] = *sl;
            seg->extras[k] = *grv_extra(seg, s);
        }
        s = next;
    }
}

/* Moves slot number k (number_stream) and its extras to pool position k,
 * for every k: a cycle sort, each swap putting one slot in its place.
 * Slots outside the stream (freed, deleted, temporary copies) are marked
 * -1 first and end up anywhere at or after the stream's end.  The links
 * are stale afterwards: fv_gr_shape then reads positions 0 .. n-1. */
static void sort_pool_by_stream(grv_seg *seg)
{
    for (uint32_t p = 0; p < seg->pool_len; p++)
        seg->slots[p].index = -1;
    uint32_t n;
    (void)number_stream(seg, &n);
    uint64_t swaps = n; /* each swap places a slot for good */
    for (uint32_t p = 0; p < seg->pool_len; p++) {
        for (;;) {
            int32_t d = seg->slots[p].index;
            if (d < 0 || (uint32_t)d == p || FV_NEVER((uint32_t)d >= seg->pool_len) ||
                FV_NEVER(swaps == 0))
                break;
            swaps--;
            grv_slot t = seg->slots[d];
            seg->slots[d] = seg->slots[p];
            seg->slots[p] = t;
            grv_slot_extra te = seg->extras[d];
            seg->extras[d] = seg->extras[p];
            seg->extras[p] = te;
        }
    }
}

/* Whether record k (fv_gr_shape writes records over the pool's slots)
 * and slot k share no byte: from a small k on (16 for 68-byte records
 * over 64-byte slots) they do not, and the record is written field by
 * field. */
static inline int record_clear_of_slot(uint32_t k)
{
    uint64_t r = (uint64_t)k * sizeof(fv_gr_slot_info), s = (uint64_t)k * sizeof(grv_slot);
    return r >= s + sizeof(grv_slot) || s >= r + sizeof(fv_gr_slot_info);
}

/* The result's record of slot `sl` with extras `e`, neither of which may
 * overlap `o`. */
static inline void slot_record(fv_gr_slot_info *restrict o, const grv_slot *restrict sl,
                               const grv_slot_extra *restrict e, const grv_seg *seg,
                               unsigned stream)
{
    /* graphite2 reports the real glyph of a pseudo glyph */
    o->gid = sl->realgid ? sl->realgid : sl->gid;
    o->x = sl->posx;
    o->y = sl->posy;
    /* the parent's number (resolve_parents), if any slot has one */
    o->attached_to = (stream & STREAM_ATTACHED) ? sl->parent : -1;
    o->insert = !(sl->flags & GRV_SF_NOINSERT);
    o->break_weight = (sl->original >= 0 && (uint32_t)sl->original < seg->num_chars)
                          ? seg->chars[sl->original].break_weight
                          : 0;
    o->before = e->before;
    o->after = e->after;
    o->attach_x = e->attx;
    o->attach_y = e->atty;
    o->with_x = e->withx;
    o->with_y = e->withy;
    o->advance_x = sl->advx;
    o->advance_y = sl->advy;
    o->original = sl->original;
    o->last_pass = sl->last_pass;
    o->last_rule = sl->last_rule;
}

fv_status fv_gr_shape(fv_gr_face *face, const fv_gr_shape_request *req, fv_gr_segment **out,
                      fv_error *err)
{
    fv_error scratch;
    if (!err)
        err = &scratch;
    if (!out) {
        fv_error_clear(err);
        err->kind = FV_E_BAD_ARGUMENT;
        return FV_E_BAD_ARGUMENT;
    }
    *out = NULL;
    grv_seg seg;
    fv_status st = grv_shape_segment(face, req, NULL, &seg, err);
    if (st != FV_OK)
        return st;
    /* The result is made in place of the segment's own memory where it
     * fits, so that shaping never holds a copy of its slots (the result
     * was the third block of a segment's peak: charis_r_gr latin.txt
     * 25,080 -> 17,808 bytes): the slots, once in stream order, become the
     * result's records in the pool's block, and the character block its
     * characters, with the result's header in the room left for it
     * (result_head_at).  The result keeps the pool's whole block until
     * fv_gr_segment_free, as graphite2's segments keep their slots. */
    _Static_assert(sizeof(grv_char) == sizeof(fv_gr_char_info), "characters convert in place");
    uint32_t n;
    unsigned stream = number_stream(&seg, &n);
    if (stream & STREAM_ATTACHED)
        resolve_parents(&seg, n);
    if (stream & STREAM_REORDERED)
        sort_pool_by_stream(&seg);
    else if (stream & STREAM_GAPS)
        compact_pool(&seg, n);
    /* slot k and its extras now lie at pool position k */
    size_t head_at = result_head_at(seg.num_chars ? seg.num_chars : 1, face->num_features);
    fv_gr_segment *res = (fv_gr_segment *)(void *)((unsigned char *)seg.chars + head_at);
    memset(res, 0, sizeof *res);
    res->num_slots = n;
    res->num_chars = seg.num_chars;
    if ((uint64_t)n * sizeof(fv_gr_slot_info) <= (uint64_t)seg.pool_cap * sizeof(grv_slot)) {
        /* Records over the slots, last first: record k starts at or after
         * slot k (a record is not smaller than a slot), so it never reaches
         * a slot below k, which are the ones still to read; the records
         * end within the slots, before the extras. */
        _Static_assert(sizeof(fv_gr_slot_info) >= sizeof(grv_slot), "records cover their slots");
        _Static_assert(_Alignof(fv_gr_slot_info) <= _Alignof(grv_slot), "records replace slots");
        res->slots = (fv_gr_slot_info *)(void *)seg.slots;
        for (uint32_t k = n; k-- > 0;) {
            const grv_slot *sl = grv_link(&seg, (int32_t)k);
            const grv_slot_extra *e = grv_extra(&seg, (int32_t)k);
            if (record_clear_of_slot(k)) {
                slot_record(&res->slots[k], sl, e, &seg, stream);
            } else {
                /* the record overlaps its own slot: read it all first */
                fv_gr_slot_info o;
                slot_record(&o, sl, e, &seg, stream);
                memcpy(&res->slots[k], &o, sizeof o);
            }
        }
        seg.slots = NULL; /* the result's now */
        seg.extras = NULL;
        seg.words = NULL;
        seg.pool_len = seg.pool_cap = 0;
    } else {
        /* a stream that fills the pool (inserted slots): a block of its own */
        res->slots = fv_mem_alloc(seg.mem, (size_t)(n ? n : 1) * sizeof(fv_gr_slot_info));
        if (!res->slots) {
            st = FV_E_NOMEM;
            err->kind = st;
            goto done;
        }
        for (uint32_t k = 0; k < n; k++)
            slot_record(&res->slots[k], grv_link(&seg, (int32_t)k), grv_extra(&seg, (int32_t)k),
                        &seg, stream);
    }
    /* The characters become the result's in place too (same size, one
     * element at a time through locals), after the slots have read them. */
    fv_gr_char_info *out_chars = (fv_gr_char_info *)(void *)seg.chars;
    for (uint32_t i = 0; i < seg.num_chars; i++) {
        grv_char c = seg.chars[i];
        fv_gr_char_info o;
        o.before = c.before;
        o.after = c.after;
        o.base = c.base;
        o.unicode = c.unicode;
        o.break_weight = c.break_weight;
        memcpy(&out_chars[i], &o, sizeof o);
    }
    res->chars = out_chars;
    seg.chars = NULL; /* the result's now */
    res->steps = seg.steps + fv_budget_used(&seg.budget);
    res->max_pass_steps = seg.pass_steps_max;
    res->advance_x = seg.advx;
    res->advance_y = seg.advy;
    *out = res;
done:
    seg_free(&seg);
    return st;
}

void fv_gr_segment_free(fv_gr_face *face, fv_gr_segment *seg)
{
    if (!face || !seg)
        return;
    fv_mem_free(face->mem, seg->slots); /* the slot pool, converted, or a block */
    /* last: the header lies in the character block (fv_gr_shape) */
    fv_mem_free(face->mem, seg->chars);
}
