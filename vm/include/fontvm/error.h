/* fontvm — one error type for the whole library.
 *
 * The kinds are generated from the X-macro lists in errors/{common,tt,graphite,woff}.def,
 * so the enum, the stable names and the descriptions can
 * never drift apart.  An fv_error carries the kind plus the context a user
 * needs to find the fault: which program, glyph, pc, opcode, index, and for
 * table errors the table tag and byte offset. */
#ifndef FONTVM_ERROR_H
#define FONTVM_ERROR_H

#include <stddef.h>
#include <stdint.h>

#include "fontvm/api.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fv_status {
#define X(kind, name, desc) FV_E_##kind,
#include "fontvm/errors/common.def"
#include "fontvm/errors/tt.def"
#include "fontvm/errors/graphite.def"
#include "fontvm/errors/woff.def"
#undef X
    FV_E_COUNT_
} fv_status;

#define FV_OK FV_E_OK

/* Which program an error happened in. */
typedef enum fv_program {
    FV_PROG_NONE = 0,
    FV_PROG_FPGM,
    FV_PROG_PREP,
    FV_PROG_GLYF,
    FV_PROG_GR_PASS, /* Graphite pass rule code (constraint or action) */
    FV_PROG_GR_PASS_CONSTRAINT
} fv_program;

#define FV_NO_VALUE UINT32_MAX

typedef struct fv_error {
    fv_status kind;
    fv_program program;
    uint32_t glyph;   /* glyph id, FV_NO_VALUE when not applicable */
    uint32_t pc;      /* byte offset of the instruction, FV_NO_VALUE if n/a */
    int32_t opcode;   /* opcode byte, -1 if n/a */
    int64_t index;    /* the bad index/value, INT64_MIN if n/a */
    uint32_t table;   /* sfnt table tag, 0 if n/a */
    uint32_t offset;  /* byte offset inside that table, FV_NO_VALUE if n/a */
    char opname[24];  /* mnemonic of the failing instruction, e.g. "MIRP[01101]" */
    char detail[96];  /* short free text, may be empty */
} fv_error;

/* Reset an error to FV_E_OK with every context field "not applicable". */
FV_API void fv_error_clear(fv_error *err);

/* Stable machine name ("tt_invalid_point") and description of a kind. */
FV_API const char *fv_status_name(fv_status kind);
FV_API const char *fv_status_description(fv_status kind);

/* Nonzero for the budget_* kinds (vm/common/budget.h): fontvm stopped work a
 * reference engine would have finished, slowly.  Reports call these
 * hardening limits, not conformance failures. */
FV_API int fv_status_is_budget(fv_status kind);

/* "fpgm", "prep", "glyf", "pass", "constraint"; "none" for FV_PROG_NONE. */
FV_API const char *fv_program_name(fv_program program);

/* Formats an error for people:
 *   table errors:  "glyf@0x1a2c: truncated (glyph 36)"
 *   VM errors:     "glyf[36]@17:MIRP[01101]: invalid point 412"
 * Returns the number of characters that would have been written (snprintf). */
FV_API int fv_error_format(const fv_error *err, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
