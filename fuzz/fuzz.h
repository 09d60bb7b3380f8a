/* The shared fuzzer template.
 *
 * Every fuzz target is one small file fuzz/<target>.c that defines
 *
 *     static int run(const fvfuzz_ctx *ctx, const uint8_t *data, size_t size)
 *     FVFUZZ_TARGET(<target>, <max input bytes>, run)
 *
 * and nothing else global.  The macro makes an fvfuzz_target descriptor and,
 * unless the file is compiled into the all-targets replay tool
 * (FVFUZZ_REPLAY_ALL), the engine entry point LLVMFuzzerTestOneInput.  The
 * same object then links against libFuzzer, the AFL++ persistent-mode driver
 * (fuzz/afl_main.c) or OSS-Fuzz's $LIB_FUZZING_ENGINE.
 *
 * Rules every target follows (checked here where they can be):
 *  - no global mutable state: everything lives on the stack of one run;
 *  - inputs above max_input are ignored (the .options file says the same to
 *    libFuzzer, so the engine never generates them);
 *  - work is capped by the VMs' own budgets plus per-target caps (glyphs,
 *    sizes, text length) written as named constants in the target;
 *  - all library memory goes through an fvfuzz_alloc, which the input tells
 *    to fail its Nth allocation, and which must be empty again after the
 *    run: a leak through the library's allocator aborts the run. */
#ifndef FVFUZZ_FUZZ_H
#define FVFUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fontvm/alloc.h"
#include "fontvm/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most work one unit of an input took, in the VMs' budget steps
 * (vm/common/budget.h, vm/graphite/grv.h), with the budget that unit had:
 * for the slow-input hunt (scripts/fuzz --hunt-slow, fvfuzz-replay
 * --work). */
typedef enum fvfuzz_work_kind {
    FVFUZZ_WORK_TT_LOAD = 0, /* one TrueType glyph load (all its components) */
    FVFUZZ_WORK_TT_RUN,      /* one fpgm or prep run */
    FVFUZZ_WORK_GR_SEGMENT,  /* one Graphite segment */
    FVFUZZ_WORK_GR_PASS,     /* one pass of a segment */
    FVFUZZ_WORK_KINDS
} fvfuzz_work_kind;

typedef struct fvfuzz_work {
    uint64_t steps[FVFUZZ_WORK_KINDS];  /* the most of any unit of the kind */
    uint64_t budget[FVFUZZ_WORK_KINDS]; /* that unit's budget */
    uint64_t stopped[FVFUZZ_WORK_KINDS]; /* units a budget stopped */
} fvfuzz_work;

/* Per-run options chosen by the driver (never by the input). */
typedef struct fvfuzz_ctx {
    /* Replay only: print the VM's instruction trace and the final error to
     * `log` (used by scripts/repro).  0 in the fuzzing engines. */
    int trace;
    FILE *log; /* NULL: quiet */
    /* Replay only (--opcodes): when set, the TrueType targets add each run's
     * per-opcode execution counts here (256 entries), for the opcode
     * coverage table of scripts/fuzz and scripts/coverage. */
    uint64_t *tt_opcodes;
    /* The same for the Graphite targets (256 entries, opcode byte). */
    uint64_t *gr_opcodes;
    /* Replay only (--work): the work the input's costliest units took. */
    fvfuzz_work *work;
} fvfuzz_ctx;

typedef int (*fvfuzz_fn)(const fvfuzz_ctx *ctx, const uint8_t *data, size_t size);

typedef struct fvfuzz_target {
    const char *name;
    fvfuzz_fn run;
    size_t max_input;
} fvfuzz_target;

/* Runs one input through a target: applies the size cap, then run(). */
int fvfuzz_entry(const fvfuzz_target *t, const fvfuzz_ctx *ctx, const uint8_t *data,
                 size_t size);

/* A run that must not continue (leak, divergence, broken invariant):
 * prints "fvfuzz: <target>: <message>" and aborts, which every engine and
 * the replay tool report as a crash. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noreturn, format(printf, 2, 3)))
#endif
void fvfuzz_fail(const char *target, const char *fmt, ...);

/* ---- Configuration bytes ----------------------------------------------
 * Targets take their parameters from the LAST bytes of the input (the
 * "trailer"), so the payload at the front (bytecode, a font file) can be
 * mutated without shifting the parameters and vice versa.  An input shorter
 * than the trailer is all payload with an all-zero trailer. */
typedef struct fvfuzz_input {
    const uint8_t *payload;
    size_t payload_len;
    uint8_t trailer[32];
    size_t trailer_len;
} fvfuzz_input;

/* Reads all of f into a malloc'd buffer of exactly the input's size (so
 * ASan sees reads past its end, as under libFuzzer).  0, or -1 on a read
 * or allocation failure. */
int fvfuzz_read_stream(FILE *f, uint8_t **out, size_t *len);

void fvfuzz_split(const uint8_t *data, size_t size, size_t trailer_len, fvfuzz_input *in);
/* Reads trailer bytes (big-endian); positions beyond trailer_len read 0. */
uint8_t fvfuzz_u8(const fvfuzz_input *in, size_t pos);
uint16_t fvfuzz_u16(const fvfuzz_input *in, size_t pos);

/* [font][text: n big-endian u16 code points][trailer], n in trailer byte
 * 2 (gr_font, gr_font_diff): writes the text (at most FVFUZZ_MAX_TEXT
 * code points) and the font's length; returns n. */
#define FVFUZZ_MAX_TEXT 256
size_t fvfuzz_font_text(const fvfuzz_input *in, uint32_t *text, size_t *font_len);

/* An input of that layout split (trailer_len bytes of trailer) with its
 * font copied to a buffer of exactly its size: the engines keep pointers
 * into the font, and ASan sees their reads past its end (in the input they
 * would land in the text).  The whole-font Graphite targets start with it. */
typedef struct fvfuzz_font_input {
    fvfuzz_input in;               /* its trailer: fvfuzz_u8/u16(&in, pos) */
    uint8_t *font;                 /* malloc'd, font_len bytes (at least 1 allocated) */
    size_t font_len;
    uint32_t text[FVFUZZ_MAX_TEXT];
    size_t n;                      /* code points in text */
} fvfuzz_font_input;
/* 0, or -1 when the copy cannot be allocated (nothing to free then). */
int fvfuzz_font_copy(const uint8_t *data, size_t size, size_t trailer_len, fvfuzz_font_input *fi);
void fvfuzz_font_copy_free(fvfuzz_font_input *fi);

/* ---- The failing allocator -------------------------------------------- */
typedef struct fvfuzz_alloc {
    fv_allocator a;       /* hand &a to the library */
    uint64_t count;       /* allocations attempted so far */
    uint64_t fail_at;     /* 1-based index of the first failing allocation; 0 = never */
    int fail_all_after;   /* 1: every allocation from fail_at on fails; 0: only that one */
    uint64_t failures;    /* allocations refused so far */
    size_t live;          /* bytes handed out and not yet freed */
    uint64_t live_blocks;
} fvfuzz_alloc;

/* Cap on live library memory per font in the fuzzers.  Far above any real
 * font's parsed state (a few MiB) and far below libFuzzer's 2 GiB RSS limit,
 * so the library's own cap, not the engine, stops hostile growth. */
#define FVFUZZ_MEMORY_CAP ((size_t)64 * 1024 * 1024)

/* Sets up the allocator from two configuration bytes.  When both top bits of
 * `cfg` are set (a quarter of all inputs) allocation number
 * (cfg & 0x0FFF) + 1 fails, and with bit 0x2000 also set every allocation
 * after it fails too; otherwise nothing fails.  The cap is
 * FVFUZZ_MEMORY_CAP. */
#define FVFUZZ_ALLOC_FAIL_ENABLE 0xC000u
#define FVFUZZ_ALLOC_FAIL_STICKY 0x2000u
#define FVFUZZ_ALLOC_FAIL_INDEX 0x0FFFu
void fvfuzz_alloc_init(fvfuzz_alloc *fa, uint16_t cfg);
/* Aborts (fvfuzz_fail) when anything allocated through fa is still live. */
void fvfuzz_alloc_check_clean(const fvfuzz_alloc *fa, const char *target);

/* Records that one unit of kind `kind` took `steps` of its `budget`
 * (stopped: a budget stopped it, steps is then the budget).  Adds to
 * ctx->work when set, and when the environment has FVFUZZ_HUNT_SLOW set
 * (scripts/fuzz --hunt-slow) also marks a libFuzzer extra counter for the
 * kind and the step count's magnitude (half-octave buckets), so that an
 * input reaching a new magnitude of work counts as new coverage and is
 * kept: the step counts become the fuzzing signal. */
void fvfuzz_note_work(const fvfuzz_ctx *ctx, fvfuzz_work_kind kind, uint64_t steps,
                      uint64_t budget, int stopped);

/* Prints an fv_error as one line to ctx->log when ctx->log is set. */
void fvfuzz_log_error(const fvfuzz_ctx *ctx, const char *what, const fv_error *err);

#ifndef FVFUZZ_PLANTED_BUG
#define FVFUZZ_PLANTED_BUG 0
#endif
#if FVFUZZ_PLANTED_BUG
/* Test-only (FONTVM_TEST_PLANTED_BUG, and fvfuzz-replay-planted): reads one
 * byte past a heap block of n + 1 bytes.  The planted bugs (fuzz/sfnt.c, the
 * TrueType and Graphite trace hooks in fuzz/support/) call it so that
 * tests/fuzz/planted_bug.sh can check scripts/repro and the minimiser. */
void fvfuzz_planted_overread(size_t n);
#endif

#ifdef __cplusplus
}
#endif

/* ---- The target macro -------------------------------------------------- */
#ifdef FVFUZZ_REPLAY_ALL
#define FVFUZZ_ENTRY_POINT_(name)
#else
#define FVFUZZ_ENTRY_POINT_(name)                                                    \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);                    \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                     \
    {                                                                                \
        static const fvfuzz_ctx quiet = {0, NULL, NULL, NULL, NULL};                       \
        return fvfuzz_entry(&fvfuzz_target_##name, &quiet, data, size);             \
    }
#endif

/* Targets whose input is [bytecode][trailer] also name their mutator layout
 * (mutator/mutator.c); in libFuzzer builds this installs the structure-aware
 * mutator, leaving a third of the mutations to libFuzzer's own. */
#if defined(FVFUZZ_LIBFUZZER) && !defined(FVFUZZ_REPLAY_ALL)
#include "mutator/mutator.h"
#define FVFUZZ_CODE_MUTATOR(name)                                                    \
    size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);                 \
    size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,           \
                                   unsigned int seed);                               \
    size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,           \
                                   unsigned int seed)                                \
    {                                                                                \
        fvmut_layout l;                                                              \
        fvmut_rng r;                                                                 \
        fvmut_rng_seed(&r, seed);                                                    \
        if (!fvmut_layout_for(#name, &l) || fvmut_rand(&r, 3) == 0)                  \
            return LLVMFuzzerMutate(data, size, max);                                \
        return fvmut_mutate(&l, data, size, max, &r);                                \
    }                                                                                \
    size_t LLVMFuzzerCustomCrossOver(const uint8_t *a, size_t an, const uint8_t *b,  \
                                     size_t bn, uint8_t *out, size_t max,            \
                                     unsigned int seed);                             \
    size_t LLVMFuzzerCustomCrossOver(const uint8_t *a, size_t an, const uint8_t *b,  \
                                     size_t bn, uint8_t *out, size_t max,            \
                                     unsigned int seed)                              \
    {                                                                                \
        fvmut_layout l;                                                              \
        fvmut_rng r;                                                                 \
        fvmut_rng_seed(&r, seed);                                                    \
        if (!fvmut_layout_for(#name, &l))                                            \
            return 0;                                                                \
        return fvmut_crossover(&l, a, an, b, bn, out, max, &r);                      \
    }
#else
#define FVFUZZ_CODE_MUTATOR(name)
#endif

#define FVFUZZ_TARGET(name, max_input, fn)                                           \
    extern const fvfuzz_target fvfuzz_target_##name;                                 \
    const fvfuzz_target fvfuzz_target_##name = {#name, fn, (max_input)};             \
    FVFUZZ_ENTRY_POINT_(name)

#endif
