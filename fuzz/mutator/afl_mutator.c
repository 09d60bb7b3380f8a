/* AFL++ custom-mutator library (AFL_CUSTOM_MUTATOR_LIBRARY) around the
 * structure-aware bytecode mutator.  Which layout to use comes from
 * FVFUZZ_TARGET (tt_program, tt_diff, gr_code, gr_diff, tt_font_diff,
 * gr_font_diff); scripts/fuzz sets
 * it.  All state lives in the object afl_custom_init returns. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mutator/mutator.h"

/* AFL++ never asks for more than this many bytes (MAX_FILE in config.h). */
#define AFL_MUT_MAX (1u << 20)

typedef struct afl_mut {
    fvmut_layout layout;
    fvmut_rng rng;
    uint8_t *buf;
    size_t cap;
} afl_mut;

/* The AFL++ interface (custom_mutators.md): afl_state_t is opaque here. */
void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size);
const char *afl_custom_describe(void *data, size_t max_description_len);
void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed)
{
    (void)afl;
    const char *target = getenv("FVFUZZ_TARGET");
    afl_mut *m = calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    if (target == NULL || !fvmut_layout_for(target, &m->layout)) {
        fprintf(stderr, "libfvfuzz_mutator: set FVFUZZ_TARGET to a code target "
                        "(tt_program, tt_diff, gr_code, gr_diff) or a font target\n"
                        "(tt_font_diff, gr_font_diff)\n");
        free(m);
        return NULL;
    }
    fvmut_rng_seed(&m->rng, seed);
    return m;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size)
{
    afl_mut *m = data;
    if (max_size > AFL_MUT_MAX)
        max_size = AFL_MUT_MAX;
    if (m->cap < max_size) {
        uint8_t *nb = realloc(m->buf, max_size);
        if (nb == NULL) {
            *out_buf = buf;
            return buf_size;
        }
        m->buf = nb;
        m->cap = max_size;
    }
    size_t n;
    if (add_buf != NULL && add_buf_size > 0 && fvmut_rand(&m->rng, 4) == 0) {
        n = fvmut_crossover(&m->layout, buf, buf_size, add_buf, add_buf_size, m->buf, max_size,
                            &m->rng);
    } else {
        n = buf_size < max_size ? buf_size : max_size;
        memcpy(m->buf, buf, n);
        /* A few stacked edits per call, as AFL's havoc stage does. */
        unsigned rounds = 1 + fvmut_rand(&m->rng, 4);
        for (unsigned r = 0; r < rounds; r++)
            n = fvmut_mutate(&m->layout, m->buf, n, max_size, &m->rng);
    }
    *out_buf = m->buf;
    return n;
}

const char *afl_custom_describe(void *data, size_t max_description_len)
{
    (void)data;
    return max_description_len > 12 ? "fvfuzz-insn" : "fv";
}

void afl_custom_deinit(void *data)
{
    afl_mut *m = data;
    if (m != NULL)
        free(m->buf);
    free(m);
}
