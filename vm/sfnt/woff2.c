/* WOFF 2.0 (W3C Recommendation): a header, a table directory with
 * variable-length fields, an optional collection directory, and one brotli
 * stream holding every table, where glyf/loca (and optionally hmtx) may be
 * stored in the transformed forms of the specification's section 5.
 *
 * Written from the specification's text: brotli (libbrotlidec) undoes the
 * compression, this file undoes the transforms.  Every read goes through
 * the bounded reader; every declared size is checked before allocation; all
 * memory (brotli's state included) comes from the font's fv_mem.
 *
 * One file of ~1,000 lines on purpose: the directory, the brotli stream and
 * the two transforms share one decoder state (w2_file) that nothing else
 * should see, and the file reads top to bottom in the specification's
 * order (section 4, then 5.1-5.3). */
#include <brotli/decode.h>
#include <stdlib.h>
#include <string.h>

#include "sfnt/sfnt.h"
#include "sfnt/woff.h"

#define W2_HEADER_SIZE 48
#define SFNT_HEADER_SIZE 12
#define SFNT_RECORD_SIZE 16
#define TAG_ttcf FV_TAG('t', 't', 'c', 'f')

/* Spec 4.1: the 63 tags a table directory entry may name by index (6 bits;
 * 63 means an explicit tag follows). */
static const char known_tags[63][5] = {
    "cmap", "head", "hhea", "hmtx", "maxp", "name", "OS/2", "post", "cvt ", "fpgm", "glyf",
    "loca", "prep", "CFF ", "VORG", "EBDT", "EBLC", "gasp", "hdmx", "kern", "LTSH", "PCLT",
    "VDMX", "vhea", "vmtx", "BASE", "GDEF", "GPOS", "GSUB", "EBSC", "JSTF", "MATH", "CBDT",
    "CBLC", "COLR", "CPAL", "SVG ", "sbix", "acnt", "avar", "bdat", "bloc", "bsln", "cvar",
    "fdsc", "feat", "fmtx", "fvar", "gvar", "hsty", "just", "lcar", "mort", "morx", "opbd",
    "prop", "trak", "Zapf", "Silf", "Glat", "Gloc", "Feat", "Sill"};
#define W2_EXPLICIT_TAG 63

/* Spec 4.1: transformation versions.  For glyf and loca version 0 is the
 * glyf transform and 3 the null transform; for hmtx 1 is the hmtx
 * transform; every other table must use 0 (null).  Others are invalid. */
#define W2_GLYF_TRANSFORM 0
#define W2_GLYF_NULL 3
#define W2_HMTX_TRANSFORM 1

typedef struct w2_table {
    uint32_t tag;
    uint32_t orig_length;
    uint32_t stream_length;  /* bytes in the decompressed stream */
    uint64_t stream_offset;
    uint64_t entry_offset;   /* of its directory entry in the file, for errors */
    int transformed;
    /* Filled by reconstruction (transformed tables only). */
    uint8_t *owned;
    uint32_t length;         /* output length */
    int16_t *x_mins;         /* glyf: every glyph's xMin (for the hmtx transform) */
    uint32_t x_min_count;
    int done;
    uint32_t paired;         /* loca/hmtx: the glyf table index it was built from */
    uint32_t out_offset;
} w2_table;

typedef struct w2_ref {
    uint32_t tag;
    uint16_t index;          /* into w2_file.tables */
} w2_ref;

typedef struct w2_font {
    uint32_t flavor;
    uint16_t num_tables;
    w2_ref *refs;            /* sorted by tag */
} w2_font;

typedef struct w2_file {
    fv_span file;
    fv_mem *mem;
    uint32_t flavor;
    uint16_t num_tables;
    w2_table *tables;
    uint32_t ttc_version;    /* 0 when not a collection */
    uint16_t num_fonts;
    w2_font *fonts;
    fv_span compressed;
    uint64_t stream_total;
    uint8_t *stream;
} w2_file;

/* Spec 4.1 UIntBase128: 1-5 bytes, 7 bits each, most significant first;
 * no leading zero byte, no overflow past 32 bits. */
static int read_base128(fv_cursor *c, uint32_t *v)
{
    uint32_t acc = 0;
    for (int i = 0; i < 5; i++) {
        uint8_t b;
        if (fv_cur_u8(c, &b) != FV_OK || (i == 0 && b == 0x80) || (acc & 0xFE000000u))
            return 0;
        acc = acc << 7 | (b & 0x7F);
        if (!(b & 0x80)) {
            *v = acc;
            return 1;
        }
    }
    return 0;
}

/* Spec 6.1.1 255UInt16: one byte below 253; 253 then a uint16; 255 then a
 * byte plus 253; 254 then a byte plus 506. */
static int read_255u16(fv_cursor *c, uint16_t *v)
{
    uint8_t code, b;
    if (fv_cur_u8(c, &code) != FV_OK)
        return 0;
    if (code == 253)
        return fv_cur_u16(c, v) == FV_OK;
    if (code == 255 || code == 254) {
        if (fv_cur_u8(c, &b) != FV_OK)
            return 0;
        *v = (uint16_t)(b + (code == 255 ? 253 : 506));
        return 1;
    }
    *v = code;
    return 1;
}

static int compare_refs(const void *a, const void *b)
{
    uint32_t x = ((const w2_ref *)a)->tag, y = ((const w2_ref *)b)->tag;
    return x < y ? -1 : x > y;
}

/* Sorts a font's tables by tag (the sfnt directory's order) and rejects a
 * tag listed twice. */
static fv_status sort_refs(w2_font *font, fv_status kind, uint64_t where, fv_error *err)
{
    qsort(font->refs, font->num_tables, sizeof *font->refs, compare_refs);
    for (uint32_t i = 1; i < font->num_tables; i++)
        if (font->refs[i].tag == font->refs[i - 1].tag)
            return sfnt_fail(err, kind, font->refs[i].tag, where, "table listed twice in one font");
    return FV_OK;
}

static void w2_free(w2_file *w)
{
    fv_mem *mem = w->mem;
    for (uint32_t i = 0; w->tables && i < w->num_tables; i++) {
        fv_mem_free(mem, w->tables[i].owned);
        fv_mem_free(mem, w->tables[i].x_mins);
    }
    for (uint32_t i = 0; w->fonts && i < w->num_fonts; i++)
        fv_mem_free(mem, w->fonts[i].refs);
    fv_mem_free(mem, w->fonts);
    fv_mem_free(mem, w->tables);
    fv_mem_free(mem, w->stream);
}

static fv_status read_table_directory(w2_file *w, fv_cursor *c, fv_error *err)
{
    w->tables = fv_mem_array(w->mem, w->num_tables, sizeof *w->tables);
    if (!w->tables)
        return sfnt_fail(err, FV_E_NOMEM, WOFF_TAG_wOF2, FV_NO_VALUE, "table directory");
    uint64_t total = 0;
    for (uint32_t i = 0; i < w->num_tables; i++) {
        w2_table *t = &w->tables[i];
        t->entry_offset = c->pos;
        uint8_t flags;
        if (fv_cur_u8(c, &flags) != FV_OK)
            return sfnt_fail(err, FV_E_TRUNCATED, WOFF_TAG_wOF2, c->pos, "table directory");
        uint32_t tag_index = flags & 0x3F, version = flags >> 6;
        if (tag_index == W2_EXPLICIT_TAG) {
            if (fv_cur_u32(c, &t->tag) != FV_OK)
                return sfnt_fail(err, FV_E_TRUNCATED, WOFF_TAG_wOF2, c->pos, "table directory");
        } else {
            const char *s = known_tags[tag_index];
            t->tag = FV_TAG(s[0], s[1], s[2], s[3]);
        }
        int glyf_or_loca = t->tag == SFNT_TAG_glyf || t->tag == SFNT_TAG_loca;
        /* COMPAT(freetype): FreeType 2.12.1 takes hmtx versions 2 and 3 for
         * the hmtx transform too (spec 4.1 reserves them). */
        if (glyf_or_loca ? version != W2_GLYF_TRANSFORM && version != W2_GLYF_NULL
                         : version != 0 && t->tag != SFNT_TAG_hmtx)
            return sfnt_fail(err, FV_E_WOFF_BAD_DIRECTORY, t->tag, t->entry_offset,
                             "unknown transformation version");
        t->transformed = glyf_or_loca ? version == W2_GLYF_TRANSFORM : version != 0;
        if (!read_base128(c, &t->orig_length))
            return sfnt_fail(err, FV_E_WOFF_BAD_DIRECTORY, t->tag, c->pos, "bad UIntBase128 origLength");
        t->stream_length = t->orig_length;
        if (t->transformed && !read_base128(c, &t->stream_length))
            return sfnt_fail(err, FV_E_WOFF_BAD_DIRECTORY, t->tag, c->pos, "bad UIntBase128 transformLength");
        /* Spec 5.3: the transformed loca is empty (rebuilt from glyf). */
        if (t->transformed && t->tag == SFNT_TAG_loca && t->stream_length != 0)
            return sfnt_fail(err, FV_E_WOFF_BAD_DIRECTORY, t->tag, t->entry_offset,
                             "transformed loca with a nonzero transformLength");
        t->stream_offset = total;
        total += t->stream_length;
        if (total > WOFF_MAX_SFNT_SIZE)
            return sfnt_fail(err, FV_E_WOFF_TOO_LARGE, t->tag, t->entry_offset,
                             "table data beyond the hard cap");
    }
    w->stream_total = total;
    return FV_OK;
}

static fv_status read_collection_directory(w2_file *w, fv_cursor *c, fv_error *err)
{
    uint64_t at = c->pos;
    uint16_t num_fonts;
    if (fv_cur_u32(c, &w->ttc_version) != FV_OK || !read_255u16(c, &num_fonts))
        return sfnt_fail(err, FV_E_TRUNCATED, TAG_ttcf, at, "collection directory");
    if (w->ttc_version != 0x00010000u && w->ttc_version != 0x00020000u)
        return sfnt_fail(err, FV_E_WOFF2_BAD_COLLECTION, TAG_ttcf, at, "unknown collection version");
    if (num_fonts == 0)
        return sfnt_fail(err, FV_E_WOFF2_BAD_COLLECTION, TAG_ttcf, at, "collection with no fonts");
    w->fonts = fv_mem_array(w->mem, num_fonts, sizeof *w->fonts);
    if (!w->fonts)
        return sfnt_fail(err, FV_E_NOMEM, TAG_ttcf, FV_NO_VALUE, "collection directory");
    w->num_fonts = num_fonts;
    for (uint32_t f = 0; f < num_fonts; f++) {
        w2_font *font = &w->fonts[f];
        uint64_t font_at = c->pos;
        if (!read_255u16(c, &font->num_tables) || fv_cur_u32(c, &font->flavor) != FV_OK)
            return sfnt_fail(err, FV_E_TRUNCATED, TAG_ttcf, font_at, "collection font entry");
        if (font->num_tables == 0)
            return sfnt_fail(err, FV_E_WOFF2_BAD_COLLECTION, TAG_ttcf, font_at, "font with no tables");
        font->refs = fv_mem_array(w->mem, font->num_tables, sizeof *font->refs);
        if (!font->refs)
            return sfnt_fail(err, FV_E_NOMEM, TAG_ttcf, FV_NO_VALUE, "collection font entry");
        for (uint32_t i = 0; i < font->num_tables; i++) {
            uint16_t index;
            if (!read_255u16(c, &index))
                return sfnt_fail(err, FV_E_TRUNCATED, TAG_ttcf, c->pos, "collection table index");
            if (index >= w->num_tables)
                return sfnt_fail(err, FV_E_WOFF2_BAD_COLLECTION, TAG_ttcf, c->pos,
                                 "table index beyond the table directory");
            font->refs[i].index = index;
            font->refs[i].tag = w->tables[index].tag;
        }
        fv_status st = sort_refs(font, FV_E_WOFF2_BAD_COLLECTION, font_at, err);
        if (st != FV_OK)
            return st;
    }
    return FV_OK;
}

/* Header, table directory, collection directory, and where the brotli
 * stream lies: everything but the table data.
 *
 * Sizes are bounded by what the directory declares, not by the header's
 * totalSfntSize: the specification makes that field advisory (a rebuilt
 * glyf may differ in size from the original), and decoders that trusted it
 * refused valid fonts.  So the brotli output is exactly the sum of the
 * declared table lengths (at most WOFF_MAX_SFNT_SIZE), a rebuilt glyf is
 * at most what its streams can encode, and the sfnt written is checked
 * against WOFF_MAX_SFNT_SIZE again; all of it within the per-font cap. */
static fv_status read_directories(w2_file *w, fv_error *err)
{
    fv_span file = w->file;
    uint32_t length, total_sfnt, compressed_len;
    uint16_t reserved;
    if (file.len < W2_HEADER_SIZE)
        return sfnt_fail(err, FV_E_TRUNCATED, WOFF_TAG_wOF2, 0, "WOFF2 header");
    (void)fv_rd_u32(file, 4, &w->flavor); /* all within the 48 bytes checked above */
    (void)fv_rd_u32(file, 8, &length);
    (void)fv_rd_u16(file, 12, &w->num_tables);
    (void)fv_rd_u16(file, 14, &reserved);
    (void)fv_rd_u32(file, 16, &total_sfnt);
    (void)fv_rd_u32(file, 20, &compressed_len);
    if (length != file.len)
        return sfnt_fail(err, length > file.len ? FV_E_TRUNCATED : FV_E_WOFF_BAD_HEADER,
                         WOFF_TAG_wOF2, 8, "WOFF2 length differs from the file size");
    /* COMPAT(freetype): a nonzero reserved field is ignored, as in
     * FreeType 2.12.1 (the spec says it MUST be zero). */
    (void)reserved;
    if (w->num_tables == 0)
        return sfnt_fail(err, FV_E_WOFF_BAD_HEADER, WOFF_TAG_wOF2, 12, "no tables");
    /* COMPAT(freetype): the field is advisory (see above), but 2.12.1
     * refuses a totalSfntSize too small for even the table directory. */
    if ((uint64_t)total_sfnt < SFNT_HEADER_SIZE + (uint64_t)w->num_tables * SFNT_RECORD_SIZE)
        return sfnt_fail(err, FV_E_WOFF_BAD_HEADER, WOFF_TAG_wOF2, 16,
                         "totalSfntSize smaller than the table directory");
    fv_cursor c = fv_cursor_at(file, W2_HEADER_SIZE);
    fv_status st = read_table_directory(w, &c, err);
    if (st != FV_OK)
        return st;
    if (w->flavor == TAG_ttcf) {
        st = read_collection_directory(w, &c, err);
    } else {
        /* A single font: every table of the directory, once. */
        w->fonts = fv_mem_calloc(w->mem, sizeof *w->fonts);
        if (!w->fonts)
            return sfnt_fail(err, FV_E_NOMEM, WOFF_TAG_wOF2, FV_NO_VALUE, "table directory");
        w->num_fonts = 1;
        w->fonts->flavor = w->flavor;
        w->fonts->num_tables = w->num_tables;
        w->fonts->refs = fv_mem_array(w->mem, w->num_tables, sizeof *w->fonts->refs);
        if (!w->fonts->refs)
            return sfnt_fail(err, FV_E_NOMEM, WOFF_TAG_wOF2, FV_NO_VALUE, "table directory");
        for (uint32_t i = 0; i < w->num_tables; i++) {
            w->fonts->refs[i].index = (uint16_t)i;
            w->fonts->refs[i].tag = w->tables[i].tag;
        }
        st = sort_refs(w->fonts, FV_E_WOFF_BAD_DIRECTORY, W2_HEADER_SIZE, err);
    }
    if (st != FV_OK)
        return st;
    /* COMPAT(freetype): FreeType 2.12.1 refuses a file whose directory
     * declares a font smaller than its decompressed table data: the sfnt
     * headers and every table's origLength padded to 4 bytes must add up
     * to at least the stream's length (measured: Graphite's general.ttf,
     * a transformed glyf's origLength cut until FreeType refused it). */
    uint64_t declared = w->ttc_version ? 12 + 4 * (uint64_t)w->num_fonts + (w->ttc_version == 0x00020000u ? 12 : 0) : 0;
    for (uint32_t f = 0; f < w->num_fonts; f++)
        declared += SFNT_HEADER_SIZE + (uint64_t)w->fonts[f].num_tables * SFNT_RECORD_SIZE;
    for (uint32_t i = 0; i < w->num_tables; i++)
        declared += woff_pad4(w->tables[i].orig_length);
    if (declared < w->stream_total)
        return sfnt_fail(err, FV_E_WOFF_BAD_DIRECTORY, WOFF_TAG_wOF2, W2_HEADER_SIZE,
                         "origLengths declare less than the decompressed table data");
    if (fv_span_sub(file, c.pos, compressed_len, &w->compressed) != FV_OK)
        return sfnt_fail(err, FV_E_TRUNCATED, WOFF_TAG_wOF2, 20, "compressed data past the end of the file");
    return woff_check_blocks(file, c.pos + (uint64_t)compressed_len, 28, WOFF_TAG_wOF2, err);
}

static void *w2_brotli_alloc(void *opaque, size_t size)
{
    return fv_mem_alloc(opaque, size);
}

static void w2_brotli_free(void *opaque, void *p)
{
    fv_mem_free(opaque, p);
}

/* Decompresses the brotli stream into exactly stream_total bytes. */
static fv_status decompress(w2_file *w, fv_error *err)
{
    w->stream = fv_mem_alloc(w->mem, w->stream_total ? (size_t)w->stream_total : 1);
    if (!w->stream)
        return sfnt_fail(err, FV_E_NOMEM, WOFF_TAG_wOF2, FV_NO_VALUE, "decompressed table data");
    BrotliDecoderState *dec = BrotliDecoderCreateInstance(w2_brotli_alloc, w2_brotli_free, w->mem);
    if (!dec)
        return sfnt_fail(err, FV_E_NOMEM, WOFF_TAG_wOF2, FV_NO_VALUE, "brotli state");
    size_t avail_in = w->compressed.len, avail_out = (size_t)w->stream_total;
    const uint8_t *next_in = w->compressed.data;
    uint8_t *next_out = w->stream;
    BrotliDecoderResult r = BrotliDecoderDecompressStream(dec, &avail_in, &next_in, &avail_out,
                                                          &next_out, NULL);
    BrotliDecoderErrorCode code = BrotliDecoderGetErrorCode(dec);
    BrotliDecoderDestroyInstance(dec);
    if (r == BROTLI_DECODER_RESULT_SUCCESS && avail_out == 0)
        return FV_OK;
    /* Brotli's allocation failures (the per-font cap) are codes -21..-30. */
    if (r == BROTLI_DECODER_RESULT_ERROR && code <= BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES &&
        code >= BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES)
        return sfnt_fail(err, FV_E_NOMEM, WOFF_TAG_wOF2, FV_NO_VALUE, "brotli state");
    return sfnt_fail(err, FV_E_WOFF_BAD_COMPRESSION, WOFF_TAG_wOF2, 20,
                     r == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT ? "brotli data longer than the tables"
                     : r == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT ? "brotli data cut short"
                     : r == BROTLI_DECODER_RESULT_SUCCESS          ? "brotli data shorter than the tables"
                                                                   : "brotli data corrupt");
}

static fv_span table_stream(const w2_file *w, const w2_table *t)
{
    fv_span s = {w->stream + t->stream_offset, t->stream_length};
    return s;
}

/* The output bytes of a table: reconstructed, or as stored. */
static fv_span table_output(const w2_file *w, const w2_table *t)
{
    if (t->transformed) {
        fv_span s = {t->owned, t->length};
        return s;
    }
    return table_stream(w, t);
}

static const w2_ref *font_table(const w2_font *font, uint32_t tag)
{
    for (uint32_t i = 0; i < font->num_tables; i++)
        if (font->refs[i].tag == tag)
            return &font->refs[i];
    return NULL;
}

/* ---- glyf/loca transform (spec 5.1-5.3) ---- */

enum { S_NCONTOUR, S_NPOINTS, S_FLAG, S_GLYPH, S_COMPOSITE, S_BBOX, S_INSTRUCTION, S_COUNT };

typedef struct glyf_decoder {
    uint16_t num_glyphs, index_format, option_flags;
    uint32_t size[S_COUNT];
    fv_cursor s[S_COUNT];
    fv_span bbox_bitmap;
    fv_span overlap_bitmap;     /* empty unless optionFlags bit 0 */
    /* Scratch for one simple glyph (at most 65535 points). */
    int16_t *xs, *ys;
    uint8_t *flags;
    uint8_t *out;               /* glyf being written */
    uint64_t out_cap, out_len;
} glyf_decoder;

#define GLYF_MAX_POINTS 65535u
#define GLYF_OPTION_OVERLAP_BITMAP 0x0001
#define GLYF_FLAG_ON_CURVE 0x01
#define GLYF_FLAG_X_SHORT 0x02
#define GLYF_FLAG_Y_SHORT 0x04
#define GLYF_FLAG_REPEAT 0x08
#define GLYF_FLAG_X_SAME_OR_POSITIVE 0x10
#define GLYF_FLAG_Y_SAME_OR_POSITIVE 0x20
#define GLYF_FLAG_OVERLAP_SIMPLE 0x40

static int bit_set(fv_span bitmap, uint32_t i)
{
    uint8_t b = 0;
    (void)fv_rd_u8(bitmap, i >> 3, &b); /* callers sized the bitmap for every glyph */
    return (b >> (7 - (i & 7))) & 1;
}

/* Spec 5.2: a point's coordinates from its flag's low 7 bits and 1-4 bytes
 * of the glyph stream.  The 128 flag values form six ranges; inside each,
 * the flag selects the bases of dx and dy and bit 0 / bit 1 make dx / dy
 * positive (clear means negative). */
static int read_triplet(fv_cursor *c, uint8_t flag, int32_t *dx, int32_t *dy)
{
    uint8_t b[4] = {0, 0, 0, 0};
    unsigned f;
    int32_t x, y;
    unsigned n = flag < 84 ? 1 : flag < 120 ? 2 : flag < 124 ? 3 : 4;
    for (unsigned i = 0; i < n; i++)
        if (fv_cur_u8(c, &b[i]) != FV_OK)
            return 0;
    if (flag < 10) {
        *dx = 0;
        *dy = (int32_t)(((flag >> 1) << 8) + b[0]);
        if (!(flag & 1))
            *dy = -*dy;
        return 1;
    }
    if (flag < 20) {
        f = flag - 10u;
        *dy = 0;
        *dx = (int32_t)(((f >> 1) << 8) + b[0]);
        if (!(f & 1))
            *dx = -*dx;
        return 1;
    }
    if (flag < 84) {
        f = flag - 20u;
        x = (int32_t)(1 + (f & 0x30) + (b[0] >> 4));
        y = (int32_t)(1 + ((f & 0x0C) << 2) + (b[0] & 0x0F));
    } else if (flag < 120) {
        f = flag - 84u;
        x = (int32_t)(1 + (f / 12) * 256 + b[0]);
        y = (int32_t)(1 + ((f % 12) >> 2) * 256 + b[1]);
    } else if (flag < 124) {
        f = flag - 120u;
        x = (int32_t)((unsigned)b[0] << 4 | b[1] >> 4);
        y = (int32_t)((unsigned)(b[1] & 0x0F) << 8 | b[2]);
    } else {
        f = flag - 124u;
        x = (int32_t)((unsigned)b[0] << 8 | b[1]);
        y = (int32_t)((unsigned)b[2] << 8 | b[3]);
    }
    *dx = f & 1 ? x : -x;
    *dy = f & 2 ? y : -y;
    return 1;
}

static fv_status glyf_header(glyf_decoder *d, fv_span t, fv_span rest)
{
    uint16_t reserved;
    if (fv_rd_u16(t, 0, &reserved) != FV_OK || fv_rd_u16(t, 2, &d->option_flags) != FV_OK ||
        fv_rd_u16(t, 4, &d->num_glyphs) != FV_OK || fv_rd_u16(t, 6, &d->index_format) != FV_OK)
        return FV_E_WOFF2_BAD_TRANSFORM;
    /* COMPAT(freetype): 2.12.1 takes any nonzero indexFormat for long
     * offsets (the spec allows 0 and 1); 2 decodes as 1 does. */
    /* COMPAT(freetype): the streams must fit the table as their sizes say,
     * and FreeType 2.12.1 bounds the nPoints, flag and glyph streams by
     * their sizes, but the others only by the end of the decompressed
     * data (`rest`, from the table's start): an nContour, composite, bbox
     * or instruction stream declared short is read on into what follows
     * (measured with tests/sfnt/woff_sweep.py, every size one less). */
    uint64_t pos = 8 + 4 * S_COUNT;
    for (int i = 0; i < S_COUNT; i++) {
        fv_span sub;
        int own_size = i == S_NPOINTS || i == S_FLAG || i == S_GLYPH;
        if (fv_rd_u32(t, 8 + 4 * (uint64_t)i, &d->size[i]) != FV_OK || !fv_span_has(t, pos, d->size[i]) ||
            fv_span_sub(rest, pos, own_size ? d->size[i] : rest.len - pos, &sub) != FV_OK)
            return FV_E_WOFF2_BAD_TRANSFORM;
        d->s[i] = fv_cursor_at(sub, 0);
        pos += d->size[i];
    }
    /* The bbox stream opens with one bit per glyph (in 32-bit words). */
    uint64_t bitmap_len = 4 * (((uint64_t)d->num_glyphs + 31) / 32);
    if (fv_span_sub(d->s[S_BBOX].s, 0, bitmap_len, &d->bbox_bitmap) != FV_OK)
        return FV_E_WOFF2_BAD_TRANSFORM;
    d->s[S_BBOX].pos = bitmap_len;
    d->overlap_bitmap.data = NULL;
    d->overlap_bitmap.len = 0;
    if ((d->option_flags & GLYF_OPTION_OVERLAP_BITMAP) &&
        fv_span_sub(t, pos, ((uint64_t)d->num_glyphs + 7) / 8, &d->overlap_bitmap) != FV_OK)
        return FV_E_WOFF2_BAD_TRANSFORM;
    return FV_OK;
}

/* Copies `len` bytes of the instruction stream to the output. */
static int copy_instructions(glyf_decoder *d, uint16_t len)
{
    fv_span ins;
    if (fv_span_sub(d->s[S_INSTRUCTION].s, d->s[S_INSTRUCTION].pos, len, &ins) != FV_OK)
        return 0;
    d->s[S_INSTRUCTION].pos += len;
    woff_put_u16(d->out + d->out_len, len);
    if (len)
        memcpy(d->out + d->out_len + 2, ins.data, len);
    d->out_len += 2 + (uint64_t)len;
    return 1;
}

static int read_bbox(glyf_decoder *d, int16_t box[4])
{
    for (int i = 0; i < 4; i++)
        if (fv_cur_s16(&d->s[S_BBOX], &box[i]) != FV_OK)
            return 0;
    return 1;
}

static void put_glyph_header(glyf_decoder *d, int16_t contours, const int16_t box[4])
{
    uint8_t *p = d->out + d->out_len;
    woff_put_u16(p, (uint16_t)contours);
    for (int i = 0; i < 4; i++)
        woff_put_u16(p + 2 + 2 * i, (uint16_t)box[i]);
    d->out_len += 10;
}

static fv_status composite_glyph(glyf_decoder *d, uint32_t gid, int16_t box[4])
{
    if (!bit_set(d->bbox_bitmap, gid) || !read_bbox(d, box))
        return FV_E_WOFF2_BAD_TRANSFORM; /* spec 5.1: composites carry an explicit bbox */
    put_glyph_header(d, -1, box);
    fv_cursor *c = &d->s[S_COMPOSITE];
    uint64_t start = c->pos;
    uint16_t flags;
    int have_instructions = 0;
    do {
        uint16_t glyph;
        if (fv_cur_u16(c, &flags) != FV_OK || fv_cur_u16(c, &glyph) != FV_OK)
            return FV_E_WOFF2_BAD_TRANSFORM;
        /* The component record's size, as the glyf table defines it. */
        uint64_t args = (flags & SFNT_ARG_1_AND_2_ARE_WORDS) ? 4 : 2;
        uint64_t transform = (flags & SFNT_WE_HAVE_A_SCALE)           ? 2
                             : (flags & SFNT_WE_HAVE_AN_X_AND_Y_SCALE) ? 4
                             : (flags & SFNT_WE_HAVE_A_TWO_BY_TWO)     ? 8
                                                                      : 0;
        if (fv_cur_skip(c, args + transform) != FV_OK)
            return FV_E_WOFF2_BAD_TRANSFORM;
        if (flags & SFNT_WE_HAVE_INSTRUCTIONS)
            have_instructions = 1;
    } while (flags & SFNT_MORE_COMPONENTS);
    uint64_t len = c->pos - start;
    memcpy(d->out + d->out_len, c->s.data + start, (size_t)len);
    d->out_len += len;
    if (have_instructions) {
        uint16_t ins_len;
        if (!read_255u16(&d->s[S_GLYPH], &ins_len) || !copy_instructions(d, ins_len))
            return FV_E_WOFF2_BAD_TRANSFORM;
    }
    return FV_OK;
}

/* One coordinate delta in the glyf table's compact form: returns the flag
 * bits and appends 0, 1 or 2 bytes to *p. */
static uint8_t encode_delta(int32_t delta, uint8_t short_bit, uint8_t same_bit, uint8_t **p)
{
    if (delta == 0)
        return same_bit;
    if (delta >= -255 && delta <= 255) {
        *(*p)++ = (uint8_t)(delta < 0 ? -delta : delta);
        return (uint8_t)(short_bit | (delta > 0 ? same_bit : 0));
    }
    woff_put_u16(*p, (uint16_t)(int16_t)delta);
    *p += 2;
    return 0;
}

static fv_status simple_glyph(glyf_decoder *d, uint32_t gid, int16_t contours, int16_t box[4])
{
    /* Header and end points are written in place; the box is patched in
     * once the points are known (when not explicit). */
    uint64_t header_at = d->out_len;
    d->out_len += 10;
    uint32_t points = 0;
    for (int32_t k = 0; k < contours; k++) {
        uint16_t n;
        if (!read_255u16(&d->s[S_NPOINTS], &n))
            return FV_E_WOFF2_BAD_TRANSFORM;
        points += n;
        if (points > GLYF_MAX_POINTS)
            return FV_E_WOFF2_BAD_TRANSFORM;
        /* A first contour of no points wraps to 0xFFFF, as the original's
         * end point would read: the sfnt reader refuses such a glyph. */
        woff_put_u16(d->out + d->out_len, (uint16_t)(points - 1));
        d->out_len += 2;
    }
    int32_t x = 0, y = 0;
    int16_t x_min = 0, y_min = 0, x_max = 0, y_max = 0;
    for (uint32_t p = 0; p < points; p++) {
        uint8_t flag;
        int32_t dx, dy;
        if (fv_cur_u8(&d->s[S_FLAG], &flag) != FV_OK || !read_triplet(&d->s[S_GLYPH], flag & 0x7F, &dx, &dy))
            return FV_E_WOFF2_BAD_TRANSFORM;
        x += dx;
        y += dy;
        /* glyf stores 16-bit coordinates: a point outside them has no
         * original to reconstruct. */
        if (x < INT16_MIN || x > INT16_MAX || y < INT16_MIN || y > INT16_MAX)
            return FV_E_WOFF2_BAD_TRANSFORM;
        d->xs[p] = (int16_t)x;
        d->ys[p] = (int16_t)y;
        d->flags[p] = (flag & 0x80) ? 0 : GLYF_FLAG_ON_CURVE; /* spec 5.2: bit 7 set = off curve */
        if (p == 0 || x < x_min) x_min = (int16_t)x;
        if (p == 0 || x > x_max) x_max = (int16_t)x;
        if (p == 0 || y < y_min) y_min = (int16_t)y;
        if (p == 0 || y > y_max) y_max = (int16_t)y;
    }
    uint16_t ins_len;
    if (!read_255u16(&d->s[S_GLYPH], &ins_len) || !copy_instructions(d, ins_len))
        return FV_E_WOFF2_BAD_TRANSFORM;
    if (bit_set(d->bbox_bitmap, gid)) {
        if (!read_bbox(d, box))
            return FV_E_WOFF2_BAD_TRANSFORM;
    } else {
        box[0] = x_min;
        box[1] = y_min;
        box[2] = x_max;
        box[3] = y_max;
    }
    uint64_t end = d->out_len;
    d->out_len = header_at;
    put_glyph_header(d, contours, box);
    d->out_len = end;

    /* Coordinates after the flags: write them behind the largest the flags
     * can take (one byte a point), then close the gap. */
    uint8_t *flags_at = d->out + d->out_len;
    uint8_t *xy = flags_at + points, *p = xy;
    int32_t prev = 0;
    for (uint32_t i = 0; i < points; i++) {
        d->flags[i] |= encode_delta(d->xs[i] - prev, GLYF_FLAG_X_SHORT, GLYF_FLAG_X_SAME_OR_POSITIVE, &p);
        prev = d->xs[i];
    }
    prev = 0;
    for (uint32_t i = 0; i < points; i++) {
        d->flags[i] |= encode_delta(d->ys[i] - prev, GLYF_FLAG_Y_SHORT, GLYF_FLAG_Y_SAME_OR_POSITIVE, &p);
        prev = d->ys[i];
    }
    if (points > 0 && d->overlap_bitmap.len > 0 && bit_set(d->overlap_bitmap, gid))
        d->flags[0] |= GLYF_FLAG_OVERLAP_SIMPLE;
    uint8_t *f = flags_at;
    for (uint32_t i = 0; i < points;) {
        uint32_t run = 1;
        while (i + run < points && run < 256 && d->flags[i + run] == d->flags[i])
            run++;
        if (run > 2) {
            *f++ = d->flags[i] | GLYF_FLAG_REPEAT;
            *f++ = (uint8_t)(run - 1);
        } else {
            for (uint32_t k = 0; k < run; k++)
                *f++ = d->flags[i];
        }
        i += run;
    }
    size_t xy_len = (size_t)(p - xy);
    memmove(f, xy, xy_len);
    d->out_len = (uint64_t)(f - d->out) + xy_len;
    return FV_OK;
}

/* Rebuilds glyf and loca from the transformed glyf (spec 5.1-5.3). */
static fv_status reconstruct_glyf(w2_file *w, uint32_t glyf_index, w2_table *loca, fv_error *err)
{
    w2_table *glyf = &w->tables[glyf_index];
    glyf_decoder d;
    memset(&d, 0, sizeof d);
    fv_span rest = table_stream(w, glyf);
    rest.len = w->stream_total - glyf->stream_offset; /* see glyf_header */
    fv_status st = glyf_header(&d, table_stream(w, glyf), rest);
    if (st != FV_OK)
        return sfnt_fail(err, st, SFNT_TAG_glyf, 0, "transformed glyf header or stream sizes");
    /* COMPAT(freetype): head.indexToLocFormat is not compared with
     * indexFormat, as FreeType 2.12.1 does not compare them: the head is
     * decoded as stored, and the sfnt reader then reads the rebuilt loca
     * in head's format (a head that disagrees gives wrong glyph offsets
     * in both engines).  The loca length check below still refuses an
     * indexFormat that disagrees with the directory. */
    /* The largest glyf these streams can produce: per glyph a 10-byte
     * header, a 2-byte instruction length and 3 bytes of padding; per
     * contour (at least one nPoints byte each) a 2-byte end point; per point
     * (one flag byte each) a flag and up to 4 coordinate bytes; plus the
     * instruction and composite bytes as they are; each stream counted as
     * far as it can be read (see glyf_header). */
    d.out_cap = 15 * (uint64_t)d.num_glyphs + 2 * (uint64_t)d.s[S_NPOINTS].s.len +
                5 * (uint64_t)d.s[S_FLAG].s.len + d.s[S_INSTRUCTION].s.len + d.s[S_COMPOSITE].s.len;
    if (d.out_cap > WOFF_MAX_SFNT_SIZE)
        return sfnt_fail(err, FV_E_WOFF_TOO_LARGE, SFNT_TAG_glyf, 8, "glyf streams beyond the hard cap");
    uint32_t loca_entry = d.index_format ? 4 : 2;
    loca->length = ((uint32_t)d.num_glyphs + 1) * loca_entry;
    /* COMPAT(freetype): the loca rebuilt must be as long as the directory
     * says (spec 5.3 only says it SHOULD), as FreeType 2.12.1 checks: a
     * numGlyphs or indexFormat that disagrees with it is refused. */
    if (loca->orig_length != loca->length)
        return sfnt_fail(err, FV_E_WOFF2_BAD_TRANSFORM, SFNT_TAG_loca, loca->entry_offset,
                         "loca origLength is not what numGlyphs and indexFormat make");
    glyf->x_min_count = d.num_glyphs;
    d.out = fv_mem_alloc(w->mem, d.out_cap ? (size_t)d.out_cap : 1);
    loca->owned = fv_mem_alloc(w->mem, loca->length);
    glyf->x_mins = fv_mem_array(w->mem, d.num_glyphs ? d.num_glyphs : 1, sizeof *glyf->x_mins);
    d.xs = fv_mem_array(w->mem, GLYF_MAX_POINTS, sizeof *d.xs);
    d.ys = fv_mem_array(w->mem, GLYF_MAX_POINTS, sizeof *d.ys);
    d.flags = fv_mem_alloc(w->mem, GLYF_MAX_POINTS);
    glyf->owned = d.out;
    if (!d.out || !loca->owned || !glyf->x_mins || !d.xs || !d.ys || !d.flags) {
        st = sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_glyf, FV_NO_VALUE, "reconstructed glyf");
        goto done;
    }
    for (uint32_t gid = 0; gid < d.num_glyphs; gid++) {
        uint64_t start = d.out_len;
        if (loca_entry == 4)
            woff_put_u32(loca->owned + 4 * (uint64_t)gid, (uint32_t)start);
        else
            woff_put_u16(loca->owned + 2 * (uint64_t)gid, (uint16_t)(start / 2));
        int16_t contours;
        int16_t box[4] = {0, 0, 0, 0};
        if (fv_cur_s16(&d.s[S_NCONTOUR], &contours) != FV_OK) {
            st = FV_E_WOFF2_BAD_TRANSFORM;
        } else if (contours == 0) {
            /* Spec 5.1: an empty glyph has no explicit bbox. */
            st = bit_set(d.bbox_bitmap, gid) ? FV_E_WOFF2_BAD_TRANSFORM : FV_OK;
        } else if (contours == -1) {
            st = composite_glyph(&d, gid, box);
        } else if (contours > 0) {
            st = simple_glyph(&d, gid, contours, box);
        } else {
            st = FV_E_WOFF2_BAD_TRANSFORM;
        }
        if (st != FV_OK) {
            sfnt_fail(err, st, SFNT_TAG_glyf, FV_NO_VALUE, "transformed glyph data inconsistent");
            err->glyph = gid;
            goto done;
        }
        glyf->x_mins[gid] = box[0];
        while (d.out_len & 3) /* 4-byte aligned glyphs (the buffer is zeroed lazily here) */
            d.out[d.out_len++] = 0;
        if (loca_entry == 2 && d.out_len / 2 > 0xFFFF) {
            st = sfnt_fail(err, FV_E_WOFF2_BAD_TRANSFORM, SFNT_TAG_loca, FV_NO_VALUE,
                           "reconstructed glyf too long for the short loca format");
            goto done;
        }
    }
    if (loca_entry == 4)
        woff_put_u32(loca->owned + 4 * (uint64_t)d.num_glyphs, (uint32_t)d.out_len);
    else
        woff_put_u16(loca->owned + 2 * (uint64_t)d.num_glyphs, (uint16_t)(d.out_len / 2));
    glyf->length = (uint32_t)d.out_len;
    if (glyf->orig_length < glyf->length)
        glyf->length = glyf->orig_length;
    glyf->done = loca->done = 1;
    loca->paired = glyf_index;
    st = FV_OK;
done:
    fv_mem_free(w->mem, d.xs);
    fv_mem_free(w->mem, d.ys);
    fv_mem_free(w->mem, d.flags);
    return st;
}

/* Rebuilds hmtx from its transformed form (spec 5.4): advances always,
 * left side bearings either stored or equal to the glyph's xMin. */
static fv_status reconstruct_hmtx(w2_file *w, w2_table *hmtx, const w2_table *glyf,
                                  const w2_font *font, fv_error *err)
{
    const w2_ref *maxp = font_table(font, SFNT_TAG_maxp), *hhea = font_table(font, SFNT_TAG_hhea);
    uint16_t num_glyphs, num_metrics;
    uint8_t flags;
    fv_span t = table_stream(w, hmtx);
    /* COMPAT(freetype): 2.12.1 reads a transformed hmtx to the end of the
     * decompressed stream, not of its transformLength: a short table
     * takes its missing metrics from the bytes after it (measured on
     * Liberation Sans with half its transformed hmtx).  Still bounded by
     * the stream; past it the font is refused, as FreeType refuses it. */
    t.len = w->stream_total - hmtx->stream_offset;
    if (!maxp || !hhea ||
        fv_rd_u16(table_stream(w, &w->tables[maxp->index]), 4, &num_glyphs) != FV_OK ||
        fv_rd_u16(table_stream(w, &w->tables[hhea->index]), 34, &num_metrics) != FV_OK)
        return sfnt_fail(err, FV_E_WOFF2_BAD_TRANSFORM, SFNT_TAG_hmtx, FV_NO_VALUE,
                         "transformed hmtx without maxp.numGlyphs and hhea.numberOfHMetrics");
    if (fv_rd_u8(t, 0, &flags) != FV_OK || (flags & 0xFC) || !(flags & 3))
        return sfnt_fail(err, FV_E_WOFF2_BAD_TRANSFORM, SFNT_TAG_hmtx, 0, "bad transformed hmtx flags");
    if (num_metrics == 0 || num_metrics > num_glyphs || num_glyphs > glyf->x_min_count)
        return sfnt_fail(err, FV_E_WOFF2_BAD_TRANSFORM, SFNT_TAG_hmtx, FV_NO_VALUE,
                         "numberOfHMetrics, numGlyphs and glyf disagree");
    uint32_t rest = (uint32_t)num_glyphs - num_metrics;
    hmtx->length = 4 * (uint32_t)num_metrics + 2 * rest;
    hmtx->owned = fv_mem_alloc(w->mem, hmtx->length);
    if (!hmtx->owned)
        return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_hmtx, FV_NO_VALUE, "reconstructed hmtx");
    uint64_t lsb_at = 1 + 2 * (uint64_t)num_metrics;                     /* proportional lsbs */
    uint64_t mono_at = lsb_at + ((flags & 1) ? 0 : 2 * (uint64_t)num_metrics); /* the rest */
    for (uint32_t g = 0; g < num_glyphs; g++) {
        uint16_t advance = 0;
        int16_t lsb = glyf->x_mins[g];
        fv_status st = FV_OK;
        if (g < num_metrics) {
            st = fv_rd_u16(t, 1 + 2 * (uint64_t)g, &advance);
            if (st == FV_OK && !(flags & 1))
                st = fv_rd_s16(t, lsb_at + 2 * (uint64_t)g, &lsb);
            woff_put_u16(hmtx->owned + 4 * (uint64_t)g, advance);
            woff_put_u16(hmtx->owned + 4 * (uint64_t)g + 2, (uint16_t)lsb);
        } else {
            if (!(flags & 2))
                st = fv_rd_s16(t, mono_at + 2 * (uint64_t)(g - num_metrics), &lsb);
            woff_put_u16(hmtx->owned + 4 * (uint64_t)num_metrics + 2 * (uint64_t)(g - num_metrics),
                         (uint16_t)lsb);
        }
        if (st != FV_OK)
            return sfnt_fail(err, FV_E_WOFF2_BAD_TRANSFORM, SFNT_TAG_hmtx, FV_NO_VALUE,
                             "transformed hmtx runs past the decompressed tables");
    }
    /* COMPAT(freetype): the decoded hmtx is origLength long, as FreeType
     * 2.12.1 writes it: cut to a shorter origLength (the sfnt reader then
     * treats it as any short hmtx), refused when origLength asks for more
     * than the transform rebuilt. */
    if (hmtx->orig_length > hmtx->length)
        return sfnt_fail(err, FV_E_WOFF2_BAD_TRANSFORM, SFNT_TAG_hmtx, hmtx->entry_offset,
                         "hmtx origLength beyond what its transform rebuilds");
    hmtx->length = hmtx->orig_length;
    hmtx->done = 1;
    return FV_OK;
}

/* Undoes the transforms each font's tables use.  A table shared by fonts
 * of a collection is rebuilt once; sharing a transformed loca or hmtx with
 * a different glyf has no single reconstruction and is refused. */
static fv_status reconstruct(w2_file *w, fv_error *err)
{
    for (uint32_t f = 0; f < w->num_fonts; f++) {
        const w2_font *font = &w->fonts[f];
        const w2_ref *glyf = font_table(font, SFNT_TAG_glyf), *loca = font_table(font, SFNT_TAG_loca);
        const w2_ref *hmtx = font_table(font, SFNT_TAG_hmtx);
        int glyf_t = glyf && w->tables[glyf->index].transformed;
        int loca_t = loca && w->tables[loca->index].transformed;
        /* COMPAT(freetype): a font with a loca and no glyf is refused, as
         * FreeType 2.12.1 refuses it (the sfnt reader alone would open it
         * and find every glyph empty). */
        if (loca && !glyf)
            return sfnt_fail(err, FV_E_WOFF_BAD_DIRECTORY, SFNT_TAG_loca, w->tables[loca->index].entry_offset,
                             "loca without glyf");
        if (glyf_t != loca_t)
            return sfnt_fail(err, FV_E_WOFF2_BAD_TRANSFORM, glyf_t ? SFNT_TAG_loca : SFNT_TAG_glyf,
                             FV_NO_VALUE, "glyf and loca must both be transformed or neither");
        if (glyf_t) {
            w2_table *lt = &w->tables[loca->index];
            if (!w->tables[glyf->index].done && !lt->done) {
                fv_status st = reconstruct_glyf(w, glyf->index, lt, err);
                if (st != FV_OK)
                    return st;
            } else if (!w->tables[glyf->index].done || !lt->done || lt->paired != glyf->index) {
                return sfnt_fail(err, FV_E_WOFF2_BAD_COLLECTION, SFNT_TAG_loca, FV_NO_VALUE,
                                 "transformed loca shared with a different glyf");
            }
        }
        if (hmtx && w->tables[hmtx->index].transformed) {
            w2_table *ht = &w->tables[hmtx->index];
            if (!glyf_t)
                return sfnt_fail(err, FV_E_WOFF2_BAD_TRANSFORM, SFNT_TAG_hmtx, FV_NO_VALUE,
                                 "transformed hmtx needs a transformed glyf");
            if (!ht->done) {
                fv_status st = reconstruct_hmtx(w, ht, &w->tables[glyf->index], font, err);
                if (st != FV_OK)
                    return st;
                ht->paired = glyf->index;
            } else if (ht->paired != glyf->index) {
                return sfnt_fail(err, FV_E_WOFF2_BAD_COLLECTION, SFNT_TAG_hmtx, FV_NO_VALUE,
                                 "transformed hmtx shared with a different glyf");
            }
        }
    }
    /* A transformed table no font uses has nothing to be rebuilt from. */
    for (uint32_t i = 0; i < w->num_tables; i++)
        if (w->tables[i].transformed && !w->tables[i].done)
            return sfnt_fail(err, FV_E_WOFF2_BAD_COLLECTION, w->tables[i].tag, w->tables[i].entry_offset,
                             "transformed table used by no font");
    return FV_OK;
}

/* Lays out and writes the sfnt (or TrueType Collection). */
static fv_status write_sfnt(w2_file *w, uint8_t **out, size_t *out_len, fv_error *err)
{
    int ttc = w->ttc_version != 0;
    uint64_t size = ttc ? 12 + 4 * (uint64_t)w->num_fonts + (w->ttc_version == 0x00020000u ? 12 : 0) : 0;
    for (uint32_t f = 0; f < w->num_fonts; f++)
        size += SFNT_HEADER_SIZE + (uint64_t)w->fonts[f].num_tables * SFNT_RECORD_SIZE;
    for (uint32_t i = 0; i < w->num_tables; i++) {
        w->tables[i].out_offset = (uint32_t)size; /* size stays below the cap (checked below) */
        size += woff_pad4(table_output(w, &w->tables[i]).len);
        if (size > WOFF_MAX_SFNT_SIZE)
            return sfnt_fail(err, FV_E_WOFF_TOO_LARGE, w->tables[i].tag, FV_NO_VALUE,
                             "decoded font beyond the hard cap");
    }
    uint8_t *sfnt = fv_mem_calloc(w->mem, (size_t)size);
    if (!sfnt)
        return sfnt_fail(err, FV_E_NOMEM, WOFF_TAG_wOF2, FV_NO_VALUE, "decoded WOFF2 font");
    uint64_t dir = 0;
    if (ttc) {
        woff_put_u32(sfnt, TAG_ttcf);
        woff_put_u32(sfnt + 4, w->ttc_version);
        woff_put_u32(sfnt + 8, w->num_fonts);
        dir = 12 + 4 * (uint64_t)w->num_fonts + (w->ttc_version == 0x00020000u ? 12 : 0);
    }
    for (uint32_t f = 0; f < w->num_fonts; f++) {
        const w2_font *font = &w->fonts[f];
        if (ttc)
            woff_put_u32(sfnt + 12 + 4 * (uint64_t)f, (uint32_t)dir);
        woff_put_sfnt_header(sfnt + dir, font->flavor, font->num_tables);
        for (uint32_t i = 0; i < font->num_tables; i++) {
            const w2_table *t = &w->tables[font->refs[i].index];
            fv_span data = table_output(w, t);
            woff_put_table_record(sfnt + dir + SFNT_HEADER_SIZE + (uint64_t)i * SFNT_RECORD_SIZE,
                                  t->tag, data.data, t->out_offset, (uint32_t)data.len);
        }
        dir += SFNT_HEADER_SIZE + (uint64_t)font->num_tables * SFNT_RECORD_SIZE;
    }
    for (uint32_t i = 0; i < w->num_tables; i++) {
        fv_span data = table_output(w, &w->tables[i]);
        if (data.len)
            memcpy(sfnt + w->tables[i].out_offset, data.data, data.len);
    }
    *out = sfnt;
    *out_len = (size_t)size;
    return FV_OK;
}

fv_status sfnt_woff2_decode(fv_span file, fv_mem *mem, uint8_t **out, size_t *out_len,
                            fv_error *err)
{
    w2_file w;
    memset(&w, 0, sizeof w);
    w.file = file;
    w.mem = mem;
    fv_status st = read_directories(&w, err);
    if (st == FV_OK)
        st = decompress(&w, err);
    if (st == FV_OK)
        st = reconstruct(&w, err);
    if (st == FV_OK)
        st = write_sfnt(&w, out, out_len, err);
    w2_free(&w);
    return st;
}

fv_status sfnt_woff2_count_faces(fv_span file, uint32_t *count, fv_error *err)
{
    /* The directories alone, parsed with a private accountant (the caller
     * has no font yet). */
    fv_mem mem;
    fv_mem_init(&mem, NULL);
    w2_file w;
    memset(&w, 0, sizeof w);
    w.file = file;
    w.mem = &mem;
    fv_status st = read_directories(&w, err);
    if (st == FV_OK)
        *count = w.num_fonts;
    w2_free(&w);
    return st;
}
