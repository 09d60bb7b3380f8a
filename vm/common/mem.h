/* Memory accountant: every allocation of the library goes through an fv_mem,
 * which forwards to the caller's fv_allocator and refuses to exceed its cap.
 * Sizes are remembered in a small header so callers free with one pointer. */
#ifndef FV_COMMON_MEM_H
#define FV_COMMON_MEM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "fontvm/alloc.h"
#include "fontvm/error.h"

/* `live` and `peak` are atomic: the sizes and execution contexts of one
 * font may allocate from several threads at once (fontvm/tt.h). */
typedef struct fv_mem {
    fv_allocator a;        /* resolved: alloc/free never NULL, cap never 0 */
    _Atomic size_t live;   /* bytes currently allocated (payload + headers) */
    _Atomic size_t peak;   /* high-water mark of `live` */
} fv_mem;

void fv_mem_init(fv_mem *m, const fv_allocator *a);

/* Returns NULL when the allocator fails or the cap would be exceeded.
 * fv_mem_calloc zeroes; fv_mem_array checks n*size for overflow first. */
void *fv_mem_alloc(fv_mem *m, size_t size);
void *fv_mem_calloc(fv_mem *m, size_t size);
void *fv_mem_array(fv_mem *m, size_t n, size_t size); /* zeroed */
void fv_mem_free(fv_mem *m, void *p);

#endif
