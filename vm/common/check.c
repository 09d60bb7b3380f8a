#define _POSIX_C_SOURCE 200809L /* getpid */
/* The FV_TESTCASE registry of coverage builds (check.h): the points the
 * linker gathered in the fv_testcase section, written out at exit for
 * scripts/coverage.  Other builds compile nothing here. */
#include "common/check.h"

#if FV_TESTCASE_RECORDS
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Weak: a program without any point links (both are then null). */
extern fv_testcase_point __start_fv_testcase[] __attribute__((weak));
extern fv_testcase_point __stop_fv_testcase[] __attribute__((weak));

void fv_testcase_hit(fv_testcase_point *p, int truth)
{
    __atomic_fetch_add(&p->hits[truth != 0], 1, __ATOMIC_RELAXED);
}

size_t fv_testcase_points(const fv_testcase_point **first)
{
    *first = __start_fv_testcase;
    if (__start_fv_testcase == NULL || __stop_fv_testcase == NULL)
        return 0;
    return (size_t)(__stop_fv_testcase - __start_fv_testcase);
}

int fv_testcase_write(const char *path)
{
    const fv_testcase_point *p;
    size_t n = fv_testcase_points(&p);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s\t%llu\t%llu\t%llu\t%s\n", p[i].file, (unsigned long long)p[i].line,
                (unsigned long long)__atomic_load_n(&p[i].hits[0], __ATOMIC_RELAXED),
                (unsigned long long)__atomic_load_n(&p[i].hits[1], __ATOMIC_RELAXED), p[i].expr);
    return fclose(f) == 0 ? 0 : -1;
}

__attribute__((destructor)) static void write_at_exit(void)
{
    const char *dir = getenv("FV_TESTCASE_DIR");
    if (dir == NULL || *dir == '\0')
        return;
    char path[4096];
    int len = snprintf(path, sizeof path, "%s/testcase-%ld.tsv", dir, (long)getpid());
    if (len > 0 && (size_t)len < sizeof path)
        (void)fv_testcase_write(path);
}
#else
/* ISO C wants at least one declaration in a translation unit. */
typedef int fv_check_records_nothing;
#endif
