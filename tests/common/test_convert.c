/* vm/common/convert.h: float -> int32 without undefined behaviour.  In
 * range it truncates toward zero like a C cast (graphite2's int(float));
 * out of range it saturates and NaN gives 0 (under UBSan a plain cast of
 * these values aborts the test). */
#include <math.h>

#include "common/convert.h"
#include "test_support.h"

static void test_in_range_truncates(void **state)
{
    (void)state;
    assert_int_equal(fv_f32_to_i32(0.0f), 0);
    assert_int_equal(fv_f32_to_i32(-0.0f), 0);
    assert_int_equal(fv_f32_to_i32(2.9f), 2);
    assert_int_equal(fv_f32_to_i32(-2.9f), -2);
    assert_int_equal(fv_f32_to_i32(32767.5f), 32767);
    /* the largest float below 2^31 and -2^31 itself are representable */
    assert_int_equal(fv_f32_to_i32(2147483520.0f), 2147483520);
    assert_true(fv_f32_to_i32(-2147483648.0f) == INT32_MIN);
}

static void test_out_of_range_saturates(void **state)
{
    (void)state;
    assert_true(fv_f32_to_i32(2147483648.0f) == INT32_MAX);
    assert_true(fv_f32_to_i32(6.12e32f) == INT32_MAX); /* issue 14's justify case */
    assert_true(fv_f32_to_i32(-1e30f) == INT32_MIN);
    assert_true(fv_f32_to_i32(INFINITY) == INT32_MAX);
    assert_true(fv_f32_to_i32(-INFINITY) == INT32_MIN);
    assert_int_equal(fv_f32_to_i32(NAN), 0);
}

static void test_mul_saturates(void **state)
{
    (void)state;
    assert_int_equal(fv_i32_mul_sat(-7, 3), -21);
    assert_true(fv_i32_mul_sat(INT32_MAX, 2) == INT32_MAX);
    assert_true(fv_i32_mul_sat(INT32_MAX, -2) == INT32_MIN);
    assert_true(fv_i32_mul_sat(INT32_MIN, -1) == INT32_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_range_truncates),
        cmocka_unit_test(test_out_of_range_saturates),
        cmocka_unit_test(test_mul_saturates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
