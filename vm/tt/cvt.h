/* CVT and storage area, with FreeType's copy-on-write for glyph programs:
 * a glyph program's writes go to a per-load copy, so they are seen by the
 * later programs of the same load (components, then the composite) but not
 * by other glyphs (FreeType 2.11.1+, freetype!23). */
#ifndef FV_TT_CVT_H
#define FV_TT_CVT_H

#include "tt/interp.h"

/* Current_Ratio: the CVT stretch for non-square pixels (16.16). */
int64_t tt_current_ratio(tt_ctx *c);
/* Current_Ppem(_Stretched). */
int64_t tt_current_ppem(tt_ctx *c);

static inline int tt_cvt_ok(const tt_ctx *c, uint64_t i) { return i < c->cvt_size; }
static inline int tt_storage_ok(const tt_ctx *c, uint64_t i) { return i < c->storage_size; }

/* Callers check the index first. */
int64_t tt_cvt_read(tt_ctx *c, uint32_t i);
fv_status tt_cvt_write(tt_ctx *c, uint32_t i, int64_t v);       /* Write_CVT(_Stretched) */
fv_status tt_cvt_write_raw(tt_ctx *c, uint32_t i, int64_t v);   /* WCVTF: no stretch */
fv_status tt_cvt_move(tt_ctx *c, uint32_t i, int64_t delta);    /* Move_CVT(_Stretched) */
fv_status tt_storage_write(tt_ctx *c, uint32_t i, int64_t v);

#endif
