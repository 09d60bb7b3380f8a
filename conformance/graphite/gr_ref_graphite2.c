/* Reference side 1: graphite2 itself (Debian's libgraphite2 1.3.14).
 *
 * The face reads its tables straight from the caller's font bytes through a
 * bounds-checked table directory lookup, so graphite2 and fontvm see the
 * same bytes.  Segments are made with a NULL gr_font: positions in font
 * units, no hinted advances. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graphite2/Font.h>
#include <graphite2/Segment.h>

#include "common/reader.h"
#include "gr_compare.h"

struct grc_gr2 {
    fv_span file;       /* the whole file: table offsets are file-relative */
    gr_face *face;
    uint16_t upem;
};

static const void *get_table(const void *handle, unsigned int name, size_t *len)
{
    const struct grc_gr2 *g = handle;
    return grc_sfnt_table(g->file.data, g->file.len, name, len);
}

grc_gr2 *grc_gr2_open(const uint8_t *data, size_t size, char *err, size_t err_size)
{
    struct grc_gr2 *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    g->file.data = data;
    g->file.len = size;
    uint32_t magic = 0;
    if (fv_rd_u32(g->file, 0, &magic) == FV_OK && magic == FV_TAG('t', 't', 'c', 'f')) {
        uint32_t off = 0;
        fv_span face0;
        if (fv_rd_u32(g->file, 12, &off) != FV_OK || fv_span_tail(g->file, off, &face0) != FV_OK) {
            snprintf(err, err_size, "truncated TrueType collection header");
            free(g);
            return NULL;
        }
    }
    size_t head_len = 0;
    const uint8_t *head_data = grc_sfnt_table(data, size, FV_TAG('h', 'e', 'a', 'd'), &head_len);
    fv_span head = {head_data, head_len};
    if (!head_data || fv_rd_u16(head, 18, &g->upem) != FV_OK) {
        snprintf(err, err_size, "no readable head table");
        free(g);
        return NULL;
    }
    static const gr_face_ops ops = {sizeof(gr_face_ops), get_table, NULL};
    g->face = gr_make_face_with_ops(g, &ops, gr_face_preloadAll);
    if (!g->face) {
        snprintf(err, err_size, "graphite2 refused the font (gr_make_face_with_ops returned NULL)");
        free(g);
        return NULL;
    }
    return g;
}

void grc_gr2_close(grc_gr2 *g)
{
    if (!g)
        return;
    gr_face_destroy(g->face);
    free(g);
}

uint16_t grc_gr2_upem(const grc_gr2 *g)
{
    return g->upem;
}

int grc_gr2_finds_feature(const grc_gr2 *g, uint32_t id)
{
    const gr_feature_ref *ref = gr_face_find_fref(g->face, id);
    return ref != NULL && gr_fref_id(ref) == id;
}

int grc_gr2_shape(grc_gr2 *g, const grc_request *req, grc_run *out)
{
    memset(out, 0, sizeof *out);
    out->has_attach_offsets = 1;
    gr_feature_val *fv = gr_face_featureval_for_lang(g->face, req->features ? req->features->lang : 0);
    if (!fv) {
        snprintf(out->error, sizeof out->error, "gr_face_featureval_for_lang failed");
        return 0;
    }
    if (req->features) {
        for (size_t i = 0; i < req->features->n; i++) {
            const gr_feature_ref *ref = gr_face_find_fref(g->face, req->features->f[i].id);
            /* Unknown ids are ignored, as gr2fonttest and HarfBuzz do. */
            if (ref)
                gr_fref_set_feature_value(ref, (gr_uint16)req->features->f[i].value, fv);
        }
    }
    gr_segment *seg = gr_make_seg(NULL, g->face, 0, fv, gr_utf32, req->text, req->length, req->rtl);
    gr_featureval_destroy(fv);
    if (!seg) {
        snprintf(out->error, sizeof out->error, "gr_make_seg returned NULL");
        return 0;
    }
    size_t n = gr_seg_n_slots(seg);
    size_t nc = gr_seg_n_cinfo(seg);
    out->glyphs = calloc(n ? n : 1, sizeof *out->glyphs);
    out->chars = calloc(nc ? nc : 1, sizeof *out->chars);
    if (!out->glyphs || !out->chars) {
        gr_seg_destroy(seg);
        snprintf(out->error, sizeof out->error, "out of memory");
        return -1;
    }
    size_t i = 0;
    for (const gr_slot *s = gr_seg_first_slot(seg); s && i < n; s = gr_slot_next_in_segment(s), i++) {
        grc_glyph *o = &out->glyphs[i];
        o->gid = gr_slot_gid(s);
        o->x = gr_slot_origin_X(s);
        o->y = gr_slot_origin_Y(s);
        o->attached_to = -1; /* below, once every slot is listed */
        o->attach_x = gr_slot_attr(s, seg, gr_slatAttX, 0);
        o->attach_y = gr_slot_attr(s, seg, gr_slatAttY, 0);
        o->insert = gr_slot_attr(s, seg, gr_slatInsert, 0);
        o->break_weight = gr_slot_attr(s, seg, gr_slatBreak, 0);
        o->before = gr_slot_before(s);
        o->last_pass = o->last_rule = -1; /* graphite2 does not say */
        o->advance_y = gr_slot_advance_Y(s, g->face, NULL);
        o->after = gr_slot_after(s);
    }
    out->num_glyphs = i;
    /* The parent's position in the output: gr_slot_index() is the index
     * graphite2 gave the slot when it associated characters, stale once the
     * stream has been reversed back (right-to-left segments). */
    const gr_slot **list = malloc((i ? i : 1) * sizeof *list);
    if (list) {
        size_t k = 0;
        for (const gr_slot *s = gr_seg_first_slot(seg); s && k < i; s = gr_slot_next_in_segment(s))
            list[k++] = s;
        for (size_t a = 0; a < k; a++) {
            const gr_slot *p = gr_slot_attached_to(list[a]);
            for (size_t b = 0; p && b < k; b++)
                if (list[b] == p) {
                    out->glyphs[a].attached_to = (int32_t)b;
                    break;
                }
        }
        free(list);
    }
    for (size_t c = 0; c < nc; c++) {
        const gr_char_info *ci = gr_seg_cinfo(seg, (unsigned)c);
        out->chars[c].unicode = gr_cinfo_unicode_char(ci);
        out->chars[c].before = gr_cinfo_before(ci);
        out->chars[c].after = gr_cinfo_after(ci);
        out->chars[c].base = (int32_t)gr_cinfo_base(ci);
    }
    out->num_chars = nc;
    out->advance_x = gr_seg_advance_X(seg);
    out->advance_y = gr_seg_advance_Y(seg);
    out->ok = 1;
    gr_seg_destroy(seg);
    return 0;
}
