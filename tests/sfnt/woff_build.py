"""WOFF 2.0 containers, read and written field by field (W3C WOFF2 sections
3-4), so tests and fuzz seeds can make well-formed files fontTools does not
(collections) and malformed ones no encoder would (bad lengths, bad
transforms).  Transformed glyf/hmtx bytes come from fontTools' encoder;
this module only moves them between containers.

Used by tests/sfnt/web_fonts.py and fuzz/make_seeds.py."""

import os
import struct
import sys

import brotli
from fontTools.ttLib import woff2 as ft_woff2

KNOWN_TAGS = list(ft_woff2.woff2KnownTags)

# Brotli's quality changes the compressed size only, never what decodes:
# test fonts are compressed at web_convert.BROTLI_QUALITY (5), not the
# default 11, which is tens of times slower on a 700 KB font.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "conformance", "report"))
import web_convert  # noqa: E402

_FastBrotli = web_convert.fast_brotli(ft_woff2)


def base128(v, leading_zero=False):
    out = [v & 0x7F]
    v >>= 7
    while v:
        out.append(0x80 | (v & 0x7F))
        v >>= 7
    if leading_zero:
        out.append(0x80)
    return bytes(reversed(out))


def read_base128(b, pos):
    v = 0
    for _ in range(5):
        c = b[pos]
        pos += 1
        v = v << 7 | (c & 0x7F)
        if not c & 0x80:
            return v, pos
    raise ValueError("bad UIntBase128")


def u255(v):
    if v < 253:
        return bytes([v])
    if v < 506:
        return bytes([255, v - 253])
    if v < 762:
        return bytes([254, v - 506])
    return bytes([253]) + struct.pack(">H", v)


def read_u255(b, pos):
    c = b[pos]
    if c == 253:
        return struct.unpack(">H", b[pos + 1:pos + 3])[0], pos + 3
    if c in (254, 255):
        return b[pos + 1] + (253 if c == 255 else 506), pos + 2
    return c, pos + 1


class Table:
    """One directory entry and its bytes in the decompressed stream."""

    def __init__(self, tag, version, orig_length, data, transform_length=None):
        self.tag, self.version, self.orig_length = tag, version, orig_length
        self.data, self.transform_length = data, transform_length

    def transformed(self):
        if self.tag in ("glyf", "loca"):
            return self.version == 0
        return self.version != 0


class Woff2:
    """flavor, tables (directory order), collection (None or
    (version, [(flavor, [table indices])]))."""

    def __init__(self, flavor, tables, collection=None):
        self.flavor, self.tables, self.collection = flavor, tables, collection

    @classmethod
    def parse(cls, data):
        sig, flavor, length, num_tables = struct.unpack(">4sIIH", data[:14])
        assert sig == b"wOF2"
        compressed_len = struct.unpack(">I", data[20:24])[0]
        pos, entries = 48, []
        for _ in range(num_tables):
            flags = data[pos]
            pos += 1
            if flags & 0x3F == 63:
                tag = data[pos:pos + 4].decode("latin-1")
                pos += 4
            else:
                tag = KNOWN_TAGS[flags & 0x3F]
            orig, pos = read_base128(data, pos)
            t = Table(tag, flags >> 6, orig, b"")
            if t.transformed():
                t.transform_length, pos = read_base128(data, pos)
            entries.append(t)
        collection = None
        if flavor == 0x74746366:  # 'ttcf'
            version = struct.unpack(">I", data[pos:pos + 4])[0]
            num_fonts, pos = read_u255(data, pos + 4)
            fonts = []
            for _ in range(num_fonts):
                n, pos = read_u255(data, pos)
                fl = struct.unpack(">I", data[pos:pos + 4])[0]
                pos += 4
                idx = []
                for _ in range(n):
                    i, pos = read_u255(data, pos)
                    idx.append(i)
                fonts.append((fl, idx))
            collection = (version, fonts)
        stream = brotli.decompress(data[pos:pos + compressed_len])
        at = 0
        for t in entries:
            n = t.transform_length if t.transformed() else t.orig_length
            t.data = stream[at:at + n]
            at += n
        return cls(flavor, entries, collection)

    def directory(self, leading_zero_first=False):
        out = b""
        for i, t in enumerate(self.tables):
            idx = KNOWN_TAGS.index(t.tag) if t.tag in KNOWN_TAGS else 63
            out += bytes([idx | t.version << 6])
            if idx == 63:
                out += t.tag.encode("latin-1")
            out += base128(t.orig_length, leading_zero_first and i == 0)
            if t.transformed():
                tl = t.transform_length if t.transform_length is not None else len(t.data)
                out += base128(tl)
        if self.collection:
            version, fonts = self.collection
            out += struct.pack(">I", version) + u255(len(fonts))
            for fl, idx in fonts:
                out += u255(len(idx)) + struct.pack(">I", fl) + b"".join(u255(i) for i in idx)
        return out

    def build(self, reserved=0, compressed=None, leading_zero_first=False, length_delta=0):
        """The file; `compressed` replaces the brotli stream."""
        directory = self.directory(leading_zero_first)
        if compressed is None:
            compressed = _FastBrotli.compress(b"".join(t.data for t in self.tables), mode=brotli.MODE_FONT)
        body = directory + compressed
        body += b"\0" * (-len(body) % 4)
        length = 48 + len(body)
        total_sfnt = 12 + 16 * len(self.tables) + sum((t.orig_length + 3) & ~3 for t in self.tables)
        header = struct.pack(">4sIIHHIIHHIIIII", b"wOF2", self.flavor, length + length_delta,
                             len(self.tables), reserved, total_sfnt, len(compressed), 1, 0,
                             0, 0, 0, 0, 0)
        return header + body


def with_table(w, tag, **changes):
    """A copy of w whose table `tag` has the given attributes changed."""
    tables = []
    for t in w.tables:
        t2 = Table(t.tag, t.version, t.orig_length, t.data, t.transform_length)
        if t.tag == tag:
            for k, v in changes.items():
                setattr(t2, k, v)
        tables.append(t2)
    return Woff2(w.flavor, tables, w.collection)


def table(w, tag):
    """The table `tag` of w, or None."""
    return next((t for t in w.tables if t.tag == tag), None)


def sfnt_tables(data, offset=0):
    """[(tag, bytes)] of the sfnt directory at `offset` (a font or a face of
    a collection)."""
    num = struct.unpack(">H", data[offset + 4:offset + 6])[0]
    out = []
    for i in range(num):
        tag, _, off, length = struct.unpack(">4sIII", data[offset + 12 + 16 * i:offset + 28 + 16 * i])
        out.append((tag.decode("latin-1"), off, length))
    return struct.unpack(">I", data[offset:offset + 4])[0], out


def collection_woff2(ttc):
    """A WOFF2 collection of a TrueType Collection's bytes, tables shared as
    the collection shares them, every table stored with the null transform
    (glyf/loca version 3)."""
    num_fonts = struct.unpack(">I", ttc[8:12])[0]
    offsets = struct.unpack(">%dI" % num_fonts, ttc[12:12 + 4 * num_fonts])
    tables, index_of, fonts = [], {}, []
    for off in offsets:
        flavor, entries = sfnt_tables(ttc, off)
        # Spec 5.1: a font's loca follows its glyf in the table directory
        # (FreeType 2.12.1 refuses a collection otherwise).
        entries.sort(key=lambda e: (e[0] == "loca", e[0]))
        if any(e[0] == "loca" for e in entries):
            loca = entries.pop()
            entries.insert(next(i for i, e in enumerate(entries) if e[0] == "glyf") + 1, loca)
        idx = []
        for tag, toff, length in entries:
            key = (toff, length)
            if key not in index_of:
                index_of[key] = len(tables)
                tables.append(Table(tag, 3 if tag in ("glyf", "loca") else 0, length,
                                    ttc[toff:toff + length]))
            idx.append(index_of[key])
        fonts.append((flavor, idx))
    version = struct.unpack(">I", ttc[4:8])[0]
    return Woff2(0x74746366, tables, (version, fonts))
