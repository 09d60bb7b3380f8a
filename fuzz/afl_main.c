/* AFL++ persistent-mode driver for one fuzz target (built with
 * afl-clang-fast; see fuzz/CMakeLists.txt).  The test case arrives through
 * shared memory (__AFL_FUZZ_TESTCASE_BUF) and up to AFL_LOOP_RUNS inputs run
 * in one process before AFL++ forks a fresh one.  Outside afl-fuzz (no
 * __AFL_HAVE_MANUAL_CONTROL) it reads one file named on the command line or
 * stdin, so a crash file replays with the same binary. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Runs per process before AFL++ restarts it; the targets keep no state, so
 * this only bounds the damage of a leak outside the library allocator. */
#define AFL_LOOP_RUNS 10000

#ifdef __AFL_FUZZ_TESTCASE_LEN
__AFL_FUZZ_INIT();
#endif

static int run_file(FILE *f)
{
    uint8_t *buf = NULL;
    size_t n = 0;
    if (fvfuzz_read_stream(f, &buf, &n) != 0)
        return 1;
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
#ifdef __AFL_FUZZ_TESTCASE_LEN
    if (getenv("__AFL_SHM_FUZZ_ID") != NULL || getenv("AFL_PERSISTENT") != NULL ||
        argc < 2) {
        __AFL_INIT();
        const uint8_t *buf = __AFL_FUZZ_TESTCASE_BUF;
        while (__AFL_LOOP(AFL_LOOP_RUNS)) {
            size_t len = (size_t)__AFL_FUZZ_TESTCASE_LEN;
            LLVMFuzzerTestOneInput(buf, len);
        }
        return 0;
    }
#endif
    if (argc < 2)
        return run_file(stdin);
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (f == NULL) {
            fprintf(stderr, "%s: cannot open %s\n", argv[0], argv[i]);
            bad = 1;
            continue;
        }
        bad |= run_file(f);
        fclose(f);
    }
    return bad;
}
