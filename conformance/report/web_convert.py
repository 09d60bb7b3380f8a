"""WOFF and WOFF2 copies of corpus fonts for a font set's `web` key
(conform.toml): the run compares them as web fonts, FreeType opening the
same .woff/.woff2 file that fontvm decodes.  Made with Debian's
python3-fonttools (WOFF2 with python3-brotli; glyf/loca transformed, as
fontTools writes by default) into build/web-fonts/SET/, and made again only
when the original is newer than the copy.
"""

import os

WEB_DIR = os.path.join("build", "web-fonts")
FLAVORS = ("woff", "woff2")
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
    out = os.path.join(root, WEB_DIR, set_name, f"{base}.{flavor}")
    if os.path.isfile(out) and os.path.getmtime(out) >= os.path.getmtime(path):
        return out
    try:
        from fontTools.ttLib import TTFont
        from fontTools.ttLib import woff2 as ft_woff2
        if flavor == "woff2":
            fast_brotli(ft_woff2)
    except ImportError as e:
        raise ConvertError(f"cannot make {flavor} fonts: {e} (apt-get install python3-fonttools python3-brotli)")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    tmp = out + ".part"
    try:
        font = TTFont(path, recalcBBoxes=False, recalcTimestamp=False)
        font.flavor = flavor
        font.save(tmp, reorderTables=False)
        os.replace(tmp, out)
    except Exception as e:  # noqa: BLE001 -- fontTools raises many kinds; the set is skipped with it
        if os.path.exists(tmp):
            os.remove(tmp)
        raise ConvertError(f"{os.path.basename(path)} as {flavor}: {type(e).__name__}: {e}")
    return out
