/* Outline instructions: ISECT 0x0F, ALIGNPTS 0x27, UTP 0x29, MDAP 0x2E-2F,
 * IUP 0x30-31, SHP 0x32-33, SHC 0x34-35, SHZ 0x36-37, SHPIX 0x38, IP 0x39,
 * MSIRP 0x3A-3B, ALIGNRP 0x3C, MIAP 0x3E-3F, GC 0x46-47, SCFS 0x48,
 * MD 0x49-4A, FLIPPT 0x80, FLIPRGON 0x81, FLIPRGOFF 0x82, MDRP 0xC0-DF,
 * MIRP 0xE0-FF.  Spec: "Managing outlines", "Moving points", "Measuring".
 * Behaviour follows FreeType 2.12.1, including its undocumented twilight
 * zone rules and the v40 backward-compatibility restrictions. */
#include "tt/cvt.h"
#include "tt/gstate.h"
#include "tt/ins.h"
#include "tt/stack.h"
#include "tt/zone.h"

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

static fv_status flippt(tt_ctx *c)
{
    if (tt_compat_frozen(c))
        return loop_done(c, FV_OK);
    if (c->top < (uint64_t)c->gs.loop)
        return loop_done(c, tt_soft(c, FV_E_TT_STACK_UNDERFLOW, c->gs.loop));
    while (c->gs.loop > 0) {
        int64_t v = 0;
        tt_stack_pop_extra(c, &v);
        uint16_t p = tt_u16(v);
        if (!tt_point_ok(&c->pts, p)) {
            if (c->pedantic)
                return tt_fail(c, FV_E_TT_INVALID_POINT, p);
        } else
            c->pts.tags[p] ^= TT_TAG_ON;
        c->gs.loop--;
    }
    return loop_done(c, FV_OK);
}

static fv_status fliprg(tt_ctx *c, int64_t *args, int on)
{
    if (tt_compat_frozen(c))
        return FV_OK;
    uint16_t k = tt_u16(args[1]), l = tt_u16(args[0]);
    if (!tt_point_ok(&c->pts, k) || !tt_point_ok(&c->pts, l))
        return tt_soft(c, FV_E_TT_INVALID_POINT, tt_point_ok(&c->pts, k) ? l : k);
    if (l <= k) {
        fv_status st = tt_spend(c, (uint64_t)k - l + 1);
        if (st != FV_OK)
            return st;
    }
    for (uint32_t i = l; i <= k; i++) {
        if (on)
            c->pts.tags[i] |= TT_TAG_ON;
        else
            c->pts.tags[i] &= (uint8_t)~TT_TAG_ON;
    }
    return FV_OK;
}

/* Compute_Point_Displacement for SHP/SHC/SHZ. */
static int displacement(tt_ctx *c, int64_t *dx, int64_t *dy, tt_zone **zone, uint32_t *refp,
                        fv_status *st)
{
    tt_zone *zp;
    uint16_t p;
    if (c->opcode & 1) {
        zp = c->zp0;
        p = c->gs.rp1;
    } else {
        zp = c->zp1;
        p = c->gs.rp2;
    }
    *st = FV_OK;
    if (!tt_point_ok(zp, p)) {
        *st = tt_soft(c, FV_E_TT_INVALID_POINT, p);
        *refp = 0;
        return 0;
    }
    *zone = zp;
    *refp = p;
    int64_t d = tt_project_pts(c, zp->cur[p], zp->org[p]);
    *dx = tt_muldiv(d, c->gs.fv_x, c->f_dot_p);
    *dy = tt_muldiv(d, c->gs.fv_y, c->f_dot_p);
    return 1;
}

static fv_status shp(tt_ctx *c)
{
    int64_t dx, dy;
    tt_zone *zp;
    uint32_t refp;
    fv_status st;
    if (c->top < (uint64_t)c->gs.loop)
        return loop_done(c, tt_soft(c, FV_E_TT_STACK_UNDERFLOW, c->gs.loop));
    if (!displacement(c, &dx, &dy, &zp, &refp, &st))
        return st; /* COMPAT(freetype): loop and stack left as they are */
    while (c->gs.loop > 0) {
        int64_t v = 0;
        tt_stack_pop_extra(c, &v);
        uint16_t p = tt_u16(v);
        if (!tt_point_ok(c->zp2, p)) {
            if (c->pedantic)
                return tt_fail(c, FV_E_TT_INVALID_POINT, p);
        } else
            tt_move_zp2(c, p, dx, dy, 1);
        c->gs.loop--;
    }
    return loop_done(c, FV_OK);
}

static fv_status shc(tt_ctx *c, int64_t *args)
{
    int64_t dx, dy;
    tt_zone *zp;
    uint32_t refp;
    fv_status st;
    int16_t contour = (int16_t)tt_u16(args[0]);
    uint32_t bounds = c->gs.gep2 == 0 ? 1 : c->zp2->n_contours;
    if ((uint32_t)(int32_t)contour >= bounds)
        return tt_soft(c, FV_E_TT_INVALID_REFERENCE, contour);
    if (!displacement(c, &dx, &dy, &zp, &refp, &st))
        return st;
    uint32_t start = 0, limit;
    if (contour > 0)
        start = (uint32_t)c->zp2->contours[contour - 1] + 1;
    if (c->gs.gep2 == 0)
        limit = c->zp2->n_points;
    else
        limit = (uint32_t)c->zp2->contours[contour] + 1;
    if (limit > c->zp2->n_points)
        limit = c->zp2->n_points; /* fontvm: contours are validated; defensive */
    if (start < limit && (st = tt_spend(c, limit - start)) != FV_OK)
        return st;
    for (uint32_t i = start; i < limit; i++)
        if (zp != c->zp2 || refp != i)
            tt_move_zp2(c, i, dx, dy, 1);
    return FV_OK;
}

static fv_status shz(tt_ctx *c, int64_t *args)
{
    int64_t dx, dy;
    tt_zone *zp;
    uint32_t refp;
    fv_status st;
    if ((uint64_t)args[0] >= 2)
        return tt_soft(c, FV_E_TT_INVALID_ZONE, args[0]);
    if (!displacement(c, &dx, &dy, &zp, &refp, &st))
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
    if (limit > c->zp2->n_points)
        limit = c->zp2->n_points;
    if ((st = tt_spend(c, limit)) != FV_OK)
        return st;
    for (uint32_t i = 0; i < limit; i++)
        if (zp != c->zp2 || refp != i)
            tt_move_zp2(c, i, dx, dy, 0);
    return FV_OK;
}

static fv_status shpix(tt_ctx *c, int64_t *args)
{
    int in_twilight = c->gs.gep0 == 0 || c->gs.gep1 == 0 || c->gs.gep2 == 0;
    if (c->top < (uint64_t)c->gs.loop + 1)
        return loop_done(c, tt_soft(c, FV_E_TT_STACK_UNDERFLOW, c->gs.loop));
    int64_t dx = tt_mulfix14(args[0], c->gs.fv_x);
    int64_t dy = tt_mulfix14(args[0], c->gs.fv_y);
    while (c->gs.loop > 0) {
        int64_t v = 0;
        tt_stack_pop_extra(c, &v);
        uint16_t p = tt_u16(v);
        if (!tt_point_ok(c->zp2, p)) {
            if (c->pedantic)
                return tt_fail(c, FV_E_TT_INVALID_POINT, p);
        } else if (tt_compat(c)) {
            /* COMPAT(freetype): in v40 compat SHPIX moves only in y, only in
             * the twilight zone or before IUP on composites/y-touched points. */
            if (in_twilight ||
                (!(c->iupx_called && c->iupy_called) &&
                 ((c->is_composite && c->gs.fv_y != 0) || (c->zp2->tags[p] & TT_TAG_TOUCH_Y))))
                tt_move_zp2(c, p, 0, dy, 1);
        } else
            tt_move_zp2(c, p, dx, dy, 1);
        c->gs.loop--;
    }
    return loop_done(c, FV_OK);
}

static fv_status msirp(tt_ctx *c, int64_t *args)
{
    uint16_t p = tt_u16(args[0]);
    if (!tt_point_ok(c->zp1, p) || !tt_point_ok(c->zp0, c->gs.rp0))
        return tt_soft(c, FV_E_TT_INVALID_POINT, tt_point_ok(c->zp1, p) ? c->gs.rp0 : p);
    /* COMPAT(freetype): in the twilight zone the point is first placed at
     * rp0's original position moved by the distance. */
    if (c->gs.gep1 == 0) {
        c->zp1->org[p] = c->zp0->org[c->gs.rp0];
        tt_move_orig(c, c->zp1, p, args[1]);
        c->zp1->cur[p] = c->zp1->org[p];
    }
    int64_t distance = tt_project_pts(c, c->zp1->cur[p], c->zp0->cur[c->gs.rp0]);
    tt_move(c, c->zp1, p, tt_sub(args[1], distance));
    c->gs.rp1 = c->gs.rp0;
    c->gs.rp2 = p;
    if (c->opcode & 1)
        c->gs.rp0 = p;
    return FV_OK;
}

static fv_status alignrp(tt_ctx *c)
{
    if (c->top < (uint64_t)c->gs.loop || !tt_point_ok(c->zp0, c->gs.rp0))
        return loop_done(c, tt_soft(c, c->top < (uint64_t)c->gs.loop ? FV_E_TT_STACK_UNDERFLOW
                                                                     : FV_E_TT_INVALID_POINT,
                                    c->gs.rp0));
    while (c->gs.loop > 0) {
        int64_t v = 0;
        tt_stack_pop_extra(c, &v);
        uint16_t p = tt_u16(v);
        if (!tt_point_ok(c->zp1, p)) {
            if (c->pedantic)
                return tt_fail(c, FV_E_TT_INVALID_POINT, p);
        } else {
            int64_t d = tt_project_pts(c, c->zp1->cur[p], c->zp0->cur[c->gs.rp0]);
            tt_move(c, c->zp1, p, tt_neg(d));
        }
        c->gs.loop--;
    }
    return loop_done(c, FV_OK);
}

static fv_status miap(tt_ctx *c, int64_t *args)
{
    uint64_t cvt_entry = (uint64_t)args[1];
    uint16_t p = tt_u16(args[0]);
    fv_status st = FV_OK;
    if (!tt_point_ok(c->zp0, p) || !tt_cvt_ok(c, cvt_entry)) {
        st = tt_point_ok(c->zp0, p) ? tt_soft(c, FV_E_TT_INVALID_CVT, args[1])
                                    : tt_soft(c, FV_E_TT_INVALID_POINT, p);
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
    c->gs.rp0 = p;
    c->gs.rp1 = p;
    return st;
}

static fv_status mdap(tt_ctx *c, int64_t *args)
{
    uint16_t p = tt_u16(args[0]);
    if (!tt_point_ok(c->zp0, p))
        return tt_soft(c, FV_E_TT_INVALID_POINT, p);
    int64_t distance = 0;
    if (c->opcode & 1) {
        int64_t cur = fast_project(c, c->zp0->cur[p]);
        distance = tt_sub(tt_round_value(c, cur), cur);
    }
    tt_move(c, c->zp0, p, distance);
    c->gs.rp0 = p;
    c->gs.rp1 = p;
    return FV_OK;
}

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

static fv_status mdrp(tt_ctx *c, int64_t *args)
{
    uint16_t p = tt_u16(args[0]);
    fv_status st = FV_OK;
    if (!tt_point_ok(c->zp1, p) || !tt_point_ok(c->zp0, c->gs.rp0)) {
        st = tt_soft(c, FV_E_TT_INVALID_POINT, tt_point_ok(c->zp1, p) ? c->gs.rp0 : p);
        goto done;
    }
    int64_t org_dist;
    /* COMPAT(freetype): twilight distances come from org, others from the
     * unscaled outline. */
    if (c->gs.gep0 == 0 || c->gs.gep1 == 0)
        org_dist = tt_dualproj_pts(c, c->zp1->org[p], c->zp0->org[c->gs.rp0]);
    else
        org_dist = orig_distance(c, c->zp1->orus[p], c->zp0->orus[c->gs.rp0]);
    int64_t swv = c->gs.single_width_value, swc = c->gs.single_width_cutin;
    if (swc > 0 && org_dist < tt_add(swv, swc) && org_dist > tt_sub(swv, swc))
        org_dist = org_dist >= 0 ? swv : tt_neg(swv);
    int64_t distance = (c->opcode & 4) ? tt_round_value(c, org_dist) : tt_round_none(org_dist);
    if (c->opcode & 8)
        distance = min_distance(c, org_dist, distance);
    int64_t cur = tt_project_pts(c, c->zp1->cur[p], c->zp0->cur[c->gs.rp0]);
    tt_move(c, c->zp1, p, tt_sub(distance, cur));
done:
    c->gs.rp1 = c->gs.rp0;
    c->gs.rp2 = p;
    if (c->opcode & 16)
        c->gs.rp0 = p;
    return st;
}

static fv_status mirp(tt_ctx *c, int64_t *args)
{
    uint16_t p = tt_u16(args[0]);
    uint64_t cvt_entry = (uint64_t)tt_add(args[1], 1);
    fv_status st = FV_OK;
    /* COMPAT(freetype): CVT index -1 reads as 0. */
    if (!tt_point_ok(c->zp1, p) || cvt_entry >= (uint64_t)c->cvt_size + 1 ||
        !tt_point_ok(c->zp0, c->gs.rp0)) {
        if (cvt_entry >= (uint64_t)c->cvt_size + 1)
            st = tt_soft(c, FV_E_TT_INVALID_CVT, args[1]);
        else
            st = tt_soft(c, FV_E_TT_INVALID_POINT, tt_point_ok(c->zp1, p) ? c->gs.rp0 : p);
        goto done;
    }
    int64_t cvt_dist = cvt_entry == 0 ? 0 : tt_cvt_read(c, (uint32_t)(cvt_entry - 1));
    if (tt_abs(tt_sub(cvt_dist, c->gs.single_width_value)) < c->gs.single_width_cutin)
        cvt_dist = cvt_dist >= 0 ? c->gs.single_width_value : tt_neg(c->gs.single_width_value);
    if (c->gs.gep1 == 0) {
        tt_vec r = c->zp0->org[c->gs.rp0];
        c->zp1->org[p].x = tt_add(r.x, tt_mulfix14(cvt_dist, c->gs.fv_x));
        c->zp1->org[p].y = tt_add(r.y, tt_mulfix14(cvt_dist, c->gs.fv_y));
        c->zp1->cur[p] = c->zp1->org[p];
    }
    int64_t org_dist = tt_dualproj_pts(c, c->zp1->org[p], c->zp0->org[c->gs.rp0]);
    int64_t cur_dist = tt_project_pts(c, c->zp1->cur[p], c->zp0->cur[c->gs.rp0]);
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
        c->gs.rp0 = p;
    c->gs.rp2 = p;
    return st;
}

static fv_status isect(tt_ctx *c, int64_t *args)
{
    uint16_t p = tt_u16(args[0]), a0 = tt_u16(args[1]), a1 = tt_u16(args[2]);
    uint16_t b0 = tt_u16(args[3]), b1 = tt_u16(args[4]);
    if (!tt_point_ok(c->zp0, b0) || !tt_point_ok(c->zp0, b1) || !tt_point_ok(c->zp1, a0) ||
        !tt_point_ok(c->zp1, a1) || !tt_point_ok(c->zp2, p))
        return tt_soft(c, FV_E_TT_INVALID_POINT, p);
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

static fv_status alignpts(tt_ctx *c, int64_t *args)
{
    uint16_t p1 = tt_u16(args[0]), p2 = tt_u16(args[1]);
    if (!tt_point_ok(c->zp1, p1) || !tt_point_ok(c->zp0, p2))
        return tt_soft(c, FV_E_TT_INVALID_POINT, tt_point_ok(c->zp1, p1) ? p2 : p1);
    int64_t d = tt_project_pts(c, c->zp0->cur[p2], c->zp1->cur[p1]) / 2;
    tt_move(c, c->zp1, p1, d);
    tt_move(c, c->zp0, p2, tt_neg(d));
    return FV_OK;
}

static fv_status ip(tt_ctx *c)
{
    if (c->top < (uint64_t)c->gs.loop)
        return loop_done(c, tt_soft(c, FV_E_TT_STACK_UNDERFLOW, c->gs.loop));
    /* COMPAT(freetype): in the twilight zone org stands in for orus. */
    int twilight = c->gs.gep0 == 0 || c->gs.gep1 == 0 || c->gs.gep2 == 0;
    if (!tt_point_ok(c->zp0, c->gs.rp1))
        return loop_done(c, tt_soft(c, FV_E_TT_INVALID_POINT, c->gs.rp1));
    tt_vec orus_base = twilight ? c->zp0->org[c->gs.rp1] : c->zp0->orus[c->gs.rp1];
    tt_vec cur_base = c->zp0->cur[c->gs.rp1];
    int64_t old_range = 0, cur_range = 0;
    /* COMPAT(freetype): a bad rp2 interpolates with empty ranges. */
    if (tt_point_ok(c->zp1, c->gs.rp2)) {
        if (twilight)
            old_range = tt_dualproj_pts(c, c->zp1->org[c->gs.rp2], orus_base);
        else if (c->exec_x_scale == c->exec_y_scale)
            old_range = tt_dualproj_pts(c, c->zp1->orus[c->gs.rp2], orus_base);
        else
            old_range = orig_distance(c, c->zp1->orus[c->gs.rp2], orus_base);
        cur_range = tt_project_pts(c, c->zp1->cur[c->gs.rp2], cur_base);
    }
    for (; c->gs.loop > 0; c->gs.loop--) {
        int64_t v = 0;
        tt_stack_pop_extra(c, &v);
        uint32_t p = (uint32_t)(uint64_t)v;
        if (!tt_point_ok(c->zp2, p)) {
            if (c->pedantic)
                return tt_fail(c, FV_E_TT_INVALID_POINT, p);
            continue;
        }
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

static fv_status utp(tt_ctx *c, int64_t *args)
{
    uint16_t p = tt_u16(args[0]);
    if (!tt_point_ok(c->zp0, p))
        return tt_soft(c, FV_E_TT_INVALID_POINT, p);
    uint8_t mask = 0xFF;
    if (c->gs.fv_x != 0)
        mask &= (uint8_t)~TT_TAG_TOUCH_X;
    if (c->gs.fv_y != 0)
        mask &= (uint8_t)~TT_TAG_TOUCH_Y;
    c->zp0->tags[p] &= mask;
    return FV_OK;
}

/* IUP along one axis: coordinates are selected by `ax` (0 = x, 1 = y). */
static int64_t *coord(tt_vec *v, int ax) { return ax ? &v->y : &v->x; }

static void iup_shift(tt_zone *z, int ax, uint32_t p1, uint32_t p2, uint32_t p)
{
    int64_t d = tt_sub(*coord(&z->cur[p], ax), *coord(&z->org[p], ax));
    if (d == 0)
        return;
    for (uint32_t i = p1; i <= p2; i++)
        if (i != p)
            *coord(&z->cur[i], ax) = tt_add(*coord(&z->cur[i], ax), d);
}

static void iup_interpolate(tt_zone *z, int ax, uint32_t p1, uint32_t p2, uint32_t ref1,
                            uint32_t ref2)
{
    if (p1 > p2)
        return;
    if (ref1 >= z->n_points || ref2 >= z->n_points)
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
    int trivial = cur1 == cur2 || orus1 == orus2;
    int64_t scale = 0;
    int scale_valid = 0;
    for (uint32_t i = p1; i <= p2 && i < z->n_points; i++) {
        int64_t x = *coord(&z->org[i], ax);
        if (x <= org1)
            x = tt_add(x, d1);
        else if (x >= org2)
            x = tt_add(x, d2);
        else if (trivial)
            x = cur1;
        else {
            if (!scale_valid) {
                scale_valid = 1;
                scale = fv_divfix(tt_sub(cur2, cur1), tt_sub(orus2, orus1));
            }
            x = tt_add(cur1, fv_mulfix(tt_sub(*coord(&z->orus[i], ax), orus1), scale));
        }
        *coord(&z->cur[i], ax) = x;
    }
}

static fv_status iup(tt_ctx *c)
{
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
    int ax = (c->opcode & 1) ? 0 : 1;
    uint8_t mask = ax ? TT_TAG_TOUCH_Y : TT_TAG_TOUCH_X;
    uint32_t point = 0;
    for (uint32_t contour = 0; contour < z->n_contours; contour++) {
        uint32_t end = z->contours[contour];
        uint32_t first = point;
        if (end >= z->n_points)
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
    return FV_OK;
}

static fv_status gc(tt_ctx *c, int64_t *args)
{
    uint64_t l = (uint64_t)args[0];
    if (!tt_point_ok(c->zp2, l)) {
        int64_t bad = args[0];
        args[0] = 0;
        return tt_soft(c, FV_E_TT_INVALID_POINT, bad);
    }
    if (c->opcode & 1)
        args[0] = tt_dualproj(c, c->zp2->org[l].x, c->zp2->org[l].y);
    else
        args[0] = fast_project(c, c->zp2->cur[l]);
    return FV_OK;
}

static fv_status scfs(tt_ctx *c, int64_t *args)
{
    uint16_t l = tt_u16(args[0]);
    if (!tt_point_ok(c->zp2, l))
        return tt_soft(c, FV_E_TT_INVALID_POINT, l);
    int64_t k = fast_project(c, c->zp2->cur[l]);
    tt_move(c, c->zp2, l, tt_sub(args[1], k));
    if (c->gs.gep2 == 0)
        c->zp2->org[l] = c->zp2->cur[l];
    return FV_OK;
}

static fv_status md(tt_ctx *c, int64_t *args)
{
    uint16_t k = tt_u16(args[1]), l = tt_u16(args[0]);
    int64_t d = 0;
    fv_status st = FV_OK;
    if (!tt_point_ok(c->zp0, l) || !tt_point_ok(c->zp1, k))
        st = tt_soft(c, FV_E_TT_INVALID_POINT, tt_point_ok(c->zp0, l) ? k : l);
    else if (c->opcode & 1)
        d = tt_project_pts(c, c->zp0->cur[l], c->zp1->cur[k]);
    else if (c->gs.gep0 == 0 || c->gs.gep1 == 0)
        d = tt_dualproj_pts(c, c->zp0->org[l], c->zp1->org[k]);
    else
        d = orig_distance(c, c->zp0->orus[l], c->zp1->orus[k]);
    args[0] = d;
    return st;
}

TT_HANDLER(FLIPPT)
{
    (void)args;
    fv_status st = spend_loop(c);
    return st != FV_OK ? st : flippt(c);
}
TT_HANDLER(FLIPRGON) { return fliprg(c, args, 1); }
TT_HANDLER(FLIPRGOFF) { return fliprg(c, args, 0); }
TT_HANDLER(SHP)
{
    (void)args;
    fv_status st = spend_loop(c);
    return st != FV_OK ? st : shp(c);
}
TT_HANDLER(SHC) { return shc(c, args); }
TT_HANDLER(SHZ) { return shz(c, args); }
TT_HANDLER(SHPIX)
{
    fv_status st = spend_loop(c);
    return st != FV_OK ? st : shpix(c, args);
}
TT_HANDLER(MSIRP) { return msirp(c, args); }
TT_HANDLER(ALIGNRP)
{
    (void)args;
    fv_status st = spend_loop(c);
    return st != FV_OK ? st : alignrp(c);
}
TT_HANDLER(MIAP) { return miap(c, args); }
TT_HANDLER(MDAP) { return mdap(c, args); }
TT_HANDLER(MDRP) { return mdrp(c, args); }
TT_HANDLER(MIRP) { return mirp(c, args); }
TT_HANDLER(ISECT) { return isect(c, args); }
TT_HANDLER(ALIGNPTS) { return alignpts(c, args); }
TT_HANDLER(IP)
{
    (void)args;
    fv_status st = spend_loop(c);
    return st != FV_OK ? st : ip(c);
}
TT_HANDLER(UTP) { return utp(c, args); }
TT_HANDLER(IUP) { (void)args; return iup(c); }
TT_HANDLER(GC) { return gc(c, args); }
TT_HANDLER(SCFS) { return scfs(c, args); }
TT_HANDLER(MD) { return md(c, args); }
