/* fontvm — caller-supplied allocation with a hard cap.
 *
 * Every byte the library allocates goes through an fv_allocator.  The
 * library wraps it in an fv_mem accountant that enforces `cap` (total live
 * bytes per font) so a hostile font cannot make the library exhaust memory. */
#ifndef FONTVM_ALLOC_H
#define FONTVM_ALLOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fv_allocator {
    /* Both may be NULL: the C library's malloc/free are used.  When the
     * objects of one font are used from several threads (one execution
     * context per thread), these are called from those threads: they must
     * be thread-safe, as malloc/free are.  The cap is kept exactly under
     * concurrent use. */
    void *(*alloc)(void *user, size_t size);
    void (*free)(void *user, void *ptr, size_t size);
    void *user;
    /* Hard cap on live bytes for one font object (and everything it owns).
     * 0 selects FV_DEFAULT_MEMORY_CAP. */
    size_t cap;
} fv_allocator;

/* 256 MiB: far beyond any real font's needs (the largest CJK fonts need a few
 * MiB of parsed state) and small enough that a fuzzer never runs out. */
#define FV_DEFAULT_MEMORY_CAP ((size_t)256 * 1024 * 1024)

#ifdef __cplusplus
}
#endif
#endif
