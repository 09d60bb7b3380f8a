/* See tt_run.h. */
#include "support/tt_run.h"

#include <inttypes.h>

static const char *program_name(fv_program p)
{
    switch (p) {
    case FV_PROG_FPGM: return "fpgm";
    case FV_PROG_PREP: return "prep";
    case FV_PROG_GLYF: return "glyf";
    default: return "?";
    }
}

/* One line per executed instruction: where, what, and the top of the
 * stack.  scripts/repro keeps the lines just before a crash. */
static void print_event(void *user, const fv_tt_trace_event *ev)
{
    FILE *log = user;
    fprintf(log, "trace %s[%" PRIu32 "]@%" PRIu32 " %-14s depth %" PRIu32 "->%" PRIu32,
            program_name(ev->program), ev->glyph == FV_NO_VALUE ? 0 : ev->glyph, ev->pc,
            ev->mnemonic ? ev->mnemonic : "?", ev->stack_depth_before, ev->stack_depth);
    uint32_t show = ev->stack_depth < 4 ? ev->stack_depth : 4;
    if (show > 0) {
        fputs(" top", log);
        for (uint32_t i = 0; i < show; i++)
            fprintf(log, " %" PRId32, ev->stack[ev->stack_depth - 1 - i]);
    }
    if (ev->num_moved > 0)
        fprintf(log, " moved %" PRIu32 " point(s), first p%" PRIu32, ev->num_moved,
                ev->moved_points[0]);
    fputc('\n', log);
    fflush(log); /* the next instruction may crash */
}

uint32_t fvfuzz_tt_hint(const fvfuzz_ctx *ctx, fv_font *font, const fvfuzz_tt_size *sizes,
                        uint32_t num_sizes, const uint32_t *glyphs, uint32_t num_glyphs)
{
    fv_error err;
    fv_tt_face *face = NULL;
    fv_tt_exec *exec = NULL;
    uint32_t ok = 0;
    if (fv_tt_face_new(font, &face, &err) != FV_OK) {
        fvfuzz_log_error(ctx, "tt face", &err);
        return 0;
    }
    (void)fv_tt_face_is_hinted(face);
    if (fv_tt_exec_new(face, &exec, &err) != FV_OK) {
        fvfuzz_log_error(ctx, "tt exec", &err);
        goto done;
    }
    if (ctx->trace && ctx->log != NULL)
        fv_tt_exec_set_trace(exec, print_event, ctx->log);
    for (uint32_t s = 0; s < num_sizes; s++) {
        fv_tt_size_request req = {sizes[s].x_ppem_26d6, sizes[s].y_ppem_26d6, sizes[s].mode,
                                  sizes[s].pedantic};
        fv_tt_size *size = NULL;
        if (fv_tt_size_new(face, exec, &req, &size, &err) != FV_OK) {
            fvfuzz_log_error(ctx, "tt size", &err);
            continue;
        }
        for (uint32_t g = 0; g < num_glyphs; g++) {
            fv_tt_outline out;
            if (fv_tt_hint_glyph(size, exec, glyphs[g], &out, &err) == FV_OK) {
                ok++;
                /* Touch the whole outline so a short array shows up. */
                int64_t sum = out.advance_x + out.lsb_x;
                for (uint32_t i = 0; i < out.num_points; i++)
                    sum += (int64_t)out.x[i] + out.y[i] + out.tags[i];
                for (uint32_t i = 0; i < out.num_contours; i++)
                    sum += out.contour_ends[i];
                if (ctx->log != NULL)
                    fprintf(ctx->log, "glyph %" PRIu32 ": %" PRIu32 " points, advance %" PRId32
                            ", checksum %" PRId64 "\n", glyphs[g], out.num_points, out.advance_x, sum);
                fv_tt_outline_free(face, &out);
            } else {
                fvfuzz_log_error(ctx, "tt glyph", &err);
            }
        }
        fv_tt_size_free(size);
    }
    if (ctx->tt_opcodes != NULL) {
        const uint64_t *counts = fv_tt_exec_opcode_counts(exec);
        for (int i = 0; counts != NULL && i < 256; i++)
            ctx->tt_opcodes[i] += counts[i];
    }
done:
    if (exec != NULL)
        fv_tt_exec_free(exec);
    fv_tt_face_free(face);
    return ok;
}
