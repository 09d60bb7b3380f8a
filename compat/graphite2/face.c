/* fontvm's graphite2 drop-in: faces (from a table callback or a file), their
 * features, languages and labels, tags and the engine version. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/reader.h"
#include "fvg2.h"
#include "sfnt/font.h"

/* ---- reference counting (see fvg2.h) ---- */

void fvg2_face_ref(const gr_face *face)
{
    atomic_fetch_add(&((gr_face *)face)->refs, 1);
}

void fvg2_face_unref(const gr_face *cface)
{
    gr_face *face = (gr_face *)cface;
    if (!face || atomic_fetch_sub(&face->refs, 1) != 1)
        return;
    free(face->frefs);
    free(face->listed);
    fv_gr_face_free(face->gr);
    fv_font_close(face->font);
    free(face->sfnt);
    free(face);
}

/* ---- assembling an sfnt from get_table ---- */

/* The tables fontvm's sfnt reader and Graphite face read, in tag order (an
 * sfnt directory is sorted by tag). */
static const uint32_t wanted_tags[] = {
    FV_TAG('F', 'e', 'a', 't'), FV_TAG('G', 'l', 'a', 't'), FV_TAG('G', 'l', 'o', 'c'),
    FV_TAG('O', 'S', '/', '2'), FV_TAG('S', 'i', 'l', 'e'), FV_TAG('S', 'i', 'l', 'f'),
    FV_TAG('S', 'i', 'l', 'l'), FV_TAG('c', 'm', 'a', 'p'), FV_TAG('g', 'l', 'y', 'f'),
    FV_TAG('h', 'e', 'a', 'd'), FV_TAG('h', 'h', 'e', 'a'), FV_TAG('h', 'm', 't', 'x'),
    FV_TAG('l', 'o', 'c', 'a'), FV_TAG('m', 'a', 'x', 'p'), FV_TAG('n', 'a', 'm', 'e'),
    FV_TAG('p', 'o', 's', 't')};
#define NUM_WANTED (sizeof wanted_tags / sizeof wanted_tags[0])

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

/* The tables the callback has, copied into one sfnt (the callback's buffers
 * are released at once: graphite2's users may free them then).  NULL when
 * a table is larger than FVG2_MAX_TABLE_BYTES or memory runs out. */
static uint8_t *assemble_sfnt(const void *handle, const gr_face_ops *ops, size_t *out_len)
{
    const void *ptr[NUM_WANTED];
    size_t len[NUM_WANTED];
    uint32_t n = 0;
    uint64_t total = 12;
    int too_big = 0;
    gr_release_table_fn release =
        ops->size >= offsetof(gr_face_ops, release_table) + sizeof ops->release_table
            ? ops->release_table
            : NULL;
    for (size_t i = 0; i < NUM_WANTED; i++) {
        len[i] = 0;
        ptr[i] = ops->get_table(handle, wanted_tags[i], &len[i]);
        if (!ptr[i] || len[i] == 0) {
            if (ptr[i] && release)
                release(handle, ptr[i]);
            ptr[i] = NULL;
            continue;
        }
        if (len[i] > FVG2_MAX_TABLE_BYTES)
            too_big = 1;
        n++;
        total += 16 + (((uint64_t)len[i] + 3) & ~(uint64_t)3);
    }
    uint8_t *out = NULL;
    if (!too_big && total <= (uint64_t)FVG2_MAX_TABLE_BYTES * 2)
        out = calloc(1, (size_t)total);
    if (out) {
        uint32_t es = 0;
        while ((2u << es) <= n)
            es++;
        put32(out, 0x00010000);
        put16(out + 4, n);
        put16(out + 6, (n ? (1u << es) : 0) * 16);
        put16(out + 8, es);
        put16(out + 10, n * 16 - (n ? (1u << es) : 0) * 16);
        size_t dir = 12, at = 12 + (size_t)n * 16;
        for (size_t i = 0; i < NUM_WANTED; i++) {
            if (!ptr[i])
                continue;
            put32(out + dir, wanted_tags[i]);
            put32(out + dir + 8, (uint32_t)at);
            put32(out + dir + 12, (uint32_t)len[i]);
            memcpy(out + at, ptr[i], len[i]);
            dir += 16;
            at += (len[i] + 3) & ~(size_t)3;
        }
        *out_len = (size_t)total;
    }
    for (size_t i = 0; i < NUM_WANTED; i++)
        if (ptr[i] && release)
            release(handle, ptr[i]);
    return out;
}

static uint16_t rd16_or0(fv_span s, uint64_t off)
{
    uint16_t v = 0;
    return fv_rd_u16(s, off, &v) == FV_OK ? v : 0;
}

/* gr_faceinfo from the Silf subtable, as graphite2 1.3.14 reports it
 * (measured on the corpus fonts: line ends are flags bit 0, the space
 * contextuals bits 2-4 (Harmattan's 0x38 gives 6), a bidi pass any iBidi but 0xFF, justification any
 * justification level). */
static void fill_info(gr_face *face)
{
    const grv_silf *s = &face->gr->silf;
    uint64_t base = s->version >= 0x00030000 ? 8 : 0;
    memset(&face->info, 0, sizeof face->info);
    face->info.extra_ascent = rd16_or0(s->data, base + 2);
    face->info.extra_descent = rd16_or0(s->data, base + 4);
    face->info.upem = face->gr->upem;
    face->info.space_contextuals = (enum gr_space_contextuals)((s->flags >> 2) & 7u);
    face->info.has_bidi_pass = s->i_bidi != 0xff;
    face->info.line_ends = s->flags & 1u;
    face->info.justifies = s->num_jlevels != 0;
}

static gr_face *face_from_font(fv_font *font, uint8_t *sfnt)
{
    fv_gr_face *gr = NULL;
    gr_face *face = NULL;
    if (!font || fv_gr_face_new(font, &gr, NULL) != FV_OK)
        goto fail;
    face = calloc(1, sizeof *face);
    if (!face)
        goto fail;
    face->frefs = calloc(gr->num_features ? gr->num_features : 1, sizeof *face->frefs);
    face->listed = calloc(gr->num_features ? gr->num_features : 1, sizeof *face->listed);
    if (!face->frefs || !face->listed)
        goto fail;
    atomic_init(&face->refs, 1);
    face->font = font;
    face->gr = gr;
    face->sfnt = sfnt;
    for (uint16_t i = 0; i < gr->num_features; i++) {
        face->frefs[i].face = face;
        face->frefs[i].index = i;
        /* COMPAT(graphite2): hidden features (Feat flag 0x800) are not
         * enumerated, but gr_face_find_fref finds them (measured on
         * Harmattan: 17 of its 19 features listed, uts5 and 1 found) */
        if (!(gr->features[i].flags & 0x800u))
            face->listed[face->num_listed++] = i;
    }
    fill_info(face);
    return face;
fail:
    if (face) {
        free(face->frefs);
        free(face->listed);
    }
    free(face);
    fv_gr_face_free(gr);
    fv_font_close(font);
    free(sfnt);
    return NULL;
}

/* COMPAT(graphite2): faceOptions change only what graphite2 loads ahead of
 * time; dumbRendering faces of fonts without Silf are refused as graphite2
 * refuses them (measured), so the options are accepted and ignored. */
gr_face *GR2_NAME(make_face_with_ops)(const void *appFaceHandle, const gr_face_ops *face_ops,
                                      unsigned int faceOptions)
{
    (void)faceOptions;
    if (!appFaceHandle || !face_ops || !face_ops->get_table)
        return NULL;
    size_t len = 0;
    uint8_t *sfnt = assemble_sfnt(appFaceHandle, face_ops, &len);
    if (!sfnt)
        return NULL;
    fv_font *font = NULL;
    if (fv_font_open_memory(sfnt, len, 0, NULL, &font, NULL) != FV_OK) {
        free(sfnt);
        return NULL;
    }
    return face_from_font(font, sfnt);
}

static gr_face *make_face_fn(const void *appFaceHandle, gr_get_table_fn getTable,
                             unsigned int faceOptions)
{
    gr_face_ops ops = {sizeof(gr_face_ops), getTable, NULL};
    return GR2_NAME(make_face_with_ops)(appFaceHandle, &ops, faceOptions);
}

gr_face *GR2_NAME(make_face)(const void *appFaceHandle, gr_get_table_fn getTable,
                             unsigned int faceOptions)
{
    return make_face_fn(appFaceHandle, getTable, faceOptions);
}

gr_face *GR2_NAME(make_face_with_seg_cache_and_ops)(const void *appFaceHandle,
                                                    const gr_face_ops *face_ops,
                                                    unsigned int segCacheMaxSize,
                                                    unsigned int faceOptions)
{
    (void)segCacheMaxSize; /* graphite2 1.3.14 has no segment cache either */
    return GR2_NAME(make_face_with_ops)(appFaceHandle, face_ops, faceOptions);
}

gr_face *GR2_NAME(make_face_with_seg_cache)(const void *appFaceHandle, gr_get_table_fn getTable,
                                            unsigned int segCacheMaxSize, unsigned int faceOptions)
{
    (void)segCacheMaxSize;
    return make_face_fn(appFaceHandle, getTable, faceOptions);
}

static gr_face *make_file_face(const char *filename, unsigned int faceOptions)
{
    (void)faceOptions;
    if (!filename)
        return NULL;
    /* COMPAT(graphite2): its file face reads a plain sfnt of version 1.0
     * only; measured on small.ttf: 2.0, 'true', 'OTTO', 'typ1', 'ttcf',
     * A5kbd, 0x00010001 and 0x0001FFFF refused (fontvm opens the first
     * five, collections and web fonts as FreeType does; a table callback,
     * HarfBuzz's way, is not affected) (fuzz/FINDINGS.md F-38). */
    uint8_t version[4] = {0};
    FILE *f = fopen(filename, "rb");
    size_t got = f ? fread(version, 1, sizeof version, f) : 0;
    if (f)
        fclose(f);
    if (got != sizeof version || version[0] != 0 || version[1] != 1 || version[2] != 0 ||
        version[3] != 0)
        return NULL;
    fv_font *font = NULL;
    if (fv_font_open_file(filename, 0, NULL, &font, NULL) != FV_OK)
        return NULL;
    return face_from_font(font, NULL);
}

gr_face *GR2_NAME(make_file_face)(const char *filename, unsigned int faceOptions)
{
    return make_file_face(filename, faceOptions);
}

gr_face *GR2_NAME(make_file_face_with_seg_cache)(const char *filename, unsigned int segCacheMaxSize,
                                                 unsigned int faceOptions)
{
    (void)segCacheMaxSize;
    return make_file_face(filename, faceOptions);
}

void GR2_NAME(face_destroy)(gr_face *face)
{
    fvg2_face_unref(face);
}

unsigned short GR2_NAME(face_n_glyphs)(const gr_face *face)
{
    return face ? (unsigned short)face->gr->num_glyphs : 0;
}

const gr_faceinfo *GR2_NAME(face_info)(const gr_face *face, gr_uint32 script)
{
    (void)script; /* one Silf subtable, as every known font */
    return face ? &face->info : NULL;
}

int GR2_NAME(face_is_char_supported)(const gr_face *face, gr_uint32 usv, gr_uint32 script)
{
    (void)script;
    if (!face)
        return 0;
    if (sfnt_cmap_lookup(face->gr->sfnt, usv))
        return 1;
    const grv_silf *s = &face->gr->silf;
    for (uint32_t i = 0; i < s->num_pseudo; i++)
        if (s->pseudos[i].unicode == usv)
            return 1;
    return 0;
}

/* ---- tags and version ---- */

void GR2_NAME(engine_version)(int *nMajor, int *nMinor, int *nBugFix)
{
    if (nMajor)
        *nMajor = GR2_VERSION_MAJOR;
    if (nMinor)
        *nMinor = GR2_VERSION_MINOR;
    if (nBugFix)
        *nBugFix = GR2_VERSION_BUGFIX;
}

/* COMPAT(graphite2): a string longer than 4 bytes is tag 0, as in graphite2;
 * a shorter one is padded with zero bytes, where graphite2 reads the bytes
 * after the terminator (measured: "ab" then 'Q' gives 0x61620051). */
gr_uint32 GR2_NAME(str_to_tag)(const char *str)
{
    if (!str)
        return 0;
    size_t n = 0;
    while (n < 5 && str[n])
        n++;
    if (n > 4)
        return 0;
    uint32_t tag = 0;
    for (size_t i = 0; i < 4; i++)
        tag = tag << 8 | (i < n ? (uint8_t)str[i] : 0u);
    return tag;
}

/* Writes the 4 bytes and a terminator, as graphite2 does (measured). */
void GR2_NAME(tag_to_str)(gr_uint32 tag, char *str)
{
    if (!str)
        return;
    for (int i = 0; i < 4; i++)
        str[i] = (char)(uint8_t)(tag >> (24 - 8 * i));
    str[4] = 0;
}

/* ---- features ---- */

gr_uint16 GR2_NAME(face_n_fref)(const gr_face *face)
{
    return face ? face->num_listed : 0;
}

const gr_feature_ref *GR2_NAME(face_fref)(const gr_face *face, gr_uint16 i)
{
    if (!face || i >= face->num_listed)
        return NULL;
    return &face->frefs[face->listed[i]];
}

/* COMPAT(graphite2): trailing space bytes of the id are dropped before the
 * lookup (measured: 0x6b646f20 finds nothing on Padauk; 1056 = 0x420 finds
 * feature 1024 = 0x400 on charis_r_gr, KD-2), then the first feature with
 * that id. */
const gr_feature_ref *GR2_NAME(face_find_fref)(const gr_face *face, gr_uint32 featId)
{
    if (!face)
        return NULL;
    for (unsigned shift = 0; shift < 32 && ((featId >> shift) & 0xffu) == 0x20; shift += 8)
        featId &= ~(0xffu << shift);
    for (uint16_t i = 0; i < face->gr->num_features; i++)
        if (face->gr->features[i].id == featId)
            return &face->frefs[i];
    return NULL;
}

gr_uint32 GR2_NAME(fref_id)(const gr_feature_ref *ref)
{
    return ref ? ref->face->gr->features[ref->index].id : 0;
}

gr_uint16 GR2_NAME(fref_n_values)(const gr_feature_ref *ref)
{
    return ref ? ref->face->gr->features[ref->index].num_settings : 0;
}

gr_int16 GR2_NAME(fref_value)(const gr_feature_ref *ref, gr_uint16 settingno)
{
    if (!ref)
        return 0;
    const grv_feature *f = &ref->face->gr->features[ref->index];
    return settingno < f->num_settings ? f->setting_values[settingno] : 0;
}

static gr_feature_val *featureval_new(const gr_face *face)
{
    uint16_t n = face->gr->num_features;
    gr_feature_val *v = malloc(sizeof *v + (size_t)n * sizeof(int32_t));
    if (!v)
        return NULL;
    v->face = face;
    v->num = n;
    for (uint16_t i = 0; i < n; i++)
        v->values[i] = face->gr->features[i].default_value;
    fvg2_face_ref(face);
    return v;
}

gr_feature_val *GR2_NAME(face_featureval_for_lang)(const gr_face *face, gr_uint32 langname)
{
    if (!face)
        return NULL;
    gr_feature_val *v = featureval_new(face);
    /* the engine's language rules (vm/graphite/feat.c, F-43): Sill's
     * settings and the language feature (id 1) for a language Sill lists,
     * the tag's trailing spaces dropped */
    if (v)
        grv_features_for_lang(face->gr, langname, v->values);
    return v;
}

gr_feature_val *GR2_NAME(featureval_clone)(const gr_feature_val *src)
{
    if (!src)
        return NULL;
    gr_feature_val *v = featureval_new(src->face);
    if (v)
        memcpy(v->values, src->values, (size_t)src->num * sizeof(int32_t));
    return v;
}

void GR2_NAME(featureval_destroy)(gr_feature_val *v)
{
    if (!v)
        return;
    const gr_face *face = v->face;
    free(v);
    fvg2_face_unref(face);
}

gr_uint16 GR2_NAME(fref_feature_value)(const gr_feature_ref *ref, const gr_feature_val *feats)
{
    if (!ref || !feats || feats->face != ref->face || ref->index >= feats->num)
        return 0;
    return (gr_uint16)feats->values[ref->index];
}

/* graphite2 refuses values above the feature's largest setting (0, and the
 * set unchanged) and stores the others (1). */
int GR2_NAME(fref_set_feature_value)(const gr_feature_ref *ref, gr_uint16 val, gr_feature_val *dest)
{
    if (!ref || !dest || dest->face != ref->face || ref->index >= dest->num)
        return 0;
    if (val > ref->face->gr->features[ref->index].max_value)
        return 0;
    dest->values[ref->index] = val;
    return 1;
}

unsigned short GR2_NAME(face_n_languages)(const gr_face *face)
{
    return face ? face->gr->num_langs : 0;
}

gr_uint32 GR2_NAME(face_lang_by_index)(const gr_face *face, gr_uint16 i)
{
    if (!face || i >= face->gr->num_langs)
        return 0;
    return face->gr->langs[i].tag;
}

/* ---- labels from the name table ---- */

/* The Windows Unicode (3, 1) record of `name_id` in language *lang, else in
 * US English (0x409), else the first in any language; *lang is set to the
 * record's.  Returns its UTF-16BE string, or an empty span. */
static fv_span find_name(const gr_face *face, uint16_t name_id, uint16_t *lang)
{
    fv_span t, none = {NULL, 0};
    uint16_t count = 0, strings = 0;
    if (!sfnt_find_table(face->gr->sfnt, SFNT_TAG_name, &t) || fv_rd_u16(t, 2, &count) != FV_OK ||
        fv_rd_u16(t, 4, &strings) != FV_OK)
        return none;
    int64_t pick[3] = {-1, -1, -1};
    for (uint32_t i = 0; i < count; i++) {
        int64_t rec = 6 + 12 * (int64_t)i;
        uint16_t plat, enc, lg, nid;
        uint64_t r = (uint64_t)rec;
        if (fv_rd_u16(t, r, &plat) != FV_OK || fv_rd_u16(t, r + 2, &enc) != FV_OK ||
            fv_rd_u16(t, r + 4, &lg) != FV_OK || fv_rd_u16(t, r + 6, &nid) != FV_OK)
            break;
        if (plat != 3 || enc != 1 || nid != name_id)
            continue;
        if (lg == *lang && pick[0] < 0)
            pick[0] = rec;
        if (lg == 0x409 && pick[1] < 0)
            pick[1] = rec;
        if (pick[2] < 0)
            pick[2] = rec;
    }
    for (int k = 0; k < 3; k++) {
        if (pick[k] < 0)
            continue;
        uint16_t lg = 0, len = 0, off = 0;
        fv_span str;
        (void)fv_rd_u16(t, (uint64_t)pick[k] + 4, &lg);
        if (fv_rd_u16(t, (uint64_t)pick[k] + 8, &len) != FV_OK ||
            fv_rd_u16(t, (uint64_t)pick[k] + 10, &off) != FV_OK ||
            fv_span_sub(t, (uint64_t)strings + off, len, &str) != FV_OK)
            return none;
        *lang = lg;
        return str;
    }
    return none;
}

/* The label in the encoding asked for, terminated, its length in code
 * units (without the terminator) in *length; NULL when there is none. */
static void *label(const gr_face *face, uint16_t name_id, gr_uint16 *langId, enum gr_encform utf,
                   gr_uint32 *length)
{
    uint16_t lang = langId ? *langId : 0x409;
    fv_span s = find_name(face, name_id, &lang);
    if (!s.data)
        return NULL;
    size_t units = s.len / 2;
    uint32_t *cps = malloc((units + 1) * sizeof *cps);
    if (!cps)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < units; i++) {
        uint16_t u = 0, lo = 0;
        (void)fv_rd_u16(s, 2 * (uint64_t)i, &u);
        uint32_t c = u;
        if (u >= 0xD800 && u < 0xDC00 && i + 1 < units && fv_rd_u16(s, 2 * (uint64_t)i + 2, &lo) == FV_OK &&
            lo >= 0xDC00 && lo < 0xE000) {
            c = 0x10000 + (((uint32_t)u - 0xD800) << 10) + (lo - 0xDC00u);
            i++;
        }
        cps[n++] = c;
    }
    void *out = NULL;
    size_t out_units = 0;
    if (utf == gr_utf32) {
        uint32_t *o = malloc((n + 1) * sizeof *o);
        if (o) {
            memcpy(o, cps, n * sizeof *o);
            o[n] = 0;
            out_units = n;
            out = o;
        }
    } else if (utf == gr_utf16) {
        uint16_t *o = malloc((2 * n + 1) * sizeof *o);
        if (o) {
            for (size_t i = 0; i < n; i++) {
                if (cps[i] >= 0x10000) {
                    o[out_units++] = (uint16_t)(0xD800 + ((cps[i] - 0x10000) >> 10));
                    o[out_units++] = (uint16_t)(0xDC00 + ((cps[i] - 0x10000) & 0x3FF));
                } else {
                    o[out_units++] = (uint16_t)cps[i];
                }
            }
            o[out_units] = 0;
            out = o;
        }
    } else if (utf == gr_utf8) {
        uint8_t *o = malloc(4 * n + 1);
        if (o) {
            for (size_t i = 0; i < n; i++) {
                uint32_t c = cps[i];
                if (c < 0x80) {
                    o[out_units++] = (uint8_t)c;
                } else if (c < 0x800) {
                    o[out_units++] = (uint8_t)(0xC0 | c >> 6);
                    o[out_units++] = (uint8_t)(0x80 | (c & 0x3F));
                } else if (c < 0x10000) {
                    o[out_units++] = (uint8_t)(0xE0 | c >> 12);
                    o[out_units++] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
                    o[out_units++] = (uint8_t)(0x80 | (c & 0x3F));
                } else {
                    o[out_units++] = (uint8_t)(0xF0 | c >> 18);
                    o[out_units++] = (uint8_t)(0x80 | ((c >> 12) & 0x3F));
                    o[out_units++] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
                    o[out_units++] = (uint8_t)(0x80 | (c & 0x3F));
                }
            }
            o[out_units] = 0;
            out = o;
        }
    }
    free(cps);
    if (out) {
        if (langId)
            *langId = lang;
        if (length)
            *length = (gr_uint32)out_units;
    }
    return out;
}

void *GR2_NAME(fref_label)(const gr_feature_ref *ref, gr_uint16 *langId, enum gr_encform utf,
                           gr_uint32 *length)
{
    if (!ref)
        return NULL;
    return label(ref->face, ref->face->gr->features[ref->index].label, langId, utf, length);
}

void *GR2_NAME(fref_value_label)(const gr_feature_ref *ref, gr_uint16 settingno, gr_uint16 *langId,
                                 enum gr_encform utf, gr_uint32 *length)
{
    if (!ref)
        return NULL;
    const grv_feature *f = &ref->face->gr->features[ref->index];
    if (settingno >= f->num_settings)
        return NULL;
    return label(ref->face, f->setting_labels[settingno], langId, utf, length);
}

void GR2_NAME(label_destroy)(void *label_)
{
    free(label_);
}

/* ---- logging: no JSON log, as in Debian's graphite2 (measured: every
 * entry point answers false) ---- */

bool GR2_NAME(start_logging)(gr_face *face, const char *log_path)
{
    (void)face;
    (void)log_path;
    return false;
}

void GR2_NAME(stop_logging)(gr_face *face)
{
    (void)face;
}

bool GR2_OLD_NAME(start_logging)(FILE *logFile, GrLogMask mask)
{
    (void)logFile;
    (void)mask;
    return false;
}

void GR2_OLD_NAME(stop_logging)(void)
{
}
