/* Rounding: RTHG 0x19, RTG 0x18, RTDG 0x3D, RDTG 0x7D, RUTG 0x7C, ROFF
 * 0x7A, SROUND 0x76, S45ROUND 0x77, ROUND 0x68-6B, NROUND 0x6C-6F,
 * ODD 0x56, EVEN 0x57.  Spec: "Managing the graphics state" (round
 * state), "Compensating for the engine characteristics". */
#include "tt/gstate.h"
#include "tt/ins.h"

fv_status tt_ins_round(tt_ctx *c, int64_t *args)
{
    switch (c->ops[c->opcode].first) {
    case TT_OP_RTHG: c->gs.round_state = TT_ROUND_HALF_GRID; break;
    case TT_OP_RTG: c->gs.round_state = TT_ROUND_GRID; break;
    case TT_OP_RTDG: c->gs.round_state = TT_ROUND_DOUBLE_GRID; break;
    case TT_OP_RDTG: c->gs.round_state = TT_ROUND_DOWN_GRID; break;
    case TT_OP_RUTG: c->gs.round_state = TT_ROUND_UP_GRID; break;
    case TT_OP_ROFF: c->gs.round_state = TT_ROUND_OFF; break;
    case TT_OP_SROUND:
        tt_set_super_round(c, 0x4000, args[0]);
        c->gs.round_state = TT_ROUND_SUPER;
        break;
    case TT_OP_S45ROUND:
        tt_set_super_round(c, 0x2D41, args[0]);
        c->gs.round_state = TT_ROUND_SUPER_45;
        break;
    case TT_OP_ROUND: args[0] = tt_round_value(c, args[0]); break;
    case TT_OP_NROUND: args[0] = tt_round_none(args[0]); break;
    case TT_OP_ODD: args[0] = (tt_round_value(c, args[0]) & 127) == 64; break;
    case TT_OP_EVEN: args[0] = (tt_round_value(c, args[0]) & 127) == 0; break;
    default: return tt_fail(c, FV_E_TT_INVALID_OPCODE, c->opcode);
    }
    return FV_OK;
}
