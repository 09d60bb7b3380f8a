/* sfnt table directory, TrueType Collections and the fixed-layout tables
 * (head, maxp, hhea/vhea, hmtx/vmtx, loca, cvt, fpgm, prep, name). */
#include <stdio.h>
#include <string.h>

#include "sfnt/sfnt.h"

fv_status sfnt_fail(fv_error *err, fv_status kind, uint32_t table, uint64_t offset,
                    const char *detail)
{
    if (err) {
        fv_error_clear(err);
        err->kind = kind;
        err->table = table;
        err->offset = offset > UINT32_MAX ? UINT32_MAX - 1 : (uint32_t)offset;
        if (detail)
            snprintf(err->detail, sizeof err->detail, "%s", detail);
    }
    return kind;
}

void sfnt_tag_string(uint32_t tag, char buf[5])
{
    for (int i = 0; i < 4; i++) {
        unsigned c = (tag >> (24 - 8 * i)) & 0xFF;
        buf[i] = (char)(c >= 0x20 && c < 0x7F ? c : '?');
    }
    buf[4] = '\0';
}

#define TAG_ttcf FV_TAG('t', 't', 'c', 'f')
#define TAG_true FV_TAG('t', 'r', 'u', 'e')
#define TAG_OTTO FV_TAG('O', 'T', 'T', 'O')
#define TAG_typ1 FV_TAG('t', 'y', 'p', '1')
#define SFNT_VERSION_1 0x00010000u

/* Offset of the table directory of face `face_index`. */
static fv_status face_offset(fv_span file, uint32_t face_index, uint32_t *offset,
                             uint32_t *num_faces, fv_error *err)
{
    uint32_t tag;
    if (fv_rd_u32(file, 0, &tag) != FV_OK)
        return sfnt_fail(err, FV_E_NOT_A_FONT, 0, FV_NO_VALUE, "file shorter than 4 bytes");
    if (tag == TAG_ttcf) {
        uint32_t n;
        if (fv_rd_u32(file, 8, &n) != FV_OK)
            return sfnt_fail(err, FV_E_TRUNCATED, TAG_ttcf, 8, "collection header");
        if (n == 0)
            return sfnt_fail(err, FV_E_NOT_A_FONT, TAG_ttcf, 8, "collection with no fonts");
        *num_faces = n;
        if (face_index >= n)
            return sfnt_fail(err, FV_E_BAD_FACE_INDEX, TAG_ttcf, 8, NULL);
        uint64_t at = 12 + (uint64_t)face_index * 4;
        if (fv_rd_u32(file, at, offset) != FV_OK)
            return sfnt_fail(err, FV_E_TRUNCATED, TAG_ttcf, at, "collection offsets");
        return FV_OK;
    }
    if (tag != SFNT_VERSION_1 && tag != TAG_true && tag != TAG_OTTO && tag != TAG_typ1)
        return sfnt_fail(err, FV_E_NOT_A_FONT, 0, FV_NO_VALUE, "unknown sfnt version");
    *num_faces = 1;
    if (face_index != 0)
        return sfnt_fail(err, FV_E_BAD_FACE_INDEX, 0, FV_NO_VALUE, NULL);
    *offset = 0;
    return FV_OK;
}

fv_status sfnt_count_faces(fv_span file, uint32_t *count, fv_error *err)
{
    uint32_t off;
    return face_offset(file, 0, &off, count, err);
}

int sfnt_find_table(const sfnt_font *f, uint32_t tag, fv_span *out)
{
    out->data = NULL;
    out->len = 0;
    for (uint32_t i = 0; i < f->num_tables; i++)
        if (f->tables[i].tag == tag) {
            /* Ranges were validated against the file in read_directory. */
            (void)fv_span_sub(f->file, f->tables[i].offset, f->tables[i].length, out);
            return 1;
        }
    return 0;
}

static fv_status read_directory(sfnt_font *f, uint32_t dir, fv_error *err)
{
    fv_span file = f->file;
    uint16_t n;
    if (fv_rd_u32(file, dir, &f->sfnt_version) != FV_OK || fv_rd_u16(file, (uint64_t)dir + 4, &n) != FV_OK)
        return sfnt_fail(err, FV_E_TRUNCATED, 0, dir, "table directory header");
    if (f->sfnt_version != SFNT_VERSION_1 && f->sfnt_version != TAG_true &&
        f->sfnt_version != TAG_OTTO && f->sfnt_version != TAG_typ1)
        return sfnt_fail(err, FV_E_NOT_A_FONT, 0, dir, "unknown sfnt version");
    if (n == 0)
        return sfnt_fail(err, FV_E_NOT_A_FONT, 0, dir, "no tables");
    f->tables = fv_mem_array(f->mem, n, sizeof *f->tables);
    if (!f->tables)
        return sfnt_fail(err, FV_E_NOMEM, 0, FV_NO_VALUE, "table directory");
    f->num_tables = n;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t rec = (uint64_t)dir + 12 + (uint64_t)i * 16;
        sfnt_table *t = &f->tables[i];
        if (fv_rd_u32(file, rec, &t->tag) != FV_OK || fv_rd_u32(file, rec + 4, &t->checksum) != FV_OK ||
            fv_rd_u32(file, rec + 8, &t->offset) != FV_OK || fv_rd_u32(file, rec + 12, &t->length) != FV_OK)
            return sfnt_fail(err, FV_E_TRUNCATED, 0, rec, "table record");
        if (!fv_span_has(file, t->offset, t->length))
            return sfnt_fail(err, FV_E_TRUNCATED, t->tag, t->offset, "table extends past the end of the file");
    }
    return FV_OK;
}

static fv_status need_table(const sfnt_font *f, uint32_t tag, uint64_t min_len, fv_span *out,
                            fv_error *err)
{
    if (!sfnt_find_table(f, tag, out))
        return sfnt_fail(err, FV_E_MISSING_TABLE, tag, FV_NO_VALUE, NULL);
    if (out->len < min_len)
        return sfnt_fail(err, FV_E_TRUNCATED, tag, out->len, NULL);
    return FV_OK;
}

static uint16_t u16_at(fv_span s, uint64_t off)
{
    uint16_t v = 0;
    (void)fv_rd_u16(s, off, &v); /* callers checked the span's length first */
    return v;
}

static int16_t s16_at(fv_span s, uint64_t off)
{
    return (int16_t)u16_at(s, off);
}

static fv_status read_head(sfnt_font *f, fv_error *err)
{
    fv_span t;
    fv_status st = need_table(f, SFNT_TAG_head, 54, &t, err);
    if (st != FV_OK)
        return st;
    sfnt_head *h = &f->head;
    h->flags = u16_at(t, 16);
    h->units_per_em = u16_at(t, 18);
    h->x_min = s16_at(t, 36);
    h->y_min = s16_at(t, 38);
    h->x_max = s16_at(t, 40);
    h->y_max = s16_at(t, 42);
    h->mac_style = u16_at(t, 44);
    h->lowest_rec_ppem = u16_at(t, 46);
    h->index_to_loc_format = s16_at(t, 50);
    h->glyph_data_format = s16_at(t, 52);
    /* The OpenType spec allows 16..16384; FreeType only refuses 0 for
     * TrueType outlines, and so do we. */
    if (h->units_per_em == 0)
        return sfnt_fail(err, FV_E_BAD_TABLE, SFNT_TAG_head, 18, "unitsPerEm is 0");
    if (h->index_to_loc_format != 0 && h->index_to_loc_format != 1)
        return sfnt_fail(err, FV_E_BAD_TABLE, SFNT_TAG_head, 50, "indexToLocFormat not 0 or 1");
    return FV_OK;
}

static fv_status read_maxp(sfnt_font *f, fv_error *err)
{
    fv_span t;
    fv_status st = need_table(f, SFNT_TAG_maxp, 6, &t, err);
    if (st != FV_OK)
        return st;
    sfnt_maxp *m = &f->maxp;
    (void)fv_rd_u32(t, 0, &m->version);
    m->num_glyphs = u16_at(t, 4);
    if (m->version == 0x00010000u) {
        if (t.len < 32)
            return sfnt_fail(err, FV_E_TRUNCATED, SFNT_TAG_maxp, t.len, "version 1.0 needs 32 bytes");
        uint16_t *fields[] = {&m->max_points, &m->max_contours, &m->max_composite_points,
                              &m->max_composite_contours, &m->max_zones, &m->max_twilight_points,
                              &m->max_storage, &m->max_function_defs, &m->max_instruction_defs,
                              &m->max_stack_elements, &m->max_size_of_instructions,
                              &m->max_component_elements, &m->max_component_depth};
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
            *fields[i] = u16_at(t, 6 + 2 * i);
    } else if (m->version != 0x00005000u) {
        return sfnt_fail(err, FV_E_BAD_VERSION, SFNT_TAG_maxp, 0, NULL);
    }
    return FV_OK;
}

/* hhea and vhea share their layout. */
static fv_status read_xhea(sfnt_font *f, uint32_t tag, sfnt_hhea *h, fv_error *err)
{
    fv_span t;
    fv_status st = need_table(f, tag, 36, &t, err);
    if (st != FV_OK)
        return st;
    h->ascender = s16_at(t, 4);
    h->descender = s16_at(t, 6);
    h->line_gap = s16_at(t, 8);
    h->advance_max = u16_at(t, 10);
    h->caret_slope_rise = s16_at(t, 18);
    h->caret_slope_run = s16_at(t, 20);
    h->caret_offset = s16_at(t, 22);
    h->num_long_metrics = u16_at(t, 34);
    return FV_OK;
}

/* hmtx/vmtx: numberOfLongMetrics (advance, side bearing) pairs followed by
 * side bearings for the remaining glyphs.  A table shorter than the long
 * metrics is an error; FreeType tolerates a short tail of side bearings, and
 * so do we (missing ones read as 0). */
static fv_status check_mtx(const sfnt_font *f, uint32_t tag, const sfnt_hhea *h, fv_span *out,
                           fv_error *err)
{
    if (!sfnt_find_table(f, tag, out))
        return sfnt_fail(err, FV_E_MISSING_TABLE, tag, FV_NO_VALUE, NULL);
    if (h->num_long_metrics == 0)
        return sfnt_fail(err, FV_E_BAD_TABLE, tag == SFNT_TAG_hmtx ? SFNT_TAG_hhea : SFNT_TAG_vhea,
                         34, "numberOfLongMetrics is 0");
    if ((uint64_t)h->num_long_metrics * 4 > out->len)
        return sfnt_fail(err, FV_E_TRUNCATED, tag, out->len, "shorter than its long metrics");
    return FV_OK;
}

static fv_status read_metrics(const sfnt_font *f, fv_span mtx, uint16_t num_long, uint32_t gid,
                              uint16_t *advance, int16_t *bearing)
{
    *advance = 0;
    *bearing = 0;
    if (mtx.len == 0 || num_long == 0)
        return FV_OK;
    if (gid >= f->maxp.num_glyphs)
        return FV_E_BAD_GLYPH_ID;
    if (gid < num_long) {
        *advance = u16_at(mtx, (uint64_t)gid * 4);
        *bearing = s16_at(mtx, (uint64_t)gid * 4 + 2);
    } else {
        *advance = u16_at(mtx, ((uint64_t)num_long - 1) * 4);
        *bearing = s16_at(mtx, (uint64_t)num_long * 4 + ((uint64_t)gid - num_long) * 2);
    }
    return FV_OK;
}

fv_status sfnt_hmetrics(const sfnt_font *f, uint32_t gid, uint16_t *advance, int16_t *lsb,
                        fv_error *err)
{
    fv_status st = read_metrics(f, f->hmtx, f->hhea.num_long_metrics, gid, advance, lsb);
    if (st != FV_OK)
        return sfnt_fail(err, st, SFNT_TAG_hmtx, FV_NO_VALUE, NULL);
    return FV_OK;
}

fv_status sfnt_vmetrics(const sfnt_font *f, uint32_t gid, uint16_t *advance, int16_t *tsb,
                        fv_error *err)
{
    if (!f->has_vhea) {
        *advance = 0;
        *tsb = 0;
        return FV_OK;
    }
    fv_status st = read_metrics(f, f->vmtx, f->vhea.num_long_metrics, gid, advance, tsb);
    if (st != FV_OK)
        return sfnt_fail(err, st, SFNT_TAG_vmtx, FV_NO_VALUE, NULL);
    return FV_OK;
}

static fv_status read_loca(sfnt_font *f, fv_error *err)
{
    fv_span t;
    if (!sfnt_find_table(f, SFNT_TAG_glyf, &f->glyf))
        return FV_OK; /* CFF or bitmap-only: no TrueType outlines */
    fv_status st = need_table(f, SFNT_TAG_loca, 0, &t, err);
    if (st != FV_OK)
        return st;
    uint32_t n = (uint32_t)f->maxp.num_glyphs + 1;
    int long_format = f->head.index_to_loc_format == 1;
    uint64_t need = (uint64_t)n * (long_format ? 4 : 2);
    if (t.len < need)
        return sfnt_fail(err, FV_E_TRUNCATED, SFNT_TAG_loca, t.len, "fewer entries than numGlyphs + 1");
    f->loca = fv_mem_array(f->mem, n, sizeof *f->loca);
    if (!f->loca)
        return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_loca, FV_NO_VALUE, NULL);
    for (uint32_t i = 0; i < n; i++) {
        if (long_format)
            (void)fv_rd_u32(t, (uint64_t)i * 4, &f->loca[i]);
        else
            f->loca[i] = (uint32_t)u16_at(t, (uint64_t)i * 2) * 2;
    }
    return FV_OK;
}

static fv_status read_cvt(sfnt_font *f, fv_error *err)
{
    fv_span t;
    if (!sfnt_find_table(f, SFNT_TAG_cvt, &t) || t.len < 2)
        return FV_OK;
    f->cvt_count = (uint32_t)(t.len / 2); /* an odd trailing byte is ignored, as FreeType does */
    f->cvt = fv_mem_array(f->mem, f->cvt_count, sizeof *f->cvt);
    if (!f->cvt)
        return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_cvt, FV_NO_VALUE, NULL);
    for (uint32_t i = 0; i < f->cvt_count; i++)
        f->cvt[i] = s16_at(t, (uint64_t)i * 2);
    return FV_OK;
}

/* Copies a name record into ASCII (non-ASCII code units become '?'). */
static void copy_name(fv_span str, int utf16, char *out, size_t size)
{
    size_t j = 0;
    size_t step = utf16 ? 2 : 1;
    for (uint64_t i = 0; i + step <= str.len && j + 1 < size; i += step) {
        unsigned c = utf16 ? u16_at(str, i) : str.data[i];
        out[j++] = (char)(c >= 0x20 && c < 0x7F ? c : '?');
    }
    out[j] = '\0';
}

/* Family and style for reports: typographic names (16/17) when present,
 * else 1/2; Windows Unicode preferred, Macintosh Roman accepted.  A missing
 * or malformed name table only leaves the names empty: it never makes an
 * otherwise valid font fail (FreeType does not need it either). */
static void read_name(sfnt_font *f)
{
    fv_span t, strings;
    uint16_t count, string_offset;
    if (!sfnt_find_table(f, SFNT_TAG_name, &t) || fv_rd_u16(t, 2, &count) != FV_OK ||
        fv_rd_u16(t, 4, &string_offset) != FV_OK || fv_span_tail(t, string_offset, &strings) != FV_OK)
        return;
    int best_family = 0, best_style = 0; /* 0 none, 1 mac, 2 win; +2 if typographic */
    for (uint32_t i = 0; i < count; i++) {
        uint64_t rec = 6 + (uint64_t)i * 12;
        uint16_t platform, encoding, name_id, length, offset;
        if (fv_rd_u16(t, rec, &platform) != FV_OK || fv_rd_u16(t, rec + 2, &encoding) != FV_OK ||
            fv_rd_u16(t, rec + 6, &name_id) != FV_OK || fv_rd_u16(t, rec + 8, &length) != FV_OK ||
            fv_rd_u16(t, rec + 10, &offset) != FV_OK)
            return;
        int win = platform == 3 && (encoding == 1 || encoding == 10);
        int mac = platform == 1 && encoding == 0;
        if (!win && !mac)
            continue;
        int is_family = name_id == 1 || name_id == 16, is_style = name_id == 2 || name_id == 17;
        if (!is_family && !is_style)
            continue;
        int rank = (win ? 2 : 1) + (name_id >= 16 ? 2 : 0);
        fv_span str;
        if (fv_span_sub(strings, offset, length, &str) != FV_OK)
            continue;
        if (is_family && rank > best_family) {
            best_family = rank;
            copy_name(str, win, f->family, sizeof f->family);
        } else if (is_style && rank > best_style) {
            best_style = rank;
            copy_name(str, win, f->style, sizeof f->style);
        }
    }
}

fv_status sfnt_cmap_select(sfnt_font *f, fv_error *err); /* cmap.c */

fv_status sfnt_open(fv_span file, uint32_t face_index, fv_mem *mem, sfnt_font **out,
                    fv_error *err)
{
    uint32_t dir = 0, num_faces = 0;
    fv_status st = face_offset(file, face_index, &dir, &num_faces, err);
    if (st != FV_OK)
        return st;
    sfnt_font *f = fv_mem_calloc(mem, sizeof *f);
    if (!f)
        return sfnt_fail(err, FV_E_NOMEM, 0, FV_NO_VALUE, NULL);
    f->mem = mem;
    f->file = file;
    f->data = file;
    f->face_index = face_index;
    f->num_faces = num_faces;
    if ((st = read_directory(f, dir, err)) != FV_OK || (st = read_head(f, err)) != FV_OK ||
        (st = read_maxp(f, err)) != FV_OK)
        goto fail;
    if (sfnt_find_table(f, SFNT_TAG_hhea, &f->hmtx)) {
        if ((st = read_xhea(f, SFNT_TAG_hhea, &f->hhea, err)) != FV_OK ||
            (st = check_mtx(f, SFNT_TAG_hmtx, &f->hhea, &f->hmtx, err)) != FV_OK)
            goto fail;
    } else {
        f->hmtx.data = NULL;
        f->hmtx.len = 0;
    }
    fv_span probe;
    if (sfnt_find_table(f, SFNT_TAG_vhea, &probe) && sfnt_find_table(f, SFNT_TAG_vmtx, &probe)) {
        if ((st = read_xhea(f, SFNT_TAG_vhea, &f->vhea, err)) != FV_OK ||
            (st = check_mtx(f, SFNT_TAG_vmtx, &f->vhea, &f->vmtx, err)) != FV_OK)
            goto fail;
        f->has_vhea = 1;
    }
    if ((st = read_loca(f, err)) != FV_OK || (st = read_cvt(f, err)) != FV_OK ||
        (st = sfnt_cmap_select(f, err)) != FV_OK)
        goto fail;
    sfnt_find_table(f, SFNT_TAG_fpgm, &f->fpgm);
    sfnt_find_table(f, SFNT_TAG_prep, &f->prep);
    read_name(f);
    *out = f;
    return FV_OK;
fail:
    sfnt_close(f);
    return st;
}

void sfnt_close(sfnt_font *f)
{
    if (!f)
        return;
    fv_mem *mem = f->mem;
    fv_mem_free(mem, f->tables);
    fv_mem_free(mem, f->loca);
    fv_mem_free(mem, f->cvt);
    fv_mem_free(mem, f);
}
