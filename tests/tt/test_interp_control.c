/* Control flow, functions, instruction definitions, storage and CVT,
 * graphics state and misc instructions, with their error cases. */
#include "test_interp_harness.h"

static const int32_t one_point[] = { 0, 0 };
static const uint16_t one_end[] = { 0 };

static void test_if_else(void **state)
{
    (void)state;
    harness h;
    h_init(&h, one_point, 1, one_end, 1, 0);
    /* 0 IF 1 ELSE 2 (nested IF 0 IF 9 EIF) EIF */
    RUN(&h, 0xB0, 0, 0x58, 0xB0, 1, 0x1B, 0xB0, 2, 0xB0, 0, 0x58, 0xB0, 9, 0x59, 0x59);
    assert_int_equal(h.c.top, 1);
    assert_int_equal(h_top(&h, 0), 2);
    RUN(&h, 0xB0, 1, 0x58, 0xB0, 1, 0x1B, 0xB0, 2, 0x59);
    assert_int_equal(h.c.top, 1);
    assert_int_equal(h_top(&h, 0), 1);
    /* IF without EIF runs off the program */
    RUN_ERR(&h, FV_E_TT_CODE_OVERFLOW, 0xB0, 0, 0x58, 0xB0, 1);
    h_free(&h);
}

static void test_jumps(void **state)
{
    (void)state;
    harness h;
    h_init(&h, one_point, 1, one_end, 1, 0);
    /* JMPR over a PUSHB: offset 3 from the JMPR lands after it. */
    RUN(&h, 0xB0, 3, 0x1C, 0xB0, 99, 0xB0, 5);
    assert_int_equal(h.c.top, 1);
    assert_int_equal(h_top(&h, 0), 5);
    /* JROF taken when false, JROT not taken when false */
    RUN(&h, 0xB1, 3, 0, 0x79, 0xB0, 99, 0xB1, 4, 0, 0x78, 0xB0, 7);
    assert_int_equal(h.c.top, 1);
    assert_int_equal(h_top(&h, 0), 7);
    /* JMPR 0 with an empty stack is an infinite loop: refused. */
    RUN_ERR(&h, FV_E_TT_BAD_ARGUMENT, 0xB0, 0, 0x1C);
    /* An endless backward loop stops on the backward-jump budget. */
    RUN_ERR(&h, FV_E_TT_EXEC_BUDGET, 0xB8, 0xFF, 0xFD, 0x1C);
    h_free(&h);
}

static void test_functions(void **state)
{
    (void)state;
    harness h;
    h_init(&h, one_point, 1, one_end, 1, 0);
    /* prep: FDEF 0 { 1 ADD } ENDF; FDEF 1 { 2 CALL-self-nesting } ; IDEF 0x91 { 42 } */
    static const uint8_t prep[] = { 0xB0, 0, 0x2C, 0xB0, 1, 0x60, 0x2D,
                                    0xB0, 1, 0x2C, 0xB0, 1, 0x2B, 0x2D,
                                    0xB0, 0x91, 0x89, 0xB0, 42, 0x2D };
    assert_int_equal(h_run_prep(&h, prep, sizeof prep), FV_OK);
    assert_int_equal(h.defs.num_fdefs, 2);
    assert_int_equal(h.defs.num_idefs, 1);
    /* 10 0 CALL -> 11 ; 5 3 0 LOOPCALL -> 8 */
    RUN(&h, 0xB1, 10, 0, 0x2B, 0xB2, 5, 3, 0, 0x2A);
    assert_int_equal(h_top(&h, 1), 11);
    assert_int_equal(h_top(&h, 0), 8);
    /* The IDEF'd opcode runs its definition. */
    RUN(&h, 0x91);
    assert_int_equal(h_top(&h, 0), 42);
    /* Unknown function, infinite recursion, undefined opcode. */
    RUN_ERR(&h, FV_E_TT_INVALID_FUNCTION, 0xB0, 5, 0x2B);
    assert_int_equal(h.err.index, 5);
    RUN_ERR(&h, FV_E_TT_NESTING, 0xB0, 1, 0x2B);
    RUN_ERR(&h, FV_E_TT_INVALID_OPCODE, 0x92);
    assert_string_equal(h.err.opname, "UNDEF_0x92");
    /* FDEF is refused in glyph programs, ENDF outside a function too. */
    RUN_ERR(&h, FV_E_TT_DEF_IN_GLYPH, 0xB0, 2, 0x2C, 0x2D);
    RUN_ERR(&h, FV_E_TT_ENDF_IN_STREAM, 0x2D);
    RUN_ERR(&h, FV_E_TT_DEBUG_OPCODE, 0xB0, 0, 0x4F);
    h_free(&h);
}

static void test_definition_limits(void **state)
{
    (void)state;
    harness h;
    h_init(&h, one_point, 1, one_end, 1, 0);
    /* The harness allows 8 FDEFs (maxp.maxFunctionDefs); the 9th fails. */
    uint8_t prep[9 * 4];
    for (int i = 0; i < 9; i++) {
        prep[4 * i] = 0xB0;
        prep[4 * i + 1] = (uint8_t)i;
        prep[4 * i + 2] = 0x2C;
        prep[4 * i + 3] = 0x2D;
    }
    assert_int_equal(h_run_prep(&h, prep, sizeof prep), FV_E_TT_TOO_MANY_DEFS);
    assert_int_equal(h.err.kind, FV_E_TT_TOO_MANY_DEFS);
    assert_int_equal(h.err.program, FV_PROG_PREP);
    assert_int_equal(h.err.pc, 8 * 4 + 2);
    assert_int_equal(h.err.index, 8);
    /* A fault inside a function names the program holding it (prep here)
     * and the glyph being hinted. */
    static const uint8_t prep2[] = { 0xB0, 0, 0x2C, 0xB0, 200, 0x43, 0x2D };
    h.defs.num_fdefs = 0;
    assert_int_equal(h_run_prep(&h, prep2, sizeof prep2), FV_OK);
    h.c.pedantic = 1;
    RUN_ERR(&h, FV_E_TT_INVALID_STORAGE, 0xB0, 0, 0x2B);
    assert_int_equal(h.err.program, FV_PROG_PREP);
    assert_int_equal(h.err.glyph, 7);
    assert_int_equal(h.err.pc, 5);
    assert_string_equal(h.err.opname, "RS");
    h_free(&h);
}

static void test_storage_cvt(void **state)
{
    (void)state;
    harness h;
    h_init(&h, one_point, 1, one_end, 1, 0);
    h.cvt[3] = 100;
    /* WS 2 <- 77; RS 2; RCVT 3; WCVTP 4 <- 55; RCVT 4 */
    RUN(&h, 0xB1, 2, 77, 0x42, 0xB0, 2, 0x43, 0xB0, 3, 0x45, 0xB1, 4, 55, 0x44, 0xB0, 4, 0x45);
    assert_int_equal(h_top(&h, 2), 77);
    assert_int_equal(h_top(&h, 1), 100);
    assert_int_equal(h_top(&h, 0), 55);
    /* Copy-on-write: the glyph program wrote a per-load copy. */
    assert_int_equal(h.storage[2], 0);
    assert_int_equal(h.cvt[4], 0);
    assert_int_equal(h.c.storage[2], 77);
    /* Out of range: read 0, no error unless pedantic. */
    RUN(&h, 0xB0, 50, 0x43, 0xB0, 50, 0x45);
    assert_int_equal(h_top(&h, 0), 0);
    h.c.pedantic = 1;
    RUN_ERR(&h, FV_E_TT_INVALID_STORAGE, 0xB0, 50, 0x43);
    assert_int_equal(h.err.index, 50);
    RUN_ERR(&h, FV_E_TT_INVALID_CVT, 0xB1, 9, 1, 0x44);
    assert_int_equal(h.err.pc, 3);
    assert_string_equal(h.err.opname, "WCVTP");
    h_free(&h);
}

static void test_gstate(void **state)
{
    (void)state;
    harness h;
    h_init(&h, one_point, 1, one_end, 1, 0);
    /* SPVTCA[y]; GPV; SFVFS (1,1) normalised; GFV */
    RUN(&h, 0x02, 0x0C, 0xB1, 1, 1, 0x0B, 0x0D);
    assert_int_equal(h_top(&h, 3), 0);
    assert_int_equal(h_top(&h, 2), 0x4000);
    assert_int_equal(h_top(&h, 1), 0x2D41); /* 1/sqrt(2) in 2.14 */
    assert_int_equal(h_top(&h, 0), 0x2D41);
    RUN(&h, 0xB0, 5, 0x17, 0xB0, 0, 0x16, 0xB0, 96, 0x1A, 0xB0, 4, 0x5F, 0xB0, 11, 0x5E);
    assert_int_equal(h.c.gs.loop, 5);
    assert_int_equal(h.c.gs.gep2, 0);
    assert_true(h.c.zp0 == &h.c.twilight);
    assert_int_equal(h.c.gs.minimum_distance, 96);
    assert_int_equal(h.c.gs.delta_shift, 4);
    assert_int_equal(h.c.gs.delta_base, 11);
    /* Bad zone ignored unless pedantic; SDS > 6 and negative SLOOP fail. */
    RUN(&h, 0xB0, 2, 0x13);
    RUN_ERR(&h, FV_E_TT_BAD_ARGUMENT, 0xB0, 7, 0x5F);
    RUN_ERR(&h, FV_E_TT_BAD_ARGUMENT, 0xB8, 0xFF, 0xFF, 0x17);
    h.c.pedantic = 1;
    RUN_ERR(&h, FV_E_TT_INVALID_ZONE, 0xB0, 2, 0x13);
    h_free(&h);
}

static void test_misc(void **state)
{
    (void)state;
    harness h;
    h_init(&h, one_point, 1, one_end, 1, 0);
    h.c.mode.grayscale = 1;
    /* MPPEM, MPS (v35: ppem), GETINFO version|grayscale */
    RUN(&h, 0x4B, 0x4C, 0xB0, 33, 0x88);
    assert_int_equal(h_top(&h, 2), 12);
    assert_int_equal(h_top(&h, 1), 12);
    assert_int_equal(h_top(&h, 0), 35 | 1 << 12);
    h.c.mode.v40 = 1;
    h.c.mode.grayscale = 0;
    h.c.mode.subpixel_lean = 1;
    h.c.mode.grayscale_cleartype = 1;
    RUN(&h, 0x4C, 0xB8, 0x1C, 0x61, 0x88);
    assert_int_equal(h_top(&h, 1), 12 * 64);
    assert_int_equal(h_top(&h, 0), 40 | 1 << 13 | 1 << 17 | 1 << 18 | 1 << 19);
    h_free(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_if_else),
        cmocka_unit_test(test_jumps),
        cmocka_unit_test(test_functions),
        cmocka_unit_test(test_definition_limits),
        cmocka_unit_test(test_storage_cvt),
        cmocka_unit_test(test_gstate),
        cmocka_unit_test(test_misc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
