/* The sfnt tables a Graphite face reads besides its own (head, hhea, hmtx,
 * maxp, cmap, glyf, loca), as graphite2 1.3.14 reads them, and which of
 * their faults make it refuse the face.
 *
 * graphite2 does not share FreeType's leniency: it gets each table from
 * its caller whole (the conformance runner, like HarfBuzz, hands it the
 * first directory record with the tag, or nothing when that record runs
 * past the end of the file) and refuses the face for faults FreeType
 * ignores.  Every rule below was measured against graphite2 with
 * gr_make_face_with_ops + gr_face_preloadAll and gr_make_seg, on corpus
 * fonts damaged one way at a time (conformance/graphite/header_sweep.py,
 * variant "sfnt"; fuzz/FINDINGS.md F-25 and F-28). */
#include <string.h>

#include "common/check.h"
#include "graphite/face.h"

/* The tags graphite2 needs besides its own. */
#define TAG_head FV_TAG('h', 'e', 'a', 'd')
#define TAG_hhea FV_TAG('h', 'h', 'e', 'a')
#define TAG_hmtx FV_TAG('h', 'm', 't', 'x')
#define TAG_maxp FV_TAG('m', 'a', 'x', 'p')
#define TAG_cmap FV_TAG('c', 'm', 'a', 'p')
#define TAG_glyf FV_TAG('g', 'l', 'y', 'f')
#define TAG_loca FV_TAG('l', 'o', 'c', 'a')

/* Sizes below which graphite2 takes a table as absent: every table needs
 * 4 bytes; these need their whole fixed header (head up to
 * glyphDataFormat, hhea and a version-1.0 maxp whole, cmap's header with
 * one encoding record, one glyph header). */
#define MIN_TABLE 4u
#define MIN_HEAD 54u
#define MIN_HHEA 36u
#define MIN_MAXP 32u
#define MIN_CMAP 12u
#define MIN_GLYF 10u

int grv_table(const sfnt_font *sf, uint32_t tag, fv_span *out)
{
    out->data = NULL;
    out->len = 0;
    /* COMPAT(graphite2): the first record with the tag decides, as the
     * caller's table lookup hands it over: past the end of the file (or
     * shorter than 4 bytes) the table is absent, even when a later record
     * with the same tag would do; a zero-length record is absent too. */
    for (uint32_t i = 0; i < sf->records_read; i++) {
        uint64_t rec = (uint64_t)sf->dir_offset + 12 + (uint64_t)i * 16;
        uint32_t t, off, len;
        if (fv_rd_u32(sf->file, rec, &t) != FV_OK || fv_rd_u32(sf->file, rec + 8, &off) != FV_OK ||
            fv_rd_u32(sf->file, rec + 12, &len) != FV_OK)
            return 0;
        if (t != tag)
            continue;
        fv_span s;
        if (fv_span_sub(sf->file, off, len, &s) != FV_OK || s.len < MIN_TABLE)
            return 0;
        *out = s;
        return 1;
    }
    return 0;
}

static fv_status refuse(fv_error *err, uint32_t tag, uint64_t off, const char *why)
{
    return sfnt_fail(err, FV_E_GR_BAD_SFNT, tag, off, why);
}

/* graphite2's loca lookup: the offset of glyph g's outline, or -1 when it
 * has none (an empty glyph: the next entry is equal) and -2 when loca has
 * no entry after g's. */
static int64_t loca_offset(const grv_sfnt_view *v, uint32_t g)
{
    if (v->long_loca) {
        uint64_t n = v->loca.len >> 2;
        if (v->loca.len < 4 || (uint64_t)g + 1 >= n)
            return -2;
        uint32_t a = 0, b = 0;
        (void)fv_rd_u32(v->loca, (uint64_t)g * 4, &a);
        (void)fv_rd_u32(v->loca, (uint64_t)g * 4 + 4, &b);
        return a == b ? -1 : (int64_t)a;
    }
    uint64_t n = v->loca.len >> 1;
    if (v->loca.len < 2 || (uint64_t)g + 1 >= n)
        return -2;
    uint16_t a = 0, b = 0;
    (void)fv_rd_u16(v->loca, (uint64_t)g * 2, &a);
    (void)fv_rd_u16(v->loca, (uint64_t)g * 2 + 2, &b);
    return a == b ? -1 : 2 * (int64_t)a;
}

/* COMPAT(graphite2): every table it reads comes through its table wrapper
 * (below), the sfnt ones with the threshold of a table without a version,
 * 0xFFFFFFFF.  head, hhea, maxp and cmap so wrapped fail their version
 * checks whatever the wrapper makes of them; hmtx, glyf and loca have no
 * version: one of 20 bytes or more starting with 0xFFFFFFFF is LZ4
 * decompressed, taken as it is under scheme 0, absent otherwise (measured
 * on small.ttf: an LZ4 hmtx gives graphite2 advances of 500 from its
 * decompressed bytes; scheme 2 or 31 fails the face for want of hmtx; a
 * loca whose first three entries are 0xFFFF has scheme 31, F-39). */
static fv_status wrapped_table(fv_gr_face *face, uint32_t tag, unsigned slot, fv_span *out,
                               fv_error *err)
{
    const char *dropped = NULL;
    fv_status st = grv_gr_table(face, tag, 0xffffffffu, slot, out, &dropped, err);
    if (st == FV_OK && dropped) {
        out->data = NULL;
        out->len = 0;
    }
    return st;
}

fv_status grv_sfnt_tables(fv_gr_face *face, fv_error *err)
{
    const sfnt_font *sf = face->sfnt;
    grv_sfnt_view *v = &face->tables;
    uint32_t u32;
    uint16_t u16;
    /* head: version 1.0, the magic number, glyphDataFormat 0 and a known
     * indexToLocFormat (whatever FreeType would make of the rest) */
    if (!grv_table(sf, TAG_head, &v->head) || v->head.len < MIN_HEAD)
        return refuse(err, TAG_head, 0, "graphite2 needs a head table of 54 bytes");
    (void)fv_rd_u32(v->head, 0, &u32);
    if (u32 != 0x00010000u)
        return refuse(err, TAG_head, 0, "graphite2 needs head version 1.0");
    (void)fv_rd_u32(v->head, 12, &u32);
    if (u32 != 0x5F0F3CF5u)
        return refuse(err, TAG_head, 12, "graphite2 needs head's magic number");
    (void)fv_rd_u16(v->head, 52, &u16);
    if (u16 != 0)
        return refuse(err, TAG_head, 52, "graphite2 needs glyphDataFormat 0");
    (void)fv_rd_u16(v->head, 50, &u16);
    if (u16 > 1)
        return refuse(err, TAG_head, 50, "graphite2 needs indexToLocFormat 0 or 1");
    v->long_loca = (uint8_t)u16;
    (void)fv_rd_u16(v->head, 18, &u16);
    if (u16 == 0)
        return refuse(err, TAG_head, 18, "unitsPerEm is 0");
    /* hhea: version 1.0 exactly and metricDataFormat 0 */
    if (!grv_table(sf, TAG_hhea, &v->hhea) || v->hhea.len < MIN_HHEA)
        return refuse(err, TAG_hhea, 0, "graphite2 needs an hhea table of 36 bytes");
    (void)fv_rd_u32(v->hhea, 0, &u32);
    if (u32 != 0x00010000u)
        return refuse(err, TAG_hhea, 0, "graphite2 needs hhea version 1.0");
    (void)fv_rd_u16(v->hhea, 32, &u16);
    if (u16 != 0)
        return refuse(err, TAG_hhea, 32, "graphite2 needs metricDataFormat 0");
    (void)fv_rd_u16(v->hhea, 34, &v->num_long_metrics);
    (void)fv_rd_u16(v->head, 18, &face->upem);
    (void)fv_rd_s16(v->hhea, 6, &face->descent);
    fv_status st = wrapped_table(face, TAG_hmtx, GRV_SLOT_HMTX, &v->hmtx, err);
    if (st != FV_OK)
        return st;
    if (!v->hmtx.data)
        return refuse(err, TAG_hmtx, 0, "graphite2 needs an hmtx table");
    /* glyf and loca: both or neither (a glyf shorter than one glyph header
     * counts as absent) */
    st = wrapped_table(face, TAG_glyf, GRV_SLOT_GLYF, &v->glyf, err);
    if (st == FV_OK)
        st = wrapped_table(face, TAG_loca, GRV_SLOT_LOCA, &v->loca, err);
    if (st != FV_OK)
        return st;
    int has_glyf = v->glyf.data && v->glyf.len >= MIN_GLYF;
    if (!has_glyf)
        v->glyf.len = 0;
    int has_loca = v->loca.data != NULL;
    if (has_glyf != has_loca)
        return refuse(err, has_glyf ? TAG_loca : TAG_glyf, 0,
                      "graphite2 needs glyf and loca together");
    /* maxp: version 1.0 whole (0.5 is refused) */
    if (!grv_table(sf, TAG_maxp, &v->maxp) || v->maxp.len < MIN_MAXP)
        return refuse(err, TAG_maxp, 0, "graphite2 needs a version 1.0 maxp table");
    (void)fv_rd_u32(v->maxp, 0, &u32);
    if (u32 != 0x00010000u)
        return refuse(err, TAG_maxp, 0, "graphite2 needs maxp version 1.0");
    (void)fv_rd_u16(v->maxp, 4, &u16);
    v->maxp_glyphs = u16;
    /* loca must have an entry after the last glyph's (for 0 glyphs graphite2
     * asks for glyph 65535's) */
    FV_TESTCASE(has_glyf && v->loca.len >> (v->long_loca ? 2 : 1) == (uint64_t)v->maxp_glyphs + 1);
    if (has_glyf && loca_offset(v, (uint16_t)(v->maxp_glyphs - 1)) == -2)
        return refuse(err, TAG_loca, 0, "loca has fewer than numGlyphs + 1 entries");
    /* cmap: version 0 and room for one encoding record; what its subtables
     * hold does not refuse the face */
    if (!grv_table(sf, TAG_cmap, &v->cmap) || v->cmap.len < MIN_CMAP)
        return refuse(err, TAG_cmap, 0, "graphite2 needs a cmap table of 12 bytes");
    (void)fv_rd_u16(v->cmap, 0, &u16);
    if (u16 != 0)
        return refuse(err, TAG_cmap, 0, "graphite2 needs cmap version 0");
    return FV_OK;
}

fv_status grv_glyph_metrics(const fv_gr_face *face, uint32_t g, grv_glyph *gl, fv_error *err)
{
    const grv_sfnt_view *v = &face->tables;
    gl->advance = 0;
    gl->x_min = gl->y_min = gl->x_max = gl->y_max = 0;
    if (g >= v->maxp_glyphs)
        return FV_OK; /* pseudo glyphs: attributes only */
    if (v->glyf.len) {
        /* COMPAT(graphite2): a glyph's box is read wherever loca says its
         * outline starts, if a glyph header fits before the last 10 bytes
         * of glyf (its length is not checked against the next entry); a box
         * turned inside out fails the glyph and with it the face. */
        int64_t off = loca_offset(v, g);
        FV_TESTCASE(off >= 0 && (uint64_t)off + 1 == v->glyf.len - MIN_GLYF); /* the last box glyf holds */
        if (off >= 0 && (uint64_t)off < v->glyf.len - MIN_GLYF) {
            int16_t b[4];
            for (unsigned k = 0; k < 4; k++)
                (void)fv_rd_s16(v->glyf, (uint64_t)off + 2 + 2 * k, &b[k]);
            if (b[0] > b[2] || b[1] > b[3])
                return refuse(err, TAG_glyf, (uint64_t)off + 2, "a glyph's bounding box is inside out");
            gl->x_min = b[0];
            gl->y_min = b[1];
            gl->x_max = b[2];
            gl->y_max = b[3];
        }
    }
    /* COMPAT(graphite2): a long metric counts only when it lies inside
     * hmtx; past the long metrics a glyph takes the last long advance only
     * when its side bearing ends strictly before the end of hmtx (the last
     * glyph of an hmtx of exactly the right size gets 0; KD-21, measured on
     * AndikaNewBasic-R with hmtx cut by 1 to 8 bytes). */
    uint32_t nlong = v->num_long_metrics;
    if (g < nlong) {
        if ((uint64_t)(g + 1) * 4 <= v->hmtx.len)
            (void)fv_rd_u16(v->hmtx, (uint64_t)g * 4, &gl->advance);
    } else if (nlong && (uint64_t)nlong * 4 + (uint64_t)(g - nlong) * 2 < v->hmtx.len - 2) {
        (void)fv_rd_u16(v->hmtx, (uint64_t)(nlong - 1) * 4, &gl->advance);
    }
    return FV_OK;
}

/* ---- graphite2's own tables: the compression wrapper ----
 *
 * graphite2 hands every table of its own through one wrapper that may
 * decompress it, and whatever the wrapper cannot make of a table leaves the
 * table absent; what absence means is the reader's business (no Feat is no
 * features, no Silf no face).  Each rule below was measured against
 * graphite2 1.3.14 on Awami Nastaliq (LZ4 Silf and Glat), small.ttf and
 * charis with one factor changed at a time (fuzz/FINDINGS.md F-31, F-32). */

/* The header the wrapper looks at: version, then the scheme in the top 5
 * bits of the second u32 and the decompressed size in the other 27. */
#define COMPRESSED_HEADER 8u
/* Tables shorter than this are taken as they are, whatever the header says
 * (measured: a Sill of version 0xFFFFFFFF with an LZ4 scheme is refused at
 * 19 bytes, absent at 20). */
#define MIN_COMPRESSIBLE 20u
#define SCHEME_NONE 0u
#define SCHEME_LZ4 1u
/* Every LZ4 match leaves this many bytes of output for literals. */
#define LZ4_LAST_LITERALS 5u
/* A sequence is the block's last when fewer bytes than this follow its
 * literals; they are ignored. */
#define LZ4_FINAL_TAIL 8u

/* An LZ4 length's extension bytes (the block format: 255 means another
 * byte follows); 0 when they run past the input. */
static int lz4_length(const uint8_t *in, size_t in_len, size_t *pos, size_t *len)
{
    uint8_t b;
    do {
        if (*pos >= in_len)
            return 0;
        b = in[(*pos)++];
        *len += b;
    } while (b == 255);
    return 1;
}

/* Decodes an LZ4 block as graphite2 accepts one, into out (out_len bytes;
 * NULL counts without writing).  Returns the bytes produced, or -1 where
 * graphite2 gives up.  graphite2 decodes with its own code, not liblz4,
 * and accepts blocks liblz4 refuses and the reverse, so the project's
 * liblz4 cannot make this decision (measured):
 *   - the compressed stream must be shorter than its output;
 *   - a sequence is the last when fewer than 8 bytes follow its literals,
 *     and those bytes are ignored (up to 7 trailing bytes of anything);
 *   - a match must leave 5 bytes of output (LZ4's last literals), but may
 *     start within the last 12 (liblz4 refuses that);
 *   - a match offset of 0 or before the start fails (liblz4 takes 0);
 *   - literals or a match past the output, or lengths past the input, fail. */
static int64_t lz4_block(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len)
{
    if (in_len >= out_len)
        return -1;
    size_t pos = 0, done = 0;
    for (;;) {
        if (pos >= in_len)
            return -1;
        uint8_t token = in[pos++];
        size_t lit = token >> 4;
        if (lit == 15 && !lz4_length(in, in_len, &pos, &lit))
            return -1;
        if (lit > in_len - pos || lit > out_len - done)
            return -1;
        if (out)
            memcpy(out + done, in + pos, lit);
        pos += lit;
        done += lit;
        if (in_len - pos < LZ4_FINAL_TAIL)
            return (int64_t)done;
        size_t offset = (size_t)in[pos] | (size_t)in[pos + 1] << 8;
        pos += 2;
        size_t match = token & 15;
        if (match == 15 && !lz4_length(in, in_len, &pos, &match))
            return -1;
        match += 4;
        if (offset == 0 || offset > done || out_len - done < LZ4_LAST_LITERALS ||
            match > out_len - done - LZ4_LAST_LITERALS)
            return -1;
        if (out) {
            /* overlapping copies repeat the last `offset` bytes */
            for (size_t k = 0; k < match; k++)
                out[done + k] = out[done + k - offset];
        }
        done += match;
    }
}

fv_status grv_gr_table(fv_gr_face *face, uint32_t tag, uint32_t min_version, unsigned slot,
                       fv_span *out, const char **dropped, fv_error *err)
{
    *dropped = NULL;
    fv_span t;
    if (!grv_table(face->sfnt, tag, &t)) {
        out->data = NULL;
        out->len = 0;
        return FV_OK;
    }
    *out = t;
    uint32_t version, hdr;
    if (t.len < MIN_COMPRESSIBLE || fv_rd_u32(t, 0, &version) != FV_OK ||
        fv_rd_u32(t, 4, &hdr) != FV_OK || version < min_version)
        return FV_OK;
    uint32_t scheme = hdr >> 27, size = hdr & 0x07ffffffu;
    if (scheme == SCHEME_NONE)
        return FV_OK;
    out->data = NULL;
    out->len = 0;
    if (scheme != SCHEME_LZ4) {
        *dropped = "unknown compression scheme";
        return FV_OK;
    }
    /* in_len is at least 12 and a block decodes only to more bytes than
     * it has, so a decoded table holds its version */
    const uint8_t *in = t.data + COMPRESSED_HEADER;
    size_t in_len = t.len - COMPRESSED_HEADER;
    if (size > GRV_BUDGET_TABLE_BYTES) {
        /* A hardening limit (graphite2 takes up to 2^27 bytes), decided
         * without allocating: a stream graphite2 would give up on leaves
         * the table absent as there; one it would decode is refused. */
        if (lz4_block(in, in_len, NULL, size) != (int64_t)size) {
            *dropped = "LZ4 decompression failed";
            return FV_OK;
        }
        fv_status st = sfnt_fail(err, FV_E_BUDGET_TABLE_SIZE, tag, 4,
                                 "compressed table expands beyond the size budget");
        err->index = size;
        return st;
    }
    uint8_t *buf = fv_mem_alloc(face->mem, size);
    if (!buf)
        return sfnt_fail(err, FV_E_NOMEM, tag, 4, "decompression buffer");
    uint32_t inner = 0;
    if (lz4_block(in, in_len, buf, size) != (int64_t)size) {
        *dropped = "LZ4 decompression failed";
    } else {
        inner = (uint32_t)buf[0] << 24 | (uint32_t)buf[1] << 16 | (uint32_t)buf[2] << 8 | buf[3];
        if (inner != version)
            *dropped = "decompressed version differs from the header's";
    }
    if (*dropped) {
        fv_mem_free(face->mem, buf);
        return FV_OK;
    }
    fv_mem_free(face->mem, face->decompressed[slot]);
    face->decompressed[slot] = buf;
    out->data = buf;
    out->len = size;
    return FV_OK;
}
