/* The thread rule of fontvm/graphite.h, broken on purpose: one thread calls
 * fv_gr_set_trace on a face while another shapes with it.  Built only by
 * the tsan preset, where ctest passes only if ThreadSanitizer reports the
 * data race (PASS_REGULAR_EXPRESSION in unit.cmake).  Two things are shown
 * at once: the rule in the header is a real one (set_trace writes what
 * fv_gr_shape reads), and the tsan build is live — a build that lost its
 * instrumentation, or a suppression that hid races, would pass
 * test_gr_threads silently but fail here. */
/* pthread barriers are POSIX 2001, hidden by -std=c11 without this. */
#define _POSIX_C_SOURCE 200112L /* and nanosleep */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "test_support.h"

#include "fontvm/fontvm.h"
#include "fontvm/graphite.h"

#define SHAPES 200

static fv_gr_face *face;
static uint64_t counts[256];
/* Both threads start together. */
static pthread_barrier_t start;
/* Relaxed, so that they order nothing: the race must stay a race. */
static atomic_int shaping_done;
static atomic_int trace_switches;

static void *switch_trace(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start);
    unsigned i = 0;
    do {
        fv_gr_set_trace(face, NULL, NULL, (i++ & 1) ? counts : NULL);
        atomic_fetch_add_explicit(&trace_switches, 1, memory_order_relaxed);
        /* slowly: ThreadSanitizer drops a race whose earlier access has
         * left its per-thread history, and a tight loop here wrote ~300,000
         * times per run and lost about half the reports (with history_size
         * 7, set by unit.cmake, too) */
        nanosleep(&(struct timespec){.tv_nsec = 100000}, NULL);
    } while (!atomic_load_explicit(&shaping_done, memory_order_relaxed));
    return NULL;
}

static void *shape(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start);
    static const uint32_t text[] = {0x1000, 0x103A, 0x1014, 0x1039, 0x1010, 0x102C};
    /* until the other thread has switched a few times, so that both are
     * alive together (a race with a thread that has ended went unreported
     * in about half the runs) */
    for (int i = 0; i < SHAPES || atomic_load_explicit(&trace_switches, memory_order_relaxed) < 8; i++) {
        fv_gr_shape_request req = {.text = text, .length = sizeof text / sizeof text[0]};
        fv_gr_segment *seg = NULL;
        fv_error err;
        if (fv_gr_shape(face, &req, &seg, &err) == FV_OK)
            fv_gr_segment_free(face, seg);
    }
    atomic_store_explicit(&shaping_done, 1, memory_order_relaxed);
    return NULL;
}

int main(void)
{
    char path[1024];
    test_source_path(path, sizeof path, TEST_PEER_GRAPHITE2 "/fonts/Padauk.ttf");
    fv_font *font = NULL;
    fv_error err;
    if (fv_font_open_file(path, 0, NULL, &font, &err) != FV_OK || fv_gr_face_new(font, &face, &err) != FV_OK) {
        fprintf(stderr, "cannot open %s\n", path);
        return 2;
    }
    pthread_t a, b;
    if (pthread_barrier_init(&start, NULL, 2) || pthread_create(&a, NULL, shape, NULL) || pthread_create(&b, NULL, switch_trace, NULL))
        return 2;
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_barrier_destroy(&start);
    fv_gr_face_free(face);
    fv_font_close(font);
    /* Reached only if ThreadSanitizer did not stop the run: the regular
     * expression then decides (its report goes to stderr, this to stdout). */
    printf("both threads finished (%d trace switches)\n", atomic_load(&trace_switches));
    return 0;
}
