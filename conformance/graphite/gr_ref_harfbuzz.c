/* Reference side 2: HarfBuzz 6.0.0 restricted to its graphite2 shaper.
 *
 * The font's scale is its unitsPerEm, so advances and offsets are font
 * units (rounded by HarfBuzz).  If the graphite2 shaper cannot shape the
 * font (no Silf), that is the reference's error for every line: for a
 * non-empty text hb_shape_full fails, and an empty one is checked here,
 * because hb_shape_full returns success on an empty buffer without asking
 * the shaper (measured: tiny.ttf's blank lines of udhr_eng.txt). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hb.h>
#include <hb-graphite2.h>

#include "gr_compare.h"

struct grc_hb {
    hb_blob_t *blob;
    hb_face_t *face;
    hb_font_t *font;
};

grc_hb *grc_hb_open(const uint8_t *data, size_t size, char *err, size_t err_size)
{
    if (size > UINT32_MAX) {
        snprintf(err, err_size, "font too large for HarfBuzz");
        return NULL;
    }
    struct grc_hb *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    h->blob = hb_blob_create((const char *)data, (unsigned)size, HB_MEMORY_MODE_READONLY, NULL, NULL);
    h->face = hb_face_create(h->blob, 0);
    h->font = hb_font_create(h->face);
    unsigned upem = hb_face_get_upem(h->face);
    hb_font_set_scale(h->font, (int)upem, (int)upem);
    return h;
}

void grc_hb_close(grc_hb *h)
{
    if (!h)
        return;
    hb_font_destroy(h->font);
    hb_face_destroy(h->face);
    hb_blob_destroy(h->blob);
    free(h);
}

static void tag_to_lang(uint32_t t, char out[5])
{
    size_t n = 0;
    for (int s = 24; s >= 0; s -= 8) {
        char c = (char)(t >> s);
        if (c && c != ' ')
            out[n++] = c;
    }
    out[n] = 0;
}

int grc_hb_shape(grc_hb *h, const grc_request *req, grc_hb_run *out)
{
    memset(out, 0, sizeof *out);
    if (req->length > INT32_MAX) {
        snprintf(out->error, sizeof out->error, "text too long");
        return -1;
    }
    hb_buffer_t *buf = hb_buffer_create();
    hb_buffer_add_utf32(buf, req->text, (int)req->length, 0, (int)req->length);
    hb_buffer_guess_segment_properties(buf);
    hb_buffer_set_direction(buf, req->rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR);
    hb_feature_t feats[GRC_MAX_FEATURES];
    unsigned nf = 0;
    if (req->features) {
        for (size_t i = 0; i < req->features->n; i++) {
            feats[nf].tag = req->features->f[i].id;
            feats[nf].value = (uint32_t)req->features->f[i].value;
            feats[nf].start = HB_FEATURE_GLOBAL_START;
            feats[nf].end = HB_FEATURE_GLOBAL_END;
            nf++;
        }
        if (req->features->lang) {
            char l[5];
            tag_to_lang(req->features->lang, l);
            hb_buffer_set_language(buf, hb_language_from_string(l, -1));
        }
    }
    static const char *const shapers[] = {"graphite2", NULL};
    if (!hb_graphite2_face_get_gr_face(h->face)) {
        snprintf(out->error, sizeof out->error,
                 "HarfBuzz's graphite2 shaper has no Graphite face for this font");
        hb_buffer_destroy(buf);
        return 0;
    }
    if (!hb_shape_full(h->font, buf, nf ? feats : NULL, nf, shapers)) {
        snprintf(out->error, sizeof out->error, "hb_shape_full with the graphite2 shaper failed");
        hb_buffer_destroy(buf);
        return 0;
    }
    unsigned n = 0;
    hb_glyph_info_t *info = hb_buffer_get_glyph_infos(buf, &n);
    hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(buf, NULL);
    out->glyphs = calloc(n ? n : 1, sizeof *out->glyphs);
    if (!out->glyphs) {
        hb_buffer_destroy(buf);
        return -1;
    }
    for (unsigned i = 0; i < n; i++) {
        out->glyphs[i].gid = info[i].codepoint;
        out->glyphs[i].cluster = info[i].cluster;
        out->glyphs[i].slot = -1;
        out->glyphs[i].x_advance = pos[i].x_advance;
        out->glyphs[i].y_advance = pos[i].y_advance;
        out->glyphs[i].x_offset = pos[i].x_offset;
        out->glyphs[i].y_offset = pos[i].y_offset;
    }
    out->num_glyphs = n;
    out->ok = 1;
    hb_buffer_destroy(buf);
    return 0;
}
