"""WOFF and WOFF2 copies of corpus fonts for a font set's `web` key
(conform.toml): the run compares them as web fonts, FreeType opening the
same .woff/.woff2 file that fontvm decodes.  Made with Debian's
python3-fonttools (WOFF2 with python3-brotli; glyf/loca transformed, as
fontTools writes by default) into build/web-fonts/SET/, and made again only
when the original is newer than the copy.
"""

import os

WEB_DIR = os.path.join("build", "web-fonts")
# "woff2-hmtx": WOFF2 with hmtx transformed too, where fontTools can (every
# glyph's lsb equal to its xMin, or the monospaced ones'); otherwise
# fontTools stores hmtx as it is (hmtx_transformed says which).
FLAVORS = ("woff", "woff2", "woff2-hmtx")
SUFFIX = {"woff": ".woff", "woff2": ".woff2", "woff2-hmtx": ".hmtx.woff2"}
# Brotli's quality changes the compressed size only, never what decodes:
# quality 5 instead of fontTools' 11, which takes seconds per font.
BROTLI_QUALITY = 5


class ConvertError(Exception):
    """Why a set's web fonts cannot be made (the set is skipped)."""


def fast_brotli(ft_woff2):
    """Makes fontTools' WOFF2 encoder (the module ft_woff2) compress at
    BROTLI_QUALITY, and returns the brotli stand-in it uses (also for
    tests/sfnt/woff_build.py)."""
    import brotli

    class FastBrotli:
        error = brotli.error
        MODE_FONT, MODE_TEXT, MODE_GENERIC = brotli.MODE_FONT, brotli.MODE_TEXT, brotli.MODE_GENERIC
        decompress = staticmethod(brotli.decompress)

        @staticmethod
        def compress(data, **kw):
            kw["quality"] = BROTLI_QUALITY
            return brotli.compress(data, **kw)

    ft_woff2.brotli = FastBrotli
    return FastBrotli


def convert(root, set_name, path, flavor):
    """The path of `path` as a `flavor` ("woff" or "woff2") web font."""
    if flavor not in FLAVORS:
        raise ConvertError(f"web = {flavor!r}: one of {', '.join(FLAVORS)}")
    base = os.path.splitext(os.path.basename(path))[0]
    out = os.path.join(root, WEB_DIR, set_name, base + SUFFIX[flavor])
    if os.path.isfile(out) and os.path.getmtime(out) >= os.path.getmtime(path):
        return out
    try:
        from fontTools.ttLib import TTFont
        from fontTools.ttLib import woff2 as ft_woff2
        if flavor != "woff":
            fast_brotli(ft_woff2)
    except ImportError as e:
        raise ConvertError(f"cannot make {flavor} fonts: {e} (apt-get install python3-fonttools python3-brotli)")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    tmp = out + ".part"
    try:
        if flavor == "woff2-hmtx":
            ft_woff2.compress(path, tmp, transform_tables={"glyf", "loca", "hmtx"})
        else:
            font = TTFont(path, recalcBBoxes=False, recalcTimestamp=False)
            font.flavor = flavor
            font.save(tmp, reorderTables=False)
        os.replace(tmp, out)
    except Exception as e:  # noqa: BLE001 -- fontTools raises many kinds; the set is skipped with it
        if os.path.exists(tmp):
            os.remove(tmp)
        raise ConvertError(f"{os.path.basename(path)} as {flavor}: {type(e).__name__}: {e}")
    return out


def hmtx_transformed(path):
    """Whether the WOFF2 file at `path` stores hmtx transformed (its
    directory entry's transform version is not 0; W3C WOFF2 section 5.4)."""
    with open(path, "rb") as f:
        data = f.read(65536)
    if data[:4] != b"wOF2":
        return False
    num_tables = int.from_bytes(data[12:14], "big")
    pos = 48
    for _ in range(num_tables):
        flags = data[pos]
        pos += 1
        known = flags & 0x3F
        if known == 63:
            pos += 4
        version = flags >> 6
        for _ in range(2 if (known in (10, 11) and version == 0) or (known not in (10, 11) and version) else 1):
            while data[pos] & 0x80:   # UIntBase128: origLength, then transformLength
                pos += 1
            pos += 1
        if known == 3:   # hmtx in the known-tag table
            return version == 1
    return False
