/* The objects behind the public handles: face, size. */
#ifndef FV_TT_OBJECTS_H
#define FV_TT_OBJECTS_H

#include "sfnt/font.h"
#include "sfnt/sfnt.h"
#include "tt/exec.h"
#include "tt/interp.h"

struct fv_tt_face {
    fv_font *font;
    const sfnt_font *sf;
    const sfnt_var *var;      /* the font's variations, NULL when static */
    fv_mem *mem;
    int hinted;
    int scalable;           /* 0: bitmap strikes only (see sfnt_find_strikes) */
    const char *not_scalable_why; /* a static string, for not_scalable errors */
    int has_os2;
    int16_t typo_ascender, typo_descender;
    int fixed_pitch;          /* post.isFixedPitch */
    fv_span hdmx;             /* empty when absent or invalid */
    uint32_t hdmx_records, hdmx_record_size;
};

struct fv_tt_size {
    fv_tt_face *face;
    fv_tt_size_request req;
    tt_modeflags mode;
    tt_metrics m;
    tt_defs defs;
    int64_t *cvt;
    uint32_t cvt_size;
    int64_t *storage;
    uint32_t storage_size;
    tt_zone twilight;
    tt_gs gs;                 /* the graphics state prep left */
    /* The super-round parameters prep left (FreeType keeps them in the
     * size's execution context, outside the graphics state). */
    int64_t period, phase, threshold;
    /* The value stack and the last instruction's new stack top, which
     * live in FreeType's per-size execution context and so persist from
     * fpgm through prep to every glyph program (tt_execute: what
     * GETVARIATION and GETDATA expose of them). */
    int64_t *stack;
    uint32_t stack_size;
    uint32_t new_top;
    /* The location (normalized, one per axis of face->var) and whether
     * there is one (variation.c: FreeType's variation path even at 0). */
    int32_t *coords;
    int varied;
    int32_t *cvt_units;       /* the CVT with cvar's deltas (26.6 font units), or NULL */
    fv_status ready;          /* fpgm/prep outcome */
    fv_error ready_err;
};

/* Fills the parts of a context shared by all programs of a size. */
void tt_ctx_init(tt_ctx *c, fv_tt_size *size, fv_tt_exec *ex, fv_error *err);

#endif
