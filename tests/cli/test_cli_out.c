/* vm/cli/cli_out.c, the CLI's streaming writer, against jansson 2.14:
 * every string jansson accepts must come out as json_dumps writes it
 * (JSON_COMPACT | JSON_ENCODE_ANY), byte for byte; every string it
 * refuses (not UTF-8) must come out as valid JSON whose value is the
 * string with U+FFFD for each byte outside a valid sequence.  Covered:
 * every code point U+0001..U+10FFFF alone and between ASCII, every one-
 * and two-byte string, every three- and four-byte lead byte with
 * continuation bytes at and around each boundary (80, 8F, 90, 9F, A0, BF
 * and ASCII, C0, FF), and the numbers' extremes. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli_out.h"

/* The writer's bytes for one call, through a memory FILE. */
typedef struct sink {
    FILE *f;
    char *data;
    size_t size;
    cli_out o;
} sink;

static sink *sink_new(void)
{
    sink *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->f = open_memstream(&s->data, &s->size);
    assert_non_null(s->f);
    cli_out_init(&s->o, s->f);
    return s;
}

/* The bytes written since the last call (NUL-terminated, valid until the
 * next call). */
static const char *sink_take(sink *s, size_t *len)
{
    cli_out_flush(&s->o);
    fflush(s->f);
    *len = s->size;
    return s->data;
}

static void sink_reset(sink *s)
{
    fseeko(s->f, 0, SEEK_SET);
    fflush(s->f);
    s->size = 0;
}

static void sink_free(sink *s)
{
    fclose(s->f);
    free(s->data);
    free(s);
}

static size_t put_utf8(uint32_t cp, unsigned char *p)
{
    if (cp < 0x80) {
        p[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        p[0] = (unsigned char)(0xC0 | cp >> 6);
        p[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        p[0] = (unsigned char)(0xE0 | cp >> 12);
        p[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        p[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    p[0] = (unsigned char)(0xF0 | cp >> 18);
    p[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
    p[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
    p[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* An independent UTF-8 check, the Unicode standard's table 3-7 of
 * well-formed byte sequences: the length of the sequence at s, 0 if
 * ill-formed. */
static size_t wellformed(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    unsigned lo = 0x80, hi = 0xBF;
    size_t len;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0;
        if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        if (c == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    if (len > n || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return len;
}

static uint64_t checked_jansson, checked_invalid;

/* One string through both: identical when jansson takes it, else the
 * replacement rule checked by parsing the writer's output back. */
static void check_one(sink *s, const unsigned char *str, size_t n)
{
    sink_reset(s);
    cli_out_json_string(&s->o, (const char *)str, n);
    size_t len;
    const char *got = sink_take(s, &len);

    json_t *j = json_stringn((const char *)str, n);
    if (j) {
        char *want = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
        json_decref(j);
        assert_non_null(want);
        if (strlen(want) != len || memcmp(want, got, len) != 0) {
            fprintf(stderr, "input:");
            for (size_t i = 0; i < n; i++)
                fprintf(stderr, " %02X", str[i]);
            fprintf(stderr, "\n jansson: %s\n writer:  %.*s\n", want, (int)len, got);
            fail();
        }
        free(want);
        checked_jansson++;
        return;
    }
    /* jansson refused it: it must be ill-formed by the standard too. */
    unsigned char expect[64];
    size_t e = 0;
    int ill = 0;
    for (size_t i = 0; i < n;) {
        size_t k = wellformed(str + i, n - i);
        if (k == 0) {
            memcpy(expect + e, "\xEF\xBF\xBD", 3);
            e += 3;
            i++;
            ill = 1;
        } else {
            memcpy(expect + e, str + i, k);
            e += k;
            i += k;
        }
    }
    assert_true(ill);
    json_error_t err;
    json_t *back = json_loadb(got, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
    assert_non_null(back);
    assert_true(json_is_string(back));
    assert_int_equal(json_string_length(back), e);
    assert_memory_equal(json_string_value(back), expect, e);
    json_decref(back);
    checked_invalid++;
}

static void test_every_code_point(void **state)
{
    (void)state;
    sink *s = sink_new();
    unsigned char buf[16];
    for (uint32_t cp = 1; cp <= 0x10FFFF; cp++) {
        size_t n = put_utf8(cp, buf);
        check_one(s, buf, n);
        /* between ASCII, to check the runs around it */
        unsigned char b2[16] = {'a'};
        memcpy(b2 + 1, buf, n);
        b2[n + 1] = 'z';
        check_one(s, b2, n + 2);
    }
    sink_free(s);
}

static void test_every_short_string(void **state)
{
    (void)state;
    sink *s = sink_new();
    unsigned char buf[2];
    for (unsigned a = 0; a < 256; a++) {
        buf[0] = (unsigned char)a;
        check_one(s, buf, 1);
        for (unsigned b = 0; b < 256; b++) {
            buf[1] = (unsigned char)b;
            check_one(s, buf, 2);
        }
    }
    sink_free(s);
}

static void test_long_sequences_at_boundaries(void **state)
{
    (void)state;
    static const unsigned char cont[] = {0x00, 0x41, 0x7F, 0x80, 0x81, 0x8F, 0x90, 0x9F,
                                         0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xF0, 0xFF};
    const size_t nc = sizeof cont;
    sink *s = sink_new();
    unsigned char buf[5];
    for (unsigned lead = 0xC0; lead < 0x100; lead++) {
        buf[0] = (unsigned char)lead;
        for (size_t a = 0; a < nc; a++)
            for (size_t b = 0; b < nc; b++) {
                buf[1] = cont[a];
                buf[2] = cont[b];
                check_one(s, buf, 3);
                for (size_t c = 0; c < nc; c++) {
                    buf[3] = cont[c];
                    check_one(s, buf, 4);
                    buf[4] = '"';
                    check_one(s, buf, 5);
                }
            }
    }
    sink_free(s);
}

static void test_buffer_boundaries(void **state)
{
    (void)state;
    /* Strings of escapes and multi-byte sequences longer than the buffer,
     * starting at every offset near its end. */
    static unsigned char big[3 * CLI_OUT_CAP];
    for (size_t i = 0; i < sizeof big;) {
        static const char piece[] = "\x01\"\xE2\x82\xAC\xF0\x9F\x98\x80\xFFq\\";
        size_t k = sizeof piece - 1;
        if (i + k > sizeof big)
            k = sizeof big - i;
        memcpy(big + i, piece, k);
        i += k;
    }
    sink *s = sink_new();
    for (size_t pad = CLI_OUT_CAP - 40; pad <= CLI_OUT_CAP; pad += 3) {
        sink_reset(s);
        for (size_t i = 0; i < pad; i++)
            cli_out_byte(&s->o, 'x');
        cli_out_json_string(&s->o, (const char *)big, sizeof big - pad % 7);
        size_t len;
        const char *got = sink_take(s, &len);
        for (size_t i = 0; i < pad; i++)
            assert_int_equal(got[i], 'x');
        json_error_t err;
        json_t *back = json_loadb(got + pad, len - pad, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
        assert_non_null(back);
        json_decref(back);
    }
    sink_free(s);
}

static void test_numbers(void **state)
{
    (void)state;
    static const int64_t v[] = {0, 1, -1, 9, 10, -10, 99, 100, 2147483647, -2147483647 - 1,
                                INT64_MAX, INT64_MIN, 1234567890123LL, -987654321};
    sink *s = sink_new();
    char want[32];
    size_t len;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        sink_reset(s);
        cli_out_i64(&s->o, v[i]);
        const char *got = sink_take(s, &len);
        snprintf(want, sizeof want, "%lld", (long long)v[i]);
        assert_int_equal(len, strlen(want));
        assert_memory_equal(got, want, len);
    }
    sink_reset(s);
    cli_out_u64(&s->o, UINT64_MAX);
    const char *got = sink_take(s, &len);
    assert_int_equal(len, 20);
    assert_memory_equal(got, "18446744073709551615", 20);
    sink_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_code_point),
        cmocka_unit_test(test_every_short_string),
        cmocka_unit_test(test_long_sequences_at_boundaries),
        cmocka_unit_test(test_buffer_boundaries),
        cmocka_unit_test(test_numbers),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    fprintf(stderr, "strings: %llu as jansson writes them, %llu not UTF-8\n",
            (unsigned long long)checked_jansson, (unsigned long long)checked_invalid);
    return rc;
}
