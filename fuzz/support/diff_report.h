/* The readable reports of the differential targets (tt_diff, tt_font_diff,
 * gr_diff, gr_font_diff, gr_text_diff): each engine's result around the
 * first difference, on stderr before the target aborts.  Built only with
 * the targets that link the conformance libraries (fuzz/CMakeLists.txt,
 * FVFUZZ_EXTRA_SOURCES_<t>). */
#ifndef FVFUZZ_DIFF_REPORT_H
#define FVFUZZ_DIFF_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef FVFUZZ_DIFF_REPORT_TT
#include "fuzz.h"
#include "tt_compare.h"
/* Both engines' glyph gid around the difference d: the first differing
 * point, each engine's error or counts, advance and five points around it,
 * and the instruction fontvm last moved that point with. */
void fvfuzz_report_tt_case(ttc_fv *fv, uint32_t gid, const ttc_glyph *ref, const ttc_glyph *sub,
                           const ttc_diff *d);
/* Adds fontvm's opcode counts to ctx->tt_opcodes when the replay tool
 * asks for them (--opcodes). */
void fvfuzz_tt_add_opcodes(const fvfuzz_ctx *ctx, const ttc_fv *fv);
#endif

#ifdef FVFUZZ_DIFF_REPORT_GR
#include "fuzz.h"
#include "gr_compare.h"
/* One engine's segment: its error, or everything grc_compare_gr compares
 * (advance, each slot's gid, origin, char range and attachment, the char
 * table), the first 16 slots and chars. */
void fvfuzz_report_gr_run(const char *who, const grc_run *r);

/* One font in both Graphite engines: graphite2's face (grc_gr2) and
 * fontvm's font and face, each NULL with the reason in *_error when that
 * engine refused the font. */
typedef struct fvfuzz_gr_pair {
    grc_gr2 *gr2;
    fv_font *font;
    fv_gr_face *face;
    char gr2_error[GRC_ERROR_MAX], fv_error[GRC_ERROR_MAX];
} fvfuzz_gr_pair;

/* Opens `font` (kept alive by the caller) in both engines; fontvm's face
 * gets the replay tool's trace when ctx asks for it. */
void fvfuzz_gr_pair_open(fvfuzz_gr_pair *p, const fvfuzz_ctx *ctx, const uint8_t *font, size_t len);
void fvfuzz_gr_pair_close(fvfuzz_gr_pair *p);
/* Shapes req in both (a refused face is a failed run with its reason) and
 * compares; a difference other than a hardening limit or both failing is
 * reported (`what`: the target's one-line description of the request,
 * printed first) and aborts the run as target `target`. */
void fvfuzz_gr_compare(const fvfuzz_gr_pair *p, const grc_request *req, const char *target,
                       const char *what, FILE *log);
#endif

#endif
