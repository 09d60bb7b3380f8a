/* Passes: the FSM that finds candidate rules at a slot (with pre-context),
 * rule selection in sort order with constraints, actions and the slot
 * advance that follows, the per-pass rule-loop limit, pass constraints, and
 * the order of passes around the bidi pass (graphite2's runGraphite). */
#include <string.h>

#include "common/check.h"
#include "common/compat.h"
#include "graphite/grv.h"

typedef struct grv_fsm {
    grv_slotmap map;
    /* The candidate rules of a match: num_rules entries at `rules`, which
     * points into the pass's rule map while one success state contributed
     * (nothing copied) and into buf[] once lists were merged. */
    const uint16_t *rules;
    uint32_t num_rules;
    uint16_t buf[2][128];
    int32_t bad_link;   /* run_fsm's -1: the link that left the pool */
    uint32_t merged;    /* rule-list entries accumulate merged (work budget) */
    /* The last walk back over a pre-context: from walk_start to walk_first,
     * walk_ctxt slots back.  Valid while the stream's links are as they
     * were (walk_start GRV_NIL otherwise: a rule fired, or a pass began):
     * the next slot's walk is then this one moved on by one, no walk. */
    int32_t walk_start, walk_first;
    int walk_ctxt;
} grv_fsm;

static void trace_stream(grv_seg *seg, fv_gr_trace_kind kind, int pass)
{
    if (!seg->trace)
        return;
    uint32_t n = 0, guard = seg->pool_len + 1;
    for (int32_t s = seg->first; s != GRV_NIL && guard--; s = grv_link(seg, s)->next)
        n++;
    uint32_t *g = fv_mem_array(seg->mem, n ? n : 1, sizeof(uint32_t));
    if (!g)
        return;
    n = 0;
    guard = seg->pool_len + 1;
    for (int32_t s = seg->first; s != GRV_NIL && guard--; s = grv_link(seg, s)->next)
        g[n++] = grv_link(seg, s)->gid;
    fv_gr_trace_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.pass = pass;
    ev.rule = -1;
    ev.gids = g;
    ev.num_slots = n;
    ev.slot = -1;
    seg->trace(seg->trace_user, &ev);
    fv_mem_free(seg->mem, g);
}

#define GRV_MAX_RULES 128 /* FiniteStateMachine::MAX_RULES: candidate rules kept per match */

/* Merges a success state's sorted rule list into the accumulated list, as
 * graphite2 does: a rule already there is not repeated, and at most
 * GRV_MAX_RULES are kept (a state contributes at most that many too).
 * Out of line and cold: inlined into run_fsm it left the FSM loop too few
 * registers, and gcc kept the pass's tables on the stack, reloading six of
 * them per slot (callgrind, Annapurnarc2 udhr_nep.txt: fv_gr_shape 126.9 M
 * -> 123.3 M instructions; Padauk myanmar.txt 34.8 M -> 33.9 M;
 * Abyssinica ethiopic.txt 6.90 M -> 6.63 M). */
static FV_COLD void accumulate(const grv_pass *p, grv_fsm *fsm, uint32_t state)
{
    uint32_t a = p->state_rule_off[state], e = p->state_rule_off[state + 1];
    if (e - a > GRV_MAX_RULES)
        e = a + GRV_MAX_RULES;
    if (a == e)
        return;
    if (fsm->num_rules == 0) {
        /* the first success state of a match: its list as it is, in place */
        fsm->rules = p->state_rules + a;
        fsm->num_rules = e - a;
        return;
    }
    fsm->merged += (e - a) + fsm->num_rules;
    /* merge into whichever buffer the current list is not in */
    const uint16_t *cur = fsm->rules;
    uint16_t *out = cur == fsm->buf[0] ? fsm->buf[1] : fsm->buf[0];
    uint32_t i = 0, j = a, n = 0;
    while (i < fsm->num_rules && n < GRV_MAX_RULES) {
        uint16_t x = cur[i], y = p->state_rules[j];
        int x_first = p->rules[x].sort != p->rules[y].sort ? p->rules[x].sort > p->rules[y].sort
                                                            : x < y;
        int y_first = p->rules[x].sort != p->rules[y].sort ? p->rules[y].sort > p->rules[x].sort
                                                            : y < x;
        if (x_first) {
            out[n++] = x;
            i++;
        } else if (y_first) {
            out[n++] = y;
            j++;
        } else {
            out[n++] = x;
            i++;
            j++;
        }
        if (j == e) {
            while (i < fsm->num_rules && n < GRV_MAX_RULES)
                out[n++] = cur[i++];
            fsm->rules = out;
            fsm->num_rules = n;
            return;
        }
    }
    while (j < e && n < GRV_MAX_RULES)
        out[n++] = p->state_rules[j++];
    fsm->rules = out;
    fsm->num_rules = n;
}

static void push_slot(grv_slotmap *m, int32_t s)
{
    if (m->size < GRV_MAX_SLOTS + 2)
        grv_map_begin(m)[m->size++] = s;
}

/* Not inlined: inside the pass loop its tables do not fit the registers.
 * Returns 1 when rules were found, 0 when none; -1 when a link left the
 * pool (fsm->bad_link, for the caller's grv_link_fault: the walk itself
 * only reads the pool and its length, which stay in registers, and checks
 * every link with the end-of-stream test it makes anyway). */
static FV_NOINLINE int run_fsm(const grv_seg *seg, const grv_pass *p, grv_fsm *fsm, int32_t slot)
{
    const grv_slot *const slots = seg->slots;
    const uint32_t pool_len = seg->pool_len;
    fsm->num_rules = 0;
    fsm->merged = 0;
    int ctxt = 0;
    const int max_pre = p->max_pre;
    if (FV_NEVER((uint32_t)slot >= pool_len))
        goto bad_link;
    grv_slotmap *m = &fsm->map;
    int32_t prev = slots[slot].prev;
    const int32_t start = slot;
    if (max_pre != 0 && prev == fsm->walk_start && prev != GRV_NIL &&
        (uint32_t)fsm->walk_first < pool_len) {
        /* The slot after the last walk's start, the stream unchanged: its
         * pre-context is that walk's moved on by one slot, found without
         * the walk's chain of dependent loads (charis_r_gr and
         * Scheherazade have passes of pre-context 7 and 10, walked for
         * every slot). */
        if (fsm->walk_ctxt != max_pre) {
            /* that walk reached the segment's start: one slot longer */
            slot = fsm->walk_first;
            ctxt = fsm->walk_ctxt + 1;
            prev = GRV_NIL;
        } else {
            prev = fsm->walk_first;
            slot = slots[prev].next;
            ctxt = max_pre;
            if (FV_NEVER((uint32_t)slot >= pool_len))
                goto bad_link;
        }
    } else {
        /* Back over the pre-context: GRV_NIL (-1) and a link outside the
         * pool share one unsigned test, the end of the segment being the
         * rare case of the two (charis udhr_eng.txt: 5.6 steps a run). */
        while (ctxt != max_pre) {
            if ((uint32_t)prev >= pool_len) {
                if (FV_NEVER(prev != GRV_NIL)) {
                    slot = prev;
                    goto bad_link;
                }
                break;
            }
            slot = prev;
            prev = slots[slot].prev;
            ctxt++;
        }
    }
    fsm->walk_start = start;
    fsm->walk_first = slot;
    fsm->walk_ctxt = ctxt;
    m->size = 0;
    m->context = ctxt;
    m->buf[0] = prev;
    if (ctxt < p->min_pre || p->num_rows == 0)
        return 0;
    /* The tables in locals: the loop writes the map and the rule list, which
     * the compiler would otherwise have to assume alias them. */
    const uint16_t *const cols = p->cols;
    const uint16_t *const trans = p->trans;
    const uint32_t num_cols_glyphs = p->num_cols_glyphs;
    const uint32_t num_columns = p->num_columns;
    const uint32_t num_transitional = p->num_transitional;
    const uint32_t first_success = (uint32_t)(p->num_rows - p->num_success);
    const uint32_t *const rule_off = p->state_rule_off;
    const uint16_t *const state_rules = p->state_rules;
    int32_t *const map = grv_map_begin(m);
    uint32_t state = p->start_states[max_pre - ctxt];
    size_t n = 0; /* map entries: at most GRV_MAX_SLOTS - 1 slots are matched; size_t
                   * keeps it in one register (an int was kept in three) */
    for (;;) {
        const grv_slot *s = &slots[slot];
        map[n++] = slot;
        uint32_t gid = s->gid;
        uint32_t col = gid < num_cols_glyphs ? cols[gid] : 0xffffu;
        if (col == 0xffffu)
            break;
        if (n == GRV_MAX_SLOTS) {
            m->size = (int)n;
            return 0; /* the rule would span too many slots: no match */
        }
        if (state >= num_transitional)
            break;
        state = trans[state * num_columns + col];
        if (state >= first_success) {
            /* The first success state of a match gives its list as it is
             * (most matches have one); only a second one merges, out of
             * line.  Annapurnarc2 udhr_nep.txt / Padauk
             * my_HeadwordSyllables.txt: half the FSM runs reach a success
             * state, and the call to accumulate with its spills was 100
             * instructions a time. */
            uint32_t st = state - first_success;
            if (fsm->num_rules == 0) {
                uint32_t a = rule_off[st], e = rule_off[st + 1];
                if (e - a > GRV_MAX_RULES)
                    e = a + GRV_MAX_RULES;
                fsm->rules = state_rules + a;
                fsm->num_rules = e - a;
            } else {
                accumulate(p, fsm, st);
            }
        }
        slot = s->next;
        if ((uint32_t)slot >= pool_len) {
            if (FV_NEVER(slot != GRV_NIL)) {
                m->size = (int)n;
                goto bad_link;
            }
            map[n++] = slot;
            break;
        }
        if (state == 0) {
            map[n++] = slot;
            break;
        }
    }
    m->size = (int)n;
    return 1;
bad_link:
    fsm->bad_link = slot;
    fsm->num_rules = 0;
    return -1;
}

/* Charges the work budget for `runs` runs of `code` before they start: its
 * length in instructions per run, which bounds what a run can execute
 * (rule code has no backward jump).  0 when that spends the budget: the
 * machine's status then says so and nothing runs. */
static inline int charge(grv_seg *seg, grv_machine *m, const grv_code *code, uint32_t runs)
{
    if (FV_UNLIKELY(!fv_budget_spend(&seg->budget, (uint64_t)runs * code->num_insns))) {
        m->status = GRV_OUT_OF_STEPS;
        return 0;
    }
    return 1;
}

static int test_constraint(grv_seg *seg, grv_machine *m, const grv_rule *r, uint32_t ri)
{
    grv_slotmap *map = m->map;
    int curr = map->context;
    if (r->sort + curr - r->pre_context > map->size || curr - r->pre_context < 0)
        return 0;
    int base = curr - r->pre_context;
    if (grv_map_begin(map)[base + r->sort - 1] == GRV_NIL)
        return 0;
    if (r->constraint.code.len == 0)
        return 1;
    if (!charge(seg, m, &r->constraint, r->sort))
        return 0;
    seg->cur_rule = (int)ri;
    seg->in_constraint = 1;
    for (int n = 0; n < r->sort; n++) {
        int idx = base + n;
        if (grv_map_begin(map)[idx] == GRV_NIL)
            continue;
        int mi = idx;
        int32_t ret = grv_run(m, &r->constraint, &mi, curr, NULL);
        if (!ret || m->status != GRV_FINISHED) {
            seg->in_constraint = 0;
            return 0;
        }
    }
    seg->in_constraint = 0;
    return 1;
}

/* graphite2's adjustSlot after an action. */
static void adjust_slot(grv_seg *seg, int delta, int32_t *slot_out, grv_slotmap *map)
{
    if (*slot_out == GRV_NIL) {
        if (map->highpassed || *slot_out == map->highwater) {
            *slot_out = seg->last;
            ++delta;
            if (map->highwater == GRV_NIL || map->highwater == *slot_out)
                map->highpassed = 0;
        } else {
            *slot_out = seg->first;
            --delta;
        }
    }
    if (delta < 0) {
        while (++delta <= 0 && *slot_out != GRV_NIL) {
            *slot_out = grv_link(seg, *slot_out)->prev;
            if (map->highpassed && map->highwater == *slot_out)
                map->highpassed = 0;
        }
    } else if (delta > 0) {
        while (--delta >= 0 && *slot_out != GRV_NIL) {
            if (*slot_out == map->highwater)
                map->highpassed = 1;
            *slot_out = grv_link(seg, *slot_out)->next;
        }
    }
}

/* graphite2's SlotMap::collectGarbage after an action that deletes: the
 * rule's map entries (all but the last) that are deleted or temporary
 * copies are freed; when one is the pass's current slot, that moves to the
 * freed slot's previous slot, or its next if it has none (a deleted slot
 * keeps its old links; one that is not in the map, e.g. an inserted slot
 * deleted again, stays current and is not freed). */
static void collect_garbage(grv_seg *seg, grv_slotmap *map, int32_t *slot)
{
    int32_t *b = grv_map_begin(map);
    for (int i = 0; i < map->size - 1; i++) {
        int32_t s = b[i];
        const grv_slot *sl = grv_sl(seg, s);
        if (!sl || !(sl->flags & (GRV_SF_DELETED | GRV_SF_COPIED)))
            continue;
        if (s == *slot)
            *slot = sl->prev != GRV_NIL ? sl->prev : sl->next;
        grv_free_slot(seg, s);
    }
}

/* no_col_cols: the pass's glyph columns when a glyph without one ends the
 * step at once (see below), else NULL; decided once per pass. */
static void find_and_do_rule(grv_seg *seg, const grv_pass *p, uint32_t pi, grv_machine *m,
                             grv_fsm *fsm, const uint16_t *no_col_cols, int32_t *slot)
{
    int32_t start = *slot;
    if (no_col_cols) {
        /* No column for the first slot's glyph: run_fsm would map that one
         * slot and stop with no rule, so give its answer (one slot mapped,
         * for the work budget) here, without the call and without walking
         * back over the pre-context, which only rules use.  With min_pre >
         * 0 a short pre-context answers differently (nothing mapped), so
         * those run it.  Annapurnarc2 udhr_nep.txt: 40% of FSM runs start
         * on such a glyph. */
        const grv_slot *sl = grv_link(seg, start);
        uint32_t gid = sl->gid;
        if (gid >= p->num_cols_glyphs || no_col_cols[gid] == 0xffffu) {
            grv_slotmap *fm = &fsm->map;
            fm->context = 0;
            fm->buf[0] = GRV_NIL;
            grv_map_begin(fm)[0] = start;
            fm->size = 1;
            fsm->num_rules = 0;
            fsm->merged = 0;
            (void)fv_budget_spend(&seg->budget, 2u); /* the step and its slot */
            *slot = sl->next;
            return;
        }
    }
    int found = run_fsm(seg, p, fsm, start);
    if (FV_NEVER(found < 0))
        grv_link_fault(seg, fsm->bad_link);
    /* the step, the slots the FSM walked, the rules it offers and the
     * rule lists it merged */
    (void)fv_budget_spend(&seg->budget, 1u + (uint32_t)fsm->map.size + fsm->num_rules +
                                            fsm->merged); /* checked by the pass loop */
    if (found > 0) {
        for (uint32_t k = 0; k < fsm->num_rules; k++) {
            uint32_t ri = fsm->rules[k];
            const grv_rule *r = &p->rules[ri];
            int ok = test_constraint(seg, m, r, ri);
            if (m->status != GRV_FINISHED)
                return;
            if (!ok)
                continue;
            /* the action may change the stream's links (constraints
             * cannot: the loader refuses action opcodes in them) */
            fsm->walk_start = GRV_NIL;
            seg->cur_rule = (int)ri;
            if (seg->trace) {
                fv_gr_trace_event ev;
                memset(&ev, 0, sizeof ev);
                ev.kind = FV_GR_TRACE_RULE;
                ev.pass = (int32_t)pi;
                ev.rule = (int32_t)ri;
                int32_t idx = 0;
                uint32_t guard = seg->pool_len + 1;
                for (int32_t s = seg->first; s != GRV_NIL && s != start && guard--;
                     s = grv_link(seg, s)->next)
                    idx++;
                ev.slot = idx;
                seg->trace(seg->trace_user, &ev);
            }
            int adv = 0;
            int deletes = 0;
            if (r->action.code.len) {
                grv_slotmap *map = m->map;
                int mi = map->context;
                map->highpassed = 0;
                int32_t is;
                int32_t ret = charge(seg, m, &r->action, 1)
                                  ? grv_run(m, &r->action, &mi, map->context, &is)
                                  : 0;
                if (m->status != GRV_FINISHED) {
                    *slot = GRV_NIL;
                    map->highwater = GRV_NIL;
                    return;
                }
                *slot = is;
                adv = ret;
                deletes = r->deletes;
            } else {
                *slot = start;
            }
            if (deletes)
                collect_garbage(seg, m->map, slot);
            adjust_slot(seg, adv, slot, m->map);
            return;
        }
    }
    *slot = grv_link(seg, start)->next;
}

static int test_pass_constraint(grv_seg *seg, const grv_pass *p, grv_machine *m)
{
    if (!p->pass_constraint.code.len)
        return 1;
    grv_slotmap *map = m->map;
    map->size = 0;
    map->context = 0;
    map->buf[0] = GRV_NIL;
    push_slot(map, seg->first);
    int mi = 0;
    seg->cur_rule = -1;
    if (!charge(seg, m, &p->pass_constraint, 1))
        return 0;
    seg->in_constraint = 1;
    int32_t ret = grv_run(m, &p->pass_constraint, &mi, 0, NULL);
    seg->in_constraint = 0;
    return ret && m->status == GRV_FINISHED;
}

/* The step budget ran out in pass pi: which one (the pass's share or what
 * the segment had left) and how far it got. */
static fv_status budget_spent(const grv_seg *seg, uint32_t pi, int pass_share, fv_error *err)
{
    fv_error_clear(err);
    err->kind = FV_E_BUDGET_STEPS;
    err->program = FV_PROG_GR_PASS;
    err->index = (int64_t)seg->steps; /* where it stopped: the tests' step bound */
    const char *stage = seg->budget_stage ? seg->budget_stage : "rules";
    if (pass_share)
        snprintf(err->detail, sizeof err->detail,
                 "pass %u: pass step budget (%lld for %u chars) spent on its %s", pi,
                 (long long)seg->budget.limit, seg->num_chars, stage);
    else
        snprintf(err->detail, sizeof err->detail,
                 "pass %u: segment step budget (%llu for %u chars) spent on its %s", pi,
                 (unsigned long long)seg->steps_limit, seg->num_chars, stage);
    return FV_E_BUDGET_STEPS;
}

fv_status grv_budget_status(const grv_seg *seg, fv_error *err)
{
    if (FV_LIKELY(seg->budget.left >= 0))
        return FV_OK;
    fv_error_clear(err);
    err->kind = FV_E_BUDGET_STEPS;
    err->program = FV_PROG_GR_PASS;
    err->index = (int64_t)(seg->steps + fv_budget_used(&seg->budget));
    snprintf(err->detail, sizeof err->detail, "segment step budget (%llu for %u chars) spent on %s",
             (unsigned long long)seg->steps_limit, seg->num_chars,
             seg->budget_stage ? seg->budget_stage : "the work after the passes");
    return FV_E_BUDGET_STEPS;
}

static fv_status run_pass_rules(grv_seg *seg, uint32_t pi, grv_machine *m, grv_fsm *fsm,
                                int reverse, fv_error *err)
{
    const grv_pass *p = &seg->face->silf.passes[pi];
    int32_t s = seg->first;
    fsm->walk_start = GRV_NIL; /* another pass: another pre-context length */
    seg->cur_pass = (int)pi;
    seg->cur_rule = -1;
    /* COMPAT(graphite2): the stream is reversed only once the pass
     * constraint has held (Harmattan, pass 1 given flags 0x20: hidden
     * feature ut53=0 fails its constraint and keeps char 0 -> slot 0). */
    if (s == GRV_NIL || !test_pass_constraint(seg, p, m)) {
        if (m->status != GRV_FINISHED)
            goto machine_fail;
        return FV_OK;
    }
    if (reverse) {
        grv_reverse_slots(seg);
        s = seg->first;
    }
    if (p->num_rules) {
        grv_slotmap *map = m->map;
        map->highwater = grv_link(seg, s)->next;
        map->highpassed = 0;
        const uint16_t *no_col_cols = p->min_pre == 0 && p->num_rows != 0 ? p->cols : NULL;
        int lc = p->max_rule_loop;
        uint64_t budget = GRV_PASS_STEPS((uint64_t)(seg->slot_count > 0 ? seg->slot_count : 0) +
                                             (uint64_t)(map->max_size > 0 ? map->max_size : 0),
                                         p->max_rule_loop);
        do {
            FV_TESTCASE(budget == 0); /* the rule loop's last step */
            if (budget-- == 0) {
                fv_error_clear(err);
                err->kind = FV_E_GR_BUDGET;
                err->program = FV_PROG_GR_PASS;
                snprintf(err->detail, sizeof err->detail,
                         "pass %u: rule loop makes no progress (step budget)", pi);
                return FV_E_GR_BUDGET;
            }
            find_and_do_rule(seg, p, pi, m, fsm, no_col_cols, &s);
            if (m->status != GRV_FINISHED)
                goto machine_fail;
            if (FV_UNLIKELY(seg->budget.left < 0))
                return FV_E_BUDGET_STEPS; /* run_pass names it */
            if (s != GRV_NIL && (s == map->highwater || map->highpassed || --lc == 0)) {
                if (!lc)
                    s = map->highwater;
                lc = p->max_rule_loop;
                if (s != GRV_NIL)
                    map->highwater = grv_link(seg, s)->next;
            }
        } while (s != GRV_NIL);
    }
    if ((p->num_coll_runs || p->kern_colls) && seg->coll)
        return grv_coll_run_pass(seg, p, pi, err);
    return FV_OK;
machine_fail:
    if (m->status == GRV_OUT_OF_STEPS)
        return FV_E_BUDGET_STEPS;
    fv_error_clear(err);
    err->kind = FV_E_GR_SEGMENT_FAILED;
    err->program = FV_PROG_GR_PASS;
    err->index = m->status;
    snprintf(err->detail, sizeof err->detail, "pass %u rule %d: machine status %d", pi,
             seg->cur_rule, (int)m->status);
    return FV_E_GR_SEGMENT_FAILED;
}

/* One pass under its step budget: the pass may spend its share
 * (grv_budget_pass_steps), and never more than the segment has left. */
static fv_status run_pass(grv_seg *seg, uint32_t pi, grv_machine *m, grv_fsm *fsm, int reverse,
                          fv_error *err)
{
    const uint64_t seg_left = seg->steps_limit > seg->steps ? seg->steps_limit - seg->steps : 0;
    const uint64_t share = grv_budget_pass_steps(seg->num_chars);
    const int pass_share = share < seg_left;
    fv_budget_start(&seg->budget, (int64_t)(pass_share ? share : seg_left), 0);
    seg->budget_stage = NULL;
    fv_status st = run_pass_rules(seg, pi, m, fsm, reverse, err);
    const uint64_t used = fv_budget_used(&seg->budget);
    seg->steps += used;
    if (used > seg->pass_steps_max)
        seg->pass_steps_max = used;
    if (st == FV_E_BUDGET_STEPS)
        return budget_spent(seg, pi, pass_share, err);
    return st;
}

/* Mirroring (attrMirroring): graphite2 mirrors rtl segments only when bidi
 * is off (dir 3) and mirroring is not (bit 4); at the bidi pass, or before
 * the first pass when the font has none (fv_gr_shape). */
void grv_mirror_slots(grv_seg *seg)
{
    const grv_silf *silf = &seg->face->silf;
    if (!silf->attr_mirror || (seg->dir & 7) != 3)
        return;
    uint32_t guard = seg->pool_len + 1;
    for (int32_t s = seg->first; s != GRV_NIL && guard--; s = grv_link(seg, s)->next) {
        int16_t mg = grv_glyph_attr(seg->face, grv_link(seg, s)->gid, silf->attr_mirror);
        if (mg)
            grv_set_glyph(seg, s, (uint16_t)mg);
    }
}

fv_status grv_run_passes(grv_seg *seg, unsigned first, unsigned last, int dobidi, fv_error *err)
{
    const grv_silf *silf = &seg->face->silf;
    fv_status st = FV_OK;
    /* The machine (its 4 KiB stack) and the FSM's slot map live on the C
     * stack, as graphite2's do: two allocations and frees per call were 4.6%
     * of shaping (callgrind, Padauk my_HeadwordSyllables.txt: 15.3 M of
     * fv_gr_shape's 330.3 M). */
    grv_machine mach;
    grv_fsm fsmv;
    grv_machine *m = &mach;
    grv_fsm *fsm = &fsmv;
    /* only the scalar state needs clearing; entries are written before use */
    fsm->map.size = 0;
    fsm->map.context = 0;
    fsm->map.highwater = GRV_NIL;
    fsm->map.highpassed = 0;
    fsm->map.buf[0] = GRV_NIL;
    fsm->num_rules = 0;
    fsm->rules = NULL;
    fsm->walk_start = GRV_NIL;
    /* graphite2 creates the collision state once, after the characters
     * are associated and before the first positioning pass */
    if (!dobidi && first == silf->i_pos && (silf->flags & 0x20) && !seg->coll) {
        st = grv_coll_init(seg, err);
        if (st != FV_OK)
            goto done;
    }
    m->seg = seg;
    m->map = &fsm->map;
    m->status = GRV_FINISHED;
    fsm->map.max_size = (int64_t)seg->slot_count * GRV_SEG_GROWTH;
    grv_bound_pool(seg, fsm->map.max_size);
    unsigned lbidi = silf->i_bidi;
    if (last == 0) {
        if (first == last && lbidi == 0xff)
            goto done;
        last = silf->num_passes;
    }
    if ((first < lbidi || (dobidi && first == lbidi)) &&
        (last >= lbidi || (dobidi && last + 1 == lbidi)))
        last++;
    else
        lbidi = 0xff;
    for (unsigned i = first; i < last; i++) {
        if (i == lbidi) {
            if (grv_currdir(seg) != (silf->direction & 1))
                grv_reverse_slots(seg);
            grv_mirror_slots(seg);
            trace_stream(seg, FV_GR_TRACE_BIDI, (int)i);
            i--;
            lbidi = last;
            last--;
            continue;
        }
        if (i >= silf->num_passes)
            break;
        const grv_pass *p = &silf->passes[i];
        int reverse = (lbidi == 0xff) &&
                      (grv_currdir(seg) != ((silf->direction & 1) ^ p->reverse_dir));
        /* COMPAT(graphite2): a pass whose skip-passes bit is set does not
         * run at all, a reverse-direction pass (flags 0x20) included, and
         * does not reorder the stream; a pass runs and reverses only when
         * not skipped and its pass constraint holds (run_pass).  Measured
         * (KD-8): Akatab with pass 1 given flags 0x20 and every glyph
         * skipping it keeps glyph 4 (the pass's substitution did not
         * happen) and char 0 -> slot 0; clearing the bit substitutes and
         * reverses.  Akatab 275 -> 506 / 506 lines left to right.
         * Except: a pass with collision shift rounds (flags bits 0-2) runs,
         * rules and all, whatever the skip bits say; a kerning-only pass
         * (bits 3-4) is skipped like any other.  Measured (KD-9) on
         * Harmattan (every glyph marks its collision pass 7 skippable,
         * graphite2 kerns there) with a copy whose glyphs all mark every
         * pass skippable: pass 6 still ran with flags 1, 2 or 4, and was
         * skipped with 0, 0x08, 0x10, 0x18, 0x40 or 0x80. */
        if (i >= 32 || (seg->pass_bits & (1u << i)) == 0 || p->num_coll_runs) {
            trace_stream(seg, FV_GR_TRACE_PASS_BEGIN, (int)i);
            st = run_pass(seg, i, m, fsm, reverse, err);
            if (st == FV_OK)
                st = grv_link_status(seg, err);
            trace_stream(seg, FV_GR_TRACE_PASS_END, (int)i);
            if (st != FV_OK)
                goto done;
        }
    }
done:
    return st;
}
