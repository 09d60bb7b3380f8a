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
