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
    grv_link(seg, ns)->flags |= GRV_SF_COPIED;
    memcpy(grv_slot_words(seg, ns), grv_slot_words(seg, is),
           grv_words_per_slot(seg) * sizeof(int16_t));
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

/* Walks the code once: counts instructions (count != NULL) or fills
 * `out`, with a GRV_XOP_TEMP_COPY before each planned copy point, up to the
 * first undecodable opcode (which is emitted as GRV_XOP_BAD). */
static uint32_t decode_all(const grv_code *code, grv_insn *out)
{
    fv_span s = code->code;
    uint32_t len = (uint32_t)s.len, n = 0, ci = 0, pc = 0;
    grv_insn in;
    while (pc < len) {
        while (ci < code->num_copies && code->copies[ci] < pc)
            ci++;
        if (ci < code->num_copies && code->copies[ci] == pc) {
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

fv_status grv_compile(fv_mem *mem, grv_code *code)
{
    code->insns = NULL;
    code->num_insns = 0;
    if (code->code.len == 0)
        return FV_OK;
    if (code->code.len > GRV_MAX_CODE_BYTES) {
        /* longer than any Silf can hold (its offsets are 16-bit): code that
         * cannot run, one instruction that stops the rule */
        grv_insn *bad = fv_mem_array(mem, 1, sizeof(grv_insn));
        if (!bad)
            return FV_E_NOMEM;
        bad->xop = GRV_XOP_BAD;
        bad->op = 0xFF;
        bad->pc = GRV_MAX_CODE_BYTES;
        code->insns = bad;
        code->num_insns = 1;
        return FV_OK;
    }
    uint32_t n = decode_all(code, NULL);
    grv_insn *in = fv_mem_array(mem, (size_t)n + 2, sizeof(grv_insn));
    if (!in)
        return FV_E_NOMEM;
    (void)decode_all(code, in);
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
    return FV_OK;
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
/* The end of an opcode that cannot fail nor pop: on to the next. */
#define NEXT continue
/* The end of one that may have failed (a helper set the status) or popped:
 * COMPAT(graphite2): the stack is checked after each opcode, not at each
 * pop, so an opcode that ends below the base fails the run (returns, which
 * leave the loop at once, are not checked). */
#define CHECKED break
/* The end of a stack-only opcode (no helper call): the stack check alone.
 * (Not wrapped in do/while: `continue` must reach the dispatch loop.) */
#define POPPED                                               \
    {                                                        \
        FV_TESTCASE(sp == 0); /* popped to exactly empty */ \
        if (sp < 0) {                                      \
            m->status = GRV_STACK_UNDERFLOW;                 \
            goto out;                                        \
        }                                                    \
        continue;                                            \
    }

/* The run loop, compiled twice (grv_run below): with `instrumented` a
 * constant, the untraced copy has no per-opcode test for counters or trace. */
static FV_ALWAYS_INLINE int32_t run_code(grv_machine *m, const grv_code *code, int *mapi, int mapb,
                                         int32_t *is_out, const int instrumented)
{
    /* The machine's registers are locals whose address is never taken, so
     * that the stack depth, the map entry and the current slot stay in
     * machine registers (in a struct handed to helpers, every push and pop
     * went through memory). */
    grv_slotmap *const map = m->map;
    int mi = *mapi;
    int sp = 0;
    int32_t is = slot_at(m, map, mi, 0);
    m->status = GRV_FINISHED; /* after slot_at: the first slot's check never failed a run */
    m->positioned = 0;
    int32_t *const stk = m->cells + GRV_STACK_GUARD;
    for (int g = 1; g <= GRV_STACK_GUARD; g++)
        stk[-g] = 0;
    grv_seg *seg = m->seg;
    const fv_gr_face *face = seg->face;
    const grv_silf *silf = &face->silf;
    const grv_insn *const insns = code->insns;
    if (!insns) {
        /* Empty code finishes at once; code that was never decoded is a
         * caller's mistake and must not run. */
        if (code->code.len)
            m->status = GRV_DIED_EARLY;
        goto out;
    }
    for (const grv_insn *ip = insns;; ip++) {
        if (instrumented && ip->xop < GRV_XOP_TEMP_COPY) {
            /* atomic: threads may share one counter array (graphite.h) */
            if (seg->op_counts)
                FV_ATOMIC_INC_U64(&seg->op_counts[ip->op]);
            if (seg->trace) {
                fv_gr_trace_event ev;
                memset(&ev, 0, sizeof ev);
                ev.kind = FV_GR_TRACE_OP;
                ev.pass = seg->cur_pass;
                ev.rule = seg->cur_rule;
                ev.is_constraint = seg->in_constraint;
                ev.pc = ip->pc;
                ev.opcode = ip->op;
                ev.stack = stk;
                ev.stack_depth = (size_t)sp;
                ev.slot = -1;
                seg->trace(seg->trace_user, &ev);
            }
        }
        switch (ip->xop) {
        case GRV_OP_NOP: NEXT;
        case GRV_XOP_PUSH: PUSH(ip->a); NEXT;
        case GRV_OP_ADD: { NEED(2); uint32_t b = (uint32_t)POP; TOP = (int32_t)((uint32_t)TOP + b); POPPED; }
        case GRV_OP_SUB: { NEED(2); uint32_t b = (uint32_t)POP; TOP = (int32_t)((uint32_t)TOP - b); POPPED; }
        case GRV_OP_MUL: { NEED(2); uint32_t b = (uint32_t)POP; TOP = (int32_t)((uint32_t)TOP * b); POPPED; }
        case GRV_OP_DIV: {
            NEED(2);
            int32_t b = POP;
            int32_t x = POP;
            /* graphite2 stops (DIE) on a zero divisor or INT_MIN/-1. */
            if (b == 0 || (b == -1 && x == INT32_MIN))
                DIE;
            PUSH(x / b);
            POPPED;
        }
        case GRV_OP_MIN: { NEED(2); int32_t b = POP; if (b < TOP) TOP = b; POPPED; }
        case GRV_OP_MAX: { NEED(2); int32_t b = POP; if (b > TOP) TOP = b; POPPED; }
        case GRV_OP_NEG: NEED(1); TOP = (int32_t)(0u - (uint32_t)TOP); POPPED;
        case GRV_OP_TRUNC8: NEED(1); TOP = (uint8_t)TOP; POPPED;
        case GRV_OP_TRUNC16: NEED(1); TOP = (uint16_t)TOP; POPPED;
        case GRV_OP_COND: {
            /* COMPAT(graphite2): the condition is the deepest of the three;
             * the top is the "false" value, the next the "true" value. */
            NEED(3);
            int32_t f = POP;
            int32_t t = POP;
            TOP = TOP ? t : f;
            POPPED;
        }
        case GRV_OP_AND: { NEED(2); int32_t b = POP; TOP = (TOP && b); POPPED; }
        case GRV_OP_OR: { NEED(2); int32_t b = POP; TOP = (TOP || b); POPPED; }
        case GRV_OP_NOT: NEED(1); TOP = !TOP; POPPED;
        case GRV_OP_EQUAL: { NEED(2); int32_t b = POP; TOP = (TOP == b); POPPED; }
        case GRV_OP_NOT_EQ: { NEED(2); int32_t b = POP; TOP = (TOP != b); POPPED; }
        case GRV_OP_LESS: { NEED(2); int32_t b = POP; TOP = (TOP < b); POPPED; }
        case GRV_OP_GTR: { NEED(2); int32_t b = POP; TOP = (TOP > b); POPPED; }
        case GRV_OP_LESS_EQ: { NEED(2); int32_t b = POP; TOP = (TOP <= b); POPPED; }
        case GRV_OP_GTR_EQ: { NEED(2); int32_t b = POP; TOP = (TOP >= b); POPPED; }
        case GRV_OP_BITOR: { NEED(2); int32_t b = POP; TOP = TOP | b; POPPED; }
        case GRV_OP_BITAND: { NEED(2); int32_t b = POP; TOP = TOP & b; POPPED; }
        case GRV_OP_BITNOT: NEED(1); TOP = ~TOP; POPPED;
        case GRV_OP_SETBITS:
            NEED(1);
            TOP = (int32_t)(((uint32_t)TOP & ~(uint32_t)ip->a) | (uint32_t)ip->b);
            POPPED;
        case GRV_OP_NEXT: /* and CopyNext */
            if (mi >= map->size)
                DIE;
            if (is != GRV_NIL) {
                if (is == map->highwater)
                    map->highpassed = 1;
                is = grv_link(seg, is)->next;
            }
            mi++;
            NEXT;
        case GRV_OP_PUT_GLYPH: /* both widths */
            if (is != GRV_NIL) {
                grv_set_glyph(seg, is, (uint32_t)grv_class_glyph(silf, (uint32_t)ip->a, 0));
                touch(seg, is);
            }
            NEXT;
        case GRV_OP_PUT_SUBS: { /* both widths */
            int32_t src = slot_at(m, map, mi, ip->slot);
            if (src != GRV_NIL && is != GRV_NIL) {
                /* the source is the map entry: a temporary copy when the
                 * loader planned one (silf.c plan_copies) */
                uint32_t g = grv_link(seg, src)->gid;
                int32_t idx = grv_class_index(silf, (uint32_t)ip->a, g);
                grv_set_glyph(seg, is, (uint32_t)grv_class_glyph(silf, (uint32_t)ip->b, idx));
                touch(seg, is);
            }
            CHECKED;
        }
        case GRV_OP_PUT_COPY: {
            if (is != GRV_NIL && !(grv_link(seg, is)->flags & GRV_SF_DELETED)) {
                int32_t ref = slot_at(m, map, mi, ip->slot);
                if (ref != GRV_NIL && ref != is) {
                    grv_slot *d = grv_link(seg, is);
                    if (d->parent != GRV_NIL || d->child != GRV_NIL)
                        DIE;
                    grv_slot keep = *d;
                    *d = *grv_link(seg, ref);
                    d->child = GRV_NIL;
                    d->sibling = GRV_NIL;
                    d->prev = keep.prev;
                    d->next = keep.next;
                    /* user attributes and justification values too */
                    memcpy(grv_slot_words(seg, is), grv_slot_words(seg, ref),
                           grv_words_per_slot(seg) * sizeof(int16_t));
                    if (d->parent != GRV_NIL)
                        grv_slot_child(seg, d->parent, is);
                }
                grv_link(seg, is)->flags &= (uint8_t)~(GRV_SF_COPIED | GRV_SF_DELETED);
                touch(seg, is);
            }
            CHECKED;
        }
        case GRV_OP_INSERT: {
            FV_TESTCASE(map->max_size == 1); /* the last insert the growth limit allows */
            if (--map->max_size <= 0)
                DIE;
            int32_t ns = grv_new_slot(seg);
            if (ns == GRV_NIL)
                DIE;
            grv_slot *n = grv_link(seg, ns);
            int32_t iss = is;
            for (uint32_t guard = seg->pool_len;
                 iss != GRV_NIL && (grv_link(seg, iss)->flags & GRV_SF_DELETED) && guard--;)
                iss = grv_link(seg, iss)->next;
            if (iss == GRV_NIL) {
                if (seg->last != GRV_NIL) {
                    grv_link(seg, seg->last)->next = ns;
                    n->prev = seg->last;
                    n->before = grv_link(seg, seg->last)->before;
                    seg->last = ns;
                } else {
                    /* COMPAT(graphite2): into an empty stream the new slot
                     * comes with the char range 0..0, not "none" (gr_diff
                     * F-22d, measured: after "CopyNext; Delete; Delete;
                     * Insert", before and after -1 each change the result) */
                    seg->first = seg->last = ns;
                    n->before = n->after = 0;
                }
            } else if (grv_link(seg, iss)->prev != GRV_NIL) {
                int32_t pv = grv_link(seg, iss)->prev;
                grv_link(seg, pv)->next = ns;
                n->prev = pv;
                n->before = grv_link(seg, pv)->after;
            } else {
                n->prev = GRV_NIL;
                n->before = grv_link(seg, iss)->before;
                seg->first = ns;
            }
            n->next = iss;
            if (iss != GRV_NIL) {
                grv_link(seg, iss)->prev = ns;
                n->original = grv_link(seg, iss)->original;
                n->after = grv_link(seg, iss)->before;
            } else if (n->prev != GRV_NIL) {
                n->original = grv_link(seg, n->prev)->original;
                n->after = grv_link(seg, n->prev)->after;
            } else {
                n->original = 0;
            }
            if (is == map->highwater)
                map->highpassed = 0;
            is = ns;
            seg->slot_count++;
            /* The new slot has no map entry: step the map back so the next
             * Next lands on the same input slot again. */
            if (mi != -1)
                mi--;
            touch(seg, ns);
            NEXT;
        }
        case GRV_OP_DELETE: {
            if (is == GRV_NIL || (grv_link(seg, is)->flags & GRV_SF_DELETED))
                DIE;
            grv_slot *d = grv_link(seg, is);
            d->flags |= GRV_SF_DELETED;
            if (d->prev != GRV_NIL)
                grv_link(seg, d->prev)->next = d->next;
            else
                seg->first = d->next;
            if (d->next != GRV_NIL)
                grv_link(seg, d->next)->prev = d->prev;
            else
                seg->last = d->prev;
            if (is == map->highwater)
                map->highwater = d->next;
            if (d->prev != GRV_NIL)
                is = d->prev;
            seg->slot_count--;
            NEXT;
        }
        case GRV_OP_ASSOC: {
            /* decode_insn checked that the offsets lie inside the code */
            const uint8_t *offs = code->code.data + ip->a;
            int32_t mn = -1, mx = -1;
            (void)fv_budget_spend(&seg->budget, ip->u8); /* checked when the run ends */
            for (int k = 0; k < ip->u8; k++) {
                int32_t ts = slot_at(m, map, mi, (int8_t)offs[k]);
                if (ts == GRV_NIL)
                    continue;
                const grv_slot *t = grv_link(seg, ts);
                if (mn == -1 || t->before < mn)
                    mn = t->before;
                if (t->after > mx)
                    mx = t->after;
            }
            if (mn > -1 && is != GRV_NIL) {
                grv_link(seg, is)->before = mn;
                grv_link(seg, is)->after = mx;
                touch(seg, is);
            }
            CHECKED;
        }
        case GRV_OP_CNTXT_ITEM:
            if (mapb + ip->slot != mi) {
                PUSH(1);
                /* grv_compile resolved the skip to an instruction index
                 * inside the array (its END or BAD at worst) */
                ip = insns + ip->a - 1;
            }
            NEXT;
        case GRV_OP_ATTR_SET:
        case GRV_OP_ATTR_ADD:
        case GRV_OP_ATTR_SUB:
        case GRV_OP_IATTR_SET:
        case GRV_OP_IATTR_ADD:
        case GRV_OP_IATTR_SUB: {
            NEED(1);
            uint32_t slat = ip->u8;
            int idx = ip->a; /* 0 for the non-indexed forms */
            int32_t val = POP;
            if (is == GRV_NIL)
                CHECKED;
            if (ip->xop != GRV_OP_ATTR_SET && ip->xop != GRV_OP_IATTR_SET) {
                ensure_positioned(m, slat);
                int32_t cur = grv_get_attr(seg, is, slat, (uint32_t)idx);
                int add = ip->xop == GRV_OP_ATTR_ADD || ip->xop == GRV_OP_IATTR_ADD;
                val = add ? (int32_t)((uint32_t)cur + (uint32_t)val)
                          : (int32_t)((uint32_t)cur - (uint32_t)val);
            }
            if (slat == GRV_SLAT_USERDEFN && (uint32_t)idx < silf->num_user &&
                (uint32_t)is < seg->pool_len) {
                /* a user attribute, half of what rules set, without the
                 * general setter's dispatch (grv_set_attr stores it so) */
                grv_slot_words(seg, is)[idx] = (int16_t)(uint16_t)(uint32_t)val;
            } else {
                grv_set_attr(seg, map, is, slat, idx, val);
            }
            touch(seg, is);
            if (slat == GRV_SLAT_ATTTO) /* walks the trees it joins */
                spent_check(m, seg);
            CHECKED;
        }
        case GRV_OP_ATTR_SET_SLOT:
        case GRV_OP_IATTR_SET_SLOT: {
            NEED(1);
            uint32_t slat = ip->u8;
            /* COMPAT(graphite2): the map position is added to the value
             * only for gr_slatAttTo (gr_diff F-10, measured: IAttrSetSlot on
             * AdvY stores the value alone). */
            int offset = mi * (slat == GRV_SLAT_ATTTO);
            int sub = ip->xop == GRV_OP_IATTR_SET_SLOT ? ip->a : offset;
            int32_t val = (int32_t)((uint32_t)POP + (uint32_t)offset);
            if (is != GRV_NIL) {
                grv_set_attr(seg, map, is, slat, sub, val);
                touch(seg, is);
                if (slat == GRV_SLAT_ATTTO) /* walks the trees it joins */
                    spent_check(m, seg);
            }
            CHECKED;
        }
        case GRV_OP_PUSH_SLOT_ATTR:
        case GRV_OP_PUSH_ISLOT_ATTR: {
            int32_t sl = slot_at(m, map, mi, ip->slot);
            if (sl != GRV_NIL && ip->u8 == GRV_SLAT_USERDEFN) {
                /* user attributes, most of what rules read, without the
                 * general getter's dispatch (grv_get_attr reads them so) */
                PUSH(grv_sl(seg, sl) ? grv_user_attr(seg, sl, (uint32_t)ip->a) : 0);
            } else if (sl != GRV_NIL) {
                ensure_positioned(m, ip->u8);
                PUSH(grv_get_attr(seg, sl, ip->u8, (uint32_t)ip->a));
            }
            CHECKED;
        }
        case GRV_OP_PUSH_GLYPH_ATTR:
        case GRV_OP_PUSH_ATT_TO_GLYPH_ATTR: { /* and the 8-bit forms */
            int32_t sl = slot_at(m, map, mi, ip->slot);
            if (sl != GRV_NIL) {
                if (ip->xop == GRV_OP_PUSH_ATT_TO_GLYPH_ATTR && grv_link(seg, sl)->parent != GRV_NIL)
                    sl = grv_link(seg, sl)->parent;
                PUSH(grv_glyph_attr(face, grv_link(seg, sl)->gid, (uint32_t)ip->a));
            }
            CHECKED;
        }
        case GRV_OP_PUSH_GLYPH_METRIC:
        case GRV_OP_PUSH_ATT_TO_GLYPH_METRIC: {
            int32_t sl = slot_at(m, map, mi, ip->slot);
            if (sl != GRV_NIL) {
                if (ip->xop == GRV_OP_PUSH_ATT_TO_GLYPH_METRIC && grv_link(seg, sl)->parent != GRV_NIL)
                    sl = grv_link(seg, sl)->parent;
                PUSH(grv_glyph_metric(seg, sl, ip->u8, (uint32_t)ip->a));
                if (ip->a) /* a cluster's metric positions its tree */
                    spent_check(m, seg);
            }
            CHECKED;
        }
        case GRV_OP_PUSH_FEAT: {
            int32_t sl = slot_at(m, map, mi, ip->slot);
            if (sl != GRV_NIL)
                PUSH(grv_get_feature(seg, ip->u8));
            CHECKED;
        }
        case GRV_OP_SET_FEAT: {
            int32_t sl = slot_at(m, map, mi, ip->slot);
            if (sl != GRV_NIL) {
                NEED(1);
                grv_set_feature(seg, ip->u8, POP);
            }
            CHECKED;
        }
        case GRV_OP_PUSH_VERSION:
            PUSH(GRV_ENGINE_VERSION);
            NEXT;
        case GRV_OP_PUSH_PROC_STATE:
            /* COMPAT(graphite2): a stub that pushes 1 */
            PUSH(1);
            NEXT;
        case GRV_OP_POP_RET:
            /* COMPAT(graphite2): PopRet pops the value and pushes it back as
             * the result, with no check in between: on an empty stack it
             * reads the cell below the base and the run ends normally with
             * an empty stack, result 0 (gr_diff F-8). */
            NEED(1);
            goto out;
        case GRV_OP_RET_ZERO:
            PUSH(0);
            goto out;
        case GRV_OP_RET_TRUE:
            PUSH(1);
            goto out;
        case GRV_XOP_TEMP_COPY:
            if (!temp_copy(seg, map, mi, is))
                DIE;
            NEXT;
        case GRV_XOP_END:
            goto out;
        default: /* GRV_XOP_BAD */
            DIE;
        }
        if (m->status != GRV_FINISHED)
            goto out;
        if (sp < 0) {
            m->status = GRV_STACK_UNDERFLOW;
            goto out;
        }
    }
out:;
    int32_t ret = 0;
    if (m->status == GRV_FINISHED) {
        if (sp == 1)
            ret = stk[0];
        else if (sp > 1)
            m->status = GRV_STACK_NOT_EMPTY;
    }
    /* graphite2 writes the current slot back into the map entry. */
    if (mi >= -1 && mi < GRV_MAX_SLOTS + 2)
        grv_map_begin(map)[mi] = is;
    *mapi = mi;
    if (is_out)
        *is_out = is;
    return ret;
}

int32_t grv_run(grv_machine *m, const grv_code *code, int *mapi, int mapb, int32_t *is_out)
{
    /* The work budget was charged for this run before it (pass.c); opcodes
     * that walk trees charge as they go (spent_check). */
    if (FV_UNLIKELY(m->seg->op_counts != NULL || m->seg->trace != NULL))
        return run_code(m, code, mapi, mapb, is_out, 1);
    return run_code(m, code, mapi, mapb, is_out, 0);
}
