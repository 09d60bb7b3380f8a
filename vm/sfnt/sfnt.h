/* sfnt reader: table directory (and TrueType Collections), the metric and
 * outline tables the hinters need, cmap and name.
 *
 * An sfnt_font borrows the caller's font bytes (they must outlive it) and owns
 * everything it parsed, all allocated through its fv_mem.  Parsing is strict:
 * a truncated or inconsistent table is an fv_error naming the table tag and
 * the byte offset inside it. */
#ifndef FV_SFNT_SFNT_H
#define FV_SFNT_SFNT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/fixed.h"
#include "common/mem.h"
#include "common/reader.h"
#include "fontvm/error.h"

#define SFNT_TAG_head FV_TAG('h', 'e', 'a', 'd')
#define SFNT_TAG_maxp FV_TAG('m', 'a', 'x', 'p')
#define SFNT_TAG_hhea FV_TAG('h', 'h', 'e', 'a')
#define SFNT_TAG_hmtx FV_TAG('h', 'm', 't', 'x')
#define SFNT_TAG_vhea FV_TAG('v', 'h', 'e', 'a')
#define SFNT_TAG_vmtx FV_TAG('v', 'm', 't', 'x')
#define SFNT_TAG_loca FV_TAG('l', 'o', 'c', 'a')
#define SFNT_TAG_glyf FV_TAG('g', 'l', 'y', 'f')
#define SFNT_TAG_cvt  FV_TAG('c', 'v', 't', ' ')
#define SFNT_TAG_fpgm FV_TAG('f', 'p', 'g', 'm')
#define SFNT_TAG_prep FV_TAG('p', 'r', 'e', 'p')
#define SFNT_TAG_cmap FV_TAG('c', 'm', 'a', 'p')
#define SFNT_TAG_name FV_TAG('n', 'a', 'm', 'e')
#define SFNT_TAG_post FV_TAG('p', 'o', 's', 't')
#define SFNT_TAG_OS2  FV_TAG('O', 'S', '/', '2')
#define SFNT_TAG_Silf FV_TAG('S', 'i', 'l', 'f')
#define SFNT_TAG_Glat FV_TAG('G', 'l', 'a', 't')
#define SFNT_TAG_Gloc FV_TAG('G', 'l', 'o', 'c')
#define SFNT_TAG_Feat FV_TAG('F', 'e', 'a', 't')
#define SFNT_TAG_Sill FV_TAG('S', 'i', 'l', 'l')

/* Composite nesting limit.  FreeType 2.12.1 bounds recursion by
 * maxp.maxComponentDepth but at least 100 (TT_MAX_COMPOSITE_RECURSE-like
 * guard); fontvm also detects cycles. */
#define SFNT_MAX_COMPOSITE_DEPTH 100

typedef struct sfnt_table {
    uint32_t tag;
    uint32_t checksum;
    uint32_t offset;
    uint32_t length;
} sfnt_table;

typedef struct sfnt_head {
    uint16_t units_per_em;
    uint16_t flags;
    int16_t x_min, y_min, x_max, y_max;
    uint16_t mac_style;
    uint16_t lowest_rec_ppem;
    int16_t index_to_loc_format;
    int16_t glyph_data_format;
} sfnt_head;

typedef struct sfnt_maxp {
    uint32_t version;  /* 0x00005000 or 0x00010000 */
    uint16_t num_glyphs;
    /* The version 1.0 fields were read: version 1.0 or later and all 32
     * bytes inside the file (read_maxp). */
    bool v1_fields;
    /* Version 1.0 fields (0 in version 0.5 or when v1_fields is false). */
    uint16_t max_points, max_contours;
    uint16_t max_composite_points, max_composite_contours;
    uint16_t max_zones, max_twilight_points;
    uint16_t max_storage, max_function_defs, max_instruction_defs;
    uint16_t max_stack_elements, max_size_of_instructions;
    uint16_t max_component_elements, max_component_depth;
} sfnt_maxp;

typedef struct sfnt_hhea {
    int16_t ascender, descender, line_gap;
    uint16_t advance_max;
    int16_t caret_slope_rise, caret_slope_run, caret_offset;
    uint16_t num_long_metrics;
} sfnt_hhea;

typedef struct sfnt_font {
    fv_mem *mem;                /* not owned */
    fv_span file;               /* the whole file (collection) */
    fv_span data;               /* == file; offsets in the directory are file-relative */
    uint32_t face_index, num_faces;
    uint32_t sfnt_version;

    uint16_t num_tables;
    sfnt_table *tables;         /* the records kept (inside the file) */
    /* The directory as read (records_read of them at dir_offset), so that a
     * missing required table can say why it was ignored. */
    uint32_t dir_offset, records_read;

    sfnt_head head;
    sfnt_maxp maxp;
    sfnt_hhea hhea;
    int has_vhea;
    sfnt_hhea vhea;             /* same layout as hhea */

    int has_hhea;
    fv_span hmtx, vmtx;         /* empty when absent */
    fv_span glyf;               /* empty when absent (CFF or Graphite-only) */
    /* loca, read where it lies (sfnt_loca_offset), not copied: a decoded
     * copy was 4 bytes a glyph, most of an open face's memory (25 KiB of
     * DejaVu Sans' 29.6; FreeType 2.12.1 reads a mapped file's loca in
     * place too). */
    int has_loca;               /* 0: no outlines */
    uint32_t loca_glyphs;       /* glyphs loca covers (<= maxp.num_glyphs) */
    uint64_t loca_last;         /* the glyph whose end is clipped to glyf */
    /* loca as FreeType 2.12.1 keeps it: loca_locations entries (capped,
     * read on past a short table, entries past numGlyphs + 1 included). */
    fv_span loca_table;
    uint64_t loca_locations;
    int16_t *cvt;               /* font-unit CVT values, cvt_count of them */
    uint32_t cvt_count;
    fv_span fpgm, prep;         /* empty when absent */

    fv_span cmap_sub;           /* the chosen Unicode subtable, empty if none */
    uint16_t cmap_format;       /* 4 or 12 (0 when none) */
    fv_status cmap_status;      /* FV_OK, or why cmap could not be read */
    fv_error cmap_error;

    char family[64];            /* UTF-8 (ASCII-folded) family and style */
    char style[64];
} sfnt_font;

/* The glyf offset loca gives for entry i <= loca_glyphs (in loca_table:
 * read_loca made it hold loca_glyphs + 1 entries). */
static inline uint32_t sfnt_loca_offset(const sfnt_font *f, uint32_t i)
{
    uint32_t v = 0;
    if (f->head.index_to_loc_format != 0) {
        (void)fv_rd_u32(f->loca_table, (uint64_t)i * 4, &v);
        return v;
    }
    uint16_t h = 0;
    (void)fv_rd_u16(f->loca_table, (uint64_t)i * 2, &h);
    return (uint32_t)h * 2;
}

/* Opens face `face_index` of a font file or collection.  Requires head;
 * maxp/hhea/hmtx/loca/glyf/cvt/fpgm/prep/cmap/name are parsed when present,
 * as leniently as FreeType 2.12.1 (see sfnt.c: ignored tables, headers read
 * past a short table, short hmtx and loca).  On failure *out is untouched,
 * err says why, and nothing is leaked. */
fv_status sfnt_open(fv_span file, uint32_t face_index, fv_mem *mem, sfnt_font **out,
                    fv_error *err);
void sfnt_close(sfnt_font *f);

/* Number of faces in a file (1 for a plain font); error if not a font. */
fv_status sfnt_count_faces(fv_span file, uint32_t *count, fv_error *err);

/* Table lookup by tag; returns an empty span and 0 when absent. */
int sfnt_find_table(const sfnt_font *f, uint32_t tag, fv_span *out);
/* Bitmap strikes as FreeType 2.12.1 finds them (measured on hand-made
 * fonts): the first of CBLC, EBLC, bloc (version 2.x or 3.x, with a CBDT,
 * EBDT or bdat table beside it, as many 48-byte strike records as fit) and
 * sbix; a strike counts when its x and y ppem are not 0.  COMPAT(freetype):
 * colour strikes (CBLC, sbix) replace the outlines: glyf is then ignored
 * and only the strikes' sizes can be set. */
typedef struct sfnt_strikes {
    uint32_t count;          /* usable strikes */
    int sbix;                /* they come from sbix, or sbix is beside EBLC/bloc */
    int replace_outlines;    /* CBLC or sbix strikes, or sbix beside: glyf is ignored */
} sfnt_strikes;
void sfnt_find_strikes(const sfnt_font *f, sfnt_strikes *out);
/* 1 when a usable strike has exactly this x and y ppem. */
int sfnt_strike_has_ppem(const sfnt_font *f, uint32_t x_ppem, uint32_t y_ppem);

/* The bytes of glyf a glyph whose loca entries are [start, end) takes, by
 * FreeType 2.12.1's rules (measured, conformance/tt/README.md): a glyph
 * starting past the end of glyf is empty; one ending past it is empty too,
 * except loca's last glyph, which is cut at the end of glyf; a glyph whose
 * end precedes its start runs to the end of glyf.  Returns the length (0:
 * empty) and leaves the start in *start. */
static inline uint64_t sfnt_glyph_extent(uint64_t glyf_len, uint64_t start, uint64_t end,
                                         int is_last, uint64_t *at)
{
    *at = start;
    if (start > glyf_len)
        return 0;
    if (end > glyf_len) {
        if (!is_last)
            return 0;
        end = glyf_len;
    }
    if (end < start)
        end = glyf_len;
    return end - start;
}

/* 1 when glyph 0 is the only glyph of loca (all its locations, numGlyphs
 * or not) with bytes in glyf: the outline font FontForge and others write
 * for a bitmap font (a .notdef box and empty glyphs beside the strikes). */
int sfnt_only_notdef_has_outline(const sfnt_font *f);
/* A fixed-size table header of `need` bytes: the table, grown past its
 * length up to `need` bytes when the file has them.  COMPAT(freetype):
 * FreeType reads such headers (maxp, hhea, vhea, OS/2, post) from the file
 * whatever the table's length says.  MISSING_TABLE or TRUNCATED (the file
 * ends first) otherwise. */
fv_status sfnt_header_table(const sfnt_font *f, uint32_t tag, uint64_t need, fv_span *out,
                            fv_error *err);
/* The error for a required table that is absent: TRUNCATED when its record
 * was ignored for running past the end of the file, else MISSING_TABLE. */
fv_status sfnt_missing_table(const sfnt_font *f, uint32_t tag, fv_error *err);
/* 0 for 'OTTO' and 'typ1' fonts, which FreeType never opens as TrueType. */
int sfnt_is_truetype_flavour(const sfnt_font *f);

/* Horizontal / vertical metrics for a glyph (hmtx rules: glyphs beyond
 * numberOfHMetrics reuse the last advance).  Missing tables give 0. */
fv_status sfnt_hmetrics(const sfnt_font *f, uint32_t gid, uint16_t *advance, int16_t *lsb,
                        fv_error *err);
fv_status sfnt_vmetrics(const sfnt_font *f, uint32_t gid, uint16_t *advance, int16_t *tsb,
                        fv_error *err);

/* cmap lookup (format 4 or 12 Unicode subtable); 0 when unmapped. */
uint32_t sfnt_cmap_lookup(const sfnt_font *f, uint32_t codepoint);
/* Fills map[0..0xFFFF], which the caller has zeroed, with what
 * sfnt_cmap_lookup gives for every BMP code point, in one walk over the
 * subtable's segments or groups (for shapers that look up every
 * character).  Returns 1 when done, 0 (map partly written) when the
 * subtable is not sorted as the walk needs (ends in order, groups apart) or
 * an array is cut short: then only sfnt_cmap_lookup gives the exact
 * answer. */
int sfnt_cmap_fill_bmp(const sfnt_font *f, uint16_t *map);

/* Composite glyph component flags (OpenType 'glyf'). */
#define SFNT_ARG_1_AND_2_ARE_WORDS     0x0001
#define SFNT_ARGS_ARE_XY_VALUES        0x0002
#define SFNT_ROUND_XY_TO_GRID          0x0004
#define SFNT_WE_HAVE_A_SCALE           0x0008
#define SFNT_MORE_COMPONENTS           0x0020
#define SFNT_WE_HAVE_AN_X_AND_Y_SCALE  0x0040
#define SFNT_WE_HAVE_A_TWO_BY_TWO      0x0080
#define SFNT_WE_HAVE_INSTRUCTIONS      0x0100
#define SFNT_USE_MY_METRICS            0x0200
#define SFNT_OVERLAP_COMPOUND          0x0400
#define SFNT_SCALED_COMPONENT_OFFSET   0x0800
#define SFNT_UNSCALED_COMPONENT_OFFSET 0x1000

/* Simple glyph point flag bits kept in sfnt_glyph.flags. */
#define SFNT_ON_CURVE 0x01

typedef struct sfnt_component {
    uint16_t flags;
    uint16_t glyph;
    int32_t arg1, arg2;   /* offsets (x, y) or point numbers, sign per flags */
    /* 2x2 transform in 2.14: xx, yx (x scale / 01), xy (10), yy.
     * Identity is 0x4000, 0, 0, 0x4000. */
    int32_t xx, yx, xy, yy;
} sfnt_component;

typedef struct sfnt_glyph {
    uint32_t gid;
    int16_t num_contours;          /* -1 for composite glyphs */
    int16_t x_min, y_min, x_max, y_max;
    /* Simple glyphs */
    uint16_t *end_points;          /* num_contours entries */
    uint16_t num_points;
    /* The points, filled by sfnt_glyph_load only (sfnt_glyph_reload leaves
     * them to sfnt_glyph_points, into the caller's arrays): */
    fv_vec *points;                /* absolute font units (sums of 16-bit deltas) */
    uint8_t *flags;                /* the file's flag bytes, repeats expanded (SFNT_ON_CURVE etc.) */
    /* Where the flags start: the glyph's bytes, the offset in them, and the
     * glyph's offset in glyf (errors name glyf offsets). */
    fv_span data;
    uint32_t points_at, glyf_offset;
    /* Composite glyphs */
    uint16_t num_components;
    sfnt_component *components;
    /* Either kind */
    fv_span instructions;          /* may be empty; a composite's may lie past the glyph */
    /* A composite's instructions that cannot be read (see glyf.c
     * composite_instructions): FV_OK, TRUNCATED or TT_TOO_MANY_HINTS, at
     * glyf offset instructions_at.  The loader raises it only where it
     * would run them, as FreeType 2.12.1 reads them only then. */
    fv_status instructions_status;
    uint64_t instructions_at;
    const char *instructions_why;  /* a static string */
    /* Allocated lengths of the arrays above (sfnt_glyph_reload reuses them). */
    uint32_t cap_end_points, cap_components;
} sfnt_glyph;

/* Parses glyph `gid` from glyf/loca into *g, its points included
 * (allocated through mem; free with sfnt_glyph_free).  An empty glyph
 * (loca length 0) is a simple glyph with no contours.  Errors name the
 * table (glyf/loca) and offset. */
fv_status sfnt_glyph_load(const sfnt_font *f, uint32_t gid, fv_mem *mem, sfnt_glyph *g,
                          fv_error *err);
/* The glyph loader's parse: everything but a simple glyph's flags and
 * coordinates, which sfnt_glyph_points then decodes where the caller keeps
 * its points (no copy of them in between).  Into a glyph that may hold
 * arrays from an earlier reload: they are reused when large enough, so a
 * warm loader allocates nothing.  On error *g keeps its arrays (and no
 * glyph); sfnt_glyph_free releases them.  Start from a zeroed sfnt_glyph. */
fv_status sfnt_glyph_reload(const sfnt_font *f, uint32_t gid, fv_mem *mem, sfnt_glyph *g,
                            fv_error *err);
/* Decodes the flags and coordinates of simple glyph g (num_points of each;
 * g reloaded, num_contours > 0) into flags and points.  Errors name glyf
 * and the offset, as sfnt_glyph_load's. */
fv_status sfnt_glyph_points(const sfnt_glyph *g, uint8_t *flags, fv_vec *points, fv_error *err);
void sfnt_glyph_free(fv_mem *mem, sfnt_glyph *g);

/* Helper for table errors: fills err with kind/table/offset. Returns kind. */
fv_status sfnt_fail(fv_error *err, fv_status kind, uint32_t table, uint64_t offset,
                    const char *detail);

/* Prints a tag as 4 characters into buf[5]. */
void sfnt_tag_string(uint32_t tag, char buf[5]);

#endif
