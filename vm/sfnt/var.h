/* Font variations: the tables that make a TrueType font variable (fvar,
 * avar, gvar, cvar, HVAR) and the coordinate arithmetic, as FreeType 2.12.1
 * applies them (learnt from the OpenType spec and by experiment against
 * the real FreeType; tests/sfnt/test_var_coords.c pins it).
 *
 * Coordinates are 16.16 fixed point throughout, as FreeType keeps them:
 * design coordinates as fvar states them, normalized coordinates in
 * [-1, 1] (0x10000 = 1.0).  FreeType 2.12.1 does not round normalized
 * coordinates to 2.14 (later versions do), so neither does fontvm. */
#ifndef FV_SFNT_VAR_H
#define FV_SFNT_VAR_H

#include <stdint.h>

#include "sfnt/sfnt.h"

#define SFNT_TAG_fvar FV_TAG('f', 'v', 'a', 'r')
#define SFNT_TAG_avar FV_TAG('a', 'v', 'a', 'r')
#define SFNT_TAG_gvar FV_TAG('g', 'v', 'a', 'r')
#define SFNT_TAG_cvar FV_TAG('c', 'v', 'a', 'r')
#define SFNT_TAG_HVAR FV_TAG('H', 'V', 'A', 'R')
#define SFNT_TAG_VVAR FV_TAG('V', 'V', 'A', 'R')

typedef struct sfnt_axis {
    uint32_t tag;
    int32_t min, def, max;     /* 16.16 design units, after FreeType's repair */
    uint16_t flags, name_id;
} sfnt_axis;

typedef struct sfnt_instance {
    uint16_t subfamily_name_id, flags;
    uint16_t ps_name_id;       /* 0xFFFF when the record has none */
    const int32_t *coords;     /* num_axes design coordinates, 16.16 */
} sfnt_instance;

/* One avar segment map, 16.16 (the file's 2.14 values shifted). */
typedef struct sfnt_avar_map {
    uint32_t count;
    int32_t *from, *to;
} sfnt_avar_map;

/* gvar's header and arrays, validated at open. */
typedef struct sfnt_gvar {
    fv_span table;
    uint16_t shared_count;
    int32_t *shared;           /* shared_count * num_axes peaks, 16.16 */
    uint32_t glyph_count;
    uint32_t data_offset;      /* glyphVariationDataArrayOffset */
    int long_offsets;
    uint64_t offsets_at;       /* where the offset array starts */
} sfnt_gvar;

/* HVAR's (or VVAR's) item variation store and advance mapping, validated at
 * open (every delta set and mapping entry lies inside the table). */
typedef struct sfnt_hvar {
    fv_span store, map;
    uint32_t regions_at, data_count;
    uint32_t map_count, map_entry_size, map_inner_bits;
    int has_map;
} sfnt_hvar;

typedef struct sfnt_var {
    uint16_t num_axes, num_instances;
    sfnt_axis *axes;
    sfnt_instance *instances;
    int32_t *instance_coords;
    sfnt_avar_map *avar;       /* num_axes maps, or NULL without a usable avar */
    int has_gvar;
    sfnt_gvar gvar;
    int has_hvar;              /* 0 also when HVAR is malformed (ignored) */
    sfnt_hvar hvar;
    int has_vvar;              /* 0 also when VVAR is malformed (ignored) */
    sfnt_hvar vvar;
} sfnt_var;

/* Reads fvar and avar (and validates gvar's header) of a font that has an
 * fvar table.  *out is NULL for a font without fvar (and FV_OK).  A bad
 * fvar or gvar is an error naming the table and offset; a bad avar is
 * ignored as FreeType ignores it. */
fv_status sfnt_var_open(const sfnt_font *f, fv_mem *mem, sfnt_var **out, fv_error *err);
void sfnt_var_close(fv_mem *mem, sfnt_var *v);

/* FT_Set_Var_Design_Coordinates: `n` design coordinates (axes beyond n
 * take their default) to num_axes normalized ones, avar applied.  64-bit
 * so that named instances can be given as FreeType reads them
 * (sfnt_var_instance_design). */
void sfnt_var_normalize(const sfnt_var *v, const int64_t *design, uint32_t n, int32_t *normalized);
/* Design coordinate `axis` of named instance `index` as FreeType 2.12.1
 * uses it for FT_Set_Named_Instance. */
int64_t sfnt_var_instance_design(const sfnt_var *v, uint32_t index, uint32_t axis);
/* FT_Set_Var_Blend_Coordinates: `n` normalized coordinates (axes beyond
 * n are 0); avar is not applied.  -1 (and nothing written) when one lies
 * outside [-1, 1], which FreeType refuses (Invalid_Argument). */
int sfnt_var_blend(const sfnt_var *v, const int32_t *blend, uint32_t n, int32_t *normalized);

/* The scalar (16.16) of one tuple at `coords` (num_axes normalized):
 * `peak`, and `start`/`end` when `intermediate`, are 16.16 too. */
int32_t sfnt_var_tuple_scalar(uint32_t num_axes, const int32_t *coords, const int32_t *peak,
                              int intermediate, const int32_t *start, const int32_t *end);

/* Reads HVAR's header, store and mapping into v->hvar (has_hvar). */
fv_status sfnt_hvar_open(const sfnt_font *f, sfnt_var *v, fv_error *err);
/* The advance-width delta of glyph gid at coords, in whole font units as
 * FreeType 2.12.1 adds it to the hmtx advance. */
int32_t sfnt_hvar_advance_delta(const sfnt_var *v, uint32_t gid, const int32_t *coords);
/* The same for VVAR (v->vvar, has_vvar) and vmtx's advance heights. */
fv_status sfnt_vvar_open(const sfnt_font *f, sfnt_var *v, fv_error *err);
int32_t sfnt_vvar_advance_delta(const sfnt_var *v, uint32_t gid, const int32_t *coords);

/* Scratch memory for sfnt_gvar_glyph_deltas, kept between calls (start
 * zeroed; sfnt_gvar_scratch_free releases it). */
typedef struct sfnt_gvar_scratch {
    int64_t *org, *moved, *sum;        /* x, y pairs per point, 16.16 */
    uint8_t *touched;
    uint16_t *shared_points, *private_points;
    int16_t *packed_x, *packed_y;
    int32_t *peaks;                    /* peak, start, end: 3 * num_axes */
    uint32_t cap;                      /* point numbers and packed deltas */
    uint32_t points_cap;               /* org, moved, sum, touched: points */
    uint32_t axes_cap;
} sfnt_gvar_scratch;

/* Point deltas of glyph `gid` at `coords` (num_axes normalized), for its
 * n_points points (outline points then the 4 phantoms; for a composite,
 * one point per component then the phantoms).  `org_x/org_y` are the
 * points' font-unit coordinates and `ends` the contour ends (num_contours;
 * phantoms and components are in no contour) for inferring the deltas of
 * untouched points.  Writes 16.16 font-unit deltas to dx/dy (n_points
 * each, saturated to int32).  Bad data is an error naming gvar and the
 * byte offset in it. */
fv_status sfnt_gvar_glyph_deltas(const sfnt_var *v, uint32_t gid, const int32_t *coords,
                                 uint32_t n_points, const int32_t *org_x, const int32_t *org_y,
                                 const uint16_t *ends, uint32_t num_contours, int32_t *dx,
                                 int32_t *dy, sfnt_gvar_scratch *scratch, fv_mem *mem,
                                 fv_error *err);
void sfnt_gvar_scratch_free(fv_mem *mem, sfnt_gvar_scratch *s);
/* Makes s hold n points (and at least 0xFFFF) and num_axes axes. */
int sfnt_gvar_scratch_reserve(fv_mem *mem, sfnt_gvar_scratch *s, uint32_t n, uint32_t num_axes);

/* The tuple variation store pieces gvar and cvar share (gvar.c). */
#define SFNT_TUPLES_SHARE_POINT_NUMBERS 0x8000
#define SFNT_TUPLE_COUNT_MASK 0x0FFF
#define SFNT_TUPLE_INTERMEDIATE_REGION 0x4000
#define SFNT_TUPLE_PRIVATE_POINT_NUMBERS 0x2000
/* Packed point numbers at *pos of d (advanced); *count 0: every point. */
fv_status sfnt_tuple_read_points(fv_span d, uint64_t *pos, uint16_t *points, uint32_t *count);
/* n packed deltas at *pos of d (advanced). */
fv_status sfnt_tuple_read_deltas(fv_span d, uint64_t *pos, int16_t *out, uint32_t n);
/* One tuple variation header at *hdr (advanced): the data size, the index
 * word, the peak (embedded, or gvar's shared tuple) and for an
 * intermediate region its start and end, all 16.16.  FV_E_TRUNCATED, or
 * FV_E_BAD_TABLE for a shared tuple index out of range. */
fv_status sfnt_tuple_read_header(const sfnt_var *v, fv_span d, uint64_t *hdr, uint16_t *size,
                                 uint16_t *index, int32_t *peak, int32_t *start, int32_t *end);

/* The font's CVT at coords: f->cvt with cvar's deltas, in 26.6 font
 * units as FreeType 2.12.1 keeps them, into cvt (f->cvt_count entries). */
fv_status sfnt_cvar_apply(const sfnt_var *v, const sfnt_font *f, const int32_t *coords,
                          int32_t *cvt, sfnt_gvar_scratch *s, fv_mem *mem, fv_error *err);

#endif
