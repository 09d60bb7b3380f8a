/* Synthetic TrueType font builder; see tt_synth.h.  Table layouts from the
 * OpenType specification (head, hhea, maxp 1.0, hmtx, loca long, glyf,
 * name format 0, post 3.0). */
#include "synth/tt_synth.h"

#include <string.h>

typedef struct wbuf {
    uint8_t *p;
    size_t len, cap;
    int overflow;
} wbuf;

static void w8(wbuf *b, uint32_t v)
{
    if (b->len >= b->cap) {
        b->overflow = 1;
        return;
    }
    b->p[b->len++] = (uint8_t)v;
}
static void w16(wbuf *b, uint32_t v)
{
    w8(b, v >> 8);
    w8(b, v);
}
static void w32(wbuf *b, uint32_t v)
{
    w16(b, v >> 16);
    w16(b, v);
}
static void wbytes(wbuf *b, const uint8_t *d, size_t n)
{
    /* As n calls of w8, in one copy (programs are most of a font's bytes). */
    size_t room = b->cap - b->len;
    if (n > room) {
        n = room;
        b->overflow = 1;
    }
    if (n > 0)
        memcpy(b->p + b->len, d, n);
    b->len += n;
}
static void walign(wbuf *b)
{
    while (b->len % 4)
        w8(b, 0);
}

static uint32_t next_rand(uint32_t *s)
{
    /* xorshift32; the seed 0 is mapped away from the fixed point */
    uint32_t x = *s ? *s : 0x9E3779B9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *s = x;
    return x;
}

enum { T_HEAD, T_HHEA, T_MAXP, T_HMTX, T_LOCA, T_GLYF, T_CVT, T_FPGM, T_PREP, T_NAME, T_POST, T_COUNT };
/* Directory order must be sorted by tag (binary search in readers):
 * 'cvt ' 'fpgm' 'glyf' 'head' 'hhea' 'hmtx' 'loca' 'maxp' 'name' 'post' 'prep'. */
static const struct {
    int id;
    char tag[5];
} dir_order[T_COUNT] = {{T_CVT, "cvt "}, {T_FPGM, "fpgm"}, {T_GLYF, "glyf"}, {T_HEAD, "head"},
                        {T_HHEA, "hhea"}, {T_HMTX, "hmtx"}, {T_LOCA, "loca"}, {T_MAXP, "maxp"},
                        {T_NAME, "name"}, {T_POST, "post"}, {T_PREP, "prep"}};

size_t fvsynth_tt_bound(const fvsynth_tt *p)
{
    return 12 + 16 * T_COUNT + 1024 + 2 * (size_t)p->cvt_count + p->fpgm_len + p->prep_len +
           2 * p->glyph_code_len + 16 * (size_t)FVSYNTH_MAX_POINTS + 4 * T_COUNT;
}

size_t fvsynth_tt_build(const fvsynth_tt *p, uint8_t *out, size_t cap)
{
    if (p->num_points > FVSYNTH_MAX_POINTS || p->num_contours > p->num_points ||
        (p->num_points > 0 && p->num_contours == 0) || p->glyph_code_len > 0xFFFF ||
        p->units_per_em < 16 || p->units_per_em > 16384)
        return 0;
    uint32_t seed = p->seed;
    int16_t xs[FVSYNTH_MAX_POINTS], ys[FVSYNTH_MAX_POINTS];
    uint8_t on[FVSYNTH_MAX_POINTS];
    uint16_t ends[FVSYNTH_MAX_POINTS];
    int32_t upem = p->units_per_em;
    int16_t xmin = 0, ymin = 0, xmax = 0, ymax = 0;
    for (uint16_t i = 0; i < p->num_points; i++) {
        /* Points within [-upem/8, upem) so scaled values stay realistic. */
        xs[i] = (int16_t)((int32_t)(next_rand(&seed) % (uint32_t)(upem + upem / 8)) - upem / 8);
        ys[i] = (int16_t)((int32_t)(next_rand(&seed) % (uint32_t)(upem + upem / 8)) - upem / 8);
        on[i] = (next_rand(&seed) & 3) != 0;
        if (i == 0 || xs[i] < xmin) xmin = xs[i];
        if (i == 0 || ys[i] < ymin) ymin = ys[i];
        if (i == 0 || xs[i] > xmax) xmax = xs[i];
        if (i == 0 || ys[i] > ymax) ymax = ys[i];
    }
    for (uint16_t c = 0; c < p->num_contours; c++) /* even split, last takes the rest */
        ends[c] = (uint16_t)(c + 1 == p->num_contours ? p->num_points - 1
                                                      : (c + 1) * p->num_points / p->num_contours - 1);
    uint16_t advance = (uint16_t)(upem / 2 + (int32_t)(next_rand(&seed) % (uint32_t)(upem / 2 + 1)));
    uint16_t num_glyphs = p->composite ? 2 : 1;

    wbuf b = {out, 0, cap, 0};
    size_t off[T_COUNT], len[T_COUNT];
    /* Offset table and directory are filled in at the end. */
    size_t dir_size = 12 + 16 * T_COUNT;
    for (size_t i = 0; i < dir_size; i++)
        w8(&b, 0);

#define BEGIN(t) (off[t] = b.len)
#define END(t) (len[t] = b.len - off[t], walign(&b))
    BEGIN(T_HEAD);
    w32(&b, 0x00010000);            /* version */
    w32(&b, 0x00010000);            /* fontRevision */
    w32(&b, 0);                     /* checksumAdjustment: left 0, readers ignore it */
    w32(&b, 0x5F0F3CF5);            /* magicNumber */
    w16(&b, p->head_flags);
    w16(&b, (uint32_t)upem);
    for (int i = 0; i < 4; i++)     /* created, modified */
        w32(&b, 0);
    w16(&b, (uint16_t)xmin); w16(&b, (uint16_t)ymin); w16(&b, (uint16_t)xmax); w16(&b, (uint16_t)ymax);
    w16(&b, 0);                     /* macStyle */
    w16(&b, 8);                     /* lowestRecPPEM */
    w16(&b, 2);                     /* fontDirectionHint */
    w16(&b, 1);                     /* indexToLocFormat: long */
    w16(&b, 0);                     /* glyphDataFormat */
    END(T_HEAD);

    BEGIN(T_HHEA);
    w32(&b, 0x00010000);
    w16(&b, (uint32_t)(upem * 4 / 5)); w16(&b, (uint16_t)(int16_t)(-upem / 5)); w16(&b, 0);
    w16(&b, advance);               /* advanceWidthMax */
    w16(&b, (uint16_t)xmin); w16(&b, 0); w16(&b, (uint16_t)xmax);
    w16(&b, 1); w16(&b, 0); w16(&b, 0); /* caret slope rise/run, offset */
    for (int i = 0; i < 4; i++)
        w16(&b, 0);
    w16(&b, 0);                     /* metricDataFormat */
    w16(&b, num_glyphs);            /* numberOfHMetrics */
    END(T_HHEA);

    BEGIN(T_MAXP);
    w32(&b, 0x00010000);
    w16(&b, num_glyphs);
    w16(&b, p->num_points);         /* maxPoints */
    w16(&b, p->num_contours);       /* maxContours */
    w16(&b, (uint32_t)p->num_points * 2);   /* maxCompositePoints */
    w16(&b, (uint32_t)p->num_contours * 2); /* maxCompositeContours */
    w16(&b, 2);                     /* maxZones */
    w16(&b, p->max_twilight);
    w16(&b, p->max_storage);
    w16(&b, p->max_function_defs);
    w16(&b, p->max_instruction_defs);
    w16(&b, p->max_stack);
    w16(&b, (uint32_t)(p->glyph_code_len > 0xFFFF ? 0xFFFF : p->glyph_code_len));
    w16(&b, p->composite ? 2 : 0);  /* maxComponentElements */
    w16(&b, p->composite ? 1 : 0);  /* maxComponentDepth */
    END(T_MAXP);

    BEGIN(T_HMTX);
    for (uint16_t g = 0; g < num_glyphs; g++) {
        w16(&b, advance);
        w16(&b, (uint16_t)xmin);
    }
    END(T_HMTX);

    /* glyf first into place, loca after (offsets known then). */
    size_t glyph_start[3];
    BEGIN(T_GLYF);
    glyph_start[0] = 0;
    if (p->num_points > 0) {
        w16(&b, p->num_contours);
        w16(&b, (uint16_t)xmin); w16(&b, (uint16_t)ymin); w16(&b, (uint16_t)xmax); w16(&b, (uint16_t)ymax);
        for (uint16_t c = 0; c < p->num_contours; c++)
            w16(&b, ends[c]);
        w16(&b, (uint32_t)p->glyph_code_len);
        wbytes(&b, p->glyph_code, p->glyph_code_len);
        for (uint16_t i = 0; i < p->num_points; i++)
            w8(&b, on[i]);          /* no short/same bits: int16 deltas */
        int16_t prev = 0;
        for (uint16_t i = 0; i < p->num_points; i++) {
            w16(&b, (uint16_t)(int16_t)(xs[i] - prev));
            prev = xs[i];
        }
        prev = 0;
        for (uint16_t i = 0; i < p->num_points; i++) {
            w16(&b, (uint16_t)(int16_t)(ys[i] - prev));
            prev = ys[i];
        }
        while ((b.len - off[T_GLYF]) % 4)
            w8(&b, 0);
    }
    glyph_start[1] = b.len - off[T_GLYF];
    if (p->composite) {
        w16(&b, 0xFFFF);            /* numberOfContours = -1 */
        w16(&b, (uint16_t)xmin); w16(&b, (uint16_t)ymin); w16(&b, (uint16_t)xmax); w16(&b, (uint16_t)ymax);
        /* component 1: glyph 0 at (0,0), words, xy values, more components */
        w16(&b, 0x0001 | 0x0002 | 0x0020);
        w16(&b, 0);
        w16(&b, 0); w16(&b, 0);
        /* component 2: glyph 0 offset by a seed-chosen amount, with a scale,
         * and the composite's own instructions */
        w16(&b, 0x0001 | 0x0002 | 0x0008 | 0x0100);
        w16(&b, 0);
        w16(&b, (uint16_t)(int16_t)(upem / 3)); w16(&b, (uint16_t)(int16_t)(next_rand(&seed) % 64));
        w16(&b, 0x4000 - (next_rand(&seed) % 0x1000)); /* F2Dot14 scale */
        w16(&b, (uint32_t)p->glyph_code_len);
        wbytes(&b, p->glyph_code, p->glyph_code_len);
        while ((b.len - off[T_GLYF]) % 4)
            w8(&b, 0);
    }
    glyph_start[2] = b.len - off[T_GLYF];
    END(T_GLYF);

    BEGIN(T_LOCA);
    for (uint16_t g = 0; g <= num_glyphs; g++)
        w32(&b, (uint32_t)glyph_start[g]);
    END(T_LOCA);

    BEGIN(T_CVT);
    for (uint16_t i = 0; i < p->cvt_count; i++)
        w16(&b, (uint16_t)(int16_t)((int32_t)(next_rand(&seed) % (uint32_t)(upem + 1)) - upem / 8));
    END(T_CVT);
    BEGIN(T_FPGM);
    wbytes(&b, p->fpgm, p->fpgm_len);
    END(T_FPGM);
    BEGIN(T_PREP);
    wbytes(&b, p->prep, p->prep_len);
    END(T_PREP);
    BEGIN(T_NAME);
    w16(&b, 0); w16(&b, 0); w16(&b, 6); /* format 0, no records */
    END(T_NAME);
    BEGIN(T_POST);
    w32(&b, 0x00030000);
    for (int i = 0; i < 7; i++)
        w32(&b, 0);
    END(T_POST);
#undef BEGIN
#undef END
    if (b.overflow)
        return 0;

    /* Offset table: 11 tables -> searchRange 128, entrySelector 3, rangeShift 48. */
    wbuf d = {out, 0, dir_size, 0};
    w32(&d, 0x00010000);
    w16(&d, T_COUNT);
    w16(&d, 128); w16(&d, 3); w16(&d, T_COUNT * 16 - 128);
    for (int k = 0; k < T_COUNT; k++) {
        int t = dir_order[k].id;
        const char *tag = dir_order[k].tag;
        uint32_t sum = 0;
        for (size_t i = 0; i < (len[t] + 3) / 4 * 4; i += 4)
            sum += (uint32_t)out[off[t] + i] << 24 | (uint32_t)out[off[t] + i + 1] << 16 |
                   (uint32_t)out[off[t] + i + 2] << 8 | out[off[t] + i + 3];
        w8(&d, (uint8_t)tag[0]); w8(&d, (uint8_t)tag[1]); w8(&d, (uint8_t)tag[2]); w8(&d, (uint8_t)tag[3]);
        w32(&d, sum);
        w32(&d, (uint32_t)off[t]);
        w32(&d, (uint32_t)len[t]);
    }
    return b.len;
}
