/* `fontvm info`: the text printer lives in cmd_info.c, the JSON one in
 * info_json.c; both take the hinting summary counted once. */
#ifndef FV_CLI_INFO_H
#define FV_CLI_INFO_H

#include <stddef.h>
#include <stdint.h>

#include "fontvm/fontvm.h"

typedef struct info_hinting {
    int hinted;                   /* fpgm, prep or any glyph program */
    uint32_t glyph_programs;      /* glyphs carrying instructions */
    uint64_t glyph_program_bytes;
} info_hinting;

/* Feat feature flag: a hidden feature (an alias); gr2fonttest omits it. */
#define INFO_FEAT_HIDDEN 0x0800u

int info_print_json(fv_font *font, const char *path, const info_hinting *h);
/* gr2fonttest's listing for a font given no text ("N features", each
 * feature with its settings, "Feature Languages:"), byte for byte. */
int info_print_graphite(fv_font *font);

#endif
