/* Helpers shared by the ctest programs. */
#ifndef FV_TEST_SUPPORT_H
#define FV_TEST_SUPPORT_H

#include <setjmp.h> /* cmocka needs these before its header */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

/* Deterministic PRNG (xorshift64*) so random tests are reproducible. */
static inline uint64_t test_rand64(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* Writes the path of `rel`, a path from the source tree's root
 * (FONTVM_SOURCE_DIR, else the current directory), into out. */
static inline void test_source_path(char *out, size_t size, const char *rel)
{
    const char *src = getenv("FONTVM_SOURCE_DIR");
    snprintf(out, size, "%s/%s", src ? src : ".", rel);
}

/* graphite2's own test suite, kept in the repository with its licences. */
#define TEST_PEER_GRAPHITE2 "corpus/peer/graphite2"

/* Opens `rel`, a path from the source tree's root, for reading; fails the
 * test when it cannot. */
static inline FILE *test_open_source(const char *rel)
{
    char path[1024];
    test_source_path(path, sizeof path, rel);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot read %s", path);
    return f;
}

/* Reads a whole file; returns NULL (and size 0) if it cannot. Caller frees. */
static inline uint8_t *test_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    *size = 0;
    if (!f)
        return NULL;
    uint8_t *buf = NULL;
    size_t cap = 0, len = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        if (n == 0)
            break;
        len += n;
    }
    fclose(f);
    *size = len;
    return buf;
}

#endif
