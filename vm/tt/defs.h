/* Function and instruction definitions (FDEF/IDEF tables), sized from
 * maxp.maxFunctionDefs / maxInstructionDefs as in FreeType. */
#ifndef FV_TT_DEFS_H
#define FV_TT_DEFS_H

#include "tt/interp.h"

fv_status tt_defs_alloc(fv_mem *mem, tt_defs *d, uint32_t max_fdefs, uint32_t max_idefs);
void tt_defs_free(fv_mem *mem, tt_defs *d);
/* The active FDEF for function f, or NULL (CALL's lookup). */
const tt_def *tt_defs_function(const tt_defs *d, uint64_t f);
/* The active IDEF for opcode op, or NULL. */
const tt_def *tt_defs_instruction(const tt_defs *d, uint8_t op);

#endif
