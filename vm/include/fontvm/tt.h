/* fontvm — TrueType hinting (owned by vm/tt; see issue 3).
 *
 * Object model, as FreeType runs the programs:
 *   fv_tt_face  per font: runs fpgm once.
 *   fv_tt_size  per (face, x/y ppem, mode): scales the CVT, runs prep;
 *               holds the value stack, which FreeType keeps per size.
 *   fv_tt_exec  an execution context (glyph zones, scratch); one per thread.
 * An fpgm/prep failure is remembered and makes every hinted load of that
 * size fail, as in FreeType.  The owner of vm/tt may extend this header
 * (add fields/functions) but must keep what is here.
 *
 * Notes on the implementation (vm/tt):
 *  - Like FreeType, fontvm runs fpgm per fv_tt_size (FreeType's function
 *    table lives in the size); fv_tt_face_new only reads the font-level
 *    tables (OS/2, post, hdmx).
 *  - Errors from the interpreter name the program holding the faulting
 *    instruction and the glyph being hinted: an fpgm function called by
 *    glyph 36 fails as "fpgm[36]@223:RCVT: invalid cvt -3".
 *  - A glyph program may write the CVT and storage; those writes go to a
 *    copy that lasts for that program run (FreeType 2.11.1+), except WCVTF,
 *    which writes the size's CVT as FreeType 2.12.1 does (vm/tt/cvt.h);
 *    twilight points persist in the size across glyph loads as in FreeType.
 *  - Threads: one fv_tt_exec per thread; a size used by one thread at a
 *    time; several threads may hint one face (with their own sizes): the
 *    per-font memory accounting is atomic. */
#ifndef FONTVM_TT_H
#define FONTVM_TT_H

#include <stddef.h>
#include <stdint.h>

#include "fontvm/api.h"
#include "fontvm/error.h"
#include "fontvm/fontvm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fv_tt_mode {
    FV_TT_V35 = 0,      /* interpreter-version 35 */
    FV_TT_V40,          /* interpreter-version 40, normal target */
    FV_TT_V40_MONO,     /* v40, FT_LOAD_TARGET_MONO */
    FV_TT_V40_LCD       /* v40, FT_LOAD_TARGET_LCD */
} fv_tt_mode;

/* "v35", "v40", "v40-mono", "v40-lcd"; parse returns -1 if unknown. */
FV_API const char *fv_tt_mode_name(fv_tt_mode mode);
FV_API int fv_tt_mode_parse(const char *name, fv_tt_mode *mode);

typedef struct fv_tt_face fv_tt_face;
typedef struct fv_tt_size fv_tt_size;
typedef struct fv_tt_exec fv_tt_exec;

typedef struct fv_tt_size_request {
    /* Character size in 26.6 pixels per em at 72 dpi, as passed to
     * FT_Set_Char_Size(face, x, y, 72, 72): 12 ppem = 768, 10.5 = 672. */
    int32_t x_ppem_26d6, y_ppem_26d6;
    fv_tt_mode mode;
    int pedantic;       /* as FT_LOAD_PEDANTIC */
    /* A variable font's location: num_coords normalized coordinates in
     * 16.16 (fontvm/var.h makes them from design coordinates or named
     * instances), as FT_Set_Var_Blend_Coordinates takes them; axes beyond
     * num_coords are at 0.  NULL/0: the default instance as a fresh
     * FreeType face has it; any location (even all zeros) takes
     * FreeType's variation path, as after FT_Set_Var_*_Coordinates, which
     * can round the default instance differently.  Coordinates
     * outside [-1, 1], or any on a font without axes, are
     * FV_E_BAD_ARGUMENT. */
    const int32_t *coords;
    uint32_t num_coords;
} fv_tt_size_request;

/* A hinted outline in 26.6, phantom points excluded, as FreeType returns it
 * in glyph->outline after FT_Load_Glyph. */
typedef struct fv_tt_outline {
    uint32_t gid;
    uint32_t num_points;
    int32_t *x, *y;            /* 26.6 */
    uint8_t *tags;             /* bit 0: on curve */
    uint32_t num_contours;
    uint16_t *contour_ends;
    int32_t advance_x;         /* as glyph->advance.x (26.6) */
    int32_t lsb_x;             /* hinted pp1.x (26.6) */
} fv_tt_outline;

/* Trace hook: called after each executed instruction when set on an exec
 * context.  Used by `fontvm trace` and by the report's culprit search. */
typedef struct fv_tt_trace_event {
    fv_program program;
    uint32_t glyph;
    uint32_t pc;
    uint8_t opcode;
    const char *mnemonic;      /* e.g. "MIRP[01101]" */
    const int32_t *stack;      /* stack after the instruction, bottom first */
    uint32_t stack_depth;
    uint32_t stack_depth_before;
    /* points moved by this instruction (zone 1 = glyph, 0 = twilight) */
    uint32_t num_moved;
    const uint32_t *moved_points;
    const int32_t *moved_old_xy;   /* 2 per point */
    const int32_t *moved_new_xy;   /* 2 per point */
    const uint8_t *moved_zone;
} fv_tt_trace_event;
typedef void (*fv_tt_trace_fn)(void *user, const fv_tt_trace_event *ev);

/* Diagnostics hook: faults FreeType tolerates silently, reported as they
 * happen when set on an exec context (`fontvm lint`).  Off (NULL) costs
 * nothing on the paths that do not fault.  `where` names the instruction
 * (program, glyph, pc, opcode, opname) and, for the fault kinds, the kind
 * and the bad index or value. */
typedef enum fv_tt_diag_kind {
    /* The instruction did nothing (or read zeros) and the run went on, as
     * FreeType does unless pedantic: where->kind is the fault it ignored
     * (tt_invalid_cvt, tt_invalid_storage, tt_invalid_point,
     * tt_invalid_zone, tt_invalid_reference, tt_bad_argument,
     * tt_stack_underflow). */
    FV_TT_DIAG_IGNORED = 0,
    /* A glyph program stopped on a fault (where->kind); FreeType keeps the
     * partly hinted glyph and reports nothing. */
    FV_TT_DIAG_GLYPH_STOPPED,
    /* v40 backward compatibility dropped a y move after IUP[x] and IUP[y]
     * (or a DELTAP/SHPIX after them): the instruction cannot act.
     * where->kind is FV_OK, where->index the point. */
    FV_TT_DIAG_AFTER_IUP,
    /* A twilight point was read (a reference point, a point MD, GC, MDRP or
     * IP measures, or a line's end) before any instruction placed or moved
     * it since prep's reset, which puts every twilight point at (0,0):
     * FreeType reads the zeros.  A point UTP untouched counts as unset
     * again.  where->kind is FV_OK, where->index the point. */
    FV_TT_DIAG_TWILIGHT_UNSET
} fv_tt_diag_kind;
typedef void (*fv_tt_diag_fn)(void *user, fv_tt_diag_kind what, const fv_error *where);

FV_API fv_status fv_tt_face_new(fv_font *font, fv_tt_face **out, fv_error *err);
FV_API void fv_tt_face_free(fv_tt_face *face);
/* Whether the font carries TrueType hinting (any of fpgm/prep/glyph code). */
FV_API int fv_tt_face_is_hinted(const fv_tt_face *face);

FV_API fv_status fv_tt_exec_new(fv_tt_face *face, fv_tt_exec **out, fv_error *err);
FV_API void fv_tt_exec_free(fv_tt_exec *exec);
FV_API void fv_tt_exec_set_trace(fv_tt_exec *exec, fv_tt_trace_fn fn, void *user);
FV_API void fv_tt_exec_set_diagnostics(fv_tt_exec *exec, fv_tt_diag_fn fn, void *user);
/* Per-opcode execution counts (256 entries) since creation; for coverage. */
FV_API const uint64_t *fv_tt_exec_opcode_counts(const fv_tt_exec *exec);
/* Work done with this context, in the steps of vm/common/budget.h (every
 * instruction, skipped byte and looped unit of work): by the last glyph
 * load (all its components), and the most by any one fpgm or prep run
 * since the context was made.  For measuring a font against the budgets. */
FV_API uint64_t fv_tt_exec_last_load_steps(const fv_tt_exec *exec);
FV_API uint64_t fv_tt_exec_max_run_steps(const fv_tt_exec *exec);

/* Creates a size and runs prep in `exec`.  Returns FV_OK even when prep
 * fails; that error is kept and returned by every hinted load. */
FV_API fv_status fv_tt_size_new(fv_tt_face *face, fv_tt_exec *exec, const fv_tt_size_request *req,
                                fv_tt_size **out, fv_error *err);
FV_API void fv_tt_size_free(fv_tt_size *size);

/* Loads and hints glyph `gid` (the glyph program, components, phantom
 * points), as FT_Load_Glyph(FT_LOAD_NO_AUTOHINT | FT_LOAD_NO_BITMAP [|
 * target]) does.  On failure `out` is empty and err has the context.
 * Like FreeType's, a load can change the size for later loads (twilight
 * points; the CVT through WCVTF): use one size from one thread at a time. */
FV_API fv_status fv_tt_hint_glyph(fv_tt_size *size, fv_tt_exec *exec, uint32_t gid,
                                  fv_tt_outline *out, fv_error *err);
FV_API void fv_tt_outline_free(fv_tt_face *face, fv_tt_outline *out);

#ifdef __cplusplus
}
#endif
#endif
