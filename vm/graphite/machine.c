/* The Graphite stack machine: runs one piece of verified rule code against a
 * slot map.  Every stack access, slot reference and argument read is checked
 * at run time as well (the verifier cannot know the slot map's size), and
 * arithmetic wraps on 32 bits as graphite2's does. */
#include <limits.h>
#include <string.h>

#include "common/compat.h"
#include "graphite/grv.h"

/* graphite2 pushes this for PushVersion (the rule-language version it runs). */
#define GRV_ENGINE_VERSION 0x00030000

typedef struct vmregs {
    grv_machine *m;
    grv_seg *seg;
    grv_slotmap *map;
    int mapi;       /* index of the current map entry (begin-relative) */
    int mapb;       /* rule's first non-pre-context entry */
    int32_t is;     /* current slot */
    int sp;         /* number of stack entries */
} vmregs;

static inline int32_t slot_at(vmregs *r, int off)
{
    int i = r->mapi + off;
    /* Before the map's first entry (the slot preceding the rule) graphite2
     * reads outside its slot map; we fail the segment instead. */
    if (i < -1 || i >= GRV_MAX_SLOTS + 2) {
        r->m->status = GRV_SLOT_OFFSET_OUT_OF_BOUNDS;
        return GRV_NIL;
    }
    /* COMPAT(graphite2): past the pushed entries it reads stale map
     * entries; we treat them as "no slot". */
    if (i >= r->map->size)
        return GRV_NIL;
    return grv_map_begin(r->map)[i];
}

/* graphite2's TEMP_COPY: the current slot's map entry becomes an unlinked
 * copy of it (flagged copied, freed by the garbage collection after the
 * action); the current slot itself goes on being changed.  No current slot,
 * or no memory for the copy, stops the rule (graphite2 dies). */
static int temp_copy(vmregs *r)
{
    grv_seg *seg = r->seg;
    if (r->is == GRV_NIL)
        return 0;
    int32_t ns = grv_new_slot(seg); /* may move the pool */
    if (ns == GRV_NIL)
        return 0;
    seg->slots[ns] = seg->slots[r->is];
    seg->slots[ns].flags |= GRV_SF_COPIED;
    uint32_t nu = seg->face->silf.num_user;
    if (nu)
        memcpy(seg->user + (size_t)ns * nu, seg->user + (size_t)r->is * nu, nu * sizeof(int16_t));
    if (r->mapi >= -1 && r->mapi < GRV_MAX_SLOTS + 2)
        grv_map_begin(r->map)[r->mapi] = ns;
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

static void ensure_positioned(vmregs *r, uint32_t slat)
{
    if ((slat == GRV_SLAT_POSX || slat == GRV_SLAT_POSY) && !r->m->positioned) {
        int32_t *b = grv_map_begin(r->map);
        int32_t last = r->map->size > 0 ? b[r->map->size - 1] : GRV_NIL;
        float ax, ay;
        grv_position_slots(r->seg, b[0], last, grv_currdir(r->seg), &ax, &ay);
        r->m->positioned = 1;
    }
}

#define PUSH(v)                                              \
    do {                                                     \
        if (r.sp >= GRV_STACK_MAX) {                         \
            m->status = GRV_STACK_OVERFLOW;                  \
            goto out;                                        \
        }                                                    \
        stk[r.sp++] = (int32_t)(v);                          \
    } while (0)
/* Memory safety only: the deepest cell an opcode touches stays inside the
 * guard.  Whether the stack really held the values is checked after the
 * opcode (graphite2's semantics, see the end of the dispatch loop). */
#define NEED(n)                                              \
    do {                                                     \
        if (r.sp - (n) < -GRV_STACK_GUARD) {                 \
            m->status = GRV_STACK_UNDERFLOW;                 \
            goto out;                                        \
        }                                                    \
    } while (0)
#define TOP stk[r.sp - 1]
#define POP (stk[--r.sp])
#define ARG(k) (a[(k)])
/* graphite2's DIE: the code stops and the segment fails. */
#define DIE                                                  \
    do {                                                     \
        m->status = GRV_DIED_EARLY;                          \
        goto out;                                            \
    } while (0)

/* Fixed argument bytes of each opcode, from opcodes.def, in one byte (the
 * run-time decode reads only this): OP_VARIABLE for Assoc (a count byte,
 * then that many), OP_REFUSED for unimplemented opcodes (the verifier
 * refuses them and unknown ones at load; the machine checks again). */
enum { OP_REFUSED = 0xFE, OP_VARIABLE = 0xFF };
static const uint8_t op_args[GRV_OP_COUNT] = {
#define X(name, code, args, pops, pushes, where, fmt) \
    [code] = (uint8_t)(((where) & GRV_UNIMPL) ? OP_REFUSED : (args) < 0 ? OP_VARIABLE : (args)),
#include "graphite/opcodes.def"
#undef X
};

int32_t grv_run(grv_machine *m, grv_code code, int *mapi, int mapb, int32_t *is_out)
{
    vmregs r;
    r.m = m;
    r.seg = m->seg;
    r.map = m->map;
    r.mapi = *mapi;
    r.mapb = mapb;
    r.is = slot_at(&r, 0);
    r.sp = 0;
    m->status = GRV_FINISHED;
    m->positioned = 0;
    int32_t *const stk = m->cells + GRV_STACK_GUARD;
    for (int g = 1; g <= GRV_STACK_GUARD; g++)
        stk[-g] = 0;
    grv_seg *seg = m->seg;
    const fv_gr_face *face = seg->face;
    const grv_silf *silf = &face->silf;
    fv_span s = code.code;
    uint32_t pc = 0;
    uint32_t ci = 0; /* next planned temporary copy, at offset next_copy */
    uint32_t next_copy = code.num_copies ? code.copies[0] : UINT32_MAX;
    int returned = 0;
    const int instrumented = seg->op_counts != NULL || seg->trace != NULL;
    while (pc < s.len) {
        int op = s.data[pc];
        uint32_t nargs = op < GRV_OP_COUNT ? op_args[op] : OP_REFUSED;
        if (nargs >= OP_REFUSED) {
            if (nargs != OP_VARIABLE) {
                m->status = GRV_DIED_EARLY;
                goto out;
            }
            nargs = pc + 1 < s.len ? 1u + s.data[pc + 1] : 1u;
        }
        if ((uint64_t)pc + 1 + nargs > s.len) {
            m->status = GRV_DIED_EARLY;
            goto out;
        }
        const uint8_t *a = s.data + pc + 1;
        if (pc >= next_copy) {
            while (ci < code.num_copies && code.copies[ci] <= pc) {
                if (code.copies[ci++] == pc && !temp_copy(&r)) {
                    m->status = GRV_DIED_EARLY;
                    goto out;
                }
            }
            next_copy = ci < code.num_copies ? code.copies[ci] : UINT32_MAX;
        }
        if (instrumented && seg->op_counts)
            seg->op_counts[op]++;
        if (instrumented && seg->trace) {
            fv_gr_trace_event ev;
            memset(&ev, 0, sizeof ev);
            ev.kind = FV_GR_TRACE_OP;
            ev.pass = seg->cur_pass;
            ev.rule = seg->cur_rule;
            ev.is_constraint = seg->in_constraint;
            ev.pc = pc;
            ev.opcode = op;
            ev.stack = stk;
            ev.stack_depth = (size_t)r.sp;
            ev.slot = -1;
            seg->trace(seg->trace_user, &ev);
        }
        uint32_t next_pc = pc + 1 + nargs;
        switch (op) {
        case GRV_OP_NOP:
            break;
        case GRV_OP_PUSH_BYTE: PUSH((int8_t)ARG(0)); break;
        case GRV_OP_PUSH_BYTE_U: PUSH(ARG(0)); break;
        case GRV_OP_PUSH_SHORT: PUSH((int16_t)(uint16_t)(ARG(0) << 8 | ARG(1))); break;
        case GRV_OP_PUSH_SHORT_U: PUSH((uint16_t)(ARG(0) << 8 | ARG(1))); break;
        case GRV_OP_PUSH_LONG:
            PUSH((int32_t)((uint32_t)ARG(0) << 24 | (uint32_t)ARG(1) << 16 |
                           (uint32_t)ARG(2) << 8 | ARG(3)));
            break;
        case GRV_OP_ADD: { NEED(2); uint32_t b = (uint32_t)POP; TOP = (int32_t)((uint32_t)TOP + b); break; }
        case GRV_OP_SUB: { NEED(2); uint32_t b = (uint32_t)POP; TOP = (int32_t)((uint32_t)TOP - b); break; }
        case GRV_OP_MUL: { NEED(2); uint32_t b = (uint32_t)POP; TOP = (int32_t)((uint32_t)TOP * b); break; }
        case GRV_OP_DIV: {
            NEED(2);
            int32_t b = POP;
            int32_t x = POP;
            /* graphite2 stops (DIE) on a zero divisor or INT_MIN/-1. */
            if (b == 0 || (b == -1 && x == INT32_MIN))
                DIE;
            PUSH(x / b);
            break;
        }
        case GRV_OP_MIN: { NEED(2); int32_t b = POP; if (b < TOP) TOP = b; break; }
        case GRV_OP_MAX: { NEED(2); int32_t b = POP; if (b > TOP) TOP = b; break; }
        case GRV_OP_NEG: NEED(1); TOP = (int32_t)(0u - (uint32_t)TOP); break;
        case GRV_OP_TRUNC8: NEED(1); TOP = (uint8_t)TOP; break;
        case GRV_OP_TRUNC16: NEED(1); TOP = (uint16_t)TOP; break;
        case GRV_OP_COND: {
            /* COMPAT(graphite2): the condition is the deepest of the three;
             * the top is the "false" value, the next the "true" value. */
            NEED(3);
            int32_t f = POP;
            int32_t t = POP;
            TOP = TOP ? t : f;
            break;
        }
        case GRV_OP_AND: { NEED(2); int32_t b = POP; TOP = (TOP && b); break; }
        case GRV_OP_OR: { NEED(2); int32_t b = POP; TOP = (TOP || b); break; }
        case GRV_OP_NOT: NEED(1); TOP = !TOP; break;
        case GRV_OP_EQUAL: { NEED(2); int32_t b = POP; TOP = (TOP == b); break; }
        case GRV_OP_NOT_EQ: { NEED(2); int32_t b = POP; TOP = (TOP != b); break; }
        case GRV_OP_LESS: { NEED(2); int32_t b = POP; TOP = (TOP < b); break; }
        case GRV_OP_GTR: { NEED(2); int32_t b = POP; TOP = (TOP > b); break; }
        case GRV_OP_LESS_EQ: { NEED(2); int32_t b = POP; TOP = (TOP <= b); break; }
        case GRV_OP_GTR_EQ: { NEED(2); int32_t b = POP; TOP = (TOP >= b); break; }
        case GRV_OP_BITOR: { NEED(2); int32_t b = POP; TOP = TOP | b; break; }
        case GRV_OP_BITAND: { NEED(2); int32_t b = POP; TOP = TOP & b; break; }
        case GRV_OP_BITNOT: NEED(1); TOP = ~TOP; break;
        case GRV_OP_SETBITS: {
            NEED(1);
            uint32_t mask = (uint32_t)ARG(0) << 8 | ARG(1);
            uint32_t val = (uint32_t)ARG(2) << 8 | ARG(3);
            TOP = (int32_t)(((uint32_t)TOP & ~mask) | val);
            break;
        }
        case GRV_OP_NEXT:
        case GRV_OP_COPY_NEXT:
            if (r.mapi >= r.map->size)
                DIE;
            if (r.is != GRV_NIL) {
                if (r.is == r.map->highwater)
                    r.map->highpassed = 1;
                r.is = seg->slots[r.is].next;
            }
            r.mapi++;
            break;
        case GRV_OP_PUT_GLYPH_8BIT_OBS:
        case GRV_OP_PUT_GLYPH: {
            uint32_t cls = op == GRV_OP_PUT_GLYPH ? ((uint32_t)ARG(0) << 8 | ARG(1)) : ARG(0);
            if (r.is != GRV_NIL) {
                grv_set_glyph(seg, r.is, (uint32_t)grv_class_glyph(silf, cls, 0));
                touch(seg, r.is);
            }
            break;
        }
        case GRV_OP_PUT_SUBS_8BIT_OBS:
        case GRV_OP_PUT_SUBS: {
            int off = (int8_t)ARG(0);
            uint32_t ic, oc;
            if (op == GRV_OP_PUT_SUBS) {
                ic = (uint32_t)ARG(1) << 8 | ARG(2);
                oc = (uint32_t)ARG(3) << 8 | ARG(4);
            } else {
                ic = ARG(1);
                oc = ARG(2);
            }
            int32_t src = slot_at(&r, off);
            if (src != GRV_NIL && r.is != GRV_NIL) {
                /* the source is the map entry: a temporary copy when the
                 * loader planned one (silf.c plan_copies) */
                uint32_t g = seg->slots[src].gid;
                int32_t idx = grv_class_index(silf, ic, g);
                grv_set_glyph(seg, r.is, (uint32_t)grv_class_glyph(silf, oc, idx));
                touch(seg, r.is);
            }
            break;
        }
        case GRV_OP_PUT_COPY: {
            int off = (int8_t)ARG(0);
            if (r.is != GRV_NIL && !(seg->slots[r.is].flags & GRV_SF_DELETED)) {
                int32_t ref = slot_at(&r, off);
                if (ref != GRV_NIL && ref != r.is) {
                    grv_slot *d = &seg->slots[r.is];
                    if (d->parent != GRV_NIL || d->child != GRV_NIL)
                        DIE;
                    grv_slot keep = *d;
                    const grv_slot *src = &seg->slots[ref];
                    const int16_t *src_user =
                        silf->num_user ? seg->user + (size_t)ref * silf->num_user : NULL;
                    *d = *src;
                    d->child = GRV_NIL;
                    d->sibling = GRV_NIL;
                    d->prev = keep.prev;
                    d->next = keep.next;
                    uint32_t nu = silf->num_user;
                    if (nu && src_user)
                        memmove(seg->user + (size_t)r.is * nu, src_user, nu * sizeof(int16_t));
                    if (d->parent != GRV_NIL)
                        grv_slot_child(seg, d->parent, r.is);
                }
                seg->slots[r.is].flags &= (uint8_t)~(GRV_SF_COPIED | GRV_SF_DELETED);
                touch(seg, r.is);
            }
            break;
        }
        case GRV_OP_INSERT: {
            if (--r.map->max_size <= 0)
                DIE;
            int32_t ns = grv_new_slot(seg);
            if (ns == GRV_NIL)
                DIE;
            grv_slot *n = &seg->slots[ns];
            int32_t iss = r.is;
            while (iss != GRV_NIL && (seg->slots[iss].flags & GRV_SF_DELETED))
                iss = seg->slots[iss].next;
            if (iss == GRV_NIL) {
                if (seg->last != GRV_NIL) {
                    seg->slots[seg->last].next = ns;
                    n->prev = seg->last;
                    n->before = seg->slots[seg->last].before;
                    seg->last = ns;
                } else {
                    seg->first = seg->last = ns;
                }
            } else if (seg->slots[iss].prev != GRV_NIL) {
                int32_t pv = seg->slots[iss].prev;
                seg->slots[pv].next = ns;
                n->prev = pv;
                n->before = seg->slots[pv].after;
            } else {
                n->prev = GRV_NIL;
                n->before = seg->slots[iss].before;
                seg->first = ns;
            }
            n->next = iss;
            if (iss != GRV_NIL) {
                seg->slots[iss].prev = ns;
                n->original = seg->slots[iss].original;
                n->after = seg->slots[iss].before;
            } else if (n->prev != GRV_NIL) {
                n->original = seg->slots[n->prev].original;
                n->after = seg->slots[n->prev].after;
            } else {
                n->original = 0;
            }
            if (r.is == r.map->highwater)
                r.map->highpassed = 0;
            r.is = ns;
            seg->slot_count++;
            /* The new slot has no map entry: step the map back so the next
             * Next lands on the same input slot again. */
            if (r.mapi != -1)
                r.mapi--;
            touch(seg, ns);
            break;
        }
        case GRV_OP_DELETE: {
            if (r.is == GRV_NIL || (seg->slots[r.is].flags & GRV_SF_DELETED))
                DIE;
            grv_slot *d = &seg->slots[r.is];
            d->flags |= GRV_SF_DELETED;
            if (d->prev != GRV_NIL)
                seg->slots[d->prev].next = d->next;
            else
                seg->first = d->next;
            if (d->next != GRV_NIL)
                seg->slots[d->next].prev = d->prev;
            else
                seg->last = d->prev;
            if (r.is == r.map->highwater)
                r.map->highwater = d->next;
            if (d->prev != GRV_NIL)
                r.is = d->prev;
            seg->slot_count--;
            break;
        }
        case GRV_OP_ASSOC: {
            int n = ARG(0);
            int32_t mn = -1, mx = -1;
            for (int k = 0; k < n; k++) {
                int32_t ts = slot_at(&r, (int8_t)ARG(1 + k));
                if (ts == GRV_NIL)
                    continue;
                const grv_slot *t = &seg->slots[ts];
                if (mn == -1 || t->before < mn)
                    mn = t->before;
                if (t->after > mx)
                    mx = t->after;
            }
            if (mn > -1 && r.is != GRV_NIL) {
                seg->slots[r.is].before = mn;
                seg->slots[r.is].after = mx;
                touch(seg, r.is);
            }
            break;
        }
        case GRV_OP_CNTXT_ITEM: {
            int off = (int8_t)ARG(0);
            if (r.mapb + off != r.mapi) {
                next_pc += ARG(1);
                PUSH(1);
            }
            break;
        }
        case GRV_OP_ATTR_SET:
        case GRV_OP_ATTR_ADD:
        case GRV_OP_ATTR_SUB: {
            NEED(1);
            uint32_t slat = ARG(0);
            int32_t val = POP;
            if (r.is == GRV_NIL)
                break;
            if (op != GRV_OP_ATTR_SET) {
                ensure_positioned(&r, slat);
                int32_t cur = grv_get_attr(seg, r.is, slat, 0);
                val = op == GRV_OP_ATTR_ADD ? (int32_t)((uint32_t)cur + (uint32_t)val)
                                            : (int32_t)((uint32_t)cur - (uint32_t)val);
            }
            grv_set_attr(seg, r.map, r.is, slat, 0, val);
            touch(seg, r.is);
            break;
        }
        case GRV_OP_ATTR_SET_SLOT: {
            NEED(1);
            uint32_t slat = ARG(0);
            int offset = r.mapi * (slat == GRV_SLAT_ATTTO);
            int32_t val = (int32_t)((uint32_t)POP + (uint32_t)offset);
            if (r.is != GRV_NIL) {
                grv_set_attr(seg, r.map, r.is, slat, offset, val);
                touch(seg, r.is);
            }
            break;
        }
        case GRV_OP_IATTR_SET_SLOT: {
            NEED(1);
            uint32_t slat = ARG(0);
            int idx = ARG(1);
            /* COMPAT(graphite2): as in AttrSetSlot, the map position is
             * added to the value only for gr_slatAttTo (gr_diff F-10,
             * measured: IAttrSetSlot on AdvY stores the value alone). */
            int offset = r.mapi * (slat == GRV_SLAT_ATTTO);
            int32_t val = (int32_t)((uint32_t)POP + (uint32_t)offset);
            if (r.is != GRV_NIL) {
                grv_set_attr(seg, r.map, r.is, slat, idx, val);
                touch(seg, r.is);
            }
            break;
        }
        case GRV_OP_IATTR_SET:
        case GRV_OP_IATTR_ADD:
        case GRV_OP_IATTR_SUB: {
            NEED(1);
            uint32_t slat = ARG(0);
            int idx = ARG(1);
            int32_t val = POP;
            if (r.is == GRV_NIL)
                break;
            if (op != GRV_OP_IATTR_SET) {
                ensure_positioned(&r, slat);
                int32_t cur = grv_get_attr(seg, r.is, slat, (uint32_t)idx);
                val = op == GRV_OP_IATTR_ADD ? (int32_t)((uint32_t)cur + (uint32_t)val)
                                             : (int32_t)((uint32_t)cur - (uint32_t)val);
            }
            grv_set_attr(seg, r.map, r.is, slat, idx, val);
            touch(seg, r.is);
            break;
        }
        case GRV_OP_PUSH_SLOT_ATTR:
        case GRV_OP_PUSH_ISLOT_ATTR: {
            uint32_t slat = ARG(0);
            int32_t sl = slot_at(&r, (int8_t)ARG(1));
            uint32_t idx = op == GRV_OP_PUSH_ISLOT_ATTR ? ARG(2) : 0;
            if (sl != GRV_NIL) {
                ensure_positioned(&r, slat);
                PUSH(grv_get_attr(seg, sl, slat, idx));
            }
            break;
        }
        case GRV_OP_PUSH_GLYPH_ATTR_OBS:
        case GRV_OP_PUSH_GLYPH_ATTR:
        case GRV_OP_PUSH_ATT_TO_GATTR_OBS:
        case GRV_OP_PUSH_ATT_TO_GLYPH_ATTR: {
            int wide = op == GRV_OP_PUSH_GLYPH_ATTR || op == GRV_OP_PUSH_ATT_TO_GLYPH_ATTR;
            uint32_t at = wide ? ((uint32_t)ARG(0) << 8 | ARG(1)) : ARG(0);
            int32_t sl = slot_at(&r, (int8_t)ARG(wide ? 2 : 1));
            if (sl != GRV_NIL) {
                if ((op == GRV_OP_PUSH_ATT_TO_GATTR_OBS || op == GRV_OP_PUSH_ATT_TO_GLYPH_ATTR) &&
                    seg->slots[sl].parent != GRV_NIL)
                    sl = seg->slots[sl].parent;
                PUSH(grv_glyph_attr(face, seg->slots[sl].gid, at));
            }
            break;
        }
        case GRV_OP_PUSH_GLYPH_METRIC:
        case GRV_OP_PUSH_ATT_TO_GLYPH_METRIC: {
            int32_t sl = slot_at(&r, (int8_t)ARG(1));
            if (sl != GRV_NIL) {
                if (op == GRV_OP_PUSH_ATT_TO_GLYPH_METRIC && seg->slots[sl].parent != GRV_NIL)
                    sl = seg->slots[sl].parent;
                PUSH(grv_glyph_metric(seg, sl, ARG(0), ARG(2)));
            }
            break;
        }
        case GRV_OP_PUSH_FEAT: {
            int32_t sl = slot_at(&r, (int8_t)ARG(1));
            if (sl != GRV_NIL)
                PUSH(grv_get_feature(seg, ARG(0)));
            break;
        }
        case GRV_OP_SET_FEAT: {
            int32_t sl = slot_at(&r, (int8_t)ARG(1));
            if (sl != GRV_NIL) {
                NEED(1);
                grv_set_feature(seg, ARG(0), POP);
            }
            break;
        }
        case GRV_OP_PUSH_VERSION:
            PUSH(GRV_ENGINE_VERSION);
            break;
        case GRV_OP_PUSH_PROC_STATE:
            /* COMPAT(graphite2): a stub that pushes 1 */
            PUSH(1);
            break;
        case GRV_OP_POP_RET:
            /* COMPAT(graphite2): PopRet pops the value and pushes it back as
             * the result, with no check in between: on an empty stack it
             * reads the cell below the base and the run ends normally with
             * an empty stack, result 0 (gr_diff F-8). */
            NEED(1);
            returned = 1;
            goto out;
        case GRV_OP_RET_ZERO:
            PUSH(0);
            returned = 1;
            goto out;
        case GRV_OP_RET_TRUE:
            PUSH(1);
            returned = 1;
            goto out;
        default:
            m->status = GRV_DIED_EARLY;
            goto out;
        }
        if (m->status != GRV_FINISHED)
            goto out;
        /* COMPAT(graphite2): the stack is checked after each opcode, not at
         * each pop: an opcode that ends below the base fails the run
         * (returns, which leave the loop at once, are not checked). */
        if (r.sp < 0) {
            m->status = GRV_STACK_UNDERFLOW;
            goto out;
        }
        pc = next_pc;
    }
out:
    (void)returned;
    {
        int32_t ret = 0;
        if (m->status == GRV_FINISHED) {
            if (r.sp == 1)
                ret = stk[0];
            else if (r.sp > 1)
                m->status = GRV_STACK_NOT_EMPTY;
        }
        /* graphite2 writes the current slot back into the map entry. */
        if (r.mapi >= -1 && r.mapi < GRV_MAX_SLOTS + 2)
            grv_map_begin(r.map)[r.mapi] = r.is;
        *mapi = r.mapi;
        if (is_out)
            *is_out = r.is;
        return ret;
    }
}
