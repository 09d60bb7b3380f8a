/* Miscellaneous: MPPEM 0x4B, MPS 0x4C, GETINFO 0x88, DEBUG 0x4F.
 * Spec: "Managing run-time information" / GETINFO selector bits. */
#include "tt/cvt.h"
#include "tt/ins.h"

/* GETINFO answers as FreeType 2.12.1 does for each mode. */
static int64_t getinfo(const tt_ctx *c, int64_t sel)
{
    int64_t k = 0;
    if (sel & 1)
        k = c->mode.v40 ? 40 : 35; /* rasterizer version */
    /* bits 8/9 (rotated/stretched) never: fontvm applies no transform. */
    /* bit 10: a variable font at a location (FreeType: once coordinates
     * are set). */
    if ((sel & 8) && c->var_axes)
        k |= 1 << 10;
    if ((sel & 32) && c->mode.grayscale)
        k |= 1 << 12;
    if (c->mode.v40 && c->mode.subpixel_lean) {
        if (sel & 64)
            k |= 1 << 13; /* subpixel hinting */
        /* bit 15 (vertical LCD) only for LCD_V targets, not offered */
        if (sel & 1024)
            k |= 1 << 17; /* subpixel positioned */
        if (sel & 2048)
            k |= 1 << 18; /* symmetrical smoothing */
        if ((sel & 4096) && c->mode.grayscale_cleartype)
            k |= 1 << 19;
    }
    return k;
}

TT_HANDLER(MPPEM)
{
    args[0] = tt_current_ppem(c);
    return FV_OK;
}

TT_HANDLER(MPS)
{
    /* COMPAT(freetype): v35 answers the ppem (as FreeType does; GDI
     * answers 12), v40 the point size. */
    args[0] = c->mode.v40 ? c->m.point_size : tt_current_ppem(c);
    return FV_OK;
}

TT_HANDLER(GETINFO)
{
    args[0] = getinfo(c, args[0]);
    return FV_OK;
}

TT_HANDLER(DEBUG)
{
    (void)args;
    return tt_fail(c, FV_E_TT_DEBUG_OPCODE, INT64_MIN);
}
