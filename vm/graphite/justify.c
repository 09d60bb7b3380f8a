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

float grv_justify(grv_seg *seg, float width)
{
    const grv_silf *silf = &seg->face->silf;
    const fv_gr_face *face = seg->face;
    int32_t first = seg->first, last = seg->last;
    if (first == GRV_NIL)
        return 0;
    if (width < 0 && !silf->flags)
        return width;
    /* COMPAT(graphite2): a segment that runs against its font's direction
     * (an rtl segment in an ltr font, an ltr one in an rtl font) is
     * justified as its first cluster alone: nothing is distributed, that
     * cluster is positioned from 0 and its advance is returned, and the
     * rest of the line keeps its places.  Measured with gr2fonttest -j
     * (90% to 150%, corpus lines 1-7): Padauk, charis, Annapurna right to
     * left, 14 of 70 lines identical when the line was reversed and
     * justified whole, all 70 now (graphite_justify_against_direction);
     * Awami Nastaliq, Scheherazade, Harmattan left to right, every position
     * identical, but on some lines graphite2 returns another width (0 where
     * the line starts with an attached mark): open, issue 17.  (graphite2
     * does the same on some gr_nobidi lines at a scaled size, not
     * reproduced: compat/graphite2/README.md.) */
    const int against = grv_justify_against(seg);
    int32_t pslot = first, pfirst = first, plast = last;
    for (int d = 0; grv_link(seg, pfirst)->parent != GRV_NIL && d < GRV_MAX_DEPTH; d++)
        pfirst = grv_link(seg, pfirst)->parent;
    for (int d = 0; grv_link(seg, plast)->parent != GRV_NIL && d < GRV_MAX_DEPTH; d++)
        plast = grv_link(seg, plast)->parent;
    float base = grv_link(seg, pfirst)->posx;
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
    const int32_t first_cluster = pfirst;
    pfirst = next_sib(seg, pfirst);
    if (against) {
        pfirst = GRV_NIL; /* nothing to distribute over */
        end = GRV_NIL;
    }
    unsigned levels = silf->num_jlevels < GRV_MAX_JLEVELS ? silf->num_jlevels : GRV_MAX_JLEVELS;
    if (!levels) {
        int count = 0;
        guard = seg->pool_len + 1;
        for (int32_t s = pslot; s != GRV_NIL && s != end && guard--; s = next_sib(seg, s)) {
            int32_t b = grv_link(seg, s)->before;
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
        float w = grv_link(seg, s)->posx + grv_link(seg, s)->advx - base;
        if (w > curr)
            curr = w;
        for (unsigned j = 0; j < levels; j++)
            tweight[j] += grv_get_justify(seg, s, j, 3);
        grv_link(seg, s)->just = 0;
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
                grv_slot *sl = grv_link(seg, s);
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
            if (FV_UNLIKELY(seg->budget.left < 0))
                return 0; /* the caller fails the segment with budget_steps */
        } while (i == 0 && fv_f32_to_i32(fabsf(error)) > 0 && tw && ++rounds < GRV_JUSTIFY_ROUNDS);
    }
    float ax, ay;
    if (against)
        grv_position_slots(seg, first_cluster, first_cluster, seg->dir & 1, &ax, &ay);
    else
        grv_position_slots(seg, pslot, plast, seg->dir & 1, &ax, &ay);
    return ax;
}
