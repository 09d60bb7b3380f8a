/* Function and instruction definitions (FDEF/IDEF tables), sized from
 * maxp.maxFunctionDefs (at least 64) / maxInstructionDefs as in FreeType. */
#ifndef FV_TT_DEFS_H
#define FV_TT_DEFS_H

#include <stdbool.h>

#include "tt/interp.h"

/* COMPAT(freetype): FreeType 2.12.1 raises a maxp.maxFunctionDefs below 64
 * to 64 when it reads maxp (a work-around for broken fonts), so an fpgm may
 * define up to max(64, maxFunctionDefs) functions; maxInstructionDefs is
 * taken as it is (an IDEF with maxInstructionDefs 0 fails).  Measured with
 * tt_diff finding F-4 and tests/tt/test_tt_defs_limits.c. */
#define TT_MIN_FUNCTION_DEFS 64

/* The number of FDEFs a font may make, from maxp's version 1.0 fields
 * (sfnt_maxp.v1_fields) and maxFunctionDefs.  COMPAT(freetype): the raise
 * to 64 comes with the version 1.0 fields; a maxp of numGlyphs only (0.5,
 * 0, negative, or 1.0 whose fields run past the end of the file: see
 * sfnt.c read_maxp) allows no FDEF, and its fpgm's first one fails
 * (Too_Many_Function_Defs; measured on Wargames.ttf and 32 other Debian
 * fonts with maxp 0.5, conformance/tt/tt_sweep.py, and fuzz finding F-29). */
static inline uint32_t tt_defs_function_capacity(bool maxp_v1_fields, uint16_t max_function_defs)
{
    if (!maxp_v1_fields)
        return 0;
    return max_function_defs < TT_MIN_FUNCTION_DEFS ? TT_MIN_FUNCTION_DEFS : max_function_defs;
}

fv_status tt_defs_alloc(fv_mem *mem, tt_defs *d, uint32_t max_fdefs, uint32_t max_idefs);
void tt_defs_free(fv_mem *mem, tt_defs *d);
/* Records that function f lives in fdefs[slot] (FDEF, once the slot is
 * taken). */
void tt_defs_index_function(tt_defs *d, uint32_t f, uint32_t slot);
/* The active FDEF for function f, or NULL (CALL's lookup). */
const tt_def *tt_defs_function(const tt_defs *d, uint64_t f);
/* The active IDEF for opcode op, or NULL. */
const tt_def *tt_defs_instruction(const tt_defs *d, uint8_t op);

#endif
