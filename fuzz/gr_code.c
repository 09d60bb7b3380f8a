/* Fuzz target `gr_code`: raw Graphite rule code (a constraint and an action)
 * through the load-time verifier grv_verify and, when both pieces are
 * accepted, the stack machine grv_run on a synthetic slot stream
 * (fuzz/synth/gr_synth.c), the way a pass runs one matched rule: the
 * constraint at every slot of the rule, then the action (without the
 * temporary copies the Silf loader plans, vm/graphite/silf.c plan_copies;
 * gr_font and gr_diff reach those).  Parameters come from the input's 16
 * trailing bytes:
 *
 *   [0..1]  allocator configuration (fvfuzz_alloc_init)
 *   [2..3]  instructions of the code that form the constraint; the rest
 *           is the action
 *   [4]     bits 0-2 pass type (mod 5: unknown, line-break, substitution,
 *           positioning, justification), 3 right-to-left, 4 run the action
 *           even when the constraint fails, 5 apply the rule a second time
 *           at the slot the action returned, 6 position the slots after
 *   [5]     rule length (sort) 1..16     [6] pre-context (mod length)
 *   [7]     slots in the stream 1..24 (at least the rule length)
 *   [8..15] glyph ids of the slots (mod 16), repeated
 *
 * Splitting by instruction count keeps the split stable under the
 * structure-aware mutator's insertions, as in tt_program. */
#include <string.h>

#include "fuzz.h"
#include "mutator/mutator.h"
#include "support/gr_trace.h"
#include "synth/gr_synth.h"

#define GR_CODE_TRAILER 16
/* 16 KiB: far above any real rule (the corpus fonts' longest action is a
 * few hundred bytes) and above the 64-slot map's reach. */
#define GR_CODE_MAX_INPUT (16 * 1024)
/* graphite2 rules span at most 63 slots; 16 covers every pre-context and
 * slot-offset case the verifier distinguishes, and the rules of the corpus
 * fonts, at a fraction of the cost. */
#define GR_CODE_MAX_SORT 16

static size_t insn_prefix(const uint8_t *code, size_t len, size_t count)
{
    size_t pc = 0;
    for (size_t i = 0; i < count && pc < len; i++)
        pc += fvmut_insn_len(FVMUT_GR, code, len, pc);
    return pc;
}

/* One rule application at map position `curr` (the first non-pre-context
 * slot), as pass.c's test_constraint + find_and_do_rule do it.  Returns the
 * slot the action left the stream at, or GRV_NIL. */
static int32_t apply_rule(fvsynth_gr *f, const grv_code *cons, const grv_code *act, int sort,
                          int pre, int always_act)
{
    grv_seg *seg = &f->seg;
    grv_slotmap *map = &f->map;
    grv_machine *m = &f->m;
    int curr = map->context;
    int base = curr - pre;
    int ok = 1;
    if (base < 0 || base + sort > map->size)
        return GRV_NIL;
    seg->cur_rule = 0;
    if (cons->code.len) {
        seg->in_constraint = 1;
        for (int n = 0; n < sort && ok; n++) {
            if (grv_map_begin(map)[base + n] == GRV_NIL)
                continue;
            int mi = base + n;
            int32_t r = grv_run(m, cons, &mi, curr, NULL);
            ok = r != 0 && m->status == GRV_FINISHED;
        }
        seg->in_constraint = 0;
    }
    if (m->status != GRV_FINISHED || (!ok && !always_act) || !act->code.len)
        return GRV_NIL;
    m->status = GRV_FINISHED;
    map->highpassed = 0;
    int mi = curr;
    int32_t is = GRV_NIL;
    (void)grv_run(m, act, &mi, curr, &is);
    return m->status == GRV_FINISHED ? is : GRV_NIL;
}

/* Rebuilds the rule map from `start` on (as the FSM would for a match
 * starting there), keeping `pre` slots of pre-context when they exist. */
static void remap(fvsynth_gr *f, int32_t start, int pre)
{
    grv_seg *seg = &f->seg;
    grv_slotmap *map = &f->map;
    int32_t s = start;
    int ctx = 0;
    uint32_t guard = seg->pool_len + 1;
    while (ctx < pre && grv_sl(seg, s) && seg->slots[s].prev != GRV_NIL && guard--) {
        s = seg->slots[s].prev;
        ctx++;
    }
    map->size = 0;
    map->context = ctx;
    map->buf[0] = grv_sl(seg, s) ? seg->slots[s].prev : GRV_NIL;
    guard = seg->pool_len + 1;
    for (; s != GRV_NIL && grv_sl(seg, s) && map->size < GRV_MAX_SLOTS && guard--;
         s = seg->slots[s].next)
        grv_map_begin(map)[map->size++] = s;
    grv_map_begin(map)[map->size++] = GRV_NIL;
}

static int run(const fvfuzz_ctx *ctx, const uint8_t *data, size_t size)
{
    fvfuzz_input in;
    fvfuzz_split(data, size, GR_CODE_TRAILER, &in);
    size_t cons_len = insn_prefix(in.payload, in.payload_len, fvfuzz_u16(&in, 2));
    uint8_t flags = fvfuzz_u8(&in, 4);
    int sort = 1 + fvfuzz_u8(&in, 5) % GR_CODE_MAX_SORT;
    int pre = fvfuzz_u8(&in, 6) % sort;
    int nslots = 1 + fvfuzz_u8(&in, 7) % FVSYNTH_GR_MAX_SLOTS;
    if (nslots < sort)
        nslots = sort;
    uint8_t gids[FVSYNTH_GR_MAX_SLOTS];
    for (int i = 0; i < nslots; i++)
        gids[i] = fvfuzz_u8(&in, 8 + (size_t)(i % 8));

    fvfuzz_alloc fa;
    fvfuzz_alloc_init(&fa, fvfuzz_u16(&in, 0));
    fvsynth_gr f;
    fvsynth_gr_face(&f, &fa.a);
    uint64_t op_counts[256];
    memset(op_counts, 0, sizeof op_counts);

    grv_verify_ctx v;
    memset(&v, 0, sizeof v);
    v.face = &f.face;
    v.silf = &f.face.silf;
    v.pass_type = (flags & 7) % 5;
    v.rule_length = sort;
    v.pre_context = pre;
    grv_code cons = {.code = {in.payload, cons_len}};
    grv_code act = {.code = {in.payload + cons_len, in.payload_len - cons_len},
                    .offset = (uint32_t)cons_len};
    fv_error err;
    int accepted = 1;
    if (cons.code.len) {
        v.is_constraint = 1;
        if (grv_verify(&v, cons, &err) != FV_OK) {
            fvfuzz_log_error(ctx, "constraint rejected", &err);
            accepted = 0;
        }
    }
    if (accepted && act.code.len) {
        v.is_constraint = 0;
        if (grv_verify(&v, act, &err) != FV_OK) {
            fvfuzz_log_error(ctx, "action rejected", &err);
            accepted = 0;
        }
    }
    /* The machine runs the decoded form, as the Silf loader makes it. */
    if (accepted && (grv_compile(&f.mem, &cons) != FV_OK || grv_compile(&f.mem, &act) != FV_OK))
        accepted = 0;
    if (accepted && fvsynth_gr_segment(&f, gids, nslots, (flags & 8) != 0) == 0) {
        grv_seg *seg = &f.seg;
        if ((ctx->trace && ctx->log) || FVFUZZ_PLANTED_BUG) {
            seg->trace = fvfuzz_gr_trace_event;
            seg->trace_user = (void *)ctx;
        }
        seg->op_counts = op_counts;
        f.face.silf.passes[0].flags = 0;
        remap(&f, seg->first, 0);
        /* Start at the pre-context's end so the rule fits the stream. */
        for (int k = 0; k < pre; k++)
            remap(&f, seg->slots[grv_map_begin(&f.map)[f.map.context]].next, pre);
        int32_t next = apply_rule(&f, &cons, &act, sort, pre, (flags & 0x10) != 0);
        if ((flags & 0x20) && next != GRV_NIL && grv_sl(seg, next) &&
            !(seg->slots[next].flags & GRV_SF_DELETED)) {
            remap(&f, next, pre);
            (void)apply_rule(&f, &cons, &act, sort, pre, (flags & 0x10) != 0);
        }
        if (ctx->log)
            fprintf(ctx->log, "machine status %d, %d slots\n", (int)f.m.status,
                    (int)seg->slot_count);
        if ((flags & 0x40) && f.m.status == GRV_FINISHED && seg->first != GRV_NIL) {
            float advx = 0, advy = 0;
            grv_position_slots(seg, seg->first, seg->last, (flags & 8) != 0, &advx, &advy);
        }
        if (ctx->gr_opcodes)
            for (int k = 0; k < 256; k++)
                ctx->gr_opcodes[k] += op_counts[k];
    }
    grv_code_free(&f.mem, &cons);
    grv_code_free(&f.mem, &act);
    fvsynth_gr_free(&f);
    fvfuzz_alloc_check_clean(&fa, "gr_code");
    return 0;
}

FVFUZZ_TARGET(gr_code, GR_CODE_MAX_INPUT, run)
FVFUZZ_CODE_MUTATOR(gr_code)
