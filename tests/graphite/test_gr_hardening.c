/* Hardening of the Graphite engine that no reference decides: requests
 * fv_gr_shape refuses (non-finite or absurd justification, inconsistent
 * arrays), and the check every slot link gets in every build (an engine
 * invariant, so the test breaks it by hand).  Shaping uses graphite2's
 * test font small.ttf. */
#define _POSIX_C_SOURCE 200809L /* fork, waitpid */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fontvm/fontvm.h"
#include "fontvm/graphite.h"
#include "gr_test_util.h"
#include "graphite/grv.h"
#include "test_support.h"

typedef struct small_face {
    fv_font *font;
    fv_gr_face *face;
} small_face;

static int setup(void **state)
{
    char path[1024];
    test_source_path(path, sizeof path, TEST_PEER_GRAPHITE2 "/fonts/small.ttf");
    small_face *sf = calloc(1, sizeof *sf);
    fv_error err;
    if (!sf || fv_font_open_file(path, 0, NULL, &sf->font, &err) != FV_OK ||
        fv_gr_face_new(sf->font, &sf->face, &err) != FV_OK) {
        free(sf);
        return -1;
    }
    *state = sf;
    return 0;
}

static int teardown(void **state)
{
    small_face *sf = *state;
    fv_gr_face_free(sf->face);
    fv_font_close(sf->font);
    free(sf);
    return 0;
}

static const uint32_t text[] = {'a', 'b', 'c', ' ', 'a', 'b'};

static fv_status shape_justified(small_face *sf, float percent, fv_error *err)
{
    fv_gr_shape_request req;
    memset(&req, 0, sizeof req);
    req.text = text;
    req.length = FV_ARRAY_LEN(text);
    req.justify_percent = percent;
    fv_gr_segment *seg = NULL;
    fv_status st = fv_gr_shape(sf->face, &req, &seg, err);
    if (st == FV_OK) {
        assert_int_equal(seg->num_chars, FV_ARRAY_LEN(text));
        assert_true(seg->num_slots > 0);
        fv_gr_segment_free(sf->face, seg);
    } else {
        assert_null(seg);
    }
    return st;
}

/* issue 14: justify_percent = 1e30 overflowed an int in grv_justify (UBSan
 * segment.c:803); graphite2 casts such widths with undefined behaviour, so
 * fontvm refuses them by name, with the value in the detail. */
static void test_absurd_justification_refused(void **state)
{
    small_face *sf = *state;
    fv_error err;
    const float bad[] = {1e30f, NAN, INFINITY, -INFINITY, -1.0f, 10000.5f};
    for (size_t i = 0; i < FV_ARRAY_LEN(bad); i++) {
        assert_int_equal(shape_justified(sf, bad[i], &err), FV_E_BAD_ARGUMENT);
        assert_non_null(strstr(err.detail, "justify_percent"));
    }
    /* the bounds themselves and everything between are shaped */
    assert_int_equal(shape_justified(sf, 0.0f, &err), FV_OK);
    assert_int_equal(shape_justified(sf, 1e-30f, &err), FV_OK);
    assert_int_equal(shape_justified(sf, 150.0f, &err), FV_OK);
    assert_int_equal(shape_justified(sf, 10000.0f, &err), FV_OK);
}

static void test_inconsistent_arrays_refused(void **state)
{
    small_face *sf = *state;
    fv_gr_shape_request req;
    memset(&req, 0, sizeof req);
    req.text = text;
    req.length = 2;
    req.num_features = 3; /* and no array */
    fv_gr_segment *seg = NULL;
    fv_error err;
    assert_int_equal(fv_gr_shape(sf->face, &req, &seg, &err), FV_E_BAD_ARGUMENT);
    req.num_features = 0;
    req.length = 1000001; /* GRV_MAX_TEXT + 1: refused before reading the text */
    assert_int_equal(fv_gr_shape(sf->face, &req, &seg, &err), FV_E_BAD_ARGUMENT);
    assert_non_null(strstr(err.detail, "code points"));
}

/* Runs a scenario that breaks an engine invariant by hand.  The builds that
 * trap on a broken invariant (FV_CHECKS_TRAP: debug, ASan, coverage,
 * fuzzing; vm/common/check.h) must die on it, so it runs in a child process
 * that the trap has to kill.  Release builds take the defensive branch, and
 * the scenario checks its result here. */
static void broken_invariant(void (*scenario)(void))
{
#if FV_CHECKS_TRAP
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGILL, SIG_DFL); /* the default action, not cmocka's handler */
        signal(SIGTRAP, SIG_DFL);
        scenario();
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_true(WTERMSIG(status) == SIGILL || WTERMSIG(status) == SIGTRAP);
#else
    scenario();
#endif
}

/* A link outside the pool (which only an engine bug could write) is caught
 * by grv_link in every build: the walk gets the spare slot, whose links
 * end it, and the segment reports gr_slot_link with the index.  Under ASan
 * an unchecked index here would be a heap overflow. */
static void bad_link_walked(void)
{
    gr_fixture f;
    gr_fixture_init(&f);
    const uint16_t gids[] = {1, 2, 3};
    gr_fixture_seg(&f, gids, 3);
    fv_error err;
    assert_int_equal(grv_link_status(&f.seg, &err), FV_OK);
    f.seg.slots[1].next = 100000; /* breaks the invariant */
    f.seg.cur_pass = 4;
    grv_associate_chars(&f.seg);  /* walks the stream through the bad link */
    float ax, ay;
    grv_position_slots(&f.seg, GRV_NIL, GRV_NIL, 0, &ax, &ay);
    assert_int_equal(grv_link_status(&f.seg, &err), FV_E_GR_SLOT_LINK);
    assert_int_equal(err.index, 100000);
    assert_string_equal(fv_status_name(err.kind), "gr_slot_link");
    assert_non_null(strstr(err.detail, "pass 4"));
    /* the slots before the bad link were walked as usual */
    assert_int_equal(f.seg.slots[0].index, 0);
    assert_int_equal(f.seg.slots[1].index, 1);
    gr_fixture_free(&f);
}

static void test_bad_link_caught(void **state)
{
    (void)state;
    broken_invariant(bad_link_walked);
}

/* NEXT in rule code follows the current slot's link: the same check when
 * the second NEXT follows the bad one. */
static void bad_link_in_machine(void)
{
    gr_fixture f;
    gr_fixture_init(&f);
    const uint16_t gids[] = {1, 2};
    gr_fixture_seg(&f, gids, 2);
    f.seg.slots[0].next = -7;
    const uint8_t code[] = {GRV_OP_NEXT, GRV_OP_NEXT, GRV_OP_RET_TRUE};
    gr_run(&f, code, sizeof code, 1);
    fv_error err;
    assert_int_equal(grv_link_status(&f.seg, &err), FV_E_GR_SLOT_LINK);
    assert_int_equal(err.index, -7);
    gr_fixture_free(&f);
}

static void test_bad_link_in_machine(void **state)
{
    (void)state;
    broken_invariant(bad_link_in_machine);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_absurd_justification_refused),
        cmocka_unit_test(test_inconsistent_arrays_refused),
        cmocka_unit_test(test_bad_link_caught),
        cmocka_unit_test(test_bad_link_in_machine),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
