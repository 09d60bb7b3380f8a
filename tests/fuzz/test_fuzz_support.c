/* Tests of the fuzzing support code: the failing allocator, trailer
 * parsing, the synthetic TrueType font (checked against fontvm's reader and
 * the real FreeType) and the structure-aware mutators' invariants (bytecode
 * and whole fonts). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <ft2build.h>
#include FT_FREETYPE_H

#include "fontvm/fontvm.h"
#include "fuzz.h"
#include "mutator/mutator.h"
#include "sfnt/font.h"
#include "sfnt/sfnt.h"
#include "synth/tt_synth.h"

static void test_alloc_fails_only_nth(void **state)
{
    (void)state;
    fvfuzz_alloc fa;
    fvfuzz_alloc_init(&fa, FVFUZZ_ALLOC_FAIL_ENABLE | 1); /* allocation 2 fails */
    void *a = fa.a.alloc(fa.a.user, 10);
    void *b = fa.a.alloc(fa.a.user, 20);
    void *c = fa.a.alloc(fa.a.user, 30);
    assert_non_null(a);
    assert_null(b);
    assert_non_null(c);
    assert_int_equal(fa.failures, 1);
    assert_int_equal(fa.live, 40);
    assert_int_equal(fa.live_blocks, 2);
    fa.a.free(fa.a.user, a, 10);
    fa.a.free(fa.a.user, c, 30);
    assert_int_equal(fa.live, 0);
    fvfuzz_alloc_check_clean(&fa, "test"); /* returns: nothing leaked */
}

static void test_alloc_sticky_and_off(void **state)
{
    (void)state;
    fvfuzz_alloc fa;
    fvfuzz_alloc_init(&fa, FVFUZZ_ALLOC_FAIL_ENABLE | FVFUZZ_ALLOC_FAIL_STICKY | 0);
    assert_null(fa.a.alloc(fa.a.user, 1));
    assert_null(fa.a.alloc(fa.a.user, 1));
    assert_int_equal(fa.failures, 2);
    /* Only one enable bit: never fails. */
    fvfuzz_alloc_init(&fa, 0x8000 | 0);
    void *p = fa.a.alloc(fa.a.user, 8);
    assert_non_null(p);
    assert_int_equal(fa.fail_at, 0);
    assert_int_equal(fa.a.cap, FVFUZZ_MEMORY_CAP);
    fa.a.free(fa.a.user, p, 8);
}

static void test_alloc_drives_library_failures(void **state)
{
    (void)state;
    uint8_t code[] = {0xB0, 0x01};
    fvsynth_tt p = {0};
    p.glyph_code = code;
    p.glyph_code_len = sizeof code;
    p.num_points = 4;
    p.num_contours = 1;
    p.units_per_em = 2048;
    uint8_t *buf = malloc(fvsynth_tt_bound(&p));
    size_t len = fvsynth_tt_build(&p, buf, fvsynth_tt_bound(&p));
    assert_true(len > 0);
    /* Every allocation of opening the font, failed in turn, gives
     * out_of_memory and leaves nothing allocated. */
    uint64_t total;
    {
        fvfuzz_alloc fa;
        fvfuzz_alloc_init(&fa, 0);
        fv_font *font;
        fv_error err;
        assert_int_equal(fv_font_open_memory(buf, len, 0, &fa.a, &font, &err), FV_OK);
        total = fa.count;
        fv_font_close(font);
        assert_int_equal(fa.live, 0);
    }
    assert_true(total >= 1);
    for (uint64_t n = 0; n < total; n++) {
        fvfuzz_alloc fa;
        fvfuzz_alloc_init(&fa, (uint16_t)(FVFUZZ_ALLOC_FAIL_ENABLE | n));
        fv_font *font = NULL;
        fv_error err;
        assert_int_equal(fv_font_open_memory(buf, len, 0, &fa.a, &font, &err), FV_E_NOMEM);
        assert_int_equal(fa.failures, 1);
        assert_int_equal(fa.live, 0);
    }
    free(buf);
}

static void test_split(void **state)
{
    (void)state;
    const uint8_t data[6] = {1, 2, 3, 4, 5, 6};
    fvfuzz_input in;
    fvfuzz_split(data, sizeof data, 4, &in);
    assert_int_equal(in.payload_len, 2);
    assert_int_equal(fvfuzz_u8(&in, 0), 3);
    assert_int_equal(fvfuzz_u16(&in, 2), 0x0506);
    assert_int_equal(fvfuzz_u8(&in, 4), 0); /* beyond the trailer */
    fvfuzz_split(data, 3, 4, &in);           /* shorter than the trailer */
    assert_int_equal(in.payload_len, 3);
    assert_int_equal(fvfuzz_u16(&in, 0), 0);
}

static void test_synth_font_reader_and_freetype(void **state)
{
    (void)state;
    uint8_t fpgm[] = {0xB0, 0x00, 0x2C, 0x2D}, prep[] = {0xB0, 0x01, 0x21};
    uint8_t code[] = {0xB0, 0x00, 0x2B, 0x31};
    fvsynth_tt p = {0};
    p.fpgm = fpgm, p.fpgm_len = sizeof fpgm;
    p.prep = prep, p.prep_len = sizeof prep;
    p.glyph_code = code, p.glyph_code_len = sizeof code;
    p.num_points = 17;
    p.num_contours = 3;
    p.cvt_count = 10;
    p.max_storage = 8, p.max_function_defs = 4, p.max_stack = 32, p.max_twilight = 4;
    p.units_per_em = 1000;
    p.seed = 12345;
    p.composite = 1;
    size_t cap = fvsynth_tt_bound(&p);
    uint8_t *buf = malloc(cap);
    size_t len = fvsynth_tt_build(&p, buf, cap);
    assert_true(len > 0 && len <= cap);
    assert_int_equal(fvsynth_tt_build(&p, buf, 100), 0); /* too small a buffer */
    len = fvsynth_tt_build(&p, buf, cap);

    fv_font *font;
    fv_error err;
    assert_int_equal(fv_font_open_memory(buf, len, 0, NULL, &font, &err), FV_OK);
    const sfnt_font *sf = fv_font_sfnt(font);
    assert_int_equal(fv_font_glyph_count(font), 2);
    assert_int_equal(fv_font_units_per_em(font), 1000);
    assert_int_equal(sf->cvt_count, 10);
    assert_int_equal(sf->fpgm.len, sizeof fpgm);
    assert_memory_equal(sf->prep.data, prep, sizeof prep);
    sfnt_glyph g;
    assert_int_equal(sfnt_glyph_load(sf, 0, fv_font_mem(font), &g, &err), FV_OK);
    assert_int_equal(g.num_points, 17);
    assert_int_equal(g.num_contours, 3);
    assert_int_equal(g.end_points[2], 16);
    assert_int_equal(g.instructions.len, sizeof code);
    assert_memory_equal(g.instructions.data, code, sizeof code);

    /* FreeType reads the same outline. */
    FT_Library lib;
    FT_Face face;
    assert_int_equal(FT_Init_FreeType(&lib), 0);
    assert_int_equal(FT_New_Memory_Face(lib, buf, (FT_Long)len, 0, &face), 0);
    assert_int_equal(face->num_glyphs, 2);
    assert_int_equal(FT_Load_Glyph(face, 0, FT_LOAD_NO_SCALE), 0);
    assert_int_equal(face->glyph->outline.n_points, 17);
    for (int i = 0; i < 17; i++) {
        assert_int_equal(face->glyph->outline.points[i].x, g.points[i].x);
        assert_int_equal(face->glyph->outline.points[i].y, g.points[i].y);
    }
    assert_int_equal(FT_Load_Glyph(face, 1, FT_LOAD_NO_SCALE), 0);
    assert_int_equal(face->glyph->outline.n_points, 34); /* composite: two copies */
    assert_int_equal(FT_Set_Char_Size(face, 0, 12 * 64, 72, 72), 0);
    assert_int_equal(FT_Load_Glyph(face, 0, FT_LOAD_NO_AUTOHINT), 0);
    FT_Done_Face(face);
    FT_Done_FreeType(lib);
    sfnt_glyph_free(fv_font_mem(font), &g);
    fv_font_close(font);
    free(buf);
}

/* Whole TT instructions: the decoded lengths add up to the code exactly. */
static int tt_whole(const uint8_t *code, size_t len)
{
    size_t pc = 0;
    while (pc < len) {
        uint8_t op = code[pc];
        size_t need = 1;
        if (op == 0x40 || op == 0x41) {
            if (pc + 1 >= len)
                return 0;
            need = 2 + (size_t)code[pc + 1] * (op == 0x41 ? 2 : 1);
        } else if (op >= 0xB8) {
            need = 1 + 2 * (size_t)(op - 0xB8 + 1);
        } else if (op >= 0xB0) {
            need = 1 + (size_t)(op - 0xB0 + 1);
        }
        if (need > len - pc)
            return 0;
        pc += need;
    }
    return 1;
}

/* The synthetic font's bytes are pinned: the fuzz inputs in corpus/ (and
 * the findings they reproduce) mean the same font only while the builder
 * writes the same bytes.  The hashes are those of the byte-by-byte builder
 * before the speed work on it (fuzz/README.md, "Speed targets"). */
static void test_synth_font_bytes_pinned(void **state)
{
    (void)state;
    uint8_t code[300];
    for (int i = 0; i < 300; i++)
        code[i] = (uint8_t)(i * 37 + 11);
    static const struct {
        size_t len;
        uint32_t fnv1a;
    } expect[2] = {{976, 0xc58a8083u}, {3052, 0x4eacfb71u}};
    for (int k = 0; k < 2; k++) {
        fvsynth_tt p = {0};
        p.fpgm = code, p.fpgm_len = 101;
        p.prep = code + 101, p.prep_len = 57;
        p.glyph_code = code + 158, p.glyph_code_len = 142;
        p.num_points = k ? 64 : 17;
        p.num_contours = k ? 5 : 3;
        p.cvt_count = k ? 1020 : 10;
        p.max_storage = 8, p.max_function_defs = 4, p.max_stack = 32, p.max_twilight = 4;
        p.units_per_em = k ? 2048 : 1000;
        p.seed = k ? 0 : 12345;
        p.composite = !k;
        size_t cap = fvsynth_tt_bound(&p);
        uint8_t *buf = malloc(cap);
        assert_non_null(buf);
        size_t len = fvsynth_tt_build(&p, buf, cap);
        uint32_t h = 2166136261u;
        for (size_t i = 0; i < len; i++)
            h = (h ^ buf[i]) * 16777619u;
        assert_int_equal(len, expect[k].len);
        assert_int_equal(h, expect[k].fnv1a);
        /* Too small a buffer, not a multiple of 4: 0, not a hang. */
        assert_int_equal(fvsynth_tt_build(&p, buf, len - 3), 0);
        free(buf);
    }
}

static void test_mutator_keeps_instructions_whole(void **state)
{
    (void)state;
    fvmut_layout l;
    assert_true(fvmut_layout_for("tt_program", &l));
    assert_int_equal(l.kind, FVMUT_TT);
    assert_false(fvmut_layout_for("sfnt", &l));
    assert_true(fvmut_layout_for("tt_program", &l));
    /* FDEF 0 {DUP MUL} ; NPUSHB 2 ; PUSHW 1 ; CALL ; trailer */
    const uint8_t start[] = {0xB0, 0x00, 0x2C, 0x20, 0x63, 0x2D, 0x40, 0x02, 7, 8,
                             0xB8, 0x01, 0x00, 0xB0, 0x00, 0x2B};
    uint8_t trailer[16];
    for (int i = 0; i < 16; i++)
        trailer[i] = (uint8_t)(0xA0 + i);
    enum { MAX = 4096 };
    uint8_t *buf = malloc(MAX);
    size_t size = sizeof start + 16;
    memcpy(buf, start, sizeof start);
    memcpy(buf + sizeof start, trailer, 16);
    fvmut_rng r;
    fvmut_rng_seed(&r, 7);
    int changed = 0, trailer_bits = 0;
    for (int iter = 0; iter < 20000; iter++) {
        uint8_t before[MAX];
        size_t before_size = size;
        memcpy(before, buf, size);
        size = fvmut_mutate(&l, buf, size, MAX, &r);
        assert_true(size > 16 && size <= MAX);
        assert_true(tt_whole(buf, size - 16));
        changed += size != before_size || memcmp(before, buf, size) != 0;
        /* The trailer differs from before by at most one bit. */
        int bits = 0;
        for (int i = 0; i < 16; i++)
            bits += __builtin_popcount((unsigned)(buf[size - 16 + i] ^ before[before_size - 16 + i]));
        assert_true(bits <= 1);
        trailer_bits += bits;
        if (size > 2048) { /* start over before the code gets huge */
            memcpy(buf, start, sizeof start);
            memcpy(buf + sizeof start, trailer, 16);
            size = sizeof start + 16;
        }
    }
    assert_true(changed > 15000);       /* nearly every call changes something */
    assert_true(trailer_bits > 100);    /* and the trailer is explored too */

    /* Crossover keeps a's trailer and whole instructions. */
    uint8_t out[MAX];
    for (int iter = 0; iter < 2000; iter++) {
        size_t n = fvmut_crossover(&l, buf, size, start, sizeof start, out, MAX, &r);
        assert_true(n >= 16 && n <= MAX);
        assert_memory_equal(out + n - 16, buf + size - 16, 16);
        assert_true(tt_whole(out, n - 16));
    }
    free(buf);
}

static void test_mutator_graphite_lengths(void **state)
{
    (void)state;
    /* PUSH_BYTE 2, PUSH_SHORT 0 1, ASSOC 2 0 1, PUT_SUBS 5 args, RET_TRUE */
    const uint8_t code[] = {0x01, 2, 0x03, 0, 1, 0x21, 2, 0, 1, 0x38, 1, 2, 3, 4, 5, 0x32};
    size_t expect[] = {2, 3, 4, 6, 1};
    size_t pc = 0;
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(fvmut_insn_len(FVMUT_GR, code, sizeof code, pc), expect[i]);
        pc += expect[i];
    }
    assert_int_equal(pc, sizeof code);
    /* A truncated instruction is clipped to the code. */
    assert_int_equal(fvmut_insn_len(FVMUT_GR, code, 11, 9), 2);
}

/* The table length of `tag` in a font's directory, or -1. */
static long dir_table_len(const uint8_t *font, size_t len, const char *tag)
{
    if (len < 12)
        return -1;
    size_t n = (size_t)font[4] << 8 | font[5];
    for (size_t i = 0; i < n && 12 + 16 * i + 16 <= len; i++) {
        const uint8_t *r = font + 12 + 16 * i;
        if (memcmp(r, tag, 4) == 0)
            return (long)((uint32_t)r[12] << 24 | (uint32_t)r[13] << 16 | (uint32_t)r[14] << 8 | r[15]);
    }
    return -1;
}

static void test_font_mutator(void **state)
{
    (void)state;
    fvmut_layout l;
    assert_true(fvmut_layout_for("gr_font_diff", &l));
    assert_int_equal(l.kind, FVMUT_FONT);
    assert_int_equal(l.trailer, 8);
    assert_int_equal(l.text_units_at, 3); /* trailer byte 2 */
    /* a synthetic hinted font (fpgm, prep, a glyph program, cvt) */
    static const uint8_t fpgm[] = {0xB0, 0x00, 0x2C, 0x20, 0x63, 0x2D};
    static const uint8_t prep[] = {0xB0, 0x00, 0x2B, 0x4F};
    static const uint8_t code[] = {0xB0, 0x01, 0x2E, 0x30};
    fvsynth_tt p = {0};
    p.fpgm = fpgm, p.fpgm_len = sizeof fpgm;
    p.prep = prep, p.prep_len = sizeof prep;
    p.glyph_code = code, p.glyph_code_len = sizeof code;
    p.num_points = 8, p.num_contours = 2, p.cvt_count = 4;
    p.max_function_defs = 2, p.max_stack = 16, p.units_per_em = 1000, p.seed = 3;
    size_t cap = fvsynth_tt_bound(&p);
    uint8_t *base = malloc(cap);
    size_t font_len = fvsynth_tt_build(&p, base, cap);
    assert_true(font_len > 0);
    /* [font][3 text units][trailer: byte 2 = 3 units] */
    static const uint8_t tail[] = {0x10, 0x00, 0x00, 0x20, 0x06, 0x44, 1, 2, 3, 0, 5, 6, 7, 8};
    enum { MAX = 64 * 1024, TAIL = sizeof tail };
    uint8_t *buf = malloc(MAX), *out = malloc(MAX);
    int opened = 0, changed = 0, fpgm_resized = 0, glyf_resized = 0, tail_changes = 0;
    long fpgm0 = dir_table_len(base, font_len, "fpgm"), glyf0 = dir_table_len(base, font_len, "glyf");
    fvmut_rng r;
    fvmut_rng_seed(&r, 11);
    enum { ROUNDS = 6000 };
    for (int iter = 0; iter < ROUNDS; iter++) {
        memcpy(buf, base, font_len);
        memcpy(buf + font_len, tail, TAIL);
        size_t size = fvmut_mutate(&l, buf, font_len + TAIL, MAX, &r);
        assert_true(size > TAIL && size <= MAX);
        changed += size != font_len + TAIL || memcmp(buf, base, font_len) != 0 ||
                   memcmp(buf + size - TAIL, tail, TAIL) != 0;
        /* the text and trailer move with the font: at most one unit of
         * text or one bit of the trailer changes */
        const uint8_t *t = buf + size - TAIL;
        int units = 0, bits = 0;
        for (int i = 0; i < 6; i += 2)
            units += t[i] != tail[i] || t[i + 1] != tail[i + 1];
        for (int i = 6; i < TAIL; i++)
            bits += __builtin_popcount((unsigned)(t[i] ^ tail[i]));
        assert_true(units + bits <= 1);
        tail_changes += units + bits;
        fv_font *f = NULL;
        fv_error err;
        if (fv_font_open_memory(buf, size - TAIL, 0, NULL, &f, &err) == FV_OK) {
            opened++;
            fv_font_close(f);
        }
        fpgm_resized += dir_table_len(buf, size - TAIL, "fpgm") != fpgm0;
        glyf_resized += dir_table_len(buf, size - TAIL, "glyf") != glyf0;
    }
    assert_true(changed > ROUNDS * 9 / 10);    /* nearly every call changes something */
    assert_true(opened > ROUNDS / 2);          /* most keep a readable directory */
    assert_true(fpgm_resized > ROUNDS / 40);   /* the bytecode mutator reaches fpgm */
    assert_true(glyf_resized > ROUNDS / 40);   /* and glyph programs (glyf rewritten) */
    assert_true(tail_changes > ROUNDS / 30);   /* the text and trailer are explored */

    /* Crossover keeps a's text and trailer and stays a readable font. */
    for (int iter = 0; iter < 500; iter++) {
        memcpy(buf, base, font_len);
        memcpy(buf + font_len, tail, TAIL);
        size_t n = fvmut_crossover(&l, buf, font_len + TAIL, buf, font_len + TAIL, out, MAX, &r);
        assert_true(n > TAIL && n <= MAX);
        assert_memory_equal(out + n - TAIL, tail, TAIL);
        fv_font *f = NULL;
        fv_error err;
        assert_int_equal(fv_font_open_memory(out, n - TAIL, 0, NULL, &f, &err), FV_OK);
        fv_font_close(f);
    }
    /* Not a font: one bit flipped, the size kept. */
    uint8_t junk[40] = {0};
    assert_int_equal(fvmut_mutate(&l, junk, sizeof junk, sizeof junk, &r), sizeof junk);
    free(base);
    free(buf);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_fails_only_nth),
        cmocka_unit_test(test_alloc_sticky_and_off),
        cmocka_unit_test(test_alloc_drives_library_failures),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_synth_font_reader_and_freetype),
        cmocka_unit_test(test_synth_font_bytes_pinned),
        cmocka_unit_test(test_mutator_keeps_instructions_whole),
        cmocka_unit_test(test_mutator_graphite_lengths),
        cmocka_unit_test(test_font_mutator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
