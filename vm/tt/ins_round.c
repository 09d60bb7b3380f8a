/* Rounding: RTHG 0x19, RTG 0x18, RTDG 0x3D, RDTG 0x7D, RUTG 0x7C, ROFF
 * 0x7A, SROUND 0x76, S45ROUND 0x77, ROUND 0x68-6B, NROUND 0x6C-6F,
 * ODD 0x56, EVEN 0x57.  Spec: "Managing the graphics state" (round
 * state), "Compensating for the engine characteristics". */
#include "tt/gstate.h"
#include "tt/ins.h"

static fv_status set_round(tt_ctx *c, int64_t *args, int state)
{
    (void)args;
    c->gs.round_state = state;
    return FV_OK;
}

TT_HANDLER(RTHG) { return set_round(c, args, TT_ROUND_HALF_GRID); }
TT_HANDLER(RTG) { return set_round(c, args, TT_ROUND_GRID); }
TT_HANDLER(RTDG) { return set_round(c, args, TT_ROUND_DOUBLE_GRID); }
TT_HANDLER(RDTG) { return set_round(c, args, TT_ROUND_DOWN_GRID); }
TT_HANDLER(RUTG) { return set_round(c, args, TT_ROUND_UP_GRID); }
TT_HANDLER(ROFF) { return set_round(c, args, TT_ROUND_OFF); }

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

TT_HANDLER(ROUND) { args[0] = tt_round_value(c, args[0]); return FV_OK; }
TT_HANDLER(NROUND) { (void)c; args[0] = tt_round_none(args[0]); return FV_OK; }
TT_HANDLER(ODD) { args[0] = (tt_round_value(c, args[0]) & 127) == 64; return FV_OK; }
TT_HANDLER(EVEN) { args[0] = (tt_round_value(c, args[0]) & 127) == 0; return FV_OK; }
