/* Fixed-point helpers with FreeType's rounding (see fixed.h).
 *
 * FreeType on 64-bit targets computes these on unsigned 64-bit magnitudes and
 * re-applies the sign, so products that overflow 64 bits wrap.  We do the
 * same with explicitly unsigned arithmetic, which is defined for all inputs. */
#include "common/fixed.h"

/* Splits v into its sign (+1/-1, multiplied into *sign) and magnitude. */
static uint64_t magnitude(int64_t v, int *sign)
{
    if (v < 0) {
        *sign = -*sign;
        return 0u - (uint64_t)v;
    }
    return (uint64_t)v;
}

static int64_t with_sign(uint64_t mag, int sign)
{
    return sign < 0 ? (int64_t)(0u - mag) : (int64_t)mag;
}

int64_t fv_muldiv(int64_t a, int64_t b, int64_t c)
{
    int s = 1;
    uint64_t ua = magnitude(a, &s), ub = magnitude(b, &s), uc = magnitude(c, &s);
    uint64_t d = uc > 0 ? (ua * ub + (uc >> 1)) / uc : 0x7FFFFFFFu;
    return with_sign(d, s);
}

int64_t fv_muldiv_no_round(int64_t a, int64_t b, int64_t c)
{
    int s = 1;
    uint64_t ua = magnitude(a, &s), ub = magnitude(b, &s), uc = magnitude(c, &s);
    uint64_t d = uc > 0 ? ua * ub / uc : 0x7FFFFFFFu;
    return with_sign(d, s);
}

int64_t fv_divfix(int64_t a, int64_t b)
{
    int s = 1;
    uint64_t ua = magnitude(a, &s), ub = magnitude(b, &s);
    uint64_t q = ub > 0 ? ((ua << 16) + (ub >> 1)) / ub : 0x7FFFFFFFu;
    return with_sign(q, s);
}
