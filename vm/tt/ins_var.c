/* GETVARIATION 0x91 and GETDATA 0x92 in a variable font at a location,
 * as FreeType 2.12.1 runs them once an application has set coordinates
 * (before that, and in static fonts, they are undefined opcodes:
 * tt_ins_unknown, interp.c's stack-top quirk). */
#include "tt/ins.h"
#include "tt/opcodes.h"

fv_status tt_ins_unknown_or_variation(tt_ctx *c, int64_t *args)
{
    if (c->var_axes == 0)
        return tt_ins_unknown(c);
    if (c->opcode == TT_OP_GETVARIATION) {
        /* One value per axis, the normalized coordinate in 2.14 (the 16.16
         * value shifted down, as FreeType does); interp.c made room. */
        for (uint32_t i = 0; i < c->var_axes; i++)
            args[i] = c->var_coords[i] >> 2;
        return FV_OK;
    }
    if (c->opcode == TT_OP_GETDATA) {
        /* COMPAT(freetype): FreeType 2.12.1 answers 17 whatever is asked. */
        args[0] = 17;
        return FV_OK;
    }
    return tt_ins_unknown(c);
}
