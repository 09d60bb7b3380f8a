/* The interpreter loop (FreeType's TT_RunIns): decode, check the opcode's
 * fixed stack effect, dispatch to the instruction family, advance, count.
 * Dispatch is a plain switch on the family (opcodes.def). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/compat.h"
#include "tt/exec.h"
#include "tt/gstate.h"
#include "tt/ins.h"
#include "tt/ins_arith.h"
#include "tt/ins_stack.h"
#include "tt/ins_storage.h"

static fv_program program_of_range(int range)
{
    switch (range) {
    case TT_RANGE_FONT: return FV_PROG_FPGM;
    case TT_RANGE_CVT: return FV_PROG_PREP;
    case TT_RANGE_GLYPH: return FV_PROG_GLYF;
    default: return FV_PROG_NONE;
    }
}

fv_status tt_fail(tt_ctx *c, fv_status kind, int64_t index)
{
    if (c->err) {
        fv_error_clear(c->err);
        c->err->kind = kind;
        /* The program is the one holding the faulting instruction (an fpgm
         * function called while hinting glyph 36 reports fpgm[36]@pc). */
        c->err->program = program_of_range(c->insn_range);
        c->err->glyph = c->glyph;
        c->err->pc = c->insn_pc;
        c->err->opcode = c->opcode;
        tt_format_mnemonic(c->opcode, c->err->opname, sizeof c->err->opname);
        c->err->index = index;
    }
    return kind;
}

void tt_diag(tt_ctx *c, fv_tt_diag_kind what, fv_status kind, int64_t index)
{
    fv_tt_exec *ex = c->ex;
    if (FV_LIKELY(ex == NULL || ex->diag == NULL))
        return;
    fv_error where;
    fv_error *saved = c->err;
    c->err = &where;
    tt_fail(c, kind, index);
    c->err = saved;
    ex->diag(ex->diag_user, what, &where);
}

fv_status tt_budget_fail(tt_ctx *c, fv_status kind)
{
    tt_fail(c, kind, (int64_t)fv_budget_used(&c->budget));
    if (c->err)
        snprintf(c->err->detail, sizeof c->err->detail, "%" PRId64 " steps allowed",
                 c->budget.limit);
    return kind;
}

/* Trace support: snapshot of both zones' current points before the
 * instruction, compared afterwards. */
static int trace_grow(fv_tt_exec *ex, uint32_t n)
{
    if (n <= ex->snap_cap)
        return 1;
    fv_mem_free(ex->mem, ex->snap);
    fv_mem_free(ex->mem, ex->mv_points);
    fv_mem_free(ex->mem, ex->mv_old);
    fv_mem_free(ex->mem, ex->mv_new);
    fv_mem_free(ex->mem, ex->mv_zone);
    ex->snap = fv_mem_array(ex->mem, n, sizeof(tt_vec));
    ex->mv_points = fv_mem_array(ex->mem, n, sizeof(uint32_t));
    ex->mv_old = fv_mem_array(ex->mem, n, 2 * sizeof(int32_t));
    ex->mv_new = fv_mem_array(ex->mem, n, 2 * sizeof(int32_t));
    ex->mv_zone = fv_mem_array(ex->mem, n, 1);
    ex->snap_cap = (ex->snap && ex->mv_points && ex->mv_old && ex->mv_new && ex->mv_zone) ? n : 0;
    return ex->snap_cap != 0;
}

static void trace_snapshot(tt_ctx *c)
{
    fv_tt_exec *ex = c->ex;
    uint32_t n = c->pts.n_points + c->twilight.n_points;
    if (!trace_grow(ex, n))
        return;
    if (c->pts.n_points)
        memcpy(ex->snap, c->pts.cur, c->pts.n_points * sizeof(tt_vec));
    if (c->twilight.n_points)
        memcpy(ex->snap + c->pts.n_points, c->twilight.cur, c->twilight.n_points * sizeof(tt_vec));
}

static void trace_emit(tt_ctx *c, uint32_t pc, uint8_t op, int range, uint32_t depth_before)
{
    fv_tt_exec *ex = c->ex;
    char name[24];
    tt_format_mnemonic(op, name, sizeof name);
    fv_tt_trace_event ev;
    memset(&ev, 0, sizeof ev);
    ev.program = program_of_range(range);
    ev.glyph = c->glyph;
    ev.pc = pc;
    ev.opcode = op;
    ev.mnemonic = name;
    if (c->top > ex->trace_stack_cap) {
        fv_mem_free(ex->mem, ex->trace_stack);
        ex->trace_stack = fv_mem_array(ex->mem, c->top, sizeof(int32_t));
        ex->trace_stack_cap = ex->trace_stack ? c->top : 0;
    }
    uint32_t depth = c->top <= ex->trace_stack_cap ? c->top : 0;
    for (uint32_t i = 0; i < depth; i++)
        ex->trace_stack[i] = (int32_t)(uint32_t)(uint64_t)c->stack[i];
    ev.stack = ex->trace_stack;
    ev.stack_depth = depth;
    ev.stack_depth_before = depth_before;
    uint32_t n = 0;
    uint32_t total = c->pts.n_points + c->twilight.n_points;
    if (ex->snap_cap >= total) {
        for (uint32_t i = 0; i < total; i++) {
            int glyph_zone = i < c->pts.n_points;
            uint32_t idx = glyph_zone ? i : i - c->pts.n_points;
            tt_vec now = glyph_zone ? c->pts.cur[idx] : c->twilight.cur[idx];
            tt_vec old = ex->snap[i];
            if (now.x == old.x && now.y == old.y)
                continue;
            ex->mv_points[n] = idx;
            ex->mv_zone[n] = glyph_zone ? 1 : 0;
            ex->mv_old[2 * n] = (int32_t)old.x;
            ex->mv_old[2 * n + 1] = (int32_t)old.y;
            ex->mv_new[2 * n] = (int32_t)now.x;
            ex->mv_new[2 * n + 1] = (int32_t)now.y;
            n++;
        }
    }
    ev.num_moved = n;
    ev.moved_points = ex->mv_points;
    ev.moved_old_xy = ex->mv_old;
    ev.moved_new_xy = ex->mv_new;
    ev.moved_zone = ex->mv_zone;
    ex->trace(ex->trace_user, &ev);
}

/* Dispatch: one jump per instruction straight to the opcode's handler.
 * The plain switch is the reference; with FONTVM_USE_COMPUTED_GOTO (and a
 * compiler that has it) the same handlers are reached through a label
 * table.  Both are generated from opcodes.def (an opcode range of
 * 2^flag_bits bytes expands to that many cases / table entries), and
 * tests/tt/unit.cmake builds the unit tests against both variants. */
#if defined(FONTVM_USE_COMPUTED_GOTO) && FONTVM_USE_COMPUTED_GOTO && FV_HAVE_COMPUTED_GOTO
#define TT_DISPATCH_GOTO 1
#else
#define TT_DISPATCH_GOTO 0
#endif

/* Which dispatch this build uses (for tests and `fontvm info`). */
const char *tt_dispatch_kind(void)
{
    return TT_DISPATCH_GOTO ? "computed-goto" : "switch";
}

static void run_init(tt_ctx *c)
{
    /* Twilight points usable by this run (TT_RunIns heuristic). */
    uint64_t lim = 2 * ((uint64_t)c->pts.n_points + c->cvt_size);
    if (lim < TT_TWILIGHT_MIN_LIMIT)
        lim = TT_TWILIGHT_MIN_LIMIT;
    if (c->twilight.n_points > lim)
        c->twilight.n_points = (uint32_t)(lim > TT_TWILIGHT_MAX_LIMIT ? TT_TWILIGHT_MAX_LIMIT : lim);

    c->loopcall_counter = 0;
    c->neg_jump_counter = 0;
    if (c->pts.n_points) {
        uint64_t a = (uint64_t)TT_LOOPCALL_PER_POINT * c->pts.n_points;
        uint64_t b = c->cvt_size / TT_LOOPCALL_CVT_DIVISOR;
        c->loopcall_max = (a > TT_LOOPCALL_MIN ? a : TT_LOOPCALL_MIN) +
                          (b > TT_LOOPCALL_MIN ? b : TT_LOOPCALL_MIN);
    } else
        c->loopcall_max = TT_LOOPCALL_NOGLYPH_BASE + (uint64_t)TT_LOOPCALL_NOGLYPH_PER_CVT * c->cvt_size;
    if (c->loopcall_max > (uint64_t)TT_LOOPCALL_PER_GLYPH * c->num_glyphs)
        c->loopcall_max = (uint64_t)TT_LOOPCALL_PER_GLYPH * c->num_glyphs;
    c->neg_jump_max = c->loopcall_max;

    c->ratio = 0;
    tt_compute_funcs(c);
    c->iupx_called = 0;
    c->iupy_called = 0;
}

/* The instruction loop (TT_RunIns).  Dispatch is one jump per instruction,
 * generated from opcodes.def; the handlers of the PUSH, STACK, ARITH and
 * STORAGE families are inlined into it. */
#if TT_DISPATCH_GOTO
#define TT_LOOP_INLINE /* a function holding a label table cannot be inlined */
#else
#define TT_LOOP_INLINE FV_ALWAYS_INLINE /* one copy with trace hooks, one without */
#endif
static TT_LOOP_INLINE fv_status run_loop(tt_ctx *c, const int tracing)
{
#if TT_DISPATCH_GOTO
    static const void *const labels[256] = {
#define TT_LABEL(f, m) [(f)] = &&l_##m,
#define X(m, first, bits, pops, pushes, inl, fam) TT_EACH_##bits(first, TT_LABEL, m)
#include "tt/opcodes.def"
#undef X
#undef TT_LABEL
    };
#endif
    fv_tt_exec *ex = c->ex;
    uint64_t *counts = ex->counts;
    long ins_counter = 0;
    /* The code and the next instruction's offset live in registers: only
     * the CONTROL family (jumps, calls, IF/ELSE skipping, ENDF) and
     * undefined opcodes (an IDEF runs as a call) change c->code, c->ip,
     * c->length or c->cur_range, so only after those are they read back.
     * c->ip is stored every instruction for the handlers and errors, but
     * the next fetch no longer waits on that store (perf: the load of
     * c->ip right after `c->ip += c->length` led the loop's critical path
     * on Arimo). */
    const uint8_t *code = c->code.data;
    uint64_t code_len = c->code.len;
    int64_t next = c->ip;
    /* GETVARIATION without axes keeps the previous new_top: the context's
     * at a run's first instruction, the stack top after that. */
    const uint32_t entry_new_top = c->new_top;
    c->insn_range = c->cur_range;
    /* A negative ip is a huge unsigned one. */
    if ((uint64_t)next >= code_len)
        return FV_OK;
    /* Invariant at the top: 0 <= next < code_len (checked above, then
     * at the bottom of each iteration). */
    for (;;) {
        uint32_t pc = (uint32_t)next;
        uint8_t op = code[pc];
        c->insn_pc = pc;
        /* c->opcode is the running instruction's until the next one:
         * handlers read their flags from it and tt_fail reports it. */
        c->opcode = op;
        /* Most instructions are one byte, which pc < len already covers;
         * only those with inline data need tt_insn_length's check. */
        uint32_t length = 1;
        uint32_t effect = tt_stack_effects[op];
        if (FV_UNLIKELY(effect & TT_EFFECT_INLINE)) {
            length = tt_insn_length(code, code_len, pc);
            if (FV_UNLIKELY(length == 0))
                return tt_fail(c, FV_E_TT_CODE_OVERFLOW, pc);
        }
        /* The loop advances ip by c->length after the instruction; jumps,
         * calls and returns set it to 0 (they have set ip themselves), IF
         * and ELSE skipping to the length of the ELSE or EIF it stops on. */
        c->length = length;
        uint32_t pops = tt_pops_of(effect), top = c->top, first_arg;
        FV_TESTCASE(top == pops);     /* exactly the arguments needed */
        FV_TESTCASE(top + 1 == pops); /* one missing */
        if (FV_LIKELY(top >= pops))
            first_arg = top - pops;
        else {
            if (c->pedantic)
                return tt_fail(c, FV_E_TT_STACK_UNDERFLOW, pops);
            /* COMPAT(freetype): missing arguments read as zeros. */
            tt_diag(c, FV_TT_DIAG_IGNORED, FV_E_TT_STACK_UNDERFLOW, pops);
            for (uint32_t i = 0; i < pops; i++)
                c->stack[i] = 0;
            first_arg = 0;
        }
        /* GETVARIATION's new top is its case's (TT_GETVARIATION_TOP):
         * its table entry pushes nothing, so this check passes for it. */
        uint32_t new_top = first_arg + tt_pushes_of(effect);
        FV_TESTCASE(new_top == c->stack_size);     /* the stack exactly full */
        FV_TESTCASE(new_top == c->stack_size + 1); /* one past it */
        if (FV_UNLIKELY(new_top > c->stack_size))
            return tt_fail(c, FV_E_TT_STACK_OVERFLOW, new_top);
        c->args = first_arg;
        c->new_top = new_top;
        int range_before = c->cur_range;
        if (tracing)
            trace_snapshot(c);
        int64_t *args = c->stack + first_arg;
        fv_status st;
/* COMPAT(freetype): GETVARIATION pushes one value per variation axis, so
 * FreeType 2.12.1 does not compute its new stack top.  Run as an undefined
 * opcode (an IDEF; FreeType does so in fonts without variations, fontvm in
 * all) it leaves the top at the last new_top its context computed: the
 * current top within a run, but at a run's first instruction the new_top
 * of the previous run's last instruction, over that run's stale slots
 * (tt_diff finding F-23).  Checked here rather than before the dispatch,
 * so that the other opcodes pay nothing for it. */
#define TT_GETVARIATION_TOP                                                          \
    if (op == TT_OP_GETVARIATION) {                                                  \
        new_top = c->var_axes ? first_arg + c->var_axes                              \
                              : (ins_counter == 0 ? entry_new_top : top);            \
        if (FV_UNLIKELY(new_top > c->stack_size))                                    \
            return tt_fail(c, FV_E_TT_STACK_OVERFLOW, new_top);                      \
        c->new_top = new_top;                                                        \
    }
/* Where the loop goes on: after a CONTROL handler or an undefined opcode
 * from the context (they may have changed the range, ip and length), else
 * just past this instruction. */
#define TT_NEXT_FLOW                   \
    next = c->ip + (int64_t)c->length; \
    code = c->code.data;               \
    code_len = c->code.len;            \
    c->insn_range = c->cur_range;
#define TT_NEXT_PLAIN next = (int64_t)pc + length;
#define TT_NEXT_OF_PUSH TT_NEXT_PLAIN
#define TT_NEXT_OF_STACK TT_NEXT_PLAIN
#define TT_NEXT_OF_ARITH TT_NEXT_PLAIN
#define TT_NEXT_OF_STORAGE TT_NEXT_PLAIN
#define TT_NEXT_OF_GSTATE TT_NEXT_PLAIN
#define TT_NEXT_OF_POINTS TT_NEXT_PLAIN
#define TT_NEXT_OF_DELTA TT_NEXT_PLAIN
#define TT_NEXT_OF_ROUND TT_NEXT_PLAIN
#define TT_NEXT_OF_MISC TT_NEXT_PLAIN
#define TT_NEXT_OF_CONTROL TT_NEXT_FLOW
#if TT_DISPATCH_GOTO
        {
            const void *target = labels[op];
            if (target == NULL) {
                TT_GETVARIATION_TOP
                st = tt_ins_unknown_or_variation(c, args);
                TT_NEXT_FLOW
                goto dispatched;
            }
            goto *target;
        }
#define X(m, first, bits, pops, pushes, inl, fam) \
    l_##m:                                        \
    st = TT_HANDLER_OF(fam, m)(c, args);          \
    TT_NEXT_OF_##fam goto dispatched;
#include "tt/opcodes.def"
#undef X
    dispatched:
#else
#define TT_CASE(f, m) case (f):
        switch (op) {
#define X(m, first, bits, pops, pushes, inl, fam) \
    TT_EACH_##bits(first, TT_CASE, m) st = TT_HANDLER_OF(fam, m)(c, args); TT_NEXT_OF_##fam break;
#include "tt/opcodes.def"
#undef X
        default:
            TT_GETVARIATION_TOP
            st = tt_ins_unknown_or_variation(c, args);
            TT_NEXT_FLOW
            break;
        }
#undef TT_CASE
#endif
        if (FV_UNLIKELY(st != FV_OK))
            return st;
        c->top = c->new_top;
        c->ip = next;
        counts[op]++;
        if (tracing)
            trace_emit(c, pc, op, range_before, top);
        if (FV_UNLIKELY(++ins_counter > TT_MAX_RUNNABLE_OPCODES))
            return tt_fail(c, FV_E_TT_EXEC_BUDGET, ins_counter);
        FV_TESTCASE(c->budget.left == 1); /* the budget's last step */
        if (FV_UNLIKELY(--c->budget.left < 0))
            return tt_budget_fail(c, FV_E_BUDGET_STEPS);
        if (FV_UNLIKELY((uint64_t)next >= code_len)) {
            if (c->call_top > 0)
                return tt_fail(c, FV_E_TT_CODE_OVERFLOW, next);
            break;
        }
    }
    return FV_OK;
}

fv_status tt_execute(tt_ctx *c, int range)
{
    fv_status st = tt_goto_range(c, range, 0);
    if (st != FV_OK)
        return st;
    c->ini_range = range;
    run_init(c);
    c->new_top = *c->kept_new_top;
    st = c->ex->trace != NULL ? run_loop(c, 1) : run_loop(c, 0);
    *c->kept_new_top = c->new_top;
    /* fpgm and prep runs have a budget each (glyph.c records its loads'). */
    if (range != TT_RANGE_GLYPH && fv_budget_used(&c->budget) > c->ex->max_run_steps)
        c->ex->max_run_steps = fv_budget_used(&c->budget);
    return st;
}

uint64_t fv_tt_exec_last_load_steps(const fv_tt_exec *ex)
{
    return ex ? ex->last_load_steps : 0;
}

uint64_t fv_tt_exec_max_run_steps(const fv_tt_exec *ex)
{
    return ex ? ex->max_run_steps : 0;
}
