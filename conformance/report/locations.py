"""Locations of a variable font for the conformance run: a font set's
`locations` list (conform.toml) expanded into the spellings that
`fvconform-tt --location` takes, one TrueType job per location.

Items of the list:
  "default"         the font as opened, no location set (for a variable
                    font its default instance, where FreeType treats
                    GETVARIATION as undefined); the record key has no
                    location
  "instances"       every named instance: instance=1 .. instance=N
  "axes"            each axis alone at the normalized values of AXIS_VALUES
                    (skrifa's comparison tool's -1, -0.32, 0, 0.42, 1), the
                    other axes at 0
  "corners"         every axis at -1 or 1, all combinations of the first
                    axes (at most MAX_CORNERS locations)
  "random:N[:SEED]" N locations, each axis uniform in -1..1 at 4 decimals,
                    from a generator seeded with SEED (default 1) and the
                    file's name, so every run and machine draws the same
  anything else     a literal location: "wght=0.42,wdth=-1" or "instance=3"

Locations given by axis values are compared as 16.16 coordinates (as the
runner rounds them): a location that two items both produce (the corner
wght=1 of a one-axis font and the axis value wght=1, or "0" on every axis)
runs once, under the first spelling.  Named instances are kept as given:
they take FreeType's named-instance path, even where an instance sits on an
axis value.
"""

import itertools
import random
import struct

AXIS_VALUES = (-1, -0.32, 0, 0.42, 1)
MAX_CORNERS = 16


class LocationError(ValueError):
    """A location list item that does not fit the font (exit code 2)."""


def fvar_axes(data, table):
    """([axis tags], number of named instances) from the fvar table at
    table = (offset, length) in data; ([], 0) when there is none or it is
    too short to read.  The runner checks the table properly: this only
    plans the jobs."""
    if table is None:
        return [], 0
    off, length = table
    end = min(len(data), off + length)
    if off < 0 or off + 16 > end:
        return [], 0
    axes_off, _, count, axis_size, instances, _ = struct.unpack_from(">HHHHHH", data, off + 4)
    tags = []
    for i in range(count):
        rec = off + axes_off + i * axis_size
        if axis_size < 20 or rec + 20 > end:
            return [], 0
        tags.append(data[rec:rec + 4].decode("latin-1"))
    return tags, instances


def _fixed(v):
    return int(v * 65536.0 + (-0.5 if v < 0 else 0.5))


def _spell(tag_values):
    return ",".join(f"{t}={v:g}" for t, v in tag_values)


def _parse_literal(item, tags, instances):
    """A literal location: ("instance", n) or the coordinate vector."""
    if item.startswith("instance="):
        try:
            n = int(item[len("instance="):])
        except ValueError:
            n = 0
        if not 1 <= n <= instances:
            raise LocationError(f"location {item!r}: the font has {instances} named instance(s)")
        return ("instance", n)
    coords = [0] * len(tags)
    for part in item.split(","):
        tag, eq, value = part.partition("=")
        try:
            v = float(value) if eq else None
        except ValueError:
            v = None
        if v is None or not -1.0 <= v <= 1.0:
            raise LocationError(f"location {item!r}: expected TAG=N,... (N in -1..1), instance=N, "
                                "or one of default, instances, axes, corners, random:N[:SEED]")
        if tag not in tags:
            raise LocationError(f"location {item!r}: the font has no axis {tag!r} (axes: {' '.join(tags)})")
        coords[tags.index(tag)] = _fixed(v)
    return tuple(coords)


def expand(items, tags, instances, font_name):
    """The location spellings of a font set's list for one font ("" is the
    font as opened).  Raises LocationError on an item that does not fit."""
    out, seen = [], set()

    def add(spelling, key):
        if key not in seen:
            seen.add(key)
            out.append(spelling)

    if not tags:
        if any(i != "default" for i in items):
            raise LocationError(f"{font_name}: locations for a font without axes (no usable fvar)")
        return [""]
    for item in items:
        if item == "default":
            add("", "default")
        elif item == "instances":
            for n in range(1, instances + 1):
                add(f"instance={n}", ("instance", n))
        elif item == "axes":
            for i, t in enumerate(tags):
                for v in AXIS_VALUES:
                    add(_spell([(t, v)]), tuple(_fixed(v) if k == i else 0 for k in range(len(tags))))
        elif item == "corners":
            k = 0
            while k < len(tags) and 2 ** (k + 1) <= MAX_CORNERS:
                k += 1
            for signs in itertools.product((-1, 1), repeat=k):
                add(_spell(zip(tags, signs)), tuple(_fixed(s) for s in signs) + (0,) * (len(tags) - k))
        elif item.startswith("random:"):
            parts = item.split(":")
            try:
                n = int(parts[1])
                seed = int(parts[2]) if len(parts) > 2 else 1
                if n < 0 or len(parts) > 3:
                    raise ValueError
            except (ValueError, IndexError):
                raise LocationError(f"location {item!r}: expected random:N or random:N:SEED")
            rng = random.Random(f"{seed}:{font_name}")
            for _ in range(n):
                values = [round(rng.uniform(-1, 1), 4) for _ in tags]
                add(_spell(zip(tags, values)), tuple(_fixed(v) for v in values))
        else:
            key = _parse_literal(item, tags, instances)
            add(item, key)
    return out
