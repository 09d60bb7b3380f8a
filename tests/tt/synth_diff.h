/* Test helper: a synthetic TrueType font (fuzz/synth/tt_synth.c, the font
 * the tt_diff fuzzer builds) hinted by fontvm and by the real FreeType
 * 2.12.1 through the conformance library (conformance/tt/tt_compare.h), so
 * that a test pins fontvm's result and checks FreeType agrees with it.
 * Header-only test code. */
#ifndef FV_TEST_TT_SYNTH_DIFF_H
#define FV_TEST_TT_SYNTH_DIFF_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "synth/tt_synth.h"
#include "tt_compare.h"

/* Defaults for the synthetic font: 8 points in 1 contour, room for
 * everything but what a test sets. */
static inline fvsynth_tt sd_font(void)
{
    fvsynth_tt p = {0};
    p.num_points = 8;
    p.num_contours = 1;
    p.cvt_count = 4;
    p.max_storage = 4;
    p.max_function_defs = 4;
    p.max_instruction_defs = 4;
    p.max_stack = 64;
    p.max_twilight = 4;
    p.units_per_em = 2048;
    p.seed = 1;
    return p;
}

typedef struct sd_result {
    ttc_glyph ref, fv;
    ttc_diff diff;
} sd_result;

/* Hints glyphs gids[0..n-1], in this order, on one size of the font at
 * x_26d6 by y_26d6 ppem (26.6) in `mode` with both engines (state a glyph
 * program leaves in the size shows in the later loads). */
static inline void sd_run_size(const fvsynth_tt *p, int32_t x_26d6, int32_t y_26d6,
                               fv_tt_mode mode, int pedantic, const uint32_t *gids, size_t n,
                               sd_result *r)
{
    size_t cap = fvsynth_tt_bound(p);
    uint8_t *buf = malloc(cap);
    assert_non_null(buf);
    size_t len = fvsynth_tt_build(p, buf, cap);
    assert_true(len > 0);
    char errbuf[200];
    ttc_ft *ft = NULL;
    ttc_fv *fv = NULL;
    fv_error err;
    assert_int_equal(ttc_ft_open_memory(buf, len, 0, &ft, errbuf, sizeof errbuf), 0);
    assert_int_equal(ttc_fv_open_memory(buf, len, 0, &fv, &err), 0);
    ttc_size size = {x_26d6, y_26d6, ""};
    int ft_ok = ttc_ft_set_size(ft, &size, mode, pedantic, errbuf, sizeof errbuf) == 0;
    int fv_ok = ttc_fv_set_size(fv, &size, mode, pedantic, &err) == 0;
    for (size_t i = 0; i < n; i++) {
        ttc_glyph_init(&r[i].ref);
        ttc_glyph_init(&r[i].fv);
        if (ft_ok)
            ttc_ft_load(ft, gids[i], &r[i].ref);
        else
            ttc_glyph_fail(&r[i].ref, errbuf);
        if (fv_ok)
            ttc_fv_load(fv, gids[i], &r[i].fv);
        else
            ttc_glyph_fail(&r[i].fv, "size");
        ttc_compare(&r[i].ref, &r[i].fv, &r[i].diff);
    }
    ttc_fv_close(fv);
    ttc_ft_close(ft);
    free(buf);
}

/* The same at `ppem` square. */
static inline void sd_run_seq(const fvsynth_tt *p, int ppem, fv_tt_mode mode, int pedantic,
                              const uint32_t *gids, size_t n, sd_result *r)
{
    sd_run_size(p, ppem * 64, ppem * 64, mode, pedantic, gids, n, r);
}

/* Hints glyph `gid` of the font at `ppem` in `mode` with both engines. */
static inline void sd_run(const fvsynth_tt *p, int ppem, fv_tt_mode mode, int pedantic,
                          uint32_t gid, sd_result *r)
{
    sd_run_seq(p, ppem, mode, pedantic, &gid, 1, r);
}

static inline void sd_free(sd_result *r)
{
    ttc_glyph_free(&r->ref);
    ttc_glyph_free(&r->fv);
}

/* Both engines hint the glyph, identically. */
#define SD_ASSERT_IDENTICAL(r)                                                  \
    do {                                                                        \
        if ((r)->diff.status != TTC_IDENTICAL)                                  \
            fail_msg("%s: FreeType '%s', fontvm '%s'",                          \
                     ttc_status_name((r)->diff.status), (r)->ref.error,         \
                     (r)->fv.error);                                            \
        assert_true((r)->fv.loaded);                                            \
    } while (0)

/* Both engines fail the glyph; fontvm's error text contains `what`. */
#define SD_ASSERT_BOTH_FAIL(r, what)                                            \
    do {                                                                        \
        assert_int_equal((r)->diff.status, TTC_ERROR_BOTH);                     \
        if (strstr((r)->fv.error, (what)) == NULL)                              \
            fail_msg("fontvm error '%s' lacks '%s'", (r)->fv.error, (what));    \
    } while (0)

#endif

/* A tiny bytecode writer for the programs of the synthetic font. */
typedef struct sd_code {
    uint8_t b[4096];
    size_t len;
} sd_code;

static inline void sd_op(sd_code *c, uint8_t op)
{
    assert_true(c->len < sizeof c->b);
    c->b[c->len++] = op;
}

/* Pushes v (any int32) with PUSHW, building values outside int16 with ADD
 * (0x60 adds 26.6 values as plain integers). */
static inline void sd_push(sd_code *c, int32_t v)
{
    int32_t part = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
    sd_op(c, 0xB8); /* PUSHW[0] */
    sd_op(c, (uint8_t)((uint16_t)part >> 8));
    sd_op(c, (uint8_t)part);
    if (part != v) {
        sd_push(c, v - part);
        sd_op(c, 0x60); /* ADD */
    }
}

/* Pushes v, then runs op (a one-argument instruction). */
static inline void sd_push_op(sd_code *c, int32_t v, uint8_t op)
{
    sd_push(c, v);
    sd_op(c, op);
}
