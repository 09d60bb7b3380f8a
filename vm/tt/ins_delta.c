/* Delta exceptions: DELTAP1 0x5D, DELTAP2 0x71, DELTAP3 0x72, DELTAC1 0x73,
 * DELTAC2 0x74, DELTAC3 0x75.  Spec: "Managing exceptions".  Each pops n
 * then n (argument, index) pairs; running out of pairs stops the loop. */
#include "tt/cvt.h"
#include "tt/gstate.h"
#include "tt/ins.h"
#include "tt/zone.h"

/* is_point: DELTAP (else DELTAC); range: 0, 16 or 32 added to the ppem
 * encoded in each argument (DELTAx1, x2, x3). */
static fv_status delta(tt_ctx *c, int64_t *args, int is_point, uint64_t range)
{
    uint64_t ppem = (uint64_t)tt_current_ppem(c);
    uint64_t n = (uint64_t)args[0];
    /* One step per pair it can pop (fewer than n pairs stops the loop). */
    fv_status st = tt_spend(c, n < c->args / 2 ? n : c->args / 2);
    if (st != FV_OK)
        return st;
    for (uint64_t k = 1; k <= n; k++) {
        if (c->args < 2) {
            st = tt_soft(c, FV_E_TT_STACK_UNDERFLOW, (int64_t)k);
            c->args = 0;
            break;
        }
        c->args -= 2;
        int64_t a_raw = c->stack[c->args + 1];
        int64_t b = c->stack[c->args];
        uint32_t point = 0;
        if (is_point) {
            fv_status bad = FV_OK;
            if (!tt_point_ref(c, c->zp0, tt_u16(a_raw), &point, &bad)) {
                if (bad != FV_OK)
                    st = bad; /* COMPAT(freetype): pedantic DELTAP goes on, DELTAC stops */
                continue;
            }
        } else if (!tt_cvt_ok(c, (uint64_t)a_raw)) {
            if (c->pedantic)
                return tt_fail(c, FV_E_TT_INVALID_CVT, a_raw);
            continue;
        }
        uint64_t cppem = (((uint64_t)b & 0xF0) >> 4) + range + c->gs.delta_base;
        if (ppem != cppem)
            continue;
        int64_t step = (int64_t)((uint64_t)b & 0xF) - 8;
        if (step >= 0)
            step++;
        /* Steps of 1 / 2^delta_shift pixel, in 26.6. */
        step = step * 64 / ((int64_t)1 << c->gs.delta_shift);
        if (!is_point) {
            fv_status w = tt_cvt_move(c, (uint32_t)a_raw, step);
            if (w != FV_OK)
                return w;
            continue;
        }
        if (tt_compat(c)) {
            /* COMPAT(freetype): v40 compat applies DELTAP only before IUP,
             * to composites along y or to y-touched points. */
            if (!(c->iupx_called && c->iupy_called) &&
                ((c->is_composite && c->gs.fv_y != 0) || (c->zp0->tags[point] & TT_TAG_TOUCH_Y)))
                tt_move(c, c->zp0, point, step);
            else if (c->iupx_called && c->iupy_called)
                tt_diag(c, FV_TT_DIAG_AFTER_IUP, FV_OK, point);
        } else
            tt_move(c, c->zp0, point, step);
    }
    c->new_top = c->args;
    return st;
}

/* DELTAP1 0x5D, DELTAP2 0x71, DELTAP3 0x72: delta exception P1, P2, P3.
 * Pops n, then n pairs of a point (zp0) and an argument; pushes nothing.
 * Spec: "Managing exceptions" / DELTAP1-3.  At the ppem an argument names
 * (its high nibble + delta_base, + 16 for DELTAP2, + 32 for DELTAP3), moves
 * its point along the freedom vector by its low nibble's step (-8..-1,
 * 1..8) of 1 / 2^delta_shift pixel.
 * FreeType: a bad point is skipped (pedantic hinting reports it and goes
 * on); in v40 backward compatibility a point moves only before both IUPs,
 * and then only in a composite with a freedom vector not along x or when
 * already touched in y. */
TT_HANDLER(DELTAP1) { return delta(c, args, 1, 0); }
TT_HANDLER(DELTAP2) { return delta(c, args, 1, 16); }
TT_HANDLER(DELTAP3) { return delta(c, args, 1, 32); }

/* DELTAC1 0x73, DELTAC2 0x74, DELTAC3 0x75: delta exception C1, C2, C3.
 * Pops n, then n pairs of a CVT entry and an argument; pushes nothing.
 * Spec: "Managing exceptions" / DELTAC1-3.  At the ppem an argument names
 * (as for DELTAP), adds its step to the CVT entry (in pixels, 26.6).
 * FreeType: a bad entry is skipped, or stops the instruction when hinting
 * is pedantic. */
TT_HANDLER(DELTAC1) { return delta(c, args, 0, 0); }
TT_HANDLER(DELTAC2) { return delta(c, args, 0, 16); }
TT_HANDLER(DELTAC3) { return delta(c, args, 0, 32); }
