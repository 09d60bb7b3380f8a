/* glyf: simple and composite glyph parsing, every flag form. */
#include <string.h>

#include "common/compat.h"
#include "sfnt/sfnt.h"

/* Simple-glyph flag bits (OpenType 'glyf'). */
enum {
    FLAG_ON_CURVE = 0x01,
    FLAG_X_SHORT = 0x02,
    FLAG_Y_SHORT = 0x04,
    FLAG_REPEAT = 0x08,
    FLAG_X_SAME_OR_POS = 0x10,
    FLAG_Y_SAME_OR_POS = 0x20,
};

void sfnt_glyph_free(fv_mem *mem, sfnt_glyph *g)
{
    fv_mem_free(mem, g->end_points);
    fv_mem_free(mem, g->points);
    fv_mem_free(mem, g->flags);
    fv_mem_free(mem, g->components);
    memset(g, 0, sizeof *g);
}

/* Makes *p hold at least n elements of `size` bytes, keeping it when it
 * already does (contents are not kept: callers fill every element). */
static int reserve(fv_mem *mem, void *pp, uint32_t *cap, uint32_t n, size_t size)
{
    void **p = (void **)pp;
    if (*p && n <= *cap)
        return 1;
    fv_mem_free(mem, *p);
    *p = fv_mem_array(mem, n, size);
    *cap = *p ? n : 0;
    return *p != NULL;
}

static fv_status glyph_fail(fv_error *err, fv_status kind, uint32_t gid, uint64_t offset,
                            const char *detail)
{
    sfnt_fail(err, kind, SFNT_TAG_glyf, offset, detail);
    if (err)
        err->glyph = gid;
    return kind;
}

/* A flag byte's form for one axis, as what a point's delta is made of:
 * word * (16-bit value at p) + byte * (the byte at p), and the bytes it
 * takes.  Short (S set): the byte, positive if P is set, step 1; not short:
 * the same coordinate if P is set (delta 0, step 0), else the 16-bit
 * value, step 2. */
typedef struct coord_form {
    int8_t word, byte, step, pad;
} coord_form;
#define CF(f, S, P)                                                                       \
    {((f) & (S)) ? 0 : ((f) & (P)) ? 0 : 1, ((f) & (S)) ? (((f) & (P)) ? 1 : -1) : 0,     \
     ((f) & (S)) ? 1 : ((f) & (P)) ? 0 : 2, 0}
#define CF4(f, S, P) CF(f, S, P), CF((f) + 1, S, P), CF((f) + 2, S, P), CF((f) + 3, S, P)
#define CF16(f, S, P) CF4(f, S, P), CF4((f) + 4, S, P), CF4((f) + 8, S, P), CF4((f) + 12, S, P)
#define CF64(f, S, P) CF16(f, S, P), CF16((f) + 16, S, P), CF16((f) + 32, S, P), CF16((f) + 48, S, P)
#define CF256(S, P) CF64(0, S, P), CF64(64, S, P), CF64(128, S, P), CF64(192, S, P)
static const coord_form x_forms[256] = {CF256(FLAG_X_SHORT, FLAG_X_SAME_OR_POS)};
static const coord_form y_forms[256] = {CF256(FLAG_Y_SHORT, FLAG_Y_SAME_OR_POS)};
#undef CF
#undef CF4
#undef CF16
#undef CF64
#undef CF256

/* Reads one coordinate array (x, or y when is_y) for n points into out.
 * COMPAT(freetype): the sums of the 16-bit deltas are kept whole, not
 * wrapped to 16 bits (FreeType 2.12.1 accumulates in FT_Pos; measured: a
 * glyph whose x reaches 12998 there).  At most 65535 deltas of at most
 * 32768 each: the sum fits in 32 bits. */
static FV_ALWAYS_INLINE fv_status read_coords(fv_span gl, uint64_t *pos, const uint8_t *flags, uint32_t n,
                                              const coord_form *forms, fv_vec *out, const int is_y)
{
    int32_t v = 0;
    uint64_t at = *pos;
    uint32_t i = 0;
    while (i < n) {
        /* A point takes at most 2 bytes: the next (bytes left) / 2 points
         * are read with one check.  Where fewer than 2 bytes are left, one
         * point at a time, each read checked (the error names the offset). */
        uint64_t safe = at < gl.len ? (gl.len - at) / 2 : 0;
        if (FV_LIKELY(safe > 0)) {
            uint32_t end = safe < n - i ? i + (uint32_t)safe : n;
            const uint8_t *p = gl.data + at;
            /* Without branches: the flags of real glyphs mix the three
             * forms unpredictably (as branches this loop was fontvm's
             * costliest in cycles on DejaVu Sans, perf).  Two bytes are
             * there to read at every point of the run.  The flag's form
             * (a table, 30 instructions a point when picked by tests;
             * callgrind, DejaVu Sans) weighs the two readings of p and
             * gives the step. */
            const uint8_t *fl = flags + i, *fl_end = flags + end;
            fv_vec *o = out + i;
            for (; fl < fl_end; fl++, o++) {
                const coord_form *f = &forms[*fl];
                int32_t word = (int16_t)(uint16_t)((unsigned)p[0] << 8 | p[1]);
                int32_t delta = word * f->word + (int32_t)p[0] * f->byte;
                v = (int32_t)((uint32_t)v + (uint32_t)delta);
                p += f->step;
                if (is_y)
                    o->y = v;
                else
                    o->x = v;
            }
            i = end;
            at = (uint64_t)(p - gl.data);
            continue;
        }
        const coord_form *f = &forms[flags[i]];
        if (f->step == 1) {
            uint8_t d;
            if (fv_rd_u8(gl, at, &d) != FV_OK)
                break;
            at += 1;
            v += f->byte * (int32_t)d;
        } else if (f->step == 2) {
            int16_t d;
            if (fv_rd_s16(gl, at, &d) != FV_OK)
                break;
            at += 2;
            v += d;
        }
        if (is_y)
            out[i].y = v;
        else
            out[i].x = v;
        i++;
    }
    /* Where the array ends, or the read that found the glyph's end. */
    *pos = at;
    return i == n ? FV_OK : FV_E_TRUNCATED;
}

/* A simple glyph's contour ends and instructions; the flags and
 * coordinates that follow are left to sfnt_glyph_points. */
static fv_status load_simple(fv_span gl, uint32_t base, sfnt_glyph *g, fv_mem *mem, fv_error *err)
{
    uint32_t nc = (uint32_t)g->num_contours;
    uint64_t pos = 10;
    if (!reserve(mem, &g->end_points, &g->cap_end_points, nc ? nc : 1, sizeof *g->end_points))
        return glyph_fail(err, FV_E_NOMEM, g->gid, base, NULL);
    int32_t prev = -1;
    for (uint32_t i = 0; i < nc; i++, pos += 2) {
        if (fv_rd_u16(gl, pos, &g->end_points[i]) != FV_OK)
            return glyph_fail(err, FV_E_TRUNCATED, g->gid, base + pos, "endPtsOfContours");
        /* COMPAT(freetype): contour ends must strictly increase; FreeType
         * rejects the glyph otherwise (Invalid_Outline). */
        if ((int32_t)g->end_points[i] <= prev)
            return glyph_fail(err, FV_E_BAD_GLYPH, g->gid, base + pos, "contour ends not increasing");
        prev = g->end_points[i];
    }
    uint32_t np = nc ? (uint32_t)g->end_points[nc - 1] + 1 : 0;
    if (np > 0xFFFF)
        return glyph_fail(err, FV_E_BAD_GLYPH, g->gid, base + pos, "too many points");
    g->num_points = (uint16_t)np;
    uint16_t ilen;
    if (fv_rd_u16(gl, pos, &ilen) != FV_OK)
        return glyph_fail(err, FV_E_TRUNCATED, g->gid, base + pos, "instructionLength");
    pos += 2;
    if (fv_span_sub(gl, pos, ilen, &g->instructions) != FV_OK)
        return glyph_fail(err, FV_E_TRUNCATED, g->gid, base + pos, "instructions");
    pos += ilen;
    g->data = gl;
    g->points_at = (uint32_t)pos; /* at most 10 + 2 * 32767 + 2 + 65535 */
    g->glyf_offset = base;
    return FV_OK;
}

/* Not inlined into the loader: there the coordinate loops ran short of
 * registers (callgrind, DejaVu Sans: 3 M more instructions). */
FV_NOINLINE fv_status sfnt_glyph_points(const sfnt_glyph *g, uint8_t *flags, fv_vec *points,
                                        fv_error *err)
{
    fv_span gl = g->data;
    uint32_t base = g->glyf_offset, np = g->num_points;
    uint64_t pos = g->points_at;
    for (uint32_t i = 0; i < np;) {
        uint8_t fl, rep = 0;
        /* A flag and its repeat count take at most 2 bytes: the next (bytes
         * left) / 2 flags are read with one check (fewer than 2 bytes
         * left: each byte checked, as below). */
        uint64_t safe = pos < gl.len ? (gl.len - pos) / 2 : 0;
        if (FV_LIKELY(safe > 0)) {
            const uint8_t *p = gl.data + pos;
            for (; safe > 0 && i < np; safe--) {
                fl = *p++;
                rep = 0;
                if (fl & FLAG_REPEAT)
                    rep = *p++;
                if ((uint32_t)rep >= np - i) {
                    pos = (uint64_t)(p - gl.data);
                    return glyph_fail(err, FV_E_BAD_GLYPH, g->gid, base + pos,
                                      "flag repeat past the last point");
                }
                flags[i++] = fl;
                for (uint32_t r = 0; r < rep; r++)
                    flags[i++] = fl;
            }
            pos = (uint64_t)(p - gl.data);
            continue;
        }
        if (fv_rd_u8(gl, pos++, &fl) != FV_OK)
            return glyph_fail(err, FV_E_TRUNCATED, g->gid, base + pos - 1, "flags");
        if (fl & FLAG_REPEAT) {
            if (fv_rd_u8(gl, pos++, &rep) != FV_OK)
                return glyph_fail(err, FV_E_TRUNCATED, g->gid, base + pos - 1, "flag repeat count");
        }
        for (uint32_t r = 0; r <= rep; r++) {
            if (i >= np)
                return glyph_fail(err, FV_E_BAD_GLYPH, g->gid, base + pos, "flag repeat past the last point");
            flags[i++] = fl;
        }
    }
    if (read_coords(gl, &pos, flags, np, x_forms, points, 0) != FV_OK)
        return glyph_fail(err, FV_E_TRUNCATED, g->gid, base + pos, "x coordinates");
    if (read_coords(gl, &pos, flags, np, y_forms, points, 1) != FV_OK)
        return glyph_fail(err, FV_E_TRUNCATED, g->gid, base + pos, "y coordinates");
    return FV_OK;
}

/* Upper bound on components of one composite glyph: each takes at least 6
 * bytes, so the glyph's length bounds the count; this constant only guards
 * the allocation size on absurd lengths. */
#define SFNT_MAX_COMPONENTS 65535u

/* COMPAT(freetype), measured against FreeType 2.12.1 on hand-made fonts
 * (tests/sfnt/test_sfnt_ft_decisions.c): a composite's
 * instructionLength and instructions are read from the file where its
 * components end, inside the glyph or not (then they are the bytes of the
 * next glyph or table, or whatever follows).  A length above both
 * maxSizeOfInstructions and the glyph's length is Too_Many_Hints; past
 * the end of the file, a stream error.  The glyph at glyf offset `base`
 * is gl; its components end at pos. */
static void composite_instructions(const sfnt_font *f, fv_span gl, uint64_t base, uint64_t pos,
                                   sfnt_glyph *g)
{
    uint16_t ilen;
    if (fv_rd_u16(gl, pos, &ilen) == FV_OK && fv_span_sub(gl, pos + 2, ilen, &g->instructions) == FV_OK)
        return;
    uint64_t at = (uint64_t)(f->glyf.data - f->file.data) + base + pos; /* in the file */
    g->instructions_at = base + pos;
    if (fv_rd_u16(f->file, at, &ilen) != FV_OK) {
        g->instructions_status = FV_E_TRUNCATED;
        g->instructions_why = "composite instructionLength past the end of the file";
    } else if (ilen > f->maxp.max_size_of_instructions && ilen > gl.len) {
        g->instructions_status = FV_E_TT_TOO_MANY_HINTS;
        g->instructions_why = "composite instructions longer than maxSizeOfInstructions and the glyph";
    } else if (fv_span_sub(f->file, at + 2, ilen, &g->instructions) != FV_OK) {
        g->instructions_at += 2;
        g->instructions_status = FV_E_TRUNCATED;
        g->instructions_why = "composite instructions past the end of the file";
    }
}

static fv_status load_composite(const sfnt_font *f, fv_span gl, uint32_t base, sfnt_glyph *g,
                                fv_mem *mem, fv_error *err)
{
    /* First pass: count components and validate their lengths. */
    uint64_t pos = 10;
    uint32_t count = 0;
    uint16_t flags;
    int have_instructions = 0;
    do {
        if (fv_rd_u16(gl, pos, &flags) != FV_OK)
            return glyph_fail(err, FV_E_TRUNCATED, g->gid, base + pos, "component flags");
        uint64_t size = 4 + ((flags & SFNT_ARG_1_AND_2_ARE_WORDS) ? 4 : 2);
        if (flags & SFNT_WE_HAVE_A_SCALE)
            size += 2;
        else if (flags & SFNT_WE_HAVE_AN_X_AND_Y_SCALE)
            size += 4;
        else if (flags & SFNT_WE_HAVE_A_TWO_BY_TWO)
            size += 8;
        if (!fv_span_has(gl, pos, size))
            return glyph_fail(err, FV_E_TRUNCATED, g->gid, base + pos, "component");
        if (flags & SFNT_WE_HAVE_INSTRUCTIONS)
            have_instructions = 1;
        pos += size;
        if (++count > SFNT_MAX_COMPONENTS)
            return glyph_fail(err, FV_E_BAD_GLYPH, g->gid, base + pos, "too many components");
    } while (flags & SFNT_MORE_COMPONENTS);
    if (!reserve(mem, &g->components, &g->cap_components, count, sizeof *g->components))
        return glyph_fail(err, FV_E_NOMEM, g->gid, base, NULL);
    g->num_components = (uint16_t)count;
    /* Second pass: decode (all reads were proven in bounds above, but go
     * through the reader anyway). */
    pos = 10;
    for (uint32_t i = 0; i < count; i++) {
        sfnt_component *c = &g->components[i];
        uint16_t glyph = 0;
        (void)fv_rd_u16(gl, pos, &c->flags);
        (void)fv_rd_u16(gl, pos + 2, &glyph);
        c->glyph = glyph;
        pos += 4;
        int xy = (c->flags & SFNT_ARGS_ARE_XY_VALUES) != 0;
        if (c->flags & SFNT_ARG_1_AND_2_ARE_WORDS) {
            uint16_t a = 0, b = 0;
            (void)fv_rd_u16(gl, pos, &a);
            (void)fv_rd_u16(gl, pos + 2, &b);
            c->arg1 = xy ? (int16_t)a : (int32_t)a;
            c->arg2 = xy ? (int16_t)b : (int32_t)b;
            pos += 4;
        } else {
            uint8_t a = 0, b = 0;
            (void)fv_rd_u8(gl, pos, &a);
            (void)fv_rd_u8(gl, pos + 1, &b);
            c->arg1 = xy ? (int8_t)a : (int32_t)a;
            c->arg2 = xy ? (int8_t)b : (int32_t)b;
            pos += 2;
        }
        c->xx = c->yy = 0x4000;
        c->xy = c->yx = 0;
        int16_t v[4] = {0, 0, 0, 0};
        if (c->flags & SFNT_WE_HAVE_A_SCALE) {
            (void)fv_rd_s16(gl, pos, &v[0]);
            c->xx = c->yy = v[0];
            pos += 2;
        } else if (c->flags & SFNT_WE_HAVE_AN_X_AND_Y_SCALE) {
            (void)fv_rd_s16(gl, pos, &v[0]);
            (void)fv_rd_s16(gl, pos + 2, &v[1]);
            c->xx = v[0];
            c->yy = v[1];
            pos += 4;
        } else if (c->flags & SFNT_WE_HAVE_A_TWO_BY_TWO) {
            for (int k = 0; k < 4; k++)
                (void)fv_rd_s16(gl, pos + 2 * (uint64_t)k, &v[k]);
            c->xx = v[0];
            c->yx = v[1];
            c->xy = v[2];
            c->yy = v[3];
            pos += 8;
        }
    }
    if (have_instructions)
        composite_instructions(f, gl, base, pos, g);
    return FV_OK;
}

fv_status sfnt_glyph_load(const sfnt_font *f, uint32_t gid, fv_mem *mem, sfnt_glyph *g,
                          fv_error *err)
{
    memset(g, 0, sizeof *g);
    fv_status st = sfnt_glyph_reload(f, gid, mem, g, err);
    if (st == FV_OK && g->num_contours > 0) {
        uint32_t na = g->num_points ? g->num_points : 1;
        g->flags = fv_mem_array(mem, na, 1);
        g->points = fv_mem_array(mem, na, sizeof *g->points);
        if (!g->flags || !g->points)
            st = glyph_fail(err, FV_E_NOMEM, gid, g->glyf_offset, NULL);
        else
            st = sfnt_glyph_points(g, g->flags, g->points, err);
    }
    if (st != FV_OK)
        sfnt_glyph_free(mem, g);
    return st;
}

fv_status sfnt_glyph_reload(const sfnt_font *f, uint32_t gid, fv_mem *mem, sfnt_glyph *g,
                            fv_error *err)
{
    /* Keep the arrays and their lengths; everything else starts afresh,
     * field by field (a copy and a memset of the whole were 87 instructions
     * a load; callgrind, DejaVu Sans). */
    g->num_contours = 0;
    g->x_min = g->y_min = g->x_max = g->y_max = 0;
    g->num_points = 0;
    g->num_components = 0;
    g->instructions.data = NULL;
    g->instructions.len = 0;
    g->instructions_status = FV_OK;
    g->instructions_at = 0;
    g->instructions_why = NULL;
    g->data.data = NULL;
    g->data.len = 0;
    g->points_at = g->glyf_offset = 0;
    g->gid = gid;
    if (gid >= f->maxp.num_glyphs)
        return glyph_fail(err, FV_E_BAD_GLYPH_ID, gid, FV_NO_VALUE, NULL);
    if (!f->has_loca)
        return sfnt_fail(err, FV_E_MISSING_TABLE, SFNT_TAG_loca, FV_NO_VALUE, NULL);
    if (gid >= f->loca_glyphs)
        return glyph_fail(err, FV_E_BAD_GLYPH_ID, gid, FV_NO_VALUE, "beyond the glyphs loca covers");
    /* COMPAT(freetype): FreeType 2.12.1's glyph locations (sfnt_glyph_extent). */
    uint64_t start;
    uint64_t len = sfnt_glyph_extent(f->glyf.len, sfnt_loca_offset(f, gid), sfnt_loca_offset(f, gid + 1),
                                     gid == f->loca_last, &start);
    if (len == 0)
        return FV_OK;
    fv_span gl = {NULL, 0}; /* fv_span_sub sets it; gcc -O2 -g cannot tell */
    (void)fv_span_sub(f->glyf, start, len, &gl);
    if (gl.len < 10)
        return glyph_fail(err, FV_E_TRUNCATED, gid, start, "glyph header");
    int16_t nc;
    (void)fv_rd_s16(gl, 0, &nc);
    (void)fv_rd_s16(gl, 2, &g->x_min);
    (void)fv_rd_s16(gl, 4, &g->y_min);
    (void)fv_rd_s16(gl, 6, &g->x_max);
    (void)fv_rd_s16(gl, 8, &g->y_max);
    /* COMPAT(freetype), measured against FreeType 2.12.1: a glyph of 0
     * contours is empty (nothing after its header is read, not even
     * instructions), and any negative count makes a composite glyph. */
    if (nc == 0)
        return FV_OK;
    g->num_contours = nc < 0 ? -1 : nc;
    fv_status st;
    if (nc > 0)
        st = load_simple(gl, (uint32_t)start, g, mem, err);
    else
        st = load_composite(f, gl, (uint32_t)start, g, mem, err);
    if (st != FV_OK) {
        /* No half-parsed glyph: keep only the arrays. */
        g->num_contours = 0;
        g->num_points = 0;
        g->num_components = 0;
        g->instructions.data = NULL;
        g->instructions.len = 0;
        g->instructions_status = FV_OK;
    }
    return st;
}
