/* Zone allocation (the glyph zone and the twilight zone). */
#include <string.h>

#include "tt/exec.h"
#include "tt/zone.h"

void tt_twilight_read(tt_ctx *c, uint32_t p)
{
    if (FV_LIKELY(c->ex == NULL || c->ex->diag == NULL))
        return;
    /* Every instruction that places or moves a twilight point (MIAP, MIRP
     * and MSIRP, which place it from a reference first, SCFS, SHP, SHPIX,
     * ALIGNRP, ... all end in a move) marks it touched, and prep's reset
     * clears the marks with the positions; only UTP clears them otherwise,
     * so a point UTP untouched counts as unset again. */
    if ((c->twilight.tags[p] & TT_TAG_TOUCH_BOTH) == 0)
        tt_diag(c, FV_TT_DIAG_TWILIGHT_UNSET, FV_OK, p);
}

fv_status tt_zone_alloc(fv_mem *mem, tt_zone *z, uint32_t n, uint32_t c)
{
    tt_zone zero = { 0, 0, NULL, NULL, NULL, NULL, NULL };
    *z = zero;
    /* One block per array keeps the freeing simple; n + 1 so that an empty
     * zone still has valid (never dereferenced) pointers. */
    z->org = fv_mem_array(mem, (size_t)n + 1, sizeof(tt_vec));
    z->cur = fv_mem_array(mem, (size_t)n + 1, sizeof(tt_vec));
    z->orus = fv_mem_array(mem, (size_t)n + 1, sizeof(tt_vec));
    z->tags = fv_mem_array(mem, (size_t)n + 1, 1);
    z->contours = fv_mem_array(mem, (size_t)c + 1, sizeof(uint16_t));
    if (!z->org || !z->cur || !z->orus || !z->tags || !z->contours) {
        tt_zone_free(mem, z);
        return FV_E_NOMEM;
    }
    z->n_points = n;
    z->n_contours = c;
    return FV_OK;
}

void tt_zone_free(fv_mem *mem, tt_zone *z)
{
    fv_mem_free(mem, z->org);
    fv_mem_free(mem, z->cur);
    fv_mem_free(mem, z->orus);
    fv_mem_free(mem, z->tags);
    fv_mem_free(mem, z->contours);
    z->org = z->cur = z->orus = NULL;
    z->tags = NULL;
    z->contours = NULL;
    z->n_points = z->n_contours = 0;
}

fv_status tt_zone_reserve(fv_mem *mem, tt_zone_buf *b, uint32_t n, uint32_t c, tt_vec *cur,
                          uint8_t *tags, tt_zone *out)
{
    tt_zone *z = &b->z;
    if (z->org == NULL || n > z->n_points || c > z->n_contours) {
        uint32_t np = n > z->n_points ? n : z->n_points;
        uint32_t nc = c > z->n_contours ? c : z->n_contours;
        tt_zone_free(mem, z);
        /* n + 1, c + 1: valid (never dereferenced) pointers when empty. */
        z->org = fv_mem_array(mem, (size_t)np + 1, sizeof(tt_vec));
        z->orus = fv_mem_array(mem, (size_t)np + 1, sizeof(tt_vec));
        z->contours = fv_mem_array(mem, (size_t)nc + 1, sizeof(uint16_t));
        if (!z->org || !z->orus || !z->contours) {
            tt_zone_free(mem, z);
            return FV_E_NOMEM;
        }
        z->n_points = np;
        z->n_contours = nc;
    }
    *out = *z;
    out->cur = cur;
    out->tags = tags;
    out->n_points = n;
    out->n_contours = c;
    return FV_OK;
}

void tt_zone_buf_free(fv_mem *mem, tt_zone_buf *b)
{
    tt_zone_free(mem, &b->z);
}
