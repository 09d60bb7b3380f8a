/* Support shared by every fuzz target: entry, trailer parsing, the failing
 * allocator, the work record of the slow-input hunt.  No global mutable
 * state in a run: the allocator lives in each run; the hunt's counters
 * below are the engine's (libFuzzer clears them before every run). */
#include "fuzz.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Half-octave buckets of a step count: 2 per power of two, 0 for 0. */
#define FVFUZZ_WORK_BUCKETS 80

/* libFuzzer's extra counters (a section it reads as coverage after every
 * run, and clears before the next; elsewhere it is plain unused data). */
#if defined(__clang__) && defined(__linux__)
__attribute__((used, section("__libfuzzer_extra_counters")))
#endif
static uint8_t fvfuzz_work_counters[FVFUZZ_WORK_KINDS][FVFUZZ_WORK_BUCKETS];

static unsigned work_bucket(uint64_t steps)
{
    if (steps == 0)
        return 0;
    unsigned log2 = 63u - (unsigned)__builtin_clzll(steps);
    unsigned half = log2 > 0 && ((steps >> (log2 - 1)) & 1u);
    unsigned b = 1 + 2 * log2 + half;
    return b < FVFUZZ_WORK_BUCKETS ? b : FVFUZZ_WORK_BUCKETS - 1;
}

void fvfuzz_note_work(const fvfuzz_ctx *ctx, fvfuzz_work_kind kind, uint64_t steps,
                      uint64_t budget, int stopped)
{
    if ((unsigned)kind >= FVFUZZ_WORK_KINDS)
        return;
    if (ctx->work != NULL) {
        fvfuzz_work *w = ctx->work;
        /* the unit closest to its budget (budgets differ per segment) */
        if (budget > 0 && (w->budget[kind] == 0 || (double)steps / (double)budget >
                                                       (double)w->steps[kind] / (double)w->budget[kind])) {
            w->steps[kind] = steps;
            w->budget[kind] = budget;
        }
        w->stopped[kind] += stopped != 0;
    }
    /* Read once: whether this process hunts slow inputs. */
    static int hunting = -1;
    if (hunting < 0)
        hunting = getenv("FVFUZZ_HUNT_SLOW") != NULL;
    if (hunting) {
        /* every bucket up to this one: a larger count is a superset */
        unsigned b = stopped ? FVFUZZ_WORK_BUCKETS - 1 : work_bucket(steps);
        for (unsigned k = 0; k <= b; k++)
            fvfuzz_work_counters[kind][k] = 1;
    }
}

size_t fvfuzz_font_text(const fvfuzz_input *in, uint32_t *text, size_t *font_len)
{
    size_t n = fvfuzz_u8(in, 2); /* < FVFUZZ_MAX_TEXT */
    if (2 * n > in->payload_len)
        n = in->payload_len / 2;
    *font_len = in->payload_len - 2 * n;
    const uint8_t *t = in->payload + *font_len;
    for (size_t i = 0; i < n; i++)
        text[i] = (uint32_t)t[2 * i] << 8 | t[2 * i + 1];
    return n;
}

int fvfuzz_font_copy(const uint8_t *data, size_t size, size_t trailer_len, fvfuzz_font_input *fi)
{
    fvfuzz_split(data, size, trailer_len, &fi->in);
    fi->n = fvfuzz_font_text(&fi->in, fi->text, &fi->font_len);
    fi->font = malloc(fi->font_len ? fi->font_len : 1);
    if (fi->font == NULL)
        return -1;
    memcpy(fi->font, fi->in.payload, fi->font_len);
    return 0;
}

void fvfuzz_font_copy_free(fvfuzz_font_input *fi)
{
    free(fi->font);
    fi->font = NULL;
}

void fvfuzz_fail(const char *target, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "fvfuzz: %s: ", target);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    abort();
}

int fvfuzz_entry(const fvfuzz_target *t, const fvfuzz_ctx *ctx, const uint8_t *data,
                 size_t size)
{
    if (size > t->max_input)
        return 0;
    /* libFuzzer hands a NULL pointer for the empty input; the targets read
     * through spans, but give them a valid pointer anyway. */
    static const uint8_t empty[1] = {0};
    if (data == NULL)
        data = empty, size = 0;
    t->run(ctx, data, size);
    return 0;
}

void fvfuzz_split(const uint8_t *data, size_t size, size_t trailer_len, fvfuzz_input *in)
{
    memset(in, 0, sizeof *in);
    if (trailer_len > sizeof in->trailer)
        trailer_len = sizeof in->trailer;
    in->trailer_len = trailer_len;
    if (size >= trailer_len) {
        in->payload = data;
        in->payload_len = size - trailer_len;
        if (trailer_len > 0)
            memcpy(in->trailer, data + in->payload_len, trailer_len);
    } else {
        in->payload = data;
        in->payload_len = size;
    }
}

uint8_t fvfuzz_u8(const fvfuzz_input *in, size_t pos)
{
    return pos < in->trailer_len ? in->trailer[pos] : 0;
}

uint16_t fvfuzz_u16(const fvfuzz_input *in, size_t pos)
{
    return (uint16_t)((unsigned)fvfuzz_u8(in, pos) << 8 | fvfuzz_u8(in, pos + 1));
}

static void *fa_alloc(void *user, size_t size)
{
    fvfuzz_alloc *fa = user;
    fa->count++;
    if (fa->fail_at != 0 &&
        (fa->count == fa->fail_at || (fa->fail_all_after && fa->count > fa->fail_at))) {
        fa->failures++;
        return NULL;
    }
    void *p = malloc(size ? size : 1);
    if (p != NULL) {
        fa->live += size;
        fa->live_blocks++;
    }
    return p;
}

static void fa_free(void *user, void *ptr, size_t size)
{
    fvfuzz_alloc *fa = user;
    if (ptr == NULL)
        return;
    if (size > fa->live || fa->live_blocks == 0)
        fvfuzz_fail("allocator", "free of %zu bytes but only %zu bytes in %llu blocks are live",
                    size, fa->live, (unsigned long long)fa->live_blocks);
    fa->live -= size;
    fa->live_blocks--;
    free(ptr);
}

void fvfuzz_alloc_init(fvfuzz_alloc *fa, uint16_t cfg)
{
    memset(fa, 0, sizeof *fa);
    fa->a.alloc = fa_alloc;
    fa->a.free = fa_free;
    fa->a.user = fa;
    fa->a.cap = FVFUZZ_MEMORY_CAP;
    if ((cfg & FVFUZZ_ALLOC_FAIL_ENABLE) == FVFUZZ_ALLOC_FAIL_ENABLE) {
        fa->fail_at = (uint64_t)(cfg & FVFUZZ_ALLOC_FAIL_INDEX) + 1;
        fa->fail_all_after = (cfg & FVFUZZ_ALLOC_FAIL_STICKY) != 0;
    }
}

void fvfuzz_alloc_check_clean(const fvfuzz_alloc *fa, const char *target)
{
    if (fa->live != 0 || fa->live_blocks != 0)
        fvfuzz_fail(target, "leak: %zu bytes in %llu blocks still allocated after the run "
                    "(%llu allocations, %llu refused)",
                    fa->live, (unsigned long long)fa->live_blocks,
                    (unsigned long long)fa->count, (unsigned long long)fa->failures);
}

void fvfuzz_log_error(const fvfuzz_ctx *ctx, const char *what, const fv_error *err)
{
    if (ctx->log == NULL)
        return;
    char buf[256];
    fv_error_format(err, buf, sizeof buf);
    fprintf(ctx->log, "%s: %s (%s)\n", what, buf, fv_status_name(err->kind));
}

int fvfuzz_read_stream(FILE *f, uint8_t **out, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (buf == NULL)
            return -1;
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        cap *= 2;
        uint8_t *nb = realloc(buf, cap);
        if (nb == NULL)
            free(buf);
        buf = nb;
    }
    if (ferror(f)) {
        free(buf);
        return -1;
    }
    /* An allocation of exactly the file's size, as libFuzzer hands inputs:
     * with the 64 KiB read buffer, ASan could not see a read past the end
     * of the input (found replaying F-2, which libFuzzer reports). */
    uint8_t *exact = malloc(n ? n : 1);
    if (exact == NULL) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, n);
    free(buf);
    *out = exact;
    *len = n;
    return 0;
}

#if FVFUZZ_PLANTED_BUG
void fvfuzz_planted_overread(size_t n)
{
    uint8_t *copy = malloc(n + 1);
    if (copy == NULL)
        return;
    memset(copy, 0xA5, n + 1);
    volatile uint8_t past = copy[n + 1]; /* the planted overflow */
    (void)past;
    free(copy);
}
#endif
