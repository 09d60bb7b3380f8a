/* `fontvm info --json`: everything `info` prints, and the name strings,
 * the cmap subtables and the Graphite features and languages with their
 * values (what gr2fonttest lists for a font given no text); and that
 * Graphite listing in gr2fonttest's own words for the text output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "graphite/grv.h"
#include "info.h"
#include "sfnt/font.h"

static json_t *tag_json(uint32_t tag)
{
    char t[5];
    sfnt_tag_string(tag, t);
    return json_string(t);
}

/* A name record's string as UTF-8: UTF-16BE for the Unicode and Windows
 * platforms, bytes as Latin-1 otherwise. */
static json_t *name_string(fv_span s, int utf16)
{
    size_t cap = s.len * 3 + 1, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        return json_null();
    for (size_t i = 0; i < s.len;) {
        uint32_t c;
        if (utf16) {
            if (i + 1 >= s.len)
                break;
            c = (uint32_t)s.data[i] << 8 | s.data[i + 1];
            i += 2;
            if (c >= 0xD800 && c <= 0xDBFF && i + 1 < s.len) {
                uint32_t lo = (uint32_t)s.data[i] << 8 | s.data[i + 1];
                if (lo >= 0xDC00 && lo <= 0xDFFF) {
                    c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
                    i += 2;
                }
            }
            if (c >= 0xD800 && c <= 0xDFFF)
                c = 0xFFFD;
        } else {
            c = s.data[i++];
        }
        if (c < 0x80) {
            buf[n++] = (char)c;
        } else if (c < 0x800) {
            buf[n++] = (char)(0xC0 | (c >> 6));
            buf[n++] = (char)(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            buf[n++] = (char)(0xE0 | (c >> 12));
            buf[n++] = (char)(0x80 | ((c >> 6) & 0x3F));
            buf[n++] = (char)(0x80 | (c & 0x3F));
        } else {
            /* 4 bytes fit: a surrogate pair took 4 input bytes. */
            buf[n++] = (char)(0xF0 | (c >> 18));
            buf[n++] = (char)(0x80 | ((c >> 12) & 0x3F));
            buf[n++] = (char)(0x80 | ((c >> 6) & 0x3F));
            buf[n++] = (char)(0x80 | (c & 0x3F));
        }
    }
    json_t *j = json_stringn(buf, n);
    free(buf);
    return j ? j : json_null();
}

/* Every name record; a cut-short table gives the records that fit. */
static json_t *names_json(const sfnt_font *s)
{
    json_t *arr = json_array();
    fv_span t;
    uint16_t count, storage;
    if (!sfnt_find_table(s, SFNT_TAG_name, &t) || fv_rd_u16(t, 2, &count) != FV_OK ||
        fv_rd_u16(t, 4, &storage) != FV_OK)
        return arr;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t rec = 6 + 12 * (uint64_t)i;
        uint16_t platform, encoding, language, id, length, offset;
        fv_span str;
        if (fv_rd_u16(t, rec, &platform) != FV_OK || fv_rd_u16(t, rec + 2, &encoding) != FV_OK ||
            fv_rd_u16(t, rec + 4, &language) != FV_OK || fv_rd_u16(t, rec + 6, &id) != FV_OK ||
            fv_rd_u16(t, rec + 8, &length) != FV_OK || fv_rd_u16(t, rec + 10, &offset) != FV_OK)
            break;
        if (fv_span_sub(t, (uint64_t)storage + offset, length, &str) != FV_OK)
            continue;
        json_array_append_new(arr, json_pack("{s:i,s:i,s:i,s:i,s:o}", "id", id, "platform",
                                             platform, "encoding", encoding, "language", language,
                                             "string", name_string(str, platform == 0 || platform == 3)));
    }
    return arr;
}

/* The English (or first) string of name id `id` (Feat labels) as JSON. */
static json_t *label_json(const sfnt_font *s, uint16_t id)
{
    fv_span t;
    uint16_t count, storage;
    if (!sfnt_find_table(s, SFNT_TAG_name, &t) || fv_rd_u16(t, 2, &count) != FV_OK ||
        fv_rd_u16(t, 4, &storage) != FV_OK)
        return json_null();
    json_t *best = NULL;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t rec = 6 + 12 * (uint64_t)i;
        uint16_t platform, language, nid, length, offset;
        fv_span str;
        if (fv_rd_u16(t, rec, &platform) != FV_OK || fv_rd_u16(t, rec + 4, &language) != FV_OK ||
            fv_rd_u16(t, rec + 6, &nid) != FV_OK || fv_rd_u16(t, rec + 8, &length) != FV_OK ||
            fv_rd_u16(t, rec + 10, &offset) != FV_OK)
            break;
        if (nid != id || fv_span_sub(t, (uint64_t)storage + offset, length, &str) != FV_OK)
            continue;
        int english = (platform == 3 && language == 0x0409) || (platform == 1 && language == 0);
        if (!best || english) {
            if (best)
                json_decref(best);
            best = name_string(str, platform == 0 || platform == 3);
            if (english)
                break;
        }
    }
    return best ? best : json_null();
}

static void info_label(const sfnt_font *s, uint16_t id, char *buf, size_t size)
{
    json_t *j = label_json(s, id);
    snprintf(buf, size, "%s", json_is_string(j) ? json_string_value(j) : "");
    json_decref(j);
}

/* Every cmap subtable: platform, encoding, format. */
static json_t *cmaps_json(const sfnt_font *s)
{
    json_t *arr = json_array();
    fv_span t;
    uint16_t count;
    if (!sfnt_find_table(s, SFNT_TAG_cmap, &t) || fv_rd_u16(t, 2, &count) != FV_OK)
        return arr;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t rec = 4 + 8 * (uint64_t)i;
        uint16_t platform, encoding, format = 0;
        uint32_t offset;
        if (fv_rd_u16(t, rec, &platform) != FV_OK || fv_rd_u16(t, rec + 2, &encoding) != FV_OK ||
            fv_rd_u32(t, rec + 4, &offset) != FV_OK)
            break;
        json_t *fmt = fv_rd_u16(t, offset, &format) == FV_OK ? json_integer(format) : json_null();
        json_array_append_new(arr, json_pack("{s:i,s:i,s:o}", "platform", platform, "encoding",
                                             encoding, "format", fmt));
    }
    return arr;
}

static json_t *feature_id_json(uint32_t id)
{
    if (id >> 24) {
        char t[5] = {(char)(id >> 24), (char)(id >> 16), (char)(id >> 8), (char)id, 0};
        size_t n = 4;
        while (n && t[n - 1] == 0)
            n--;
        return json_stringn(t, n);
    }
    return json_integer(id);
}

/* Features with their values and labels, languages with the values they
 * set: the lists gr2fonttest prints for a font (it leaves out the hidden
 * features). */
static json_t *graphite_json(fv_font *font, const sfnt_font *s, char *why, size_t why_size)
{
    fv_gr_face *face = NULL;
    fv_error err;
    if (fv_gr_face_new(font, &face, &err) != FV_OK) {
        fv_error_format(&err, why, why_size);
        return NULL;
    }
    json_t *g = json_object(), *feats = json_array(), *langs = json_array();
    json_object_set_new(g, "silf_version", json_sprintf("%u.%u", face->silf.version >> 16,
                                                        face->silf.version & 0xFFFF));
    json_object_set_new(g, "passes", json_integer(face->silf.num_passes));
    for (uint32_t i = 0; i < face->num_features; i++) {
        const grv_feature *f = &face->features[i];
        json_t *settings = json_array();
        for (uint32_t k = 0; k < f->num_settings; k++)
            json_array_append_new(settings, json_pack("{s:i,s:o}", "value", f->setting_values[k],
                                                      "label", label_json(s, f->setting_labels[k])));
        json_array_append_new(feats, json_pack("{s:o,s:o,s:i,s:b,s:i,s:o}", "id",
                                               feature_id_json(f->id), "label",
                                               label_json(s, f->label), "flags", f->flags,
                                               "hidden", (f->flags & INFO_FEAT_HIDDEN) != 0,
                                               "default", f->default_value, "settings", settings));
    }
    for (uint32_t i = 0; i < face->num_langs; i++) {
        const grv_lang *l = &face->langs[i];
        json_t *set = json_array();
        for (uint32_t k = 0; k < l->num_settings; k++)
            json_array_append_new(set, json_pack("{s:o,s:i}", "feature",
                                                 feature_id_json(l->feat_ids[k]), "value",
                                                 l->values[k]));
        json_array_append_new(langs, json_pack("{s:o,s:o}", "tag", feature_id_json(l->tag),
                                               "settings", set));
    }
    json_object_set_new(g, "features", feats);
    json_object_set_new(g, "languages", langs);
    fv_gr_face_free(face);
    return g;
}

int info_print_graphite(fv_font *font)
{
    const sfnt_font *s = fv_font_sfnt(font);
    fv_gr_face *face = NULL;
    fv_error err;
    if (fv_gr_face_new(font, &face, &err) != FV_OK) {
        char why[256];
        fv_error_format(&err, why, sizeof why);
        printf("graphite features: none (%s)\n", why);
        return CLI_OK;
    }
    uint32_t shown = 0;
    for (uint32_t i = 0; i < face->num_features; i++)
        shown += !(face->features[i].flags & INFO_FEAT_HIDDEN);
    printf("%u features\n", (unsigned)shown);
    char label[256];
    for (uint32_t i = 0; i < face->num_features; i++) {
        const grv_feature *f = &face->features[i];
        if (f->flags & INFO_FEAT_HIDDEN)
            continue;
        /* The id, its tag when it is one, and the label when the name
         * table has it (small.ttf's feature 1 has none: "1" alone). */
        info_label(s, f->label, label, sizeof label);
        printf("%lu", (unsigned long)f->id);
        if (f->id >> 24) {
            char t[5] = {(char)(f->id >> 24), (char)(f->id >> 16), (char)(f->id >> 8), (char)f->id, 0};
            printf(" %s", t);
        }
        printf("%s%s\n", label[0] ? " " : "", label);
        for (uint32_t k = 0; k < f->num_settings; k++) {
            info_label(s, f->setting_labels[k], label, sizeof label);
            printf("\t%d\t%s\n", (int)f->setting_values[k], label);
        }
    }
    printf("Feature Languages:");
    for (uint32_t i = 0; i < face->num_langs; i++) {
        uint32_t t = face->langs[i].tag;
        char c[5] = {(char)(t >> 24), (char)(t >> 16), (char)(t >> 8), (char)t, 0};
        printf("\t%s", c);
    }
    printf("\n");
    fv_gr_face_free(face);
    return CLI_OK;
}

int info_print_json(fv_font *font, const char *path, const info_hinting *h)
{
    const sfnt_font *s = fv_font_sfnt(font);
    json_t *o = json_object();
    json_object_set_new(o, "file", json_string(path));
    json_object_set_new(o, "face", json_integer(s->face_index));
    json_object_set_new(o, "faces", json_integer(s->num_faces));
    json_object_set_new(o, "family", json_string(s->family));
    json_object_set_new(o, "style", json_string(s->style));
    json_object_set_new(o, "sfnt_version", json_sprintf("0x%08X", (unsigned)s->sfnt_version));
    json_object_set_new(o, "glyphs", json_integer(s->maxp.num_glyphs));
    json_object_set_new(o, "units_per_em", json_integer(s->head.units_per_em));
    json_t *tables = json_array();
    for (uint32_t i = 0; i < s->num_tables; i++)
        json_array_append_new(tables, json_pack("{s:o,s:I,s:I}", "tag", tag_json(s->tables[i].tag),
                                                "offset", (json_int_t)s->tables[i].offset,
                                                "length", (json_int_t)s->tables[i].length));
    json_object_set_new(o, "tables", tables);
    json_object_set_new(o, "names", names_json(s));
    json_object_set_new(o, "cmaps", cmaps_json(s));
    json_object_set_new(o, "cmap_used", s->cmap_format ? json_integer(s->cmap_format) : json_null());
    json_object_set_new(o, "hinting",
                        json_pack("{s:b,s:I,s:I,s:I,s:I,s:I}", "hinted", h->hinted, "fpgm_bytes",
                                  (json_int_t)s->fpgm.len, "prep_bytes", (json_int_t)s->prep.len,
                                  "cvt_entries", (json_int_t)s->cvt_count, "glyph_programs",
                                  (json_int_t)h->glyph_programs, "glyph_program_bytes",
                                  (json_int_t)h->glyph_program_bytes));
    if (s->maxp.version == 0x00010000u) {
        const sfnt_maxp *m = &s->maxp;
        json_t *mx = json_object();
        const struct { const char *k; unsigned v; } f[] = {
            {"points", m->max_points}, {"contours", m->max_contours},
            {"composite_points", m->max_composite_points},
            {"composite_contours", m->max_composite_contours}, {"zones", m->max_zones},
            {"twilight_points", m->max_twilight_points}, {"storage", m->max_storage},
            {"function_defs", m->max_function_defs}, {"instruction_defs", m->max_instruction_defs},
            {"stack_elements", m->max_stack_elements},
            {"size_of_instructions", m->max_size_of_instructions},
            {"component_elements", m->max_component_elements},
            {"component_depth", m->max_component_depth}};
        for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
            json_object_set_new(mx, f[i].k, json_integer(f[i].v));
        json_object_set_new(o, "maxp", mx);
    } else {
        json_object_set_new(o, "maxp", json_null());
    }
    fv_span silf;
    if (sfnt_find_table(s, SFNT_TAG_Silf, &silf)) {
        char why[256] = "";
        json_t *g = graphite_json(font, s, why, sizeof why);
        json_object_set_new(o, "graphite", g ? g : json_pack("{s:s}", "error", why));
    } else {
        json_object_set_new(o, "graphite", json_null());
    }
    char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!text)
        return CLI_PROBLEM;
    puts(text);
    free(text);
    return fflush(stdout) == 0 ? CLI_OK : CLI_PROBLEM;
}
