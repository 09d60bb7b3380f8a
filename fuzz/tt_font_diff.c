/* Fuzz target `tt_font_diff` (differential, whole fonts): a real font,
 * mutated table by table (mutator/font.c), opened, sized and hinted by the
 * real FreeType 2.12.1 and by fontvm through the conformance library
 * (conformance/tt/tt_compare.h, the comparison fvconform-tt makes).  Load
 * decisions are compared like outlines: a font, a size or a glyph that one
 * engine takes and the other refuses aborts the run, as does any difference
 * in the hinted points, on-curve flags, contours, advance or error state,
 * with a readable report.
 *
 * Input: [font][8-byte trailer], tt_font's layout, so its seeds and cases
 * replay here too:
 *   [0..1] unused (no allocation failures: both engines must see the same)
 *   [2]    face index (mod 4)      [3] glyph seed (which glyphs past the first)
 *   [4]    bits 0-1 mode of the first size, 2-3 of the second, 4 pedantic
 *   [5]    ppem of the first size (0 -> 12), [6] of the second (0 -> 17)
 *   [7]    bit 0: half-pixel sizes, bit 1: second size non-square
 *
 * Bounded: at most TT_FONT_DIFF_MAX_GLYPHS glyphs per size (and the last
 * two by fontvm's count when it is larger than FreeType's), two sizes, and
 * FreeType never gets more work than fontvm's budgets allow: each glyph is
 * hinted by fontvm first, and a glyph (or size) fontvm stops at a work
 * budget (a hardening limit, vm/common/budget.h) is not given to FreeType,
 * which has no such bound (issue 14: 8.4 s for one composite glyph); the
 * rest of that size is skipped too, since FreeType's size state would then
 * differ from fontvm's. */
#include <stdlib.h>
#include <string.h>

#include "fontvm/fontvm.h"
#include "fuzz.h"
#define FVFUZZ_DIFF_REPORT_TT 1
#include "support/diff_report.h"
#include "support/tt_run.h"

#define TT_FONT_DIFF_TRAILER 8
/* Subset fonts of the corpus are 3-45 KB; every input runs two engines. */
#define TT_FONT_DIFF_MAX_INPUT (64 * 1024)
/* The first glyphs (notdef, space, often composites) plus a strided sample,
 * then one past the end (a clean error in both). */
#define TT_FONT_DIFF_FIRST_GLYPHS 4
#define TT_FONT_DIFF_MAX_GLYPHS 8

typedef struct diff_case {
    const char *what; /* "face", "size", "glyph" */
    const ttc_size *size;
    fv_tt_mode mode;
    int pedantic;
} diff_case;

static void fail_decision(const diff_case *c, const char *ref_error, const char *fv_error_text)
{
    fprintf(stderr,
            "tt_font_diff: FreeType and fontvm decide differently: %s\n"
            "  FreeType: %s\n  fontvm:   %s\n",
            c->what, ref_error ? ref_error : "accepts", fv_error_text ? fv_error_text : "accepts");
    if (c->size)
        fprintf(stderr, "  mode %s%s, size %s (%d/64 x %d/64 ppem)\n", fv_tt_mode_name(c->mode),
                c->pedantic ? " pedantic" : "", c->size->label, c->size->x_26d6,
                c->size->y_26d6);
    fvfuzz_fail("tt_font_diff", "%s decision differs (report above)", c->what);
}

static void fail_glyph(const diff_case *c, uint32_t gid, const ttc_glyph *ref,
                       const ttc_glyph *sub, const ttc_diff *d, ttc_fv *fv)
{
    fprintf(stderr,
            "tt_font_diff: FreeType and fontvm differ: %s\n"
            "  mode %s%s, size %s (%d/64 x %d/64 ppem), glyph %u\n",
            ttc_status_name(d->status), fv_tt_mode_name(c->mode), c->pedantic ? " pedantic" : "",
            c->size->label, c->size->x_26d6, c->size->y_26d6, gid);
    fvfuzz_report_tt_case(fv, gid, ref, sub, d);
    fvfuzz_fail("tt_font_diff", "%s at glyph %u (report above)", ttc_status_name(d->status), gid);
}

/* tt_font's choice: the first glyphs, a strided sample picked by the
 * seed, and one past the end. */
static uint32_t pick_glyphs(uint32_t n, uint8_t seed, uint32_t *glyphs)
{
    uint32_t count = 0;
    for (uint32_t g = 0; g < n && g < TT_FONT_DIFF_FIRST_GLYPHS; g++)
        glyphs[count++] = g;
    if (n > TT_FONT_DIFF_FIRST_GLYPHS) {
        uint32_t step =
            (n - TT_FONT_DIFF_FIRST_GLYPHS) / (TT_FONT_DIFF_MAX_GLYPHS - TT_FONT_DIFF_FIRST_GLYPHS) + 1;
        for (uint32_t g = TT_FONT_DIFF_FIRST_GLYPHS + seed % step;
             g < n && count < TT_FONT_DIFF_MAX_GLYPHS; g += step)
            glyphs[count++] = g;
    }
    glyphs[count++] = n;
    return count;
}

/* One size: fontvm first, FreeType only where fontvm finished within its
 * budgets.  Returns nothing: a difference aborts. */
static void compare_size(const fvfuzz_ctx *ctx, ttc_ft *ft, ttc_fv *fv, const diff_case *c,
                         const uint32_t *glyphs, uint32_t count, ttc_glyph *ref, ttc_glyph *sub)
{
    char errbuf[200];
    fv_error err;
    int fv_failed = ttc_fv_set_size(fv, c->size, c->mode, c->pedantic, &err) != 0;
    /* prep runs in fontvm's set-up; a prep stopped by a budget fails the
     * first load with a budget error: then FreeType gets nothing at all */
    if (!fv_failed && count > 0) {
        ttc_fv_load(fv, glyphs[0], sub);
        if (sub->hardening_limit) {
            if (ctx->log)
                fprintf(ctx->log, "size %s: fontvm's budget stopped it (%s): skipped\n",
                        c->size->label, sub->error);
            return;
        }
    }
    int ft_failed = ttc_ft_set_size(ft, c->size, c->mode, c->pedantic, errbuf, sizeof errbuf) != 0;
    if (ft_failed != fv_failed) {
        diff_case s = *c;
        s.what = "size";
        fail_decision(&s, ft_failed ? errbuf : NULL, fv_failed ? ttc_fv_size_error(fv) : NULL);
    }
    if (ft_failed)
        return; /* every load fails in both */
    for (uint32_t k = 0; k < count; k++) {
        uint32_t gid = glyphs[k];
        if (k > 0)
            ttc_fv_load(fv, gid, sub);
        if (sub->hardening_limit) {
            if (ctx->log)
                fprintf(ctx->log, "glyph %u: fontvm's budget stopped it (%s): rest skipped\n",
                        gid, sub->error);
            return;
        }
        ttc_ft_load(ft, gid, ref);
        ttc_diff d;
        ttc_status st = ttc_compare(ref, sub, &d);
        if (ctx->log)
            fprintf(ctx->log, "size %s mode %s glyph %u: %s\n", c->size->label,
                    fv_tt_mode_name(c->mode), gid, ttc_status_name(st));
        if (st != TTC_IDENTICAL && st != TTC_ERROR_BOTH && st != TTC_HARDENING_LIMIT)
            fail_glyph(c, gid, ref, sub, &d, fv);
    }
}

static int run(const fvfuzz_ctx *ctx, const uint8_t *data, size_t size)
{
    fvfuzz_input in;
    fvfuzz_split(data, size, TT_FONT_DIFF_TRAILER, &in);
    uint32_t face_index = fvfuzz_u8(&in, 2) % 4;
    /* Both engines keep pointers into the bytes: a copy of exactly the
     * font's size, so a read past its end is seen. */
    uint8_t *font = malloc(in.payload_len ? in.payload_len : 1);
    if (font == NULL)
        return 0;
    memcpy(font, in.payload, in.payload_len);

    char ft_error[200] = "";
    ttc_ft *ft = NULL;
    ttc_fv *fv = NULL;
    fv_error err;
    char fv_error_text[200] = "";
    int ft_ok = ttc_ft_open_memory(font, in.payload_len, face_index, &ft, ft_error,
                                   sizeof ft_error) == 0;
    if (ttc_fv_open_memory(font, in.payload_len, face_index, &fv, &err) != 0) {
        fv_error_format(&err, fv_error_text, sizeof fv_error_text);
        fv = NULL;
    } else if (ttc_fv_face_error(fv)) {
        snprintf(fv_error_text, sizeof fv_error_text, "%s", ttc_fv_face_error(fv));
    }
    int fv_ok = fv_error_text[0] == '\0';
    diff_case c = {"face", NULL, FV_TT_V40, 0};
    if (ctx->log)
        fprintf(ctx->log, "face: FreeType %s, fontvm %s\n", ft_ok ? "accepts" : ft_error,
                fv_ok ? "accepts" : fv_error_text);
    if (ft_ok != fv_ok)
        fail_decision(&c, ft_ok ? NULL : ft_error, fv_ok ? NULL : fv_error_text);
    if (ft_ok && fv_ok) {
        /* FreeType's glyph count (maxp's, cut to what loca covers when
         * loca is short and cannot be extended) and fontvm's (maxp's) may
         * differ; the loads past the smaller one are compared instead */
        uint32_t n = ttc_ft_num_glyphs(ft), n_fv = fv_font_glyph_count(ttc_fv_font(fv));
        uint32_t glyphs[TT_FONT_DIFF_MAX_GLYPHS + 3];
        uint32_t count = pick_glyphs(n, fvfuzz_u8(&in, 3), glyphs);
        if (n_fv > n + 1) {
            glyphs[count++] = n_fv - 1;
            glyphs[count++] = n_fv;
        }
        uint8_t modes = fvfuzz_u8(&in, 4), extra = fvfuzz_u8(&in, 7);
        int32_t half = (extra & 1) ? 32 : 0;
        int32_t p1 = (fvfuzz_u8(&in, 5) ? fvfuzz_u8(&in, 5) : 12) * 64 + half;
        int32_t p2 = (fvfuzz_u8(&in, 6) ? fvfuzz_u8(&in, 6) : 17) * 64 + half;
        ttc_size sizes[2];
        memset(sizes, 0, sizeof sizes);
        sizes[0].x_26d6 = sizes[0].y_26d6 = p1;
        sizes[1].x_26d6 = p2;
        sizes[1].y_26d6 = (extra & 2) ? p2 + 5 * 64 : p2;
        ttc_glyph ref, sub;
        ttc_glyph_init(&ref);
        ttc_glyph_init(&sub);
        for (int s = 0; s < 2; s++) {
            snprintf(sizes[s].label, sizeof sizes[s].label, "%d/64x%d/64", sizes[s].x_26d6,
                     sizes[s].y_26d6);
            diff_case sc = {"glyph", &sizes[s], fvfuzz_tt_mode((uint8_t)(modes >> (2 * s))),
                            (modes & 0x10) != 0};
            compare_size(ctx, ft, fv, &sc, glyphs, count, &ref, &sub);
        }
        ttc_glyph_free(&ref);
        ttc_glyph_free(&sub);
        fvfuzz_tt_add_opcodes(ctx, fv);
    }
    ttc_fv_close(fv);
    ttc_ft_close(ft);
    free(font);
    return 0;
}

FVFUZZ_TARGET(tt_font_diff, TT_FONT_DIFF_MAX_INPUT, run)
FVFUZZ_CODE_MUTATOR(tt_font_diff)
