/* Helpers for the tests that run the library from several threads (the
 * *_threads tests, also built with ThreadSanitizer by the tsan preset). */
#ifndef FV_TEST_THREADS_H
#define FV_TEST_THREADS_H

#include <pthread.h>
#include <stdint.h>

#include "test_support.h"

#define TEST_MAX_THREADS 16

/* Runs fn on each of n jobs (job i at jobs + i * job_size) in its own
 * thread, all started before any is joined. */
static inline void test_run_in_threads(void *(*fn)(void *), void *jobs, size_t job_size, int n)
{
    pthread_t th[TEST_MAX_THREADS];
    assert_true(n > 0 && n <= TEST_MAX_THREADS);
    for (int t = 0; t < n; t++)
        assert_int_equal(pthread_create(&th[t], NULL, fn, (char *)jobs + (size_t)t * job_size), 0);
    for (int t = 0; t < n; t++)
        assert_int_equal(pthread_join(th[t], NULL), 0);
}

/* One step of the FNV-1a-style digest the threads tests keep of what a
 * thread computed (its results must equal the same work done alone). */
static inline uint64_t test_digest(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x100000001B3ULL;
}
#define TEST_DIGEST_START 0xCBF29CE484222325ULL

#endif
