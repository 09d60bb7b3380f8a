/* Memory meters (cli_mem.h): fontvm's counting allocator, and malloc
 * interposed for graphite2, which has no allocator hook. */
#define _GNU_SOURCE
#include "cli_mem.h"

#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>

static void *meter_alloc(void *user, size_t size)
{
    void *p = malloc(size);
    if (p)
        cli_meter_add(user, size);
    return p;
}

static void meter_free(void *user, void *ptr, size_t size)
{
    if (ptr)
        cli_meter_sub(user, size);
    free(ptr);
}

fv_allocator cli_meter_allocator(cli_meter *m)
{
    fv_allocator a = {meter_alloc, meter_free, m, 0};
    return a;
}

#ifdef FONTVM_CLI_MALLOC_METER
/* glibc's own entry points, which the replacements below call: glibc
 * supports replacing malloc in the executable (the GNU C Library manual,
 * "Replacing malloc"), and exports these for exactly this. */
extern void *__libc_malloc(size_t);
extern void __libc_free(void *);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

/* The meter counting now, or NULL.  Process-wide by nature (malloc is);
 * only the bench sets it, from its one thread, around untimed passes. */
static cli_meter *active;

int cli_malloc_meter_available(void)
{
    return 1;
}

void cli_malloc_meter_start(cli_meter *m)
{
    active = m;
}

void cli_malloc_meter_stop(void)
{
    active = NULL;
}

static void *counted(void *p)
{
    if (active && p)
        cli_meter_add(active, malloc_usable_size(p));
    return p;
}

void *malloc(size_t n)
{
    return counted(__libc_malloc(n));
}

void *calloc(size_t count, size_t n)
{
    return counted(__libc_calloc(count, n));
}

void free(void *p)
{
    if (active && p)
        cli_meter_sub(active, malloc_usable_size(p));
    __libc_free(p);
}

void *realloc(void *p, size_t n)
{
    size_t old = active && p ? malloc_usable_size(p) : 0;
    void *q = __libc_realloc(p, n);
    if (active && (q || n == 0)) {
        cli_meter_sub(active, old); /* moved, resized or freed (n == 0) */
        counted(q);
    }
    return q;
}

void *memalign(size_t align, size_t n)
{
    return counted(__libc_memalign(align, n));
}

void *aligned_alloc(size_t align, size_t n)
{
    return counted(__libc_memalign(align, n));
}

int posix_memalign(void **out, size_t align, size_t n)
{
    if (align < sizeof(void *) || (align & (align - 1)) != 0)
        return EINVAL;
    void *p = __libc_memalign(align, n);
    if (!p)
        return ENOMEM;
    *out = counted(p);
    return 0;
}
#else
int cli_malloc_meter_available(void)
{
    return 0;
}

void cli_malloc_meter_start(cli_meter *m)
{
    (void)m;
}

void cli_malloc_meter_stop(void)
{
}
#endif
