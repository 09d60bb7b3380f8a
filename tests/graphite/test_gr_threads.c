/* Several threads shaping with one Graphite face at once, as fontvm/
 * graphite.h allows: every thread's segments must equal the same shaping
 * done alone, opcode counters shared through the face must add up exactly
 * (atomic increments), per-call counters must count that call only, and
 * the font's memory must come back to where it started.  Built with
 * -fsanitize=thread (the tsan preset) this is also the data race check. */
#include <stdlib.h>
#include <string.h>

#include "test_threads.h"

#include "fontvm/fontvm.h"
#include "fontvm/graphite.h"

#define THREADS 4
#define MAX_LINES 64
#define MAX_LINE 512
#define ROUNDS 3

typedef struct text_lines {
    uint32_t cps[MAX_LINES][MAX_LINE];
    size_t len[MAX_LINES];
    size_t n;
} text_lines;

/* The corpus text file `rel` as code points per line (UTF-8, BMP is all
 * the Myanmar text needs; anything else is skipped). */
static void read_lines(const char *rel, text_lines *t)
{
    FILE *f = test_open_source(rel);
    char buf[4096];
    t->n = 0;
    while (t->n < MAX_LINES && fgets(buf, sizeof buf, f)) {
        size_t n = 0;
        for (const unsigned char *p = (const unsigned char *)buf; *p && n < MAX_LINE;) {
            uint32_t c = *p;
            if (c == '\n' || c == '\r') {
                p++;
                continue;
            }
            if (c < 0x80) {
                p++;
            } else if ((c & 0xE0) == 0xC0 && p[1]) {
                c = (c & 0x1F) << 6 | (p[1] & 0x3F);
                p += 2;
            } else if ((c & 0xF0) == 0xE0 && p[1] && p[2]) {
                c = (c & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
                p += 3;
            } else {
                p++;
                continue;
            }
            t->cps[t->n][n++] = c;
        }
        if (n)
            t->len[t->n++] = n;
    }
    fclose(f);
}

typedef struct job {
    fv_gr_face *face;
    const text_lines *text;
    int rtl;
    int own_counters;          /* counters in the request, else the face's */
    uint64_t counts[256];      /* the request's counters */
    uint64_t digest;
    int failed;
} job;


static uint64_t fbits(float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

static void *shape_all(void *arg)
{
    job *j = arg;
    uint64_t h = TEST_DIGEST_START;
    memset(j->counts, 0, sizeof j->counts);
    for (int round = 0; round < ROUNDS; round++) {
        for (size_t l = 0; l < j->text->n; l++) {
            fv_gr_shape_request req;
            memset(&req, 0, sizeof req);
            req.text = j->text->cps[l];
            req.length = j->text->len[l];
            req.rtl = j->rtl;
            if (j->own_counters)
                req.op_counts = j->counts;
            fv_gr_segment *seg = NULL;
            fv_error err;
            fv_status st = fv_gr_shape(j->face, &req, &seg, &err);
            h = test_digest(h, (uint64_t)st);
            if (st != FV_OK) {
                j->failed = 1;
                continue;
            }
            h = test_digest(h, fbits(seg->advance_x));
            for (size_t i = 0; i < seg->num_slots; i++) {
                const fv_gr_slot_info *s = &seg->slots[i];
                h = test_digest(test_digest(test_digest(h, s->gid), fbits(s->x)), fbits(s->y));
                h = test_digest(test_digest(test_digest(h, (uint32_t)s->attached_to), (uint32_t)s->before),
                        (uint32_t)s->after);
            }
            fv_gr_segment_free(j->face, seg);
        }
    }
    j->digest = h;
    return NULL;
}

static uint64_t total(const uint64_t *c)
{
    uint64_t t = 0;
    for (int i = 0; i < 256; i++)
        t += c[i];
    return t;
}

static void test_threads_match_sequential(void **state)
{
    (void)state;
    char path[1024];
    test_source_path(path, sizeof path, TEST_PEER_GRAPHITE2 "/fonts/Padauk.ttf");
    fv_font *font = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    assert_int_equal(fv_font_open_file(path, 0, NULL, &font, &err), FV_OK);
    assert_int_equal(fv_gr_face_new(font, &face, &err), FV_OK);
    static text_lines myanmar, latin;
    read_lines("corpus/texts/myanmar.txt", &myanmar);
    read_lines("corpus/texts/latin.txt", &latin);
    assert_true(myanmar.n > 10 && latin.n > 10);

    /* threads 0 and 1 count into the face's array (set before sharing);
     * 2 and 3 into their requests' own */
    static uint64_t face_counts[256];
    fv_gr_set_trace(face, NULL, NULL, face_counts);
    static job alone[THREADS], together[THREADS];
    const text_lines *texts[THREADS] = {&myanmar, &latin, &myanmar, &latin};
    for (int t = 0; t < THREADS; t++) {
        alone[t] = (job){.face = face, .text = texts[t], .rtl = t == 3, .own_counters = 1};
        shape_all(&alone[t]);
        together[t] = alone[t];
        together[t].own_counters = t >= 2;
    }
    assert_int_equal(total(face_counts), 0); /* the requests' counters took it all */
    size_t live_before = fv_font_memory_in_use(font);

    test_run_in_threads(shape_all, together, sizeof together[0], THREADS);

    for (int t = 0; t < THREADS; t++) {
        assert_int_equal(alone[t].failed, 0);
        assert_int_equal(together[t].failed, 0);
        assert_true(alone[t].digest == together[t].digest);
    }
    /* the face's counters: exactly threads 0 and 1's work */
    for (int op = 0; op < 256; op++)
        assert_true(face_counts[op] == alone[0].counts[op] + alone[1].counts[op]);
    assert_true(total(face_counts) > 1000);
    for (int t = 2; t < THREADS; t++)
        assert_memory_equal(together[t].counts, alone[t].counts, sizeof alone[t].counts);
    assert_true(alone[1].digest != alone[3].digest); /* rtl differs: the digest measures */
    assert_int_equal(fv_font_memory_in_use(font), live_before);
    fv_gr_face_free(face);
    fv_font_close(font);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_match_sequential),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
