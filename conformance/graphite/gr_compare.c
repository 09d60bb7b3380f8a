/* Comparison of two Graphite runs (graphite2 terms) or two HarfBuzz
 * buffers.  The first difference found is reported; its slot is the
 * "first_diff" of the gr_case record. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/reader.h"
#include "gr_compare.h"

static grc_diff diff_at(grc_status st, long slot, const char *what)
{
    grc_diff d;
    d.status = st;
    d.slot = slot;
    snprintf(d.what, sizeof d.what, "%s", what);
    return d;
}

static grc_diff error_diff(int ref_ok, int fv_ok, int fv_hardening_limit)
{
    if (!ref_ok && !fv_ok)
        return diff_at(GRC_ERROR_BOTH, -1, "error");
    if (!ref_ok)
        return diff_at(GRC_ERROR_REF_ONLY, -1, "error");
    if (fv_hardening_limit)
        return diff_at(GRC_HARDENING_LIMIT, -1, "budget");
    return diff_at(GRC_ERROR_FONTVM_ONLY, -1, "error");
}

static int close_enough(double a, double b)
{
    return fabs(a - b) <= GRC_POS_TOLERANCE;
}

grc_diff grc_compare_gr(const grc_run *ref, const grc_run *fv)
{
    if (!ref->ok || !fv->ok)
        return error_diff(ref->ok, fv->ok, fv->hardening_limit);
    size_t n = ref->num_glyphs < fv->num_glyphs ? ref->num_glyphs : fv->num_glyphs;
    for (size_t i = 0; i < n; i++) {
        const grc_glyph *a = &ref->glyphs[i], *b = &fv->glyphs[i];
        if (a->gid != b->gid)
            return diff_at(GRC_DIFFERENT, (long)i, "gid");
        if (!close_enough(a->x, b->x) || !close_enough(a->y, b->y))
            return diff_at(GRC_DIFFERENT, (long)i, "position");
        if (a->before != b->before || a->after != b->after)
            return diff_at(GRC_DIFFERENT, (long)i, "slot_chars");
    }
    if (ref->num_glyphs != fv->num_glyphs)
        return diff_at(GRC_DIFFERENT, (long)n, "count");
    if (!close_enough(ref->advance_x, fv->advance_x) || !close_enough(ref->advance_y, fv->advance_y))
        return diff_at(GRC_DIFFERENT, -1, "advance");
    if (ref->num_chars != fv->num_chars)
        return diff_at(GRC_DIFFERENT, -1, "char_count");
    for (size_t c = 0; c < ref->num_chars; c++)
        if (ref->chars[c].before != fv->chars[c].before || ref->chars[c].after != fv->chars[c].after)
            return diff_at(GRC_DIFFERENT, -1, "chars");
    return diff_at(GRC_IDENTICAL, -1, "");
}

grc_diff grc_compare_hb(const grc_hb_run *ref, const grc_hb_run *fv)
{
    if (!ref->ok || !fv->ok)
        return error_diff(ref->ok, fv->ok, fv->hardening_limit);
    size_t n = ref->num_glyphs < fv->num_glyphs ? ref->num_glyphs : fv->num_glyphs;
    for (size_t i = 0; i < n; i++) {
        const grc_hb_glyph *a = &ref->glyphs[i], *b = &fv->glyphs[i];
        if (a->gid != b->gid)
            return diff_at(GRC_DIFFERENT, (long)i, "gid");
        if (a->cluster != b->cluster)
            return diff_at(GRC_DIFFERENT, (long)i, "cluster");
        if (a->x_advance != b->x_advance || a->y_advance != b->y_advance || a->x_offset != b->x_offset
            || a->y_offset != b->y_offset)
            return diff_at(GRC_DIFFERENT, (long)i, "position");
    }
    if (ref->num_glyphs != fv->num_glyphs)
        return diff_at(GRC_DIFFERENT, (long)n, "count");
    return diff_at(GRC_IDENTICAL, -1, "");
}

int grc_fv_culprit(const grc_run *fv, long slot, int32_t *pass, int32_t *rule)
{
    *pass = *rule = -1;
    if (!fv->ok || slot < 0 || (size_t)slot >= fv->num_glyphs || fv->glyphs[slot].last_pass < 0)
        return 0;
    *pass = fv->glyphs[slot].last_pass;
    *rule = fv->glyphs[slot].last_rule;
    return 1;
}

int grc_shape_both(grc_gr2 *g, fv_gr_face *face, const grc_request *req, grc_run *ref,
                   grc_run *fv)
{
    if (grc_gr2_shape(g, req, ref) != 0)
        return -1;
    if (grc_fv_shape(face, req, fv) != 0) {
        grc_run_free(ref);
        return -1;
    }
    return 0;
}

int grc_same_positions(const grc_run *ref, const grc_run *fv)
{
    int same = ref->ok && fv->ok && ref->num_glyphs == fv->num_glyphs;
    for (size_t i = 0; same && i < ref->num_glyphs; i++)
        same = ref->glyphs[i].gid == fv->glyphs[i].gid &&
               fabs(ref->glyphs[i].x - fv->glyphs[i].x) <= 1.0 / 64 &&
               fabs(ref->glyphs[i].y - fv->glyphs[i].y) <= 1.0 / 64;
    return same;
}

const uint8_t *grc_sfnt_table(const uint8_t *file, size_t size, uint32_t tag, size_t *len)
{
    fv_span all = {file, size}, font = all, t;
    uint32_t version = 0, off = 0, rec_len = 0, rec_tag = 0;
    uint16_t num = 0;
    *len = 0;
    if (fv_rd_u32(all, 0, &version) != FV_OK)
        return NULL;
    if (version == FV_TAG('t', 't', 'c', 'f') &&
        (fv_rd_u32(all, 12, &off) != FV_OK || fv_span_tail(all, off, &font) != FV_OK ||
         fv_rd_u32(font, 0, &version) != FV_OK))
        return NULL;
    if (version != 0x00010000u && version != 0x00020000u && version != FV_TAG('t', 'r', 'u', 'e') &&
        version != FV_TAG('O', 'T', 'T', 'O') && version != FV_TAG('t', 'y', 'p', '1') &&
        version != 0xA56B6264u /* A5kbd */ && version != 0xA56C7374u /* A5lst */)
        return NULL;
    if (fv_rd_u16(font, 4, &num) != FV_OK)
        return NULL;
    for (uint32_t i = 0; i < num; i++) {
        uint64_t rec = 12 + 16 * (uint64_t)i;
        if (fv_rd_u32(font, rec, &rec_tag) != FV_OK || fv_rd_u32(font, rec + 8, &off) != FV_OK ||
            fv_rd_u32(font, rec + 12, &rec_len) != FV_OK)
            return NULL;
        if (rec_tag == tag) {
            /* offsets are file-relative, in a collection too */
            if (fv_span_sub(all, off, rec_len, &t) != FV_OK)
                return NULL;
            *len = t.len;
            return t.data;
        }
    }
    return NULL;
}
