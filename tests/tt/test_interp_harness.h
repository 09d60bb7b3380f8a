/* Shared harness for the interpreter unit tests: a hand-built execution
 * context (glyph zone, twilight zone, CVT, storage, definitions) that runs
 * synthetic bytecode through the real dispatcher (tt_execute).  Coordinates
 * use a 1.0 scale so that orus, org and cur start equal (26.6 units). */
#ifndef TEST_INTERP_HARNESS_H
#define TEST_INTERP_HARNESS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/mem.h"
#include "tt/defs.h"
#include "tt/exec.h"
#include "tt/gstate.h"
#include "tt/interp.h"
#include "tt/zone.h"

#define H_CVT 8
#define H_STORE 8
#define H_STACK 64

typedef struct harness {
    fv_mem mem;
    fv_tt_exec ex;
    int64_t stack[H_STACK];
    uint32_t new_top; /* kept from one run to the next, as a size keeps it */
    tt_defs defs;
    int64_t cvt[H_CVT];
    int64_t storage[H_STORE];
    tt_zone twilight;
    tt_ctx c;
    fv_error err;
    uint8_t prep[512];
} harness;

/* A glyph zone with n points (+4 phantoms at 0) given as x,y pairs and
 * contour ends; pedantic selects FT_LOAD_PEDANTIC behaviour. */
static inline void h_init(harness *h, const int32_t *xy, uint32_t n, const uint16_t *ends,
                          uint32_t nc, int pedantic)
{
    memset(h, 0, sizeof *h);
    fv_mem_init(&h->mem, NULL);
    h->ex.mem = &h->mem;
    assert_int_equal(tt_defs_alloc(&h->mem, &h->defs, 8, 4), FV_OK);
    assert_int_equal(tt_zone_alloc(&h->mem, &h->twilight, 4, 0), FV_OK);
    tt_ctx *c = &h->c;
    c->ex = &h->ex;
    c->mem = &h->mem;
    c->glyph = 7;
    c->pedantic = pedantic;
    c->num_glyphs = 100;
    c->m.x_ppem = c->m.y_ppem = 12;
    c->m.ppem = 12;
    c->m.x_scale = c->m.y_scale = c->m.scale = 0x10000;
    c->m.x_ratio = c->m.y_ratio = 0x10000;
    c->m.point_size = 12 * 64;
    c->exec_x_scale = c->exec_y_scale = 0x10000;
    c->defs = &h->defs;
    c->cvt = h->cvt;
    c->cvt_size = H_CVT;
    c->storage = h->storage;
    c->storage_size = H_STORE;
    c->twilight = h->twilight;
    assert_int_equal(tt_zone_alloc(&h->mem, &c->pts, n + 4, nc), FV_OK);
    for (uint32_t i = 0; i < n; i++) {
        tt_vec v = { xy[2 * i], xy[2 * i + 1] };
        c->pts.orus[i] = c->pts.org[i] = c->pts.cur[i] = v;
        c->pts.tags[i] = TT_TAG_ON;
    }
    for (uint32_t i = 0; i < nc; i++)
        c->pts.contours[i] = ends[i];
    c->stack = h->stack;
    c->stack_size = H_STACK;
    c->kept_new_top = &h->new_top;
    c->period = 64;
    fv_budget_start(&c->budget, FV_BUDGET_TT_PROGRAM_STEPS, FV_BUDGET_TT_COMPONENTS);
    c->err = &h->err;
    fv_error_clear(&h->err);
    tt_gs_default(&c->gs);
    c->zp0 = c->zp1 = c->zp2 = &c->pts;
}

static inline void h_free(harness *h)
{
    tt_zone_free(&h->mem, &h->c.pts);
    tt_zone_free(&h->mem, &h->twilight);
    tt_defs_free(&h->mem, &h->defs);
    fv_mem_free(&h->mem, h->c.cvt_copy);
    fv_mem_free(&h->mem, h->c.storage_copy);
    assert_int_equal(h->mem.live, 0);
}

/* Defines functions with a prep-like program (FDEF/IDEF are refused in
 * glyph programs). */
static inline fv_status h_run_prep(harness *h, const uint8_t *code, size_t len)
{
    memcpy(h->prep, code, len);
    h->c.ranges[TT_RANGE_CVT] = (fv_span){ h->prep, len };
    h->c.have_range[TT_RANGE_CVT] = 1;
    h->c.top = 0;
    h->c.call_top = 0;
    return tt_execute(&h->c, TT_RANGE_CVT);
}

/* Runs a glyph program from an empty stack. */
static inline fv_status h_run(harness *h, const uint8_t *code, size_t len)
{
    h->c.ranges[TT_RANGE_GLYPH] = (fv_span){ code, len };
    h->c.have_range[TT_RANGE_GLYPH] = 1;
    h->c.top = 0;
    h->c.call_top = 0;
    return tt_execute(&h->c, TT_RANGE_GLYPH);
}

/* Value at depth i from the top (0 = top). */
static inline int64_t h_top(const harness *h, uint32_t i)
{
    assert_true(i < h->c.top);
    return h->c.stack[h->c.top - 1 - i];
}

#define RUN(h, ...)                                                        \
    do {                                                                   \
        static const uint8_t code_[] = { __VA_ARGS__ };                     \
        assert_int_equal(h_run((h), code_, sizeof code_), FV_OK);          \
    } while (0)
#define RUN_ERR(h, want_, ...)                                              \
    do {                                                                   \
        static const uint8_t code_[] = { __VA_ARGS__ };                     \
        assert_int_equal(h_run((h), code_, sizeof code_), (want_));         \
        assert_int_equal((h)->err.kind, (want_));                           \
    } while (0)

#endif
