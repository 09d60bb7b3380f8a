/* The Graphite opcode list (vm/graphite/opcodes.def) and what is generated
 * from it: instruction lengths and decoded fields (grv_decode_insn), the
 * verifier's stack count, and the disassembler's argument layout, each
 * against the spec's "Stack Machine Commands" table written out by hand. */
#include "gr_test_util.h"

#include "graphite/disasm.h"

/* Argument bytes of each opcode from the spec's table (-1: Assoc's count
 * byte and that many offsets). */
static const int spec_arg_bytes[GRV_OP_COUNT] = {
    0, 1, 1, 2, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x00 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 3, 1, 0, /* 0x10 */
    0, -1, 2, 1, 1, 1, 1, 2, 2, 2, 3, 2, 2, 3, 3, 3, /* 0x20 */
    0, 0, 0, 2, 2, 2, 1, 0, 5, 0, 0, 2, 3, 3, 0, 0, /* 0x30 */
    0, 4, 2};

static int unimplemented(int op)
{
    return op == GRV_OP_NEXT_N || op == GRV_OP_PUSH_IGLYPH_ATTR || op == GRV_OP_PUT_SUBS2 ||
           op == GRV_OP_PUT_SUBS3;
}

static void test_decode_lengths(void **state)
{
    (void)state;
    for (int op = 0; op < 256; op++) {
        uint8_t buf[8] = {(uint8_t)op, 2, 2, 2, 2, 2, 2, 2};
        grv_insn in;
        uint32_t n = grv_decode_insn((fv_span){buf, sizeof buf}, 0, &in);
        if (op >= GRV_OP_COUNT || unimplemented(op)) {
            assert_int_equal(n, 0);
            assert_int_equal(in.xop, GRV_XOP_BAD);
            continue;
        }
        uint32_t want = spec_arg_bytes[op] < 0 ? 1 + 1 + 2 : 1 + (uint32_t)spec_arg_bytes[op];
        assert_int_equal(n, want);
        assert_int_equal(in.op, op);
        /* one byte short: refused, whatever the opcode */
        assert_int_equal(grv_decode_insn((fv_span){buf, want - 1}, 0, &in), 0);
        assert_int_equal(in.xop, GRV_XOP_BAD);
    }
}

static grv_insn decode(const uint8_t *code, size_t len, uint32_t pc)
{
    grv_insn in;
    (void)grv_decode_insn((fv_span){code, len}, pc, &in);
    return in;
}
#define DECODE(...) decode((const uint8_t[]){__VA_ARGS__}, sizeof((const uint8_t[]){__VA_ARGS__}), 0)

static void test_decode_fields(void **state)
{
    (void)state;
    grv_insn in = DECODE(GRV_OP_PUSH_BYTE, 0xFE);
    assert_int_equal(in.xop, GRV_XOP_PUSH);
    assert_int_equal(in.a, -2);
    assert_int_equal(DECODE(GRV_OP_PUSH_BYTE_U, 0xFE).a, 254);
    assert_int_equal(DECODE(GRV_OP_PUSH_SHORT, 0xFF, 0xFE).a, -2);
    assert_int_equal(DECODE(GRV_OP_PUSH_SHORT_U, 0xFF, 0xFE).a, 65534);
    assert_int_equal(DECODE(GRV_OP_PUSH_LONG, 0x80, 0, 0, 1).a, INT32_MIN + 1);
    in = DECODE(GRV_OP_PUT_SUBS_8BIT_OBS, 0xFF, 200, 201);
    assert_int_equal(in.xop, GRV_OP_PUT_SUBS);
    assert_int_equal(in.slot, -1);
    assert_int_equal(in.a, 200);
    assert_int_equal(in.b, 201);
    in = DECODE(GRV_OP_PUT_SUBS, 2, 1, 0, 0x80, 1);
    assert_int_equal(in.slot, 2);
    assert_int_equal(in.a, 256);
    assert_int_equal(in.b, 0x8001);
    in = DECODE(GRV_OP_SETBITS, 0xFF, 0, 0, 0x0F);
    assert_int_equal(in.a, 0xFF00);
    assert_int_equal(in.b, 0x0F);
    assert_int_equal(DECODE(GRV_OP_COPY_NEXT).xop, GRV_OP_NEXT);
    assert_int_equal(DECODE(GRV_OP_PUT_GLYPH_8BIT_OBS, 9).xop, GRV_OP_PUT_GLYPH);
    assert_int_equal(DECODE(GRV_OP_PUSH_GLYPH_ATTR_OBS, 9, 0).xop, GRV_OP_PUSH_GLYPH_ATTR);
    assert_int_equal(DECODE(GRV_OP_PUSH_ATT_TO_GATTR_OBS, 9, 0).xop, GRV_OP_PUSH_ATT_TO_GLYPH_ATTR);
    /* slot attribute in u8, slot offset, index in a */
    in = DECODE(GRV_OP_PUSH_ISLOT_ATTR, GRV_SLAT_USERDEFN, 0xFD, 200);
    assert_int_equal(in.u8, GRV_SLAT_USERDEFN);
    assert_int_equal(in.slot, -3);
    assert_int_equal(in.a, 200);
    /* COMPAT(graphite2): a metric's level is an unsigned byte */
    in = DECODE(GRV_OP_PUSH_GLYPH_METRIC, GRV_MET_ADVWIDTH, 1, 0xFF);
    assert_int_equal(in.u8, GRV_MET_ADVWIDTH);
    assert_int_equal(in.slot, 1);
    assert_int_equal(in.a, 255);
    /* PushProcState's byte is read and ignored */
    in = DECODE(GRV_OP_PUSH_PROC_STATE, 7);
    assert_int_equal(in.xop, GRV_OP_PUSH_PROC_STATE);
    assert_int_equal(in.a, 0);
    /* Assoc: the count, and where its offsets start; ContextItem: the byte
     * offset it skips to (grv_compile turns it into an instruction) */
    const uint8_t code[] = {GRV_OP_NOP, GRV_OP_ASSOC, 2, 0xFF, 0, GRV_OP_CNTXT_ITEM, 0xFE, 4};
    in = decode(code, sizeof code, 1);
    assert_int_equal(in.u8, 2);
    assert_int_equal(in.a, 3);
    in = decode(code, sizeof code, 5);
    assert_int_equal(in.slot, -2);
    assert_int_equal(in.a, 5 + 3 + 4);
}

/* The verifier counts what opcodes.def says each opcode pops and pushes:
 * one value too few underflows, enough does not. */
static void test_stack_counts(void **state)
{
    (void)state;
    gr_fixture f;
    gr_fixture_init(&f);
    static const struct { int op, pops, pushes; } spec[] = {
        {GRV_OP_ADD, 2, 1},     {GRV_OP_DIV, 2, 1},        {GRV_OP_NEG, 1, 1},
        {GRV_OP_COND, 3, 1},    {GRV_OP_BITAND, 2, 1},     {GRV_OP_SETBITS, 1, 1},
        {GRV_OP_ATTR_SET, 1, 0}, {GRV_OP_IATTR_ADD, 1, 0}, {GRV_OP_PUSH_VERSION, 0, 1},
        {GRV_OP_PUSH_FEAT, 0, 1}};
    for (size_t i = 0; i < sizeof spec / sizeof spec[0]; i++) {
        int op = spec[i].op;
        assert_int_equal(grv_ops[op].pops, spec[i].pops);
        assert_int_equal(grv_ops[op].pushes, spec[i].pushes);
        for (int have = spec[i].pops - 1; have <= spec[i].pops; have++) {
            if (have < 0)
                continue;
            uint8_t code[32];
            size_t n = 0;
            for (int k = 0; k < have; k++) {
                code[n++] = GRV_OP_PUSH_BYTE;
                code[n++] = 0;
            }
            code[n++] = (uint8_t)op;
            for (int k = 0; k < spec_arg_bytes[op]; k++)
                code[n++] = 0;
            /* pop what it left, so that the code is well-formed */
            int left = have - spec[i].pops + spec[i].pushes;
            code[n++] = left > 0 ? GRV_OP_POP_RET : GRV_OP_RET_ZERO;
            fv_status st = gr_verify_sort2(&f, code, n);
            if (have < spec[i].pops)
                assert_int_equal(st, FV_E_GR_STACK_UNDERFLOW);
            else
                assert_int_equal(st, FV_OK);
        }
    }
    /* COMPAT(graphite2): SetFeat's pop is not counted at load */
    assert_int_equal(grv_ops[GRV_OP_SET_FEAT].pops, 1);
    const uint8_t setfeat[] = {GRV_OP_SET_FEAT, 0, 0, GRV_OP_RET_ZERO};
    assert_int_equal(gr_verify_sort2(&f, setfeat, sizeof setfeat), FV_OK);
}

static void expect_text(const uint8_t *code, size_t len, const char *want)
{
    char buf[128];
    size_t n = grv_format_insn((fv_span){code, len}, 0, buf, sizeof buf);
    assert_int_equal(n, len);
    assert_string_equal(buf, want);
}
#define TEXT(want, ...) \
    expect_text((const uint8_t[]){__VA_ARGS__}, sizeof((const uint8_t[]){__VA_ARGS__}), want)

static void test_disasm_layouts(void **state)
{
    (void)state;
    TEXT("PushByte -2", GRV_OP_PUSH_BYTE, 0xFE);
    TEXT("PushShortU 65534", GRV_OP_PUSH_SHORT_U, 0xFF, 0xFE);
    TEXT("PushLong -1", GRV_OP_PUSH_LONG, 0xFF, 0xFF, 0xFF, 0xFF);
    TEXT("PutSubs8bitObs -1, 200, 3", GRV_OP_PUT_SUBS_8BIT_OBS, 0xFF, 200, 3);
    TEXT("PutSubs 1, 256, 2", GRV_OP_PUT_SUBS, 1, 1, 0, 0, 2);
    TEXT("AttrSet attTo", GRV_OP_ATTR_SET, GRV_SLAT_ATTTO);
    TEXT("IAttrSet userDefn, 2", GRV_OP_IATTR_SET, GRV_SLAT_USERDEFN, 2);
    TEXT("PushSlotAttr posX, -1", GRV_OP_PUSH_SLOT_ATTR, GRV_SLAT_POSX, 0xFF);
    TEXT("PushGlyphMetric advWidth, -1, 200", GRV_OP_PUSH_GLYPH_METRIC, GRV_MET_ADVWIDTH, 0xFF,
         200);
    TEXT("Assoc 2: -1 1", GRV_OP_ASSOC, 2, 0xFF, 1);
    TEXT("ContextItem -1, 4", GRV_OP_CNTXT_ITEM, 0xFF, 4);
    TEXT("SetBits 65280, 15", GRV_OP_SETBITS, 0xFF, 0, 0, 0x0F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_lengths),
        cmocka_unit_test(test_decode_fields),
        cmocka_unit_test(test_stack_counts),
        cmocka_unit_test(test_disasm_layouts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
