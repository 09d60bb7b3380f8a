/* Fuzz target `gr_font`: a whole Graphite font plus text through the
 * shaping engine.  Input: [font][text: n big-endian u16 code points][8-byte
 * trailer]:
 *   [0..1] allocator configuration
 *   [2]    n, the number of text code points before the trailer
 *   [3]    bit 0 right-to-left, bit 1 language 'ENG ', bit 2 a feature
 *   [4..5] feature id index (a small number or the first Feat id + k)
 *   [6..7] feature value (signed) */
#include <string.h>
#include "fontvm/fontvm.h"
#include "fontvm/graphite.h"
#include "fuzz.h"
#include "graphite/grv.h"
#include "support/gr_trace.h"

#define GR_FONT_TRAILER 8
#define GR_FONT_MAX_INPUT (1 << 20)

static int run(const fvfuzz_ctx *ctx, const uint8_t *data, size_t size)
{
    fvfuzz_input in;
    fvfuzz_split(data, size, GR_FONT_TRAILER, &in);
    uint32_t text[FVFUZZ_MAX_TEXT];
    size_t font_len;
    size_t n = fvfuzz_font_text(&in, text, &font_len);

    fvfuzz_alloc fa;
    fvfuzz_alloc_init(&fa, fvfuzz_u16(&in, 0));
    fv_font *font = NULL;
    fv_error err;
    if (fv_font_open_memory(in.payload, font_len, 0, &fa.a, &font, &err) != FV_OK) {
        fvfuzz_log_error(ctx, "open", &err);
        fvfuzz_alloc_check_clean(&fa, "gr_font");
        return 0;
    }
    fv_gr_face *face = NULL;
    if (fv_gr_face_new(font, &face, &err) == FV_OK) {
        fvfuzz_gr_trace_install(ctx, face);
        uint8_t flags = fvfuzz_u8(&in, 3);
        fv_gr_feature_setting feat = {fvfuzz_u16(&in, 4), (int16_t)fvfuzz_u16(&in, 6)};
        fv_gr_shape_request req;
        memset(&req, 0, sizeof req);
        req.text = text;
        req.length = n;
        req.features = &feat;
        req.num_features = (flags & 4) ? 1u : 0u;
        req.lang = (flags & 2) ? 0x454E4720u : 0u;
        req.rtl = flags & 1;
        /* Justification to 50..177% of the natural width for 1 input in 8. */
        req.justify_percent = (flags & 0x38) == 0x38 ? (float)(50 + (flags >> 1)) : 0.0f;
        fv_gr_segment *seg = NULL;
        fv_status st = fv_gr_shape(face, &req, &seg, &err);
        uint64_t seg_budget = grv_budget_segment_steps((uint32_t)n),
                 pass_budget = grv_budget_pass_steps((uint32_t)n);
        if (st == FV_OK) {
            fvfuzz_note_work(ctx, FVFUZZ_WORK_GR_SEGMENT, seg->steps, seg_budget, 0);
            fvfuzz_note_work(ctx, FVFUZZ_WORK_GR_PASS, seg->max_pass_steps, pass_budget, 0);
        } else if (fv_status_is_budget(err.kind)) {
            fvfuzz_note_work(ctx, FVFUZZ_WORK_GR_SEGMENT, seg_budget, seg_budget, 1);
        }
        if (st == FV_OK) {
            double sum = seg->advance_x + seg->advance_y;
            for (size_t i = 0; i < seg->num_slots; i++)
                sum += seg->slots[i].gid + seg->slots[i].x + seg->slots[i].y +
                       seg->slots[i].attached_to + seg->slots[i].before + seg->slots[i].after;
            for (size_t i = 0; i < seg->num_chars; i++)
                sum += seg->chars[i].before + seg->chars[i].after + seg->chars[i].base;
            if (ctx->log != NULL)
                fprintf(ctx->log, "shaped %zu chars into %zu slots, advance %.1f (sum %.1f)\n", n,
                        seg->num_slots, (double)seg->advance_x, sum);
            fv_gr_segment_free(face, seg);
        } else {
            fvfuzz_log_error(ctx, "shape", &err);
        }
        fv_gr_face_free(face);
    } else {
        fvfuzz_log_error(ctx, "graphite face", &err);
    }
    fv_font_close(font);
    fvfuzz_alloc_check_clean(&fa, "gr_font");
    return 0;
}

FVFUZZ_TARGET(gr_font, GR_FONT_MAX_INPUT, run)
