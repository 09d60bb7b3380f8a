/* WOFF 1.0 and WOFF 2.0 containers: unwrapped into plain sfnt bytes (a font
 * or, for WOFF2, a collection) before the sfnt reader sees them, so every
 * consumer of fv_font_open_* reads web fonts unchanged.
 *
 * The decoded bytes and every working buffer (including zlib's and brotli's
 * own state) are allocated through the font's fv_mem, so the per-font cap
 * bounds decoding as it bounds parsing.  Declared sizes are checked against
 * the header's totals and WOFF_MAX_SFNT_SIZE before anything is allocated. */
#ifndef FV_SFNT_WOFF_H
#define FV_SFNT_WOFF_H

#include <stdint.h>

#include "common/mem.h"
#include "common/reader.h"
#include "fontvm/error.h"

#define WOFF_TAG_wOFF FV_TAG('w', 'O', 'F', 'F')
#define WOFF_TAG_wOF2 FV_TAG('w', 'O', 'F', '2')

/* Hard cap on the sfnt bytes a web font may decode to (and on WOFF2's
 * decompressed table stream): 256 MiB, far beyond the largest real fonts
 * (~30 MiB), equal to the default per-font memory cap. */
#define WOFF_MAX_SFNT_SIZE ((uint64_t)256 * 1024 * 1024)

/* 1 when `file` starts with the WOFF or WOFF2 signature. */
int sfnt_is_woff(fv_span file);

/* Decodes a WOFF or WOFF2 file into sfnt bytes allocated from `mem`
 * (*out, *out_len; free with fv_mem_free).  On error nothing is left
 * allocated and err names the fault. */
fv_status sfnt_woff_decode(fv_span file, fv_mem *mem, uint8_t **out, size_t *out_len,
                           fv_error *err);

/* Number of faces a WOFF/WOFF2 file decodes to (WOFF2 collections may hold
 * several), read from its directories without decompressing. */
fv_status sfnt_woff_count_faces(fv_span file, uint32_t *count, fv_error *err);

/* Internal to woff.c / woff2.c. */
fv_status sfnt_woff1_decode(fv_span file, fv_mem *mem, uint8_t **out, size_t *out_len,
                            fv_error *err);
fv_status sfnt_woff2_decode(fv_span file, fv_mem *mem, uint8_t **out, size_t *out_len,
                            fv_error *err);
fv_status sfnt_woff2_count_faces(fv_span file, uint32_t *count, fv_error *err);

/* The blocks after the font data (WOFF 1.0 sections 5, 7, 8; WOFF 2.0
 * sections 3, 7, 8): the metadata block, if metaOffset is set, at the
 * first 4-byte boundary at or after data_end; then, 4-byte aligned, the
 * private block if privOffset is set; and nothing after them.  The five
 * header fields are read from meta_at (metaOffset, metaLength,
 * metaOrigLength, privOffset, privLength: uint32 each). */
fv_status woff_check_blocks(fv_span file, uint64_t data_end, uint64_t meta_at, uint32_t tag,
                            fv_error *err);

/* Writing sfnt directories (shared by both decoders). */
static inline uint64_t woff_pad4(uint64_t n) { return (n + 3) & ~(uint64_t)3; }
void woff_put_u16(uint8_t *p, uint16_t v);
void woff_put_u32(uint8_t *p, uint32_t v);
/* The 12-byte sfnt header (searchRange etc. derived from num_tables). */
void woff_put_sfnt_header(uint8_t *p, uint32_t flavor, uint16_t num_tables);
/* A 16-byte table record; the checksum is computed over `data`. */
void woff_put_table_record(uint8_t *p, uint32_t tag, const uint8_t *data, uint32_t offset,
                           uint32_t length);

#endif
