/* The Graphite stack machine: runs one piece of verified rule code against a
 * slot map.  The code is decoded once, at load (grv_compile), into
 * instructions whose arguments are already read and range-checked; every
 * stack access and slot reference is still checked at run time (the
 * verifier cannot know the slot map's size), and arithmetic wraps on 32
 * bits as graphite2's does. */
#include <limits.h>
#include <string.h>

#include "common/check.h"
#include "common/compat.h"
#include "graphite/machine.h"

/* graphite2 pushes this for PushVersion (the rule-language version it runs). */
#define GRV_ENGINE_VERSION 0x00030000

/* The slot at map entry mapi + off, GRV_NIL for none; a reference below
 * the map fails the run (m->status). */
static inline int32_t slot_at(grv_machine *m, const grv_slotmap *map, int mapi, int off)
{
    int i = mapi + off;
    /* Before the map's first entry (the slot preceding the rule) graphite2
     * reads outside its slot map; we fail the segment instead. */
    if (i < -1 || i >= GRV_MAX_SLOTS + 2) {
        m->status = GRV_SLOT_OFFSET_OUT_OF_BOUNDS;
        return GRV_NIL;
    }
    /* COMPAT(graphite2): past the pushed entries it reads stale map
     * entries; we treat them as "no slot". */
    if (i >= map->size)
        return GRV_NIL;
    return map->buf[i + 1];
}

/* graphite2's TEMP_COPY: the current slot's map entry becomes an unlinked
 * copy of it (flagged copied, freed by the garbage collection after the
 * action); the current slot itself goes on being changed.  No current slot,
 * or no memory for the copy, stops the rule (graphite2 dies). */
static int temp_copy(grv_seg *seg, grv_slotmap *map, int mapi, int32_t is)
{
    if (is == GRV_NIL)
        return 0;
    int32_t ns = grv_new_slot(seg); /* may move the pool */
    if (ns == GRV_NIL)
        return 0;
    *grv_link(seg, ns) = *grv_link(seg, is);
    *grv_extra(seg, ns) = *grv_extra(seg, is);
    grv_link(seg, ns)->flags |= GRV_SF_COPIED;
    grv_copy_words(seg, ns, is);
    if (mapi >= -1 && mapi < GRV_MAX_SLOTS + 2)
        grv_map_begin(map)[mapi] = ns;
    return 1;
}

static void touch(grv_seg *seg, int32_t s)
{
    grv_slot *sl = grv_sl(seg, s);
    if (sl) {
        sl->last_pass = (int16_t)seg->cur_pass;
        sl->last_rule = (int16_t)seg->cur_rule;
    }
}

/* After an opcode that walked an attachment tree or a slot list (counted
 * in seg->budget as it went): the run stops as soon as the budget is spent,
 * not at its end, since one such opcode may cost thousands of steps. */
static inline void spent_check(grv_machine *m, const grv_seg *seg)
{
    if (FV_UNLIKELY(seg->budget.left < 0))
        m->status = GRV_OUT_OF_STEPS;
}

static void ensure_positioned(grv_machine *m, uint32_t slat)
{
    if ((slat == GRV_SLAT_POSX || slat == GRV_SLAT_POSY) && !m->positioned) {
        int32_t *b = grv_map_begin(m->map);
        int32_t last = m->map->size > 0 ? b[m->map->size - 1] : GRV_NIL;
        float ax, ay;
        grv_position_slots(m->seg, b[0], last, grv_currdir(m->seg), &ax, &ay);
        m->positioned = 1;
        spent_check(m, m->seg);
    }
}

/* ---- decoding (load time; grv_decode_insn in opcodes.c) ---- */

/* Walks the code once: counts instructions (out == NULL) or fills `out`,
 * with a GRV_XOP_TEMP_COPY before each planned copy point, up to the first
 * undecodable opcode (which is emitted as GRV_XOP_BAD). */
static uint32_t decode_all(const grv_code *code, const uint32_t *copies, uint32_t num_copies,
                           grv_insn *out)
{
    fv_span s = code->code;
    uint32_t len = (uint32_t)s.len, n = 0, ci = 0, pc = 0;
    grv_insn in;
    while (pc < len) {
        while (ci < num_copies && copies[ci] < pc)
            ci++;
        if (ci < num_copies && copies[ci] == pc) {
            if (out) {
                memset(&out[n], 0, sizeof out[n]);
                out[n].xop = GRV_XOP_TEMP_COPY;
                out[n].op = 0xFF;
                out[n].pc = (uint16_t)pc;
            }
            n++;
            ci++;
        }
        uint32_t step;
        if (out) {
            step = grv_decode_insn(s, pc, &in);
            out[n] = in;
        } else {
            step = grv_insn_length(s, pc); /* counting: the length is enough */
        }
        n++;
        if (!step)
            break;
        pc += step;
    }
    return n;
}

/* The first instruction at byte offset `target`, or `bad` when no
 * instruction starts there (a ContextItem skip into the middle of one; the
 * verifier refuses such code). */
static int32_t insn_at(const grv_insn *in, uint32_t n, uint32_t target, uint32_t end, uint32_t bad)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (in[mid].pc < target)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < n && in[lo].pc == target && in[lo].xop != GRV_XOP_BAD)
        return (int32_t)lo;
    return (int32_t)(lo >= n && target >= end ? n : bad);
}

/* The instructions grv_compile_into writes for code. */
static uint32_t compile_size(const grv_code *code, const uint32_t *copies, uint32_t num_copies)
{
    if (code->code.len == 0)
        return 0;
    if (code->code.len > GRV_MAX_CODE_BYTES)
        return 1;
    return decode_all(code, copies, num_copies, NULL) + 2;
}

void grv_compile_into(grv_code *code, const uint32_t *copies, uint32_t num_copies, grv_insn *in)
{
    code->insns = NULL;
    code->num_insns = 0;
    if (code->code.len == 0)
        return;
    if (code->code.len > GRV_MAX_CODE_BYTES) {
        /* longer than any Silf can hold (its offsets are 16-bit): code that
         * cannot run, one instruction that stops the rule */
        memset(in, 0, sizeof *in);
        in->xop = GRV_XOP_BAD;
        in->op = 0xFF;
        in->pc = GRV_MAX_CODE_BYTES;
        code->insns = in;
        code->num_insns = 1;
        return;
    }
    uint32_t n = decode_all(code, copies, num_copies, in);
    uint32_t len = (uint32_t)code->code.len;
    memset(&in[n], 0, 2 * sizeof in[n]);
    in[n].xop = GRV_XOP_END;
    in[n].op = 0xFF;
    in[n].pc = (uint16_t)len;
    in[n + 1].xop = GRV_XOP_BAD;
    in[n + 1].op = 0xFF;
    in[n + 1].pc = (uint16_t)len;
    /* A skip past the end finishes the code (the byte loop's behaviour). */
    for (uint32_t i = 0; i < n; i++)
        if (in[i].xop == GRV_OP_CNTXT_ITEM)
            in[i].a = insn_at(in, n, (uint32_t)in[i].a, len, n + 1);
    code->insns = in;
    code->num_insns = n + 2;
}

fv_status grv_compile_planned(fv_mem *mem, grv_code *code, const uint32_t *copies,
                              uint32_t num_copies)
{
    code->insns = NULL;
    code->num_insns = 0;
    uint32_t n = compile_size(code, copies, num_copies);
    if (n == 0)
        return FV_OK;
    grv_insn *in = fv_mem_array(mem, n, sizeof(grv_insn));
    if (!in)
        return FV_E_NOMEM;
    grv_compile_into(code, copies, num_copies, in);
    return FV_OK;
}

fv_status grv_compile(fv_mem *mem, grv_code *code)
{
    return grv_compile_planned(mem, code, NULL, 0);
}

void grv_code_free(fv_mem *mem, grv_code *code)
{
    fv_mem_free(mem, code->insns);
    code->insns = NULL;
    code->num_insns = 0;
}

/* ---- running ---- */

#define PUSH(v)                                              \
    do {                                                     \
        if (sp >= GRV_STACK_MAX) {                         \
            m->status = GRV_STACK_OVERFLOW;                  \
            goto out;                                        \
        }                                                    \
        FV_TESTCASE(sp == GRV_STACK_MAX - 1); /* fills */  \
        stk[sp++] = (int32_t)(v);                          \
    } while (0)
/* Memory safety only: the deepest cell an opcode touches stays inside the
 * guard.  Whether the stack really held the values is checked after the
 * opcode (graphite2's semantics, CHECKED below). */
#define NEED(n)                                              \
    do {                                                     \
        if (sp - (n) < -GRV_STACK_GUARD) {                 \
            m->status = GRV_STACK_UNDERFLOW;                 \
            goto out;                                        \
        }                                                    \
        FV_TESTCASE(sp - (n) == -GRV_STACK_GUARD);         \
    } while (0)
#define TOP stk[sp - 1]
#define POP (stk[--sp])
/* graphite2's DIE: the code stops and the segment fails. */
#define DIE                                                  \
    do {                                                     \
        m->status = GRV_DIED_EARLY;                          \
        goto out;                                            \
    } while (0)
/* Every xop the run loop handles (machine_run.h: its labels in the
 * computed-goto build, whose table this fills). */
#define GRV_MACHINE_CASES(X) \
    X(GRV_OP_NOP) \
    X(GRV_XOP_PUSH) \
    X(GRV_OP_ADD) \
    X(GRV_OP_SUB) \
    X(GRV_OP_MUL) \
    X(GRV_OP_DIV) \
    X(GRV_OP_MIN) \
    X(GRV_OP_MAX) \
    X(GRV_OP_NEG) \
    X(GRV_OP_TRUNC8) \
    X(GRV_OP_TRUNC16) \
    X(GRV_OP_COND) \
    X(GRV_OP_AND) \
    X(GRV_OP_OR) \
    X(GRV_OP_NOT) \
    X(GRV_OP_EQUAL) \
    X(GRV_OP_NOT_EQ) \
    X(GRV_OP_LESS) \
    X(GRV_OP_GTR) \
    X(GRV_OP_LESS_EQ) \
    X(GRV_OP_GTR_EQ) \
    X(GRV_OP_BITOR) \
    X(GRV_OP_BITAND) \
    X(GRV_OP_BITNOT) \
    X(GRV_OP_SETBITS) \
    X(GRV_OP_NEXT) \
    X(GRV_OP_PUT_GLYPH) \
    X(GRV_OP_PUT_SUBS) \
    X(GRV_OP_PUT_COPY) \
    X(GRV_OP_INSERT) \
    X(GRV_OP_DELETE) \
    X(GRV_OP_ASSOC) \
    X(GRV_OP_CNTXT_ITEM) \
    X(GRV_OP_ATTR_SET) \
    X(GRV_OP_ATTR_ADD) \
    X(GRV_OP_ATTR_SUB) \
    X(GRV_OP_IATTR_SET) \
    X(GRV_OP_IATTR_ADD) \
    X(GRV_OP_IATTR_SUB) \
    X(GRV_OP_ATTR_SET_SLOT) \
    X(GRV_OP_IATTR_SET_SLOT) \
    X(GRV_OP_PUSH_SLOT_ATTR) \
    X(GRV_OP_PUSH_ISLOT_ATTR) \
    X(GRV_OP_PUSH_GLYPH_ATTR) \
    X(GRV_OP_PUSH_ATT_TO_GLYPH_ATTR) \
    X(GRV_OP_PUSH_GLYPH_METRIC) \
    X(GRV_OP_PUSH_ATT_TO_GLYPH_METRIC) \
    X(GRV_OP_PUSH_FEAT) \
    X(GRV_OP_SET_FEAT) \
    X(GRV_OP_PUSH_VERSION) \
    X(GRV_OP_PUSH_PROC_STATE) \
    X(GRV_OP_POP_RET) \
    X(GRV_OP_RET_ZERO) \
    X(GRV_OP_RET_TRUE) \
    X(GRV_XOP_TEMP_COPY) \
    X(GRV_XOP_END)

/* Dispatch: a plain switch is the reference; where the compiler has
 * computed goto the untraced runs go through a label table instead, one
 * indirect jump per handler (graphite2 threads its code the same way).
 * FONTVM_GR_SWITCH_DISPATCH=1 builds the switch alone;
 * tests/graphite/unit.cmake runs the machine's tests against both. */
#if FV_HAVE_COMPUTED_GOTO && !(defined(FONTVM_GR_SWITCH_DISPATCH) && FONTVM_GR_SWITCH_DISPATCH)
#define GRV_DISPATCH_GOTO 1
#else
#define GRV_DISPATCH_GOTO 0
#endif

const char *grv_dispatch_kind(void)
{
    return GRV_DISPATCH_GOTO ? "computed-goto" : "switch";
}

/* The switch copy, inlined twice into grv_run (instrumented constant). */
#define GRV_RUN_NAME run_code
#define GRV_RUN_ATTR FV_ALWAYS_INLINE
#define GRV_RUN_GOTO 0
#include "graphite/machine_run.h"
#undef GRV_RUN_NAME
#undef GRV_RUN_ATTR
#undef GRV_RUN_GOTO
#if GRV_DISPATCH_GOTO
/* The label-table copy (a function holding a label table is not inlined). */
#define GRV_RUN_NAME run_code_goto
#define GRV_RUN_ATTR FV_NOINLINE
#define GRV_RUN_GOTO 1
#include "graphite/machine_run.h"
#undef GRV_RUN_NAME
#undef GRV_RUN_ATTR
#undef GRV_RUN_GOTO
#endif

int32_t grv_run(grv_machine *m, const grv_code *code, int *mapi, int mapb, int32_t *is_out)
{
    /* The work budget was charged for this run before it (pass.c); opcodes
     * that walk trees charge as they go (spent_check). */
    if (FV_UNLIKELY(m->seg->op_counts != NULL || m->seg->trace != NULL))
        return run_code(m, code, mapi, mapb, is_out, 1);
#if GRV_DISPATCH_GOTO
    return run_code_goto(m, code, mapi, mapb, is_out, 0);
#else
    return run_code(m, code, mapi, mapb, is_out, 0);
#endif
}
