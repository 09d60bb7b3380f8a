/* fontvm — public API entry point: fonts.
 *
 * An fv_font is one face of an sfnt font file (or collection), parsed with
 * strict bounds checks.  The TrueType hinter (fontvm/tt.h) and the Graphite
 * engine (fontvm/graphite.h) are built on top of it.  There is no global
 * state: every object is independent and may be used from its own thread. */
#ifndef FONTVM_FONTVM_H
#define FONTVM_FONTVM_H

#include <stddef.h>
#include <stdint.h>

#include "fontvm/alloc.h"
#include "fontvm/api.h"
#include "fontvm/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FONTVM_VERSION_STRING "0.1.0"

typedef struct fv_font fv_font;

/* Opens face `face_index` of font bytes the caller keeps alive until
 * fv_font_close.  `alloc` may be NULL (malloc, default cap). */
FV_API fv_status fv_font_open_memory(const uint8_t *data, size_t size, uint32_t face_index,
                                     const fv_allocator *alloc, fv_font **out, fv_error *err);
/* Both accept WOFF 1.0 and WOFF 2.0 files too (WOFF2 collections
 * included): they are decoded into sfnt bytes the font owns, counted
 * against the cap, before parsing; a bad container fails with a woff_*
 * error (errors/woff.def). */
/* Reads the file (into memory counted against the cap) and opens it. */
FV_API fv_status fv_font_open_file(const char *path, uint32_t face_index,
                                   const fv_allocator *alloc, fv_font **out, fv_error *err);
FV_API void fv_font_close(fv_font *font);

/* Number of faces in a font file's bytes (1 for a plain sfnt or a WOFF;
 * a WOFF2 collection's count is read from its directory). */
FV_API fv_status fv_font_count_faces(const uint8_t *data, size_t size, uint32_t *count,
                                     fv_error *err);

/* The sfnt bytes the font was parsed from: the caller's bytes or file, or
 * what a WOFF/WOFF2 file decoded to (for handing the same font to another
 * engine).  Valid until fv_font_close. */
FV_API void fv_font_sfnt_data(const fv_font *font, const uint8_t **data, size_t *size);

FV_API uint32_t fv_font_glyph_count(const fv_font *font);
FV_API uint16_t fv_font_units_per_em(const fv_font *font);
FV_API const char *fv_font_family(const fv_font *font);
FV_API const char *fv_font_style(const fv_font *font);
/* Peak bytes allocated for this font so far (parsed tables and state). */
FV_API size_t fv_font_peak_memory(const fv_font *font);
/* Bytes allocated for this font now (everything made from it, until freed). */
FV_API size_t fv_font_memory_in_use(const fv_font *font);

FV_API const char *fv_version(void);

#ifdef __cplusplus
}
#endif
#endif
