/* fv_tt_face, fv_tt_exec and mode names. */
#include <string.h>

#include "tt/defs.h"
#include "tt/objects.h"

static const char *const mode_names[] = { "v35", "v40", "v40-mono", "v40-lcd" };

const char *fv_tt_mode_name(fv_tt_mode mode)
{
    unsigned m = (unsigned)mode;
    return m < 4 ? mode_names[m] : "unknown";
}

int fv_tt_mode_parse(const char *name, fv_tt_mode *mode)
{
    for (unsigned i = 0; i < 4; i++)
        if (name && strcmp(name, mode_names[i]) == 0) {
            *mode = (fv_tt_mode)i;
            return 0;
        }
    return -1;
}

/* hdmx: device advance widths per ppem (FreeType uses them for hinted
 * advances outside v40 backward-compatibility mode). */
static void load_hdmx(fv_tt_face *f)
{
    fv_span t;
    uint16_t version, num;
    uint32_t size;
    if (!sfnt_find_table(f->sf, FV_TAG('h', 'd', 'm', 'x'), &t))
        return;
    if (fv_rd_u16(t, 0, &version) || fv_rd_u16(t, 2, &num) || fv_rd_u32(t, 4, &size))
        return;
    /* FreeType 2.12.1's sanity rules: version 0, at most 255 records,
     * records inside the table, and a record size of exactly numGlyphs + 2
     * padded to a multiple of 4 — measured with FreeType on fonts whose
     * records are shorter, longer or unpadded (test_tt_hdmx): any other size
     * and the table is ignored (summersby.ttf: 576-byte records for 1,010
     * glyphs). */
    uint32_t want = ((uint32_t)f->sf->maxp.num_glyphs + 2 + 3) & ~3u;
    if (version != 0 || num > 255 || size != want)
        return;
    if ((uint64_t)num * size > (uint64_t)t.len - 8)
        return;
    f->hdmx = t;
    f->hdmx_records = num;
    f->hdmx_record_size = size;
}

/* What FreeType 2.12.1 needs of a font before it opens a TrueType face
 * (measured on damaged corpus fonts, conformance/tt/tt_sweep.py); the sfnt
 * reader itself is more lenient, for the Graphite side. */
static fv_status check_truetype(const sfnt_font *sf, int *is_scalable, const char **why_not,
                                fv_error *err)
{
    if (!sfnt_is_truetype_flavour(sf))
        return sfnt_fail(err, FV_E_NOT_A_FONT, 0, FV_NO_VALUE, "an 'OTTO' or 'typ1' font is not TrueType");
    if (sf->head.units_per_em < 16 || sf->head.units_per_em > 16384)
        return sfnt_fail(err, FV_E_BAD_TABLE, SFNT_TAG_head, 18, "unitsPerEm outside 16..16384");
    if (!sf->has_hhea)
        return sfnt_missing_table(sf, SFNT_TAG_hhea, err);
    if (sf->hmtx.len == 0)
        return sfnt_missing_table(sf, SFNT_TAG_hmtx, err);
    /* COMPAT(freetype): FreeType 2.12.1 reads vhea's 36-byte header (from
     * the file, whatever the table's length) before it looks for vmtx; a
     * read past the end of the file refuses the face (FT_New_Face:
     * Unknown_File_Format), vmtx or not (fuzz F-40). */
    fv_span vhea;
    if (sfnt_find_table(sf, SFNT_TAG_vhea, &vhea)) {
        fv_status st = sfnt_header_table(sf, SFNT_TAG_vhea, 36, &vhea, err);
        if (st != FV_OK)
            return st;
    }
    /* COMPAT(freetype): a face is scalable when it has glyf and no colour
     * strikes, or neither glyf nor any strike; a scalable face needs loca,
     * and so does an sbix face with glyf (FreeType: Locations_Missing). */
    sfnt_strikes strikes;
    sfnt_find_strikes(sf, &strikes);
    int scalable = sf->glyf.len > 0 ? !strikes.replace_outlines : strikes.count == 0;
    if (!sf->has_loca && (scalable || (strikes.sbix && strikes.count > 0 && sf->glyf.len > 0)))
        return sfnt_missing_table(sf, SFNT_TAG_loca, err);
    /* COMPAT(freetype): beside black-and-white strikes, a glyf in which
     * only glyph 0 has bytes is no outline font either (wine's system.ttf,
     * unifont_sample.ttf: a .notdef box and empty glyphs; measured on
     * hand-made fonts, tests/sfnt/test_sfnt_ft_decisions.c). */
    *why_not = "bitmap strikes only";
    if (scalable && strikes.count > 0 && sfnt_only_notdef_has_outline(sf)) {
        scalable = 0;
        *why_not = "bitmap strikes, and an outline for glyph 0 only";
    }
    *is_scalable = scalable;
    return FV_OK;
}

fv_status fv_tt_face_new(fv_font *font, fv_tt_face **out, fv_error *err)
{
    fv_error_clear(err);
    if (!font || !out) {
        if (err)
            err->kind = FV_E_BAD_ARGUMENT;
        return FV_E_BAD_ARGUMENT;
    }
    fv_mem *mem = fv_font_mem(font);
    fv_tt_face *f = fv_mem_calloc(mem, sizeof *f);
    if (!f) {
        if (err)
            err->kind = FV_E_NOMEM;
        return FV_E_NOMEM;
    }
    f->font = font;
    f->sf = fv_font_sfnt(font);
    f->mem = mem;
    fv_status st = check_truetype(f->sf, &f->scalable, &f->not_scalable_why, err);
    if (st != FV_OK) {
        fv_mem_free(mem, f);
        return st;
    }
    f->var = font->var;
    f->hinted = f->sf->fpgm.len > 0 || f->sf->prep.len > 0;
    fv_span os2, post;
    /* OS/2 version 0 is 78 bytes, the post header 32; FreeType reads them
     * whole (past a short table, see sfnt_header_table) or not at all. */
    if (sfnt_header_table(f->sf, SFNT_TAG_OS2, 78, &os2, NULL) == FV_OK &&
        fv_rd_s16(os2, 68, &f->typo_ascender) == FV_OK &&
        fv_rd_s16(os2, 70, &f->typo_descender) == FV_OK)
        f->has_os2 = 1;
    uint32_t fixed = 0;
    if (sfnt_header_table(f->sf, SFNT_TAG_post, 32, &post, NULL) == FV_OK &&
        fv_rd_u32(post, 12, &fixed) == FV_OK)
        f->fixed_pitch = fixed != 0;
    load_hdmx(f);
    *out = f;
    return FV_OK;
}

void fv_tt_face_free(fv_tt_face *face)
{
    if (face)
        fv_mem_free(face->mem, face);
}

int fv_tt_face_is_hinted(const fv_tt_face *face)
{
    if (!face)
        return 0;
    if (face->hinted)
        return 1;
    /* Any glyph program counts too. */
    const sfnt_font *sf = face->sf;
    for (uint32_t g = 0; g < sf->maxp.num_glyphs && sf->has_loca; g++) {
        sfnt_glyph gl;
        fv_error e;
        if (sfnt_glyph_load(sf, g, face->mem, &gl, &e) != FV_OK)
            continue;
        int has = gl.instructions.len > 0;
        sfnt_glyph_free(face->mem, &gl);
        if (has)
            return 1;
    }
    return 0;
}

fv_status fv_tt_exec_new(fv_tt_face *face, fv_tt_exec **out, fv_error *err)
{
    fv_error_clear(err);
    if (!face || !out) {
        if (err)
            err->kind = FV_E_BAD_ARGUMENT;
        return FV_E_BAD_ARGUMENT;
    }
    fv_tt_exec *ex = fv_mem_calloc(face->mem, sizeof *ex);
    if (!ex)
        goto nomem;
    ex->face = face;
    ex->mem = face->mem;
    *out = ex;
    return FV_OK;
nomem:
    fv_tt_exec_free(ex);
    if (err)
        err->kind = FV_E_NOMEM;
    return FV_E_NOMEM;
}

void fv_tt_exec_free(fv_tt_exec *ex)
{
    if (!ex)
        return;
    fv_mem *m = ex->mem;
    fv_mem_free(m, ex->snap);
    fv_mem_free(m, ex->mv_points);
    fv_mem_free(m, ex->mv_old);
    fv_mem_free(m, ex->mv_new);
    fv_mem_free(m, ex->mv_zone);
    fv_mem_free(m, ex->trace_stack);
    fv_mem_free(m, ex->load_pts);
    fv_mem_free(m, ex->load_tags);
    fv_mem_free(m, ex->load_ends);
    fv_mem_free(m, ex->cvt_copy);
    fv_mem_free(m, ex->storage_copy);
    tt_zone_buf_free(m, &ex->load_zone);
    tt_var_buf_free(m, &ex->var);
    for (uint32_t i = 0; i < ex->load_levels; i++) {
        sfnt_glyph_free(m, ex->load_glyphs[i]);
        fv_mem_free(m, ex->load_glyphs[i]);
    }
    fv_mem_free(m, ex->load_glyphs);
    fv_mem_free(m, ex);
}

void fv_tt_exec_set_trace(fv_tt_exec *ex, fv_tt_trace_fn fn, void *user)
{
    if (!ex)
        return;
    ex->trace = fn;
    ex->trace_user = user;
}

void fv_tt_exec_set_diagnostics(fv_tt_exec *ex, fv_tt_diag_fn fn, void *user)
{
    if (!ex)
        return;
    ex->diag = fn;
    ex->diag_user = user;
}

const uint64_t *fv_tt_exec_opcode_counts(const fv_tt_exec *ex)
{
    return ex ? ex->counts : NULL;
}
