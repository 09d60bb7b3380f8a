/* Work budgets: what bounds the time of one glyph load, one program run and
 * one Graphite segment, whatever the font.
 *
 * A reference engine bounds each program run (FreeType: 1,000,000
 * instructions per TT_RunIns) but not the work around it: instructions it
 * skips, components it follows, points a single instruction walks.  fontvm
 * counts all of it in *steps* against one fv_budget per unit of work the
 * caller asks for:
 *
 *   unit                         budget started by           limit
 *   TrueType glyph load          fv_tt_hint_glyph (all its   FV_BUDGET_TT_GLYPH_STEPS
 *                                components' programs)
 *   TrueType fpgm or prep run    each run of the size set-up FV_BUDGET_TT_PROGRAM_STEPS
 *   Graphite segment, pass       vm/graphite (its own constants, defined there)
 *
 * One step is one instruction executed, one byte of code skipped (IF/ELSE
 * bodies, FDEF/IDEF bodies), or one unit of the work a single instruction
 * may do in a loop over font-given counts (a point moved by IUP, SHZ, SHC,
 * FLIPRGON/OFF or a looped instruction, a DELTA pair, a stack element moved
 * by MINDEX, 16 CVT or storage entries copied on a program's first write),
 * and for glyph loads one point copied or transformed by the loader.  Each
 * limit is set from two measurements stated in README.md ("Hardening"): the
 * largest count any font of the default corpus reaches (the limit is far
 * above it, so no real font is refused), and the slowest step measured in
 * the release build (the limit times it stays under 100 ms).
 *
 * Where a budget makes fontvm refuse a font FreeType or graphite2 accepts
 * (slowly), the error kind is one of the budget_* kinds
 * (fv_status_is_budget in fontvm/error.h): the conformance runners and the report classify
 * those as *hardening limits*, not as conformance failures.
 *
 * The counters are plain integers kept by the caller's context: no global
 * state, one budget per load, so threads follow the contexts' rules. */
#ifndef FV_COMMON_BUDGET_H
#define FV_COMMON_BUDGET_H

#include <stdint.h>

#include "common/check.h"
#include "fontvm/error.h"

/* ---- TrueType limits (vm/tt) ---------------------------------------------- */

/* Steps of one glyph load, shared by every component and every program the
 * load runs.  FreeType allows each program run 1,000,000 instructions
 * (TT_CONFIG_OPTION_MAX_RUNNABLE_OPCODES; kept as the per-run limit,
 * TT_MAX_RUNNABLE_OPCODES, with FreeType's recovery) but gives every
 * component a fresh run: 1,000 x 1,000 x 1,000 empty components took 83.5 s
 * in one load.  Four FreeType runs' worth of steps per load: no corpus font
 * comes near it (README, "Work budgets"), and at the slowest step measured
 * (ISECT, ~9 ns, tests/adversarial/tt_budget_bench) one load stays under
 * 40 ms. */
#define FV_BUDGET_TT_GLYPH_STEPS 4000000
/* Steps of one fpgm or prep run.  A size set-up runs fpgm once and prep
 * once or twice (vm/tt/size.c), so three runs must fit in 100 ms: 3 x 3M
 * steps at ~9 ns is ~80 ms.  Three FreeType runs' worth of instructions,
 * plus the skipped bytes and looped work FreeType does not count. */
#define FV_BUDGET_TT_PROGRAM_STEPS 3000000
/* Component references followed in one glyph load, counted at every level.
 * HarfBuzz stops at HB_MAX_GRAPH_EDGE_COUNT = 2048 glyphs visited per glyph
 * (hb-limits.hh); skrifa uses the same bound.  FreeType has none (only the
 * nesting depth).  Fonts use a few per glyph (the corpus maximum is in
 * README.md). */
#define FV_BUDGET_TT_COMPONENTS 2048
/* Bytes of one FDEF or IDEF body.  skrifa refuses definitions over 64 KB;
 * FreeType has no limit.  A glyph program cannot be longer (its length is
 * a uint16), and real fpgm tables are a few KB (OTS refuses fpgm tables of
 * 128 KB and more). */
#define FV_BUDGET_TT_DEFINITION_BYTES 65535
/* Steps of one glyph's gvar deltas at a location (vm/sfnt/gvar.c): per
 * tuple that applies, one step per point of the glyph (the deltas added,
 * inferred for untouched points) and one per delta read.  A glyph may
 * have 4,095 tuples over 65,535 points: 268 M point updates, which
 * FreeType 2.12.1 performs (no limit there).  The corpus maximum is 1,520
 * (Inter's uni2188, counting every tuple), so the limit is 2,600 times
 * above it, and at ~3 ns a step one glyph's deltas stay under 15 ms. */
#define FV_BUDGET_GVAR_GLYPH_STEPS 4000000
/* Cost of copying CVT or storage entries on a program's first write, in
 * entries per step (a copy of 8-byte values runs ~16 per simple
 * instruction's time). */
#define FV_BUDGET_COPY_PER_STEP 16

/* ---- The budget object ---------------------------------------------------- */

typedef struct fv_budget {
    int64_t left;     /* steps still allowed; the work stops when this goes below 0 */
    int64_t limit;    /* steps it started with */
    uint32_t components;     /* component references followed (TrueType glyph loads) */
    uint32_t max_components;
} fv_budget;

static inline void fv_budget_start(fv_budget *b, int64_t steps, uint32_t components)
{
    b->left = steps;
    b->limit = steps;
    b->components = 0;
    b->max_components = components;
}

/* Spends n steps; 0 when the budget is spent (the caller fails with a
 * budget_* error naming what it was doing). */
static inline int fv_budget_spend(fv_budget *b, uint64_t n)
{
    /* n is at most a few million per call (a zone, a code span); the clamp
     * keeps the subtraction defined for any n. */
    int64_t s = n > (uint64_t)INT64_MAX / 2 ? INT64_MAX / 2 : (int64_t)n;
    b->left -= s;
    FV_TESTCASE(b->left == 0);               /* spent to the last step: still allowed */
    FV_TESTCASE(b->left < 0 && b->left + s >= 0); /* the spend that crosses the limit */
    return b->left >= 0;
}

/* Steps spent so far. */
static inline uint64_t fv_budget_used(const fv_budget *b)
{
    return (uint64_t)(b->limit - b->left);
}

/* Counts one component reference; 0 beyond the limit. */
static inline int fv_budget_component(fv_budget *b)
{
    FV_TESTCASE(b->components + 1 == b->max_components); /* the last reference allowed */
    return ++b->components <= b->max_components;
}

#endif
