/* fontvm's graphite2 drop-in: fonts, segments, slots, character infos,
 * justification and the Unicode decoders. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/convert.h"
#include "fvg2.h"

/* ---- fonts ---- */

gr_font *GR2_NAME(make_font_with_ops)(float ppm, const void *appFontHandle,
                                      const gr_font_ops *font_ops, const gr_face *face)
{
    /* COMPAT(graphite2): NaN and infinite sizes are refused too (graphite2
     * refuses ppm <= 0 and makes a font of NaN scale from a NaN). */
    if (!face || !(ppm > 0) || isinf(ppm))
        return NULL;
    gr_font *font = calloc(1, sizeof *font);
    if (!font)
        return NULL;
    font->face = face;
    font->ppm = ppm;
    font->scale = ppm / (float)(face->gr->upem ? face->gr->upem : 1);
    font->handle = appFontHandle;
    /* graphite2 asks the callbacks only with a handle (hinted font) */
    if (appFontHandle && font_ops) {
        if (font_ops->size >= offsetof(gr_font_ops, glyph_advance_x) + sizeof(gr_advance_fn))
            font->advance_x = font_ops->glyph_advance_x;
        if (font_ops->size >= offsetof(gr_font_ops, glyph_advance_y) + sizeof(gr_advance_fn))
            font->advance_y = font_ops->glyph_advance_y;
    }
    font->engine.scale = font->scale;
    font->engine.advance = font->advance_x;
    font->engine.user = appFontHandle;
    fvg2_face_ref(face);
    return font;
}

gr_font *GR2_NAME(make_font_with_advance_fn)(float ppm, const void *appFontHandle,
                                             gr_advance_fn getAdvance, const gr_face *face)
{
    gr_font_ops ops = {sizeof(gr_font_ops), getAdvance, NULL};
    return GR2_NAME(make_font_with_ops)(ppm, appFontHandle, &ops, face);
}

gr_font *GR2_NAME(make_font)(float ppm, const gr_face *face)
{
    return GR2_NAME(make_font_with_ops)(ppm, NULL, NULL, face);
}

void GR2_NAME(font_destroy)(gr_font *font)
{
    if (!font)
        return;
    const gr_face *face = font->face;
    free(font);
    fvg2_face_unref(face);
}

/* ---- Unicode decoding, graphite2's way (measured, see README) ---- */

/* One code point at units[*i] of a buffer of `n` units (SIZE_MAX: unknown,
 * the caller promises the characters are there).  Returns the code point,
 * U+FFFD for a bad sequence (and *bad = 1), and moves *i on; *truncated is
 * set when the sequence runs past `n`. */
static uint32_t decode_one(enum gr_encform enc, const void *buf, size_t n, size_t *i, int *bad,
                           int *truncated)
{
    *bad = 0;
    *truncated = 0;
    if (enc == gr_utf32) {
        uint32_t c = ((const uint32_t *)buf)[(*i)++];
        if (c > 0x10FFFF) {
            *bad = 1;
            return 0xFFFD;
        }
        return c;
    }
    if (enc == gr_utf16) {
        const uint16_t *u = buf;
        uint32_t c = u[(*i)++];
        if (c >= 0xDC00 && c < 0xE000) {
            *bad = 1;
            return 0xFFFD;
        }
        if (c >= 0xD800 && c < 0xDC00) {
            if (*i >= n) {
                *bad = *truncated = 1;
                return 0xFFFD;
            }
            uint32_t lo = u[*i];
            if (lo < 0xDC00 || lo >= 0xE000) {
                *bad = 1;
                return 0xFFFD;
            }
            (*i)++;
            return 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
        }
        return c;
    }
    const uint8_t *b = buf;
    uint32_t c = b[(*i)++];
    if (c < 0x80)
        return c;
    int need;
    uint32_t min;
    if (c >= 0xC0 && c < 0xE0) {
        need = 1, min = 0x80, c &= 0x1F;
    } else if (c >= 0xE0 && c < 0xF0) {
        need = 2, min = 0x800, c &= 0x0F;
    } else if (c >= 0xF0 && c < 0xF8) {
        need = 3, min = 0x10000, c &= 0x07;
    } else {
        *bad = 1;
        return 0xFFFD;
    }
    for (int k = 0; k < need; k++) {
        if (*i >= n) {
            *bad = *truncated = 1;
            return 0xFFFD;
        }
        uint8_t cb = b[*i];
        if ((cb & 0xC0) != 0x80) {
            *bad = 1;
            return 0xFFFD;
        }
        (*i)++;
        c = c << 6 | (cb & 0x3Fu);
    }
    /* COMPAT(graphite2): surrogates encoded in UTF-8 are taken as they are */
    if (c < min || c > 0x10FFFF) {
        *bad = 1;
        return 0xFFFD;
    }
    return c;
}

/* COMPAT(graphite2): counting stops at a NUL character (no error) or at the
 * first bad sequence (*pError set to it, the characters before it counted);
 * a sequence cut short by the end of the buffer gives 0 with *pError at the
 * last unit (measured on 1.3.14). */
size_t GR2_NAME(count_unicode_characters)(enum gr_encform enc, const void *buffer_begin,
                                          const void *buffer_end, const void **pError)
{
    if (pError)
        *pError = NULL;
    if (!buffer_begin || (enc != gr_utf8 && enc != gr_utf16 && enc != gr_utf32))
        return 0;
    size_t unit = (size_t)enc;
    size_t n = SIZE_MAX;
    if (buffer_end) {
        if ((const char *)buffer_end < (const char *)buffer_begin)
            return 0;
        n = (size_t)((const char *)buffer_end - (const char *)buffer_begin) / unit;
    }
    size_t count = 0, i = 0;
    while (i < n) {
        size_t at = i;
        int bad, truncated;
        uint32_t c = decode_one(enc, buffer_begin, n, &i, &bad, &truncated);
        if (truncated) {
            if (pError)
                *pError = (const char *)buffer_begin + (n - 1) * unit;
            return 0;
        }
        if (bad) {
            if (pError)
                *pError = (const char *)buffer_begin + at * unit;
            return count;
        }
        if (c == 0)
            break;
        count++;
    }
    return count;
}

/* ---- segments ---- */

static void seg_free(gr_segment *seg)
{
    if (!seg)
        return;
    grv_seg_release(&seg->seg);
    free(seg->slots);
    const gr_face *face = seg->face;
    free(seg);
    fvg2_face_unref(face);
}

/* The gr_slot handles, in stream order, from the engine's slots (again
 * after justification). */
static int build_slots(gr_segment *s)
{
    grv_seg *g = &s->seg;
    uint32_t n = 0, guard = g->pool_len + 1;
    for (int32_t i = g->first; i != GRV_NIL && guard--; i = grv_link(g, i)->next)
        n++;
    /* one allocation: the handles, then (scratch) each pool slot's place */
    size_t nslots = n ? n : 1;
    if (nslots > SIZE_MAX / 4 / sizeof(gr_slot)) /* the pool (uint32) is bounded too */
        return 0;
    gr_slot *slots = malloc(nslots * sizeof *slots + ((size_t)g->pool_len + 1) * sizeof(int32_t));
    if (!slots)
        return 0;
    memset(slots, 0, nslots * sizeof *slots);
    int32_t *pos = (int32_t *)(void *)(slots + nslots);
    for (uint32_t k = 0; k < g->pool_len; k++)
        pos[k] = -1;
    uint32_t k = 0;
    guard = g->pool_len + 1;
    for (int32_t i = g->first; i != GRV_NIL && guard-- && k < n; i = grv_link(g, i)->next)
        pos[i] = (int32_t)k++;
    k = 0;
    guard = g->pool_len + 1;
    for (int32_t i = g->first; i != GRV_NIL && guard-- && k < n; i = grv_link(g, i)->next, k++) {
        const grv_slot *sl = grv_link(g, i);
        gr_slot *o = &slots[k];
        o->seg = s;
        o->pool = i;
        o->pos = k;
        o->gid = sl->realgid ? sl->realgid : sl->gid;
        o->x = sl->posx; /* in pixels when made with a font (grv_font) */
        o->y = sl->posy;
        o->parent = grv_sl(g, sl->parent) ? pos[sl->parent] : -1;
        o->child = grv_sl(g, sl->child) ? pos[sl->child] : -1;
        o->sibling = grv_sl(g, sl->sibling) ? pos[sl->sibling] : -1;
    }
    free(s->slots);
    s->slots = slots;
    s->num_slots = n;
    s->advance_x_total = g->advx;
    s->advance_y_total = g->advy;
    return 1;
}

gr_segment *GR2_NAME(make_seg)(const gr_font *font, const gr_face *face, gr_uint32 script,
                               const gr_feature_val *pFeats, enum gr_encform enc,
                               const void *pStart, size_t nChars, int dir)
{
    (void)script; /* one Silf subtable, as every known font */
    if (!face || (nChars && !pStart) || nChars > GRV_MAX_TEXT ||
        (enc != gr_utf8 && enc != gr_utf16 && enc != gr_utf32))
        return NULL;
    /* one scratch allocation for the text, its offsets and the features
     * (nChars <= GRV_MAX_TEXT: no overflow), and one for the segment with
     * its char infos */
    size_t nc1 = nChars ? nChars : 1;
    uint8_t *scratch = malloc(nc1 * (sizeof(size_t) + sizeof(uint32_t)) +
                              ((size_t)face->gr->num_features + 1) * sizeof(fv_gr_feature_setting));
    size_t *offsets = (size_t *)(void *)scratch;
    fv_gr_feature_setting *feats = (fv_gr_feature_setting *)(void *)(offsets + nc1);
    uint32_t *text = (uint32_t *)(void *)(feats + face->gr->num_features + 1);
    gr_segment *seg = calloc(1, sizeof *seg + nc1 * sizeof(gr_char_info));
    gr_feature_val *defaults = NULL;
    if (!scratch || !seg)
        goto fail;
    seg->chars = (gr_char_info *)(void *)(seg + 1);
    size_t i = 0;
    for (size_t k = 0; k < nChars; k++) {
        int bad, truncated;
        offsets[k] = i;
        text[k] = decode_one(enc, pStart, SIZE_MAX, &i, &bad, &truncated);
    }
    if (!pFeats || pFeats->face != face) {
        defaults = GR2_NAME(face_featureval_for_lang)(face, 0);
        if (!defaults)
            goto fail;
        pFeats = defaults;
    }
    /* only the values that are not the defaults the engine starts from
     * (the engine matches each request against every feature) */
    size_t nfeat = 0;
    for (uint16_t k = 0; k < face->gr->num_features; k++) {
        if (pFeats->values[k] == face->gr->features[k].default_value)
            continue;
        feats[nfeat].id = face->gr->features[k].id;
        feats[nfeat++].value = pFeats->values[k];
    }
    fv_gr_shape_request req;
    memset(&req, 0, sizeof req);
    req.text = text;
    req.length = nChars;
    req.features = feats;
    req.num_features = nfeat;
    req.rtl = dir;
    seg->scale = font ? font->scale : 1.0f;
    seg->scaled = font != NULL;
    fvg2_face_ref(face);
    seg->face = face;
    if (grv_shape_segment(face->gr, &req, font ? &font->engine : NULL, &seg->seg, NULL) != FV_OK)
        goto fail;
    seg->num_chars = seg->seg.num_chars;
    if (seg->num_chars > nChars || !build_slots(seg))
        goto fail;
    for (uint32_t c = 0; c < seg->num_chars; c++) {
        const grv_char *gc = &seg->seg.chars[c];
        seg->chars[c].unicode = gc->unicode;
        seg->chars[c].break_weight = gc->break_weight;
        seg->chars[c].before = gc->before;
        seg->chars[c].after = gc->after;
        /* graphite2's base is the character's offset in code units */
        seg->chars[c].base = gc->base >= 0 && (uint32_t)gc->base < nChars ? offsets[gc->base] : 0;
    }
    free(scratch);
    GR2_NAME(featureval_destroy)(defaults);
    return seg;
fail:
    free(scratch);
    GR2_NAME(featureval_destroy)(defaults);
    if (seg && seg->face)
        seg_free(seg);
    else
        free(seg);
    return NULL;
}

void GR2_NAME(seg_destroy)(gr_segment *p)
{
    seg_free(p);
}

float GR2_NAME(seg_advance_X)(const gr_segment *s)
{
    return s ? s->advance_x_total : 0;
}

float GR2_NAME(seg_advance_Y)(const gr_segment *s)
{
    return s ? s->advance_y_total : 0;
}

unsigned int GR2_NAME(seg_n_cinfo)(const gr_segment *s)
{
    return s ? s->num_chars : 0;
}

const gr_char_info *GR2_NAME(seg_cinfo)(const gr_segment *s, unsigned int index)
{
    return s && index < s->num_chars ? &s->chars[index] : NULL;
}

unsigned int GR2_NAME(seg_n_slots)(const gr_segment *s)
{
    return s ? s->num_slots : 0;
}

const gr_slot *GR2_NAME(seg_first_slot)(gr_segment *s)
{
    return s && s->num_slots ? &s->slots[0] : NULL;
}

const gr_slot *GR2_NAME(seg_last_slot)(gr_segment *s)
{
    return s && s->num_slots ? &s->slots[s->num_slots - 1] : NULL;
}

/* COMPAT(graphite2): justifies the whole segment as a complete line, from
 * its first slot, whatever pStart, flags, pFirst and pLast say (what
 * gr2fonttest and every known caller ask); the width is in the font's
 * pixels (design units without a font), and NaN, infinite or negative
 * widths, or widths beyond 100 times the natural one, leave the segment
 * as it is (graphite2's float-to-int casts are undefined there). */
float GR2_NAME(seg_justify)(gr_segment *s, const gr_slot *pStart, const gr_font *pFont,
                            double width, enum gr_justFlags flags, const gr_slot *pFirst,
                            const gr_slot *pLast)
{
    (void)flags;
    (void)pFirst;
    (void)pLast;
    if (!s || !pStart || pStart->seg != s || !s->num_slots)
        return 0;
    /* COMPAT(graphite2): the width is taken as a float, then divided by
     * this font's scale: the line is measured in design units (grv_justify
     * divides the positions shaping gave by the same scale, whatever font
     * the segment was made with) */
    float w = (float)width / (pFont ? pFont->scale : 1.0f);
    double natural = fabs((double)s->seg.advx);
    if (s->scaled && s->scale > 0)
        natural /= s->scale;
    if (!(w >= 0) || w > natural * (GRV_MAX_JUSTIFY_PERCENT / 100.0) + 1)
        return s->advance_x_total;
    /* COMPAT(graphite2): the segment's advance stays what shaping gave
     * (measured); the justified width is only returned */
    float advx = s->advance_x_total, advy = s->advance_y_total;
    s->seg.font = pFont ? &pFont->engine : NULL;
    float res = grv_justify(&s->seg, (float)w);
    s->seg.font = NULL;
    s->scaled = pFont != NULL;
    if (!build_slots(s))
        return 0;
    s->advance_x_total = advx;
    s->advance_y_total = advy;
    return res;
}

/* ---- slots ---- */

static const gr_slot *slot_at(const gr_slot *p, int32_t pos)
{
    if (!p || pos < 0 || (uint32_t)pos >= p->seg->num_slots)
        return NULL;
    return &p->seg->slots[pos];
}

const gr_slot *GR2_NAME(slot_next_in_segment)(const gr_slot *p)
{
    if (!p || p->pos + 1 >= p->seg->num_slots || p->seg->slots[p->pos + 1].cut_before)
        return NULL;
    return &p->seg->slots[p->pos + 1];
}

const gr_slot *GR2_NAME(slot_prev_in_segment)(const gr_slot *p)
{
    if (!p || p->pos == 0 || p->cut_before)
        return NULL;
    return &p->seg->slots[p->pos - 1];
}

const gr_slot *GR2_NAME(slot_attached_to)(const gr_slot *p)
{
    return p ? slot_at(p, p->parent) : NULL;
}

const gr_slot *GR2_NAME(slot_first_attachment)(const gr_slot *p)
{
    return p ? slot_at(p, p->child) : NULL;
}

const gr_slot *GR2_NAME(slot_next_sibling_attachment)(const gr_slot *p)
{
    return p ? slot_at(p, p->sibling) : NULL;
}

unsigned short GR2_NAME(slot_gid)(const gr_slot *p)
{
    return p ? p->gid : 0;
}

float GR2_NAME(slot_origin_X)(const gr_slot *p)
{
    return p ? p->x : 0;
}

float GR2_NAME(slot_origin_Y)(const gr_slot *p)
{
    return p ? p->y : 0;
}

static const grv_slot *engine_slot(const gr_slot *p)
{
    return grv_sl(&p->seg->seg, p->pool);
}

/* The slot's extra fields, NULL where engine_slot is. */
static const grv_slot_extra *engine_extra(const gr_slot *p)
{
    return engine_slot(p) ? &p->seg->seg.extras[p->pool] : NULL;
}

/* graphite2's rule: the slot's advance scaled, or with a hinted font the
 * font's advance for the glyph plus what the rules added to it. */
float GR2_NAME(slot_advance_X)(const gr_slot *p, const gr_face *face, const gr_font *font)
{
    if (!p || !engine_slot(p))
        return 0;
    float res = engine_slot(p)->advx;
    if (font) {
        const fv_gr_face *g = p->seg->face->gr;
        if (face && font->advance_x && p->gid < g->num_glyphs)
            res = (res - g->glyphs[p->gid].advance) * font->scale +
                  font->advance_x(font->handle, p->gid);
        else
            res *= font->scale;
    }
    return res;
}

float GR2_NAME(slot_advance_Y)(const gr_slot *p, const gr_face *face, const gr_font *font)
{
    (void)face;
    if (!p || !engine_slot(p))
        return 0;
    float res = engine_slot(p)->advy;
    return font ? res * font->scale : res;
}

int GR2_NAME(slot_before)(const gr_slot *p)
{
    return p && engine_extra(p) ? engine_extra(p)->before : 0;
}

int GR2_NAME(slot_after)(const gr_slot *p)
{
    return p && engine_extra(p) ? engine_extra(p)->after : 0;
}

unsigned int GR2_NAME(slot_index)(const gr_slot *p)
{
    return p && engine_slot(p) ? (unsigned)engine_slot(p)->index : 0;
}

int GR2_NAME(slot_attr)(const gr_slot *p, const gr_segment *pSeg, enum gr_attrCode index,
                        gr_uint8 subindex)
{
    if (!p || (pSeg && pSeg != p->seg) || (unsigned)index >= GRV_SLAT_MAX)
        return 0;
    gr_segment *s = p->seg;
    return grv_get_attr(&s->seg, p->pool, (uint32_t)index, subindex);
}

int GR2_NAME(slot_can_insert_before)(const gr_slot *p)
{
    return p && engine_slot(p) ? !(engine_slot(p)->flags & GRV_SF_NOINSERT) : 0;
}

int GR2_NAME(slot_original)(const gr_slot *p)
{
    return p && engine_slot(p) ? engine_slot(p)->original : 0;
}

/* graphite2 ends the stream before this slot: the previous slot has no next
 * and no sibling any more, this one no previous. */
void GR2_NAME(slot_linebreak_before)(gr_slot *p)
{
    if (!p || p->pos == 0 || p->cut_before)
        return;
    p->cut_before = 1;
    p->seg->slots[p->pos - 1].sibling = -1;
}

/* ---- character infos ---- */

unsigned int GR2_NAME(cinfo_unicode_char)(const gr_char_info *p)
{
    return p ? p->unicode : 0;
}

int GR2_NAME(cinfo_break_weight)(const gr_char_info *p)
{
    return p ? p->break_weight : 0;
}

int GR2_NAME(cinfo_after)(const gr_char_info *p)
{
    return p ? p->after : 0;
}

int GR2_NAME(cinfo_before)(const gr_char_info *p)
{
    return p ? p->before : 0;
}

size_t GR2_NAME(cinfo_base)(const gr_char_info *p)
{
    return p ? p->base : 0;
}
