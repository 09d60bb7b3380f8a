/* fvconform-gr-load: asks graphite2 1.3.14 and fontvm whether they accept a
 * font and can shape one segment with it, for a stream of fonts on stdin.
 * It is the C half of the header-field sweep (header_sweep.py), which
 * rewrites one Graphite table header field at a time and needs a verdict
 * for tens of thousands of fonts without starting a process for each.
 *
 * Input: records, all integers unsigned 32-bit little-endian:
 *   font length, number of code points, flags (bit 0: right to left),
 *   the code points, the font bytes.
 * Output: one JSON object per record, in order (conformance/graphite/README.md):
 *   {"type":"gr_load","graphite2":{"face":B,"segment":B|null,"error":S|null},
 *    "fontvm":{...same...}}
 * "segment" is null when the face was refused (nothing to shape with).
 *
 * Exit status: 0 at the end of the input; 2 on a malformed record (a
 * {"type":"error"} record names it); 1 out of memory. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fontvm/fontvm.h"
#include "fontvm/graphite.h"
#include "gr_compare.h"
#include "jsonl.h"

/* Bounds on one record, so that a corrupt length fails with a message
 * instead of a huge allocation: larger than any real font or sample text. */
#define MAX_FONT_BYTES (256u << 20)
#define MAX_TEXT_CODEPOINTS 65536u
#define FLAG_RTL 1u

static void emit(json_t *o)
{
    fvc_emit_record(o, JSON_ENSURE_ASCII);
    /* The driver waits for each answer before sending the next font. */
    fflush(stdout);
}

static int fail(int status, const char *msg)
{
    fvc_emit_error(msg);
    return status;
}

static json_t *verdict(int face, int segment, const char *error)
{
    return json_pack("{s:b,s:o,s:o}", "face", face, "segment",
                     face ? json_boolean(segment) : json_null(), "error",
                     error && *error ? json_string(error) : json_null());
}

/* graphite2's verdict, as the conformance runner opens and shapes. */
static int ask_graphite2(const uint8_t *font, size_t size, const grc_request *req, json_t **out)
{
    char why[GRC_ERROR_MAX] = "";
    grc_gr2 *g = grc_gr2_open(font, size, why, sizeof why);
    if (!g) {
        *out = verdict(0, 0, why);
        return 0;
    }
    grc_run run;
    int rc = grc_gr2_shape(g, req, &run);
    *out = verdict(1, run.ok, run.ok ? NULL : run.error);
    grc_run_free(&run);
    grc_gr2_close(g);
    return rc;
}

static int ask_fontvm(const uint8_t *font, size_t size, const grc_request *req, json_t **out)
{
    char why[GRC_ERROR_MAX] = "";
    fv_error err;
    fv_error_clear(&err);
    fv_font *f = NULL;
    fv_gr_face *face = NULL;
    if (fv_font_open_memory(font, size, 0, NULL, &f, &err) != FV_OK
        || fv_gr_face_new(f, &face, &err) != FV_OK) {
        fv_error_format(&err, why, sizeof why);
        fv_font_close(f);
        *out = verdict(0, 0, why);
        return 0;
    }
    grc_run run;
    int rc = grc_fv_shape(face, req, &run);
    *out = verdict(1, run.ok, run.ok ? NULL : run.error);
    grc_run_free(&run);
    fv_gr_face_free(face);
    fv_font_close(f);
    return rc;
}

int main(int argc, char **argv)
{
    (void)argv;
    if (argc != 1) {
        fprintf(stderr, "usage: fvconform-gr-load < records (see conformance/graphite/README.md)\n");
        return 2;
    }
    for (long record = 1;; record++) {
        uint32_t font_len, text_len, flags;
        int r = fvc_read_u32le(&font_len);
        if (r == 0)
            return 0;
        if (r < 0 || fvc_read_u32le(&text_len) != 1 || fvc_read_u32le(&flags) != 1)
            return fail(2, "truncated record header");
        char msg[128];
        if (font_len > MAX_FONT_BYTES || text_len > MAX_TEXT_CODEPOINTS || flags & ~FLAG_RTL) {
            snprintf(msg, sizeof msg, "record %ld: bad header (font %u bytes, %u code points, flags 0x%x)",
                     record, font_len, text_len, flags);
            return fail(2, msg);
        }
        uint32_t *text = malloc(sizeof *text * (text_len ? text_len : 1));
        uint8_t *font = malloc(font_len ? font_len : 1);
        if (!text || !font) {
            free(text);
            free(font);
            return fail(1, "out of memory");
        }
        int ok = 1;
        for (uint32_t i = 0; ok && i < text_len; i++)
            ok = fvc_read_u32le(&text[i]) == 1;
        if (!ok || (font_len && fvc_read_exact(font, font_len) != 1)) {
            free(text);
            free(font);
            snprintf(msg, sizeof msg, "record %ld: truncated", record);
            return fail(2, msg);
        }
        grc_request req = {text, text_len, NULL, flags & FLAG_RTL ? 1 : 0};
        json_t *gr = NULL, *fv = NULL;
        int oom = ask_graphite2(font, font_len, &req, &gr) != 0;
        oom |= ask_fontvm(font, font_len, &req, &fv) != 0;
        free(text);
        free(font);
        if (oom) {
            json_decref(gr);
            json_decref(fv);
            return fail(1, "out of memory");
        }
        emit(json_pack("{s:s,s:o,s:o}", "type", "gr_load", "graphite2", gr, "fontvm", fv));
    }
}
