"""Glyph outlines for the report's Graphite pictures: a glyph id of a font
as an SVG path in font units (y up), read with Debian's fontTools
(python3-fonttools: its glyf reader and SVGPathPen, composites resolved),
cached per font.  Without fontTools, or for a font it cannot read, every
answer is None and the report draws boxes instead."""

import os

try:
    from fontTools.pens.svgPathPen import SVGPathPen
    from fontTools.ttLib import TTFont
except ImportError:          # the report still works, with boxes
    TTFont = None


class Outlines:
    def __init__(self, root):
        self.root = root
        self.fonts = {}          # path -> (TTFont, glyph set) or None
        self.paths = {}          # (path, gid) -> str or None

    def _font(self, path):
        if path not in self.fonts:
            entry = None
            if TTFont is not None:
                full = path if os.path.isabs(path) else os.path.join(self.root, path)
                try:
                    f = TTFont(full, lazy=True, fontNumber=0)
                    entry = (f, f.getGlyphSet())
                except Exception:    # unreadable by fontTools: boxes
                    entry = None
            self.fonts[path] = entry
        return self.fonts[path]

    def path(self, font, gid):
        """The outline of glyph `gid` as an SVG path in font units, "" for
        an empty glyph, None when unknown."""
        key = (font, gid)
        if key not in self.paths:
            d = None
            entry = self._font(font)
            if entry is not None:
                f, gs = entry
                try:
                    name = f.getGlyphName(int(gid))
                    pen = SVGPathPen(gs)
                    gs[name].draw(pen)
                    d = pen.getCommands()
                except Exception:    # a gid past the font, a bad glyph
                    d = None
            self.paths[key] = d
        return self.paths[key]
