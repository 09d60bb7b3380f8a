/* Variation coordinates against the real FreeType 2.12.1: fvar's axes and
 * named instances as FT_Get_MM_Var reads them, and the normalized
 * coordinates FT_Get_Var_Blend_Coordinates reports after
 * FT_Set_Var_Design_Coordinates, FT_Set_Named_Instance and
 * FT_Set_Var_Blend_Coordinates, on edge and seeded random coordinates of
 * Debian's variable fonts (Karla: avar; Inter: two axes, no avar). */
#include "test_support.h"

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_MULTIPLE_MASTERS_H

#include "fontvm/var.h"

#define MAX_AXES 16

static const char *const fonts[] = {
    "/usr/share/fonts/truetype/karla-variable/Karla[wght].ttf",
    "/usr/share/fonts/truetype/karla-variable/Karla-Italic[wght].ttf",
    "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf",
    "/usr/share/fonts/truetype/inter-vf/InterDisplay-italic.var.ttf",
};
#define NFONTS (sizeof fonts / sizeof fonts[0])

typedef struct pair {
    FT_Library lib;
    FT_Face face;
    FT_MM_Var *mm;
    fv_font *font;
    uint32_t axes;
} pair;

static void pair_open(pair *p, const char *path)
{
    fv_error err;
    assert_int_equal(FT_Init_FreeType(&p->lib), 0);
    if (FT_New_Face(p->lib, path, 0, &p->face) != 0)
        fail_msg("FreeType cannot open %s", path);
    assert_int_equal(FT_Get_MM_Var(p->face, &p->mm), 0);
    assert_int_equal(fv_font_open_file(path, 0, NULL, &p->font, &err), FV_OK);
    p->axes = fv_font_var_axis_count(p->font);
    assert_int_equal(p->axes, p->mm->num_axis);
    assert_true(p->axes <= MAX_AXES);
}

static void pair_close(pair *p)
{
    FT_Done_MM_Var(p->lib, p->mm);
    FT_Done_Face(p->face);
    FT_Done_FreeType(p->lib);
    fv_font_close(p->font);
}

static void expect_same(const pair *p, const int32_t *fv, const char *what, const FT_Fixed *in,
                        uint32_t n)
{
    FT_Fixed ft[MAX_AXES];
    assert_int_equal(FT_Get_Var_Blend_Coordinates(p->face, p->axes, ft), 0);
    for (uint32_t i = 0; i < p->axes; i++)
        if ((int64_t)ft[i] != fv[i])
            fail_msg("%s axis %u (input %ld, %u given): FreeType %ld, fontvm %d", what, i,
                     i < n ? (long)in[i] : 0L, n, (long)ft[i], fv[i]);
}

static void check_design(pair *p, const FT_Fixed *design, uint32_t n)
{
    int32_t in[MAX_AXES], out[MAX_AXES];
    fv_error err;
    for (uint32_t i = 0; i < n; i++)
        in[i] = (int32_t)design[i];
    assert_int_equal(FT_Set_Var_Design_Coordinates(p->face, n, (FT_Fixed *)design), 0);
    assert_int_equal(fv_font_var_from_design(p->font, in, n, out, &err), FV_OK);
    expect_same(p, out, "design", design, n);
}

static void check_blend(pair *p, const FT_Fixed *blend, uint32_t n)
{
    int32_t in[MAX_AXES], out[MAX_AXES];
    fv_error err;
    for (uint32_t i = 0; i < n; i++)
        in[i] = (int32_t)blend[i];
    /* FreeType keeps the previous coordinates of the axes beyond n; fontvm
     * has no previous location: they are 0, as on a fresh FreeType face. */
    FT_Fixed zeros[MAX_AXES] = {0};
    assert_int_equal(FT_Set_Var_Blend_Coordinates(p->face, p->axes, zeros), 0);
    FT_Error ft = FT_Set_Var_Blend_Coordinates(p->face, n, (FT_Fixed *)blend);
    fv_status st = fv_font_var_from_normalized(p->font, in, n, out, &err);
    if (ft != 0) {
        /* Outside [-1, 1]: both refuse. */
        assert_int_equal(ft, FT_Err_Invalid_Argument);
        assert_int_equal(st, FV_E_BAD_ARGUMENT);
        return;
    }
    assert_int_equal(st, FV_OK);
    expect_same(p, out, "blend", blend, n);
}

static void test_axes_and_instances(void **state)
{
    (void)state;
    for (size_t f = 0; f < NFONTS; f++) {
        pair p;
        pair_open(&p, fonts[f]);
        for (uint32_t i = 0; i < p.axes; i++) {
            fv_var_axis a;
            assert_int_equal(fv_font_var_axis(p.font, i, &a), FV_OK);
            assert_int_equal(a.tag, p.mm->axis[i].tag);
            assert_int_equal((int64_t)a.min, (int64_t)p.mm->axis[i].minimum);
            assert_int_equal((int64_t)a.def, (int64_t)p.mm->axis[i].def);
            assert_int_equal((int64_t)a.max, (int64_t)p.mm->axis[i].maximum);
            assert_int_equal(a.name_id, p.mm->axis[i].strid);
        }
        assert_int_equal(fv_font_var_instance_count(p.font), p.mm->num_namedstyles);
        for (uint32_t k = 0; k < p.mm->num_namedstyles; k++) {
            fv_var_instance in;
            assert_int_equal(fv_font_var_instance(p.font, k, &in), FV_OK);
            assert_int_equal(in.subfamily_name_id, p.mm->namedstyle[k].strid);
            assert_int_equal(in.ps_name_id, p.mm->namedstyle[k].psid);
            for (uint32_t i = 0; i < p.axes; i++)
                /* FreeType 2.12.1 reports them zero-extended (its bug,
                 * which FT_Set_Named_Instance repeats: fvar.c). */
                assert_int_equal((uint32_t)in.design[i], (uint64_t)p.mm->namedstyle[k].coords[i]);
            /* FT_Set_Named_Instance is 1-based; 0 is the default. */
            int32_t out[MAX_AXES];
            fv_error err;
            assert_int_equal(FT_Set_Named_Instance(p.face, k + 1), 0);
            assert_int_equal(fv_font_var_from_instance(p.font, k + 1, out, &err), FV_OK);
            expect_same(&p, out, "named instance", NULL, 0);
        }
        fv_var_instance none;
        assert_int_equal(fv_font_var_instance(p.font, p.mm->num_namedstyles, &none), FV_E_BAD_ARGUMENT);
        pair_close(&p);
    }
}

/* Every axis at its bounds, default, one unit either side of them, outside
 * the range, at the avar map's points and in between. */
static void test_design_edges(void **state)
{
    (void)state;
    for (size_t f = 0; f < NFONTS; f++) {
        pair p;
        pair_open(&p, fonts[f]);
        for (uint32_t i = 0; i < p.axes; i++) {
            const FT_Var_Axis *a = &p.mm->axis[i];
            FT_Fixed span = a->maximum - a->minimum;
            FT_Fixed values[] = {a->minimum, a->minimum + 1, a->minimum - 1, a->def - 1, a->def,
                                 a->def + 1, a->maximum - 1, a->maximum, a->maximum + 1,
                                 a->minimum - 0x10000 * 100, a->maximum + 0x10000 * 100,
                                 a->minimum + span / 4, a->minimum + span / 2, a->minimum + 3 * (span / 4),
                                 a->minimum + span / 3, a->def + (a->maximum - a->def) / 2,
                                 a->def - (a->def - a->minimum) / 2, 0, -0x7FFFFFFF, 0x7FFFFFFF};
            for (size_t k = 0; k < sizeof values / sizeof values[0]; k++) {
                FT_Fixed d[MAX_AXES];
                for (uint32_t j = 0; j < p.axes; j++)
                    d[j] = p.mm->axis[j].def;
                d[i] = values[k];
                check_design(&p, d, p.axes);
                /* Fewer coordinates than axes: the rest are the defaults. */
                check_design(&p, d, i + 1);
            }
        }
        pair_close(&p);
    }
}

static void test_design_random(void **state)
{
    (void)state;
    uint64_t seed = 0x5EEDF00DULL;
    for (size_t f = 0; f < NFONTS; f++) {
        pair p;
        pair_open(&p, fonts[f]);
        for (int n = 0; n < 20000; n++) {
            FT_Fixed d[MAX_AXES];
            for (uint32_t j = 0; j < p.axes; j++) {
                const FT_Var_Axis *a = &p.mm->axis[j];
                uint64_t r = test_rand64(&seed);
                int64_t span = (int64_t)a->maximum - a->minimum;
                /* Mostly inside the range, sometimes a little outside. */
                d[j] = (FT_Fixed)(a->minimum - span / 8 + (int64_t)(r % (uint64_t)(span + span / 4 + 1)));
            }
            check_design(&p, d, p.axes);
        }
        pair_close(&p);
    }
}

static void test_blend(void **state)
{
    (void)state;
    uint64_t seed = 0xB1E9D;
    static const FT_Fixed edges[] = {-0x10000, -0x10001, -0x20000, -0x8000, -1, 0, 1, 0x5000,
                                     0xFFFF, 0x10000, 0x10001, 0x7FFFFFFF, -0x7FFFFFFF};
    for (size_t f = 0; f < NFONTS; f++) {
        pair p;
        pair_open(&p, fonts[f]);
        for (size_t k = 0; k < sizeof edges / sizeof edges[0]; k++) {
            FT_Fixed b[MAX_AXES];
            for (uint32_t j = 0; j < p.axes; j++)
                b[j] = edges[(k + j) % (sizeof edges / sizeof edges[0])];
            check_blend(&p, b, p.axes);
            check_blend(&p, b, 1);
        }
        for (int n = 0; n < 2000; n++) {
            FT_Fixed b[MAX_AXES];
            for (uint32_t j = 0; j < p.axes; j++)
                b[j] = (FT_Fixed)((int64_t)(test_rand64(&seed) % 0x24001) - 0x12000);
            check_blend(&p, b, p.axes);
        }
        pair_close(&p);
    }
}

static void test_static_font_has_no_axes(void **state)
{
    (void)state;
    fv_font *font;
    fv_error err;
    assert_int_equal(fv_font_open_file("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 0, NULL,
                                       &font, &err), FV_OK);
    assert_int_equal(fv_font_var_axis_count(font), 0);
    assert_int_equal(fv_font_var_error(font, &err), FV_OK);
    int32_t out[1];
    assert_int_equal(fv_font_var_from_instance(font, 0, out, &err), FV_E_BAD_ARGUMENT);
    fv_font_close(font);
    uint32_t tag;
    assert_int_equal(fv_var_tag_parse("wght", &tag), 0);
    assert_int_equal(tag, 0x77676874u);
    assert_int_equal(fv_var_tag_parse("ab", &tag), 0);
    assert_int_equal(tag, 0x61622020u);
    assert_int_equal(fv_var_tag_parse("toolong", &tag), -1);
    assert_int_equal(fv_var_tag_parse("", &tag), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_axes_and_instances),
        cmocka_unit_test(test_design_edges),
        cmocka_unit_test(test_design_random),
        cmocka_unit_test(test_blend),
        cmocka_unit_test(test_static_font_has_no_axes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
