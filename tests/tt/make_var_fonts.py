#!/usr/bin/python3
"""Builds small variable TrueType fonts that exercise one variation feature
each, for test_var_glyphs (compared with FreeType 2.12.1).  Uses Debian's
python3-fonttools; writes the fonts into the directory given as argument.

  var_gvar.ttf   two axes with an avar map of several segments; gvar with
                 private and shared point numbers (inferred deltas for the
                 untouched points), an intermediate region, phantom-point
                 deltas (no HVAR: the advance varies through them), a
                 composite whose component offsets vary, and a contour with
                 a single touched point.
  var_cvar.ttf   hinted: cvar (tuples with shared "every entry" point
                 numbers, which FreeType 2.12.1 does not apply, private
                 ones, private "every entry" and an intermediate region) read by
                 prep and the glyph program through MIAP; GETVARIATION in
                 fpgm, prep and the glyph program, GETDATA, GETINFO's
                 variation bit, each result written into a point's y.
  var_hvar.ttf   HVAR (no advance map) over one axis with 40 boxes of
                 advances 180..219 and deltas whose values at the test
                 locations end in fractions of a unit (.5 included), so that
                 the v40 advance (whole units, scaled as at the default)
                 and the zone's pp2 (unrounded) fall on either side of a
                 pixel; pp2 gvar deltas (dropped with HVAR), pp1 gvar deltas
                 (kept: they move the origin) on every third box and on a
                 composite; two boxes whose varied advance leaves 16 bits
                 (below 0, past 65,535), which FreeType 2.12.1 keeps as an
                 unsigned 16-bit value (fuzz/FINDINGS.md F-48).
  var_phantoms.ttf, var_phantoms_hvar.ttf  every phantom point given gvar
                 deltas on both axes (FreeType 2.12.1 keeps pp1/pp2's on x
                 and pp3/pp4's on y only; with HVAR pp2's x too), by a
                 tuple over every point (a), over the phantoms alone
                 (private points, b) and on a composite (comp); each glyph
                 program copies every phantom's current, original and
                 original-unit (MD[1]) coordinates into outline points;
                 an empty glyph (space) whose phantoms vary too (FreeType
                 gives them their deltas: the advance without HVAR, the
                 origin with it).  The second font adds HVAR with advance
                 and lsb mappings.
  var_phantoms_vvar.ttf  the same with HVAR, vhea, vmtx and VVAR (advance
                 and tsb mappings): FreeType 2.12.1 varies the vertical
                 advance by VVAR and drops pp4's gvar y delta (pp3 keeps
                 its own; the tsb mapping moves nothing).
  var_phantoms_{vvar,hvar}_cut_*.ttf, var_phantoms_vvar_no_vmtx.ttf  those
                 with VVAR or HVAR cut short inside the store (ignored),
                 before the advance mapping's count or inside its entries
                 (read past the table from the padding that follows), and
                 without vmtx (VVAR ignored): fuzz/FINDINGS.md F-49.
  var_axes_*.ttf  var_gvar.ttf with its avar or fvar damaged one way each
                 (DAMAGED_AXES: maps without the 0 or -1/+1 points, going
                 back, repeating a point, leaving -1..1, empty, for both
                 axes in one map or three; axes whose minimum passes the
                 default, whose default passes the maximum, all equal, at
                 fractional and extreme values), for design_locations.py:
                 FreeType and fontvm must normalize design coordinates alike
                 or both refuse them.
  var_gvar_bomb.ttf  a glyph whose deltas at wght=1 cost twice the gvar
                 work budget (FV_BUDGET_GVAR_GLYPH_STEPS): 4,095 tuples over
                 1,000 points, for the gvar_budget test (a hardening limit
                 there, where FreeType spends ~70 ms on the glyph).
"""
import array
import os
import struct
import sys

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import newTable
from fontTools.ttLib.tables.DefaultTable import DefaultTable
from fontTools.ttLib.tables import ttProgram
from fontTools.ttLib.tables.TupleVariation import TupleVariation
from fontTools.ttLib.tables._g_l_y_f import GlyphComponent, Glyph


# The gvar bomb (build_gvar_bomb): 4,095 tuples x (1,000 points + 4 phantoms
# + 1,004 deltas) = 8.2 M steps, twice FV_BUDGET_GVAR_GLYPH_STEPS.
BOMB_POINTS = 1000
BOMB_TUPLES = 4095


def box(pen, x0, y0, x1, y1):
    pen.moveTo((x0, y0))
    pen.lineTo((x0, y1))
    pen.lineTo((x1, y1))
    pen.lineTo((x1, y0))
    pen.closePath()


def curvy(pen, x0, y0, x1, y1):
    pen.moveTo((x0, y0))
    pen.qCurveTo((x0, y1), ((x0 + x1) // 2, y1))
    pen.qCurveTo((x1, y1), (x1, (y0 + y1) // 2))
    pen.lineTo((x1, y0))
    pen.closePath()


def composite(*parts):
    """A composite glyph of (glyph name, x, y) components, offsets as x/y
    values rounded to the grid."""
    g = Glyph()
    g.numberOfContours = -1
    g.components = []
    for name, x, y in parts:
        c = GlyphComponent()
        c.glyphName, c.x, c.y, c.flags = name, x, y, 0x0002 | 0x0004
        g.components.append(c)
    return g


def base_font(axes, names):
    fb = FontBuilder(1000, isTTF=True)
    order = [".notdef"] + names
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({0x41 + i: n for i, n in enumerate(names) if n != "comp"})
    return fb, order


def finish_tables(fb, order, family, advances):
    """hmtx (advance 600 unless given; lsb = xMin, as the phantom points
    need), hhea, name, OS/2 and post."""
    metrics = {}
    for n in order:
        g = fb.font["glyf"][n]
        g.recalcBounds(fb.font["glyf"])
        metrics[n] = (advances.get(n, 600), getattr(g, "xMin", 0))
    fb.setupHorizontalMetrics(metrics)
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200)
    fb.setupPost()


def simple_glyphs():
    g = {}
    pen = TTGlyphPen(None)
    box(pen, 50, 0, 450, 700)
    g[".notdef"] = pen.glyph()
    pen = TTGlyphPen(None)
    box(pen, 100, 0, 500, 700)        # contour 0: 4 points
    curvy(pen, 150, 100, 450, 600)    # contour 1: curves
    g["a"] = pen.glyph()
    pen = TTGlyphPen(None)
    curvy(pen, 80, -20, 620, 730)
    box(pen, 200, 200, 300, 300)      # a contour with one touched point
    g["b"] = pen.glyph()
    return g


def build_gvar(path):
    fb, order = base_font(None, ["a", "b", "comp"])
    glyphs = simple_glyphs()
    glyphs["comp"] = composite(("a", 0, 0), ("b", 610, 35))
    fb.setupGlyf(glyphs)
    finish_tables(fb, order, "VarGvar", {"comp": 1250})
    axes = [("wght", 100, 400, 900, "Weight"), ("wdth", 50, 100, 200, "Width")]
    fb.setupFvar(axes, [
        {"location": {"wght": 100, "wdth": 100}, "stylename": "Thin"},
        {"location": {"wght": 900, "wdth": 50}, "stylename": "Black Narrow"},
        {"location": {"wght": 650, "wdth": 175}, "stylename": "Semi Wide"},
    ])
    avar = newTable("avar")
    avar.segments = {"wght": {-1.0: -1.0, -0.5: -0.3333, 0.0: 0.0, 0.4: 0.2, 0.7: 0.8, 1.0: 1.0},
                     "wdth": {-1.0: -1.0, -0.5: -0.2, 0.0: 0.0, 1.0: 1.0}}
    fb.font["avar"] = avar
    var = {}
    ga = fb.font["glyf"]["a"]
    na = len(ga.coordinates) + 4
    gb = fb.font["glyf"]["b"]
    nb = len(gb.coordinates) + 4
    # a: full deltas on wght, sparse (private points, IUP) on wdth,
    # an intermediate region on wght, phantom deltas
    full = [(10 + i, -3 * i) for i in range(na)]
    sparse = [None] * na
    for i in (0, 2, 5, 7):
        sparse[i] = (40 - 9 * i, 15 + 4 * i)
    sparse[na - 3] = (55, 0)   # pp2: advance grows
    mid = [None] * na
    for i in (1, 4, 6):
        mid[i] = (-21, 33)
    mid[na - 4] = (7, 0)       # pp1
    var["a"] = [
        TupleVariation({"wght": (0, 1.0, 1.0)}, full),
        TupleVariation({"wdth": (0, 1.0, 1.0)}, sparse),
        TupleVariation({"wght": (0.2, 0.5, 1.0)}, mid),
        TupleVariation({"wght": (-1.0, -1.0, 0)}, [(-(i % 5), i % 3) for i in range(na)]),
    ]
    one = [None] * nb
    one[0] = (30, -12)
    one[3] = (-17, 25)
    one[len(gb.coordinates) - 2] = (11, 13)   # lone touched point of contour 2
    one[nb - 3] = (-40, 0)
    var["b"] = [
        TupleVariation({"wght": (0, 1.0, 1.0), "wdth": (0, 1.0, 1.0)}, one),
        TupleVariation({"wdth": (-1.0, -1.0, 0)}, [(3 * (i % 4) - 5, 2 - i % 7) for i in range(nb)]),
    ]
    var["comp"] = [
        TupleVariation({"wght": (0, 1.0, 1.0)}, [(0, 0), (35, -11), (0, 0), (70, 0), (0, 0), (0, 0)]),
        TupleVariation({"wdth": (-1.0, -1.0, 0)}, [(5, 5), (-25, 9), (0, 0), (-30, 0), (0, 0), (0, 0)]),
    ]
    fb.setupGvar(var)
    fb.save(path)


def build_hvar(path):
    from fontTools.varLib import builder as vb
    names = ["g%d" % i for i in range(40)] + ["comp", "neg", "big"]
    fb, order = base_font(None, names)
    glyphs = {}
    pen = TTGlyphPen(None)
    box(pen, 50, 0, 450, 700)
    glyphs[".notdef"] = pen.glyph()
    for i in range(40):
        pen = TTGlyphPen(None)
        box(pen, 20 + i % 7, 0, 140 + i, 600 + 3 * i)
        glyphs["g%d" % i] = pen.glyph()
    glyphs["comp"] = composite(("g3", 30, 0))
    for n in ("neg", "big"):
        pen = TTGlyphPen(None)
        box(pen, 10, 0, 90, 500)
        glyphs[n] = pen.glyph()
    fb.setupGlyf(glyphs)
    advances = {"g%d" % i: 180 + i for i in range(40)}
    advances["comp"] = 244
    advances["neg"] = 100      # HVAR takes it below 0 at both ends
    advances["big"] = 65400    # and this one past 65,535 at wght=1
    finish_tables(fb, order, "VarHvar", advances)
    fb.setupFvar([("wght", 200, 400, 800, "Weight")], [
        {"location": {"wght": 300}, "stylename": "Light"},
        {"location": {"wght": 700}, "stylename": "Bold"},
    ])
    # Deltas at wght -1 and +1; -0.5, -0.32, 0.42 ... give fractions.
    rows = [[0, 0]] + [[176 - 3 * i, -87 + 2 * i] for i in range(40)] + [[176, -87], [-300, -251], [501, -99]]
    regions = vb.buildVarRegionList([{"wght": (0.0, 1.0, 1.0)}, {"wght": (-1.0, -1.0, 0.0)}], ["wght"])
    store = vb.buildVarStore(regions, [vb.buildVarData([0, 1], rows)])
    hvar = newTable("HVAR")
    from fontTools.ttLib.tables import otTables
    hvar.table = otTables.HVAR()
    hvar.table.Version = 0x00010000
    hvar.table.VarStore = store
    hvar.table.AdvWidthMap = None
    hvar.table.LsbMap = None
    hvar.table.RsbMap = None
    fb.font["HVAR"] = hvar
    var = {}
    for i in range(40):
        n = len(fb.font["glyf"]["g%d" % i].coordinates) + 4
        lo = [(-(i % 5), i % 3)] * (n - 4) + [(0, 0), (-87 + 2 * i, 0), (0, 0), (0, 0)]
        hi = [(i % 4, -(i % 2))] * (n - 4) + [(0, 0), (176 - 3 * i, 0), (0, 0), (0, 0)]
        if i % 3 == 0:
            lo[n - 4] = (-87 + i, 0)
            hi[n - 4] = (41 - i, 0)
        var["g%d" % i] = [TupleVariation({"wght": (-1.0, -1.0, 0)}, lo),
                          TupleVariation({"wght": (0, 1.0, 1.0)}, hi)]
    var["comp"] = [TupleVariation({"wght": (-1.0, -1.0, 0)}, [(9, 0), (-87, 0), (-87, 0), (0, 0), (0, 0)]),
                   TupleVariation({"wght": (0, 1.0, 1.0)}, [(-5, 0), (33, 0), (176, 0), (0, 0), (0, 0)])]
    fb.setupGvar(var)
    fb.save(path)


# The few instructions the programs use (fontTools 4.38's assembler does
# not know GETDATA), as bytecode.
OPS = {"SVTCA_Y": [0x00], "SWAP": [0x23], "WS": [0x42], "RS": [0x43], "DIV": [0x62],
       "SCFS": [0x48], "MIAP": [0x3E], "GETVARIATION": [0x91], "GETDATA": [0x92],
       "GETINFO": [0x88], "RCVT": [0x45], "WCVTP": [0x44]}


def asm(items):
    """items: mnemonics, or ints to push (one PUSHW each)."""
    code = []
    for it in items:
        if isinstance(it, int):
            code += [0xB8, (it >> 8) & 0xFF, it & 0xFF]
        else:
            code += OPS[it]
    p = ttProgram.Program()
    p.fromBytecode(bytes(code))
    return p


def f2dot14(v):
    return struct.pack(">h", int(round(v * 16384)))


def cvar_bytes():
    """cvar by hand (fontTools never shares point numbers in cvar): shared
    point numbers meaning "every entry" used by two tuples (one with an
    intermediate region), a tuple with private point numbers and one whose
    private point numbers mean every entry.  Axes: wght, opsz."""
    def deltas(values):          # one run of byte deltas
        return bytes([len(values) - 1]) + bytes(v & 0xFF for v in values)
    tuples = [
        # (index flags, peak, (start, end) or None, private points or None, deltas)
        (0x8000, (1.0, 0.0), None, None, [10, 20, 30, 40, 50, 60, 70, 80]),
        (0xA000, (-1.0, 0.0), None, [1, 2, 4], [-5, 9, -13]),
        (0xC000, (0.4, 1.0), ((0.1, 0.0), (0.8, 1.0)), None, [3, -3, 120, 3, -7, 1, 9, 61]),
        (0xA000, (0.0, 1.0), None, [], [7, 33, -2, 1, -41, 0, 5, 12]),
    ]
    headers, data = b"", b"\x00"  # shared point numbers: every entry
    for flags, peak, region, private, values in tuples:
        body = b""
        if private is not None:
            if private:
                body += bytes([len(private), len(private) - 1])
                prev = 0
                for p in private:
                    body += bytes([p - prev])
                    prev = p
            else:
                body += b"\x00"
        body += deltas(values)
        h = struct.pack(">HH", len(body), flags) + b"".join(f2dot14(v) for v in peak)
        if region:
            h += b"".join(f2dot14(v) for v in region[0]) + b"".join(f2dot14(v) for v in region[1])
        headers += h
        data += body
    header = struct.pack(">HHHH", 1, 0, 0x8000 | len(tuples), 8 + len(headers))
    return header + headers + data


def build_cvar(path):
    fb, order = base_font(None, ["a", "b"])
    glyphs = simple_glyphs()
    fb.setupGlyf(glyphs)
    finish_tables(fb, order, "VarCvar", {})
    axes = [("wght", 100, 400, 900, "Weight"), ("opsz", 8, 12, 72, "Optical size")]
    fb.setupFvar(axes, [{"location": {"wght": 700, "opsz": 12}, "stylename": "Bold"}])
    cvt = newTable("cvt ")
    cvt.values = array.array("h", [0, 100, 250, -300, 512, 77, 700, 1000])
    fb.font["cvt "] = cvt
    cvar = DefaultTable("cvar")  # kept as built (fontTools would re-encode it)
    cvar.data = cvar_bytes()
    fb.font["cvar"] = cvar
    # storage 0/1: GETVARIATION's values in fpgm; 2/3 in prep; 4: GETINFO
    # with the variation selector, 5: GETDATA (an IDEF is not needed: the
    # font has variations, so FreeType runs it).
    fpgm = newTable("fpgm")
    fpgm.program = asm(["GETVARIATION", 1, "SWAP", "WS", 0, "SWAP", "WS"])
    fb.font["fpgm"] = fpgm
    prep = newTable("prep")
    prep.program = asm(["GETVARIATION", 3, "SWAP", "WS", 2, "SWAP", "WS",
                        8, "GETINFO", 4, "SWAP", "WS",
                        "GETDATA", 5, "SWAP", "WS",
                        5, 3, "RCVT", "WCVTP"])
    fb.font["prep"] = prep
    # glyph a: points 0..5 get y from storage 0..5 (divided by 64 to keep
    # 2.14 values small), points 6..7 MIAP to CVT 5 (prep's copy of 3) and
    # 7 (intermediate region); GETVARIATION again into points 8 and 9.
    code = ["SVTCA_Y"]
    for i in range(6):
        code += [i, i, "RS", 64 * 64, "DIV", "SCFS"]
    for pt, c in ((6, 5), (7, 7)):
        code += [pt, c, "MIAP"]
    code += ["GETVARIATION", 64 * 64, "DIV", 9, "SWAP", "SCFS",
             64 * 64, "DIV", 8, "SWAP", "SCFS"]
    fb.font["glyf"]["a"].program = asm(code)
    # glyph b: points 0..3 MIAP to CVT 1, 2, 4, 6
    code = ["SVTCA_Y"]
    for pt, c in ((0, 1), (1, 2), (2, 4), (3, 6)):
        code += [pt, c, "MIAP"]
    fb.font["glyf"]["b"].program = asm(code)
    fb.setupMaxp()
    m = fb.font["maxp"]
    m.maxStorage = 8
    m.maxFunctionDefs = 4
    m.maxStackElements = 64
    m.maxZones = 2
    m.maxTwilightPoints = 4
    na = len(fb.font["glyf"]["a"].coordinates) + 4
    nb = len(fb.font["glyf"]["b"].coordinates) + 4
    fb.setupGvar({"a": [TupleVariation({"wght": (0, 1.0, 1.0)}, [(i % 7 - 3, 2 * (i % 5)) for i in range(na)])],
                  "b": [TupleVariation({"opsz": (0, 1.0, 1.0)}, [(5, -5)] * nb)]})
    fb.save(path)


def phantom_program(n_points):
    """Glyph program: for each phantom k (point n_points + k) on x, then y,
    outline point k takes its current coordinate (GC[0]), point 4 + k its
    original one (GC[1]) and point 8 + k its original-unit distance to
    point 15 (MD[1]), by SCFS."""
    code = []
    for axis in ("SVTCA[1]", "SVTCA[0]"):
        code.append(axis)
        for k in range(4):
            pp = n_points + k
            code += ["PUSHW[ ] %d %d" % (k, pp), "GC[0]", "SCFS[ ]",
                     "PUSHW[ ] %d %d" % (4 + k, pp), "GC[1]", "SCFS[ ]",
                     "PUSHW[ ] %d %d 15" % (8 + k, pp), "MD[1]", "SCFS[ ]"]
    p = ttProgram.Program()
    p.fromAssembly(code)
    return p


def build_phantoms(path, with_hvar, with_vvar=False):
    fb, order = base_font(None, ["a", "b", "comp", "space"])
    glyphs = {".notdef": simple_glyphs()[".notdef"], "space": TTGlyphPen(None).glyph()}
    for name in ("a", "b"):
        pen = TTGlyphPen(None)
        for i in range(4):           # 16 points to write the results into
            box(pen, 100 + 50 * i, 50 * i, 500 - 50 * i, 700 - 50 * i)
        glyphs[name] = pen.glyph()
    glyphs["comp"] = composite(("a", 20, 10))
    fb.setupGlyf(glyphs)
    for name in ("a", "b", "comp"):
        fb.font["glyf"][name].program = phantom_program(16)
    finish_tables(fb, order, "VarPhantoms", {"comp": 640})
    fb.setupFvar([("wght", 100, 400, 900, "Weight")], [])
    phantoms_hi = [(10, 21), (30, -41), (-52, 60), (70, 83)]
    phantoms_lo = [(-13, 7), (-9, 18), (44, -5), (-6, -29)]
    every = [(i % 5 - 2, 3 - i % 4) for i in range(16)]
    fb.setupGvar({
        "a": [TupleVariation({"wght": (0, 1.0, 1.0)}, every + phantoms_hi),
              TupleVariation({"wght": (-1.0, -1.0, 0)}, every[::-1] + phantoms_lo)],
        "b": [TupleVariation({"wght": (0, 1.0, 1.0)}, [None] * 16 + phantoms_hi),
              TupleVariation({"wght": (-1.0, -0.5, 0)}, [None] * 16 + phantoms_lo)],
        "comp": [TupleVariation({"wght": (0, 1.0, 1.0)}, [(7, -3)] + phantoms_hi),
                 TupleVariation({"wght": (-1.0, -1.0, 0)}, [(-4, 9)] + phantoms_lo)],
        "space": [TupleVariation({"wght": (0, 1.0, 1.0)}, phantoms_hi[::-1]),
                  TupleVariation({"wght": (-1.0, -0.5, 0)}, phantoms_lo)],
    })
    if with_hvar:
        from fontTools.varLib import builder as vb
        from fontTools.ttLib.tables import otTables
        regions = vb.buildVarRegionList([{"wght": (0.0, 1.0, 1.0)}, {"wght": (-1.0, -1.0, 0.0)}], ["wght"])
        store = vb.buildVarStore(regions, [vb.buildVarData([0, 1], [[0, 0], [25, -17], [-31, 12]])])
        hvar = newTable("HVAR")
        hvar.table = otTables.HVAR()
        hvar.table.Version = 0x00010000
        hvar.table.VarStore = store
        mapping = {".notdef": 0, "a": 1, "b": 2, "comp": 1, "space": 2}
        for field in ("AdvWidthMap", "LsbMap"):
            m = otTables.VarIdxMap()
            m.mapping = dict(mapping)
            setattr(hvar.table, field, m)
        hvar.table.RsbMap = None
        fb.font["HVAR"] = hvar
    if with_vvar:
        add_vvar(fb, order)
    fb.save(path)


def add_vvar(fb, order):
    """vhea, vmtx (advance heights 1000 + 10 * index, tsb 800 - yMax + index)
    and a VVAR with advance and tsb mappings whose deltas differ from the
    gvar deltas of pp3/pp4 and between the two maps."""
    from fontTools.varLib import builder as vb
    from fontTools.ttLib.tables import otTables
    vmetrics = {}
    for i, n in enumerate(order):
        g = fb.font["glyf"][n]
        vmetrics[n] = (1000 + 10 * i, 800 - getattr(g, "yMax", 0) + i)
    fb.setupVerticalMetrics(vmetrics)
    fb.setupVerticalHeader(ascent=500, descent=-500)
    regions = vb.buildVarRegionList([{"wght": (0.0, 1.0, 1.0)}, {"wght": (-1.0, -1.0, 0.0)}], ["wght"])
    store = vb.buildVarStore(regions, [vb.buildVarData([0, 1], [[0, 0], [37, -23], [-19, 45], [11, 29], [-47, -8]])])
    vvar = newTable("VVAR")
    vvar.table = otTables.VVAR()
    vvar.table.Version = 0x00010000
    vvar.table.VarStore = store
    maps = {"AdvHeightMap": {".notdef": 0, "a": 1, "b": 2, "comp": 1, "space": 2},
            "TsbMap": {".notdef": 0, "a": 3, "b": 4, "comp": 4, "space": 3}}
    for field, mapping in maps.items():
        m = otTables.VarIdxMap()
        m.mapping = dict(mapping)
        setattr(vvar.table, field, m)
    vvar.table.BsbMap = None
    vvar.table.VOrgMap = None
    fb.font["VVAR"] = vvar


# name: (source font, table, where the copy's table ends: an offset field
# of its header plus a few bytes).  FreeType 2.12.1 reads HVAR/VVAR past
# their length, so the bytes that follow decide (fuzz/FINDINGS.md F-49).
DAMAGED_METRICS_VAR = {
    "vvar_cut_store": ("var_phantoms_vvar.ttf", "VVAR", 4, 4),     # inside the store: ignored
    "vvar_cut_count": ("var_phantoms_vvar.ttf", "VVAR", 8, 2),     # count from padding: 0, no map
    "vvar_cut_entries": ("var_phantoms_vvar.ttf", "VVAR", 8, 5),   # entries from padding: 0
    "hvar_cut_count": ("var_phantoms_hvar.ttf", "HVAR", 8, 2),
    "hvar_cut_entries": ("var_phantoms_hvar.ttf", "HVAR", 8, 4),
}


def build_damaged_metrics_var(out):
    """Copies of var_phantoms_hvar/_vvar.ttf with HVAR or VVAR cut short
    (DAMAGED_METRICS_VAR), and one without vmtx (VVAR then ignored)."""
    from fontTools.ttLib import TTFont
    for name, (src, tag, field_at, extra) in DAMAGED_METRICS_VAR.items():
        f = TTFont(os.path.join(out, src))
        raw = f.reader[tag]
        t = DefaultTable(tag)
        t.data = raw[:struct.unpack(">I", raw[field_at:field_at + 4])[0] + extra]
        f[tag] = t
        f.save(os.path.join(out, f"var_phantoms_{name}.ttf"))
    f = TTFont(os.path.join(out, "var_phantoms_vvar.ttf"))
    del f["vmtx"]
    f.save(os.path.join(out, "var_phantoms_vvar_no_vmtx.ttf"))


def build_gvar_bomb(path):
    """A glyph whose deltas cost more than the gvar work budget
    (FV_BUDGET_GVAR_GLYPH_STEPS, vm/common/budget.h) at wght=1: 1,000
    points and 4,095 tuples (the most a glyph may have) that all apply
    there, their deltas zero so the font stays small.  `a` beside it is an
    ordinary varied glyph."""
    fb, order = base_font(None, ["a", "bomb"])
    glyphs = simple_glyphs()
    pen = TTGlyphPen(None)
    pen.moveTo((0, 0))
    for i in range(1, BOMB_POINTS):
        pen.lineTo((i % 500, (i // 500) * 300 + (i % 2) * 7))
    pen.closePath()
    glyphs = {".notdef": glyphs[".notdef"], "a": glyphs["a"], "bomb": pen.glyph()}
    fb.setupGlyf(glyphs)
    finish_tables(fb, order, "VarGvarBomb", {})
    fb.setupFvar([("wght", 100, 400, 900, "Weight")], [])
    na = len(fb.font["glyf"]["a"].coordinates) + 4
    zero = [(0, 0)] * (BOMB_POINTS + 4)
    fb.setupGvar({"a": [TupleVariation({"wght": (0, 1.0, 1.0)}, [(i % 7 - 3, 2 * (i % 5)) for i in range(na)])],
                  "bomb": [TupleVariation({"wght": (0, 1.0, 1.0)}, zero) for _ in range(BOMB_TUPLES)]})
    fb.save(path)


def raw_avar(maps):
    """An avar table of these segment maps (lists of (from, to) pairs), as
    bytes: fontTools would refuse to write the damaged ones."""
    out = struct.pack(">HHHH", 1, 0, 0, len(maps))
    for m in maps:
        out += struct.pack(">H", len(m))
        for a, b in m:
            out += f2dot14(a) + f2dot14(b)
    return out


STD_MAP = [(-1, -1), (0, 0), (1, 1)]
# name: (avar maps or None to keep var_gvar's, (wght min, default, max) or None)
DAMAGED_AXES = {
    "no_zero": ([[(-1, -1), (0.5, 0.2), (1, 1)], STD_MAP], None),
    "no_ends": ([[(-0.5, -0.7), (0, 0), (0.5, 0.3)], STD_MAP], None),
    "backwards": ([[(-1, -1), (0, 0), (0.6, 0.5), (0.4, 0.7), (1, 1)], STD_MAP], None),
    "repeated": ([[(-1, -1), (0, 0), (0.5, 0.2), (0.5, 0.8), (1, 1)], STD_MAP], None),
    "beyond": ([[(-1, -1), (0, 0), (0.5, 1.5), (1, 1)], STD_MAP], None),
    "empty": ([[], []], None),
    "one_map": ([STD_MAP], None),
    "three_maps": ([STD_MAP, STD_MAP, STD_MAP], None),
    "steep": ([[(-1, -1), (0, 0), (0.0001, 0.9), (1, 1)], STD_MAP], None),
    "min_past_default": (None, (500, 400, 900)),
    "default_past_max": (None, (100, 950, 900)),
    "all_equal": (None, (400, 400, 400)),
    "fractional": (None, (100.5, 400.25, 899.75)),
    "extreme": (None, (-32768, -1, 32767)),
}


def build_damaged_axes(out, base):
    from fontTools.ttLib import TTFont
    for name, (maps, wght) in DAMAGED_AXES.items():
        f = TTFont(base)
        if maps is not None:
            t = DefaultTable("avar")
            t.data = raw_avar(maps)
            f["avar"] = t
        if wght is not None:
            a = f["fvar"].axes[0]
            a.minValue, a.defaultValue, a.maxValue = wght
        f.save(os.path.join(out, f"var_axes_{name}.ttf"))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    build_gvar(os.path.join(out, "var_gvar.ttf"))
    build_cvar(os.path.join(out, "var_cvar.ttf"))
    build_hvar(os.path.join(out, "var_hvar.ttf"))
    build_phantoms(os.path.join(out, "var_phantoms.ttf"), False)
    build_phantoms(os.path.join(out, "var_phantoms_hvar.ttf"), True)
    build_phantoms(os.path.join(out, "var_phantoms_vvar.ttf"), True, True)
    build_damaged_metrics_var(out)
    build_gvar_bomb(os.path.join(out, "var_gvar_bomb.ttf"))
    build_damaged_axes(out, os.path.join(out, "var_gvar.ttf"))


if __name__ == "__main__":
    main()
