/* Which fonts graphite2 accepts at load, against fontvm (the Graphite table
 * headers).  A sweep that rewrote every header field of Silf, Glat, Gloc,
 * Feat and Sill one at a time in 19 Graphite fonts (0, 1, the value +-1, the
 * largest value and boundaries such as numGlyphs, numPasses, numAttribs)
 * and asked both engines found these rules, each pinned here on a font
 * built in memory from a real one: graphite2 must decide as recorded
 * (it is the reference), and fontvm must decide the same, refusing with
 * the named reason.
 *
 * - Feat: a version below 1.0 fails the face; its feature records must fit
 *   as if each took 16 bytes (the 2.0 record) whatever the version (F-37);
 * - Sill: a language of no settings may point anywhere (F-42);
 * - Gloc/Glat: the version limits are signed comparisons (0x80000000 and
 *   up pass; a Glat version there is read as 3.0);
 * - Gloc listing fewer glyphs than maxp fails the face;
 * - collision flags on a pass need Glat octaboxes (version >= 3.0, signed);
 * - a pass whose rules have no code at all fails;
 * - a pass without rules must have collision shift rounds;
 * - a pass's last glyph range may not end at glyph 0xFFFF. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <lz4.h>

#include "fontvm/fontvm.h"
#include "fontvm/graphite.h"
#include "gr_compare.h"
#include "test_support.h"

#define PADAUK_318 "/usr/share/fonts/truetype/padauk/Padauk-Regular.ttf"
#define TAGMUKAY "/usr/share/fonts/truetype/tagmukay/Tagmukay-Regular.ttf"
#define DAI_BANNA "/usr/share/fonts/truetype/dai-banna/DBSILBR.ttf"
#define AWAMI "/usr/share/fonts/truetype/awami/AwamiNastaliq-Regular.ttf"

typedef struct font {
    uint8_t *d;
    size_t n;
} font;

static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

static font load(const char *path)
{
    font f = {NULL, 0};
    f.d = test_read_file(path, &f.n);
    if (!f.d)
        fail_msg("cannot read %s", path);
    return f;
}

static font peer(const char *name)
{
    char path[1024];
    char rel[512];
    snprintf(rel, sizeof rel, TEST_PEER_GRAPHITE2 "/fonts/%s", name);
    test_source_path(path, sizeof path, rel);
    return load(path);
}

static font copy(const font *f)
{
    font c = {malloc(f->n), f->n};
    assert_non_null(c.d);
    memcpy(c.d, f->d, f->n);
    return c;
}

/* The directory record of `tag` (the fonts here are plain sfnts). */
static uint8_t *record(const font *f, const char *tag)
{
    uint32_t num = be16(f->d + 4);
    for (uint32_t i = 0; i < num; i++) {
        uint8_t *r = f->d + 12 + 16 * i;
        if (memcmp(r, tag, 4) == 0)
            return r;
    }
    fail_msg("no %s table", tag);
    return NULL;
}

/* Offset of a table in the file; the fonts used store Silf and Glat
 * uncompressed (Silf v5 and Glat v3 of Padauk 3.18 with scheme 0). */
static size_t table(const font *f, const char *tag) { return be32(record(f, tag) + 8); }

/* Where the first Silf subtable keeps its fields (GTF layout, v2 to v5). */
typedef struct silf_at {
    size_t flags;      /* the subtable's flags byte */
    size_t att_coll;   /* attCollisions */
    size_t pass[64];   /* each pass's start */
    uint32_t num_passes, i_pos;
} silf_at;

static silf_at silf(const font *f)
{
    silf_at s;
    memset(&s, 0, sizeof s);
    size_t t = table(f, "Silf");
    const uint8_t *d = f->d;
    uint32_t ver = be32(d + t);
    size_t sub = t + be32(d + t + (ver >= 0x00030000 ? 12 : 8));
    size_t p = sub + (ver >= 0x00030000 ? 8 : 0) + 6;
    s.num_passes = d[p];
    s.i_pos = d[p + 2];
    s.flags = p + 5;
    size_t q = p + 14 + 8u * d[p + 13];
    s.att_coll = q + 5;
    q += 9;
    q += 1 + 2u * d[q] + 1;
    q += 1 + 4u * d[q] + 2;
    assert_true(s.num_passes <= 64);
    for (uint32_t i = 0; i < s.num_passes; i++)
        s.pass[i] = sub + be32(d + q + 4 * i);
    return s;
}

/* A pass's glyph ranges and its rule code offset arrays. */
typedef struct pass_at {
    uint32_t num_rules, num_range;
    size_t ranges, ocons, oacts;
} pass_at;

static pass_at pass(const font *f, size_t st)
{
    pass_at p;
    const uint8_t *d = f->d;
    p.num_rules = be16(d + st + 4);
    size_t q = st + 24;
    uint32_t nsucc = be16(d + q + 4);
    q += 8;
    p.num_range = be16(d + q);
    p.ranges = q + 8;
    q += 8 + 6u * p.num_range;
    uint32_t nmap = be16(d + q + 2 * nsucc);
    q += 2u * (nsucc + 1) + 2u * nmap;
    uint32_t mn = d[q], mx = d[q + 1];
    q += 2 + 2 * (mx - mn + 1);
    q += 3u * p.num_rules + 1 + 2; /* sort keys, pre-contexts, threshold, pConstraint */
    p.ocons = q;
    p.oacts = q + 2u * (p.num_rules + 1);
    return p;
}

static int graphite2_accepts(const font *f)
{
    char msg[256];
    grc_gr2 *g = grc_gr2_open(f->d, f->n, msg, sizeof msg);
    grc_gr2_close(g);
    return g != NULL;
}

static int fontvm_accepts(const font *f, char *why, size_t why_size)
{
    fv_font *vf = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    int ok = fv_font_open_memory(f->d, f->n, 0, NULL, &vf, &err) == FV_OK &&
             fv_gr_face_new(vf, &face, &err) == FV_OK;
    why[0] = 0;
    if (!ok)
        snprintf(why, why_size, "%s", err.detail);
    fv_gr_face_free(face);
    fv_font_close(vf);
    return ok;
}

/* Both engines decide `accepted` on f (and fontvm refuses for `reason`);
 * frees f. */
static void expect(font f, const char *what, int accepted, const char *reason)
{
    char why[256];
    int g = graphite2_accepts(&f);
    int v = fontvm_accepts(&f, why, sizeof why);
    print_message("%-58s graphite2 %s, fontvm %s %s\n", what, g ? "accepts" : "refuses",
                  v ? "accepts" : "refuses", why);
    free(f.d);
    if (g != accepted)
        fail_msg("%s: graphite2 no longer decides as measured", what);
    if (v != accepted)
        fail_msg("%s: fontvm %s, graphite2 %s", what, v ? "accepts" : "refuses",
                 g ? "accepts" : "refuses");
    if (!accepted && !strstr(why, reason))
        fail_msg("%s: fontvm refuses for \"%s\", not \"%s\"", what, why, reason);
}

static void test_feat_version(void **state)
{
    (void)state;
    static const struct { uint32_t v; int ok; } cases[] = {
        {0, 0}, {1, 0}, {0x8000, 0}, {0xffff, 0}, {0x00010000, 1}, {0x0001ffff, 1},
    };
    font base = peer("small.ttf");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        font f = copy(&base);
        put32(f.d + table(&f, "Feat"), cases[i].v);
        char what[96];
        snprintf(what, sizeof what, "small.ttf Feat version 0x%08x", (unsigned)cases[i].v);
        expect(f, what, cases[i].ok, "Feat version below 1.0");
    }
    free(base.d);
}

/* small.ttf with its Feat replaced by `len` bytes of a Feat 1.0 of `num`
 * features, each without settings and pointing at the table's end (the
 * table appended to the file, its directory record pointing there). */
static font with_bare_feat(const font *base, uint32_t num, uint32_t len)
{
    size_t at = (base->n + 3) & ~(size_t)3;
    font f = {calloc(1, at + len + 16), at + len};
    assert_non_null(f.d);
    memcpy(f.d, base->d, base->n);
    uint8_t *t = f.d + at;
    put32(t, 0x00010000);
    put16(t + 4, num);
    for (uint32_t k = 0; k < num; k++) {
        uint8_t *r = t + 12 + 12 * k;
        if (12 + 12 * (k + 1) > len)
            break;
        put16(r, 1 + k);        /* id */
        put16(r + 2, 0);        /* no settings */
        put32(r + 4, len);      /* settings offset: the table's end */
        put16(r + 8, 0x8000);   /* flags */
        put16(r + 10, 0x0102);  /* label */
    }
    uint8_t *rec = record(&f, "Feat");
    put32(rec + 8, (uint32_t)at);
    put32(rec + 12, len);
    return f;
}

static void test_feat_records_sized_as_v2(void **state)
{
    (void)state;
    font base = peer("small.ttf");
    for (uint32_t num = 1; num <= 3; num++) {
        /* 12 + 12n holds the 1.0 records; graphite2 wants 12 + 16n */
        for (uint32_t len = 12 + 12 * num; len <= 12 + 16 * num + 1; len++) {
            char what[96];
            snprintf(what, sizeof what, "small.ttf Feat 1.0, %u bare features, %u bytes",
                     (unsigned)num, (unsigned)len);
            expect(with_bare_feat(&base, num, len), what, len >= 12 + 16 * num,
                   "feature records (16 bytes each");
        }
    }
    free(base.d);
}

/* small.ttf with its Sill replaced by one language ("eng") of no
 * settings whose settings offset is `off`, in a 20-byte table. */
static void test_sill_language_without_settings(void **state)
{
    (void)state;
    static const uint32_t offs[] = {0, 20, 21, 52, 8212, 0xffff};
    font base = peer("small.ttf");
    for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
        size_t at = (base.n + 3) & ~(size_t)3;
        font f = {calloc(1, at + 20 + 16), at + 20};
        assert_non_null(f.d);
        memcpy(f.d, base.d, base.n);
        uint8_t *t = f.d + at;
        put32(t, 0x00010000);
        put16(t + 4, 1);
        put32(t + 12, 0x656e6700);
        put16(t + 16, 0);
        put16(t + 18, offs[i]);
        uint8_t *rec = record(&f, "Sill");
        put32(rec + 8, (uint32_t)at);
        put32(rec + 12, 20);
        char what[96];
        snprintf(what, sizeof what, "small.ttf Sill language of 0 settings at offset %u",
                 (unsigned)offs[i]);
        expect(f, what, 1, "");
    }
    free(base.d);
}

static void test_gloc_glat_versions_signed(void **state)
{
    (void)state;
    static const struct { uint32_t v; int ok; } gloc[] = {
        {0x0001ffff, 1}, {0x00020000, 0}, {0x7fffffff, 0}, {0x80000000, 1}, {0xffffffff, 1},
    };
    static const struct { uint32_t v; int ok; } glat[] = {
        {0x0003ffff, 1}, {0x00040000, 0}, {0x7fffffff, 0}, {0x80000000, 1}, {0xffffffff, 1},
    };
    font small = peer("small.ttf"), padauk = load(PADAUK_318);
    for (size_t i = 0; i < sizeof gloc / sizeof gloc[0]; i++) {
        font f = copy(&small);
        put32(f.d + table(&f, "Gloc"), gloc[i].v);
        char what[96];
        snprintf(what, sizeof what, "small.ttf Gloc version 0x%08x", (unsigned)gloc[i].v);
        expect(f, what, gloc[i].ok, "unusable Gloc/Glat header");
    }
    /* Padauk 3.18's Glat is version 3.0 (octaboxes, stored uncompressed):
     * read as 3.0 whatever the version's sign */
    for (size_t i = 0; i < sizeof glat / sizeof glat[0]; i++) {
        font f = copy(&padauk);
        put32(f.d + table(&f, "Glat"), glat[i].v);
        char what[96];
        snprintf(what, sizeof what, "Padauk 3.18 Glat version 0x%08x", (unsigned)glat[i].v);
        expect(f, what, glat[i].ok, "unusable Gloc/Glat header");
    }
    free(small.d);
    free(padauk.d);
}

/* Silf flag 0x20 and attCollisions 3 allow collision flags on the
 * positioning passes; `pass_flags` goes on the first of them. */
static font with_collisions(const font *base, uint8_t pass_flags)
{
    font f = copy(base);
    silf_at s = silf(&f);
    f.d[s.flags] |= 0x20;
    f.d[s.att_coll] = 3;
    assert_true(s.i_pos < s.num_passes);
    f.d[s.pass[s.i_pos]] = pass_flags;
    return f;
}

static void test_collisions_need_octaboxes(void **state)
{
    (void)state;
    static const uint8_t flags[] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x18, 0x20, 0x40, 0x80};
    font v1 = peer("Padauk.ttf"), v3 = load(PADAUK_318);
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        int collision = (flags[i] & 0x1f) != 0;
        char what[96];
        snprintf(what, sizeof what, "Padauk (Glat 1.0) pass flags 0x%02x", flags[i]);
        expect(with_collisions(&v1, flags[i]), what, !collision, "without Glat version 3 octaboxes");
        snprintf(what, sizeof what, "Padauk 3.18 (Glat 3.0) pass flags 0x%02x", flags[i]);
        expect(with_collisions(&v3, flags[i]), what, 1, "");
        font f = with_collisions(&v3, flags[i]);
        put32(f.d + table(&f, "Glat"), 0xffffffffu);
        snprintf(what, sizeof what, "Padauk 3.18 (Glat 0xFFFFFFFF) pass flags 0x%02x", flags[i]);
        expect(f, what, !collision, "without Glat version 3 octaboxes");
    }
    free(v1.d);
    free(v3.d);
}

/* small.ttf: maxp counts 6 glyphs, Gloc lists 8 (two pseudo glyphs) and
 * Silf's maxGlyphID is 7; with maxGlyphID 3, Gloc shortened to n glyphs. */
static void test_gloc_covers_maxp(void **state)
{
    (void)state;
    font base = peer("small.ttf");
    for (uint32_t n = 8; n >= 3; n--) {
        font f = copy(&base);
        silf_at s = silf(&f);
        put16(f.d + s.flags - 5 - 6, 3); /* maxGlyphID: before the metrics and counts */
        uint8_t *rec = record(&f, "Gloc");
        assert_int_equal(be16(f.d + be32(rec + 8) + 4) & 3, 0); /* short offsets, no names */
        put32(rec + 12, 8 + 2 * (n + 1));
        char what[96];
        snprintf(what, sizeof what, "small.ttf (maxp 6) Gloc listing %u glyphs", (unsigned)n);
        expect(f, what, n >= 6, "Gloc lists fewer glyphs than maxp");
    }
    free(base.d);
}

static void test_rules_without_code(void **state)
{
    (void)state;
    /* small.ttf pass 0: two rules, no constraints, actions at 0, 10, 14 */
    static const struct { uint16_t oa[3]; int ok; } small[] = {
        {{0, 10, 14}, 1}, {{10, 10, 14}, 1}, {{0, 10, 10}, 1},
        {{14, 14, 14}, 0}, {{0, 0, 0}, 0}, {{10, 10, 10}, 0},
    };
    font base = peer("small.ttf");
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        font f = copy(&base);
        pass_at p = pass(&f, silf(&f).pass[0]);
        assert_int_equal(p.num_rules, 2);
        for (int k = 0; k < 3; k++)
            put16(f.d + p.oacts + 2 * k, small[i].oa[k]);
        char what[96];
        snprintf(what, sizeof what, "small.ttf pass 0 action offsets %u %u %u", small[i].oa[0],
                 small[i].oa[1], small[i].oa[2]);
        expect(f, what, small[i].ok, "pass rules without any code");
    }
    free(base.d);
    /* Padauk 3.18 pass 2: one rule and a pass constraint, which does not
     * count */
    font padauk = load(PADAUK_318);
    font f = copy(&padauk);
    pass_at p = pass(&f, silf(&f).pass[2]);
    assert_int_equal(p.num_rules, 1);
    put16(f.d + p.oacts, be16(f.d + p.oacts + 2));
    expect(f, "Padauk 3.18 pass 2 (pass constraint) its rule's action empty", 0,
           "pass rules without any code");
    free(padauk.d);
}

static void test_range_ending_at_ffff(void **state)
{
    (void)state;
    static const struct { uint16_t first, last; int ok; } cases[] = {
        {5, 0xfffd, 1}, {5, 0xfffe, 1}, {0xfffe, 0xfffe, 1},
        {5, 0xffff, 0}, {0xfffe, 0xffff, 0}, {0xffff, 0xffff, 0},
    };
    font base = peer("small.ttf");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        font f = copy(&base);
        pass_at p = pass(&f, silf(&f).pass[0]);
        uint8_t *last = f.d + p.ranges + 6 * (p.num_range - 1);
        put16(last, cases[i].first);
        put16(last + 2, cases[i].last);
        char what[96];
        snprintf(what, sizeof what, "small.ttf pass 0 last range %u..%u", cases[i].first,
                 cases[i].last);
        expect(f, what, cases[i].ok, "glyph range ends at glyph 0xFFFF");
    }
    free(base.d);
}

/* A glyph may carry at most numAttribs non-zero values (found by the header
 * sweep once Tagmukay joined the corpus).  Tagmukay 1.0's Glat is v1 with
 * 36 attributes; glyph 333 holds 26 non-zero values in five runs, the last
 * (24, 12) numbering them up to 35. */
static void test_glyph_values_within_numattribs(void **state)
{
    (void)state;
    font base = load(TAGMUKAY);
    size_t gloc = table(&base, "Gloc"), glat = table(&base, "Glat");
    assert_int_equal(be16(base.d + gloc + 4) & 1, 0);   /* short offsets */
    assert_int_equal(be16(base.d + gloc + 6), 36);
    size_t run = glat + be16(base.d + gloc + 8 + 2 * 333);
    for (int r = 0; r < 4; r++)                          /* skip to the (24, 12) run */
        run += 2 + 2u * base.d[run + 1];
    assert_int_equal(base.d[run], 24);
    assert_int_equal(base.d[run + 1], 12);
    for (uint32_t na = 24; na <= 27; na++) {
        font f = copy(&base);
        put16(f.d + gloc + 6, na);
        char what[96];
        snprintf(what, sizeof what, "Tagmukay numAttribs %u (glyph 333: 26 values)", (unsigned)na);
        expect(f, what, na >= 26, "more non-zero attribute values than numAttribs");
    }
    /* zero values do not count: three of the run's values zeroed */
    for (uint32_t na = 22; na <= 23; na++) {
        font f = copy(&base);
        put16(f.d + gloc + 6, na);
        for (int k = 9; k < 12; k++)
            put16(f.d + run + 2 + 2 * k, 0);
        char what[96];
        snprintf(what, sizeof what, "Tagmukay numAttribs %u (glyph 333: 23 values)", (unsigned)na);
        expect(f, what, na >= 23, "more non-zero attribute values than numAttribs");
    }
    free(base.d);
}

/* attCollisions must leave its 5 collision attributes inside numAttribs,
 * a bound graphite2 takes without sign: with fewer than 5 attributes any
 * value passes.  Dai Banna (Silf 3.0) has 3; Tagmukay (Silf 2.0) 36. */
static void test_att_collisions_bound(void **state)
{
    (void)state;
    static const uint8_t few[] = {1, 3, 255};
    font dai = load(DAI_BANNA);
    assert_int_equal(be16(dai.d + table(&dai, "Gloc") + 6), 3);
    for (size_t i = 0; i < sizeof few; i++) {
        font f = copy(&dai);
        f.d[silf(&f).att_coll] = few[i];
        char what[96];
        snprintf(what, sizeof what, "Dai Banna (3 attributes) attCollisions %u", few[i]);
        expect(f, what, 1, "");
    }
    free(dai.d);
    font tag = load(TAGMUKAY);
    for (uint32_t v = 30; v <= 32; v++) {
        font f = copy(&tag);
        f.d[silf(&f).att_coll] = (uint8_t)v;
        char what[96];
        snprintf(what, sizeof what, "Tagmukay (36 attributes) attCollisions %u", (unsigned)v);
        expect(f, what, v <= 30, "subtable header out of range");
    }
    free(tag.d);
}

/* f with its LZ4-compressed Silf decompressed and stored, uncompressed, at
 * the end of the file (the directory entry repointed), so that silf() can
 * find its fields; frees f. */
static font silf_uncompressed(font f)
{
    uint8_t *rec = record(&f, "Silf");
    size_t off = be32(rec + 8), len = be32(rec + 12);
    assert_true(off <= f.n && len <= f.n - off && len > 8);
    assert_int_equal(be32(f.d + off + 4) >> 27, 1); /* scheme 1: LZ4 */
    uint32_t usize = be32(f.d + off + 4) & 0x07ffffffu; /* the whole table */
    size_t base = (f.n + 3) & ~(size_t)3;
    font u = {calloc(1, base + usize), base + usize};
    assert_non_null(u.d);
    memcpy(u.d, f.d, f.n);
    assert_int_equal(LZ4_decompress_safe((const char *)f.d + off + 8, (char *)u.d + base,
                                         (int)(len - 8), (int)usize),
                     (int)usize);
    put32(u.d + base + 4, 0); /* compression scheme 0: stored as is */
    rec = record(&u, "Silf");
    put32(rec + 4, 0);        /* checksum: neither engine reads it */
    put32(rec + 8, (uint32_t)base);
    put32(rec + 12, usize);
    free(f.d);
    return u;
}

/* A pass without rules is valid only with collision shifts (flags bits
 * 0-2): graphite2 refuses the font otherwise, even with the kerning or
 * direction bits set.  Awami Nastaliq's pass 10 (0 rules, flags 0x05) with
 * its flags rewritten. */
static void test_zero_rule_pass_needs_shifts(void **state)
{
    (void)state;
    static const struct { uint8_t flags; int accepted; } cases[] = {
        {0x05, 1}, {0x01, 1}, {0x02, 1}, {0x21, 1},
        {0x00, 0}, {0x08, 0}, {0x10, 0}, {0x18, 0}, {0x20, 0},
    };
    font base = silf_uncompressed(load(AWAMI));
    assert_int_equal(base.d[silf(&base).pass[10]], 0x05);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        font f = copy(&base);
        f.d[silf(&f).pass[10]] = cases[i].flags;
        char what[96];
        snprintf(what, sizeof what, "Awami pass 10 (no rules) flags 0x%02x", cases[i].flags);
        expect(f, what, cases[i].accepted, "no rules and no collision shifts");
    }
    free(base.d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_feat_version),
        cmocka_unit_test(test_feat_records_sized_as_v2),
        cmocka_unit_test(test_sill_language_without_settings),
        cmocka_unit_test(test_gloc_glat_versions_signed),
        cmocka_unit_test(test_collisions_need_octaboxes),
        cmocka_unit_test(test_gloc_covers_maxp),
        cmocka_unit_test(test_rules_without_code),
        cmocka_unit_test(test_range_ending_at_ffff),
        cmocka_unit_test(test_glyph_values_within_numattribs),
        cmocka_unit_test(test_att_collisions_bound),
        cmocka_unit_test(test_zero_rule_pass_needs_shifts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
