/* Zones: checked point access.  Every point index from the stack goes
 * through tt_point_ok before it touches a zone array. */
#ifndef FV_TT_ZONE_H
#define FV_TT_ZONE_H

#include "tt/interp.h"

/* FreeType's BOUNDS(p, n): (unsigned)p >= n means invalid. */
static inline int tt_point_ok(const tt_zone *z, uint64_t p)
{
    return p < z->n_points;
}

/* Allocates a zone of n points and c contours (zeroed). */
fv_status tt_zone_alloc(fv_mem *mem, tt_zone *z, uint32_t n, uint32_t c);
void tt_zone_free(fv_mem *mem, tt_zone *z);

/* A zone whose arrays are kept from one use to the next (the glyph
 * loader's scratch zone, owned by the execution context). */
typedef struct tt_zone_buf {
    tt_zone z;               /* n_points / n_contours: allocated lengths */
} tt_zone_buf;

/* Points *out at b's arrays, grown to hold n points and c contours.  Tags
 * are zeroed; the caller fills every other element it reads.  out stays
 * valid until the next reserve or tt_zone_buf_free. */
fv_status tt_zone_reserve(fv_mem *mem, tt_zone_buf *b, uint32_t n, uint32_t c, tt_zone *out);
void tt_zone_buf_free(fv_mem *mem, tt_zone_buf *b);

#endif
