/* Sill: per-language feature defaults (GTF "Sill"). */
#include "graphite/face.h"

fv_status grv_sill_load(fv_gr_face *face, fv_span sill, fv_error *err)
{
    if (!sill.len)
        return FV_OK;
    uint32_t version;
    uint16_t n;
    /* COMPAT(graphite2): the 12-byte header must be there even for no
     * language (measured: Awami Nastaliq's and Akatab's 20-byte Sill of 0
     * languages cut to 10 bytes fails the face). */
    if (sill.len < 12 || fv_rd_u32(sill, 0, &version) != FV_OK || fv_rd_u16(sill, 4, &n) != FV_OK)
        return sfnt_fail(err, FV_E_GR_BAD_FEAT, SFNT_TAG_Sill, 0, "header");
    /* graphite2 accepts only version 1.0 exactly (the face fails otherwise). */
    if (version != 0x00010000u)
        return sfnt_fail(err, FV_E_BAD_VERSION, SFNT_TAG_Sill, 0, "Sill version is not 1.0");
    /* COMPAT(graphite2): without features (no Feat, or one of 0 features)
     * the languages are not read at all: measured on small.ttf without
     * Feat, a Sill claiming 65,533 languages in 20 bytes or a setting past
     * its end loads (F-31); the header and version are still checked. */
    if (face->num_features == 0)
        return FV_OK;
    face->langs = fv_mem_array(face->mem, n ? n : 1, sizeof(grv_lang));
    if (!face->langs)
        return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_Sill, 0, "languages");
    face->num_langs = n;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t pos = 12 + 8u * (uint64_t)i;
        grv_lang *l = &face->langs[i];
        uint16_t off;
        if (fv_rd_u32(sill, pos, &l->tag) != FV_OK ||
            fv_rd_u16(sill, pos + 4, &l->num_settings) != FV_OK ||
            fv_rd_u16(sill, pos + 6, &off) != FV_OK)
            return sfnt_fail(err, FV_E_GR_BAD_FEAT, SFNT_TAG_Sill, pos, "language record");
        /* COMPAT(graphite2): a language of no settings may point anywhere
         * (measured on small.ttf: offsets past the end of a Sill of 1 or 2
         * languages, up to 0xFFFF, load; F-42) */
        if (l->num_settings && !fv_span_has(sill, off, 8u * (uint64_t)l->num_settings))
            return sfnt_fail(err, FV_E_GR_BAD_FEAT, SFNT_TAG_Sill, pos, "settings out of table");
        size_t ns = l->num_settings ? l->num_settings : 1;
        l->feat_ids = fv_mem_array(face->mem, ns, sizeof(uint32_t));
        l->values = fv_mem_array(face->mem, ns, sizeof(int16_t));
        if (!l->feat_ids || !l->values)
            return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_Sill, pos, "settings");
        for (uint32_t k = 0; k < l->num_settings; k++) {
            (void)fv_rd_u32(sill, off + 8u * k, &l->feat_ids[k]);
            (void)fv_rd_s16(sill, off + 8u * k + 4, &l->values[k]);
        }
    }
    return FV_OK;
}
