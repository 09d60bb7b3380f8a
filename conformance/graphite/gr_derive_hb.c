/* HarfBuzz's graphite2 shaper, seen from outside: how a graphite2 segment
 * becomes a HarfBuzz buffer.  Learnt by testing HarfBuzz 6.0.0 against
 * graphite2 1.3.14 on the corpus (fvconform-gr --self-check checks this
 * derivation against HarfBuzz on graphite2's own segments):
 *
 * - Characters are grouped into clusters while walking the slots in
 *   segment order.  A slot whose `before` char lies in an earlier cluster
 *   merges the clusters back to that one; a slot that may have a break
 *   before it (gr_slatInsert) and whose `before` char lies past the current
 *   cluster's chars starts a new cluster at the next char.  A slot's
 *   `after` char extends its cluster.  A cluster's HarfBuzz cluster value is
 *   its first char's index.
 * - Every glyph of a cluster has the cluster's value.  The first glyph (in
 *   slot order) carries the whole cluster advance: the distance from this
 *   cluster's first-glyph origin to the next cluster's (the segment advance
 *   after the last), in visual order; the other glyphs have no advance.
 *   Offsets place each glyph at its graphite2 origin relative to the pen.
 * - Right to left: clusters are emitted last to first, glyphs within a
 *   cluster stay in slot order, and the advance runs to the cluster that
 *   precedes in segment order (the first from the segment advance, the
 *   last to the left edge, x = 0).
 * - Vertically, each glyph's y_advance is its slot's own advance
 *   (gr_slot_advance_Y: zero unless a rule set it, e.g. Padauk's hsln) and
 *   its y_offset its origin less the y_advances of the slots before it in
 *   segment order (found on peer Padauk, hsln=1).
 * - Integers (scale = upem): every value is truncated toward zero, not
 *   rounded, and the cluster advances are truncated as they are made, so
 *   the pen that the next advance is measured from carries the fractions
 *   dropped so far.  Right to left, the first cluster's advance is the
 *   segment advance truncated less its first origin truncated, and the pen
 *   continues from that truncated origin.  Offsets are the glyph origin
 *   less the (integer) pen, subtracted in single precision and truncated
 *   (Awami, U+06B5 28 times: an origin a hair above 5966 less the pen
 *   18858 is -12892 in HarfBuzz, as in float, where double gives -12891;
 *   the odd-text hunt of 2026-11-29).  A cluster's advance grows as an
 *   integer does when a float is added to it: the sum is truncated, not
 *   the step (225 + (54.83 - 225) is 54, where 225 + trunc(-170.17) is
 *   55; found on Awami's generated lines, KD-13).  Found on Awami Nastaliq, whose
 *   collision shifts and kerns are fractional (its 41 lines and 327 words,
 *   both directions: all identical, where rounding matched 1 of 41 lines);
 *   every other corpus font has integer positions, where truncating and
 *   rounding agree. */
#include <stdlib.h>
#include <string.h>

#include "gr_compare.h"

typedef struct cluster {
    size_t base_char, num_chars;
    size_t base_glyph, num_glyphs;
    int64_t advance;
} cluster;

/* A font-unit value as HarfBuzz stores it: truncated toward zero.  Inputs
 * come from either engine's segment (fuzzed by gr_diff), so a value outside
 * int32_t or NaN is clamped instead of converted (that conversion is UB). */
static int32_t trunc_pos(double v)
{
    if (!(v == v))
        return 0;
    if (v >= 2147483647.0)
        return INT32_MAX;
    if (v <= -2147483648.0)
        return INT32_MIN;
    return (int32_t)v;
}

int grc_derive_hb(const grc_run *run, const grc_request *req, grc_hb_run *out)
{
    memset(out, 0, sizeof *out);
    if (!run->ok) {
        memcpy(out->error, run->error, sizeof out->error);
        out->hardening_limit = run->hardening_limit;
        return 0;
    }
    size_t n = run->num_glyphs;
    int rtl = req->rtl & 1;
    out->glyphs = calloc(n ? n : 1, sizeof *out->glyphs);
    cluster *cl = calloc(n ? n : 1, sizeof *cl);
    if (!out->glyphs || !cl) {
        free(cl);
        return -1;
    }
    /* The running pen: HarfBuzz moves it by the whole advance of the
     * cluster being closed, not by the increment just added, so a cluster
     * merged back and then closed again leaves the pen ahead of the glyphs
     * until the next cluster corrects it.  Reproduced, not "fixed".  It
     * moves by truncated advances only, so after the start it stays at the
     * segment advance's integer part plus or minus whole units. */
    double pen = rtl ? (double)trunc_pos(run->advance_x) : 0.0;
    size_t ci = 0;
    for (size_t i = 0; i < n; i++) {
        const grc_glyph *g = &run->glyphs[i];
        size_t before = g->before < 0 ? 0 : (size_t)g->before;
        size_t after = g->after < 0 ? 0 : (size_t)g->after;
        while (ci > 0 && cl[ci].base_char > before) {
            cl[ci - 1].num_chars += cl[ci].num_chars;
            cl[ci - 1].num_glyphs += cl[ci].num_glyphs;
            cl[ci - 1].advance += cl[ci].advance;
            ci--;
        }
        if (i == 0 && rtl) {
            /* Both ends truncated on their own (3324 - 964.83: 2360, not
             * 2359), and the pen continues from the first origin truncated. */
            cl[0].advance = (int64_t)trunc_pos(run->advance_x) - trunc_pos(g->x);
            pen = (double)trunc_pos(g->x);
        }
        if (g->insert && cl[ci].num_chars && before >= cl[ci].base_char + cl[ci].num_chars) {
            cluster *c = &cl[ci + 1];
            c->base_char = cl[ci].base_char + cl[ci].num_chars;
            c->num_chars = 1;
            c->base_glyph = i;
            c->num_glyphs = 0;
            if (rtl) {
                c->advance = trunc_pos(pen - g->x);
                pen -= (double)c->advance;
            } else {
                c->advance = 0;
                cl[ci].advance = trunc_pos((double)cl[ci].advance + (g->x - pen));
                pen += (double)cl[ci].advance;
            }
            ci++;
        }
        cl[ci].num_glyphs++;
        if (cl[ci].base_char + cl[ci].num_chars < after + 1)
            cl[ci].num_chars = after + 1 - cl[ci].base_char;
    }
    /* Vertical pen, in segment order whatever the direction. */
    double *yoff = calloc(n ? n : 1, sizeof *yoff);
    if (!yoff) {
        free(cl);
        return -1;
    }
    double ypen = 0;
    for (size_t i = 0; i < n; i++) {
        yoff[i] = run->glyphs[i].y - ypen;
        ypen += trunc_pos(run->glyphs[i].advance_y);
    }
    size_t nclusters = n ? ci + 1 : 0;
    /* The last cluster runs to the segment's end: its advance in LTR, the
     * left edge (0) in RTL. */
    if (nclusters && !rtl)
        cl[ci].advance = trunc_pos((double)cl[ci].advance + (run->advance_x - pen));
    else if (nclusters)
        cl[ci].advance = trunc_pos((double)cl[ci].advance + pen);
    /* Emit in visual order; offsets are relative to the pen, which moves by
     * each glyph's advance (only a cluster's first glyph has one). */
    size_t o = 0;
    int64_t x = 0;
    for (size_t k = 0; k < nclusters; k++) {
        const cluster *cc = &cl[rtl ? nclusters - 1 - k : k];
        for (size_t j = 0; j < cc->num_glyphs && o < n && cc->base_glyph + j < n; j++, o++) {
            const grc_glyph *g = &run->glyphs[cc->base_glyph + j];
            grc_hb_glyph *h = &out->glyphs[o];
            h->gid = g->gid;
            h->slot = (int32_t)(cc->base_glyph + j);
            h->cluster = (uint32_t)cc->base_char;
            h->x_offset = trunc_pos((double)((float)g->x - (float)x));
            h->y_offset = trunc_pos(yoff[cc->base_glyph + j]);
            h->y_advance = trunc_pos(g->advance_y);
            if (j == 0) {
                h->x_advance = trunc_pos((double)cc->advance);
                x += cc->advance;
            }
        }
    }
    out->num_glyphs = o;
    out->ok = 1;
    free(yoff);
    free(cl);
    return 0;
}
