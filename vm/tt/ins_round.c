/* Rounding: RTHG 0x19, RTG 0x18, RTDG 0x3D, RDTG 0x7D, RUTG 0x7C, ROFF
 * 0x7A, SROUND 0x76, S45ROUND 0x77, ROUND 0x68-6B, NROUND 0x6C-6F,
 * ODD 0x56, EVEN 0x57.  Spec: "Managing the graphics state" (round
 * state), "Compensating for the engine characteristics", "Logical
 * functions" (ODD, EVEN).  Each handler (or family of handlers) is written
 * once under a header as in ins_points.c: mnemonic and opcodes, what it
 * pops (top of the stack first) and pushes, spec section, and the FreeType
 * behaviour it follows where that is not the spec's. */
#include "tt/gstate.h"
#include "tt/ins.h"

static fv_status set_round(tt_ctx *c, int64_t *args, int state)
{
    (void)args;
    c->gs.round_state = state;
    return FV_OK;
}

/* RTHG 0x19, RTG 0x18, RTDG 0x3D, RDTG 0x7D, RUTG 0x7C, ROFF 0x7A: round
 * to half grid, to grid, to double grid, down to grid, up to grid, round
 * off.  Pop nothing; push nothing.  Spec: "Managing the graphics state" /
 * RTHG, RTG, RTDG, RDTG, RUTG, ROFF.  Set the round state that ROUND, ODD,
 * EVEN and the moving instructions round with. */
TT_HANDLER(RTHG) { return set_round(c, args, TT_ROUND_HALF_GRID); }
TT_HANDLER(RTG) { return set_round(c, args, TT_ROUND_GRID); }
TT_HANDLER(RTDG) { return set_round(c, args, TT_ROUND_DOUBLE_GRID); }
TT_HANDLER(RDTG) { return set_round(c, args, TT_ROUND_DOWN_GRID); }
TT_HANDLER(RUTG) { return set_round(c, args, TT_ROUND_UP_GRID); }
TT_HANDLER(ROFF) { return set_round(c, args, TT_ROUND_OFF); }

/* SROUND 0x76, S45ROUND 0x77: super round, super round 45 degrees.  Pop
 * a selector; push nothing.  Spec: "Managing the graphics state" /
 * SROUND, S45ROUND.  Set the round state to rounding by the selector's
 * period (bits 6-7), phase (bits 4-5) and threshold (bits 0-3), in units
 * of one pixel (SROUND) or of sqrt(2)/2 pixel (S45ROUND).
 * FreeType: the reserved period 3 acts as 1 pixel (tt_set_super_round). */
TT_HANDLER(SROUND)
{
    tt_set_super_round(c, 0x4000, args[0]);
    c->gs.round_state = TT_ROUND_SUPER;
    return FV_OK;
}

TT_HANDLER(S45ROUND)
{
    tt_set_super_round(c, 0x2D41, args[0]);
    c->gs.round_state = TT_ROUND_SUPER_45;
    return FV_OK;
}

/* ROUND[ab] 0x68-0x6B, NROUND[ab] 0x6C-0x6F: round value, no round.  Pop a
 * value (26.6); push it rounded by the round state (ROUND) or as it is
 * (NROUND).  Spec: "Compensating for the engine characteristics" / ROUND,
 * NROUND.  ab names the distance type for engine compensation.
 * FreeType: the compensation is always 0, so ab changes nothing. */
TT_HANDLER(ROUND) { args[0] = tt_round_value(c, args[0]); return FV_OK; }
TT_HANDLER(NROUND) { (void)c; args[0] = tt_round_none(args[0]); return FV_OK; }
/* ODD 0x56, EVEN 0x57: odd, even.  Pop a value (26.6); push 1 if, rounded
 * by the round state, it is an odd (ODD) or even (EVEN) number of pixels,
 * else 0.  Spec: "Logical functions" / ODD, EVEN. */
TT_HANDLER(ODD) { args[0] = (tt_round_value(c, args[0]) & 127) == 64; return FV_OK; }
TT_HANDLER(EVEN) { args[0] = (tt_round_value(c, args[0]) & 127) == 0; return FV_OK; }
