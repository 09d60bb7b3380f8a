/* TrueType interpreter internals: the execution state of one program run and
 * the checked accessors every instruction goes through.
 *
 * Values are 64-bit because FreeType's stack, CVT, storage and coordinates
 * are FT_Long / FT_F26Dot6 (64-bit on LP64), and fontvm reproduces its
 * wrap-around arithmetic bit for bit on the machine the conformance runs on.
 * Resources have their own headers: stack.h, cvt.h (CVT and storage),
 * zone.h, gstate.h, defs.h. */
#ifndef FV_TT_INTERP_H
#define FV_TT_INTERP_H

#include <stdint.h>

#include "common/budget.h"
#include "common/check.h"
#include "common/compat.h"
#include "common/fixed.h"
#include "common/mem.h"
#include "common/reader.h"
#include "fontvm/error.h"
#include "fontvm/tt.h"
#include "tt/opcodes.h"

/* ---- Limits: FreeType 2.12.1's values ------------------------------------ */

/* TT_CONFIG_OPTION_MAX_RUNNABLE_OPCODES: instructions per program run. */
#define TT_MAX_RUNNABLE_OPCODES 1000000L
/* Exec context callSize: CALL/LOOPCALL/IDEF nesting depth. */
#define TT_MAX_CALL_DEPTH 32
/* TT_Load_Context reserves maxStackElements + 32 stack slots ("to deal
 * safely with broken fonts like arialbs"). */
#define TT_STACK_EXTRA 32
/* tt_size_init_bytecode: maxTwilightPoints + 4 twilight points. */
#define TT_TWILIGHT_EXTRA 4
/* TT_RunIns: twilight points usable by one run are limited to
 * max(30, 2 * (points + cvt entries)), at most 0xFFFF. */
#define TT_TWILIGHT_MIN_LIMIT 30
#define TT_TWILIGHT_MAX_LIMIT 0xFFFFu
/* TT_RunIns: LOOPCALL iterations and backward jumps per run are bounded by
 * max(50, 10 * points) + max(50, cvt / 10) for glyph programs, else
 * 300 + 22 * cvt; never more than 100 * number of glyphs. */
#define TT_LOOPCALL_MIN 50
#define TT_LOOPCALL_PER_POINT 10
#define TT_LOOPCALL_CVT_DIVISOR 10
#define TT_LOOPCALL_NOGLYPH_BASE 300
#define TT_LOOPCALL_NOGLYPH_PER_CVT 22
#define TT_LOOPCALL_PER_GLYPH 100
/* Ins_SLOOP: "we heuristically limit the number of loops to 16 bits". */
#define TT_MAX_LOOP 0xFFFF
/* Composite nesting: FreeType refuses recursion deeper than
 * maxComponentDepth (and cycles); fontvm uses the sfnt constant. */

/* Outline tag bits, as FreeType keeps them on zone points. */
#define TT_TAG_ON 0x01
#define TT_TAG_TOUCH_X 0x08
#define TT_TAG_TOUCH_Y 0x10
#define TT_TAG_TOUCH_BOTH (TT_TAG_TOUCH_X | TT_TAG_TOUCH_Y)

/* Code ranges (FreeType's tt_coderange_*). */
enum { TT_RANGE_NONE = 0, TT_RANGE_FONT = 1, TT_RANGE_CVT = 2, TT_RANGE_GLYPH = 3 };

/* Round states (FreeType's TT_Round_*; the values are the SROUND-free
 * rounding modes the instructions select). */
enum {
    TT_ROUND_HALF_GRID = 0,
    TT_ROUND_GRID = 1,
    TT_ROUND_DOUBLE_GRID = 2,
    TT_ROUND_DOWN_GRID = 3,
    TT_ROUND_UP_GRID = 4,
    TT_ROUND_OFF = 5,
    TT_ROUND_SUPER = 6,
    TT_ROUND_SUPER_45 = 7
};

/* The same type as sfnt's points, so that glyf decodes straight into a
 * zone (sfnt_glyph_points). */
typedef fv_vec tt_vec;

/* A zone: the glyph zone (points incl. 4 phantoms) or the twilight zone. */
typedef struct tt_zone {
    uint32_t n_points;
    uint32_t n_contours;
    tt_vec *org;       /* scaled original */
    tt_vec *cur;       /* current (hinted) */
    tt_vec *orus;      /* unscaled original (font units) */
    uint8_t *tags;
    uint16_t *contours; /* last point of each contour, zone-relative */
} tt_zone;

/* Graphics state (OpenType "Graphics state summary"). */
typedef struct tt_gs {
    uint16_t rp0, rp1, rp2;
    int16_t dv_x, dv_y, pv_x, pv_y, fv_x, fv_y; /* 2.14 unit vectors */
    int64_t loop;
    int64_t minimum_distance;
    int round_state;
    int auto_flip;
    int64_t control_value_cutin;
    int64_t single_width_cutin;
    int64_t single_width_value;
    uint16_t delta_base, delta_shift;
    uint8_t instruct_control;
    int scan_control;
    int32_t scan_type;
    uint16_t gep0, gep1, gep2;
} tt_gs;

/* One FDEF or IDEF. */
typedef struct tt_def {
    int range;        /* TT_RANGE_* */
    uint32_t start;   /* first byte after FDEF/IDEF */
    uint32_t end;     /* offset of the ENDF */
    uint32_t opc;     /* function number / opcode */
    int active;
} tt_def;

typedef struct tt_defs {
    tt_def *fdefs;
    uint32_t num_fdefs, max_fdefs;
    /* CALL's index: slot_of[f] is 1 + the fdefs slot of function f, or 0,
     * for f < max_fdefs (fonts number their functions from 0); larger
     * numbers are looked up by a scan. */
    uint32_t *slot_of;
    tt_def *idefs;
    uint32_t num_idefs, max_idefs;
    uint32_t max_func;  /* highest function number defined */
    uint32_t max_ins;   /* highest opcode with an IDEF */
} tt_defs;

typedef struct tt_frame {
    int caller_range;
    uint32_t caller_ip;
    int64_t count;
    const tt_def *def;
} tt_frame;

/* Size-dependent metrics as the interpreter sees them. */
typedef struct tt_metrics {
    uint16_t x_ppem, y_ppem; /* integer ppem (FT_Size_Metrics) */
    int64_t x_scale, y_scale; /* 16.16: font units to 26.6 */
    int64_t ppem;             /* larger of x/y ppem */
    int64_t scale;            /* scale of the larger ppem */
    int64_t x_ratio, y_ratio;
    int64_t point_size;       /* 26.6, for MPS */
} tt_metrics;

/* Per-mode behaviour switches derived from fv_tt_mode (tt_loader_init). */
typedef struct tt_modeflags {
    int v40;                 /* interpreter version 40 */
    int subpixel_lean;       /* v40, not MONO */
    int grayscale;           /* GETINFO bit 12: v35 non-mono */
    int grayscale_cleartype; /* v40 NORMAL */
} tt_modeflags;

/* The state of one load (a glyph with its components, or one fpgm/prep
 * run): what FreeType keeps in its TT_ExecContext between TT_RunIns calls. */
typedef struct tt_ctx {
    fv_tt_exec *ex;
    fv_mem *mem;
    fv_program program;       /* for errors */
    uint32_t glyph;           /* FV_NO_VALUE outside glyph programs */
    int pedantic;
    tt_modeflags mode;
    int backward_compatibility;
    int is_composite;
    uint32_t num_glyphs;

    tt_metrics m;
    int64_t exec_x_scale, exec_y_scale; /* exc->metrics scales (1.0 for composites) */

    /* Resources (owned by the size; CVT/storage may be per-load copies). */
    tt_defs *defs;
    int64_t *cvt;
    uint32_t cvt_size;
    int64_t *storage;
    uint32_t storage_size;
    int64_t *cvt_copy;        /* copy-on-write buffers for glyph programs */
    int64_t *storage_copy;
    int cvt_is_copy, storage_is_copy;
    tt_zone twilight;         /* n_points may be lowered per run */
    tt_zone pts;              /* the glyph zone */
    fv_span ranges[4];        /* code by TT_RANGE_* (index 0 unused) */
    int have_range[4];

    /* Run state */
    tt_gs gs;
    tt_zone *zp0, *zp1, *zp2;
    int ini_range, cur_range;
    fv_span code;
    int64_t ip;
    uint8_t opcode;
    uint32_t length;          /* what the loop adds to ip after the instruction */
    int64_t *stack;
    uint32_t stack_size;
    uint32_t top, args, new_top;
    uint32_t *kept_new_top;   /* the size's: new_top from one run to the next */
    uint32_t call_top;
    int64_t f_dot_p;
    int64_t ratio;            /* cached Current_Ratio, 0 = not computed */
    int64_t period, phase, threshold;
    int iupx_called, iupy_called;
    uint64_t loopcall_counter, loopcall_max;
    uint64_t neg_jump_counter, neg_jump_max;

    /* Steps of the whole load or run (vm/common/budget.h): every
     * instruction, skipped byte and looped unit of work, across all the
     * runs of a glyph load. */
    fv_budget budget;

    /* The location when the size has one (GETVARIATION, GETDATA and
     * GETINFO answer for a variable font only then), else 0 axes. */
    const int32_t *var_coords;
    uint32_t var_axes;

    uint32_t insn_pc;         /* pc of the executing instruction (errors) */
    int insn_range;
    fv_error *err;
    /* Last, so that tt_ctx_init can leave it uninitialised: only
     * calls[0 .. call_top) is ever read, and each entry is written by the
     * CALL that pushes it. */
    tt_frame calls[TT_MAX_CALL_DEPTH];
} tt_ctx;

/* ---- Errors -------------------------------------------------------------- */

/* Fails the running instruction with `kind` and the offending index. */
fv_status tt_fail(tt_ctx *c, fv_status kind, int64_t index);
/* Fails the running instruction with a budget_* kind: index is the steps
 * spent, detail the limit. */
fv_status tt_budget_fail(tt_ctx *c, fv_status kind);
/* Spends n steps of the budget (work an instruction does in a loop over
 * font-given counts); budget_steps when it is spent. */
static inline fv_status tt_spend(tt_ctx *c, uint64_t n)
{
    if (FV_LIKELY(fv_budget_spend(&c->budget, n)))
        return FV_OK;
    return tt_budget_fail(c, FV_E_BUDGET_STEPS);
}
/* Reports a tolerated fault to the context's diagnostics hook, if one is
 * set (fv_tt_exec_set_diagnostics).  Called on fault paths only, so that
 * the paths that do not fault pay nothing for the hook. */
void tt_diag(tt_ctx *c, fv_tt_diag_kind what, fv_status kind, int64_t index);
/* A fault FreeType ignores unless pedantic (it then raises it). */
static inline fv_status tt_soft(tt_ctx *c, fv_status kind, int64_t index)
{
    if (c->pedantic)
        return tt_fail(c, kind, index);
    tt_diag(c, FV_TT_DIAG_IGNORED, kind, index);
    return FV_OK;
}

/* ---- Wrapping 64-bit arithmetic (FreeType's ADD_LONG etc.) ---------------- */

static inline int64_t tt_add(int64_t a, int64_t b) { return fv_add64(a, b); }
static inline int64_t tt_sub(int64_t a, int64_t b) { return fv_sub64(a, b); }
static inline int64_t tt_neg(int64_t a) { return fv_neg64(a); }
static inline int64_t tt_mul(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}
static inline int64_t tt_abs(int64_t a) { return a < 0 ? tt_neg(a) : a; }
/* Arithmetic right shift without implementation-defined behaviour. */
static inline int64_t tt_asr(int64_t v, unsigned n)
{
    uint64_t u = (uint64_t)v;
    return (int64_t)(u >> 63 ? ~(~u >> n) : u >> n);
}
/* FT_PIX_FLOOR / FT_PIX_ROUND_LONG / FT_PIX_CEIL_LONG */
static inline int64_t tt_floor(int64_t x) { return (int64_t)((uint64_t)x & ~(uint64_t)63); }
static inline int64_t tt_round(int64_t x) { return tt_floor(tt_add(x, 32)); }
static inline int64_t tt_ceil(int64_t x) { return tt_floor(tt_add(x, 63)); }
/* Low 16 bits as FreeType's (FT_UShort) casts take them. */
static inline uint16_t tt_u16(int64_t v) { return (uint16_t)((uint64_t)v & 0xFFFFu); }
/* FT_MulDiv / TT_MulFix14 on FreeType's argument widths. */
static inline int64_t tt_muldiv(int64_t a, int64_t b, int64_t c) { return fv_muldiv(a, b, c); }
static inline int64_t tt_mulfix14(int64_t a, int32_t b)
{
    /* COMPAT(freetype): TT_MulFix14 takes FT_Int32 operands. */
    return fv_mulfix14((int32_t)(uint32_t)(uint64_t)a, b);
}

#endif
