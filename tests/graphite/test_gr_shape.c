/* Shaping-level unit tests of the Graphite engine on graphite2's test font
 * small.ttf (corpus/peer/graphite2/fonts), with expectations measured
 * once with graphite2 1.3.14 (gr2fonttest) and written down here, so that
 * the behaviour is pinned without the reference library.  Rules are
 * patched into the font's Silf in memory where a test needs its own code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fontvm/fontvm.h"
#include "fontvm/graphite.h"
#include "graphite/grv.h"
#include "test_support.h"

typedef struct font_buf {
    uint8_t *data;
    size_t size;
} font_buf;

static int load_small(font_buf *fb)
{
    char path[1024];
    test_source_path(path, sizeof path, TEST_PEER_GRAPHITE2 "/fonts/small.ttf");
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    fb->data = malloc((size_t)n);
    fb->size = (size_t)n;
    int ok = fb->data && fread(fb->data, 1, (size_t)n, f) == (size_t)n;
    fclose(f);
    return ok;
}

/* Replaces the code of pass `pass` rule `rule` (action or constraint) by
 * `code`, padded at the front with Nop to the span's length (as the gr_diff
 * fuzz target does).  Returns 0 if the span is shorter than the code. */
static int patch_rule(font_buf *fb, uint32_t pass, uint32_t rule, int action, const uint8_t *code,
                      size_t len)
{
    fv_font *f = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    int ok = 0;
    if (fv_font_open_memory(fb->data, fb->size, 0, NULL, &f, &err) != FV_OK)
        return 0;
    if (fv_gr_face_new(f, &face, &err) == FV_OK && pass < face->silf.num_passes &&
        rule < face->silf.passes[pass].num_rules) {
        const grv_rule *r = &face->silf.passes[pass].rules[rule];
        const grv_code *c = action ? &r->action : &r->constraint;
        size_t off = (size_t)(face->silf.data.data - fb->data) + c->offset;
        if (c->code.len >= len && off + c->code.len <= fb->size) {
            memset(fb->data + off, 0, c->code.len - len);
            memcpy(fb->data + off + c->code.len - len, code, len);
            ok = 1;
        }
    }
    fv_gr_face_free(face);
    fv_font_close(f);
    return ok;
}

static fv_status shape(font_buf *fb, const uint32_t *text, size_t n, int rtl, fv_gr_segment **out)
{
    fv_font *f = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    *out = NULL;
    assert_int_equal(fv_font_open_memory(fb->data, fb->size, 0, NULL, &f, &err), FV_OK);
    assert_int_equal(fv_gr_face_new(f, &face, &err), FV_OK);
    fv_gr_shape_request req;
    memset(&req, 0, sizeof req);
    req.text = text;
    req.length = n;
    req.rtl = rtl;
    fv_gr_segment *seg = NULL;
    fv_status st = fv_gr_shape(face, &req, &seg, &err);
    if (st == FV_OK) {
        /* copy out: the segment belongs to the face's allocator */
        fv_gr_segment *c = calloc(1, sizeof *c);
        assert_non_null(c);
        *c = *seg;
        c->slots = malloc(seg->num_slots * sizeof *c->slots + 1);
        c->chars = malloc(seg->num_chars * sizeof *c->chars + 1);
        assert_non_null(c->slots);
        assert_non_null(c->chars);
        memcpy(c->slots, seg->slots, seg->num_slots * sizeof *c->slots);
        memcpy(c->chars, seg->chars, seg->num_chars * sizeof *c->chars);
        fv_gr_segment_free(face, seg);
        *out = c;
    }
    fv_gr_face_free(face);
    fv_font_close(f);
    return st;
}

static void seg_free(fv_gr_segment *s)
{
    if (s) {
        free(s->slots);
        free(s->chars);
        free(s);
    }
}

static int setup(void **state)
{
    font_buf *fb = calloc(1, sizeof *fb);
    if (!fb || !load_small(fb)) {
        print_error("cannot read " TEST_PEER_GRAPHITE2 "/fonts/small.ttf under FONTVM_SOURCE_DIR\n");
        if (fb)
            free(fb->data);
        free(fb);
        return -1;
    }
    *state = fb;
    return 0;
}

static int teardown(void **state)
{
    font_buf *fb = *state;
    free(fb->data);
    free(fb);
    return 0;
}

/* A fresh copy of the font per test (tests patch it). */
static font_buf copy_font(void **state)
{
    const font_buf *fb = *state;
    assert_non_null(fb); /* the group set-up read the font */
    font_buf c = {malloc(fb->size), fb->size};
    assert_non_null(c.data);
    memcpy(c.data, fb->data, fb->size);
    return c;
}

/* Shapes `text` with `code` patched into pass 0 rule 0's action of a fresh
 * copy of the font; the segment must shape. */
static fv_gr_segment *shape_patched(void **state, const uint8_t *code, size_t len,
                                    const uint32_t *text, size_t n, int rtl)
{
    font_buf fb = copy_font(state);
    assert_true(patch_rule(&fb, 0, 0, 1, code, len));
    fv_gr_segment *s = NULL;
    assert_int_equal(shape(&fb, text, n, rtl, &s), FV_OK);
    free(fb.data);
    return s;
}

/* graphite2 associates characters with slots once, after the substitution
 * passes.  RTL "ca aaabba": pass 0 reverses the stream, so the char table
 * keeps the reversed indexes (char 0 -> slot 7) although the slots return to
 * logical order at the end (F-1, measured with gr2fonttest -rtl). */
static void test_chars_associated_after_substitution_rtl(void **state)
{
    font_buf fb = copy_font(state);
    const uint32_t text[] = {'c', 'a', ' ', 'a', 'a', 'a', 'b', 'b', 'a'};
    fv_gr_segment *s = NULL;
    assert_int_equal(shape(&fb, text, 9, 1, &s), FV_OK);
    assert_int_equal(s->num_slots, 8);
    const int32_t before[9] = {7, 6, 5, 4, 3, 2, 1, 0, 0};
    for (int i = 0; i < 9; i++) {
        assert_int_equal(s->chars[i].before, before[i]);
        assert_int_equal(s->chars[i].after, before[i]);
    }
    /* the slots' own char ranges are in the final (logical) order */
    assert_int_equal(s->slots[0].before, 0);
    assert_int_equal(s->slots[7].before, 7);
    assert_int_equal(s->slots[7].after, 8);
    seg_free(s);

    /* The same text with pass 1 (positioning) rule 0 doing only
     * "Assoc 2: 0 1; RetZero": the slot's own range changes, the char table
     * does not (it is not associated again). */
    const uint8_t assoc[] = {GRV_OP_ASSOC, 2, 0, 1, GRV_OP_RET_ZERO};
    assert_true(patch_rule(&fb, 1, 0, 1, assoc, sizeof assoc));
    assert_int_equal(shape(&fb, text, 9, 1, &s), FV_OK);
    assert_int_equal(s->chars[0].before, 7);
    assert_int_equal(s->chars[0].after, 7);
    seg_free(s);

    /* "có" RTL: no substitution pass runs (skip-passes), so graphite2 numbers
     * the logical order (KD-4): char 0 -> slot 0. */
    const uint32_t co[] = {'c', 0xF3};
    assert_int_equal(shape(&fb, co, 2, 1, &s), FV_OK);
    assert_int_equal(s->chars[0].before, 0);
    assert_int_equal(s->chars[1].before, 1);
    seg_free(s);
    free(fb.data);
}

/* LTR " abc a" with pass 0 rule 0 = "PushByte 5; CopyNext; SetFeat 0 0;
 * PutGlyph8bitObs 0; Delete; RetTrue" (deletes "b"): the deleted char 2 is
 * given to its neighbours by that single association, before 2 / after 1
 * (F-6, measured with gr2fonttest). */
static void test_chars_after_delete(void **state)
{
    font_buf fb = copy_font(state);
    const uint8_t code[] = {GRV_OP_PUSH_BYTE, 5, GRV_OP_COPY_NEXT, GRV_OP_SET_FEAT, 0, 0,
                            GRV_OP_PUT_GLYPH_8BIT_OBS, 0, GRV_OP_DELETE, GRV_OP_RET_TRUE};
    assert_true(patch_rule(&fb, 0, 0, 1, code, sizeof code));
    const uint32_t text[] = {' ', 'a', 'b', 'c', ' ', 'a'};
    fv_gr_segment *s = NULL;
    assert_int_equal(shape(&fb, text, 6, 0, &s), FV_OK);
    assert_int_equal(s->num_slots, 5);
    const int32_t before[6] = {0, 1, 2, 2, 3, 4}, after[6] = {0, 1, 1, 2, 3, 4};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(s->chars[i].before, before[i]);
        assert_int_equal(s->chars[i].after, after[i]);
    }
    assert_int_equal(s->slots[1].before, 1);
    assert_int_equal(s->slots[1].after, 2);
    assert_int_equal(s->slots[2].before, 2);
    assert_int_equal(s->slots[2].after, 3);
    seg_free(s);
    free(fb.data);
}

/* RTL "baa" with pass 0 rule 0 = "Delete; Insert; Delete; Insert; Delete;
 * RetTrue": the inserted-then-deleted slot stays the pass's current slot
 * (it is not in the rule's map, so garbage collection leaves it), the rule
 * fires again on the next slot, and one slot (b) is left, covering all
 * three characters (F-14, measured with gr2fonttest -rtl). */
static void test_garbage_collection_after_delete(void **state)
{
    const uint8_t code[] = {GRV_OP_DELETE, GRV_OP_INSERT, GRV_OP_DELETE, GRV_OP_INSERT,
                            GRV_OP_DELETE, GRV_OP_RET_TRUE};
    const uint32_t text[] = {'b', 'a', 'a'};
    fv_gr_segment *s = shape_patched(state, code, sizeof code, text, 3, 1);
    assert_int_equal(s->num_slots, 1);
    assert_int_equal(s->slots[0].gid, 4);
    assert_int_equal(s->slots[0].before, 0);
    assert_int_equal(s->slots[0].after, 2);
    seg_free(s);
}

/* RTL "ca abaab " with "PushProcState; Delete; Insert; AttrAdd attTo;
 * RetTrue": the inserted slot attaches to a slot the action then deletes;
 * freeing that slot detaches it (F-15, graphite2's result: the inserted
 * glyph 0 at 820 unattached; slot 0 attached to slot 1 by pass 1). */
static void test_free_detaches(void **state)
{
    font_buf fb = copy_font(state);
    const uint8_t code[] = {GRV_OP_PUSH_PROC_STATE, 3, GRV_OP_DELETE, GRV_OP_INSERT,
                            GRV_OP_ATTR_ADD, GRV_SLAT_ATTTO, GRV_OP_RET_TRUE};
    assert_true(patch_rule(&fb, 0, 0, 1, code, sizeof code));
    const uint32_t text[] = {'c', 'a', ' ', 'a', 'b', 'a', 'a', 'b', ' '};
    fv_gr_segment *s = NULL;
    assert_int_equal(shape(&fb, text, 9, 1, &s), FV_OK);
    assert_int_equal(s->num_slots, 9);
    assert_int_equal(s->slots[6].gid, 0);
    assert_int_equal(s->slots[6].attached_to, -1);
    assert_true(s->slots[6].x == 820.0f);
    assert_int_equal(s->slots[0].attached_to, 1);
    assert_true(s->slots[0].x == 2564.0f);
    seg_free(s);
    free(fb.data);
}

/* graphite2's temporary copies (F-16, measured with gr2fonttest on "abc"):
 * "PutGlyph 0; PutCopy 0; Next; RetZero" changes slot 0 and then reads its
 * own map entry, which the loader replaced by a copy made before the
 * change: the glyph stays.  Without the trailing Next the slot is not below
 * the action's Next count, no copy is made, and the glyph changes. */
static void test_temporary_copies(void **state)
{
    const uint32_t text[] = {'a', 'b', 'c'};
    const uint8_t with_next[] = {GRV_OP_PUT_GLYPH_8BIT_OBS, 0, GRV_OP_PUT_COPY, 0, GRV_OP_NEXT,
                                 GRV_OP_RET_ZERO};
    const uint8_t without[] = {GRV_OP_PUT_GLYPH_8BIT_OBS, 0, GRV_OP_PUT_COPY, 0,
                               GRV_OP_RET_ZERO};
    const struct {
        const uint8_t *code;
        size_t len;
        uint32_t gid0;
    } cases[] = {{with_next, sizeof with_next, 3}, {without, sizeof without, 5}};
    for (size_t i = 0; i < 2; i++) {
        font_buf fb = copy_font(state);
        assert_true(patch_rule(&fb, 0, 0, 1, cases[i].code, cases[i].len));
        fv_gr_segment *s = NULL;
        assert_int_equal(shape(&fb, text, 3, 0, &s), FV_OK);
        assert_int_equal(s->num_slots, 3);
        assert_int_equal(s->slots[0].gid, cases[i].gid0);
        seg_free(s);
        free(fb.data);
    }
}

/* attTo set by AttrSetSlot right after an Insert at the segment's start
 * (F-22a, measured with gr2fonttest): the map position is then -1, which
 * graphite2 passes on as an unsigned byte (255), so the inserted slot takes
 * the attach-point branch (attach.at = the parent's advance) although its
 * parent follows it.  LTR "abbb" with "PushByte 2; Insert; AttrSetSlot
 * attTo; RetTrue" (the rule fires five times before "ab"): slot 0, inserted
 * first, attaches to slot 6 (gid 4 at 462, advance 520) at 520, so it sits
 * at 982; the later ones, inserted with slot 0 before them in the map, take
 * the attach-with branch (attach.at stays 0) and sit on the parent, at 462,
 * as in fontvm before the fix, where slot 0 did too.  "cab": no insert at the start, no slot takes that branch. */
static void test_attach_after_insert_at_start(void **state)
{
    const uint8_t code[] = {GRV_OP_PUSH_BYTE, 2, GRV_OP_INSERT, GRV_OP_ATTR_SET_SLOT,
                            GRV_SLAT_ATTTO, GRV_OP_RET_TRUE};
    const uint32_t abbb[] = {'a', 'b', 'b', 'b'};
    fv_gr_segment *s = shape_patched(state, code, sizeof code, abbb, 4, 0);
    assert_int_equal(s->num_slots, 9);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(s->slots[i].gid, 0);
        assert_int_equal(s->slots[i].attached_to, 6);
        assert_true(s->slots[i].attach_x == (i == 0 ? 520.0f : 0.0f));
        assert_true(s->slots[i].x == (i == 0 ? 982.0f : 462.0f));
    }
    seg_free(s);

    const uint32_t cab[] = {'c', 'a', 'b'};
    s = shape_patched(state, code, sizeof code, cab, 3, 0);
    assert_int_equal(s->num_slots, 8);
    for (int i = 1; i < 6; i++) {
        assert_int_equal(s->slots[i].attached_to, 7);
        assert_true(s->slots[i].attach_x == 0.0f);
    }
    seg_free(s);
}

/* Patches `code` into pass 0 rule 0's action, shapes LTR "abc" (three
 * slots) and returns the origin x of slot `slot`. */
static float abc_slot_x(void **state, const uint8_t *code, size_t len, size_t slot)
{
    const uint32_t text[] = {'a', 'b', 'c'};
    fv_gr_segment *s = shape_patched(state, code, len, text, 3, 0);
    assert_int_equal(s->num_slots, 3);
    float x = s->slots[slot].x;
    seg_free(s);
    return x;
}

/* Reads of a slot count as references in graphite2's copy planning (F-22b,
 * measured with gr2fonttest on "abc"): "PutCopy 1; PushGlyphMetric advance
 * 0; Next; AttrSet advX; RetTrue" reads the advance of the glyph slot 0 had
 * before the PutCopy (gid 3, 462), so slot 2 sits at 520 + 462.  And
 * "PutCopy 1; <read of slot 0>; Next; AttrSet attTo (value 0 from the
 * read); RetTrue": the read leaves a copy in map entry 0, and attaching to a
 * copy does nothing, so slot 1 stays unattached; with PushByte 0 instead of
 * the read it attaches. */
static void test_reads_make_copies(void **state)
{
    const uint32_t text[] = {'a', 'b', 'c'};
    const uint8_t metric[] = {GRV_OP_PUT_COPY, 1, GRV_OP_PUSH_GLYPH_METRIC, 8, 0, 0, GRV_OP_NEXT,
                              GRV_OP_ATTR_SET, GRV_SLAT_ADVX, GRV_OP_RET_TRUE};
    assert_true(abc_slot_x(state, metric, sizeof metric, 2) == 982.0f);

    const struct {
        uint8_t read[4];
        size_t len;
        int32_t attached;
    } cases[] = {
        {{GRV_OP_PUSH_BYTE, 0}, 2, 0},
        {{GRV_OP_PUSH_GLYPH_ATTR_OBS, 0, 0}, 3, -1},
        {{GRV_OP_PUSH_ATT_TO_GATTR_OBS, 0, 0}, 3, -1},
        {{GRV_OP_PUSH_FEAT, 0, 0}, 3, -1},
        {{GRV_OP_PUSH_GLYPH_ATTR, 0, 0, 0}, 4, -1},
        {{GRV_OP_PUSH_ATT_TO_GLYPH_ATTR, 0, 0, 0}, 4, -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t code[10] = {GRV_OP_PUT_COPY, 1};
        size_t n = 2;
        memcpy(code + n, cases[i].read, cases[i].len);
        n += cases[i].len;
        code[n++] = GRV_OP_NEXT;
        code[n++] = GRV_OP_ATTR_SET;
        code[n++] = GRV_SLAT_ATTTO;
        code[n++] = GRV_OP_RET_TRUE;
        fv_gr_segment *s = shape_patched(state, code, n, text, 3, 0);
        assert_int_equal(s->slots[1].attached_to, cases[i].attached);
        seg_free(s);
    }
}

/* graphite2's ascent metric reads 0 (F-22c, measured with gr2fonttest on
 * "abc", also with hhea's and OS/2's ascenders changed): "PushGlyphMetric
 * ascent 0; AttrSet advX; RetTrue" gives the 'a' advance 0. */
static void test_ascent_metric(void **state)
{
    const uint8_t code[] = {GRV_OP_PUSH_GLYPH_METRIC, GRV_MET_ASCENT, 0, 0, GRV_OP_ATTR_SET,
                            GRV_SLAT_ADVX, GRV_OP_RET_TRUE};
    assert_true(abc_slot_x(state, code, sizeof code, 1) == 0.0f);
}

/* Insert into an empty stream (F-22d, measured with gr2fonttest -rtl on
 * "ba"): "CopyNext; Delete; Delete; Insert; RetTrue" deletes both slots and
 * inserts one glyph-0 slot; graphite2 gives it the char range 0..0, so after
 * association it covers chars 0..1 and char 0 starts at slot 0. */
static void test_insert_into_empty_stream(void **state)
{
    const uint8_t code[] = {GRV_OP_COPY_NEXT, GRV_OP_DELETE, GRV_OP_DELETE, GRV_OP_INSERT,
                            GRV_OP_RET_TRUE};
    const uint32_t text[] = {'b', 'a'};
    fv_gr_segment *s = shape_patched(state, code, sizeof code, text, 2, 1);
    assert_int_equal(s->num_slots, 1);
    assert_int_equal(s->slots[0].gid, 0);
    assert_int_equal(s->slots[0].before, 0);
    assert_int_equal(s->slots[0].after, 1);
    assert_int_equal(s->chars[0].before, 0);
    assert_int_equal(s->chars[0].after, 0);
    assert_int_equal(s->chars[1].before, -1);
    assert_int_equal(s->chars[1].after, 0);
    seg_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chars_associated_after_substitution_rtl),
        cmocka_unit_test(test_chars_after_delete),
        cmocka_unit_test(test_garbage_collection_after_delete),
        cmocka_unit_test(test_free_detaches),
        cmocka_unit_test(test_temporary_copies),
        cmocka_unit_test(test_attach_after_insert_at_start),
        cmocka_unit_test(test_reads_make_copies),
        cmocka_unit_test(test_ascent_metric),
        cmocka_unit_test(test_insert_into_empty_stream),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
