/* Zones: checked point access.  Every point index from the stack goes
 * through tt_point_ref before it touches a zone array. */
#ifndef FV_TT_ZONE_H
#define FV_TT_ZONE_H

#include "tt/interp.h"

/* Point idx of zone z when it exists (FreeType's BOUNDS(idx, n_points)
 * fails otherwise): 1 and *p = idx, else 0.  For the callers that decide
 * themselves what a missing point means; the instructions use
 * tt_point_ref. */
static inline int tt_point_get(const tt_zone *z, uint64_t idx, uint32_t *p)
{
    FV_TESTCASE(idx + 1 == z->n_points); /* the zone's last point */
    FV_TESTCASE(idx == z->n_points);     /* the first past it */
    if (FV_LIKELY(idx < z->n_points)) {
        *p = (uint32_t)idx;
        return 1;
    }
    return 0;
}

/* Point idx of zone z, checked as FreeType's BOUNDS(idx, n_points): 1 and
 * *p = idx when the point exists.  Otherwise 0, and *st is FreeType's
 * reaction, what the instruction returns: tt_invalid_point (context
 * filled, index idx) with pedantic hinting, else FV_OK (the instruction
 * stops there, a looped one goes on with its next point, and the run goes
 * on).  Only *p indexes the zone's arrays afterwards.  (Returning the
 * status itself would need a third value for "ignored" that the
 * dispatcher tests after every instruction: measured +1 instruction per
 * dispatch, 0.5% on Arimo.) */
static inline int tt_point_ref(tt_ctx *c, const tt_zone *z, uint64_t idx, uint32_t *p,
                               fv_status *st)
{
    if (FV_LIKELY(tt_point_get(z, idx, p)))
        return 1;
    *st = tt_soft(c, FV_E_TT_INVALID_POINT, (int64_t)idx);
    return 0;
}

/* Points a (zone za) and b (zone zb), checked in that order by
 * tt_point_ref: the error names the first one missing. */
static inline int tt_point_pair(tt_ctx *c, const tt_zone *za, uint64_t a, uint32_t *pa,
                                const tt_zone *zb, uint64_t b, uint32_t *pb, fv_status *st)
{
    return tt_point_ref(c, za, a, pa, st) && tt_point_ref(c, zb, b, pb, st);
}

/* Diagnostics (fontvm lint): point p of zone z is about to be read as a
 * reference, measured or taken as a line's end.  A twilight point that no
 * instruction has set yet is reported (FV_TT_DIAG_TWILIGHT_UNSET).  With
 * the hook off this costs a pointer compare, and only the instructions
 * that read such points call it. */
void tt_twilight_read(tt_ctx *c, uint32_t p);
static inline void tt_point_read(tt_ctx *c, const tt_zone *z, uint32_t p)
{
    if (FV_UNLIKELY(z == &c->twilight))
        tt_twilight_read(c, p);
}

/* Allocates a zone of n points and c contours (zeroed). */
fv_status tt_zone_alloc(fv_mem *mem, tt_zone *z, uint32_t n, uint32_t c);
void tt_zone_free(fv_mem *mem, tt_zone *z);

/* The glyph loader's zone: org, orus and the contour ends kept from one
 * load to the next (owned by the execution context); cur and tags are the
 * loader's outline itself, as FreeType's zone points into its glyph
 * loader, so the hinted points need no copying back. */
typedef struct tt_zone_buf {
    tt_zone z;               /* n_points / n_contours: allocated lengths; cur, tags NULL */
} tt_zone_buf;

/* Points *out at b's org, orus and contours, grown to hold n points and c
 * contours, and at the caller's cur and tags (n points each).  The caller
 * fills every element it reads.  out stays valid until the next reserve or
 * tt_zone_buf_free. */
fv_status tt_zone_reserve(fv_mem *mem, tt_zone_buf *b, uint32_t n, uint32_t c, tt_vec *cur,
                          uint8_t *tags, tt_zone *out);
void tt_zone_buf_free(fv_mem *mem, tt_zone_buf *b);

#endif
