/* opcodes.def tables: names, mnemonics with flags, decoder. */
#include "test_interp_harness.h"

#include <stdio.h>

#include "tt/opcodes.h"

static void test_ranges_ordered_and_disjoint(void **state)
{
    (void)state;
    int owner[256];
    for (int i = 0; i < 256; i++)
        owner[i] = -1;
    int idx = 0, prev_first = -1;
#define X(m, first, bits, pops, pushes, inl, fam)                                  \
    assert_true((first) > prev_first);                                             \
    prev_first = (first);                                                          \
    for (int k = 0; k < (1 << (bits)); k++) {                                      \
        assert_int_equal(owner[(first) + k], -1);                                  \
        owner[(first) + k] = idx;                                                  \
    }                                                                              \
    idx++;
#include "tt/opcodes.def"
#undef X
    /* The instruction set defines every opcode except these. */
    int undefined = 0;
    for (int i = 0; i < 256; i++)
        if (owner[i] < 0) {
            undefined++;
            assert_false(tt_opcode_defined((uint8_t)i));
            assert_string_equal(tt_opcode_name((uint8_t)i), "UNDEF");
        }
    /* 0x28, 0x7B, 0x83, 0x84, 0x8F-0xAF */
    assert_int_equal(undefined, 4 + (0xAF - 0x8F + 1));
}

static void test_names_and_mnemonics(void **state)
{
    (void)state;
    char buf[32];
    assert_string_equal(tt_opcode_name(0xED), "MIRP");
    tt_format_mnemonic(0xED, buf, sizeof buf);
    assert_string_equal(buf, "MIRP[01101]");
    tt_format_mnemonic(0xB2, buf, sizeof buf);
    assert_string_equal(buf, "PUSHB[010]");
    tt_format_mnemonic(0x00, buf, sizeof buf);
    assert_string_equal(buf, "SVTCA[0]");
    tt_format_mnemonic(0x01, buf, sizeof buf);
    assert_string_equal(buf, "SVTCA[1]");
    tt_format_mnemonic(0x4A, buf, sizeof buf);
    assert_string_equal(buf, "MD[1]");
    tt_format_mnemonic(0x6B, buf, sizeof buf);
    assert_string_equal(buf, "ROUND[11]");
    tt_format_mnemonic(0x60, buf, sizeof buf);
    assert_string_equal(buf, "ADD");
    tt_format_mnemonic(0x91, buf, sizeof buf);
    assert_string_equal(buf, "UNDEF_0x91");
    const tt_opinfo *mirp = tt_opinfo_get(0xE3);
    assert_int_equal(mirp->pops, 2);
    assert_int_equal(mirp->family, TT_FAM_POINTS);
}

static void test_decode(void **state)
{
    (void)state;
    static const uint8_t code[] = { 0x40, 0x02, 0x05, 0x06, 0xB9, 0xFF, 0xFE, 0x00, 0x01,
                                    0x60, 0x41, 0x01, 0x80 };
    fv_span s = { code, sizeof code };
    tt_insn in;
    assert_int_equal(tt_decode(s, 0, &in), FV_OK);
    assert_int_equal(in.length, 4);
    assert_int_equal(in.num_values, 2);
    assert_int_equal(tt_insn_value(&in, 1), 6);
    assert_int_equal(tt_decode(s, 4, &in), FV_OK);
    assert_int_equal(in.length, 5);
    assert_int_equal(tt_insn_value(&in, 0), -2); /* words are signed */
    assert_int_equal(tt_insn_value(&in, 1), 1);
    assert_int_equal(tt_decode(s, 9, &in), FV_OK);
    assert_int_equal(in.length, 1);
    /* NPUSHW with one word needs 4 bytes; only 3 remain. */
    assert_int_equal(tt_decode(s, 10, &in), FV_E_TT_CODE_OVERFLOW);
    assert_int_equal(tt_decode(s, sizeof code, &in), FV_E_TT_CODE_OVERFLOW);
}

static void test_dispatch_variant(void **state)
{
    (void)state;
#ifdef TT_EXPECT_DISPATCH
    assert_string_equal(tt_dispatch_kind(), TT_EXPECT_DISPATCH);
#else
    const char *k = tt_dispatch_kind();
    assert_true(strcmp(k, "switch") == 0 || strcmp(k, "computed-goto") == 0);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranges_ordered_and_disjoint),
        cmocka_unit_test(test_names_and_mnemonics),
        cmocka_unit_test(test_decode),
        cmocka_unit_test(test_dispatch_variant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
