/* Feature lists for `fontvm shape`: hb-shape's syntax, Graphite's numeric
 * ids and gr2fonttest's lang=, resolved against the font's Feat table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphite/grv.h"
#include "shape.h"

static int bad_feature(const char *item, size_t len, const char *why)
{
    char msg[256];
    snprintf(msg, sizeof msg, "--features: '%.*s': %s", (int)(len < 80 ? len : 80), item, why);
    return cli_usage_error("shape", msg);
}

/* One item: [+|-]tag[[range]][=value]. */
static int parse_item(const char *p, size_t len, shape_opts *o)
{
    const char *item = p, *end = p + len;
    int32_t value = 1;
    if (*p == '+' || *p == '-') {
        value = *p == '-' ? 0 : 1;
        p++;
    }
    const char *tag = p;
    while (p < end && *p != '=' && *p != '[')
        p++;
    size_t tag_len = (size_t)(p - tag);
    if (tag_len >= 2 && tag[0] == '"' && tag[tag_len - 1] == '"') {
        tag++;
        tag_len -= 2;
    }
    if (tag_len == 4 && memcmp(tag, "lang", 4) == 0 && p < end && *p == '=') {
        /* gr2fonttest -feat lang=xx: the value is the language tag. */
        size_t vlen = (size_t)(end - p - 1);
        if (grc_parse_tag(p + 1, vlen, &o->features.lang) != 0)
            return bad_feature(item, len, "lang= takes a language tag of 1 to 4 characters");
        return CLI_OK;
    }
    if (p < end && *p == '[') {
        /* COMPAT(harfbuzz): HarfBuzz's graphite2 shaper sets features for
         * the whole segment, so a range changes nothing; say so. */
        const char *close = memchr(p, ']', (size_t)(end - p));
        if (!close)
            return bad_feature(item, len, "a range opened with '[' is not closed");
        fprintf(stderr, "fontvm shape: warning: --features: Graphite sets a feature for the "
                        "whole text; the range of '%.*s' is ignored\n", (int)len, item);
        p = close + 1;
    }
    if (p < end) {
        if (*p != '=')
            return bad_feature(item, len, "expected '=value' after the tag");
        p++;
        size_t vlen = (size_t)(end - p);
        char buf[24];
        if (vlen == 0 || vlen >= sizeof buf)
            return bad_feature(item, len, "expected a number after '='");
        memcpy(buf, p, vlen);
        buf[vlen] = '\0';
        if (!strcmp(buf, "on")) {
            value = 1;
        } else if (!strcmp(buf, "off")) {
            value = 0;
        } else {
            char *e;
            long v = strtol(buf, &e, 0);
            if (*e || v < -32768 || v > 65535)
                return bad_feature(item, len, "the value is a number from -32768 to 65535");
            value = (int32_t)v;
        }
    }
    uint32_t id;
    if (grc_parse_tag(tag, tag_len, &id) != 0)
        return bad_feature(item, len, "a feature is a tag of 1 to 4 characters or a Graphite "
                                      "feature number");
    if (o->features.n == GRC_MAX_FEATURES)
        return bad_feature(item, len, "more than 64 features");
    o->features.f[o->features.n].id = id;
    o->features.f[o->features.n].value = value;
    o->features.n++;
    return CLI_OK;
}

int shape_parse_features(const char *spec, shape_opts *o)
{
    const char *p = spec;
    while (*p) {
        size_t len = strcspn(p, ",");
        /* hb-shape allows spaces around items. */
        const char *s = p;
        size_t n = len;
        while (n && (*s == ' ' || *s == '\t'))
            s++, n--;
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
            n--;
        if (n && parse_item(s, n, o) != CLI_OK)
            return CLI_BAD_INPUT;
        p += len;
        if (*p == ',')
            p++;
    }
    return CLI_OK;
}

int shape_parse_language(const char *lang, shape_opts *o)
{
    /* The first subtag, lower case, NUL-padded: what graphite2's language
     * lookup matches when hb-shape is given the same --language (checked
     * on Harmattan's ur and sd, whose Sill entries change its output). */
    size_t len = strcspn(lang, "-_");
    if (len == 0 || len > 4)
        return cli_bad_value("shape", "--language", lang,
                             "expected a language tag whose first part has 1 to 4 letters (ur, "
                             "ks-Arab)");
    uint32_t t = 0;
    for (size_t i = 0; i < 4; i++) {
        unsigned char c = i < len ? (unsigned char)lang[i] : 0;
        if (c >= 'A' && c <= 'Z')
            c = (unsigned char)(c - 'A' + 'a');
        t = (t << 8) | c;
    }
    o->features.lang = t;
    o->language = lang;
    return CLI_OK;
}

static int face_has_feature(const fv_gr_face *face, uint32_t id)
{
    for (uint32_t i = 0; i < face->num_features; i++)
        if (face->features[i].id == id)
            return 1;
    return 0;
}

int shape_script_direction(const char *script)
{
    /* ISO 15924 scripts written right to left (hb-shape takes the
     * direction from --script when --direction is not given). */
    static const char *const rtl[] = {
        "Adlm", "Arab", "Armi", "Avst", "Chrs", "Cprt", "Elym", "Hatr", "Hebr", "Hung", "Khar",
        "Lydi", "Mand", "Mani", "Mend", "Merc", "Mero", "Narb", "Nbat", "Nkoo", "Orkh", "Ougr",
        "Palm", "Phli", "Phlp", "Phnx", "Prti", "Rohg", "Samr", "Sarb", "Sogd", "Sogo", "Syrc",
        "Thaa", "Yezi"};
    if (strlen(script) != 4)
        return -1;
    char t[5] = {0};
    for (int i = 0; i < 4; i++) {
        char c = script[i];
        t[i] = (char)(i == 0 ? (c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c)
                             : (c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
    }
    for (size_t i = 0; i < sizeof rtl / sizeof rtl[0]; i++)
        if (strcmp(t, rtl[i]) == 0)
            return 1;
    return 0;
}

void shape_check_features(const fv_gr_face *face, shape_opts *o)
{
    char unknown[512] = "";
    size_t used = 0;
    for (size_t i = 0; i < o->features.n; i++) {
        uint32_t id = o->features.f[i].id;
        o->feature_known[i] = face_has_feature(face, id);
        /* "ss1": graphite2 pads a short tag with NULs, HarfBuzz with spaces. */
        if (!o->feature_known[i] && (id >> 24)) {
            uint32_t t = id;
            for (int shift = 0; shift < 24 && ((t >> shift) & 0xFFu) == 0; shift += 8)
                t |= 0x20u << shift;
            if (t != id && face_has_feature(face, t)) {
                o->features.f[i].id = t;
                o->feature_known[i] = 1;
            }
        }
        if (!o->feature_known[i] && used < sizeof unknown) {
            char name[12];
            if (id >> 24) {
                char c[4] = {(char)(id >> 24), (char)(id >> 16), (char)(id >> 8), (char)id};
                size_t n = 4;
                while (n && c[n - 1] == 0)
                    n--;
                snprintf(name, sizeof name, "%.*s", (int)n, c);
            } else {
                snprintf(name, sizeof name, "%lu", (unsigned long)id);
            }
            int w = snprintf(unknown + used, sizeof unknown - used, "%s'%s'", used ? ", " : "",
                             name);
            used += w > 0 ? (size_t)w : 0;
        }
    }
    if (used)
        fprintf(stderr, "fontvm shape: warning: the font has no feature %s (ignored)\n", unknown);
}
