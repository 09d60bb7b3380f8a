/* See diff_report.h (TrueType part). */
#define FVFUZZ_DIFF_REPORT_TT 1
#include "support/diff_report.h"

#include <stdio.h>
#include <string.h>

#include "fontvm/fontvm.h"

static void report_glyph(const char *who, const ttc_glyph *g, int32_t around)
{
    if (!g->loaded) {
        fprintf(stderr, "  %-8s error: %s\n", who, g->error);
        return;
    }
    fprintf(stderr, "  %-8s %u points, %u contours, advance %d\n", who, g->num_points,
            g->num_contours, g->advance_x);
    uint32_t from = around > 2 ? (uint32_t)around - 2 : 0;
    for (uint32_t i = from; i < g->num_points && i < from + 5; i++)
        fprintf(stderr, "    point %u: (%d, %d)%s\n", i, g->x[i], g->y[i],
                g->on_curve[i] ? " on" : "");
}

void fvfuzz_report_tt_case(ttc_fv *fv, uint32_t gid, const ttc_glyph *ref, const ttc_glyph *sub,
                           const ttc_diff *d)
{
    if (d->status == TTC_DIFFERENT && d->point >= 0)
        fprintf(stderr, "  first differing point %d: FreeType (%d, %d), fontvm (%d, %d)\n",
                d->point, d->ref_xy[0], d->ref_xy[1], d->fontvm_xy[0], d->fontvm_xy[1]);
    report_glyph("FreeType", ref, d->point);
    report_glyph("fontvm", sub, d->point);
    if (d->status != TTC_DIFFERENT || d->point < 0)
        return;
    ttc_culprit c;
    memset(&c, 0, sizeof c);
    ttc_fv_culprit(fv, gid, (uint32_t)d->point, &c);
    if (c.found)
        fprintf(stderr, "  fontvm last moved it: %s glyph %u pc %u %s\n",
                fv_program_name(c.program), c.glyph, c.pc, c.mnemonic);
}

void fvfuzz_tt_add_opcodes(const fvfuzz_ctx *ctx, const ttc_fv *fv)
{
    if (ctx->tt_opcodes == NULL)
        return;
    const uint64_t *c = ttc_fv_opcode_counts(fv);
    for (int k = 0; c != NULL && k < 256; k++)
        ctx->tt_opcodes[k] += c[k];
}
