/* Justification: graphite2's Segment::justify (level 0 and the Silf
 * justification levels; no line-end contextual slots), and the slots'
 * justification attributes it reads and writes. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common/check.h"
#include "common/convert.h"
#include "graphite/grv.h"

int32_t grv_get_justify(grv_seg *seg, int32_t si, unsigned level, unsigned sub)
{
    grv_slot *s = grv_sl(seg, si);
    const grv_silf *silf = &seg->face->silf;
    if (!s || sub > 4 || level >= GRV_MAX_JLEVELS || (level && level >= silf->num_jlevels))
        return 0;
    const int16_t *just = grv_slot_words(seg, si) + silf->num_user;
    if (just[0])
        return just[1 + level * 5 + sub];
    if (level >= silf->num_jlevels || sub == 4)
        return 0;
    return grv_glyph_attr(seg->face, s->gid, silf->jattr[level][sub]);
}

void grv_set_justify(grv_seg *seg, int32_t si, unsigned level, unsigned sub, int32_t value)
{
    grv_slot *s = grv_sl(seg, si);
    const grv_silf *silf = &seg->face->silf;
    if (!s || sub > 4 || level >= GRV_MAX_JLEVELS || (level && level >= silf->num_jlevels))
        return;
    int16_t *just = grv_slot_words(seg, si) + silf->num_user;
    if (!just[0]) {
        memset(just, 0, grv_just_words(silf) * sizeof(int16_t));
        for (unsigned l = 0; l < silf->num_jlevels && l < GRV_MAX_JLEVELS; l++)
            for (unsigned k = 0; k < 4; k++)
                just[1 + l * 5 + k] = grv_glyph_attr(seg->face, s->gid, silf->jattr[l][k]);
        just[0] = 1;
    }
    just[1 + level * 5 + sub] = (int16_t)value;
}

/* Base slots are chained through `sibling` in visual order (graphite2's
 * linkClusters), which justification walks. */
void grv_link_clusters(grv_seg *seg)
{
    int32_t s = seg->first;
    uint32_t guard = seg->pool_len + 1;
    while (s != GRV_NIL && grv_link(seg, s)->parent != GRV_NIL && guard--)
        s = grv_link(seg, s)->next;
    int32_t ls = s;
    guard = seg->pool_len + 1;
    for (; s != GRV_NIL && guard--; s = grv_link(seg, s)->next) {
        if (grv_link(seg, s)->parent != GRV_NIL)
            continue;
        /* graphite2's Slot::sibling refuses to link a slot to itself */
        if (ls == s)
            ;
        else if (seg->dir & 1)
            grv_link(seg, s)->sibling = ls;
        else
            grv_link(seg, ls)->sibling = s;
        ls = s;
    }
}

static int is_whitespace(uint32_t u)
{
    return u == 0x20 || u == 0xA0 || u == 0x1680 || u == 0x180E || (u >= 0x2000 && u <= 0x200A) ||
           u == 0x2028 || u == 0x2029 || u == 0x202F || u == 0x205F || u == 0x3000;
}

static int32_t next_sib(grv_seg *seg, int32_t s)
{
    return s == GRV_NIL ? GRV_NIL : grv_link(seg, s)->sibling;
}

int grv_justify_against(const grv_seg *seg)
{
    const grv_silf *silf = &seg->face->silf;
    return (seg->dir & 1) != (silf->direction & 1) && silf->i_bidi != silf->num_passes;
}

static int32_t cluster_base(grv_seg *seg, int32_t s)
{
    for (int d = 0; grv_link(seg, s)->parent != GRV_NIL && d < GRV_MAX_DEPTH; d++)
        s = grv_link(seg, s)->parent;
    return s;
}

/* A slot's links and place, kept while the justified line is positioned. */
typedef struct {
    int32_t next, prev;
    float posx, posy;
} kept_slot;

/* Positions the justified line from pslot to plast and returns its advance;
 * `against`: the stream was reversed for justification, and is reversed
 * back here.
 * COMPAT(graphite2): the line is positioned right to left whenever any
 * bit of the segment's direction is set: gr_rtl, but also gr_nobidi,
 * gr_nomirror and the reversal for justification.  A left-to-right line
 * positioned so is reversed for the walk (with seg->first and seg->last
 * set to the line's ends, grv_reverse_slots) and walked back from its
 * first slot: a mark that is not attached is visited before the slot it
 * follows, a slot it follows at the line's start is not visited and keeps
 * its place, and attachment offsets (shift.x) count right to left.
 * Measured with C probes on Padauk, gr_nobidi, no font and 12 ppm: "က ဍု
 * က" (U+100D U+102F: glyphs 140 and 212, not attached) asked 150% gives
 * 212 before 140; "ဍု" alone is not moved and 0 is returned
 * (compat/graphite2/README.md).
 * Where graphite2's reversal never ends (it hangs: "ကိ ကိ" with gr_nobidi,
 * conformance/known.toml gr2-justify-line-reversal) the line keeps its
 * places and order and 0 is returned. */
static float position_line(grv_seg *seg, int32_t pslot, int32_t plast, int against)
{
    const int rtl = seg->dir != 0;
    kept_slot *kept = NULL;
    const uint8_t dir = seg->dir;
    const int32_t first = seg->first, last = seg->last;
    if (grv_currdir(seg) != rtl || against) {
        /* the walk or the end reverses the line: keep what a reversal that
         * does not end would break */
        kept = fv_mem_array(seg->mem, seg->pool_len ? seg->pool_len : 1, sizeof *kept);
        if (!kept)
            return 0;
        for (uint32_t i = 0; i < seg->pool_len; i++)
            kept[i] = (kept_slot){seg->slots[i].next, seg->slots[i].prev, seg->slots[i].posx,
                                  seg->slots[i].posy};
    }
    float ax, ay;
    seg->first = pslot;
    seg->last = plast;
    int done = grv_position_slots(seg, pslot, plast, rtl, &ax, &ay);
    /* COMPAT(graphite2): the stream's ends are set back as they were, even
     * where the walk's reversals left the slots in another order */
    seg->first = first;
    seg->last = last;
    if (done && against)
        done = grv_reverse_slots(seg);
    if (!done && kept) {
        for (uint32_t i = 0; i < seg->pool_len; i++) {
            seg->slots[i].next = kept[i].next;
            seg->slots[i].prev = kept[i].prev;
            seg->slots[i].posx = kept[i].posx;
            seg->slots[i].posy = kept[i].posy;
        }
        seg->dir = dir;
        if (against)
            (void)grv_reverse_slots(seg); /* the whole stream, as it was */
        ax = 0;
    }
    fv_mem_free(seg->mem, kept);
    return ax;
}

float grv_justify(grv_seg *seg, float width)
{
    const grv_silf *silf = &seg->face->silf;
    const fv_gr_face *face = seg->face;
    if (seg->first == GRV_NIL)
        return 0;
    if (width < 0 && !silf->flags)
        return width;
    /* the line is measured in design units: positions made with a font
     * are divided by its scale (graphite2 does so, in floats) */
    const float scale = seg->font ? seg->font->scale : 1.0f;
    /* COMPAT(graphite2): a segment that runs against its font's direction
     * is reversed for justification, and the line then runs from the
     * caller's first slot, now at the line's end, to the stream's new last
     * slot: for most lines the first cluster alone, which is positioned
     * from 0 and whose advance is returned, while the rest of the line
     * keeps its places and gets nothing (measured with gr2fonttest -j, 90%
     * to 150%: Padauk, charis, Annapurna right to left; Awami Nastaliq,
     * Scheherazade, Harmattan left to right).  A first slot that is a
     * non-spacing mark stays first in the reversed stream, and the walk
     * back from it (position_line) positions nothing: 0 (Awami Nastaliq
     * left to right, issue 17; 12 of 13 ppm lines of urdu.txt's first 3
     * differed before). */
    const int against = grv_justify_against(seg);
    const int32_t pslot = seg->first;
    if (against)
        grv_reverse_slots(seg);
    int32_t pfirst = cluster_base(seg, pslot), plast = cluster_base(seg, seg->last);
    float base = grv_link(seg, pfirst)->posx / scale;
    float curr = 0;
    /* complete line: skip trailing glyphs graphite2 treats as empty */
    uint32_t guard = seg->pool_len + 1;
    while (plast != pfirst && plast != GRV_NIL && guard--) {
        uint16_t g = grv_link(seg, plast)->gid;
        grv_glyph gb = g < face->num_glyphs ? face->glyphs[g] : (grv_glyph){0, 0, 0, 0, 0};
        if (gb.x_min != 0 || gb.y_min != 0 || gb.x_max != 0 || gb.y_max == 0)
            break;
        plast = grv_link(seg, plast)->prev;
    }
    int32_t end = plast != GRV_NIL ? next_sib(seg, plast) : GRV_NIL;
    pfirst = next_sib(seg, pfirst);
    unsigned levels = silf->num_jlevels < GRV_MAX_JLEVELS ? silf->num_jlevels : GRV_MAX_JLEVELS;
    if (!levels) {
        int count = 0;
        guard = seg->pool_len + 1;
        for (int32_t s = pslot; s != GRV_NIL && s != end && guard--; s = next_sib(seg, s)) {
            int32_t b = grv_extra(seg, s)->before;
            if (b >= 0 && (uint32_t)b < seg->num_chars && is_whitespace(seg->chars[b].unicode)) {
                grv_set_justify(seg, s, 0, 3, 1);
                grv_set_justify(seg, s, 0, 2, 1);
                grv_set_justify(seg, s, 0, 0, -1);
                count++;
            }
        }
        if (!count) {
            guard = seg->pool_len + 1;
            for (int32_t s = pslot; s != GRV_NIL && s != end && guard--; s = next_sib(seg, s)) {
                grv_set_justify(seg, s, 0, 3, 1);
                grv_set_justify(seg, s, 0, 2, 1);
                grv_set_justify(seg, s, 0, 0, -1);
            }
        }
        levels = 1;
    }
    /* 64-bit sums: int16 weights over up to 64 x GRV_MAX_TEXT slots */
    int64_t tweight[GRV_MAX_JLEVELS] = {0};
    guard = seg->pool_len + 1;
    for (int32_t s = pfirst; s != GRV_NIL && s != end && guard--; s = next_sib(seg, s)) {
        float w = grv_link(seg, s)->posx / scale + grv_link(seg, s)->advx - base;
        if (w > curr)
            curr = w;
        for (unsigned j = 0; j < levels; j++)
            tweight[j] += grv_get_justify(seg, s, j, 3);
        grv_extra(seg, s)->just = 0;
    }
    for (int i = width < 0 ? -1 : (int)levels - 1; i >= 0; i--) {
        int64_t tw = tweight[i];
        if (tw == 0)
            continue;
        float error, diff, diffpw;
        int rounds = 0;
        do {
            error = 0;
            diff = width - curr;
            diffpw = diff / (float)tw;
            tw = 0;
            guard = seg->pool_len + 1;
            for (int32_t s = pfirst; s != GRV_NIL && s != end && guard--; s = next_sib(seg, s)) {
                /* checked once per round below: a round is one walk */
                (void)fv_budget_spend(&seg->budget, GRV_JUSTIFY_STEPS_PER_SLOT);
                grv_slot_extra *sl = grv_extra(seg, s);
                int32_t w = grv_get_justify(seg, s, (unsigned)i, 3);
                float pref = diffpw * (float)w + error;
                int32_t step = grv_get_justify(seg, s, (unsigned)i, 2);
                if (!step)
                    step = 1;
                if (pref > 0) {
                    float mx = (float)(uint16_t)grv_get_justify(seg, s, (unsigned)i, 0);
                    if (i == 0)
                        mx -= sl->just;
                    if (pref > mx)
                        pref = mx;
                    else
                        tw += w;
                } else {
                    float mx = (float)(uint16_t)grv_get_justify(seg, s, (unsigned)i, 1);
                    if (i == 0)
                        mx += sl->just;
                    if (-pref > mx)
                        pref = -mx;
                    else
                        tw += w;
                }
                int32_t actual = fv_i32_mul_sat(fv_f32_to_i32(pref / (float)step), step);
                if (actual) {
                    error += diffpw * (float)w - (float)actual;
                    if (i == 0)
                        sl->just += (float)actual;
                    else
                        grv_set_justify(seg, s, (unsigned)i, 4, actual);
                }
            }
            curr += diff - error;
            if (FV_UNLIKELY(seg->budget.left < 0)) {
                if (against)
                    grv_reverse_slots(seg);
                return 0; /* the caller fails the segment with budget_steps */
            }
        } while (i == 0 && fv_f32_to_i32(fabsf(error)) > 0 && tw && ++rounds < GRV_JUSTIFY_ROUNDS);
    }
    return position_line(seg, pslot, plast, against);
}
