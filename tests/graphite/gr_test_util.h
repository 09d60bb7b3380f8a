/* Helpers for the Graphite engine unit tests: a hand-built face (no font
 * file) with a few classes, glyph attributes and features, and a segment
 * with slots whose glyphs the test chooses. */
#ifndef GR_TEST_UTIL_H
#define GR_TEST_UTIL_H

#include <string.h>

#include "common/mem.h"
#include "graphite/grv.h"
#include "test_support.h"

typedef struct gr_fixture {
    fv_mem mem;
    fv_gr_face face;
    grv_pass pass;
    uint32_t class_off[4];
    uint16_t class_data[16];
    grv_glyph glyphs[8];
    int16_t attrs[8 * 4];
    grv_attr_col attr_col[4];
    grv_feature feats[2];
    int16_t fvals[2];
    uint16_t flabels[2];
    grv_seg seg;
    int32_t feat_vals[2];
    grv_char chars[8];
    grv_slotmap map;
    grv_machine m;
} gr_fixture;

/* Face: 8 glyphs with advances 100*(g+1); 4 glyph attributes (attr a of
 * glyph g = 10*g + a); classes: 0 = linear {5, 6}, 1 = linear {7},
 * 2 = lookup {3->0, 4->1}; 2 user attributes; 1 feature (max 3). */
static inline void gr_fixture_init(gr_fixture *f)
{
    memset(f, 0, sizeof *f);
    fv_mem_init(&f->mem, NULL);
    fv_gr_face *face = &f->face;
    face->mem = &f->mem;
    face->num_glyphs = 8;
    face->glyphs = f->glyphs;
    for (uint16_t g = 0; g < 8; g++) {
        f->glyphs[g].advance = (uint16_t)(100 * (g + 1));
        f->glyphs[g].x_min = 10;
        f->glyphs[g].y_min = -20;
        f->glyphs[g].x_max = 90;
        f->glyphs[g].y_max = 700;
    }
    face->num_attrs = 4;
    face->attrs = f->attrs;
    face->attr_col = f->attr_col;
    for (int a = 0; a < 4; a++)
        f->attr_col[a] = (grv_attr_col){(uint32_t)(a * 8), 0, 8};
    for (int g = 0; g < 8; g++)
        for (int a = 0; a < 4; a++)
            f->attrs[a * 8 + g] = (int16_t)(10 * g + a);
    grv_silf *s = &face->silf;
    s->num_classes = 3;
    s->num_linear = 2;
    s->class_off = f->class_off;
    s->class_data = f->class_data;
    uint16_t data[] = {5, 6, 7, 2, 0, 0, 0, 3, 0, 4, 1};
    memcpy(f->class_data, data, sizeof data);
    f->class_off[0] = 0;
    f->class_off[1] = 2;
    f->class_off[2] = 3;
    f->class_off[3] = 11;
    s->class_data_len = 11;
    s->num_user = 2;
    s->attr_pseudo = 200; /* out of range: no pseudo glyphs */
    s->attr_break = 1;
    s->num_passes = 1;
    s->i_pos = 1;
    s->passes = &f->pass;
    face->num_features = 1;
    face->features = f->feats;
    f->feats[0].id = 0x41424344;
    f->feats[0].max_value = 3;
    f->feats[0].num_settings = 2;
    f->feats[0].setting_values = f->fvals;
    f->feats[0].setting_labels = f->flabels;
}

/* Segment of n slots with the given glyphs, all in one rule match map. */
static inline void gr_fixture_seg(gr_fixture *f, const uint16_t *gids, int n)
{
    grv_seg *seg = &f->seg;
    seg->face = &f->face;
    seg->mem = &f->mem;
    seg->first = seg->last = GRV_NIL;
    seg->num_chars = (uint32_t)n;
    seg->chars = f->chars;
    seg->feats = f->feat_vals;
    for (int i = 0; i < n; i++) {
        int32_t s = grv_new_slot(seg);
        assert_true(s >= 0);
        seg->slots[s].original = i;
        seg->extras[s].before = seg->extras[s].after = i;
        grv_set_glyph(seg, s, gids[i]);
        seg->slots[s].prev = seg->last;
        if (seg->last != GRV_NIL)
            seg->slots[seg->last].next = s;
        else
            seg->first = s;
        seg->last = s;
        seg->slot_count++;
        f->chars[i].before = f->chars[i].after = f->chars[i].base = i;
    }
    grv_slotmap *m = &f->map;
    m->buf[0] = GRV_NIL;
    m->size = 0;
    for (int32_t s = seg->first; s != GRV_NIL; s = seg->slots[s].next)
        grv_map_begin(m)[m->size++] = s;
    grv_map_begin(m)[m->size++] = GRV_NIL;
    m->context = 0;
    m->max_size = 64;
    m->highwater = GRV_NIL;
    f->m.seg = seg;
    f->m.map = m;
}

static inline void gr_fixture_free(gr_fixture *f)
{
    grv_free_pool(&f->seg);
}

/* Runs `code` as action (cur_rule >= 0) or constraint code at map index 0. */
static inline int32_t gr_run(gr_fixture *f, const uint8_t *code, size_t len, int action)
{
    grv_code c;
    memset(&c, 0, sizeof c);
    c.code.data = code;
    c.code.len = len;
    c.offset = 0;
    f->seg.cur_rule = 0;
    f->seg.in_constraint = !action;
    int mi = 0;
    if (grv_compile(&f->mem, &c) != FV_OK)
        fail_msg("grv_compile: out of memory");
    int32_t ret = grv_run(&f->m, &c, &mi, 0, NULL);
    grv_code_free(&f->mem, &c);
    return ret;
}

/* Verifies action code of a rule of 2 slots without pre-context in a
 * substitution pass, as small.ttf's pass 0 rule 0. */
static inline fv_status gr_verify_sort2(gr_fixture *f, const uint8_t *code, size_t len)
{
    grv_verify_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.face = &f->face;
    ctx.silf = &f->face.silf;
    ctx.pass_type = GRV_PASS_SUBSTITUTE;
    ctx.rule_length = 2;
    ctx.pre_context = 0;
    grv_code c = {.code = {code, len}};
    fv_error e;
    return grv_verify(&ctx, c, &e);
}

#endif
