/* Graphics state instructions: SVTCA/SPVTCA/SFVTCA 0x00-05, SPVTL/SFVTL
 * 0x06-09, SPVFS 0x0A, SFVFS 0x0B, GPV 0x0C, GFV 0x0D, SFVTPV 0x0E, SDPVTL
 * 0x86-87, SRP0-2 0x10-12, SZP0-2/SZPS 0x13-16, SLOOP 0x17, SMD 0x1A,
 * SCVTCI 0x1D, SSWCI 0x1E, SSW 0x1F, FLIPON/OFF 0x4D-4E, SDB 0x5E, SDS 0x5F,
 * SANGW 0x7E, AA 0x7F, SCANCTRL 0x85, SCANTYPE 0x8D, INSTCTRL 0x8E.
 * Spec: "Managing the graphics state".  Each handler (or family of
 * handlers) is written once under a header as in ins_points.c: mnemonic
 * and opcodes, what it pops (top of the stack first) and pushes, spec
 * section, and the FreeType behaviour it follows where that is not the
 * spec's.  Vectors are unit vectors in 2.14; reference points are checked
 * where they are used, as FreeType does. */
#include "tt/gstate.h"
#include "tt/ins.h"
#include "tt/zone.h"

/* Ins_SxVTL: the vector from point p2 (zp2) to point p1 (zp1), rotated
 * 90 degrees counter-clockwise for the perpendicular variants.  0 when a
 * point does not exist, with *st as tt_point_ref sets it. */
static int vector_to_line(tt_ctx *c, uint16_t i1, uint16_t i2, int perpendicular, int16_t *vx,
                          int16_t *vy, fv_status *st)
{
    uint32_t q1, q2;
    if (!tt_point_pair(c, c->zp2, i1, &q1, c->zp1, i2, &q2, st))
        return 0;
    tt_point_read(c, c->zp2, q1);
    tt_point_read(c, c->zp1, q2);
    tt_vec p1 = c->zp1->cur[q2], p2 = c->zp2->cur[q1];
    int64_t a = tt_sub(p1.x, p2.x), b = tt_sub(p1.y, p2.y);
    /* COMPAT(freetype): coincident points act like the x axis (confirmed
     * by Greg Hitchcock in FreeType's sources' comments). */
    if (a == 0 && b == 0) {
        a = 0x4000;
        perpendicular = 0;
    }
    if (perpendicular) {
        int64_t t = b;
        b = a;
        a = tt_neg(t);
    }
    tt_normalize(a, b, vx, vy);
    return 1;
}

/* SZP0 0x13, SZP1 0x14, SZP2 0x15, SZPS 0x16: set zone pointer 0, 1, 2,
 * all three.  Pop a zone number; push nothing.  Spec: "Managing the
 * graphics state" / SZP0, SZP1, SZP2, SZPS.  Zone 0 is the twilight zone,
 * 1 the glyph zone.
 * FreeType: any other number is an invalid zone and leaves the pointers as
 * they were (an error only when hinting is pedantic). */
static fv_status set_zone(tt_ctx *c, int64_t z, int which)
{
    tt_zone *zone;
    if (z == 0)
        zone = &c->twilight;
    else if (z == 1)
        zone = &c->pts;
    else
        return tt_soft(c, FV_E_TT_INVALID_ZONE, z);
    uint16_t gep = tt_u16(z);
    if (which == 0 || which == 3) {
        c->zp0 = zone;
        c->gs.gep0 = gep;
    }
    if (which == 1 || which == 3) {
        c->zp1 = zone;
        c->gs.gep1 = gep;
    }
    if (which == 2 || which == 3) {
        c->zp2 = zone;
        c->gs.gep2 = gep;
    }
    return FV_OK;
}

/* SVTCA[a] 0x00-0x01, SPVTCA[a] 0x02-0x03, SFVTCA[a] 0x04-0x05: set
 * freedom and projection vectors, projection vector, freedom vector to
 * coordinate axis.  Pop nothing; push nothing.  Spec: "Managing the
 * graphics state" / SVTCA, SPVTCA, SFVTCA.  a = 1 selects the x axis, 0
 * the y axis; SVTCA and SPVTCA set the projection vector (and the dual
 * one), SVTCA and SFVTCA the freedom vector. */
static fv_status set_vectors_to_axis(tt_ctx *c)
{
    tt_gs *g = &c->gs;
    uint8_t op = c->opcode;
    int16_t a = (int16_t)((op & 1) << 14), b = (int16_t)(a ^ 0x4000);
    if (op < 4) {
        g->pv_x = g->dv_x = a;
        g->pv_y = g->dv_y = b;
    }
    if ((op & 2) == 0) {
        g->fv_x = a;
        g->fv_y = b;
    }
    tt_compute_funcs(c);
    return FV_OK;
}

TT_HANDLER(SVTCA) { (void)args; return set_vectors_to_axis(c); }
TT_HANDLER(SPVTCA) { (void)args; return set_vectors_to_axis(c); }
TT_HANDLER(SFVTCA) { (void)args; return set_vectors_to_axis(c); }

/* SPVTL[a] 0x06-0x07, SFVTL[a] 0x08-0x09: set projection vector, freedom
 * vector to line.  Pop a point (zp2), then a point (zp1); push nothing.
 * Spec: "Managing the graphics state" / SPVTL, SFVTL.  Set the vector
 * along the line from the first point to the second (a = 0) or
 * perpendicular to it, rotated 90 degrees counter-clockwise (a = 1); SPVTL
 * sets the dual vector too.
 * FreeType: two points at the same place give the x axis (a ignored); a
 * bad point leaves the vector as it was (vector_to_line). */
TT_HANDLER(SPVTL)
{
    tt_gs *g = &c->gs;
    fv_status st = FV_OK;
    if (!vector_to_line(c, tt_u16(args[1]), tt_u16(args[0]), c->opcode & 1, &g->pv_x, &g->pv_y,
                        &st))
        return st;
    g->dv_x = g->pv_x;
    g->dv_y = g->pv_y;
    tt_compute_funcs(c);
    return FV_OK;
}

TT_HANDLER(SFVTL)
{
    tt_gs *g = &c->gs;
    fv_status st = FV_OK;
    if (!vector_to_line(c, tt_u16(args[1]), tt_u16(args[0]), c->opcode & 1, &g->fv_x, &g->fv_y,
                        &st))
        return st;
    tt_compute_funcs(c);
    return FV_OK;
}

/* SPVFS 0x0A, SFVFS 0x0B: set projection vector, freedom vector from
 * stack.  Pop y, then x (2.14); push nothing.  Spec: "Managing the
 * graphics state" / SPVFS, SFVFS.  Set the vector to (x, y), normalised;
 * SPVFS sets the dual vector too.
 * FreeType: only the low 16 bits of each value count, sign-extended. */
TT_HANDLER(SPVFS)
{
    tt_gs *g = &c->gs;
    /* Only the low 16 bits, sign-extended. */
    tt_normalize((int16_t)tt_u16(args[0]), (int16_t)tt_u16(args[1]), &g->pv_x, &g->pv_y);
    g->dv_x = g->pv_x;
    g->dv_y = g->pv_y;
    tt_compute_funcs(c);
    return FV_OK;
}

TT_HANDLER(SFVFS)
{
    tt_gs *g = &c->gs;
    tt_normalize((int16_t)tt_u16(args[0]), (int16_t)tt_u16(args[1]), &g->fv_x, &g->fv_y);
    tt_compute_funcs(c);
    return FV_OK;
}

/* GPV 0x0C, GFV 0x0D: get projection vector, freedom vector.  Pop
 * nothing; push x, then y (2.14).  Spec: "Managing the graphics state" /
 * GPV, GFV. */
TT_HANDLER(GPV)
{
    args[0] = c->gs.pv_x;
    args[1] = c->gs.pv_y;
    return FV_OK;
}

TT_HANDLER(GFV)
{
    args[0] = c->gs.fv_x;
    args[1] = c->gs.fv_y;
    return FV_OK;
}

/* SFVTPV 0x0E: set freedom vector to projection vector.  Pops nothing;
 * pushes nothing.  Spec: "Managing the graphics state" / SFVTPV. */
TT_HANDLER(SFVTPV)
{
    (void)args;
    c->gs.fv_x = c->gs.pv_x;
    c->gs.fv_y = c->gs.pv_y;
    tt_compute_funcs(c);
    return FV_OK;
}

/* SDPVTL[a] 0x86-0x87: set dual projection vector to line.  Pops a point
 * (zp2), then a point (zp1); pushes nothing.  Spec: "Managing the graphics
 * state" / SDPVTL.  As SPVTL, with the dual projection vector taken from
 * the points' original positions and the projection vector from their
 * current ones.
 * FreeType: points at the same place give the x axis (a ignored), and
 * when the original points do, a is ignored for the current ones too; a
 * bad point leaves both vectors as they were. */
TT_HANDLER(SDPVTL)
{
    uint16_t p1 = tt_u16(args[1]), p2 = tt_u16(args[0]);
    int perpendicular = c->opcode & 1;
    uint32_t q1, q2;
    fv_status st = FV_OK;
    if (!tt_point_pair(c, c->zp1, p2, &q2, c->zp2, p1, &q1, &st))
        return st;
    tt_point_read(c, c->zp1, q2);
    tt_point_read(c, c->zp2, q1);
    for (int pass = 0; pass < 2; pass++) {
        tt_vec v1 = pass == 0 ? c->zp1->org[q2] : c->zp1->cur[q2];
        tt_vec v2 = pass == 0 ? c->zp2->org[q1] : c->zp2->cur[q1];
        int64_t a = tt_sub(v1.x, v2.x), b = tt_sub(v1.y, v2.y);
        if (a == 0 && b == 0) {
            a = 0x4000;
            perpendicular = 0; /* COMPAT(freetype): stays off for the second pass */
        }
        if (perpendicular) {
            int64_t t = b;
            b = a;
            a = tt_neg(t);
        }
        if (pass == 0)
            tt_normalize(a, b, &c->gs.dv_x, &c->gs.dv_y);
        else
            tt_normalize(a, b, &c->gs.pv_x, &c->gs.pv_y);
    }
    tt_compute_funcs(c);
    return FV_OK;
}

/* SRP0 0x10, SRP1 0x11, SRP2 0x12: set reference point 0, 1, 2.  Pop a
 * point; push nothing.  Spec: "Managing the graphics state" / SRP0, SRP1,
 * SRP2.
 * FreeType: the low 16 bits are kept, unchecked until an instruction uses
 * the reference point. */
TT_HANDLER(SRP0) { c->gs.rp0 = tt_u16(args[0]); return FV_OK; }
TT_HANDLER(SRP1) { c->gs.rp1 = tt_u16(args[0]); return FV_OK; }
TT_HANDLER(SRP2) { c->gs.rp2 = tt_u16(args[0]); return FV_OK; }

TT_HANDLER(SZP0) { return set_zone(c, args[0], 0); }
TT_HANDLER(SZP1) { return set_zone(c, args[0], 1); }
TT_HANDLER(SZP2) { return set_zone(c, args[0], 2); }
TT_HANDLER(SZPS) { return set_zone(c, args[0], 3); }

/* SLOOP 0x17: set loop variable.  Pops a count; pushes nothing.  Spec:
 * "Managing the graphics state" / SLOOP.  The next loop instruction (SHP,
 * SHPIX, IP, FLIPPT, ALIGNRP) runs that many times.
 * FreeType: a negative count is a bad argument; counts above TT_MAX_LOOP
 * (0xFFFF) are cut to it. */
TT_HANDLER(SLOOP)
{
    if (args[0] < 0)
        return tt_fail(c, FV_E_TT_BAD_ARGUMENT, args[0]);
    c->gs.loop = args[0] > TT_MAX_LOOP ? TT_MAX_LOOP : args[0];
    return FV_OK;
}

/* SMD 0x1A, SCVTCI 0x1D, SSWCI 0x1E: set minimum distance, control value
 * table cut-in, single width cut-in.  Pop a distance (26.6); push nothing.
 * Spec: "Managing the graphics state" / SMD, SCVTCI, SSWCI. */
TT_HANDLER(SMD) { c->gs.minimum_distance = args[0]; return FV_OK; }
TT_HANDLER(SCVTCI) { c->gs.control_value_cutin = args[0]; return FV_OK; }
TT_HANDLER(SSWCI) { c->gs.single_width_cutin = args[0]; return FV_OK; }

/* SSW 0x1F: set single width.  Pops a width in font units; pushes
 * nothing.  Spec: "Managing the graphics state" / SSW.  Stored scaled to
 * the size (26.6). */
TT_HANDLER(SSW)
{
    c->gs.single_width_value = fv_mulfix(args[0], c->m.scale);
    return FV_OK;
}

/* FLIPON 0x4D, FLIPOFF 0x4E: set the auto flip Boolean to on, off.  Pop
 * nothing; push nothing.  Spec: "Managing the graphics state" / FLIPON,
 * FLIPOFF.  With auto flip on, MIRP gives the CVT distance the sign of the
 * original distance. */
TT_HANDLER(FLIPON) { (void)args; c->gs.auto_flip = 1; return FV_OK; }
TT_HANDLER(FLIPOFF) { (void)args; c->gs.auto_flip = 0; return FV_OK; }

/* SDB 0x5E: set delta base.  Pops a ppem; pushes nothing.  Spec:
 * "Managing the graphics state" / SDB.  The ppem the DELTA instructions'
 * arguments count from (its low 16 bits). */
TT_HANDLER(SDB) { c->gs.delta_base = tt_u16(args[0]); return FV_OK; }

/* SDS 0x5F: set delta shift.  Pops a shift; pushes nothing.  Spec:
 * "Managing the graphics state" / SDS.  DELTA steps are 1 / 2^shift
 * pixel.
 * FreeType: a shift above 6 (or negative) is a bad argument. */
TT_HANDLER(SDS)
{
    if ((uint64_t)args[0] > 6)
        return tt_fail(c, FV_E_TT_BAD_ARGUMENT, args[0]);
    c->gs.delta_shift = tt_u16(args[0]);
    return FV_OK;
}

/* SANGW 0x7E, AA 0x7F: set angle weight, adjust angle.  Pop a value; push
 * nothing.  Spec: SANGW, AA (both obsolete).  Do nothing, as in
 * FreeType. */
TT_HANDLER(SANGW) { (void)c; (void)args; return FV_OK; }
TT_HANDLER(AA) { (void)c; (void)args; return FV_OK; }

/* SCANCTRL 0x85: scan conversion control.  Pops flags; pushes nothing.
 * Spec: "Managing the graphics state" / SCANCTRL.  Turns dropout control
 * on or off: a threshold of 0xFF (low byte) always on, 0 always off; else
 * bit 8 turns it on at or below the threshold ppem and bit 11 off above
 * it.
 * FreeType: bits 9-10 (on) and 12-13 (off) act only on a rotated or
 * stretched glyph, which fontvm never has (no transform). */
TT_HANDLER(SCANCTRL)
{
    int64_t v = args[0];
    int64_t a = v & 0xFF;
    if (a == 0xFF) {
        c->gs.scan_control = 1;
        return FV_OK;
    }
    if (a == 0) {
        c->gs.scan_control = 0;
        return FV_OK;
    }
    /* fontvm never rotates or stretches glyphs (no transform API). */
    if ((v & 0x100) && c->m.ppem <= a)
        c->gs.scan_control = 1;
    if ((v & 0x800) && c->m.ppem > a)
        c->gs.scan_control = 0;
    return FV_OK;
}

/* SCANTYPE 0x8D: scan type.  Pops a rule number; pushes nothing.  Spec:
 * "Managing the graphics state" / SCANTYPE.  Chooses the dropout control
 * rule (kept in the graphics state; fontvm does not rasterise).
 * FreeType: a negative number is ignored. */
TT_HANDLER(SCANTYPE)
{
    if (args[0] >= 0)
        c->gs.scan_type = (int32_t)(args[0] & 0xFFFF);
    return FV_OK;
}

/* INSTCTRL 0x8E: instruction execution control.  Pops a selector, then a
 * value; pushes nothing.  Spec: "Managing the graphics state" / INSTCTRL.
 * In the CVT program, sets the selector's bit of instruct_control to the
 * value (0 or that bit).
 * FreeType: a selector other than 1-3, a value other than 0 or the bit,
 * or use outside the CVT program is a bad argument (an error only when
 * hinting is pedantic), except that in v40 a glyph program may use
 * selector 3 to turn backward compatibility off (value 4) or on. */
TT_HANDLER(INSTCTRL)
{
    uint64_t k = (uint64_t)args[1], l = (uint64_t)args[0];
    if (k < 1 || k > 3)
        return tt_soft(c, FV_E_TT_BAD_ARGUMENT, args[1]);
    uint64_t kf = (uint64_t)1 << (k - 1);
    if (l != 0 && l != kf)
        return tt_soft(c, FV_E_TT_BAD_ARGUMENT, args[0]);
    if (c->ini_range == TT_RANGE_CVT) {
        c->gs.instruct_control = (uint8_t)(c->gs.instruct_control & ~kf);
        c->gs.instruct_control = (uint8_t)(c->gs.instruct_control | l);
    } else if (c->ini_range == TT_RANGE_GLYPH && k == 3) {
        /* COMPAT(freetype): a glyph may sign the ClearType "waiver" for
         * itself (selector 3) in v40. */
        if (c->mode.v40)
            c->backward_compatibility = l != 4;
    } else
        return tt_soft(c, FV_E_TT_BAD_ARGUMENT, args[1]);
    return FV_OK;
}
