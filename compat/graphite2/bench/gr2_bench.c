/* gr2_bench: shapes text with graphite2's C API the way HarfBuzz's
 * graphite2 shaper does (face from a table callback, the default feature
 * values, a segment per line with no font, the slot walk and char infos)
 * and prints the CPU time the shaping took.  It is built against
 * graphite2's installed headers and -lgraphite2: run it as it is for the
 * real graphite2, with LD_LIBRARY_PATH=<build>/compat/graphite2/dropin for
 * fontvm's drop-in (bench.py does both and prints the ratios).
 *
 * usage: gr2_bench [--repeat N] [--rtl] FONT TEXTFILE [[--rtl] FONT TEXTFILE ...]
 * Prints one line per font and text: "FONT TEXT lines slots best_ms", the
 * best of N repeats (default 5) of shaping every line once. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <graphite2/Font.h>
#include <graphite2/Segment.h>

typedef struct {
    unsigned char *data;
    size_t len;
} file_bytes;

static unsigned long rd32(const unsigned char *p)
{
    return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3];
}

static const void *get_table(const void *h, unsigned int tag, size_t *len)
{
    const file_bytes *f = h;
    *len = 0;
    if (f->len < 12)
        return NULL;
    unsigned n = (unsigned)f->data[4] << 8 | f->data[5];
    for (unsigned i = 0; i < n && 12 + 16 * (size_t)(i + 1) <= f->len; i++) {
        const unsigned char *r = f->data + 12 + 16 * i;
        if (rd32(r) != tag)
            continue;
        unsigned long off = rd32(r + 8), l = rd32(r + 12);
        if (off > f->len || l > f->len - off)
            return NULL;
        *len = l;
        return f->data + off;
    }
    return NULL;
}

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *d = malloc(n > 0 ? (size_t)n + 1 : 1);
    if (d && fread(d, 1, (size_t)n, f) != (size_t)n) {
        free(d);
        d = NULL;
    }
    fclose(f);
    if (d) {
        d[n] = 0;
        *len = (size_t)n;
    }
    return d;
}

/* UTF-8 lines into UTF-32 arrays (HarfBuzz hands graphite2 UTF-32). */
static size_t decode(const char *s, size_t n, unsigned *out)
{
    size_t k = 0;
    const unsigned char *p = (const unsigned char *)s, *e = p + n;
    while (p < e) {
        unsigned c = *p++;
        int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
        if (extra)
            c &= 0x3Fu >> extra;
        for (int i = 0; i < extra && p < e; i++)
            c = c << 6 | (*p++ & 0x3F);
        if (c != 0xFEFF)
            out[k++] = c;
    }
    return k;
}

int main(int argc, char **argv)
{
    int repeat = 5, rtl = 0, status = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
            repeat = atoi(argv[++i]);
            continue;
        }
        if (!strcmp(argv[i], "--rtl")) {
            rtl = 1;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "usage: gr2_bench [--repeat N] [--rtl] FONT TEXTFILE ...\n");
            return 2;
        }
        const char *fontp = argv[i], *textp = argv[++i];
        file_bytes fb;
        size_t tlen = 0;
        fb.data = read_file(fontp, &fb.len);
        char *text = (char *)read_file(textp, &tlen);
        if (!fb.data || !text) {
            fprintf(stderr, "gr2_bench: cannot read %s or %s\n", fontp, textp);
            return 2;
        }
        unsigned *cps = malloc((tlen + 1) * sizeof *cps);
        gr_face_ops ops = {sizeof ops, get_table, NULL};
        gr_face *face = gr_make_face_with_ops(&fb, &ops, gr_face_preloadAll);
        double best = -1;
        unsigned long lines = 0, slots = 0;
        for (int r = 0; face && cps && r < repeat; r++) {
            double t0 = cpu_ms();
            lines = slots = 0;
            for (char *line = text; *line;) {
                size_t n = strcspn(line, "\r\n");
                size_t nc = decode(line, n, cps);
                gr_feature_val *fv = gr_face_featureval_for_lang(face, 0);
                gr_segment *seg = gr_make_seg(NULL, face, 0, fv, gr_utf32, cps, nc, rtl | 2);
                if (seg) {
                    for (const gr_slot *s = gr_seg_first_slot(seg); s; s = gr_slot_next_in_segment(s)) {
                        volatile float x = gr_slot_origin_X(s) + gr_slot_origin_Y(s) +
                                           gr_slot_advance_Y(s, face, NULL);
                        volatile int b = gr_slot_before(s) + gr_slot_after(s) + gr_slot_gid(s) +
                                         gr_slot_can_insert_before(s);
                        (void)x;
                        (void)b;
                        slots++;
                    }
                    (void)gr_seg_advance_X(seg);
                    gr_seg_destroy(seg);
                }
                gr_featureval_destroy(fv);
                lines++;
                line += n;
                while (*line == '\r' || *line == '\n')
                    line++;
            }
            double t = cpu_ms() - t0;
            if (best < 0 || t < best)
                best = t;
        }
        if (!face) {
            printf("%s %s no-face\n", fontp, textp);
            status = 1;
        } else {
            printf("%s %s %s %lu %lu %.3f\n", fontp, textp, rtl ? "rtl" : "ltr", lines, slots, best);
        }
        gr_face_destroy(face);
        free(cps);
        free(text);
        free(fb.data);
        rtl = 0;
    }
    return status;
}
