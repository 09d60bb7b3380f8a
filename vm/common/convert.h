/* Float to integer conversions without undefined behaviour.
 *
 * C11 6.3.1.4: converting a floating value whose integral part does not fit
 * the integer type is undefined, and so is converting a NaN.  Font data and
 * rule code can drive Graphite's float positions anywhere (a shift of
 * 32767 on each of 64 million slots, a justification width of 1e30), so
 * every float -> int conversion of the library goes through here.
 *
 * In range the result is C's: truncation toward zero, which is what
 * graphite2's int(float) casts do.  Out of range it saturates; NaN gives 0.
 * (graphite2's casts are undefined there; x86's cvttss2si gives INT32_MIN
 * for both, which no result of the default corpus ever needs.) */
#ifndef FV_COMMON_CONVERT_H
#define FV_COMMON_CONVERT_H

#include <stdint.h>

/* 2^31 is exact as a float; every float below it truncates into int32. */
#define FV_F32_TWO_POW_31 2147483648.0f

static inline int32_t fv_f32_to_i32(float v)
{
    if (v < FV_F32_TWO_POW_31 && v > -FV_F32_TWO_POW_31)
        return (int32_t)v;
    if (v >= FV_F32_TWO_POW_31)
        return INT32_MAX;
    if (v <= -FV_F32_TWO_POW_31)
        return INT32_MIN;
    return 0; /* NaN: every comparison above was false */
}

/* int32 product saturated to the int32 range (graphite2's int(x) * step,
 * whose overflow is undefined too). */
static inline int32_t fv_i32_mul_sat(int32_t a, int32_t b)
{
    int64_t p = (int64_t)a * b;
    if (p > INT32_MAX)
        return INT32_MAX;
    if (p < INT32_MIN)
        return INT32_MIN;
    return (int32_t)p;
}

#endif
