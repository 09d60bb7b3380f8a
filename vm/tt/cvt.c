/* CVT and storage access with copy-on-write (see cvt.h). */
#include "tt/cvt.h"

#include <string.h>

#include "tt/gstate.h"

int64_t tt_current_ratio(tt_ctx *c)
{
    if (c->ratio == 0) {
        if (c->gs.pv_y == 0)
            c->ratio = c->m.x_ratio;
        else if (c->gs.pv_x == 0)
            c->ratio = c->m.y_ratio;
        else {
            int64_t x = tt_mulfix14(c->m.x_ratio, c->gs.pv_x);
            int64_t y = tt_mulfix14(c->m.y_ratio, c->gs.pv_y);
            c->ratio = tt_hypot(x, y);
        }
    }
    return c->ratio;
}

int64_t tt_current_ppem(tt_ctx *c)
{
    if (c->m.x_ppem != c->m.y_ppem)
        return fv_mulfix(c->m.ppem, tt_current_ratio(c));
    return c->m.ppem;
}

/* Copy-on-write of an array (the CVT or the storage area) for the running
 * glyph program: *arr becomes *copy (made on first use, kept by the
 * execution context across loads: glyph.c) holding the same n values. */
static fv_status own_array(tt_ctx *c, int64_t **arr, int64_t **copy, uint32_t n, int *is_copy)
{
    if (*copy == NULL && n > 0) {
        *copy = fv_mem_array(c->mem, n, sizeof(int64_t));
        if (*copy == NULL)
            return tt_fail(c, FV_E_NOMEM, INT64_MIN);
    }
    fv_status st = tt_spend(c, n / FV_BUDGET_COPY_PER_STEP);
    if (st != FV_OK)
        return st;
    if (n > 0)
        memcpy(*copy, *arr, (size_t)n * sizeof(int64_t));
    *arr = *copy;
    *is_copy = 1;
    return FV_OK;
}

static fv_status own_cvt(tt_ctx *c)
{
    if (c->ini_range != TT_RANGE_GLYPH || c->cvt_is_copy)
        return FV_OK;
    return own_array(c, &c->cvt, &c->cvt_copy, c->cvt_size, &c->cvt_is_copy);
}

int64_t tt_cvt_read_stretched(tt_ctx *c, uint32_t i)
{
    return fv_mulfix(c->cvt[i], tt_current_ratio(c));
}

fv_status tt_cvt_write(tt_ctx *c, uint32_t i, int64_t v)
{
    fv_status st = own_cvt(c);
    if (st != FV_OK)
        return st;
    if (c->m.x_ppem != c->m.y_ppem)
        v = fv_divfix(v, tt_current_ratio(c));
    c->cvt[i] = v;
    return FV_OK;
}

fv_status tt_cvt_write_raw(tt_ctx *c, uint32_t i, int64_t v)
{
    /* COMPAT(freetype): no copy-on-write for WCVTF (see cvt.h): without an
     * earlier CVT write in this glyph program run, it writes the size's CVT. */
    c->cvt[i] = v;
    return FV_OK;
}

fv_status tt_cvt_move(tt_ctx *c, uint32_t i, int64_t delta)
{
    fv_status st = own_cvt(c);
    if (st != FV_OK)
        return st;
    if (c->m.x_ppem != c->m.y_ppem)
        delta = fv_divfix(delta, tt_current_ratio(c));
    c->cvt[i] = tt_add(c->cvt[i], delta);
    return FV_OK;
}

fv_status tt_storage_own(tt_ctx *c)
{
    return own_array(c, &c->storage, &c->storage_copy, c->storage_size, &c->storage_is_copy);
}
