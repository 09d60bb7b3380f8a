/* WOFF and WOFF2 input (vm/sfnt/woff.c, woff2.c), on the web fonts
 * tests/sfnt/web_fonts.py makes from corpus fonts at test time (its
 * manifest is $FONTVM_WEB_FONTS):
 *  - every web font decodes to the tables of the font it was made from:
 *    WOFF byte for byte; WOFF2 byte for byte except glyf/loca, whose
 *    re-encoding the specification leaves to the decoder (padding, flag
 *    packing), so those are compared glyph by glyph (contours, points,
 *    on-curve flags, bbox, components, instructions);
 *  - every malformed container gives its named error, through both
 *    fv_font_open_file and fv_font_open_memory, and cut or flipped bytes
 *    never crash (ASan/UBSan in CI);
 *  - decoding counts against the per-font memory cap. */
#include <string.h>

#include "test_support.h"

#include "sfnt/font.h"
#include "sfnt/woff.h"

#define MAX_LINES 128

typedef struct manifest_line {
    char kind[8];
    char file[512];
    char arg[512];     /* original font, or the expected error name */
    unsigned faces;
    char container[8]; /* "woff" or "woff2" */
} manifest_line;

static manifest_line lines[MAX_LINES];
static size_t num_lines;

static int load_manifest(void **state)
{
    (void)state;
    const char *path = getenv("FONTVM_WEB_FONTS");
    if (!path)
        fail_msg("FONTVM_WEB_FONTS is not set (ctest runs web_fonts.py first)");
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot read %s", path);
    char buf[1200];
    while (num_lines < MAX_LINES && fgets(buf, sizeof buf, f)) {
        manifest_line *l = &lines[num_lines];
        int n = sscanf(buf, "%7s %511s %511s %u %7s", l->kind, l->file, l->arg, &l->faces, l->container);
        if (n >= 3)
            num_lines++;
    }
    fclose(f);
    return num_lines > 0 ? 0 : -1;
}

static fv_font *open_or_fail(const char *path, uint32_t face)
{
    fv_font *font = NULL;
    fv_error err;
    if (fv_font_open_file(path, face, NULL, &font, &err) != FV_OK) {
        char msg[200];
        fv_error_format(&err, msg, sizeof msg);
        fail_msg("%s face %u: %s", path, face, msg);
    }
    return font;
}

static const sfnt_table *find_record(const sfnt_font *s, uint32_t tag)
{
    for (uint32_t i = 0; i < s->num_tables; i++)
        if (s->tables[i].tag == tag)
            return &s->tables[i];
    return NULL;
}

static void compare_glyphs(const char *path, fv_font *orig, fv_font *web)
{
    const sfnt_font *a = fv_font_sfnt(orig), *b = fv_font_sfnt(web);
    assert_int_equal(a->maxp.num_glyphs, b->maxp.num_glyphs);
    fv_error err;
    for (uint32_t gid = 0; gid < a->maxp.num_glyphs; gid++) {
        sfnt_glyph ga, gb;
        fv_status sa = sfnt_glyph_load(a, gid, fv_font_mem(orig), &ga, &err);
        fv_status sb = sfnt_glyph_load(b, gid, fv_font_mem(web), &gb, &err);
        if (sa != sb)
            fail_msg("%s glyph %u: original %s, web font %s", path, gid, fv_status_name(sa), fv_status_name(sb));
        if (sa != FV_OK)
            continue;
        if (ga.num_contours != gb.num_contours || ga.num_points != gb.num_points ||
            ga.num_components != gb.num_components || ga.x_min != gb.x_min || ga.y_min != gb.y_min ||
            ga.x_max != gb.x_max || ga.y_max != gb.y_max || ga.instructions.len != gb.instructions.len)
            fail_msg("%s glyph %u: header, bbox or counts differ", path, gid);
        for (int32_t c = 0; c < ga.num_contours; c++)
            assert_int_equal(ga.end_points[c], gb.end_points[c]);
        for (uint32_t p = 0; p < ga.num_points; p++)
            if (ga.points[p].x != gb.points[p].x || ga.points[p].y != gb.points[p].y ||
                (ga.flags[p] & SFNT_ON_CURVE) != (gb.flags[p] & SFNT_ON_CURVE))
                fail_msg("%s glyph %u point %u: (%d,%d) vs (%d,%d)", path, gid, p, (int)ga.points[p].x,
                         (int)ga.points[p].y, (int)gb.points[p].x, (int)gb.points[p].y);
        for (uint32_t k = 0; k < ga.num_components; k++)
            assert_memory_equal(&ga.components[k], &gb.components[k], sizeof ga.components[k]);
        if (ga.instructions.len)
            assert_memory_equal(ga.instructions.data, gb.instructions.data, ga.instructions.len);
        sfnt_glyph_free(fv_font_mem(orig), &ga);
        sfnt_glyph_free(fv_font_mem(web), &gb);
    }
}

static void compare_face(const manifest_line *l, uint32_t face)
{
    fv_font *orig = open_or_fail(l->arg, face), *web = open_or_fail(l->file, face);
    const sfnt_font *a = fv_font_sfnt(orig), *b = fv_font_sfnt(web);
    int woff2 = strcmp(l->container, "woff2") == 0;
    /* WOFF2 encoders drop DSIG (a signature over bytes the transforms
     * change; fontTools does). */
    int dropped = woff2 && find_record(a, FV_TAG('D', 'S', 'I', 'G')) && !find_record(b, FV_TAG('D', 'S', 'I', 'G'));
    if (a->num_tables != b->num_tables + dropped)
        fail_msg("%s face %u: %u tables, the original %u", l->file, face, b->num_tables, a->num_tables);
    assert_int_equal(a->sfnt_version, b->sfnt_version);
    for (uint32_t i = 0; i < a->num_tables; i++) {
        uint32_t tag = a->tables[i].tag;
        char name[5];
        sfnt_tag_string(tag, name);
        const sfnt_table *rb = find_record(b, tag);
        if (!rb && dropped && tag == FV_TAG('D', 'S', 'I', 'G'))
            continue;
        if (!rb)
            fail_msg("%s face %u: table %s missing", l->file, face, name);
        if (woff2 && (tag == SFNT_TAG_glyf || tag == SFNT_TAG_loca))
            continue; /* compared glyph by glyph below */
        fv_span ta, tb;
        assert_true(sfnt_find_table(a, tag, &ta) && sfnt_find_table(b, tag, &tb));
        if (tag == SFNT_TAG_head && ta.len == tb.len && ta.len >= 54 && ta.len <= 64) {
            /* Encoders rewrite checkSumAdjustment (bytes 8-11) and WOFF2's
             * set head.flags bit 11 ("font data transformed"). */
            uint8_t ha[64], hb[64];
            memcpy(ha, ta.data, ta.len);
            memcpy(hb, tb.data, tb.len);
            memset(ha + 8, 0, 4);
            memset(hb + 8, 0, 4);
            ha[16] &= (uint8_t)~0x08;
            hb[16] &= (uint8_t)~0x08;
            assert_memory_equal(ha, hb, ta.len);
            continue;
        }
        if (ta.len != tb.len || (ta.len && memcmp(ta.data, tb.data, ta.len) != 0))
            fail_msg("%s face %u: table %s differs (%zu vs %zu bytes)", l->file, face, name, ta.len, tb.len);
    }
    compare_glyphs(l->file, orig, web);
    fv_error err;
    for (uint32_t gid = 0; gid < a->maxp.num_glyphs; gid++) {
        uint16_t adv_a, adv_b;
        int16_t lsb_a, lsb_b;
        assert_int_equal(sfnt_hmetrics(a, gid, &adv_a, &lsb_a, &err), sfnt_hmetrics(b, gid, &adv_b, &lsb_b, &err));
        assert_int_equal(adv_a, adv_b);
        assert_int_equal(lsb_a, lsb_b);
    }
    /* Decoding is counted against the font's cap: the peak covers the
     * decoded sfnt. */
    assert_true(fv_font_peak_memory(web) >= b->file.len);
    fv_font_close(orig);
    fv_font_close(web);
}

static void test_web_fonts_decode_to_their_originals(void **state)
{
    (void)state;
    unsigned checked = 0, collections = 0;
    for (size_t i = 0; i < num_lines; i++) {
        const manifest_line *l = &lines[i];
        if (strcmp(l->kind, "ok") != 0)
            continue;
        size_t size;
        uint8_t *bytes = test_read_file(l->file, &size);
        assert_non_null(bytes);
        uint32_t faces = 0;
        fv_error err;
        assert_int_equal(fv_font_count_faces(bytes, size, &faces, &err), FV_OK);
        assert_int_equal(faces, l->faces);
        /* From memory too: the same bytes as from the file. */
        fv_font *mem_font = NULL, *file_font = open_or_fail(l->file, 0);
        assert_int_equal(fv_font_open_memory(bytes, size, 0, NULL, &mem_font, &err), FV_OK);
        const uint8_t *da, *db;
        size_t la, lb;
        fv_font_sfnt_data(mem_font, &da, &la);
        fv_font_sfnt_data(file_font, &db, &lb);
        assert_int_equal(la, lb);
        assert_memory_equal(da, db, la);
        fv_font_close(mem_font);
        fv_font_close(file_font);
        free(bytes);
        for (uint32_t face = 0; face < faces; face++)
            compare_face(l, face);
        checked++;
        collections += faces > 1;
    }
    assert_true(checked >= 15);
    assert_true(collections >= 1);
}

static fv_status open_exact_copy(const uint8_t *bytes, size_t size, size_t cap, fv_error *err)
{
    /* An exactly sized heap copy, so ASan sees any read past the end. */
    uint8_t *exact = malloc(size ? size : 1);
    assert_non_null(exact);
    if (size)
        memcpy(exact, bytes, size);
    fv_allocator alloc = {NULL, NULL, NULL, cap};
    fv_font *font = NULL;
    fv_status st = fv_font_open_memory(exact, size, 0, &alloc, &font, err);
    uint32_t faces;
    (void)fv_font_count_faces(exact, size, &faces, err);
    fv_font_close(font);
    free(exact);
    return st;
}

static void test_malformed_containers_give_named_errors(void **state)
{
    (void)state;
    unsigned checked = 0;
    for (size_t i = 0; i < num_lines; i++) {
        const manifest_line *l = &lines[i];
        if (strcmp(l->kind, "bad") != 0)
            continue;
        fv_font *font = NULL;
        fv_error err;
        fv_status st = fv_font_open_file(l->file, 0, NULL, &font, &err);
        if (st == FV_OK)
            fv_font_close(font);
        if (strcmp(fv_status_name(st), l->arg) != 0)
            fail_msg("%s: %s, expected %s", l->file, fv_status_name(st), l->arg);
        size_t size;
        uint8_t *bytes = test_read_file(l->file, &size);
        assert_non_null(bytes);
        st = open_exact_copy(bytes, size, 0, &err);
        if (strcmp(fv_status_name(st), l->arg) != 0)
            fail_msg("%s from memory: %s, expected %s", l->file, fv_status_name(st), l->arg);
        free(bytes);
        checked++;
    }
    assert_true(checked >= 38);
}

/* Cut and flipped bytes in every region of a small WOFF and WOFF2: each
 * opens or fails with a named error, never crashes. */
static void test_cut_and_flipped_bytes_never_crash(void **state)
{
    (void)state;
    uint64_t rng = 0x5eedf00dULL;
    unsigned failures = 0;
    for (size_t i = 0; i < num_lines; i++) {
        const manifest_line *l = &lines[i];
        if (strcmp(l->kind, "ok") != 0 || !strstr(l->file, "Padauk"))
            continue;
        size_t size;
        uint8_t *bytes = test_read_file(l->file, &size);
        assert_non_null(bytes);
        fv_error err;
        for (size_t cut = 0; cut < size; cut += size / 97 + 1) {
            fv_status st = open_exact_copy(bytes, cut, 0, &err);
            assert_true(st != FV_OK && st < FV_E_COUNT_);
            failures++;
        }
        for (int k = 0; k < 300; k++) {
            /* Mostly the header and directories, where the sizes live. */
            size_t at = k < 200 ? test_rand64(&rng) % (size < 400 ? size : 400) : test_rand64(&rng) % size;
            uint8_t saved = bytes[at];
            bytes[at] ^= (uint8_t)(1u << (test_rand64(&rng) % 8));
            fv_status st = open_exact_copy(bytes, size, 0, &err);
            assert_true(st < FV_E_COUNT_);
            failures += st != FV_OK;
            bytes[at] = saved;
        }
        free(bytes);
    }
    assert_true(failures > 100);
}

static void test_decoding_respects_the_memory_cap(void **state)
{
    (void)state;
    for (size_t i = 0; i < num_lines; i++) {
        const manifest_line *l = &lines[i];
        if (strcmp(l->kind, "ok") != 0 || !strstr(l->file, "NotoSans."))
            continue;
        size_t size;
        uint8_t *bytes = test_read_file(l->file, &size);
        assert_non_null(bytes);
        fv_error err;
        /* Enough for the file, not for the decoded font and brotli's state. */
        assert_int_equal(open_exact_copy(bytes, size, 4 * size / 3, &err), FV_E_NOMEM);
        assert_int_equal(open_exact_copy(bytes, size, 0, &err), FV_OK);
        /* Every cap from tiny up fails cleanly or succeeds, never leaks
         * (the accountant's live count returns to zero; ASan checks the rest). */
        for (size_t cap = 64; cap < 8 * size; cap = cap * 3 / 2 + 1000)
            (void)open_exact_copy(bytes, size, cap, &err);
        free(bytes);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_web_fonts_decode_to_their_originals),
        cmocka_unit_test(test_malformed_containers_give_named_errors),
        cmocka_unit_test(test_cut_and_flipped_bytes_never_crash),
        cmocka_unit_test(test_decoding_respects_the_memory_cap),
    };
    return cmocka_run_group_tests(tests, load_manifest, NULL);
}
