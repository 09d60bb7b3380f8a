/* The run loop of the Graphite machine (machine.c), written once and
 * compiled twice: as a switch (GRV_RUN_GOTO 0: the reference, and the copy
 * with trace and counters when `instrumented` is 1) and, where the compiler
 * has computed goto, as a label table whose every handler jumps straight to
 * the next one (GRV_RUN_GOTO 1: the untraced runs).  machine.c defines
 * GRV_RUN_NAME, GRV_RUN_ATTR and GRV_RUN_GOTO before each inclusion. */
#if GRV_RUN_GOTO
#define OP(x) L_##x
#define OP_DEFAULT L_default
/* The end of an opcode that cannot fail nor pop: on to the next. */
#define NEXT                                                 \
    do {                                                     \
        ip++;                                                \
        goto *labels[ip->xop];                               \
    } while (0)
/* The end of one that may have failed (a helper set the status) or popped:
 * COMPAT(graphite2): the stack is checked after each opcode, not at each
 * pop, so an opcode that ends below the base fails the run (returns, which
 * leave the loop at once, are not checked). */
#define CHECKED goto checked
#else
#define OP(x) case x
#define OP_DEFAULT default
#define NEXT continue
#define CHECKED break
#endif
/* The end of a stack-only opcode (no helper call): the stack check alone.
 * (Not wrapped in do/while: the switch's `continue` must reach the loop.) */
#define POPPED                                               \
    {                                                        \
        FV_TESTCASE(sp == 0); /* popped to exactly empty */  \
        if (sp < 0) {                                        \
            m->status = GRV_STACK_UNDERFLOW;                 \
            goto out;                                        \
        }                                                    \
        NEXT;                                                \
    }

static GRV_RUN_ATTR int32_t GRV_RUN_NAME(grv_machine *m, const grv_code *code, int *mapi,
                                          int mapb, int32_t *is_out, const int instrumented)
{
#if GRV_RUN_GOTO
    /* One entry per xop byte: the handlers' labels, every other byte the
     * one that stops the rule (grv_compile emits no such byte).  A handler
     * missing here would be an unused label, which the build refuses. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init" /* the handlers over the default */
    static const void *const labels[256] = {
        [0 ... 255] = &&L_default,
#define GRV_LABEL(x) [x] = &&L_##x,
        GRV_MACHINE_CASES(GRV_LABEL)
#undef GRV_LABEL
    };
#pragma GCC diagnostic pop
    (void)instrumented;
#endif
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
    const grv_insn *ip = insns;
#if GRV_RUN_GOTO
    goto *labels[ip->xop];
#else
    for (;; ip++) {
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
#endif
        OP(GRV_OP_NOP): NEXT;
        OP(GRV_XOP_PUSH): PUSH(ip->a); NEXT;
        OP(GRV_OP_ADD): { NEED(2); uint32_t b = (uint32_t)POP; TOP = (int32_t)((uint32_t)TOP + b); POPPED; }
        OP(GRV_OP_SUB): { NEED(2); uint32_t b = (uint32_t)POP; TOP = (int32_t)((uint32_t)TOP - b); POPPED; }
        OP(GRV_OP_MUL): { NEED(2); uint32_t b = (uint32_t)POP; TOP = (int32_t)((uint32_t)TOP * b); POPPED; }
        OP(GRV_OP_DIV): {
            NEED(2);
            int32_t b = POP;
            int32_t x = POP;
            /* graphite2 stops (DIE) on a zero divisor or INT_MIN/-1. */
            if (b == 0 || (b == -1 && x == INT32_MIN))
                DIE;
            PUSH(x / b);
            POPPED;
        }
        OP(GRV_OP_MIN): { NEED(2); int32_t b = POP; if (b < TOP) TOP = b; POPPED; }
        OP(GRV_OP_MAX): { NEED(2); int32_t b = POP; if (b > TOP) TOP = b; POPPED; }
        OP(GRV_OP_NEG): NEED(1); TOP = (int32_t)(0u - (uint32_t)TOP); POPPED;
        OP(GRV_OP_TRUNC8): NEED(1); TOP = (uint8_t)TOP; POPPED;
        OP(GRV_OP_TRUNC16): NEED(1); TOP = (uint16_t)TOP; POPPED;
        OP(GRV_OP_COND): {
            /* COMPAT(graphite2): the condition is the deepest of the three;
             * the top is the "false" value, the next the "true" value. */
            NEED(3);
            int32_t f = POP;
            int32_t t = POP;
            TOP = TOP ? t : f;
            POPPED;
        }
        OP(GRV_OP_AND): { NEED(2); int32_t b = POP; TOP = (TOP && b); POPPED; }
        OP(GRV_OP_OR): { NEED(2); int32_t b = POP; TOP = (TOP || b); POPPED; }
        OP(GRV_OP_NOT): NEED(1); TOP = !TOP; POPPED;
        OP(GRV_OP_EQUAL): { NEED(2); int32_t b = POP; TOP = (TOP == b); POPPED; }
        OP(GRV_OP_NOT_EQ): { NEED(2); int32_t b = POP; TOP = (TOP != b); POPPED; }
        OP(GRV_OP_LESS): { NEED(2); int32_t b = POP; TOP = (TOP < b); POPPED; }
        OP(GRV_OP_GTR): { NEED(2); int32_t b = POP; TOP = (TOP > b); POPPED; }
        OP(GRV_OP_LESS_EQ): { NEED(2); int32_t b = POP; TOP = (TOP <= b); POPPED; }
        OP(GRV_OP_GTR_EQ): { NEED(2); int32_t b = POP; TOP = (TOP >= b); POPPED; }
        OP(GRV_OP_BITOR): { NEED(2); int32_t b = POP; TOP = TOP | b; POPPED; }
        OP(GRV_OP_BITAND): { NEED(2); int32_t b = POP; TOP = TOP & b; POPPED; }
        OP(GRV_OP_BITNOT): NEED(1); TOP = ~TOP; POPPED;
        OP(GRV_OP_SETBITS):
            NEED(1);
            TOP = (int32_t)(((uint32_t)TOP & ~(uint32_t)ip->a) | (uint32_t)ip->b);
            POPPED;
        OP(GRV_OP_NEXT): /* and CopyNext */
            if (mi >= map->size)
                DIE;
            if (is != GRV_NIL) {
                if (is == map->highwater)
                    map->highpassed = 1;
                is = grv_link(seg, is)->next;
            }
            mi++;
            NEXT;
        OP(GRV_OP_PUT_GLYPH): /* both widths */
            if (is != GRV_NIL) {
                grv_set_glyph(seg, is, (uint32_t)grv_class_glyph(silf, (uint32_t)ip->a, 0));
                touch(seg, is);
            }
            NEXT;
        OP(GRV_OP_PUT_SUBS): { /* both widths */
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
        OP(GRV_OP_PUT_COPY): {
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
                    *grv_extra(seg, is) = *grv_extra(seg, ref);
                    /* user attributes and justification values too */
                    grv_copy_words(seg, is, ref);
                    if (d->parent != GRV_NIL)
                        grv_slot_child(seg, d->parent, is);
                }
                grv_link(seg, is)->flags &= (uint8_t)~(GRV_SF_COPIED | GRV_SF_DELETED);
                touch(seg, is);
            }
            CHECKED;
        }
        OP(GRV_OP_INSERT): {
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
                    grv_extra(seg, ns)->before = grv_extra(seg, seg->last)->before;
                    seg->last = ns;
                } else {
                    /* COMPAT(graphite2): into an empty stream the new slot
                     * comes with the char range 0..0, not "none" (gr_diff
                     * F-22d, measured: after "CopyNext; Delete; Delete;
                     * Insert", before and after -1 each change the result) */
                    seg->first = seg->last = ns;
                    grv_extra(seg, ns)->before = grv_extra(seg, ns)->after = 0;
                }
            } else if (grv_link(seg, iss)->prev != GRV_NIL) {
                int32_t pv = grv_link(seg, iss)->prev;
                grv_link(seg, pv)->next = ns;
                n->prev = pv;
                grv_extra(seg, ns)->before = grv_extra(seg, pv)->after;
            } else {
                n->prev = GRV_NIL;
                grv_extra(seg, ns)->before = grv_extra(seg, iss)->before;
                seg->first = ns;
            }
            n->next = iss;
            if (iss != GRV_NIL) {
                grv_link(seg, iss)->prev = ns;
                n->original = grv_link(seg, iss)->original;
                grv_extra(seg, ns)->after = grv_extra(seg, iss)->before;
            } else if (n->prev != GRV_NIL) {
                n->original = grv_link(seg, n->prev)->original;
                grv_extra(seg, ns)->after = grv_extra(seg, n->prev)->after;
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
        OP(GRV_OP_DELETE): {
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
        OP(GRV_OP_ASSOC): {
            /* decode_insn checked that the offsets lie inside the code */
            const uint8_t *offs = code->code.data + ip->a;
            int32_t mn = -1, mx = -1;
            (void)fv_budget_spend(&seg->budget, ip->u8); /* checked when the run ends */
            for (int k = 0; k < ip->u8; k++) {
                int32_t ts = slot_at(m, map, mi, (int8_t)offs[k]);
                if (ts == GRV_NIL)
                    continue;
                const grv_slot_extra *t = grv_extra(seg, ts);
                if (mn == -1 || t->before < mn)
                    mn = t->before;
                if (t->after > mx)
                    mx = t->after;
            }
            if (mn > -1 && is != GRV_NIL) {
                grv_extra(seg, is)->before = mn;
                grv_extra(seg, is)->after = mx;
                touch(seg, is);
            }
            CHECKED;
        }
        OP(GRV_OP_CNTXT_ITEM):
            if (mapb + ip->slot != mi) {
                PUSH(1);
                /* grv_compile resolved the skip to an instruction index
                 * inside the array (its END or BAD at worst) */
                ip = insns + ip->a - 1;
            }
            NEXT;
        OP(GRV_OP_ATTR_SET):
        OP(GRV_OP_ATTR_ADD):
        OP(GRV_OP_ATTR_SUB):
        OP(GRV_OP_IATTR_SET):
        OP(GRV_OP_IATTR_ADD):
        OP(GRV_OP_IATTR_SUB): {
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
        OP(GRV_OP_ATTR_SET_SLOT):
        OP(GRV_OP_IATTR_SET_SLOT): {
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
        OP(GRV_OP_PUSH_SLOT_ATTR):
        OP(GRV_OP_PUSH_ISLOT_ATTR): {
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
        OP(GRV_OP_PUSH_GLYPH_ATTR):
        OP(GRV_OP_PUSH_ATT_TO_GLYPH_ATTR): { /* and the 8-bit forms */
            int32_t sl = slot_at(m, map, mi, ip->slot);
            if (sl != GRV_NIL) {
                if (ip->xop == GRV_OP_PUSH_ATT_TO_GLYPH_ATTR && grv_link(seg, sl)->parent != GRV_NIL)
                    sl = grv_link(seg, sl)->parent;
                PUSH(grv_glyph_attr(face, grv_link(seg, sl)->gid, (uint32_t)ip->a));
            }
            CHECKED;
        }
        OP(GRV_OP_PUSH_GLYPH_METRIC):
        OP(GRV_OP_PUSH_ATT_TO_GLYPH_METRIC): {
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
        OP(GRV_OP_PUSH_FEAT): {
            int32_t sl = slot_at(m, map, mi, ip->slot);
            if (sl != GRV_NIL)
                PUSH(grv_get_feature(seg, ip->u8));
            CHECKED;
        }
        OP(GRV_OP_SET_FEAT): {
            int32_t sl = slot_at(m, map, mi, ip->slot);
            if (sl != GRV_NIL) {
                NEED(1);
                grv_set_feature(seg, ip->u8, POP);
            }
            CHECKED;
        }
        OP(GRV_OP_PUSH_VERSION):
            PUSH(GRV_ENGINE_VERSION);
            NEXT;
        OP(GRV_OP_PUSH_PROC_STATE):
            /* COMPAT(graphite2): a stub that pushes 1 */
            PUSH(1);
            NEXT;
        OP(GRV_OP_POP_RET):
            /* COMPAT(graphite2): PopRet pops the value and pushes it back as
             * the result, with no check in between: on an empty stack it
             * reads the cell below the base and the run ends normally with
             * an empty stack, result 0 (gr_diff F-8). */
            NEED(1);
            goto out;
        OP(GRV_OP_RET_ZERO):
            PUSH(0);
            goto out;
        OP(GRV_OP_RET_TRUE):
            PUSH(1);
            goto out;
        OP(GRV_XOP_TEMP_COPY):
            if (!temp_copy(seg, map, mi, is))
                DIE;
            NEXT;
        OP(GRV_XOP_END):
            goto out;
        OP_DEFAULT: /* GRV_XOP_BAD */
            DIE;
#if !GRV_RUN_GOTO
        }
#else
    checked:
#endif
        if (m->status != GRV_FINISHED)
            goto out;
        if (sp < 0) {
            m->status = GRV_STACK_UNDERFLOW;
            goto out;
        }
#if GRV_RUN_GOTO
        NEXT;
#else
    }
#endif
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

#undef OP
#undef OP_DEFAULT
#undef NEXT
#undef CHECKED
#undef POPPED
