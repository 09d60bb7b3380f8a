/* Inputs of a Graphite comparison: feature lists, tags, UTF-8 lines, and
 * the plain result structures' lifetime. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gr_compare.h"

void grc_run_free(grc_run *r)
{
    free(r->glyphs);
    free(r->chars);
    memset(r, 0, sizeof *r);
}

void grc_hb_run_free(grc_hb_run *r)
{
    free(r->glyphs);
    memset(r, 0, sizeof *r);
}

const char *grc_status_name(grc_status s)
{
    switch (s) {
    case GRC_IDENTICAL: return "identical";
    case GRC_DIFFERENT: return "different";
    case GRC_ERROR_FONTVM_ONLY: return "error_fontvm_only";
    case GRC_ERROR_REF_ONLY: return "error_ref_only";
    case GRC_ERROR_BOTH: return "error_both";
    case GRC_HARDENING_LIMIT: return "hardening_limit";
    }
    return "?";
}

int grc_parse_tag(const char *s, size_t len, uint32_t *out)
{
    if (len == 0)
        return -1;
    int numeric = 1;
    for (size_t i = 0; i < len; i++)
        if (!isdigit((unsigned char)s[i]))
            numeric = 0;
    if (numeric) {
        /* Graphite feature ids may be plain numbers (Feat table v1 ids). */
        if (len > 10)
            return -1;
        unsigned long long v = 0;
        for (size_t i = 0; i < len; i++)
            v = v * 10 + (unsigned)(s[i] - '0');
        if (v > UINT32_MAX)
            return -1;
        *out = (uint32_t)v;
        return 0;
    }
    if (len > 4)
        return -1;
    /* Left-aligned, NUL padded: graphite2's gr_str_to_tag("vie") is
     * 0x76696500 (checked against the installed library). */
    uint32_t t = 0;
    for (size_t i = 0; i < 4; i++)
        t = (t << 8) | (i < len ? (uint8_t)s[i] : 0u);
    *out = t;
    return 0;
}

int grc_parse_features(const char *spec, grc_features *out, char *msg, size_t msg_size)
{
    memset(out, 0, sizeof *out);
    if (!spec)
        return 0;
    const char *p = spec;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (len == 0) {
            p = end ? end + 1 : p + len;
            continue;
        }
        if (!eq) {
            snprintf(msg, msg_size, "feature '%.*s' has no '=value'", (int)len, p);
            return -1;
        }
        size_t idlen = (size_t)(eq - p);
        const char *val = eq + 1;
        size_t vlen = len - idlen - 1;
        uint32_t id;
        if (grc_parse_tag(p, idlen, &id) != 0) {
            snprintf(msg, msg_size, "bad feature id '%.*s' (a tag of 1-4 characters or a number)",
                     (int)idlen, p);
            return -1;
        }
        if (idlen == 4 && memcmp(p, "lang", 4) == 0) {
            /* "lang=xx" selects the language, as gr2fonttest -feat does. */
            if (grc_parse_tag(val, vlen, &out->lang) != 0 || vlen == 0) {
                snprintf(msg, msg_size, "bad language '%.*s'", (int)vlen, val);
                return -1;
            }
        } else {
            char buf[24];
            if (vlen == 0 || vlen >= sizeof buf) {
                snprintf(msg, msg_size, "bad value for feature '%.*s'", (int)idlen, p);
                return -1;
            }
            memcpy(buf, val, vlen);
            buf[vlen] = 0;
            char *e;
            long v = strtol(buf, &e, 0);
            if (*e || v < INT32_MIN || v > INT32_MAX) {
                snprintf(msg, msg_size, "bad value '%s' for feature '%.*s'", buf, (int)idlen, p);
                return -1;
            }
            if (out->n == GRC_MAX_FEATURES) {
                snprintf(msg, msg_size, "more than %d features", GRC_MAX_FEATURES);
                return -1;
            }
            out->f[out->n].id = id;
            out->f[out->n].value = (int32_t)v;
            out->n++;
        }
        p = end ? end + 1 : p + len;
    }
    return 0;
}

static void tag_text(uint32_t t, char out[12])
{
    char c[4] = {(char)(t >> 24), (char)(t >> 16), (char)(t >> 8), (char)t};
    int printable = 1;
    size_t n = 4;
    while (n > 0 && c[n - 1] == 0)
        n--;
    for (size_t i = 0; i < n; i++)
        if (c[i] < 0x20 || c[i] > 0x7e || c[i] == ',' || c[i] == '=')
            printable = 0;
    if (!printable || n == 0 || (t >> 24) == 0) {
        snprintf(out, 12, "%u", t);
        return;
    }
    memcpy(out, c, n);
    out[n] = 0;
}

void grc_format_features(const grc_features *f, char *buf, size_t size)
{
    size_t used = 0;
    if (size == 0)
        return;
    buf[0] = 0;
    for (size_t i = 0; i < f->n && used < size; i++) {
        char t[12];
        tag_text(f->f[i].id, t);
        int w = snprintf(buf + used, size - used, "%s%s=%d", used ? "," : "", t, f->f[i].value);
        if (w < 0)
            return;
        used += (size_t)w;
    }
    if (f->lang && used < size) {
        char t[12];
        tag_text(f->lang, t);
        snprintf(buf + used, size - used, "%slang=%s", used ? "," : "", t);
    }
}

size_t grc_utf8_decode(const char *s, size_t len, uint32_t *out, size_t cap)
{
    size_t n = 0, i = 0;
    const unsigned char *u = (const unsigned char *)s;
    while (i < len && n < cap) {
        uint32_t c = u[i];
        size_t need = 0;
        uint32_t min = 0;
        if (c < 0x80) {
            need = 0;
        } else if ((c & 0xe0) == 0xc0) {
            need = 1; c &= 0x1f; min = 0x80;
        } else if ((c & 0xf0) == 0xe0) {
            need = 2; c &= 0x0f; min = 0x800;
        } else if ((c & 0xf8) == 0xf0) {
            need = 3; c &= 0x07; min = 0x10000;
        } else {
            out[n++] = 0xfffd;
            i++;
            continue;
        }
        if (need > len - i - 1) {
            out[n++] = 0xfffd;
            break;
        }
        size_t k;
        for (k = 1; k <= need; k++) {
            if ((u[i + k] & 0xc0) != 0x80)
                break;
            c = (c << 6) | (u[i + k] & 0x3fu);
        }
        if (k <= need) {
            out[n++] = 0xfffd;
            i += k;
            continue;
        }
        if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
            c = 0xfffd;
        out[n++] = c;
        i += need + 1;
    }
    return n;
}
