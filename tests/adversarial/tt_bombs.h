/* Adversarial TrueType fonts: small files that make a naive interpreter
 * work for seconds or minutes (issue 14).  Each generator returns a
 * malloc'd font the caller frees; the tests (test_tt_budget.c) and the
 * benchmark (tt_budget_bench.c) load them.  Header-only test code.
 *
 *   tb_composite_fanout   glyph of n references to a glyph of n references
 *                         ... to an empty (or instructed) glyph
 *   tb_skipped_loopcall   prep LOOPCALLs an fpgm function that skips a
 *                         long IF body (FDEF 0 { PUSHB 0 IF <body> EIF })
 *   tb_long_definition    an fpgm FDEF whose body has n bytes
 *   tb_call_chain         fpgm functions f0..f(n-1), each calling the next;
 *                         prep calls f0
 *   tb_jump_loop          prep or glyph program looping backwards with JMPR
 */
#ifndef FV_TEST_TT_BOMBS_H
#define FV_TEST_TT_BOMBS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- Growable byte buffer ------------------------------------------------ */

typedef struct tb_buf {
    uint8_t *p;
    size_t len, cap;
} tb_buf;

static inline void tb_u8(tb_buf *b, unsigned v)
{
    if (b->len == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 256;
        uint8_t *p = realloc(b->p, cap);
        if (!p)
            abort(); /* test code: out of memory ends the test */
        b->p = p;
        b->cap = cap;
    }
    b->p[b->len++] = (uint8_t)v;
}
static inline void tb_u16(tb_buf *b, unsigned v) { tb_u8(b, v >> 8); tb_u8(b, v & 0xFF); }
static inline void tb_u32(tb_buf *b, uint32_t v) { tb_u16(b, v >> 16); tb_u16(b, v & 0xFFFF); }
static inline void tb_fill(tb_buf *b, unsigned v, size_t n) { while (n--) tb_u8(b, v); }
static inline void tb_free(tb_buf *b) { free(b->p); memset(b, 0, sizeof *b); }

/* Bytecode helpers. */
enum {
    TB_SVTCA_Y = 0x00, TB_ELSE = 0x1B, TB_JMPR = 0x1C, TB_DUP = 0x20, TB_POP = 0x21,
    TB_LOOPCALL = 0x2A, TB_CALL = 0x2B, TB_FDEF = 0x2C, TB_ENDF = 0x2D, TB_IF = 0x58,
    TB_EIF = 0x59, TB_NPUSHB = 0x40, TB_PUSHB1 = 0xB0, TB_PUSHW1 = 0xB8
};
static inline void tb_pushb(tb_buf *b, unsigned v) { tb_u8(b, TB_PUSHB1); tb_u8(b, v); }
static inline void tb_pushw(tb_buf *b, int v) { tb_u8(b, TB_PUSHW1); tb_u16(b, (unsigned)v & 0xFFFF); }

/* ---- The font ------------------------------------------------------------ */

typedef struct tb_spec {
    uint32_t num_glyphs;     /* <= 65535 */
    tb_buf *glyphs;          /* num_glyphs glyph records (empty: no outline) */
    tb_buf fpgm, prep;       /* empty: no table */
    uint32_t cvt_count;      /* CVT entries (all 0) */
    uint16_t max_points, max_contours, max_component_elements, max_component_depth;
    uint16_t max_function_defs, max_stack, max_instructions;
} tb_spec;

static inline void tb_spec_init(tb_spec *s, uint32_t num_glyphs)
{
    memset(s, 0, sizeof *s);
    s->num_glyphs = num_glyphs;
    s->glyphs = calloc(num_glyphs, sizeof(tb_buf));
    if (!s->glyphs)
        abort();
    s->max_points = 64;
    s->max_contours = 4;
    s->max_component_elements = 0xFFFF;
    s->max_component_depth = 16;
    s->max_function_defs = 64;
    s->max_stack = 256;
    s->max_instructions = 0xFFFF;
}

static inline void tb_spec_free(tb_spec *s)
{
    for (uint32_t i = 0; i < s->num_glyphs; i++)
        tb_free(&s->glyphs[i]);
    free(s->glyphs);
    tb_free(&s->fpgm);
    tb_free(&s->prep);
}

/* A square of 4 on-curve points carrying `code` as its instructions. */
static inline void tb_glyph_square(tb_buf *g, const tb_buf *code)
{
    tb_u16(g, 1);
    tb_u16(g, 0); tb_u16(g, 0); tb_u16(g, 500); tb_u16(g, 500);
    tb_u16(g, 3);
    tb_u16(g, code ? (unsigned)code->len : 0);
    for (size_t i = 0; code && i < code->len; i++)
        tb_u8(g, code->p[i]);
    tb_fill(g, 0x01, 4);                                        /* on curve, word deltas */
    tb_u16(g, 0); tb_u16(g, 500); tb_u16(g, 0); tb_u16(g, 0xFE0C); /* x */
    tb_u16(g, 0); tb_u16(g, 0); tb_u16(g, 500); tb_u16(g, 0);      /* y */
}

/* A composite of n references to glyph `child` (offsets 0,0), the last
 * carrying `code` as instructions when code is non-NULL. */
static inline void tb_glyph_composite(tb_buf *g, uint32_t n, uint16_t child, const tb_buf *code)
{
    tb_u16(g, 0xFFFF);
    tb_u16(g, 0); tb_u16(g, 0); tb_u16(g, 500); tb_u16(g, 500);
    for (uint32_t i = 0; i < n; i++) {
        unsigned flags = 0x0002;            /* ARGS_ARE_XY_VALUES, byte args */
        if (i + 1 < n)
            flags |= 0x0020;                /* MORE_COMPONENTS */
        else if (code)
            flags |= 0x0100;                /* WE_HAVE_INSTRUCTIONS */
        tb_u16(g, flags);
        tb_u16(g, child);
        tb_u8(g, 0);
        tb_u8(g, 0);
    }
    if (code) {
        tb_u16(g, (unsigned)code->len);
        for (size_t i = 0; i < code->len; i++)
            tb_u8(g, code->p[i]);
    }
}

typedef struct tb_table {
    const char *tag;
    tb_buf data;
} tb_table;

static inline uint32_t tb_tag(const char *t)
{
    return (uint32_t)(uint8_t)t[0] << 24 | (uint32_t)(uint8_t)t[1] << 16 |
           (uint32_t)(uint8_t)t[2] << 8 | (uint8_t)t[3];
}

/* Serialises the font (tables sorted by tag, 4-byte aligned, long loca). */
static inline uint8_t *tb_build(const tb_spec *s, size_t *size)
{
    tb_table t[9];
    int n = 0;
    memset(t, 0, sizeof t);
    tb_buf *glyf = &t[n].data;
    t[n++].tag = "glyf";
    tb_buf *loca = &t[n].data;
    t[n++].tag = "loca";
    for (uint32_t i = 0; i < s->num_glyphs; i++) {
        tb_u32(loca, (uint32_t)glyf->len);
        for (size_t k = 0; k < s->glyphs[i].len; k++)
            tb_u8(glyf, s->glyphs[i].p[k]);
        while (glyf->len & 3)
            tb_u8(glyf, 0);
    }
    tb_u32(loca, (uint32_t)glyf->len);
    tb_buf *head = &t[n].data;
    t[n++].tag = "head";
    tb_u32(head, 0x00010000); tb_u32(head, 0x00010000); tb_u32(head, 0); tb_u32(head, 0x5F0F3CF5);
    tb_u16(head, 0x000B); tb_u16(head, 1000);
    tb_fill(head, 0, 16);
    tb_u16(head, 0); tb_u16(head, 0); tb_u16(head, 500); tb_u16(head, 500);
    tb_u16(head, 0); tb_u16(head, 8); tb_u16(head, 2); tb_u16(head, 1); tb_u16(head, 0);
    tb_buf *hhea = &t[n].data;
    t[n++].tag = "hhea";
    tb_u32(hhea, 0x00010000); tb_u16(hhea, 800); tb_u16(hhea, 0xFF38); tb_u16(hhea, 0);
    tb_u16(hhea, 600); tb_fill(hhea, 0, 6); tb_u16(hhea, 1); tb_fill(hhea, 0, 14); tb_u16(hhea, 1);
    tb_buf *hmtx = &t[n].data;
    t[n++].tag = "hmtx";
    tb_u16(hmtx, 600); tb_u16(hmtx, 0);
    tb_fill(hmtx, 0, 2 * (size_t)(s->num_glyphs - 1));
    tb_buf *maxp = &t[n].data;
    t[n++].tag = "maxp";
    tb_u32(maxp, 0x00010000); tb_u16(maxp, s->num_glyphs);
    tb_u16(maxp, s->max_points); tb_u16(maxp, s->max_contours);
    tb_u16(maxp, s->max_points); tb_u16(maxp, s->max_contours);
    tb_u16(maxp, 2);                          /* maxZones */
    tb_u16(maxp, 16);                         /* maxTwilightPoints */
    tb_u16(maxp, 16);                         /* maxStorage */
    tb_u16(maxp, s->max_function_defs);
    tb_u16(maxp, 0);                          /* maxInstructionDefs */
    tb_u16(maxp, s->max_stack);
    tb_u16(maxp, s->max_instructions);
    tb_u16(maxp, s->max_component_elements);
    tb_u16(maxp, s->max_component_depth);
    if (s->cvt_count) {
        t[n].tag = "cvt ";
        tb_fill(&t[n++].data, 0, 2 * (size_t)s->cvt_count);
    }
    if (s->fpgm.len) {
        t[n].tag = "fpgm";
        for (size_t k = 0; k < s->fpgm.len; k++)
            tb_u8(&t[n].data, s->fpgm.p[k]);
        n++;
    }
    if (s->prep.len) {
        t[n].tag = "prep";
        for (size_t k = 0; k < s->prep.len; k++)
            tb_u8(&t[n].data, s->prep.p[k]);
        n++;
    }
    /* Sort by tag (insertion sort, n <= 9). */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && tb_tag(t[j - 1].tag) > tb_tag(t[j].tag); j--) {
            tb_table x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    tb_buf out = {0};
    tb_u32(&out, 0x00010000);
    tb_u16(&out, (unsigned)n);
    tb_fill(&out, 0, 6);
    size_t off = 12 + 16 * (size_t)n;
    for (int i = 0; i < n; i++) {
        tb_u32(&out, tb_tag(t[i].tag));
        tb_u32(&out, 0);
        tb_u32(&out, (uint32_t)off);
        tb_u32(&out, (uint32_t)t[i].data.len);
        off += (t[i].data.len + 3) & ~(size_t)3;
    }
    for (int i = 0; i < n; i++) {
        for (size_t k = 0; k < t[i].data.len; k++)
            tb_u8(&out, t[i].data.p[k]);
        while (out.len & 3)
            tb_u8(&out, 0);
        tb_free(&t[i].data);
    }
    *size = out.len;
    return out.p;
}

/* ---- Generators ---------------------------------------------------------- */

/* Serialises the spec and frees it. */
static inline uint8_t *tb_finish(tb_spec *s, size_t *size)
{
    uint8_t *font = tb_build(s, size);
    tb_spec_free(s);
    return font;
}

/* Glyph 1 is a square carrying `leaf_code` (NULL: none) or, when
 * leaf_empty, an empty glyph; glyph k+1 (k = 1..levels) is a composite of
 * `fanout` references to glyph k.  The top glyph is levels + 1. */
static inline uint8_t *tb_composite_fanout(uint32_t fanout, uint32_t levels, int leaf_empty,
                                           const tb_buf *leaf_code, size_t *size)
{
    tb_spec s;
    tb_spec_init(&s, levels + 2);
    if (!leaf_empty)
        tb_glyph_square(&s.glyphs[1], leaf_code);
    for (uint32_t k = 1; k <= levels; k++)
        tb_glyph_composite(&s.glyphs[k + 1], fanout, (uint16_t)k, NULL);
    return tb_finish(&s, size);
}

/* fpgm: FDEF 0 { PUSHB 0; IF; <body_bytes of SVTCA[y]>; EIF } ENDF, or
 * with `in_else` FDEF 0 { PUSHB 1; IF; ELSE; <body>; EIF } ENDF (the ELSE
 * skips the body).  prep: PUSHW count; PUSHB 0; LOOPCALL.  FreeType's
 * LOOPCALL allowance for prep (300 + 22 x CVT entries, at most 100 x
 * glyphs) is raised with a large CVT and glyph count so that the count is
 * allowed. */
static inline uint8_t *tb_skipped_loopcall_else(uint32_t body_bytes, uint16_t count, int in_else,
                                                size_t *size)
{
    uint32_t cvt = (uint32_t)count / 22 + 1;
    uint32_t glyphs = (uint32_t)count / 100 + 2;
    tb_spec s;
    tb_spec_init(&s, glyphs);
    s.cvt_count = cvt;
    tb_pushb(&s.fpgm, 0);
    tb_u8(&s.fpgm, TB_FDEF);
    tb_pushb(&s.fpgm, in_else ? 1 : 0);
    tb_u8(&s.fpgm, TB_IF);
    if (in_else)
        tb_u8(&s.fpgm, TB_ELSE);
    tb_fill(&s.fpgm, TB_SVTCA_Y, body_bytes);
    tb_u8(&s.fpgm, TB_EIF);
    tb_u8(&s.fpgm, TB_ENDF);
    tb_pushw(&s.prep, count);
    tb_pushb(&s.prep, 0);
    tb_u8(&s.prep, TB_LOOPCALL);
    return tb_finish(&s, size);
}

static inline uint8_t *tb_skipped_loopcall(uint32_t body_bytes, uint16_t count, size_t *size)
{
    return tb_skipped_loopcall_else(body_bytes, count, 0, size);
}

/* fpgm: FDEF 0 { <body_bytes of SVTCA[y]> } ENDF; prep: CALL 0. */
static inline uint8_t *tb_long_definition(uint32_t body_bytes, size_t *size)
{
    tb_spec s;
    tb_spec_init(&s, 2);
    tb_pushb(&s.fpgm, 0);
    tb_u8(&s.fpgm, TB_FDEF);
    tb_fill(&s.fpgm, TB_SVTCA_Y, body_bytes);
    tb_u8(&s.fpgm, TB_ENDF);
    tb_pushb(&s.prep, 0);
    tb_u8(&s.prep, TB_CALL);
    return tb_finish(&s, size);
}

/* fpgm: f0..f(n-1), f_i calls f_(i+1), the last does nothing; prep calls
 * f0: n nested calls (FreeType allows 32). */
static inline uint8_t *tb_call_chain(uint32_t n, size_t *size)
{
    tb_spec s;
    tb_spec_init(&s, 2);
    s.max_function_defs = (uint16_t)(n > 64 ? n : 64);
    for (uint32_t i = 0; i < n; i++) {
        tb_pushb(&s.fpgm, i);
        tb_u8(&s.fpgm, TB_FDEF);
        if (i + 1 < n) {
            tb_pushb(&s.fpgm, i + 1);
            tb_u8(&s.fpgm, TB_CALL);
        }
        tb_u8(&s.fpgm, TB_ENDF);
    }
    tb_pushb(&s.prep, 0);
    tb_u8(&s.prep, TB_CALL);
    return tb_finish(&s, size);
}

/* A program that loops backwards for ever: `pairs` DUP/POP pairs (on a
 * value pushed first) then PUSHW -(distance back to the loop start); JMPR.
 * The distance is a signed 16-bit push: pairs <= 16,382. */
static inline void tb_jump_loop_code(tb_buf *code, uint32_t pairs)
{
    tb_pushb(code, 1);
    size_t start = code->len;
    for (uint32_t i = 0; i < pairs; i++) {
        tb_u8(code, TB_DUP);
        tb_u8(code, TB_POP);
    }
    size_t jmpr_at = code->len + 3; /* after PUSHW and its word */
    tb_pushw(code, -(int)(jmpr_at - start));
    tb_u8(code, TB_JMPR);
}

#endif
