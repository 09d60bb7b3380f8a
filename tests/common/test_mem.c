/* The memory accountant enforces its cap and tracks live/peak bytes. */
#include "test_support.h"

#include "common/mem.h"

static void test_cap_enforced(void **state)
{
    (void)state;
    fv_allocator a = {NULL, NULL, NULL, 4096};
    fv_mem m;
    fv_mem_init(&m, &a);
    void *p = fv_mem_alloc(&m, 1000);
    assert_non_null(p);
    assert_null(fv_mem_alloc(&m, 4000)); /* would exceed the cap */
    void *q = fv_mem_calloc(&m, 1000);
    assert_non_null(q);
    assert_int_equal(((unsigned char *)q)[999], 0);
    assert_true(m.live > 2000);
    fv_mem_free(&m, p);
    fv_mem_free(&m, q);
    assert_int_equal(m.live, 0);
    assert_true(m.peak >= 2000);
    assert_null(fv_mem_array(&m, SIZE_MAX / 2, 4)); /* overflow refused */
    assert_null(fv_mem_alloc(&m, SIZE_MAX));
}

struct counting {
    int calls, fail_at;
};

static void *failing_alloc(void *user, size_t n)
{
    struct counting *c = user;
    if (++c->calls == c->fail_at)
        return NULL;
    return malloc(n);
}

static void plain_free(void *user, void *p, size_t n)
{
    (void)user;
    (void)n;
    free(p);
}

static void test_custom_allocator_failure(void **state)
{
    (void)state;
    struct counting c = {0, 2};
    fv_allocator a = {failing_alloc, plain_free, &c, 0};
    fv_mem m;
    fv_mem_init(&m, &a);
    void *p = fv_mem_alloc(&m, 10);
    assert_non_null(p);
    assert_null(fv_mem_alloc(&m, 10)); /* the 2nd allocation fails as told */
    fv_mem_free(&m, p);
    assert_int_equal(m.live, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cap_enforced),
        cmocka_unit_test(test_custom_allocator_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
