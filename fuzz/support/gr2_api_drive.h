/* Drives fontvm's graphite2 API (compat/graphite2, the fvg2_* names of
 * fontvm_graphite2_fvg2) as HarfBuzz 6.0.0's graphite2 shaper does: a face
 * from a table callback over the font's bytes, the language's feature
 * values with one feature set by id through gr_face_find_fref, a segment of
 * UTF-32 text, the slot walk and the char infos; the answers go into a
 * grc_run, as the conformance library reads the real graphite2.  For the
 * fuzz targets gr2_api and gr2_api_diff. */
#ifndef FVFUZZ_GR2_API_DRIVE_H
#define FVFUZZ_GR2_API_DRIVE_H

#include <stddef.h>
#include <stdint.h>

#include "gr_compare.h"

/* What else the drive does, beyond HarfBuzz's calls (gr2_api's trailer). */
enum {
    FVFUZZ_GR2_FONT = 1,        /* a 12 ppm font with an advance callback for the segment */
    FVFUZZ_GR2_JUSTIFY = 2,     /* gr_seg_justify to 80..207% after the walk */
    FVFUZZ_GR2_ATTRS = 4,       /* every gr_attrCode of every slot, labels, languages */
    FVFUZZ_GR2_FACE_FIRST = 8,  /* destroy the face before the segment and font */
    FVFUZZ_GR2_FILE_FACE = 16,  /* unused by the targets (needs a file) */
    FVFUZZ_GR2_UTF8 = 32        /* hand the text over as UTF-8 */
};

/* Returns 0 when the drop-in made no face (out->ok 0, error "face"), 1
 * otherwise; out->ok says whether a segment was made.  *checksum sums every
 * answer the extras read (so that they are not optimised away). */
int fvfuzz_gr2_api_drive(const uint8_t *font, size_t len, const grc_request *req, unsigned extras,
                         unsigned justify_percent, grc_run *out, double *checksum);

#endif
