/* Fuzz target `tt_diff` (differential): the input becomes the programs of
 * the synthetic TrueType font of fuzz/synth/tt_synth.c, which the real
 * FreeType 2.12.1 and fontvm both hint through the conformance library
 * (conformance/tt/tt_compare.h, the same comparison as fvconform-tt).  Any
 * difference in the hinted points, on-curve flags, contours, advance or
 * error state aborts with a readable report (mode, size, glyph, the first
 * differing point in both engines, each engine's error text, and the
 * instruction that last moved that point in fontvm).
 *
 * Input layout: exactly tt_program's ([code][16-byte trailer], see
 * fuzz/tt_program.c), so its seeds and findings replay here too; trailer
 * bytes [0..1] (the allocator configuration there) are unused: both engines
 * must see the same memory, and a refused allocation would be a difference
 * by construction. */
#include <stdlib.h>
#include <string.h>

#include "fontvm/fontvm.h"
#include "fuzz.h"
#include "mutator/mutator.h"
#define FVFUZZ_DIFF_REPORT_TT 1
#include "support/diff_report.h"
#include "support/tt_run.h"

/* Smaller than tt_program's cap: every input runs two engines. */
#define TT_DIFF_MAX_INPUT (16 * 1024)

static void report(const fvfuzz_tt_input *in, const ttc_size *sz, fv_tt_mode mode, int pedantic,
                   uint32_t gid, const ttc_glyph *ref, const ttc_glyph *sub, const ttc_diff *d,
                   ttc_fv *fv)
{
    const fvsynth_tt *p = &in->font;
    fprintf(stderr,
            "tt_diff: FreeType and fontvm differ: %s\n"
            "  mode %s%s, size %s (%d/64 x %d/64 ppem), glyph %u%s\n"
            "  font: %u points, %u contours, fpgm %zu bytes, prep %zu, glyph %zu, cvt %u\n",
            ttc_status_name(d->status), fv_tt_mode_name(mode), pedantic ? " pedantic" : "",
            sz->label, sz->x_26d6, sz->y_26d6, gid, gid == 1 ? " (composite)" : "",
            p->num_points, p->num_contours, p->fpgm_len, p->prep_len, p->glyph_code_len,
            p->cvt_count);
    if (p->var_flags)
        fprintf(stderr, "  variations: flags 0x%02x (gvar%s%s%s), scale %u, seed %u, %s%.5f\n",
                p->var_flags, (p->var_flags & FVSYNTH_VAR_CVAR) ? " cvar" : "",
                (p->var_flags & FVSYNTH_VAR_HVAR) ? " HVAR" : "",
                (p->var_flags & FVSYNTH_VAR_AVAR) ? " avar" : "", p->var_scale, p->var_seed,
                in->size.num_coords ? "wght at " : "no location (wght would be ",
                in->coord / 65536.0);
    fvfuzz_report_tt_case(fv, gid, ref, sub, d);
}

static int run(const fvfuzz_ctx *ctx, const uint8_t *data, size_t size)
{
    fvfuzz_tt_input in;
    fvfuzz_tt_decode_input(data, size, &in);
    const fvsynth_tt *p = &in.font;
    size_t font_len = 0;
    uint8_t *font_data = fvfuzz_tt_build_font(p, "tt_diff", &font_len);
    if (font_data == NULL)
        return 0;

    char errbuf[200];
    ttc_ft *ft = NULL;
    ttc_fv *fv = NULL;
    fv_error err;
    if (ttc_ft_open_memory(font_data, font_len, 0, &ft, errbuf, sizeof errbuf) != 0)
        fvfuzz_fail("tt_diff", "FreeType rejected the synthetic font: %s", errbuf);
    if (ttc_fv_open_memory(font_data, font_len, 0, &fv, &err) != 0) {
        fv_error_format(&err, errbuf, sizeof errbuf);
        fvfuzz_fail("tt_diff", "fontvm rejected the synthetic font FreeType opened: %s", errbuf);
    }

    ttc_size sz;
    memset(&sz, 0, sizeof sz);
    sz.x_26d6 = in.size.x_ppem_26d6;
    sz.y_26d6 = in.size.y_ppem_26d6;
    snprintf(sz.label, sizeof sz.label, "%d/64x%d/64", sz.x_26d6, sz.y_26d6);
    fv_tt_mode mode = in.size.mode;
    int pedantic = in.size.pedantic;

    if (in.size.num_coords > 0) {
        if (ttc_ft_set_location(ft, in.size.coords, in.size.num_coords, errbuf, sizeof errbuf) != 0)
            fvfuzz_fail("tt_diff", "FreeType refused the location: %s", errbuf);
        if (ttc_fv_set_location(fv, in.size.coords, in.size.num_coords) != 0)
            fvfuzz_fail("tt_diff", "fontvm refused the location");
    }
    ttc_glyph ref, sub;
    ttc_glyph_init(&ref);
    ttc_glyph_init(&sub);
    int ft_size_failed = ttc_ft_set_size(ft, &sz, mode, pedantic, errbuf, sizeof errbuf);
    (void)ft_size_failed; /* then every FreeType load fails: compared below */
    ttc_fv_set_size(fv, &sz, mode, pedantic, &err);
    uint32_t nglyphs = p->composite ? 2 : 1;
    for (uint32_t gid = 0; gid < nglyphs; gid++) {
        ttc_ft_load(ft, gid, &ref);
        ttc_fv_load(fv, gid, &sub);
        ttc_diff d;
        ttc_status st = ttc_compare(&ref, &sub, &d);
        if (ctx->log)
            fprintf(ctx->log, "glyph %u: %s\n", gid, ttc_status_name(st));
        /* A hardening limit (fontvm's work budget, vm/common/budget.h) is
         * a refusal on purpose where FreeType goes on slowly: the program
         * spent millions of steps (e.g. 1M IUPs over 68 points), not a
         * divergence to report. */
        if (st != TTC_IDENTICAL && st != TTC_ERROR_BOTH && st != TTC_HARDENING_LIMIT) {
            report(&in, &sz, mode, pedantic, gid, &ref, &sub, &d, fv);
            fvfuzz_fail("tt_diff", "%s at glyph %u (report above)", ttc_status_name(st), gid);
        }
    }
    fvfuzz_tt_add_opcodes(ctx, fv);
    ttc_glyph_free(&ref);
    ttc_glyph_free(&sub);
    ttc_fv_close(fv);
    ttc_ft_close(ft);
    free(font_data);
    return 0;
}

FVFUZZ_TARGET(tt_diff, TT_DIFF_MAX_INPUT, run)
FVFUZZ_CODE_MUTATOR(tt_diff)
