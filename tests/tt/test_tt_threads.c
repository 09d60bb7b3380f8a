/* Several threads hinting one font at once, as fontvm/tt.h allows: one
 * execution context and one size per thread, on a shared face.  Every
 * thread's outlines must equal the same loads done alone, and the font's
 * memory accounting (shared by all threads, fv_mem) must come back to
 * where it started.  Built with -fsanitize=thread this is also the data
 * race check (see vm/common/mem.h). */
#include <string.h>

#include "test_threads.h"

#include "fontvm/fontvm.h"
#include "fontvm/tt.h"

#define FONT "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#define THREADS 4
#define GLYPHS 600

typedef struct job {
    fv_tt_face *face;
    int32_t ppem_26d6;
    fv_tt_mode mode;
    uint64_t digest; /* of every point, advance and error of the glyphs */
    int failed;      /* setup failures */
} job;


static void *hint_all(void *arg)
{
    job *j = arg;
    fv_error err;
    fv_tt_exec *exec = NULL;
    fv_tt_size *size = NULL;
    fv_tt_size_request req = {.x_ppem_26d6 = j->ppem_26d6, .y_ppem_26d6 = j->ppem_26d6, .mode = j->mode};
    if (fv_tt_exec_new(j->face, &exec, &err) != FV_OK ||
        fv_tt_size_new(j->face, exec, &req, &size, &err) != FV_OK) {
        j->failed = 1;
        fv_tt_exec_free(exec);
        return NULL;
    }
    uint64_t h = TEST_DIGEST_START;
    for (uint32_t gid = 0; gid < GLYPHS; gid++) {
        fv_tt_outline out;
        fv_status st = fv_tt_hint_glyph(size, exec, gid, &out, &err);
        h = test_digest(h, (uint64_t)st);
        if (st == FV_OK) {
            h = test_digest(h, (uint32_t)out.advance_x);
            for (uint32_t i = 0; i < out.num_points; i++)
                h = test_digest(test_digest(h, (uint32_t)out.x[i]), (uint32_t)out.y[i]);
        }
        fv_tt_outline_free(j->face, &out);
    }
    j->digest = h;
    fv_tt_size_free(size);
    fv_tt_exec_free(exec);
    return NULL;
}

static void test_threads_match_sequential(void **state)
{
    (void)state;
    fv_font *font = NULL;
    fv_tt_face *face = NULL;
    fv_error err;
    if (fv_font_open_file(FONT, 0, NULL, &font, &err) != FV_OK) {
        skip(); /* fonts-dejavu-core is in scripts/lib/packages.txt */
        return;
    }
    assert_int_equal(fv_tt_face_new(font, &face, &err), FV_OK);
    assert_true(fv_font_glyph_count(font) >= GLYPHS);

    static const int32_t ppems[THREADS] = {9 * 64, 12 * 64, 672, 24 * 64};
    static const fv_tt_mode modes[THREADS] = {FV_TT_V40, FV_TT_V35, FV_TT_V40_MONO, FV_TT_V40_LCD};
    job alone[THREADS], together[THREADS];
    for (int t = 0; t < THREADS; t++) {
        alone[t] = (job){face, ppems[t], modes[t], 0, 0};
        together[t] = alone[t];
    }
    for (int t = 0; t < THREADS; t++)
        hint_all(&alone[t]);
    size_t live_before = fv_font_memory_in_use(font);

    test_run_in_threads(hint_all, together, sizeof together[0], THREADS);

    for (int t = 0; t < THREADS; t++) {
        assert_int_equal(alone[t].failed, 0);
        assert_int_equal(together[t].failed, 0);
        assert_true(alone[t].digest == together[t].digest);
    }
    /* Different sizes and modes give different outlines: the digests do
     * measure the work. */
    assert_true(alone[0].digest != alone[1].digest);
    assert_int_equal(fv_font_memory_in_use(font), live_before);
    fv_tt_face_free(face);
    fv_font_close(font);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_match_sequential),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
