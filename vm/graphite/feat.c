/* Feat: the font's features (GTF "Feat"; versions 1.0 and 2.0+). */
#include <string.h>

#include "graphite/face.h"

fv_status grv_feat_load(fv_gr_face *face, fv_span feat, fv_error *err)
{
    if (!feat.len)
        return FV_OK;
    uint32_t version;
    uint16_t n;
    /* COMPAT(graphite2): the 12-byte header must be there (measured on
     * small.ttf: a Feat of 4 to 11 bytes fails the face, with or without
     * features) */
    if (feat.len < 12 || fv_rd_u32(feat, 0, &version) != FV_OK || fv_rd_u16(feat, 4, &n) != FV_OK)
        return sfnt_fail(err, FV_E_GR_BAD_FEAT, SFNT_TAG_Feat, 0, "header");
    /* COMPAT(graphite2): a Feat of no features is no features, whatever its
     * version says (measured on small.ttf: versions 0, 1, 2, 0x8000, 0xFFFF
     * of 0 features load, F-31) */
    if (n == 0)
        return FV_OK;
    /* COMPAT(graphite2): a version below 1.0 fails the face (measured on
     * charis and small.ttf: 0, 1, 0x8000, 0xFFFF refused; 0x00010000 to
     * 0x0001FFFF read as 1.0); from 2.0 up (0xFFFFFFFF included) the 2.0
     * layout is read. */
    if (version < 0x00010000u)
        return sfnt_fail(err, FV_E_GR_BAD_FEAT, SFNT_TAG_Feat, 0, "Feat version below 1.0");
    /* COMPAT(graphite2): the feature records must fit as if each took 16
     * bytes, the 2.0 record's size, whatever the version (measured on
     * small.ttf with a Feat 1.0 of 1, 2, 3 features with and without
     * settings: 12 + 12n to 12 + 16n - 1 bytes fail the face, 12 + 16n
     * load; F-37) */
    if (!fv_span_has(feat, 12, 16u * (uint64_t)n))
        return sfnt_fail(err, FV_E_GR_BAD_FEAT, SFNT_TAG_Feat, 12,
                         "feature records (16 bytes each, as graphite2 sizes them)");
    face->features = fv_mem_array(face->mem, n ? n : 1, sizeof(grv_feature));
    if (!face->features)
        return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_Feat, 0, "features");
    face->num_features = n;
    int v2 = version >= 0x00020000;
    uint64_t pos = 12, rec = v2 ? 16 : 12;
    for (uint32_t i = 0; i < n; i++, pos += rec) {
        grv_feature *f = &face->features[i];
        uint32_t off;
        uint16_t id16 = 0;
        fv_status st;
        if (v2) {
            st = fv_rd_u32(feat, pos, &f->id);
            if (st == FV_OK) st = fv_rd_u16(feat, pos + 4, &f->num_settings);
            if (st == FV_OK) st = fv_rd_u32(feat, pos + 8, &off);
            if (st == FV_OK) st = fv_rd_u16(feat, pos + 12, &f->flags);
            if (st == FV_OK) st = fv_rd_u16(feat, pos + 14, &f->label);
        } else {
            st = fv_rd_u16(feat, pos, &id16);
            f->id = id16;
            if (st == FV_OK) st = fv_rd_u16(feat, pos + 2, &f->num_settings);
            if (st == FV_OK) st = fv_rd_u32(feat, pos + 4, &off);
            if (st == FV_OK) st = fv_rd_u16(feat, pos + 8, &f->flags);
            if (st == FV_OK) st = fv_rd_u16(feat, pos + 10, &f->label);
        }
        if (st != FV_OK)
            return sfnt_fail(err, FV_E_GR_BAD_FEAT, SFNT_TAG_Feat, pos, "feature record");
        if (!fv_span_has(feat, off, 4u * (uint64_t)f->num_settings))
            return sfnt_fail(err, FV_E_GR_BAD_FEAT, SFNT_TAG_Feat, pos, "settings out of table");
        size_t ns = f->num_settings ? f->num_settings : 1;
        f->setting_values = fv_mem_array(face->mem, ns, sizeof(int16_t));
        f->setting_labels = fv_mem_array(face->mem, ns, sizeof(uint16_t));
        if (!f->setting_values || !f->setting_labels)
            return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_Feat, pos, "settings");
        uint32_t maxv = 0;
        for (uint32_t k = 0; k < f->num_settings; k++) {
            (void)fv_rd_s16(feat, off + 4u * k, &f->setting_values[k]);
            (void)fv_rd_u16(feat, off + 4u * k + 2, &f->setting_labels[k]);
            uint32_t v = (uint16_t)f->setting_values[k];
            if (v > maxv)
                maxv = v;
        }
        /* COMPAT(graphite2): the default is the first setting's value read
         * as unsigned (measured on small.ttf and Awami Nastaliq: a first
         * setting of -2 gives 65534, -32768 gives 32768; F-43) and a
         * feature without settings accepts any 16-bit value. */
        f->max_value = f->num_settings ? maxv : 0xffffu;
        f->default_value = f->num_settings ? (uint16_t)f->setting_values[0] : 0;
    }
    return FV_OK;
}

/* COMPAT(graphite2): a feature value is 16 bits and unsigned wherever it
 * comes from, and one above the feature's largest setting is refused,
 * leaving the value before.  Measured on small.ttf with one feature of
 * settings 0, 1, 2 and a Sill language setting it: -2, -1, 3, 5, 32767 and
 * -32768 leave the default, 1 and 2 are taken; with settings -2, 0, 1
 * (largest 65534) -1 is refused and -32768 read as 32768; with no
 * settings every value is taken, -2 as 65534 (F-43).  A request's value
 * is cut to 16 bits as gr_fref_set_feature_value's gr_uint16 takes it. */
void grv_feature_set(const grv_feature *f, int32_t *slot, int32_t value)
{
    uint16_t v = (uint16_t)value;
    if (v <= f->max_value)
        *slot = v;
}

/* The feature id graphite2 gives the language a segment is made for. */
#define GRV_LANG_FEATURE_ID 1u

/* COMPAT(graphite2): the language asked for loses its trailing spaces
 * (made zero bytes) before Sill is searched, so a Sill entry ending in a
 * space is never found.  Measured on small.ttf: asked 'ENG ', Sill's
 * 'ENG\0' is found and 'ENG ' is not; 'a   ' finds 'a\0\0\0', 'ab\0 '
 * finds 'ab\0\0', 'ab \0' and 'ab c' are kept as they are, '    ' is no
 * language (F-43). */
static uint32_t graphite2_lang(uint32_t tag)
{
    for (uint32_t shift = 0; shift < 32 && ((tag >> shift) & 0xffu) == 0x20u; shift += 8)
        tag &= ~(0xffu << shift);
    return tag;
}

void grv_features_for_lang(const fv_gr_face *face, uint32_t lang, int32_t *values)
{
    for (uint32_t i = 0; i < face->num_features; i++)
        values[i] = face->features[i].default_value;
    lang = graphite2_lang(lang);
    if (!lang)
        return;
    for (uint32_t l = 0; l < face->num_langs; l++) {
        const grv_lang *gl = &face->langs[l];
        if (gl->tag != lang)
            continue;
        for (uint32_t k = 0; k < gl->num_settings; k++)
            for (uint32_t i = 0; i < face->num_features; i++)
                if (face->features[i].id == gl->feat_ids[k])
                    grv_feature_set(&face->features[i], &values[i], gl->values[k]);
        /* COMPAT(graphite2): a language Sill lists also sets the language
         * feature (id 1), after its settings: without settings to the
         * tag's low 16 bits, with settings only to a tag no larger than
         * the largest.  Measured: small.ttf's feature 1 read by PushFeat
         * with 'kht' listed gives 0x7400 (and gr_fref_feature_value:
         * 'abcd' 0x6364, 'ENG' 0x4700); not listed, or the feature with
         * settings 0, 1 or 0, 32767, it keeps its value (F-43). */
        for (uint32_t i = 0; i < face->num_features; i++) {
            const grv_feature *f = &face->features[i];
            if (f->id != GRV_LANG_FEATURE_ID)
                continue;
            if (f->num_settings == 0)
                values[i] = (uint16_t)lang;
            else if (lang <= f->max_value)
                values[i] = (int32_t)lang;
        }
    }
}

void grv_feat_free(fv_gr_face *face)
{
    for (uint32_t i = 0; i < face->num_features; i++) {
        fv_mem_free(face->mem, face->features[i].setting_values);
        fv_mem_free(face->mem, face->features[i].setting_labels);
    }
    fv_mem_free(face->mem, face->features);
    for (uint32_t i = 0; i < face->num_langs; i++) {
        fv_mem_free(face->mem, face->langs[i].feat_ids);
        fv_mem_free(face->mem, face->langs[i].values);
    }
    fv_mem_free(face->mem, face->langs);
    face->features = NULL;
    face->langs = NULL;
    face->num_features = 0;
    face->num_langs = 0;
}
