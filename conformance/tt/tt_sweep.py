#!/usr/bin/env python3
"""TrueType mutation sweep: does fontvm open, size and load the same damaged
fonts as FreeType 2.12.1, and to the same outlines?

Takes every TrueType font of conformance/conform.toml (or the fonts given),
keeps the outlines of a sample of glyphs (the others become empty, so that
damage to glyf and loca reaches the glyphs compared), and applies one piece
of structured damage at a time: every table cut short, cut to nothing,
running one byte past the end of the file, moved past it, or dropped; the
directory with an entry too many or too few, a garbage entry, a duplicate;
head, maxp, hhea, hmtx, loca, vhea and cvt fields and lengths off by one
and extreme; every maxp version; the font made bitmap-only (no glyf, no
loca, an sbix or CBLC table instead).  fvconform-tt-load then asks
FreeType and fontvm, for each damaged font, whether the face opens, whether
each size sets up and whether each sampled glyph loads to the same outline.
The two must agree on all of it.

  tt_sweep.py --bin BUILD [FONT...] [--fonts NAME,...] [--limit N]
              [--workers N] [--out FILE.jsonl] [--config conform.toml]

Exit status: 0 every verdict agrees; 1 some disagree (or an engine crashed);
2 bad command line, configuration or font.
"""
import argparse
import json
import os
import re
import struct
import sys
import time
from collections import defaultdict

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "conformance", "report"))
import config as cfgmod  # noqa: E402
from sweep import BadInput, Probe, ask_all, spread, u16, u32  # noqa: E402

PROBE = "fvconform-tt-load"
# What the probe compares: two sizes, both interpreter versions, this many
# glyphs spread evenly over each font (the probe and sample_gids agree).
SIZES = "12,20"
MODES = "v35,v40"
GLYPH_SAMPLE = 12


# --- sfnt reading and writing ---------------------------------------------------

def put16(t, o, v):
    struct.pack_into(">H", t, o, v & 0xFFFF)


def put32(t, o, v):
    struct.pack_into(">I", t, o, v & 0xFFFFFFFF)


def read_tables(font):
    """[(tag bytes, data)] in directory order; BadInput unless every table
    lies inside the file (the sweep damages sound fonts only)."""
    if font[:4] not in (b"\0\1\0\0", b"true"):
        raise BadInput("not a TrueType-flavoured sfnt (collections and CFF fonts are not swept)")
    out = []
    for i in range(u16(font, 4)):
        tag, _, off, length = struct.unpack_from(">4sIII", font, 12 + 16 * i)
        if off + length > len(font):
            raise BadInput(f"table {tag!r} runs past the end of the file")
        out.append((tag, bytes(font[off:off + length])))
    return out


def build(tables, version=b"\0\1\0\0"):
    """Lays the tables out (4-byte aligned, in the given order) behind a
    directory; returns (font bytearray, [directory record offsets])."""
    n = len(tables)
    pos = 12 + 16 * n
    head = bytearray(struct.pack(">4sHHHH", version, n, 0, 0, 0))
    body = bytearray()
    records = []
    for tag, data in tables:
        records.append(len(head))
        head += struct.pack(">4sIII", tag, 0, pos + len(body), len(data))
        body += data + b"\0" * (-len(data) % 4)
    return head + body, records


def find(tables, tag):
    for i, (t, d) in enumerate(tables):
        if t == tag:
            return i, d
    return None, None


def sample_gids(num_glyphs):
    """The glyph ids fvconform-tt-load compares (its sample_gid)."""
    n = min(GLYPH_SAMPLE, num_glyphs)
    if n <= 1 or num_glyphs <= 1:
        return [0]
    return sorted({k * (num_glyphs - 1) // (n - 1) for k in range(n)})


def glyph_range(loca, long_format, gid):
    if long_format:
        return u32(loca, 4 * gid), u32(loca, 4 * gid + 4)
    return 2 * u16(loca, 2 * gid), 2 * u16(loca, 2 * gid + 2)


def components(glyph):
    """Glyph ids a composite glyph refers to ([] for a simple one)."""
    if len(glyph) < 10 or struct.unpack_from(">h", glyph, 0)[0] >= 0:
        return []
    out, pos = [], 10
    while pos + 4 <= len(glyph):
        flags, gid = struct.unpack_from(">HH", glyph, pos)
        out.append(gid)
        pos += 4 + (4 if flags & 1 else 2)
        pos += 2 if flags & 8 else 4 if flags & 0x40 else 8 if flags & 0x80 else 0
        if not flags & 0x20:
            break
    return out


def subset(tables):
    """Keeps the outlines of the sampled glyphs and what they are made of;
    every other glyph becomes empty (glyph ids do not change).  loca is
    rewritten in the long format."""
    _, head = find(tables, b"head")
    _, maxp = find(tables, b"maxp")
    li, loca = find(tables, b"loca")
    gi, glyf = find(tables, b"glyf")
    if head is None or maxp is None or loca is None or glyf is None:
        raise BadInput("no head, maxp, loca or glyf table (not a TrueType outline font)")
    n = u16(maxp, 4)
    long_format = u16(head, 50) == 1
    keep, todo = set(), sample_gids(n)
    while todo:
        g = todo.pop()
        if g in keep or g >= n:
            continue
        keep.add(g)
        a, b = glyph_range(loca, long_format, g)
        todo += components(glyf[a:b]) if b > a else []
    new_glyf, offsets = bytearray(), []
    for g in range(n):
        offsets.append(len(new_glyf))
        if g in keep:
            a, b = glyph_range(loca, long_format, g)
            if b > a:
                new_glyf += glyf[a:b] + b"\0" * (-(b - a) % 4)
    offsets.append(len(new_glyf))
    head = bytearray(head)
    put16(head, 50, 1)
    out = list(tables)
    out[find(out, b"head")[0]] = (b"head", bytes(head))
    out[li] = (b"loca", struct.pack(f">{n + 1}I", *offsets))
    out[gi] = (b"glyf", bytes(new_glyf))
    return out


# --- the damage -------------------------------------------------------------------

class Mutation:
    def __init__(self, kind, value, make):
        self.kind = kind      # what is damaged ("table.glyf.cut", "maxp.numGlyphs")
        self.value = value    # how ("n+1", "0x20000")
        self.make = make      # () -> font bytes


def table_damage(tables):
    """Per table: cut to half, to nothing, one byte past the end of the
    file, moved past it, dropped (its tag garbled)."""
    out = []
    for idx, (tag, data) in enumerate(tables):
        name = tag.decode("latin-1").strip()

        def with_record(fn, idx=idx):
            def make():
                font, recs = build(tables)
                fn(font, recs[idx])
                return font
            return make

        def cut(font, rec, frac):
            put32(font, rec + 12, int(u32(font, rec + 12) * frac))
        out.append(Mutation(f"table.{name}.cut", "half", with_record(lambda f, r: cut(f, r, 0.5))))
        out.append(Mutation(f"table.{name}.cut", "0", with_record(lambda f, r: cut(f, r, 0))))
        out.append(Mutation(f"table.{name}.past_eof", "1 byte",
                            with_record(lambda f, r: put32(f, r + 12, len(f) - u32(f, r + 8) + 1))))
        out.append(Mutation(f"table.{name}.past_eof", "moved",
                            with_record(lambda f, r: put32(f, r + 8, len(f) + 64))))
        out.append(Mutation(f"table.{name}.dropped", "tag garbled",
                            with_record(lambda f, r: f.__setitem__(slice(r, r + 4), b"\x01\xfe\x7fz"))))
        # The file ends inside this table (the tables after it are gone).
        def file_cut(idx=idx):
            font, recs = build(tables)
            end = u32(font, recs[idx] + 8) + u32(font, recs[idx] + 12) // 2
            return font[:end]
        out.append(Mutation(f"table.{name}.file_ends_inside", "half", file_cut))
    return out


def directory_damage(tables):
    out = []

    def num_tables(delta):
        def make():
            font, _ = build(tables)
            put16(font, 4, u16(font, 4) + delta)
            return font
        return make
    out.append(Mutation("directory.numTables", "-1", num_tables(-1)))
    out.append(Mutation("directory.numTables", "+1", num_tables(+1)))
    out.append(Mutation("directory.numTables", "0", lambda: (lambda f: (put16(f, 4, 0), f)[1])(build(tables)[0])))
    out.append(Mutation("directory.numTables", "0xFFFF", lambda: (lambda f: (put16(f, 4, 0xFFFF), f)[1])(build(tables)[0])))

    def extra(tag, offset_past_eof, length):
        def make():
            font, recs = build(tables + [(tag, b"\0" * max(length, 0))])
            rec = recs[-1]
            if offset_past_eof:
                put32(font, rec + 8, len(font) + 1000)
            return font
        return make
    out.append(Mutation("directory.extra_entry", "garbage tag past EOF", extra(b"\x00\x17\xff\x80", True, 16)))
    out.append(Mutation("directory.extra_entry", "garbage tag inside", extra(b"\xde\xad\xbe\xef", False, 64)))
    out.append(Mutation("directory.extra_entry", "empty tag", extra(b"\0\0\0\0", False, 0)))
    for tag in (b"DSIG", b"GSUB", b"sbix", b"vhea", b"kern", b"hdmx", b"gasp", b"EBLC", b"bloc"):
        if find(tables, tag)[0] is None:
            out.append(Mutation("directory.extra_entry", f"{tag.decode()} past EOF", extra(tag, True, 100)))
    for tag in (b"glyf", b"hmtx", b"maxp", b"head", b"cvt "):
        i, data = find(tables, tag)
        if i is not None:
            # A second entry with the same tag, cut short: which one counts?
            out.append(Mutation("directory.duplicate", f"{tag.decode().strip()} second cut",
                                (lambda d=data, t=tag: build(tables + [(t, d[:len(d) // 3])])[0])))
            out.append(Mutation("directory.duplicate", f"{tag.decode().strip()} first cut",
                                (lambda d=data, t=tag: build([(t, d[:len(d) // 3])] + tables)[0])))
    for version in (b"true", b"OTTO", b"typ1", b"\0\2\0\0", b"xxxx"):
        out.append(Mutation("directory.sfntVersion", version.decode("latin-1"),
                            (lambda v=version: build(tables, v)[0])))
    unsorted = sorted(tables, key=lambda td: td[0], reverse=True)
    out.append(Mutation("directory.order", "tags in reverse", lambda: build(unsorted)[0]))
    return out


def field_damage(tables):
    """Header fields and table lengths off by one and extreme."""
    out = []
    _, maxp = find(tables, b"maxp")
    _, hhea = find(tables, b"hhea")
    n = u16(maxp, 4)
    nhm = u16(hhea, 34) if hhea and len(hhea) >= 36 else 0

    def field(tag, offset, size, value, kind, label):
        def make():
            t = list(tables)
            i, data = find(t, tag)
            d = bytearray(data)
            (put16 if size == 2 else put32)(d, offset, value)
            t[i] = (tag, bytes(d))
            return build(t)[0]
        out.append(Mutation(kind, label, make))

    def length(tag, new_len, label):
        def make():
            t = list(tables)
            i, data = find(t, tag)
            t[i] = (tag, data[:max(new_len, 0)] if new_len <= len(data) else data + b"\0" * (new_len - len(data)))
            return build(t)[0]
        if find(tables, tag)[0] is not None:
            out.append(Mutation(f"{tag.decode().strip()}.length", label, make))

    for v, label in ((0, "0"), (1, "1"), (15, "15"), (16, "16"), (16384, "16384"), (16385, "16385"),
                     (0xFFFF, "0xFFFF")):
        field(b"head", 18, 2, v, "head.unitsPerEm", label)
    for v in (2, 0xFFFF, 0):
        field(b"head", 50, 2, v, "head.indexToLocFormat", str(v if v < 0x8000 else v - 0x10000))
    field(b"head", 12, 4, 0x12345678, "head.magicNumber", "garbage")
    field(b"head", 0, 4, 0x00020000, "head.version", "2.0")
    field(b"head", 16, 2, 0xFFFF, "head.flags", "0xFFFF")
    field(b"head", 52, 2, 1, "head.glyphDataFormat", "1")
    for new_len, label in ((53, "53"), (52, "52"), (36, "36"), (0, "0")):
        length(b"head", new_len, label)

    for v in (0x00005000, 0x00020000, 0, 0x00010001, 0x00006000, 0xFFFFFFFF):
        field(b"maxp", 0, 4, v, "maxp.version", f"0x{v:X}")
    for v, label in ((0, "0"), (1, "1"), (n - 1, "n-1"), (n + 1, "n+1"), (0xFFFF, "0xFFFF")):
        if 0 <= v <= 0xFFFF:
            field(b"maxp", 4, 2, v, "maxp.numGlyphs", label)
    names = ("maxPoints", "maxContours", "maxCompositePoints", "maxCompositeContours", "maxZones",
             "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
             "maxStackElements", "maxSizeOfInstructions", "maxComponentElements",
             "maxComponentDepth")
    for k, name in enumerate(names):
        for v, label in ((0, "0"), (0xFFFF, "0xFFFF")):
            field(b"maxp", 6 + 2 * k, 2, v, f"maxp.{name}", label)
    for v in (1, 3):
        field(b"maxp", 14, 2, v, "maxp.maxZones", str(v))
    for new_len, label in ((31, "31"), (6, "6 (version 1.0)"), (5, "5")):
        length(b"maxp", new_len, label)

    if hhea:
        for v, label in ((0, "0"), (1, "1"), (nhm - 1, "nhm-1"), (nhm + 1, "nhm+1"), (n + 1, "n+1"),
                         (0xFFFF, "0xFFFF")):
            if 0 <= v <= 0xFFFF:
                field(b"hhea", 34, 2, v, "hhea.numberOfHMetrics", label)
        field(b"hhea", 0, 4, 0x00020000, "hhea.version", "2.0")
        for new_len, label in ((35, "35"), (34, "34"), (0, "0")):
            length(b"hhea", new_len, label)
        for new_len, label in ((4 * nhm - 1, "4*nhm-1"), (4 * nhm - 4, "4*nhm-4"), (2 * nhm, "2*nhm"),
                               (4 * nhm + 2 * (n - nhm) - 2, "one lsb short"), (2, "2")):
            length(b"hmtx", new_len, label)

    _, head = find(tables, b"head")
    _, loca = find(tables, b"loca")
    _, glyf = find(tables, b"glyf")
    step = 4 if u16(head, 50) == 1 else 2
    for new_len, label in ((step * n, "n entries"), (step * n - 1, "n entries - 1 byte"),
                           (step * (n + 1) // 2, "half"), (step, "1 entry"), (step * (n + 2), "n+2 entries")):
        length(b"loca", new_len, label)
    if loca and step == 4 and n > 2:
        mid = sample_gids(n)[len(sample_gids(n)) // 2]
        field(b"loca", 4 * mid, 4, u32(loca, 4 * mid + 4) + 4, "loca.entry", "decreasing")
        field(b"loca", 4 * n, 4, len(glyf) + 4000, "loca.entry", "last past glyf")
        field(b"loca", 4 * mid + 4, 4, 0xFFFFFFF0, "loca.entry", "huge")
    for new_len, label in ((len(glyf) // 2, "half"), (len(glyf) - 1, "-1 byte"), (0, "0")):
        length(b"glyf", new_len, label)
    if find(tables, b"cvt ")[0] is not None:
        _, cvt = find(tables, b"cvt ")
        for new_len, label in ((len(cvt) - 1, "odd"), (1, "1"), (0, "0")):
            length(b"cvt ", new_len, label)
    for tag in (b"fpgm", b"prep"):
        _, d = find(tables, tag)
        if d:
            for new_len, label in ((len(d) // 2, "half"), (1, "1")):
                length(tag, new_len, label)
    if find(tables, b"vhea")[0] is not None:
        field(b"vhea", 34, 2, 0, "vhea.numOfLongVerMetrics", "0")
        field(b"vhea", 34, 2, 0xFFFF, "vhea.numOfLongVerMetrics", "0xFFFF")
        length(b"vhea", 35, "35")
        length(b"vmtx", 2, "2")
    return out


def bitmap_only(tables):
    """The font without outlines: glyf and loca dropped, with or without a
    bitmap table; and the outline font with a bitmap table added."""
    out = []
    no_outlines = [(t, d) for t, d in tables if t not in (b"glyf", b"loca")]
    # Empty strike tables (no strikes): the font claims bitmaps but has none.
    sbix = struct.pack(">HHI", 1, 1, 0)
    cblc = struct.pack(">HHI", 3, 0, 0)
    eblc = struct.pack(">HHI", 2, 0, 0)
    out.append(Mutation("bitmap_only", "no glyf, no loca", lambda: build(no_outlines)[0]))
    out.append(Mutation("bitmap_only", "glyf only", lambda: build([td for td in tables if td[0] != b"loca"])[0]))
    out.append(Mutation("bitmap_only", "loca only", lambda: build([td for td in tables if td[0] != b"glyf"])[0]))
    for tag, data in ((b"sbix", sbix), (b"CBLC", cblc), (b"EBLC", eblc)):
        name = tag.decode()
        out.append(Mutation("bitmap_only", f"{name}, no glyf/loca", lambda t=tag, d=data: build(no_outlines + [(t, d)])[0]))
        out.append(Mutation("bitmap_only", f"{name} beside glyf", lambda t=tag, d=data: build(tables + [(t, d)])[0]))
    # One 12 ppem strike (the probe's first size; its second, 20, has none).
    n = u16(find(tables, b"maxp")[1], 4)
    sbix1 = struct.pack(">HHII", 1, 1, 1, 12) + struct.pack(">HH", 12, 72) + \
        struct.pack(f">{n + 1}I", *([4 + 4 * (n + 1)] * (n + 1)))

    def strike(version):
        return (struct.pack(">II", version, 1) + struct.pack(">IIII", 56, 0, 0, 0) + bytes(24)
                + struct.pack(">HHBBBb", 0, 1, 12, 12, 32, 1))
    for extra, name in (([(b"sbix", sbix1)], "sbix strike"),
                        ([(b"CBLC", strike(0x30000)), (b"CBDT", struct.pack(">I", 0x30000))], "CBLC+CBDT strike"),
                        ([(b"EBLC", strike(0x20000)), (b"EBDT", struct.pack(">I", 0x20000))], "EBLC+EBDT strike"),
                        ([(b"EBLC", strike(0x20000))], "EBLC strike, no EBDT")):
        out.append(Mutation("bitmap_only", f"{name}, no glyf/loca", lambda e=extra: build(no_outlines + e)[0]))
        out.append(Mutation("bitmap_only", f"{name} beside glyf", lambda e=extra: build(tables + e)[0]))
    # Beside the EBLC strike, glyf with glyph 0's outline only (what wine's
    # bitmap fonts and unifont_sample.ttf carry: FreeType takes the face as
    # strikes only), then with one more outline past numGlyphs (scalable).
    eblc_strike = [(b"EBLC", strike(0x20000)), (b"EBDT", struct.pack(">I", 0x20000))]
    for beyond, name in ((False, "glyph 0's outline only"), (True, "glyph 0's outline and one past numGlyphs")):
        out.append(Mutation("bitmap_only", f"EBLC+EBDT strike, {name}",
                            lambda b=beyond: build(only_glyph0(tables, b) + eblc_strike)[0]))
    return out


def only_glyph0(tables, outline_past_num_glyphs):
    """glyf keeps glyph 0's bytes (or a 0-contour header when glyph 0 is
    empty) and every other glyph is empty; loca (long, as subset writes it)
    gets one more entry holding that outline again when asked."""
    _, loca = find(tables, b"loca")
    _, glyf = find(tables, b"glyf")
    n = u16(find(tables, b"maxp")[1], 4)
    a, b = glyph_range(loca, True, 0)
    g0 = glyf[a:b] if b > a else bytes(10)
    offsets = [0] + [len(g0)] * n
    new_glyf = g0
    if outline_past_num_glyphs:
        new_glyf += g0
        offsets.append(2 * len(g0))
    out = list(tables)
    out[find(out, b"loca")[0]] = (b"loca", struct.pack(f">{len(offsets)}I", *offsets))
    out[find(out, b"glyf")[0]] = (b"glyf", new_glyf)
    return out


def font_record(m):
    """fvconform-tt-load's record of a mutation: length, then the font."""
    font = m.make()
    return struct.pack("<I", len(font)) + bytes(font)


def mutations(tables):
    return table_damage(tables) + directory_damage(tables) + field_damage(tables) + bitmap_only(tables)


# --- reporting -------------------------------------------------------------------------

def short_error(e):
    """An error without offsets and glyph numbers, so that cases group by
    the check that failed."""
    if e is None:
        return "ok"
    e = re.sub(r"@0x[0-9a-f]+", "", e, flags=re.I)
    e = re.sub(r"\[\d+\]", "[]", e)
    e = re.sub(r" ?\(glyph \d+\)", "", e)
    return e[:60]


def verdicts(answer):
    """A one-line description of where the engines part."""
    if answer["type"] == "crash":
        return f"an engine crashed (status {answer['status']})"
    face = answer["face"]
    if (face["freetype"] is None) != (face["fontvm"] is None):
        return f"face: FreeType {short_error(face['freetype'])}, fontvm {short_error(face['fontvm'])}"
    for s in answer["sizes"]:
        if (s["freetype"] is None) != (s["fontvm"] is None):
            return f"size: FreeType {short_error(s['freetype'])}, fontvm {short_error(s['fontvm'])}"
    first = answer["first"]
    if first:
        return (f"glyph {first['status']}: FreeType {short_error(first['freetype'])}, "
                f"fontvm {short_error(first['fontvm'])}")
    return "?"


class Stats:
    def __init__(self):
        self.by_kind = defaultdict(lambda: [0, 0])   # kind -> [agree, disagree]
        self.patterns = defaultdict(list)            # (kind, verdicts) -> [(font, value)]
        self.mutations = 0
        self.fonts = 0
        self.disagreements = 0
        self.cases = 0

    def count(self, font, m, answer):
        self.mutations += 1
        ok = answer.get("agree", False)
        self.by_kind[m.kind.split(".")[0] if m.kind.startswith("table.") else m.kind][0 if ok else 1] += 1
        if answer["type"] == "tt_load":
            self.cases += answer["glyphs"]["cases"]
        if not ok:
            self.disagreements += 1
            kind = re.sub(r"^table\.[^.]+\.", "table.*.", m.kind) if m.kind.startswith("table.") else m.kind
            self.patterns[(kind, verdicts(answer))].append((font, m))

    def report(self, seconds):
        print()
        print(f"{'damage':36} {'mutations':>9} {'agree':>9} {'disagree':>9}")
        for kind, (ok, bad) in sorted(self.by_kind.items()):
            print(f"{kind:36} {ok + bad:9d} {ok:9d} {bad:9d}")
        if self.patterns:
            print("\ndisagreements (damage, where the engines part, count, first case):")
            for (kind, text), recs in sorted(self.patterns.items(), key=lambda kv: -len(kv[1])):
                font, m = recs[0]
                print(f"  {kind}: {text}: {len(recs)}, e.g. {os.path.basename(font)} {m.kind} {m.value}")
        print(f"\ntt sweep: {self.mutations:,} mutations of {self.fonts} fonts "
              f"({self.cases:,} glyph cases): {self.disagreements:,} disagreements; {seconds:.0f} s")


def select_fonts(a, cfg):
    if a.paths:
        out = []
        for p in a.paths:
            p = os.path.abspath(p)
            if os.path.isdir(p):
                out += sorted(os.path.join(dp, n) for dp, _, ns in os.walk(p) for n in ns
                              if n.lower().endswith(".ttf"))
            elif os.path.isfile(p):
                out.append(p)
            else:
                raise BadInput(f"{p}: no such font file or folder")
        return out
    wanted = cfgmod._font_filter([x.strip() for x in a.fonts.split(",")] if a.fonts else None)
    out = []
    for fs in cfg.get("truetype", {}).get("fonts", []):
        # The static sfnt corpus: not the web-font copies (of fonts swept
        # here already), the npm-fetched sets, nor the variable fonts.
        if any(k in fs for k in ("web", "npm", "locations")):
            continue
        for f in cfgmod.resolve_fontset(ROOT, fs):
            if f not in out and (not wanted or wanted(fs.get("name", "?"), f)):
                out.append(f)
    if not out:
        raise BadInput("no TrueType font matches" + (f" --fonts {a.fonts}" if a.fonts else ""))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*", metavar="FONT-OR-FOLDER",
                    help="fonts to sweep instead of the configured TrueType font sets")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "release"),
                    help=f"the build folder holding {PROBE} (default: build/release)")
    ap.add_argument("--config", default=os.path.join(ROOT, "conformance", "conform.toml"))
    ap.add_argument("--fonts", help="only these configured font sets or files (comma-separated)")
    ap.add_argument("--limit", type=int, default=0, metavar="N",
                    help="at most N mutations per font, evenly spread (default: all)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="probe processes (default: nproc)")
    ap.add_argument("--out", metavar="FILE.jsonl", help="write every verdict to this file")
    a = ap.parse_args(argv)
    try:
        if a.limit < 0 or a.workers < 1:
            raise BadInput("--limit must be >= 0 and --workers >= 1")
        exe = os.path.join(a.bin, PROBE)
        if not os.access(exe, os.X_OK):
            raise BadInput(f"{exe} not found (build the release preset, or give --bin)")
        fonts = select_fonts(a, cfgmod.load(a.config))
        out_file = open(a.out, "w") if a.out else None
    except (BadInput, cfgmod.ConfigError, OSError) as e:
        print(f"tt_sweep: {e}", file=sys.stderr)
        return 2

    stats = Stats()
    argv = [exe, "--sizes", SIZES, "--modes", MODES, "--glyphs", str(GLYPH_SAMPLE)]
    probes = [Probe(argv, "tt_load") for _ in range(a.workers)]
    t0 = time.monotonic()
    try:
        for path in fonts:
            name = os.path.basename(path)
            with open(path, "rb") as fh:
                font = fh.read()
            try:
                tables = subset(read_tables(font))
            except (BadInput, struct.error) as e:
                print(f"{name}: {e}; skipped", flush=True)
                continue
            ms = spread(mutations(tables), a.limit)
            # The undamaged subset must agree, or every verdict below is noise.
            ms.insert(0, Mutation("none", "subset only", lambda: build(tables)[0]))
            before, t1 = stats.disagreements, time.monotonic()
            answers = ask_all(probes, ms, font_record)
            stats.fonts += 1
            for m, answer in zip(ms, answers):
                stats.count(path, m, answer)
                if out_file:
                    row = {"font": path, "kind": m.kind, "value": m.value}
                    row.update({k: answer[k] for k in answer if k != "type"})
                    out_file.write(json.dumps(row) + "\n")
            print(f"{name}: {len(ms)} mutations, {stats.disagreements - before} disagreements "
                  f"({time.monotonic() - t1:.1f} s)", flush=True)
    except RuntimeError as e:   # the probe rejected a record
        print(f"tt_sweep: {e}", file=sys.stderr)
        return 2
    finally:
        for p in probes:
            p.close()
        if out_file:
            out_file.close()
    stats.report(time.monotonic() - t0)
    if not stats.fonts:
        print("tt_sweep: none of the fonts could be swept", file=sys.stderr)
        return 2
    return 1 if stats.disagreements else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
