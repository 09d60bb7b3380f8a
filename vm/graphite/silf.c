/* Silf table: the rules.  Versions 2.0 to 5.x (5.x may be LZ4-compressed).
 * Layout per the Graphite Table Format (GTF) "Silf" section; only the first
 * subtable is used, as graphite2 does for a segment without a script tag. */
#include <stdlib.h>
#include <string.h>

#include "common/compat.h"
#include "graphite/machine.h"

#define SILF_FAIL(off, msg) \
    do { st = sfnt_fail(err, FV_E_GR_BAD_SILF, SFNT_TAG_Silf, (off), (msg)); goto fail; } while (0)
#define RD(expr, off, msg) \
    do { if ((expr) != FV_OK) SILF_FAIL((off), (msg)); } while (0)

/* n big-endian 16-bit values from off in s into out, the range checked
 * once: a loop without exits, which the compiler vectorises (a check per
 * value was most of loading a pass's state machine). */
FV_NOINLINE static fv_status read_u16s(fv_span s, uint64_t off, uint16_t *restrict out, size_t n)
{
    if (n > (uint64_t)s.len / 2 || !fv_span_has(s, off, 2 * (uint64_t)n))
        return FV_E_TRUNCATED;
    const uint8_t *restrict p = s.data + off;
    for (size_t i = 0; i < n; i++)
        out[i] = (uint16_t)((unsigned)p[2 * i] << 8 | p[2 * i + 1]);
    return FV_OK;
}

/* Whether any of the n values is at least limit: a loop without exits,
 * which the compiler vectorises (a pass's state machine has thousands of
 * transitions, each checked). */
FV_NOINLINE static int any_at_least(const uint16_t *v, size_t n, uint16_t limit)
{
    unsigned out = 0;
    for (size_t i = 0; i < n; i++)
        out |= v[i] >= limit;
    return out != 0;
}

/* graphite2's load-time analysis of action code, which decides where it
 * inserts temporary copies (its TEMP_COPY): walking every opcode (dead code
 * after a return included), `slotref` counts Next/CopyNext (Insert takes one
 * back while it is >= 0); arriving at slot k with Next starts a fresh record
 * for k whose copy point is the opcode after that Next (slot 0: the start).
 * PutGlyph, PutSubs and Assoc (and PutCopy from another slot) mark the
 * current slot changed; PutSubs, PutCopy and every opcode that reads a slot
 * (slot and glyph attributes, features, metrics) mark that slot
 * referenced (opcodes.def's rule classes GRV_R_CHANGES, GRV_R_COPIES and
 * GRV_R_READS).  Every slot below the final slotref that is both changed and
 * referenced gets a copy of the current slot into its map entry at its copy
 * point, so later reads of that entry (PutCopy 0 included) see the slot as
 * it was; copies are garbage afterwards.  Measured against graphite2 1.3.14
 * (gr_diff F-16): "PutGlyph; PutCopy 0; Next; RetZero" leaves the glyph,
 * without the trailing Next it changes it. */
static uint32_t plan_copies(grv_rule *r, uint32_t plan[GRV_NUM_CONTEXTS])
{
    fv_span c = r->action.code;
    uint32_t at[GRV_NUM_CONTEXTS];
    uint8_t changed[GRV_NUM_CONTEXTS], referenced[GRV_NUM_CONTEXTS];
    memset(at, 0, sizeof at);
    memset(changed, 0, sizeof changed);
    memset(referenced, 0, sizeof referenced);
    int slotref = 0;
    uint32_t pc = 0, len = c.len > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uint32_t)c.len;
    while (pc < len) {
        grv_insn in;
        uint32_t n = grv_decode_insn(c, pc, &in);
        if (!n)
            break; /* code the verifier refuses: it never runs */
        /* what it does to the slots, from its opcodes.def rule class:
         * reads of a slot reference it too (gr_diff F-22b, measured:
         * "PutCopy 1; PushGlyphMetric advance 0; Next" reads the glyph
         * slot 0 had before the PutCopy) */
        uint32_t rule = grv_ops[in.op].rule;
        int mark_changed = (rule & GRV_R_CHANGES) || ((rule & GRV_R_COPIES) && in.slot != 0);
        int has_ref = (rule & GRV_R_READS) != 0;
        if (rule & GRV_R_DELETE)
            r->deletes = 1;
        if (rule & GRV_R_NEXT) {
            slotref++;
            if (slotref >= 0 && slotref < GRV_NUM_CONTEXTS) {
                at[slotref] = pc + n;
                changed[slotref] = referenced[slotref] = 0;
            }
        } else if ((rule & GRV_R_INSERT) && slotref >= 0) {
            slotref--;
        }
        int ref = in.slot; /* the slot offset argument, decoded once */
        if (mark_changed && slotref >= 0 && slotref < GRV_NUM_CONTEXTS)
            changed[slotref] = 1;
        if (has_ref && slotref + ref >= 0 && slotref + ref < GRV_NUM_CONTEXTS)
            referenced[slotref + ref] = 1;
        pc += n;
    }
    uint32_t end = slotref < 0 ? 0 : slotref > GRV_NUM_CONTEXTS ? GRV_NUM_CONTEXTS : (uint32_t)slotref;
    uint32_t count = 0;
    for (uint32_t k = 0; k < end; k++)
        if (changed[k] && referenced[k])
            plan[count++] = at[k];
    /* ascending already: the records below the final slotref were started
     * in order on its last climb (record 0 at offset 0) */
    if (count)
        r->deletes = 1;
    return count;
}

static int rule_entry_cmp(const grv_pass *p, uint16_t a, uint16_t b)
{
    /* graphite2's RuleEntry order: longer rules first, then lower index. */
    if (p->rules[a].sort != p->rules[b].sort)
        return p->rules[a].sort > p->rules[b].sort ? -1 : 1;
    return a < b ? -1 : (a > b);
}

/* The most instructions grv_compile_into writes for code with ncopies
 * planned copies: one per byte at most (each takes a byte or more, an
 * undecodable one ends the code), one per copy and the two sentinels;
 * code too long to run gets one. */
static size_t code_bound(const grv_code *c, uint32_t ncopies)
{
    if (c->code.len == 0)
        return 0;
    if (c->code.len > GRV_MAX_CODE_BYTES)
        return 1;
    return c->code.len + ncopies + 2;
}

/* The first `used` decoded instructions of buf moved to a block of `cap`
 * (buf freed either way); NULL when out of memory. */
static grv_insn *move_insns(fv_mem *mem, grv_insn *buf, size_t used, size_t cap)
{
    grv_insn *nb = fv_mem_alloc(mem, cap * sizeof(grv_insn));
    if (nb)
        memcpy(nb, buf, used * sizeof(grv_insn));
    fv_mem_free(mem, buf);
    return nb;
}

/* Decodes every code of pass p (each rule's constraint and action, then
 * the pass constraint) into one block, grv_pass.insns: one block per code
 * cost a header and malloc's rounding each (Annapurnarc2: 1,122 blocks,
 * 45 KiB of its face).  Built in a block sized by code_bound (grown when
 * the copies need more), then moved to one of the exact size; the codes'
 * pointers are set once the block stays.  FV_E_NOMEM only. */
static fv_status compile_pass(fv_mem *mem, grv_pass *p)
{
    size_t cap = code_bound(&p->pass_constraint, 0), used = 0;
    for (uint32_t i = 0; i < p->num_rules; i++)
        cap += code_bound(&p->rules[i].constraint, 0) + code_bound(&p->rules[i].action, 0);
    grv_insn *buf = fv_mem_alloc(mem, (cap ? cap : 1) * sizeof(grv_insn));
    if (!buf)
        return FV_E_NOMEM;
    for (uint32_t i = 0; i <= p->num_rules; i++) {
        grv_code *codes[2];
        uint32_t plan[GRV_NUM_CONTEXTS], ncopies = 0, nc = 0;
        if (i == p->num_rules) {
            codes[nc++] = &p->pass_constraint;
        } else {
            /* the copy plan is read only while the action compiles, which
             * places the copies in its decoded code: it lives on the stack
             * (it was a block per rule that plans any: 769 on Awami
             * Nastaliq, 28 KiB with their headers) */
            ncopies = plan_copies(&p->rules[i], plan);
            codes[nc++] = &p->rules[i].constraint;
            codes[nc++] = &p->rules[i].action;
        }
        for (uint32_t k = 0; k < nc; k++) {
            uint32_t kc = k == 1 ? ncopies : 0; /* the action's */
            size_t need = code_bound(codes[k], kc);
            if (need > cap - used) {
                cap = cap * 2 > used + need ? cap * 2 : used + need;
                if (!(buf = move_insns(mem, buf, used, cap)))
                    return FV_E_NOMEM;
            }
            grv_compile_into(codes[k], k == 1 ? plan : NULL, kc, buf + used);
            used += codes[k]->num_insns;
        }
    }
    if (used < cap && !(buf = move_insns(mem, buf, used, used ? used : 1)))
        return FV_E_NOMEM;
    p->insns = buf;
    grv_insn *at = buf;
    for (uint32_t i = 0; i <= p->num_rules; i++) {
        grv_code *codes[2] = {&p->pass_constraint, NULL};
        if (i < p->num_rules) {
            codes[0] = &p->rules[i].constraint;
            codes[1] = &p->rules[i].action;
        }
        for (uint32_t k = 0; k < 2 && codes[k]; k++) {
            codes[k]->insns = codes[k]->num_insns ? at : NULL;
            at += codes[k]->num_insns;
        }
    }
    return FV_OK;
}

static fv_status load_pass(fv_gr_face *face, grv_silf *s, uint32_t pi, uint64_t start,
                           uint64_t end, fv_error *err)
{
    fv_status st = FV_OK;
    uint16_t *ocons = NULL, *oacts = NULL;
    grv_pass *p = &s->passes[pi];
    fv_mem *mem = face->mem;
    fv_span sub;
    if (end < start || fv_span_sub(s->data, start, end - start, &sub) != FV_OK)
        return sfnt_fail(err, FV_E_GR_BAD_SILF, SFNT_TAG_Silf, start, "pass out of range");
    fv_cursor c = fv_cursor_at(sub, 0);
    uint16_t num_rules = 0, fsm_off = 0;
    uint32_t pc_code = 0, rc_code = 0, a_code = 0, o_debug = 0;
    uint8_t b;
    RD(fv_cur_u8(&c, &p->flags), start, "pass header");
    RD(fv_cur_u8(&c, &p->max_rule_loop), start, "pass header");
    RD(fv_cur_u8(&c, &p->max_rule_context), start, "pass header");
    RD(fv_cur_u8(&c, &p->max_backup), start, "pass header");
    RD(fv_cur_u16(&c, &num_rules), start, "pass header");
    if (s->version >= 0x00020000) {
        RD(fv_cur_u16(&c, &fsm_off), start, "pass header");
        RD(fv_cur_u32(&c, &pc_code), start, "pass header");
        RD(fv_cur_u32(&c, &rc_code), start, "pass header");
        RD(fv_cur_u32(&c, &a_code), start, "pass header");
        RD(fv_cur_u32(&c, &o_debug), start, "pass header");
    }
    (void)fsm_off;
    (void)o_debug;
    p->num_coll_runs = p->flags & 7u;
    p->kern_colls = (uint8_t)((p->flags >> 3) & 3u);
    p->reverse_dir = (uint8_t)((p->flags >> 5) & 1u);
    p->num_rules = num_rules;
    RD(fv_cur_u16(&c, &p->num_rows), start + c.pos, "fsm header");
    RD(fv_cur_u16(&c, &p->num_transitional), start + c.pos, "fsm header");
    RD(fv_cur_u16(&c, &p->num_success), start + c.pos, "fsm header");
    RD(fv_cur_u16(&c, &p->num_columns), start + c.pos, "fsm header");
    if (p->num_transitional > p->num_rows || p->num_success > p->num_rows ||
        (uint32_t)p->num_transitional + p->num_success < p->num_rows)
        SILF_FAIL(start + c.pos, "inconsistent FSM state counts");
    uint16_t num_range;
    RD(fv_cur_u16(&c, &num_range), start + c.pos, "range header");
    RD(fv_cur_skip(&c, 6), start + c.pos, "range header");
    /* graphite2's pass sanity checks */
    if (end - start < 40)
        SILF_FAIL(start, "pass shorter than its header");
    if ((p->flags & 0x1fu) && (pi < s->i_pos || !s->attr_collisions || !(s->flags & 0x20)))
        SILF_FAIL(start, "collision flags on a pass that cannot use them");
    /* COMPAT(graphite2): collision flags (any of bits 0-4) also need Glat
     * octaboxes, i.e. a Glat version of 3.0 or more read as a signed number:
     * measured with Silf flag 0x20, attCollisions 3 and one positioning
     * pass's flags set to 0x01, 0x02, 0x04, 0x08, 0x10 or 0x18 on Padauk
     * (Glat 1.0: refused) and on Padauk 3.18 (Glat 3.0: accepted; Glat
     * version 0xFFFFFFFF: refused); 0x20, 0x40, 0x80 are accepted. */
    if ((p->flags & 0x1fu) && !face->collision_boxes)
        SILF_FAIL(start, "collision flags without Glat version 3 octaboxes");
    /* COMPAT(graphite2): measured on Awami Nastaliq with one pass's flags
     * rewritten: a pass without rules must run collision shifts (flags bits
     * 0-2); kerning or direction bits alone do not make it valid. */
    if (num_rules == 0 && p->num_coll_runs == 0)
        SILF_FAIL(start, "pass with no rules and no collision shifts");
    if ((num_rules && num_range == 0) || p->num_columns > 0x7fff)
        SILF_FAIL(start, "pass without glyph ranges or with too many columns");
    if (p->max_rule_loop < 1)
        p->max_rule_loop = 1; /* graphite2 runs every pass at least once per slot */
    if (c.pos + 6u * num_range - 2 > sub.len)
        SILF_FAIL(start + c.pos, "glyph ranges run off the pass");
    /* COMPAT(graphite2): the column map covers glyphs up to the last range's
     * end; ranges must lie inside it and must not overlap. */
    uint32_t maxg = 0;
    if (num_range) {
        uint16_t last;
        RD(fv_rd_u16(sub, c.pos + 6u * num_range - 4, &last), start + c.pos, "ranges");
        maxg = (uint32_t)last + 1;
        /* COMPAT(graphite2): measured on Padauk 3.18, small.ttf and
         * general.ttf: a last range ending at glyph 0xFFFE is accepted, one
         * ending at 0xFFFF refused (whatever its first glyph). */
        if (num_rules && last == 0xffffu)
            SILF_FAIL(start + c.pos + 6u * num_range - 4, "glyph range ends at glyph 0xFFFF");
    }
    p->num_cols_glyphs = maxg;
    if (maxg && num_rules) {
        p->cols = fv_mem_array(mem, maxg, sizeof(uint16_t));
        if (!p->cols)
            SILF_FAIL(start, "out of memory");
        memset(p->cols, 0xff, (size_t)maxg * sizeof(uint16_t));
    } else {
        p->num_cols_glyphs = 0;
    }
    for (uint32_t i = 0; i < num_range; i++) {
        uint16_t first, last, col;
        RD(fv_cur_u16(&c, &first), start + c.pos, "ranges");
        RD(fv_cur_u16(&c, &last), start + c.pos, "ranges");
        RD(fv_cur_u16(&c, &col), start + c.pos, "ranges");
        if (!num_rules)
            continue; /* graphite2 reads ranges only for passes with rules */
        if (first > last || (uint32_t)last + 1 > maxg || col >= p->num_columns)
            SILF_FAIL(start + c.pos - 6, "bad glyph range");
        for (uint32_t g = first; g <= last; g++) {
            if (p->cols[g] != 0xffff)
                SILF_FAIL(start + c.pos - 6, "glyph in two ranges");
            p->cols[g] = col;
        }
    }
    /* Rule map. */
    p->state_rule_off = fv_mem_array(mem, (size_t)p->num_success + 1, sizeof(uint32_t));
    if (!p->state_rule_off)
        SILF_FAIL(start, "out of memory");
    for (uint32_t i = 0; i <= p->num_success; i++) {
        uint16_t v;
        RD(fv_cur_u16(&c, &v), start + c.pos, "rule map offsets");
        p->state_rule_off[i] = v;
    }
    uint32_t nmap = p->state_rule_off[p->num_success];
    p->state_rules = fv_mem_array(mem, nmap ? nmap : 1, sizeof(uint16_t));
    if (!p->state_rules)
        SILF_FAIL(start, "out of memory");
    for (uint32_t i = 0; i < nmap; i++) {
        RD(fv_cur_u16(&c, &p->state_rules[i]), start + c.pos, "rule map");
        if (p->state_rules[i] >= num_rules)
            SILF_FAIL(start + c.pos - 2, "rule map names a rule beyond numRules");
    }
    uint8_t mn, mx;
    RD(fv_cur_u8(&c, &mn), start + c.pos, "pre-context");
    RD(fv_cur_u8(&c, &mx), start + c.pos, "pre-context");
    if (mn > mx)
        SILF_FAIL(start + c.pos - 2, "minRulePreContext > maxRulePreContext");
    p->min_pre = mn;
    p->max_pre = mx;
    p->start_states = fv_mem_array(mem, (size_t)(mx - mn) + 1, sizeof(uint16_t));
    if (!p->start_states)
        SILF_FAIL(start, "out of memory");
    for (uint32_t i = 0; i <= (uint32_t)(mx - mn); i++) {
        RD(fv_cur_u16(&c, &p->start_states[i]), start + c.pos, "start states");
        if (num_rules && p->start_states[i] >= p->num_rows)
            SILF_FAIL(start + c.pos - 2, "start state beyond the FSM");
    }
    p->rules = fv_mem_array(mem, num_rules ? num_rules : 1, sizeof(grv_rule));
    if (!p->rules)
        SILF_FAIL(start, "out of memory");
    for (uint32_t i = 0; i < num_rules; i++)
        RD(fv_cur_u16(&c, &p->rules[i].sort), start + c.pos, "rule sort keys");
    for (uint32_t i = 0; i < num_rules; i++) {
        RD(fv_cur_u8(&c, &p->rules[i].pre_context), start + c.pos, "rule pre-contexts");
        /* graphite2: at most 63 slots, and the pre-context is shorter than
         * the rule and within the pass's pre-context bounds */
        const grv_rule *r = &p->rules[i];
        if (r->sort > GRV_MAX_SLOTS - 1 || r->pre_context >= r->sort ||
            r->pre_context > p->max_pre || r->pre_context < p->min_pre)
            SILF_FAIL(start + c.pos - 1, "rule length or pre-context out of range");
    }
    uint16_t pconstraint_len = 0;
    if (s->version >= 0x00020000) {
        RD(fv_cur_u8(&c, &p->collision_threshold), start + c.pos, "collision threshold");
        RD(fv_cur_u16(&c, &pconstraint_len), start + c.pos, "pass constraint length");
    }
    ocons = fv_mem_array(mem, (size_t)num_rules + 1, sizeof(uint16_t));
    oacts = fv_mem_array(mem, (size_t)num_rules + 1, sizeof(uint16_t));
    if (!ocons || !oacts)
        SILF_FAIL(start, "out of memory");
    for (uint32_t i = 0; i <= num_rules && st == FV_OK; i++)
        if (fv_cur_u16(&c, &ocons[i]) != FV_OK)
            st = FV_E_TRUNCATED;
    for (uint32_t i = 0; i <= num_rules && st == FV_OK; i++)
        if (fv_cur_u16(&c, &oacts[i]) != FV_OK)
            st = FV_E_TRUNCATED;
    if (st != FV_OK) {
        st = FV_OK;
        SILF_FAIL(start + c.pos, "rule code offsets");
    }
    /* Transition table (it must leave room for the code after it). */
    size_t ntrans = (size_t)p->num_transitional * p->num_columns;
    if (c.pos >= sub.len || 2u * (uint64_t)ntrans >= sub.len - c.pos)
        SILF_FAIL(start + c.pos, "state transitions run off the pass");
    /* every entry is written below: not cleared first */
    p->trans = fv_mem_alloc(mem, (ntrans ? ntrans : 1) * sizeof(uint16_t));
    if (!p->trans)
        SILF_FAIL(start, "out of memory");
    RD(read_u16s(c.s, c.pos, p->trans, ntrans), start + c.pos, "state transitions");
    if (num_rules && any_at_least(p->trans, ntrans, p->num_rows)) {
        for (size_t i = 0; i < ntrans; i++)
            if (p->trans[i] >= p->num_rows)
                SILF_FAIL(start + c.pos + 2 * (uint64_t)i, "transition to a state beyond the FSM");
    }
    c.pos += 2 * (uint64_t)ntrans;
    RD(fv_cur_u8(&c, &b), start + c.pos, "reserved byte");
    /* Code blocks: pcCode/rcCode/aCode (from the subtable start) must sit
     * exactly where the tables end, one after the other. */
    if (s->version < 0x00020000) {
        pc_code = (uint32_t)(start + c.pos);
        rc_code = pc_code + pconstraint_len;
        a_code = rc_code + ocons[num_rules];
    }
    if (pc_code != start + c.pos || (uint64_t)rc_code != (uint64_t)pc_code + pconstraint_len ||
        (uint64_t)a_code != (uint64_t)rc_code + ocons[num_rules] ||
        (uint64_t)a_code + oacts[num_rules] > end)
        SILF_FAIL(start + c.pos, "code blocks not where the pass tables end");
    uint64_t rc_end = a_code;
    /* success states name rule map ranges that start inside the map */
    if (num_rules) {
        uint32_t nm = p->state_rule_off[p->num_success];
        for (uint32_t k = 0; k < p->num_success; k++) {
            uint32_t rb = p->state_rule_off[k], re = p->state_rule_off[k + 1];
            if (rb >= nm || re > nm || rb > re)
                SILF_FAIL(start, "bad rule map range for a success state");
        }
    }
    p->pass_constraint.offset = pc_code;
    if (fv_span_sub(s->data, pc_code, pconstraint_len, &p->pass_constraint.code) != FV_OK)
        SILF_FAIL(pc_code, "pass constraint past the end of the table");
    (void)rc_end;
    /* A zero constraint offset means "no constraint" (GTF); a constraint ends
     * at the next non-zero offset (or the end of the constraint block). */
    for (uint32_t i = 0; i < num_rules; i++) {
        grv_rule *r = &p->rules[i];
        if (ocons[i] != 0) {
            uint32_t e = ocons[num_rules];
            for (uint32_t k = i + 1; k < num_rules; k++)
                if (ocons[k] != 0) {
                    e = ocons[k];
                    break;
                }
            if (e < ocons[i]) {
                SILF_FAIL(rc_code + ocons[i], "constraint offsets decrease");
            }
            r->constraint.offset = rc_code + ocons[i];
            /* The code must lie inside the subtable before anything reads it
             * (the verifier runs later). */
            if (fv_span_sub(s->data, r->constraint.offset, (uint64_t)e - ocons[i],
                            &r->constraint.code) != FV_OK) {
                SILF_FAIL(r->constraint.offset, "constraint code past the end of the table");
            }
        }
        if (oacts[i + 1] < oacts[i]) {
            SILF_FAIL(a_code + oacts[i], "action offsets decrease");
        }
        r->action.offset = a_code + oacts[i];
        if (fv_span_sub(s->data, r->action.offset, (uint64_t)oacts[i + 1] - oacts[i],
                        &r->action.code) != FV_OK) {
            SILF_FAIL(r->action.offset, "action code past the end of the table");
        }
    }
    /* COMPAT(graphite2): a pass whose rules have no code at all (every
     * constraint and every action empty) fails the face; the pass
     * constraint does not count.  Measured on general.ttf, small.ttf,
     * Padauk 3.18 and Awami Nastaliq with the action (and constraint)
     * offsets rewritten: one rule with any code is enough, an empty action
     * alone is fine. */
    if (num_rules) {
        uint64_t code = 0;
        for (uint32_t i = 0; i < num_rules; i++)
            code += p->rules[i].constraint.code.len + p->rules[i].action.code.len;
        if (!code)
            SILF_FAIL(start, "pass rules without any code");
    }
    if (compile_pass(mem, p) != FV_OK) {
        st = sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_Silf, start, "decoded rule code");
        goto fail;
    }
    /* Sort each success state's rules as graphite2 matches them. */
    for (uint32_t i = 0; i < p->num_success; i++) {
        uint32_t a = p->state_rule_off[i], e = p->state_rule_off[i + 1];
        for (uint32_t j = a + 1; j < e; j++) {
            uint16_t v = p->state_rules[j];
            uint32_t k = j;
            while (k > a && rule_entry_cmp(p, p->state_rules[k - 1], v) > 0) {
                p->state_rules[k] = p->state_rules[k - 1];
                k--;
            }
            p->state_rules[k] = v;
        }
    }
fail:
    fv_mem_free(mem, ocons);
    fv_mem_free(mem, oacts);
    return st;
}

static fv_status verify_pass(fv_gr_face *face, const grv_silf *s, uint32_t pi, fv_error *err)
{
    const grv_pass *p = &s->passes[pi];
    grv_verify_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.face = face;
    ctx.silf = s;
    /* graphite2's pass types by the Silf pass indexes */
    ctx.pass_type = pi >= s->i_just  ? GRV_PASS_JUSTIFICATION
                    : pi >= s->i_pos ? GRV_PASS_POSITIONING
                    : pi >= s->i_subst ? GRV_PASS_SUBSTITUTE
                                       : GRV_PASS_LINEBREAK;
    ctx.pass_index = pi;
    fv_status st;
    if (p->pass_constraint.code.len) {
        /* COMPAT(graphite2): the pass constraint is checked with rule 0's
         * pre-context and length, in a pass of unknown type. */
        grv_verify_ctx pc = ctx;
        pc.is_constraint = 1;
        pc.pass_type = GRV_PASS_UNKNOWN;
        pc.rule_length = p->num_rules ? p->rules[0].sort : 0;
        pc.pre_context = p->num_rules ? p->rules[0].pre_context : 0;
        pc.rule_index = UINT32_MAX;
        st = grv_verify(&pc, p->pass_constraint, err);
        if (st != FV_OK)
            return st;
    }
    for (uint32_t r = 0; r < p->num_rules; r++) {
        ctx.rule_index = r;
        ctx.rule_length = p->rules[r].sort;
        ctx.pre_context = p->rules[r].pre_context;
        if (p->rules[r].constraint.code.len) {
            ctx.is_constraint = 1;
            st = grv_verify(&ctx, p->rules[r].constraint, err);
            if (st != FV_OK)
                return st;
        }
        if (p->rules[r].action.code.len) {
            ctx.is_constraint = 0;
            st = grv_verify(&ctx, p->rules[r].action, err);
            if (st != FV_OK)
                return st;
        }
    }
    return FV_OK;
}

static fv_status silf_verify(fv_gr_face *face, const grv_silf *s, fv_error *err)
{
    for (uint32_t i = 0; i < s->num_passes; i++) {
        fv_status st = verify_pass(face, s, i, err);
        if (st != FV_OK)
            return st;
    }
    return FV_OK;
}

static void silf_free(fv_mem *mem, grv_silf *s);
static fv_status load_subtable(fv_gr_face *face, grv_silf *s, fv_span table, uint32_t version,
                               uint64_t off0, uint64_t off1, fv_error *err);

fv_status grv_silf_load(fv_gr_face *face, fv_span table, fv_error *err)
{
    fv_status st = FV_OK;
    uint32_t version;
    RD(fv_rd_u32(table, 0, &version), 0, "version");
    if (version < 0x00020000 || version >= 0x00060000)
        return sfnt_fail(err, FV_E_BAD_VERSION, SFNT_TAG_Silf, 0, "unsupported Silf version");
    uint16_t num_silf;
    uint64_t base;
    if (version >= 0x00030000) {
        RD(fv_rd_u16(table, 8, &num_silf), 8, "numSilf");
        base = 12;
    } else {
        RD(fv_rd_u16(table, 4, &num_silf), 4, "numSilf");
        base = 8;
    }
    if (num_silf == 0)
        SILF_FAIL(base, "no Silf subtable");
    /* graphite2 loads every subtable and fails the face if any fails; we
     * keep the first (the one used without a script tag). */
    for (uint32_t i = 0; i < num_silf; i++) {
        uint32_t o0, o1 = (uint32_t)table.len;
        RD(fv_rd_u32(table, base + 4u * i, &o0), base + 4u * i, "subtable offset");
        if (i + 1 < num_silf)
            RD(fv_rd_u32(table, base + 4u * (i + 1), &o1), base + 4u * (i + 1), "subtable offset");
        if (o0 >= table.len || o1 > table.len || o1 < o0)
            SILF_FAIL(base + 4u * i, "subtable offset out of the table");
        if (i == 0) {
            st = load_subtable(face, &face->silf, table, version, o0, o1, err);
            if (st != FV_OK)
                return st;
        } else {
            grv_silf extra;
            memset(&extra, 0, sizeof extra);
            st = load_subtable(face, &extra, table, version, o0, o1, err);
            if (st == FV_OK)
                st = silf_verify(face, &extra, err);
            silf_free(face->mem, &extra);
            if (st != FV_OK)
                return st;
        }
    }
    return FV_OK;
fail:
    return st;
}

static fv_status load_subtable(fv_gr_face *face, grv_silf *s, fv_span table, uint32_t version,
                               uint64_t off0, uint64_t off1, fv_error *err)
{
    fv_status st = FV_OK;
    uint32_t *opass = NULL; /* pass offsets: freed at the one exit below */
    s->version = version;
    RD(fv_span_sub(table, off0, off1 - off0, &s->data), off0, "subtable");
    fv_cursor c = fv_cursor_at(s->data, 0);
    uint16_t pass_off = 0, pseudo_off = 0;
    if (version >= 0x00030000) {
        RD(fv_cur_u32(&c, &s->rule_version), off0, "ruleVersion");
        RD(fv_cur_u16(&c, &pass_off), off0, "passOffset");
        RD(fv_cur_u16(&c, &pseudo_off), off0, "pseudosOffset");
    }
    int16_t asc, desc;
    RD(fv_cur_u16(&c, &s->max_glyph_id), off0 + c.pos, "maxGlyphID");
    RD(fv_cur_s16(&c, &asc), off0 + c.pos, "extraAscent");
    RD(fv_cur_s16(&c, &desc), off0 + c.pos, "extraDescent");
    uint8_t *fields[] = {&s->num_passes, &s->i_subst, &s->i_pos, &s->i_just, &s->i_bidi,
                         &s->flags, NULL, NULL, &s->attr_pseudo, &s->attr_break,
                         &s->attr_dir, &s->attr_mirror, &s->attr_skip_passes,
                         &s->num_jlevels};
    for (size_t i = 0; i < FV_ARRAY_LEN(fields); i++) {
        uint8_t v;
        RD(fv_cur_u8(&c, &v), off0 + c.pos, "subtable header");
        if (fields[i])
            *fields[i] = v;
    }
    /* graphite2: the largest glyph id must be a glyph of the face, and the
     * justification levels must leave room for the rest. */
    if (s->max_glyph_id >= face->num_glyphs)
        SILF_FAIL(off0, "maxGlyphID beyond the font's glyphs");
    if (c.pos + 8u * s->num_jlevels >= s->data.len)
        SILF_FAIL(off0 + c.pos, "justification levels run off the subtable");
    for (uint32_t j = 0; j < s->num_jlevels; j++) {
        uint8_t jb[8];
        for (int k = 0; k < 8; k++)
            RD(fv_cur_u8(&c, &jb[k]), off0 + c.pos, "justification levels");
        if (j < GRV_MAX_JLEVELS)
            memcpy(s->jattr[j], jb, 4);
    }
    /* The field GTF calls numLigComp is the ligature attribute (aLig). */
    RD(fv_cur_u16(&c, &s->num_lig_comp), off0 + c.pos, "aLig");
    RD(fv_cur_u8(&c, &s->num_user), off0 + c.pos, "numUserDefn");
    RD(fv_cur_u8(&c, &s->max_comp_per_lig), off0 + c.pos, "maxCompPerLig");
    RD(fv_cur_u8(&c, &s->direction), off0 + c.pos, "direction");
    /* COMPAT(graphite2): the stored direction is 1-based (1 = ltr, 2 = rtl). */
    s->direction = (uint8_t)(s->direction - 1u);
    RD(fv_cur_u8(&c, &s->attr_collisions), off0 + c.pos, "attCollisions");
    RD(fv_cur_skip(&c, 3), off0 + c.pos, "reserved");
    uint8_t ncrit, nscript;
    RD(fv_cur_u8(&c, &ncrit), off0 + c.pos, "numCritFeatures");
    RD(fv_cur_skip(&c, 2u * ncrit + 1u), off0 + c.pos, "critFeatures");
    if (c.pos >= s->data.len)
        SILF_FAIL(off0 + c.pos, "critical features run off the subtable");
    RD(fv_cur_u8(&c, &nscript), off0 + c.pos, "numScriptTag");
    RD(fv_cur_skip(&c, 4u * nscript), off0 + c.pos, "scriptTags");
    if (c.pos + 2 + 4 >= s->data.len)
        SILF_FAIL(off0 + c.pos, "script tags run off the subtable");
    RD(fv_cur_u16(&c, &s->lb_gid), off0 + c.pos, "lbGID");
    (void)pass_off;
    uint64_t opass_pos = c.pos;
    uint32_t passes_start;
    RD(fv_rd_u32(s->data, opass_pos, &passes_start), off0 + c.pos, "pass offsets");
    /* graphite2's subtable sanity checks, in its order.  COMPAT(graphite2):
     * attCollisions must leave its five collision attributes inside
     * numAttribs, a bound taken without sign: with fewer than 5 attributes
     * any attCollisions passes (measured on Dai Banna, 3 attributes:
     * attCollisions 1 and 255 load; Akatab, 38: 32 loads, 33 does not). */
    uint32_t nattrs = face->num_attrs;
    if (s->attr_pseudo >= nattrs || s->attr_break >= nattrs || s->attr_dir >= nattrs ||
        s->attr_mirror >= nattrs || (s->attr_collisions && nattrs >= 5 && s->attr_collisions >= nattrs - 5) ||
        s->num_passes > GRV_MAX_PASSES || passes_start >= s->data.len ||
        s->i_pos < s->i_subst || s->i_pos > s->num_passes || s->i_subst > s->num_passes ||
        s->i_just < s->i_pos || s->i_just > s->num_passes ||
        (s->i_bidi != 0xff && (s->i_bidi < s->i_just || s->i_bidi > s->num_passes)) ||
        s->num_lig_comp > 127)
        SILF_FAIL(off0, "subtable header out of range (attributes, pass indexes or aLig)");
    opass = fv_mem_array(face->mem, (size_t)s->num_passes + 1, sizeof(uint32_t));
    if (!opass)
        SILF_FAIL(off0, "out of memory");
    for (uint32_t i = 0; i <= s->num_passes; i++) {
        if (fv_cur_u32(&c, &opass[i]) != FV_OK) {
            SILF_FAIL(off0 + c.pos, "pass offsets");
        }
    }
    (void)pseudo_off;
    RD(fv_cur_u16(&c, &s->num_pseudo), off0 + c.pos, "numPseudo");
    RD(fv_cur_skip(&c, 6), off0 + c.pos, "pseudo search header");
    if (c.pos + 6u * s->num_pseudo >= passes_start) {
        SILF_FAIL(off0 + c.pos, "pseudo map runs into the passes");
    }
    s->pseudos = fv_mem_array(face->mem, s->num_pseudo ? s->num_pseudo : 1, sizeof(grv_pseudo));
    if (!s->pseudos) {
        SILF_FAIL(off0, "out of memory");
    }
    for (uint32_t i = 0; i < s->num_pseudo; i++) {
        /* COMPAT(graphite2): pseudo map entries carry a 32-bit code point
         * in every version 2+ table (fonts in the wild do so). */
        (void)fv_cur_u32(&c, &s->pseudos[i].unicode);
        (void)fv_cur_u16(&c, &s->pseudos[i].gid);
    }
    /* Class map (graphite2's checks): offsets are from the class map start;
     * the first must point just past the offset array, none past the last;
     * linear classes must not overlap backwards; lookup classes must hold
     * their pairs and a consistent search header. */
    uint64_t cls_start = c.pos;
    uint64_t data_len = passes_start > cls_start ? passes_start - cls_start : 0;
    uint32_t wide = version >= 0x00040000 ? 4 : 2;
    if (data_len < 4 || fv_cur_u16(&c, &s->num_classes) != FV_OK ||
        fv_cur_u16(&c, &s->num_linear) != FV_OK || s->num_linear > s->num_classes ||
        ((uint64_t)s->num_classes + 1) * wide > data_len - 4) {
        SILF_FAIL(off0 + cls_start, "class map header");
    }
    uint64_t cls_off = 4 + (uint64_t)wide * (s->num_classes + 1u);
    s->class_off = fv_mem_array(face->mem, (size_t)s->num_classes + 1, sizeof(uint32_t));
    if (!s->class_off) {
        SILF_FAIL(off0, "out of memory");
    }
    uint64_t max_off = 0;
    for (uint32_t i = 0; i <= s->num_classes; i++) {
        uint32_t o = 0;
        uint16_t o16 = 0;
        if (wide == 4) {
            (void)fv_rd_u32(s->data, cls_start + 4 + 4u * i, &o);
        } else {
            (void)fv_rd_u16(s->data, cls_start + 4 + 2u * i, &o16);
            o = o16;
        }
        if (i == 0 && o != cls_off) {
            SILF_FAIL(off0 + cls_start, "class offsets misaligned");
        }
        if (o < cls_off) {
            SILF_FAIL(off0 + cls_start, "class offset before the class data");
        }
        s->class_off[i] = (uint32_t)((o - cls_off) / 2u);
    }
    max_off = s->class_off[s->num_classes];
    if (max_off > (data_len - cls_off) / 2u) {
        SILF_FAIL(off0 + cls_start, "class data past the class map");
    }
    for (uint32_t i = 0; i <= s->num_classes; i++)
        if (s->class_off[i] > max_off) {
            SILF_FAIL(off0 + cls_start, "class offset past the class data");
        }
    if (max_off < (uint64_t)s->num_linear + (uint64_t)(s->num_classes - s->num_linear) * 6u) {
        SILF_FAIL(off0 + cls_start, "class data too small");
    }
    for (uint32_t i = 0; i < s->num_linear; i++)
        if (s->class_off[i] > s->class_off[i + 1]) {
            SILF_FAIL(off0 + cls_start, "linear class offsets decrease");
        }
    s->class_data_len = (uint32_t)max_off;
    s->class_data = fv_mem_array(face->mem, max_off ? max_off : 1, sizeof(uint16_t));
    if (!s->class_data) {
        SILF_FAIL(off0, "out of memory");
    }
    for (uint32_t i = 0; i < max_off; i++)
        (void)fv_rd_u16(s->data, cls_start + cls_off + 2u * i, &s->class_data[i]);
    for (uint32_t i = s->num_linear; i < s->num_classes; i++) {
        uint32_t o = s->class_off[i];
        const uint16_t *lk = s->class_data + o;
        if ((uint64_t)o + 4 > max_off || lk[0] == 0 || (uint64_t)lk[0] * 2 + o + 4 > max_off ||
            (uint16_t)(lk[3] + lk[1]) != lk[0] || ((s->class_off[i + 1] - o) & 1u) != 0) {
            SILF_FAIL(off0 + cls_start, "lookup class header");
        }
    }
    for (uint32_t i = 0; i < s->num_passes; i++) {
        if (opass[i] > opass[i + 1] || opass[i] < passes_start || opass[i + 1] > s->data.len) {
            SILF_FAIL(off0 + opass_pos + 4u * i, "pass offsets");
        }
    }
    s->passes = fv_mem_array(face->mem, s->num_passes ? s->num_passes : 1, sizeof(grv_pass));
    if (!s->passes) {
        SILF_FAIL(off0, "out of memory");
    }
    for (uint32_t i = 0; i < s->num_passes; i++) {
        st = load_pass(face, s, i, opass[i], opass[i + 1], err);
        if (st != FV_OK)
            goto fail;
    }
fail:
    fv_mem_free(face->mem, opass);
    return st;
}

fv_status grv_silf_verify(fv_gr_face *face, fv_error *err)
{
    return silf_verify(face, &face->silf, err);
}

static void silf_free(fv_mem *mem, grv_silf *s)
{
    if (s->passes) {
        for (uint32_t i = 0; i < s->num_passes; i++) {
            grv_pass *p = &s->passes[i];
            fv_mem_free(mem, p->cols);
            fv_mem_free(mem, p->trans);
            fv_mem_free(mem, p->start_states);
            fv_mem_free(mem, p->state_rule_off);
            fv_mem_free(mem, p->state_rules);
            fv_mem_free(mem, p->insns); /* every code's decoded form */
            fv_mem_free(mem, p->rules);
        }
    }
    fv_mem_free(mem, s->passes);
    fv_mem_free(mem, s->pseudos);
    fv_mem_free(mem, s->class_off);
    fv_mem_free(mem, s->class_data);
    memset(s, 0, sizeof *s);
}

void grv_silf_free(fv_gr_face *face)
{
    silf_free(face->mem, &face->silf);
}

int32_t grv_class_glyph(const grv_silf *silf, uint32_t cls, int32_t index)
{
    if (cls >= silf->num_classes || index < 0)
        return 0;
    uint32_t loc = silf->class_off[cls], e = silf->class_off[cls + 1];
    if (cls < silf->num_linear) {
        if ((uint32_t)index < e - loc)
            return silf->class_data[loc + (uint32_t)index];
        return 0;
    }
    /* a lookup class used for output: scan its pairs for the index */
    for (uint32_t i = loc + 4; i + 1 < e && i + 1 < silf->class_data_len; i += 2)
        if (silf->class_data[i + 1] == (uint32_t)index)
            return silf->class_data[i];
    return 0;
}

int32_t grv_class_index(const grv_silf *silf, uint32_t cls, uint32_t gid)
{
    if (cls >= silf->num_classes)
        return -1;
    uint32_t loc = silf->class_off[cls], e = silf->class_off[cls + 1];
    if (cls < silf->num_linear) {
        for (uint32_t i = loc; i < e; i++)
            if (silf->class_data[i] == gid)
                return (int32_t)(i - loc);
        return -1;
    }
    /* COMPAT(graphite2): its binary search over the (glyph, index) pairs:
     * halve the pair range keeping the lower half when the middle glyph is
     * greater; only an exact final match counts (load checked that the
     * pairs fit in the class data). */
    uint32_t lo = loc + 4, hi = lo + 2u * silf->class_data[loc];
    do {
        uint32_t mid = lo + (((hi - lo) / 2u) & ~1u);
        if (silf->class_data[mid] > gid)
            hi = mid;
        else
            lo = mid;
    } while (hi - lo > 2);
    return silf->class_data[lo] == gid ? silf->class_data[lo + 1] : -1;
}
