/* Graphite rule disassembler (for `fontvm disasm --graphite`). */
#ifndef FV_GRAPHITE_DISASM_H
#define FV_GRAPHITE_DISASM_H

#include <stdio.h>

#include "common/reader.h"
#include "fontvm/error.h"
#include "fontvm/fontvm.h"

/* Prints every pass of the font's first Silf subtable: its header, pass
 * constraint, and each rule's sort key, pre-context, constraint and action
 * code as mnemonics with their arguments. */
fv_status grv_disasm(const fv_font *font, FILE *out, fv_error *err);

/* One command of rule code at byte offset `pc` as the disassembly writes
 * it ("AttrSet attTo", "PushSlotAttr posX, -1", "PushByte 5"); returns its
 * length in bytes (0 when pc is past the end).  Shared with the trace. */
size_t grv_format_insn(fv_span code, size_t pc, char *buf, size_t size);

#endif
