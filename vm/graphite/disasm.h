/* Graphite rule disassembler (for `fontvm disasm --graphite`). */
#ifndef FV_GRAPHITE_DISASM_H
#define FV_GRAPHITE_DISASM_H

#include <stdio.h>

#include "fontvm/error.h"
#include "fontvm/fontvm.h"

/* Prints every pass of the font's first Silf subtable: its header, pass
 * constraint, and each rule's sort key, pre-context, constraint and action
 * code as mnemonics with their arguments. */
fv_status grv_disasm(const fv_font *font, FILE *out, fv_error *err);

#endif
