/* Memory meters for `fontvm bench` and `shape --bench`: bytes in use and
 * their peak since a mark, for fontvm and for the reference engines.
 *
 *  - fontvm: an fv_allocator that counts the bytes the library asks for
 *    (fontvm/alloc.h hands every allocation and its size to the hook).
 *  - FreeType: an FT_Memory given to FT_New_Library (cmd_bench.c), which
 *    counts the sizes FreeType asks for (a 16-byte header keeps the size
 *    for free, and is not counted).
 *  - graphite2 has no allocator hook: malloc, calloc, realloc, free and the
 *    aligned forms are interposed in the fontvm executable (cli_mem.c) and,
 *    while a meter is started, count malloc_usable_size of each block (the
 *    asked size rounded up to glibc's 16-byte granule, 8-24 bytes more).
 *    For a like-for-like figure, `shape --bench` meters fontvm's Graphite
 *    face and segments the same way (its default allocator is malloc).
 *    Not available in sanitizer and fuzzing builds, whose runtimes own
 *    malloc (cli_malloc_meter_available() says so; the figures print "-").
 *
 * Meters are measured in passes of their own, outside the timed ones. */
#ifndef FV_CLI_MEM_H
#define FV_CLI_MEM_H

#include <stddef.h>

#include "fontvm/alloc.h"

typedef struct cli_meter {
    size_t in_use; /* bytes counted now (since the meter was zeroed) */
    size_t peak;   /* the most in_use has been since the last mark */
} cli_meter;

static inline void cli_meter_add(cli_meter *m, size_t n)
{
    m->in_use += n;
    if (m->in_use > m->peak)
        m->peak = m->in_use;
}

static inline void cli_meter_sub(cli_meter *m, size_t n)
{
    m->in_use = n > m->in_use ? 0 : m->in_use - n;
}

/* Starts a new peak from what is in use now; returns it. */
static inline size_t cli_meter_mark(cli_meter *m)
{
    m->peak = m->in_use;
    return m->in_use;
}

/* An allocator for fv_font_open_file that counts into m (malloc/free
 * underneath, the default cap). */
fv_allocator cli_meter_allocator(cli_meter *m);

/* 1 when this build interposes malloc (cli_mem.c), else 0. */
int cli_malloc_meter_available(void);
/* Counts every malloc-family block made or freed from now on into m, until
 * cli_malloc_meter_stop.  One thread: the bench runs on one. */
void cli_malloc_meter_start(cli_meter *m);
void cli_malloc_meter_stop(void);

#endif
