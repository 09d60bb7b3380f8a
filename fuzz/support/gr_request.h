/* The shaping request of gr_font's trailer, read the same way by every
 * target of that layout (gr2_api, gr2_api_diff, gr_font_diff):
 *   [3]    bit 0 right-to-left, bit 1 language 'ENG ', bit 2 a feature
 *   [4..5] feature id   [6..7] feature value (signed) */
#ifndef FVFUZZ_GR_REQUEST_H
#define FVFUZZ_GR_REQUEST_H

#include <string.h>

#include "fuzz.h"
#include "gr_compare.h"

/* The request for text[0..n) (kept by it, as *feats, which it fills). */
static inline grc_request fvfuzz_gr_request(const fvfuzz_input *in, const uint32_t *text, size_t n,
                                            grc_features *feats)
{
    uint8_t flags = fvfuzz_u8(in, 3);
    memset(feats, 0, sizeof *feats);
    if (flags & 4) {
        feats->f[0].id = fvfuzz_u16(in, 4);
        feats->f[0].value = (int16_t)fvfuzz_u16(in, 6);
        feats->n = 1;
    }
    feats->lang = (flags & 2) ? 0x454E4720u /* 'ENG ', as gr_font */ : 0u;
    grc_request req = {text, n, feats, flags & 1};
    return req;
}

#endif
