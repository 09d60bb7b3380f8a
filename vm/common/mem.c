/* Memory accountant: a size header before every block, a hard cap. */
#include <stdlib.h>
#include <string.h>

#include "common/mem.h"

/* The header keeps the block size so fv_mem_free needs only the pointer; it
 * is max_align_t-sized so payloads stay suitably aligned. */
typedef union mem_header {
    size_t size;
    max_align_t align;
} mem_header;

static void *default_alloc(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}

static void default_free(void *user, void *p, size_t size)
{
    (void)user;
    (void)size;
    free(p);
}

void fv_mem_init(fv_mem *m, const fv_allocator *a)
{
    memset(&m->a, 0, sizeof m->a);
    atomic_init(&m->live, 0);
    atomic_init(&m->peak, 0);
    if (a)
        m->a = *a;
    if (!m->a.alloc || !m->a.free) {
        m->a.alloc = default_alloc;
        m->a.free = default_free;
        m->a.user = NULL;
    }
    if (m->a.cap == 0)
        m->a.cap = FV_DEFAULT_MEMORY_CAP;
}

void *fv_mem_alloc(fv_mem *m, size_t size)
{
    if (size > SIZE_MAX - sizeof(mem_header))
        return NULL;
    size_t total = size + sizeof(mem_header);
    /* Reserve the bytes against the cap first (compare-and-swap, so two
     * threads cannot both pass the check with the last free bytes). */
    size_t live = atomic_load_explicit(&m->live, memory_order_relaxed);
    do {
        if (total > m->a.cap || live > m->a.cap - total)
            return NULL;
    } while (!atomic_compare_exchange_weak_explicit(&m->live, &live, live + total,
                                                    memory_order_relaxed, memory_order_relaxed));
    mem_header *h = m->a.alloc(m->a.user, total);
    if (!h) {
        atomic_fetch_sub_explicit(&m->live, total, memory_order_relaxed);
        return NULL;
    }
    h->size = total;
    size_t now = live + total;
    size_t peak = atomic_load_explicit(&m->peak, memory_order_relaxed);
    while (now > peak && !atomic_compare_exchange_weak_explicit(&m->peak, &peak, now,
                                                                memory_order_relaxed,
                                                                memory_order_relaxed)) {
    }
    return h + 1;
}

void *fv_mem_calloc(fv_mem *m, size_t size)
{
    void *p = fv_mem_alloc(m, size);
    if (p)
        memset(p, 0, size);
    return p;
}

void *fv_mem_array(fv_mem *m, size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size)
        return NULL;
    return fv_mem_calloc(m, n * size);
}

void fv_mem_free(fv_mem *m, void *p)
{
    if (!p)
        return;
    mem_header *h = (mem_header *)p - 1;
    size_t total = h->size;
    atomic_fetch_sub_explicit(&m->live, total, memory_order_relaxed);
    m->a.free(m->a.user, h, total);
}
