/* Graphite engine internals, in four headers:
 *
 *   graphite/opcodes.h  the opcode list (opcodes.def) and the decoder
 *   graphite/face.h     the parsed face: Silf passes, rules and code,
 *                       glyphs, attributes, features, languages; loaders
 *   graphite/segment.h  slots, characters, the segment and its budget, the
 *                       slot map of one rule match (its conventions:
 *                       grv_slotmap), passes and collision avoidance
 *   graphite/machine.h  the stack machine, the verifier and the compile step
 *
 * This header includes them all, for the engine's files that use several. */
#ifndef FV_GRAPHITE_GRV_H
#define FV_GRAPHITE_GRV_H

#include <stdio.h>

#include "graphite/face.h"
#include "graphite/machine.h"
#include "graphite/opcodes.h"
#include "graphite/segment.h"

#endif
