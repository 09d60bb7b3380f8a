/* Push and stack instructions, arithmetic, logic and rounding. */
#include "test_interp_harness.h"

static const int32_t one_point[] = { 0, 0 };
static const uint16_t one_end[] = { 0 };

static void test_push_and_stack(void **state)
{
    (void)state;
    harness h;
    h_init(&h, one_point, 1, one_end, 1, 0);
    /* PUSHB[2] 1 2 3; NPUSHW 1 -5; DUP; SWAP; DEPTH */
    RUN(&h, 0xB2, 1, 2, 3, 0x41, 1, 0xFF, 0xFB, 0x20, 0x23, 0x24);
    assert_int_equal(h.c.top, 6);
    assert_int_equal(h_top(&h, 0), 5);  /* DEPTH */
    assert_int_equal(h_top(&h, 1), -5); /* DUP then SWAP of equal values */
    assert_int_equal(h_top(&h, 2), -5);
    assert_int_equal(h_top(&h, 3), 3);
    /* 10 20 30 40, 3 CINDEX -> 20; 4 MINDEX moves 10 to the top; ROLL */
    RUN(&h, 0xB3, 10, 20, 30, 40, 0xB0, 3, 0x25);
    assert_int_equal(h_top(&h, 0), 20);
    RUN(&h, 0xB3, 10, 20, 30, 40, 0xB0, 4, 0x26);
    assert_int_equal(h.c.top, 4);
    assert_int_equal(h_top(&h, 0), 10);
    assert_int_equal(h_top(&h, 3), 20);
    RUN(&h, 0xB2, 1, 2, 3, 0x8A); /* a b c -> b c a */
    assert_int_equal(h_top(&h, 0), 1);
    assert_int_equal(h_top(&h, 1), 3);
    assert_int_equal(h_top(&h, 2), 2);
    RUN(&h, 0xB1, 1, 2, 0x23); /* SWAP */
    assert_int_equal(h_top(&h, 0), 1);
    assert_int_equal(h_top(&h, 1), 2);
    RUN(&h, 0xB2, 1, 2, 3, 0x22, 0x21); /* CLEAR, then POP of nothing */
    assert_int_equal(h.c.top, 0);
    h_free(&h);
}

static void test_stack_errors(void **state)
{
    (void)state;
    harness h;
    h_init(&h, one_point, 1, one_end, 1, 1);
    RUN_ERR(&h, FV_E_TT_STACK_UNDERFLOW, 0xB0, 1, 0x60);
    assert_int_equal(h.err.pc, 2);
    assert_int_equal(h.err.opcode, 0x60);
    assert_string_equal(h.err.opname, "ADD");
    assert_int_equal(h.err.program, FV_PROG_GLYF);
    assert_int_equal(h.err.glyph, 7);
    char buf[128];
    fv_error_format(&h.err, buf, sizeof buf);
    assert_non_null(strstr(buf, "glyf[7]@2:ADD"));
    /* NPUSHB of 255 bytes overflows a 64-entry stack. */
    uint8_t big[257];
    big[0] = 0x40;
    big[1] = 255;
    memset(big + 2, 1, 255);
    assert_int_equal(h_run(&h, big, sizeof big), FV_E_TT_STACK_OVERFLOW);
    /* Truncated push data. */
    RUN_ERR(&h, FV_E_TT_CODE_OVERFLOW, 0xB1, 5);
    /* CINDEX beyond the stack (pedantic). */
    RUN_ERR(&h, FV_E_TT_INVALID_REFERENCE, 0xB0, 9, 0x25);
    h_free(&h);
    /* Non-pedantic: missing arguments read as zeros (FreeType). */
    h_init(&h, one_point, 1, one_end, 1, 0);
    RUN(&h, 0xB0, 7, 0x60);
    assert_int_equal(h.c.top, 1);
    assert_int_equal(h_top(&h, 0), 0);
    h_free(&h);
}

static void test_arith_logic(void **state)
{
    (void)state;
    harness h;
    h_init(&h, one_point, 1, one_end, 1, 0);
    /* 2.0 * 1.5 = 3.0 ; 3.0 / 2.0 = 1.5 */
    RUN(&h, 0xB1, 128, 96, 0x63, 0xB0, 128, 0x62);
    assert_int_equal(h_top(&h, 0), 96);
    RUN(&h, 0xB8, 0xFF, 0x9C, 0x64, 0xB8, 0xFF, 0x9C, 0x65, 0xB0, 100, 0x66, 0xB0, 100, 0x67);
    assert_int_equal(h_top(&h, 3), 100); /* ABS(-100) */
    assert_int_equal(h_top(&h, 2), 100); /* NEG(-100) */
    assert_int_equal(h_top(&h, 1), 64);  /* FLOOR(100) */
    assert_int_equal(h_top(&h, 0), 128); /* CEILING(100) */
    RUN(&h, 0xB1, 3, 5, 0x50, 0xB1, 3, 5, 0x52, 0xB1, 5, 5, 0x54, 0xB1, 3, 5, 0x8B,
        0xB1, 3, 5, 0x8C);
    assert_int_equal(h_top(&h, 4), 1); /* 3 < 5 */
    assert_int_equal(h_top(&h, 3), 0); /* 3 > 5 */
    assert_int_equal(h_top(&h, 2), 1); /* 5 == 5 */
    assert_int_equal(h_top(&h, 1), 5); /* MAX */
    assert_int_equal(h_top(&h, 0), 3); /* MIN */
    RUN(&h, 0xB1, 1, 0, 0x5A, 0xB1, 1, 0, 0x5B, 0xB0, 0, 0x5C);
    assert_int_equal(h_top(&h, 2), 0);
    assert_int_equal(h_top(&h, 1), 1);
    assert_int_equal(h_top(&h, 0), 1);
    RUN_ERR(&h, FV_E_TT_DIVIDE_BY_ZERO, 0xB1, 1, 0, 0x62);
    h_free(&h);
}

static void test_rounding(void **state)
{
    (void)state;
    harness h;
    h_init(&h, one_point, 1, one_end, 1, 0);
    /* 100 (1.5625 px) under each round state */
    RUN(&h, 0x18, 0xB0, 100, 0x68,  /* RTG  -> 128 */
        0x19, 0xB0, 100, 0x68,      /* RTHG -> 96 */
        0x3D, 0xB0, 100, 0x68,      /* RTDG -> 96 */
        0x7D, 0xB0, 100, 0x68,      /* RDTG -> 64 */
        0x7C, 0xB0, 100, 0x68,      /* RUTG -> 128 */
        0x7A, 0xB0, 100, 0x68);     /* ROFF -> 100 */
    assert_int_equal(h_top(&h, 5), 128);
    assert_int_equal(h_top(&h, 4), 96);
    assert_int_equal(h_top(&h, 3), 96);
    assert_int_equal(h_top(&h, 2), 64);
    assert_int_equal(h_top(&h, 1), 128);
    assert_int_equal(h_top(&h, 0), 100);
    /* Negative values round symmetrically; ODD/EVEN round first. */
    RUN(&h, 0x18, 0xB8, 0xFF, 0x9C, 0x68, 0xB0, 100, 0x56, 0xB0, 100, 0x57);
    assert_int_equal(h_top(&h, 2), -128);
    assert_int_equal(h_top(&h, 1), 0); /* 128 is even */
    assert_int_equal(h_top(&h, 0), 1);
    /* SROUND 0x58 = 01 01 1000: period 1 px, phase 1/4, threshold 1/2. */
    RUN(&h, 0xB0, 0x58, 0x76, 0xB0, 70, 0x68);
    assert_int_equal(h_top(&h, 0), 80); /* ((70 + 32 - 16) & -64) + 16 */
    h_free(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_push_and_stack),
        cmocka_unit_test(test_stack_errors),
        cmocka_unit_test(test_arith_logic),
        cmocka_unit_test(test_rounding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
