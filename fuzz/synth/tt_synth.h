/* Builds a small, valid TrueType font around given programs, for the code
 * targets (tt_program, tt_diff) and the seed generator's edge cases.
 *
 * Glyph 0 is a simple glyph with `num_points` points in `num_contours`
 * contours whose coordinates and on-curve flags come from `seed`, carrying
 * `glyph_code`.  When `composite` is set, glyph 1 is a composite of glyph 0
 * twice (the second copy offset), carrying `glyph_code` as its own
 * instructions.  Tables: head hhea maxp hmtx loca glyf cvt fpgm prep name
 * post, in a checksummed directory that FreeType accepts; with var_flags,
 * a variable font on one axis (wght 100..400..900): fvar, gvar, and as
 * the flags ask cvar, HVAR and avar (appended after the other tables, so a
 * font without variations is byte for byte what it was before). */
#ifndef FVFUZZ_TT_SYNTH_H
#define FVFUZZ_TT_SYNTH_H

#include <stddef.h>
#include <stdint.h>

/* Points in the synthetic glyph: enough for every point-addressing
 * instruction to matter, small enough to hint in microseconds. */
#define FVSYNTH_MAX_POINTS 64

typedef struct fvsynth_tt {
    const uint8_t *fpgm, *prep, *glyph_code;
    size_t fpgm_len, prep_len, glyph_code_len; /* glyph code <= 65535 bytes */
    uint16_t num_points;     /* <= FVSYNTH_MAX_POINTS */
    uint16_t num_contours;   /* <= num_points; 0 with 0 points */
    uint16_t cvt_count;      /* CVT entries, values from seed */
    uint16_t max_storage, max_function_defs, max_instruction_defs;
    uint16_t max_stack, max_twilight;
    uint16_t units_per_em;   /* 16..16384 */
    uint16_t head_flags;     /* head.flags (bit 3: integer ppem) */
    uint32_t seed;
    int composite;
    /* hdmx: when hdmx_ppem is not 0, one device record for that ppem giving
     * every glyph the width hdmx_width (pixels); no hdmx table otherwise.
     * hdmx_record_size: the record's size (0: numGlyphs + 2 padded to 4;
     * at least numGlyphs + 2, at most 64). */
    uint8_t hdmx_ppem, hdmx_width, hdmx_record_size;
    /* Variations (0: none).  FVSYNTH_VAR_GVAR: fvar (one axis, two named
     * instances) and gvar: glyph 0 gets a tuple at a shared peak over every
     * point and phantom and an intermediate-region tuple with an embedded
     * peak over private points (the rest inferred), the composite a tuple
     * over its component offsets and phantoms; deltas from var_seed, at
     * most var_scale units.  FVSYNTH_VAR_CVAR: cvar, two tuples over
     * private CVT entries.  FVSYNTH_VAR_HVAR: HVAR, one delta per glyph
     * (no mapping).  FVSYNTH_VAR_AVAR: avar with one inner segment. */
    uint8_t var_flags;
    uint8_t var_scale;
    uint32_t var_seed;
} fvsynth_tt;

#define FVSYNTH_VAR_GVAR 0x01
#define FVSYNTH_VAR_CVAR 0x02
#define FVSYNTH_VAR_HVAR 0x04
#define FVSYNTH_VAR_AVAR 0x08

/* Upper bound of the font's size in bytes. */
size_t fvsynth_tt_bound(const fvsynth_tt *p);
/* Writes the font into out (capacity cap); returns its length, or 0 when
 * cap is too small or a parameter is out of range. */
size_t fvsynth_tt_build(const fvsynth_tt *p, uint8_t *out, size_t cap);

#endif
