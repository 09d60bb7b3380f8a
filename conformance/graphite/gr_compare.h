/* Graphite differential comparison: one shaping request, run by graphite2,
 * by HarfBuzz's graphite2 shaper and by fontvm, reduced to plain structures
 * that can be compared and written as records (conformance/RECORDS.md).
 *
 * Library `fvconform_gr_lib` (used by fvconform-gr and the gr_diff fuzz
 * target).  The reference side (grc_gr2_*, grc_hb_*) needs only graphite2
 * and HarfBuzz; the fontvm side is grc_fv_*.  The inputs, grc_fv_shape and
 * grc_derive_hb need no reference library (`fvconform_gr_core`, which
 * `fontvm shape` links too).  Positions are font units:
 * graphite2 is called with a NULL font, HarfBuzz with its scale set to the
 * font's unitsPerEm. */
#ifndef FVCONFORM_GR_COMPARE_H
#define FVCONFORM_GR_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "fontvm/graphite.h"

#define GRC_ERROR_MAX 200

typedef struct grc_feature {
    uint32_t id;        /* feature id: a tag packed big-endian, or a number */
    int32_t value;
} grc_feature;

/* Parsed "--features id=value,..." plus the language. */
#define GRC_MAX_FEATURES 64
typedef struct grc_features {
    grc_feature f[GRC_MAX_FEATURES];
    size_t n;
    uint32_t lang;      /* "lang=xx" inside the list, or --lang; 0 if none */
} grc_features;

typedef struct grc_request {
    const uint32_t *text;
    size_t length;
    const grc_features *features;
    int rtl;
} grc_request;

/* One output slot in graphite2's terms. */
typedef struct grc_glyph {
    uint32_t gid;
    double x, y;                /* origin, font units */
    int32_t attached_to;        /* slot index of the parent, -1 if none */
    int32_t attach_x, attach_y; /* gr_slatAttX / gr_slatAttY */
    int32_t insert;             /* gr_slatInsert */
    int32_t break_weight;       /* gr_slatBreak */
    int32_t before, after;      /* char indexes */
    double advance_y;           /* the slot's own vertical advance
                                 * (gr_slot_advance_Y), font units */
    /* fontvm only (the "culprit" of a difference): the pass and rule that
     * last changed the slot, -1 if none or unknown (graphite2). */
    int32_t last_pass, last_rule;
} grc_glyph;

typedef struct grc_char {
    uint32_t unicode;
    int32_t before, after;      /* slot indexes */
    int32_t base;
} grc_char;

/* A segment (or the failure to make one). */
typedef struct grc_run {
    int ok;
    char error[GRC_ERROR_MAX];
    int hardening_limit;        /* failed with a budget_* error (fontvm only) */
    size_t num_glyphs;
    grc_glyph *glyphs;
    double advance_x, advance_y;
    size_t num_chars;
    grc_char *chars;
    /* attach_x/attach_y/insert are known (graphite2 yes; fontvm only where
     * its slot info carries them). */
    int has_attach_offsets;
} grc_run;

/* One glyph of a HarfBuzz buffer after shaping. */
typedef struct grc_hb_glyph {
    uint32_t gid;
    uint32_t cluster;
    int32_t x_advance, y_advance;
    int32_t x_offset, y_offset;
    /* Derived buffers (grc_derive_hb): index of the segment slot the glyph
     * came from; -1 in HarfBuzz's own buffers. */
    int32_t slot;
} grc_hb_glyph;

typedef struct grc_hb_run {
    int ok;
    char error[GRC_ERROR_MAX];
    int hardening_limit;        /* as grc_run's */
    size_t num_glyphs;
    grc_hb_glyph *glyphs;
} grc_hb_run;

void grc_run_free(grc_run *r);
void grc_hb_run_free(grc_hb_run *r);

/* ---- inputs ---- */

/* "kdot" -> tag, "210" -> 210.  graphite2's packing: the characters given,
 * left-aligned, NUL padded (gr_str_to_tag).  0 on success. */
int grc_parse_tag(const char *s, size_t len, uint32_t *out);
/* "kdot=1,wtri=1,lang=vie" (empty or NULL is fine).  0 on success, else -1
 * with a message in msg. */
int grc_parse_features(const char *spec, grc_features *out, char *msg, size_t msg_size);
/* Canonical text of a feature list for records ("kdot=1,lang=vie"). */
void grc_format_features(const grc_features *f, char *buf, size_t size);
/* Decodes one line of UTF-8 (a leading BOM is kept, as graphite2's own
 * cmptest keeps it).  Invalid bytes become U+FFFD.  Returns the number of
 * code points written (at most cap). */
size_t grc_utf8_decode(const char *s, size_t len, uint32_t *out, size_t cap);

/* ---- graphite2 ---- */
typedef struct grc_gr2 grc_gr2;
/* Opens face 0 of the font bytes (kept alive by the caller).  NULL if
 * graphite2 refuses the font; the reason goes to err. */
grc_gr2 *grc_gr2_open(const uint8_t *data, size_t size, char *err, size_t err_size);
void grc_gr2_close(grc_gr2 *g);
uint16_t grc_gr2_upem(const grc_gr2 *g);
int grc_gr2_shape(grc_gr2 *g, const grc_request *req, grc_run *out);
/* 1 when gr_face_find_fref finds feature `id` itself: graphite2 1.3.14
 * may resolve an id of a Feat not sorted by id to another feature (KD-2,
 * conformance/known.toml), or to none. */
int grc_gr2_finds_feature(const grc_gr2 *g, uint32_t id);

/* ---- HarfBuzz, graphite2 shaper only ---- */
typedef struct grc_hb grc_hb;
grc_hb *grc_hb_open(const uint8_t *data, size_t size, char *err, size_t err_size);
void grc_hb_close(grc_hb *h);
int grc_hb_shape(grc_hb *h, const grc_request *req, grc_hb_run *out);

/* HarfBuzz's graphite2 shaper turns graphite2's slots into a buffer of
 * glyphs with clusters, advances and offsets.  This is the same derivation
 * applied to any graphite2-shaped run (fontvm's, or graphite2's own to
 * check the derivation), for a font with `upem` units per em. */
int grc_derive_hb(const grc_run *run, const grc_request *req, grc_hb_run *out);

/* ---- fontvm ---- */
int grc_fv_shape(fv_gr_face *face, const grc_request *req, grc_run *out);
/* The same, then justified to `justify_percent` of the natural width as
 * gr2fonttest -j does (0: not justified).  attach_x/attach_y are filled
 * (has_attach_offsets stays 0: the comparison does not use them). */
int grc_fv_shape_justified(fv_gr_face *face, const grc_request *req, float justify_percent,
                           grc_run *out);
/* `req` shaped by graphite2 and by fontvm: 0 with both runs filled (the
 * caller frees both), -1 when either engine could not be asked (nothing
 * to free).  A failed segment is a filled run with ok = 0. */
int grc_shape_both(grc_gr2 *g, fv_gr_face *face, const grc_request *req, grc_run *ref,
                   grc_run *fv);
/* The bytes of table `tag` (*len set) of `file` as the runner hands
 * tables to graphite2, or NULL (*len 0): face 0 of a collection, tables
 * only from a sfnt version FreeType (and so fontvm) reads (1.0, 2.0,
 * 'true', 'OTTO', 'typ1', A5kbd, A5lst), the first record of the tag, its
 * bytes inside the file.  graphite2 itself asks its table callback without
 * looking at the version; HarfBuzz's callback, like FreeType, answers for
 * known versions only.  gr2_api_diff hands the drop-in the same lookup
 * (fuzz/FINDINGS.md F-34, F-38). */
const uint8_t *grc_sfnt_table(const uint8_t *file, size_t size, uint32_t tag, size_t *len);
/* 1 when both runs succeeded with the same glyphs at the same origins
 * (within 1/64 unit, the runner's tolerance). */
int grc_same_positions(const grc_run *ref, const grc_run *fv);

/* ---- comparison ---- */
typedef enum grc_status {
    GRC_IDENTICAL = 0,
    GRC_DIFFERENT,
    GRC_ERROR_FONTVM_ONLY,
    GRC_ERROR_REF_ONLY,
    GRC_ERROR_BOTH,
    /* fontvm stopped at one of its work budgets (a budget_* error) where
     * the reference shaped: a limit fontvm sets on purpose (RECORDS.md) */
    GRC_HARDENING_LIMIT
} grc_status;

const char *grc_status_name(grc_status s);

/* Origins are equal when they differ by at most 1/64 font unit. */
#define GRC_POS_TOLERANCE (1.0 / 64.0)

typedef struct grc_diff {
    grc_status status;
    long slot;          /* first differing slot, -1 if only totals/chars */
    char what[64];      /* "gid", "position", "advance", "count", "chars", ... */
} grc_diff;

grc_diff grc_compare_gr(const grc_run *ref, const grc_run *fv);

/* The "culprit" of a difference at fontvm's slot `slot`: the pass and rule
 * that last changed it.  0 and -1/-1 when the slot does not exist or no
 * rule touched it (cmap glyph, bidi step); 1 when found. */
int grc_fv_culprit(const grc_run *fv, long slot, int32_t *pass, int32_t *rule);
grc_diff grc_compare_hb(const grc_hb_run *ref, const grc_hb_run *fv);

#endif
