/* Tiered checks, after SQLite's (sqliteInt.h: assert, ALWAYS/NEVER,
 * testcase).  fontvm runs untrusted bytecode, so the tiers differ from
 * SQLite's in one way: nothing here ever guards against input.
 *
 * 1. Input (font data, bytecode, values on a VM stack) is checked by plain
 *    code that returns a named error, in every build: the accessors of
 *    reader.h, tt/zone.h, tt/cvt.h and the rest.  Never by these macros.
 *
 * 2. FV_ALWAYS(x) / FV_NEVER(x): a defensive check of an invariant the
 *    library keeps itself (a contour end the glyph loader validated, a slot
 *    link the engine wrote).  They are expressions with the value of x, so
 *    they sit in the condition of the defensive branch:
 *        if (FV_NEVER(end >= z->n_points)) end = z->n_points - 1;
 *    The check stays in every build.  In release builds the defensive
 *    branch runs, so a bug gives a safe result instead of undefined
 *    behaviour.  In the builds that test (debug, ASan, coverage, the fuzzing
 *    presets: CMake defines FV_TRAP_INVARIANTS there) a broken invariant
 *    traps, so a test or a fuzzer reports the bug as a crash instead of the
 *    defensive branch hiding it.  SQLite's debug ALWAYS/NEVER assert the
 *    same way.
 *
 * 3. FV_TESTCASE(x): a boundary that the tests must reach (x true) as well
 *    as pass by (x false): a stack exactly full, a read ending exactly at a
 *    table's end, a budget spent to its last step.  Line coverage shows
 *    that a check ran, not that its condition ever took the boundary
 *    value; this does.  In coverage builds (FV_TESTCASE_RECORD, the
 *    `coverage` preset) each point counts how often x was false and true
 *    (check.c), and scripts/coverage lists the points never true, with
 *    file:line.  Elsewhere it expands to nothing and x is not evaluated, so
 *    x must have no side effects and costs nothing in release. */
#ifndef FV_COMMON_CHECK_H
#define FV_COMMON_CHECK_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define FV_CHECK_UNLIKELY_(x) __builtin_expect(!!(x), 0)
#else
#define FV_CHECK_UNLIKELY_(x) (!!(x))
#endif

#if defined(FV_TRAP_INVARIANTS) && (defined(__GNUC__) || defined(__clang__))
/* 1: a broken invariant traps (SIGILL or SIGTRAP, by the machine). */
#define FV_CHECKS_TRAP 1
#define FV_NEVER(x) (FV_CHECK_UNLIKELY_(x) ? (__builtin_trap(), 1) : 0)
#else
#define FV_CHECKS_TRAP 0
#define FV_NEVER(x) FV_CHECK_UNLIKELY_(x)
#endif
#define FV_ALWAYS(x) (!FV_NEVER(!(x)))

#if defined(FV_TESTCASE_RECORD) && (defined(__GNUC__) || defined(__clang__))
/* One FV_TESTCASE point.  The points live in the section fv_testcase (one
 * per expansion, and per translation unit for the header's inline
 * functions: readers add the counts of equal file:line), which the linker
 * brackets with __start_fv_testcase and __stop_fv_testcase.  Counters are
 * global state, as a coverage tool's own are: only coverage builds have
 * them, and they are added to atomically. */
typedef struct fv_testcase_point {
    const char *file;
    const char *expr;
    uint64_t line;
    uint64_t hits[2]; /* [0]: x was false, [1]: x was true */
} fv_testcase_point;

#define FV_TESTCASE_RECORDS 1
#define FV_TESTCASE(x)                                                                        \
    do {                                                                                      \
        static fv_testcase_point fv_testcase_point_                                           \
            __attribute__((used, section("fv_testcase"), aligned(8))) = {__FILE__, #x,        \
                                                                          __LINE__, {0, 0}}; \
        fv_testcase_hit(&fv_testcase_point_, (x) ? 1 : 0);                                    \
    } while (0)

/* Counts one pass of point p (truth: x was true).  A call, not inline: it
 * makes every program with a point link check.c, whose destructor writes
 * the counts (a static library's object is linked only when used). */
void fv_testcase_hit(fv_testcase_point *p, int truth);

/* The points linked into this program: *first and the count. */
size_t fv_testcase_points(const fv_testcase_point **first);
/* Writes one line per point, "file<TAB>line<TAB>false<TAB>true<TAB>expr",
 * to path; 0 on success.  A program that recorded writes
 * $FV_TESTCASE_DIR/testcase-<pid>.tsv at exit when that variable is set
 * (scripts/coverage sets it for the replays). */
int fv_testcase_write(const char *path);
#else
#define FV_TESTCASE_RECORDS 0
#define FV_TESTCASE(x) ((void)0)
#endif

#endif
