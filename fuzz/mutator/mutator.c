/* Structure-aware bytecode mutator; see mutator.h. */
#include "mutator/mutator.h"

#include "graphite/opcodes.h"

#include <stdlib.h>
#include <string.h>

/* Instructions decoded per input; longer code keeps its tail unmutated. */
#define FVMUT_MAX_INSNS 8192
/* Longest run of instructions duplicated or spliced at once. */
#define FVMUT_MAX_RUN 16

static const struct {
    const char *target;
    fvmut_layout layout;
} layouts[] = {
    /* Trailer lengths: see the TRAILER constants of each target file. */
    {"tt_program", {FVMUT_TT, 16, 0}},
    {"tt_diff", {FVMUT_TT, 16, 0}},
    {"gr_code", {FVMUT_GR, 16, 0}},
    {"gr_diff", {FVMUT_GR, 16, 0}},
    /* [font][8-byte trailer] and [font][text][8-byte trailer], the text's
     * unit count in trailer byte 2 */
    {"tt_font_diff", {FVMUT_FONT, 8, 0}},
    {"gr_font_diff", {FVMUT_FONT, 8, 3}},
    {"gr2_api", {FVMUT_FONT, 8, 3}},
    {"gr2_api_diff", {FVMUT_FONT, 8, 3}},
};

int fvmut_layout_for(const char *target, fvmut_layout *out)
{
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
        if (strcmp(layouts[i].target, target) == 0) {
            *out = layouts[i].layout;
            return 1;
        }
    return 0;
}

void fvmut_rng_seed(fvmut_rng *r, uint64_t seed)
{
    r->s = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
}

uint32_t fvmut_rand(fvmut_rng *r, uint32_t bound)
{
    /* splitmix64 */
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return bound ? (uint32_t)(z % bound) : 0;
}

/* ---- Graphite operand sizes ---------------------------------------------
 * Bytes of arguments after each Graphite opcode, from the VM's own opcode
 * list (vm/graphite/opcodes.def), so the mutator cuts instructions where
 * the decoder does.  -1: a count byte follows and then that many bytes
 * (Assoc's Slots).  Opcodes past the table are taken as one byte, which the
 * verifier rejects anyway. */
static const signed char gr_arg_bytes[GRV_OP_COUNT] = {
#define X(name, code, runs_as, where, rule, pops, pushes, args)                             \
    [code] = GRV_LAYOUT_KIND(GRV_LAYOUT(args), 0) == GRV_ARG_Slots                          \
                 ? -1                                                                       \
                 : (signed char)GRV_LAYOUT_BYTES(GRV_LAYOUT(args)),
#include "graphite/opcodes.def"
#undef X
};
#define GR_NUM_OPCODES ((unsigned)GRV_OP_COUNT)
#define GR_ASSOC GRV_OP_ASSOC

size_t fvmut_insn_len(fvmut_kind kind, const uint8_t *code, size_t len, size_t pc)
{
    if (kind == FVMUT_TT)
        return fvmut_tt_insn_len(code, len, pc);
    if (pc >= len)
        return 0;
    uint8_t op = code[pc];
    size_t n = 1;
    if (op < GR_NUM_OPCODES) {
        if (gr_arg_bytes[op] < 0)
            n = pc + 1 < len ? 2 + (size_t)code[pc + 1] : 2;
        else
            n = 1 + (size_t)gr_arg_bytes[op];
    }
    return n < len - pc ? n : len - pc;
}

/* ---- Decoded view --------------------------------------------------------- */
typedef struct code_view {
    const uint8_t *code;
    size_t len;
    size_t n;                      /* decoded instructions */
    size_t off[FVMUT_MAX_INSNS + 1]; /* off[n] = end of the decoded part */
} code_view;

static void decode(fvmut_kind kind, const uint8_t *code, size_t len, code_view *v)
{
    v->code = code;
    v->len = len;
    v->n = 0;
    size_t pc = 0;
    while (pc < len && v->n < FVMUT_MAX_INSNS) {
        v->off[v->n++] = pc;
        pc += fvmut_insn_len(kind, code, len, pc);
    }
    v->off[v->n] = pc;
}

static size_t insn_size(const code_view *v, size_t i)
{
    return v->off[i + 1] - v->off[i];
}

/* Output buffer with a hard capacity: every write is checked. */
typedef struct outbuf {
    uint8_t *p;
    size_t len, cap;
    int overflow;
} outbuf;

static void put(outbuf *o, const uint8_t *b, size_t n)
{
    if (n > o->cap - o->len) {
        o->overflow = 1;
        return;
    }
    memcpy(o->p + o->len, b, n);
    o->len += n;
}

static void put1(outbuf *o, uint8_t b)
{
    put(o, &b, 1);
}

static void put_range(outbuf *o, const code_view *v, size_t from, size_t to)
{
    if (to > from)
        put(o, v->code + v->off[from], v->off[to] - v->off[from]);
}

/* Values that matter to the VMs: 0, 1, small counts, a pixel in 26.6 (64),
 * sign and width boundaries. */
static uint16_t interesting(fvmut_rng *r)
{
    static const uint16_t vals[] = {0, 1, 2, 3, 4, 5, 7, 8, 16, 32, 63, 64, 127, 128, 255,
                                    256, 0x3FFF, 0x4000, 0x7FFF, 0x8000, 0xFFFF, 0xFFFE, 0xFFC0};
    if (fvmut_rand(r, 4) == 0)
        return (uint16_t)fvmut_rand(r, 0x10000);
    return vals[fvmut_rand(r, (uint32_t)(sizeof vals / sizeof vals[0]))];
}

/* Emits one fresh instruction. */
static void random_insn(fvmut_kind kind, outbuf *o, fvmut_rng *r)
{
    if (kind == FVMUT_TT) {
        uint32_t pick = fvmut_rand(r, 10);
        if (pick < 3) { /* PUSHB[k] / PUSHW[k] with interesting values */
            uint32_t count = 1 + fvmut_rand(r, 3);
            int words = fvmut_rand(r, 3) == 0;
            put1(o, (uint8_t)((words ? FVMUT_TT_PUSHW0 : FVMUT_TT_PUSHB0) + count - 1));
            for (uint32_t i = 0; i < count; i++) {
                uint16_t val = interesting(r);
                if (words)
                    put1(o, (uint8_t)(val >> 8));
                put1(o, (uint8_t)val);
            }
            return;
        }
        uint8_t op = (uint8_t)fvmut_rand(r, 256);
        put1(o, op);
        /* Give a push opcode its operands so the stream stays aligned. */
        size_t extra = 0;
        if (op == FVMUT_TT_NPUSHB || op == FVMUT_TT_NPUSHW) {
            uint8_t count = (uint8_t)(1 + fvmut_rand(r, 4));
            put1(o, count);
            extra = (size_t)count * (op == FVMUT_TT_NPUSHW ? 2 : 1);
        } else if (op >= FVMUT_TT_PUSHB0 && op < FVMUT_TT_PUSHW0) {
            extra = (size_t)(op - FVMUT_TT_PUSHB0 + 1);
        } else if (op >= FVMUT_TT_PUSHW0) {
            extra = 2 * (size_t)(op - FVMUT_TT_PUSHW0 + 1);
        }
        for (size_t i = 0; i < extra; i++)
            put1(o, (uint8_t)interesting(r));
        return;
    }
    uint8_t op = (uint8_t)fvmut_rand(r, fvmut_rand(r, 16) == 0 ? 256 : GR_NUM_OPCODES);
    put1(o, op);
    if (op >= GR_NUM_OPCODES)
        return;
    int nargs = gr_arg_bytes[op];
    if (nargs < 0) {
        uint8_t count = (uint8_t)(1 + fvmut_rand(r, 3));
        put1(o, count);
        nargs = count;
    }
    for (int i = 0; i < nargs; i++)
        put1(o, (uint8_t)(fvmut_rand(r, 2) ? fvmut_rand(r, 4) : interesting(r)));
}

/* Finds a function FDEF..ENDF (TT) in v; returns 1 with [*from, *to). */
static int find_function(const code_view *v, fvmut_rng *r, size_t *from, size_t *to)
{
    size_t fdefs = 0;
    for (size_t i = 0; i < v->n; i++)
        if (v->code[v->off[i]] == FVMUT_TT_FDEF)
            fdefs++;
    if (fdefs == 0)
        return 0;
    size_t want = fvmut_rand(r, (uint32_t)fdefs);
    for (size_t i = 0; i < v->n; i++) {
        if (v->code[v->off[i]] != FVMUT_TT_FDEF || want-- != 0)
            continue;
        size_t j = i + 1;
        while (j < v->n && v->code[v->off[j]] != FVMUT_TT_ENDF)
            j++;
        /* Take the push of the function number along when it is there. */
        *from = i > 0 ? i - 1 : i;
        *to = j < v->n ? j + 1 : v->n;
        return 1;
    }
    return 0;
}

/* Picks a run [from, to) of 1..FVMUT_MAX_RUN instructions (n > 0). */
static void pick_run(const code_view *v, fvmut_rng *r, size_t *from, size_t *to)
{
    *from = fvmut_rand(r, (uint32_t)v->n);
    size_t len = 1 + fvmut_rand(r, FVMUT_MAX_RUN);
    *to = *from + len < v->n ? *from + len : v->n;
}

/* Rewrites a push instruction `i` of TT code with one value more or less,
 * fixing its count.  Returns 0 when it does not apply. */
static int tt_resize_push(const code_view *v, size_t i, int grow, outbuf *o, fvmut_rng *r)
{
    const uint8_t *p = v->code + v->off[i];
    size_t sz = insn_size(v, i);
    uint8_t op = p[0];
    int words;
    size_t count, head;
    if (op == FVMUT_TT_NPUSHB || op == FVMUT_TT_NPUSHW) {
        if (sz < 2)
            return 0;
        words = op == FVMUT_TT_NPUSHW;
        count = p[1];
        head = 2;
    } else if (op >= FVMUT_TT_PUSHB0) {
        words = op >= FVMUT_TT_PUSHW0;
        count = (size_t)(op - (words ? FVMUT_TT_PUSHW0 : FVMUT_TT_PUSHB0)) + 1;
        head = 1;
    } else {
        return 0;
    }
    size_t vbytes = words ? 2 : 1;
    if (sz != head + count * vbytes) /* truncated at the end of the code */
        return 0;
    size_t ncount = grow ? count + 1 : count - 1;
    if (head == 1 && (ncount == 0 || ncount > 8))
        return 0;
    if (head == 2 && ncount > 255)
        return 0;
    if (head == 1)
        put1(o, (uint8_t)((words ? FVMUT_TT_PUSHW0 : FVMUT_TT_PUSHB0) + ncount - 1));
    else {
        put1(o, op);
        put1(o, (uint8_t)ncount);
    }
    size_t keep = grow ? count : ncount;
    put(o, p + head, keep * vbytes);
    if (grow) {
        uint16_t val = interesting(r);
        if (words)
            put1(o, (uint8_t)(val >> 8));
        put1(o, (uint8_t)val);
    }
    return 1;
}

static int is_push(fvmut_kind kind, uint8_t op)
{
    if (kind == FVMUT_TT)
        return op == FVMUT_TT_NPUSHB || op == FVMUT_TT_NPUSHW || op >= FVMUT_TT_PUSHB0;
    return op < GR_NUM_OPCODES && gr_arg_bytes[op] != 0;
}

/* Rewrites operand bytes of instruction i (a push in TT, any instruction
 * with arguments in Graphite) with interesting values. */
static int change_operand(fvmut_kind kind, const code_view *v, size_t i, outbuf *o,
                          fvmut_rng *r)
{
    size_t sz = insn_size(v, i);
    const uint8_t *p = v->code + v->off[i];
    if (sz < 2 || !is_push(kind, p[0]))
        return 0;
    size_t head = 1;
    if (kind == FVMUT_TT && (p[0] == FVMUT_TT_NPUSHB || p[0] == FVMUT_TT_NPUSHW))
        head = 2;
    if (kind == FVMUT_GR && p[0] == GR_ASSOC)
        head = 2;
    if (sz <= head)
        return 0;
    uint8_t tmp[2 + 2 * 255];
    memcpy(tmp, p, sz);
    int words = kind == FVMUT_TT && (p[0] == FVMUT_TT_NPUSHW || p[0] >= FVMUT_TT_PUSHW0);
    size_t at = head + fvmut_rand(r, (uint32_t)(sz - head));
    uint16_t val = interesting(r);
    if (words) {
        at = head + ((at - head) & ~(size_t)1);
        tmp[at] = (uint8_t)(val >> 8);
        if (at + 1 < sz)
            tmp[at + 1] = (uint8_t)val;
    } else {
        tmp[at] = (uint8_t)(fvmut_rand(r, 2) ? val : (uint8_t)(tmp[at] + fvmut_rand(r, 5) - 2));
    }
    put(o, tmp, sz);
    return 1;
}

static size_t code_part(const fvmut_layout *l, const uint8_t *data, size_t size)
{
    size_t trailer = l->trailer;
    if (l->kind == FVMUT_TT)
        trailer += fvmut_tt_var_trailer(data, size, trailer);
    return size > trailer ? size - trailer : size;
}

size_t fvmut_mutate(const fvmut_layout *l, uint8_t *data, size_t size, size_t max,
                    fvmut_rng *rng)
{
    if (max == 0)
        return 0;
    if (l->kind == FVMUT_FONT) {
        size_t n = size > max ? 0 : fvmut_font_mutate(l, data, size, max, rng);
        if (n == 0 && size > 0) { /* no directory to work on: one bit */
            n = size < max ? size : max;
            data[fvmut_rand(rng, (uint32_t)n)] ^= (uint8_t)(1u << fvmut_rand(rng, 8));
        }
        return n;
    }
    size_t clen = code_part(l, data, size);
    size_t tlen = size - clen;
    code_view *v = malloc(sizeof *v);
    uint8_t *buf = malloc(max);
    if (v == NULL || buf == NULL) {
        free(v);
        free(buf);
        return size;
    }
    decode(l->kind, data, clen, v);
    outbuf o = {buf, 0, max > tlen ? max - tlen : 0, 0};

    int tweak_trailer = 0;
    for (int attempt = 0; attempt < 8; attempt++) {
        tweak_trailer = 0;
        o.len = 0;
        o.overflow = 0;
        uint32_t op = fvmut_rand(rng, tlen > 0 ? 10 : 9);
        size_t n = v->n;
        if (n == 0)
            op = 0;
        size_t i = fvmut_rand(rng, (uint32_t)(n + 1)); /* a boundary */
        int done = 1;
        switch (op) {
        case 0: /* insert */
        case 1:
            put_range(&o, v, 0, i);
            random_insn(l->kind, &o, rng);
            put_range(&o, v, i, n);
            break;
        case 2: /* delete */
            if (i == n)
                i--;
            put_range(&o, v, 0, i);
            put_range(&o, v, i + 1, n);
            break;
        case 3: /* replace */
            if (i == n)
                i--;
            put_range(&o, v, 0, i);
            random_insn(l->kind, &o, rng);
            put_range(&o, v, i + 1, n);
            break;
        case 4: /* change an operand */
        case 5: {
            /* Prefer an instruction that has operands. */
            if (i == n)
                i--;
            size_t k = 0;
            while (k < n && !is_push(l->kind, v->code[v->off[(i + k) % n]]))
                k++;
            if (k == n) {
                done = 0;
                break;
            }
            i = (i + k) % n;
            put_range(&o, v, 0, i);
            done = change_operand(l->kind, v, i, &o, rng);
            put_range(&o, v, i + 1, n);
            break;
        }
        case 6: { /* grow/shrink a push (TT) or duplicate a run (GR) */
            if (l->kind == FVMUT_TT) {
                if (i == n)
                    i--;
                put_range(&o, v, 0, i);
                done = tt_resize_push(v, i, (int)fvmut_rand(rng, 2), &o, rng);
                put_range(&o, v, i + 1, n);
                break;
            }
        }
            /* fall through */
        case 7: { /* duplicate a run of instructions somewhere */
            size_t from, to;
            pick_run(v, rng, &from, &to);
            put_range(&o, v, 0, i);
            put_range(&o, v, from, to);
            put_range(&o, v, i, n);
            break;
        }
        case 8: { /* splice a function (TT) or swap two neighbours */
            size_t from, to;
            if (l->kind == FVMUT_TT && find_function(v, rng, &from, &to)) {
                put_range(&o, v, 0, i);
                put_range(&o, v, from, to);
                put_range(&o, v, i, n);
            } else if (n >= 2) {
                if (i + 1 >= n)
                    i = n - 2;
                put_range(&o, v, 0, i);
                put_range(&o, v, i + 1, i + 2);
                put_range(&o, v, i, i + 1);
                put_range(&o, v, i + 2, n);
            } else {
                done = 0;
            }
            break;
        }
        default: /* tweak one trailer byte; the code stays */
            put_range(&o, v, 0, n);
            tweak_trailer = 1;
            break;
        }
        /* The undecoded tail (beyond FVMUT_MAX_INSNS) stays as it was. */
        if (done && !o.overflow)
            put(&o, data + v->off[n], clen - v->off[n]);
        if (done && !o.overflow && o.len > 0)
            break;
        o.len = 0;
    }
    if (o.len == 0) { /* nothing applied: keep the code as it was */
        o.overflow = 0;
        put(&o, data, clen);
    }
    size_t out = o.len;
    uint8_t trailer[64];
    if (tlen > sizeof trailer) /* layouts keep trailers far shorter */
        tlen = 0;
    memcpy(trailer, data + clen, tlen);
    if (tweak_trailer && tlen > 0)
        trailer[fvmut_rand(rng, (uint32_t)tlen)] ^= (uint8_t)(1u << fvmut_rand(rng, 8));
    memcpy(data, buf, out);
    memcpy(data + out, trailer, tlen);
    free(buf);
    free(v);
    return out + tlen;
}

size_t fvmut_crossover(const fvmut_layout *l, const uint8_t *a, size_t an, const uint8_t *b,
                       size_t bn, uint8_t *out, size_t max, fvmut_rng *rng)
{
    if (l->kind == FVMUT_FONT)
        return fvmut_font_crossover(l, a, an, b, bn, out, max, rng);
    size_t alen = code_part(l, a, an), blen = code_part(l, b, bn);
    size_t tlen = an - alen;
    if (tlen > max)
        return 0;
    code_view *va = malloc(sizeof *va), *vb = malloc(sizeof *vb);
    if (va == NULL || vb == NULL) {
        free(va);
        free(vb);
        return 0;
    }
    decode(l->kind, a, alen, va);
    decode(l->kind, b, blen, vb);
    outbuf o = {out, 0, max - tlen, 0};
    size_t i = fvmut_rand(rng, (uint32_t)(va->n + 1));
    size_t from = 0, to = 0;
    if (vb->n > 0 && !(l->kind == FVMUT_TT && fvmut_rand(rng, 2) && find_function(vb, rng, &from, &to)))
        pick_run(vb, rng, &from, &to);
    put_range(&o, va, 0, i);
    put_range(&o, vb, from, to);
    put_range(&o, va, i, va->n);
    if (!o.overflow)
        put(&o, a + va->off[va->n], alen - va->off[va->n]);
    if (o.overflow) {
        o.len = 0;
        o.overflow = 0;
        put(&o, a, alen);
    }
    size_t len = o.len;
    if (tlen > 0)
        memcpy(out + len, a + alen, tlen);
    free(va);
    free(vb);
    return len + tlen;
}
