/* CVT and storage area, with FreeType's copy-on-write for glyph programs:
 * a glyph program's first write of a run copies the size's CVT (or storage)
 * and the run goes on with the copy, so its writes are seen by the rest of
 * that run only — not by the next component's program, the composite's
 * program or later glyphs (each glyph program run starts from the size's
 * arrays: glyph.c).  COMPAT(freetype): WCVTF is the exception, measured
 * against FreeType 2.12.1 (tt_diff finding F-5): it writes the array the
 * run currently uses without making the copy, so a WCVTF before any other
 * CVT write of the run changes the size's CVT for every later program and
 * glyph of the size. */
#ifndef FV_TT_CVT_H
#define FV_TT_CVT_H

#include "tt/interp.h"

/* Current_Ratio: the CVT stretch for non-square pixels (16.16). */
int64_t tt_current_ratio(tt_ctx *c);
/* Current_Ppem(_Stretched). */
int64_t tt_current_ppem(tt_ctx *c);

static inline int tt_cvt_ok(const tt_ctx *c, uint64_t i)
{
    FV_TESTCASE(i + 1 == c->cvt_size); /* the last entry */
    FV_TESTCASE(i == c->cvt_size);     /* the first past it */
    return i < c->cvt_size;
}
static inline int tt_storage_ok(const tt_ctx *c, uint64_t i)
{
    FV_TESTCASE(i + 1 == c->storage_size);
    FV_TESTCASE(i == c->storage_size);
    return i < c->storage_size;
}

/* Callers check the index first. */
int64_t tt_cvt_read_stretched(tt_ctx *c, uint32_t i); /* Read_CVT_Stretched */
static inline int64_t tt_cvt_read(tt_ctx *c, uint32_t i)
{
    return c->m.x_ppem == c->m.y_ppem ? c->cvt[i] : tt_cvt_read_stretched(c, i);
}
fv_status tt_cvt_write(tt_ctx *c, uint32_t i, int64_t v);       /* Write_CVT(_Stretched) */
fv_status tt_cvt_write_raw(tt_ctx *c, uint32_t i, int64_t v);   /* WCVTF: no stretch */
fv_status tt_cvt_move(tt_ctx *c, uint32_t i, int64_t delta);    /* Move_CVT(_Stretched) */
/* Gives the running glyph program its own copy of the storage area. */
fv_status tt_storage_own(tt_ctx *c);
static inline fv_status tt_storage_write(tt_ctx *c, uint32_t i, int64_t v)
{
    if (c->ini_range == TT_RANGE_GLYPH && !c->storage_is_copy) {
        fv_status st = tt_storage_own(c);
        if (st != FV_OK)
            return st;
    }
    c->storage[i] = v;
    return FV_OK;
}

#endif
