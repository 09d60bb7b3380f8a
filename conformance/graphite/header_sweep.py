#!/usr/bin/env python3
"""Graphite header-field sweep: does fontvm accept and refuse the same fonts
as graphite2 1.3.14?

For every Graphite font, rewrites one header field of its Silf (table
header, subtable header, every pass header), Gloc/Glat, Feat and Sill tables
at a time, with boundary values (0, 1, the original +-1, the largest value,
and per field the values that sit on the limits the format implies), and asks
graphite2 and fontvm (through fvconform-gr-load, one process per worker)
whether they accept the font and can shape one segment with it.  The two
must agree on both.  --collisions also sweeps each font with collision
avoidance switched on (Silf flag 0x20, an attCollisions attribute and the
collision flag of the first positioning pass), where the collision
attributes are checked at load.

  header_sweep.py --bin BUILD [FONT-OR-FOLDER...] [--fonts NAME,...]
                  [--collisions] [--no-sfnt | --only-sfnt | --only-compression]
                  [--limit N] [--workers N] [--out FILE.jsonl]
                  [--text STRING] [--config conform.toml]

Fonts: by default the Graphite font sets of conformance/conform.toml, each
shaping the first line of its set's first text file; fonts given on the
command line shape the first line of [graphite] default_texts (or --text).
Compressed Silf/Glat tables (LZ4) are stored uncompressed first, so that the
fields are bytes that can be rewritten.  The "sfnt" variant damages the sfnt
tables graphite2 reads besides its own; the "compression" variant its table
wrapper (compressed streams re-encoded; Gloc, Feat and Sill at version
0xFFFFFFFF with each scheme).

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
sys.path.insert(0, os.path.join(ROOT, "conformance", "tt"))
import tt_sweep  # noqa: E402  (the sfnt damage of the TrueType sweep)

PROBE = "fvconform-gr-load"
RECORD_RTL = 1


# --- sfnt tables ------------------------------------------------------------

def table_directory(font):
    """{tag: (directory index, offset, length)}"""
    out = {}
    for i in range(u16(font, 4)):
        tag, _, off, length = struct.unpack_from(">4sIII", font, 12 + 16 * i)
        out[tag.decode("latin-1")] = (i, off, length)
    return out


def get_table(font, tag):
    entry = table_directory(font).get(tag)
    if entry is None:
        return None
    _, off, length = entry
    if off + length > len(font):
        raise BadInput(f"table {tag} runs past the end of the file")
    return bytes(font[off:off + length])


def replace_table(font, tag, data):
    """The font with `data` as table `tag`, appended at the end (the old
    bytes stay, unreferenced: every other offset keeps its meaning)."""
    font = bytearray(font)
    index = table_directory(font)[tag][0]
    font += bytes(-len(font) % 4)
    struct.pack_into(">4sIII", font, 12 + 16 * index, tag.encode("latin-1"), 0, len(font), len(data))
    return font + data


def lz4_sequences(src):
    """An LZ4 block as [(literals, offset, match length)], the last with
    offset None (the bytes after its literals are dropped)."""
    seqs, i = [], 0

    def length(n):
        nonlocal i
        if n == 15:
            while True:
                b = src[i]
                i += 1
                n += b
                if b != 255:
                    break
        return n

    while i < len(src):
        token = src[i]
        i += 1
        n = length(token >> 4)
        literals = src[i:i + n]
        i += n
        if len(src) - i < 8:
            seqs.append((literals, None, None))
            return seqs
        offset = src[i] | src[i + 1] << 8
        i += 2
        seqs.append((literals, offset, length(token & 15) + 4))
    raise BadInput("LZ4 block without a last sequence")


def lz4_block(src, size):
    """Decodes one LZ4 block (the format graphite2 uses for Silf v5 and
    Glat v3 tables) into `size` bytes."""
    try:
        seqs = lz4_sequences(src)
    except IndexError:
        raise BadInput("truncated LZ4 block")
    out = bytearray()
    for literals, distance, match in seqs:
        out += literals
        if distance is None:
            break
        if distance == 0 or distance > len(out):
            raise BadInput("LZ4 match before the start of the table")
        for _ in range(match):
            out.append(out[-distance])
    if len(out) < size:
        raise BadInput("LZ4 block shorter than its declared size")
    return bytes(out[:size])


def uncompressed(font):
    """The font with a compressed Silf (v5+) or Glat (v3+) table stored
    uncompressed, since only uncompressed bytes can be rewritten field by
    field."""
    for tag, min_version in (("Silf", 0x50000), ("Glat", 0x30000)):
        t = get_table(font, tag)
        if t is None or len(t) < 8:
            continue
        version, scheme = struct.unpack_from(">II", t)
        if version >= min_version and scheme >> 27 == 1:   # scheme 1: LZ4
            font = replace_table(font, tag, lz4_block(t[8:], scheme & 0x07FFFFFF))
    return font


# --- the fields --------------------------------------------------------------

def sample(n, k=3):
    """Indexes to rewrite out of an array of n entries: all of a short one,
    else the first, middle and last (where off-by-one checks sit)."""
    if n <= k:
        return list(range(n))
    return sorted({0, n // 2, n - 1})


class Fields:
    """Collects (table, offset in table, size in bytes, name, extra values)."""

    def __init__(self):
        self.out = []

    def add(self, table, offset, size, name, extra=()):
        self.out.append((table, offset, size, name, tuple(extra)))


def silf_fields(t, num_glyphs, num_attribs, f, every_pass):
    version = u32(t, 0)
    f.add("Silf", 0, 4, "version", [v << 16 for v in range(1, 7)])
    if version >= 0x30000:
        f.add("Silf", 4, 4, "compilerVersion", [0x08000000, 0x10000000])
        f.add("Silf", 8, 2, "numSub", [2])
        p = 12
    else:
        f.add("Silf", 4, 2, "numSub", [2])
        p = 8
    f.add("Silf", p, 4, "subOffset[0]", [len(t), len(t) - 1])
    sub = p = u32(t, p)
    if version >= 0x30000:
        f.add("Silf", p, 4, "sub.ruleVersion", [0x00050000, 0x00060000])
        f.add("Silf", p + 4, 2, "sub.passOffset")
        f.add("Silf", p + 6, 2, "sub.pseudosOffset")
        p += 8
    ng, na = num_glyphs, num_attribs
    f.add("Silf", p, 2, "sub.maxGlyphID", [ng - 1, ng, ng + 1])
    f.add("Silf", p + 2, 2, "sub.extraAscent")
    f.add("Silf", p + 4, 2, "sub.extraDescent")
    p += 6
    num_passes = t[p]
    for i, name in enumerate(["numPasses", "iSubst", "iPos", "iJust", "iBidi", "flags",
                              "maxPreContext", "maxPostContext", "attrPseudo", "attrBreakWeight",
                              "attrDirectionality", "attrMirroring", "attrSkipPasses", "numJLevels"]):
        if name == "flags":
            extra = [0x20, 0x21, 0x02, 0x04, 0x08, 0x10, 0x40, 0x80]
        else:   # pass indexes and attribute numbers: the counts they index
            extra = [num_passes, num_passes + 1, na - 1, na, 32, 33, 64, 128]
        f.add("Silf", p + i, 1, "sub." + name, extra)
    num_jlevels = t[p + 13]
    p += 14
    for j in range(num_jlevels):
        for k, name in enumerate(["attrStretch", "attrShrink", "attrStep", "attrWeight",
                                  "runto", "res0", "res1", "res2"]):
            f.add("Silf", p + 8 * j + k, 1, f"sub.jlevel[{j}].{name}", [na - 1, na])
    p += 8 * num_jlevels
    f.add("Silf", p, 2, "sub.numLigComp(aLig)", [na - 1, na, 127, 128])
    f.add("Silf", p + 2, 1, "sub.numUserDefn", [64, 65])
    f.add("Silf", p + 3, 1, "sub.maxCompPerLig", [16, 17])
    f.add("Silf", p + 4, 1, "sub.direction", [2, 3, 4])
    f.add("Silf", p + 5, 1, "sub.attCollisions", [na - 5, na - 6, na - 4, na])
    for k in range(3):
        f.add("Silf", p + 6 + k, 1, f"sub.reserved{k}")
    p += 9
    num_crit = t[p]
    f.add("Silf", p, 1, "sub.numCritFeatures", [num_crit + 2])
    p += 1
    for k in range(num_crit):
        f.add("Silf", p + 2 * k, 2, f"sub.critFeature[{k}]")
    p += 2 * num_crit
    f.add("Silf", p, 1, "sub.reservedAfterCrit")
    p += 1
    num_scripts = t[p]
    f.add("Silf", p, 1, "sub.numScriptTag", [num_scripts + 2])
    p += 1
    for k in range(num_scripts):
        f.add("Silf", p + 4 * k, 4, f"sub.scriptTag[{k}]")
    p += 4 * num_scripts
    f.add("Silf", p, 2, "sub.lbGID", [ng - 1, ng])
    p += 2
    pass_offsets = [u32(t, p + 4 * i) for i in range(num_passes + 1)]
    for i, o in enumerate(pass_offsets):
        f.add("Silf", p + 4 * i, 4, f"sub.passOffset[{i}]", [o + 4, o - 4, pass_offsets[-1]])
    p += 4 * (num_passes + 1)
    num_pseudo = u16(t, p)
    f.add("Silf", p, 2, "sub.numPseudo", [num_pseudo + 2])
    f.add("Silf", p + 2, 2, "sub.searchPseudo")
    f.add("Silf", p + 4, 2, "sub.pseudoSelector")
    f.add("Silf", p + 6, 2, "sub.pseudoShift")
    p += 8
    for k in sample(num_pseudo):
        f.add("Silf", p + 6 * k, 4, f"sub.pseudo[{k}].unicode")
        f.add("Silf", p + 6 * k + 4, 2, f"sub.pseudo[{k}].gid", [ng - 1, ng])
    p += 6 * num_pseudo
    num_class, num_linear = u16(t, p), u16(t, p + 2)
    f.add("Silf", p, 2, "class.numClass", [num_linear, num_linear - 1, num_class + 2])
    f.add("Silf", p + 2, 2, "class.numLinear", [num_class, num_class + 1, num_class - 1])
    width = 4 if version >= 0x40000 else 2
    read = u32 if width == 4 else u16
    class_offsets = [read(t, p + 4 + width * i) for i in range(num_class + 1)]
    # the linear/lookup boundary is where a miscount shows
    for k in sorted(set(sample(num_class + 1))
                    | ({num_linear - 1, num_linear, num_linear + 1} & set(range(num_class + 1)))):
        f.add("Silf", p + 4 + width * k, width, f"class.offset[{k}]",
              [class_offsets[k] + 2, class_offsets[k] - 2])
    for k in sorted({num_linear, num_class - 1} & set(range(num_linear, num_class))):
        o = p + class_offsets[k]
        for j, name in enumerate(["numIDs", "searchRange", "entrySelector", "rangeShift"]):
            f.add("Silf", o + 2 * j, 2, f"class[{k}].{name}")
    passes = range(num_passes) if every_pass else sorted({0, num_passes - 1} & set(range(num_passes)))
    for i in passes:
        pass_fields(t, ng, f, sub, sub + pass_offsets[i], sub + pass_offsets[i + 1], i)


def pass_fields(t, num_glyphs, f, sub, start, end, index):
    P = f"pass{index}."
    ng = num_glyphs
    num_rules = u16(t, start + 4)
    f.add("Silf", start, 1, P + "flags",
          [0x01, 0x02, 0x07, 0x08, 0x10, 0x18, 0x20, 0x40, 0x80, t[start] ^ 0x20, t[start] & 0xF8])
    f.add("Silf", start + 1, 1, P + "maxRuleLoop")
    f.add("Silf", start + 2, 1, P + "maxRuleContext")
    f.add("Silf", start + 3, 1, P + "maxBackup")
    f.add("Silf", start + 4, 2, P + "numRules")
    f.add("Silf", start + 6, 2, P + "fsmOffset")
    for k, name in enumerate(["pcCode", "rcCode", "aCode", "oDebug"]):
        v = u32(t, start + 8 + 4 * k)
        f.add("Silf", start + 8 + 4 * k, 4, P + name, [v + 2, v - 2, start - sub, end - sub])
    q = start + 24
    num_rows, num_trans, num_success, num_columns = (u16(t, q + 2 * k) for k in range(4))
    f.add("Silf", q, 2, P + "numRows",
          [num_trans + num_success, num_trans + num_success + 1, max(num_trans, num_success)])
    f.add("Silf", q + 2, 2, P + "numTransitional", [num_rows])
    f.add("Silf", q + 4, 2, P + "numSuccess", [num_rows])
    f.add("Silf", q + 6, 2, P + "numColumns", [0x7FFF, 0x8000])
    q += 8
    num_ranges = u16(t, q)
    f.add("Silf", q, 2, P + "numRange")
    for k, name in enumerate(["searchRange", "entrySelector", "rangeShift"]):
        f.add("Silf", q + 2 + 2 * k, 2, P + name)
    q += 8
    for k in sample(num_ranges):
        first, last = u16(t, q + 6 * k), u16(t, q + 6 * k + 2)
        f.add("Silf", q + 6 * k, 2, P + f"range[{k}].first", [last, last + 1, ng - 1, ng])
        f.add("Silf", q + 6 * k + 2, 2, P + f"range[{k}].last", [first, first - 1, ng - 1, ng])
        f.add("Silf", q + 6 * k + 4, 2, P + f"range[{k}].col", [num_columns - 1, num_columns])
    q += 6 * num_ranges
    rule_map_offsets = [u16(t, q + 2 * k) for k in range(num_success + 1)]
    rule_map_len = rule_map_offsets[-1]
    for k in sample(num_success + 1):
        f.add("Silf", q + 2 * k, 2, P + f"ruleMapOffset[{k}]", [rule_map_len, rule_map_len + 1])
    q += 2 * (num_success + 1)
    for k in sample(rule_map_len):
        f.add("Silf", q + 2 * k, 2, P + f"ruleMap[{k}]", [num_rules - 1, num_rules])
    q += 2 * rule_map_len
    min_pre, max_pre = t[q], t[q + 1]
    f.add("Silf", q, 1, P + "minRulePreContext", [max_pre, max_pre + 1])
    f.add("Silf", q + 1, 1, P + "maxRulePreContext", [min_pre, min_pre - 1])
    q += 2
    for k in sample(max_pre - min_pre + 1):
        f.add("Silf", q + 2 * k, 2, P + f"startState[{k}]", [num_rows - 1, num_rows, num_trans, num_trans - 1])
    q += 2 * (max_pre - min_pre + 1)
    for k in sample(num_rules):
        f.add("Silf", q + 2 * k, 2, P + f"sortKey[{k}]", [63, 64, 62])
    q += 2 * num_rules
    for k in sample(num_rules):
        f.add("Silf", q + k, 1, P + f"rulePreContext[{k}]", [min_pre, max_pre, max_pre + 1])
    q += num_rules
    f.add("Silf", q, 1, P + "collisionThreshold")
    f.add("Silf", q + 1, 2, P + "pConstraintLen")
    q += 3
    for name in ("constraintOffset", "actionOffset"):
        offsets = [u16(t, q + 2 * k) for k in range(num_rules + 1)]
        for k in sample(num_rules + 1):
            f.add("Silf", q + 2 * k, 2, P + f"{name}[{k}]", [offsets[-1], offsets[-1] + 1])
        q += 2 * (num_rules + 1)
    transitions = num_trans * num_columns
    for k in sample(transitions):
        f.add("Silf", q + 2 * k, 2, P + f"trans[{k}]", [num_rows - 1, num_rows])
    q += 2 * transitions
    if q < end:
        f.add("Silf", q, 1, P + "reservedBeforeCode")


def gloc_glat_fields(gloc, glat, f):
    f.add("Gloc", 0, 4, "Gloc.version", [0x00010000, 0x00020000, 0x00010001, 0x00000000, 0x01010000])
    flags = u16(gloc, 4)
    f.add("Gloc", 4, 2, "Gloc.flags", [0, 1, 2, 3, 4, 0x8000])
    na = u16(gloc, 6)
    f.add("Gloc", 6, 2, "Gloc.numAttribs", [0x3000, 0x3001, 2 * na, na // 2])
    entry = 4 if flags & 1 else 2
    count = (len(gloc) - 8 - (2 * na if flags & 2 else 0)) // entry
    read = u32 if entry == 4 else u16
    offsets = [read(gloc, 8 + entry * i) for i in range(count)]
    for k in sorted(set(sample(count)) | ({1, 2} & set(range(count)))):
        f.add("Gloc", 8 + entry * k, entry, f"Gloc.offset[{k}]",
              [offsets[k] + 1, offsets[k] + 2, len(glat), len(glat) - 1])
    version = u32(glat, 0)
    f.add("Glat", 0, 4, "Glat.version", [0x00010000, 0x00020000, 0x00030000, 0x00040000, 0x00030001, 0])
    if version >= 0x30000:
        f.add("Glat", 4, 4, "Glat.compression/flags", [0, 1, 2, 3, 0x08000000, 0x10000000, 0x00000100])
    # the attribute run headers of a few glyphs
    for g in sorted({0, 1, count // 2, count - 2} & set(range(count - 1))):
        a, b = offsets[g], offsets[g + 1]
        if b <= a:
            continue
        p = a
        if version >= 0x30000:
            bitmap = u16(glat, p)
            f.add("Glat", p, 2, f"Glat[g{g}].octabitmap", [bitmap ^ 1, bitmap ^ 0x8000, 0xFFFF])
            for k in range(4):
                f.add("Glat", p + 2 + k, 1, f"Glat[g{g}].diag{k}")
            p += 6 + 8 * bin(bitmap).count("1")
        if p < b:
            if version >= 0x20000:
                f.add("Glat", p, 2, f"Glat[g{g}].attNum", [na - 1, na, na + 1])
                f.add("Glat", p + 2, 2, f"Glat[g{g}].num", [(b - p - 4) // 2 + 1, (b - p - 4) // 2 - 1])
            else:
                f.add("Glat", p, 1, f"Glat[g{g}].attNum", [na - 1, na, na + 1])
                f.add("Glat", p + 1, 1, f"Glat[g{g}].num", [(b - p - 2) // 2 + 1, (b - p - 2) // 2 - 1])


def feat_fields(t, f):
    version = u32(t, 0)
    f.add("Feat", 0, 4, "Feat.version", [0x00010000, 0x00020000, 0x00030000, 0])
    n = u16(t, 4)
    f.add("Feat", 4, 2, "Feat.numFeat", [n + 1, n + 10])
    f.add("Feat", 6, 2, "Feat.reserved")
    f.add("Feat", 8, 4, "Feat.reserved2")
    v2 = version >= 0x20000
    for k in sample(n):
        p = 12 + (16 if v2 else 12) * k
        if v2:
            f.add("Feat", p, 4, f"Feat[{k}].id", [u32(t, 12)])   # a duplicate of the first id
            f.add("Feat", p + 4, 2, f"Feat[{k}].numSettings", [u16(t, p + 4) + 1])
            f.add("Feat", p + 6, 2, f"Feat[{k}].reserved")
            f.add("Feat", p + 8, 4, f"Feat[{k}].offset", [len(t), len(t) - 4, u32(t, p + 8) + 2])
            f.add("Feat", p + 12, 2, f"Feat[{k}].flags", [0x800, 0x8000, 0x0FFF])
            f.add("Feat", p + 14, 2, f"Feat[{k}].label")
            settings, count = u32(t, p + 8), u16(t, p + 4)
        else:
            f.add("Feat", p, 2, f"Feat[{k}].id", [u16(t, 12)])
            f.add("Feat", p + 2, 2, f"Feat[{k}].numSettings", [u16(t, p + 2) + 1])
            f.add("Feat", p + 4, 4, f"Feat[{k}].offset", [len(t), len(t) - 4])
            f.add("Feat", p + 8, 2, f"Feat[{k}].flags", [0x800, 0x8000])
            f.add("Feat", p + 10, 2, f"Feat[{k}].label")
            settings, count = u32(t, p + 4), u16(t, p + 2)
        for j in sample(count, 2):
            if settings + 4 * j + 4 <= len(t):
                f.add("Feat", settings + 4 * j, 2, f"Feat[{k}].setting[{j}].value", [0x8000, 0x7FFF])


def sill_fields(t, f):
    f.add("Sill", 0, 4, "Sill.version", [0x00010000, 0x00020000, 0x00010001])
    n = u16(t, 4)
    f.add("Sill", 4, 2, "Sill.numLangs", [n + 1, n + 10])
    for k in range(3):
        f.add("Sill", 6 + 2 * k, 2, f"Sill.search{k}")
    for k in sample(n):
        p = 12 + 8 * k
        f.add("Sill", p, 4, f"Sill[{k}].tag")
        count, settings = u16(t, p + 4), u16(t, p + 6)
        f.add("Sill", p + 4, 2, f"Sill[{k}].numSettings", [count + 1])
        f.add("Sill", p + 6, 2, f"Sill[{k}].offset", [len(t), len(t) - 8, settings + 2])
        for j in sample(count, 2):
            q = settings + 8 * j
            if q + 8 <= len(t):
                f.add("Sill", q, 4, f"Sill[{k}].setting[{j}].featId", [0x61626364])
                f.add("Sill", q + 4, 2, f"Sill[{k}].setting[{j}].value", [0x8000, 0x7FFF])
                f.add("Sill", q + 6, 2, f"Sill[{k}].setting[{j}].reserved")


def values(original, size, extra):
    """The values a field is rewritten to: 0, 1, its neighbours, the
    largest, and the field's own boundary values; never the original."""
    mask = (1 << (8 * size)) - 1
    out = []
    for v in [0, 1, original - 1, original + 1, mask] + list(extra):
        v &= mask
        if v != original and v not in out:
            out.append(v)
    return out


def switch_collisions_on(font):
    """The font with collision avoidance on: the subtable's collision flag
    (0x20), an attCollisions attribute if it has none (3, or the last
    attribute that leaves room for the collision block), and the
    collision-fixing flag (0x01) of the first positioning pass."""
    font = bytearray(font)
    silf_at = table_directory(font)["Silf"][1]
    t = get_table(font, "Silf")
    gloc = get_table(font, "Gloc")
    num_attribs = u16(gloc, 6) if gloc else 0
    version = u32(t, 0)
    sub = u32(t, 12 if version >= 0x30000 else 8)
    p = sub + (8 if version >= 0x30000 else 0) + 6            # numPasses
    num_passes, first_pos_pass = t[p], t[p + 2]
    flags_at = p + 5
    q = p + 14 + 8 * t[p + 13]                                # numLigComp
    att_collisions_at = q + 5
    r = q + 9
    r += 1 + 2 * t[r] + 1                                     # critical features, reserved byte
    r += 1 + 4 * t[r] + 2                                     # script tags, lbGID
    pass_index = first_pos_pass if first_pos_pass < num_passes else num_passes - 1
    font[silf_at + flags_at] |= 0x20
    if font[silf_at + att_collisions_at] == 0:
        font[silf_at + att_collisions_at] = min(3, max(num_attribs - 6, 0))
    font[silf_at + sub + u32(t, r + 4 * pass_index)] |= 0x01
    return font


def mutations(base, every_pass):
    """[(table, offset in font, size, field, original, value)] of a font."""
    maxp = get_table(base, "maxp")
    if maxp is None:
        raise BadInput("no maxp table")
    tables = {tag: get_table(base, tag) for tag in ("Silf", "Glat", "Gloc", "Feat", "Sill")}
    gloc, glat = tables["Gloc"], tables["Glat"]
    num_attribs = u16(gloc, 6) if gloc else 0
    f = Fields()
    silf_fields(tables["Silf"], u16(maxp, 4), num_attribs, f, every_pass)
    if gloc and glat:
        gloc_glat_fields(gloc, glat, f)
    if tables["Feat"]:
        feat_fields(tables["Feat"], f)
    if tables["Sill"]:
        sill_fields(tables["Sill"], f)
    directory = table_directory(base)
    out = []
    for table, offset, size, name, extra in f.out:
        t = tables[table]
        if offset < 0 or offset + size > len(t):
            continue
        original = int.from_bytes(t[offset:offset + size], "big")
        for v in values(original, size, extra):
            out.append((table, directory[table][1] + offset, size, name, original, v))
    return out


# --- sfnt-level damage (variant "sfnt") -------------------------------------------

def sfnt_mutations(base):
    """[(table, field, value label, make)] for the tables graphite2 reads
    besides its own (head, hhea, hmtx, maxp, cmap, glyf, loca): the
    TrueType sweep's damage (tables cut, dropped, past the end of the file;
    the directory; head/maxp/hhea/hmtx/loca/glyf fields and lengths;
    outlines dropped) applied to the whole font, and what graphite2 checks
    on top: every head field, the hhea version and metric format, maxp's
    glyph count against Gloc's, the cmap header and its encoding records,
    glyph bounding boxes turned inside out; and Feat cut between its
    version's record size and graphite2's (16 bytes a record)."""
    put16, put32, find, build = tt_sweep.put16, tt_sweep.put32, tt_sweep.find, tt_sweep.build
    tables = tt_sweep.read_tables(base)
    out = []
    damage = []
    for gen in (tt_sweep.table_damage, tt_sweep.directory_damage, tt_sweep.field_damage,
                tt_sweep.bitmap_only):
        try:
            damage += gen(tables)
        except (TypeError, struct.error):   # a table it needs is missing (no glyf: CFF)
            pass
    for m in damage:
        if "glyph 0's outline" in m.value:   # made for the TrueType sweep's long-loca subsets
            continue
        # The container is not graphite2's to judge: its caller hands it
        # tables (the runner, like HarfBuzz's loader, by the first record of
        # a tag), while fontvm opens the file as FreeType does and refuses a
        # second head record under 54 bytes.  scripts/conform --tt-sweep
        # checks that decision against FreeType.
        if m.kind == "directory.duplicate" and "head" in m.value:
            continue
        table = m.kind.split(".")[1] if m.kind.startswith("table.") else m.kind.split(".")[0]
        out.append((table, m.kind, m.value, m.make))

    def field(tag, offset, size, value, kind, label):
        i, data = find(tables, tag)
        if i is None or offset + size > len(data):
            return

        def make():
            t = list(tables)
            d = bytearray(data)
            d[offset:offset + size] = (value & ((1 << (8 * size)) - 1)).to_bytes(size, "big")
            t[i] = (tag, bytes(d))
            return build(t)[0]
        out.append((tag.decode("latin-1").strip(), kind, label, make))

    def replaced(tag, data, kind, label):
        def make():
            t = [(tg, data if tg == tag else d) for tg, d in tables]
            if find(t, tag)[0] is None:
                t.append((tag, data))
            return build(t)[0]
        out.append((tag.decode("latin-1").strip(), kind, label, make))

    head_fields = (("version", 0, 4), ("fontRevision", 4, 4), ("checkSumAdjustment", 8, 4),
                   ("magicNumber", 12, 4), ("flags", 16, 2), ("unitsPerEm", 18, 2),
                   ("created", 20, 8), ("modified", 28, 8), ("xMin", 36, 2), ("yMin", 38, 2),
                   ("xMax", 40, 2), ("yMax", 42, 2), ("macStyle", 44, 2), ("lowestRecPPEM", 46, 2),
                   ("fontDirectionHint", 48, 2), ("indexToLocFormat", 50, 2),
                   ("glyphDataFormat", 52, 2))
    _, head = find(tables, b"head")
    for name, off, size in head_fields:
        if head is None or off + size > len(head):
            continue
        orig = int.from_bytes(head[off:off + size], "big")
        for v in values(orig, size, [0x00010000 if size == 4 else 0x8000]):
            field(b"head", off, size, v, f"head.{name}", f"0x{v:X}")
    for v in (0, 0x00010001, 0x00020000, 0x00008000, 0xFFFF0000):
        field(b"hhea", 0, 4, v, "hhea.version", f"0x{v:X}")
    for v in (1, 0xFFFF):
        field(b"hhea", 32, 2, v, "hhea.metricDataFormat", str(v))
    for off, name in ((4, "ascender"), (6, "descender"), (8, "lineGap"), (10, "advanceWidthMax")):
        for v in (0, 0x7FFF, 0x8000):
            field(b"hhea", off, 2, v, f"hhea.{name}", f"0x{v:X}")
    for v in (0x00005000, 0x0000C000, 0x00010001, 0x00008000):
        field(b"maxp", 0, 4, v, "maxp.version", f"0x{v:X}")
    # maxp's glyph count against Gloc's (graphite2 counts the larger)
    gloc = get_table(base, "Gloc")
    if gloc and len(gloc) >= 8:
        esz = 4 if u16(gloc, 4) & 1 else 2
        entries = (len(gloc) - 8 - (2 * u16(gloc, 6) if u16(gloc, 4) & 2 else 0)) // esz - 1
        for v, label in ((entries, "Gloc's"), (entries + 1, "Gloc's+1"), (entries - 1, "Gloc's-1"),
                         (2, "2"), (1, "1")):
            if 0 < v <= 0xFFFF:
                field(b"maxp", 4, 2, v, "maxp.numGlyphs", label)
    # cmap: header, encoding records, the subtables' formats
    _, cmap = find(tables, b"cmap")
    if cmap is not None and len(cmap) >= 4:
        for v in (1, 0xFFFF):
            field(b"cmap", 0, 2, v, "cmap.version", f"0x{v:X}")
        n = u16(cmap, 2)
        for v in (0, 1, n + 1, 0xFFFF):
            if v != n:
                field(b"cmap", 2, 2, v, "cmap.numTables", str(v))
        for k in range(min(n, 8)):
            rec = 4 + 8 * k
            if rec + 8 > len(cmap):
                break
            for v in (0, 1, 3, 4, 0xFFFF):
                field(b"cmap", rec, 2, v, f"cmap.record[{k}].platformID", str(v))
            for v in (0, 1, 3, 4, 10, 0xFFFF):
                field(b"cmap", rec + 2, 2, v, f"cmap.record[{k}].encodingID", str(v))
            sub = u32(cmap, rec + 4)
            for v, label in ((0, "0"), (len(cmap), "table end"), (len(cmap) - 2, "table end-2"),
                             (0xFFFFFFFF, "0xFFFFFFFF")):
                field(b"cmap", rec + 4, 4, v, f"cmap.record[{k}].offset", label)
            if sub + 4 <= len(cmap):
                fmt = u16(cmap, sub)
                for v in (0, 2, 6, 12 if fmt == 4 else 4, 13, 0xFFFF):
                    field(b"cmap", sub, 2, v, f"cmap.subtable[{k}].format", str(v))
                if fmt == 4:
                    length = u16(cmap, sub + 2)
                    for v in (0, 14, length - 2, length + 2, 0xFFFF):
                        field(b"cmap", sub + 2, 2, v, f"cmap.subtable[{k}].length", str(v))
                    if sub + 8 <= len(cmap):
                        seg2 = u16(cmap, sub + 6)
                        for v in (0, 2, seg2 - 2, seg2 + 2, 0xFFFF):
                            field(b"cmap", sub + 6, 2, v, f"cmap.subtable[{k}].segCountX2", str(v))
                elif fmt == 12 and sub + 16 <= len(cmap):
                    ng = u32(cmap, sub + 12)
                    for v in (0, ng + 1, 0xFFFFFFFF):
                        field(b"cmap", sub + 12, 4, v, f"cmap.subtable[{k}].numGroups", str(v))
        for data, label in ((b"\0\0\0\0", "00000000"), (b"\0\0\0\1", "one record, cut"),
                            (struct.pack(">HHHHI", 0, 1, 3, 1, 12), "one record, no subtable"),
                            (struct.pack(">HHHHIHHHHHHHHHH", 0, 1, 3, 1, 12, 4, 24, 0, 2, 2, 0, 0,
                                         0xFFFF, 0, 1) + struct.pack(">H", 0), "empty format 4")):
            replaced(b"cmap", data, "cmap.replaced", label)
    # Feat's records as graphite2 sizes them: 16 bytes each, the 2.0
    # record's size, whatever the version (F-37).  The font's own features
    # with their settings dropped (else both refuse settings past the end),
    # the table cut around the two record sizes.
    _, feat = find(tables, b"Feat")
    if feat is not None and len(feat) >= 12 and 0x10000 <= u32(feat, 0) < 0x30000 and u16(feat, 4):
        n, rec = u16(feat, 4), 16 if u32(feat, 0) >= 0x20000 else 12
        if 12 + rec * n <= len(feat):
            for length in sorted({12 + rec * n, 12 + 16 * n - 1, 12 + 16 * n}):
                d = bytearray(feat[:12 + rec * n]) + bytes(max(0, length - 12 - rec * n))
                for k in range(n):   # numSettings 0, the settings at the table's end
                    if rec == 16:
                        struct.pack_into(">HHI", d, 12 + 16 * k + 4, 0, 0, length)
                    else:
                        struct.pack_into(">HI", d, 12 + 12 * k + 2, 0, length)
                replaced(b"Feat", bytes(d[:length]), "Feat.cut",
                         f"{n} features without settings, {length} bytes")
    # bounding boxes inside out: glyph 0, and a glyph in the middle
    _, loca = find(tables, b"loca")
    _, glyf = find(tables, b"glyf")
    _, maxp = find(tables, b"maxp")
    if loca is not None and glyf is not None and head is not None and maxp is not None:
        long_format = u16(head, 50) == 1
        n = u16(maxp, 4)
        for g in sorted({0, n // 2, n - 1}):
            try:
                a, b = tt_sweep.glyph_range(loca, long_format, g)
            except struct.error:
                continue
            if b - a < 10 or b > len(glyf):
                continue
            xmin, ymin, xmax, ymax = struct.unpack_from(">hhhh", glyf, a + 2)
            gi = find(tables, b"glyf")[0]
            for label, box in (("xMin > xMax", (xmax + 1, ymin, xmax, ymax)),
                               ("yMin > yMax", (xmin, ymax + 1, xmax, ymax)),
                               ("all 0", (0, 0, 0, 0)), ("extreme", (-32768, -32768, 32767, 32767))):
                def make(g=g, a=a, box=box, gi=gi):
                    t = list(tables)
                    d = bytearray(glyf)
                    struct.pack_into(">hhhh", d, a + 2, *box)
                    t[gi] = (b"glyf", bytes(d))
                    return build(t)[0]
                out.append(("glyf", f"glyf[{'n-1' if g == n - 1 and g else g}].box", label, make))
            for label, v in (("-2 (empty composite)", -2), ("0 contours", 0)):
                field(b"glyf", a, 2, v & 0xFFFF, f"glyf[{g}].numberOfContours", label)
    return out


# --- the probe ---------------------------------------------------------------


# --- graphite2's table wrapper (variant "compression") -------------------------

def lz4_encode(seqs):
    """The block of sequences [(literals, offset, match length)] (the last
    with offset None), lengths encoded as the format says."""
    out = bytearray()

    def extra(n):
        while n >= 255:
            out.append(255)
            n -= 255
        out.append(n)

    for literals, offset, match in seqs:
        m = 0 if offset is None else match - 4
        out.append(min(len(literals), 15) << 4 | min(m, 15))
        if len(literals) >= 15:
            extra(len(literals) - 15)
        out += literals
        if offset is not None:
            out += struct.pack("<H", offset)
            if m >= 15:
                extra(m - 15)
    return bytes(out)


def compression_mutations(font):
    """[(table, kind, value label, make)]: what graphite2's table wrapper
    decides.  A compressed Silf (v5) or Glat (v3) re-encoded one factor at
    a time: bytes after the last sequence, the last sequences' shapes (a
    match leaving fewer than 5 bytes, starting within the last 12, ending
    the block), offset 0, the stream as long as its output or one byte
    shorter, the declared size off by one, another scheme, a decoded
    version other than the header's; and every other Graphite table (Gloc,
    Feat, Sill) and the sfnt tables without a version (hmtx, glyf, loca:
    graphite2 reads them through the same wrapper, F-39) given version
    0xFFFFFFFF, the one at which graphite2 looks for a compression header
    in them, with each scheme, at 19 and 20 bytes, and LZ4-compressed
    whole."""
    out = []

    def add(tag, kind, label, data):
        out.append((tag, kind, label, lambda: replace_table(font, tag, data)))

    for tag, min_version in (("Silf", 0x50000), ("Glat", 0x30000)):
        t = get_table(font, tag)
        if t is None or len(t) < 20:
            continue
        version, hdr = struct.unpack_from(">II", t)
        if version < min_version or hdr >> 27 != 1:
            continue
        size, stream = hdr & 0x07FFFFFF, t[8:]
        seqs = lz4_sequences(stream)
        raw = lz4_block(stream, size)
        head = seqs[:-1]
        last = seqs[-1][0] + b"\0"   # the decoded table then ends in zeros a match can repeat

        def packed(body, declared, v=version, scheme=1):
            return struct.pack(">II", v, scheme << 27 | declared) + body

        for n in (1, 7, 8, 9):
            for fill in (b"\0", b"\xff"):
                add(tag, "lz4.trailing", f"{n} x {fill.hex()}", packed(stream + fill * n, size))
        for d in (-1, 1):
            add(tag, "lz4.declared", f"size {d:+d}", packed(stream, size + d))
        for scheme in (0, 2, 31):
            add(tag, "lz4.scheme", str(scheme), packed(stream, size, scheme=scheme))
        z = 32
        grown = len(raw) + 1 + z
        for m in (26, 27, 28, 31):      # a match, then 32 - m literals (the block ends there)
            body = lz4_encode(head + [(last, 1, m)] + ([(b"\0" * (z - m), None, None)] if z > m else []))
            add(tag, "lz4.last_match", f"match {m}, {z - m} literals after", packed(body, grown))
        for k in (20, 21, 22):          # a 6-byte match starting k - 32 bytes before the end
            body = lz4_encode(head + [(last + b"\0" * k, 1, z - k - 5), (b"\0" * 5, None, None)])
            add(tag, "lz4.last_match", f"starts {z - k} bytes before the end", packed(body, grown))
        body = lz4_encode(head + [(last, 0, 27), (b"\0" * 5, None, None)])
        add(tag, "lz4.offset", "0", packed(body, grown))
        # the stream as long as its output, and one byte shorter: the table
        # as one run of literals, then zeros enough to pay for its length
        # bytes, most of them one match
        zs = len(raw) // 255 + 64
        for target in (-1, 0):
            for k in range(zs - 9):
                lit = len(raw) + 1 + k
                length = (1 + (lit - 15) // 255 + 1 + lit + 2 + (zs - k - 24) // 255 + 1 + 1 + 5)
                if length - (len(raw) + 1 + zs) == target:
                    body = lz4_encode([(raw + b"\0" * (k + 1), 1, zs - k - 5), (b"\0" * 5, None, None)])
                    if len(body) - (len(raw) + 1 + zs) == target:
                        add(tag, "lz4.stream_length", f"output {target:+d} bytes", packed(body, len(raw) + 1 + zs))
                    break
        first = seqs[0][0]
        if len(first) >= 4:
            other = [(struct.pack(">I", version ^ 1) + first[4:], seqs[0][1], seqs[0][2])] + seqs[1:]
            add(tag, "lz4.version", "decoded version differs", packed(lz4_encode(other), size))
    for tag in ("Gloc", "Feat", "Sill", "hmtx", "glyf", "loca"):
        t = get_table(font, tag)
        if t is None or len(t) < 8:
            continue
        for scheme in (0, 1, 2, 31):
            for n in (19, 20):
                d = bytearray((t + bytes(n))[:n])
                struct.pack_into(">I", d, 0, 0xFFFFFFFF)
                d[4] = d[4] & 0x07 | scheme << 3
                add(tag, "wrapper.scheme", f"version 0xFFFFFFFF, scheme {scheme}, {n} bytes", bytes(d))
        inner = struct.pack(">I", 0xFFFFFFFF) + t[4:] + b"\0"
        body = lz4_encode([(inner, 1, 35), (b"\0" * 5, None, None)])
        add(tag, "wrapper.lz4", "version 0xFFFFFFFF, LZ4 of the table",
            struct.pack(">II", 0xFFFFFFFF, 1 << 27 | (len(inner) + 40)) + body)
    return out


def agree(answer):
    if answer["type"] != "gr_load":
        return False
    g, f = answer["graphite2"], answer["fontvm"]
    return g["face"] == f["face"] and g["segment"] == f["segment"]


def verdict_text(v):
    if not v["face"]:
        return "refused"
    return "shapes" if v["segment"] else "accepted, segment fails"


def probe_record(job):
    """fvconform-gr-load's record of a job (font bytes or a function making
    them, text, right to left)."""
    make, text, rtl = job
    font = make() if callable(make) else make
    return struct.pack(f"<III{len(text)}I", len(font), len(text), RECORD_RTL if rtl else 0, *text) + bytes(font)


# --- fonts and texts ----------------------------------------------------------

def first_line(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n").lstrip("\ufeff")
            if line.strip():
                return line
    raise BadInput(f"text file {path} has no text")


def select_fonts(a, cfg):
    """[(font path, sample text, right to left)], in configuration order."""
    gr = cfg.get("graphite", {})

    def text_of(patterns):
        if a.text:
            return a.text
        texts = cfgmod.resolve_texts(ROOT, patterns[:1]) or cfgmod.resolve_texts(ROOT, gr.get("default_texts", [])[:1])
        if not texts:
            raise BadInput("no text to shape: no [graphite] default_texts in the configuration (use --text)")
        return first_line(texts[0])

    out = []
    if a.paths:
        for p in a.paths:
            p = os.path.abspath(p)
            if os.path.isdir(p):
                files = sorted(os.path.join(dp, n) for dp, _, ns in os.walk(p) for n in ns
                               if n.lower().endswith((".ttf", ".otf")))
            elif os.path.isfile(p):
                files = [p]
            else:
                raise BadInput(f"{p}: no such font file or folder")
            out += [(f, text_of([]), False) for f in files]
        return out
    wanted = cfgmod._font_filter([x.strip() for x in a.fonts.split(",")] if a.fonts else None)
    seen = set()
    for fs in gr.get("fonts", []):
        for f in cfgmod.resolve_fontset(ROOT, fs):
            if f in seen or (wanted and not wanted(fs.get("name", "?"), f)):
                continue
            seen.add(f)
            out.append((f, text_of(fs.get("texts", [])), bool(fs.get("rtl", False))))
    if not out:
        raise BadInput("no Graphite font matches" + (f" --fonts {a.fonts}" if a.fonts else ""))
    return out


# --- the sweep ----------------------------------------------------------------

def field_group(name):
    """pass3.range[2].first -> pass.range[].first: one summary row per kind
    of field."""
    return re.sub(r"\[g?\d+\]", "[]", re.sub(r"^pass\d+", "pass", name))


def sweep_font(path, text, rtl, variant, probes, a, swept_silf, out, stats):
    name = os.path.basename(path)
    try:
        with open(path, "rb") as fh:
            font = fh.read()
        if get_table(font, "Silf") is None:
            print(f"{name}: no Silf table (not a Graphite font), skipped", flush=True)
            return
        base = uncompressed(font)
        if variant == "collisions":
            base = switch_collisions_on(base)
        if variant == "sfnt":
            todo = spread(sfnt_mutations(base), a.limit)
            silf = None
        if variant == "compression":
            base = font   # the stream as the font stores it
            todo = spread(compression_mutations(font), a.limit)
            silf = None
        else:
            silf = get_table(base, "Silf")
        # A Silf table already swept pass by pass would repeat the same
        # bytes: its first and last pass are enough.  The collision variant
        # only adds load checks of the subtable header (its passes are the
        # plain sweep's), so it rewrites those two as well.
        if variant not in ("sfnt", "compression") and u32(silf, 0) < 0x20000:
            # graphite2 refuses Silf before 2.0 (Sophia Nubian's 1.0) and
            # so does fontvm: no field of it to sweep
            print(f"{name}: Silf version {u32(silf, 0) >> 16}.{u32(silf, 0) & 0xFFFF} "
                  "(graphite2 reads 2.0 and later), not swept", flush=True)
            return
        if variant not in ("sfnt", "compression"):
            every_pass = variant == "plain" and silf not in swept_silf
            swept_silf.add(silf)
            todo = spread(mutations(base, every_pass), a.limit)
    except BadInput as e:
        print(f"{name}: {e}, not swept", flush=True)
        return
    except (struct.error, IndexError, KeyError) as e:
        raise BadInput(f"{path}: cannot read its Graphite tables ({type(e).__name__}: {e})")
    codepoints = [ord(c) for c in text]
    label = name + {"collisions": " +collisions", "sfnt": " sfnt tables",
                    "compression": " compressed tables"}.get(variant, "")

    def rewritten(offset, size, value):
        def make():
            m = bytearray(base)
            m[offset:offset + size] = value.to_bytes(size, "big")
            return m
        return make

    (unmodified,) = ask_all(probes[:1], [(base, codepoints, rtl)], probe_record)
    record = {"font": path, "variant": variant, "table": "", "field": "(unmodified)",
              "offset": None, "size": 0, "original": None, "value": None}
    if not agree(unmodified):
        stats.disagree(record, unmodified)
        out(record, unmodified)
        print(f"{label}: the unmodified font already disagrees, not swept", flush=True)
        return
    # Both refusing the unmodified font is still worth sweeping: the
    # mutations that undo the reason (a flag, a version) must make both
    # accept it again.  Most collision variants are such fonts (collision
    # flags need Glat v3 octaboxes).
    refused = "" if unmodified["graphite2"]["face"] else "; both engines refuse the unmodified font"
    t0 = time.monotonic()
    before = stats.disagreements
    if variant in ("sfnt", "compression"):
        answers = ask_all(probes, [(make, codepoints, rtl) for _, _, _, make in todo], probe_record)
        for (table, kind, value, _), answer in zip(todo, answers):
            rec = {"font": path, "variant": variant, "table": table, "field": kind,
                   "offset": None, "size": 0, "original": None, "value": value}
            stats.count(rec, answer)
            out(rec, answer)
        print(f"{label}: {len(todo)} mutations, {stats.disagreements - before} disagreements "
              f"({time.monotonic() - t0:.1f} s{refused})", flush=True)
        return
    answers = ask_all(probes, [(rewritten(off, size, v), codepoints, rtl) for _, off, size, _, _, v in todo],
                      probe_record)
    directory = table_directory(base)
    for (table, off, size, field, original, value), answer in zip(todo, answers):
        rec = {"font": path, "variant": variant, "table": table, "field": field,
               "offset": off - directory[table][1], "size": size,
               "original": original, "value": value}
        stats.count(rec, answer)
        out(rec, answer)
    print(f"{label}: {len(todo)} mutations, {stats.disagreements - before} disagreements "
          f"({time.monotonic() - t0:.1f} s{refused})", flush=True)


class Stats:
    def __init__(self):
        self.by_field = defaultdict(lambda: [0, 0])        # (table, group) -> [agree, disagree]
        self.by_variant = defaultdict(lambda: [0, 0])      # variant -> [mutations, fonts]
        self.patterns = defaultdict(list)                  # what disagreed -> records
        self.disagreements = 0
        self.fonts = defaultdict(set)

    def count(self, rec, answer):
        ok = agree(answer)
        self.by_field[(rec["table"], field_group(rec["field"]))][0 if ok else 1] += 1
        self.by_variant[rec["variant"]][0] += 1
        self.fonts[rec["variant"]].add(rec["font"])
        if not ok:
            self.disagree(rec, answer)

    def disagree(self, rec, answer):
        self.disagreements += 1
        if answer["type"] == "crash":
            key = (field_group(rec["field"]), f"an engine crashed (status {answer['status']})", "")
        else:
            g, f = answer["graphite2"], answer["fontvm"]
            # without the byte offset, so that fonts group by the check that failed
            error = re.sub(r"@0x[0-9a-f]+", "", f["error"] or g["error"] or "", flags=re.I)[:70]
            key = (field_group(rec["field"]),
                   f"graphite2 {verdict_text(g)}, fontvm {verdict_text(f)}", error)
        self.patterns[key].append(rec)

    def report(self, seconds):
        print()
        print(f"{'table':5} {'field':40} {'mutations':>9} {'agree':>9} {'disagree':>9}")
        for (table, group), (ok, bad) in sorted(self.by_field.items()):
            print(f"{table:5} {group:40} {ok + bad:9d} {ok:9d} {bad:9d}")
        if self.patterns:
            print("\ndisagreements (field, verdicts, fontvm's or graphite2's error, count, first font):")
            for (group, verdicts, error), recs in sorted(self.patterns.items(), key=lambda kv: -len(kv[1])):
                r = recs[0]
                print(f"  {group}: {verdicts}: {error!r}: {len(recs)}, e.g. {os.path.basename(r['font'])} "
                      f"{r['field']} {r['original']} -> {r['value']}")
        parts = [f"{n:,} {'damaged' if v in ('sfnt', 'compression') else 'single-field mutations of'} "
                 f"{len(self.fonts[v])} font{'s' * (len(self.fonts[v]) != 1)}"
                 + {"collisions": " with collisions on", "sfnt": " at the sfnt tables",
                    "compression": " at graphite2's table wrapper"}.get(v, "")
                 for v, (n, _) in self.by_variant.items()]
        print(f"\nheader sweep: {' + '.join(parts) or 'nothing swept'}: "
              f"{self.disagreements:,} disagreements; {seconds:.0f} s")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*", metavar="FONT-OR-FOLDER",
                    help="fonts to sweep instead of the configured Graphite font sets")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "release"),
                    help=f"the build folder holding {PROBE} (default: build/release)")
    ap.add_argument("--config", default=os.path.join(ROOT, "conformance", "conform.toml"))
    ap.add_argument("--fonts", help="only these configured font sets or files (comma-separated)")
    ap.add_argument("--text", help="the sample text to shape, for every font")
    ap.add_argument("--collisions", action="store_true",
                    help="also sweep every font with collision avoidance switched on")
    ap.add_argument("--no-sfnt", action="store_true",
                    help="sweep the Graphite tables only (not the sfnt tables graphite2 reads)")
    ap.add_argument("--only-sfnt", action="store_true",
                    help="sweep the sfnt tables only (head, hhea, hmtx, maxp, cmap, glyf, loca, directory)")
    ap.add_argument("--only-compression", action="store_true",
                    help="only graphite2's table wrapper: compressed Silf/Glat streams re-encoded, "
                         "Gloc/Feat/Sill at version 0xFFFFFFFF with each scheme")
    ap.add_argument("--limit", type=int, default=0, metavar="N",
                    help="at most N mutations per font and variant, evenly spread (default: all)")
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
        print(f"header_sweep: {e}", file=sys.stderr)
        return 2

    def out(rec, answer):
        if out_file:
            row = dict(rec)
            row.update({k: answer[k] for k in answer if k != "type"})
            row["agree"] = agree(answer)
            out_file.write(json.dumps(row) + "\n")

    stats = Stats()
    probes = [Probe([exe], "gr_load") for _ in range(a.workers)]
    t0 = time.monotonic()
    try:
        variants = (["plain"] + (["collisions"] if a.collisions else [])
                    + ([] if a.no_sfnt else ["sfnt", "compression"]))
        if a.only_sfnt:
            variants = ["sfnt"]
        if a.only_compression:
            variants = ["compression"]
        for variant in variants:
            swept_silf = set()
            for path, text, rtl in fonts:
                sweep_font(path, text, rtl, variant, probes, a, swept_silf, out, stats)
    except (BadInput, RuntimeError) as e:   # RuntimeError: the probe rejected a record
        print(f"header_sweep: {e}", file=sys.stderr)
        return 2
    finally:
        for p in probes:
            p.close()
        if out_file:
            out_file.close()
    stats.report(time.monotonic() - t0)
    if not stats.by_variant and not stats.disagreements:
        print("header_sweep: none of the fonts is a Graphite font", file=sys.stderr)
        return 2
    return 1 if stats.disagreements else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
