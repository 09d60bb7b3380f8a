/* Glat/Gloc: per-glyph Graphite attributes (Glat versions 1-3, v3 possibly
 * LZ4-compressed and carrying collision octaboxes), plus the glyph metrics
 * the engine needs from hmtx and the glyf headers. */
#include <string.h>

#include "common/check.h"
#include "common/compat.h"
#include "graphite/face.h"

#define GLAT_FAIL(tag, off, msg) \
    do { st = sfnt_fail(err, FV_E_GR_BAD_GLAT, (tag), (off), (msg)); goto done; } while (0)

/* Every glyph's advance and bounding box (tables.c: graphite2 reads them
 * for the glyphs maxp counts; pseudo glyphs have neither). */
static fv_status load_metrics(fv_gr_face *face, fv_error *err)
{
    for (uint32_t g = 0; g < face->num_glyphs; g++) {
        fv_status st = grv_glyph_metrics(face, g, &face->glyphs[g], err);
        if (st != FV_OK)
            return st;
    }
    return FV_OK;
}

/* One edge of an octabox: `z`/255 of the way from lo to hi, in the float
 * arithmetic graphite2 uses (multiply, then divide), so that edges agree
 * to the bit with its collision results. */
static float box_edge(float lo, float hi, uint8_t z)
{
    return lo + (hi - lo) * (float)z / 255.0f;
}

/* Reads glyph g's octabox (the entry starts with it: a u16 bitmap of the
 * 4x4 sub-box grid, 4 diagonal bytes, then 8 bytes per sub-box: x min,
 * x max, y min, y max, sum min, sum max, diff min, diff max).  Edges are
 * relative to the glyph's bounding box from glyf and to its diagonal
 * extent (sum x+y from xMin+yMin to xMax+yMax, diff x-y from xMin-yMax to
 * xMax-yMin).  The caller checked that 6 + 8n bytes are there. */
static fv_status read_octabox(fv_gr_face *face, uint32_t g, fv_span ent, unsigned n,
                              uint32_t *cap, fv_error *err)
{
    if (g >= face->num_glyphs || !face->octaboxes)
        return FV_OK;
    float xi = 0, yi = 0, xa = 0, ya = 0;
    if (g < face->tables.maxp_glyphs) {
        const grv_glyph *gl = &face->glyphs[g];
        xi = gl->x_min; yi = gl->y_min; xa = gl->x_max; ya = gl->y_max;
    }
    float smin = xi + yi, smax = xa + ya, dmin = xi - ya, dmax = xa - yi;
    uint8_t b[8];
    for (unsigned k = 0; k < 4; k++)
        if (fv_rd_u8(ent, 2 + k, &b[k]) != FV_OK)
            return sfnt_fail(err, FV_E_GR_BAD_GLAT, SFNT_TAG_Glat, 0, "octabox");
    grv_octabox *o = &face->octaboxes[g];
    o->present = 1;
    o->sl.si = box_edge(smin, smax, b[0]);
    o->sl.sa = box_edge(smin, smax, b[1]);
    o->sl.di = box_edge(dmin, dmax, b[2]);
    o->sl.da = box_edge(dmin, dmax, b[3]);
    o->num_subs = (uint8_t)n;
    o->first_sub = face->num_subboxes;
    if (n == 0)
        return FV_OK;
    if (face->num_subboxes + n > *cap) {
        /* at most 16 sub-boxes per glyph and 65536 glyphs: the array stays
         * below 2^20 entries, and the memory cap bounds it further */
        uint32_t ncap = *cap ? *cap * 2 : 256;
        while (ncap < face->num_subboxes + n)
            ncap *= 2;
        /* not cleared: entries are written before they are counted */
        grv_subbox *ns = fv_mem_alloc(face->mem, (size_t)ncap * sizeof(grv_subbox));
        if (!ns)
            return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_Glat, 0, "octabox sub-boxes");
        if (face->num_subboxes)
            memcpy(ns, face->subboxes, (size_t)face->num_subboxes * sizeof(grv_subbox));
        fv_mem_free(face->mem, face->subboxes);
        face->subboxes = ns;
        *cap = ncap;
    }
    for (unsigned k = 0; k < n; k++) {
        for (unsigned j = 0; j < 8; j++)
            if (fv_rd_u8(ent, 6 + 8u * k + j, &b[j]) != FV_OK)
                return sfnt_fail(err, FV_E_GR_BAD_GLAT, SFNT_TAG_Glat, 0, "octabox sub-box");
        grv_subbox *sb = &face->subboxes[face->num_subboxes++];
        sb->xi = box_edge(xi, xa, b[0]);
        sb->xa = box_edge(xi, xa, b[1]);
        sb->yi = box_edge(yi, ya, b[2]);
        sb->ya = box_edge(yi, ya, b[3]);
        sb->sl.si = box_edge(smin, smax, b[4]);
        sb->sl.sa = box_edge(smin, smax, b[5]);
        sb->sl.di = box_edge(dmin, dmax, b[6]);
        sb->sl.da = box_edge(dmin, dmax, b[7]);
    }
    return FV_OK;
}

/* The sub-boxes' array sized once for what the glyphs' octabox bitmaps
 * announce (read_octabox grows it only if the walk finds more): growing it
 * by doubling, then cutting it to fit, copied it a dozen times on
 * Harmattan.  A bitmap that cannot be read counts nothing here; the walk
 * fails the face for it. */
static fv_status reserve_subboxes(fv_gr_face *face, fv_span gloc, fv_span glat, int longoff,
                                  int64_t nentries, uint32_t *cap, fv_error *err)
{
    uint32_t n = 0;
    for (uint32_t g = 0; g < face->num_glyphs && (int64_t)g < nentries; g++) {
        uint32_t a = 0;
        uint16_t a16 = 0, bitmap = 0;
        if (longoff ? fv_rd_u32(gloc, 8 + 4 * (uint64_t)g, &a) != FV_OK
                    : fv_rd_u16(gloc, 8 + 2 * (uint64_t)g, &a16) != FV_OK)
            break;
        if (!longoff)
            a = a16;
        if (fv_rd_u16(glat, a, &bitmap) == FV_OK)
            for (uint16_t b = bitmap; b; b &= (uint16_t)(b - 1))
                n++; /* at most 16 per glyph and 65,536 glyphs */
    }
    if (n == 0)
        return FV_OK;
    face->subboxes = fv_mem_alloc(face->mem, (size_t)n * sizeof(grv_subbox));
    if (!face->subboxes)
        return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_Glat, 0, "octabox sub-boxes");
    *cap = n;
    return FV_OK;
}

/* `v` >= `limit` with both read as signed 32-bit numbers (limit positive). */
static int signed_at_least(uint32_t v, uint32_t limit)
{
    return v < 0x80000000u && v >= limit;
}

/* The sub-boxes grew by doubling while Glat was read (read_octabox): the
 * array is cut to what the glyphs use, as the face keeps it for good
 * (Harmattan: 8,192 entries allocated for the ones its glyphs have). */
static fv_status fit_subboxes(fv_gr_face *face, uint32_t cap, fv_error *err)
{
    if (!face->subboxes || face->num_subboxes == cap)
        return FV_OK;
    grv_subbox *fit = fv_mem_alloc(face->mem, (size_t)(face->num_subboxes ? face->num_subboxes : 1) *
                                                   sizeof(grv_subbox));
    if (!fit)
        return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_Glat, 0, "octabox sub-boxes");
    memcpy(fit, face->subboxes, (size_t)face->num_subboxes * sizeof(grv_subbox));
    fv_mem_free(face->mem, face->subboxes);
    face->subboxes = fit;
    return FV_OK;
}

static fv_status arrange_attrs(fv_gr_face *face, grv_attr_col *col, size_t nz, fv_error *err);

fv_status grv_glat_load(fv_gr_face *face, fv_span glat, fv_span gloc, fv_error *err)
{
    fv_status st = FV_OK;
    /* col[a]: the first and (in count, until arrange_attrs) the last glyph
     * with a non-zero attribute a, from the Glat walk (first num_glyphs:
     * none); nz: the non-zero values */
    grv_attr_col *col = NULL;
    size_t nz = 0;
    {
        /* COMPAT(graphite2): pseudo glyphs past maxp's count keep their
         * attributes when Gloc lists them; the face covers both. */
        uint16_t gflags;
        if (fv_rd_u16(gloc, 4, &gflags) == FV_OK && gloc.len >= 8) {
            uint16_t na = 0;
            (void)fv_rd_u16(gloc, 6, &na);
            uint64_t entries = (gloc.len - 8) / ((gflags & 1) ? 4u : 2u);
            if ((gflags & 2) && entries > na)
                entries -= na; /* attribute name ids follow the offsets */
            if (entries > 1 && entries - 1 > face->num_glyphs && entries - 1 <= 0xffffu)
                face->num_glyphs = (uint32_t)(entries - 1);
        }
    }
    face->glyphs = fv_mem_array(face->mem, face->num_glyphs ? face->num_glyphs : 1,
                                sizeof(grv_glyph));
    if (!face->glyphs)
        return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_Glat, 0, "glyph table");
    st = load_metrics(face, err);
    if (st != FV_OK)
        return st;
    if (!glat.len || !gloc.len)
        return sfnt_fail(err, FV_E_MISSING_TABLE, glat.len ? SFNT_TAG_Gloc : SFNT_TAG_Glat, 0,
                         "Graphite font without Glat/Gloc");
    uint32_t gver, version = 0;
    uint16_t flags, nattrs;
    if (fv_rd_u32(gloc, 0, &gver) != FV_OK || fv_rd_u16(gloc, 4, &flags) != FV_OK ||
        fv_rd_u16(gloc, 6, &nattrs) != FV_OK)
        GLAT_FAIL(SFNT_TAG_Gloc, 0, "header");
    /* graphite2's Gloc checks: version below 2.0, 1..0x3000 attributes,
     * at most 65535 glyph entries (after the optional attribute names).
     * COMPAT(graphite2): the version limits compare the versions as signed
     * numbers: measured on Padauk, Scheherazade and Awami Nastaliq, Gloc
     * versions 0x80000000..0xFFFFFFFF are accepted (0x00020000 and
     * 0x7FFFFFFF refused), and Glat versions 0x80000000..0xFFFFFFFF pass the
     * "below 4.0" check and are then read as version 3 (octaboxes, 16-bit
     * attribute runs; a v3 Glat with version 0xFFFFFFFF shapes). */
    int unusable = signed_at_least(gver, 0x00020000);
    int longoff = flags & 1;
    size_t esz = longoff ? 4 : 2;
    int64_t nentries = ((int64_t)gloc.len - 8 - ((flags & 2) ? 2 * (int64_t)nattrs : 0)) /
                           (int64_t)esz - 1;
    if (nentries < 0 || nentries > 65535 || nattrs == 0 || nattrs > 0x3000 || glat.len < 4)
        unusable = 1;
    if (!unusable && fv_rd_u32(glat, 0, &version) != FV_OK)
        unusable = 1;
    if (!unusable && (signed_at_least(version, 0x00040000) || (version >= 0x00030000 && glat.len < 8)))
        unusable = 1;
    if (unusable)
        GLAT_FAIL(SFNT_TAG_Gloc, 0, "unusable Gloc/Glat header (version or counts)");
    /* COMPAT(graphite2): a pass may ask for collisions only when Glat's
     * version, again as a signed number, is 3.0 or more (silf.c). */
    face->collision_boxes = (uint8_t)signed_at_least(version, 0x00030000);
    /* COMPAT(graphite2): the face fails when Gloc lists fewer glyphs than
     * maxp counts (measured on charis, Padauk, small.ttf and Awami Nastaliq
     * with Gloc shortened: maxp's count of entries is accepted, one fewer
     * refused, whatever Silf's maxGlyphID); more (pseudo glyphs) is fine. */
    if (nentries < (int64_t)face->tables.maxp_glyphs)
        GLAT_FAIL(SFNT_TAG_Gloc, 0, "Gloc lists fewer glyphs than maxp");
    int octaboxes = 0;
    if (version >= 0x00030000) {
        uint32_t comp;
        if (fv_rd_u32(glat, 4, &comp) != FV_OK)
            GLAT_FAIL(SFNT_TAG_Glat, 4, "header");
        /* COMPAT(graphite2): 1.3.14 assumes octaboxes in every v3 table,
         * whatever the flag says. */
        octaboxes = 1;
    }
    if (octaboxes) {
        face->octaboxes = fv_mem_array(face->mem, face->num_glyphs ? face->num_glyphs : 1,
                                       sizeof(grv_octabox));
        if (!face->octaboxes) /* cleared by fv_mem_array: a glyph without one is absent */
            return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_Glat, 0, "octaboxes");
    }
    uint32_t sub_cap = 0;
    if (octaboxes) {
        st = reserve_subboxes(face, gloc, glat, longoff, nentries, &sub_cap, err);
        if (st != FV_OK)
            return st;
    }
    face->num_attrs = nattrs;
    size_t total = (size_t)face->num_glyphs * nattrs;
    face->attrs = fv_mem_array(face->mem, total ? total : 1, sizeof(int16_t));
    col = fv_mem_alloc(face->mem, (nattrs ? nattrs : 1) * sizeof(grv_attr_col));
    if (!face->attrs || !col) {
        fv_mem_free(face->mem, col);
        return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_Glat, 0, "attributes");
    }
    for (uint32_t k = 0; k < nattrs; k++)
        col[k] = (grv_attr_col){0, face->num_glyphs, 0};
    for (uint32_t g = 0; g < face->num_glyphs && (int64_t)g < nentries; g++) {
        uint32_t a, e;
        uint64_t lo = 8 + (uint64_t)g * esz;
        if (longoff) {
            if (fv_rd_u32(gloc, lo, &a) != FV_OK || fv_rd_u32(gloc, lo + 4, &e) != FV_OK)
                break; /* fewer Gloc entries than glyphs: the rest have no attributes */
        } else {
            uint16_t a16, e16;
            if (fv_rd_u16(gloc, lo, &a16) != FV_OK || fv_rd_u16(gloc, lo + 2, &e16) != FV_OK)
                break;
            a = a16;
            e = e16;
        }
        /* graphite2 fails the glyph (and the preloaded face) when its entry
         * starts at or past the end of Glat, ends past it, or (below) is
         * shorter than one run or longer than one run per attribute. */
        FV_TESTCASE(e == glat.len); /* the last glyph's attributes end Glat */
        if (a >= glat.len || e > glat.len || e < a)
            GLAT_FAIL(SFNT_TAG_Gloc, lo, "glyph attribute range out of Glat");
        fv_span ent;
        if (fv_span_sub(glat, a, (uint64_t)e - a, &ent) != FV_OK)
            GLAT_FAIL(SFNT_TAG_Glat, a, "glyph entry");
        uint64_t p = 0;
        if (octaboxes) {
            if (a >= e)
                GLAT_FAIL(SFNT_TAG_Glat, a, "empty glyph entry");
            uint16_t bitmap;
            if (fv_rd_u16(ent, 0, &bitmap) != FV_OK)
                GLAT_FAIL(SFNT_TAG_Glat, a, "octabox");
            unsigned n = 0;
            for (uint16_t b = bitmap; b; b &= (uint16_t)(b - 1))
                n++;
            p = 6 + 8u * n;
            if (p > ent.len)
                GLAT_FAIL(SFNT_TAG_Glat, a, "octabox subboxes");
            st = read_octabox(face, g, ent, n, &sub_cap, err);
            if (st != FV_OK)
                goto done;
        }
        uint64_t minrun = version < 0x00020000 ? 4 : 6;
        if (ent.len - p < minrun || ent.len - p > minrun * nattrs)
            GLAT_FAIL(SFNT_TAG_Glat, a + p, "glyph entry size out of range");
        int16_t *dst = face->attrs + (size_t)g * nattrs;
        /* COMPAT(graphite2): runs are walked the way graphite2's Glat
         * iterator walks them: a value is read while at least two bytes of
         * the entry remain, a run ends after `count` values (so a count of
         * 0 runs to the end of the entry), zero values are dropped, and the
         * non-zero attribute numbers must strictly increase or the glyph
         * (and with it the face) fails.  Numbers past numAttribs are kept
         * by graphite2 but can never be read (the verifier bounds them). */
        uint64_t w = version < 0x00020000 ? 1 : 2;
        uint64_t re = p, v = p + 2 * w, n = 0;
        int64_t last_key = -1;
        /* COMPAT(graphite2): a glyph may carry at most numAttribs non-zero
         * values, wherever their numbers lie; one more fails the face.
         * Measured on Tagmukay (Glat 1.0, numAttribs 36; glyph 333 holds 26
         * values, numbered up to 35): numAttribs 26 loads, 25 does not;
         * with three of those values zeroed 23 loads and 22 does not. */
        uint32_t nonzero = 0;
        while (ent.len >= 1 && v < ent.len - 1) {
            uint32_t key, run;
            if (w == 1) {
                uint8_t k8 = 0, r8 = 0;
                (void)fv_rd_u8(ent, re, &k8);
                (void)fv_rd_u8(ent, re + 1, &r8);
                key = k8;
                run = r8;
            } else {
                uint16_t k16 = 0, r16 = 0;
                (void)fv_rd_u16(ent, re, &k16);
                (void)fv_rd_u16(ent, re + 2, &r16);
                key = k16;
                run = r16;
            }
            key = (uint16_t)(key + n);
            int16_t val = 0;
            (void)fv_rd_s16(ent, v, &val);
            if (val != 0) {
                if ((int64_t)key <= last_key)
                    GLAT_FAIL(SFNT_TAG_Glat, a + v, "attribute numbers not increasing");
                if (++nonzero > nattrs)
                    GLAT_FAIL(SFNT_TAG_Glat, a + v, "more non-zero attribute values than numAttribs");
                last_key = key;
                if (key < nattrs) {
                    dst[key] = val;
                    nz++;
                    if (col[key].first == face->num_glyphs)
                        col[key].first = g;
                    col[key].count = g; /* glyphs come in order */
                }
            }
            n++;
            v += 2;
            if (n == run) {
                n = 0;
                re = v;
                v += 2 * w;
            }
        }
    }
    st = fit_subboxes(face, sub_cap, err);
    if (st == FV_OK) {
        st = arrange_attrs(face, col, nz, err);
        col = NULL; /* the face's now, or freed */
    }
done:
    fv_mem_free(face->mem, col);
    return st;
}

/* Large attribute tables may be kept sparse (fv_gr_face.attr_groups):
 * the dense array was most of a big face (charis_r_gr: 4,858 glyphs x 211
 * attributes, 2,002 KiB, of which 35,150 values, 3.4%, are not zero;
 * graphite2 keeps its Glat bytes, 979 KiB for the whole face).  Below this
 * size the attributes stay by attribute whatever the sparse form would
 * take: a lookup there is a few instructions less, and rules read glyph
 * attributes all the time. */
#define GRV_DENSE_ATTR_BYTES (256u * 1024u)

/* Whether the 16 values at v are all 0. */
static inline int group_is_zero(const int16_t *v)
{
    uint64_t w[4];
    memcpy(w, v, sizeof w);
    return (w[0] | w[1] | w[2] | w[3]) == 0;
}

/* The sparse form of the glyph-major table the loader filled, nz of its
 * values not zero. */
static fv_status make_sparse(fv_gr_face *face, size_t nz, fv_error *err)
{
    const uint32_t na = face->num_attrs, ng = (na + 15) / 16;
    size_t ngroups = (size_t)face->num_glyphs * ng;
    uint32_t *base = fv_mem_array(face->mem, face->num_glyphs, sizeof(uint32_t));
    uint32_t *groups = fv_mem_array(face->mem, ngroups, sizeof(uint32_t));
    int16_t *values = fv_mem_array(face->mem, nz ? nz : 1, sizeof(int16_t));
    if (!base || !groups || !values) {
        fv_mem_free(face->mem, base);
        fv_mem_free(face->mem, groups);
        fv_mem_free(face->mem, values);
        return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_Glat, 0, "attributes");
    }
    uint32_t k = 0;
    for (uint32_t g = 0; g < face->num_glyphs; g++) {
        const int16_t *row = face->attrs + (size_t)g * na;
        base[g] = k;
        for (uint32_t j = 0; j < ng; j++) {
            uint32_t mask = 0, local = k - base[g];
            /* most groups of a sparse table are all zeros: 16 values
             * tested at once (Awami: 3.4% of the values are not zero) */
            if (j * 16 + 16 <= na && group_is_zero(row + j * 16)) {
                groups[(size_t)g * ng + j] = local << 16;
                continue;
            }
            for (uint32_t b = 0; b < 16 && j * 16 + b < na; b++)
                if (row[j * 16 + b]) {
                    /* nz counted every non-zero value the walk stored */
                    if (FV_NEVER(k >= nz))
                        break;
                    mask |= 1u << b;
                    values[k++] = row[j * 16 + b];
                }
            groups[(size_t)g * ng + j] = mask | local << 16; /* local < na <= 0x3000 */
        }
    }
    fv_mem_free(face->mem, face->attrs);
    face->attrs = NULL;
    face->attr_base = base;
    face->attr_groups = groups;
    face->attr_values = values;
    face->attr_ngroups = ng;
    return FV_OK;
}

/* The table by attribute (fv_gr_face.attr_col), each attribute's values
 * from its first glyph with a non-zero one to its last: a glyph attribute
 * is mostly a property of a few glyphs with neighbouring ids (a mark's
 * attachment point, a base's), and about half the attributes of Annapurna
 * and Padauk are zero everywhere (56 of 121, 52 of 88), which keeps none.
 * Annapurnarc2 holds 16,645 values where the whole columns of the
 * attributes that are not zero everywhere were 53,690 (AnnapurnaSIL
 * 24,510 for 70,006, Padauk 20,048 for 46,256, Scheherazade 25,870 for
 * 75,313).  A lookup loads the window, then the value if the glyph lies
 * in it: the same loads as whole columns, one compare more
 * (grv_glyph_attr).  col (num_attrs entries) holds the windows
 * (arrange_attrs) of the glyph-major table the loader filled, whose Glat
 * walk found them: no column of it is scanned (that scan, strided through
 * the table, was most of grv_glat_load on Harmattan). */
static fv_status make_columns(fv_gr_face *face, grv_attr_col *col, size_t cells, fv_error *err)
{
    const uint32_t na = face->num_attrs;
    /* not cleared: the windows cover every cell once */
    int16_t *cols = fv_mem_alloc(face->mem, (cells ? cells : 1) * sizeof(int16_t));
    if (!cols) {
        fv_mem_free(face->mem, col);
        return sfnt_fail(err, FV_E_NOMEM, SFNT_TAG_Glat, 0, "attributes");
    }
    for (uint32_t a = 0; a < na; a++)
        for (uint32_t i = 0; i < col[a].count; i++)
            cols[col[a].at + i] = face->attrs[(size_t)(col[a].first + i) * na + a];
    fv_mem_free(face->mem, face->attrs);
    face->attrs = cols;
    face->attr_col = col;
    return FV_OK;
}

/* The glyph-major table the loader filled, by attribute (make_columns),
 * or sparse (make_sparse) when it is large and the sparse form is the
 * smaller: Awami Nastaliq's (2,194.8 KiB face sparse, 2,253.9 by
 * attribute); charis_r_gr's is smaller by attribute (684.6 KiB face,
 * 785.1 sparse). */
static fv_status arrange_attrs(fv_gr_face *face, grv_attr_col *col, size_t nz, fv_error *err)
{
    const uint32_t na = face->num_attrs, ng = face->num_glyphs;
    size_t cells = 0, total = (size_t)ng * na;
    for (uint32_t a = 0; a < na; a++) {
        int none = col[a].first == ng;
        col[a].at = (uint32_t)cells; /* cells <= na * ng: fits, na <= 0x3000, ng <= 65536 */
        col[a].count = none ? 0 : col[a].count - col[a].first + 1;
        col[a].first = none ? 0 : col[a].first;
        cells += col[a].count;
    }
    size_t sparse = (size_t)ng * (1 + (na + 15) / 16) * sizeof(uint32_t) + nz * sizeof(int16_t);
    size_t by_attr = cells * sizeof(int16_t) + (size_t)na * sizeof(grv_attr_col);
    if (total * sizeof(int16_t) > GRV_DENSE_ATTR_BYTES && sparse < by_attr) {
        fv_mem_free(face->mem, col);
        return make_sparse(face, nz, err);
    }
    return make_columns(face, col, cells, err);
}

fv_status grv_glat_dense(fv_gr_face *face)
{
    const uint32_t na = face->num_attrs, ng = face->num_glyphs;
    if (!face->attrs && !face->attr_groups)
        return FV_OK;
    /* every attribute its own column, in order: tests rewrite them in place */
    size_t total = (size_t)ng * na;
    int16_t *dense = fv_mem_array(face->mem, total ? total : 1, sizeof(int16_t));
    grv_attr_col *col = fv_mem_array(face->mem, na ? na : 1, sizeof(grv_attr_col));
    if (!dense || !col) {
        fv_mem_free(face->mem, dense);
        fv_mem_free(face->mem, col);
        return FV_E_NOMEM;
    }
    for (uint32_t a = 0; a < na; a++) {
        col[a] = (grv_attr_col){a * ng, 0, ng};
        for (uint32_t g = 0; g < ng; g++)
            dense[col[a].at + g] = grv_glyph_attr(face, g, a);
    }
    fv_mem_free(face->mem, face->attrs);
    fv_mem_free(face->mem, face->attr_col);
    fv_mem_free(face->mem, face->attr_base);
    fv_mem_free(face->mem, face->attr_groups);
    fv_mem_free(face->mem, face->attr_values);
    face->attr_base = face->attr_groups = NULL;
    face->attr_values = NULL;
    face->attrs = dense;
    face->attr_col = col;
    return FV_OK;
}

/* Set bits of a 16-bit mask (no popcount instruction in the baseline
 * x86-64 the release build targets). */
static inline uint32_t popcount16(uint32_t x)
{
    x = x - ((x >> 1) & 0x5555u);
    x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
    x = (x + (x >> 4)) & 0x0f0fu;
    return (x + (x >> 8)) & 0x1fu;
}

int16_t grv_glyph_attr_sparse(const fv_gr_face *face, uint32_t gid, uint32_t attr)
{
    if (gid >= face->num_glyphs || attr >= face->num_attrs)
        return 0;
    /* sparse (make_sparse): the group's mask says whether the value is
     * there, the bits below it where among the glyph's values */
    uint32_t grp = face->attr_groups[(size_t)gid * face->attr_ngroups + (attr >> 4)];
    uint32_t bit = 1u << (attr & 15);
    if (!(grp & bit))
        return 0;
    return face->attr_values[face->attr_base[gid] + (grp >> 16) + popcount16(grp & (bit - 1))];
}
