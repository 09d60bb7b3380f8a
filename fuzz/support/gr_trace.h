/* The Graphite targets' instruction trace: one line per opcode the machine
 * is about to execute (pass, rule, constraint or action, pc, mnemonic and
 * the top of the stack), printed when the replay tool runs with --trace.
 * scripts/repro shows the lines up to a failure. */
#ifndef FVFUZZ_GR_TRACE_H
#define FVFUZZ_GR_TRACE_H

#include "fontvm/graphite.h"
#include "fuzz.h"

/* Installs the trace on face when ctx asks for one (and, in the test-only
 * planted-bug build, always: see gr_trace.c). */
void fvfuzz_gr_trace_install(const fvfuzz_ctx *ctx, fv_gr_face *face);

/* The trace hook itself (user: the fvfuzz_ctx), for targets that drive the
 * machine below the face (gr_code). */
void fvfuzz_gr_trace_event(void *user, const fv_gr_trace_event *ev);

/* The line for one event (FV_GR_TRACE_OP only; other kinds print nothing). */
void fvfuzz_gr_trace_print(FILE *log, const fv_gr_trace_event *ev);

#endif
