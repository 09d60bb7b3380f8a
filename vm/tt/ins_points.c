/* Outline instructions: ISECT 0x0F, ALIGNPTS 0x27, UTP 0x29, MDAP 0x2E-2F,
 * IUP 0x30-31, SHP 0x32-33, SHC 0x34-35, SHZ 0x36-37, SHPIX 0x38, IP 0x39,
 * MSIRP 0x3A-3B, ALIGNRP 0x3C, MIAP 0x3E-3F, GC 0x46-47, SCFS 0x48,
 * MD 0x49-4A, FLIPPT 0x80, FLIPRGON 0x81, FLIPRGOFF 0x82, MDRP 0xC0-DF,
 * MIRP 0xE0-FF.  Spec (OpenType 1.9, "The TrueType Instruction Set"):
 * "Managing outlines", "Managing the graphics state", "Moving points",
 * "Reading and writing data" (GC, SCFS, MD).  Behaviour follows FreeType
 * 2.12.1, including its undocumented twilight zone rules and the v40
 * backward-compatibility restrictions.
 *
 * Each handler is written once, under a header giving its mnemonic and
 * opcodes, what it pops (top of the stack first) and pushes, its spec
 * section and the FreeType behaviour it follows where that is not the
 * spec's.  "zpN" is the zone graphics-state pointer N, "rpN" the reference
 * point N.  Every point goes through tt_point_ref (zone.h): a point that
 * does not exist stops the instruction (a looped one skips it) without an
 * error, as FreeType does, unless hinting is pedantic.
 *
 * Over 800 lines because the moving and measuring instructions share the
 * helpers at the top (displacement, move-and-touch, rounding by the
 * graphics state): split, those would become a header of their own. */
#include "tt/cvt.h"
#include "tt/gstate.h"
#include "tt/ins.h"
#include "tt/stack.h"
#include "tt/zone.h"

/* ---- Shared by several instructions ------------------------------------- */

/* The steps of a loop instruction: one per point it will pop (at most the
 * stack depth: fewer values is an underflow, handled by the caller). */
static fv_status spend_loop(tt_ctx *c)
{
    uint64_t n = c->gs.loop > 0 ? (uint64_t)c->gs.loop : 0;
    return tt_spend(c, n < c->top ? n : c->top);
}

/* End of a loop instruction: GS.loop back to 1, popped values dropped. */
static fv_status loop_done(tt_ctx *c, fv_status st)
{
    c->gs.loop = 1;
    c->new_top = c->args;
    return st;
}

/* The next point of a looped instruction: popped below the fixed arguments,
 * its low 16 bits (FreeType's FT_UShort), checked in zone z as
 * tt_point_ref does. */
static int pop_point(tt_ctx *c, const tt_zone *z, uint32_t *p, fv_status *st)
{
    int64_t v = 0;
    tt_stack_pop_extra(c, &v);
    return tt_point_ref(c, z, tt_u16(v), p, st);
}

static int64_t fast_project(const tt_ctx *c, tt_vec v) { return tt_project(c, v.x, v.y); }

/* Distance between two original points in 26.6: from orus scaled, or org in
 * the twilight zone (FreeType's MD/MDRP/IP rule). */
static int64_t orig_distance(const tt_ctx *c, tt_vec a, tt_vec b)
{
    if (c->exec_x_scale == c->exec_y_scale)
        return fv_mulfix(tt_dualproj_pts(c, a, b), c->exec_x_scale);
    int64_t x = fv_mulfix(tt_sub(a.x, b.x), c->exec_x_scale);
    int64_t y = fv_mulfix(tt_sub(a.y, b.y), c->exec_y_scale);
    return tt_dualproj(c, x, y);
}

/* The minimum distance rule of MDRP and MIRP (flag bit 3): the distance
 * keeps the sign of the original one and at least its magnitude. */
static int64_t min_distance(const tt_ctx *c, int64_t org_dist, int64_t distance)
{
    int64_t md = c->gs.minimum_distance;
    if (org_dist >= 0) {
        if (distance < md)
            distance = md;
    } else if (distance > tt_neg(md))
        distance = tt_neg(md);
    return distance;
}

/* ---- Managing outlines -------------------------------------------------- */

/* FLIPPT 0x80: flip point.  Pops loop points; pushes nothing.
 * Spec: "Managing outlines" / FLIPPT.  Toggles each point's on-curve flag
 * in the glyph zone (always zone 1, whatever zp0 says).
 * FreeType: in v40 backward compatibility after both IUPs it does nothing
 * but reset the loop; a bad point is skipped. */
TT_HANDLER(FLIPPT)
{
    (void)args;
    fv_status st = spend_loop(c);
    if (st != FV_OK)
        return st;
    if (tt_compat_frozen(c))
        return loop_done(c, FV_OK);
    if (c->top < (uint64_t)c->gs.loop)
        return loop_done(c, tt_soft(c, FV_E_TT_STACK_UNDERFLOW, c->gs.loop));
    for (; c->gs.loop > 0; c->gs.loop--) {
        uint32_t p;
        if (pop_point(c, &c->pts, &p, &st))
            c->pts.tags[p] ^= TT_TAG_ON;
        else if (st != FV_OK)
            return st;
    }
    return loop_done(c, FV_OK);
}

/* FLIPRGON 0x81, FLIPRGOFF 0x82: flip range on / off.  Pops the high point,
 * then the low point; pushes nothing.  Spec: "Managing outlines".  Sets
 * (clears) the on-curve flag of glyph-zone points low..high.
 * FreeType: frozen after both IUPs in v40 backward compatibility; an empty
 * range (high < low) is no error. */
static fv_status flip_range(tt_ctx *c, int64_t *args, int on)
{
    if (tt_compat_frozen(c))
        return FV_OK;
    uint32_t high, low;
    fv_status st = FV_OK;
    if (!tt_point_pair(c, &c->pts, tt_u16(args[1]), &high, &c->pts, tt_u16(args[0]), &low, &st))
        return st;
    if (low <= high && (st = tt_spend(c, (uint64_t)high - low + 1)) != FV_OK)
        return st;
    for (uint32_t i = low; i <= high; i++) {
        if (on)
            c->pts.tags[i] |= TT_TAG_ON;
        else
            c->pts.tags[i] &= (uint8_t)~TT_TAG_ON;
    }
    return FV_OK;
}
TT_HANDLER(FLIPRGON) { return flip_range(c, args, 1); }
TT_HANDLER(FLIPRGOFF) { return flip_range(c, args, 0); }

/* ---- Shifting ------------------------------------------------------------ */

/* FreeType's Compute_Point_Displacement for SHP, SHC and SHZ: how far the
 * reference point (flag 1: rp1 in zp0, flag 0: rp2 in zp1) has moved,
 * along the freedom vector.  *zone and *ref name the reference point, which
 * SHC and SHZ do not move.  0 when the reference point does not exist, with
 * *st as tt_point_ref sets it. */
static int displacement(tt_ctx *c, int64_t *dx, int64_t *dy, const tt_zone **zone,
                        uint32_t *ref, fv_status *st)
{
    const tt_zone *zp = (c->opcode & 1) ? c->zp0 : c->zp1;
    if (!tt_point_ref(c, zp, (c->opcode & 1) ? c->gs.rp1 : c->gs.rp2, ref, st))
        return 0;
    *zone = zp;
    tt_point_read(c, zp, *ref);
    int64_t d = tt_project_pts(c, zp->cur[*ref], zp->org[*ref]);
    *dx = tt_muldiv(d, c->gs.fv_x, c->f_dot_p);
    *dy = tt_muldiv(d, c->gs.fv_y, c->f_dot_p);
    return 1;
}

/* SHP[a] 0x32-0x33: shift point by the last point.  Pops loop points;
 * pushes nothing.  Spec: "Managing outlines" / SHP.  Moves each point of
 * zp2 as far as the reference point moved (a = 0: rp2 in zp1, 1: rp1 in
 * zp0) and touches it.
 * FreeType: a bad reference point ends the instruction with the loop
 * counter and the stack as they were; a bad point is skipped. */
TT_HANDLER(SHP)
{
    (void)args;
    fv_status st = spend_loop(c);
    if (st != FV_OK)
        return st;
    int64_t dx, dy;
    const tt_zone *zp;
    uint32_t ref;
    if (c->top < (uint64_t)c->gs.loop)
        return loop_done(c, tt_soft(c, FV_E_TT_STACK_UNDERFLOW, c->gs.loop));
    if (!displacement(c, &dx, &dy, &zp, &ref, &st))
        return st; /* COMPAT(freetype): loop and stack left as they are */
    for (; c->gs.loop > 0; c->gs.loop--) {
        uint32_t p;
        if (pop_point(c, c->zp2, &p, &st))
            tt_move_zp2(c, p, dx, dy, 1);
        else if (st != FV_OK)
            return st;
    }
    return loop_done(c, FV_OK);
}

/* SHC[a] 0x34-0x35: shift contour by the last point.  Pops a contour;
 * pushes nothing.  Spec: "Managing outlines" / SHC.  Moves every point of
 * that contour of zp2 as SHP does, except the reference point itself.
 * FreeType: in the twilight zone (zp2 = zone 0) contour 0 is the whole
 * zone; a contour past the zone's is an invalid reference. */
TT_HANDLER(SHC)
{
    int64_t dx, dy;
    const tt_zone *zp;
    uint32_t ref;
    fv_status st;
    int16_t contour = (int16_t)tt_u16(args[0]);
    uint32_t bounds = c->gs.gep2 == 0 ? 1 : c->zp2->n_contours;
    if ((uint32_t)(int32_t)contour >= bounds)
        return tt_soft(c, FV_E_TT_INVALID_REFERENCE, contour);
    if (!displacement(c, &dx, &dy, &zp, &ref, &st))
        return st;
    uint32_t start = 0, limit;
    if (contour > 0)
        start = (uint32_t)c->zp2->contours[contour - 1] + 1;
    if (c->gs.gep2 == 0)
        limit = c->zp2->n_points;
    else
        limit = (uint32_t)c->zp2->contours[contour] + 1;
    /* The glyph loader keeps every contour end below the zone's points. */
    if (FV_NEVER(limit > c->zp2->n_points))
        limit = c->zp2->n_points;
    if (start < limit && (st = tt_spend(c, limit - start)) != FV_OK)
        return st;
    for (uint32_t i = start; i < limit; i++)
        if (zp != c->zp2 || ref != i)
            tt_move_zp2(c, i, dx, dy, 1);
    return FV_OK;
}

/* SHZ[a] 0x36-0x37: shift zone by the last point.  Pops a zone number;
 * pushes nothing.  Spec: "Managing outlines" / SHZ.  Moves every point of
 * a zone as SHP does, except the reference point, without touching them.
 * FreeType: the zone number is only checked (0 or 1); the points moved are
 * zp2's, and in the glyph zone the phantom points are left alone. */
TT_HANDLER(SHZ)
{
    int64_t dx, dy;
    const tt_zone *zp;
    uint32_t ref;
    fv_status st;
    if ((uint64_t)args[0] >= 2)
        return tt_soft(c, FV_E_TT_INVALID_ZONE, args[0]);
    if (!displacement(c, &dx, &dy, &zp, &ref, &st))
        return st;
    /* COMPAT(freetype): SHZ moves zp2 (not the zone argument), leaves the
     * phantom points alone and does not touch the points. */
    uint32_t limit;
    if (c->gs.gep2 == 0)
        limit = c->zp2->n_points;
    else if (c->gs.gep2 == 1 && c->zp2->n_contours > 0)
        limit = (uint32_t)c->zp2->contours[c->zp2->n_contours - 1] + 1;
    else
        limit = 0;
    if (FV_NEVER(limit > c->zp2->n_points)) /* as in SHC */
        limit = c->zp2->n_points;
    if ((st = tt_spend(c, limit)) != FV_OK)
        return st;
    for (uint32_t i = 0; i < limit; i++)
        if (zp != c->zp2 || ref != i)
            tt_move_zp2(c, i, dx, dy, 0);
    return FV_OK;
}

/* SHPIX 0x38: shift point by a pixel amount.  Pops a distance (26.6), then
 * loop points; pushes nothing.  Spec: "Managing outlines" / SHPIX.  Moves
 * each point of zp2 by the distance along the freedom vector and touches
 * it.
 * FreeType: in v40 backward compatibility only the y part moves, and only
 * in the twilight zone, or before both IUPs on a composite (with a freedom
 * vector not along x) or on a point already touched in y. */
TT_HANDLER(SHPIX)
{
    fv_status st = spend_loop(c);
    if (st != FV_OK)
        return st;
    int in_twilight = c->gs.gep0 == 0 || c->gs.gep1 == 0 || c->gs.gep2 == 0;
    if (c->top < (uint64_t)c->gs.loop + 1)
        return loop_done(c, tt_soft(c, FV_E_TT_STACK_UNDERFLOW, c->gs.loop));
    int64_t dx = tt_mulfix14(args[0], c->gs.fv_x);
    int64_t dy = tt_mulfix14(args[0], c->gs.fv_y);
    for (; c->gs.loop > 0; c->gs.loop--) {
        uint32_t p;
        if (!pop_point(c, c->zp2, &p, &st)) {
            if (st != FV_OK)
                return st;
        } else if (tt_compat(c)) {
            /* COMPAT(freetype): in v40 compat SHPIX moves only in y, only in
             * the twilight zone or before IUP on composites/y-touched points. */
            if (in_twilight ||
                (!(c->iupx_called && c->iupy_called) &&
                 ((c->is_composite && c->gs.fv_y != 0) || (c->zp2->tags[p] & TT_TAG_TOUCH_Y))))
                tt_move_zp2(c, p, 0, dy, 1);
            else if (c->iupx_called && c->iupy_called)
                tt_diag(c, FV_TT_DIAG_AFTER_IUP, FV_OK, p);
        } else
            tt_move_zp2(c, p, dx, dy, 1);
    }
    return loop_done(c, FV_OK);
}

/* ---- Moving points ------------------------------------------------------- */

/* MSIRP[a] 0x3A-0x3B: move stack indirect relative point.  Pops a distance
 * (26.6), then a point; pushes nothing.  Spec: "Moving points" / MSIRP.
 * Moves the point (zp1) so that its distance from rp0 (zp0) along the
 * projection vector is the distance; rp1 = rp0, rp2 = the point, and with
 * a = 1 rp0 = the point.
 * FreeType: in the twilight zone the point is first placed at rp0's
 * original position moved by the distance; a bad point or rp0 leaves the
 * reference points as they were. */
TT_HANDLER(MSIRP)
{
    uint32_t p, rp0;
    fv_status st = FV_OK;
    if (!tt_point_pair(c, c->zp1, tt_u16(args[0]), &p, c->zp0, c->gs.rp0, &rp0, &st))
        return st;
    tt_point_read(c, c->zp0, rp0);
    /* COMPAT(freetype): in the twilight zone the point is first placed at
     * rp0's original position moved by the distance. */
    if (c->gs.gep1 == 0) {
        c->zp1->org[p] = c->zp0->org[rp0];
        tt_move_orig(c, c->zp1, p, args[1]);
        c->zp1->cur[p] = c->zp1->org[p];
    }
    int64_t distance = tt_project_pts(c, c->zp1->cur[p], c->zp0->cur[rp0]);
    tt_move(c, c->zp1, p, tt_sub(args[1], distance));
    c->gs.rp1 = c->gs.rp0;
    c->gs.rp2 = (uint16_t)p;
    if (c->opcode & 1)
        c->gs.rp0 = (uint16_t)p;
    return FV_OK;
}

/* ALIGNRP 0x3C: align to reference point.  Pops loop points; pushes
 * nothing.  Spec: "Moving points" / ALIGNRP.  Moves each point of zp1 onto
 * rp0 (zp0) along the freedom vector, as measured on the projection vector.
 * FreeType: a bad rp0 (or too few points on the stack) ends the
 * instruction with the loop reset; a bad point is skipped. */
TT_HANDLER(ALIGNRP)
{
    (void)args;
    fv_status st = spend_loop(c);
    if (st != FV_OK)
        return st;
    if (c->top < (uint64_t)c->gs.loop)
        return loop_done(c, tt_soft(c, FV_E_TT_STACK_UNDERFLOW, c->gs.rp0));
    uint32_t rp0;
    if (!tt_point_ref(c, c->zp0, c->gs.rp0, &rp0, &st))
        return loop_done(c, st);
    tt_point_read(c, c->zp0, rp0);
    for (; c->gs.loop > 0; c->gs.loop--) {
        uint32_t p;
        if (pop_point(c, c->zp1, &p, &st))
            tt_move(c, c->zp1, p, tt_neg(tt_project_pts(c, c->zp1->cur[p], c->zp0->cur[rp0])));
        else if (st != FV_OK)
            return st;
    }
    return loop_done(c, FV_OK);
}

/* MIAP[a] 0x3E-0x3F: move indirect absolute point.  Pops a CVT entry, then
 * a point; pushes nothing.  Spec: "Moving points" / MIAP.  Moves the point
 * (zp0) to the CVT distance along the projection vector; a = 1 rounds it,
 * keeping the current position when the two differ by more than the
 * control value cut-in.  rp0 = rp1 = the point.
 * FreeType: in the twilight zone the original point is first set to the
 * unrounded CVT distance along the freedom vector; a bad point or entry
 * still sets rp0 and rp1; a bad point is reported before a bad entry. */
TT_HANDLER(MIAP)
{
    uint64_t cvt_entry = (uint64_t)args[1];
    uint16_t target = tt_u16(args[0]);
    uint32_t p;
    fv_status st = FV_OK;
    if (!tt_point_ref(c, c->zp0, target, &p, &st))
        goto done;
    if (!tt_cvt_ok(c, cvt_entry)) {
        st = tt_soft(c, FV_E_TT_INVALID_CVT, args[1]);
        goto done;
    }
    int64_t distance = tt_cvt_read(c, (uint32_t)cvt_entry);
    /* COMPAT(freetype): in the twilight zone the original point is set to
     * the unrounded CVT distance along the freedom vector, no cut-in. */
    if (c->gs.gep0 == 0) {
        c->zp0->org[p].x = tt_mulfix14(distance, c->gs.fv_x);
        c->zp0->org[p].y = tt_mulfix14(distance, c->gs.fv_y);
        c->zp0->cur[p] = c->zp0->org[p];
    }
    int64_t org_dist = fast_project(c, c->zp0->cur[p]);
    if (c->opcode & 1) {
        if (tt_abs(tt_sub(distance, org_dist)) > c->gs.control_value_cutin)
            distance = org_dist;
        distance = tt_round_value(c, distance);
    }
    tt_move(c, c->zp0, p, tt_sub(distance, org_dist));
done:
    c->gs.rp0 = target;
    c->gs.rp1 = target;
    return st;
}

/* MDAP[a] 0x2E-0x2F: move direct absolute point.  Pops a point; pushes
 * nothing.  Spec: "Moving points" / MDAP.  Touches the point (zp0); a = 1
 * first rounds its projection.  rp0 = rp1 = the point.
 * FreeType: a bad point leaves the reference points as they were. */
TT_HANDLER(MDAP)
{
    uint32_t p;
    fv_status st = FV_OK;
    if (!tt_point_ref(c, c->zp0, tt_u16(args[0]), &p, &st))
        return st;
    int64_t distance = 0;
    if (c->opcode & 1) {
        int64_t cur = fast_project(c, c->zp0->cur[p]);
        distance = tt_sub(tt_round_value(c, cur), cur);
    }
    tt_move(c, c->zp0, p, distance);
    c->gs.rp0 = (uint16_t)p;
    c->gs.rp1 = (uint16_t)p;
    return FV_OK;
}

/* MDRP[abcde] 0xC0-0xDF: move direct relative point.  Pops a point; pushes
 * nothing.  Spec: "Moving points" / MDRP.  Moves the point (zp1) so that
 * its distance from rp0 (zp0) is their original distance, with the single
 * width rule, rounded if c = 1, at least the minimum distance if d = 1
 * (e: distance type, taken by the round state as FreeType does).  rp1 =
 * rp0, rp2 = the point, and with a = 1 rp0 = the point.
 * FreeType: original distances come from org in the twilight zone and
 * from the unscaled outline elsewhere; a bad point or rp0 still sets the
 * reference points. */
TT_HANDLER(MDRP)
{
    uint16_t target = tt_u16(args[0]);
    uint32_t p, rp0;
    fv_status st = FV_OK;
    if (!tt_point_pair(c, c->zp1, target, &p, c->zp0, c->gs.rp0, &rp0, &st))
        goto done;
    tt_point_read(c, c->zp0, rp0);
    tt_point_read(c, c->zp1, p); /* its original position is measured */
    int64_t org_dist;
    /* COMPAT(freetype): twilight distances come from org, others from the
     * unscaled outline. */
    if (c->gs.gep0 == 0 || c->gs.gep1 == 0)
        org_dist = tt_dualproj_pts(c, c->zp1->org[p], c->zp0->org[rp0]);
    else
        org_dist = orig_distance(c, c->zp1->orus[p], c->zp0->orus[rp0]);
    int64_t swv = c->gs.single_width_value, swc = c->gs.single_width_cutin;
    if (swc > 0 && org_dist < tt_add(swv, swc) && org_dist > tt_sub(swv, swc))
        org_dist = org_dist >= 0 ? swv : tt_neg(swv);
    int64_t distance = (c->opcode & 4) ? tt_round_value(c, org_dist) : tt_round_none(org_dist);
    if (c->opcode & 8)
        distance = min_distance(c, org_dist, distance);
    int64_t cur = tt_project_pts(c, c->zp1->cur[p], c->zp0->cur[rp0]);
    tt_move(c, c->zp1, p, tt_sub(distance, cur));
done:
    c->gs.rp1 = c->gs.rp0;
    c->gs.rp2 = target;
    if (c->opcode & 16)
        c->gs.rp0 = target;
    return st;
}

/* MIRP[abcde] 0xE0-0xFF: move indirect relative point.  Pops a CVT entry,
 * then a point; pushes nothing.  Spec: "Moving points" / MIRP.  Moves the
 * point (zp1) so that its distance from rp0 (zp0) is the CVT value, with
 * the single width rule and auto-flip, rounded if c = 1 (keeping the
 * original distance beyond the control value cut-in), at least the
 * minimum distance if d = 1.  rp1 = rp0, rp2 = the point, and with a = 1
 * rp0 = the point.
 * FreeType: CVT entry -1 reads as 0; in the twilight zone the point is
 * first placed at rp0's original position plus the CVT distance; the
 * cut-in applies only within one zone; a bad entry, point or rp0 still
 * sets the reference points, and a bad entry is reported first. */
TT_HANDLER(MIRP)
{
    uint16_t target = tt_u16(args[0]);
    uint64_t cvt_entry = (uint64_t)tt_add(args[1], 1);
    uint32_t p, rp0;
    fv_status st = FV_OK;
    /* COMPAT(freetype): CVT index -1 reads as 0. */
    FV_TESTCASE(cvt_entry == 0);
    FV_TESTCASE(cvt_entry == c->cvt_size); /* the last entry */
    if (cvt_entry >= (uint64_t)c->cvt_size + 1) {
        st = tt_soft(c, FV_E_TT_INVALID_CVT, args[1]);
        goto done;
    }
    if (!tt_point_pair(c, c->zp1, target, &p, c->zp0, c->gs.rp0, &rp0, &st))
        goto done;
    tt_point_read(c, c->zp0, rp0);
    int64_t cvt_dist = cvt_entry == 0 ? 0 : tt_cvt_read(c, (uint32_t)(cvt_entry - 1));
    if (tt_abs(tt_sub(cvt_dist, c->gs.single_width_value)) < c->gs.single_width_cutin)
        cvt_dist = cvt_dist >= 0 ? c->gs.single_width_value : tt_neg(c->gs.single_width_value);
    if (c->gs.gep1 == 0) {
        tt_vec r = c->zp0->org[rp0];
        c->zp1->org[p].x = tt_add(r.x, tt_mulfix14(cvt_dist, c->gs.fv_x));
        c->zp1->org[p].y = tt_add(r.y, tt_mulfix14(cvt_dist, c->gs.fv_y));
        c->zp1->cur[p] = c->zp1->org[p];
    }
    int64_t org_dist = tt_dualproj_pts(c, c->zp1->org[p], c->zp0->org[rp0]);
    int64_t cur_dist = tt_project_pts(c, c->zp1->cur[p], c->zp0->cur[rp0]);
    if (c->gs.auto_flip && (org_dist ^ cvt_dist) < 0)
        cvt_dist = tt_neg(cvt_dist);
    int64_t distance;
    if (c->opcode & 4) {
        /* COMPAT(freetype): the cut-in applies only within one zone. */
        if (c->gs.gep0 == c->gs.gep1 &&
            tt_abs(tt_sub(cvt_dist, org_dist)) > c->gs.control_value_cutin)
            cvt_dist = org_dist;
        distance = tt_round_value(c, cvt_dist);
    } else
        distance = tt_round_none(cvt_dist);
    if (c->opcode & 8)
        distance = min_distance(c, org_dist, distance);
    tt_move(c, c->zp1, p, tt_sub(distance, cur_dist));
done:
    c->gs.rp1 = c->gs.rp0;
    if (c->opcode & 16)
        c->gs.rp0 = target;
    c->gs.rp2 = target;
    return st;
}

/* ISECT 0x0F: moves point to intersection.  Pops b1, b0 (zp0), a1, a0
 * (zp1), then the point (zp2); pushes nothing.  Spec: "Moving points" /
 * ISECT.  Puts the point where line a0-a1 crosses line b0-b1 and touches
 * it in both directions.
 * FreeType: a crossing at less than about 3 degrees (|tan| under 1/19)
 * puts the point at the middle of the four ends instead; any bad point is
 * reported as the moved point. */
TT_HANDLER(ISECT)
{
    uint32_t p, a0, a1, b0, b1;
    if (!tt_point_get(c->zp0, tt_u16(args[3]), &b0) ||
        !tt_point_get(c->zp0, tt_u16(args[4]), &b1) ||
        !tt_point_get(c->zp1, tt_u16(args[1]), &a0) ||
        !tt_point_get(c->zp1, tt_u16(args[2]), &a1) ||
        !tt_point_get(c->zp2, tt_u16(args[0]), &p))
        return tt_soft(c, FV_E_TT_INVALID_POINT, tt_u16(args[0]));
    tt_point_read(c, c->zp1, a0);
    tt_point_read(c, c->zp1, a1);
    tt_point_read(c, c->zp0, b0);
    tt_point_read(c, c->zp0, b1);
    tt_vec *z0 = c->zp0->cur, *z1 = c->zp1->cur;
    int64_t dbx = tt_sub(z0[b1].x, z0[b0].x), dby = tt_sub(z0[b1].y, z0[b0].y);
    int64_t dax = tt_sub(z1[a1].x, z1[a0].x), day = tt_sub(z1[a1].y, z1[a0].y);
    int64_t dx = tt_sub(z0[b0].x, z1[a0].x), dy = tt_sub(z0[b0].y, z1[a0].y);
    int64_t disc = tt_add(tt_muldiv(dax, tt_neg(dby), 0x40), tt_muldiv(day, dbx, 0x40));
    int64_t dot = tt_add(tt_muldiv(dax, dbx, 0x40), tt_muldiv(day, dby, 0x40));
    tt_vec *out = &c->zp2->cur[p];
    /* Reject grazing intersections: |tan(angle)| below 1/19. */
    if (tt_mul(19, tt_abs(disc)) > tt_abs(dot)) {
        int64_t val = tt_add(tt_muldiv(dx, tt_neg(dby), 0x40), tt_muldiv(dy, dbx, 0x40));
        int64_t rx = tt_muldiv(val, dax, disc), ry = tt_muldiv(val, day, disc);
        out->x = tt_add(z1[a0].x, rx);
        out->y = tt_add(z1[a0].y, ry);
    } else {
        out->x = tt_add(tt_add(z1[a0].x, z1[a1].x), tt_add(z0[b0].x, z0[b1].x)) / 4;
        out->y = tt_add(tt_add(z1[a0].y, z1[a1].y), tt_add(z0[b0].y, z0[b1].y)) / 4;
    }
    c->zp2->tags[p] |= TT_TAG_TOUCH_BOTH;
    return FV_OK;
}

/* ALIGNPTS 0x27: align points.  Pops p2 (zp0), then p1 (zp1); pushes
 * nothing.  Spec: "Moving points" / ALIGNPTS.  Moves both points halfway
 * towards each other along the freedom vector, as measured on the
 * projection vector. */
TT_HANDLER(ALIGNPTS)
{
    uint32_t p1, p2;
    fv_status st = FV_OK;
    if (!tt_point_pair(c, c->zp1, tt_u16(args[0]), &p1, c->zp0, tt_u16(args[1]), &p2, &st))
        return st;
    tt_point_read(c, c->zp1, p1);
    tt_point_read(c, c->zp0, p2);
    int64_t d = tt_project_pts(c, c->zp0->cur[p2], c->zp1->cur[p1]) / 2;
    tt_move(c, c->zp1, p1, d);
    tt_move(c, c->zp0, p2, tt_neg(d));
    return FV_OK;
}

/* IP 0x39: interpolate point.  Pops loop points; pushes nothing.  Spec:
 * "Moving points" / IP.  Moves each point of zp2 so that it keeps its
 * original position relative to rp1 (zp0) and rp2 (zp1).
 * FreeType: in the twilight zone org stands in for the unscaled outline; a
 * bad rp1 ends the instruction, a bad rp2 interpolates with empty ranges
 * (the point keeps its original distance from rp1); a bad point is
 * skipped. */
TT_HANDLER(IP)
{
    (void)args;
    fv_status st = spend_loop(c);
    if (st != FV_OK)
        return st;
    if (c->top < (uint64_t)c->gs.loop)
        return loop_done(c, tt_soft(c, FV_E_TT_STACK_UNDERFLOW, c->gs.loop));
    /* COMPAT(freetype): in the twilight zone org stands in for orus. */
    int twilight = c->gs.gep0 == 0 || c->gs.gep1 == 0 || c->gs.gep2 == 0;
    uint32_t rp1, rp2;
    if (!tt_point_ref(c, c->zp0, c->gs.rp1, &rp1, &st))
        return loop_done(c, st);
    tt_point_read(c, c->zp0, rp1);
    tt_vec orus_base = twilight ? c->zp0->org[rp1] : c->zp0->orus[rp1];
    tt_vec cur_base = c->zp0->cur[rp1];
    int64_t old_range = 0, cur_range = 0;
    /* COMPAT(freetype): a bad rp2 interpolates with empty ranges, without
     * an error even when pedantic. */
    if (tt_point_get(c->zp1, c->gs.rp2, &rp2)) {
        tt_point_read(c, c->zp1, rp2);
        if (twilight)
            old_range = tt_dualproj_pts(c, c->zp1->org[rp2], orus_base);
        else if (c->exec_x_scale == c->exec_y_scale)
            old_range = tt_dualproj_pts(c, c->zp1->orus[rp2], orus_base);
        else
            old_range = orig_distance(c, c->zp1->orus[rp2], orus_base);
        cur_range = tt_project_pts(c, c->zp1->cur[rp2], cur_base);
    }
    for (; c->gs.loop > 0; c->gs.loop--) {
        int64_t v = 0;
        tt_stack_pop_extra(c, &v);
        uint32_t p;
        /* COMPAT(freetype): IP takes the point's low 32 bits (the others
         * their low 16). */
        if (!tt_point_ref(c, c->zp2, (uint32_t)(uint64_t)v, &p, &st)) {
            if (st != FV_OK)
                return st;
            continue;
        }
        tt_point_read(c, c->zp2, p); /* its original position is measured */
        int64_t org_dist;
        if (twilight)
            org_dist = tt_dualproj_pts(c, c->zp2->org[p], orus_base);
        else if (c->exec_x_scale == c->exec_y_scale)
            org_dist = tt_dualproj_pts(c, c->zp2->orus[p], orus_base);
        else
            org_dist = orig_distance(c, c->zp2->orus[p], orus_base);
        int64_t cur_dist = tt_project_pts(c, c->zp2->cur[p], cur_base);
        int64_t new_dist = 0;
        if (org_dist)
            new_dist = old_range ? tt_muldiv(org_dist, cur_range, old_range) : org_dist;
        tt_move(c, c->zp2, p, tt_sub(new_dist, cur_dist));
    }
    return loop_done(c, FV_OK);
}

/* UTP 0x29: untouch point.  Pops a point (zp0); pushes nothing.  Spec:
 * "Moving points" / UTP.  Clears its touched flag for each axis the
 * freedom vector is not perpendicular to. */
TT_HANDLER(UTP)
{
    uint32_t p;
    fv_status st = FV_OK;
    if (!tt_point_ref(c, c->zp0, tt_u16(args[0]), &p, &st))
        return st;
    uint8_t mask = 0xFF;
    if (c->gs.fv_x != 0)
        mask &= (uint8_t)~TT_TAG_TOUCH_X;
    if (c->gs.fv_y != 0)
        mask &= (uint8_t)~TT_TAG_TOUCH_Y;
    c->zp0->tags[p] &= mask;
    return FV_OK;
}

/* ---- Interpolating untouched points (IUP) -------------------------------- */

/* Coordinates of one axis, selected by `ax` (0 = x, 1 = y).  IUP's
 * helpers are inlined into one copy per axis (iup_axis), so that `ax` is a
 * constant there and a coordinate a fixed offset (perf, Liberation Sans:
 * IUP with the axis chosen per access was 7% of fontvm's cycles, twice
 * FreeType's). */
static FV_ALWAYS_INLINE int64_t *coord(tt_vec *v, const int ax) { return ax ? &v->y : &v->x; }

/* A contour with one touched point p: every point p1..p2 moves with it. */
static FV_ALWAYS_INLINE void iup_shift(tt_zone *z, const int ax, uint32_t p1, uint32_t p2, uint32_t p)
{
    int64_t d = tt_sub(*coord(&z->cur[p], ax), *coord(&z->org[p], ax));
    if (d == 0)
        return;
    for (uint32_t i = p1; i <= p2; i++)
        if (i != p)
            *coord(&z->cur[i], ax) = tt_add(*coord(&z->cur[i], ax), d);
}

/* Points p1..p2 between touched points ref1 and ref2: interpolated between
 * them, or shifted with the nearer one when outside their range. */
static FV_ALWAYS_INLINE void iup_interpolate(tt_zone *z, const int ax, uint32_t p1, uint32_t p2, uint32_t ref1,
                            uint32_t ref2)
{
    if (p1 > p2)
        return;
    /* Both references and p2 are at most a contour's end (IUP). */
    if (FV_NEVER(ref1 >= z->n_points || ref2 >= z->n_points || p2 >= z->n_points))
        return;
    int64_t orus1 = *coord(&z->orus[ref1], ax), orus2 = *coord(&z->orus[ref2], ax);
    if (orus1 > orus2) {
        int64_t t = orus1;
        orus1 = orus2;
        orus2 = t;
        uint32_t r = ref1;
        ref1 = ref2;
        ref2 = r;
    }
    int64_t org1 = *coord(&z->org[ref1], ax), org2 = *coord(&z->org[ref2], ax);
    int64_t cur1 = *coord(&z->cur[ref1], ax), cur2 = *coord(&z->cur[ref2], ax);
    int64_t d1 = tt_sub(cur1, org1), d2 = tt_sub(cur2, org2);
    uint32_t i = p1;
    if (cur1 == cur2 || orus1 == orus2) {
        /* Every point between the references lands on cur1. */
        for (; i <= p2; i++) {
            int64_t x = *coord(&z->org[i], ax);
            *coord(&z->cur[i], ax) = x <= org1 ? tt_add(x, d1) : x >= org2 ? tt_add(x, d2) : cur1;
        }
        return;
    }
    /* Points outside the references' range up to the first inside it;
     * the scale is computed only when one is (divfix is the costliest step
     * of a short segment), then a loop that needs no test for it. */
    for (; i <= p2; i++) {
        int64_t x = *coord(&z->org[i], ax);
        if (x <= org1)
            *coord(&z->cur[i], ax) = tt_add(x, d1);
        else if (x >= org2)
            *coord(&z->cur[i], ax) = tt_add(x, d2);
        else
            break;
    }
    if (i > p2)
        return;
    int64_t scale = fv_divfix(tt_sub(cur2, cur1), tt_sub(orus2, orus1));
    for (; i <= p2; i++) {
        int64_t x = *coord(&z->org[i], ax);
        if (x <= org1)
            x = tt_add(x, d1);
        else if (x >= org2)
            x = tt_add(x, d2);
        else
            x = tt_add(cur1, fv_mulfix(tt_sub(*coord(&z->orus[i], ax), orus1), scale));
        *coord(&z->cur[i], ax) = x;
    }
}

/* IUP along one axis over every contour of z. */
static FV_ALWAYS_INLINE void iup_axis(tt_zone *z, const int ax)
{
    const uint8_t mask = ax ? TT_TAG_TOUCH_Y : TT_TAG_TOUCH_X;
    uint32_t point = 0;
    for (uint32_t contour = 0; contour < z->n_contours; contour++) {
        uint32_t end = z->contours[contour];
        uint32_t first = point;
        /* The glyph loader keeps every contour end below the zone's points. */
        if (FV_NEVER(end >= z->n_points))
            end = z->n_points - 1;
        while (point <= end && (z->tags[point] & mask) == 0)
            point++;
        if (point <= end) {
            uint32_t first_touched = point, cur_touched = point;
            point++;
            while (point <= end) {
                if (z->tags[point] & mask) {
                    iup_interpolate(z, ax, cur_touched + 1, point - 1, cur_touched, point);
                    cur_touched = point;
                }
                point++;
            }
            if (cur_touched == first_touched)
                iup_shift(z, ax, first, end, cur_touched);
            else {
                iup_interpolate(z, ax, cur_touched + 1, end, cur_touched, first_touched);
                if (first_touched > 0)
                    iup_interpolate(z, ax, first, first_touched - 1, cur_touched, first_touched);
            }
        }
    }
}

static void iup_x(tt_zone *z) { iup_axis(z, 0); }
static void iup_y(tt_zone *z) { iup_axis(z, 1); }

/* IUP[a] 0x30-0x31: interpolate untouched points through the outline.
 * Pops nothing; pushes nothing.  Spec: "Managing outlines" / IUP.  Along x
 * (a = 1) or y (a = 0), moves each glyph-zone point not touched on that
 * axis by interpolating between the touched points around it on its
 * contour (or shifting with the one touched point).
 * FreeType: works on the glyph zone whatever zp2 says; in v40 backward
 * compatibility each axis runs until both have, then IUP does nothing. */
TT_HANDLER(IUP)
{
    (void)args;
    /* COMPAT(freetype): v40 compat allows IUP until both axes were done. */
    if (tt_compat(c)) {
        if (c->iupx_called && c->iupy_called)
            return FV_OK;
        if (c->opcode & 1)
            c->iupx_called = 1;
        else
            c->iupy_called = 1;
    }
    tt_zone *z = &c->pts;
    if (z->n_contours == 0 || z->n_points == 0)
        return FV_OK;
    fv_status st = tt_spend(c, z->n_points);
    if (st != FV_OK)
        return st;
    if (c->opcode & 1)
        iup_x(z);
    else
        iup_y(z);
    return FV_OK;
}

/* ---- Measuring ------------------------------------------------------------ */

/* GC[a] 0x46-0x47: get coordinate projected onto the projection vector.
 * Pops a point (zp2); pushes its coordinate: current (a = 0) or original
 * on the dual projection vector (a = 1).  Spec: "Reading and writing
 * data" / GC.
 * FreeType: the point is taken whole (64 bits, not 16); a bad point
 * pushes 0. */
TT_HANDLER(GC)
{
    uint32_t p;
    fv_status st = FV_OK;
    if (!tt_point_ref(c, c->zp2, (uint64_t)args[0], &p, &st)) {
        args[0] = 0;
        return st;
    }
    tt_point_read(c, c->zp2, p);
    if (c->opcode & 1)
        args[0] = tt_dualproj(c, c->zp2->org[p].x, c->zp2->org[p].y);
    else
        args[0] = fast_project(c, c->zp2->cur[p]);
    return FV_OK;
}

/* SCFS 0x48: sets coordinate from the stack using projection and freedom
 * vectors.  Pops a coordinate (26.6), then a point (zp2); pushes nothing.
 * Spec: "Reading and writing data" / SCFS.  Moves the point along the
 * freedom vector until its projection is the coordinate.
 * FreeType: in the twilight zone the original point follows (org = cur). */
TT_HANDLER(SCFS)
{
    uint32_t p;
    fv_status st = FV_OK;
    if (!tt_point_ref(c, c->zp2, tt_u16(args[0]), &p, &st))
        return st;
    int64_t k = fast_project(c, c->zp2->cur[p]);
    tt_move(c, c->zp2, p, tt_sub(args[1], k));
    if (c->gs.gep2 == 0)
        c->zp2->org[p] = c->zp2->cur[p];
    return FV_OK;
}

/* MD[a] 0x49-0x4A: measure distance.  Pops point k (zp1), then point l
 * (zp0); pushes the distance from k to l: current positions on the
 * projection vector (a = 1) or original ones on the dual vector (a = 0).
 * Spec: "Reading and writing data" / MD.
 * FreeType: original distances come from org in the twilight zone and
 * from the unscaled outline elsewhere; a bad point pushes 0. */
TT_HANDLER(MD)
{
    uint32_t k, l;
    int64_t d = 0;
    fv_status st = FV_OK;
    if (!tt_point_pair(c, c->zp0, tt_u16(args[0]), &l, c->zp1, tt_u16(args[1]), &k, &st)) {
        args[0] = 0;
        return st;
    }
    tt_point_read(c, c->zp0, l);
    tt_point_read(c, c->zp1, k);
    if (c->opcode & 1)
        d = tt_project_pts(c, c->zp0->cur[l], c->zp1->cur[k]);
    else if (c->gs.gep0 == 0 || c->gs.gep1 == 0)
        d = tt_dualproj_pts(c, c->zp0->org[l], c->zp1->org[k]);
    else
        d = orig_distance(c, c->zp0->orus[l], c->zp1->orus[k]);
    args[0] = d;
    return st;
}
