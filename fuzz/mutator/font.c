/* Structure-aware mutation of whole sfnt fonts (the FVMUT_FONT layouts of
 * tt_font_diff and gr_font_diff); see mutator.h.
 *
 * Byte-level mutation of a font mostly breaks its table directory, so both
 * engines refuse it the same way and nothing past the directory is tested.
 * Here the directory is read, one table (or the directory itself) is
 * chosen and edited, and the font is written back with a consistent
 * directory, unless the edit is to the directory itself:
 *   - in place: flip a bit, or set a 16-bit field to an interesting value,
 *     in a table; set a known count field (maxp's maxima and glyph count,
 *     head's indexToLocFormat and unitsPerEm, hhea's numberOfHMetrics,
 *     ...) to an interesting value; corrupt a directory record's tag,
 *     offset, length or checksum, or numTables;
 *   - rebuilt: truncate a table, grow one, drop one, take one from another
 *     input (crossover); mutate fpgm or prep with the TrueType bytecode
 *     mutator, or one simple glyph's instructions (glyf and loca rewritten).
 * What follows the font (the targets' text and trailer) is carried over
 * unchanged, except that one mutation in twelve flips one bit of the
 * trailer or changes one text code unit. */
#include <stdlib.h>
#include <string.h>

#include "mutator/mutator.h"

#define FONT_MAX_TABLES 64
#define FONT_DIR_HEADER 12
#define FONT_DIR_RECORD 16

typedef struct font_table {
    uint32_t tag;
    const uint8_t *data; /* into the input (or into a replacement buffer) */
    size_t len;
} font_table;

typedef struct font_view {
    uint32_t version;
    size_t n;
    font_table t[FONT_MAX_TABLES];
    size_t extent; /* end of the last table's bytes within the font part */
} font_view;

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void wr16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

#define TAG(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

/* Reads the directory of a plain sfnt (collections and web fonts are left
 * to the engine's byte-level mutations).  A table's bytes are clipped to
 * the font part, so a directory that lies about lengths reads as shorter
 * tables.  0 when there is no usable directory. */
static int read_font(const uint8_t *font, size_t len, font_view *v)
{
    if (len < FONT_DIR_HEADER)
        return 0;
    v->version = rd32(font);
    size_t n = rd16(font + 4);
    if (n == 0 || n > FONT_MAX_TABLES || FONT_DIR_HEADER + n * FONT_DIR_RECORD > len)
        return 0;
    v->n = n;
    v->extent = FONT_DIR_HEADER + n * FONT_DIR_RECORD;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *r = font + FONT_DIR_HEADER + i * FONT_DIR_RECORD;
        uint32_t off = rd32(r + 8), l = rd32(r + 12);
        v->t[i].tag = rd32(r);
        if (off >= len) {
            v->t[i].data = font + len;
            v->t[i].len = 0;
            continue;
        }
        v->t[i].data = font + off;
        v->t[i].len = l < len - off ? l : len - off;
        if (off + v->t[i].len > v->extent)
            v->extent = off + v->t[i].len;
    }
    return 1;
}

static int find_table(const font_view *v, uint32_t tag)
{
    for (size_t i = 0; i < v->n; i++)
        if (v->t[i].tag == tag)
            return (int)i;
    return -1;
}

static uint32_t checksum(const uint8_t *p, size_t len)
{
    uint32_t sum = 0;
    for (size_t i = 0; i < len; i += 4) {
        uint8_t w[4] = {0, 0, 0, 0};
        memcpy(w, p + i, len - i < 4 ? len - i : 4);
        sum += rd32(w);
    }
    return sum;
}

/* Writes the tables as a fresh font (directory, then each table 4-byte
 * aligned); 0 when it does not fit cap. */
static size_t write_font(const font_view *v, uint8_t *out, size_t cap)
{
    size_t pos = FONT_DIR_HEADER + v->n * FONT_DIR_RECORD;
    if (pos > cap)
        return 0;
    wr32(out, v->version);
    wr16(out + 4, (uint16_t)v->n);
    uint16_t pow2 = 1, log2 = 0;
    while ((uint32_t)pow2 * 2 <= v->n) {
        pow2 = (uint16_t)(pow2 * 2);
        log2++;
    }
    wr16(out + 6, (uint16_t)(pow2 * 16));
    wr16(out + 8, log2);
    wr16(out + 10, (uint16_t)(v->n * 16 - pow2 * 16));
    for (size_t i = 0; i < v->n; i++) {
        size_t padded = (v->t[i].len + 3) & ~(size_t)3;
        if (padded > cap - pos)
            return 0;
        uint8_t *r = out + FONT_DIR_HEADER + i * FONT_DIR_RECORD;
        memmove(out + pos, v->t[i].data, v->t[i].len);
        memset(out + pos + v->t[i].len, 0, padded - v->t[i].len);
        wr32(r, v->t[i].tag);
        wr32(r + 4, checksum(out + pos, v->t[i].len));
        wr32(r + 8, (uint32_t)pos);
        wr32(r + 12, (uint32_t)v->t[i].len);
        pos += padded;
    }
    return pos;
}

static uint16_t interesting16(fvmut_rng *r, uint16_t old)
{
    static const uint16_t vals[] = {0, 1, 2, 3, 4, 0x7F, 0x80, 0xFF, 0x100, 0x3FFF,
                                    0x7FFF, 0x8000, 0xFFFE, 0xFFFF};
    switch (fvmut_rand(r, 4)) {
    case 0:
        return (uint16_t)(old + 1 + fvmut_rand(r, 8));
    case 1:
        return (uint16_t)(old - 1 - fvmut_rand(r, 8));
    case 2:
        return fvmut_rand(r, 2) ? (uint16_t)(old << 1) : (uint16_t)(old >> 1);
    default:
        return vals[fvmut_rand(r, sizeof vals / sizeof vals[0])];
    }
}

/* Count and version fields that decide how the rest of a font is read. */
static const struct {
    uint32_t tag;
    uint16_t offset;
} count_fields[] = {
    {TAG('m', 'a', 'x', 'p'), 0},  {TAG('m', 'a', 'x', 'p'), 4},  {TAG('m', 'a', 'x', 'p'), 14},
    {TAG('m', 'a', 'x', 'p'), 16}, {TAG('m', 'a', 'x', 'p'), 18}, {TAG('m', 'a', 'x', 'p'), 20},
    {TAG('m', 'a', 'x', 'p'), 22}, {TAG('m', 'a', 'x', 'p'), 24}, {TAG('m', 'a', 'x', 'p'), 26},
    {TAG('m', 'a', 'x', 'p'), 28}, {TAG('m', 'a', 'x', 'p'), 30}, {TAG('h', 'e', 'a', 'd'), 16},
    {TAG('h', 'e', 'a', 'd'), 18}, {TAG('h', 'e', 'a', 'd'), 50}, {TAG('h', 'h', 'e', 'a'), 34},
    {TAG('h', 'h', 'e', 'a'), 4},  {TAG('v', 'h', 'e', 'a'), 34}, {TAG('c', 'm', 'a', 'p'), 2},
    {TAG('S', 'i', 'l', 'f'), 0},  {TAG('S', 'i', 'l', 'f'), 4},  {TAG('G', 'l', 'a', 't'), 0},
    {TAG('G', 'l', 'o', 'c'), 0},  {TAG('G', 'l', 'o', 'c'), 4},  {TAG('G', 'l', 'o', 'c'), 6},
    {TAG('F', 'e', 'a', 't'), 0},  {TAG('F', 'e', 'a', 't'), 4},  {TAG('S', 'i', 'l', 'l'), 4},
};

/* The bytecode mutator on one program; the result goes to out (cap
 * bytes).  Returns its length, or 0 when nothing came out. */
static size_t mutate_code(const uint8_t *code, size_t len, uint8_t *out, size_t cap,
                          fvmut_rng *r)
{
    if (cap == 0)
        return 0;
    fvmut_layout l = {FVMUT_TT, 0, 0};
    size_t n = len < cap ? len : cap;
    memcpy(out, code, n);
    if (n == 0) {
        out[0] = 0x4F; /* DEBUG: something for the mutator to start from */
        n = 1;
    }
    return fvmut_mutate(&l, out, n, cap, r);
}

/* One simple glyph's instructions through the bytecode mutator; glyf and
 * loca are rewritten into scratch.  0 when the font has no glyph to edit. */
static int mutate_glyph_program(font_view *v, uint8_t *scratch, size_t cap, fvmut_rng *r)
{
    int gi = find_table(v, TAG('g', 'l', 'y', 'f')), li = find_table(v, TAG('l', 'o', 'c', 'a'));
    int hi = find_table(v, TAG('h', 'e', 'a', 'd')), mi = find_table(v, TAG('m', 'a', 'x', 'p'));
    if (gi < 0 || li < 0 || hi < 0 || mi < 0 || v->t[hi].len < 54 || v->t[mi].len < 6)
        return 0;
    int long_loca = rd16(v->t[hi].data + 50) != 0;
    size_t num_glyphs = rd16(v->t[mi].data + 4), esz = long_loca ? 4 : 2;
    if (num_glyphs == 0 || v->t[li].len < (num_glyphs + 1) * esz)
        return 0;
    const uint8_t *loca = v->t[li].data, *glyf = v->t[gi].data;
    size_t glyf_len = v->t[gi].len;
#define LOCA(k) (long_loca ? (size_t)rd32(loca + 4 * (k)) : (size_t)rd16(loca + 2 * (k)) * 2)
    /* a simple glyph with a whole header, starting from a random one */
    size_t start = fvmut_rand(r, (uint32_t)num_glyphs), g = num_glyphs;
    size_t at = 0, end = 0, ins_at = 0, ins_len = 0;
    for (size_t k = 0; k < num_glyphs; k++) {
        size_t c = (start + k) % num_glyphs, a = LOCA(c), e = LOCA(c + 1);
        if (a >= e || e > glyf_len || e - a < 12)
            continue;
        int16_t contours = (int16_t)rd16(glyf + a);
        size_t il_at = a + 10 + 2 * (size_t)(contours > 0 ? contours : 0);
        if (contours <= 0 || il_at + 2 > e)
            continue;
        size_t il = rd16(glyf + il_at);
        if (il_at + 2 + il > e)
            continue;
        g = c;
        at = a;
        end = e;
        ins_at = il_at + 2;
        ins_len = il;
        break;
    }
    if (g == num_glyphs)
        return 0;
    /* scratch: [new glyf][new loca][mutated code].  The new glyf holds
     * every glyph's bytes, padded to even: more than glyf itself when loca
     * entries share or overlap bytes, so it is summed first. */
    size_t code_cap = ins_len + 256 < 0xFFFF ? ins_len + 256 : 0xFFFF;
    size_t glyf_total = code_cap;
    for (size_t k = 0; k < num_glyphs; k++) {
        size_t a = LOCA(k), e = LOCA(k + 1);
        if (a <= e && e <= glyf_len)
            glyf_total += e - a + 1;
        if (glyf_total > cap)
            return 0;
    }
    if (cap - glyf_total < (num_glyphs + 1) * esz + code_cap)
        return 0;
    uint8_t *code = scratch + cap - code_cap;
    size_t new_len = mutate_code(glyf + ins_at, ins_len, code, code_cap, r);
    if (new_len > 0xFFFF)
        return 0;
    uint8_t *ng = scratch, *nl;
    size_t pos = 0;
    for (size_t k = 0; k < num_glyphs; k++) {
        size_t a = LOCA(k), e = LOCA(k + 1);
        if (a > e || e > glyf_len)
            a = e = 0; /* a broken entry becomes an empty glyph */
        if (k == g) {
            memcpy(ng + pos, glyf + at, ins_at - 2 - at);
            pos += ins_at - 2 - at;
            wr16(ng + pos, (uint16_t)new_len);
            memcpy(ng + pos + 2, code, new_len);
            pos += 2 + new_len;
            memcpy(ng + pos, glyf + ins_at + ins_len, end - ins_at - ins_len);
            pos += end - ins_at - ins_len;
        } else {
            memcpy(ng + pos, glyf + a, e - a);
            pos += e - a;
        }
        if (pos & 1)
            ng[pos++] = 0;
    }
    nl = ng + pos;
    /* loca entries are rewritten below; remember the glyph ends as we go */
    size_t off = 0;
    for (size_t k = 0; k <= num_glyphs; k++) {
        if (long_loca)
            wr32(nl + 4 * k, (uint32_t)off);
        else if (off / 2 > 0xFFFF)
            return 0;
        else
            wr16(nl + 2 * k, (uint16_t)(off / 2));
        if (k == num_glyphs)
            break;
        size_t a = LOCA(k), e = LOCA(k + 1);
        if (a > e || e > glyf_len)
            a = e = 0;
        size_t len = k == g ? (end - at) - ins_len + new_len : e - a;
        off += (len + 1) & ~(size_t)1;
    }
#undef LOCA
    if (nl + (num_glyphs + 1) * esz > code)
        return 0;
    v->t[gi].data = ng;
    v->t[gi].len = pos;
    v->t[li].data = nl;
    v->t[li].len = (num_glyphs + 1) * esz;
    return 1;
}

/* Bytes after the font part: [text][trailer], the text's length in code
 * units read from the trailer when the layout has one. */
static size_t tail_len(const fvmut_layout *l, const uint8_t *data, size_t size)
{
    if (size <= l->trailer)
        return size;
    size_t tail = l->trailer;
    if (l->text_units_at > 0) {
        size_t units = data[size - l->trailer + (l->text_units_at - 1)];
        size_t text = units * 2;
        if (text > size - tail)
            text = (size - tail) & ~(size_t)1;
        tail += text;
    }
    return tail;
}

static void tweak_tail(const fvmut_layout *l, uint8_t *tail, size_t tlen, fvmut_rng *r)
{
    if (tlen == 0)
        return;
    size_t text = tlen - (tlen < l->trailer ? tlen : l->trailer);
    if (text >= 2 && fvmut_rand(r, 2)) {
        size_t u = 2 * fvmut_rand(r, (uint32_t)(text / 2));
        uint16_t old = rd16(tail + u);
        wr16(tail + u, fvmut_rand(r, 2) ? (uint16_t)(old + fvmut_rand(r, 5) - 2)
                                        : (uint16_t)fvmut_rand(r, 0x10000));
        return;
    }
    size_t at = text + fvmut_rand(r, (uint32_t)(tlen - text));
    tail[at] ^= (uint8_t)(1u << fvmut_rand(r, 8));
}

size_t fvmut_font_mutate(const fvmut_layout *l, uint8_t *data, size_t size, size_t max,
                         fvmut_rng *r)
{
    size_t tlen = tail_len(l, data, size), flen = size - tlen;
    font_view *v = malloc(sizeof *v);
    uint8_t *tail = malloc(tlen + 1), *scratch = malloc(max), *out = malloc(max);
    size_t result = 0;
    if (v == NULL || tail == NULL || scratch == NULL || out == NULL)
        goto done;
    memcpy(tail, data + flen, tlen);
    if (!read_font(data, flen, v))
        goto done; /* not a plain sfnt: the engine's own mutations */
    size_t cap = max > tlen ? max - tlen : 0;
    uint32_t op = fvmut_rand(r, 12);
    size_t ti = fvmut_rand(r, (uint32_t)v->n);
    font_table *t = &v->t[ti];
    size_t t_off = (size_t)(t->data - data);
    size_t new_len = 0;
    int rebuild = 0;
    switch (op) {
    case 0: /* flip a bit in a table */
        if (t->len == 0)
            goto done;
        data[t_off + fvmut_rand(r, (uint32_t)t->len)] ^= (uint8_t)(1u << fvmut_rand(r, 8));
        result = size;
        break;
    case 1: /* an interesting value in a 16-bit field of a table */
    case 2:
        if (t->len < 2)
            goto done;
        {
            size_t at = t_off + 2 * fvmut_rand(r, (uint32_t)(t->len / 2));
            wr16(data + at, interesting16(r, rd16(data + at)));
        }
        result = size;
        break;
    case 3: { /* a count or version field */
        size_t k = fvmut_rand(r, sizeof count_fields / sizeof count_fields[0]);
        int i = find_table(v, count_fields[k].tag);
        if (i < 0 || v->t[i].len < (size_t)count_fields[k].offset + 2)
            goto done;
        size_t at = (size_t)(v->t[i].data - data) + count_fields[k].offset;
        wr16(data + at, interesting16(r, rd16(data + at)));
        result = size;
        break;
    }
    case 4: { /* a directory record or numTables */
        uint8_t *rec = data + FONT_DIR_HEADER + ti * FONT_DIR_RECORD;
        switch (fvmut_rand(r, 5)) {
        case 0:
            rec[fvmut_rand(r, 4)] ^= (uint8_t)(1u << fvmut_rand(r, 8));
            break;
        case 1:
            wr32(rec + 4, rd32(rec + 4) ^ 1u);
            break;
        case 2:
            wr32(rec + 8, fvmut_rand(r, 2) ? (uint32_t)flen + fvmut_rand(r, 64) - 32
                                           : rd32(rec + 8) + 4 * (fvmut_rand(r, 9) - 4));
            break;
        case 3:
            wr32(rec + 12, fvmut_rand(r, 3) == 0 ? 0xFFFFFFF0u + fvmut_rand(r, 16)
                                                 : rd32(rec + 12) + fvmut_rand(r, 65) - 32);
            break;
        default:
            wr16(data + 4, (uint16_t)(v->n + fvmut_rand(r, 5) - 2));
            break;
        }
        result = size;
        break;
    }
    case 5: /* truncate a table */
        if (t->len == 0)
            goto done;
        t->len = fvmut_rand(r, 2) ? t->len - 1 - fvmut_rand(r, (uint32_t)(t->len < 8 ? t->len : 8))
                                  : fvmut_rand(r, (uint32_t)t->len);
        rebuild = 1;
        break;
    case 6: { /* grow a table: zeros, random bytes or a copy of its start */
        size_t add = 1 + fvmut_rand(r, 64);
        if (t->len + add > cap / 2)
            goto done;
        memcpy(scratch, t->data, t->len);
        uint32_t how = fvmut_rand(r, 3);
        for (size_t i = 0; i < add; i++)
            scratch[t->len + i] = how == 0   ? 0
                                  : how == 1 ? (uint8_t)fvmut_rand(r, 256)
                                             : (t->len ? t->data[i % t->len] : 0);
        t->data = scratch;
        t->len += add;
        rebuild = 1;
        break;
    }
    case 7: /* drop a table */
        if (v->n < 2)
            goto done;
        memmove(&v->t[ti], &v->t[ti + 1], (v->n - ti - 1) * sizeof v->t[0]);
        v->n--;
        rebuild = 1;
        break;
    case 8: /* fpgm or prep through the bytecode mutator */
    case 9: {
        int i = find_table(v, op == 8 ? TAG('f', 'p', 'g', 'm') : TAG('p', 'r', 'e', 'p'));
        if (i < 0)
            goto done;
        size_t code_cap = v->t[i].len + 256 < cap / 2 ? v->t[i].len + 256 : cap / 2;
        new_len = mutate_code(v->t[i].data, v->t[i].len, scratch, code_cap, r);
        if (new_len == 0)
            goto done;
        v->t[i].data = scratch;
        v->t[i].len = new_len;
        rebuild = 1;
        break;
    }
    case 10: /* one glyph's instructions */
        if (!mutate_glyph_program(v, scratch, max, r))
            goto done;
        rebuild = 1;
        break;
    default: /* the text or the trailer */
        tweak_tail(l, tail, tlen, r);
        result = size;
        break;
    }
    if (rebuild) {
        size_t n = write_font(v, out, cap);
        if (n == 0)
            goto done;
        memcpy(data, out, n);
        result = n + tlen;
    }
    memcpy(data + result - tlen, tail, tlen);
done:
    free(v);
    free(tail);
    free(scratch);
    free(out);
    return result; /* 0: nothing done, the caller falls back */
}

size_t fvmut_font_crossover(const fvmut_layout *l, const uint8_t *a, size_t an,
                            const uint8_t *b, size_t bn, uint8_t *out, size_t max, fvmut_rng *r)
{
    size_t atail = tail_len(l, a, an), btail = tail_len(l, b, bn);
    font_view *va = malloc(sizeof *va), *vb = malloc(sizeof *vb);
    size_t result = 0;
    if (va == NULL || vb == NULL || atail > max)
        goto done;
    if (!read_font(a, an - atail, va) || !read_font(b, bn - btail, vb))
        goto done;
    /* one of b's tables replaces a's of that tag, or joins them */
    const font_table *t = &vb->t[fvmut_rand(r, (uint32_t)vb->n)];
    int i = find_table(va, t->tag);
    if (i < 0) {
        if (va->n == FONT_MAX_TABLES)
            goto done;
        i = (int)va->n++;
    }
    va->t[i] = *t;
    size_t n = write_font(va, out, max - atail);
    if (n == 0)
        goto done;
    memcpy(out + n, a + an - atail, atail);
    result = n + atail;
done:
    free(va);
    free(vb);
    return result;
}
