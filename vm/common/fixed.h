/* Fixed-point arithmetic with FreeType's exact rounding.
 *
 * The TrueType interpreter must reproduce FreeType's results bit for bit, so
 * these helpers round exactly as FreeType's public FT_MulDiv, FT_MulFix and
 * FT_DivFix do (tests/common/test_fixed.c checks them against the real
 * library on edge and random values).  All arithmetic is done on unsigned
 * magnitudes so that no input, however hostile, is undefined behaviour:
 * overflow wraps exactly as FreeType's 64-bit unsigned intermediate does. */
#ifndef FV_COMMON_FIXED_H
#define FV_COMMON_FIXED_H

#include <stdint.h>

typedef int32_t fv_f26d6;  /* 26.6: pixel coordinates */
typedef int32_t fv_f2d14;  /* 2.14: unit vectors */
typedef int32_t fv_f16d16; /* 16.16 */

/* A point or vector, 64-bit as the hinter keeps every coordinate: font
 * units as glyf gives them (sfnt_glyph_points), or 26.6 pixels. */
typedef struct fv_vec {
    int64_t x, y;
} fv_vec;

/* (a * b + c/2) / c with the sign of the product; c == 0 gives 0x7FFFFFFF
 * with that sign.  Equals FT_MulDiv for every 64-bit input. */
int64_t fv_muldiv(int64_t a, int64_t b, int64_t c);
/* (a * b) / c truncated, c == 0 gives 0x7FFFFFFF with sign (FreeType's
 * FT_MulDiv_No_Round). */
int64_t fv_muldiv_no_round(int64_t a, int64_t b, int64_t c);
/* (a << 16) / b rounded; b == 0 gives 0x7FFFFFFF with a's sign: FT_DivFix. */
int64_t fv_divfix(int64_t a, int64_t b);

/* The multiplications below run several times per hinting instruction, so
 * they are inline. */

/* Arithmetic shift right of a two's-complement 64-bit value, without relying
 * on implementation-defined behaviour of >> on negative numbers: a negative
 * v is ~(~v >> n), done without a branch (m is all ones when v is negative,
 * so v ^ m is ~v) because the sign of a product is data (gcc made a branch
 * of the test in every fv_mulfix, on coordinates of both signs). */
static inline int64_t fv_asr64(uint64_t v, unsigned n)
{
    uint64_t m = 0 - (v >> 63);
    return (int64_t)(((v ^ m) >> n) ^ m);
}

/* (a * b + 0x8000) >> 16 rounding half away from zero: FT_MulFix. */
static inline int64_t fv_mulfix(int64_t a, int64_t b)
{
    /* COMPAT(freetype): on x86-64 FreeType's FT_MulFix works on the low 32
     * bits of each argument (its inline-assembly variant takes FT_Int32) and
     * returns the 64-bit rounded product shifted by 16 — checked against
     * libfreetype 2.12.1 by tests/common/test_fixed.c. */
    int64_t a32 = (int32_t)(uint32_t)(uint64_t)a, b32 = (int32_t)(uint32_t)(uint64_t)b;
    uint64_t ab = (uint64_t)a32 * (uint64_t)b32;
    uint64_t neg = ab >> 63;
    ab += 0x8000u - neg;
    return (int32_t)(uint32_t)(uint64_t)fv_asr64(ab, 16);
}

/* a * b / 0x4000 rounded half away from zero (b is 2.14): TT_MulFix14. */
static inline int32_t fv_mulfix14(int32_t a, int32_t b)
{
    uint64_t ab = (uint64_t)((int64_t)a * (int64_t)b); /* |a*b| < 2^62: exact */
    ab += 0x2000u - (ab >> 63);
    return (int32_t)(uint32_t)(uint64_t)fv_asr64(ab, 14);
}

/* (ax * bx + ay * by) / 0x4000 rounded as FreeType's TT_DotFix14. */
static inline int32_t fv_dotfix14(int32_t ax, int32_t ay, int32_t bx, int32_t by)
{
    uint64_t t = (uint64_t)((int64_t)ax * (int64_t)bx) + (uint64_t)((int64_t)ay * (int64_t)by);
    t += 0x2000u - (t >> 63);
    return (int32_t)(uint32_t)(uint64_t)fv_asr64(t, 14);
}

/* Wrapping 32-bit arithmetic without undefined behaviour. */
static inline int32_t fv_add32(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a + (uint32_t)b);
}
static inline int32_t fv_sub32(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a - (uint32_t)b);
}
static inline int32_t fv_neg32(int32_t a)
{
    return (int32_t)(0u - (uint32_t)a);
}
static inline int32_t fv_mul32(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a * (uint32_t)b);
}
static inline int64_t fv_add64(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}
static inline int64_t fv_sub64(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a - (uint64_t)b);
}
static inline int64_t fv_neg64(int64_t a)
{
    return (int64_t)(0u - (uint64_t)a);
}
static inline int64_t fv_abs64(int64_t a)
{
    return a < 0 ? fv_neg64(a) : a;
}

#endif
