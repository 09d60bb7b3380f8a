/* See tt_run.h. */
#include "support/tt_run.h"

#include <inttypes.h>
#include <stdlib.h>

#include "common/budget.h"
#include "mutator/mutator.h"

/* Byte length of the first `count` instructions of code: splitting by
 * instruction count (not bytes) keeps the split stable under the
 * structure-aware mutator's insertions. */
static size_t insn_prefix(const uint8_t *code, size_t len, size_t count)
{
    size_t pc = 0;
    for (size_t i = 0; i < count && pc < len; i++)
        pc += fvmut_tt_insn_len(code, len, pc);
    return pc;
}

void fvfuzz_tt_decode_input(const uint8_t *data, size_t size, fvfuzz_tt_input *out)
{
    fvfuzz_input in, var;
    size_t var_len = fvmut_tt_var_trailer(data, size, FVFUZZ_TT_TRAILER);
    fvfuzz_split(data + size - var_len, var_len, var_len, &var);
    fvfuzz_split(data, size - var_len, FVFUZZ_TT_TRAILER, &in);
    size_t fpgm_len = insn_prefix(in.payload, in.payload_len, fvfuzz_u16(&in, 2));
    size_t prep_len = insn_prefix(in.payload + fpgm_len, in.payload_len - fpgm_len,
                                  fvfuzz_u16(&in, 4));
    size_t glyph_off = fpgm_len + prep_len;
    size_t glyph_len = in.payload_len - glyph_off;
    if (glyph_len > 0xFFFF)
        glyph_len = 0xFFFF;

    uint8_t flags = fvfuzz_u8(&in, 6);
    fvsynth_tt *p = &out->font;
    *p = (fvsynth_tt){0};
    p->fpgm = in.payload;
    p->fpgm_len = fpgm_len;
    p->prep = in.payload + fpgm_len;
    p->prep_len = prep_len;
    p->glyph_code = in.payload + glyph_off;
    p->glyph_code_len = glyph_len;
    p->num_points = (uint16_t)(fvfuzz_u8(&in, 8) % (FVSYNTH_MAX_POINTS + 1));
    p->num_contours = p->num_points ? (uint16_t)(1 + fvfuzz_u8(&in, 9) % p->num_points) : 0;
    p->cvt_count = (uint16_t)(fvfuzz_u8(&in, 10) * 4);
    p->max_storage = (uint16_t)(fvfuzz_u8(&in, 11) * 4);
    p->max_twilight = fvfuzz_u8(&in, 12);
    p->max_function_defs = (uint16_t)(fvfuzz_u8(&in, 13) * 2);
    p->max_instruction_defs = p->max_function_defs;
    p->max_stack = (uint16_t)(fvfuzz_u8(&in, 14) * 4);
    p->units_per_em = (flags & 0x80) ? 1000 : 2048;
    p->head_flags = (flags & 0x20) ? 0x0008 : 0;
    p->seed = fvfuzz_u8(&in, 15) * 0x01000193u + 1;
    p->composite = (flags & 0x08) != 0;

    uint32_t ppem = fvfuzz_u8(&in, 7) ? fvfuzz_u8(&in, 7) : 1;
    int32_t x = (int32_t)(ppem * 64 + ((flags & 0x10) ? 32 : 0));
    out->size = (fvfuzz_tt_size){x, (flags & 0x40) ? x + 3 * 64 : x, fvfuzz_tt_mode(flags),
                                 (flags & 0x04) != 0, NULL, 0};
    out->alloc_config = fvfuzz_u16(&in, 0);
    out->coord = 0;
    if (var_len > 0) {
        uint8_t vflags = fvfuzz_u8(&var, 2);
        p->var_flags = (uint8_t)(FVSYNTH_VAR_GVAR | (vflags & 0x0E));
        p->var_scale = fvfuzz_u8(&var, 4);
        p->var_seed = (uint32_t)fvfuzz_u8(&var, 5) << 16 | fvfuzz_u16(&var, 6);
        /* -128..127 -> -1..0.99 in 16.16 (each step 1/128); bit 4 of the
         * flags: no location (the default instance as a fresh face). */
        out->coord = (int32_t)(int8_t)fvfuzz_u8(&var, 3) * 512;
        if (!(vflags & 0x10)) {
            out->size.coords = &out->coord;
            out->size.num_coords = 1;
        }
    }
}

uint8_t *fvfuzz_tt_build_font(const fvsynth_tt *p, const char *target, size_t *len)
{
    size_t cap = fvsynth_tt_bound(p);
    uint8_t *font_data = malloc(cap);
    if (font_data == NULL)
        return NULL;
    *len = fvsynth_tt_build(p, font_data, cap);
    if (*len == 0)
        fvfuzz_fail(target, "synthetic font did not fit its bound (%zu bytes)", cap);
    return font_data;
}

/* One line per executed instruction: where, what, and the top of the
 * stack.  scripts/repro keeps the lines just before a crash. */
static void print_event(void *user, const fv_tt_trace_event *ev)
{
    FILE *log = user;
    fprintf(log, "trace %s[%" PRIu32 "]@%" PRIu32 " %-14s depth %" PRIu32 "->%" PRIu32,
            fv_program_name(ev->program), ev->glyph == FV_NO_VALUE ? 0 : ev->glyph, ev->pc,
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

#if FVFUZZ_PLANTED_BUG
/* Test-only (FONTVM_TEST_PLANTED_BUG, fvfuzz-replay-planted): executing
 * AA (0x7F, a deprecated no-op that real fonts do not use) reads past a
 * heap block, so tests/fuzz can check that the minimiser keeps a TrueType
 * crash and shows its instruction in the trace. */
static void planted_event(void *user, const fv_tt_trace_event *ev)
{
    const fvfuzz_ctx *ctx = user;
    if (ctx->trace && ctx->log != NULL)
        print_event(ctx->log, ev);
    if (ev->opcode == 0x7F)
        fvfuzz_planted_overread(ev->stack_depth);
}
#endif

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
#if FVFUZZ_PLANTED_BUG
    fv_tt_exec_set_trace(exec, planted_event, (void *)ctx);
#else
    if (ctx->trace && ctx->log != NULL)
        fv_tt_exec_set_trace(exec, print_event, ctx->log);
#endif
    for (uint32_t s = 0; s < num_sizes; s++) {
        fv_tt_size_request req = {.x_ppem_26d6 = sizes[s].x_ppem_26d6,
                                  .y_ppem_26d6 = sizes[s].y_ppem_26d6,
                                  .mode = sizes[s].mode,
                                  .pedantic = sizes[s].pedantic,
                                  .coords = sizes[s].coords,
                                  .num_coords = sizes[s].num_coords};
        fv_tt_size *size = NULL;
        fv_status st = fv_tt_size_new(face, exec, &req, &size, &err);
        fvfuzz_note_work(ctx, FVFUZZ_WORK_TT_RUN, fv_tt_exec_max_run_steps(exec),
                         FV_BUDGET_TT_PROGRAM_STEPS, 0);
        if (st != FV_OK) {
            fvfuzz_log_error(ctx, "tt size", &err);
            continue;
        }
        for (uint32_t g = 0; g < num_glyphs; g++) {
            fv_tt_outline out;
            fv_status gs = fv_tt_hint_glyph(size, exec, glyphs[g], &out, &err);
            int stopped = gs != FV_OK && fv_status_is_budget(err.kind);
            fvfuzz_note_work(ctx, FVFUZZ_WORK_TT_LOAD,
                             stopped ? FV_BUDGET_TT_GLYPH_STEPS : fv_tt_exec_last_load_steps(exec),
                             FV_BUDGET_TT_GLYPH_STEPS, stopped);
            if (gs == FV_OK) {
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
