/* Graphite load-time verifier: each rejection with its error kind, and
 * well-formed code accepted. */
#include "gr_test_util.h"

static fv_status verify(gr_fixture *f, const uint8_t *code, size_t len, int constraint,
                        int positioning, fv_error *err)
{
    grv_verify_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.face = &f->face;
    ctx.silf = &f->face.silf;
    ctx.is_constraint = constraint;
    ctx.pass_type = positioning ? GRV_PASS_POSITIONING : GRV_PASS_SUBSTITUTE;
    ctx.rule_length = 3;
    ctx.pre_context = 1;
    ctx.pass_index = 0;
    ctx.rule_index = 7;
    grv_code c;
    c.code.data = code;
    c.code.len = len;
    c.offset = 100;
    return grv_verify(&ctx, c, err);
}

#define REJECT(want_, constraint, positioning, ...)                               \
    do {                                                                         \
        const uint8_t c_[] = {__VA_ARGS__};                                      \
        fv_error e_;                                                             \
        assert_int_equal(verify(&f, c_, sizeof c_, constraint, positioning, &e_), \
                         (want_));                                               \
        assert_int_equal(e_.kind, (want_));                                       \
    } while (0)
#define ACCEPT(constraint, positioning, ...)                                     \
    do {                                                                         \
        const uint8_t c_[] = {__VA_ARGS__};                                      \
        fv_error e_;                                                             \
        assert_int_equal(verify(&f, c_, sizeof c_, constraint, positioning, &e_), \
                         FV_OK);                                                 \
    } while (0)

static void test_accepts_good_code(void **state)
{
    (void)state;
    gr_fixture f;
    gr_fixture_init(&f);
    ACCEPT(1, 0, GRV_OP_PUSH_BYTE, 1, GRV_OP_POP_RET);
    ACCEPT(0, 0, GRV_OP_PUT_GLYPH_8BIT_OBS, 1, GRV_OP_NEXT, GRV_OP_RET_ZERO);
    ACCEPT(0, 0, GRV_OP_INSERT, GRV_OP_PUT_COPY, 1, GRV_OP_NEXT, GRV_OP_RET_ZERO);
    ACCEPT(1, 0, GRV_OP_CNTXT_ITEM, 1, 3, GRV_OP_PUSH_GLYPH_ATTR_OBS, 3, 0, GRV_OP_POP_RET);
    ACCEPT(0, 0, GRV_OP_PUSH_BYTE, 5, GRV_OP_SET_FEAT, 0, 0, GRV_OP_RET_TRUE);
    ACCEPT(1, 0, GRV_OP_PUSH_BYTE, 5, GRV_OP_BITNOT, GRV_OP_SETBITS, 0, 1, 0, 1,
           GRV_OP_POP_RET);
    /* empty code is "no code" */
    fv_error e;
    assert_int_equal(verify(&f, NULL, 0, 1, 0, &e), FV_OK);
}

static void test_unknown_and_unimplemented(void **state)
{
    (void)state;
    gr_fixture f;
    gr_fixture_init(&f);
    REJECT(FV_E_GR_BAD_OPCODE, 0, 0, 0x43, GRV_OP_RET_ZERO);
    REJECT(FV_E_GR_BAD_OPCODE, 0, 0, 0xff, GRV_OP_RET_ZERO);
    REJECT(FV_E_GR_BAD_OPCODE, 0, 0, GRV_OP_NEXT_N, 1, GRV_OP_RET_ZERO);
    REJECT(FV_E_GR_BAD_OPCODE, 1, 0, GRV_OP_PUSH_IGLYPH_ATTR, 0, 0, 0, GRV_OP_POP_RET);
    ACCEPT(1, 0, GRV_OP_PUSH_PROC_STATE, 0, GRV_OP_POP_RET); /* graphite2 accepts it */
    REJECT(FV_E_GR_BAD_OPCODE, 0, 0, GRV_OP_PUT_SUBS2, GRV_OP_RET_ZERO);
    REJECT(FV_E_GR_BAD_OPCODE, 0, 0, GRV_OP_PUT_SUBS3, GRV_OP_RET_ZERO);
    /* the error names the opcode, the pc and the table offset */
    const uint8_t c[] = {GRV_OP_NOP, 0x50, GRV_OP_RET_ZERO};
    fv_error e;
    verify(&f, c, sizeof c, 0, 0, &e);
    assert_int_equal(e.opcode, 0x50);
    assert_int_equal(e.pc, 1);
    assert_int_equal(e.offset, 101);
    assert_int_equal(e.table, SFNT_TAG_Silf);
}

static void test_disallowed_here(void **state)
{
    (void)state;
    gr_fixture f;
    gr_fixture_init(&f);
    /* actions in constraint code */
    REJECT(FV_E_GR_BAD_OPCODE, 1, 0, GRV_OP_NEXT, GRV_OP_RET_TRUE);
    REJECT(FV_E_GR_BAD_OPCODE, 1, 0, GRV_OP_PUSH_BYTE, 1, GRV_OP_ATTR_SET, 0, GRV_OP_RET_TRUE);
    REJECT(FV_E_GR_BAD_OPCODE, 1, 0, GRV_OP_PUT_GLYPH_8BIT_OBS, 0, GRV_OP_RET_TRUE);
    /* Insert/Delete outside substitution passes */
    REJECT(FV_E_GR_BAD_OPCODE, 0, 1, GRV_OP_INSERT, GRV_OP_RET_ZERO);
    REJECT(FV_E_GR_BAD_OPCODE, 0, 1, GRV_OP_DELETE, GRV_OP_RET_ZERO);
}

static void test_overrun(void **state)
{
    (void)state;
    gr_fixture f;
    gr_fixture_init(&f);
    REJECT(FV_E_GR_CODE_OVERRUN, 1, 0, GRV_OP_PUSH_SHORT, 1);
    REJECT(FV_E_GR_CODE_OVERRUN, 1, 0, GRV_OP_PUSH_LONG, 1, 2, 3);
    REJECT(FV_E_GR_CODE_OVERRUN, 0, 0, GRV_OP_ASSOC, 3, 0, 0);
    /* ContextItem skipping to or past the end */
    REJECT(FV_E_GR_CODE_OVERRUN, 1, 0, GRV_OP_CNTXT_ITEM, 0, 3, GRV_OP_PUSH_BYTE, 1,
           GRV_OP_POP_RET);
}

static void test_stack(void **state)
{
    (void)state;
    gr_fixture f;
    gr_fixture_init(&f);
    REJECT(FV_E_GR_STACK_UNDERFLOW, 1, 0, GRV_OP_ADD, GRV_OP_POP_RET);
    REJECT(FV_E_GR_STACK_UNDERFLOW, 1, 0, GRV_OP_PUSH_BYTE, 1, GRV_OP_COND, GRV_OP_POP_RET);
    REJECT(FV_E_GR_STACK_UNDERFLOW, 1, 0, GRV_OP_POP_RET);
    REJECT(FV_E_GR_STACK_UNDERFLOW, 0, 0, GRV_OP_ATTR_SET, 0, GRV_OP_RET_ZERO);
    /* graphite2 counts a binary operator as needing a deeper stack than it
     * pops (its "--depth <= 0" test): one value under an Add is enough. */
    ACCEPT(1, 0, GRV_OP_PUSH_BYTE, 1, GRV_OP_PUSH_BYTE, 2, GRV_OP_ADD, GRV_OP_POP_RET);
    REJECT(FV_E_GR_STACK_UNDERFLOW, 1, 0, GRV_OP_PUSH_BYTE, 1, GRV_OP_ADD, GRV_OP_POP_RET);
    /* depth is not bounded at load (the machine checks it at run time) */
    uint8_t big[2 * 1025 + 1];
    for (int i = 0; i < 1025; i++) {
        big[2 * i] = GRV_OP_PUSH_BYTE;
        big[2 * i + 1] = 1;
    }
    big[2 * 1025] = GRV_OP_POP_RET;
    fv_error e;
    assert_int_equal(verify(&f, big, sizeof big, 1, 0, &e), FV_OK);
}

static void test_indexes(void **state)
{
    (void)state;
    gr_fixture f;
    gr_fixture_init(&f);
    REJECT(FV_E_GR_BAD_INDEX, 0, 0, GRV_OP_PUT_GLYPH_8BIT_OBS, 3, GRV_OP_RET_ZERO);
    REJECT(FV_E_GR_BAD_INDEX, 0, 0, GRV_OP_PUT_GLYPH, 1, 0, GRV_OP_RET_ZERO);
    REJECT(FV_E_GR_BAD_INDEX, 0, 0, GRV_OP_PUT_SUBS_8BIT_OBS, 0, 0, 9, GRV_OP_RET_ZERO);
    REJECT(FV_E_GR_BAD_INDEX, 1, 0, GRV_OP_PUSH_GLYPH_ATTR_OBS, 4, 0, GRV_OP_POP_RET);
    REJECT(FV_E_GR_BAD_INDEX, 1, 0, GRV_OP_PUSH_GLYPH_ATTR, 1, 0, 0, GRV_OP_POP_RET);
    REJECT(FV_E_GR_BAD_INDEX, 1, 0, GRV_OP_PUSH_SLOT_ATTR, GRV_SLAT_MAX, 0, GRV_OP_POP_RET);
    REJECT(FV_E_GR_BAD_INDEX, 1, 0, GRV_OP_PUSH_ISLOT_ATTR, GRV_SLAT_USERDEFN, 0, 2,
           GRV_OP_POP_RET);
    REJECT(FV_E_GR_BAD_INDEX, 1, 0, GRV_OP_PUSH_FEAT, 1, 0, GRV_OP_POP_RET);
    REJECT(FV_E_GR_BAD_INDEX, 1, 0, GRV_OP_PUSH_GLYPH_METRIC, GRV_MET_COUNT, 0, 0,
           GRV_OP_POP_RET);
    REJECT(FV_E_GR_BAD_INDEX, 0, 0, GRV_OP_PUSH_BYTE, 1, GRV_OP_ATTR_SET, 200, GRV_OP_RET_ZERO);
}

static void test_slot_refs_and_context(void **state)
{
    (void)state;
    gr_fixture f;
    gr_fixture_init(&f);
    /* rule of 3 slots, 1 pre-context: offset 2 from the first modified slot
     * is past the rule */
    REJECT(FV_E_GR_BAD_INDEX, 0, 0, GRV_OP_PUT_COPY, 2, GRV_OP_RET_ZERO);
    REJECT(FV_E_GR_BAD_INDEX, 0, 0, GRV_OP_ASSOC, 1, 5, GRV_OP_RET_ZERO);
    REJECT(FV_E_GR_BAD_INDEX, 1, 0, GRV_OP_PUSH_SLOT_ATTR, 0, 3, GRV_OP_POP_RET);
    REJECT(FV_E_GR_BAD_INDEX, 1, 0, GRV_OP_CNTXT_ITEM, 2, 1, GRV_OP_NOP, GRV_OP_POP_RET);
    /* ContextItem in action code: graphite2 refuses the font (F-7) */
    REJECT(FV_E_GR_BAD_OPCODE, 0, 0, GRV_OP_CNTXT_ITEM, 0, 1, GRV_OP_NOP, GRV_OP_RET_ZERO);
    REJECT(FV_E_GR_BAD_OPCODE, 0, 1, GRV_OP_PUT_GLYPH_8BIT_OBS, 0, GRV_OP_CNTXT_ITEM, 0, 2,
           GRV_OP_PUT_GLYPH_8BIT_OBS, 0, GRV_OP_RET_ZERO);
    /* nested ContextItem */
    REJECT(FV_E_GR_BAD_OPCODE, 1, 0, GRV_OP_CNTXT_ITEM, 0, 6, GRV_OP_CNTXT_ITEM, 0, 1,
           GRV_OP_NOP, GRV_OP_NOP, GRV_OP_NOP, GRV_OP_POP_RET);
    /* an inner skip is bounded by its ContextItem block */
    REJECT(FV_E_GR_CODE_OVERRUN, 1, 0, GRV_OP_CNTXT_ITEM, 0, 4, GRV_OP_CNTXT_ITEM, 0, 1,
           GRV_OP_NOP, GRV_OP_NOP, GRV_OP_POP_RET);
    /* Delete in the pre-context, Assoc of nothing */
    REJECT(FV_E_GR_BAD_INDEX, 0, 0, GRV_OP_ASSOC, 0, GRV_OP_RET_ZERO);
}

/* graphite2's output length is an unsigned 16-bit count (F-13, each case
 * measured with graphite2 1.3.14 on small.ttf). */
static void test_output_length_wraps(void **state)
{
    (void)state;
    gr_fixture f;
    gr_fixture_init(&f);
    enum { CN = GRV_OP_COPY_NEXT, DEL = GRV_OP_DELETE, NX = GRV_OP_NEXT, INS = GRV_OP_INSERT,
           R0 = GRV_OP_RET_ZERO };
    /* the length wraps below zero: Next's bound no longer bites */
    const uint8_t a[] = {CN, DEL, DEL, NX, DEL, NX, R0};
    assert_int_equal(gr_verify_sort2(&f, a, sizeof a), FV_OK);
    /* ... and an Insert wraps it back to 0: output slot 0 is outside */
    const uint8_t b[] = {CN, DEL, DEL, NX, DEL, INS, R0};
    assert_int_equal(gr_verify_sort2(&f, b, sizeof b), FV_E_GR_BAD_INDEX);
    /* from -2 an Insert leaves it wrapped: accepted */
    const uint8_t c[] = {CN, DEL, DEL, NX, DEL, NX, DEL, INS, R0};
    assert_int_equal(gr_verify_sort2(&f, c, sizeof c), FV_OK);
    /* at length 0 the bound holds: Next to output slot 1 is refused */
    const uint8_t d[] = {DEL, NX, DEL, NX, NX, R0};
    assert_int_equal(gr_verify_sort2(&f, d, sizeof d), FV_E_GR_BAD_INDEX);
}

static void test_missing_return(void **state)
{
    (void)state;
    gr_fixture f;
    gr_fixture_init(&f);
    REJECT(FV_E_GR_NO_RETURN, 1, 0, GRV_OP_PUSH_BYTE, 1);
    REJECT(FV_E_GR_NO_RETURN, 0, 0, GRV_OP_NEXT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accepts_good_code),
        cmocka_unit_test(test_unknown_and_unimplemented),
        cmocka_unit_test(test_disallowed_here),
        cmocka_unit_test(test_overrun),
        cmocka_unit_test(test_stack),
        cmocka_unit_test(test_indexes),
        cmocka_unit_test(test_slot_refs_and_context),
        cmocka_unit_test(test_output_length_wraps),
        cmocka_unit_test(test_missing_return),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
