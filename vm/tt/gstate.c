/* Graphics state helpers: vectors, projection, movement, rounding. */
#include "tt/gstate.h"

void tt_gs_default(tt_gs *gs)
{
    gs->rp0 = gs->rp1 = gs->rp2 = 0;
    gs->dv_x = gs->pv_x = gs->fv_x = 0x4000;
    gs->dv_y = gs->pv_y = gs->fv_y = 0;
    gs->loop = 1;
    gs->minimum_distance = 64;
    gs->round_state = TT_ROUND_GRID;
    gs->auto_flip = 1;
    gs->control_value_cutin = 68; /* 17/16 pixel */
    gs->single_width_cutin = 0;
    gs->single_width_value = 0;
    gs->delta_base = 9;
    gs->delta_shift = 3;
    gs->instruct_control = 0;
    gs->scan_control = 0;
    gs->scan_type = 0;
    gs->gep0 = gs->gep1 = gs->gep2 = 1;
}

void tt_compute_funcs(tt_ctx *c)
{
    const tt_gs *g = &c->gs;
    if (g->fv_x == 0x4000)
        c->f_dot_p = g->pv_x;
    else if (g->fv_y == 0x4000)
        c->f_dot_p = g->pv_y;
    else
        c->f_dot_p = tt_asr((int64_t)g->pv_x * g->fv_x + (int64_t)g->pv_y * g->fv_y, 14);
    /* COMPAT(freetype): "at small sizes, F_dot_P can become too small,
     * resulting in overflows and spikes" — clamp to 1.0 below 1/16. */
    if (tt_abs(c->f_dot_p) < 0x400)
        c->f_dot_p = 0x4000;
    c->ratio = 0;
}

static unsigned msb32(uint32_t v)
{
    unsigned n = 0;
    while (v >>= 1)
        n++;
    return n;
}

/* FreeType's vector normaliser (FT_Vector_NormLen): a prenormalising shift
 * then Newton iterations on 32-bit values.  Reimplemented from the
 * algorithm's description and checked against FreeType through SPVTL/GPV
 * and composite offsets; returns the unit vector in 16.16 and the length. */
static uint32_t norm_len(int64_t *px, int64_t *py)
{
    int32_t x_in = (int32_t)(uint32_t)(uint64_t)*px, y_in = (int32_t)(uint32_t)(uint64_t)*py;
    uint32_t x = (uint32_t)x_in, y = (uint32_t)y_in;
    int sx = 1, sy = 1;
    if (x_in < 0) {
        x = 0u - x;
        sx = -1;
    }
    if (y_in < 0) {
        y = 0u - y;
        sy = -1;
    }
    if (x == 0) {
        if (y > 0)
            *py = sy * 0x10000;
        return y;
    }
    if (y == 0) {
        if (x > 0)
            *px = sx * 0x10000;
        return x;
    }
    uint32_t l = x > y ? x + (y >> 1) : y + (x >> 1);
    int shift = 31 - (int)msb32(l);
    shift -= 15 + (l >= (0xAAAAAAAAu >> shift) ? 1 : 0);
    if (shift > 0) {
        x <<= shift;
        y <<= shift;
        l = x > y ? x + (y >> 1) : y + (x >> 1);
    } else {
        x >>= -shift;
        y >>= -shift;
        l >>= -shift;
    }
    int32_t b = 0x10000 - (int32_t)l;
    int32_t xs = (int32_t)x, ys = (int32_t)y, z;
    uint32_t u, v;
    do {
        u = (uint32_t)(xs + (int32_t)tt_asr((int64_t)xs * b, 16));
        v = (uint32_t)(ys + (int32_t)tt_asr((int64_t)ys * b, 16));
        z = -(int32_t)(u * u + v * v) / 0x200;
        z = (int32_t)((int64_t)z * ((0x10000 + b) >> 8) / 0x10000);
        b += z;
    } while (z > 0);
    *px = sx < 0 ? -(int64_t)u : (int64_t)u;
    *py = sy < 0 ? -(int64_t)v : (int64_t)v;
    l = (uint32_t)(0x10000 + (int32_t)(u * x + v * y) / 0x10000);
    if (shift > 0)
        l = (l + (1u << (shift - 1))) >> shift;
    else
        l = (uint32_t)((uint64_t)l << -shift);
    return l;
}

void tt_normalize(int64_t x, int64_t y, int16_t *vx, int16_t *vy)
{
    if (x == 0 && y == 0)
        return; /* COMPAT(freetype): undocumented; the vector is left as is */
    int64_t nx = x, ny = y;
    norm_len(&nx, &ny);
    *vx = (int16_t)(nx / 4);
    *vy = (int16_t)(ny / 4);
}

/* Vector length by CORDIC in vectoring mode: prenormalise so that the
 * larger magnitude has its top bit at bit 29, turn the vector by a multiple
 * of 90 degrees into the sector around +x (exact), then 22 pseudo-rotations
 * by atan(2^-i), i = 1..22, each towards the x axis with the shifted terms
 * rounded, leave x = length * K where K = prod sqrt(1 + 2^-2i); the length is
 * x / K (0xDBD95B16 = 2^32 / K, the product biased by 2^30) with the
 * prenormalising shift undone, rounded.  The parameters (top bit, rotation
 * count, rounding of each step, bias) were fitted against FreeType 2.12.1's
 * public FT_Vector_Length over 54 million vectors with no difference
 * (tests/tt/test_tt_ratio.c keeps a sweep of them).  COMPAT(freetype): its
 * interpreter stretches CVT values at non-square ppem by this length, not
 * by the Newton normaliser's above, which differs in the last bit for about
 * 4 vectors in 10 (measured through MIRP: tt_diff F-19); glyph.c's scaled
 * composite offsets take it too.  Components are taken as 32-bit values,
 * like the normaliser's. */
int64_t tt_hypot(int64_t x, int64_t y)
{
    int64_t vx = (int32_t)(uint32_t)(uint64_t)x, vy = (int32_t)(uint32_t)(uint64_t)y;
    if (vx == 0)
        return tt_abs(vy);
    if (vy == 0)
        return tt_abs(vx);
    int shift = 29 - (int)msb32((uint32_t)(tt_abs(vx) | tt_abs(vy)));
    if (shift > 0) {
        vx *= (int64_t)1 << shift;
        vy *= (int64_t)1 << shift;
    } else {
        vx = tt_asr(vx, (unsigned)-shift);
        vy = tt_asr(vy, (unsigned)-shift);
    }
    int64_t t;
    if (vy > vx) {
        if (vy > -vx) { /* upper sector: turn by -90 degrees */
            t = vy;
            vy = -vx;
            vx = t;
        } else { /* left sector: turn by 180 degrees */
            vx = -vx;
            vy = -vy;
        }
    } else if (vy < -vx) { /* lower sector: turn by +90 degrees */
        t = -vy;
        vy = vx;
        vx = t;
    }
    for (unsigned i = 1; i <= 22; i++) {
        int64_t half = (int64_t)1 << (i - 1);
        int64_t dx = tt_asr(vy + half, i), dy = tt_asr(vx + half, i);
        if (vy > 0) {
            vx += dx;
            vy -= dy;
        } else {
            vx -= dx;
            vy += dy;
        }
    }
    uint64_t len = ((uint64_t)tt_abs(vx) * 0xDBD95B16u + 0x40000000u) >> 32;
    int64_t r = vx < 0 ? -(int64_t)len : (int64_t)len;
    if (shift > 0)
        return tt_asr(r + ((int64_t)1 << (shift - 1)), (unsigned)shift);
    return (int64_t)((uint64_t)r << -shift);
}

int64_t tt_project(const tt_ctx *c, int64_t dx, int64_t dy)
{
    if (c->gs.pv_x == 0x4000)
        return dx;
    if (c->gs.pv_y == 0x4000)
        return dy;
    return fv_dotfix14((int32_t)(uint32_t)(uint64_t)dx, (int32_t)(uint32_t)(uint64_t)dy,
                       c->gs.pv_x, c->gs.pv_y);
}

int64_t tt_dualproj(const tt_ctx *c, int64_t dx, int64_t dy)
{
    if (c->gs.dv_x == 0x4000)
        return dx;
    if (c->gs.dv_y == 0x4000)
        return dy;
    return fv_dotfix14((int32_t)(uint32_t)(uint64_t)dx, (int32_t)(uint32_t)(uint64_t)dy,
                       c->gs.dv_x, c->gs.dv_y);
}

/* COMPAT(freetype): FreeType picks its move function from F_dot_P before
 * clamping it (tt_compute_funcs): when F_dot_P is exactly 1.0 and one
 * component of the freedom vector is exactly 1.0 (0x4000), it moves along
 * that axis only (Direct_Move_X / Direct_Move_Y) and touches that axis
 * only, even when the other component is not 0 (SFVTL on a long, nearly
 * vertical line normalises to e.g. (-38, 0x4000)); every other case,
 * including a clamped F_dot_P, goes through the general move, whose
 * distance * fv / F_dot_P wraps like FreeType's for |distance| >= 2^50.
 * Measured against FreeType 2.12.1 (tt_diff findings F-12, F-18). */
static int move_axis(const tt_ctx *c)
{
    const tt_gs *g = &c->gs;
    if (g->fv_x == 0x4000) /* unclamped F_dot_P is pv.x */
        return g->pv_x == 0x4000 ? 1 : 0;
    if (g->fv_y == 0x4000) /* unclamped F_dot_P is pv.y */
        return g->pv_y == 0x4000 ? 2 : 0;
    return 0;
}

void tt_move(tt_ctx *c, tt_zone *z, uint32_t p, int64_t distance)
{
    const tt_gs *g = &c->gs;
    int axis = move_axis(c);
    if (axis == 1 || (axis == 0 && g->fv_x != 0)) {
        /* COMPAT(freetype): v40 backward compatibility ignores x moves. */
        if (!tt_compat(c))
            z->cur[p].x = tt_add(z->cur[p].x, axis == 1 ? distance
                                                         : tt_muldiv(distance, g->fv_x, c->f_dot_p));
        z->tags[p] |= TT_TAG_TOUCH_X;
    }
    if (axis == 2 || (axis == 0 && g->fv_y != 0)) {
        /* COMPAT(freetype): after IUP[x] and IUP[y], v40 compat freezes y. */
        if (!tt_compat_frozen(c))
            z->cur[p].y = tt_add(z->cur[p].y, axis == 2 ? distance
                                                         : tt_muldiv(distance, g->fv_y, c->f_dot_p));
        else
            tt_diag(c, FV_TT_DIAG_AFTER_IUP, FV_OK, p);
        z->tags[p] |= TT_TAG_TOUCH_Y;
    }
}

void tt_move_orig(tt_ctx *c, tt_zone *z, uint32_t p, int64_t distance)
{
    const tt_gs *g = &c->gs;
    int axis = move_axis(c);
    if (axis == 1 || (axis == 0 && g->fv_x != 0))
        z->org[p].x = tt_add(z->org[p].x, axis == 1 ? distance
                                                     : tt_muldiv(distance, g->fv_x, c->f_dot_p));
    if (axis == 2 || (axis == 0 && g->fv_y != 0))
        z->org[p].y = tt_add(z->org[p].y, axis == 2 ? distance
                                                     : tt_muldiv(distance, g->fv_y, c->f_dot_p));
}

void tt_move_zp2(tt_ctx *c, uint32_t p, int64_t dx, int64_t dy, int touch)
{
    tt_zone *z = c->zp2;
    if (c->gs.fv_x != 0) {
        if (!tt_compat(c))
            z->cur[p].x = tt_add(z->cur[p].x, dx);
        if (touch)
            z->tags[p] |= TT_TAG_TOUCH_X;
    }
    if (c->gs.fv_y != 0) {
        if (!tt_compat_frozen(c))
            z->cur[p].y = tt_add(z->cur[p].y, dy);
        if (touch)
            z->tags[p] |= TT_TAG_TOUCH_Y;
    }
}

/* The rounding functions, with FreeType's engine compensation always 0. */
int64_t tt_round_none(int64_t d)
{
    return d;
}

static int64_t round_grid(int64_t d)
{
    int64_t v;
    if (d >= 0) {
        v = tt_round(d);
        if (v < 0)
            v = 0;
    } else {
        v = tt_neg(tt_round(tt_neg(d)));
        if (v > 0)
            v = 0;
    }
    return v;
}

static int64_t round_half_grid(int64_t d)
{
    int64_t v;
    if (d >= 0) {
        v = tt_add(tt_floor(d), 32);
        if (v < 0)
            v = 32;
    } else {
        v = tt_neg(tt_add(tt_floor(tt_neg(d)), 32));
        if (v > 0)
            v = -32;
    }
    return v;
}

static int64_t round_down(int64_t d)
{
    int64_t v;
    if (d >= 0) {
        v = tt_floor(d);
        if (v < 0)
            v = 0;
    } else {
        v = tt_neg(tt_floor(tt_neg(d)));
        if (v > 0)
            v = 0;
    }
    return v;
}

static int64_t round_up(int64_t d)
{
    int64_t v;
    if (d >= 0) {
        v = tt_ceil(d);
        if (v < 0)
            v = 0;
    } else {
        v = tt_neg(tt_ceil(tt_neg(d)));
        if (v > 0)
            v = 0;
    }
    return v;
}

static int64_t round_double(int64_t d)
{
    int64_t v;
    if (d >= 0) {
        v = (int64_t)((uint64_t)tt_add(d, 16) & ~(uint64_t)31);
        if (v < 0)
            v = 0;
    } else {
        v = tt_neg((int64_t)((uint64_t)tt_add(tt_neg(d), 16) & ~(uint64_t)31));
        if (v > 0)
            v = 0;
    }
    return v;
}

static int64_t round_super(const tt_ctx *c, int64_t d)
{
    int64_t v;
    uint64_t mask = 0u - (uint64_t)c->period;
    if (d >= 0) {
        v = (int64_t)((uint64_t)tt_add(d, c->threshold - c->phase) & mask);
        v = tt_add(v, c->phase);
        if (v < 0)
            v = c->phase;
    } else {
        v = tt_neg((int64_t)((uint64_t)tt_sub(c->threshold - c->phase, d) & mask));
        v = tt_sub(v, c->phase);
        if (v > 0)
            v = tt_neg(c->phase);
    }
    return v;
}

static int64_t round_super45(const tt_ctx *c, int64_t d)
{
    int64_t v;
    /* SROUND and S45ROUND set periods of 1/2 to 2 pixels, never 0. */
    int64_t period = FV_NEVER(c->period == 0) ? 1 : c->period;
    if (d >= 0) {
        v = tt_mul(tt_add(d, c->threshold - c->phase) / period, period);
        v = tt_add(v, c->phase);
        if (v < 0)
            v = c->phase;
    } else {
        v = tt_neg(tt_mul(tt_sub(c->threshold - c->phase, d) / period, period));
        v = tt_sub(v, c->phase);
        if (v > 0)
            v = tt_neg(c->phase);
    }
    return v;
}

int64_t tt_round_value(const tt_ctx *c, int64_t d)
{
    switch (c->gs.round_state) {
    case TT_ROUND_HALF_GRID: return round_half_grid(d);
    case TT_ROUND_GRID: return round_grid(d);
    case TT_ROUND_DOUBLE_GRID: return round_double(d);
    case TT_ROUND_DOWN_GRID: return round_down(d);
    case TT_ROUND_UP_GRID: return round_up(d);
    case TT_ROUND_SUPER: return round_super(c, d);
    case TT_ROUND_SUPER_45: return round_super45(c, d);
    default: return d;
    }
}

void tt_set_super_round(tt_ctx *c, int64_t grid_period, int64_t selector)
{
    switch (selector & 0xC0) {
    case 0: c->period = grid_period / 2; break;
    case 0x40: c->period = grid_period; break;
    case 0x80: c->period = grid_period * 2; break;
    default: c->period = grid_period; break; /* reserved: as 0x40 */
    }
    switch (selector & 0x30) {
    case 0: c->phase = 0; break;
    case 0x10: c->phase = c->period / 4; break;
    case 0x20: c->phase = c->period / 2; break;
    default: c->phase = c->period * 3 / 4; break;
    }
    if ((selector & 0x0F) == 0)
        c->threshold = c->period - 1;
    else
        c->threshold = ((int64_t)(selector & 0x0F) - 4) * c->period / 8;
    c->period = tt_asr(c->period, 8);
    c->phase = tt_asr(c->phase, 8);
    c->threshold = tt_asr(c->threshold, 8);
}
