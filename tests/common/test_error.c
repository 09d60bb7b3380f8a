/* Error names are stable and formatting gives the documented shapes. */
#include <string.h>

#include "test_support.h"

#include "common/reader.h"
#include "fontvm/error.h"

static void test_names_are_unique_and_stable(void **state)
{
    (void)state;
    assert_string_equal(fv_status_name(FV_OK), "ok");
    assert_string_equal(fv_status_name(FV_E_TRUNCATED), "truncated");
    assert_string_equal(fv_status_name(FV_E_TT_INVALID_POINT), "tt_invalid_point");
    assert_string_equal(fv_status_name((fv_status)9999), "unknown_error");
    for (int i = 0; i < FV_E_COUNT_; i++) {
        assert_non_null(fv_status_description((fv_status)i));
        for (int j = i + 1; j < FV_E_COUNT_; j++)
            assert_true(strcmp(fv_status_name((fv_status)i), fv_status_name((fv_status)j)) != 0);
    }
}

static void test_vm_error_format(void **state)
{
    (void)state;
    fv_error e;
    char buf[128];
    fv_error_clear(&e);
    e.kind = FV_E_TT_INVALID_POINT;
    e.program = FV_PROG_GLYF;
    e.glyph = 36;
    e.pc = 17;
    e.opcode = 0xED;
    strcpy(e.opname, "MIRP[01101]");
    e.index = 412;
    fv_error_format(&e, buf, sizeof buf);
    assert_string_equal(buf, "glyf[36]@17:MIRP[01101]: invalid point 412");
    e.program = FV_PROG_PREP;
    e.glyph = FV_NO_VALUE;
    e.kind = FV_E_TT_STACK_UNDERFLOW;
    e.index = INT64_MIN;
    strcpy(e.opname, "ADD");
    e.pc = 3;
    fv_error_format(&e, buf, sizeof buf);
    assert_string_equal(buf, "prep@3:ADD: stack underflow");
}

static void test_table_error_format(void **state)
{
    (void)state;
    fv_error e;
    char buf[128];
    fv_error_clear(&e);
    e.kind = FV_E_TRUNCATED;
    e.table = FV_TAG('c', 'v', 't', ' ');
    e.offset = 0x1A2C;
    fv_error_format(&e, buf, sizeof buf);
    assert_string_equal(buf, "cvt@0x1A2C: truncated");
    /* A short buffer truncates but stays terminated; the return value is the
     * full length, as snprintf's. */
    char small[8];
    int n = fv_error_format(&e, small, sizeof small);
    assert_int_equal(n, (int)strlen("cvt@0x1A2C: truncated"));
    assert_int_equal(strlen(small), 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_are_unique_and_stable),
        cmocka_unit_test(test_vm_error_format),
        cmocka_unit_test(test_table_error_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
