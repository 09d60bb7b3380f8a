/* Glyph names from the post table (OpenType 'post', formats 1.0 and 2.0),
 * for hb-shape's output and for glyphs chosen by name.  A glyph without a
 * name is "gidN", as hb-shape prints it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/reader.h"
#include "sfnt/font.h"

/* The 258 standard Macintosh glyph names (post format 1.0 order; format
 * 2.0 indexes below 258 name these).  A-Z and a-z are filled in by code. */
#define POST_STANDARD_NAMES 258
static const char *const mac_names_0_35[] = {
    ".notdef", ".null", "nonmarkingreturn", "space", "exclam", "quotedbl", "numbersign",
    "dollar", "percent", "ampersand", "quotesingle", "parenleft", "parenright", "asterisk",
    "plus", "comma", "hyphen", "period", "slash", "zero", "one", "two", "three", "four",
    "five", "six", "seven", "eight", "nine", "colon", "semicolon", "less", "equal", "greater",
    "question", "at"};
static const char *const mac_names_62_67[] = {"bracketleft", "backslash", "bracketright",
                                               "asciicircum", "underscore", "grave"};
static const char *const mac_names_94_257[] = {
    "braceleft", "bar", "braceright", "asciitilde", "Adieresis", "Aring", "Ccedilla",
    "Eacute", "Ntilde", "Odieresis", "Udieresis", "aacute", "agrave", "acircumflex",
    "adieresis", "atilde", "aring", "ccedilla", "eacute", "egrave", "ecircumflex", "edieresis",
    "iacute", "igrave", "icircumflex", "idieresis", "ntilde", "oacute", "ograve", "ocircumflex",
    "odieresis", "otilde", "uacute", "ugrave", "ucircumflex", "udieresis", "dagger", "degree",
    "cent", "sterling", "section", "bullet", "paragraph", "germandbls", "registered",
    "copyright", "trademark", "acute", "dieresis", "notequal", "AE", "Oslash", "infinity",
    "plusminus", "lessequal", "greaterequal", "yen", "mu", "partialdiff", "summation",
    "product", "pi", "integral", "ordfeminine", "ordmasculine", "Omega", "ae", "oslash",
    "questiondown", "exclamdown", "logicalnot", "radical", "florin", "approxequal", "Delta",
    "guillemotleft", "guillemotright", "ellipsis", "nonbreakingspace", "Agrave", "Atilde",
    "Otilde", "OE", "oe", "endash", "emdash", "quotedblleft", "quotedblright", "quoteleft",
    "quoteright", "divide", "lozenge", "ydieresis", "Ydieresis", "fraction", "currency",
    "guilsinglleft", "guilsinglright", "fi", "fl", "daggerdbl", "periodcentered",
    "quotesinglbase", "quotedblbase", "perthousand", "Acircumflex", "Ecircumflex", "Aacute",
    "Edieresis", "Egrave", "Iacute", "Icircumflex", "Idieresis", "Igrave", "Oacute",
    "Ocircumflex", "apple", "Ograve", "Uacute", "Ucircumflex", "Ugrave", "dotlessi",
    "circumflex", "tilde", "macron", "breve", "dotaccent", "ring", "cedilla", "hungarumlaut",
    "ogonek", "caron", "Lslash", "lslash", "Scaron", "scaron", "Zcaron", "zcaron", "brokenbar",
    "Eth", "eth", "Yacute", "yacute", "Thorn", "thorn", "minus", "multiply", "onesuperior",
    "twosuperior", "threesuperior", "onehalf", "onequarter", "threequarters", "franc", "Gbreve",
    "gbreve", "Idotaccent", "Scedilla", "scedilla", "Cacute", "cacute", "Ccaron", "ccaron",
    "dcroat"};
_Static_assert(sizeof mac_names_0_35 / sizeof mac_names_0_35[0] == 36, "names 0-35");
_Static_assert(sizeof mac_names_62_67 / sizeof mac_names_62_67[0] == 6, "names 62-67");
_Static_assert(sizeof mac_names_94_257 / sizeof mac_names_94_257[0] == 164, "names 94-257");

/* Copies up to n bytes of src, stopping at a NUL, into buf (size > 0) as
 * a C string, cut to size - 1 as snprintf("%.*s") cuts it; returns the
 * length.  Names are printed per glyph (`shape`), so no printf here. */
static size_t copy_name(char *buf, size_t size, const char *src, size_t n)
{
    const char *nul = memchr(src, 0, n);
    if (nul)
        n = (size_t)(nul - src);
    if (n > size - 1)
        n = size - 1;
    memcpy(buf, src, n);
    buf[n] = 0;
    return n;
}

/* Standard name `i` (< 258) into buf; its length. */
static size_t mac_name(uint32_t i, char *buf, size_t size)
{
    char c;
    if (i < 36)
        return copy_name(buf, size, mac_names_0_35[i], strlen(mac_names_0_35[i]));
    if (i < 62) {
        c = (char)('A' + (i - 36));
        return copy_name(buf, size, &c, 1);
    }
    if (i < 68)
        return copy_name(buf, size, mac_names_62_67[i - 62], strlen(mac_names_62_67[i - 62]));
    if (i < 94) {
        c = (char)('a' + (i - 68));
        return copy_name(buf, size, &c, 1);
    }
    return copy_name(buf, size, mac_names_94_257[i - 94], strlen(mac_names_94_257[i - 94]));
}

struct cli_names {
    uint32_t num_glyphs;
    uint32_t version;         /* 0x00010000, 0x00020000; 0 = no names */
    fv_span post;
    uint16_t num_indexed;     /* format 2.0: glyphs with an index */
    uint32_t num_strings;
    uint32_t *string_off;     /* format 2.0: offset of each Pascal string in post */
};

cli_names *cli_names_open(const fv_font *font)
{
    cli_names *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    const sfnt_font *s = fv_font_sfnt(font);
    n->num_glyphs = s->maxp.num_glyphs;
    if (!sfnt_find_table(s, SFNT_TAG_post, &n->post) || fv_rd_u32(n->post, 0, &n->version) != FV_OK)
        n->version = 0;
    if (n->version == 0x00020000u) {
        /* numGlyphs, the index array, then Pascal strings to the end. */
        if (fv_rd_u16(n->post, 32, &n->num_indexed) != FV_OK) {
            n->version = 0;
            return n;
        }
        uint64_t pos = 34 + 2 * (uint64_t)n->num_indexed;
        size_t cap = 0;
        while (fv_span_has(n->post, pos, 1)) {
            uint8_t len = n->post.data[pos];
            if (!fv_span_has(n->post, pos + 1, len))
                break;
            if (n->num_strings == cap) {
                size_t ncap = cap ? cap * 2 : 256;
                uint32_t *no = realloc(n->string_off, ncap * sizeof *no);
                if (!no) {
                    cli_names_close(n);
                    return NULL;
                }
                n->string_off = no;
                cap = ncap;
            }
            n->string_off[n->num_strings++] = (uint32_t)pos;
            pos += 1u + len;
        }
    } else if (n->version != 0x00010000u) {
        n->version = 0; /* 2.5 (deprecated), 3.0 and others carry no names */
    }
    return n;
}

void cli_names_close(cli_names *n)
{
    if (!n)
        return;
    free(n->string_off);
    free(n);
}

/* The post name of gid into buf: 1 with its length in *len, 0 when it
 * has none (a name of length 0 is none; one that starts with a NUL byte
 * is the empty name). */
static int post_name(const cli_names *n, uint32_t gid, char *buf, size_t size, size_t *out)
{
    if (!n || gid >= n->num_glyphs)
        return 0;
    if (n->version == 0x00010000u) {
        if (gid >= POST_STANDARD_NAMES)
            return 0;
        *out = mac_name(gid, buf, size);
        return 1;
    }
    if (n->version != 0x00020000u || gid >= n->num_indexed)
        return 0;
    uint16_t index;
    if (fv_rd_u16(n->post, 34 + 2 * (uint64_t)gid, &index) != FV_OK)
        return 0;
    if (index < POST_STANDARD_NAMES) {
        *out = mac_name(index, buf, size);
        return 1;
    }
    uint32_t k = (uint32_t)index - POST_STANDARD_NAMES;
    if (k >= n->num_strings)
        return 0;
    uint32_t off = n->string_off[k];
    size_t len = n->post.data[off];
    if (len == 0)
        return 0;
    *out = copy_name(buf, size, (const char *)n->post.data + off + 1, len);
    return 1;
}

size_t cli_glyph_name(const cli_names *n, uint32_t gid, char *buf, size_t size)
{
    size_t len;
    if (post_name(n, gid, buf, size, &len))
        return len;
    /* gidN; size is at least 32 for every caller */
    int k = snprintf(buf, size, "gid%lu", (unsigned long)gid);
    return k < 0 ? 0 : (size_t)k < size ? (size_t)k : size - 1;
}

int cli_glyph_by_name(const cli_names *n, const char *name, size_t len, uint32_t *gid)
{
    char buf[256];
    for (uint32_t g = 0; n && g < n->num_glyphs; g++) {
        cli_glyph_name(n, g, buf, sizeof buf);
        if (strlen(buf) == len && memcmp(buf, name, len) == 0) {
            *gid = g;
            return 0;
        }
    }
    return -1;
}
