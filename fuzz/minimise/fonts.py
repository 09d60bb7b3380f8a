"""Structure-aware edits of fonts, for the minimiser: every function takes
the pieces of an input and returns a smaller, consistent variant (offsets
and counts rewritten), or None when the edit does not apply.  Whether the
variant still fails the same way is for the target to say, not for this
file: nothing here validates more than it must to stay in bounds.

sfnt tables come from fuzz/make_seeds.py (one sfnt reader and writer for
the fuzz tooling).  Graphite's Silf layout (subtables, passes, rule code)
follows the Graphite table specification; the walk checks that it lands
on each pass's own code offset before it edits a rule, and leaves the pass
alone otherwise."""

import importlib.util
import os
import struct

_HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("make_seeds", os.path.join(_HERE, "..", "make_seeds.py"))
seeds = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(seeds)

read_tables = seeds.read_tables
build_sfnt = seeds.build_sfnt
tt_insn_len = seeds.tt_insn_len


def gr_insn_len(code, pc):
    return seeds.gr_insn_len(code, pc)


def split_insns(code, insn_len):
    """Byte ranges of the instructions of code (the last one clipped)."""
    out, pc = [], 0
    while pc < len(code):
        n = max(1, insn_len(code, pc))
        out.append(code[pc:pc + n])
        pc += n
    return out


# TrueType opcodes that open and close a block: FDEF and IDEF ... ENDF,
# IF ... EIF.
TT_OPENS = (0x2C, 0x89, 0x58)
TT_CLOSES = (0x2D, 0x59)


def tt_blocks(insns):
    """Top-level units of TrueType code (lists of instructions): a function
    or instruction definition, or an IF with its ELSE and EIF, nested ones
    included, is one unit; every other instruction is a unit of its own."""
    units, cur, depth = [], [], 0
    for ins in insns:
        cur.append(ins)
        if ins[0] in TT_OPENS:
            depth += 1
        elif ins[0] in TT_CLOSES and depth > 0:
            depth -= 1
        if depth == 0:
            units.append(cur)
            cur = []
    if cur:
        units.append(cur)
    return units


def code_units(code, tt):
    """The granularities the minimiser drops code at, coarsest first, each a
    list of units (lists of instructions): TrueType blocks, then single
    instructions."""
    insns = split_insns(code, tt_insn_len if tt else gr_insn_len)
    singles = [[i] for i in insns]
    return [tt_blocks(insns), singles] if tt else [singles]


def joined(units):
    return [i for u in units for i in u]


# ---------------------------------------------------------------- glyf
def _u16(b, o):
    return struct.unpack(">H", b[o:o + 2])[0]


def glyphs_of(tables):
    """The glyf entries, one bytes object per glyph, or None."""
    if not all(t in tables for t in ("glyf", "loca", "head", "maxp")):
        return None
    if len(tables["head"]) < 54 or len(tables["maxp"]) < 6:
        return None
    n, offs = seeds.glyph_offsets(tables)
    if len(offs) < n + 1:
        return None
    glyf = tables["glyf"]
    out = []
    for g in range(n):
        a, b = offs[g], offs[g + 1]
        out.append(glyf[a:b] if a <= b <= len(glyf) else b"")
    return out


def with_glyphs(tables, glyphs):
    """tables with glyf/loca (long offsets), maxp.numGlyphs and the metrics
    rewritten for `glyphs` (which may be fewer than before)."""
    t = dict(tables)
    glyf, loca = b"", []
    for g in glyphs:
        loca.append(len(glyf))
        glyf += g + b"\0" * (-len(g) % 4)
    loca.append(len(glyf))
    t["glyf"] = glyf
    t["loca"] = b"".join(struct.pack(">I", o) for o in loca)
    head = bytearray(t["head"])
    head[50:52] = struct.pack(">h", 1)
    t["head"] = bytes(head)
    return with_glyph_count(t, len(glyphs))


def with_glyph_count(tables, n):
    """tables with maxp.numGlyphs n and the metrics cut to n glyphs."""
    t = dict(tables)
    if n != _u16(t["maxp"], 4):
        maxp = bytearray(t["maxp"])
        maxp[4:6] = struct.pack(">H", n)
        t["maxp"] = bytes(maxp)
        for hea, mtx in (("hhea", "hmtx"), ("vhea", "vmtx")):
            if hea in t and len(t[hea]) >= 36 and mtx in t:
                nm = _u16(t[hea], 34)
                if nm > n:
                    h = bytearray(t[hea])
                    h[34:36] = struct.pack(">H", n)
                    t[hea] = bytes(h)
                    t[mtx] = t[mtx][:4 * n]
                else:
                    t[mtx] = t[mtx][:4 * nm + 2 * (n - nm)]
    return t


def glyph_program(g):
    """(start, end) of a glyph's instructions inside g, and where its length
    field is (None for a composite), or None without instructions."""
    if len(g) < 10:
        return None
    nc = struct.unpack(">h", g[:2])[0]
    if nc >= 0:
        p = 10 + 2 * nc
        if p + 2 > len(g):
            return None
        n = _u16(g, p)
        return (p + 2, min(len(g), p + 2 + n), p)
    p, flags = 10, 0x20
    while flags & 0x20:
        if p + 4 > len(g):
            return None
        flags = _u16(g, p)
        p += 4 + (4 if flags & 1 else 2)
        p += 2 if flags & 0x08 else 4 if flags & 0x40 else 8 if flags & 0x80 else 0
    if not flags & 0x100 or p + 2 > len(g):
        return None
    n = _u16(g, p)
    return (p + 2, min(len(g), p + 2 + n), p)


def with_glyph_code(g, code):
    """Glyph g with its instructions replaced by code (same kind of glyph)."""
    loc = glyph_program(g)
    if loc is None:
        return None
    start, end, field = loc
    return g[:field] + struct.pack(">H", len(code)) + code + g[end:]


# ---------------------------------------------------------------- Silf
class Silf:
    """An uncompressed Silf table as editable pieces: the header, and per
    subtable its bytes with the pass offsets' position."""

    def __init__(self, data):
        self.data = data
        self.version = struct.unpack(">I", data[:4])[0]
        if self.version >= 0x00050000 and struct.unpack(">I", data[4:8])[0] >> 27:
            raise ValueError("compressed Silf")
        p = 8 if self.version >= 0x00030000 else 4
        self.count_at = p
        num = _u16(data, p)
        self.offsets_at = p + 4
        offs = [struct.unpack(">I", data[p + 4 + 4 * i:p + 8 + 4 * i])[0] for i in range(num)]
        if not offs or any(b <= a for a, b in zip(offs, offs[1:])) or offs[-1] >= len(data):
            raise ValueError("bad subtable offsets")
        self.sub_offsets = offs
        self.subs = [data[a:b] for a, b in zip(offs, offs[1:] + [len(data)])]
        self.h = 8 if self.version >= 0x00030000 else 0

    def pass_offsets_at(self, sub):
        if self.version >= 0x00030000:
            return _u16(sub, 4)
        p = 20
        nj = sub[19]
        p += 8 * nj + 2 + 1 + 1 + 1 + 1 + 3
        ncrit = sub[p]
        p += 1 + 2 * ncrit + 1
        nscript = sub[p]
        return p + 1 + 4 * nscript + 2

    def passes(self, i):
        """(position of the offsets array, [offsets]) of subtable i."""
        sub = self.subs[i]
        n = sub[self.h + 6]
        at = self.pass_offsets_at(sub)
        offs = list(struct.unpack(">%dI" % (n + 1), sub[at:at + 4 * (n + 1)]))
        if any(b < a for a, b in zip(offs, offs[1:])) or offs[-1] > len(sub) or offs[0] < at:
            raise ValueError("bad pass offsets")
        return at, offs

    def build(self):
        out = bytearray(self.data[:self.offsets_at])
        pos = self.offsets_at + 4 * len(self.subs)
        body = b""
        # Keep whatever sat between the offsets and the first subtable.
        gap = self.data[pos:self.sub_offsets[0]]
        start = pos + len(gap)
        offs = []
        for s in self.subs:
            offs.append(start + len(body))
            body += s
        for o in offs:
            out += struct.pack(">I", o)
        return bytes(out) + gap + body


def _shift_pass_internals(sub, pass_start, delta):
    """Adds delta to a pass's subtable-relative code offsets (pcCode,
    rcCode, aCode and a non-zero oDebug)."""
    sub = bytearray(sub)
    for k in range(4):
        o = pass_start + 8 + 4 * k
        v = struct.unpack(">I", sub[o:o + 4])[0]
        if k < 3 or v != 0:
            sub[o:o + 4] = struct.pack(">I", v + delta)
    return bytes(sub)


def drop_pass(silf, i, k):
    """Silf bytes without pass k of subtable i, or None."""
    silf = Silf(silf.data)
    sub = silf.subs[i]
    at, offs = silf.passes(i)
    n = len(offs) - 1
    plen = offs[k + 1] - offs[k]
    new = sub[:at]
    new_offs = [o - 4 for o in offs[:k]] + [o - 4 - plen for o in offs[k + 1:]]
    body = sub[at + 4 * (n + 1):offs[k]] + sub[offs[k + 1]:]
    new += b"".join(struct.pack(">I", o) for o in new_offs) + body
    h = silf.h
    new = bytearray(new)
    new[h + 6] = n - 1
    for f in (h + 7, h + 8, h + 9, h + 10):   # iSubst, iPos, iJust, iBidi
        if new[f] != 0xFF and new[f] > k:
            new[f] -= 1
    if silf.version >= 0x00030000:             # pseudosOffset follows the pass offsets
        new[6:8] = struct.pack(">H", _u16(new, 6) - 4)
    new = bytes(new)
    for j, o in enumerate(new_offs[:-1]):
        new = _shift_pass_internals(new, o, -4 if j < k else -4 - plen)
    silf.subs = silf.subs[:i] + [new] + silf.subs[i + 1:]
    return silf.build()


def rule_code(silf, i, k):
    """The rules of pass k of subtable i: (pass start, pass end, header,
    [(kind, rule, start, end)]) with kind 'c' or 'a' and subtable-relative
    code ranges, or None when the walk does not land on the pass's code."""
    sub = silf.subs[i]
    _, offs = silf.passes(i)
    ps, pe = offs[k], offs[k + 1]
    if ps + 40 > pe:
        return None
    num_rules = _u16(sub, ps + 4)
    pc, rc, ac = struct.unpack(">III", sub[ps + 8:ps + 20])
    p = ps + 24
    _rows, num_trans, num_success, num_cols, num_range = struct.unpack(">5H", sub[p:p + 10])
    p += 16 + 6 * num_range
    rule_map_len = _u16(sub, p + 2 * num_success)
    p += 2 * (num_success + 1) + 2 * rule_map_len
    if p + 2 > pe:
        return None
    min_pre, max_pre = sub[p], sub[p + 1]
    p += 2 + 2 * max(0, max_pre - min_pre + 1)
    p += 2 * num_rules + num_rules
    for collision_byte in (0, 1):
        q = p + collision_byte
        if q + 2 > pe:
            continue
        p_constraint = _u16(sub, q)
        oc_at = q + 2
        oa_at = oc_at + 2 * (num_rules + 1)
        end = oa_at + 2 * (num_rules + 1) + 2 * num_trans * num_cols + 1
        if end != pc or pc + p_constraint != rc or not (rc <= ac <= pe):
            continue
        oc = struct.unpack(">%dH" % (num_rules + 1), sub[oc_at:oa_at])
        oa = struct.unpack(">%dH" % (num_rules + 1), sub[oa_at:oa_at + 2 * (num_rules + 1)])
        pieces = []
        for r in range(num_rules):
            for kind, base, o, limit in (("c", rc, oc, ac), ("a", ac, oa, pe)):
                a, b = base + o[r], base + o[r + 1]
                if a < b <= limit:
                    pieces.append((kind, r, a, b))
        return ps, pe, (oc_at, oa_at, num_rules), pieces
    return None


def with_rule_code(silf, i, k, kind, r, code):
    """Silf bytes with rule r's constraint ('c') or action ('a') code of pass
    k in subtable i replaced by the shorter `code`, or None."""
    silf = Silf(silf.data)
    walk = rule_code(silf, i, k)
    if walk is None:
        return None
    ps, pe, (oc_at, oa_at, num_rules), pieces = walk
    piece = next((p for p in pieces if p[0] == kind and p[1] == r), None)
    if piece is None:
        return None
    _, _, a, b = piece
    delta = len(code) - (b - a)
    if delta >= 0:
        return None
    sub = bytearray(silf.subs[i][:a] + code + silf.subs[i][b:])
    arr_at = oc_at if kind == "c" else oa_at
    for j in range(r + 1, num_rules + 1):
        o = arr_at + 2 * j
        sub[o:o + 2] = struct.pack(">H", _u16(sub, o) + delta)
    if kind == "c":
        o = ps + 16                               # aCode follows the constraints
        sub[o:o + 4] = struct.pack(">I", struct.unpack(">I", sub[o:o + 4])[0] + delta)
    o = ps + 20                                   # oDebug, when there is one, follows the code
    dbg = struct.unpack(">I", sub[o:o + 4])[0]
    if dbg > a:
        sub[o:o + 4] = struct.pack(">I", dbg + delta)
    at, offs = silf.passes(i)
    sub = bytes(sub)
    for j in range(k + 1, len(offs)):
        o = at + 4 * j
        sub = sub[:o] + struct.pack(">I", offs[j] + delta) + sub[o + 4:]
        if j < len(offs) - 1:
            sub = _shift_pass_internals(sub, offs[j] + delta, delta)
    silf.subs = silf.subs[:i] + [sub] + silf.subs[i + 1:]
    return silf.build()


# ---------------------------------------------------------------- cmap
def cmap_mappings(cmap):
    """{code point: glyph} from the subtable a reader prefers (Windows
    full-repertoire format 12, then a Unicode format 4), or None."""
    num = _u16(cmap, 2)
    found = {}
    for i in range(num):
        pid, eid, off = struct.unpack(">HHI", cmap[4 + 8 * i:12 + 8 * i])
        if off + 4 > len(cmap):
            continue
        fmt = _u16(cmap, off)
        if fmt in (4, 12) and (pid == 0 or (pid == 3 and eid in (1, 10))):
            found.setdefault(fmt, off)
    if 12 in found:
        off = found[12]
        n = struct.unpack(">I", cmap[off + 12:off + 16])[0]
        out = {}
        for g in range(min(n, (len(cmap) - off - 16) // 12)):
            start, end, gid = struct.unpack(">III", cmap[off + 16 + 12 * g:off + 28 + 12 * g])
            for cp in range(start, min(end, start + 0x10000) + 1):
                out[cp] = gid + cp - start
        return out
    if 4 in found:
        off = found[4]
        segs = _u16(cmap, off + 6) // 2
        ends = struct.unpack(">%dH" % segs, cmap[off + 14:off + 14 + 2 * segs])
        at = off + 16 + 2 * segs
        starts = struct.unpack(">%dH" % segs, cmap[at:at + 2 * segs])
        deltas = struct.unpack(">%dh" % segs, cmap[at + 2 * segs:at + 4 * segs])
        ro_at = at + 4 * segs
        ros = struct.unpack(">%dH" % segs, cmap[ro_at:ro_at + 2 * segs])
        out = {}
        for s in range(segs):
            for cp in range(starts[s], ends[s] + 1):
                if cp == 0xFFFF:
                    continue
                if ros[s] == 0:
                    gid = (cp + deltas[s]) & 0xFFFF
                else:
                    p = ro_at + 2 * s + ros[s] + 2 * (cp - starts[s])
                    gid = _u16(cmap, p) if p + 2 <= len(cmap) else 0
                    gid = (gid + deltas[s]) & 0xFFFF if gid else 0
                if gid:
                    out[cp] = gid
        return out
    return None


def build_cmap(mappings):
    """A cmap with one subtable for `mappings` (a list of (cp, gid)):
    format 4 (3,1) when every code point is in the BMP, else format 12
    (3,10); runs of consecutive code points and glyphs share a segment."""
    runs = []
    for cp, gid in sorted(mappings):
        if runs and cp == runs[-1][1] + 1 and gid == runs[-1][2] + cp - runs[-1][0]:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp, gid])
    if all(r[1] < 0xFFFF for r in runs):
        runs.append([0xFFFF, 0xFFFF, 1])          # the required last segment
        n = len(runs)
        es = max(0, n.bit_length() - 1)
        body = struct.pack(">4H", 2 * n, 2 * (1 << es), es, 2 * n - 2 * (1 << es))
        body += b"".join(struct.pack(">H", r[1]) for r in runs) + b"\0\0"
        body += b"".join(struct.pack(">H", r[0]) for r in runs)
        body += b"".join(struct.pack(">H", (r[2] - r[0]) & 0xFFFF) for r in runs)
        body += b"\0\0" * n
        sub = struct.pack(">HHH", 4, 6 + len(body), 0) + body
        return struct.pack(">HHHHI", 0, 1, 3, 1, 12) + sub
    sub = struct.pack(">HHIII", 12, 0, 16 + 12 * len(runs), 0, len(runs))
    sub += b"".join(struct.pack(">III", *r) for r in runs)
    return struct.pack(">HHHHI", 0, 1, 3, 10, 12) + sub


# ---------------------------------------------------------------- Glat/Gloc
def glat_entries(tables):
    """(Glat header, [entry per glyph]) through Gloc's offsets, or None."""
    if "Glat" not in tables or "Gloc" not in tables:
        return None
    gloc, glat = tables["Gloc"], tables["Glat"]
    if len(gloc) < 8:
        return None
    long_offsets = _u16(gloc, 4) & 1
    size = 4 if long_offsets else 2
    n = (len(gloc) - 8) // size
    if _u16(gloc, 4) & 2:                        # attribute names follow: leave alone
        return None
    offs = struct.unpack(">%d%s" % (n, "I" if long_offsets else "H"), gloc[8:8 + size * n])
    if not offs or any(b < a for a, b in zip(offs, offs[1:])) or offs[-1] > len(glat):
        return None
    return glat[:offs[0]], [glat[a:b] for a, b in zip(offs, offs[1:])]


def with_glat_entries(tables, header, entries):
    """tables with Glat and Gloc rewritten for `entries` (one per glyph)."""
    gloc = tables["Gloc"]
    long_offsets = _u16(gloc, 4) & 1
    offs, at = [], len(header)
    for e in entries:
        offs.append(at)
        at += len(e)
    offs.append(at)
    if not long_offsets and at > 0xFFFF:
        return None
    fmt = ">%d%s" % (len(offs), "I" if long_offsets else "H")
    t = dict(tables)
    t["Glat"] = header + b"".join(entries)
    t["Gloc"] = gloc[:8] + struct.pack(fmt, *offs)
    return t


def with_max_glyph(silf_data, last):
    """Silf bytes with every subtable's maxGlyphID at most `last`."""
    silf = Silf(silf_data)
    subs = []
    for sub in silf.subs:
        at = silf.h
        if _u16(sub, at) > last:
            sub = sub[:at] + struct.pack(">H", last) + sub[at + 2:]
        subs.append(sub)
    silf.subs = subs
    return silf.build()
