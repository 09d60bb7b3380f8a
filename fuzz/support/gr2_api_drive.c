/* See gr2_api_drive.h.  This file sees only the drop-in's headers, under
 * their fvg2_* names (compat/graphite2/fvg2_api.h), never graphite2's. */
#include <stdlib.h>
#include <string.h>

#include "fvg2_api.h"
#include "support/gr2_api_drive.h"

typedef struct blob {
    const uint8_t *data;
    size_t len;
} blob;

/* The reference runner's table lookup (grc_sfnt_table: HarfBuzz's and
 * FreeType's answer no table from a sfnt version they do not know), so
 * that gr2_api_diff hands the drop-in and graphite2 the same tables
 * (fuzz/FINDINGS.md F-38). */
static const void *get_table(const void *h, unsigned int tag, size_t *len)
{
    const blob *b = h;
    return grc_sfnt_table(b->data, b->len, tag, len);
}

static void release_table(const void *h, const void *t)
{
    (void)h;
    (void)t;
}

static float advance(const void *h, gr_uint16 gid)
{
    (void)h;
    return (float)(gid % 97) * 0.5f + 3.25f;
}

static size_t to_utf8(const uint32_t *text, size_t n, uint8_t *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = text[i];
        if (c < 0x80) {
            out[k++] = (uint8_t)c;
        } else if (c < 0x800) {
            out[k++] = (uint8_t)(0xC0 | c >> 6);
            out[k++] = (uint8_t)(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            out[k++] = (uint8_t)(0xE0 | c >> 12);
            out[k++] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
            out[k++] = (uint8_t)(0x80 | (c & 0x3F));
        } else {
            out[k++] = (uint8_t)(0xF0 | (c >> 18 & 7));
            out[k++] = (uint8_t)(0x80 | ((c >> 12) & 0x3F));
            out[k++] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
            out[k++] = (uint8_t)(0x80 | (c & 0x3F));
        }
    }
    return k;
}

static double read_extras(gr_face *face, const gr_feature_val *fv, gr_segment *seg)
{
    double sum = 0;
    gr_uint16 nf = fvg2_face_n_fref(face);
    for (gr_uint16 i = 0; i <= nf && i < 64; i++) {
        const gr_feature_ref *fr = fvg2_face_fref(face, i);
        sum += fvg2_fref_id(fr) + fvg2_fref_n_values(fr) + fvg2_fref_feature_value(fr, fv);
        gr_uint16 lang = 0x409;
        gr_uint32 len = 0;
        void *l = fvg2_fref_label(fr, &lang, (enum gr_encform)(1u << (i % 3)), &len);
        sum += len + lang;
        fvg2_label_destroy(l);
        for (gr_uint16 v = 0; v <= fvg2_fref_n_values(fr) && v < 16; v++) {
            sum += fvg2_fref_value(fr, v);
            l = fvg2_fref_value_label(fr, v, &lang, gr_utf8, &len);
            fvg2_label_destroy(l);
        }
    }
    for (gr_uint16 i = 0; i <= fvg2_face_n_languages(face) && i < 64; i++)
        sum += fvg2_face_lang_by_index(face, i);
    const gr_faceinfo *info = fvg2_face_info(face, 0);
    if (info)
        sum += info->upem + info->space_contextuals;
    for (const gr_slot *s = fvg2_seg_first_slot(seg); s; s = fvg2_slot_next_in_segment(s)) {
        for (int a = 0; a <= gr_slatNoEffect; a++)
            sum += fvg2_slot_attr(s, seg, (enum gr_attrCode)a, (gr_uint8)(a & 7));
        sum += fvg2_slot_index(s) + fvg2_slot_original(s);
        sum += fvg2_slot_first_attachment(s) != NULL;
        sum += fvg2_slot_next_sibling_attachment(s) != NULL;
        sum += fvg2_slot_prev_in_segment(s) != NULL;
    }
    const gr_slot *last = fvg2_seg_last_slot(seg);
    sum += last ? fvg2_slot_gid(last) : 0;
    return sum;
}

int fvfuzz_gr2_api_drive(const uint8_t *font, size_t len, const grc_request *req, unsigned extras,
                         unsigned justify_percent, grc_run *out, double *checksum)
{
    memset(out, 0, sizeof *out);
    out->has_attach_offsets = 1;
    *checksum = 0;
    blob b = {font, len};
    gr_face_ops ops = {sizeof ops, get_table, release_table};
    gr_face *face = fvg2_make_face_with_ops(&b, &ops, gr_face_preloadAll);
    if (!face) {
        snprintf(out->error, sizeof out->error, "face");
        return 0;
    }
    gr_feature_val *fv = fvg2_face_featureval_for_lang(face, req->features ? req->features->lang : 0);
    if (req->features)
        for (size_t i = 0; i < req->features->n; i++) {
            const gr_feature_ref *ref = fvg2_face_find_fref(face, req->features->f[i].id);
            if (ref)
                fvg2_fref_set_feature_value(ref, (gr_uint16)req->features->f[i].value, fv);
        }
    gr_font *grfont = (extras & FVFUZZ_GR2_FONT) ? fvg2_make_font_with_advance_fn(12, &b, advance, face)
                                                 : NULL;
    gr_segment *seg;
    if (extras & FVFUZZ_GR2_UTF8) {
        uint8_t *u8 = malloc(req->length * 4 + 1);
        seg = u8 ? fvg2_make_seg(grfont, face, 0, fv, gr_utf8, u8, (to_utf8(req->text, req->length, u8), req->length),
                                 req->rtl)
                 : NULL;
        free(u8);
    } else {
        seg = fvg2_make_seg(grfont, face, 0, fv, gr_utf32, req->text, req->length, req->rtl);
    }
    if (!seg) {
        snprintf(out->error, sizeof out->error, "gr_make_seg returned NULL");
    } else {
        size_t n = fvg2_seg_n_slots(seg), nc = fvg2_seg_n_cinfo(seg);
        out->glyphs = calloc(n ? n : 1, sizeof *out->glyphs);
        out->chars = calloc(nc ? nc : 1, sizeof *out->chars);
        if (out->glyphs && out->chars) {
            out->ok = 1;
            size_t i = 0;
            const gr_slot *first = fvg2_seg_first_slot(seg);
            for (const gr_slot *s = first; s && i < n; s = fvg2_slot_next_in_segment(s), i++) {
                grc_glyph *o = &out->glyphs[i];
                o->gid = fvg2_slot_gid(s);
                o->x = fvg2_slot_origin_X(s);
                o->y = fvg2_slot_origin_Y(s);
                o->attach_x = fvg2_slot_attr(s, seg, gr_slatAttX, 0);
                o->attach_y = fvg2_slot_attr(s, seg, gr_slatAttY, 0);
                o->insert = fvg2_slot_attr(s, seg, gr_slatInsert, 0);
                o->break_weight = fvg2_slot_attr(s, seg, gr_slatBreak, 0);
                o->before = fvg2_slot_before(s);
                o->after = fvg2_slot_after(s);
                o->last_pass = o->last_rule = -1;
                o->advance_y = fvg2_slot_advance_Y(s, face, grfont);
                *checksum += fvg2_slot_advance_X(s, face, grfont) + fvg2_slot_can_insert_before(s);
                /* the parent's place in the stream, as the conformance
                 * library finds it in graphite2's */
                o->attached_to = -1;
                const gr_slot *p = fvg2_slot_attached_to(s);
                size_t k = 0;
                for (const gr_slot *q = first; p && q && k < n; q = fvg2_slot_next_in_segment(q), k++)
                    if (q == p) {
                        o->attached_to = (int32_t)k;
                        break;
                    }
            }
            out->num_glyphs = i;
            for (size_t c = 0; c < nc; c++) {
                const gr_char_info *ci = fvg2_seg_cinfo(seg, (unsigned)c);
                out->chars[c].unicode = fvg2_cinfo_unicode_char(ci);
                out->chars[c].before = fvg2_cinfo_before(ci);
                out->chars[c].after = fvg2_cinfo_after(ci);
                out->chars[c].base = (int32_t)fvg2_cinfo_base(ci);
                *checksum += fvg2_cinfo_break_weight(ci);
            }
            out->num_chars = nc;
            out->advance_x = fvg2_seg_advance_X(seg);
            out->advance_y = fvg2_seg_advance_Y(seg);
        } else {
            snprintf(out->error, sizeof out->error, "out of memory");
        }
        if (extras & FVFUZZ_GR2_ATTRS)
            *checksum += read_extras(face, fv, seg);
        if ((extras & FVFUZZ_GR2_JUSTIFY) && fvg2_seg_first_slot(seg))
            *checksum += fvg2_seg_justify(seg, fvg2_seg_first_slot(seg), grfont,
                                          fvg2_seg_advance_X(seg) * (80 + justify_percent) / 100.0,
                                          gr_justCompleteLine, NULL, NULL);
    }
    fvg2_featureval_destroy(fv);
    if (extras & FVFUZZ_GR2_FACE_FIRST) {
        fvg2_face_destroy(face);
        fvg2_font_destroy(grfont);
        fvg2_seg_destroy(seg);
    } else {
        fvg2_seg_destroy(seg);
        fvg2_font_destroy(grfont);
        fvg2_face_destroy(face);
    }
    return 1;
}
