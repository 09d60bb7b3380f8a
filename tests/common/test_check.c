/* The tiered checks of vm/common/check.h in each of the three ways a build
 * compiles them.  This file is built three times (tests/common/CMakeLists):
 *   FV_CHECK_TEST_MODE 0  release: FV_NEVER/FV_ALWAYS take the defensive
 *                         branch, FV_TESTCASE is nothing;
 *   FV_CHECK_TEST_MODE 1  trapping (debug, ASan, coverage, fuzzing): a
 *                         broken invariant kills the process;
 *   FV_CHECK_TEST_MODE 2  coverage recording: FV_TESTCASE counts both sides
 *                         of its boundary, per file:line.
 * The mode is set here, whatever the preset defines for the library. */
#define _POSIX_C_SOURCE 200809L /* fork, waitpid */
#undef FV_TRAP_INVARIANTS
#undef FV_TESTCASE_RECORD
#if FV_CHECK_TEST_MODE == 1
#define FV_TRAP_INVARIANTS 1
#elif FV_CHECK_TEST_MODE == 2
#define FV_TESTCASE_RECORD 1
#endif

#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_support.h"

#include "common/check.h"

/* Values the compiler cannot fold, so the checks run at run time. */
static volatile int zero = 0, one = 1;

/* A defensive clamp as vm/ writes one. */
static int clamp_end(int end, int n_points)
{
    if (FV_NEVER(end >= n_points))
        end = n_points - 1;
    return end;
}

static void test_values_when_invariants_hold(void **state)
{
    (void)state;
    int evaluated = 0;
    assert_int_equal(FV_NEVER(zero), 0);
    assert_int_equal(FV_ALWAYS(one), 1);
    assert_int_equal(FV_NEVER((evaluated++, zero)), 0); /* x evaluated exactly once */
    assert_int_equal(FV_ALWAYS((evaluated++, one)), 1);
    assert_int_equal(evaluated, 2);
    assert_int_equal(clamp_end(3, 10), 3);
}

/* Runs fn in a child process: its wait status. */
static int run_in_child(int (*fn)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* The default actions, not cmocka's handlers: a trap kills. */
        signal(SIGILL, SIG_DFL);
        signal(SIGTRAP, SIG_DFL);
        _exit(fn());
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

static int break_never(void) { return clamp_end(12, 10) == 9 ? 42 : 1; }
static int break_always(void) { return FV_ALWAYS(zero) ? 1 : 43; }

static void test_broken_invariant(void **state)
{
    (void)state;
    int never = run_in_child(break_never), always = run_in_child(break_always);
#if FV_CHECK_TEST_MODE == 1
    /* Trapping builds: the process dies on the broken invariant (ud2 is
     * SIGILL on x86, brk SIGTRAP on ARM), before the defensive branch. */
    assert_int_equal(FV_CHECKS_TRAP, 1);
    assert_true(WIFSIGNALED(never));
    assert_true(WTERMSIG(never) == SIGILL || WTERMSIG(never) == SIGTRAP);
    assert_true(WIFSIGNALED(always));
    assert_true(WTERMSIG(always) == SIGILL || WTERMSIG(always) == SIGTRAP);
#else
    /* Release: the defensive branch runs and gives the safe result. */
    assert_int_equal(FV_CHECKS_TRAP, 0);
    assert_true(WIFEXITED(never));
    assert_int_equal(WEXITSTATUS(never), 42);
    assert_true(WIFEXITED(always));
    assert_int_equal(WEXITSTATUS(always), 43);
#endif
}

/* A stack push as vm/ checks it, with its two boundaries marked. */
static int push_fits(unsigned top, unsigned size)
{
    FV_TESTCASE(top + 1 == size); /* the push that fills the stack */
    FV_TESTCASE(top + 1 > size + 1000); /* never reached by this test */
    return top + 1 <= size;
}

#if FV_CHECK_TEST_MODE == 2
/* The point whose expression is expr: its false/true counts. */
static const fv_testcase_point *point_of(const char *expr)
{
    const fv_testcase_point *p;
    size_t n = fv_testcase_points(&p);
    const fv_testcase_point *found = NULL;
    for (size_t i = 0; i < n; i++)
        if (strcmp(p[i].expr, expr) == 0) {
            assert_null(found); /* one point per expansion */
            found = &p[i];
        }
    assert_non_null(found);
    return found;
}
#endif

static void test_testcase(void **state)
{
    (void)state;
    assert_true(push_fits(5, 10));
    assert_true(push_fits(9, 10));
    assert_false(push_fits(10, 10));
#if FV_CHECK_TEST_MODE == 2
    assert_int_equal(FV_TESTCASE_RECORDS, 1);
    const fv_testcase_point *full = point_of("top + 1 == size");
    assert_int_equal(full->hits[0], 2); /* 5 and 10: not the boundary */
    assert_int_equal(full->hits[1], 1); /* 9: the push that fills it */
    assert_non_null(strstr(full->file, "test_check.c"));
    const fv_testcase_point *never = point_of("top + 1 > size + 1000");
    assert_int_equal(never->hits[0], 3);
    assert_int_equal(never->hits[1], 0);
    /* The file scripts/coverage reads: one line per point. */
    char path[] = "/tmp/fv_testcase_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(fv_testcase_write(path), 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    int seen = 0;
    while (fgets(line, sizeof line, f))
        if (strstr(line, "\ttop + 1 > size + 1000\n")) {
            char want[64];
            snprintf(want, sizeof want, "\t%llu\t3\t0\t", (unsigned long long)never->line);
            assert_non_null(strstr(line, want));
            seen++;
        }
    fclose(f);
    remove(path);
    assert_int_equal(seen, 1);
#else
    /* Not recording: the expression is not even evaluated. */
    assert_int_equal(FV_TESTCASE_RECORDS, 0);
    int evaluated = 0;
    FV_TESTCASE(++evaluated > 0);
    assert_int_equal(evaluated, 0);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_when_invariants_hold),
        cmocka_unit_test(test_broken_invariant),
        cmocka_unit_test(test_testcase),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
