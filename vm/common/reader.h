/* Bounded big-endian reader.
 *
 * Untrusted data is only ever touched through an fv_span (pointer + length)
 * and these accessors.  Every read takes the offset inside the span, widens
 * before adding (offset + size is computed in 64 bits), and returns
 * FV_E_TRUNCATED instead of reading past the end.
 *
 * The one exception is bytecode: an interpreter reads its instruction stream
 * by index, one byte at a time, and a call per byte would cost it its speed.
 * That is allowed only on an fv_span's own bytes, at an offset the same
 * function (or the length function it calls) has just compared with the
 * span's length in 64 bits, and only for these readers:
 *   - TrueType (vm/tt): the run loop in interp.c (pc < len at the top of
 *     every iteration; tt_insn_length in opcodes.h checks that an
 *     instruction's inline data fits before anything reads it), the pushes
 *     in ins_stack.h (which re-derive that checked length), IF and
 *     definition skipping in ins_control.c, tt_decode in opcodes.c;
 *   - Graphite (vm/graphite): the rule-code verifier and decoder in
 *     verify.c, machine.c and disasm.c (each instruction's argument bytes
 *     are checked against the span before they are read; the compiled
 *     code keeps offsets checked at load);
 *   - the disassembler of the CLI (vm/cli/cmd_disasm.c) and the name-table
 *     string decoder in vm/sfnt/sfnt.c (i < len).
 * Everything else reads font data through the accessors below. */
#ifndef FV_COMMON_READER_H
#define FV_COMMON_READER_H

#include <stddef.h>
#include <stdint.h>

#include "common/check.h"
#include "fontvm/error.h"

typedef struct fv_span {
    const uint8_t *data;
    size_t len;
} fv_span;

static inline int fv_span_has(fv_span s, uint64_t off, uint64_t size)
{
    FV_TESTCASE(off <= s.len && size == (uint64_t)s.len - off);     /* ends exactly at the end */
    FV_TESTCASE(off <= s.len && size == (uint64_t)s.len - off + 1); /* one byte past it */
    return off <= s.len && size <= (uint64_t)s.len - off;
}

/* Sub-span [off, off+len) of s; FV_E_TRUNCATED if it does not fit. */
static inline fv_status fv_span_sub(fv_span s, uint64_t off, uint64_t len, fv_span *out)
{
    if (!fv_span_has(s, off, len))
        return FV_E_TRUNCATED;
    out->data = s.data + off;
    out->len = (size_t)len;
    return FV_OK;
}

/* Sub-span from off to the end of s. */
static inline fv_status fv_span_tail(fv_span s, uint64_t off, fv_span *out)
{
    if (off > s.len)
        return FV_E_TRUNCATED;
    return fv_span_sub(s, off, (uint64_t)s.len - off, out);
}

static inline fv_status fv_rd_u8(fv_span s, uint64_t off, uint8_t *v)
{
    if (!fv_span_has(s, off, 1))
        return FV_E_TRUNCATED;
    *v = s.data[off];
    return FV_OK;
}

static inline fv_status fv_rd_u16(fv_span s, uint64_t off, uint16_t *v)
{
    if (!fv_span_has(s, off, 2))
        return FV_E_TRUNCATED;
    *v = (uint16_t)((unsigned)s.data[off] << 8 | s.data[off + 1]);
    return FV_OK;
}

static inline fv_status fv_rd_s16(fv_span s, uint64_t off, int16_t *v)
{
    uint16_t u;
    fv_status st = fv_rd_u16(s, off, &u);
    if (st == FV_OK)
        *v = (int16_t)u; /* implementation-defined only for C < C23; all our targets are two's complement */
    return st;
}

static inline fv_status fv_rd_u24(fv_span s, uint64_t off, uint32_t *v)
{
    if (!fv_span_has(s, off, 3))
        return FV_E_TRUNCATED;
    *v = (uint32_t)s.data[off] << 16 | (uint32_t)s.data[off + 1] << 8 | s.data[off + 2];
    return FV_OK;
}

static inline fv_status fv_rd_u32(fv_span s, uint64_t off, uint32_t *v)
{
    if (!fv_span_has(s, off, 4))
        return FV_E_TRUNCATED;
    *v = (uint32_t)s.data[off] << 24 | (uint32_t)s.data[off + 1] << 16 |
         (uint32_t)s.data[off + 2] << 8 | s.data[off + 3];
    return FV_OK;
}

static inline fv_status fv_rd_s32(fv_span s, uint64_t off, int32_t *v)
{
    uint32_t u;
    fv_status st = fv_rd_u32(s, off, &u);
    if (st == FV_OK)
        *v = (int32_t)u;
    return st;
}

/* A cursor over a span for sequential parsing: each call advances `pos` on
 * success and leaves it untouched on failure. */
typedef struct fv_cursor {
    fv_span s;
    uint64_t pos;
} fv_cursor;

static inline fv_cursor fv_cursor_at(fv_span s, uint64_t pos)
{
    fv_cursor c;
    c.s = s;
    c.pos = pos;
    return c;
}

static inline fv_status fv_cur_u8(fv_cursor *c, uint8_t *v)
{
    fv_status st = fv_rd_u8(c->s, c->pos, v);
    if (st == FV_OK)
        c->pos += 1;
    return st;
}

static inline fv_status fv_cur_u16(fv_cursor *c, uint16_t *v)
{
    fv_status st = fv_rd_u16(c->s, c->pos, v);
    if (st == FV_OK)
        c->pos += 2;
    return st;
}

static inline fv_status fv_cur_s16(fv_cursor *c, int16_t *v)
{
    fv_status st = fv_rd_s16(c->s, c->pos, v);
    if (st == FV_OK)
        c->pos += 2;
    return st;
}

static inline fv_status fv_cur_u32(fv_cursor *c, uint32_t *v)
{
    fv_status st = fv_rd_u32(c->s, c->pos, v);
    if (st == FV_OK)
        c->pos += 4;
    return st;
}

static inline fv_status fv_cur_skip(fv_cursor *c, uint64_t n)
{
    if (!fv_span_has(c->s, c->pos, n))
        return FV_E_TRUNCATED;
    c->pos += n;
    return FV_OK;
}

#define FV_TAG(a, b, c, d) \
    ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

#endif
