/* Graphite stack machine: opcode semantics against hand-computed values. */
#include <limits.h>

#include "gr_test_util.h"

static int32_t run_expr(const uint8_t *code, size_t len, grv_status *st)
{
    gr_fixture f;
    gr_fixture_init(&f);
    uint16_t g[] = {1, 2, 3};
    gr_fixture_seg(&f, g, 3);
    int32_t r = gr_run(&f, code, len, 0);
    *st = f.m.status;
    gr_fixture_free(&f);
    return r;
}

#define EXPR(expect, ...)                                             \
    do {                                                              \
        const uint8_t c_[] = {__VA_ARGS__};                           \
        grv_status st_;                                               \
        int32_t r_ = run_expr(c_, sizeof c_, &st_);                   \
        assert_int_equal(st_, GRV_FINISHED);                          \
        assert_int_equal(r_, (expect));                               \
    } while (0)

#define EXPR_STATUS(status, ...)                                      \
    do {                                                              \
        const uint8_t c_[] = {__VA_ARGS__};                           \
        grv_status st_;                                               \
        (void)run_expr(c_, sizeof c_, &st_);                          \
        assert_int_equal(st_, (status));                              \
    } while (0)

enum { PB = GRV_OP_PUSH_BYTE, PBU = GRV_OP_PUSH_BYTE_U, PS = GRV_OP_PUSH_SHORT,
       PSU = GRV_OP_PUSH_SHORT_U, PL = GRV_OP_PUSH_LONG, RET = GRV_OP_POP_RET };

static void test_push(void **state)
{
    (void)state;
    EXPR(-1, PB, 0xff, RET);
    EXPR(255, PBU, 0xff, RET);
    EXPR(-2, PS, 0xff, 0xfe, RET);
    EXPR(65534, PSU, 0xff, 0xfe, RET);
    EXPR(0x12345678, PL, 0x12, 0x34, 0x56, 0x78, RET);
    EXPR(0x00030000, GRV_OP_PUSH_VERSION, RET);
    EXPR(1, GRV_OP_PUSH_PROC_STATE, 0, RET);
}

static void test_arith_wraps(void **state)
{
    (void)state;
    EXPR(2, PB, 5, PB, 3, GRV_OP_SUB, RET);             /* second minus top */
    EXPR(INT_MIN, PL, 0x7f, 0xff, 0xff, 0xff, PB, 1, GRV_OP_ADD, RET);
    EXPR(0, PL, 0x80, 0, 0, 0, PL, 0x80, 0, 0, 0, GRV_OP_MUL, RET);
    EXPR(INT_MIN, PL, 0x80, 0, 0, 0, GRV_OP_NEG, RET);
    EXPR(-3, PB, 7, PB, (uint8_t)-2, GRV_OP_DIV, RET);  /* truncates toward zero */
    EXPR(-2, PB, 5, PB, (uint8_t)-2, GRV_OP_MIN, RET);   /* signed */
    EXPR(5, PB, 5, PB, (uint8_t)-2, GRV_OP_MAX, RET);
    EXPR(0xff, PS, 0x01, 0xff, GRV_OP_TRUNC8, RET);
    EXPR(0xffff, PL, 0x00, 0x01, 0xff, 0xff, GRV_OP_TRUNC16, RET);
}

static void test_div_dies(void **state)
{
    (void)state;
    EXPR_STATUS(GRV_DIED_EARLY, PB, 5, PB, 0, GRV_OP_DIV, RET);
    EXPR_STATUS(GRV_DIED_EARLY, PL, 0x80, 0, 0, 0, PB, (uint8_t)-1, GRV_OP_DIV, RET);
}

static void test_logic_and_compare(void **state)
{
    (void)state;
    /* Cond: condition deepest, then the "true" value, top is "false". */
    EXPR(20, PB, 1, PB, 20, PB, 30, GRV_OP_COND, RET);
    EXPR(30, PB, 0, PB, 20, PB, 30, GRV_OP_COND, RET);
    EXPR(1, PB, 2, PB, 3, GRV_OP_AND, RET);
    EXPR(0, PB, 0, PB, 3, GRV_OP_AND, RET);
    EXPR(1, PB, 0, PB, 3, GRV_OP_OR, RET);
    EXPR(1, PB, 0, GRV_OP_NOT, RET);
    EXPR(1, PB, 4, PB, 4, GRV_OP_EQUAL, RET);
    EXPR(0, PB, 4, PB, 4, GRV_OP_NOT_EQ, RET);
    EXPR(1, PB, (uint8_t)-1, PB, 0, GRV_OP_LESS, RET);   /* signed compare */
    EXPR(0, PB, (uint8_t)-1, PB, 0, GRV_OP_GTR, RET);
    EXPR(1, PB, 3, PB, 3, GRV_OP_LESS_EQ, RET);
    EXPR(1, PB, 3, PB, 3, GRV_OP_GTR_EQ, RET);
}

static void test_bits(void **state)
{
    (void)state;
    EXPR(0x0e, PB, 0x0c, PB, 0x0a, GRV_OP_BITOR, RET);   /* 0x3E */
    EXPR(0x08, PB, 0x0c, PB, 0x0a, GRV_OP_BITAND, RET);  /* 0x3F */
    EXPR(~5, PB, 5, GRV_OP_BITNOT, RET);
    /* SetBits: clear mask 0x00f0, set 0x0050 */
    EXPR(0x1f5f, PS, 0x1f, 0xff, GRV_OP_SETBITS, 0x00, 0xf0, 0x00, 0x50, RET);
    assert_int_equal(GRV_OP_BITOR, 0x3E);
    assert_int_equal(GRV_OP_BITAND, 0x3F);
}

static void test_returns_and_stack(void **state)
{
    (void)state;
    EXPR(0, GRV_OP_RET_ZERO);
    EXPR(1, GRV_OP_RET_TRUE);
    EXPR(0, GRV_OP_NOP);                     /* empty stack at the end: 0 */
    EXPR_STATUS(GRV_STACK_NOT_EMPTY, PB, 1, PB, 2, RET);
    EXPR_STATUS(GRV_STACK_UNDERFLOW, GRV_OP_ADD);
    /* graphite2 checks the stack after each opcode: one that ends below the
     * base fails, one that only reads the cell below the base does not
     * (Neg on an empty stack), and PopRet on an empty stack ends the run
     * normally with 0 (F-8). */
    EXPR(0, GRV_OP_NEG, GRV_OP_RET_ZERO);
    EXPR(0, GRV_OP_POP_RET);
    EXPR(7, PB, 7, GRV_OP_POP_RET);
    EXPR_STATUS(GRV_STACK_UNDERFLOW, GRV_OP_COND, GRV_OP_RET_TRUE);
    /* 1025 pushes overflow graphite2's 1024-entry stack */
    uint8_t big[2 * 1025 + 1];
    for (int i = 0; i < 1025; i++) {
        big[2 * i] = PB;
        big[2 * i + 1] = 1;
    }
    big[2 * 1025] = RET;
    grv_status st;
    (void)run_expr(big, sizeof big, &st);
    assert_int_equal(st, GRV_STACK_OVERFLOW);
}

static void test_context_item(void **state)
{
    (void)state;
    gr_fixture f;
    gr_fixture_init(&f);
    uint16_t g[] = {1, 2, 3};
    gr_fixture_seg(&f, g, 3);
    /* At map index 0: CNTXT_ITEM 1 skips 2 bytes (PB 0) and pushes true. */
    const uint8_t c[] = {GRV_OP_CNTXT_ITEM, 1, 2, PB, 0, RET};
    assert_int_equal(gr_run(&f, c, sizeof c, 0), 1);
    /* CNTXT_ITEM 0 matches the current slot: the test runs (pushes 0). */
    const uint8_t c2[] = {GRV_OP_CNTXT_ITEM, 0, 2, PB, 0, RET};
    assert_int_equal(gr_run(&f, c2, sizeof c2, 0), 0);
    gr_fixture_free(&f);
}

/* grv_compile: the decoded form runs any bytes safely.  What the verifier
 * refuses still has a defined end: a skip into the middle of an
 * instruction, an unknown opcode or arguments past the end stop the rule;
 * a skip to the very end finishes the code (as the byte loop did). */
static void test_decoded_code_edges(void **state)
{
    (void)state;
    EXPR_STATUS(GRV_DIED_EARLY, PB, 1, 0xF0, RET);         /* unknown opcode */
    EXPR_STATUS(GRV_DIED_EARLY, PB, 1, PS, 0x01);          /* argument past the end */
    EXPR_STATUS(GRV_DIED_EARLY, PB, 1, GRV_OP_NEXT_N, 1, RET); /* refused: unimplemented */
    /* at map index 0, ContextItem 1 is taken: a skip of 1 lands inside
     * "PB 0" and dies; a skip of 3 lands on the end and finishes with the
     * pushed 1 as the result */
    EXPR_STATUS(GRV_DIED_EARLY, GRV_OP_CNTXT_ITEM, 1, 1, PB, 0, RET);
    EXPR(1, GRV_OP_CNTXT_ITEM, 1, 3, PB, 0, RET);

    gr_fixture f;
    gr_fixture_init(&f);
    uint16_t g[] = {1, 2, 3};
    gr_fixture_seg(&f, g, 3);
    /* A planned copy becomes an instruction of its own before the opcode at
     * its offset (here 3, the RetZero after "PB 7 Nop"); the END and BAD
     * sentinels close the array. */
    const uint8_t c[] = {PB, 7, GRV_OP_NOP, GRV_OP_RET_ZERO};
    const uint32_t copies[] = {3};
    grv_code code;
    memset(&code, 0, sizeof code);
    code.code.data = c;
    code.code.len = sizeof c;
    assert_int_equal(grv_compile_planned(&f.mem, &code, copies, 1), FV_OK);
    assert_int_equal(code.num_insns, 6);
    assert_int_equal(code.insns[0].xop, GRV_XOP_PUSH);
    assert_int_equal(code.insns[0].a, 7);
    assert_int_equal(code.insns[1].xop, GRV_OP_NOP);
    assert_int_equal(code.insns[2].xop, GRV_XOP_TEMP_COPY);
    assert_int_equal(code.insns[2].pc, 3);
    assert_int_equal(code.insns[3].xop, GRV_OP_RET_ZERO);
    assert_int_equal(code.insns[4].xop, GRV_XOP_END);
    assert_int_equal(code.insns[5].xop, GRV_XOP_BAD);
    grv_code_free(&f.mem, &code);
    assert_null(code.insns);
    /* code never decoded must not run */
    code.code.data = c;
    code.code.len = sizeof c;
    int mi = 0;
    (void)grv_run(&f.m, &code, &mi, 0, NULL);
    assert_int_equal(f.m.status, GRV_DIED_EARLY);
    gr_fixture_free(&f);
}

static void test_slot_attributes(void **state)
{
    (void)state;
    gr_fixture f;
    gr_fixture_init(&f);
    uint16_t g[] = {1, 2, 3};
    gr_fixture_seg(&f, g, 3);
    /* advance of slot 1 (glyph 2) = 300 */
    const uint8_t c[] = {GRV_OP_PUSH_SLOT_ATTR, GRV_SLAT_ADVX, 1, RET};
    assert_int_equal(gr_run(&f, c, sizeof c, 0), 300);
    /* ATTR_SET truncates to 16 bits: 0x12345 -> 0x2345 */
    const uint8_t c2[] = {PL, 0, 1, 0x23, 0x45, GRV_OP_ATTR_SET, GRV_SLAT_SHIFTX,
                          GRV_OP_PUSH_SLOT_ATTR, GRV_SLAT_SHIFTX, 0, RET};
    assert_int_equal(gr_run(&f, c2, sizeof c2, 1), 0x2345);
    /* ATTR_ADD / ATTR_SUB */
    const uint8_t c3[] = {PB, 10, GRV_OP_ATTR_ADD, GRV_SLAT_SHIFTX, PB, 3, GRV_OP_ATTR_SUB,
                          GRV_SLAT_SHIFTX, GRV_OP_PUSH_SLOT_ATTR, GRV_SLAT_SHIFTX, 0, RET};
    assert_int_equal(gr_run(&f, c3, sizeof c3, 1), 0x2345 + 7);
    /* user attribute 1 via IATTR_SET / PUSH_ISLOT_ATTR; index 2 reads 0 */
    const uint8_t c4[] = {PB, 42, GRV_OP_IATTR_SET, GRV_SLAT_USERDEFN, 1,
                          GRV_OP_PUSH_ISLOT_ATTR, GRV_SLAT_USERDEFN, 0, 1, RET};
    assert_int_equal(gr_run(&f, c4, sizeof c4, 1), 42);
    const uint8_t c5[] = {GRV_OP_PUSH_ISLOT_ATTR, GRV_SLAT_USERDEFN, 0, 2, RET};
    assert_int_equal(gr_run(&f, c5, sizeof c5, 0), 0);
    /* glyph attribute 3 of slot 2 (glyph 3) = 33; 16-bit form too */
    const uint8_t c6[] = {GRV_OP_PUSH_GLYPH_ATTR_OBS, 3, 2, RET};
    assert_int_equal(gr_run(&f, c6, sizeof c6, 0), 33);
    const uint8_t c7[] = {GRV_OP_PUSH_GLYPH_ATTR, 0, 2, 1, RET};
    assert_int_equal(gr_run(&f, c7, sizeof c7, 0), 22);
    /* glyph metric: bbox width 80, advance 200 for glyph 1 */
    const uint8_t c8[] = {GRV_OP_PUSH_GLYPH_METRIC, GRV_MET_BBWIDTH, 0, 0, RET};
    assert_int_equal(gr_run(&f, c8, sizeof c8, 0), 80);
    const uint8_t c9[] = {GRV_OP_PUSH_GLYPH_METRIC, GRV_MET_ADVWIDTH, 0, 0, RET};
    assert_int_equal(gr_run(&f, c9, sizeof c9, 0), 200);
    gr_fixture_free(&f);
}

static void test_attach(void **state)
{
    (void)state;
    gr_fixture f;
    gr_fixture_init(&f);
    uint16_t g[] = {1, 2, 3};
    gr_fixture_seg(&f, g, 3);
    /* slot 1 attaches to slot 0: NEXT, PUSH -1, ATTR_SET_SLOT attTo */
    const uint8_t c[] = {GRV_OP_NEXT, PB, (uint8_t)-1, GRV_OP_ATTR_SET_SLOT, GRV_SLAT_ATTTO,
                         GRV_OP_PUSH_ATT_TO_GATTR_OBS, 0, 0, RET};
    /* attached-to glyph attr 0 of the parent (glyph 1) = 10 */
    assert_int_equal(gr_run(&f, c, sizeof c, 1), 10);
    int32_t s0 = f.seg.first, s1 = f.seg.slots[s0].next;
    assert_int_equal(f.seg.slots[s1].parent, s0);
    assert_int_equal(f.seg.slots[s0].child, s1);
    /* ltr, parent before: attach.at = parent's advance */
    assert_true(f.seg.extras[s1].attx == 200.0f);
    gr_fixture_free(&f);

    /* IAttrSetSlot adds the map position only for attTo, as AttrSetSlot
     * does (graphite2; F-10): at map entry 1, AdvY gets 5 itself and
     * attTo -1 names entry 0. */
    gr_fixture_init(&f);
    gr_fixture_seg(&f, g, 3);
    const uint8_t c2[] = {GRV_OP_NEXT, PB, 5, GRV_OP_IATTR_SET_SLOT, GRV_SLAT_ADVY, 0,
                          PB, (uint8_t)-1, GRV_OP_IATTR_SET_SLOT, GRV_SLAT_ATTTO, 0,
                          GRV_OP_RET_ZERO};
    assert_int_equal(gr_run(&f, c2, sizeof c2, 1), 0);
    assert_int_equal(f.m.status, GRV_FINISHED);
    s0 = f.seg.first;
    s1 = f.seg.slots[s0].next;
    assert_true(f.seg.slots[s1].advy == 5.0f);
    assert_int_equal(f.seg.slots[s1].parent, s0);
    gr_fixture_free(&f);
}

static void test_substitution(void **state)
{
    (void)state;
    gr_fixture f;
    gr_fixture_init(&f);
    uint16_t g[] = {3, 4, 1};
    gr_fixture_seg(&f, g, 3);
    /* PutGlyph class 1 -> 7; PutSubs: slot 1 (glyph 4) is index 1 of lookup
     * class 2, so class 0's glyph 1 (6) goes into slot 0 ... */
    const uint8_t c[] = {GRV_OP_PUT_SUBS_8BIT_OBS, 1, 2, 0, GRV_OP_NEXT,
                         GRV_OP_PUT_GLYPH_8BIT_OBS, 1, GRV_OP_RET_ZERO};
    gr_run(&f, c, sizeof c, 1);
    assert_int_equal(f.m.status, GRV_FINISHED);
    int32_t s0 = f.seg.first, s1 = f.seg.slots[s0].next;
    assert_int_equal(f.seg.slots[s0].gid, 6);
    assert_int_equal(f.seg.slots[s1].gid, 7);
    assert_true(f.seg.slots[s1].advx == 800.0f); /* setGlyph resets the advance */
    /* a glyph outside the input class maps to glyph 0 */
    const uint8_t c2[] = {GRV_OP_PUT_SUBS, 2, 0, 0, 0, 1, GRV_OP_RET_ZERO};
    gr_run(&f, c2, sizeof c2, 1);
    assert_int_equal(f.seg.slots[s0].gid, 0);
    gr_fixture_free(&f);
}

static void test_insert_delete(void **state)
{
    (void)state;
    gr_fixture f;
    gr_fixture_init(&f);
    uint16_t g[] = {1, 2, 3};
    gr_fixture_seg(&f, g, 3);
    /* Insert before slot 0, give it glyph 7 and copy slot 1's glyph onto it
     * (the map stepped back, so offset 1 names the old slot 0) ... */
    const uint8_t c[] = {GRV_OP_INSERT, GRV_OP_PUT_COPY, 1, GRV_OP_NEXT, GRV_OP_NEXT,
                         GRV_OP_DELETE, GRV_OP_RET_ZERO};
    gr_run(&f, c, sizeof c, 1);
    assert_int_equal(f.m.status, GRV_FINISHED);
    uint16_t got[4];
    int n = 0;
    for (int32_t s = f.seg.first; s != GRV_NIL && n < 4; s = f.seg.slots[s].next)
        got[n++] = f.seg.slots[s].gid;
    /* inserted copy of glyph 1, glyph 1, (glyph 2 deleted), glyph 3 */
    assert_int_equal(n, 3);
    assert_int_equal(got[0], 1);
    assert_int_equal(got[1], 1);
    assert_int_equal(got[2], 3);
    assert_int_equal(f.seg.slot_count, 3);
    gr_fixture_free(&f);
}

static void test_features(void **state)
{
    (void)state;
    gr_fixture f;
    gr_fixture_init(&f);
    uint16_t g[] = {1};
    gr_fixture_seg(&f, g, 1);
    /* SetFeat clips at the largest setting (3) */
    const uint8_t c[] = {PB, 9, GRV_OP_SET_FEAT, 0, 0, GRV_OP_PUSH_FEAT, 0, 0, RET};
    assert_int_equal(gr_run(&f, c, sizeof c, 1), 3);
    /* SetFeat pops although the verifier does not count it (as in
     * graphite2): PopRet then finds an empty stack and returns 0 (F-8) */
    const uint8_t c2[] = {PB, 8, GRV_OP_SET_FEAT, 0, 0, RET};
    assert_int_equal(gr_run(&f, c2, sizeof c2, 1), 0);
    assert_int_equal(f.m.status, GRV_FINISHED);
    /* ... and a second SetFeat ends below the base: the run fails */
    const uint8_t c3[] = {PB, 1, GRV_OP_SET_FEAT, 0, 0, GRV_OP_SET_FEAT, 0, 0, GRV_OP_RET_TRUE};
    (void)gr_run(&f, c3, sizeof c3, 1);
    assert_int_equal(f.m.status, GRV_STACK_UNDERFLOW);
    gr_fixture_free(&f);
}

static void test_bad_slot_ref_fails(void **state)
{
    (void)state;
    gr_fixture f;
    gr_fixture_init(&f);
    uint16_t g[] = {1};
    gr_fixture_seg(&f, g, 1);
    /* offset -2 is before the map's first entry */
    const uint8_t c[] = {GRV_OP_PUSH_SLOT_ATTR, GRV_SLAT_ADVX, (uint8_t)-2, RET};
    gr_run(&f, c, sizeof c, 0);
    assert_int_equal(f.m.status, GRV_SLOT_OFFSET_OUT_OF_BOUNDS);
    gr_fixture_free(&f);
}

/* The dispatch this build of the machine uses: the label table wherever
 * the compiler has computed goto, the switch in the build unit.cmake makes
 * with FONTVM_GR_SWITCH_DISPATCH (every test here runs against both). */
static void test_dispatch_variant(void **state)
{
    (void)state;
#ifdef GR_EXPECT_DISPATCH
    assert_string_equal(grv_dispatch_kind(), GR_EXPECT_DISPATCH);
#else
    const char *k = grv_dispatch_kind();
    assert_true(strcmp(k, "switch") == 0 || strcmp(k, "computed-goto") == 0);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_push),
        cmocka_unit_test(test_arith_wraps),
        cmocka_unit_test(test_div_dies),
        cmocka_unit_test(test_logic_and_compare),
        cmocka_unit_test(test_bits),
        cmocka_unit_test(test_returns_and_stack),
        cmocka_unit_test(test_context_item),
        cmocka_unit_test(test_decoded_code_edges),
        cmocka_unit_test(test_slot_attributes),
        cmocka_unit_test(test_attach),
        cmocka_unit_test(test_substitution),
        cmocka_unit_test(test_insert_delete),
        cmocka_unit_test(test_features),
        cmocka_unit_test(test_bad_slot_ref_fails),
        cmocka_unit_test(test_dispatch_variant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
