/* Hand-made truncated and corrupt fonts: each corruption gives its named
 * error, with the table and offset, and never reads out of bounds (this
 * test runs under ASan in CI). */
#include <string.h>

#include "test_support.h"
#include "font_builder.h"

#include "sfnt/font.h"

#define TAG(s) FV_TAG((s)[0], (s)[1], (s)[2], (s)[3])

/* Opens the serialized font and returns the status; err filled. */
static fv_status open_built(const fb_font *fb, fv_error *err, size_t cut)
{
    size_t size;
    uint8_t *bytes = fb_serialize(fb, &size);
    fv_font *font = NULL;
    if (cut)
        size = cut < size ? cut : size;
    /* Copy into an exactly sized buffer so ASan catches any overread. */
    uint8_t *exact = malloc(size ? size : 1);
    memcpy(exact, bytes, size);
    free(bytes);
    fv_status st = fv_font_open_memory(exact, size, 0, NULL, &font, err);
    if (st == FV_OK) {
        /* Touch every glyph, as a hinter would. */
        const sfnt_font *s = fv_font_sfnt(font);
        for (uint32_t g = 0; g < s->maxp.num_glyphs && st == FV_OK; g++) {
            sfnt_glyph gl;
            st = sfnt_glyph_load(s, g, fv_font_mem(font), &gl, err);
            if (st == FV_OK)
                sfnt_glyph_free(fv_font_mem(font), &gl);
        }
        fv_font_close(font);
    }
    free(exact);
    return st;
}

static void test_minimal_font_is_valid(void **state)
{
    (void)state;
    fb_font fb;
    fb_minimal(&fb);
    fv_error err;
    assert_int_equal(open_built(&fb, &err, 0), FV_OK);
    size_t size;
    uint8_t *bytes = fb_serialize(&fb, &size);
    fv_font *font;
    assert_int_equal(fv_font_open_memory(bytes, size, 0, NULL, &font, &err), FV_OK);
    const sfnt_font *s = fv_font_sfnt(font);
    sfnt_glyph g;
    assert_int_equal(sfnt_glyph_load(s, 1, fv_font_mem(font), &g, &err), FV_OK);
    assert_int_equal(g.num_points, 4);
    assert_int_equal(g.points[2].x, 500);
    assert_int_equal(g.points[2].y, 500);
    assert_int_equal(g.points[3].y, 0);
    sfnt_glyph_free(fv_font_mem(font), &g);
    assert_int_equal(sfnt_glyph_load(s, 2, fv_font_mem(font), &g, &err), FV_E_BAD_GLYPH_ID);
    fv_font_close(font);
    free(bytes);
}

static void test_not_a_font(void **state)
{
    (void)state;
    static const uint8_t junk[] = "this is not a font at all";
    fv_font *font;
    fv_error err;
    assert_int_equal(fv_font_open_memory(junk, sizeof junk, 0, NULL, &font, &err), FV_E_NOT_A_FONT);
    assert_int_equal(fv_font_open_memory(junk, 2, 0, NULL, &font, &err), FV_E_NOT_A_FONT);
    assert_int_equal(fv_font_open_memory(NULL, 0, 0, NULL, &font, &err), FV_E_NOT_A_FONT);
    assert_int_equal(fv_font_open_file("/nonexistent/font.ttf", 0, NULL, &font, &err), FV_E_IO);
}

static void test_truncated_file(void **state)
{
    (void)state;
    fb_font fb;
    fb_minimal(&fb);
    fv_error err;
    /* Cut inside the first table record: no table is left. */
    assert_int_equal(open_built(&fb, &err, 20), FV_E_NOT_A_FONT);
    /* Cut inside the last table (loca): COMPAT(freetype) the table is
     * ignored, the font opens, and its glyphs have no locations. */
    size_t size;
    free(fb_serialize(&fb, &size));
    assert_int_equal(open_built(&fb, &err, size - 4), FV_E_MISSING_TABLE);
    assert_int_equal(err.table, TAG("loca"));
    /* Cut inside the first table (head): nothing is left inside the file. */
    assert_int_equal(open_built(&fb, &err, 12 + 16 * 6 + 30), FV_E_NOT_A_FONT);
}

/* A table record past the end of the file (here a DSIG the font does not
 * need) is ignored, as FreeType 2.12.1 does, instead of refusing the font;
 * so is a record with a garbage tag.  hmtx running past the end is cut. */
static void test_tables_past_the_end_are_ignored(void **state)
{
    (void)state;
    fb_font fb;
    fb_minimal(&fb);
    fb_table *dsig = fb_add(&fb, "DSIG");
    fb_zeros(dsig, 8);
    size_t size;
    uint8_t *bytes = fb_serialize(&fb, &size);
    /* The DSIG record is the last one: make it claim 4096 bytes. */
    uint8_t *rec = bytes + 12 + 16 * 6 + 12;
    rec[2] = 0x10;
    fv_font *font;
    fv_error err;
    assert_int_equal(fv_font_open_memory(bytes, size, 0, NULL, &font, &err), FV_OK);
    fv_span t;
    assert_int_equal(sfnt_find_table(fv_font_sfnt(font), TAG("DSIG"), &t), 0);
    assert_int_equal(sfnt_find_table(fv_font_sfnt(font), TAG("glyf"), &t), 1);
    fv_font_close(font);
    free(bytes);
}

static void test_short_head(void **state)
{
    (void)state;
    fb_font fb;
    fb_minimal(&fb);
    fb_find(&fb, "head")->len = 40;
    fv_error err;
    assert_int_equal(open_built(&fb, &err, 0), FV_E_TRUNCATED);
    assert_int_equal(err.table, TAG("head"));
    char msg[128];
    fv_error_format(&err, msg, sizeof msg);
    assert_string_equal(msg, "head@0x28: truncated (a head record shorter than 54 bytes)");
}

static void test_bad_head_fields(void **state)
{
    (void)state;
    fb_font fb;
    fv_error err;
    fb_minimal(&fb);
    fb_put16(fb_find(&fb, "head"), 18, 0); /* unitsPerEm */
    assert_int_equal(open_built(&fb, &err, 0), FV_E_BAD_TABLE);
    assert_int_equal(err.table, TAG("head"));
    assert_int_equal(err.offset, 18);
    /* COMPAT(freetype): indexToLocFormat other than 0 is the long format,
     * so this 6-byte loca holds one long entry and has no room after it
     * for more: no glyph has a location. */
    fb_minimal(&fb);
    fb_put16(fb_find(&fb, "head"), 50, 7);
    assert_int_equal(open_built(&fb, &err, 0), FV_E_BAD_GLYPH_ID);
}

static void test_missing_and_bad_maxp(void **state)
{
    (void)state;
    fb_font fb;
    fv_error err;
    /* COMPAT(freetype), measured against FreeType 2.12.1: no maxp is a
     * font of no glyphs; any version is taken, 1.0 and up with the 1.0
     * fields; a short maxp is read on into the bytes after it. */
    fb_minimal(&fb);
    fb_find(&fb, "maxp")->tag = TAG("xxxx");
    assert_int_equal(open_built(&fb, &err, 0), FV_OK);
    fb_minimal(&fb);
    fb_put16(fb_find(&fb, "maxp"), 0, 0x0002);
    size_t size;
    uint8_t *bytes = fb_serialize(&fb, &size);
    fv_font *font;
    assert_int_equal(fv_font_open_memory(bytes, size, 0, NULL, &font, &err), FV_OK);
    assert_int_equal(fv_font_glyph_count(font), 2);
    assert_int_equal(fv_font_sfnt(font)->maxp.max_points, 4);
    fv_font_close(font);
    free(bytes);
    fb_minimal(&fb);
    fb_put16(fb_find(&fb, "maxp"), 0, 0xFFFF); /* version -1.0: only numGlyphs */
    bytes = fb_serialize(&fb, &size);
    assert_int_equal(fv_font_open_memory(bytes, size, 0, NULL, &font, &err), FV_OK);
    assert_int_equal(fv_font_sfnt(font)->maxp.max_points, 0);
    fv_font_close(font);
    free(bytes);
    fb_minimal(&fb);
    fb_find(&fb, "maxp")->len = 20;
    assert_int_equal(open_built(&fb, &err, 0), FV_OK);
}

static void test_short_loca_and_hmtx(void **state)
{
    (void)state;
    fb_font fb;
    fv_error err;
    /* COMPAT(freetype): loca (the last table) with 2 of its 3 entries and
     * no room after it: the font has the one glyph loca covers. */
    fb_minimal(&fb);
    fb_find(&fb, "loca")->len = 4;
    size_t size;
    uint8_t *bytes = fb_serialize(&fb, &size);
    fv_font *font;
    assert_int_equal(fv_font_open_memory(bytes, size, 0, NULL, &font, &err), FV_OK);
    const sfnt_font *s = fv_font_sfnt(font);
    assert_int_equal(s->loca_glyphs, 1);
    sfnt_glyph g;
    assert_int_equal(sfnt_glyph_load(s, 1, fv_font_mem(font), &g, &err), FV_E_BAD_GLYPH_ID);
    fv_font_close(font);
    free(bytes);
    /* With room for the third entry after the table (the file goes on),
     * loca is read on into those bytes. */
    fb_minimal(&fb);
    fb_find(&fb, "loca")->len = 4;
    bytes = fb_serialize(&fb, &size);
    uint8_t *longer = calloc(1, size + 4);
    memcpy(longer, bytes, size);
    assert_int_equal(fv_font_open_memory(longer, size + 4, 0, NULL, &font, &err), FV_OK);
    assert_int_equal(fv_font_sfnt(font)->loca_glyphs, 2);
    fv_font_close(font);
    free(longer);
    free(bytes);
    /* hmtx shorter than its long metrics: the missing ones read as 0. */
    fb_minimal(&fb);
    fb_find(&fb, "hmtx")->len = 6;
    bytes = fb_serialize(&fb, &size);
    assert_int_equal(fv_font_open_memory(bytes, size, 0, NULL, &font, &err), FV_OK);
    uint16_t advance;
    int16_t lsb;
    assert_int_equal(sfnt_hmetrics(fv_font_sfnt(font), 0, &advance, &lsb, &err), FV_OK);
    assert_int_equal(advance, 500);
    assert_int_equal(sfnt_hmetrics(fv_font_sfnt(font), 1, &advance, &lsb, &err), FV_OK);
    assert_int_equal(advance, 0);
    fv_font_close(font);
    free(bytes);
}

/* COMPAT(freetype): coordinates are sums of 16-bit deltas kept whole
 * (FreeType 2.12.1 gives x = 12998 for a glyph that wrapped to -11578
 * here before).  Two deltas of 20000 reach 40000. */
static void test_coordinates_do_not_wrap(void **state)
{
    (void)state;
    fb_font fb;
    fb_minimal(&fb);
    fb_table *glyf = fb_find(&fb, "glyf");
    fb_put16(glyf, 22, 20000); /* x delta of point 2 */
    fb_put16(glyf, 24, 20000); /* x delta of point 3 */
    size_t size;
    uint8_t *bytes = fb_serialize(&fb, &size);
    fv_font *font;
    fv_error err;
    assert_int_equal(fv_font_open_memory(bytes, size, 0, NULL, &font, &err), FV_OK);
    sfnt_glyph g;
    assert_int_equal(sfnt_glyph_load(fv_font_sfnt(font), 1, fv_font_mem(font), &g, &err), FV_OK);
    assert_int_equal(g.points[2].x, 20000);
    assert_int_equal(g.points[3].x, 40000);
    sfnt_glyph_free(fv_font_mem(font), &g);
    fv_font_close(font);
    free(bytes);
}

static void test_corrupt_glyphs(void **state)
{
    (void)state;
    fb_font fb;
    fv_error err;
    /* Contour ends that do not increase. */
    fb_minimal(&fb);
    fb_table *glyf = fb_find(&fb, "glyf");
    fb_put16(glyf, 0, 2);     /* two contours ... */
    fb_put16(glyf, 10, 3);    /* ends 3 and then the instructionLength word (0) */
    assert_int_equal(open_built(&fb, &err, 0), FV_E_BAD_GLYPH);
    assert_int_equal(err.table, TAG("glyf"));
    assert_int_equal(err.glyph, 1);
    /* Coordinates cut short: the glyph's loca range ends in its x array. */
    fb_minimal(&fb);
    fb_put16(fb_find(&fb, "loca"), 4, 12); /* glyph 1 is 24 bytes long */
    assert_int_equal(open_built(&fb, &err, 0), FV_E_TRUNCATED);
    assert_int_equal(err.table, TAG("glyf"));
    assert_int_equal(err.glyph, 1);
    /* Flag repeat running past the last point. */
    fb_minimal(&fb);
    glyf = fb_find(&fb, "glyf");
    glyf->data[14] = 0x09; /* on-curve + repeat */
    glyf->data[15] = 10;   /* ten more copies of four points */
    assert_int_equal(open_built(&fb, &err, 0), FV_E_BAD_GLYPH);
    /* COMPAT(freetype): numberOfContours below -1 is a composite; here
     * its first component record is cut. */
    fb_minimal(&fb);
    fb_put16(fb_find(&fb, "glyf"), 0, 0xFFFE);
    fb_put16(fb_find(&fb, "loca"), 4, 7);
    assert_int_equal(open_built(&fb, &err, 0), FV_E_TRUNCATED);
    /* 0 contours: an empty glyph, nothing after the header is read. */
    fb_minimal(&fb);
    fb_put16(fb_find(&fb, "glyf"), 0, 0);
    fb_put16(fb_find(&fb, "glyf"), 12, 0xFFFF); /* instructionLength, never read */
    assert_int_equal(open_built(&fb, &err, 0), FV_OK);
    /* A composite whose component record is cut. */
    fb_minimal(&fb);
    glyf = fb_find(&fb, "glyf");
    fb_put16(glyf, 0, 0xFFFF);
    fb_put16(glyf, 10, 0x0021); /* ARG_1_AND_2_ARE_WORDS | MORE_COMPONENTS, forever */
    fb_put16(glyf, 12, 1);
    fb_put16(fb_find(&fb, "loca"), 4, 9); /* the glyph ends after one 8-byte component */
    assert_int_equal(open_built(&fb, &err, 0), FV_E_TRUNCATED);
    assert_int_equal(err.table, TAG("glyf"));
}

static void test_collection_face_index(void **state)
{
    (void)state;
    fb_font fb;
    fb_minimal(&fb);
    size_t size;
    uint8_t *font = fb_serialize(&fb, &size);
    /* A collection of one face pointing at offset 16 (after the header). */
    size_t total = 16 + size;
    uint8_t *ttc = calloc(1, total);
    memcpy(ttc, "ttcf\0\1\0\0\0\0\0\1\0\0\0\x10", 16);
    memcpy(ttc + 16, font, size);
    /* Table offsets inside a collection are file-relative: shift them. */
    for (int i = 0; i < fb.count; i++) {
        uint8_t *rec = ttc + 16 + 12 + 16 * i + 8;
        uint32_t off = (uint32_t)rec[0] << 24 | (uint32_t)rec[1] << 16 | (uint32_t)rec[2] << 8 | rec[3];
        off += 16;
        rec[0] = (uint8_t)(off >> 24); rec[1] = (uint8_t)(off >> 16); rec[2] = (uint8_t)(off >> 8); rec[3] = (uint8_t)off;
    }
    uint32_t faces;
    fv_error err;
    fv_font *f;
    assert_int_equal(fv_font_count_faces(ttc, total, &faces, &err), FV_OK);
    assert_int_equal(faces, 1);
    assert_int_equal(fv_font_open_memory(ttc, total, 0, NULL, &f, &err), FV_OK);
    assert_int_equal(fv_font_glyph_count(f), 2);
    fv_font_close(f);
    assert_int_equal(fv_font_open_memory(ttc, total, 1, NULL, &f, &err), FV_E_BAD_FACE_INDEX);
    free(ttc);
    free(font);
}

/* A format 4 cmap whose segments 0x30-0x40 and 0x41-0x50 start at glyph 1,
 * with the two segments' ends in order or swapped. */
static void add_cmap4(fb_font *fb, int sorted)
{
    fb_table *c = fb_add(fb, "cmap");
    fb_u16(c, 0); fb_u16(c, 1);                  /* version, one encoding */
    fb_u16(c, 3); fb_u16(c, 1); fb_u32(c, 12);   /* Windows Unicode BMP at 12 */
    const unsigned ends[3] = {sorted ? 0x40u : 0x50u, sorted ? 0x50u : 0x40u, 0xFFFFu};
    const unsigned starts[3] = {sorted ? 0x30u : 0x41u, sorted ? 0x41u : 0x30u, 0xFFFFu};
    fb_u16(c, 4); fb_u16(c, 16 + 3 * 8); fb_u16(c, 0);  /* format, length, language */
    fb_u16(c, 6); fb_u16(c, 4); fb_u16(c, 1); fb_u16(c, 2);
    for (int i = 0; i < 3; i++) fb_u16(c, ends[i]);
    fb_u16(c, 0);                                /* reservedPad */
    for (int i = 0; i < 3; i++) fb_u16(c, starts[i]);
    for (int i = 0; i < 3; i++) fb_u16(c, (1u - starts[i]) & 0xFFFFu); /* idDelta: glyph 1 */
    for (int i = 0; i < 3; i++) fb_u16(c, 0);    /* idRangeOffset */
}

/* sfnt_cmap_fill_bmp gives the lookup's answer for every BMP code point
 * when the segments are in order, and declines (so callers look each code
 * point up) when they are not: the lookup's binary search then answers
 * along its own path. */
static void test_cmap_bmp_table(void **state)
{
    (void)state;
    for (int sorted = 0; sorted <= 1; sorted++) {
        fb_font fb;
        fb_minimal(&fb);
        add_cmap4(&fb, sorted);
        size_t size;
        uint8_t *bytes = fb_serialize(&fb, &size);
        fv_font *font;
        fv_error err;
        assert_int_equal(fv_font_open_memory(bytes, size, 0, NULL, &font, &err), FV_OK);
        const sfnt_font *s = fv_font_sfnt(font);
        uint16_t *bmp = test_calloc(0x10000, sizeof *bmp);
        assert_int_equal(sfnt_cmap_fill_bmp(s, bmp), sorted);
        if (sorted) {
            assert_int_equal(sfnt_cmap_lookup(s, 0x30), 1);
            assert_int_equal(sfnt_cmap_lookup(s, 0x41), 1);
            for (uint32_t cp = 0; cp <= 0xFFFF; cp++)
                assert_int_equal(bmp[cp], sfnt_cmap_lookup(s, cp));
        }
        test_free(bmp);
        fv_font_close(font);
        free(bytes);
    }
}

static void test_memory_cap(void **state)
{
    (void)state;
    fb_font fb;
    fb_minimal(&fb);
    size_t size;
    uint8_t *bytes = fb_serialize(&fb, &size);
    fv_allocator tiny = {NULL, NULL, NULL, 64}; /* smaller than the font object */
    fv_font *font;
    fv_error err;
    assert_int_equal(fv_font_open_memory(bytes, size, 0, &tiny, &font, &err), FV_E_NOMEM);
    free(bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minimal_font_is_valid), cmocka_unit_test(test_not_a_font),
        cmocka_unit_test(test_truncated_file),        cmocka_unit_test(test_short_head),
        cmocka_unit_test(test_bad_head_fields),       cmocka_unit_test(test_missing_and_bad_maxp),
        cmocka_unit_test(test_short_loca_and_hmtx),   cmocka_unit_test(test_corrupt_glyphs),
        cmocka_unit_test(test_collection_face_index), cmocka_unit_test(test_memory_cap),
        cmocka_unit_test(test_cmap_bmp_table),        cmocka_unit_test(test_coordinates_do_not_wrap),
        cmocka_unit_test(test_tables_past_the_end_are_ignored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
