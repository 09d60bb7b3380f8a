#!/usr/bin/env python3
"""Generates corpus/<target>/seeds/ reproducibly from the installed corpus
fonts plus hand-written edge cases.

    fuzz/make_seeds.py [--out CORPUS_DIR] [--check]

Same fonts in, same bytes out: no timestamps, no randomness (glyphs are
chosen by a fixed stride), files named by content hash.  --check exits 1
when the committed seeds differ from what would be generated.

Seeds per target (each ends with the target's trailer, see fuzz/<t>.c):
  sfnt       small subset fonts (first glyphs of each corpus font, hinting
             tables kept), a few of them as WOFF/WOFF2 (and a WOFF2
             collection), the corpus's variable fonts subset and the
             synthetic variable fonts of tests/tt/make_var_fonts.py (at
             three locations each), the Graphite test fonts, edge-case
             directories
  tt_font    the subset fonts of hinted TrueType fonts, at a few size/mode
             trailers
  tt_program per-glyph programs, fpgm and prep of the corpus fonts, with
             trailers describing each font's maxp; hand-written programs
  gr_font    small Graphite fonts with a few texts
  tt_diff    the tt_program seeds up to its 16 KiB input cap
  tt_font_diff the tt_font seeds up to its 64 KiB input cap
  gr_font_diff the gr_font seeds up to its 512 KiB input cap
  gr_text_diff lines of corpus/texts in each embedded font's script, with
             feature, language, joiner and repeat trailers; a mixed-script
             line and one of font-mapped (U+E000..) units
  gr_diff    hand-written actions and the base font's own, in each rule span
  gr_code    hand-written rule code, and the rule code of every pass of the
             corpus Graphite fonts (constraints and actions)
Keeps the total to a few MB: glyph programs capped in number and size."""

import argparse
import hashlib
import os
import re
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONT_DIRS = ["/usr/share/fonts/truetype/" + d for d in
             ("liberation2", "croscore", "dejavu", "noto", "padauk",
              "abyssinica", "annapurna", "scheherazade")]
GRAPHITE_TEST_FONTS = os.path.join(ROOT, "corpus", "peer", "graphite2", "fonts")

# Per-target trailer lengths; must match the TRAILER constants in fuzz/*.c.
TRAILER = {"sfnt": 4, "tt_font": 8, "tt_program": 16, "tt_diff": 16, "tt_font_diff": 8,
           "gr_font": 8, "gr_code": 16, "gr_diff": 16, "gr_font_diff": 8, "gr_text_diff": 8,
           "gr2_api": 8, "gr2_api_diff": 8}

# Caps keeping the committed seeds small.
FONTS_PER_FAMILY_DIR = 4      # regular-ish fonts taken from each directory
SUBSET_GLYPHS = 12            # glyphs kept in a subset font
GLYPH_PROGRAMS_PER_FONT = 6   # per-glyph programs extracted per font
MAX_SEED_BYTES = 64 * 1024    # a seed larger than this is skipped
GR_FONT_MAX_INPUT = 1 << 20   # fuzz/gr_font.c's cap, for the collision-font seeds
TT_DIFF_MAX_INPUT = 16 * 1024 # fuzz/tt_diff.c
TT_FONT_DIFF_MAX_INPUT = 64 * 1024    # fuzz/tt_font_diff.c
GR_FONT_DIFF_MAX_INPUT = 512 * 1024   # fuzz/gr_font_diff.c
# fuzz/gr_text_diff.c: its embedded fonts in order (FVFUZZ_GR_TEXT_FONTS in
# fuzz/CMakeLists.txt), each with a text file of its script and direction.
GR_TEXT_DIFF_FONTS = (("padauk", "myanmar.txt", 0), ("awami", "urdu.txt", 1),
                      ("scheherazade", "arabic.txt", 1), ("charis", "latin.txt", 0))
GR_TEXT_DIFF_LINES = 4        # lines per font
GR_TEXT_DIFF_CHARS = 60       # characters kept of a line (the target repeats them)


# ---------------------------------------------------------------- sfnt I/O
def read_tables(data):
    """{tag: bytes} of a plain sfnt (not a collection)."""
    if len(data) < 12:
        raise ValueError("short")
    version, num = struct.unpack(">IH", data[:6])
    tables = {}
    for i in range(num):
        rec = data[12 + 16 * i: 28 + 16 * i]
        if len(rec) < 16:
            raise ValueError("short directory")
        tag, _, off, length = struct.unpack(">4sIII", rec)
        tables[tag.decode("latin-1")] = data[off:off + length]
    return version, tables


def checksum(b):
    b = b + b"\0" * (-len(b) % 4)
    return sum(struct.unpack(">%dI" % (len(b) // 4), b)) & 0xFFFFFFFF


def build_sfnt(tables, version=0x00010000):
    tags = sorted(tables)
    n = len(tags)
    es = max(0, n.bit_length() - 1)
    sr = 16 * (1 << es)
    head = struct.pack(">IHHHH", version, n, sr, es, n * 16 - sr)
    off = 12 + 16 * n
    dir_, body = b"", b""
    for t in tags:
        d = tables[t]
        dir_ += struct.pack(">4sIII", t.encode("latin-1"), checksum(d), off + len(body), len(d))
        body += d + b"\0" * (-len(d) % 4)
    return head + dir_ + body


def glyph_offsets(tables):
    head, maxp = tables["head"], tables["maxp"]
    num_glyphs = struct.unpack(">H", maxp[4:6])[0]
    long_loca = struct.unpack(">h", head[50:52])[0] == 1
    loca = tables.get("loca", b"")
    if long_loca:
        offs = struct.unpack(">%dI" % min(num_glyphs + 1, len(loca) // 4), loca[:4 * (num_glyphs + 1)])
    else:
        offs = [2 * o for o in struct.unpack(">%dH" % min(num_glyphs + 1, len(loca) // 2), loca[:2 * (num_glyphs + 1)])]
    return num_glyphs, list(offs)


def glyph_instructions(g):
    """The instructions of one glyf entry (simple or composite)."""
    if len(g) < 10:
        return b""
    nc = struct.unpack(">h", g[:2])[0]
    if nc >= 0:
        p = 10 + 2 * nc
        if p + 2 > len(g):
            return b""
        n = struct.unpack(">H", g[p:p + 2])[0]
        return g[p + 2:p + 2 + n]
    p = 10
    flags = 0x20
    while flags & 0x20:
        if p + 4 > len(g):
            return b""
        flags = struct.unpack(">H", g[p:p + 2])[0]
        p += 4 + (4 if flags & 1 else 2)
        if flags & 0x08:
            p += 2
        elif flags & 0x40:
            p += 4
        elif flags & 0x80:
            p += 8
    if flags & 0x100 and p + 2 <= len(g):
        n = struct.unpack(">H", g[p:p + 2])[0]
        return g[p + 2:p + 2 + n]
    return b""


def subset_font(data, count):
    """A font with the first `count` glyphs (composites pointing further are
    kept as they are: the reader must reject them cleanly), hinting tables
    kept, cmap/name/post/OS2 kept, everything else dropped."""
    version, t = read_tables(data)
    if "glyf" not in t or "loca" not in t:
        return None
    num_glyphs, offs = glyph_offsets(t)
    count = min(count, num_glyphs)
    glyf, loca = b"", []
    for g in range(count):
        loca.append(len(glyf))
        a, b = offs[g], offs[g + 1]
        gd = t["glyf"][a:b]
        glyf += gd + b"\0" * (-len(gd) % 4)
    loca.append(len(glyf))
    keep = {k: v for k, v in t.items() if k in ("head", "hhea", "maxp", "cvt ", "fpgm", "prep",
                                                "cmap", "name", "post", "OS/2")}
    head = bytearray(keep["head"])
    head[8:12] = b"\0\0\0\0"
    head[50:52] = struct.pack(">h", 1)
    keep["head"] = bytes(head)
    maxp = bytearray(keep["maxp"])
    maxp[4:6] = struct.pack(">H", count)
    keep["maxp"] = bytes(maxp)
    hhea = bytearray(keep["hhea"])
    nhm = struct.unpack(">H", hhea[34:36])[0]
    hmtx = t.get("hmtx", b"")
    metrics = b""
    for g in range(count):
        i = min(g, nhm - 1)
        adv = hmtx[4 * i:4 * i + 2] or b"\0\0"
        lsb = hmtx[4 * i + 2:4 * i + 4] if g < nhm else hmtx[4 * nhm + 2 * (g - nhm):4 * nhm + 2 * (g - nhm) + 2]
        metrics += adv + (lsb or b"\0\0")
    hhea[34:36] = struct.pack(">H", count)
    keep["hhea"] = bytes(hhea)
    keep["hmtx"] = metrics
    keep["glyf"] = glyf
    keep["loca"] = b"".join(struct.pack(">I", o) for o in loca)
    # Keep the cmap only if small (format 4 of a Latin font is a few KB).
    if len(keep.get("cmap", b"")) > 4096:
        del keep["cmap"]
    if len(keep.get("name", b"")) > 2048:
        del keep["name"]
    return build_sfnt(keep, version)


# ---------------------------------------------------------------- TrueType code
def tt_insn_len(code, pc):
    op = code[pc]
    if op == 0x40:
        return 2 + (code[pc + 1] if pc + 1 < len(code) else 0)
    if op == 0x41:
        return 2 + 2 * (code[pc + 1] if pc + 1 < len(code) else 0)
    if 0xB0 <= op <= 0xB7:
        return 1 + (op - 0xB0 + 1)
    if op >= 0xB8:
        return 1 + 2 * (op - 0xB8 + 1)
    return 1


def tt_count_insns(code):
    n, pc = 0, 0
    while pc < len(code):
        pc += tt_insn_len(code, pc)
        n += 1
    return n


def tt_program_trailer(fpgm, prep, maxp, cvt_len, flags=0, ppem=12, points=8, contours=2,
                       alloc=0, seed=1):
    """16 bytes, layout in fuzz/tt_program.c."""
    def field(v, div, default=0):
        return max(0, min(255, (v + div - 1) // div)) if v else default
    (storage, twilight, fdefs, stack) = (0, 0, 0, 0)
    if len(maxp) >= 32:
        _, _, _, _, _, _, _, twilight, storage, fdefs, _, stack = struct.unpack(">IHHHHHHHHHHH", maxp[:26])
    return struct.pack(">HHHBBBBBBBBBB", alloc, tt_count_insns(fpgm), tt_count_insns(prep),
                       flags, ppem, points, contours, field(cvt_len // 2, 4),
                       field(storage, 4), min(255, twilight), field(fdefs, 2), field(stack, 4), seed & 0xFF)


# Hand-written TrueType programs: each exercises one family of instructions
# on the synthetic glyph (see fuzz/tt_program.c for the context).
TT_HANDWRITTEN = {
    # FDEF 0 { DUP MUL } ; PUSHB 3 ; CALL
    "fdef-call": (bytes([0xB0, 0x00, 0x2C, 0x20, 0x63, 0x2D]), b"", bytes([0xB1, 0x03, 0x00, 0x2B])),
    # SVTCA[x], MDAP[r] p0, MIRP p1 via cvt 0, IUP[x]
    "mirp-iup": (b"", b"", bytes([0x01, 0xB0, 0x00, 0x2F, 0xB1, 0x01, 0x00, 0xE0, 0x31])),
    # loop: PUSHB 5 ; SLOOP ; PUSHB 1 2 3 4 5 ; ALIGNRP
    "sloop-alignrp": (b"", b"", bytes([0xB0, 0x05, 0x17, 0xB4, 1, 2, 3, 4, 5, 0x3C])),
    # IF/ELSE/EIF nesting and jumps: PUSHB 1 ; IF ; PUSHB 0 ; ELSE ; PUSHB 1 ; EIF ; PUSHB 3 ; JROT
    "if-else-jump": (b"", b"", bytes([0xB0, 1, 0x58, 0xB0, 0, 0x1B, 0xB0, 1, 0x59, 0xB1, 3, 0, 0x79])),
    # DELTAP1 with a deltabase/shift tweak
    "deltap": (b"", b"", bytes([0xB0, 9, 0x5E, 0xB0, 3, 0x5F, 0xB2, 0x47, 1, 1, 0x5D])),
    # prep: INSTCTRL, SCANCTRL, SCANTYPE, measure ppem, round state changes
    "prep-state": (b"", bytes([0xB1, 1, 3, 0x8E, 0xB1, 1, 0xFF, 0x85, 0xB0, 4, 0x8D, 0x4B, 0x18, 0x19, 0x3D, 0x7A]), b"\x4B"),
    # GETINFO, storage and CVT round trips
    "getinfo-storage": (b"", b"", bytes([0xB0, 0x3F, 0x88, 0xB0, 0, 0x23, 0x42, 0xB0, 0, 0x43,
                                          0xB1, 0, 100, 0x44, 0xB0, 0, 0x45])),
    # twilight zone: SZP0 0 ; MIAP to twilight point 0 ; SZPS 1
    "twilight": (b"", b"", bytes([0xB0, 0, 0x13, 0xB1, 0, 0, 0x3F, 0xB0, 1, 0x16])),
    # infinite loop: the instruction budget must stop it (JMPR -1 each time)
    "budget-jmpr": (b"", b"", bytes([0xB8, 0xFF, 0xFF, 0x1C])),
    # deep recursion: FDEF 0 { PUSHB 0 CALL } ; CALL 0
    "recursion": (bytes([0xB0, 0, 0x2C, 0xB0, 0, 0x2B, 0x2D]), b"", bytes([0xB0, 0, 0x2B])),
    # stack overflow attempt: NPUSHB 255 of zeros then DUP until full
    "npushb-max": (b"", b"", bytes([0x40, 0xFF]) + bytes(255) + bytes([0x20]) * 64),
    # IDEF of an unused opcode, then use it
    "idef": (bytes([0xB0, 0x91, 0x89, 0xB0, 7, 0x2D]), b"", bytes([0x91])),
    # ISECT, SHPIX, MSIRP, FLIPRGON, round-to-grid variety
    "outline-mix": (b"", b"", bytes([0xB4, 0, 1, 2, 3, 4, 0x0F, 0xB1, 5, 0x40, 0x38,
                                     0xB2, 1, 0, 64, 0x3A, 0xB1, 0, 3, 0x81, 0x7C, 0x18, 0x19])),
    # every opcode byte once with a push of two small values before it
    "all-opcodes": (b"", b"", b"".join(bytes([0xB1, 1, 0, op]) for op in range(0x00, 0xB0))),
}


# ---------------------------------------------------------------- Graphite
def gr_arg_bytes():
    """{opcode: fixed argument bytes (-1: count byte + count)} from the
    engine's own list, vm/graphite/opcodes.def, so there is no second table:
    the argument column's kinds (A2(Slot, Class16)) measured as opcodes.c
    measures them."""
    wide = {"S16": 2, "U16": 2, "Class16": 2, "GAttr16": 2, "S32": 4}
    out = {}
    with open(os.path.join(ROOT, "vm", "graphite", "opcodes.def")) as fh:
        for line in fh:
            m = re.match(r"X\((\w+),\s*(0x[0-9A-Fa-f]+),.*\bA[0-3](?:\(([^)]*)\))?\)", line)
            if not m:
                continue
            kinds = [k.strip() for k in (m.group(3) or "").split(",") if k.strip()]
            out[int(m.group(2), 16)] = (-1 if kinds == ["Slots"]
                                        else sum(wide.get(k, 1) for k in kinds))
    return out


GR_ARGS = gr_arg_bytes()
GR_RETURNS = (0x30, 0x31, 0x32)  # PopRet, RetZero, RetTrue
MAX_GR_RULES_PER_PASS = 6        # rule pieces taken from each pass
MAX_GR_PIECES_PER_FONT = 40


def gr_insn_len(code, pc):
    n = GR_ARGS.get(code[pc], 0)
    if n < 0:
        n = 1 + (code[pc + 1] if pc + 1 < len(code) else 0)
    return 1 + n


def gr_count_insns(code):
    n, pc = 0, 0
    while pc < len(code):
        pc += gr_insn_len(code, pc)
        n += 1
    return n


def gr_split_rules(block):
    """Rule code pieces of a constraint or action block: graphite2 requires
    every piece to end with a return, so split after each return opcode.
    Pieces that run past the block (not code) end the walk."""
    pieces, start, pc = [], 0, 0
    while pc < len(block):
        op = block[pc]
        if op not in GR_ARGS:
            break
        pc += gr_insn_len(block, pc)
        if pc > len(block):
            break
        if op in GR_RETURNS:
            pieces.append(block[start:pc])
            start = pc
    return pieces


def gr_pass_offsets(sub, version, num_passes):
    """Offsets of the passes (num_passes + 1 u32s) inside a Silf subtable.
    v3+: the header says where; v2: after the variable-length header, which
    is walked as graphite2's reader walks it; the result must be increasing
    and inside the subtable, else None."""
    if version >= 0x00030000:
        p = struct.unpack(">H", sub[4:6])[0]
    else:
        p = 20
        nj = sub[19]
        p += 8 * nj + 2 + 1 + 1 + 1 + 1 + 3    # jlevels, numLigComp, numUser, maxComp, dir, attColl, 3 reserved
        ncrit = sub[p]
        p += 1 + 2 * ncrit + 1
        nscript = sub[p]
        p += 1 + 4 * nscript + 2               # scripts, lbGID
    n = num_passes + 1
    if p + 4 * n > len(sub):
        return None
    offs = struct.unpack(">%dI" % n, sub[p:p + 4 * n])
    if any(b < a for a, b in zip(offs, offs[1:])) or offs[-1] > len(sub) or offs[0] < p:
        return None
    return offs


def gr_rule_pieces(silf):
    """(pass type, constraint pieces, action pieces) per pass of every
    uncompressed Silf subtable: a bounded walk of the table layout
    (Silf v2-v5), checked at every step; anything unexpected skips the
    subtable.  The engine's verifier decides what is valid, not this."""
    out = []
    if len(silf) < 12:
        return out
    version = struct.unpack(">I", silf[:4])[0]
    p = 4
    if version >= 0x00030000:
        if version >= 0x00050000 and struct.unpack(">I", silf[4:8])[0] >> 27:
            return out                         # LZ4-compressed
        p = 8
    num_sub = struct.unpack(">H", silf[p:p + 2])[0]
    p += 4
    for i in range(min(num_sub, 4)):
        if p + 4 * (i + 1) > len(silf):
            break
        so = struct.unpack(">I", silf[p + 4 * i:p + 4 * i + 4])[0]
        sub = silf[so:]
        h = 8 if version >= 0x00030000 else 0
        if len(sub) < h + 20:
            continue
        num_passes, i_subst, i_pos = sub[h + 6], sub[h + 7], sub[h + 8]
        try:
            offs = gr_pass_offsets(sub, version, num_passes)
        except IndexError:
            offs = None
        if offs is None:
            continue
        for k in range(num_passes):
            ps = offs[k]
            if ps + 24 > offs[k + 1]:
                continue
            rc, ac = struct.unpack(">II", sub[ps + 12:ps + 20])
            end = offs[k + 1]
            if not (ps < rc <= ac <= end):
                continue
            ptype = 2 if k < i_pos else 3      # GRV_PASS_SUBSTITUTE / _POSITIONING
            cons = gr_split_rules(sub[rc:ac])
            acts = gr_split_rules(sub[ac:end])
            out.append((ptype, cons[:MAX_GR_RULES_PER_PASS], acts[:MAX_GR_RULES_PER_PASS]))
    return out


def gr_code_trailer(constraint, pass_type, sort=3, pre=0, slots=6, flags=0, gids=(1, 2, 3, 4, 5, 6, 7, 0)):
    """16 bytes, layout in fuzz/gr_code.c."""
    return struct.pack(">HHBBBB8B", 0, gr_count_insns(constraint), (pass_type % 5) | flags,
                       sort - 1, pre, slots - 1, *gids)


# Hand-written Graphite rule code (constraint, action).
GR_HANDWRITTEN = {
    "ret-true": (b"", bytes([0x32])),                        # RET_TRUE
    "push-add-ret": (bytes([0x01, 2, 0x01, 3, 0x06, 0x30]), bytes([0x1B, 0x32])),  # 2+3; COPY_NEXT
    "put-glyph": (b"", bytes([0x3B, 0, 1, 0x1B, 0x32])),     # PUT_GLYPH 1; COPY_NEXT
    "insert-delete": (b"", bytes([0x1F, 0x1B, 0x20, 0x19, 0x32])),
    "attr-set": (b"", bytes([0x01, 10, 0x23, 0x04, 0x1B, 0x32])),  # ATTR_SET shiftx
    "cntxt": (bytes([0x22, 0, 2, 0x01, 1, 0x30]), bytes([0x1B, 0x32])),
    "assoc": (b"", bytes([0x21, 2, 0, 1, 0x1B, 0x32])),
    "div-zero": (bytes([0x01, 1, 0x01, 0, 0x09, 0x30]), bytes([0x1B, 0x32])),
    "stack-deep": (b"", bytes([0x01, 1] * 40 + [0x32])),
    "feat": (bytes([0x2B, 0, 0, 0x30]), bytes([0x42, 0, 0, 0x1B, 0x32])),
    "bad-opcode": (b"", bytes([0x7F, 0x32])),
    "no-return": (b"", bytes([0x01, 1])),
}


# ---------------------------------------------------------------- corpus
def corpus_fonts():
    fonts = []
    for d in FONT_DIRS:
        if not os.path.isdir(d):
            continue
        names = sorted(f for f in os.listdir(d) if f.endswith(".ttf"))
        reg = [f for f in names if "Regular" in f or f.endswith("Sans.ttf") or f.endswith("Mono.ttf")]
        rest = [f for f in names if f not in reg]
        for f in (reg + rest)[:FONTS_PER_FAMILY_DIR]:
            fonts.append(os.path.join(d, f))
    return fonts


def graphite_fonts():
    out = []
    for d in FONT_DIRS:
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            p = os.path.join(d, f)
            with open(p, "rb") as fh:
                data = fh.read()
            try:
                _, t = read_tables(data)
            except ValueError:
                continue
            if "Silf" in t:
                out.append(p)
    if os.path.isdir(GRAPHITE_TEST_FONTS):
        for f in sorted(os.listdir(GRAPHITE_TEST_FONTS)):
            out.append(os.path.join(GRAPHITE_TEST_FONTS, f))
    return out


class Seeds:
    def __init__(self):
        self.files = {}  # target -> {name: bytes}

    def add(self, target, label, data, cap=MAX_SEED_BYTES):
        if len(data) > cap:
            return
        h = hashlib.sha1(data).hexdigest()[:12]
        name = "%s-%s" % (label, h)
        self.files.setdefault(target, {})[name] = data


# (flags, coordinate in 128ths, largest delta, seed) of the variation
# trailers tt_var_seeds adds: every table combination, locations -1, 1,
# inner and none, small and large deltas.
TT_VAR_TRAILERS = [(0x00, 64, 20, 1), (0x02, -41, 60, 2), (0x04, 127, 3, 3), (0x08, -128, 20, 4),
                   (0x0E, 54, 200, 5), (0x1E, 100, 20, 6), (0x06, -90, 9, 7), (0x0A, 13, 120, 8)]
# Seeds (by label) whose variable copies diverge today: open findings, not
# seeds (fuzz/FINDINGS.md).  None since F-36's fix.
TT_VAR_OPEN = set()


def tt_var_seeds(program_seeds):
    """[(label, data)]: every 24th tt_program seed (by name, the variable
    ones excluded) with three of TT_VAR_TRAILERS each, in turn."""
    plain = [(n, d) for n, d in program_seeds if not n.startswith("var-")]
    out = []
    for k, (name, data) in enumerate(plain[::24]):
        base = name.rsplit("-", 1)[0]
        for j in range(3):
            flags, coord, scale, seed = TT_VAR_TRAILERS[(3 * k + j) % len(TT_VAR_TRAILERS)]
            label = "var-%02x-%s" % (flags, base)
            if label in TT_VAR_OPEN:
                continue
            out.append((label, data + b"VR" + struct.pack(">BbBBH", flags, coord, scale, seed >> 16, seed & 0xFFFF)))
    return out


# The corpus's variable fonts (conform.toml: karla-variable,
# inter-variable), subset for the sfnt seeds with their variation tables.
VAR_FONTS = ("/usr/share/fonts/truetype/karla-variable/Karla[wght].ttf",
             "/usr/share/fonts/truetype/karla-variable/Karla-Italic[wght].ttf",
             "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf")
VAR_SUBSET_TEXT = "Aabgo,é"


def reproducible_bytes(font):
    """The bytes of a fontTools font with its timestamps zeroed."""
    import io
    font["head"].created = font["head"].modified = 0
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue()


def var_font_seeds():
    """[(label, bytes)]: the corpus's variable fonts subset by fontTools
    (a few Latin glyphs; fvar, avar, gvar, cvar, HVAR kept, layout dropped)
    and the synthetic feature fonts of tests/tt/make_var_fonts.py (shared
    and private points, intermediate regions, phantom deltas, composites,
    cvar, HVAR)."""
    import io
    import tempfile
    from fontTools import subset
    from fontTools.ttLib import TTFont
    out = []
    for path in VAR_FONTS:
        if not os.path.exists(path):
            continue
        opts = subset.Options()
        opts.hinting = True
        opts.layout_features = []
        opts.drop_tables += ["GSUB", "GPOS", "GDEF", "STAT", "MVAR", "DSIG"]
        opts.name_IDs = []
        opts.notdef_outline = True
        font = TTFont(path, recalcTimestamp=False)
        sub = subset.Subsetter(opts)
        sub.populate(text=VAR_SUBSET_TEXT)
        sub.subset(font)
        out.append(("var-" + sanitize(os.path.basename(path).rsplit(".", 1)[0]).strip("-"),
                    reproducible_bytes(font)))
    sys.path.insert(0, os.path.join(ROOT, "tests", "tt"))
    import make_var_fonts
    builders = (("gvar", make_var_fonts.build_gvar), ("cvar", make_var_fonts.build_cvar),
                ("hvar", make_var_fonts.build_hvar),
                ("phantoms", lambda p: make_var_fonts.build_phantoms(p, False)),
                ("phantoms-hvar", lambda p: make_var_fonts.build_phantoms(p, True)))
    with tempfile.TemporaryDirectory() as tmp:
        for name, build in builders:
            path = os.path.join(tmp, name + ".ttf")
            build(path)
            with open(path, "rb") as fh:
                font = TTFont(io.BytesIO(fh.read()), recalcTimestamp=False)
            out.append(("var-synthetic-" + name, reproducible_bytes(font)))
    return out


def sanitize(s):
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in s)[:40]


WEB_FONT_SEEDS = ("LiberationSans-Regular", "DejaVuSans", "NotoSansMyanmar-Regular", "Padauk-Regular")


def web_font_seeds(subsets):
    """[(label, bytes)]: a few subset fonts as WOFF, as WOFF2 with glyf/loca
    transformed and with hmtx transformed too (fontTools' encoders, Debian's
    python3-fonttools and python3-brotli), and two of them as a WOFF2
    collection (tests/sfnt/woff_build.py)."""
    import io
    sys.path.insert(0, os.path.join(ROOT, "tests", "sfnt"))
    import woff_build
    from fontTools.ttLib import TTCollection, TTFont
    from fontTools.ttLib import woff2 as ft_woff2
    out = []
    picked = [label for label in WEB_FONT_SEEDS if label in subsets]
    for label in picked:
        f = TTFont(io.BytesIO(subsets[label]), recalcBBoxes=False, recalcTimestamp=False)
        f.flavor = "woff"
        buf = io.BytesIO()
        f.save(buf, reorderTables=False)
        out.append(("web-%s-woff" % label, buf.getvalue()))
        for name, transforms in (("woff2", {"glyf", "loca"}), ("woff2-hmtx", {"glyf", "loca", "hmtx"})):
            buf = io.BytesIO()
            ft_woff2.compress(io.BytesIO(subsets[label]), buf, transform_tables=transforms)
            out.append(("web-%s-%s" % (label, name), buf.getvalue()))
    if len(picked) >= 2:
        ttc = TTCollection()
        ttc.fonts = [TTFont(io.BytesIO(subsets[label]), recalcBBoxes=False, recalcTimestamp=False)
                     for label in picked[:2]]
        buf = io.BytesIO()
        ttc.save(buf)
        out.append(("web-collection-woff2", woff_build.collection_woff2(buf.getvalue()).build()))
    return out


def generate():
    S = Seeds()
    tt_fonts = corpus_fonts()
    subsets = {}

    # sfnt and tt_font: subset fonts.
    for path in tt_fonts:
        with open(path, "rb") as fh:
            data = fh.read()
        label = sanitize(os.path.basename(path).rsplit(".", 1)[0])
        try:
            sub = subset_font(data, SUBSET_GLYPHS)
        except (ValueError, KeyError, struct.error):
            continue
        if sub is None:
            continue
        S.add("sfnt", label, sub + bytes(TRAILER["sfnt"]))
        subsets[label] = sub
        _, t = read_tables(data)
        if "fpgm" in t or "prep" in t:
            # tt_font trailer (fuzz/tt_font.c): alloc(2) face glyph-seed mode ppem1 ppem2 flags
            modes = ((1, 12, 17), (0, 9, 24), (2, 16, 11), (3, 20, 7))
            k = len(S.files.get("tt_font", {})) // 2
            for mode, p1, p2 in (modes[k % 4], modes[(k + 1) % 4]):
                S.add("tt_font", "%s-m%d" % (label, mode), sub + struct.pack(">HBBBBBB", 0, 0, 0, mode, p1, p2, 0))
            # tt_program: fpgm + prep + a few glyph programs
            fpgm, prep, cvt, maxp = t.get("fpgm", b""), t.get("prep", b""), t.get("cvt ", b""), t["maxp"]
            num_glyphs, offs = glyph_offsets(t)
            picked = 0
            step = max(1, num_glyphs // (GLYPH_PROGRAMS_PER_FONT * 3))
            for g in range(1, num_glyphs, step):
                ins = glyph_instructions(t["glyf"][offs[g]:offs[g + 1]])
                if not ins:
                    continue
                for flags, variant in ((1, "v40"), (0, "v35")):
                    tr = tt_program_trailer(fpgm, prep, maxp, len(cvt), flags=flags, ppem=11 + picked,
                                            points=12, contours=2, seed=g)
                    S.add("tt_program", "%s-g%d-%s" % (label, g, variant), fpgm + prep + ins + tr)
                # the glyph program alone (no fpgm/prep: calls fail cleanly)
                S.add("tt_program", "%s-g%d-bare" % (label, g),
                      ins + tt_program_trailer(b"", b"", maxp, len(cvt), flags=1, seed=g))
                picked += 1
                if picked >= GLYPH_PROGRAMS_PER_FONT:
                    break
            # prep run as the glyph program too
            if prep:
                S.add("tt_program", "%s-prep-as-glyph" % label,
                      fpgm + prep + tt_program_trailer(fpgm, b"", maxp, len(cvt), flags=1))

    for name, (fpgm, prep, glyph) in sorted(TT_HANDWRITTEN.items()):
        for flags, tag in ((1, "v40"), (0x04, "v35-pedantic"), (0x0A, "v40-mono-composite")):
            tr = struct.pack(">HHHBBBBBBBBBB", 0, tt_count_insns(fpgm), tt_count_insns(prep),
                             flags, 12, 16, 3, 8, 8, 4, 8, 64, 7)
            S.add("tt_program", "hand-%s-%s" % (name, tag), fpgm + prep + glyph + tr)
    # Allocation-failure variants of one program: fail allocation 1..8.
    fpgm, prep, glyph = TT_HANDWRITTEN["fdef-call"]
    for n in range(8):
        tr = struct.pack(">HHHBBBBBBBBBB", 0xC000 | n, tt_count_insns(fpgm), 0, 1, 12, 16, 3, 8, 8, 4, 8, 64, 7)
        S.add("tt_program", "hand-allocfail-%d" % (n + 1), fpgm + prep + glyph + tr)

    # The same subsets as WOFF and WOFF2 (vm/sfnt/woff.c, woff2.c).
    for label, data in web_font_seeds(subsets):
        S.add("sfnt", label, data + bytes(TRAILER["sfnt"]))

    # Variable fonts, each at three locations (fuzz/sfnt.c takes them from
    # trailer byte 3).
    for label, data in var_font_seeds():
        for k in (0, 0x55, 0xC3):
            S.add("sfnt", "%s-%02x" % (label, k), data + bytes([0, 0, 0, k]))

    # Hand-written sfnt edge cases.
    edge = {
        "empty": b"",
        "truncated-dir": struct.pack(">IHHHH", 0x00010000, 5, 64, 2, 16),
        "ttc-header": b"ttcf" + struct.pack(">IIII", 0x00010000, 2, 0x20, 0xFFFFFFF0),
        "otto-empty": struct.pack(">4sHHHH", b"OTTO", 0, 0, 0, 0),
        "tables-overlap": struct.pack(">IHHHH", 0x00010000, 2, 32, 1, 0) +
            struct.pack(">4sIII", b"head", 0, 12, 0xFFFFFFFF) + struct.pack(">4sIII", b"maxp", 0, 0xFFFFFFF0, 32),
    }
    for name, data in sorted(edge.items()):
        S.add("sfnt", "edge-" + name, data + bytes(TRAILER["sfnt"]))

    # Graphite fonts.
    for path in graphite_fonts():
        with open(path, "rb") as fh:
            data = fh.read()
        label = "gr-" + sanitize(os.path.basename(path).rsplit(".", 1)[0])
        if len(data) <= MAX_SEED_BYTES:
            S.add("sfnt", label, data + bytes(TRAILER["sfnt"]))
            # gr_font: [font][text: n x u16][trailer 8] (fuzz/gr_font.c)
            for text_name, text in (("latin", "Hello, world 0123"), ("mixed", "ab\u0300c\u200d\u05d0")):
                units = [ord(c) for c in text]
                S.add("gr_font", "%s-%s" % (label, text_name),
                      data + b"".join(struct.pack(">H", u) for u in units) +
                      struct.pack(">HBBBBBB", 0, len(units), 0, 0, 0, 0, 0))
            S.add("gr_font", "%s-rtl" % label, data + struct.pack(">HHH", 0x5D0, 0x5D1, 0x20) +
                  struct.pack(">HBBBBBB", 0, 3, 1, 0, 0, 0, 0))
    # Collision avoidance and kerning (vm/graphite/collide.c) need a font
    # that enables them; the only one is Awami Nastaliq (491 KB, above the
    # seed size cap): two short Urdu words, collision avoidance on (the
    # font's default), right to left.
    awami = "/usr/share/fonts/truetype/awami/AwamiNastaliq-Regular.ttf"
    if os.path.isfile(awami):
        with open(awami, "rb") as fh:
            data = fh.read()
        for name, word in (("musa", "\u0645\u064f\u0648\u0633\u064e\u0649\u0670"),
                           ("mujdah", "\u0645\u0698\u062f\u0647")):
            units = b"".join(struct.pack(">H", ord(c)) for c in word)
            S.add("gr_font", "gr-awami-%s" % name,
                  data + units + struct.pack(">HBBBBBB", 0, len(word), 1, 0, 0, 0, 0),
                  cap=GR_FONT_MAX_INPUT)
    # Pass-skipping behaviour the corpus found (KNOWN_DIFFERENCES.md KD-8,
    # KD-9): Akatab's reverse-direction pass that the skip-passes bits switch
    # off for ASCII, and Harmattan's collision kerning pass that every glyph
    # marks skippable (835 KB, above the usual cap).
    for path, name, text, rtl in (
            ("/usr/share/fonts/truetype/akatab/Akatab-Regular.ttf", "akatab-ascii", " !\"#", 0),
            ("/usr/share/fonts/truetype/akatab/Akatab-Regular.ttf", "akatab-tifinagh",
             "\u2d5c\u2d30\u2d4e\u2d30\u2d63\u2d49\u2d56\u2d5c", 1),
            ("/usr/share/fonts/truetype/harmattan/Harmattan-Regular.ttf", "harmattan-kern",
             "\u062d\u062e\u062f\u0630\u0631\u0632\u0633\u0634", 1)):
        if os.path.isfile(path):
            with open(path, "rb") as fh:
                data = fh.read()
            units = b"".join(struct.pack(">H", ord(c)) for c in text)
            S.add("gr_font", "gr-" + name,
                  data + units + struct.pack(">HBBBBBB", 0, len(text), rtl, 0, 0, 0, 0),
                  cap=GR_FONT_MAX_INPUT)
    for name, (c, a) in sorted(GR_HANDWRITTEN.items()):
        S.add("gr_code", "hand-" + name, c + a + gr_code_trailer(c, 2))
        S.add("gr_code", "hand-%s-pos" % name, c + a + gr_code_trailer(c, 3, sort=2, pre=1, flags=0x70))
    # Variable synthetic fonts: some tt_program seeds with a variation
    # trailer (fuzz/tt_program.c: fvar and gvar, with cvar, HVAR, avar as
    # the flags say, at a location or none).
    for label, data in tt_var_seeds(sorted(S.files.get("tt_program", {}).items())):
        S.add("tt_program", label, data)
    # tt_diff takes tt_program's layout: the same seeds, within its size cap.
    for name, data in sorted(S.files.get("tt_program", {}).items()):
        if len(data) <= TT_DIFF_MAX_INPUT:
            S.files.setdefault("tt_diff", {})[name] = data
    # Seeds that diverge today are regress cases (open findings in
    # fuzz/FINDINGS.md), not seeds: a seed must replay cleanly.
    GR_DIFF_OPEN = {"code0-span2-rtl"}   # F-1: Assoc in rtl, char mapping
    # gr_diff: [code][trailer] (fuzz/gr_diff.c): the hand-written actions
    # and the base font's own actions, in each of the base font's rule spans
    # (small.ttf: 3 action spans), with two texts each.
    gr_diff_code = [a for _, (c, a) in sorted(GR_HANDWRITTEN.items()) if a]
    base = os.path.join(GRAPHITE_TEST_FONTS, "small.ttf")
    if os.path.exists(base):
        with open(base, "rb") as fh:
            _, t = read_tables(fh.read())
        for _, cons, acts in gr_rule_pieces(t.get("Silf", b"")):
            gr_diff_code += cons + acts
    for i, code in enumerate(gr_diff_code):
        for sel in range(3):
            for rtl, text in ((0, range(11)), (1, (3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5))):
                tr = struct.pack(">HBBB11B", 0, sel, rtl, 5 + 3 * rtl, *text)
                label = "code%d-span%d-%s" % (i, sel, "rtl" if rtl else "ltr")
                if label not in GR_DIFF_OPEN:
                    S.add("gr_diff", label, code + tr)
    # Rule code of the corpus fonts' passes (constraint + RetTrue action and
    # empty constraint + action), the rule span at its largest so slot
    # references verify.
    for path in graphite_fonts():
        with open(path, "rb") as fh:
            data = fh.read()
        try:
            _, t = read_tables(data)
            passes = gr_rule_pieces(t.get("Silf", b""))
        except (ValueError, struct.error, IndexError):
            continue
        label = "gr-" + sanitize(os.path.basename(path).rsplit(".", 1)[0])
        n = 0
        for k, (ptype, cons, acts) in enumerate(passes):
            for j, c in enumerate(cons):
                if n < MAX_GR_PIECES_PER_FONT:
                    S.add("gr_code", "%s-p%d-c%d" % (label, k, j), c + b"\x32" + gr_code_trailer(c, ptype, sort=16, pre=0, slots=20))
                    n += 1
            for j, a in enumerate(acts):
                if n < MAX_GR_PIECES_PER_FONT:
                    S.add("gr_code", "%s-p%d-a%d" % (label, k, j), a + gr_code_trailer(b"", ptype, sort=16, pre=0, slots=20, flags=0x20))
                    n += 1
    # tt_font_diff and gr_font_diff take tt_font's and gr_font's layouts:
    # the same seeds, within their caps.
    for target, source, cap in (("tt_font_diff", "tt_font", TT_FONT_DIFF_MAX_INPUT),
                                ("gr_font_diff", "gr_font", GR_FONT_DIFF_MAX_INPUT)):
        for name, data in sorted(S.files.get(source, {}).items()):
            if len(data) <= cap:
                S.files.setdefault(target, {})[name] = data
    # gr_text_diff: [text: u16 units][trailer 8] (fuzz/gr_text_diff.c):
    # font, flags (rtl, joiner), feature A and value, feature B and value,
    # language, repeats.
    texts = os.path.join(ROOT, "corpus", "texts")
    for k, (font, fname, rtl) in enumerate(GR_TEXT_DIFF_FONTS):
        with open(os.path.join(texts, fname), encoding="utf-8") as fh:
            lines = [ln.strip() for ln in fh if ln.strip() and not ln.startswith("#")]
        for i, line in enumerate(lines[:GR_TEXT_DIFF_LINES]):
            units = b"".join(struct.pack(">H", ord(c)) for c in line[:GR_TEXT_DIFF_CHARS]
                             if ord(c) <= 0xFFFF)
            tr = bytes([k, rtl | (i % 4) << 1, i % 3, i, 0, 0, i % 2, i])
            S.add("gr_text_diff", "%s-l%d" % (font, i), units + tr)
        mixed = "a\u1000 \u0645\u0648 12, \u200d\u0301!"
        units = b"".join(struct.pack(">H", ord(c)) for c in mixed)
        S.add("gr_text_diff", "%s-mixed" % font, units + bytes([k, rtl, 1, 0x81, 2, 1, 1, 2]))
        mapped = b"".join(struct.pack(">H", 0xE000 + 7 * j) for j in range(24))
        S.add("gr_text_diff", "%s-mapped" % font, mapped + bytes([k, rtl, 0, 0, 0, 0, 0, 1]))
    return S


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(ROOT, "corpus"))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    S = generate()
    total, changed = 0, []
    for target, files in sorted(S.files.items()):
        d = os.path.join(args.out, target, "seeds")
        existing = set(os.listdir(d)) if os.path.isdir(d) else set()
        if args.check:
            if existing != set(files):
                changed.append(target)
            continue
        os.makedirs(d, exist_ok=True)
        for stale in existing - set(files):
            os.unlink(os.path.join(d, stale))
        for name, data in sorted(files.items()):
            with open(os.path.join(d, name), "wb") as fh:
                fh.write(data)
            total += len(data)
        print("%-12s %4d seeds %8d bytes" % (target, len(files), sum(map(len, files.values()))))
    if args.check:
        if changed:
            print("seeds differ for: " + " ".join(changed))
            return 1
        print("seeds are up to date")
        return 0
    print("total %d bytes" % total)
    return 0


if __name__ == "__main__":
    sys.exit(main())
