#!/usr/bin/python3
"""ctest cli_lint_faults: `fontvm lint` on hand-made fonts, one glyph per
fault FreeType tolerates, built here with Debian's fontTools.

Asserts, for each diagnostic class, the count, the glyphs and the first
location (program, glyph, pc, opcode, index) that `fontvm lint --json`
reports; a clean glyph reports nothing; a font whose prep divides by zero
is prep_failed; and, against the reference itself, the glyphs lint flags
(every class but after_iup and twilight_unset, which are no faults) are exactly the glyphs
FreeType 2.12.1 refuses with FT_LOAD_PEDANTIC (fvconform-tt --pedantic:
error_both), while without it both engines hint every glyph identically.

  lint_faults.py FONTVM FVCONFORM_TT WORKDIR
"""
import array
import json
import os
import subprocess
import sys

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import newTable
from fontTools.ttLib.tables import ttProgram

# Opcodes used below (TrueType instruction set).
PUSHB1, PUSHB2 = 0xB0, 0xB1
POP, RCVT, RS, MDAP0, SZP0, SHC0, DIV, CALL = 0x21, 0x45, 0x43, 0x2E, 0x13, 0x34, 0x62, 0x2B
SVTCA_Y, IUP_Y, IUP_X, SHPIX, JMPR, UNDEFINED = 0x00, 0x30, 0x31, 0x38, 0x1C, 0x83
PUSHW1 = 0xB8
MD0, MIAP0 = 0x49, 0x3E

# name: (glyph program bytes, class expected, pc of the faulting
# instruction, its mnemonic as fontvm names it, the index reported)
GLYPHS = {
    "clean":     (bytes([PUSHB1, 0, MDAP0]), None, None, None, None),
    "cvt":       (bytes([PUSHB1, 100, RCVT, POP]), "cvt_out_of_range", 2, "RCVT", 100),
    "storage":   (bytes([PUSHB1, 50, RS, POP]), "storage_out_of_range", 2, "RS", 50),
    "point":     (bytes([PUSHB1, 200, MDAP0]), "point_out_of_range", 2, "MDAP[0]", 200),
    "zone":      (bytes([PUSHB1, 5, SZP0]), "zone_out_of_range", 2, "SZP0", 5),
    "contour":   (bytes([PUSHB1, 7, SHC0]), "reference_out_of_range", 2, "SHC[0]", 7),
    "underflow": (bytes([POP]), "stack_underflow", 0, "POP", 1),
    "divide":    (bytes([PUSHB2, 64, 0, DIV]), "division_by_zero", 3, "DIV", 64),
    "nofunc":    (bytes([PUSHB1, 7, CALL]), "undefined_function", 2, "CALL", 7),
    "noidef":    (bytes([UNDEFINED]), "undefined_instruction", 0, None, None),
    # SHPIX of point 0 by one pixel after IUP[y] and IUP[x]: dropped in v40.
    "afteriup":  (bytes([SVTCA_Y, IUP_Y, IUP_X, PUSHB2, 0, 64, SHPIX]), "after_iup", 6, "SHPIX", 0),
    # MD measures twilight point 0 (zp0 = 0) against glyph point 1 while
    # nothing has set it: it is still at (0,0), where prep's reset left it.
    "twilight":  (bytes([PUSHB1, 0, SZP0, PUSHB2, 0, 1, MD0, POP]), "twilight_unset", 6, "MD[0]", 0),
    # The same after MIAP has put twilight point 0 at CVT 1 (50 units): a
    # later glyph, as the twilight zone lasts from glyph to glyph within a
    # size: nothing to report, and "twilight" above (an earlier glyph) is
    # still flagged.
    "twilightset": (bytes([PUSHB1, 0, SZP0, PUSHB2, 0, 1, MIAP0, PUSHB2, 0, 1, MD0, POP]), None, None, None, None),
    # PUSHW -3, JMPR back to the PUSHW, forever: FreeType's backward-jump limit.
    "forever":   (bytes([PUSHW1, 0xFF, 0xFD, JMPR]), "program_limit", 3, "JMPR", None),
    # fpgm function 0 reads CVT 99: the fault is fpgm's, during this glyph.
    "viafpgm":   (bytes([PUSHB1, 0, CALL]), "cvt_out_of_range", None, "RCVT", 99),
}
FPGM = bytes([PUSHB1, 0, 0x2C, PUSHB1, 99, RCVT, POP, 0x2D])  # 0 FDEF ... ENDF
FPGM_RCVT_PC = 5


def build(path, glyph_programs, prep=b""):
    fb = FontBuilder(1000, isTTF=True)
    order = [".notdef"] + list(glyph_programs)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({0x41 + i: n for i, n in enumerate(glyph_programs)})
    glyphs = {}
    for name in order:
        pen = TTGlyphPen(None)
        pen.moveTo((100, 0))
        pen.lineTo((100, 700))
        pen.lineTo((500, 700))
        pen.lineTo((500, 0))
        pen.closePath()
        g = pen.glyph()
        code = glyph_programs.get(name)
        g.program = ttProgram.Program()
        g.program.fromBytecode(code if code is not None else b"")
        glyphs[name] = g
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics({n: (600, 100) for n in order})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Lint Faults", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200)
    fb.setupPost()
    fb.setupMaxp()
    font = fb.font
    for tag, code in (("fpgm", FPGM), ("prep", prep)):
        t = newTable(tag)
        t.program = ttProgram.Program()
        t.program.fromBytecode(code)
        font[tag] = t
    cvt = newTable("cvt ")
    cvt.values = array.array("h", [0, 50, 100, 200])
    font["cvt "] = cvt
    m = font["maxp"]
    m.maxStorage, m.maxFunctionDefs, m.maxInstructionDefs = 2, 1, 0
    m.maxStackElements, m.maxTwilightPoints, m.maxZones = 16, 2, 2
    m.maxSizeOfInstructions = max(len(c) for c in glyph_programs.values())
    font.save(path)
    return order


def lint(fontvm, path, *extra):
    p = subprocess.run([fontvm, "lint", path, "--json", *extra], capture_output=True, text=True)
    return p.returncode, (json.loads(p.stdout) if p.stdout.strip() else None), p.stderr


def main():
    fontvm, runner, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)

    path = os.path.join(work, "lint_faults.ttf")
    order = build(path, {n: g[0] for n, g in GLYPHS.items()})
    gid = {n: i for i, n in enumerate(order)}

    rc, out, err = lint(fontvm, path, "--ppem", "12")
    check(rc == 1, f"lint exit {rc}, expected 1 (diagnostics found); stderr: {err}")
    diags = out["sizes"][0]["diagnostics"] if out else {}
    expected = {}
    for name, (_, cls, pc, op, index) in GLYPHS.items():
        if cls:
            expected.setdefault(cls, []).append(name)
    check(set(diags) == set(expected),
          f"classes {sorted(diags)}, expected {sorted(expected)}")
    for cls, names in expected.items():
        d = diags.get(cls)
        if not d:
            continue
        first = d["first"]
        name = names[0]
        _, _, pc, op, index = GLYPHS[name]
        check(d["glyphs"] == len(names), f"{cls}: {d['glyphs']} glyphs, expected {len(names)}")
        check(first["glyph"] == gid[name], f"{cls}: first glyph {first['glyph']}, expected {gid[name]} ({name})")
        if pc is not None:
            check(first["pc"] == pc, f"{cls}: first pc {first['pc']}, expected {pc}")
        if op is not None:
            check(first["opcode"] == op, f"{cls}: first opcode {first['opcode']}, expected {op}")
        if index is not None:
            check(first["index"] == index, f"{cls}: index {first['index']}, expected {index}")
        check(first["program"] == "glyf", f"{cls}: program {first['program']}")
    # Counts: one fault per glyph, except the jump loop (one stop) and the
    # CVT class, which has the glyph's RCVT and fpgm's on behalf of viafpgm.
    for cls in expected:
        if cls in diags:
            check(diags[cls]["count"] == len(expected[cls]),
                  f"{cls}: count {diags[cls]['count']}, expected {len(expected[cls])}")
    print(json.dumps(diags, indent=1))

    # The fpgm fault alone: its location is fpgm's, during the glyph.
    one = os.path.join(work, "lint_fpgm.ttf")
    build(one, {"viafpgm": GLYPHS["viafpgm"][0]})
    rc, out, err = lint(fontvm, one, "--ppem", "12,20")
    t = out["totals"] if out else {}
    check(set(t) == {"cvt_out_of_range"}, f"fpgm font: classes {sorted(t)}")
    if "cvt_out_of_range" in t:
        f = t["cvt_out_of_range"]
        check(f["count"] == 2 and f["sizes"] == 2 and f["glyphs"] == 2, f"fpgm font totals {f}")
        check((f["first"]["program"], f["first"]["glyph"], f["first"]["pc"], f["first"]["opcode"]) ==
              ("fpgm", 1, FPGM_RCVT_PC, "RCVT"), f"fpgm font first {f['first']}")
        check(f["first"]["message"] == "fpgm[1]@5:RCVT: invalid cvt 99", f["first"]["message"])

    # A clean font says so and exits 0.
    clean = os.path.join(work, "lint_clean.ttf")
    build(clean, {"clean": GLYPHS["clean"][0]})
    rc, out, err = lint(fontvm, clean, "--ppem", "9,12")
    check(rc == 0 and out and out["totals"] == {}, f"clean font: exit {rc}, {out}")

    # prep divides by zero: no glyph is hinted at that size.
    bad = os.path.join(work, "lint_prep.ttf")
    build(bad, {"clean": GLYPHS["clean"][0]}, prep=bytes([PUSHB2, 64, 0, DIV, POP]))
    rc, out, err = lint(fontvm, bad, "--ppem", "12")
    t = out["totals"] if out else {}
    check(set(t) == {"prep_failed"}, f"prep font: classes {sorted(t)}")
    if "prep_failed" in t:
        check(t["prep_failed"]["first"]["message"] == "prep@3:DIV: divide by zero 64",
              f"prep font: {t['prep_failed']['first']['message']}")

    # Text output names every class found, with its first location.
    p = subprocess.run([fontvm, "lint", path, "--ppem", "12"], capture_output=True, text=True)
    for cls in expected:
        check(any(line.split()[:1] == [cls] for line in p.stdout.splitlines()),
              f"text output lacks {cls}:\n{p.stdout}")

    # Against FreeType: pedantic FreeType refuses exactly the faulting glyphs.
    def statuses(pedantic):
        args = [runner, "--font", path, "--sizes", "12", "--modes", "v40", "--no-culprit"]
        if pedantic:
            args.append("--pedantic")
        p = subprocess.run(args, capture_output=True, text=True, check=True)
        recs = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
        cases = {r["gid"]: r["status"] for r in recs if r["type"] == "tt_case"}
        summary = [r for r in recs if r["type"] == "tt_summary"][0]
        return cases, summary
    cases, summary = statuses(False)
    check(summary["identical"] == summary["cases"] == len(order),
          f"without pedantic not all identical: {summary}")
    cases, summary = statuses(True)
    faulting = {gid[n] for n, g in GLYPHS.items() if g[1] and g[1] not in ("after_iup", "twilight_unset")}
    refused = {g for g, s in cases.items() if s == "error_both"}
    check(refused == faulting and set(cases) == refused,
          f"pedantic FreeType refuses {sorted(refused)} (others {cases}), lint flags {sorted(faulting)}")

    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        return 1
    print(f"ok: {len(expected)} classes on {len(order)} glyphs, prep_failed, fpgm location, "
          f"clean font; pedantic FreeType refuses the {len(faulting)} faulting glyphs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
