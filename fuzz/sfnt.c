/* Fuzz target `sfnt`: table parsing alone (of sfnt fonts, collections, and
 * WOFF/WOFF2 files, which fv_font_open_memory decodes first).
 *
 * Input: a font file (or collection) followed by a 4-byte trailer:
 *   [0..1] allocator configuration (fvfuzz_alloc_init)
 *   [2]    face index (mod the number of faces + 1, so a bad index is tried)
 *   [3]    glyph stride seed: which glyphs beyond the first ones are parsed,
 *          and for a variable font the location
 * The font is opened, then every table the reader exposes is touched: the
 * directory, metrics, cmap and the outlines of a capped set of glyphs; in a
 * variable font also each named instance, a location normalized through
 * avar, cvar's CVT there, and each parsed glyph's gvar deltas and HVAR
 * advance delta there. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "fontvm/fontvm.h"
#include "sfnt/font.h"
#include "sfnt/sfnt.h"

#define SFNT_TRAILER 4
/* Glyphs parsed per run: the first FIRST glyphs, then up to STRIDED more
 * spread over the rest of the font.  Keeps a 3000-glyph font near the
 * 1,000 exec/s target while still reaching every part of glyf. */
#define SFNT_FIRST_GLYPHS 64
#define SFNT_STRIDED_GLYPHS 64
/* Code points looked up in the cmap: the BMP start plus a strided sample. */
#define SFNT_CMAP_PROBES 512
/* Named instances converted to locations per run. */
#define SFNT_INSTANCES 32

/* A variable font's location and the scratch memory of its deltas. */
typedef struct var_probe {
    const sfnt_var *var;       /* NULL: a static font (or unreadable fvar/gvar) */
    int32_t *coords;           /* num_axes normalized coordinates */
    sfnt_gvar_scratch scratch;
    int32_t *xy;               /* 4 arrays of cap: x, y, dx, dy */
    uint32_t cap;
} var_probe;

/* The glyph's gvar deltas (outline points or components, then the
 * phantoms) and its HVAR advance delta at the probe's location. */
static void touch_glyph_variations(var_probe *vp, fv_mem *mem, const sfnt_glyph *g)
{
    uint32_t n = (g->num_contours >= 0 ? g->num_points : g->num_components) + 4;
    if (n > vp->cap) {
        fv_mem_free(mem, vp->xy);
        vp->xy = fv_mem_array(mem, 4 * (size_t)n, sizeof(int32_t));
        vp->cap = vp->xy ? n : 0;
        if (!vp->xy)
            return;
    }
    int32_t *x = vp->xy, *y = x + n, *dx = y + n, *dy = dx + n;
    memset(x, 0, 2 * (size_t)n * sizeof(int32_t));
    for (uint32_t i = 0; g->num_contours >= 0 && i < g->num_points; i++) {
        x[i] = (int32_t)g->points[i].x; /* sums of 16-bit deltas: 32 bits */
        y[i] = (int32_t)g->points[i].y;
    }
    for (uint32_t i = 0; g->num_contours < 0 && i < g->num_components; i++) {
        x[i] = g->components[i].arg1;
        y[i] = g->components[i].arg2;
    }
    fv_error err;
    uint32_t nc = g->num_contours > 0 ? (uint32_t)g->num_contours : 0;
    if (sfnt_gvar_glyph_deltas(vp->var, g->gid, vp->coords, n, x, y, g->end_points, nc, dx, dy,
                               &vp->scratch, mem, &err) == FV_OK) {
        int64_t sum = 0;
        for (uint32_t i = 0; i < n; i++)
            sum += (int64_t)dx[i] + dy[i];
        (void)sum;
    }
    (void)sfnt_hvar_advance_delta(vp->var, g->gid, vp->coords);
    (void)sfnt_vvar_advance_delta(vp->var, g->gid, vp->coords);
}

/* The location from the trailer (each axis somewhere in its design
 * range, its ends and default included), normalized through avar; each
 * named instance; cvar's CVT there. */
static void open_variations(var_probe *vp, fv_font *font, const sfnt_font *sf, fv_mem *mem,
                            uint8_t seed)
{
    memset(vp, 0, sizeof *vp);
    const sfnt_var *v = font->var;
    if (!v || v->num_axes == 0)
        return;
    vp->coords = fv_mem_array(mem, v->num_axes, sizeof(int32_t));
    int64_t *design = fv_mem_array(mem, v->num_axes, sizeof(int64_t));
    if (!vp->coords || !design) {
        fv_mem_free(mem, design);
        return;
    }
    for (uint32_t i = 0; i < v->num_instances && i < SFNT_INSTANCES; i++) {
        for (uint32_t a = 0; a < v->num_axes; a++)
            design[a] = sfnt_var_instance_design(v, i, a);
        sfnt_var_normalize(v, design, v->num_axes, vp->coords);
    }
    for (uint32_t a = 0; a < v->num_axes; a++) {
        const sfnt_axis *ax = &v->axes[a];
        uint32_t k = (seed + 89u * a) % 9u; /* 0: min, 4: default, 8: max */
        int64_t lo = k < 4 ? ax->min : ax->def, hi = k < 4 ? ax->def : ax->max;
        design[a] = lo + (hi - lo) * (int64_t)(k % 4 + (k == 8 ? 4 : 0)) / 4;
    }
    sfnt_var_normalize(v, design, v->num_axes, vp->coords);
    fv_mem_free(mem, design);
    vp->var = v;
    if (sf->cvt_count > 0) {
        int32_t *cvt = fv_mem_array(mem, sf->cvt_count, sizeof(int32_t));
        fv_error err;
        if (cvt)
            (void)sfnt_cvar_apply(v, sf, vp->coords, cvt, &vp->scratch, mem, &err);
        fv_mem_free(mem, cvt);
    }
}

static void close_variations(var_probe *vp, fv_mem *mem)
{
    sfnt_gvar_scratch_free(mem, &vp->scratch);
    fv_mem_free(mem, vp->xy);
    fv_mem_free(mem, vp->coords);
    memset(vp, 0, sizeof *vp);
}

static void touch_glyph(const sfnt_font *sf, fv_mem *mem, var_probe *vp, uint32_t gid)
{
    fv_error err;
    sfnt_glyph g;
    uint16_t adv;
    int16_t side;
    if (sfnt_glyph_load(sf, gid, mem, &g, &err) == FV_OK) {
        /* Read every parsed array so ASan sees any short allocation. */
        uint64_t sum = 0;
        for (uint32_t i = 0; g.num_contours > 0 && i < (uint32_t)g.num_contours; i++)
            sum += g.end_points[i];
        for (uint32_t i = 0; i < g.num_points; i++)
            sum += (uint64_t)(uint16_t)g.points[i].x + (uint16_t)g.points[i].y + g.flags[i];
        for (uint32_t i = 0; i < g.num_components; i++)
            sum += g.components[i].glyph + (uint32_t)g.components[i].xx;
        for (size_t i = 0; i < g.instructions.len; i++)
            sum += g.instructions.data[i];
        (void)sum;
        if (vp->var)
            touch_glyph_variations(vp, mem, &g);
        sfnt_glyph_free(mem, &g);
    }
    (void)sfnt_hmetrics(sf, gid, &adv, &side, &err);
    (void)sfnt_vmetrics(sf, gid, &adv, &side, &err);
}

static int run(const fvfuzz_ctx *ctx, const uint8_t *data, size_t size)
{
    fvfuzz_input in;
    fvfuzz_split(data, size, SFNT_TRAILER, &in);
    fvfuzz_alloc fa;
    fvfuzz_alloc_init(&fa, fvfuzz_u16(&in, 0));

    fv_error err;
    uint32_t faces = 0;
    if (fv_font_count_faces(in.payload, in.payload_len, &faces, &err) != FV_OK)
        faces = 1;
    uint32_t face = (uint32_t)(fvfuzz_u8(&in, 2) % ((uint64_t)faces + 1));

    fv_font *font = NULL;
    if (fv_font_open_memory(in.payload, in.payload_len, face, &fa.a, &font, &err) != FV_OK) {
        fvfuzz_log_error(ctx, "open", &err);
        fvfuzz_alloc_check_clean(&fa, "sfnt");
        return 0;
    }
    const sfnt_font *sf = fv_font_sfnt(font);
    fv_mem *mem = fv_font_mem(font);

    (void)fv_font_glyph_count(font);
    (void)fv_font_units_per_em(font);
    (void)fv_font_peak_memory(font);
    const char *family = fv_font_family(font), *style = fv_font_style(font);
    size_t names = 0;
    while (family != NULL && family[names] != '\0')
        names++;
    while (style != NULL && *style != '\0')
        style++;

    for (uint32_t i = 0; i < sf->num_tables; i++) {
        fv_span t;
        if (sfnt_find_table(sf, sf->tables[i].tag, &t) && t.len > 0)
            (void)(t.data[0] + t.data[t.len - 1]);
    }
    int64_t cvt_sum = 0;
    for (uint32_t i = 0; i < sf->cvt_count; i++)
        cvt_sum += sf->cvt[i];
    (void)cvt_sum;

    var_probe vp;
    open_variations(&vp, font, sf, mem, fvfuzz_u8(&in, 3));
    uint32_t n = sf->maxp.num_glyphs;
    for (uint32_t gid = 0; gid < n && gid < SFNT_FIRST_GLYPHS; gid++)
        touch_glyph(sf, mem, &vp, gid);
    if (n > SFNT_FIRST_GLYPHS) {
        uint32_t rest = n - SFNT_FIRST_GLYPHS;
        uint32_t step = rest / SFNT_STRIDED_GLYPHS + 1;
        for (uint32_t gid = SFNT_FIRST_GLYPHS + fvfuzz_u8(&in, 3) % step; gid < n; gid += step)
            touch_glyph(sf, mem, &vp, gid);
    }
    touch_glyph(sf, mem, &vp, n); /* one past the end must fail cleanly */
    close_variations(&vp, mem);

    for (uint32_t cp = 0; cp < SFNT_CMAP_PROBES / 2; cp++)
        (void)sfnt_cmap_lookup(sf, cp);
    for (uint32_t k = 0; k < SFNT_CMAP_PROBES / 2; k++)
        (void)sfnt_cmap_lookup(sf, k * 0x10FFFFu / (SFNT_CMAP_PROBES / 2) + fvfuzz_u8(&in, 3));
    /* The one-walk BMP table (the Graphite engine's) must give the lookup's
     * answer wherever it claims to: probed at the BMP's start and strided. */
    if (sf->cmap_format != 0) {
        uint16_t bmp[0x10000];
        memset(bmp, 0, sizeof bmp);
        if (sfnt_cmap_fill_bmp(sf, bmp)) {
            for (uint32_t k = 0; k < SFNT_CMAP_PROBES; k++) {
                uint32_t cp = k < SFNT_CMAP_PROBES / 2
                                  ? k
                                  : (k * 0xFFFFu / SFNT_CMAP_PROBES + fvfuzz_u8(&in, 3)) & 0xFFFFu;
                if (bmp[cp] != sfnt_cmap_lookup(sf, cp))
                    fvfuzz_fail("sfnt", "sfnt_cmap_fill_bmp disagrees with sfnt_cmap_lookup");
            }
        }
    }

#if FVFUZZ_PLANTED_BUG
    /* Test-only (FONTVM_TEST_PLANTED_BUG): a table 'PLNT' starting with
     * "BUG!" reads past a heap block (tests/fuzz/planted_bug.sh). */
    fv_span plnt;
    if (sfnt_find_table(sf, FV_TAG('P', 'L', 'N', 'T'), &plnt) && plnt.len >= 4 &&
        memcmp(plnt.data, "BUG!", 4) == 0)
        fvfuzz_planted_overread(plnt.len);
#endif

    fv_font_close(font);
    fvfuzz_alloc_check_clean(&fa, "sfnt");
    return 0;
}

/* 1 MiB: larger than most of the corpus fonts' glyph data needs to be to
 * reach every parser path; bigger inputs only slow the engine down. */
FVFUZZ_TARGET(sfnt, 1 << 20, run)
