/* A web font's decoded tables against the sfnt it was made from: see
 * web_tables.h. */
#include "web_tables.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sfnt/font.h"

/* Notes the first difference only. */
static void note(ttw_result *r, const char *fmt, ...)
{
    if (r->first[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->first, sizeof r->first, fmt, ap);
    va_end(ap);
}

static const sfnt_table *find_record(const sfnt_font *s, uint32_t tag)
{
    for (uint32_t i = 0; i < s->num_tables; i++)
        if (s->tables[i].tag == tag)
            return &s->tables[i];
    return NULL;
}

/* 1 when the two parsed glyphs are the same glyph. */
static int same_glyph(const sfnt_glyph *a, const sfnt_glyph *b)
{
    if (a->num_contours != b->num_contours || a->num_points != b->num_points ||
        a->num_components != b->num_components || a->x_min != b->x_min || a->y_min != b->y_min ||
        a->x_max != b->x_max || a->y_max != b->y_max || a->instructions.len != b->instructions.len)
        return 0;
    for (int32_t c = 0; c < a->num_contours; c++)
        if (a->end_points[c] != b->end_points[c])
            return 0;
    for (uint32_t p = 0; p < a->num_points; p++)
        if (a->points[p].x != b->points[p].x || a->points[p].y != b->points[p].y ||
            (a->flags[p] & SFNT_ON_CURVE) != (b->flags[p] & SFNT_ON_CURVE))
            return 0;
    for (uint32_t k = 0; k < a->num_components; k++)
        if (memcmp(&a->components[k], &b->components[k], sizeof a->components[k]) != 0)
            return 0;
    return a->instructions.len == 0 ||
           memcmp(a->instructions.data, b->instructions.data, a->instructions.len) == 0;
}

/* head without checkSumAdjustment and flags bit 11. */
static int same_head(fv_span a, fv_span b)
{
    uint8_t ha[64], hb[64];
    if (a.len != b.len || a.len < 54 || a.len > sizeof ha)
        return a.len == b.len && memcmp(a.data, b.data, a.len) == 0;
    memcpy(ha, a.data, a.len);
    memcpy(hb, b.data, b.len);
    memset(ha + 8, 0, 4);
    memset(hb + 8, 0, 4);
    ha[16] &= (uint8_t)~0x08;
    hb[16] &= (uint8_t)~0x08;
    return memcmp(ha, hb, a.len) == 0;
}

static void compare_glyphs(fv_font *orig, fv_font *web, ttw_result *r)
{
    const sfnt_font *a = fv_font_sfnt(orig), *b = fv_font_sfnt(web);
    if (a->maxp.num_glyphs != b->maxp.num_glyphs) {
        note(r, "maxp: %u glyphs, the original %u", b->maxp.num_glyphs, a->maxp.num_glyphs);
        return;
    }
    fv_error err;
    int has_glyf = find_record(a, SFNT_TAG_glyf) != NULL;
    for (uint32_t gid = 0; gid < a->maxp.num_glyphs; gid++) {
        int same = 1;
        if (has_glyf) {
            sfnt_glyph ga, gb;
            memset(&ga, 0, sizeof ga);
            memset(&gb, 0, sizeof gb);
            fv_status sa = sfnt_glyph_load(a, gid, fv_font_mem(orig), &ga, &err);
            fv_status sb = sfnt_glyph_load(b, gid, fv_font_mem(web), &gb, &err);
            if (sa != sb) {
                note(r, "glyph %u: the original %s, the web font %s", gid, fv_status_name(sa),
                     fv_status_name(sb));
                same = 0;
            } else if (sa == FV_OK && !same_glyph(&ga, &gb)) {
                note(r, "glyph %u: outline, bbox, components or instructions differ", gid);
                same = 0;
            }
            if (sa == FV_OK)
                sfnt_glyph_free(fv_font_mem(orig), &ga);
            if (sb == FV_OK)
                sfnt_glyph_free(fv_font_mem(web), &gb);
        }
        uint16_t adv_a = 0, adv_b = 0;
        int16_t lsb_a = 0, lsb_b = 0;
        fv_status ma = sfnt_hmetrics(a, gid, &adv_a, &lsb_a, &err);
        fv_status mb = sfnt_hmetrics(b, gid, &adv_b, &lsb_b, &err);
        if (ma != mb || adv_a != adv_b || lsb_a != lsb_b) {
            note(r, "glyph %u: hmtx advance/lsb %u/%d, the original %u/%d", gid, adv_b, lsb_b, adv_a,
                 lsb_a);
            same = 0;
        }
        r->glyphs++;
        r->glyphs_identical += (uint32_t)same;
    }
}

static fv_font *open_face(const char *path, uint32_t face, ttw_result *r)
{
    fv_font *font = NULL;
    fv_error err;
    if (fv_font_open_file(path, face, NULL, &font, &err) != FV_OK) {
        char msg[160];
        fv_error_format(&err, msg, sizeof msg);
        note(r, "%s face %u: %s", path, face, msg);
        return NULL;
    }
    return font;
}

int ttw_compare(const char *original, const char *web, uint32_t face, ttw_result *r)
{
    memset(r, 0, sizeof *r);
    fv_font *orig = open_face(original, face, r);
    fv_font *wf = orig ? open_face(web, face, r) : NULL;
    if (!orig || !wf) {
        fv_font_close(orig);
        return -1;
    }
    const sfnt_font *a = fv_font_sfnt(orig), *b = fv_font_sfnt(wf);
    /* WOFF 1.0 stores every table as it was; WOFF2 re-encodes glyf/loca. */
    int woff2 = 0;
    FILE *f = fopen(web, "rb");
    if (f) {
        char sig[4] = {0};
        woff2 = fread(sig, 1, 4, f) == 4 && memcmp(sig, "wOF2", 4) == 0;
        fclose(f);
    }
    if (a->sfnt_version != b->sfnt_version)
        note(r, "sfnt version 0x%08X, the original 0x%08X", b->sfnt_version, a->sfnt_version);
    for (uint32_t i = 0; i < b->num_tables; i++)
        if (!find_record(a, b->tables[i].tag)) {
            char name[5];
            sfnt_tag_string(b->tables[i].tag, name);
            note(r, "table %s not in the original", name);
        }
    for (uint32_t i = 0; i < a->num_tables; i++) {
        uint32_t tag = a->tables[i].tag;
        char name[5];
        sfnt_tag_string(tag, name);
        r->tables++;
        if (!find_record(b, tag)) {
            if (woff2 && tag == FV_TAG('D', 'S', 'I', 'G')) {
                r->identical++; /* dropped by WOFF2 encoders, as it must be */
                continue;
            }
            note(r, "table %s missing", name);
            continue;
        }
        if (woff2 && (tag == SFNT_TAG_glyf || tag == SFNT_TAG_loca)) {
            r->identical++; /* and compared glyph by glyph below */
            continue;
        }
        fv_span ta = {0}, tb = {0};
        sfnt_find_table(a, tag, &ta);
        sfnt_find_table(b, tag, &tb);
        int same = tag == SFNT_TAG_head ? same_head(ta, tb)
                                        : ta.len == tb.len && (ta.len == 0 || memcmp(ta.data, tb.data, ta.len) == 0);
        if (same)
            r->identical++;
        else
            note(r, "table %s differs (%zu bytes, the original %zu)", name, tb.len, ta.len);
    }
    compare_glyphs(orig, wf, r);
    fv_font_close(orig);
    fv_font_close(wf);
    return 0;
}
