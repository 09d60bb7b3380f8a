/* WOFF 1.0 (W3C Recommendation, 2012): a header, a table directory and
 * each table either stored or zlib-compressed.  Decoded into an sfnt whose
 * tables keep the directory's (ascending tag) order, each 4-byte aligned.
 * Also the entry points that pick WOFF or WOFF2 by signature. */
#include <string.h>
#include <zlib.h>

#include "sfnt/sfnt.h"
#include "sfnt/woff.h"

#define WOFF_HEADER_SIZE 44
#define WOFF_ENTRY_SIZE 20
#define SFNT_HEADER_SIZE 12
#define SFNT_RECORD_SIZE 16

void woff_put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

void woff_put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

void woff_put_sfnt_header(uint8_t *p, uint32_t flavor, uint16_t num_tables)
{
    /* OpenType table directory: searchRange is 16 * the largest power of two
     * not above numTables, entrySelector its log2, rangeShift the rest. */
    uint16_t pow2 = 1, log2 = 0;
    while ((uint32_t)pow2 * 2 <= num_tables) {
        pow2 = (uint16_t)(pow2 * 2);
        log2++;
    }
    woff_put_u32(p, flavor);
    woff_put_u16(p + 4, num_tables);
    woff_put_u16(p + 6, (uint16_t)(pow2 * 16));
    woff_put_u16(p + 8, log2);
    woff_put_u16(p + 10, (uint16_t)(num_tables * 16 - pow2 * 16));
}

void woff_put_table_record(uint8_t *p, uint32_t tag, const uint8_t *data, uint32_t offset,
                           uint32_t length)
{
    /* OpenType checksum: the sum of the table's big-endian uint32s, the
     * last one zero-padded. */
    uint32_t sum = 0;
    for (uint32_t i = 0; i < length; i += 4) {
        uint32_t word = 0;
        for (uint32_t k = 0; k < 4; k++)
            word = word << 8 | (i + k < length ? data[i + k] : 0);
        sum += word;
    }
    woff_put_u32(p, tag);
    woff_put_u32(p + 4, sum);
    woff_put_u32(p + 8, offset);
    woff_put_u32(p + 12, length);
}

int sfnt_is_woff(fv_span file)
{
    uint32_t sig;
    return fv_rd_u32(file, 0, &sig) == FV_OK && (sig == WOFF_TAG_wOFF || sig == WOFF_TAG_wOF2);
}

fv_status sfnt_woff_decode(fv_span file, fv_mem *mem, uint8_t **out, size_t *out_len,
                           fv_error *err)
{
    uint32_t sig = 0;
    (void)fv_rd_u32(file, 0, &sig);
    if (sig == WOFF_TAG_wOF2)
        return sfnt_woff2_decode(file, mem, out, out_len, err);
    return sfnt_woff1_decode(file, mem, out, out_len, err);
}

fv_status sfnt_woff_count_faces(fv_span file, uint32_t *count, fv_error *err)
{
    uint32_t sig = 0;
    (void)fv_rd_u32(file, 0, &sig);
    if (sig == WOFF_TAG_wOF2)
        return sfnt_woff2_count_faces(file, count, err);
    /* WOFF 1.0 wraps a single sfnt (its flavor may not be 'ttcf'). */
    *count = 1;
    return FV_OK;
}

/* zlib's allocations go through the font's accountant. */
static voidpf woff_zalloc(voidpf opaque, uInt items, uInt size)
{
    return fv_mem_array(opaque, items, size);
}

static void woff_zfree(voidpf opaque, voidpf p)
{
    fv_mem_free(opaque, p);
}

/* Inflates a zlib stream into exactly dst_len bytes. */
static fv_status inflate_exact(fv_mem *mem, fv_span src, uint8_t *dst, uint32_t dst_len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    z.zalloc = woff_zalloc;
    z.zfree = woff_zfree;
    z.opaque = mem;
    if (inflateInit(&z) != Z_OK)
        return FV_E_NOMEM;
    z.next_in = (Bytef *)(uintptr_t)src.data; /* zlib's API is not const; it only reads */
    z.avail_in = (uInt)src.len;
    z.next_out = dst;
    z.avail_out = dst_len;
    int rc = inflate(&z, Z_FINISH);
    /* The stream must end exactly when the declared origLength is filled. */
    fv_status st = rc == Z_STREAM_END && z.avail_out == 0 ? FV_OK
                   : rc == Z_MEM_ERROR                    ? FV_E_NOMEM
                                                          : FV_E_WOFF_BAD_COMPRESSION;
    inflateEnd(&z);
    return st;
}

/* One 20-byte directory entry (origChecksum unused: the checksums written
 * are computed).  The caller checked the directory span whole; fields read
 * as 0 if it did not. */
static void read_entry(fv_span dir, uint64_t at, uint32_t *tag, uint32_t *offset,
                       uint32_t *comp_len, uint32_t *orig_len)
{
    *tag = *offset = *comp_len = *orig_len = 0;
    (void)fv_rd_u32(dir, at, tag);
    (void)fv_rd_u32(dir, at + 4, offset);
    (void)fv_rd_u32(dir, at + 8, comp_len);
    (void)fv_rd_u32(dir, at + 12, orig_len);
}

/* COMPAT(freetype): FreeType 2.12.1 opens a web font only when its blocks
 * are laid out as the specs' encoders write them, so fontvm refuses what
 * it refuses (measured with tests/sfnt/woff_sweep.py): lengths without
 * their offset, a metadata length without its original length, a block
 * anywhere but right after the one before it, bytes after the last. */
fv_status woff_check_blocks(fv_span file, uint64_t data_end, uint64_t meta_at, uint32_t tag,
                            fv_error *err)
{
    uint32_t meta_off = 0, meta_len = 0, meta_orig = 0, priv_off = 0, priv_len = 0;
    if (fv_rd_u32(file, meta_at, &meta_off) != FV_OK || fv_rd_u32(file, meta_at + 4, &meta_len) != FV_OK ||
        fv_rd_u32(file, meta_at + 8, &meta_orig) != FV_OK ||
        fv_rd_u32(file, meta_at + 12, &priv_off) != FV_OK ||
        fv_rd_u32(file, meta_at + 16, &priv_len) != FV_OK)
        return sfnt_fail(err, FV_E_TRUNCATED, tag, meta_at, "metadata and private block fields");
    if ((meta_off == 0 && (meta_len || meta_orig)) || (meta_len && !meta_orig) ||
        (priv_off == 0 && priv_len))
        return sfnt_fail(err, FV_E_WOFF_BAD_HEADER, tag, priv_len && !priv_off ? meta_at + 16 : meta_at + 4,
                         "metadata or private block lengths without their offset");
    uint64_t end = woff_pad4(data_end);
    if (meta_off) {
        if (meta_off != end || (uint64_t)meta_off + meta_len > file.len)
            return sfnt_fail(err, FV_E_WOFF_BAD_HEADER, tag, meta_at,
                             "metadata block not right after the font data");
        end = (uint64_t)meta_off + meta_len;
    }
    if (priv_off) {
        end = woff_pad4(end);
        if (priv_off != end || (uint64_t)priv_off + priv_len > file.len)
            return sfnt_fail(err, FV_E_WOFF_BAD_HEADER, tag, meta_at + 12,
                             "private block not right after the other blocks");
        end = (uint64_t)priv_off + priv_len;
    }
    if (end != file.len)
        return sfnt_fail(err, FV_E_WOFF_BAD_HEADER, tag, 8,
                         "bytes after the last block, or the last block cut short");
    return FV_OK;
}

/* COMPAT(freetype): the table data of a WOFF 1.0 file, in offset order,
 * must start right after the directory, each table at the previous one's
 * end padded to 4 bytes (section 5), as FreeType 2.12.1 requires; then
 * the blocks woff_check_blocks checks. */
static fv_status check_layout(fv_span file, fv_span dir, uint16_t num_tables, fv_mem *mem,
                              fv_error *err)
{
    /* Entry indices in data order: an insertion sort, the directory is
     * usually in data order already. */
    uint16_t *order = fv_mem_array(mem, num_tables, sizeof *order);
    if (!order)
        return sfnt_fail(err, FV_E_NOMEM, WOFF_TAG_wOFF, FV_NO_VALUE, "WOFF table order");
    uint32_t tag = 0, offset = 0, comp_len = 0, orig_len = 0;
    for (uint32_t i = 0; i < num_tables; i++) {
        uint32_t k = i, off_i = 0, off_prev = 0;
        (void)fv_rd_u32(dir, (uint64_t)i * WOFF_ENTRY_SIZE + 4, &off_i);
        while (k > 0 && fv_rd_u32(dir, (uint64_t)order[k - 1] * WOFF_ENTRY_SIZE + 4, &off_prev) == FV_OK &&
               off_prev > off_i) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = (uint16_t)i;
    }
    uint64_t end = WOFF_HEADER_SIZE + (uint64_t)num_tables * WOFF_ENTRY_SIZE;
    fv_status st = FV_OK;
    for (uint32_t i = 0; i < num_tables && st == FV_OK; i++) {
        uint64_t at = (uint64_t)order[i] * WOFF_ENTRY_SIZE;
        read_entry(dir, at, &tag, &offset, &comp_len, &orig_len);
        if (offset != end)
            st = sfnt_fail(err, FV_E_WOFF_BAD_DIRECTORY, tag, WOFF_HEADER_SIZE + at + 4,
                           "table data not where the previous block ends (a gap or an overlap)");
        end += woff_pad4(comp_len);
    }
    fv_mem_free(mem, order);
    return st != FV_OK ? st : woff_check_blocks(file, end, 24, WOFF_TAG_wOFF, err);
}

fv_status sfnt_woff1_decode(fv_span file, fv_mem *mem, uint8_t **out, size_t *out_len,
                            fv_error *err)
{
    uint32_t flavor, length, total_sfnt;
    uint16_t num_tables, reserved;
    if (fv_rd_u32(file, 4, &flavor) != FV_OK || fv_rd_u32(file, 8, &length) != FV_OK ||
        fv_rd_u16(file, 12, &num_tables) != FV_OK || fv_rd_u16(file, 14, &reserved) != FV_OK ||
        fv_rd_u32(file, 16, &total_sfnt) != FV_OK || file.len < WOFF_HEADER_SIZE)
        return sfnt_fail(err, FV_E_TRUNCATED, WOFF_TAG_wOFF, 0, "WOFF header");
    if (length != file.len)
        return sfnt_fail(err, length > file.len ? FV_E_TRUNCATED : FV_E_WOFF_BAD_HEADER,
                         WOFF_TAG_wOFF, 8, "WOFF length differs from the file size");
    /* COMPAT(freetype): a nonzero reserved field (the spec says MUST be
     * rejected) is ignored, as FreeType 2.12.1 ignores it. */
    (void)reserved;
    if (num_tables == 0)
        return sfnt_fail(err, FV_E_WOFF_BAD_HEADER, WOFF_TAG_wOFF, 12, "no tables");
    if (flavor == FV_TAG('t', 't', 'c', 'f'))
        return sfnt_fail(err, FV_E_WOFF_BAD_HEADER, WOFF_TAG_wOFF, 4,
                         "WOFF 1.0 cannot hold a collection");
    if (total_sfnt > WOFF_MAX_SFNT_SIZE)
        return sfnt_fail(err, FV_E_WOFF_TOO_LARGE, WOFF_TAG_wOFF, 16, "totalSfntSize beyond the hard cap");
    fv_span dir;
    if (fv_span_sub(file, WOFF_HEADER_SIZE, (uint64_t)num_tables * WOFF_ENTRY_SIZE, &dir) != FV_OK)
        return sfnt_fail(err, FV_E_TRUNCATED, WOFF_TAG_wOFF, WOFF_HEADER_SIZE, "table directory");

    /* First pass: validate every entry and size the sfnt. */
    uint64_t sfnt_size = SFNT_HEADER_SIZE + (uint64_t)num_tables * SFNT_RECORD_SIZE;
    uint32_t prev_tag = 0;
    for (uint32_t i = 0; i < num_tables; i++) {
        uint64_t at = (uint64_t)i * WOFF_ENTRY_SIZE;
        uint32_t tag, offset, comp_len, orig_len;
        read_entry(dir, at, &tag, &offset, &comp_len, &orig_len);
        uint64_t entry_off = WOFF_HEADER_SIZE + at;
        /* Sorted strictly ascending (as in an sfnt directory): no duplicates. */
        if (i > 0 && tag <= prev_tag)
            return sfnt_fail(err, FV_E_WOFF_BAD_DIRECTORY, tag, entry_off,
                             "tags not in ascending order");
        prev_tag = tag;
        if (!fv_span_has(file, offset, comp_len))
            return sfnt_fail(err, FV_E_TRUNCATED, tag, entry_off, "table data past the end of the file");
        if (offset < WOFF_HEADER_SIZE + (uint64_t)num_tables * WOFF_ENTRY_SIZE)
            return sfnt_fail(err, FV_E_WOFF_BAD_DIRECTORY, tag, entry_off,
                             "table data overlaps the header or directory");
        if (comp_len > orig_len)
            return sfnt_fail(err, FV_E_WOFF_BAD_DIRECTORY, tag, entry_off,
                             "compLength greater than origLength");
        sfnt_size += woff_pad4(orig_len);
    }
    /* The declared totalSfntSize bounds what we allocate (it is the
     * unwrapped font's size including padding). */
    if (sfnt_size > total_sfnt)
        return sfnt_fail(err, FV_E_WOFF_TOO_LARGE, WOFF_TAG_wOFF, 16,
                         "tables exceed the declared totalSfntSize");
    /* COMPAT(freetype): and no larger either, as FreeType 2.12.1 checks. */
    if (sfnt_size != total_sfnt)
        return sfnt_fail(err, FV_E_WOFF_BAD_HEADER, WOFF_TAG_wOFF, 16,
                         "totalSfntSize is not the decoded font's size");
    fv_status layout = check_layout(file, dir, num_tables, mem, err);
    if (layout != FV_OK)
        return layout;

    uint8_t *sfnt = fv_mem_calloc(mem, (size_t)sfnt_size);
    if (!sfnt)
        return sfnt_fail(err, FV_E_NOMEM, WOFF_TAG_wOFF, FV_NO_VALUE, "decoded WOFF font");
    woff_put_sfnt_header(sfnt, flavor, num_tables);
    uint64_t pos = SFNT_HEADER_SIZE + (uint64_t)num_tables * SFNT_RECORD_SIZE;
    for (uint32_t i = 0; i < num_tables; i++) {
        uint64_t at = (uint64_t)i * WOFF_ENTRY_SIZE;
        uint32_t tag, offset, comp_len, orig_len;
        read_entry(dir, at, &tag, &offset, &comp_len, &orig_len);
        fv_span src;
        (void)fv_span_sub(file, offset, comp_len, &src); /* checked in the first pass */
        uint8_t *dst = sfnt + pos;
        if (comp_len == orig_len) {
            if (orig_len)
                memcpy(dst, src.data, orig_len);
        } else {
            fv_status st = inflate_exact(mem, src, dst, orig_len);
            if (st != FV_OK) {
                fv_mem_free(mem, sfnt);
                return sfnt_fail(err, st, tag, WOFF_HEADER_SIZE + at,
                                 st == FV_E_NOMEM ? "zlib state"
                                                  : "zlib data corrupt or not origLength long");
            }
        }
        woff_put_table_record(sfnt + SFNT_HEADER_SIZE + (uint64_t)i * SFNT_RECORD_SIZE, tag, dst,
                              (uint32_t)pos, orig_len);
        pos += woff_pad4(orig_len);
    }
    *out = sfnt;
    *out_len = (size_t)sfnt_size;
    return FV_OK;
}
