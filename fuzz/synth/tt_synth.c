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

/* The next n bytes of the buffer, or NULL (and the overflow flag) when
 * they do not fit: one capacity check per field or block, not per byte
 * (the builder runs once per fuzz input). */
static uint8_t *wtake(wbuf *b, size_t n)
{
    if (n > b->cap - b->len) {
        b->overflow = 1;
        b->len = b->cap;
        return NULL;
    }
    uint8_t *q = b->p + b->len;
    b->len += n;
    return q;
}
static void put16(uint8_t *q, uint32_t v)
{
    q[0] = (uint8_t)(v >> 8);
    q[1] = (uint8_t)v;
}
static void put32(uint8_t *q, uint32_t v)
{
    put16(q, v >> 16);
    put16(q + 2, v);
}
static void w16(wbuf *b, uint32_t v)
{
    uint8_t *q = wtake(b, 2);
    if (q != NULL)
        put16(q, v);
}
static void w32(wbuf *b, uint32_t v)
{
    uint8_t *q = wtake(b, 4);
    if (q != NULL)
        put32(q, v);
}
static void wbytes(wbuf *b, const uint8_t *d, size_t n)
{
    uint8_t *q = wtake(b, n);
    if (q != NULL && n > 0)
        memcpy(q, d, n);
}
static void wzeros(wbuf *b, size_t n)
{
    uint8_t *q = wtake(b, n);
    if (q != NULL && n > 0)
        memset(q, 0, n);
}
static void walign(wbuf *b)
{
    wzeros(b, (4 - b->len % 4) % 4);
}

/* The OpenType table checksum: the sum (mod 2^32) of the big-endian
 * 32-bit words of the table, padded with zeros to a multiple of 4 bytes
 * (len is).  Summed per byte lane, each lane shifted into place at the
 * end: the same sum, without assembling every word. */
static uint32_t table_checksum(const uint8_t *t, size_t len)
{
    uint32_t lane[4] = {0, 0, 0, 0};
    size_t i = 0;
    for (; len - i >= 16; i += 16) {
        lane[0] += (uint32_t)t[i] + t[i + 4] + t[i + 8] + t[i + 12];
        lane[1] += (uint32_t)t[i + 1] + t[i + 5] + t[i + 9] + t[i + 13];
        lane[2] += (uint32_t)t[i + 2] + t[i + 6] + t[i + 10] + t[i + 14];
        lane[3] += (uint32_t)t[i + 3] + t[i + 7] + t[i + 11] + t[i + 15];
    }
    for (; i < len; i += 4) {
        lane[0] += t[i];
        lane[1] += t[i + 1];
        lane[2] += t[i + 2];
        lane[3] += t[i + 3];
    }
    return (lane[0] << 24) + (lane[1] << 16) + (lane[2] << 8) + lane[3];
}

/* xorshift32: never reaches 0 from a state other than 0, the seed 0 is
 * mapped away from that fixed point once (rand_seed). */
static uint32_t rand_seed(uint32_t seed)
{
    return seed ? seed : 0x9E3779B9u;
}

static uint32_t next_rand(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *s = x;
    return x;
}

/* x % d for a divisor fixed per font, without a division per value
 * (Lemire, Kaser, Kurz, "Faster remainder by direct computation", 2019):
 * with m = floor((2^64 - 1) / d) + 1, x % d is the high 64 bits of the
 * 128-bit product (m * x mod 2^64) * d, exact for every 32-bit x and d.
 * The product is formed from two 64-bit ones (d < 2^32, no overflow). */
typedef struct fastmod {
    uint64_t m;
    uint32_t d;
} fastmod;

static fastmod fastmod_for(uint32_t d)
{
    fastmod f = {UINT64_MAX / d + 1, d};
    return f;
}

static uint32_t fastmod_of(const fastmod *f, uint32_t x)
{
    uint64_t low = f->m * x;
    uint64_t high = (low >> 32) * f->d + (((low & 0xFFFFFFFFu) * f->d) >> 32);
    return (uint32_t)(high >> 32);
}

enum { T_HEAD, T_HHEA, T_MAXP, T_HMTX, T_LOCA, T_GLYF, T_CVT, T_FPGM, T_PREP, T_NAME, T_POST,
       T_HDMX, T_FVAR, T_GVAR, T_CVAR, T_HVAR, T_AVAR, T_COUNT };
/* Directory order must be sorted by tag (binary search in readers):
 * 'HVAR' 'avar' 'cvar' 'cvt ' 'fpgm' 'fvar' 'glyf' 'gvar' 'hdmx' 'head'
 * 'hhea' 'hmtx' 'loca' 'maxp' 'name' 'post' 'prep'.  hdmx and the
 * variation tables are optional: without them the font is byte for byte
 * what it was before they existed here (the fuzz corpora's fonts stay the
 * same). */
static const struct {
    int id;
    char tag[5];
} dir_order[T_COUNT] = {{T_HVAR, "HVAR"}, {T_AVAR, "avar"}, {T_CVAR, "cvar"}, {T_CVT, "cvt "},
                        {T_FPGM, "fpgm"}, {T_FVAR, "fvar"}, {T_GLYF, "glyf"}, {T_GVAR, "gvar"},
                        {T_HDMX, "hdmx"}, {T_HEAD, "head"}, {T_HHEA, "hhea"}, {T_HMTX, "hmtx"},
                        {T_LOCA, "loca"}, {T_MAXP, "maxp"}, {T_NAME, "name"}, {T_POST, "post"},
                        {T_PREP, "prep"}};

static int table_present(const fvsynth_tt *p, int t)
{
    int gvar = (p->var_flags & FVSYNTH_VAR_GVAR) != 0;
    switch (t) {
    case T_HDMX: return p->hdmx_ppem != 0;
    case T_FVAR: case T_GVAR: return gvar;
    case T_CVAR: return gvar && (p->var_flags & FVSYNTH_VAR_CVAR) && p->cvt_count > 0;
    case T_HVAR: return gvar && (p->var_flags & FVSYNTH_VAR_HVAR);
    case T_AVAR: return gvar && (p->var_flags & FVSYNTH_VAR_AVAR);
    default: return 1;
    }
}

size_t fvsynth_tt_bound(const fvsynth_tt *p)
{
    /* gvar: per point and phantom 2 words per tuple, 2 tuples, point
     * numbers and headers; cvar: 2 tuples of a word and a point number per
     * entry. */
    return 12 + 16 * T_COUNT + 1024 + 2 * (size_t)p->cvt_count + p->fpgm_len + p->prep_len +
           2 * p->glyph_code_len + 16 * (size_t)FVSYNTH_MAX_POINTS + 4 * T_COUNT + 8 + 64 +
           (p->var_flags ? 512 + 24 * ((size_t)FVSYNTH_MAX_POINTS + 8) + 12 * (size_t)p->cvt_count : 0);
}

/* Packed deltas (OpenType "Packed deltas"): runs of up to 64 words. */
static void w_deltas(wbuf *b, const int16_t *d, uint32_t n)
{
    for (uint32_t i = 0; i < n; i += 64) {
        uint32_t run = n - i < 64 ? n - i : 64;
        uint8_t ctl = (uint8_t)(0x40 | (run - 1));
        wbytes(b, &ctl, 1);
        for (uint32_t k = 0; k < run; k++)
            w16(b, (uint16_t)d[i + k]);
    }
}

/* Packed point numbers: the count (< 128) and runs of up to 128 byte
 * deltas (the points are < 256 here). */
static void w_points(wbuf *b, const uint16_t *pts, uint32_t n)
{
    uint8_t c = (uint8_t)n;
    wbytes(b, &c, 1);
    uint16_t prev = 0;
    for (uint32_t i = 0; i < n; i += 128) {
        uint32_t run = n - i < 128 ? n - i : 128;
        uint8_t ctl = (uint8_t)(run - 1);
        wbytes(b, &ctl, 1);
        for (uint32_t k = 0; k < run; k++) {
            uint8_t d = (uint8_t)(pts[i + k] - prev);
            prev = pts[i + k];
            wbytes(b, &d, 1);
        }
    }
}

static int16_t var_delta(uint32_t *seed, uint32_t scale)
{
    return (int16_t)((int32_t)(next_rand(seed) % (2 * scale + 1)) - (int32_t)scale);
}

/* One glyph's GlyphVariationData: `n` points (phantoms included), a
 * shared-peak tuple over every point, and (when n > 4) an
 * intermediate-region tuple with an embedded peak over every third point
 * and the phantoms. */
static void w_glyph_variations(wbuf *b, uint32_t n, uint32_t *seed, uint32_t scale)
{
    size_t start = b->len;
    int two = n > 4;
    uint16_t pts[FVSYNTH_MAX_POINTS + 8];
    uint32_t npts = 0;
    for (uint32_t i = 0; two && i < n; i++)
        if (i % 3 == 0 || i + 4 >= n)
            pts[npts++] = (uint16_t)i;
    int16_t peak = (next_rand(seed) & 1) ? 0x4000 : (int16_t)-0x4000;
    w16(b, 0x8000u | (two ? 2u : 1u)); /* shared point numbers */
    uint8_t *data_offset = wtake(b, 2);
    /* Headers: sizes are patched once the data is written. */
    uint8_t *size1 = wtake(b, 2);
    w16(b, 0);                         /* shared tuple 0 */
    uint8_t *size2 = NULL;
    if (two) {
        size2 = wtake(b, 2);
        w16(b, 0x8000 | 0x4000 | 0x2000); /* embedded peak, intermediate, private points */
        w16(b, (uint16_t)(peak / 2));
        w16(b, (uint16_t)(peak < 0 ? peak : 0));
        w16(b, (uint16_t)(peak < 0 ? 0 : peak));
    }
    if (data_offset != NULL)
        put16(data_offset, (uint32_t)(b->len - start));
    uint8_t all = 0;
    wbytes(b, &all, 1);                /* shared points: all */
    int16_t d[FVSYNTH_MAX_POINTS + 8];
    size_t t0 = b->len;
    for (int axis = 0; axis < 2; axis++) {
        for (uint32_t i = 0; i < n; i++)
            d[i] = var_delta(seed, scale);
        w_deltas(b, d, n);
    }
    if (size1 != NULL)
        put16(size1, (uint32_t)(b->len - t0));
    if (two) {
        t0 = b->len;
        w_points(b, pts, npts);
        for (int axis = 0; axis < 2; axis++) {
            for (uint32_t i = 0; i < npts; i++)
                d[i] = var_delta(seed, scale);
            w_deltas(b, d, npts);
        }
        if (size2 != NULL)
            put16(size2, (uint32_t)(b->len - t0));
    }
    walign(b);
}

size_t fvsynth_tt_build(const fvsynth_tt *p, uint8_t *out, size_t cap)
{
    if (p->num_points > FVSYNTH_MAX_POINTS || p->num_contours > p->num_points ||
        (p->num_points > 0 && p->num_contours == 0) || p->glyph_code_len > 0xFFFF ||
        p->units_per_em < 16 || p->units_per_em > 16384)
        return 0;
    uint32_t seed = rand_seed(p->seed);
    int16_t xs[FVSYNTH_MAX_POINTS], ys[FVSYNTH_MAX_POINTS];
    uint8_t on[FVSYNTH_MAX_POINTS];
    uint16_t ends[FVSYNTH_MAX_POINTS];
    int32_t upem = p->units_per_em;
    int16_t xmin = 0, ymin = 0, xmax = 0, ymax = 0;
    /* Points within [-upem/8, upem) so scaled values stay realistic. */
    fastmod point_range = fastmod_for((uint32_t)(upem + upem / 8));
    for (uint16_t i = 0; i < p->num_points; i++) {
        xs[i] = (int16_t)((int32_t)fastmod_of(&point_range, next_rand(&seed)) - upem / 8);
        ys[i] = (int16_t)((int32_t)fastmod_of(&point_range, next_rand(&seed)) - upem / 8);
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
    int num_tables = 0;
    for (int t = 0; t < T_COUNT; t++)
        num_tables += table_present(p, t);
    /* Offset table and directory are filled in at the end. */
    size_t dir_size = 12 + 16 * (size_t)num_tables;
    wzeros(&b, dir_size);

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
        wbytes(&b, on, p->num_points); /* no short/same bits: int16 deltas */
        uint8_t *q = wtake(&b, 4 * (size_t)p->num_points);
        int16_t prevx = 0, prevy = 0;
        for (uint16_t i = 0; q != NULL && i < p->num_points; i++) {
            put16(q + 2 * i, (uint16_t)(int16_t)(xs[i] - prevx));
            put16(q + 2 * ((size_t)p->num_points + i), (uint16_t)(int16_t)(ys[i] - prevy));
            prevx = xs[i];
            prevy = ys[i];
        }
        walign(&b); /* glyf starts aligned */
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
        walign(&b);
    }
    glyph_start[2] = b.len - off[T_GLYF];
    END(T_GLYF);

    BEGIN(T_LOCA);
    for (uint16_t g = 0; g <= num_glyphs; g++)
        w32(&b, (uint32_t)glyph_start[g]);
    END(T_LOCA);

    BEGIN(T_CVT);
    uint8_t *cvt = wtake(&b, 2 * (size_t)p->cvt_count);
    fastmod cvt_range = fastmod_for((uint32_t)(upem + 1));
    for (uint16_t i = 0; cvt != NULL && i < p->cvt_count; i++)
        put16(cvt + 2 * i, (uint16_t)(int16_t)((int32_t)fastmod_of(&cvt_range, next_rand(&seed)) - upem / 8));
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
    BEGIN(T_HDMX);
    if (p->hdmx_ppem) {
        uint32_t record_size = p->hdmx_record_size >= num_glyphs + 2 && p->hdmx_record_size <= 64
                                   ? p->hdmx_record_size
                                   : ((uint32_t)num_glyphs + 2 + 3) & ~3u; /* padded to 4 */
        w16(&b, 0);                 /* version */
        w16(&b, 1);                 /* numRecords */
        w32(&b, record_size);
        w16(&b, (uint32_t)p->hdmx_ppem << 8 | p->hdmx_width); /* pixelSize, maxWidth */
        for (uint16_t g = 0; g < num_glyphs; g++)
            wbytes(&b, &p->hdmx_width, 1);
        wzeros(&b, record_size - 2 - num_glyphs);
    }
    END(T_HDMX);
    if (p->var_flags & FVSYNTH_VAR_GVAR) {
        uint32_t vseed = rand_seed(p->var_seed);
        uint32_t scale = p->var_scale ? p->var_scale : 1;
        BEGIN(T_FVAR);
        w16(&b, 1); w16(&b, 0);         /* version 1.0 */
        w16(&b, 16); w16(&b, 2);        /* axesArrayOffset, reserved */
        w16(&b, 1); w16(&b, 20);        /* axisCount, axisSize */
        w16(&b, 2); w16(&b, 8);         /* instanceCount, instanceSize */
        w32(&b, 0x77676874);            /* 'wght' */
        w32(&b, 100u << 16); w32(&b, 400u << 16); w32(&b, 900u << 16);
        w16(&b, 0); w16(&b, 256);       /* flags, axisNameID */
        w16(&b, 257); w16(&b, 0); w32(&b, 300u << 16);
        w16(&b, 258); w16(&b, 0); w32(&b, 700u << 16);
        END(T_FVAR);

        BEGIN(T_GVAR);
        uint32_t n0 = p->num_points ? (uint32_t)p->num_points + 4 : 0;
        w16(&b, 1); w16(&b, 0);         /* version 1.0 */
        w16(&b, 1); w16(&b, 1);         /* axisCount, sharedTupleCount */
        uint8_t *shared_at = wtake(&b, 4);
        w16(&b, num_glyphs);
        w16(&b, 1);                     /* flags: long offsets */
        uint8_t *data_at = wtake(&b, 4);
        uint8_t *offsets = wtake(&b, 4 * ((size_t)num_glyphs + 1));
        if (shared_at != NULL)
            put32(shared_at, (uint32_t)(b.len - off[T_GVAR]));
        w16(&b, (next_rand(&vseed) & 1) ? 0x4000 : 0xC000); /* shared tuple: +1 or -1 */
        walign(&b);
        size_t data_start = b.len;
        if (data_at != NULL)
            put32(data_at, (uint32_t)(data_start - off[T_GVAR]));
        if (offsets != NULL)
            put32(offsets, 0);
        if (n0)
            w_glyph_variations(&b, n0, &vseed, scale);
        if (offsets != NULL)
            put32(offsets + 4, (uint32_t)(b.len - data_start));
        if (p->composite) {
            w_glyph_variations(&b, 2 + 4, &vseed, scale);
            if (offsets != NULL)
                put32(offsets + 8, (uint32_t)(b.len - data_start));
        }
        END(T_GVAR);

        BEGIN(T_CVAR);
        if (table_present(p, T_CVAR)) {
            w16(&b, 1); w16(&b, 0);     /* version 1.0 */
            w16(&b, 2);                 /* two tuples, private points */
            uint8_t *cdata = wtake(&b, 2);
            uint8_t *sz[2];
            for (int k = 0; k < 2; k++) {
                sz[k] = wtake(&b, 2);
                w16(&b, 0x8000 | 0x2000); /* embedded peak, private points */
                w16(&b, k ? 0xC000 : 0x4000);
            }
            if (cdata != NULL)
                put16(cdata, (uint32_t)(b.len - off[T_CVAR]));
            uint16_t pts[256];
            int16_t d[256];
            for (int k = 0; k < 2; k++) {
                size_t t0 = b.len;
                uint32_t npts = 0;
                for (uint32_t i = k; i < p->cvt_count && npts < 127; i += 2)
                    pts[npts++] = (uint16_t)i;
                w_points(&b, pts, npts);
                for (uint32_t i = 0; i < npts; i++)
                    d[i] = var_delta(&vseed, scale);
                w_deltas(&b, d, npts);
                if (sz[k] != NULL)
                    put16(sz[k], (uint32_t)(b.len - t0));
            }
        }
        END(T_CVAR);

        BEGIN(T_HVAR);
        if (table_present(p, T_HVAR)) {
            w16(&b, 1); w16(&b, 0);     /* version 1.0 */
            w32(&b, 20);                /* itemVariationStore */
            w32(&b, 0); w32(&b, 0); w32(&b, 0); /* no mappings */
            /* ItemVariationStore at 20: format, region list at 12, one
             * ItemVariationData at 12 + 10. */
            w16(&b, 1); w32(&b, 12); w16(&b, 1); w32(&b, 12 + 10);
            w16(&b, 1); w16(&b, 1);     /* region list: 1 axis, 1 region */
            int neg = next_rand(&vseed) & 1;
            w16(&b, neg ? 0xC000 : 0); w16(&b, neg ? 0xC000 : 0x4000); w16(&b, neg ? 0 : 0x4000);
            w16(&b, num_glyphs); w16(&b, 1); w16(&b, 1); w16(&b, 0); /* items, words, regions, index */
            for (uint16_t g = 0; g < num_glyphs; g++)
                w16(&b, (uint16_t)var_delta(&vseed, scale));
        }
        END(T_HVAR);

        BEGIN(T_AVAR);
        if (table_present(p, T_AVAR)) {
            w16(&b, 1); w16(&b, 0); w16(&b, 0); w16(&b, 1); /* version, reserved, axes */
            w16(&b, 4);
            w16(&b, 0xC000); w16(&b, 0xC000);
            w16(&b, 0); w16(&b, 0);
            w16(&b, 0x2000); w16(&b, 0x2000 + (next_rand(&vseed) % 0x1000) - 0x800);
            w16(&b, 0x4000); w16(&b, 0x4000);
        }
        END(T_AVAR);
    }
#undef BEGIN
#undef END
    if (b.overflow)
        return 0;

    /* Offset table (11 or 12 tables: searchRange 128, entrySelector 3; up
     * to 17: 256, 4).  The directory's bytes were reserved first (b did
     * not overflow). */
    uint32_t selector = num_tables >= 16 ? 4 : 3;
    put32(out, 0x00010000);
    put16(out + 4, (uint32_t)num_tables);
    put16(out + 6, 16u << selector);
    put16(out + 8, selector);
    put16(out + 10, (uint32_t)num_tables * 16 - (16u << selector));
    uint8_t *rec = out + 12;
    for (int k = 0; k < T_COUNT; k++) {
        int t = dir_order[k].id;
        if (!table_present(p, t))
            continue;
        memcpy(rec, dir_order[k].tag, 4);
        put32(rec + 4, table_checksum(out + off[t], (len[t] + 3) / 4 * 4));
        put32(rec + 8, (uint32_t)off[t]);
        put32(rec + 12, (uint32_t)len[t]);
        rec += 16;
    }
    return b.len;
}
