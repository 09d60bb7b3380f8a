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
#include "synth/tt_synth.h"
#include "tt_compare.h"

#define TT_DIFF_TRAILER 16
/* Smaller than tt_program's cap: every input runs two engines. */
#define TT_DIFF_MAX_INPUT (16 * 1024)

static size_t insn_prefix(const uint8_t *code, size_t len, size_t count)
{
    size_t pc = 0;
    for (size_t i = 0; i < count && pc < len; i++)
        pc += fvmut_insn_len(FVMUT_TT, code, len, pc);
    return pc;
}

static void print_glyph(const char *who, const ttc_glyph *g, int32_t around)
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

static void report(const fvsynth_tt *p, const ttc_size *sz, fv_tt_mode mode, int pedantic,
                   uint32_t gid, const ttc_glyph *ref, const ttc_glyph *sub, const ttc_diff *d,
                   ttc_fv *fv)
{
    fprintf(stderr,
            "tt_diff: FreeType and fontvm differ: %s\n"
            "  mode %s%s, size %s (%d/64 x %d/64 ppem), glyph %u%s\n"
            "  font: %u points, %u contours, fpgm %zu bytes, prep %zu, glyph %zu, cvt %u\n",
            ttc_status_name(d->status), fv_tt_mode_name(mode), pedantic ? " pedantic" : "",
            sz->label, sz->x_26d6, sz->y_26d6, gid, gid == 1 ? " (composite)" : "",
            p->num_points, p->num_contours, p->fpgm_len, p->prep_len, p->glyph_code_len,
            p->cvt_count);
    if (d->status == TTC_DIFFERENT && d->point >= 0)
        fprintf(stderr, "  first differing point %d: FreeType (%d, %d), fontvm (%d, %d)\n",
                d->point, d->ref_xy[0], d->ref_xy[1], d->fontvm_xy[0], d->fontvm_xy[1]);
    print_glyph("FreeType", ref, d->point);
    print_glyph("fontvm", sub, d->point);
    if (d->status == TTC_DIFFERENT && d->point >= 0) {
        ttc_culprit c;
        memset(&c, 0, sizeof c);
        ttc_fv_culprit(fv, gid, (uint32_t)d->point, &c);
        if (c.found)
            fprintf(stderr, "  fontvm last moved it: %s glyph %u pc %u %s\n",
                    fv_program_name(c.program), c.glyph, c.pc, c.mnemonic);
    }
}

static int run(const fvfuzz_ctx *ctx, const uint8_t *data, size_t size)
{
    fvfuzz_input in;
    fvfuzz_split(data, size, TT_DIFF_TRAILER, &in);
    size_t fpgm_len = insn_prefix(in.payload, in.payload_len, fvfuzz_u16(&in, 2));
    size_t prep_len = insn_prefix(in.payload + fpgm_len, in.payload_len - fpgm_len,
                                  fvfuzz_u16(&in, 4));
    size_t glyph_off = fpgm_len + prep_len;
    size_t glyph_len = in.payload_len - glyph_off;
    if (glyph_len > 0xFFFF)
        glyph_len = 0xFFFF;

    uint8_t flags = fvfuzz_u8(&in, 6);
    fvsynth_tt p = {0};
    p.fpgm = in.payload;
    p.fpgm_len = fpgm_len;
    p.prep = in.payload + fpgm_len;
    p.prep_len = prep_len;
    p.glyph_code = in.payload + glyph_off;
    p.glyph_code_len = glyph_len;
    p.num_points = (uint16_t)(fvfuzz_u8(&in, 8) % (FVSYNTH_MAX_POINTS + 1));
    p.num_contours = p.num_points ? (uint16_t)(1 + fvfuzz_u8(&in, 9) % p.num_points) : 0;
    p.cvt_count = (uint16_t)(fvfuzz_u8(&in, 10) * 4);
    p.max_storage = (uint16_t)(fvfuzz_u8(&in, 11) * 4);
    p.max_twilight = fvfuzz_u8(&in, 12);
    p.max_function_defs = (uint16_t)(fvfuzz_u8(&in, 13) * 2);
    p.max_instruction_defs = p.max_function_defs;
    p.max_stack = (uint16_t)(fvfuzz_u8(&in, 14) * 4);
    p.units_per_em = (flags & 0x80) ? 1000 : 2048;
    p.head_flags = (flags & 0x20) ? 0x0008 : 0;
    p.seed = fvfuzz_u8(&in, 15) * 0x01000193u + 1;
    p.composite = (flags & 0x08) != 0;

    size_t cap = fvsynth_tt_bound(&p);
    uint8_t *font_data = malloc(cap);
    if (font_data == NULL)
        return 0;
    size_t font_len = fvsynth_tt_build(&p, font_data, cap);
    if (font_len == 0)
        fvfuzz_fail("tt_diff", "synthetic font did not fit its bound (%zu bytes)", cap);

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

    uint32_t ppem = fvfuzz_u8(&in, 7) ? fvfuzz_u8(&in, 7) : 1;
    ttc_size sz;
    memset(&sz, 0, sizeof sz);
    sz.x_26d6 = (int32_t)(ppem * 64 + ((flags & 0x10) ? 32 : 0));
    sz.y_26d6 = (flags & 0x40) ? sz.x_26d6 + 3 * 64 : sz.x_26d6;
    snprintf(sz.label, sizeof sz.label, "%d/64x%d/64", sz.x_26d6, sz.y_26d6);
    static const fv_tt_mode modes[4] = {FV_TT_V35, FV_TT_V40, FV_TT_V40_MONO, FV_TT_V40_LCD};
    fv_tt_mode mode = modes[flags & 3];
    int pedantic = (flags & 0x04) != 0;

    ttc_glyph ref, sub;
    ttc_glyph_init(&ref);
    ttc_glyph_init(&sub);
    int ft_size_failed = ttc_ft_set_size(ft, &sz, mode, pedantic, errbuf, sizeof errbuf);
    (void)ft_size_failed; /* then every FreeType load fails: compared below */
    ttc_fv_set_size(fv, &sz, mode, pedantic, &err);
    uint32_t nglyphs = p.composite ? 2 : 1;
    for (uint32_t gid = 0; gid < nglyphs; gid++) {
        ttc_ft_load(ft, gid, &ref);
        ttc_fv_load(fv, gid, &sub);
        ttc_diff d;
        ttc_status st = ttc_compare(&ref, &sub, &d);
        if (ctx->log)
            fprintf(ctx->log, "glyph %u: %s\n", gid, ttc_status_name(st));
        if (st != TTC_IDENTICAL && st != TTC_ERROR_BOTH) {
            report(&p, &sz, mode, pedantic, gid, &ref, &sub, &d, fv);
            fvfuzz_fail("tt_diff", "%s at glyph %u (report above)", ttc_status_name(st), gid);
        }
    }
    if (ctx->tt_opcodes) {
        const uint64_t *c = ttc_fv_opcode_counts(fv);
        for (int k = 0; c && k < 256; k++)
            ctx->tt_opcodes[k] += c[k];
    }
    ttc_glyph_free(&ref);
    ttc_glyph_free(&sub);
    ttc_fv_close(fv);
    ttc_ft_close(ft);
    free(font_data);
    return 0;
}

FVFUZZ_TARGET(tt_diff, TT_DIFF_MAX_INPUT, run)
FVFUZZ_CODE_MUTATOR(tt_diff)
