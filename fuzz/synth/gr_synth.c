/* See gr_synth.h. */
#include "synth/gr_synth.h"

#include <stddef.h>
#include <string.h>

void fvsynth_gr_face(fvsynth_gr *f, const fv_allocator *a)
{
    /* The rule map and the machine's stack are KBs that every run would
     * clear for nothing: fvsynth_gr_segment sets what the machine reads.
     * This memset was 10% of gr_code's time.  The class, glyph and
     * attribute tables are written whole below, so they are not cleared
     * either. */
    memset(f, 0, offsetof(fvsynth_gr, class_off));
    fv_mem_init(&f->mem, a);
    fv_gr_face *face = &f->face;
    face->mem = &f->mem;
    face->num_glyphs = FVSYNTH_GR_GLYPHS;
    face->upem = 1000;
    face->descent = -200;
    face->glyphs = f->glyphs;
    for (uint16_t g = 0; g < FVSYNTH_GR_GLYPHS; g++) {
        f->glyphs[g].advance = (uint16_t)(100 * (g + 1));
        f->glyphs[g].x_min = 10;
        f->glyphs[g].y_min = -20;
        f->glyphs[g].x_max = (int16_t)(90 + 10 * g);
        f->glyphs[g].y_max = 700;
    }
    face->num_attrs = FVSYNTH_GR_ATTRS;
    face->attrs = f->attrs;
    face->attr_col = f->attr_col;
    for (int k = 0; k < FVSYNTH_GR_ATTRS; k++)
        f->attr_col[k] = (grv_attr_col){(uint32_t)(k * FVSYNTH_GR_GLYPHS), 0, FVSYNTH_GR_GLYPHS};
    for (int g = 0; g < FVSYNTH_GR_GLYPHS; g++)
        for (int k = 0; k < FVSYNTH_GR_ATTRS; k++)
            f->attrs[k * FVSYNTH_GR_GLYPHS + g] = (int16_t)(10 * g + k);
    grv_silf *s = &face->silf;
    s->num_classes = FVSYNTH_GR_CLASSES;
    s->num_linear = FVSYNTH_GR_LINEAR;
    s->class_off = f->class_off;
    s->class_data = f->class_data;
    uint32_t o = 0;
    for (uint32_t c = 0; c < FVSYNTH_GR_LINEAR; c++) {
        f->class_off[c] = o;
        f->class_data[o++] = (uint16_t)(c % FVSYNTH_GR_GLYPHS);
        f->class_data[o++] = (uint16_t)((c * 7 + 3) % FVSYNTH_GR_GLYPHS);
    }
    /* Lookup classes: a 4-entry header (count, search range, entry
     * selector, range shift) then (glyph, index) pairs sorted by glyph. */
    for (uint32_t c = FVSYNTH_GR_LINEAR; c < FVSYNTH_GR_CLASSES; c++) {
        uint16_t g0 = (uint16_t)(c % FVSYNTH_GR_GLYPHS);
        uint16_t g1 = (uint16_t)(g0 + 3 < FVSYNTH_GR_GLYPHS ? g0 + 3 : FVSYNTH_GR_GLYPHS - 1);
        const uint16_t look[8] = {2, 2, 1, 0, g0, 0, g1, 1};
        f->class_off[c] = o;
        memcpy(&f->class_data[o], look, sizeof look);
        o += 8;
    }
    f->class_off[FVSYNTH_GR_CLASSES] = o;
    s->class_data_len = o;
    s->num_user = 2;
    s->attr_pseudo = 200; /* beyond the attributes: no pseudo glyphs */
    s->attr_break = 1;
    s->attr_dir = 2;
    s->attr_mirror = 200;
    s->attr_collisions = 200;
    s->num_jlevels = 1;
    s->jattr[0][0] = 3;
    s->jattr[0][1] = 4;
    s->jattr[0][2] = 5;
    s->jattr[0][3] = 6;
    s->num_passes = 1;
    s->i_subst = 0;
    s->i_pos = 1;
    s->i_just = 1;
    s->i_bidi = 0xFF;
    s->passes = &f->pass;
    face->num_features = FVSYNTH_GR_FEATURES;
    face->features = f->feats;
    f->fvals[0] = 0;
    f->fvals[1] = 1;
    for (uint32_t k = 0; k < FVSYNTH_GR_FEATURES; k++) {
        f->feats[k].id = 0x41424300u + k; /* "ABC\0" + k */
        f->feats[k].max_value = 3;
        f->feats[k].num_settings = 2;
        f->feats[k].setting_values = f->fvals;
        f->feats[k].setting_labels = f->flabels;
    }
}

int fvsynth_gr_segment(fvsynth_gr *f, const uint8_t *gids, int n, int rtl)
{
    grv_seg *seg = &f->seg;
    seg->face = &f->face;
    seg->mem = &f->mem;
    seg->first = seg->last = GRV_NIL;
    seg->num_chars = (uint32_t)n;
    seg->chars = f->chars;
    seg->feats = f->feat_vals;
    seg->dir = rtl ? 1 : 0;
    for (int i = 0; i < n; i++) {
        int32_t s = grv_new_slot(seg);
        if (s == GRV_NIL)
            return -1;
        grv_slot *sl = &seg->slots[s];
        sl->original = i;
        grv_extra(seg, s)->before = grv_extra(seg, s)->after = i;
        grv_set_glyph(seg, s, gids[i] % FVSYNTH_GR_GLYPHS);
        sl = &seg->slots[s];
        sl->prev = seg->last;
        sl->next = GRV_NIL;
        if (seg->last != GRV_NIL)
            seg->slots[seg->last].next = s;
        else
            seg->first = s;
        seg->last = s;
        seg->slot_count++;
        f->chars[i].unicode = 0x61u + (uint32_t)i;
        f->chars[i].before = f->chars[i].after = f->chars[i].base = i;
    }
    grv_slotmap *m = &f->map;
    m->buf[0] = GRV_NIL;
    m->size = 0;
    for (int32_t s = seg->first; s != GRV_NIL; s = seg->slots[s].next)
        grv_map_begin(m)[m->size++] = s;
    grv_map_begin(m)[m->size++] = GRV_NIL;
    m->context = 0;
    m->highpassed = 0;
    m->max_size = (int64_t)n * GRV_SEG_GROWTH;
    m->highwater = GRV_NIL;
    f->m.seg = seg;
    f->m.map = m;
    f->m.status = GRV_FINISHED;
    return 0;
}

void fvsynth_gr_free(fvsynth_gr *f)
{
    grv_free_pool(&f->seg);
}
