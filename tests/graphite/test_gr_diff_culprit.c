/* The "culprit" of a Graphite difference (conformance/RECORDS.md gr_case):
 * the pass and rule that last changed fontvm's slot under the first
 * difference, found through the derived HarfBuzz buffer's source slots too.
 * Checked on a real difference: charis_r_gr with feature 1056=1, where
 * graphite2 sets feature 1024 instead (KNOWN_DIFFERENCES.md KD-2) and fontvm
 * substitutes the Cyrillic shha alternate by pass 1 rule 146 (fontvm shape
 * --trace shows the rule). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fontvm/fontvm.h"
#include "fontvm/graphite.h"
#include "gr_compare.h"
#include "test_support.h"

static void test_culprit_of_a_difference(void **state)
{
    (void)state;
    char path[1024], msg[256];
    test_source_path(path, sizeof path, TEST_PEER_GRAPHITE2 "/fonts/charis_r_gr.ttf");
    size_t size = 0;
    unsigned char *font = test_read_file(path, &size);
    assert_non_null(font);
    grc_gr2 *g = grc_gr2_open(font, size, msg, sizeof msg);
    grc_hb *h = grc_hb_open(font, size, msg, sizeof msg);
    assert_non_null(g);
    assert_non_null(h);
    fv_font *vf = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    fv_error_clear(&err);
    assert_int_equal(fv_font_open_memory(font, size, 0, NULL, &vf, &err), FV_OK);
    assert_int_equal(fv_gr_face_new(vf, &face, &err), FV_OK);

    /* "aһa": the shha is slot 1.  Left to right only: against the font's
     * direction fontvm still differs in slot order (KD-3). */
    static const uint32_t text[] = {0x61, 0x4bb, 0x61};
    grc_features feats;
    assert_int_equal(grc_parse_features("1056=1", &feats, msg, sizeof msg), 0);
    {
        const int rtl = 0;
        grc_request req = {text, 3, &feats, rtl};
        grc_run ref, fv;
        assert_int_equal(grc_gr2_shape(g, &req, &ref), 0);
        assert_int_equal(grc_fv_shape(face, &req, &fv), 0);
        grc_diff d = grc_compare_gr(&ref, &fv);
        assert_int_equal(d.status, GRC_DIFFERENT);
        assert_int_equal(d.slot, 1);
        assert_string_equal(d.what, "gid");
        assert_int_equal(ref.glyphs[1].gid, 1118);
        assert_int_equal(fv.glyphs[1].gid, 1119);
        int32_t pass, rule;
        assert_int_equal(grc_fv_culprit(&fv, d.slot, &pass, &rule), 1);
        assert_int_equal(pass, 1);
        assert_int_equal(rule, 146);
        /* A slot no rule changed has no culprit; nor has a missing one. */
        assert_int_equal(grc_fv_culprit(&fv, 5, &pass, &rule), 0);
        assert_int_equal(pass, -1);
        grc_run_free(&ref);
        grc_run_free(&fv);

        /* The same through HarfBuzz: the differing glyph maps back to
         * fontvm's slot 1. */
        grc_request hreq = {text, 3, &feats, rtl ? 3 : 0};
        grc_hb_run href, hfv;
        assert_int_equal(grc_hb_shape(h, &hreq, &href), 0);
        assert_int_equal(grc_fv_shape(face, &hreq, &fv), 0);
        assert_int_equal(grc_derive_hb(&fv, &hreq, &hfv), 0);
        d = grc_compare_hb(&href, &hfv);
        assert_int_equal(d.status, GRC_DIFFERENT);
        assert_int_equal(hfv.glyphs[d.slot].gid, 1119);
        assert_int_equal(hfv.glyphs[d.slot].slot, 1);
        assert_int_equal(href.glyphs[d.slot].slot, -1);
        assert_int_equal(grc_fv_culprit(&fv, hfv.glyphs[d.slot].slot, &pass, &rule), 1);
        assert_int_equal(rule, 146);
        grc_run_free(&fv);
        grc_hb_run_free(&href);
        grc_hb_run_free(&hfv);
    }
    fv_gr_face_free(face);
    fv_font_close(vf);
    grc_gr2_close(g);
    grc_hb_close(h);
    free(font);
}

/* Every glyph of a derived HarfBuzz buffer names the segment slot it came
 * from, in either direction (right to left the buffer runs the other way). */
static void test_derived_source_slots(void **state)
{
    (void)state;
    const char *path = "/usr/share/fonts/truetype/scheherazade/Scheherazade-Regular.ttf";
    size_t size = 0;
    unsigned char *font = test_read_file(path, &size);
    assert_non_null(font);
    fv_font *vf = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    fv_error_clear(&err);
    assert_int_equal(fv_font_open_memory(font, size, 0, NULL, &vf, &err), FV_OK);
    assert_int_equal(fv_gr_face_new(vf, &face, &err), FV_OK);
    /* "بِسْمِ اللَّهِ" */
    static const uint32_t text[] = {0x628, 0x650, 0x633, 0x652, 0x645, 0x650, 0x20,
                                    0x627, 0x644, 0x644, 0x651, 0x64e, 0x647, 0x650};
    grc_features feats;
    memset(&feats, 0, sizeof feats);
    for (int dir = 0; dir <= 3; dir += 3) {
        grc_request req = {text, sizeof text / sizeof text[0], &feats, dir};
        grc_run fv;
        grc_hb_run hfv;
        assert_int_equal(grc_fv_shape(face, &req, &fv), 0);
        assert_true(fv.ok);
        assert_int_equal(grc_derive_hb(&fv, &req, &hfv), 0);
        assert_int_equal(hfv.num_glyphs, fv.num_glyphs);
        int seen_reorder = 0;
        for (size_t k = 0; k < hfv.num_glyphs; k++) {
            int32_t s = hfv.glyphs[k].slot;
            assert_true(s >= 0 && (size_t)s < fv.num_glyphs);
            assert_int_equal(hfv.glyphs[k].gid, fv.glyphs[s].gid);
            seen_reorder |= (size_t)s != k;
        }
        /* Right to left the clusters are emitted last first. */
        assert_int_equal(seen_reorder, dir == 3);
        grc_run_free(&fv);
        grc_hb_run_free(&hfv);
    }
    fv_gr_face_free(face);
    fv_font_close(vf);
    free(font);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_culprit_of_a_difference),
        cmocka_unit_test(test_derived_source_slots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
