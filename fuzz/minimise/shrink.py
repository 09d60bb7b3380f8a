"""The structure-aware passes of the minimiser, per target input format
(see the comment at the top of each fuzz/<target>.c):

  sfnt, tt_font, tt_font_diff
                     [font][trailer]: drop tables; cut the glyph count;
                     empty glyphs; drop glyph programs; drop instructions of
                     fpgm, prep and each glyph program; shrink the bytes of
                     tables the reader does not interpret as a whole
  gr_font, gr_font_diff, gr2_api, gr2_api_diff
                     [font][text: u16 code points][trailer, [2] = count]:
                     the font passes, plus Graphite: drop Silf passes, drop
                     instructions of each rule's constraint and action; drop
                     text characters
  tt_program/tt_diff [code][16-byte trailer]: drop instructions of fpgm,
                     prep and glyph program (the trailer's instruction
                     counts [2..3] and [4..5] rewritten to match)
  gr_code            the same with the constraint count at [2..3]
  gr_diff            [code][16-byte trailer]: drop instructions
  gr_text_diff       [text: u16 units][trailer]: drop units
and, for every target, a byte-level pass over what is left and a pass that
zeroes trailer bytes one at a time.

Every edit is tried through Minimiser.test, which keeps it only when the
target still fails with the same signature."""

import struct

import fonts

TRAILER = fonts.seeds.TRAILER
# Instruction counts in the code targets' trailers (offset of each u16):
# every segment but the last ends after that many instructions.
# Input formats: [font][trailer], [font][text][trailer] (text length in
# trailer byte 2), [text][trailer]; the rest are [code][trailer].
FONT_TARGETS = ("sfnt", "tt_font", "gr_font", "tt_font_diff", "gr_font_diff", "gr2_api", "gr2_api_diff")
TEXT_FONT_TARGETS = ("gr_font", "gr_font_diff", "gr2_api", "gr2_api_diff")
TEXT_TARGETS = ("gr_text_diff",)
SPLIT_COUNTS = {"tt_program": (2, 4), "tt_diff": (2, 4), "gr_code": (2,), "gr_diff": ()}


class BudgetSpent(Exception):
    pass


def shrink_units(units, build, test, min_chunk=1):
    """Greedy chunk removal (delta debugging's complement step): tries
    removing all units, then halves, quarters, ... down to min_chunk units
    at a time.  build(units) -> bytes or None; test(bytes) -> kept?"""
    if not units:
        return units
    cand = build([])
    if cand is not None and test(cand):
        return []
    chunk = max(1, len(units) // 2)
    while True:
        i = 0
        while i < len(units):
            trial = units[:i] + units[i + chunk:]
            cand = build(trial)
            if cand is not None and test(cand):
                units = trial
            else:
                i += chunk
        if chunk <= min_chunk:
            return units
        chunk = max(min_chunk, chunk // 2)


def shrink_bytes(data, build, test):
    """Byte-level removal, chunk size down to one byte for small data."""
    min_chunk = 1 if len(data) <= 2048 else max(1, len(data) // 256)
    kept = shrink_units(list(range(len(data))), lambda keep: build(bytes(data[i] for i in keep)),
                        test, min_chunk)
    return bytes(data[i] for i in kept)


def blank_out(m, items, blank, rebuild):
    """Gives items their smaller blank form (blank(item), None if there is
    none), as many as keep the failure; rebuild(items) -> bytes or None."""
    blanks = [blank(it) for it in items]
    cands = [i for i, b in enumerate(blanks) if b is not None and len(b) < len(items[i])]

    def build(keep):
        keep = set(keep)
        return rebuild([items[i] if i in keep or i not in cands_set else blanks[i]
                        for i in range(len(items))])
    cands_set = set(cands)
    shrink_units(cands, build, m.test)


def zero_trailer(m, trailer_len, keep=()):
    """Zeroes trailer bytes one at a time (same size, simpler input)."""
    for pos in range(trailer_len):
        data = m.best
        if len(data) < trailer_len or pos in keep:
            continue
        at = len(data) - trailer_len + pos
        if data[at] != 0:
            m.test(data[:at] + b"\0" + data[at + 1:], simpler=True)


# ---------------------------------------------------------------- fonts
class FontParts:
    """[font][text][trailer] of the current best input."""

    def __init__(self, data, target):
        t = TRAILER[target]
        self.trailer = bytearray(data[-t:]) if len(data) >= t else None
        payload = data[:-t] if len(data) >= t else data
        n = 0
        if target in TEXT_FONT_TARGETS and self.trailer is not None:
            n = min(self.trailer[2], len(payload) // 2)
        self.font = payload[:len(payload) - 2 * n]
        self.text = payload[len(payload) - 2 * n:]
        self.version, self.tables = fonts.read_tables(self.font)

    def bytes(self, tables=None, text=None):
        text = self.text if text is None else text
        trailer = bytearray(self.trailer or b"")
        if text is not self.text and trailer:
            trailer[2] = len(text) // 2
        tables = self.tables if tables is None else tables
        font = fonts.build_sfnt(tables, self.version) if tables else b""
        return font + text + bytes(trailer)


def _parts(m, target):
    try:
        return FontParts(m.best, target)
    except (ValueError, struct.error, IndexError):
        return None


def font_tables(m, target):
    p = _parts(m, target)
    if p is None:
        return
    shrink_units(sorted(p.tables), lambda keep: p.bytes({t: p.tables[t] for t in keep}), m.test)


def font_glyph_count(m, target):
    """Keeps the first k glyphs (maxp, metrics, glyf and loca, and Graphite's
    Glat and Gloc cut to match), for a few k from 1 up."""
    p = _parts(m, target)
    if p is None or len(p.tables.get("maxp", b"")) < 6:
        return
    n = struct.unpack(">H", p.tables["maxp"][4:6])[0]
    glyphs = fonts.glyphs_of(p.tables)
    glat = fonts.glat_entries(p.tables)

    def cut(k):
        if glyphs is not None:
            tables = fonts.with_glyphs(p.tables, glyphs[:k])
        else:
            tables = fonts.with_glyph_count(p.tables, k)
        if glat is not None and len(glat[1]) >= k:
            tables = fonts.with_glat_entries(tables, glat[0], glat[1][:k])
        if tables is not None and _silf(p) is not None:
            tables["Silf"] = fonts.with_max_glyph(p.tables["Silf"], k - 1)
        return tables is not None and m.test(p.bytes(tables))

    # The smallest k of a ladder that works, then a bisection below it
    # (as if fewer glyphs never worked once more did not).
    ladder = sorted({1, 2, 3, 4, n - 1} | {n * i // 16 for i in range(1, 16)})
    failed = 0
    for k in ladder:
        if not 1 <= k < n:
            continue
        if cut(k):
            lo, hi = failed, k
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if cut(mid):
                    hi = mid
                else:
                    lo = mid
            return
        failed = k


def graphite_glyph_attributes(m, target):
    """Gives glyphs the font's smallest Glat entry (their Graphite
    attributes): an empty entry is not a valid one."""
    p = _parts(m, target)
    glat = p and fonts.glat_entries(p.tables)
    if not glat or not glat[1] or not min(glat[1], key=len):
        return
    header, entries = glat
    smallest = min(entries, key=len)

    def rebuild(items):
        t = fonts.with_glat_entries(p.tables, header, items)
        return None if t is None else p.bytes(t)
    blank_out(m, entries, lambda e: smallest, rebuild)


def font_empty_glyphs(m, target):
    p = _parts(m, target)
    glyphs = p and fonts.glyphs_of(p.tables)
    if glyphs:
        blank_out(m, glyphs, lambda g: b"", lambda gs: p.bytes(fonts.with_glyphs(p.tables, gs)))


def font_glyph_programs(m, target):
    p = _parts(m, target)
    glyphs = p and fonts.glyphs_of(p.tables)
    if glyphs:
        blank_out(m, glyphs, lambda g: fonts.with_glyph_code(g, b""),
                  lambda gs: p.bytes(fonts.with_glyphs(p.tables, gs)))


def font_instructions(m, target):
    """Drops functions, IF blocks, then instructions of fpgm, prep and each
    glyph program."""
    for tag in ("fpgm", "prep"):
        for level in range(2):
            p = _parts(m, target)
            if p is None or tag not in p.tables:
                break
            units = fonts.code_units(p.tables[tag], True)[level]
            shrink_units(units, lambda keep, p=p, tag=tag: p.bytes(
                dict(p.tables, **{tag: b"".join(fonts.joined(keep))})), m.test)
    p = _parts(m, target)
    for g in range(len((p and fonts.glyphs_of(p.tables)) or [])):
        for level in range(2):
            p = _parts(m, target)
            glyphs = fonts.glyphs_of(p.tables)
            loc = fonts.glyph_program(glyphs[g])
            if loc is None or loc[1] <= loc[0]:
                break
            units = fonts.code_units(glyphs[g][loc[0]:loc[1]], True)[level]

            def build(keep, g=g, p=p, glyphs=glyphs):
                out = list(glyphs)
                out[g] = fonts.with_glyph_code(glyphs[g], b"".join(fonts.joined(keep)))
                return p.bytes(fonts.with_glyphs(p.tables, out))
            shrink_units(units, build, m.test)


def _silf(p):
    try:
        return fonts.Silf(p.tables["Silf"]) if "Silf" in p.tables else None
    except (ValueError, struct.error, IndexError):
        return None


def _pass_counts(m, target):
    """(subtable, number of passes) of each Silf subtable whose passes parse."""
    p = _parts(m, target)
    silf = p and _silf(p)
    for i in range(len(silf.subs) if silf else 0):
        try:
            yield i, len(silf.passes(i)[1]) - 1
        except (ValueError, struct.error, IndexError):
            continue


def graphite_passes(m, target):
    for i, n in list(_pass_counts(m, target)):
        for k in reversed(range(n)):
            p = _parts(m, target)
            try:
                new = fonts.drop_pass(_silf(p), i, k)
            except (ValueError, struct.error, IndexError):
                continue
            m.test(p.bytes(dict(p.tables, Silf=new)))


def graphite_rules(m, target):
    for i, n in list(_pass_counts(m, target)):
        for k in range(n):
            walk = fonts.rule_code(_silf(_parts(m, target)), i, k)
            for kind, r, _, _ in (walk[3] if walk else []):
                p = _parts(m, target)
                silf = _silf(p)
                walk = silf and fonts.rule_code(silf, i, k)
                piece = next((x for x in (walk[3] if walk else []) if x[:2] == (kind, r)), None)
                if piece is None:
                    continue
                code = silf.subs[i][piece[2]:piece[3]]

                def build(keep, p=p, silf=silf, kind=kind, r=r):
                    new = fonts.with_rule_code(silf, i, k, kind, r, b"".join(keep))
                    return None if new is None else p.bytes(dict(p.tables, Silf=new))
                shrink_units(fonts.code_units(code, False)[0], lambda keep, b=build: b(fonts.joined(keep)),
                             m.test)


def font_cmap(m, target):
    """Rebuilds the cmap from its mappings, then drops mappings."""
    p = _parts(m, target)
    if p is None or "cmap" not in p.tables:
        return
    try:
        mappings = fonts.cmap_mappings(p.tables["cmap"])
    except (struct.error, IndexError):
        return
    if not mappings:
        return
    shrink_units(sorted(mappings.items()),
                 lambda keep: p.bytes(dict(p.tables, cmap=fonts.build_cmap(keep))), m.test)


# Tables read as a whole structure: cutting bytes out of them only breaks
# offsets, so only the passes above edit them.
STRUCTURED = {"head", "hhea", "maxp", "loca", "glyf", "hmtx", "vhea", "vmtx", "fpgm", "prep",
              "cmap", "Silf", "Glat", "Gloc", "Feat", "Sill"}


def font_table_bytes(m, target):
    p = _parts(m, target)
    if p is None:
        return
    for tag in sorted(p.tables):
        if tag in STRUCTURED:
            continue
        p = _parts(m, target)
        if p is None or tag not in p.tables:
            continue
        shrink_bytes(p.tables[tag], lambda b, p=p, tag=tag: p.bytes(dict(p.tables, **{tag: b})),
                     m.test)


def font_text(m, target):
    p = _parts(m, target)
    if p is None or target not in TEXT_FONT_TARGETS or not p.text:
        return
    chars = [p.text[i:i + 2] for i in range(0, len(p.text), 2)]
    shrink_units(chars, lambda keep: p.bytes(text=b"".join(keep)), m.test)


FONT_PASSES = [font_tables, font_glyph_count, font_empty_glyphs, font_glyph_programs,
               font_instructions, graphite_passes, graphite_rules, graphite_glyph_attributes,
               font_cmap, font_text]


# ---------------------------------------------------------------- code
def code_segments(data, target):
    """The code split as the target splits it, or None for a short input."""
    t = TRAILER[target]
    if len(data) < t:
        return None
    code, trailer = data[:-t], data[-t:]
    insn_len = fonts.gr_insn_len if target.startswith("gr_") else fonts.tt_insn_len
    insns = fonts.split_insns(code, insn_len)
    segs, at = [], 0
    for off in SPLIT_COUNTS[target]:
        n = struct.unpack(">H", trailer[off:off + 2])[0]
        segs.append(insns[at:at + n])
        at += len(segs[-1])
    segs.append(insns[at:])
    return segs, bytearray(trailer)


def code_bytes(segs, trailer, target):
    trailer = bytearray(trailer)
    for off, seg in zip(SPLIT_COUNTS[target], segs):
        trailer[off:off + 2] = struct.pack(">H", len(seg))
    return b"".join(b"".join(s) for s in segs) + bytes(trailer)


def code_instructions(m, target):
    parsed = code_segments(m.best, target)
    if parsed is None:
        return
    tt = target.startswith("tt_")
    for s in range(len(parsed[0])):
        for level in range(2 if tt else 1):
            segs, trailer = code_segments(m.best, target)
            units = fonts.code_units(b"".join(segs[s]), tt)[level]

            def build(keep, segs=segs, trailer=trailer, s=s):
                return code_bytes(segs[:s] + [fonts.joined(keep)] + segs[s + 1:], trailer, target)
            shrink_units(units, build, m.test)


def payload_bytes(m, target):
    t = TRAILER.get(target, 0)
    data = m.best
    if len(data) < t:
        shrink_bytes(data, lambda b: b, m.test)
        return
    trailer = data[len(data) - t:]
    shrink_bytes(data[:len(data) - t], lambda b: b + trailer, m.test)


def trailer_bytes(m, target):
    keep = set()
    for off in SPLIT_COUNTS.get(target, ()):
        keep |= {off, off + 1}
    zero_trailer(m, TRAILER[target], keep)


CODE_PASSES = [code_instructions]


def text_units(m, target):
    """Text targets ([u16 units][trailer]): drop units."""
    t = TRAILER[target]
    data = m.best
    if len(data) < t + 2:
        return
    text, trailer = data[:len(data) - t], data[len(data) - t:]
    units = [text[i:i + 2] for i in range(0, len(text) - 1, 2)]
    shrink_units(units, lambda keep: b"".join(keep) + trailer, m.test)


def passes_for(target):
    """(structural passes, byte-level passes) of a target."""
    if target in FONT_TARGETS:
        return FONT_PASSES + [trailer_bytes], [font_table_bytes]
    if target in TEXT_TARGETS:
        return [text_units, trailer_bytes], [payload_bytes]
    return CODE_PASSES + [trailer_bytes], [payload_bytes]
