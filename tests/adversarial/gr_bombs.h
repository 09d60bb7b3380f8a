/* Adversarial Graphite fonts, generated at test time (issue 14): graphite2's
 * test font small.ttf with its Silf table replaced by one written here, so
 * that every pass, rule and piece of code is ours.  Test code, not library
 * code.
 *
 * Every pass of a generated Silf has one FSM column (every glyph) and a
 * chain of states that matches any run of `span` slots, offering all its
 * `num_rules` rules (each spanning those slots) at every position; each
 * rule has its own constraint and action code, given as bytes.  With 128
 * rules whose constraints hold on every slot but the last, one pass-loop
 * step runs 128 x (span - 1) constraints: the work graphite2 does not
 * bound.  Tables follow the GTF Silf layout (version 3, or 5 compressed
 * with LZ4 for the expansion bombs) as vm/graphite/silf.c reads it. */
#ifndef FV_TEST_GR_BOMBS_H
#define FV_TEST_GR_BOMBS_H

#include <lz4.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fontvm/fontvm.h"
#include "fontvm/graphite.h"
#include "graphite/grv.h"
#include "test_support.h"

/* A growable byte buffer. */
typedef struct grb_buf {
    uint8_t *d;
    size_t n, cap;
} grb_buf;

static inline void grb_reserve(grb_buf *b, size_t more)
{
    if (b->n + more <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + more)
        cap *= 2;
    b->d = realloc(b->d, cap);
    assert_non_null(b->d);
    b->cap = cap;
}
static inline void grb_u8(grb_buf *b, unsigned v)
{
    grb_reserve(b, 1);
    b->d[b->n++] = (uint8_t)v;
}
static inline void grb_u16(grb_buf *b, unsigned v) { grb_u8(b, v >> 8); grb_u8(b, v & 0xFF); }
static inline void grb_u32(grb_buf *b, uint32_t v) { grb_u16(b, v >> 16); grb_u16(b, v & 0xFFFF); }
static inline void grb_bytes(grb_buf *b, const uint8_t *p, size_t n)
{
    grb_reserve(b, n);
    memcpy(b->d + b->n, p, n);
    b->n += n;
}
static inline void grb_put16(grb_buf *b, size_t at, unsigned v)
{
    b->d[at] = (uint8_t)(v >> 8);
    b->d[at + 1] = (uint8_t)v;
}
static inline void grb_put32(grb_buf *b, size_t at, uint32_t v)
{
    grb_put16(b, at, v >> 16);
    grb_put16(b, at + 2, v & 0xFFFF);
}

/* One generated pass. */
typedef struct grb_pass {
    uint8_t max_rule_loop;
    uint8_t span;              /* slots each rule matches, 1..62 */
    uint16_t num_rules;        /* 1..128 useful (graphite2 offers 128) */
    const uint8_t *constraint; /* every rule's constraint code (NULL: none) */
    size_t constraint_len;
    const uint8_t *action;     /* every rule's action code */
    size_t action_len;
} grb_pass;

/* What the base font (small.ttf) gives the Silf header. */
typedef struct grb_base {
    uint8_t *font;
    size_t size;
    uint16_t num_glyphs;
    uint32_t rule_version;
    uint8_t attr_pseudo, attr_break, attr_dir, attr_mirror;
} grb_base;

static inline void grb_base_load(grb_base *b)
{
    char path[1024];
    test_source_path(path, sizeof path, TEST_PEER_GRAPHITE2 "/fonts/small.ttf");
    b->font = test_read_file(path, &b->size);
    assert_non_null(b->font);
    fv_font *f = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    assert_int_equal(fv_font_open_memory(b->font, b->size, 0, NULL, &f, &err), FV_OK);
    assert_int_equal(fv_gr_face_new(f, &face, &err), FV_OK);
    b->num_glyphs = (uint16_t)face->num_glyphs;
    b->rule_version = face->silf.rule_version;
    b->attr_pseudo = face->silf.attr_pseudo;
    b->attr_break = face->silf.attr_break;
    b->attr_dir = face->silf.attr_dir;
    b->attr_mirror = face->silf.attr_mirror;
    fv_gr_face_free(face);
    fv_font_close(f);
}

/* Appends one pass (at subtable offset `start` = the buffer's length). */
static inline void grb_write_pass(grb_buf *s, const grb_base *base, const grb_pass *p)
{
    size_t start = s->n;
    uint16_t nr = p->num_rules;
    uint16_t rows = (uint16_t)(p->span + 2), trans = (uint16_t)(p->span + 1);
    grb_u8(s, 0);                 /* flags */
    grb_u8(s, p->max_rule_loop);
    grb_u8(s, p->span);           /* maxRuleContext */
    grb_u8(s, 0);                 /* maxBackup */
    grb_u16(s, nr);
    grb_u16(s, 0);                /* fsmOffset (unused) */
    size_t code_offsets = s->n;
    grb_u32(s, 0);                /* pcCode, rcCode, aCode: patched below */
    grb_u32(s, 0);
    grb_u32(s, 0);
    grb_u32(s, 0);                /* oDebug */
    grb_u16(s, rows);
    grb_u16(s, trans);
    grb_u16(s, 1);                /* numSuccess: the state after `span` slots */
    grb_u16(s, 1);                /* numColumns */
    grb_u16(s, 1);                /* numRange */
    grb_u16(s, 6);
    grb_u16(s, 0);
    grb_u16(s, 0);
    grb_u16(s, 0);                /* every glyph in column 0 */
    grb_u16(s, (unsigned)base->num_glyphs - 1);
    grb_u16(s, 0);
    grb_u16(s, 0);                /* rule map offsets of the success state */
    grb_u16(s, nr);
    for (unsigned i = 0; i < nr; i++)
        grb_u16(s, i);
    grb_u8(s, 0);                 /* min and max pre-context */
    grb_u8(s, 0);
    grb_u16(s, 1);                /* start state */
    for (unsigned i = 0; i < nr; i++)
        grb_u16(s, p->span);      /* sort keys */
    for (unsigned i = 0; i < nr; i++)
        grb_u8(s, 0);             /* pre-contexts */
    grb_u8(s, 0);                 /* collision threshold */
    grb_u16(s, 0);                /* pass constraint length */
    /* constraints: a zero offset means none, so the block starts with a
     * byte no rule owns */
    size_t clen = p->constraint ? p->constraint_len : 0;
    size_t cblock = clen ? 1 + clen * nr : 0;
    assert_true(cblock <= 0xFFFF && p->action_len * nr <= 0xFFFF);
    for (unsigned i = 0; i <= nr; i++)
        grb_u16(s, clen ? (unsigned)(1 + clen * i) : 0);
    for (unsigned i = 0; i <= nr; i++)
        grb_u16(s, (unsigned)(p->action_len * i));
    grb_u16(s, 0);                /* state 0: no match */
    for (unsigned k = 1; k < trans; k++)
        grb_u16(s, k + 1);        /* k slots matched -> k + 1 */
    grb_u8(s, 0);                 /* reserved */
    uint32_t pc = (uint32_t)s->n;
    if (cblock) {
        grb_u8(s, 0);
        for (unsigned i = 0; i < nr; i++)
            grb_bytes(s, p->constraint, clen);
    }
    uint32_t ac = (uint32_t)s->n;
    for (unsigned i = 0; i < nr; i++)
        grb_bytes(s, p->action, p->action_len);
    while (s->n - start < 40)
        grb_u8(s, 0);             /* graphite2's shortest pass */
    grb_put32(s, code_offsets, pc);
    grb_put32(s, code_offsets + 4, pc);
    grb_put32(s, code_offsets + 8, ac);
}

/* A Silf table: version 3 (lz4 = 0); version 5 LZ4-compressed (lz4 = 1),
 * the table then padded with `pad` zero bytes before compression; or the
 * same version 5 table stored uncompressed (lz4 = 2, no padding). */
static inline grb_buf grb_silf(const grb_base *base, const grb_pass *passes, unsigned npasses,
                               int lz4, size_t pad)
{
    grb_buf s = {0};
    grb_u32(&s, base->rule_version);
    grb_u16(&s, 0);               /* passOffset, pseudosOffset (unused) */
    grb_u16(&s, 0);
    grb_u16(&s, (unsigned)base->num_glyphs - 1);
    grb_u16(&s, 0);
    grb_u16(&s, 0);
    const uint8_t hdr[14] = {(uint8_t)npasses, 0, (uint8_t)npasses, (uint8_t)npasses, 0xFF, 0,
                             0, 0, base->attr_pseudo, base->attr_break, base->attr_dir,
                             base->attr_mirror, 0, 0};
    grb_bytes(&s, hdr, sizeof hdr);
    grb_u16(&s, 0);               /* aLig */
    grb_u8(&s, 0);                /* numUserDefn */
    grb_u8(&s, 0);                /* maxCompPerLig */
    grb_u8(&s, 1);                /* direction: left to right */
    grb_u8(&s, 0);                /* attCollisions */
    grb_u8(&s, 0);
    grb_u8(&s, 0);
    grb_u8(&s, 0);
    grb_u8(&s, 0);                /* numCritFeatures, reserved */
    grb_u8(&s, 0);
    grb_u8(&s, 0);                /* numScriptTag */
    grb_u16(&s, 0);               /* lbGID */
    size_t opass = s.n;
    for (unsigned i = 0; i <= npasses; i++)
        grb_u32(&s, 0);
    grb_u16(&s, 0);               /* numPseudo and its search header */
    grb_u16(&s, 0);
    grb_u16(&s, 0);
    grb_u16(&s, 0);
    grb_u16(&s, 0);               /* class map: no classes; one offset, */
    grb_u16(&s, 0);               /* 32-bit from version 4 on */
    if (lz4)
        grb_u32(&s, 8);
    else
        grb_u16(&s, 6);
    for (unsigned i = 0; i < npasses; i++) {
        grb_put32(&s, opass + 4u * i, (uint32_t)s.n);
        grb_write_pass(&s, base, &passes[i]);
    }
    grb_put32(&s, opass + 4u * npasses, (uint32_t)s.n);
    grb_buf t = {0};
    grb_u32(&t, lz4 ? 0x00050000u : 0x00030000u);
    grb_u32(&t, 0);               /* compiler version / compression word */
    grb_u16(&t, 1);               /* numSilf */
    grb_u16(&t, 0);
    grb_u32(&t, 16);              /* the one subtable */
    grb_bytes(&t, s.d, s.n);
    free(s.d);
    if (!lz4)
        return t;
    if (lz4 == 2)
        return t; /* version 5, compression word 0: stored as it is */
    grb_reserve(&t, pad);
    memset(t.d + t.n, 0, pad);
    t.n += pad;
    assert_true(t.n < 0x08000000u);
    int bound = LZ4_compressBound((int)t.n);
    grb_buf z = {0};
    grb_reserve(&z, 8 + (size_t)bound);
    grb_u32(&z, 0x00050000u);
    grb_u32(&z, 1u << 27 | (uint32_t)t.n); /* scheme 1 (LZ4), expanded size */
    int n = LZ4_compress_default((const char *)t.d, (char *)z.d + 8, (int)t.n, bound);
    assert_true(n > 0);
    z.n = 8 + (size_t)n;
    free(t.d);
    return z;
}

static inline uint32_t grb_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The base font with its Silf replaced by `silf` (a new sfnt: same tables
 * in the same order, 4-byte aligned; checksums are not checked by the
 * engines). */
static inline grb_buf grb_font(const grb_base *base, const grb_buf *silf)
{
    const uint8_t *f = base->font;
    unsigned n = (unsigned)f[4] << 8 | f[5];
    grb_buf out = {0};
    grb_bytes(&out, f, 12 + 16u * n);
    for (unsigned i = 0; i < n; i++) {
        const uint8_t *rec = f + 12 + 16u * i;
        const uint8_t *data = f + grb_be32(rec + 8);
        size_t len = grb_be32(rec + 4 + 8);
        if (!memcmp(rec, "Silf", 4)) {
            data = silf->d;
            len = silf->n;
        }
        grb_put32(&out, 12 + 16u * i + 8, (uint32_t)out.n);
        grb_put32(&out, 12 + 16u * i + 12, (uint32_t)len);
        grb_bytes(&out, data, len);
        while (out.n % 4)
            grb_u8(&out, 0);
    }
    return out;
}

#endif
