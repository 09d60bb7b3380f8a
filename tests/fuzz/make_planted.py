#!/usr/bin/env python3
"""Makes an input that sets off one of the planted bugs of
fvfuzz-replay-planted (fuzz/CMakeLists.txt), from a committed seed:

  sfnt     a Liberation subset font + a 'PLNT' table starting "BUG!" and six
           3,000-byte junk tables (the reader never looks at them)
  tt_font  a hinted TrueType seed (Arimo) whose first hinted glyph program
           starts with PUSHB[0] 0; AA  (AA is the planted instruction)
  gr_font  a Graphite seed (graphite2's general.ttf with mixed text) whose
           first PUSH_BYTE executed (per the replay tool's --trace) becomes
           PUSH_VERSION; NOP  (same length and stack effect; PUSH_VERSION is
           the planted instruction)
  tt_program the largest tt_program seed (Noto Looped Lao's fpgm, prep and a
           glyph program) with PUSHB[0] 0; AA before the glyph program
  gr_code  the largest gr_code seed from a font's rules whose PUSH_BYTE,
           turned into PUSH_VERSION; NOP, runs

    make_planted.py TARGET OUT REPLAY PLANTED

REPLAY (the unplanted fvfuzz-replay) finds the executed PUSH_BYTE of
gr_font; PLANTED (fvfuzz-replay-planted) checks the code targets' cases.
Prints the size of OUT.  Exit 1 when no seed can be made into a case."""

import glob
import os
import re
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "fuzz", "minimise"))
import fonts  # noqa: E402


def seed(target, pattern):
    found = sorted(glob.glob(os.path.join(ROOT, "corpus", target, "seeds", pattern)))
    if not found:
        sys.exit("make_planted: no seed corpus/%s/seeds/%s" % (target, pattern))
    with open(found[0], "rb") as fh:
        return fh.read()


def planted_sfnt(_replay, _planted):
    data = seed("sfnt", "Liberation*Regular*")[:-4]
    version, tables = fonts.read_tables(data)
    tables["PLNT"] = b"BUG!" + bytes(range(256)) * 8
    for k in range(6):
        tables["ZZ%02d" % k] = bytes((i * 7 + k) & 0xFF for i in range(3000))
    return fonts.build_sfnt(tables, version) + bytes(4)


def planted_tt_font(_replay, _planted):
    data = seed("tt_font", "Arimo-Regular-m0-*")
    font, trailer = data[:-8], data[-8:]
    version, tables = fonts.read_tables(font)
    glyphs = fonts.glyphs_of(tables)
    # tt_font hints the first four glyphs: plant in the first with a program.
    for g in range(min(4, len(glyphs))):
        loc = fonts.glyph_program(glyphs[g])
        if loc is not None and loc[1] > loc[0]:
            glyphs[g] = fonts.with_glyph_code(glyphs[g], bytes([0xB0, 0x00, 0x7F]) +
                                              glyphs[g][loc[0]:loc[1]])
            return fonts.build_sfnt(fonts.with_glyphs(tables, glyphs), version) + trailer
    sys.exit("make_planted: no hinted glyph among the first four of the tt_font seed")


TRACE = re.compile(r"^trace pass (\d+) rule (\d+) (constraint|action) pc (\d+) PUSH_BYTE ")


def planted_gr_font(replay, _planted):
    path = sorted(glob.glob(os.path.join(ROOT, "corpus", "gr_font", "seeds", "gr-general-mixed-*")))
    if not path:
        sys.exit("make_planted: no gr_font seed gr-general-mixed-*")
    with open(path[0], "rb") as fh:
        data = fh.read()
    out = subprocess.run([replay, "--trace", "--target", "gr_font", path[0]], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT).stdout.decode("utf-8", "replace")
    n = data[-8 + 2]
    font, rest = data[:len(data) - 8 - 2 * n], data[len(data) - 8 - 2 * n:]
    version, tables = fonts.read_tables(font)
    silf = fonts.Silf(tables["Silf"])
    for line in out.splitlines():
        m = TRACE.match(line)
        if not m:
            continue
        k, r, kind, pc = int(m.group(1)), int(m.group(2)), m.group(3)[0], int(m.group(4))
        walk = fonts.rule_code(silf, 0, k)
        piece = next((p for p in (walk[3] if walk else []) if p[:2] == (kind, r)), None)
        if piece is None:
            continue
        at = silf.sub_offsets[0] + piece[2] + pc
        table = bytearray(tables["Silf"])
        if table[at] != 0x01:
            continue
        table[at:at + 2] = bytes([0x37, 0x00])
        tables["Silf"] = bytes(table)
        return fonts.build_sfnt(tables, version) + rest
    sys.exit("make_planted: no executed PUSH_BYTE found in the gr_font seed's rules")


def crashes(planted, target, data):
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "make_planted.%d" % os.getpid())
    with open(path, "wb") as fh:
        fh.write(data)
    try:
        p = subprocess.run([planted, "--quiet", "--target", target, path], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
    finally:
        os.unlink(path)
    return b"fvfuzz_planted_overread" in p.stdout or b"heap-buffer-overflow" in p.stdout


def planted_tt_program(_replay, planted):
    """The largest tt_program seed (a real font's fpgm, prep and glyph
    program) with PUSHB[0] 0; AA at the start of the glyph program."""
    for name in sorted(os.listdir(os.path.join(ROOT, "corpus", "tt_program", "seeds"))):
        if not name.startswith("NotoLoopedLao-Regular-g51-v35-"):
            continue
        data = seed("tt_program", name)
        code, trailer = data[:-16], data[-16:]
        insns = fonts.split_insns(code, fonts.tt_insn_len)
        skip = sum(struct.unpack(">HH", trailer[2:6]))
        at = sum(len(i) for i in insns[:skip])
        out = code[:at] + bytes([0xB0, 0x00, 0x7F]) + code[at:] + trailer
        if crashes(planted, "tt_program", out):
            return out
    sys.exit("make_planted: the tt_program seed does not reach its glyph program")


def planted_gr_code(_replay, planted):
    """The largest gr_code seed taken from a real font's rule, with its
    first PUSH_BYTE that runs turned into PUSH_VERSION; NOP."""
    names = sorted(os.listdir(os.path.join(ROOT, "corpus", "gr_code", "seeds")),
                   key=lambda n: (-os.path.getsize(os.path.join(ROOT, "corpus", "gr_code", "seeds", n)), n))
    for name in names:
        if not name.startswith("gr-"):
            continue
        data = seed("gr_code", name)
        pc = 0
        for insn in fonts.split_insns(data[:-16], fonts.gr_insn_len):
            if insn[0] == 0x01 and len(insn) == 2:
                out = data[:pc] + bytes([0x37, 0x00]) + data[pc + 2:]
                if crashes(planted, "gr_code", out):
                    return out
            pc += len(insn)
    sys.exit("make_planted: no gr_code seed runs a PUSH_BYTE")


def main():
    makers = ("sfnt", "tt_font", "gr_font", "tt_program", "gr_code")
    if len(sys.argv) != 5 or sys.argv[1] not in makers:
        print(__doc__, file=sys.stderr)
        return 2
    target, dest, replay, planted = sys.argv[1:]
    data = globals()["planted_" + target](replay, planted)
    with open(dest, "wb") as fh:
        fh.write(data)
    print(len(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
