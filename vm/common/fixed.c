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

/* Arithmetic shift right of a two's-complement 64-bit value, without relying
 * on implementation-defined behaviour of >> on negative numbers. */
static int64_t asr64(uint64_t v, unsigned n)
{
    if (v >> 63)
        return (int64_t)(~(~v >> n));
    return (int64_t)(v >> n);
}

int64_t fv_mulfix(int64_t a, int64_t b)
{
    /* COMPAT(freetype): on x86-64 FreeType's FT_MulFix works on the low 32
     * bits of each argument (its inline-assembly variant takes FT_Int32) and
     * returns the 64-bit rounded product shifted by 16 — checked against
     * libfreetype 2.12.1 by tests/common/test_fixed.c. */
    int64_t a32 = (int32_t)(uint32_t)(uint64_t)a, b32 = (int32_t)(uint32_t)(uint64_t)b;
    uint64_t ab = (uint64_t)a32 * (uint64_t)b32;
    uint64_t neg = ab >> 63;
    ab += 0x8000u - neg;
    return (int32_t)(uint32_t)(uint64_t)asr64(ab, 16);
}

int64_t fv_divfix(int64_t a, int64_t b)
{
    int s = 1;
    uint64_t ua = magnitude(a, &s), ub = magnitude(b, &s);
    uint64_t q = ub > 0 ? ((ua << 16) + (ub >> 1)) / ub : 0x7FFFFFFFu;
    return with_sign(q, s);
}

int32_t fv_mulfix14(int32_t a, int32_t b)
{
    uint64_t ab = (uint64_t)((int64_t)a * (int64_t)b); /* |a*b| < 2^62: exact */
    ab += 0x2000u - (ab >> 63);
    return (int32_t)(uint32_t)(uint64_t)asr64(ab, 14);
}

int32_t fv_dotfix14(int32_t ax, int32_t ay, int32_t bx, int32_t by)
{
    uint64_t t = (uint64_t)((int64_t)ax * (int64_t)bx) + (uint64_t)((int64_t)ay * (int64_t)by);
    t += 0x2000u - (t >> 63);
    return (int32_t)(uint32_t)(uint64_t)asr64(t, 14);
}
