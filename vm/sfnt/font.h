/* The fv_font object behind the public handle. Internal. */
#ifndef FV_SFNT_FONT_H
#define FV_SFNT_FONT_H

#include "common/mem.h"
#include "fontvm/fontvm.h"
#include "sfnt/sfnt.h"
#include "sfnt/var.h"

struct fv_font {
    fv_mem mem;          /* accountant for everything this font owns */
    uint8_t *owned_data; /* file bytes when opened from a path, else NULL */
    size_t owned_size;
    sfnt_font *sfnt;
    /* Variations (vm/sfnt/font_var.c): NULL for a static font, or when
     * fvar or gvar could not be read (var_err says why; the font is then
     * used at its default instance, as FreeType does). */
    sfnt_var *var;
    fv_error var_err;
};

/* Reads the variation tables of a freshly opened font into f->var. */
void fv_font_open_variations(fv_font *f);

/* Internal accessors for the engines built on a font. */
static inline const sfnt_font *fv_font_sfnt(const fv_font *f) { return f->sfnt; }
static inline fv_mem *fv_font_mem(fv_font *f) { return &f->mem; }

#endif
