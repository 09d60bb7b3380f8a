#!/usr/bin/env python3
"""Malformed WOFF and WOFF2 containers: fontvm's decisions against FreeType
2.12.1's (Debian's build decodes WOFF with zlib and WOFF2 with brotli).

    woff_sweep.py FVCONFORM_TT_LOAD SOURCE_DIR [--list] [--keep DIR]

Good containers are made from repository fonts with fontTools (WOFF, WOFF2
with glyf/loca transformed, WOFF2 with hmtx transformed too, a WOFF2
collection) and damaged one way at a time: truncations, every header field,
every directory entry's lengths, offsets and transform bits, byte flips in
the zlib and brotli streams, the transformed glyf header and stream sizes,
the transformed hmtx flags and length, head.indexToLocFormat against
indexFormat, and collection headers.  Each is streamed through
fvconform-tt-load (conformance/tt/fvconform_tt_load.c): both engines open
it, set 12 ppem up in v35 and v40 and load a sample of glyphs.  A mutation
agrees when both take the same face and size decisions and every glyph is
identical or fails in both.

Exit status: 0 every mutation agrees (but those in KNOWN, each with its
reason); 1 another disagreement (each is printed with both engines'
answers), or a KNOWN one that agrees now; 2 bad usage.  --keep DIR writes
every container.
"""

import io
import os
import struct
import subprocess
import sys
import zlib

from fontTools.ttLib import TTCollection, TTFont

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import woff_build  # noqa: E402  (fast brotli for fontTools' encoder too)
from web_fonts import woff1_bytes as woff1, woff2_bytes as woff2  # noqa: E402
from woff_build import table, with_table  # noqa: E402

# Repository fonts (corpus/peer/graphite2/fonts): general.ttf is hinted with
# long loca offsets, small.ttf has short ones; both are small, so a few
# thousand mutations take seconds.
HINTED = "corpus/peer/graphite2/fonts/general.ttf"
SHORT_LOCA = "corpus/peer/graphite2/fonts/small.ttf"
PAIR = ["corpus/peer/graphite2/fonts/general.ttf", "corpus/peer/graphite2/fonts/grtest1gr.ttf"]


# Disagreements kept on purpose, each with its reason (the sweep fails on
# any other, and on one of these that no longer happens).
KNOWN = {
    # FreeType reads the last glyph's data one byte past a glyph stream
    # declared one byte short in small.ttf (whose bbox stream follows),
    # and refuses the same cut in general.ttf; fontvm bounds the glyph
    # stream by its declared size in both and refuses.
    "short-loca.woff2-glyf-stream3=0x96": "glyph stream read past its declared size",
}


def spread(n, count):
    """`count` positions spread over range(n), ends included."""
    if n <= count:
        return list(range(n))
    return sorted({round(i * (n - 1) / (count - 1)) for i in range(count)})


def put(data, off, fmt, value):
    b = bytearray(data)
    struct.pack_into(fmt, b, off, value & ((1 << (8 * struct.calcsize(fmt))) - 1))
    return bytes(b)


def flip(data, positions, mask=0x5A):
    b = bytearray(data)
    for p in positions:
        if 0 <= p < len(b):
            b[p] ^= mask
    return bytes(b)


def values_of(v, size):
    top = (1 << (8 * size)) - 1
    return sorted({0, 1, (v + 1) & top, (v - 1) & top, top, top >> 1, (v + 4) & top, (v - 4) & top} - {v})


# --- WOFF 1.0 ----------------------------------------------------------------

WOFF1_HEADER = [("signature", 0, ">I"), ("flavor", 4, ">I"), ("length", 8, ">I"), ("numTables", 12, ">H"),
                ("reserved", 14, ">H"), ("totalSfntSize", 16, ">I"), ("majorVersion", 20, ">H"),
                ("minorVersion", 22, ">H"), ("metaOffset", 24, ">I"), ("metaLength", 28, ">I"),
                ("metaOrigLength", 32, ">I"), ("privOffset", 36, ">I"), ("privLength", 40, ">I")]


def container_mutations(name, good, header):
    """Trailing bytes, truncations (with the length field as it was and
    as the cut file's), and every header field set to its neighbours and
    extremes: the same for WOFF and WOFF2."""
    out = {}
    for extra in (1, 4):   # bytes after the last block, the length field counting them
        out[f"{name}-trailing{extra}"] = put(good + b"\0" * extra, 8, ">I", len(good) + extra)
    for n in spread(len(good), 24):
        out[f"{name}-cut{n}"] = good[:n]
        out[f"{name}-cut{n}-length"] = put(good[:n], 8, ">I", n) if n >= 12 else good[:n]
    for field, off, fmt in header:
        v = struct.unpack_from(fmt, good, off)[0]
        for nv in values_of(v, struct.calcsize(fmt)):
            out[f"{name}-{field}={nv:#x}"] = put(good, off, fmt, nv)
    return out


def woff1_mutations(name, good):
    out = container_mutations(name, good, WOFF1_HEADER)
    num = struct.unpack_from(">H", good, 12)[0]
    for i in range(num):
        e = 44 + 20 * i
        tag, off, clen, olen, _ = struct.unpack_from(">4sIIII", good, e)
        t = tag.decode("latin-1").strip()
        for field, fo, v in (("offset", 4, off), ("compLength", 8, clen), ("origLength", 12, olen)):
            for nv in values_of(v, 4):
                out[f"{name}-{t}-{field}={nv:#x}"] = put(good, e + fo, ">I", nv)
        out[f"{name}-{t}-checksum"] = put(good, e + 16, ">I", struct.unpack_from(">I", good, e + 16)[0] ^ 1)
        out[f"{name}-{t}-tag"] = put(good, e, ">I", 0x7A7A7A7A)
        if clen < olen:
            # The zlib stream: its header, its middle, its Adler-32.
            for where, pos in (("head", off), ("middle", off + clen // 2), ("adler", off + clen - 2)):
                out[f"{name}-{t}-zlib-{where}"] = flip(good, [pos, pos + 1])
        else:
            # A stored table replaced by zlib data of the wrong length.
            data = good[off:off + clen]
            z = zlib.compress(data + b"\0\0")
            if len(z) < clen:
                b = bytearray(good)
                b[off:off + len(z)] = z
                out[f"{name}-{t}-zlib-too-long"] = put(bytes(b), e + 8, ">I", len(z))
    return out


# --- WOFF 2.0 ----------------------------------------------------------------

WOFF2_HEADER = [("signature", 0, ">I"), ("flavor", 4, ">I"), ("length", 8, ">I"), ("numTables", 12, ">H"),
                ("reserved", 14, ">H"), ("totalSfntSize", 16, ">I"), ("totalCompressedSize", 20, ">I"),
                ("majorVersion", 24, ">H"), ("minorVersion", 26, ">H"), ("metaOffset", 28, ">I"),
                ("metaLength", 32, ">I"), ("metaOrigLength", 36, ">I"), ("privOffset", 40, ">I"),
                ("privLength", 44, ">I")]


def woff2_mutations(name, good):
    out = container_mutations(name, good, WOFF2_HEADER)
    w = woff_build.Woff2.parse(good)
    start = 48 + len(w.directory())
    clen = struct.unpack_from(">I", good, 20)[0]
    for pos in spread(clen, 12):
        out[f"{name}-brotli@{pos}"] = flip(good, [start + pos])
    out[f"{name}-brotli-cut"] = w.build(compressed=good[start:start + clen][:-8])
    out[f"{name}-brotli-extra"] = w.build(compressed=good[start:start + clen] + b"\0" * 8)
    for t in w.tables:
        for nv in values_of(t.orig_length, 4):
            if nv < 0x10000000:   # totalSfntSize (their sum) must fit the header
                out[f"{name}-{t.tag.strip()}-origLength={nv:#x}"] = with_table(w, t.tag, orig_length=nv).build()
        if t.transformed():
            for nv in values_of(len(t.data), 4):
                out[f"{name}-{t.tag.strip()}-transformLength={nv:#x}"] = \
                    with_table(w, t.tag, transform_length=nv).build()
        for version in range(4):
            if version != t.version:
                out[f"{name}-{t.tag.strip()}-version{version}"] = with_table(w, t.tag, version=version).build()
        if t.data:
            cut = t.data[:len(t.data) // 2]
            out[f"{name}-{t.tag.strip()}-half"] = with_table(
                w, t.tag, data=cut, **({"transform_length": len(cut)} if t.transformed() else
                                       {"orig_length": len(cut)})).build()
    glyf = table(w, "glyf")
    if glyf is not None and glyf.transformed():
        def variant(data):
            return with_table(w, "glyf", data=data, transform_length=len(data)).build()
        for field, off in (("reserved", 0), ("optionFlags", 2), ("numGlyphs", 4), ("indexFormat", 6)):
            v = struct.unpack_from(">H", glyf.data, off)[0]
            for nv in sorted({0, 1, 2, 0xFFFF, (v + 1) & 0xFFFF, (v - 1) & 0xFFFF} - {v}):
                out[f"{name}-glyf-{field}={nv:#x}"] = variant(put(glyf.data, off, ">H", nv))
        for s in range(7):
            off = 8 + 4 * s
            v = struct.unpack_from(">I", glyf.data, off)[0]
            for nv in values_of(v, 4):
                out[f"{name}-glyf-stream{s}={nv:#x}"] = variant(put(glyf.data, off, ">I", nv))
    hmtx = table(w, "hmtx")
    if hmtx is not None and hmtx.transformed():
        for flags in range(8):
            if flags != hmtx.data[0]:
                out[f"{name}-hmtx-flags{flags}"] = with_table(w, "hmtx", data=bytes([flags]) + hmtx.data[1:]).build()
        for keep in spread(len(hmtx.data), 6)[:-1]:
            out[f"{name}-hmtx-keep{keep}"] = with_table(w, "hmtx", data=hmtx.data[:keep],
                                                        transform_length=keep).build()
    head = table(w, "head")
    if head is not None and glyf is not None and glyf.transformed():
        fmt = struct.unpack_from(">h", head.data, 50)[0]
        out[f"{name}-head-indexToLocFormat{1 - fmt}"] = with_table(
            w, "head", data=put(head.data, 50, ">h", 1 - fmt)).build()
        idx = struct.unpack_from(">H", glyf.data, 6)[0]
        both = with_table(w, "head", data=put(head.data, 50, ">h", 1 - fmt))
        out[f"{name}-head-and-glyf-indexFormat{1 - fmt}"] = with_table(
            both, "glyf", data=put(glyf.data, 6, ">H", 1 - idx), transform_length=len(glyf.data)).build()
    return out


def collection_mutations(name, good):
    out = {}
    w = woff_build.Woff2.parse(good)
    version, fonts = w.collection

    def coll(v, fs):
        return woff_build.Woff2(w.flavor, w.tables, (v, fs)).build()
    for v in (0, 0x00010000, 0x00030000, 0xFFFFFFFF):
        if v != version:
            out[f"{name}-version{v:#x}"] = coll(v, fonts)
    out[f"{name}-no-fonts"] = coll(version, [])
    out[f"{name}-one-font"] = coll(version, fonts[:1])
    out[f"{name}-font-twice"] = coll(version, fonts + fonts[:1])
    out[f"{name}-flavor-ttcf"] = coll(version, [(0x74746366, fonts[0][1])] + fonts[1:])
    out[f"{name}-flavor-otto"] = coll(version, [(0x4F54544F, fonts[0][1])] + fonts[1:])
    out[f"{name}-index-beyond"] = coll(version, [(fonts[0][0], fonts[0][1][:-1] + [len(w.tables)])] + fonts[1:])
    out[f"{name}-duplicate-index"] = coll(version, [(fonts[0][0], fonts[0][1] + fonts[0][1][:1])] + fonts[1:])
    out[f"{name}-no-tables"] = coll(version, [(fonts[0][0], [])] + fonts[1:])
    out[f"{name}-missing-glyf"] = coll(version, [(fonts[0][0], [i for i in fonts[0][1]
                                                                 if w.tables[i].tag != "glyf"])] + fonts[1:])
    return out


def good_containers(src):
    os.chdir(src)
    good = {"hinted.woff": woff1(HINTED),
            "hinted.woff2": woff2(HINTED, {"glyf", "loca"}),
            "hinted.hmtx.woff2": woff2(HINTED, {"glyf", "loca", "hmtx"}),
            "short-loca.woff2": woff2(SHORT_LOCA, {"glyf", "loca"})}
    ttc = TTCollection()
    ttc.fonts = [TTFont(p) for p in PAIR]
    b = io.BytesIO()
    ttc.save(b)
    good["pair.woff2"] = woff_build.collection_woff2(b.getvalue()).build()
    return good


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    probe, src = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    keep = argv[argv.index("--keep") + 1] if "--keep" in argv else None
    good = good_containers(src)
    cases = dict(good)
    for name, data in good.items():
        if name.endswith(".woff"):
            cases.update(woff1_mutations(name, data))
        elif name.startswith("pair"):
            cases.update(collection_mutations(name, data))
        else:
            cases.update(woff2_mutations(name, data))
    if "--list" in argv:
        print("\n".join(sorted(cases)))
        return 0
    if keep:
        os.makedirs(keep, exist_ok=True)
        for name, data in cases.items():
            with open(os.path.join(keep, name.replace("/", "_")), "wb") as f:
                f.write(data)
    p = subprocess.Popen([probe, "--sizes", "12", "--modes", "v35,v40", "--glyphs", "16"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=False)
    disagreements, opened, glyph_cases = [], 0, 0
    import json
    for name in sorted(cases):
        data = cases[name]
        p.stdin.write(struct.pack("<I", len(data)) + data)
        p.stdin.flush()
        line = p.stdout.readline()
        if not line:
            print(f"woff sweep: {probe} stopped at {name}", file=sys.stderr)
            return 1
        r = json.loads(line)
        if r.get("type") != "tt_load":
            print(f"woff sweep: {name}: {r}", file=sys.stderr)
            return 1
        face = r["face"]
        opened += face["freetype"] is None and face["fontvm"] is None
        glyph_cases += r["glyphs"]["cases"]
        if not r["agree"]:
            disagreements.append((name, face, r["first"]))
    p.stdin.close()
    p.wait()
    unexpected = [d for d in disagreements if d[0] not in KNOWN]
    for name, face, first in disagreements:
        why = f" (known: {KNOWN[name]})" if name in KNOWN else ""
        print(f"DISAGREE {name}: FreeType {face['freetype']}; fontvm {face['fontvm']}; "
              f"first glyph {first}{why}")
    gone = sorted(set(KNOWN) - {d[0] for d in disagreements})
    for name in gone:
        print(f"FIXED? {name} agrees now: take it out of KNOWN")
    print(f"woff sweep: {len(cases):,} containers ({opened:,} opened by both, {glyph_cases:,} glyph cases): "
          f"{len(unexpected)} disagreements, {len(disagreements) - len(unexpected)} known")
    return 1 if unexpected or gone else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
