/* The fv_font object behind the public handle. Internal. */
#ifndef FV_SFNT_FONT_H
#define FV_SFNT_FONT_H

#include "common/mem.h"
#include "fontvm/fontvm.h"
#include "sfnt/sfnt.h"

struct fv_font {
    fv_mem mem;          /* accountant for everything this font owns */
    uint8_t *owned_data; /* file bytes when opened from a path, else NULL */
    size_t owned_size;
    sfnt_font *sfnt;
};

/* Internal accessors for the engines built on a font. */
static inline const sfnt_font *fv_font_sfnt(const fv_font *f) { return f->sfnt; }
static inline fv_mem *fv_font_mem(fv_font *f) { return &f->mem; }

#endif
