/* Builds small sfnt fonts in memory for tests: add tables, serialize with a
 * correct directory.  Header-only; test code, not library code. */
#ifndef FV_TEST_FONT_BUILDER_H
#define FV_TEST_FONT_BUILDER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct fb_table {
    uint32_t tag;
    uint8_t data[4096];
    size_t len;
} fb_table;

typedef struct fb_font {
    fb_table tables[16];
    int count;
} fb_font;

static inline fb_table *fb_add(fb_font *f, const char tag[4])
{
    fb_table *t = &f->tables[f->count++];
    memset(t, 0, sizeof *t);
    t->tag = (uint32_t)(uint8_t)tag[0] << 24 | (uint32_t)(uint8_t)tag[1] << 16 |
             (uint32_t)(uint8_t)tag[2] << 8 | (uint8_t)tag[3];
    return t;
}

static inline void fb_u8(fb_table *t, unsigned v) { t->data[t->len++] = (uint8_t)v; }
static inline void fb_u16(fb_table *t, unsigned v) { fb_u8(t, v >> 8); fb_u8(t, v & 0xFF); }
static inline void fb_u32(fb_table *t, uint32_t v) { fb_u16(t, v >> 16); fb_u16(t, v & 0xFFFF); }
static inline void fb_zeros(fb_table *t, size_t n) { while (n--) fb_u8(t, 0); }
static inline void fb_put16(fb_table *t, size_t at, unsigned v)
{
    t->data[at] = (uint8_t)(v >> 8);
    t->data[at + 1] = (uint8_t)v;
}

/* A minimal valid TrueType font with two glyphs: .notdef (empty) and a
 * square (one contour, four on-curve points, no instructions). */
static inline void fb_minimal(fb_font *f)
{
    memset(f, 0, sizeof *f);
    fb_table *head = fb_add(f, "head");
    fb_u32(head, 0x00010000); fb_u32(head, 0x00010000); fb_u32(head, 0); fb_u32(head, 0x5F0F3CF5);
    fb_u16(head, 0x000B); fb_u16(head, 1000); /* flags, unitsPerEm */
    fb_zeros(head, 16);                        /* created, modified */
    fb_u16(head, 0); fb_u16(head, 0); fb_u16(head, 500); fb_u16(head, 500);
    fb_u16(head, 0); fb_u16(head, 8); fb_u16(head, 2); fb_u16(head, 0); fb_u16(head, 0);
    fb_table *maxp = fb_add(f, "maxp");
    fb_u32(maxp, 0x00010000); fb_u16(maxp, 2);
    fb_u16(maxp, 4); fb_u16(maxp, 1); fb_zeros(maxp, 4); fb_u16(maxp, 2); fb_zeros(maxp, 2);
    fb_u16(maxp, 8); fb_u16(maxp, 4); fb_u16(maxp, 0); fb_u16(maxp, 64); fb_u16(maxp, 100); fb_zeros(maxp, 4);
    fb_table *hhea = fb_add(f, "hhea");
    fb_u32(hhea, 0x00010000); fb_u16(hhea, 800); fb_u16(hhea, 0xFF38); fb_u16(hhea, 0);
    fb_u16(hhea, 600); fb_zeros(hhea, 6); fb_u16(hhea, 1); fb_zeros(hhea, 14); fb_u16(hhea, 2);
    fb_table *hmtx = fb_add(f, "hmtx");
    fb_u16(hmtx, 500); fb_u16(hmtx, 0); fb_u16(hmtx, 600); fb_u16(hmtx, 0);
    fb_table *glyf = fb_add(f, "glyf");
    /* glyph 1: square 0,0 .. 500,500 */
    fb_u16(glyf, 1); fb_u16(glyf, 0); fb_u16(glyf, 0); fb_u16(glyf, 500); fb_u16(glyf, 500);
    fb_u16(glyf, 3);          /* endPtsOfContours[0] */
    fb_u16(glyf, 0);          /* instructionLength */
    fb_u8(glyf, 0x01); fb_u8(glyf, 0x01); fb_u8(glyf, 0x01); fb_u8(glyf, 0x01); /* on-curve, long coords */
    fb_u16(glyf, 0); fb_u16(glyf, 0); fb_u16(glyf, 500); fb_u16(glyf, 0);       /* x deltas */
    fb_u16(glyf, 0); fb_u16(glyf, 500); fb_u16(glyf, 0); fb_u16(glyf, 0xFE0C);  /* y deltas */
    fb_table *loca = fb_add(f, "loca");
    fb_u16(loca, 0); fb_u16(loca, 0); fb_u16(loca, (unsigned)(glyf->len / 2));
}

static inline fb_table *fb_find(fb_font *f, const char tag[4])
{
    uint32_t want = (uint32_t)(uint8_t)tag[0] << 24 | (uint32_t)(uint8_t)tag[1] << 16 |
                    (uint32_t)(uint8_t)tag[2] << 8 | (uint8_t)tag[3];
    for (int i = 0; i < f->count; i++)
        if (f->tables[i].tag == want)
            return &f->tables[i];
    return NULL;
}

/* Serializes into a malloc'd buffer (4-byte aligned tables). */
static inline uint8_t *fb_serialize(const fb_font *f, size_t *size)
{
    size_t dir = 12 + 16 * (size_t)f->count, total = dir;
    for (int i = 0; i < f->count; i++)
        total += (f->tables[i].len + 3) & ~(size_t)3;
    uint8_t *out = calloc(1, total);
    fb_table hdr = {0};
    fb_u32(&hdr, 0x00010000); fb_u16(&hdr, (unsigned)f->count); fb_zeros(&hdr, 6);
    size_t off = dir;
    for (int i = 0; i < f->count; i++) {
        fb_u32(&hdr, f->tables[i].tag); fb_u32(&hdr, 0); fb_u32(&hdr, (uint32_t)off);
        fb_u32(&hdr, (uint32_t)f->tables[i].len);
        memcpy(out + off, f->tables[i].data, f->tables[i].len);
        off += (f->tables[i].len + 3) & ~(size_t)3;
    }
    memcpy(out, hdr.data, dir);
    *size = total;
    return out;
}

#endif
