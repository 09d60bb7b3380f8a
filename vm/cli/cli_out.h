/* A buffered output stream for the CLI's per-glyph and per-segment lines
 * (`hint --json`, `shape`'s text and JSON): numbers formatted without
 * printf, JSON strings escaped as jansson 2.14 escapes them, and the
 * bytes handed to the FILE in large blocks.
 *
 * Why not jansson or yajl: building a jansson tree per glyph and dumping
 * it cost `fontvm hint --json` 94% of its instructions (callgrind,
 * DejaVu Sans at 12 ppem: 1,538 M against 85 M with --quiet), and
 * Debian's yajl 2.1 (yajl_gen) formats every integer with sprintf and
 * spent ~1,000 instructions per integer in the same measurement, more
 * than hinting the glyph; its UTF-8 check also lets encoded surrogates
 * through, which jansson refuses.  What this writer has to get right is
 * the string escaping, and tests/cli/test_cli_out.c compares it with
 * jansson's json_dumps for every code point, every one- and two-byte
 * string and the three- and four-byte boundary cases.
 *
 * Bytes that are not UTF-8 (jansson's definition: no overlong forms, no
 * surrogates, nothing past U+10FFFF) are written as U+FFFD, one per byte.
 * jansson's json_string() refused such a string, and the key it belonged
 * to was silently left out of the object (a post table glyph name in
 * Latin-1, say); now the line keeps the key and stays valid JSON.
 *
 * The writer keeps no state but its buffer: a line may be written to the
 * FILE in parts, in order, so other writers of the same FILE (the shape
 * trace) should call cli_out_flush before writing. */
#ifndef FV_CLI_OUT_H
#define FV_CLI_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define CLI_OUT_CAP 65536
/* The longest piece one call appends before checking space again: an
 * int64 (20 bytes) or one escaped code point (6 bytes). */
#define CLI_OUT_SLACK 32

typedef struct cli_out {
    FILE *f;
    size_t len;
    char buf[CLI_OUT_CAP];
} cli_out;

void cli_out_init(cli_out *o, FILE *f);
/* Hands the buffered bytes to the FILE (fwrite; the FILE's errors show
 * in its own fflush/ferror). */
void cli_out_flush(cli_out *o);

static inline void cli_out_room(cli_out *o, size_t n)
{
    if (o->len + n > CLI_OUT_CAP)
        cli_out_flush(o);
}

static inline void cli_out_byte(cli_out *o, char c)
{
    cli_out_room(o, 1);
    o->buf[o->len++] = c;
}

void cli_out_mem(cli_out *o, const char *s, size_t n);

static inline void cli_out_str(cli_out *o, const char *s)
{
    cli_out_mem(o, s, strlen(s));
}

/* Decimal, as printf's %lld / %llu: two digits per step from a table,
 * written in place (a hinted outline is mostly 3- and 4-digit numbers). */
extern const char cli_out_digit_pairs[200];

static inline char *cli_out_fmt_u64(char *p, uint64_t v)
{
    size_t n = v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10000 ? 4 : 5;
    for (uint64_t t = v / 100000; t; t /= 10)
        n++;
    char *end = p + n;
    char *q = end;
    if (v >> 32) {
        while (v >= 100) {
            unsigned r = (unsigned)(v % 100);
            v /= 100;
            q -= 2;
            memcpy(q, cli_out_digit_pairs + 2 * r, 2);
        }
    }
    uint32_t w = (uint32_t)v; /* 32-bit division from here */
    while (w >= 100) {
        unsigned r = w % 100;
        w /= 100;
        q -= 2;
        memcpy(q, cli_out_digit_pairs + 2 * r, 2);
    }
    if (w >= 10) {
        q -= 2;
        memcpy(q, cli_out_digit_pairs + 2 * w, 2);
    } else {
        *--q = (char)('0' + w);
    }
    return end;
}

/* The same with a sign; p must have room for 21 bytes. */
static inline char *cli_out_fmt_i64(char *p, int64_t v)
{
    uint64_t u = (uint64_t)v;
    if (v < 0) {
        *p++ = '-';
        u = 0 - u; /* INT64_MIN has no positive int64 */
    }
    return cli_out_fmt_u64(p, u);
}

static inline void cli_out_u64(cli_out *o, uint64_t v)
{
    cli_out_room(o, CLI_OUT_SLACK);
    o->len = (size_t)(cli_out_fmt_u64(o->buf + o->len, v) - o->buf);
}

static inline void cli_out_i64(cli_out *o, int64_t v)
{
    cli_out_room(o, CLI_OUT_SLACK);
    o->len = (size_t)(cli_out_fmt_i64(o->buf + o->len, v) - o->buf);
}

/* A JSON string literal with its quotes: jansson 2.14's json_dumps bytes
 * (JSON_COMPACT, no ENSURE_ASCII) for every string jansson accepts, U+FFFD
 * for each byte of anything else. */
void cli_out_json_string(cli_out *o, const char *s, size_t n);

#endif
