#!/usr/bin/env python3
"""Makes the WOFF/WOFF2 test fonts from installed corpus fonts, at test time
(Debian's python3-fonttools and python3-brotli), and a manifest for
test_sfnt_woff and web_fonts_freetype.py:

    web_fonts.py OUTDIR

    ok  FILE ORIGINAL FACES CONTAINER   a web font, the sfnt it came from
    bad FILE ERROR_NAME                 a malformed container, the fv_status
                                        name fontvm must answer

Well-formed: hinted TrueType fonts (Liberation Sans, DejaVu Sans, Noto
Sans, Noto Sans Myanmar) and a Graphite font (Padauk) as WOFF, as WOFF2
with glyf/loca transformed (fontTools' default) and as WOFF2 with hmtx
transformed too; a two-face TrueType Collection as a WOFF2 collection.
Malformed: each a single fault in an otherwise good file."""

import io
import os
import struct
import sys
import zlib

from fontTools.ttLib import TTFont, TTCollection
from fontTools.ttLib import woff2 as ft_woff2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import woff_build  # noqa: E402  (also makes fontTools' WOFF2 encoder compress fast)
from woff_build import table, with_table  # noqa: E402

FONTS = {
    "LiberationSans": "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
    "DejaVuSans": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "NotoSans": "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
    "NotoSansMyanmar": "/usr/share/fonts/truetype/noto/NotoSansMyanmar-Regular.ttf",
    "Padauk": "/usr/share/fonts/truetype/padauk/Padauk-Regular.ttf",
}
COLLECTION = ["/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
              "/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf"]


def woff2_bytes(src, transforms):
    out = io.BytesIO()
    ft_woff2.compress(src, out, transform_tables=transforms)
    return out.getvalue()


def woff1_bytes(src):
    f = TTFont(src, recalcBBoxes=False, recalcTimestamp=False)
    f.flavor = "woff"
    out = io.BytesIO()
    f.save(out, reorderTables=False)
    return out.getvalue()


def glyf_streams(data):
    """(header fields, [(offset, size)] of the seven streams) of a
    transformed glyf."""
    fields = struct.unpack(">HHHH7I", data[:36])
    pos, spans = 36, []
    for size in fields[4:]:
        spans.append((pos, size))
        pos += size
    return fields, spans


def find_glyph(glyf, want):
    """First glyph id whose nContours satisfies `want`."""
    fields, spans = glyf_streams(glyf)
    off = spans[0][0]
    for gid in range(fields[2]):
        n = struct.unpack(">h", glyf[off + 2 * gid:off + 2 * gid + 2])[0]
        if want(n):
            return gid
    raise ValueError("no such glyph")


def flip_bbox_bit(glyf, gid):
    fields, spans = glyf_streams(glyf)
    b = bytearray(glyf)
    b[spans[5][0] + gid // 8] ^= 0x80 >> (gid % 8)
    return bytes(b)


def woff2_malformed(good, hmtx_good):
    w = woff_build.Woff2.parse(good)
    glyf = table(w, "glyf").data
    cases = {}
    cases["w2-truncated"] = (good[:len(good) // 2], "truncated")
    cases["w2-truncated-header"] = (good[:40], "truncated")
    cases["w2-length-short"] = (w.build(length_delta=-4), "woff_bad_header")
    comp = bytearray(brotli_stream(good))
    for i in range(len(comp) // 3, len(comp) // 3 + 64):
        comp[i] ^= 0x5A
    cases["w2-bad-brotli"] = (w.build(compressed=bytes(comp)), "woff_bad_compression")
    cases["w2-brotli-cut"] = (w.build(compressed=brotli_stream(good)[:-20]), "woff_bad_compression")
    first = w.tables[0]
    cases["w2-origlength-plus"] = (with_table(w, first.tag, orig_length=first.orig_length + 1).build(),
                                   "woff_bad_compression")
    cases["w2-origlength-minus"] = (with_table(w, first.tag, orig_length=first.orig_length - 1).build(),
                                    "woff_bad_compression")
    cases["w2-huge-origlength"] = (with_table(w, first.tag, orig_length=0x7FFFFFFF).build(), "woff_too_large")
    cases["w2-huge-transformlength"] = (with_table(w, "glyf", transform_length=0xFFFFFFF).build(),
                                        "woff_too_large")
    cases["w2-base128-leading-zero"] = (w.build(leading_zero_first=True), "woff_bad_directory")
    cases["w2-unknown-transform"] = (with_table(w, "cmap", version=1, transform_length=len(table(w, "cmap").data)).build(),
                                     "woff_bad_directory")
    cases["w2-loca-transformlength"] = (with_table(w, "loca", transform_length=4, data=b"\0" * 4).build(),
                                        "woff_bad_directory")
    dup = woff_build.Woff2(w.flavor, w.tables + [w.tables[0]])
    cases["w2-duplicate-table"] = (dup.build(), "woff_bad_directory")
    cases["w2-glyf-without-loca"] = (with_table(w, "loca", version=3, orig_length=0).build(),
                                     "woff2_bad_transform")

    def glyf_variant(data):
        return with_table(w, "glyf", data=data, transform_length=len(data)).build()
    g = bytearray(glyf)
    g[6:8] = struct.pack(">H", 1 - struct.unpack(">H", glyf[6:8])[0])
    cases["w2-glyf-index-format-vs-head"] = (glyf_variant(bytes(g)), "woff2_bad_transform")
    g = bytearray(glyf)
    g[4:6] = struct.pack(">H", 0xFFFF)
    cases["w2-glyf-too-many-glyphs"] = (glyf_variant(bytes(g)), "woff2_bad_transform")
    g = bytearray(glyf)
    g[8:12] = struct.pack(">I", 0x7FFFFFFF)
    cases["w2-glyf-stream-size"] = (glyf_variant(bytes(g)), "woff2_bad_transform")
    cases["w2-glyf-empty-with-bbox"] = (glyf_variant(flip_bbox_bit(glyf, find_glyph(glyf, lambda n: n == 0))),
                                        "woff2_bad_transform")
    cases["w2-glyf-composite-without-bbox"] = (
        glyf_variant(flip_bbox_bit(glyf, find_glyph(glyf, lambda n: n == -1))), "woff2_bad_transform")
    cases["w2-glyf-cut"] = (glyf_variant(glyf[:len(glyf) // 2]), "woff2_bad_transform")
    g = bytearray(glyf)
    fields, spans = glyf_streams(glyf)
    g[spans[0][0]:spans[0][0] + 2] = struct.pack(">h", -2)
    cases["w2-glyf-ncontours-minus-2"] = (glyf_variant(bytes(g)), "woff2_bad_transform")

    h = woff_build.Woff2.parse(hmtx_good)
    hmtx = table(h, "hmtx").data
    for flags, name in ((0, "w2-hmtx-flags-zero"), (0x07, "w2-hmtx-flags-reserved")):
        cases[name] = (with_table(h, "hmtx", data=bytes([flags]) + hmtx[1:]).build(), "woff2_bad_transform")
    return cases


def accepted_as_freetype_does(woff2_good, woff1_good):
    """Departures from the specs that FreeType 2.12.1 accepts, and fontvm
    with it (COMPAT(freetype) in vm/sfnt/woff*.c): each decodes to the
    original font.  The others, and FreeType's verdict on every malformed
    container, are tests/sfnt/woff_sweep.py's."""
    w = woff_build.Woff2.parse(woff2_good)
    glyf = table(w, "glyf").data
    g = bytearray(glyf)
    g[6:8] = struct.pack(">H", 2)
    b = bytearray(woff1_good)
    struct.pack_into(">H", b, 14, 1)
    return {"w2-reserved": w.build(reserved=1),
            "w2-glyf-index-format-2": with_table(w, "glyf", data=bytes(g), transform_length=len(g)).build(),
            "w1-reserved": bytes(b)}


def brotli_stream(data):
    w = woff_build.Woff2.parse(data)
    start = 48 + len(w.directory())
    n = struct.unpack(">I", data[20:24])[0]
    return data[start:start + n]


def collection_malformed(good):
    w = woff_build.Woff2.parse(good)
    version, fonts = w.collection
    cases = {}
    cases["w2c-version"] = (woff_build.Woff2(w.flavor, w.tables, (0x00030000, fonts)).build(),
                            "woff2_bad_collection")
    cases["w2c-no-fonts"] = (woff_build.Woff2(w.flavor, w.tables, (version, [])).build(),
                             "woff2_bad_collection")
    bad = [(fonts[0][0], fonts[0][1][:-1] + [len(w.tables) + 5])] + fonts[1:]
    cases["w2c-index-beyond"] = (woff_build.Woff2(w.flavor, w.tables, (version, bad)).build(),
                                 "woff2_bad_collection")
    bad = [(fonts[0][0], fonts[0][1] + [fonts[0][1][0]])] + fonts[1:]
    cases["w2c-duplicate-tag"] = (woff_build.Woff2(w.flavor, w.tables, (version, bad)).build(),
                                  "woff2_bad_collection")
    return cases


def woff1_malformed(good):
    flavor, length, num = struct.unpack(">IIH", good[4:14])
    entries = [list(struct.unpack(">4sIIII", good[44 + 20 * i:64 + 20 * i])) for i in range(num)]

    def rebuild(header_changes=None, entry_changes=None, swap=False):
        b = bytearray(good)
        for off, fmt, v in header_changes or []:
            struct.pack_into(fmt, b, off, v)
        es = [list(e) for e in entries]
        for i, field, v in entry_changes or []:
            es[i][field] = v
        if swap:
            es[0], es[1] = es[1], es[0]
        for i, e in enumerate(es):
            struct.pack_into(">4sIIII", b, 44 + 20 * i, *e)
        return bytes(b)
    compressed = next(i for i, e in enumerate(entries) if e[2] < e[3])
    cases = {}
    cases["w1-truncated"] = (good[:len(good) // 2], "truncated")
    cases["w1-truncated-header"] = (good[:30], "truncated")
    cases["w1-length-short"] = (rebuild([(8, ">I", length - 4)]), "woff_bad_header")
    cases["w1-collection-flavor"] = (rebuild([(4, ">4s", b"ttcf")]), "woff_bad_header")
    cases["w1-huge-total"] = (rebuild([(16, ">I", 0xFFFFFFF0)]), "woff_too_large")
    cases["w1-small-total"] = (rebuild([(16, ">I", 100)]), "woff_too_large")
    cases["w1-complength-over-origlength"] = (rebuild(entry_changes=[(compressed, 3, entries[compressed][2] - 1)]),
                                              "woff_bad_directory")
    cases["w1-unsorted"] = (rebuild(swap=True), "woff_bad_directory")
    cases["w1-offset-beyond"] = (rebuild(entry_changes=[(0, 1, length - 2)]), "truncated")
    cases["w1-origlength-plus"] = (rebuild([(16, ">I", struct.unpack(">I", good[16:20])[0] + 4)],
                                           [(compressed, 3, entries[compressed][3] + 1)]), "woff_bad_header")
    b = bytearray(good)
    off, clen = entries[compressed][1], entries[compressed][2]
    for i in range(off + clen // 2, off + clen // 2 + 16):
        b[i] ^= 0x5A
    cases["w1-bad-zlib"] = (bytes(b), "woff_bad_compression")
    return cases


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    manifest = []

    def write(name, data):
        path = os.path.join(out, name)
        with open(path, "wb") as fh:
            fh.write(data)
        return path

    good = {}
    for name, src in FONTS.items():
        if not os.path.exists(src):
            sys.exit("web_fonts.py: corpus font missing: " + src)
        for suffix, data, kind in (
                (".woff", woff1_bytes(src), "woff"),
                (".woff2", woff2_bytes(src, {"glyf", "loca"}), "woff2"),
                (".hmtx.woff2", woff2_bytes(src, {"glyf", "loca", "hmtx"}), "woff2")):
            path = write(name + suffix, data)
            good[name + suffix] = data
            manifest.append("ok %s %s 1 %s" % (path, src, kind))

    ttc = TTCollection()
    ttc.fonts = [TTFont(p) for p in COLLECTION]
    ttc_path = os.path.join(out, "LiberationSansPair.ttc")
    ttc.save(ttc_path)
    with open(ttc_path, "rb") as fh:
        collection = woff_build.collection_woff2(fh.read()).build()
    manifest.append("ok %s %s 2 woff2" % (write("LiberationSansPair.woff2", collection), ttc_path))

    for name, data in sorted(accepted_as_freetype_does(good["LiberationSans.woff2"],
                                                        good["LiberationSans.woff"]).items()):
        kind = "woff2" if name.startswith("w2") else "woff"
        path = write("accepted-" + name + "." + kind, data)
        manifest.append("ok %s %s 1 %s" % (path, FONTS["LiberationSans"], kind))

    bad = {}
    bad.update(woff2_malformed(good["LiberationSans.woff2"], good["LiberationSans.hmtx.woff2"]))
    bad.update(collection_malformed(collection))
    bad.update(woff1_malformed(good["LiberationSans.woff"]))
    for name, (data, error) in sorted(bad.items()):
        manifest.append("bad %s %s" % (write("bad-" + name + (".woff2" if name.startswith("w2") else ".woff"), data),
                                       error))
    with open(os.path.join(out, "manifest.txt"), "w") as fh:
        fh.write("\n".join(manifest) + "\n")
    print("web_fonts.py: %d web fonts, %d malformed containers in %s" % (
        sum(1 for m in manifest if m.startswith("ok")), len(bad), out))


if __name__ == "__main__":
    main()
