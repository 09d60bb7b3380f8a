/* TrueType differential comparison: FreeType (the reference) and fontvm,
 * loading the same glyph at the same size and mode, and a point-by-point
 * comparison of the results.
 *
 * Shared by the runner (fvconform-tt), the ctest sample (tests/tt) and the
 * differential fuzzer (fuzz/tt_diff.c), so every one of them compares in the
 * same way.  The FreeType side lives in freetype_backend.c, the fontvm side in
 * fontvm_backend.c, the comparison in tt_compare.c.
 *
 * What "identical" means (issue 3): both engines load the glyph, and the
 * hinted outline points (26.6, phantom points excluded), the on-curve flags,
 * the contour end indices and glyph->advance.x are equal; or both fail. */
#ifndef FV_CONFORMANCE_TT_COMPARE_H
#define FV_CONFORMANCE_TT_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "fontvm/tt.h"

/* ---- sizes --------------------------------------------------------------- */

/* A character size as FT_Set_Char_Size(face, x, y, 72, 72) takes it. */
typedef struct ttc_size {
    int32_t x_26d6, y_26d6;
    char label[32]; /* as written by the user: "12", "10.5", "12x16" */
} ttc_size;

/* Parses "12", "10.5", "12x16" or "10.5x12" (ppem at 72 dpi; fractions are
 * rounded to the nearest 1/64).  Returns 0 on success, -1 on bad input
 * (empty, negative, zero, above 16384 ppem, trailing garbage). */
int ttc_size_parse(const char *text, ttc_size *out);

/* ---- one loaded glyph (either engine) ------------------------------------ */

typedef struct ttc_glyph {
    int loaded;            /* 1: outline below is valid; 0: `error` says why */
    char error[160];       /* engine's error text when !loaded */
    int hardening_limit;   /* !loaded because fontvm's work budget stopped it
                            * (a budget_* error, vm/common/budget.h) */
    uint32_t num_points, num_contours;
    int32_t *x, *y;        /* 26.6 */
    uint8_t *on_curve;     /* 1 when on curve */
    uint32_t *contour_ends;
    int32_t advance_x;     /* 26.6, as FreeType's glyph->advance.x */
    /* capacities of the buffers above (grown on demand, reused) */
    uint32_t cap_points, cap_contours;
} ttc_glyph;

void ttc_glyph_init(ttc_glyph *g);
void ttc_glyph_free(ttc_glyph *g);
/* Empties g and makes room for the given counts; -1 when out of memory. */
int ttc_glyph_reset(ttc_glyph *g, uint32_t num_points, uint32_t num_contours);
void ttc_glyph_fail(ttc_glyph *g, const char *error);

/* ---- the reference: FreeType --------------------------------------------- */

typedef struct ttc_ft ttc_ft;

/* Opens the font with FreeType.  One FT_Library (and FT_Face) per
 * interpreter version is made on first use, so a runner reuses faces across
 * sizes; each size configuration gets a fresh FT_Size.  `data` variants keep
 * a pointer to the bytes, which must outlive the object.  Returns 0, or -1
 * with a message in errbuf. */
int ttc_ft_open_file(const char *path, uint32_t face_index, ttc_ft **out, char *errbuf,
                     size_t errsize);
int ttc_ft_open_memory(const uint8_t *data, size_t size, uint32_t face_index, ttc_ft **out,
                       char *errbuf, size_t errsize);
void ttc_ft_close(ttc_ft *ft);

uint32_t ttc_ft_num_glyphs(const ttc_ft *ft);
uint32_t ttc_ft_units_per_em(const ttc_ft *ft);
/* "Liberation Sans Regular" (family and style as FreeType reports them). */
const char *ttc_ft_font_name(const ttc_ft *ft);
/* Glyph name from post/CFF via FT_Get_Glyph_Name; "" when the font has none. */
void ttc_ft_glyph_name(const ttc_ft *ft, uint32_t gid, char *buf, size_t size);
/* "2.12.1", the library actually linked. */
void ttc_ft_version(char *buf, size_t size);

/* Makes a fresh FT_Size for this configuration (the previous one is freed).
 * Returns 0, or -1 with a message in errbuf (then every load fails). */
int ttc_ft_set_size(ttc_ft *ft, const ttc_size *size, fv_tt_mode mode, int pedantic,
                    char *errbuf, size_t errsize);
/* A variable font's location for the following ttc_ft_set_size calls: n
 * normalized 16.16 coordinates as FT_Set_Var_Blend_Coordinates takes them
 * (axes beyond n at 0); n = 0 is the default instance.  Returns 0, or -1
 * with a message in errbuf (more than TTC_MAX_AXES coordinates). */
#define TTC_MAX_AXES 64
int ttc_ft_set_location(ttc_ft *ft, const int32_t *coords, uint32_t n, char *errbuf,
                        size_t errsize);
/* The same with n design coordinates (16.16 axis units, every axis), set
 * with FT_Set_Var_Design_Coordinates: FreeType clamps, normalizes and maps
 * them through avar itself. */
int ttc_ft_set_design_location(ttc_ft *ft, const int32_t *design, uint32_t n, char *errbuf,
                               size_t errsize);
/* Named instance `number` (1-based) for the following ttc_ft_set_size
 * calls, set with FT_Set_Named_Instance. */
void ttc_ft_set_named_instance(ttc_ft *ft, uint32_t number);
/* The normalized coordinates FreeType holds after the last successful
 * ttc_ft_set_size (FT_Get_Var_Blend_Coordinates), n of them.  Returns 0,
 * or -1 when there is no size or FreeType has no variation state. */
int ttc_ft_blend_coords(const ttc_ft *ft, int32_t *out, uint32_t n);
/* FT_Load_Glyph(gid, FT_LOAD_NO_AUTOHINT | FT_LOAD_NO_BITMAP | target
 * [| FT_LOAD_PEDANTIC]) and copies the outline and advance. */
void ttc_ft_load(ttc_ft *ft, uint32_t gid, ttc_glyph *out);

/* ---- the subject: fontvm ------------------------------------------------- */

typedef struct ttc_fv ttc_fv;

int ttc_fv_open_file(const char *path, uint32_t face_index, ttc_fv **out, fv_error *err);
int ttc_fv_open_memory(const uint8_t *data, size_t size, uint32_t face_index, ttc_fv **out,
                       fv_error *err);
void ttc_fv_close(ttc_fv *fv);
fv_font *ttc_fv_font(ttc_fv *fv);

/* Creates the fv_tt_size for this configuration (prep runs).  A prep
 * failure is not an error here: like FreeType, it makes every load fail. */
int ttc_fv_set_size(ttc_fv *fv, const ttc_size *size, fv_tt_mode mode, int pedantic,
                    fv_error *err);
void ttc_fv_load(ttc_fv *fv, uint32_t gid, ttc_glyph *out);
/* Why the face (fv_tt_face / fv_tt_exec) or the last size could not be
 * made; NULL when it was. */
const char *ttc_fv_face_error(const ttc_fv *fv);
const char *ttc_fv_size_error(const ttc_fv *fv);
/* The location for the following ttc_fv_set_size calls, as
 * ttc_ft_set_location takes it.  Returns 0, or -1 (too many axes). */
int ttc_fv_set_location(ttc_fv *fv, const int32_t *coords, uint32_t n);
/* Executed-instruction counts (256) of the comparison loads so far (the
 * culprit re-runs below are not counted). */
const uint64_t *ttc_fv_opcode_counts(const ttc_fv *fv);
/* The faults FreeType tolerates, counted since the last ttc_fv_set_size
 * (tt_lint.h; the culprit re-runs are not counted). */
struct ttl_state;
const struct ttl_state *ttc_fv_lint(const ttc_fv *fv);

/* The last instruction that moved outline point `point` of glyph `gid`
 * when fontvm hints it again, with a trace, at the current size. */
typedef struct ttc_culprit {
    int found;
    fv_program program;
    uint32_t glyph;        /* glyph whose program ran it (a component's) */
    uint32_t pc;
    char mnemonic[32];
} ttc_culprit;
void ttc_fv_culprit(ttc_fv *fv, uint32_t gid, uint32_t point, ttc_culprit *out);

/* ---- the comparison ------------------------------------------------------ */

typedef enum ttc_status {
    TTC_IDENTICAL = 0,
    TTC_DIFFERENT,
    TTC_ERROR_FONTVM_ONLY,
    TTC_ERROR_REF_ONLY,
    TTC_ERROR_BOTH,
    /* fontvm stopped at a work budget (budget_* error) where FreeType
     * loaded the glyph: a hardening limit, not a conformance failure. */
    TTC_HARDENING_LIMIT,
    TTC_STATUS_COUNT
} ttc_status;

/* "identical", "different", "error_fontvm_only", ... (RECORDS.md names). */
const char *ttc_status_name(ttc_status s);

typedef struct ttc_diff {
    ttc_status status;
    /* For TTC_DIFFERENT: the first point whose x or y differs, or -1 when
     * only the advance, the point/contour counts, the contour ends or the
     * on-curve flags differ. */
    int32_t point;
    int32_t ref_xy[2], fontvm_xy[2];
} ttc_diff;

ttc_status ttc_compare(const ttc_glyph *ref, const ttc_glyph *fontvm, ttc_diff *out);

#endif
