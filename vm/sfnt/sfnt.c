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
/* COMPAT(freetype): FreeType 2.12.1 also takes 0x00020000 and Apple's
 * keyboard and list fonts (0xA5 'kbd', 0xA5 'lst') as TrueType fonts
 * (measured: each opens and hints like 0x00010000). */
#define SFNT_VERSION_2 0x00020000u
#define TAG_A5kbd 0xA56B6264u
#define TAG_A5lst 0xA56C7374u

static int known_sfnt_version(uint32_t v)
{
    return v == SFNT_VERSION_1 || v == TAG_true || v == TAG_OTTO || v == TAG_typ1 ||
           v == SFNT_VERSION_2 || v == TAG_A5kbd || v == TAG_A5lst;
}

int sfnt_is_truetype_flavour(const sfnt_font *f)
{
    /* FreeType refuses 'OTTO' and 'typ1' fonts as TrueType faces even when
     * they carry glyf (measured: Table_Missing, Unknown_File_Format). */
    return f->sfnt_version != TAG_OTTO && f->sfnt_version != TAG_typ1;
}

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
    if (!known_sfnt_version(tag))
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
    /* COMPAT(freetype): the first entry with the tag and a non-zero length
     * counts; zero-length entries are missing tables (as in Windows). */
    for (uint32_t i = 0; i < f->num_tables; i++)
        if (f->tables[i].tag == tag && f->tables[i].length != 0) {
            /* Ranges were validated against the file in read_directory. */
            (void)fv_span_sub(f->file, f->tables[i].offset, f->tables[i].length, out);
            return 1;
        }
    return 0;
}

/* The smallest head table FreeType takes (the fields up to glyphDataFormat). */
#define SFNT_HEAD_SIZE 54

/* The table directory.  COMPAT(freetype), measured against FreeType 2.12.1
 * on damaged corpus fonts (conformance/tt/tt_sweep.py) and tt_font_diff's
 * findings (fuzz/FINDINGS.md F-40):
 * - a directory cut short by the end of the file keeps the records that fit;
 * - a record whose table starts or ends past the end of the file is ignored
 *   (the font opens as if the table were absent), except hmtx and vmtx,
 *   which are cut at the end of the file to a multiple of 4 bytes;
 * - every head record the file holds must be at least 54 bytes long, even
 *   one that is never used (a second head), else the font is refused; one
 *   that starts or ends past the end of the file is ignored like any other;
 * - of the records left with the same tag the first wins, the others are
 *   dropped: a zero-length first one makes the table missing (a later
 *   hhea of the right size does not bring it back).
 * Ignoring a table is safe: nothing is read from it. */
static fv_status read_directory(sfnt_font *f, uint32_t dir, fv_error *err)
{
    fv_span file = f->file;
    uint16_t n;
    if (fv_rd_u32(file, dir, &f->sfnt_version) != FV_OK || fv_rd_u16(file, (uint64_t)dir + 4, &n) != FV_OK)
        return sfnt_fail(err, FV_E_TRUNCATED, 0, dir, "table directory header");
    if (!known_sfnt_version(f->sfnt_version))
        return sfnt_fail(err, FV_E_NOT_A_FONT, 0, dir, "unknown sfnt version");
    if (n == 0)
        return sfnt_fail(err, FV_E_NOT_A_FONT, 0, dir, "no tables");
    f->tables = fv_mem_array(f->mem, n, sizeof *f->tables);
    if (!f->tables)
        return sfnt_fail(err, FV_E_NOMEM, 0, FV_NO_VALUE, "table directory");
    uint32_t kept = 0;
    f->dir_offset = dir;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t rec = (uint64_t)dir + 12 + (uint64_t)i * 16;
        sfnt_table t;
        if (fv_rd_u32(file, rec, &t.tag) != FV_OK || fv_rd_u32(file, rec + 4, &t.checksum) != FV_OK ||
            fv_rd_u32(file, rec + 8, &t.offset) != FV_OK || fv_rd_u32(file, rec + 12, &t.length) != FV_OK)
            break;
        f->records_read = i + 1;
        if (t.offset > file.len)
            continue;
        if (t.length > file.len - t.offset) {
            if (t.tag != SFNT_TAG_hmtx && t.tag != SFNT_TAG_vmtx)
                continue;
            t.length = (uint32_t)(file.len - t.offset) & ~3u;
        }
        if (t.tag == SFNT_TAG_head && t.length < SFNT_HEAD_SIZE)
            return sfnt_fail(err, FV_E_TRUNCATED, SFNT_TAG_head, t.length,
                             "a head record shorter than 54 bytes");
        int duplicate = 0;
        for (uint32_t k = 0; k < kept && !duplicate; k++)
            duplicate = f->tables[k].tag == t.tag;
        if (!duplicate)
            f->tables[kept++] = t;
    }
    f->num_tables = (uint16_t)kept;
    if (kept == 0)
        return sfnt_fail(err, FV_E_NOT_A_FONT, 0, dir, "no table inside the file");
    return FV_OK;
}

fv_status sfnt_missing_table(const sfnt_font *f, uint32_t tag, fv_error *err)
{
    for (uint32_t i = 0; i < f->records_read; i++) {
        uint64_t rec = (uint64_t)f->dir_offset + 12 + (uint64_t)i * 16;
        uint32_t t = 0, offset = 0, length = 0;
        (void)fv_rd_u32(f->file, rec, &t);
        (void)fv_rd_u32(f->file, rec + 8, &offset);
        (void)fv_rd_u32(f->file, rec + 12, &length);
        if (t == tag && !fv_span_has(f->file, offset, length))
            return sfnt_fail(err, FV_E_TRUNCATED, tag, offset, "runs past the end of the file");
    }
    return sfnt_fail(err, FV_E_MISSING_TABLE, tag, FV_NO_VALUE, NULL);
}

/* COMPAT(freetype): the fixed-size headers (maxp, hhea, vhea) are read
 * from the file at the table's offset whatever the table's length says;
 * only the end of the file bounds them.  The span returned is the table,
 * grown to `need` bytes when it is shorter and the file has them. */
fv_status sfnt_header_table(const sfnt_font *f, uint32_t tag, uint64_t need, fv_span *out,
                            fv_error *err)
{
    if (!sfnt_find_table(f, tag, out))
        return sfnt_fail(err, FV_E_MISSING_TABLE, tag, FV_NO_VALUE, NULL);
    if (out->len >= need)
        return FV_OK;
    uint64_t offset = (uint64_t)(out->data - f->file.data);
    if (fv_span_sub(f->file, offset, need, out) != FV_OK)
        return sfnt_fail(err, FV_E_TRUNCATED, tag, f->file.len - offset,
                         "header runs past the end of the file");
    return FV_OK;
}

static fv_status need_table(const sfnt_font *f, uint32_t tag, uint64_t min_len, fv_span *out,
                            fv_error *err)
{
    if (!sfnt_find_table(f, tag, out))
        return sfnt_missing_table(f, tag, err);
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
    /* COMPAT(freetype): indexToLocFormat 0 is the short format and any
     * other value the long one. */
    return FV_OK;
}

/* COMPAT(freetype): a missing maxp leaves a face of no glyphs (FreeType
 * opens it); any version from 1.0 up (as a signed 16.16 number) has the
 * version 1.0 fields, any other (0.5, 0, negative) only numGlyphs.
 * FreeType 2.12.1 reads the header in two all-or-nothing steps bounded by
 * the end of the file (not by the table's length) and opens the face
 * whichever fails: when the file ends inside the first 6 bytes the face
 * has no glyphs and version 0, as without maxp; when it ends inside the
 * version 1.0 fields (fuzz finding F-29) they all stay 0, numGlyphs and
 * the version are kept, and maxFunctionDefs is not raised to 64, so the
 * font behaves as a version 0.5 maxp (v1_fields false; measured on
 * hand-made fonts cut at every byte of maxp, test_sfnt_ft_decisions). */
static void read_maxp(sfnt_font *f)
{
    fv_span t;
    if (!sfnt_find_table(f, SFNT_TAG_maxp, &t) ||
        sfnt_header_table(f, SFNT_TAG_maxp, 6, &t, NULL) != FV_OK)
        return;
    sfnt_maxp *m = &f->maxp;
    (void)fv_rd_u32(t, 0, &m->version);
    m->num_glyphs = u16_at(t, 4);
    if ((int32_t)m->version >= 0x00010000) {
        if (sfnt_header_table(f, SFNT_TAG_maxp, 32, &t, NULL) != FV_OK)
            return;
        m->v1_fields = true;
        uint16_t *fields[] = {&m->max_points, &m->max_contours, &m->max_composite_points,
                              &m->max_composite_contours, &m->max_zones, &m->max_twilight_points,
                              &m->max_storage, &m->max_function_defs, &m->max_instruction_defs,
                              &m->max_stack_elements, &m->max_size_of_instructions,
                              &m->max_component_elements, &m->max_component_depth};
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
            *fields[i] = u16_at(t, 6 + 2 * i);
    }
}

/* hhea and vhea share their layout. */
static fv_status read_xhea(sfnt_font *f, uint32_t tag, sfnt_hhea *h, fv_error *err)
{
    fv_span t;
    fv_status st = sfnt_header_table(f, tag, 36, &t, err);
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
 * side bearings for the remaining glyphs.  COMPAT(freetype): any length
 * and any numberOfLongMetrics (0 too) is taken; what lies past the table's
 * end reads as 0: a glyph whose long metric (or, past the long metrics, the
 * last advance) is missing gets advance and bearing 0, a missing side
 * bearing alone reads as 0 (measured against FreeType 2.12.1). */
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
        if (!fv_span_has(mtx, (uint64_t)gid * 4, 4))
            return FV_OK;
        *advance = u16_at(mtx, (uint64_t)gid * 4);
        *bearing = s16_at(mtx, (uint64_t)gid * 4 + 2);
    } else {
        if (!fv_span_has(mtx, ((uint64_t)num_long - 1) * 4, 2))
            return FV_OK;
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

/* Bytes from `offset` to the next table in the file (or to its end). */
static uint64_t room_after(const sfnt_font *f, uint64_t offset)
{
    uint64_t room = f->file.len - offset;
    for (uint32_t i = 0; i < f->num_tables; i++)
        if (f->tables[i].offset > offset && f->tables[i].offset - offset < room)
            room = f->tables[i].offset - offset;
    return room;
}

/* loca.  COMPAT(freetype), measured against FreeType 2.12.1: a loca of
 * fewer than numGlyphs + 1 entries is read on into the bytes that follow it
 * when the file has room for the missing entries before the next table;
 * otherwise the font has only the glyphs its entries cover.  Entries past
 * numGlyphs + 1 are ignored (and a long-format table counts at most
 * 0x3FFFF bytes, a short one 0x1FFFF).  Without glyf every glyph is empty;
 * without loca the font has no outlines. */
static fv_status read_loca(sfnt_font *f)
{
    fv_span t;
    (void)sfnt_find_table(f, SFNT_TAG_glyf, &f->glyf);
    if (!sfnt_find_table(f, SFNT_TAG_loca, &t))
        return FV_OK;
    int long_format = f->head.index_to_loc_format != 0;
    unsigned shift = long_format ? 2 : 1;
    uint64_t table_len = t.len;
    uint64_t cap = long_format ? 0x3FFFFu : 0x1FFFFu;
    if (table_len > cap)
        table_len = cap;
    uint64_t num_locations = table_len >> shift;
    uint64_t want = (uint64_t)f->maxp.num_glyphs + 1;
    if (num_locations < want) {
        uint64_t offset = (uint64_t)(t.data - f->file.data);
        if ((want << shift) <= room_after(f, offset)) {
            (void)fv_span_sub(f->file, offset, want << shift, &t);
            num_locations = want;
        }
    }
    f->loca_table = t;
    f->loca_locations = num_locations;
    uint64_t n = num_locations < want ? num_locations : want;
    f->loca_glyphs = n ? (uint32_t)n - 1 : 0;
    /* The glyph whose end FreeType clips to glyf (the last one loca has). */
    f->loca_last = num_locations >= 2 ? num_locations - 2 : UINT64_MAX;
    f->has_loca = 1;
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

#define SFNT_TAG_sbix FV_TAG('s', 'b', 'i', 'x')
#define SFNT_TAG_CBLC FV_TAG('C', 'B', 'L', 'C')
#define SFNT_TAG_EBLC FV_TAG('E', 'B', 'L', 'C')
#define SFNT_TAG_bloc FV_TAG('b', 'l', 'o', 'c')
#define SFNT_STRIKE_RECORD 48

/* The strike table FreeType uses: CBLC, else EBLC, else bloc, else sbix.
 * *kind: 'C' (CBLC), 'E' (EBLC or bloc), 'S' (sbix). */
static int strike_table(const sfnt_font *f, fv_span *t, char *kind)
{
    if (sfnt_find_table(f, SFNT_TAG_CBLC, t))
        *kind = 'C';
    else if (sfnt_find_table(f, SFNT_TAG_EBLC, t) || sfnt_find_table(f, SFNT_TAG_bloc, t))
        *kind = 'E';
    else if (sfnt_find_table(f, SFNT_TAG_sbix, t))
        *kind = 'S';
    else
        return 0;
    return 1;
}

/* Strike i's ppem (x and y); 0 when it has none or cannot be read. */
static void strike_ppem(fv_span t, char kind, uint32_t i, uint32_t *x, uint32_t *y)
{
    *x = *y = 0;
    if (kind == 'S') {
        uint32_t offset;
        uint16_t ppem;
        if (fv_rd_u32(t, 8 + (uint64_t)i * 4, &offset) == FV_OK && fv_rd_u16(t, offset, &ppem) == FV_OK)
            *x = *y = ppem;
        return;
    }
    uint8_t px = 0, py = 0;
    uint64_t rec = 8 + (uint64_t)i * SFNT_STRIKE_RECORD;
    if (fv_rd_u8(t, rec + 44, &px) == FV_OK && fv_rd_u8(t, rec + 45, &py) == FV_OK) {
        *x = px;
        *y = py;
    }
}

/* Number of strike records FreeType takes from the table. */
static uint32_t strike_records(const sfnt_font *f, fv_span t, char kind)
{
    uint32_t version, n;
    if (fv_rd_u32(t, 0, &version) != FV_OK || fv_rd_u32(t, 4, &n) != FV_OK)
        return 0;
    if (kind == 'S')
        return fv_span_has(t, 8, (uint64_t)n * 4) ? n : 0;
    /* EBLC/CBLC 2.0 or 3.0, fewer than 65536 strikes (as many as the table
     * holds), and a bitmap data table beside it. */
    uint32_t major = version & 0xFFFF0000u;
    fv_span data;
    if ((major != 0x00020000u && major != 0x00030000u) || n >= 0x10000u ||
        !(sfnt_find_table(f, FV_TAG('C', 'B', 'D', 'T'), &data) ||
          sfnt_find_table(f, FV_TAG('E', 'B', 'D', 'T'), &data) ||
          sfnt_find_table(f, FV_TAG('b', 'd', 'a', 't'), &data)))
        return 0;
    if (8 + (uint64_t)n * SFNT_STRIKE_RECORD > t.len)
        n = (uint32_t)((t.len - 8) / SFNT_STRIKE_RECORD);
    return n;
}

void sfnt_find_strikes(const sfnt_font *f, sfnt_strikes *out)
{
    memset(out, 0, sizeof *out);
    fv_span t;
    char kind;
    if (!strike_table(f, &t, &kind))
        return;
    uint32_t n = strike_records(f, t, kind);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x, y;
        strike_ppem(t, kind, i, &x, &y);
        out->count += x != 0 && y != 0;
    }
    /* COMPAT(freetype): beside EBLC or bloc strikes, an sbix table of any
     * content (empty, version 0, cut to 2 bytes) makes the face an sbix
     * face as well: no outlines, and loca still required (measured on
     * damaged DejaVuSans and wine's tahoma.ttf); beside CBLC it does not. */
    fv_span sbix;
    out->sbix = kind == 'S' || (kind == 'E' && sfnt_find_table(f, SFNT_TAG_sbix, &sbix));
    out->replace_outlines = out->count > 0 && (kind != 'E' || out->sbix);
}

int sfnt_strike_has_ppem(const sfnt_font *f, uint32_t x_ppem, uint32_t y_ppem)
{
    fv_span t;
    char kind;
    if (!strike_table(f, &t, &kind))
        return 0;
    uint32_t n = strike_records(f, t, kind);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x, y;
        strike_ppem(t, kind, i, &x, &y);
        if (x != 0 && y != 0 && x == x_ppem && y == y_ppem)
            return 1;
    }
    return 0;
}

/* Entry i of loca as FreeType keeps it (loca_table, loca_locations). */
static uint64_t loca_entry(const sfnt_font *f, uint64_t i)
{
    if (f->head.index_to_loc_format != 0) {
        uint32_t v = 0;
        (void)fv_rd_u32(f->loca_table, i * 4, &v);
        return v;
    }
    return (uint64_t)u16_at(f->loca_table, i * 2) * 2;
}

int sfnt_only_notdef_has_outline(const sfnt_font *f)
{
    if (!f->has_loca || f->loca_locations < 2)
        return 0;
    uint64_t at, glyphs = f->loca_locations - 1;
    for (uint64_t gid = 0; gid < glyphs; gid++) {
        uint64_t len = sfnt_glyph_extent(f->glyf.len, loca_entry(f, gid), loca_entry(f, gid + 1),
                                         gid == f->loca_last, &at);
        if ((len > 0) != (gid == 0))
            return 0;
    }
    return 1;
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
    if ((st = read_directory(f, dir, err)) != FV_OK || (st = read_head(f, err)) != FV_OK)
        goto fail;
    read_maxp(f);
    fv_span probe;
    if (sfnt_find_table(f, SFNT_TAG_hhea, &probe)) {
        if ((st = read_xhea(f, SFNT_TAG_hhea, &f->hhea, err)) != FV_OK)
            goto fail;
        f->has_hhea = 1;
        (void)sfnt_find_table(f, SFNT_TAG_hmtx, &f->hmtx);
    }
    /* COMPAT(freetype): vertical metrics are used when vhea and vmtx are
     * both there and vhea can be read; otherwise they are ignored (a vhea
     * that runs past the end of the file refuses a TrueType face:
     * vm/tt/face.c). */
    if (sfnt_find_table(f, SFNT_TAG_vhea, &probe) && sfnt_find_table(f, SFNT_TAG_vmtx, &f->vmtx) &&
        read_xhea(f, SFNT_TAG_vhea, &f->vhea, NULL) == FV_OK)
        f->has_vhea = 1;
    if ((st = read_loca(f)) != FV_OK || (st = read_cvt(f, err)) != FV_OK)
        goto fail;
    /* A cmap that cannot be read leaves the font without one (FreeType
     * skips broken subtables; hinting never needs cmap); the Graphite face
     * refuses such a font with this error. */
    fv_error_clear(&f->cmap_error);
    f->cmap_status = sfnt_cmap_select(f, &f->cmap_error);
    if (f->cmap_status == FV_E_NOMEM) {
        st = sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_cmap, FV_NO_VALUE, NULL);
        goto fail;
    }
    if (f->cmap_status != FV_OK) {
        f->cmap_sub.data = NULL;
        f->cmap_sub.len = 0;
        f->cmap_format = 0;
    }
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
    fv_mem_free(mem, f->cvt);
    fv_mem_free(mem, f);
}
