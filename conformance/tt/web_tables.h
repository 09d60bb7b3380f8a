/* A web font's decoded tables against the sfnt it was made from
 * (fvconform-tt --original; scripts/conform --web).
 *
 * fontvm decodes a WOFF or WOFF2 into sfnt bytes when it opens it
 * (vm/sfnt/woff.c, woff2.c).  Each of the original face's tables must come
 * back: byte for byte, except
 *  - head's checkSumAdjustment (bytes 8-11), which encoders rewrite, and
 *    its flags bit 11 ("font data transformed"), which WOFF2 encoders set;
 *  - a WOFF2's glyf and loca, whose re-encoding the specification leaves
 *    to the decoder (padding, flag packing, short or long loca): compared
 *    glyph by glyph (contours, points, on-curve flags, bbox, components,
 *    instructions) through vm/sfnt's glyph parser;
 *  - DSIG, which WOFF2 encoders drop (a signature over bytes the
 *    transforms change).
 * Every glyph's advance and left side bearing (hmtx, or a WOFF2's
 * transformed hmtx) is compared too. */
#ifndef FVCONFORM_WEB_TABLES_H
#define FVCONFORM_WEB_TABLES_H

#include <stddef.h>
#include <stdint.h>

typedef struct ttw_result {
    uint32_t tables;     /* the original face's tables compared */
    uint32_t identical;  /* of them, equal (as above) */
    uint32_t glyphs;     /* glyphs compared (outline and metrics) */
    uint32_t glyphs_identical;
    char first[256];     /* the first difference in words, or "" */
} ttw_result;

/* Compares face `face` of the web font `web` with face `face` of
 * `original`.  0: compared (r says what differs); -1: one of them could
 * not be opened (r->first says why). */
int ttw_compare(const char *original, const char *web, uint32_t face, ttw_result *r);

#endif
