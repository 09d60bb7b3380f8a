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
  "design-random:N[:SEED]"
                    N locations in design coordinates ("design:wght=432.5",
                    fvconform-tt sets them with FT_Set_Var_Design_Coordinates
                    and fontvm normalizes them itself, so fvar's ranges and
                    avar are compared too): every axis at its default, every
                    axis at its minimum, at its maximum, then each axis drawn
                    from DESIGN_KINDS (the extremes, the default, one or a
                    few 1/65536 units off either, values past the range,
                    avar's segment points, one unit off them and halfway
                    between them, uniform and whole values in the range);
                    seeded like random:N
  anything else     a literal location: "wght=0.42,wdth=-1", "instance=3"
                    or "design:wght=432.5"

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


# How design-random draws one axis's value (equal weights).
DESIGN_KINDS = ("min", "max", "default", "default+-1", "default+-few", "extreme-1",
                "past-range", "avar-point", "avar-point+-1", "avar-between", "uniform", "whole")
FIXED_ONE = 65536
FIXED_LIMIT = 32767 * FIXED_ONE   # what a 16.16 design value holds


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


def fvar_ranges(data, table):
    """[(min, default, max)] in 16.16 design units per fvar axis ([] when
    the table cannot be read, as fvar_axes)."""
    tags, _ = fvar_axes(data, table)
    if not tags:
        return []
    off = table[0]
    axes_off, _, count, axis_size = struct.unpack_from(">HHHH", data, off + 4)
    return [struct.unpack_from(">iii", data, off + axes_off + i * axis_size + 4) for i in range(count)]


def avar_points(data, table, num_axes):
    """Per axis, the sorted normalized fromCoordinates (F2DOT14 as floats)
    of avar's segment maps; empty lists without a readable avar."""
    out = [[] for _ in range(num_axes)]
    if table is None:
        return out
    off, length = table
    end = min(len(data), off + length)
    if off + 8 > end:
        return out
    count = struct.unpack_from(">H", data, off + 6)[0]
    pos = off + 8
    for i in range(min(count, num_axes)):
        if pos + 2 > end:
            break
        n = struct.unpack_from(">H", data, pos)[0]
        pos += 2
        if pos + 4 * n > end:
            break
        out[i] = sorted(struct.unpack_from(">h", data, pos + 4 * k)[0] / 16384.0 for k in range(n))
        pos += 4 * n
    return out


def _design_of_normalized(n, lo, de, hi):
    """The 16.16 design value at normalized n of an axis (fvar's linear map)."""
    return int(round(de + n * ((de - lo) if n < 0 else (hi - de))))


def _design_value(rng, kind, lo, de, hi, points):
    """One axis's 16.16 design value of the kind (DESIGN_KINDS)."""
    if kind == "min":
        return lo
    if kind == "max":
        return hi
    if kind == "default":
        return de
    if kind == "default+-1":
        return de + rng.choice((-1, 1))
    if kind == "default+-few":
        return de + rng.choice((-1, 1)) * rng.randint(2, 64)
    if kind == "extreme-1":
        return rng.choice((lo + 1, hi - 1))
    if kind == "past-range":
        return rng.choice((lo - rng.randint(1, 100 * FIXED_ONE), hi + rng.randint(1, 100 * FIXED_ONE)))
    if kind.startswith("avar") and len(points) >= 2:
        if kind == "avar-between":
            k = rng.randrange(len(points) - 1)
            return _design_of_normalized((points[k] + points[k + 1]) / 2, lo, de, hi)
        v = _design_of_normalized(rng.choice(points), lo, de, hi)
        return v + (rng.choice((-1, 1)) if kind == "avar-point+-1" else 0)
    if kind == "whole" and hi - lo >= FIXED_ONE:
        return rng.randint(-(-lo // FIXED_ONE), hi // FIXED_ONE) * FIXED_ONE
    return rng.randint(min(lo, hi), max(lo, hi))


def _design_spell(tags, values):
    # repr of value / 65536 is exact, and the runner rounds it back to it.
    return "design:" + ",".join(f"{t}={v / FIXED_ONE!r}" for t, v in zip(tags, values))


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


def _count_and_seed(item, kind):
    """(N, SEED) of a location item spelled KIND:N or KIND:N:SEED (seed 1
    when left out)."""
    parts = item.split(":")
    try:
        n = int(parts[1])
        seed = int(parts[2]) if len(parts) > 2 else 1
        if n < 0 or len(parts) > 3:
            raise ValueError
    except (ValueError, IndexError):
        raise LocationError(f"location {item!r}: expected {kind}:N or {kind}:N:SEED")
    return n, seed


def expand(items, tags, instances, font_name, ranges=None, points=None):
    """The location spellings of a font set's list for one font ("" is the
    font as opened).  `ranges` (fvar_ranges) and `points` (avar_points) are
    needed by design-random.  Raises LocationError on an item that does not
    fit."""
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
            n, seed = _count_and_seed(item, "random")
            rng = random.Random(f"{seed}:{font_name}")
            for _ in range(n):
                values = [round(rng.uniform(-1, 1), 4) for _ in tags]
                add(_spell(zip(tags, values)), tuple(_fixed(v) for v in values))
        elif item.startswith("design-random:"):
            n, seed = _count_and_seed(item, "design-random")
            if not ranges or len(ranges) != len(tags):
                raise LocationError(f"{font_name}: design-random needs fvar's axis ranges")
            pts = points or [[] for _ in tags]
            rng = random.Random(f"design:{seed}:{font_name}")
            for k in range(n):
                if k < 3:   # every axis at its default, minimum, maximum
                    values = [r[(1, 0, 2)[k]] for r in ranges]
                else:
                    values = [_design_value(rng, rng.choice(DESIGN_KINDS), lo, de, hi, p)
                              for (lo, de, hi), p in zip(ranges, pts)]
                values = [max(-FIXED_LIMIT, min(FIXED_LIMIT, v)) for v in values]
                add(_design_spell(tags, values), ("design",) + tuple(values))
        elif item.startswith("design:"):
            add(item, ("design", item))
        else:
            key = _parse_literal(item, tags, instances)
            add(item, key)
    return out
