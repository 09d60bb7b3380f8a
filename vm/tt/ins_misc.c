/* Miscellaneous: MPPEM 0x4B, MPS 0x4C, GETINFO 0x88, DEBUG 0x4F.  Spec:
 * "Reading and writing data" (MPPEM, MPS), "Miscellaneous instructions"
 * (GETINFO), "Debugging" (DEBUG).  Each handler is written once under a
 * header as in ins_points.c. */
#include "tt/cvt.h"
#include "tt/ins.h"

/* GETINFO 0x88: get information.  Pops a selector; pushes the answer.
 * Spec: "Miscellaneous instructions" / GETINFO (selector bits).  Each
 * selector bit asks one question; the answer sets one bit per yes (and
 * the version, selector bit 0, in its low byte).
 * FreeType: answers as FreeType 2.12.1 does in each mode: version 35 or
 * 40, and the subpixel bits only in v40 subpixel hinting. */
TT_HANDLER(GETINFO)
{
    int64_t sel = args[0];
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
    args[0] = k;
    return FV_OK;
}

/* MPPEM 0x4B: measure pixels per em.  Pops nothing; pushes the ppem.
 * Spec: "Reading and writing data" / MPPEM.
 * FreeType: when the x and y ppem differ, the ppem along the projection
 * vector (tt_current_ppem). */
TT_HANDLER(MPPEM)
{
    args[0] = tt_current_ppem(c);
    return FV_OK;
}

/* MPS 0x4C: measure point size.  Pops nothing; pushes the point size.
 * Spec: "Reading and writing data" / MPS. */
TT_HANDLER(MPS)
{
    /* COMPAT(freetype): v35 answers the ppem (as FreeType does; GDI
     * answers 12), v40 the point size. */
    args[0] = c->mode.v40 ? c->m.point_size : tt_current_ppem(c);
    return FV_OK;
}

/* DEBUG 0x4F: debug call.  Pops a value; pushes nothing.  Spec:
 * "Debugging" / DEBUG.
 * FreeType: an error outside a debugger (tt_debug_opcode). */
TT_HANDLER(DEBUG)
{
    (void)args;
    return tt_fail(c, FV_E_TT_DEBUG_OPCODE, INT64_MIN);
}
