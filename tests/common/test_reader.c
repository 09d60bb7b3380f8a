/* The bounded reader never reads past its span and reports truncation. */
#include "test_support.h"

#include "common/reader.h"

static const uint8_t bytes[] = {0x01, 0x02, 0x83, 0x04, 0xFF, 0xFE, 0x00, 0x10};

static void test_reads_in_bounds(void **state)
{
    (void)state;
    fv_span s = {bytes, sizeof bytes};
    uint8_t u8;
    uint16_t u16;
    int16_t s16;
    uint32_t u32;
    int32_t s32;
    assert_int_equal(fv_rd_u8(s, 2, &u8), FV_OK);
    assert_int_equal(u8, 0x83);
    assert_int_equal(fv_rd_u16(s, 0, &u16), FV_OK);
    assert_int_equal(u16, 0x0102);
    assert_int_equal(fv_rd_s16(s, 4, &s16), FV_OK);
    assert_int_equal(s16, -2);
    assert_int_equal(fv_rd_u24(s, 1, &u32), FV_OK);
    assert_int_equal(u32, 0x028304);
    assert_int_equal(fv_rd_u32(s, 4, &u32), FV_OK);
    assert_int_equal(u32, 0xFFFE0010u);
    assert_int_equal(fv_rd_s32(s, 4, &s32), FV_OK);
    assert_int_equal(s32, (int32_t)0xFFFE0010u);
}

static void test_rejects_out_of_bounds(void **state)
{
    (void)state;
    fv_span s = {bytes, sizeof bytes};
    uint8_t u8 = 0xAA;
    uint16_t u16 = 0xAAAA;
    uint32_t u32 = 0xAAAAAAAA;
    assert_int_equal(fv_rd_u8(s, 8, &u8), FV_E_TRUNCATED);
    assert_int_equal(u8, 0xAA); /* output untouched on failure */
    assert_int_equal(fv_rd_u16(s, 7, &u16), FV_E_TRUNCATED);
    assert_int_equal(fv_rd_u32(s, 5, &u32), FV_E_TRUNCATED);
    /* Offsets that would wrap a 64-bit addition are rejected, not wrapped. */
    assert_int_equal(fv_rd_u32(s, UINT64_MAX - 1, &u32), FV_E_TRUNCATED);
    assert_int_equal(u32, 0xAAAAAAAA);
    fv_span sub;
    assert_int_equal(fv_span_sub(s, 4, 4, &sub), FV_OK);
    assert_int_equal(sub.len, 4);
    assert_int_equal(fv_span_sub(s, 4, 5, &sub), FV_E_TRUNCATED);
    assert_int_equal(fv_span_sub(s, 9, 0, &sub), FV_E_TRUNCATED);
    assert_int_equal(fv_span_sub(s, UINT64_MAX, 2, &sub), FV_E_TRUNCATED);
    assert_int_equal(fv_span_tail(s, 8, &sub), FV_OK);
    assert_int_equal(sub.len, 0);
    /* The empty span reads nothing. */
    fv_span empty = {NULL, 0};
    assert_int_equal(fv_rd_u8(empty, 0, &u8), FV_E_TRUNCATED);
}

static void test_cursor(void **state)
{
    (void)state;
    fv_cursor c = fv_cursor_at((fv_span){bytes, sizeof bytes}, 0);
    uint16_t a;
    uint32_t b;
    assert_int_equal(fv_cur_u16(&c, &a), FV_OK);
    assert_int_equal(a, 0x0102);
    assert_int_equal(fv_cur_u32(&c, &b), FV_OK);
    assert_int_equal(b, 0x8304FFFEu);
    assert_int_equal(c.pos, 6);
    assert_int_equal(fv_cur_u32(&c, &b), FV_E_TRUNCATED);
    assert_int_equal(c.pos, 6); /* no advance on failure */
    assert_int_equal(fv_cur_skip(&c, 3), FV_E_TRUNCATED);
    assert_int_equal(fv_cur_skip(&c, 2), FV_OK);
    assert_int_equal(c.pos, 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_in_bounds),
        cmocka_unit_test(test_rejects_out_of_bounds),
        cmocka_unit_test(test_cursor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
