/* FreeType 2.12.1's load decisions on damaged fonts, which fontvm follows
 * (conformance/tt/README.md "The mutation sweep"): each hand-made font is
 * opened, sized and loaded by the real FreeType and by fontvm, and both
 * the expected decision and the agreement are asserted.  Regression cases
 * for the rules the TrueType mutation sweep found. */
#include <string.h>

#include "test_support.h"
#include "font_builder.h"
#include "common/reader.h"
#include "tt_compare.h"

#define TAG(s) FV_TAG((s)[0], (s)[1], (s)[2], (s)[3])

enum { OPENS = 1, REFUSED = 0 };

typedef struct verdict {
    int ft_face, fv_face;       /* 1 opened */
    int ft_size, fv_size;       /* 1 the size was set up */
    fv_status fv_size_error;    /* fontvm's error when it was not */
    ttc_status glyph[2];        /* glyphs 0 and 1 at that size */
    ttc_glyph ref, sub;         /* glyph 1 of each engine */
} verdict;

/* Asks both engines about `font` at `ppem` in v40. */
static void decide(const uint8_t *font, size_t size, const char *ppem, verdict *v)
{
    memset(v, 0, sizeof *v);
    ttc_glyph_init(&v->ref);
    ttc_glyph_init(&v->sub);
    char errbuf[256];
    ttc_ft *ft = NULL;
    ttc_fv *fv = NULL;
    fv_error err;
    v->ft_face = ttc_ft_open_memory(font, size, 0, &ft, errbuf, sizeof errbuf) == 0;
    v->fv_face = ttc_fv_open_memory(font, size, 0, &fv, &err) == 0 && !ttc_fv_face_error(fv);
    if (v->ft_face && v->fv_face) {
        ttc_size sz;
        assert_int_equal(ttc_size_parse(ppem, &sz), 0);
        v->ft_size = ttc_ft_set_size(ft, &sz, FV_TT_V40, 0, errbuf, sizeof errbuf) == 0;
        v->fv_size = ttc_fv_set_size(fv, &sz, FV_TT_V40, 0, &err) == 0;
        v->fv_size_error = v->fv_size ? FV_OK : err.kind;
        for (uint32_t gid = 0; gid < 2; gid++) {
            ttc_ft_load(ft, gid, &v->ref);
            ttc_fv_load(fv, gid, &v->sub);
            ttc_diff d;
            v->glyph[gid] = ttc_compare(&v->ref, &v->sub, &d);
        }
    }
    ttc_ft_close(ft);
    ttc_fv_close(fv);
}

static void verdict_free(verdict *v)
{
    ttc_glyph_free(&v->ref);
    ttc_glyph_free(&v->sub);
}

/* Both engines refuse the face, or both take the face and the size and
 * load both glyphs alike. */
static void assert_both(const fb_font *fb, int opens)
{
    size_t size;
    uint8_t *font = fb_serialize(fb, &size);
    verdict v;
    decide(font, size, "12", &v);
    assert_int_equal(v.ft_face, opens);
    assert_int_equal(v.fv_face, opens);
    if (opens) {
        assert_true(v.ft_size && v.fv_size);
        assert_int_equal(v.glyph[0], TTC_IDENTICAL);
        assert_int_equal(v.glyph[1], TTC_IDENTICAL);
    }
    verdict_free(&v);
    free(font);
}

/* A DSIG record running past the end of the file: ignored by both. */
static void test_table_past_the_end(void **state)
{
    (void)state;
    fb_font fb;
    fb_minimal(&fb);
    fb_zeros(fb_add(&fb, "DSIG"), 8);
    size_t size;
    uint8_t *font = fb_serialize(&fb, &size);
    font[12 + 16 * 6 + 12 + 2] = 0x10; /* DSIG's length: 4096 + 8 bytes */
    verdict v;
    decide(font, size, "12", &v);
    assert_int_equal(v.ft_face, OPENS);
    assert_int_equal(v.fv_face, OPENS);
    assert_int_equal(v.glyph[1], TTC_IDENTICAL);
    verdict_free(&v);
    free(font);
}

static void test_maxp_versions_and_absence(void **state)
{
    (void)state;
    fb_font fb;
    fb_minimal(&fb);
    fb_put16(fb_find(&fb, "maxp"), 0, 0x0002); /* version 2.0 */
    assert_both(&fb, OPENS);
    fb_minimal(&fb);
    fb_put16(fb_find(&fb, "maxp"), 0, 0x0000); /* version 0.0 */
    fb_put16(fb_find(&fb, "maxp"), 2, 0x5000);
    assert_both(&fb, OPENS);
    /* No maxp: a face of no glyphs, which both open. */
    fb_minimal(&fb);
    fb_find(&fb, "maxp")->tag = TAG("xxxx");
    size_t size;
    uint8_t *font = fb_serialize(&fb, &size);
    verdict v;
    decide(font, size, "12", &v);
    assert_int_equal(v.ft_face, OPENS);
    assert_int_equal(v.fv_face, OPENS);
    assert_int_equal(v.glyph[0], TTC_ERROR_BOTH);
    verdict_free(&v);
    free(font);
}

/* A maxp of numGlyphs only (version 0.5) allows no FDEF: an fpgm defining
 * one fails in both, and so does every glyph; with the 1.0 fields and
 * maxFunctionDefs 0 the count is raised to 64 and the FDEF passes. */
static void test_maxp_05_allows_no_fdef(void **state)
{
    (void)state;
    static const uint8_t pushb0_fdef_endf[] = {0xB0, 0x00, 0x2C, 0x2D};
    uint32_t versions[] = {0x00005000, 0x00010000};
    for (int i = 0; i < 2; i++) {
        fb_font fb;
        fb_minimal(&fb);
        fb_put16(fb_find(&fb, "maxp"), 0, versions[i] >> 16);
        fb_put16(fb_find(&fb, "maxp"), 2, versions[i] & 0xFFFF);
        fb_put16(fb_find(&fb, "maxp"), 20, 0); /* maxFunctionDefs */
        fb_table *fpgm = fb_add(&fb, "fpgm");
        memcpy(fpgm->data, pushb0_fdef_endf, sizeof pushb0_fdef_endf);
        fpgm->len = sizeof pushb0_fdef_endf;
        size_t size;
        uint8_t *font = fb_serialize(&fb, &size);
        verdict v;
        decide(font, size, "12", &v);
        assert_int_equal(v.glyph[1], versions[i] == 0x00005000 ? TTC_ERROR_BOTH : TTC_IDENTICAL);
        verdict_free(&v);
        free(font);
    }
}

/* fb_minimal (with fpgm `FDEF 0 ENDF` when `fdef`) laid out with maxp
 * last, its directory length `dir_len`, the file cut `keep` bytes into
 * maxp.  Returns the font; *size is the cut length. */
static uint8_t *maxp_cut_font(int fdef, uint32_t dir_len, size_t keep, size_t *size)
{
    static const uint8_t pushb0_fdef_endf[] = {0xB0, 0x00, 0x2C, 0x2D};
    fb_font fb;
    fb_minimal(&fb);
    if (fdef) {
        fb_table *fpgm = fb_add(&fb, "fpgm");
        memcpy(fpgm->data, pushb0_fdef_endf, sizeof pushb0_fdef_endf);
        fpgm->len = sizeof pushb0_fdef_endf;
    }
    fb_table *maxp = fb_find(&fb, "maxp");
    fb_table saved = *maxp;
    int at = (int)(maxp - fb.tables);
    memmove(&fb.tables[at], &fb.tables[at + 1], (size_t)(fb.count - at - 1) * sizeof fb.tables[0]);
    fb.tables[fb.count - 1] = saved;
    size_t full;
    uint8_t *font = fb_serialize(&fb, &full);
    size_t rec = 12 + 16 * (size_t)(fb.count - 1) + 12;
    font[rec] = (uint8_t)(dir_len >> 24), font[rec + 1] = (uint8_t)(dir_len >> 16);
    font[rec + 2] = (uint8_t)(dir_len >> 8), font[rec + 3] = (uint8_t)dir_len;
    *size = full - 32 + keep;
    return font;
}

/* A maxp cut by the end of the file (F-29): FreeType 2.12.1 reads its
 * first 6 bytes and its version 1.0 fields each all or nothing, bounded
 * by the file, and opens the face whichever fails.  Cut inside the first 6
 * bytes: no glyphs.  Cut inside the 1.0 fields: numGlyphs kept, every
 * 1.0 field 0 and no FDEF allowed (as version 0.5), so a glyph hints
 * without fpgm and fails with fpgm's FDEF.  A directory length past the
 * end of the file drops the table instead: no glyphs either. */
static void test_maxp_cut_by_end_of_file(void **state)
{
    (void)state;
    for (int fdef = 0; fdef < 2; fdef++) {
        for (size_t keep = 0; keep <= 32; keep++) {
            for (int past = 0; past < 2; past++) {
                size_t size;
                uint8_t *font = maxp_cut_font(fdef, past ? 32 : (uint32_t)keep, keep, &size);
                verdict v;
                decide(font, size, "12", &v);
                assert_int_equal(v.ft_face, OPENS);
                assert_int_equal(v.fv_face, OPENS);
                assert_true(v.ft_size && v.fv_size);
                ttc_status want = TTC_IDENTICAL;
                if ((past && keep < 32) || keep < 6 || (fdef && keep < 32))
                    want = TTC_ERROR_BOTH;
                assert_int_equal(v.glyph[1], want);
                verdict_free(&v);
                free(font);
            }
        }
    }
}

/* hmtx with one long metric of the two hhea announces: glyph 1's advance
 * is 0 in both. */
static void test_short_hmtx(void **state)
{
    (void)state;
    fb_font fb;
    fb_minimal(&fb);
    fb_find(&fb, "hmtx")->len = 4;
    size_t size;
    uint8_t *font = fb_serialize(&fb, &size);
    verdict v;
    decide(font, size, "12", &v);
    assert_int_equal(v.glyph[1], TTC_IDENTICAL);
    assert_int_equal(v.ref.advance_x, 0);
    verdict_free(&v);
    free(font);
    fb_minimal(&fb);
    fb_put16(fb_find(&fb, "hhea"), 34, 0); /* numberOfHMetrics 0 */
    assert_both(&fb, OPENS);
}

static void test_required_tables_and_units(void **state)
{
    (void)state;
    fb_font fb;
    fb_minimal(&fb);
    fb_find(&fb, "hhea")->tag = TAG("xxxx");
    assert_both(&fb, REFUSED);
    fb_minimal(&fb);
    fb_find(&fb, "hmtx")->len = 0;
    assert_both(&fb, REFUSED);
    fb_minimal(&fb);
    fb_find(&fb, "loca")->tag = TAG("xxxx");
    assert_both(&fb, REFUSED);
    fb_minimal(&fb);
    fb_put16(fb_find(&fb, "head"), 18, 15); /* unitsPerEm below 16 */
    assert_both(&fb, REFUSED);
    fb_minimal(&fb);
    fb_put16(fb_find(&fb, "head"), 18, 16384);
    assert_both(&fb, OPENS);
}

/* x deltas summing to 40000: kept whole by both (FreeType does not wrap). */
static void test_coordinates_beyond_16_bits(void **state)
{
    (void)state;
    fb_font fb;
    fb_minimal(&fb);
    fb_put16(fb_find(&fb, "glyf"), 22, 20000);
    fb_put16(fb_find(&fb, "glyf"), 24, 20000);
    size_t size;
    uint8_t *font = fb_serialize(&fb, &size);
    verdict v;
    decide(font, size, "12", &v);
    assert_int_equal(v.glyph[1], TTC_IDENTICAL);
    assert_true(v.ref.x[3] > 40000 * 12 * 64 / 1000 - 64); /* 26.6 at 12 ppem, upem 1000 */
    verdict_free(&v);
    free(font);
}

/* An sbix table with one 12 ppem strike: FreeType ignores glyf, takes only
 * the strike's size and loads no outline there. */
static void test_sbix_strikes_only(void **state)
{
    (void)state;
    fb_font fb;
    fb_minimal(&fb);
    fb_table *sbix = fb_add(&fb, "sbix");
    fb_u16(sbix, 1); fb_u16(sbix, 1); fb_u32(sbix, 1); fb_u32(sbix, 12); /* one strike at 12 */
    fb_u16(sbix, 12); fb_u16(sbix, 72);                                /* ppem, ppi */
    for (int i = 0; i < 3; i++)
        fb_u32(sbix, 16);                                              /* empty glyphs */
    size_t size;
    uint8_t *font = fb_serialize(&fb, &size);
    verdict v;
    decide(font, size, "12", &v);
    assert_int_equal(v.ft_face, OPENS);
    assert_int_equal(v.fv_face, OPENS);
    assert_int_equal(v.ft_size, 1);
    assert_int_equal(v.fv_size, 1);
    assert_int_equal(v.glyph[1], TTC_ERROR_BOTH);
    verdict_free(&v);
    decide(font, size, "20", &v);
    assert_int_equal(v.ft_size, 0);
    assert_int_equal(v.fv_size, 0);
    assert_int_equal(v.glyph[1], TTC_ERROR_BOTH);
    verdict_free(&v);
    free(font);
}

/* An EBLC or CBLC table with one 12 ppem strike, and its data table. */
static void add_strike(fb_font *fb, const char *loc, const char *data, uint32_t version)
{
    fb_table *t = fb_add(fb, loc);
    fb_u32(t, version); fb_u32(t, 1);         /* version, one strike */
    fb_u32(t, 56); fb_zeros(t, 12);           /* index subtable array, sizes, colorRef */
    fb_zeros(t, 24);                          /* hori and vert line metrics */
    fb_u16(t, 0); fb_u16(t, 1);               /* glyph range */
    fb_u8(t, 12); fb_u8(t, 12); fb_u8(t, 32); fb_u8(t, 1); /* ppemX, ppemY, bitDepth, flags */
    fb_u32(fb_add(fb, data), version);
}

/* Asserts the decisions at 12 ppem (the strike's size) and at 20. */
static void assert_strike_sizes(const fb_font *fb, int outlines)
{
    size_t size;
    uint8_t *font = fb_serialize(fb, &size);
    verdict v;
    decide(font, size, "12", &v);
    assert_int_equal(v.ft_face, OPENS);
    assert_int_equal(v.fv_face, OPENS);
    assert_true(v.ft_size && v.fv_size);
    assert_int_equal(v.glyph[1], outlines ? TTC_IDENTICAL : TTC_ERROR_BOTH);
    verdict_free(&v);
    decide(font, size, "20", &v);
    assert_int_equal(v.ft_size, outlines);
    assert_int_equal(v.fv_size, outlines);
    assert_int_equal(v.glyph[1], outlines ? TTC_IDENTICAL : TTC_ERROR_BOTH);
    verdict_free(&v);
    free(font);
}

static void test_eblc_cblc_strikes(void **state)
{
    (void)state;
    fb_font fb;
    /* Colour strikes replace the outlines, glyf or not. */
    fb_minimal(&fb);
    add_strike(&fb, "CBLC", "CBDT", 0x00030000);
    assert_strike_sizes(&fb, 0);
    /* Black-and-white strikes beside glyf: the outlines are used. */
    fb_minimal(&fb);
    add_strike(&fb, "EBLC", "EBDT", 0x00020000);
    assert_strike_sizes(&fb, 1);
    /* ... and without glyf and loca, the strikes alone. */
    fb_minimal(&fb);
    fb_find(&fb, "glyf")->tag = FV_TAG('x', 'x', 'x', '1');
    fb_find(&fb, "loca")->tag = FV_TAG('x', 'x', 'x', '2');
    add_strike(&fb, "EBLC", "EBDT", 0x00020000);
    assert_strike_sizes(&fb, 0);
    /* An sbix table beside the EBLC strike, even an empty one: no outline
     * (the strike's sizes stay EBLC's); beside CBLC it changes nothing. */
    fb_minimal(&fb);
    add_strike(&fb, "EBLC", "EBDT", 0x00020000);
    fb_table *sbix = fb_add(&fb, "sbix");
    fb_u16(sbix, 1); fb_u16(sbix, 1); fb_u32(sbix, 0);
    assert_strike_sizes(&fb, 0);
    fb_minimal(&fb);
    add_strike(&fb, "EBLC", "EBDT", 0x00020000);
    fb_u16(fb_add(&fb, "sbix"), 1); /* 2 bytes */
    assert_strike_sizes(&fb, 0);
    /* ... and then loca is still required. */
    fb_find(&fb, "loca")->tag = FV_TAG('x', 'x', 'x', '2');
    assert_both(&fb, REFUSED);
    fb_minimal(&fb);
    add_strike(&fb, "CBLC", "CBDT", 0x00030000);
    sbix = fb_add(&fb, "sbix");
    fb_u16(sbix, 1); fb_u16(sbix, 1); fb_u32(sbix, 0);
    assert_strike_sizes(&fb, 0);
    /* Without a data table there is no strike: no outline either. */
    fb_minimal(&fb);
    fb_find(&fb, "glyf")->tag = FV_TAG('x', 'x', 'x', '1');
    fb_find(&fb, "loca")->tag = FV_TAG('x', 'x', 'x', '2');
    add_strike(&fb, "EBLC", "xxx3", 0x00020000);
    assert_both(&fb, REFUSED);
}

static int32_t max_x(const ttc_glyph *g)
{
    int32_t m = INT32_MIN;
    for (uint32_t i = 0; i < g->num_points; i++)
        if (g->x[i] > m)
            m = g->x[i];
    return m;
}

/* COMPAT(freetype), F-47: a size whose ppem rounds (in x and in y) to an
 * EBLC strike's selects the strike, and the outlines are scaled at the
 * strike's whole ppem, head.flags bit 3 or not (Konatu at 9.3 ppem, the
 * hunt of 2026-11-29).  The square's right edge, 500 of 1000 units: 6 px
 * at 12 and at 12.3 ppem (the 12 ppem strike), 6.3 px at 12.6 (13: no
 * strike). */
static void test_strike_size_scales_outlines(void **state)
{
    (void)state;
    fb_font fb;
    fb_minimal(&fb);
    fb_put16(fb_find(&fb, "head"), 16, 0x0003); /* flags without bit 3 */
    add_strike(&fb, "EBLC", "EBDT", 0x00020000);
    size_t size;
    uint8_t *font = fb_serialize(&fb, &size);
    static const struct {
        const char *ppem;
        int32_t right;
    } cases[] = {{"12", 384}, {"12.3", 384}, {"11.6", 384}, {"12x12.4", 384},
                 {"12.6", 403}, {"12x13", 384}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        verdict v;
        decide(font, size, cases[i].ppem, &v);
        assert_true(v.ft_size && v.fv_size);
        assert_int_equal(v.glyph[1], TTC_IDENTICAL);
        assert_int_equal(max_x(&v.ref), cases[i].right);
        verdict_free(&v);
    }
    free(font);
}

/* fb_minimal's square moved to glyph 0, glyph 1 left empty: loca (short
 * format, byte offsets / 2) is 0, `end` (the square's end), then `rest`
 * (glyph 1's end and any entries past numGlyphs + 1), or `end` again. */
static void notdef_only(fb_font *fb, const unsigned *rest, int n_rest)
{
    fb_minimal(fb);
    fb_table *loca = fb_find(fb, "loca");
    unsigned end = (unsigned)(fb_find(fb, "glyf")->len / 2);
    loca->len = 0;
    fb_u16(loca, 0); fb_u16(loca, end);
    if (n_rest == 0)
        fb_u16(loca, end);
    for (int i = 0; i < n_rest; i++)
        fb_u16(loca, rest[i]);
}

static unsigned square_end(void)
{
    fb_font fb;
    fb_minimal(&fb);
    return (unsigned)(fb_find(&fb, "glyf")->len / 2);
}

/* COMPAT(freetype): beside EBLC strikes, a glyf where only glyph 0 has
 * bytes makes a face of strikes only (wine's system.ttf, unifont_sample):
 * FreeType sets only the strikes' sizes (Invalid_Pixel_Size elsewhere) and
 * loads no outline; fontvm says not_scalable. */
static void test_notdef_only_beside_strikes(void **state)
{
    (void)state;
    fb_font fb;
    notdef_only(&fb, NULL, 0);
    add_strike(&fb, "EBLC", "EBDT", 0x00020000);
    assert_strike_sizes(&fb, 0);
    size_t size;
    uint8_t *font = fb_serialize(&fb, &size);
    verdict v;
    decide(font, size, "20", &v);
    assert_int_equal(v.fv_size_error, FV_E_NOT_SCALABLE);
    verdict_free(&v);
    free(font);
    /* Glyph 0's bytes need only be there: a header of 0 contours will do. */
    notdef_only(&fb, NULL, 0);
    fb_put16(fb_find(&fb, "glyf"), 0, 0);
    add_strike(&fb, "EBLC", "EBDT", 0x00020000);
    assert_strike_sizes(&fb, 0);
    /* Glyph 1 ending past glyf (not loca's last glyph) is empty, and so is
     * the glyph after it, starting there: still strikes only. */
    unsigned past[] = {square_end() + 50, square_end() + 50};
    notdef_only(&fb, past, 2);
    add_strike(&fb, "EBLC", "EBDT", 0x00020000);
    assert_strike_sizes(&fb, 0);
}

/* ... and the other side of the rule: the outlines stay. */
static void test_notdef_only_stays_scalable(void **state)
{
    (void)state;
    fb_font fb;
    /* No strike: the lone .notdef outline is an outline font. */
    notdef_only(&fb, NULL, 0);
    assert_both(&fb, OPENS);
    /* Glyph 1's outline, not glyph 0's (the EBLC case of fb_minimal). */
    fb_minimal(&fb);
    add_strike(&fb, "EBLC", "EBDT", 0x00020000);
    assert_strike_sizes(&fb, 1);
    /* An outline in a loca entry past numGlyphs + 1 counts too (glyph 2,
     * a second square, of a font of two glyphs). */
    unsigned beyond[] = {square_end(), 2 * square_end()};
    notdef_only(&fb, beyond, 2);
    fb_table *glyf = fb_find(&fb, "glyf");
    memcpy(glyf->data + glyf->len, glyf->data, glyf->len);
    glyf->len *= 2;
    add_strike(&fb, "EBLC", "EBDT", 0x00020000);
    assert_strike_sizes(&fb, 1);
    /* A strike of ppem 0 is no strike: the outlines stay. */
    notdef_only(&fb, NULL, 0);
    add_strike(&fb, "EBLC", "EBDT", 0x00020000);
    fb_find(&fb, "EBLC")->data[8 + 44] = 0;
    size_t size;
    uint8_t *font = fb_serialize(&fb, &size);
    verdict v;
    decide(font, size, "20", &v);
    assert_true(v.ft_size && v.fv_size);
    assert_int_equal(v.glyph[0], TTC_IDENTICAL);
    verdict_free(&v);
    free(font);
}

/* fb_minimal plus glyph 2: a composite of glyph `component` at (0, 0)
 * whose instructionLength `ilen` is the glyph's last field, followed in
 * glyf by `after` (n_after bytes) outside the glyph. */
static void composite_font(fb_font *fb, unsigned component, unsigned ilen, const uint8_t *after,
                           size_t n_after)
{
    fb_minimal(fb);
    fb_put16(fb_find(fb, "maxp"), 4, 3);  /* numGlyphs */
    fb_put16(fb_find(fb, "maxp"), 28, 1); /* maxComponentElements */
    fb_put16(fb_find(fb, "maxp"), 30, 1); /* maxComponentDepth */
    fb_table *glyf = fb_find(fb, "glyf");
    fb_u16(glyf, 0xFFFF); fb_zeros(glyf, 4); fb_u16(glyf, 500); fb_u16(glyf, 500);
    fb_u16(glyf, 0x0103); fb_u16(glyf, component); fb_u16(glyf, 0); fb_u16(glyf, 0);
    fb_u16(glyf, ilen);  /* ARG_1_AND_2_ARE_WORDS | ARGS_ARE_XY_VALUES | WE_HAVE_INSTRUCTIONS */
    fb_u16(fb_find(fb, "loca"), (unsigned)(glyf->len / 2));
    for (size_t i = 0; i < n_after; i++)
        fb_u8(glyf, after[i]);
}

/* Both engines' glyph 2 at 12 ppem in v35 and v40 (asserted alike);
 * FreeType's is left in *ref and fontvm's error in fv_why (v40). */
static void assert_glyph2_alike(const fb_font *fb, ttc_glyph *ref, char fv_why[160])
{
    size_t size;
    uint8_t *font = fb_serialize(fb, &size);
    char errbuf[256];
    fv_error err;
    ttc_ft *ft = NULL;
    ttc_fv *fv = NULL;
    assert_int_equal(ttc_ft_open_memory(font, size, 0, &ft, errbuf, sizeof errbuf), 0);
    assert_int_equal(ttc_fv_open_memory(font, size, 0, &fv, &err), 0);
    ttc_size sz;
    assert_int_equal(ttc_size_parse("12", &sz), 0);
    ttc_glyph sub;
    ttc_glyph_init(&sub);
    fv_tt_mode modes[] = {FV_TT_V35, FV_TT_V40};
    for (int m = 0; m < 2; m++) {
        assert_int_equal(ttc_ft_set_size(ft, &sz, modes[m], 0, errbuf, sizeof errbuf), 0);
        assert_int_equal(ttc_fv_set_size(fv, &sz, modes[m], 0, &err), 0);
        ttc_ft_load(ft, 2, ref);
        ttc_fv_load(fv, 2, &sub);
        ttc_diff d;
        ttc_status st = ttc_compare(ref, &sub, &d);
        if (st != TTC_IDENTICAL && st != TTC_ERROR_BOTH)
            fail_msg("glyph 2 %s: FreeType %s, fontvm %s", m ? "v40" : "v35",
                     ref->loaded ? "ok" : ref->error, sub.loaded ? "ok" : sub.error);
        snprintf(fv_why, 160, "%s", sub.loaded ? "" : sub.error);
    }
    ttc_glyph_free(&sub);
    ttc_ft_close(ft);
    ttc_fv_close(fv);
    free(font);
}

/* SVTCA[y]; PUSHB[1] 0 64; SHPIX: point 0 one pixel up. */
static const uint8_t shpix_up[] = {0x00, 0xB1, 0x00, 0x40, 0x38};

/* COMPAT(freetype): a composite's instructions are read from the file
 * where its components end, inside the glyph or not. */
static void test_composite_instructions_past_the_glyph(void **state)
{
    (void)state;
    fb_font fb;
    ttc_glyph ref;
    ttc_glyph_init(&ref);
    char why[160];
    /* The program is the bytes after the glyph: it runs. */
    composite_font(&fb, 1, sizeof shpix_up, shpix_up, sizeof shpix_up);
    assert_glyph2_alike(&fb, &ref, why);
    assert_true(ref.loaded);
    assert_int_equal(ref.y[0], 64);
    /* instructionLength itself past the glyph. */
    composite_font(&fb, 1, 0, NULL, 0);
    fb_table *glyf = fb_find(&fb, "glyf");
    glyf->len -= 2;
    fb_put16(fb_find(&fb, "loca"), 6, (unsigned)(glyf->len / 2));
    fb_u16(glyf, sizeof shpix_up);
    for (size_t i = 0; i < sizeof shpix_up; i++)
        fb_u8(glyf, shpix_up[i]);
    assert_glyph2_alike(&fb, &ref, why);
    assert_int_equal(ref.y[0], 64);
    /* Longer than maxSizeOfInstructions (100) but not than the glyph (it
     * holds 150 bytes more): read on past the glyph. */
    uint8_t tail[150] = {0};
    memcpy(tail, shpix_up, sizeof shpix_up);
    composite_font(&fb, 1, 120, tail, sizeof tail);
    fb_put16(fb_find(&fb, "loca"), 6, (unsigned)((fb_find(&fb, "glyf")->len - 50) / 2));
    assert_glyph2_alike(&fb, &ref, why);
    assert_int_equal(ref.y[0], 64);
    /* No points to hint (the component is the empty glyph 0): the
     * instructions are never read, however long. */
    composite_font(&fb, 0, 60000, NULL, 0);
    assert_glyph2_alike(&fb, &ref, why);
    assert_true(ref.loaded);
    assert_int_equal(ref.num_points, 0);
    ttc_glyph_free(&ref);
}

/* ... and where FreeType fails the glyph: longer than both
 * maxSizeOfInstructions and the glyph (Too_Many_Hints), or past the end of
 * the file (a stream error). */
static void test_composite_instructions_refused(void **state)
{
    (void)state;
    fb_font fb;
    ttc_glyph ref;
    ttc_glyph_init(&ref);
    char why[160];
    uint8_t tail[300] = {0};
    composite_font(&fb, 1, 200, tail, sizeof tail);
    assert_glyph2_alike(&fb, &ref, why);
    assert_false(ref.loaded);
    assert_non_null(strstr(why, "longer than maxSizeOfInstructions and the glyph"));
    /* At most maxSizeOfInstructions, but the file ends first (only loca,
     * 8 bytes, follows glyf). */
    composite_font(&fb, 1, 100, NULL, 0);
    assert_glyph2_alike(&fb, &ref, why);
    assert_false(ref.loaded);
    assert_non_null(strstr(why, "truncated (composite instructions past the end of the file)"));
    ttc_glyph_free(&ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_past_the_end),
        cmocka_unit_test(test_maxp_versions_and_absence),
        cmocka_unit_test(test_maxp_05_allows_no_fdef),
        cmocka_unit_test(test_maxp_cut_by_end_of_file),
        cmocka_unit_test(test_short_hmtx),
        cmocka_unit_test(test_required_tables_and_units),
        cmocka_unit_test(test_coordinates_beyond_16_bits),
        cmocka_unit_test(test_sbix_strikes_only),
        cmocka_unit_test(test_eblc_cblc_strikes),
        cmocka_unit_test(test_notdef_only_beside_strikes),
        cmocka_unit_test(test_notdef_only_stays_scalable),
        cmocka_unit_test(test_strike_size_scales_outlines),
        cmocka_unit_test(test_composite_instructions_past_the_glyph),
        cmocka_unit_test(test_composite_instructions_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
