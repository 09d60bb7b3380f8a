/* gr_budget_survey: how close real fonts come to the Graphite work budget
 * (grv_budget_segment_steps / grv_budget_pass_steps).  Reads jobs from
 * stdin, one per line: FONT <tab> TEXTFILE <tab> RTL(0/1) <tab> FEATURES
 * (tag=value,...; may be empty); shapes every line of every job with
 * fontvm and prints, over all of them, the largest share of the segment
 * budget and of the pass budget any segment used, with where.  Exit 0 when
 * every segment stayed under 1/MIN_HEADROOM of both budgets, 1 when one
 * did not, 2 on bad input.  budget_survey.py feeds it conform.toml's
 * Graphite jobs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fontvm/fontvm.h"
#include "fontvm/graphite.h"
#include "graphite/grv.h"

#define MAX_TEXT 4096
#define MAX_FEATS 16

static size_t utf8_decode(const char *s, uint32_t *out, size_t cap)
{
    size_t n = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p && n < cap) {
        uint32_t c = *p;
        int extra = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
        if (extra < 0) {
            p++;
            continue;
        }
        c = extra ? c & (0x3Fu >> extra) : c;
        p++;
        for (int k = 0; k < extra && (*p & 0xC0) == 0x80; k++)
            c = c << 6 | (*p++ & 0x3Fu);
        if (c != '\n' && c != '\r')
            out[n++] = c;
    }
    return n;
}

static size_t parse_features(char *s, fv_gr_feature_setting *f)
{
    size_t n = 0;
    for (char *tok = strtok(s, ","); tok && n < MAX_FEATS; tok = strtok(NULL, ",")) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = 0;
        uint32_t id = 0;
        if (tok[0] >= '0' && tok[0] <= '9')
            id = (uint32_t)strtoul(tok, NULL, 10);
        else
            for (int k = 0; k < 4; k++)
                id = id << 8 | (uint8_t)(tok[k] ? tok[k] : ' ');
        f[n].id = id;
        f[n].value = (int32_t)strtol(eq + 1, NULL, 10);
        n++;
    }
    return n;
}

typedef struct worst {
    double share;
    uint64_t steps;
    uint32_t chars;
    char where[600];
} worst;

static void note(worst *w, double share, uint64_t steps, uint32_t chars, const char *font,
                 const char *text, int line)
{
    if (share > w->share) {
        w->share = share;
        w->steps = steps;
        w->chars = chars;
        snprintf(w->where, sizeof w->where, "%s %s line %d", font, text, line);
    }
}

int main(int argc, char **argv)
{
    double min_headroom = argc > 1 ? atof(argv[1]) : 10.0;
    char job[2048];
    static uint32_t cps[MAX_TEXT];
    worst seg_w = {0}, pass_w = {0};
    uint64_t segments = 0, failed = 0;
    double max_per_char = 0;
    while (fgets(job, sizeof job, stdin)) {
        job[strcspn(job, "\n")] = 0;
        char *font_path = strtok(job, "\t"), *text_path = strtok(NULL, "\t");
        char *rtl_s = strtok(NULL, "\t"), *feat_s = strtok(NULL, "\t");
        if (!font_path || !text_path || !rtl_s) {
            fprintf(stderr, "gr_budget_survey: bad job line\n");
            return 2;
        }
        fv_gr_feature_setting feats[MAX_FEATS];
        size_t nfeats = feat_s ? parse_features(feat_s, feats) : 0;
        fv_font *font = NULL;
        fv_gr_face *face = NULL;
        fv_error err;
        if (fv_font_open_file(font_path, 0, NULL, &font, &err) != FV_OK ||
            fv_gr_face_new(font, &face, &err) != FV_OK) {
            fv_font_close(font);
            continue; /* not a font fontvm shapes (the runners say why) */
        }
        FILE *tf = fopen(text_path, "r");
        if (!tf) {
            fprintf(stderr, "gr_budget_survey: cannot read %s\n", text_path);
            return 2;
        }
        static char line[4 * MAX_TEXT];
        int ln = 0;
        while (fgets(line, sizeof line, tf)) {
            ln++;
            fv_gr_shape_request req;
            memset(&req, 0, sizeof req);
            req.text = cps;
            req.length = utf8_decode(line, cps, MAX_TEXT);
            req.rtl = atoi(rtl_s);
            req.features = feats;
            req.num_features = nfeats;
            fv_gr_segment *seg = NULL;
            segments++;
            fv_status st = fv_gr_shape(face, &req, &seg, &err);
            if (st != FV_OK) {
                failed++;
                if (strncmp(fv_status_name(st), "budget_", 7) == 0) {
                    printf("BUDGET %s %s line %d: %s\n", font_path, text_path, ln, err.detail);
                    note(&seg_w, 1.0, 0, (uint32_t)req.length, font_path, text_path, ln);
                }
                continue;
            }
            uint32_t n = (uint32_t)req.length;
            note(&seg_w, (double)seg->steps / (double)grv_budget_segment_steps(n), seg->steps, n,
                 font_path, text_path, ln);
            note(&pass_w, (double)seg->max_pass_steps / (double)grv_budget_pass_steps(n),
                 seg->max_pass_steps, n, font_path, text_path, ln);
            if (n && (double)seg->steps / n > max_per_char)
                max_per_char = (double)seg->steps / n;
            fv_gr_segment_free(face, seg);
        }
        fclose(tf);
        fv_gr_face_free(face);
        fv_font_close(font);
    }
    printf("segments %llu (%llu failed)\n", (unsigned long long)segments, (unsigned long long)failed);
    printf("largest steps per char: %.0f\n", max_per_char);
    printf("segment budget: at most %.4f%% used (%llu steps, %u chars): %s\n", seg_w.share * 100,
           (unsigned long long)seg_w.steps, seg_w.chars, seg_w.where);
    printf("pass budget: at most %.4f%% used (%llu steps, %u chars): %s\n", pass_w.share * 100,
           (unsigned long long)pass_w.steps, pass_w.chars, pass_w.where);
    int ok = seg_w.share * min_headroom <= 1.0 && pass_w.share * min_headroom <= 1.0;
    printf("headroom: x%.0f (segment), x%.0f (pass); %s (at least x%.0f wanted)\n",
           seg_w.share > 0 ? 1 / seg_w.share : 0.0, pass_w.share > 0 ? 1 / pass_w.share : 0.0,
           ok ? "ok" : "TOO CLOSE", min_headroom);
    return ok ? 0 : 1;
}
