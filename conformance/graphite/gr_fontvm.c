/* The side under test: fontvm's Graphite engine, reduced to grc_run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gr_compare.h"

int grc_fv_shape(fv_gr_face *face, const grc_request *req, grc_run *out)
{
    return grc_fv_shape_justified(face, req, 0.0f, out);
}

int grc_fv_shape_justified(fv_gr_face *face, const grc_request *req, float justify_percent,
                           grc_run *out)
{
    memset(out, 0, sizeof *out);
    fv_gr_feature_setting feats[GRC_MAX_FEATURES];
    size_t nf = 0;
    uint32_t lang = 0;
    if (req->features) {
        for (size_t i = 0; i < req->features->n; i++) {
            feats[nf].id = req->features->f[i].id;
            feats[nf].value = req->features->f[i].value;
            nf++;
        }
        lang = req->features->lang;
    }
    /* `rtl` carries graphite2's direction bits unchanged (bit 0 right to
     * left, bit 1 no bidi), as HarfBuzz passes them. */
    fv_gr_shape_request r;
    memset(&r, 0, sizeof r); /* fields added later (justification) stay off */
    r.text = req->text;
    r.length = req->length;
    r.features = nf ? feats : NULL;
    r.num_features = nf;
    r.lang = lang;
    r.rtl = req->rtl;
    r.justify_percent = justify_percent;
    fv_gr_segment *seg = NULL;
    fv_error err;
    fv_error_clear(&err);
    if (fv_gr_shape(face, &r, &seg, &err) != FV_OK || !seg) {
        fv_error_format(&err, out->error, sizeof out->error);
        out->hardening_limit = fv_status_is_budget(err.kind);
        return 0;
    }
    out->glyphs = calloc(seg->num_slots ? seg->num_slots : 1, sizeof *out->glyphs);
    out->chars = calloc(seg->num_chars ? seg->num_chars : 1, sizeof *out->chars);
    if (!out->glyphs || !out->chars) {
        fv_gr_segment_free(face, seg);
        snprintf(out->error, sizeof out->error, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < seg->num_slots; i++) {
        const fv_gr_slot_info *s = &seg->slots[i];
        grc_glyph *g = &out->glyphs[i];
        g->gid = s->gid;
        g->x = s->x;
        g->y = s->y;
        g->attached_to = s->attached_to;
        g->attach_x = (int32_t)s->attach_x;
        g->attach_y = (int32_t)s->attach_y;
        g->insert = s->insert;
        g->break_weight = s->break_weight;
        g->before = s->before;
        g->after = s->after;
        g->last_pass = s->last_pass;
        g->advance_y = s->advance_y;
        g->last_rule = s->last_rule;
    }
    out->num_glyphs = seg->num_slots;
    for (size_t i = 0; i < seg->num_chars; i++) {
        out->chars[i].unicode = i < req->length ? req->text[i] : 0;
        out->chars[i].before = seg->chars[i].before;
        out->chars[i].after = seg->chars[i].after;
        out->chars[i].base = seg->chars[i].base;
    }
    out->num_chars = seg->num_chars;
    out->advance_x = seg->advance_x;
    out->advance_y = seg->advance_y;
    out->ok = 1;
    fv_gr_segment_free(face, seg);
    return 0;
}
