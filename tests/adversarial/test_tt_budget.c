/* Adversarial TrueType fonts against the work budgets (vm/common/budget.h,
 * issue 14): each case asserts the named budget error (or the result) and
 * that the steps spent stay within the bound.  Step counts are
 * deterministic; the times are printed by tt_budget_bench. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/budget.h"
#include "fontvm/fontvm.h"
#include "fontvm/tt.h"
#include "tt_bombs.h"

/* One font opened with a face, an execution context and a 12 ppem v40 size. */
typedef struct loaded {
    uint8_t *data;
    fv_font *font;
    fv_tt_face *face;
    fv_tt_exec *exec;
    fv_tt_size *size;
    fv_error err;        /* the size set-up's (fpgm, prep) */
    fv_status setup;     /* its status: what every hinted load returns */
} loaded;

/* len is read after data is made (the generators write it). */
static void open_font(loaded *l, uint8_t *data, const size_t *len)
{
    memset(l, 0, sizeof *l);
    l->data = data;
    assert_non_null(data);
    fv_error err;
    assert_int_equal(fv_font_open_memory(data, *len, 0, NULL, &l->font, &err), FV_OK);
    assert_int_equal(fv_tt_face_new(l->font, &l->face, &err), FV_OK);
    assert_int_equal(fv_tt_exec_new(l->face, &l->exec, &err), FV_OK);
    fv_tt_size_request req = {.x_ppem_26d6 = 12 * 64, .y_ppem_26d6 = 12 * 64, .mode = FV_TT_V40};
    assert_int_equal(fv_tt_size_new(l->face, l->exec, &req, &l->size, &err), FV_OK);
    /* The set-up's error is what a hinted load of glyph 0 reports. */
    fv_tt_outline out;
    l->setup = fv_tt_hint_glyph(l->size, l->exec, 0, &out, &l->err);
    fv_tt_outline_free(l->face, &out);
}

static void close_font(loaded *l)
{
    fv_tt_size_free(l->size);
    fv_tt_exec_free(l->exec);
    fv_tt_face_free(l->face);
    fv_font_close(l->font);
    free(l->data);
}

static fv_status hint(loaded *l, uint32_t gid, fv_error *err)
{
    fv_tt_outline out;
    fv_status st = fv_tt_hint_glyph(l->size, l->exec, gid, &out, err);
    fv_tt_outline_free(l->face, &out);
    return st;
}

/* ---- Composite fan-out --------------------------------------------------- */

/* The case: 1,000 x 1,000 x 1,000 empty components (18 KB; 83.5 s
 * before the budget).  Refused after 2,048 references. */
static void test_fanout_1000_cubed(void **state)
{
    (void)state;
    size_t len;
    uint8_t *font = tb_composite_fanout(1000, 3, 1, NULL, &len);
    loaded l;
    open_font(&l, font, &len);
    assert_int_equal(l.setup, FV_OK);
    fv_error err;
    assert_int_equal(hint(&l, 4, &err), FV_E_BUDGET_COMPONENTS);
    assert_int_equal(err.kind, FV_E_BUDGET_COMPONENTS);
    assert_int_equal(err.glyph, 2); /* the composite holding the 2,049th reference */
    assert_int_equal(err.index, FV_BUDGET_TT_COMPONENTS + 1);
    /* 2,048 references, each a parse of one glyph (1 step), plus the
     * component lists of the 5 composites parsed (glyph 4, glyph 3, glyph 2
     * three times: 1 + 1,000 steps each). */
    assert_int_equal(fv_tt_exec_last_load_steps(l.exec), 5 * 1001 + 2048 - 4);
    close_font(&l);
}

/* 400^3 (7.5 KB; 4.4 s before): the same limit. */
static void test_fanout_400_cubed(void **state)
{
    (void)state;
    size_t len;
    uint8_t *font = tb_composite_fanout(400, 3, 1, NULL, &len);
    loaded l;
    open_font(&l, font, &len);
    fv_error err;
    assert_int_equal(hint(&l, 4, &err), FV_E_BUDGET_COMPONENTS);
    close_font(&l);
}

/* The edge: 44 + 44 x 44 = 1,980 references load, 45 + 45 x 45 = 2,070 do
 * not; the loaded one has every point. */
static void test_fanout_edge(void **state)
{
    (void)state;
    size_t len;
    loaded l;
    fv_error err;
    open_font(&l, tb_composite_fanout(44, 2, 0, NULL, &len), &len);
    fv_tt_outline out;
    assert_int_equal(fv_tt_hint_glyph(l.size, l.exec, 3, &out, &err), FV_OK);
    assert_int_equal(out.num_points, 44 * 44 * 4);
    assert_int_equal(out.num_contours, 44 * 44);
    fv_tt_outline_free(l.face, &out);
    close_font(&l);
    open_font(&l, tb_composite_fanout(45, 2, 0, NULL, &len), &len);
    assert_int_equal(hint(&l, 3, &err), FV_E_BUDGET_COMPONENTS);
    close_font(&l);
}

/* Components share one budget: a leaf program of ~65,000 instructions
 * (far under FreeType's 1,000,000 per run) referenced 2,000 times is
 * 130M steps; the load stops when the budget is spent. */
static void test_fanout_programs_share_budget(void **state)
{
    (void)state;
    tb_buf code = {0};
    tb_pushb(&code, 1);
    for (int i = 0; i < 32000; i++) {
        tb_u8(&code, TB_DUP);
        tb_u8(&code, TB_POP);
    }
    size_t len;
    loaded l;
    fv_error err;
    open_font(&l, tb_composite_fanout(2000, 1, 0, &code, &len), &len);
    assert_int_equal(hint(&l, 2, &err), FV_E_BUDGET_STEPS);
    assert_int_equal(err.kind, FV_E_BUDGET_STEPS);
    assert_int_equal(err.program, FV_PROG_GLYF);
    assert_int_equal(err.glyph, 1);
    /* The step that spent the budget is the last one taken. */
    assert_int_equal(fv_tt_exec_last_load_steps(l.exec), FV_BUDGET_TT_GLYPH_STEPS + 1);
    /* The leaf alone loads: 64,001 instructions plus its 8 zone points and parse. */
    assert_int_equal(hint(&l, 1, &err), FV_OK);
    assert_int_equal(fv_tt_exec_last_load_steps(l.exec), 64001 + 8 + 5);
    close_font(&l);
    /* 60 references: 3.84M steps, within the budget. */
    open_font(&l, tb_composite_fanout(60, 1, 0, &code, &len), &len);
    assert_int_equal(hint(&l, 2, &err), FV_OK);
    assert_true(fv_tt_exec_last_load_steps(l.exec) > 60 * 64001);
    assert_true(fv_tt_exec_last_load_steps(l.exec) <= FV_BUDGET_TT_GLYPH_STEPS);
    close_font(&l);
    tb_free(&code);
}

/* ---- Skipped code ---------------------------------------------------------- */

/* The case: an fpgm function skipping a long IF body, LOOPCALLed
 * 20,000 times from prep (FreeType: 37 s per size).  Every skipped byte is
 * a step: the prep run stops with budget_skipped within its budget. */
static void test_skipped_if_under_loopcall(void **state)
{
    (void)state;
    size_t len;
    loaded l;
    open_font(&l, tb_skipped_loopcall(60000, 20000, &len), &len);
    assert_int_equal(l.setup, FV_E_BUDGET_SKIPPED);
    assert_int_equal(l.err.program, FV_PROG_FPGM); /* the IF is in the fpgm function */
    assert_int_equal(l.err.pc, 5);                 /* PUSHB 0 FDEF PUSHB 0 IF */
    assert_true(l.err.index > FV_BUDGET_TT_PROGRAM_STEPS);
    assert_true(fv_tt_exec_max_run_steps(l.exec) <= FV_BUDGET_TT_PROGRAM_STEPS + 60002);
    close_font(&l);
}

/* The same body skipped by ELSE (the IF is true): budget_skipped at the
 * ELSE, after the same number of steps. */
static void test_skipped_else_under_loopcall(void **state)
{
    (void)state;
    size_t len;
    loaded l;
    open_font(&l, tb_skipped_loopcall_else(60000, 20000, 1, &len), &len);
    assert_int_equal(l.setup, FV_E_BUDGET_SKIPPED);
    assert_int_equal(l.err.program, FV_PROG_FPGM);
    assert_int_equal(l.err.pc, 6); /* PUSHB 0 FDEF PUSHB 1 IF ELSE */
    assert_true(fv_tt_exec_max_run_steps(l.exec) > FV_BUDGET_TT_PROGRAM_STEPS);
    assert_true(fv_tt_exec_max_run_steps(l.exec) <= FV_BUDGET_TT_PROGRAM_STEPS + 60002);
    close_font(&l);
    /* 45 calls: 4 instructions (PUSHB, IF, ELSE, ENDF) and 60,000 bytes each. */
    open_font(&l, tb_skipped_loopcall_else(60000, 45, 1, &len), &len);
    assert_int_equal(l.setup, FV_OK);
    assert_int_equal(fv_tt_exec_max_run_steps(l.exec), 3 + 45 * (4 + 60000));
    close_font(&l);
}

/* A body the budget affords: 60,000 bytes skipped 45 times is 2.7M steps. */
static void test_skipped_if_within_budget(void **state)
{
    (void)state;
    size_t len;
    loaded l;
    open_font(&l, tb_skipped_loopcall(60000, 45, &len), &len);
    assert_int_equal(l.setup, FV_OK);
    /* prep (the larger run): 3 instructions + 45 x (PUSHB, IF, 60,000
     * bytes skipped, ENDF; the skip steps over the EIF). */
    assert_int_equal(fv_tt_exec_max_run_steps(l.exec), 3 + 45 * (3 + 60000));
    close_font(&l);
}

/* A definition longer than 65,535 bytes is refused where it is defined. */
static void test_definition_size(void **state)
{
    (void)state;
    size_t len;
    loaded l;
    open_font(&l, tb_long_definition(FV_BUDGET_TT_DEFINITION_BYTES, &len), &len);
    assert_int_equal(l.setup, FV_OK);
    close_font(&l);
    open_font(&l, tb_long_definition(FV_BUDGET_TT_DEFINITION_BYTES + 1, &len), &len);
    assert_int_equal(l.setup, FV_E_BUDGET_DEFINITION);
    assert_int_equal(l.err.program, FV_PROG_FPGM);
    assert_int_equal(l.err.index, FV_BUDGET_TT_DEFINITION_BYTES + 1);
    close_font(&l);
}

/* ---- Call depth and backward jumps: FreeType's own limits ------------------ */

/* 32 nested calls are FreeType's limit (callSize); the 33rd is tt_nesting
 * in both engines.  The chain costs one CALL and one ENDF per level. */
static void test_call_chain_depth_edge(void **state)
{
    (void)state;
    size_t len;
    loaded l;
    open_font(&l, tb_call_chain(32, &len), &len);
    assert_int_equal(l.setup, FV_OK);
    close_font(&l);
    open_font(&l, tb_call_chain(33, &len), &len);
    assert_int_equal(l.setup, FV_E_TT_NESTING);
    close_font(&l);
}

/* A backward JMPR loop in prep stops at FreeType's backward-jump allowance
 * (300 + 22 x CVT entries, no CVT here: 300 jumps), tt_exec_budget; each
 * turn costs 2 + 2 x pairs instructions. */
static void test_jump_loop_prep(void **state)
{
    (void)state;
    tb_spec s;
    tb_spec_init(&s, 10);
    tb_jump_loop_code(&s.prep, 100);
    size_t len;
    uint8_t *font = tb_build(&s, &len);
    tb_spec_free(&s);
    loaded l;
    open_font(&l, font, &len);
    assert_int_equal(l.setup, FV_E_TT_EXEC_BUDGET);
    /* PUSHB, then 301 turns of 200 + PUSHW + JMPR; the 301st JMPR fails. */
    assert_int_equal(fv_tt_exec_max_run_steps(l.exec), 1 + 300 * 202 + 201);
    close_font(&l);
}

/* A glyph program at FreeType's 1,000,000-instruction edge: FreeType stops
 * the run and keeps the partly hinted glyph, and so does fontvm (the load
 * succeeds); four components of it spend the load's budget. */
static void test_jump_loop_glyph_edge(void **state)
{
    (void)state;
    tb_buf code = {0};
    tb_jump_loop_code(&code, 16000); /* 32,002 instructions a turn (JMPR reaches back 32,003 bytes) */
    size_t len;
    loaded l;
    fv_error err;
    open_font(&l, tb_composite_fanout(5, 1, 0, &code, &len), &len);
    assert_int_equal(hint(&l, 1, &err), FV_OK);
    uint64_t one = fv_tt_exec_last_load_steps(l.exec);
    assert_true(one >= 1000000 && one <= 1000000 + 16);
    assert_int_equal(hint(&l, 2, &err), FV_E_BUDGET_STEPS);
    assert_int_equal(fv_tt_exec_last_load_steps(l.exec), FV_BUDGET_TT_GLYPH_STEPS + 1);
    close_font(&l);
    tb_free(&code);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fanout_1000_cubed),
        cmocka_unit_test(test_fanout_400_cubed),
        cmocka_unit_test(test_fanout_edge),
        cmocka_unit_test(test_fanout_programs_share_budget),
        cmocka_unit_test(test_skipped_if_under_loopcall),
        cmocka_unit_test(test_skipped_if_within_budget),
        cmocka_unit_test(test_skipped_else_under_loopcall),
        cmocka_unit_test(test_definition_size),
        cmocka_unit_test(test_call_chain_depth_edge),
        cmocka_unit_test(test_jump_loop_prep),
        cmocka_unit_test(test_jump_loop_glyph_edge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
