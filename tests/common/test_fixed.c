/* Fixed-point helpers against FreeType's public FT_MulFix, FT_MulDiv and
 * FT_DivFix from the real libfreetype (2.12.1 on Debian 12). */
#include "test_support.h"

#include <ft2build.h>
#include FT_FREETYPE_H

#include "common/fixed.h"

static const int64_t edges[] = {
    0, 1, -1, 2, -2, 0x7FFF, 0x8000, -0x8000, 0xFFFF, 0x10000, -0x10000, 0x10001,
    0x3FFF, 0x4000, -0x4000, 0x7FFFFFFF, -0x7FFFFFFF, -0x7FFFFFFF - 1, 0xFFFFFFFF,
    0x100000000LL, -0x100000000LL, 0x7FFFFFFFFFFFLL, INT64_MAX, INT64_MIN, INT64_MIN + 1,
    123456789, -987654321, 64, -64, 32, 0x1234567890LL,
};
#define NEDGES (sizeof edges / sizeof edges[0])

static void check_pair(int64_t a, int64_t b)
{
    assert_int_equal(fv_mulfix(a, b), (int64_t)FT_MulFix((FT_Long)a, (FT_Long)b));
    assert_int_equal(fv_divfix(a, b), (int64_t)FT_DivFix((FT_Long)a, (FT_Long)b));
}

static void check_triple(int64_t a, int64_t b, int64_t c)
{
    assert_int_equal(fv_muldiv(a, b, c), (int64_t)FT_MulDiv((FT_Long)a, (FT_Long)b, (FT_Long)c));
}

static void test_edges(void **state)
{
    (void)state;
    for (size_t i = 0; i < NEDGES; i++)
        for (size_t j = 0; j < NEDGES; j++) {
            check_pair(edges[i], edges[j]);
            for (size_t k = 0; k < NEDGES; k++)
                check_triple(edges[i], edges[j], edges[k]);
        }
}

/* Random values in several magnitude classes: 16-bit, 32-bit and full 64. */
static int64_t random_value(uint64_t *st)
{
    uint64_t r = test_rand64(st);
    switch (r & 3) {
    case 0: return (int16_t)(r >> 16);
    case 1: return (int32_t)(r >> 16);
    case 2: return (int64_t)(r >> 2) >> (r >> 58); /* any width */
    default: return (int64_t)test_rand64(st);
    }
}

static void test_random(void **state)
{
    (void)state;
    uint64_t st = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 200000; i++) {
        int64_t a = random_value(&st), b = random_value(&st), c = random_value(&st);
        check_pair(a, b);
        check_triple(a, b, c);
    }
}

static void test_known_values(void **state)
{
    (void)state;
    /* 1.0 * 1.0 = 1.0; -1.5 * 0.5 = -0.75; halves round away from zero. */
    assert_int_equal(fv_mulfix(0x10000, 0x10000), 0x10000);
    assert_int_equal(fv_mulfix(-0x18000, 0x8000), -0xC000);
    assert_int_equal(fv_mulfix(1, 0x8000), 1);
    assert_int_equal(fv_mulfix(-1, 0x8000), -1);
    /* Division by zero saturates with the sign of the dividend. */
    assert_int_equal(fv_divfix(5, 0), 0x7FFFFFFF);
    assert_int_equal(fv_divfix(-5, 0), -0x7FFFFFFF);
    assert_int_equal(fv_muldiv(7, 3, 0), 0x7FFFFFFF);
    assert_int_equal(fv_muldiv(-7, 3, 2), -11); /* -10.5 rounds away from zero */
    assert_int_equal(fv_muldiv_no_round(-7, 3, 2), -10);
    /* 2.14: 0.5 * 100 = 50; -0.5 * 1 = -0.5 -> -1 (away from zero). */
    assert_int_equal(fv_mulfix14(100, 0x2000), 50);
    assert_int_equal(fv_mulfix14(-1, 0x2000), -1);
    assert_int_equal(fv_mulfix14(1, 0x2000), 1);
    assert_int_equal(fv_dotfix14(64, 64, 0x4000, 0), 64);
    assert_int_equal(fv_dotfix14(64, 64, 0x2D41, 0x2D41), 91); /* 64*sqrt(2) */
}

static void test_wrapping(void **state)
{
    (void)state;
    assert_int_equal(fv_add32(INT32_MAX, 1), INT32_MIN);
    assert_int_equal(fv_sub32(INT32_MIN, 1), INT32_MAX);
    assert_int_equal(fv_neg32(INT32_MIN), INT32_MIN);
    assert_int_equal(fv_mul32(0x10000, 0x10000), 0);
    assert_int_equal(fv_abs64(INT64_MIN), INT64_MIN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_values),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_wrapping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
