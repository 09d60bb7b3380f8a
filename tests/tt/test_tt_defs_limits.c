/* FDEF/IDEF table limits against FreeType 2.12.1 (tt_diff finding F-4,
 * corpus/tt_diff/regress/39e30e8d-diverged): FreeType lets an fpgm define
 * max(64, maxp.maxFunctionDefs) functions with any number up to 0xFFFF,
 * and max(0, maxInstructionDefs) instructions; FDEF on an empty stack
 * defines function 0 (an error in pedantic mode).  Every case is hinted by
 * fontvm and by the real FreeType, and both must agree. */
#include "synth_diff.h"

#include "tt/defs.h"

/* FDEF n { 1 64 SHPIX } ENDF: a function whose call moves point 1. */
static void def_function(sd_code *c, int32_t n)
{
    sd_push(c, n);
    sd_op(c, 0x2C); /* FDEF */
    sd_push(c, 1);
    sd_push(c, 64);
    sd_op(c, 0x38); /* SHPIX */
    sd_op(c, 0x2D); /* ENDF */
}

/* fpgm defining `count` functions first..first+count-1; the glyph program
 * calls `call` (pedantic: calling an undefined function fails). */
static void run_defs(uint16_t max_fdefs, int32_t first, int32_t count, int32_t call,
                     sd_result *r)
{
    static sd_code fpgm, glyph;
    memset(&fpgm, 0, sizeof fpgm);
    memset(&glyph, 0, sizeof glyph);
    for (int32_t i = 0; i < count; i++)
        def_function(&fpgm, first + i);
    sd_push(&glyph, call);
    sd_op(&glyph, 0x2B); /* CALL */
    fvsynth_tt p = sd_font();
    p.max_function_defs = max_fdefs;
    p.max_instruction_defs = 0;
    p.fpgm = fpgm.b, p.fpgm_len = fpgm.len;
    p.glyph_code = glyph.b, p.glyph_code_len = glyph.len;
    sd_run(&p, 12, FV_TT_V35, 1, 0, r);
}

static void test_capacity(void **state)
{
    (void)state;
    assert_int_equal(tt_defs_function_capacity(true, 0), 64);
    assert_int_equal(tt_defs_function_capacity(true, 63), 64);
    assert_int_equal(tt_defs_function_capacity(true, 64), 64);
    assert_int_equal(tt_defs_function_capacity(true, 66), 66);
    assert_int_equal(tt_defs_function_capacity(true, 0xFFFF), 0xFFFF);
    /* A maxp without the 1.0 fields (version 0.5, 0, negative, or 1.0 cut
     * by the end of the file: sfnt.c read_maxp): no FDEF at all. */
    assert_int_equal(tt_defs_function_capacity(false, 0), 0);
    assert_int_equal(tt_defs_function_capacity(false, 100), 0);
}

/* The finding itself: `FDEF ENDF` on an empty stack, maxFunctionDefs 0. */
static void test_f4_empty_stack_fdef(void **state)
{
    (void)state;
    static const uint8_t fpgm[] = {0x2C, 0x2D};
    static const uint8_t glyph[] = {0xB0, 0x00, 0x2B}; /* PUSHB 0 CALL */
    fvsynth_tt p = sd_font();
    p.max_function_defs = 0;
    p.fpgm = fpgm, p.fpgm_len = sizeof fpgm;
    p.glyph_code = glyph, p.glyph_code_len = sizeof glyph;
    sd_result r;
    for (int mode = 0; mode < 4; mode++) {
        sd_run(&p, 12, (fv_tt_mode)mode, 0, 0, &r);
        SD_ASSERT_IDENTICAL(&r); /* function 0 is defined and called */
        sd_free(&r);
    }
    /* Pedantic: FDEF's missing argument is an error in both. */
    sd_run(&p, 12, FV_TT_V40, 1, 0, &r);
    SD_ASSERT_BOTH_FAIL(&r, "FDEF: stack underflow");
    sd_free(&r);
}

static void test_function_count(void **state)
{
    (void)state;
    sd_result r;
    /* maxFunctionDefs 0 and 10 allow 64 functions, not 65. */
    run_defs(0, 0, 64, 63, &r);
    SD_ASSERT_IDENTICAL(&r);
    sd_free(&r);
    run_defs(10, 0, 64, 63, &r);
    SD_ASSERT_IDENTICAL(&r);
    sd_free(&r);
    run_defs(0, 0, 65, 64, &r);
    SD_ASSERT_BOTH_FAIL(&r, "fpgm@");
    SD_ASSERT_BOTH_FAIL(&r, "FDEF: too many defs 64");
    sd_free(&r);
    /* Above 64, maxFunctionDefs itself is the limit. */
    run_defs(66, 0, 66, 65, &r);
    SD_ASSERT_IDENTICAL(&r);
    sd_free(&r);
    run_defs(66, 0, 67, 66, &r);
    SD_ASSERT_BOTH_FAIL(&r, "FDEF: too many defs 66");
    sd_free(&r);
    /* Redefining a function does not take another entry. */
    run_defs(0, 5, 1, 5, &r);
    SD_ASSERT_IDENTICAL(&r);
    sd_free(&r);
}

static void test_function_numbers(void **state)
{
    (void)state;
    sd_result r;
    /* Numbers are not bounded by the table size, only by 0xFFFF. */
    run_defs(0, 1000, 1, 1000, &r);
    SD_ASSERT_IDENTICAL(&r);
    sd_free(&r);
    run_defs(0, 1000, 1, 999, &r); /* not defined: CALL fails (pedantic) */
    SD_ASSERT_BOTH_FAIL(&r, "CALL: invalid function 999");
    sd_free(&r);
    run_defs(0, 0xFFFF, 1, 0xFFFF, &r);
    SD_ASSERT_IDENTICAL(&r);
    sd_free(&r);
    run_defs(0, 0x10000, 1, 0x10000, &r);
    SD_ASSERT_BOTH_FAIL(&r, "FDEF: too many defs 65536");
    sd_free(&r);
    run_defs(0, -1, 1, 0, &r);
    SD_ASSERT_BOTH_FAIL(&r, "FDEF: too many defs -1");
    sd_free(&r);
}

static void test_instruction_defs(void **state)
{
    (void)state;
    /* IDEF 0x93 { 1 64 SHPIX } ENDF; the glyph program runs 0x93. */
    static const uint8_t fpgm[] = {0xB0, 0x93, 0x89, 0xB1, 1, 64, 0x38, 0x2D};
    static const uint8_t glyph[] = {0x93};
    fvsynth_tt p = sd_font();
    p.fpgm = fpgm, p.fpgm_len = sizeof fpgm;
    p.glyph_code = glyph, p.glyph_code_len = sizeof glyph;
    sd_result r;
    p.max_instruction_defs = 1;
    sd_run(&p, 12, FV_TT_V35, 1, 0, &r);
    SD_ASSERT_IDENTICAL(&r);
    sd_free(&r);
    /* No minimum for IDEFs: maxInstructionDefs 0 refuses the first. */
    p.max_instruction_defs = 0;
    sd_run(&p, 12, FV_TT_V35, 0, 0, &r);
    SD_ASSERT_BOTH_FAIL(&r, "IDEF: too many defs 147");
    sd_free(&r);
    /* IDEF on an empty stack defines opcode 0x00 (SVTCA[y]), which keeps
     * running as SVTCA: an IDEF only gives undefined opcodes a meaning. */
    static const uint8_t fpgm0[] = {0x89, 0xB1, 1, 64, 0x38, 0x2D};
    static const uint8_t glyph0[] = {0x00, 0xB1, 2, 64, 0x38};
    p.fpgm = fpgm0, p.fpgm_len = sizeof fpgm0;
    p.glyph_code = glyph0, p.glyph_code_len = sizeof glyph0;
    p.max_instruction_defs = 1;
    sd_run(&p, 12, FV_TT_V35, 0, 0, &r);
    SD_ASSERT_IDENTICAL(&r);
    sd_free(&r);
    sd_run(&p, 12, FV_TT_V35, 1, 0, &r);
    SD_ASSERT_BOTH_FAIL(&r, "IDEF: stack underflow");
    sd_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_f4_empty_stack_fdef),
        cmocka_unit_test(test_function_count),
        cmocka_unit_test(test_function_numbers),
        cmocka_unit_test(test_instruction_defs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
