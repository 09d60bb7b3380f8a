/* Hinting diagnostics: the classes of faults FreeType tolerates silently,
 * counted from the interpreter's diagnostics hook
 * (fv_tt_exec_set_diagnostics), with the glyph loads they happened in and
 * their first location.  Shared by `fontvm lint` (vm/cli/cmd_lint.c) and
 * the TrueType runner's tt_lint records (runner.c, RECORDS.md), so that
 * both name the classes alike. */
#ifndef FV_CONFORMANCE_TT_LINT_H
#define FV_CONFORMANCE_TT_LINT_H

#include <stdint.h>

#include "fontvm/error.h"
#include "fontvm/tt.h"

/* X(id, name, what), in the order reports list them. */
#define TTL_CLASSES(X)                                                                          \
    X(CVT, "cvt_out_of_range", "CVT index out of range (read as 0, write ignored)")             \
    X(STORAGE, "storage_out_of_range", "storage index out of range (read as 0, write ignored)") \
    X(POINT, "point_out_of_range", "point index outside its zone (instruction skipped)")        \
    X(ZONE, "zone_out_of_range", "zone pointer not 0 or 1 (SZP ignored)")                       \
    X(REFERENCE, "reference_out_of_range", "reference point, contour or loop out of range")     \
    X(ARGUMENT, "bad_argument", "invalid instruction argument (ignored)")                       \
    X(UNDERFLOW, "stack_underflow", "stack underflow (missing values read as 0)")               \
    X(IGNORED_OTHER, "ignored_other", "another fault FreeType ignores")                         \
    X(DIVIDE, "division_by_zero", "division by zero (glyph program stopped)")                   \
    X(FUNCTION, "undefined_function", "call of an undefined function (glyph program stopped)")  \
    X(OPCODE, "undefined_instruction", "undefined opcode without IDEF (glyph program stopped)") \
    X(FT_LIMIT, "program_limit", "FreeType's instruction, loop or jump limit (stopped)")        \
    X(STOPPED_OTHER, "glyph_program_stopped", "glyph program stopped by another fault")        \
    X(AFTER_IUP, "after_iup", "v40: move after IUP[x] and IUP[y] dropped (cannot act)")         \
    X(TWILIGHT, "twilight_unset", "twilight point read before any instruction set it")    \
    X(PREP, "prep_failed", "fpgm or prep failed: no glyph hinted at this size")                 \
    X(HARDENING, "hardening_limit", "a fontvm work budget stopped the load (FreeType goes on)") \
    X(LOAD, "glyph_failed", "the glyph could not be loaded")

enum {
#define TTL_ENUM(id, name, what) TTL_##id,
    TTL_CLASSES(TTL_ENUM)
#undef TTL_ENUM
        TTL_COUNT
};

typedef struct ttl_class {
    uint64_t count;
    uint64_t glyphs;     /* glyph loads it happened in */
    uint32_t last_load;  /* the load last counted in glyphs (1-based) */
    int have_first;
    fv_error first;
} ttl_class;

/* The diagnostics of one size. */
typedef struct ttl_state {
    ttl_class cls[TTL_COUNT];
    uint32_t load;       /* 1-based number of the current glyph load, 0 = size setup */
} ttl_state;

const char *ttl_name(int k);
const char *ttl_what(int k);
/* Counts one diagnostic of class k at `where`. */
void ttl_note(ttl_state *s, int k, const fv_error *where);
/* The fv_tt_diag_fn to pass to fv_tt_exec_set_diagnostics (user: a ttl_state). */
void ttl_on_diag(void *user, fv_tt_diag_kind what, const fv_error *where);
/* A failed glyph load's class (prep_failed, hardening_limit, glyph_failed). */
int ttl_class_of_load_error(const fv_error *err);
/* "glyf[36]@17:RCVT: invalid cvt 412"; after-IUP notes spelled out. */
void ttl_location_text(int k, const fv_error *e, char *buf, size_t size);

#endif
