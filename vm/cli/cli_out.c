/* The CLI's buffered output stream (cli_out.h). */
#include "cli_out.h"

void cli_out_init(cli_out *o, FILE *f)
{
    o->f = f;
    o->len = 0;
}

void cli_out_flush(cli_out *o)
{
    if (o->len)
        fwrite(o->buf, 1, o->len, o->f);
    o->len = 0;
}

void cli_out_mem(cli_out *o, const char *s, size_t n)
{
    if (o->len + n > CLI_OUT_CAP) {
        cli_out_flush(o);
        if (n > CLI_OUT_CAP) {
            fwrite(s, 1, n, o->f);
            return;
        }
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

const char cli_out_digit_pairs[200] = "00010203040506070809101112131415161718192021222324"
                                      "25262728293031323334353637383940414243444546474849"
                                      "50515253545556575859606162636465666768697071727374"
                                      "75767778798081828384858687888990919293949596979899";

/* The length of the UTF-8 sequence at s[0..n), 0 when it is not one, by
 * jansson 2.14's rules (utf.c): lead bytes C2..F4, continuation bytes
 * 80..BF, no overlong three- or four-byte forms, no surrogates, nothing
 * past U+10FFFF. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len;
    uint32_t v;
    if (c < 0x80)
        return 1;
    if (c < 0xC2)
        return 0; /* a continuation byte, or an overlong two-byte lead */
    if (c < 0xE0) {
        len = 2;
        v = c & 0x1F;
    } else if (c < 0xF0) {
        len = 3;
        v = c & 0x0F;
    } else if (c < 0xF5) {
        len = 4;
        v = c & 0x07;
    } else {
        return 0;
    }
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3Fu);
    }
    if ((len == 3 && v < 0x800) || (len == 4 && v < 0x10000) || v > 0x10FFFF ||
        (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    return len;
}

void cli_out_json_string(cli_out *o, const char *str, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    const unsigned char *s = (const unsigned char *)str;
    cli_out_byte(o, '"');
    size_t i = 0;
    while (i < n) {
        /* The run of bytes written as they are: printable ASCII other than
         * '"' and '\\', and whole UTF-8 sequences. */
        size_t start = i;
        while (i < n) {
            unsigned c = s[i];
            if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                i++;
                continue;
            }
            if (c < 0x80)
                break;
            size_t len = utf8_len(s + i, n - i);
            if (len == 0)
                break;
            i += len;
        }
        cli_out_mem(o, str + start, i - start);
        if (i == n)
            break;
        unsigned c = s[i++];
        cli_out_room(o, CLI_OUT_SLACK);
        char *p = o->buf + o->len;
        if (c >= 0x80) {
            /* Not UTF-8: U+FFFD for this byte. */
            memcpy(p, "\xEF\xBF\xBD", 3);
            o->len += 3;
            continue;
        }
        p[0] = '\\';
        switch (c) {
        case '"': p[1] = '"'; break;
        case '\\': p[1] = '\\'; break;
        case '\b': p[1] = 'b'; break;
        case '\f': p[1] = 'f'; break;
        case '\n': p[1] = 'n'; break;
        case '\r': p[1] = 'r'; break;
        case '\t': p[1] = 't'; break;
        default:
            /* jansson's "\\u%04X" for the other control characters. */
            memcpy(p + 1, "u00", 3);
            p[4] = hex[c >> 4];
            p[5] = hex[c & 15];
            o->len += 6;
            continue;
        }
        o->len += 2;
    }
    cli_out_byte(o, '"');
}
