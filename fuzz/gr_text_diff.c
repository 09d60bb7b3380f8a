/* Fuzz target `gr_text_diff` (differential, real fonts, fuzzed text): one
 * of a few real Graphite fonts embedded at configure time
 * (FVFUZZ_GR_TEXT_FONTS in fuzz/CMakeLists.txt: Padauk, Awami Nastaliq,
 * Scheherazade, Charis), chosen by the trailer, shapes the input's text
 * with features, language and direction from the trailer, in graphite2
 * 1.3.14 and in fontvm (conformance/graphite/gr_compare.h).  Any difference
 * in the segment decision, glyphs, positions, attachments or character
 * mapping aborts with a readable report.
 *
 * Input: [text: big-endian u16 units][8-byte trailer]
 *   unit U+E000..U+F8FF: the ((unit - 0xE000) mod n)th of the n code
 *         points the font maps (so mutations stay in the font's script);
 *         any other unit is that code point (spaces, joiners, marks,
 *         punctuation, other scripts, unmapped characters)
 *   [0]   font (mod FVFUZZ_GR_TEXT_FONT_COUNT; a font missing at configure
 *         time makes the input a no-op, so cases replay the same anywhere)
 *   [1]   bit 0 right-to-left; bits 1-2 what joins the repeats of [7]:
 *         U+0020, U+00A0, U+200C, nothing
 *   [2]   feature A: 0 none, else the ((b - 1) mod count)th of the font's
 *         Feat features; [3] its value: bit 7 clear, the (v mod count)th
 *         value Feat lists for it, else (int8_t) v
 *   [4,5] feature B, the same
 *   [6]   language: 0 none, else the ((b - 1) mod count)th of Sill's
 *   [7]   the text is repeated (b mod 4) + 1 times (multi-word lines),
 *         up to GR_TEXT_DIFF_MAX_CHARS characters
 *
 * The one target with state beyond a run: each embedded font's two faces
 * (and its list of mapped code points) are made on first use and kept for
 * the process, as an application keeps a face.  Making them took 15-70 ms
 * per input under ASan (Awami Nastaliq: 68 ms, more than shaping), and the
 * faces are only read while shaping (fontvm's op counters aside), so a
 * segment does not depend on the inputs before it; gr_font_diff tests
 * making faces. */
#include <stdlib.h>
#include <string.h>

#include "fontvm/fontvm.h"
#include "fuzz.h"
#include "graphite/grv.h"
#include "sfnt/sfnt.h"
#include "gr_text_fonts.h" /* generated: fvfuzz_gr_text_fonts[], FVFUZZ_GR_TEXT_FONT_COUNT */
#define FVFUZZ_DIFF_REPORT_GR 1
#include "support/diff_report.h"

#define GR_TEXT_DIFF_TRAILER 8
/* 100 characters is the segment the work budgets' time bound is stated
 * for (issue 14); a little more to pass it. */
#define GR_TEXT_DIFF_MAX_CHARS 128
#define GR_TEXT_DIFF_MAX_INPUT (2 * GR_TEXT_DIFF_MAX_CHARS + GR_TEXT_DIFF_TRAILER)
#define GR_TEXT_DIFF_PUA_FIRST 0xE000u
#define GR_TEXT_DIFF_PUA_LAST 0xF8FFu

/* The BMP code points the font maps, from fontvm's cmap (its one-walk
 * table when the face has it). */
static size_t mapped_code_points(const fv_gr_face *face, uint32_t *out)
{
    size_t n = 0;
    for (uint32_t cp = 0x20; cp <= 0xFFFF; cp++) {
        uint16_t g = (uint16_t)grv_cmap_lookup(face, cp);
        if (g != 0)
            out[n++] = cp;
    }
    return n;
}

static int32_t feature_value(const grv_feature *f, uint8_t sel)
{
    if (!(sel & 0x80) && f->num_settings > 0)
        return f->setting_values[sel % f->num_settings];
    return (int8_t)sel;
}

/* A feature graphite2 cannot be asked for by its id is left out: its
 * gr_face_find_fref resolves some ids of a Feat not sorted by id to
 * another feature (KD-2, a graphite2 bug in conformance/known.toml:
 * Charis' 1056 sets 1024), which fontvm does not copy. */
static void add_feature(const fvfuzz_gr_pair *pair, uint8_t which, uint8_t value,
                        grc_features *out)
{
    const fv_gr_face *face = pair->face;
    if (which == 0 || face->num_features == 0)
        return;
    const grv_feature *f = &face->features[(which - 1u) % face->num_features];
    if (!grc_gr2_finds_feature(pair->gr2, f->id))
        return;
    out->f[out->n].id = f->id;
    out->f[out->n].value = feature_value(f, value);
    out->n++;
}

typedef struct text_font {
    fvfuzz_gr_pair pair;
    uint32_t *cps; /* the code points the font maps */
    size_t ncps;
} text_font;

/* The faces of embedded font k, made on first use (see the top). */
static const text_font *text_font_get(const fvfuzz_ctx *ctx, size_t k)
{
    static text_font *made[FVFUZZ_GR_TEXT_FONT_COUNT];
    if (made[k] != NULL)
        return made[k];
    text_font *tf = calloc(1, sizeof *tf);
    uint32_t *cps = malloc(0x10000 * sizeof *cps);
    if (tf == NULL || cps == NULL)
        fvfuzz_fail("gr_text_diff", "out of memory for the embedded fonts' faces");
    fvfuzz_gr_pair_open(&tf->pair, ctx, fvfuzz_gr_text_fonts[k].data, fvfuzz_gr_text_fonts[k].len);
    if (tf->pair.gr2 == NULL || tf->pair.face == NULL)
        fvfuzz_fail("gr_text_diff", "embedded font %s refused: graphite2 %s, fontvm %s",
                    fvfuzz_gr_text_fonts[k].name, tf->pair.gr2 ? "ok" : tf->pair.gr2_error,
                    tf->pair.face ? "ok" : tf->pair.fv_error);
    tf->cps = cps;
    tf->ncps = mapped_code_points(tf->pair.face, cps);
    made[k] = tf;
    return tf;
}

static int run(const fvfuzz_ctx *ctx, const uint8_t *data, size_t size)
{
    fvfuzz_input in;
    fvfuzz_split(data, size, GR_TEXT_DIFF_TRAILER, &in);
    size_t which = fvfuzz_u8(&in, 0) % FVFUZZ_GR_TEXT_FONT_COUNT;
    if (fvfuzz_gr_text_fonts[which].data == NULL)
        return 0; /* not embedded in this build */
    const text_font *tf = text_font_get(ctx, which);
    const fvfuzz_gr_pair *p = &tf->pair;
    const uint32_t *cps = tf->cps;
    size_t ncps = tf->ncps;

    uint32_t word[GR_TEXT_DIFF_MAX_CHARS], text[GR_TEXT_DIFF_MAX_CHARS];
    size_t wlen = 0;
    for (size_t i = 0; 2 * i + 1 < in.payload_len && wlen < GR_TEXT_DIFF_MAX_CHARS; i++) {
        uint32_t u = (uint32_t)in.payload[2 * i] << 8 | in.payload[2 * i + 1];
        if (u >= GR_TEXT_DIFF_PUA_FIRST && u <= GR_TEXT_DIFF_PUA_LAST && ncps > 0)
            u = cps[(u - GR_TEXT_DIFF_PUA_FIRST) % ncps];
        word[wlen++] = u;
    }
    static const uint32_t joiners[4] = {0x20, 0xA0, 0x200C, 0};
    uint8_t flags = fvfuzz_u8(&in, 1);
    uint32_t joiner = joiners[(flags >> 1) & 3];
    size_t repeats = (size_t)(fvfuzz_u8(&in, 7) % 4) + 1, tlen = 0;
    for (size_t r = 0; r < repeats; r++) {
        if (r > 0 && joiner != 0 && tlen < GR_TEXT_DIFF_MAX_CHARS)
            text[tlen++] = joiner;
        for (size_t i = 0; i < wlen && tlen < GR_TEXT_DIFF_MAX_CHARS; i++)
            text[tlen++] = word[i];
    }

    grc_features feats;
    memset(&feats, 0, sizeof feats);
    add_feature(p, fvfuzz_u8(&in, 2), fvfuzz_u8(&in, 3), &feats);
    add_feature(p, fvfuzz_u8(&in, 4), fvfuzz_u8(&in, 5), &feats);
    uint8_t lang = fvfuzz_u8(&in, 6);
    if (lang != 0 && p->face->num_langs > 0)
        feats.lang = p->face->langs[(lang - 1u) % p->face->num_langs].tag;
    grc_request req = {text, tlen, &feats, flags & 1};
    char what[96];
    snprintf(what, sizeof what, "font %s", fvfuzz_gr_text_fonts[which].name);
    fvfuzz_gr_compare(p, &req, "gr_text_diff", what, ctx->log);
    return 0;
}

FVFUZZ_TARGET(gr_text_diff, GR_TEXT_DIFF_MAX_INPUT, run)
