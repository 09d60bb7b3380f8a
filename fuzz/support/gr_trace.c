/* See gr_trace.h. */
#include "support/gr_trace.h"

void fvfuzz_gr_trace_print(FILE *log, const fv_gr_trace_event *ev)
{
    if (ev->kind != FV_GR_TRACE_OP)
        return;
    const char *name = fv_gr_opcode_name(ev->opcode);
    fprintf(log, "trace pass %d rule %d %s pc %u %-16s depth %zu", (int)ev->pass, (int)ev->rule,
            ev->is_constraint ? "constraint" : "action", (unsigned)ev->pc,
            name ? name : "?", ev->stack_depth);
    size_t show = ev->stack_depth < 4 ? ev->stack_depth : 4;
    if (show > 0) {
        fputs(" top", log);
        for (size_t i = 0; i < show; i++)
            fprintf(log, " %d", (int)ev->stack[ev->stack_depth - 1 - i]);
    }
    fputc('\n', log);
    fflush(log); /* the opcode may crash */
}

void fvfuzz_gr_trace_event(void *user, const fv_gr_trace_event *ev)
{
    const fvfuzz_ctx *ctx = user;
    if (ctx->trace && ctx->log != NULL)
        fvfuzz_gr_trace_print(ctx->log, ev);
#if FVFUZZ_PLANTED_BUG
    /* Test-only (FONTVM_TEST_PLANTED_BUG, fvfuzz-replay-planted): running
     * PUSH_VERSION (0x37, which no shipped font's rules use) reads past a
     * heap block, so tests/fuzz can check that the minimiser keeps a
     * Graphite crash while it drops passes and rules. */
    if (ev->kind == FV_GR_TRACE_OP && ev->opcode == 0x37)
        fvfuzz_planted_overread(ev->stack_depth);
#endif
}

void fvfuzz_gr_trace_install(const fvfuzz_ctx *ctx, fv_gr_face *face)
{
#if !FVFUZZ_PLANTED_BUG
    if (!ctx->trace || ctx->log == NULL)
        return;
#endif
    fv_gr_set_trace(face, fvfuzz_gr_trace_event, (void *)ctx, NULL);
}
