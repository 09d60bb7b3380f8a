/* The parsed Graphite face: the Silf subtable (passes, rules and their
 * code, classes, pseudo-glyphs), glyph metrics and Glat/Gloc attributes with
 * the collision octaboxes, Feat features and Sill languages; the loaders
 * (silf.c, glat.c, feat.c, sill.c) and the face-level lookups.  See grv.h
 * for how the engine's headers fit together. */
#ifndef FV_GRAPHITE_FACE_H
#define FV_GRAPHITE_FACE_H

#include <stdatomic.h>
#include <stdint.h>

#include "common/compat.h"
#include "common/mem.h"
#include "common/reader.h"
#include "fontvm/error.h"
#include "fontvm/graphite.h"
#include "graphite/opcodes.h"
#include "sfnt/sfnt.h"

/* ---- limits of what a face may hold (graphite2 1.3.14's values in the
 * comments) ---- */
#define GRV_MAX_PASSES 128        /* passes per Silf subtable we accept (u8 count) */
#define GRV_MAX_JLEVELS 4         /* justification levels kept per slot (fonts use 1) */
/* Bytes an LZ4-compressed Silf or Glat table may expand to.  graphite2
 * takes any size its 27-bit field holds (128 MB) and so did fontvm, up to
 * the font's memory cap; the largest in the default corpus is Awami
 * Nastaliq's Silf, 1,331,103 bytes (from 167,035). */
#define GRV_BUDGET_TABLE_BYTES (32u * 1024u * 1024u)

/* Where each table graphite2 reads through its wrapper keeps its
 * decompressed bytes (fv_gr_face.decompressed): its own tables, and the
 * sfnt tables without a version of their own (F-39). */
enum grv_table_slot { GRV_SLOT_SILF, GRV_SLOT_GLAT, GRV_SLOT_GLOC, GRV_SLOT_FEAT, GRV_SLOT_SILL,
                      GRV_SLOT_HMTX, GRV_SLOT_GLYF, GRV_SLOT_LOCA, GRV_TABLE_SLOTS };

/* A piece of rule code (a sub-span of the Silf subtable).  32 bytes: a
 * face holds two per rule (Padauk 886 rules, Annapurna 758). */
typedef struct grv_code {
    fv_span code;
    /* The decoded form the machine runs (grv_compile); NULL until then.  A
     * face's rule code is decoded into one block per pass (grv_pass.insns). */
    grv_insn *insns;
    uint32_t offset;      /* offset of the code inside the Silf subtable */
    uint32_t num_insns;   /* including the final GRV_XOP_END and GRV_XOP_BAD */
} grv_code;

typedef struct grv_rule {
    grv_code constraint;  /* empty: always true */
    grv_code action;
    uint16_t sort;        /* number of slots the rule spans (incl. pre-context) */
    uint8_t pre_context;
    uint8_t deletes;      /* action contains Delete or makes temporary copies:
                           * collect garbage after it */
} grv_rule;

typedef struct grv_pass {
    uint8_t flags, max_rule_loop, max_rule_context, max_backup;
    uint8_t num_coll_runs, kern_colls, reverse_dir, collision_threshold;
    uint16_t num_rules, num_rows, num_transitional, num_success, num_columns;
    uint16_t min_pre, max_pre;
    uint32_t num_cols_glyphs;   /* entries in cols */
    uint16_t *cols;             /* glyph -> column, 0xFFFF = none */
    uint16_t *trans;            /* num_transitional * num_columns */
    uint16_t *start_states;     /* max_pre - min_pre + 1 */
    uint32_t *state_rule_off;   /* num_success + 1 offsets into state_rules */
    uint16_t *state_rules;      /* per success state, sorted by (sort desc, index asc) */
    grv_rule *rules;
    grv_code pass_constraint;
    /* The decoded code of every rule and of the pass constraint, one block
     * (each grv_code's insns points into it): one allocation per code cost
     * its header and rounding, 45 KiB of Annapurnarc2's face. */
    grv_insn *insns;
} grv_pass;

typedef struct grv_pseudo {
    uint32_t unicode;
    uint16_t gid;
} grv_pseudo;

typedef struct grv_silf {
    uint32_t version;       /* Silf table version */
    uint32_t rule_version;
    uint16_t max_glyph_id;
    uint8_t num_passes, i_subst, i_pos, i_just, i_bidi, flags;
    uint8_t attr_pseudo, attr_break, attr_dir, attr_mirror, attr_skip_passes;
    uint8_t num_jlevels;
    uint8_t jattr[GRV_MAX_JLEVELS][4]; /* per level: stretch, shrink, step, weight attrs */
    uint16_t num_lig_comp;
    uint8_t num_user, max_comp_per_lig, direction, attr_collisions;
    uint16_t lb_gid;
    uint16_t num_pseudo;
    grv_pseudo *pseudos;
    uint16_t num_classes, num_linear;
    uint32_t *class_off;     /* num_classes + 1, in u16 units into class_data */
    uint16_t *class_data;
    uint32_t class_data_len;
    grv_pass *passes;
    fv_span data;            /* the (decompressed) subtable; empty once the face is made */
} grv_silf;

typedef struct grv_feature {
    uint32_t id;
    uint16_t flags, label;
    uint16_t num_settings;
    int16_t *setting_values;
    uint16_t *setting_labels;
    uint32_t max_value;
    int32_t default_value;
} grv_feature;

typedef struct grv_lang {
    uint32_t tag;
    uint16_t num_settings;
    uint32_t *feat_ids;
    int16_t *values;
} grv_lang;

/* Per-glyph data: metrics from hmtx/glyf and Graphite attributes from Glat. */
typedef struct grv_glyph {
    uint16_t advance;
    int16_t x_min, y_min, x_max, y_max;
} grv_glyph;

/* Where one glyph attribute's values lie (glat.c make_columns): glyph
 * first + i's at attrs[at + i] for i < count; every other glyph's value is
 * 0, so first + count <= num_glyphs. */
typedef struct grv_attr_col {
    uint32_t at, first, count;
} grv_attr_col;

/* Glat v3 collision octabox of one glyph (GDL manual, "Collision
 * avoidance": the glyph's bounding box cut by the two diagonal bounds, and
 * up to 16 sub-boxes of a 4x4 grid, each with its own diagonal bounds).
 * The file stores each edge as a fraction n/255 of the glyph's bounding box
 * (x/y) or of its diagonal extent (x+y "sum" and x-y "diff"); these are
 * the edges in font units. */
typedef struct grv_slant {
    float si, sa, di, da;  /* x+y min/max, x-y min/max */
} grv_slant;

typedef struct grv_subbox {
    float xi, xa, yi, ya;
    grv_slant sl;
} grv_subbox;

typedef struct grv_octabox {
    grv_slant sl;          /* the glyph's overall diagonal bounds */
    uint32_t first_sub;    /* index into fv_gr_face.subboxes */
    uint8_t num_subs;
    uint8_t present;       /* 0: no octabox (slant bounds all 0) */
} grv_octabox;

/* The sfnt tables as graphite2 reads them (tables.c): the spans its
 * caller's table lookup would hand it, and what it takes from them. */
typedef struct grv_sfnt_view {
    fv_span head, hhea, hmtx, maxp, cmap, glyf, loca; /* glyf/loca empty when absent */
    uint32_t maxp_glyphs;         /* maxp's numGlyphs: glyphs with outlines and metrics */
    uint16_t num_long_metrics;    /* hhea's numberOfHMetrics */
    uint8_t long_loca;            /* head's indexToLocFormat */
} grv_sfnt_view;

struct fv_gr_face {
    fv_font *font;
    fv_mem *mem;
    const sfnt_font *sfnt;
    uint32_t num_glyphs;          /* the larger of maxp's count and Gloc's (graphite2's) */
    uint16_t upem;
    int16_t descent;              /* hhea (graphite2 reads 0 for the ascent metric) */
    grv_glyph *glyphs;            /* num_glyphs */
    uint16_t num_attrs;           /* from Gloc */
    int16_t *attrs;               /* by attribute (glat.c make_columns); NULL when sparse */
    grv_attr_col *attr_col;       /* num_attrs: where attribute a's values lie in attrs */
    /* Large tables sparse instead when that is smaller (glat.c
     * arrange_attrs, make_sparse; Awami Nastaliq): per glyph, where its
     * values start, and per 16 attributes a mask of the non-zero ones (low
     * 16 bits) and how many of the glyph's values come before (high 16). */
    uint32_t *attr_base;          /* num_glyphs */
    uint32_t *attr_groups;        /* num_glyphs * attr_ngroups */
    int16_t *attr_values;
    uint32_t attr_ngroups;
    grv_octabox *octaboxes;       /* num_glyphs, Glat v3 only (else NULL) */
    uint8_t collision_boxes;      /* Glat version >= 3.0 read as signed: collisions usable */
    grv_subbox *subboxes;
    uint32_t num_subboxes;
    /* owned LZ4 output, by grv_table_slot, while loading; once the face is
     * made only the Silf slot holds a block: the rule code (face.c
     * own_rule_code) */
    uint8_t *decompressed[GRV_TABLE_SLOTS];
    /* The cmap's answer for every BMP code point, as graphite2's cache
     * holds them (cmap.c): a page index of 256 entries, then pages of 256
     * glyph ids, page 0 the empty one shared by every page without a
     * glyph; grv_cmap_lookup reads it. */
    uint16_t *cmap_bmp;
    fv_span cmap_smp;             /* graphite2's format 12 subtable (cmap.c), or empty */
    uint32_t cmap_smp_groups;
    grv_silf silf;
    uint16_t num_features;
    grv_feature *features;
    uint16_t num_langs;
    grv_lang *langs;
    fv_gr_trace_fn trace;
    void *trace_user;
    uint64_t *op_counts;
    grv_sfnt_view tables;         /* head, hhea, hmtx, maxp, cmap, glyf, loca */
    /* Slots this face's segments needed beyond their text and the pool's
     * fixed reservation, per 256 characters (0..256): the most any
     * segment shaped so far needed (grv_shape_segment), added to the next
     * segments' pools so that they do not grow (a growth holds the old
     * pool and the new one at once).  Atomic: segments of one face may be
     * shaped on several threads.  It sizes memory only, never output. */
    _Atomic uint32_t pool_spare;
};

/* ---- loading (tables.c, silf.c, glat.c, feat.c, sill.c, face.c) ---- */
/* graphite2's view of table `tag`: the first directory record with the
 * tag, absent (0) when it runs past the end of the file or holds fewer
 * than 4 bytes. */
int grv_table(const sfnt_font *sf, uint32_t tag, fv_span *out);
/* Fills face->tables; FV_E_GR_BAD_SFNT when graphite2 refuses the face for
 * one of them. */
fv_status grv_sfnt_tables(fv_gr_face *face, fv_error *err);
/* The character map as graphite2 reads it (cmap.c): face->cmap_bmp and
 * cmap_smp; a code point's glyph, not clamped to the glyph count. */
fv_status grv_cmap_load(fv_gr_face *face, fv_error *err);
uint32_t grv_cmap_lookup(const fv_gr_face *face, uint32_t c);
/* Glyph g's advance and bounding box as graphite2 reads them (zero past
 * maxp's count); FV_E_GR_BAD_SFNT for a box graphite2 refuses. */
fv_status grv_glyph_metrics(const fv_gr_face *face, uint32_t g, grv_glyph *gl, fv_error *err);
fv_status grv_silf_load(fv_gr_face *face, fv_span table, fv_error *err);
void grv_silf_free(fv_gr_face *face);
fv_status grv_glat_load(fv_gr_face *face, fv_span glat, fv_span gloc, fv_error *err);
/* Turns sparse attributes back into the dense array (tests that rewrite
 * a loaded face's attributes); FV_E_NOMEM only. */
fv_status grv_glat_dense(fv_gr_face *face);
fv_status grv_feat_load(fv_gr_face *face, fv_span feat, fv_error *err);
fv_status grv_sill_load(fv_gr_face *face, fv_span sill, fv_error *err);
void grv_feat_free(fv_gr_face *face);
/* Sets *slot to value if feature f takes it, as graphite2 does (feat.c). */
void grv_feature_set(const grv_feature *f, int32_t *slot, int32_t value);
/* Every feature's value (face->num_features of them) for a segment in
 * language lang (0: none), as gr_face_featureval_for_lang gives them. */
void grv_features_for_lang(const fv_gr_face *face, uint32_t lang, int32_t *values);
/* graphite2's own table `tag` as its table wrapper hands it over: LZ4
 * decompressed (into face->decompressed[slot]) when it holds at least 20
 * bytes and its version is min_version or more (Silf 5.0, Glat 3.0, the
 * rest 0xFFFFFFFF).  A table the wrapper cannot decode is absent, with
 * *dropped saying why (NULL otherwise); the error is FV_E_BUDGET_TABLE_SIZE
 * or FV_E_NOMEM. */
fv_status grv_gr_table(fv_gr_face *face, uint32_t tag, uint32_t min_version, unsigned slot,
                       fv_span *out, const char **dropped, fv_error *err);
fv_status grv_silf_verify(fv_gr_face *face, fv_error *err);
fv_status grv_face_new(fv_font *font, fv_gr_face **out, int verify, fv_error *err);
/* Face-level lookups (segment.c, silf.c). */
/* Glyph gid's attribute attr, 0 past the glyphs or the attributes; the
 * by-attribute table here (rules read glyph attributes all the time), the
 * sparse one out of line (glat.c). */
int16_t grv_glyph_attr_sparse(const fv_gr_face *face, uint32_t gid, uint32_t attr);
static inline int16_t grv_glyph_attr(const fv_gr_face *face, uint32_t gid, uint32_t attr)
{
    if (FV_UNLIKELY(face->attrs == NULL) || attr >= face->num_attrs)
        return grv_glyph_attr_sparse(face, gid, attr);
    /* a glyph below the window wraps past its count, and one past the
     * glyphs lies past it (first + count <= num_glyphs) */
    const grv_attr_col *c = &face->attr_col[attr];
    uint32_t i = gid - c->first;
    return i < c->count ? face->attrs[c->at + i] : 0;
}
int32_t grv_class_glyph(const grv_silf *silf, uint32_t cls, int32_t index);
int32_t grv_class_index(const grv_silf *silf, uint32_t cls, uint32_t gid);

#endif
