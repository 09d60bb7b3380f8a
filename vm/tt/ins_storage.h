/* Storage area and CVT instructions: WS 0x42, RS 0x43, WCVTP 0x44,
 * RCVT 0x45, WCVTF 0x70.  Spec: "Managing the storage area", "Managing the
 * Control Value Table".  Out-of-range indices read 0 and writes are dropped
 * unless pedantic (COMPAT(freetype): it ignores them for broken fonts).
 * Each handler is written once under a header as in ins_points.c:
 * mnemonic and opcode, what it pops (top of the stack first) and pushes,
 * spec section, and the FreeType behaviour it follows where that is not
 * the spec's. */
#ifndef FV_TT_INS_STORAGE_H
#define FV_TT_INS_STORAGE_H

#include "tt/cvt.h"
#include "tt/ins.h"

/* RS 0x43: read store.  Pops a location; pushes the value stored there.
 * Spec: "Managing the Storage Area" / RS.
 * FreeType: a bad location pushes 0 (an error only when pedantic). */
TT_INLINE_HANDLER(RS)
{
    uint64_t i = (uint64_t)args[0];
    if (!tt_storage_ok(c, i)) {
        int64_t bad = args[0];
        args[0] = 0;
        return tt_soft(c, FV_E_TT_INVALID_STORAGE, bad);
    }
    args[0] = c->storage[i];
    return FV_OK;
}

/* WS 0x42: write store.  Pops a value, then a location; pushes nothing.
 * Spec: "Managing the Storage Area" / WS.  A glyph program writes to its
 * own copy of the storage area (tt_storage_write).
 * FreeType: a bad location drops the write (an error only when
 * pedantic). */
TT_INLINE_HANDLER(WS)
{
    uint64_t i = (uint64_t)args[0];
    if (!tt_storage_ok(c, i))
        return tt_soft(c, FV_E_TT_INVALID_STORAGE, args[0]);
    return tt_storage_write(c, (uint32_t)i, args[1]);
}

/* RCVT 0x45: read control value table entry.  Pops an entry; pushes its
 * value (26.6).  Spec: "Managing the Control Value Table" / RCVT.
 * FreeType: a bad entry pushes 0 (an error only when pedantic); with
 * unequal x and y ppem the value is scaled along the projection vector
 * (tt_cvt_read). */
TT_INLINE_HANDLER(RCVT)
{
    uint64_t i = (uint64_t)args[0];
    if (!tt_cvt_ok(c, i)) {
        int64_t bad = args[0];
        args[0] = 0;
        return tt_soft(c, FV_E_TT_INVALID_CVT, bad);
    }
    args[0] = tt_cvt_read(c, (uint32_t)i);
    return FV_OK;
}

/* WCVTP 0x44: write control value table in pixel units.  Pops a value
 * (26.6), then an entry; pushes nothing.  Spec: "Managing the Control
 * Value Table" / WCVTP.
 * FreeType: a bad entry drops the write (an error only when pedantic). */
TT_INLINE_HANDLER(WCVTP)
{
    uint64_t i = (uint64_t)args[0];
    if (!tt_cvt_ok(c, i))
        return tt_soft(c, FV_E_TT_INVALID_CVT, args[0]);
    return tt_cvt_write(c, (uint32_t)i, args[1]);
}

/* WCVTF 0x70: write control value table in font units.  Pops a value in
 * font units, then an entry; pushes nothing.  Spec: "Managing the Control
 * Value Table" / WCVTF.  The value is scaled to the size like the CVT.
 * FreeType: a bad entry drops the write (an error only when pedantic). */
TT_INLINE_HANDLER(WCVTF)
{
    uint64_t i = (uint64_t)args[0];
    if (!tt_cvt_ok(c, i))
        return tt_soft(c, FV_E_TT_INVALID_CVT, args[0]);
    /* The value is in font units: scale it like the CVT itself. */
    return tt_cvt_write_raw(c, (uint32_t)i, fv_mulfix(args[1], c->m.scale));
}

#endif
