/* Compiler-specific features, each behind one macro so vm/ stays plain C11. */
#ifndef FV_COMMON_COMPAT_H
#define FV_COMMON_COMPAT_H

#if defined(__GNUC__) || defined(__clang__)
#define FV_LIKELY(x) __builtin_expect(!!(x), 1)
#define FV_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define FV_HAVE_COMPUTED_GOTO 1
#define FV_ALWAYS_INLINE inline __attribute__((always_inline))
#define FV_NOINLINE __attribute__((noinline))
/* A function only reached when something went wrong: callers keep its
 * call out of their hot path. */
#define FV_COLD __attribute__((cold, noinline))
#else
#define FV_LIKELY(x) (x)
#define FV_UNLIKELY(x) (x)
#define FV_HAVE_COMPUTED_GOTO 0
#define FV_ALWAYS_INLINE inline
#define FV_NOINLINE
#define FV_COLD
#endif

/* FV_ALWAYS/FV_NEVER (and FV_TESTCASE) live in check.h, with the tiers
 * they belong to; included here for the files that took them from this
 * header. */
#include "common/check.h"

/* Adds 1 to a plain uint64_t counter shared by threads (relaxed: only the
 * count matters).  The public API hands out uint64_t arrays, not _Atomic
 * ones, hence the builtin. */
#if defined(__GNUC__) || defined(__clang__)
#define FV_ATOMIC_INC_U64(p) ((void)__atomic_fetch_add((p), (uint64_t)1, __ATOMIC_RELAXED))
#else
#define FV_ATOMIC_INC_U64(p) ((void)(++*(p)))
#endif

#define FV_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* The compiler forgets what it knew of the variable x's value (its range):
 * gcc expands a memset whose size it knows to be at least a few words into
 * `rep stosq` in place, slow to start for the few bytes a call clears. */
#if defined(__GNUC__) || defined(__clang__)
#define FV_OPAQUE(x) __asm__("" : "+r"(x))
#else
#define FV_OPAQUE(x) ((void)0)
#endif

#endif
