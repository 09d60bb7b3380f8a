/* Every installed corpus font parses, and what fontvm reads agrees with the
 * real FreeType: glyph counts, units per em, cmap lookups, advances and the
 * unscaled outline points of every simple glyph. */
#include <dirent.h>
#include <string.h>

#include "test_support.h"

#include <ft2build.h>
#include FT_FREETYPE_H

#include "sfnt/font.h"

static const char *const corpus_dirs[] = {
    "/usr/share/fonts/truetype/liberation2", "/usr/share/fonts/truetype/croscore",
    "/usr/share/fonts/truetype/dejavu",      "/usr/share/fonts/truetype/noto",
    "/usr/share/fonts/truetype/padauk",      "/usr/share/fonts/truetype/abyssinica",
    "/usr/share/fonts/truetype/annapurna",   "/usr/share/fonts/truetype/scheherazade",
};

/* Compares fontvm's parse of one face with FreeType's.  Glyph outlines are
 * checked for a stride of glyphs to keep the test fast under ASan. */
static int compare_face(FT_Library lib, const char *path, uint32_t face_index, uint32_t stride)
{
    FT_Face ft;
    assert_int_equal(FT_New_Face(lib, path, face_index, &ft), 0);
    /* The folders may hold more than the corpus (fonts-noto-color-emoji
     * puts its bitmap-only NotoColorEmoji.ttf beside Noto's outline fonts):
     * a face FreeType does not scale has no outlines or units per em to
     * compare here; whether fontvm refuses it as FreeType does is the
     * conformance runner's question. */
    fv_font *font;
    fv_error err;
    fv_status st = fv_font_open_file(path, face_index, NULL, &font, &err);
    if (st != FV_OK) {
        char msg[200];
        fv_error_format(&err, msg, sizeof msg);
        fail_msg("%s: %s", path, msg);
    }
    if (!FT_IS_SCALABLE(ft)) {
        /* fontvm finds the same bitmap strikes, and no outline either. */
        sfnt_strikes strikes;
        sfnt_find_strikes(fv_font_sfnt(font), &strikes);
        assert_int_equal(strikes.count, ft->num_fixed_sizes);
        assert_true(strikes.replace_outlines || fv_font_sfnt(font)->glyf.len == 0);
        print_message("%s face %u: not scalable (bitmap-only), %u strike(s)\n", path, face_index,
                      strikes.count);
        fv_font_close(font);
        FT_Done_Face(ft);
        return 0;
    }
    const sfnt_font *s = fv_font_sfnt(font);
    assert_int_equal(fv_font_glyph_count(font), ft->num_glyphs);
    assert_int_equal(fv_font_units_per_em(font), ft->units_per_EM);
    assert_true(strlen(fv_font_family(font)) > 0);
    /* cmap agrees for the BMP's first planes and a few astral points. */
    for (uint32_t cp = 0; cp < 0x3000; cp += 7)
        assert_int_equal(sfnt_cmap_lookup(s, cp), FT_Get_Char_Index(ft, cp));
    for (uint32_t cp = 0x1D400; cp < 0x1D800; cp += 13)
        assert_int_equal(sfnt_cmap_lookup(s, cp), FT_Get_Char_Index(ft, cp));
    /* The one-walk BMP table (the Graphite engine's) gives the lookup's
     * answer for every BMP code point, and FreeType's. */
    uint16_t *bmp = test_calloc(0x10000, sizeof *bmp);
    assert_non_null(bmp);
    assert_true(sfnt_cmap_fill_bmp(s, bmp)); /* every corpus font is sorted */
    for (uint32_t cp = 0; cp <= 0xFFFF; cp++) {
        if (bmp[cp] != sfnt_cmap_lookup(s, cp))
            fail_msg("%s U+%04X: BMP table %u, lookup %u", path, cp, bmp[cp], sfnt_cmap_lookup(s, cp));
        if (cp % 5 == 0)
            assert_int_equal(bmp[cp], FT_Get_Char_Index(ft, cp));
    }
    test_free(bmp);
    for (uint32_t gid = 0; gid < s->maxp.num_glyphs; gid += stride) {
        assert_int_equal(FT_Load_Glyph(ft, gid, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP), 0);
        uint16_t adv;
        int16_t lsb;
        assert_int_equal(sfnt_hmetrics(s, gid, &adv, &lsb, &err), FV_OK);
        assert_int_equal(adv, ft->glyph->metrics.horiAdvance);
        sfnt_glyph g;
        assert_int_equal(sfnt_glyph_load(s, gid, fv_font_mem(font), &g, &err), FV_OK);
        if (g.num_contours >= 0) {
            FT_Outline *o = &ft->glyph->outline;
            if (g.num_points != o->n_points)
                fail_msg("%s glyph %u: %u points, FreeType %d", path, gid, g.num_points, o->n_points);
            assert_int_equal(g.num_contours, o->n_contours);
            assert_int_equal(g.num_points, o->n_points);
            for (int c = 0; c < o->n_contours; c++)
                assert_int_equal(g.end_points[c], o->contours[c]);
            for (int p = 0; p < o->n_points; p++) {
                /* FreeType moves the outline so that x_min lands on the
                 * hmtx left side bearing (pp1 at x = 0). */
                assert_int_equal(g.points[p].x - g.x_min + lsb, o->points[p].x);
                assert_int_equal(g.points[p].y, o->points[p].y);
                assert_int_equal(g.flags[p] & SFNT_ON_CURVE, o->tags[p] & 1);
            }
        } else {
            assert_true(g.num_components > 0);
            for (uint32_t c = 0; c < g.num_components; c++)
                assert_true(g.components[c].glyph < s->maxp.num_glyphs);
        }
        sfnt_glyph_free(fv_font_mem(font), &g);
    }
    fv_font_close(font);
    FT_Done_Face(ft);
    return 1;
}

static int is_font_name(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && (strcmp(name + n - 4, ".ttf") == 0 || strcmp(name + n - 4, ".ttc") == 0);
}

static void test_every_corpus_font(void **state)
{
    (void)state;
    FT_Library lib;
    assert_int_equal(FT_Init_FreeType(&lib), 0);
    int fonts = 0;
    for (size_t d = 0; d < sizeof corpus_dirs / sizeof corpus_dirs[0]; d++) {
        DIR *dir = opendir(corpus_dirs[d]);
        if (!dir)
            fail_msg("corpus directory %s missing (scripts/test installs it)", corpus_dirs[d]);
        struct dirent *e;
        while ((e = readdir(dir))) {
            if (!is_font_name(e->d_name))
                continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", corpus_dirs[d], e->d_name);
            size_t size;
            uint8_t *bytes = test_read_file(path, &size);
            assert_non_null(bytes);
            uint32_t faces;
            fv_error err;
            assert_int_equal(fv_font_count_faces(bytes, size, &faces, &err), FV_OK);
            free(bytes);
            for (uint32_t f = 0; f < faces; f++) {
                /* Noto has hundreds of files: sample its glyphs more sparsely. */
                fonts += compare_face(lib, path, f, d == 3 ? 31 : 5);
            }
        }
        closedir(dir);
    }
    assert_true(fonts > 100);
    FT_Done_FreeType(lib);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_corpus_font),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
