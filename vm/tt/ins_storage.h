/* Storage area and CVT instructions: WS 0x42, RS 0x43, WCVTP 0x44,
 * RCVT 0x45, WCVTF 0x70.  Spec: "Managing the storage area", "Managing the
 * Control Value Table".  Out-of-range indices read 0 and writes are dropped
 * unless pedantic (COMPAT(freetype): it ignores them for broken fonts). */
#ifndef FV_TT_INS_STORAGE_H
#define FV_TT_INS_STORAGE_H

#include "tt/cvt.h"
#include "tt/ins.h"

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

TT_INLINE_HANDLER(WS)
{
    uint64_t i = (uint64_t)args[0];
    if (!tt_storage_ok(c, i))
        return tt_soft(c, FV_E_TT_INVALID_STORAGE, args[0]);
    return tt_storage_write(c, (uint32_t)i, args[1]);
}

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

TT_INLINE_HANDLER(WCVTP)
{
    uint64_t i = (uint64_t)args[0];
    if (!tt_cvt_ok(c, i))
        return tt_soft(c, FV_E_TT_INVALID_CVT, args[0]);
    return tt_cvt_write(c, (uint32_t)i, args[1]);
}

TT_INLINE_HANDLER(WCVTF)
{
    uint64_t i = (uint64_t)args[0];
    if (!tt_cvt_ok(c, i))
        return tt_soft(c, FV_E_TT_INVALID_CVT, args[0]);
    /* The value is in font units: scale it like the CVT itself. */
    return tt_cvt_write_raw(c, (uint32_t)i, fv_mulfix(args[1], c->m.scale));
}

#endif
