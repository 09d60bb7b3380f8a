"""Corpus configuration: reads conformance/conform.toml and turns it, plus
the command-line overrides, into the list of runner jobs.

A job is one invocation of a C runner:
  TrueType  one font face x all sizes x one mode   (fvconform-tt)
  Graphite  one font x one text file x one feature setting, against every
            configured reference                   (fvconform-gr)
"""

import fnmatch
import glob
import hashlib
import importlib
import os
import struct
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field

MODES = ("v35", "v40", "v40-mono", "v40-lcd")
GR_REFS = ("graphite2", "harfbuzz")


class ConfigError(Exception):
    """A problem with the configuration or the command line (exit code 2)."""


@dataclass
class Job:
    engine: str            # "tt" or "gr"
    font: str              # absolute path
    set_name: str          # font set from the configuration, or "args"
    cases: int             # estimated number of cases
    weight: float = 0.0    # estimated cost, for scheduling, progress and ETA
    face: int = 0
    sizes: list = field(default_factory=list)
    mode: str = ""
    texts: str = ""        # absolute path of the text file
    features: str = ""
    rtl: bool = False
    refs: list = field(default_factory=list)
    detail_limit: int = 8
    location: str = ""     # TrueType: fvconform-tt --location, "" for the font as opened
    name: str = ""         # unique job name (set by build_jobs)
    original: str = ""     # --web: the sfnt the web font was made from (fvconform-tt --original)
    case_cost: float = 0.0  # cost of one case in TrueType-case units (0: the engine's default)

    @property
    def ident(self):
        """A short, file-name-safe and unique name for this job."""
        base, ext = os.path.splitext(os.path.basename(self.font))
        if self.engine == "tt":
            # A web font keeps its extension: LiberationSans-Regular.woff2
            # is compared beside LiberationSans-Regular.ttf.
            base += ext if ext.lower() in (".woff", ".woff2") else ""
            face = f"#{self.face}" if self.face else ""
            loc = "@" + self.location.replace("=", "").replace(",", "+") if self.location else ""
            if len(loc) > 96:
                # a design location on many axes (Roboto Flex has 13) would
                # make a record file's name too long: its hash names it
                loc = "@loc" + hashlib.sha256(self.location.encode()).hexdigest()[:12]
            return f"tt-{base}{face}-{self.mode}{loc}"
        text = os.path.splitext(os.path.basename(self.texts))[0]
        feat = ("-" + self.features.replace("=", "").replace(",", "+")) if self.features else ""
        if len(feat) > 64:
            # a long feature list (--odd-texts' random settings) would make
            # a record file's name too long: its hash names it instead
            feat = "-feat" + hashlib.sha256(self.features.encode()).hexdigest()[:12]
        return f"gr-{base}-{text}{feat}"

    def command(self, tt_bin, gr_bin):
        if self.engine == "tt":
            return [tt_bin, "--font", self.font, "--face", str(self.face),
                    "--sizes", ",".join(self.sizes), "--modes", self.mode,
                    "--detail-limit", str(self.detail_limit)] + \
                (["--location", self.location] if self.location else []) + \
                (["--original", self.original] if self.original else [])
        cmd = [gr_bin, "--font", self.font, "--text-file", self.texts]
        if self.features:
            cmd += ["--features", self.features]
        if self.rtl:
            cmd.append("--rtl")
        ref = "both" if set(self.refs) == set(GR_REFS) else self.refs[0]
        cmd += ["--ref", ref, "--detail-limit", str(self.detail_limit)]
        return cmd


# --- small, bounds-checked readers of the font file -----------------------

def _u16(d, o):
    if o < 0 or o + 2 > len(d):
        raise ValueError("truncated")
    return struct.unpack_from(">H", d, o)[0]


def _u32(d, o):
    if o < 0 or o + 4 > len(d):
        raise ValueError("truncated")
    return struct.unpack_from(">I", d, o)[0]


def _table_dir(d, base):
    """{tag: (offset, length)} of the sfnt at `base`, or {} if unreadable."""
    try:
        n = _u16(d, base + 4)
        out = {}
        for i in range(n):
            rec = base + 12 + 16 * i
            if rec + 16 > len(d):
                break
            tag = d[rec:rec + 4].decode("latin-1")
            out[tag] = (_u32(d, rec + 8), _u32(d, rec + 12))
        return out
    except ValueError:
        return {}


@dataclass
class FontInfo:
    faces: list            # one table directory per face
    glyphs: list           # maxp numGlyphs per face


_WOFF2_KNOWN_TAGS = (
    "cmap head hhea hmtx maxp name OS/2 post cvt  fpgm glyf loca prep CFF  VORG EBDT EBLC gasp hdmx "
    "kern LTSH PCLT VDMX vhea vmtx BASE GDEF GPOS GSUB EBSC JSTF MATH CBDT CBLC COLR CPAL SVG  sbix "
    "acnt avar bdat bloc bsln cvar fdsc feat fmtx fvar gvar hsty just lcar mort morx opbd prop trak "
    "Zapf Silf Glat Gloc Feat Sill")


def _web_font_tables(d):
    """(faces, data) of a WOFF or WOFF2 file: per face {tag: (offset,
    length)} into `data`, the decompressed table bytes (WOFF2's transformed
    glyf/loca/hmtx stay transformed: only their presence is used here).
    WOFF2 needs python3-brotli; without it, or on a malformed file, no
    faces (the font is then run as TrueType, and fontvm names the fault)."""
    import zlib
    try:
        if d[:4] == b"wOFF":
            n, tables, out = _u16(d, 12), {}, b""
            for i in range(n):
                tag, off, clen, olen = struct.unpack_from(">4sIII", d, 44 + 20 * i)
                raw = d[off:off + clen]
                tables[tag.decode("latin-1")] = (len(out), olen)
                out += zlib.decompress(raw) if clen < olen else raw
            return [tables], out
        import brotli
        n, pos, entries = _u16(d, 12), 48, []
        for _ in range(n):
            flags = d[pos]
            pos += 1
            if flags & 0x3F == 63:
                tag, pos = d[pos:pos + 4].decode("latin-1"), pos + 4
            else:
                tag = _WOFF2_KNOWN_TAGS[5 * (flags & 0x3F):5 * (flags & 0x3F) + 4]
            lengths = []
            transformed = (flags >> 6 == 0) if tag in ("glyf", "loca") else (flags >> 6 != 0)
            for _ in range(2 if transformed else 1):
                v = 0
                while True:
                    c, pos = d[pos], pos + 1
                    v = v << 7 | (c & 0x7F)
                    if not c & 0x80:
                        break
                lengths.append(v)
            entries.append((tag, lengths[-1]))
        faces = [list(range(n))]
        if d[4:8] == b"ttcf":
            def u255(pos):
                c = d[pos]
                if c == 253:
                    return _u16(d, pos + 1), pos + 3
                if c in (254, 255):
                    return d[pos + 1] + (253 if c == 255 else 506), pos + 2
                return c, pos + 1
            num_fonts, pos = u255(pos + 4)
            faces = []
            for _ in range(num_fonts):
                k, pos = u255(pos)
                pos += 4
                idx = []
                for _ in range(k):
                    i, pos = u255(pos)
                    idx.append(i)
                faces.append(idx)
        data = brotli.decompress(d[pos:pos + _u32(d, 20)])
        offsets, at = [], 0
        for _tag, length in entries:
            offsets.append(at)
            at += length
        return [{entries[i][0]: (offsets[i], entries[i][1]) for i in face} for face in faces], data
    except Exception:  # noqa: BLE001 -- any malformed container: the runner names the fault
        return [], d


def font_info(path):
    with open(path, "rb") as f:
        d = f.read()
    if d[:4] in (b"wOFF", b"wOF2"):
        faces, d = _web_font_tables(d)
        glyphs = []
        for t in faces:
            try:
                glyphs.append(_u16(d, t["maxp"][0] + 4) if "maxp" in t else 0)
            except ValueError:
                glyphs.append(0)
        return FontInfo(faces, glyphs), d
    bases = [0]
    if d[:4] == b"ttcf":
        try:
            bases = [_u32(d, 12 + 4 * i) for i in range(_u32(d, 8))]
        except ValueError:
            bases = []
    faces, glyphs = [], []
    for b in bases:
        t = _table_dir(d, b)
        faces.append(t)
        try:
            glyphs.append(_u16(d, t["maxp"][0] + 4) if "maxp" in t else 0)
        except ValueError:
            glyphs.append(0)
    return FontInfo(faces, glyphs), d


def feature_sweep(path):
    """Feature settings for a sweep: for each feature of the Feat table, each
    listed value other than the default, as "id=value".  Feature ids that
    are four printable characters are written as such (graphite2's -feat
    accepts both)."""
    info, d = font_info(path)
    t = info.faces[0] if info.faces else {}
    if "Feat" not in t:
        return []
    off, length = t["Feat"]
    end = min(len(d), off + length)
    d = d[:end]
    out = []
    try:
        version = _u32(d, off)
        count = _u16(d, off + 4)
        rec = off + 12
        size = 16 if version >= 0x00020000 else 12
        for _ in range(count):
            if version >= 0x00020000:
                fid, nset = _u32(d, rec), _u16(d, rec + 4)
                soff = _u32(d, rec + 8)
            else:
                fid, nset = _u16(d, rec), _u16(d, rec + 2)
                soff = _u32(d, rec + 4)
            rec += size
            raw = struct.pack(">I", fid)
            name = raw.decode("latin-1").rstrip("\0 ") if all(32 < c < 127 or c == 0 for c in raw) and raw[0] else str(fid)
            values = []
            for k in range(min(nset, 64)):
                values.append(struct.unpack_from(">h", d, off + soff + 4 * k)[0] if off + soff + 4 * k + 2 <= len(d) else None)
            values = [v for v in values if v is not None]
            # The first setting is the default unless the font says
            # otherwise; graphite2 uses the Feat default (first value).
            for v in values[1:]:
                out.append(f"{name}={v}")
    except (ValueError, struct.error):
        pass
    return out


def warn(msg):
    print(f"[conform] warning: {msg}", file=sys.stderr, flush=True)


# --- resolving font sets ---------------------------------------------------

_dpkg_cache = {}


def package_files(pkg):
    if pkg not in _dpkg_cache:
        r = subprocess.run(["dpkg", "-L", pkg], capture_output=True, text=True)
        if r.returncode != 0:
            raise ConfigError(f"Debian package {pkg} is not installed (apt-get install {pkg})")
        _dpkg_cache[pkg] = [p for p in r.stdout.split("\n") if p and os.path.isfile(p)]
    return _dpkg_cache[pkg]


def _as_list(v):
    if v is None:
        return []
    return [v] if isinstance(v, str) else list(v)


def _match(name, pattern):
    return fnmatch.fnmatch(name.lower(), pattern.lower())


def resolve_path(root, p):
    return os.path.normpath(p if os.path.isabs(p) else os.path.join(root, p))


def resolve_fontset(root, fs):
    globs = _as_list(fs.get("glob", "*.ttf"))
    if "package" in fs:
        files = package_files(fs["package"])
    elif "dir" in fs:
        d = resolve_path(root, fs["dir"])
        if not os.path.isdir(d):
            raise ConfigError(f"font set {fs.get('name')}: folder {d} does not exist")
        files = [os.path.join(d, n) for n in os.listdir(d)]
    else:
        raise ConfigError(f"font set {fs.get('name')}: needs 'package' or 'dir'")
    out = []
    for g in globs:
        hit = sorted(f for f in files if _match(os.path.basename(f), g))
        if not hit and not any(c in g for c in "*?["):
            raise ConfigError(f"font set {fs.get('name')}: {g} not found")
        out += [h for h in hit if h not in out]
    return out


FONT_SUFFIXES = (".ttf", ".otf", ".ttc")


def extended_packages(root, cfg):
    """The Debian packages of the extended font set, from the file that
    [extended] packages_file names (one a line, # comments)."""
    ext = cfg.get("extended", {})
    if "packages_file" not in ext:
        raise ConfigError("conform.toml has no [extended] packages_file")
    path = resolve_path(root, ext["packages_file"])
    try:
        with open(path, encoding="utf-8") as f:
            return [w for line in f for w in line.split("#", 1)[0].split()]
    except OSError as e:
        raise ConfigError(f"[extended] packages_file {ext['packages_file']}: {e.strerror}")


def _classify(files, set_name, engines, default_texts, tt_fonts, gr_fonts, strict, skipped=None):
    """Sends each font file to the runners that can use it: TrueType every
    font but CFF-flavoured ones (whose outlines the TrueType interpreter
    never sees; bitmap-only and broken fonts stay in, since whether FreeType
    and fontvm both refuse them is a result), Graphite those with Silf.  A
    font no selected runner can use is named with the reason, never dropped
    silently.  strict (files named on the command line): an unreadable file
    is a configuration error, and each skipped font is a warning line;
    otherwise both are gathered in `skipped` ({reason: [files]})."""
    for f in files:
        try:
            info, _ = font_info(f)
        except (OSError, ValueError) as e:
            if strict:
                raise ConfigError(f"{f}: cannot read its table directory ({e})")
            skipped.setdefault("cannot read its table directory", []).append(f)
            continue
        t = info.faces[0] if info.faces else {}
        unused = []
        if "tt" in engines:
            if "CFF " in t or "CFF2" in t:
                unused.append("TrueType: CFF outlines (not TrueType-hinted)")
            else:
                tt_fonts.append((set_name, f, None))
        if "gr" in engines:
            if "Silf" in t:
                gr_fonts.append((set_name, f, {"texts": default_texts}))
            else:
                unused.append("Graphite: no Silf table")
        if len(unused) == len(engines):
            if strict:
                warn(f"{f}: skipped; " + "; ".join(unused))
            else:
                skipped.setdefault("; ".join(unused), []).append(f)


def _warn_skipped(skipped):
    """One line per reason for the fonts a large set cannot use."""
    for reason, files in sorted(skipped.items()):
        names = ", ".join(os.path.basename(f) for f in files[:4])
        more = f" and {len(files) - 4} more" if len(files) > 4 else ""
        warn(f"{len(files)} font(s) skipped ({reason}): {names}{more}")


def resolve_texts(root, patterns):
    out = []
    for p in patterns:
        full = resolve_path(root, p)
        d, pat = os.path.split(full)
        if any(c in pat for c in "*?["):
            hits = sorted(os.path.join(d, n) for n in os.listdir(d) if _match(n, pat)) if os.path.isdir(d) else []
        else:
            hits = [full] if os.path.isfile(full) else []
            if not hits:
                raise ConfigError(f"text file {p} not found")
        out += [h for h in hits if h not in out]
    return out


def count_lines(path):
    with open(path, "rb") as f:
        return sum(1 for line in f if line.strip())


# --- command-line values ---------------------------------------------------

def parse_sizes(v):
    """"6-24,28,10.5" -> ["6", ..., "24", "28", "10.5"] (strings as the runner
    and the records write them)."""
    out = []
    for part in str(v).split(","):
        part = part.strip()
        if not part:
            continue
        if "-" in part and "x" not in part:
            a, b = part.split("-", 1)
            try:
                a, b = int(a), int(b)
            except ValueError:
                raise ConfigError(f"bad size range {part!r} (use e.g. 6-24)")
            out += [str(i) for i in range(a, b + 1)]
        else:
            try:
                for q in part.split("x"):
                    if float(q) <= 0:
                        raise ValueError
            except ValueError:
                raise ConfigError(f"bad size {part!r}")
            out.append(part)
    return out


def size_str(s):
    if isinstance(s, float) and s.is_integer():
        return str(int(s))
    return str(s)


def parse_modes(v):
    modes = [m.strip() for m in v.split(",") if m.strip()]
    for m in modes:
        if m not in MODES:
            raise ConfigError(f"unknown mode {m!r} (one of {', '.join(MODES)})")
    return modes


# --- the job list ----------------------------------------------------------

def load(path):
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError(f"configuration {path} not found")
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: {e}")


def _font_filter(patterns):
    if not patterns:
        return None

    def ok(set_name, path):
        b = os.path.basename(path).lower()
        for p in patterns:
            pl = p.lower()
            # A glob names sets too: --fonts 'fontsource-static-*'.
            if pl == set_name.lower() or _match(b, pl) or _match(set_name.lower(), pl):
                return True
            if not any(c in pl for c in "*?[") and pl in b:
                return True
        return False
    return ok


def _tt_set_files(root, fs, fontsource_sets):
    """The files a TrueType font set compares: its package's or folder's
    fonts, a fontsource set's fetched fonts (only with --fontsource), or
    their WOFF/WOFF2 copies (`web`).  (files, None), or ([], reason) for a
    set that is skipped: it is optional, or could not be fetched or made."""
    name = fs.get("name", "?")
    if "npm" in fs:
        if not fontsource_sets:
            return [], "fontsource sets run with --fontsource"
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        import fontsource
        try:
            d = fontsource.fetch(fs["npm"], fs.get("sha256"))
        except fontsource.FetchError as e:
            return [], str(e)
        files = resolve_fontset(root, dict(fs, dir=d))
    else:
        files = resolve_fontset(root, fs)
    web = _as_list(fs.get("web"))
    if web:
        import web_convert
        try:
            files = [web_convert.convert(root, name, f, flavor) for f in files for flavor in web]
        except web_convert.ConvertError as e:
            return [], str(e)
    return files, None


def _tt_locations(fs, path, face_tables, data, random_locations=None):
    """The locations of a variable font set for one face ([""] without a
    `locations` list: the font as opened).  `random_locations` (N, SEED)
    replaces the list of every face with an fvar, in any set or none, by N
    seeded design locations (locations.py's design-random)."""
    items = _as_list(fs.get("locations")) if fs else []
    if random_locations and "fvar" in face_tables:
        items = ["design-random:%d:%d" % random_locations]
    if not items:
        return [""]
    import locations
    tags, instances = locations.fvar_axes(data, face_tables.get("fvar"))
    if random_locations and not tags:
        return [""]   # an fvar fontvm and FreeType will not use: the font as opened
    ranges = locations.fvar_ranges(data, face_tables.get("fvar"))
    points = locations.avar_points(data, face_tables.get("avar"), len(tags))
    try:
        return locations.expand(items, tags, instances, os.path.basename(path), ranges, points)
    except locations.LocationError as e:
        raise ConfigError(f"font set {fs.get('name')}: {e}")


def _web_fonts(cfg, root, wanted):
    """--web: every font of the corpus's TrueType sets (not the web or npm
    sets) as each [web] flavor, made by web_convert: [(set_name, web
    file, the set with [web] locations for a variable one, original)]."""
    import web_convert
    w = cfg.get("web", {})
    flavors = list(w.get("flavors", web_convert.FLAVORS))
    out = []
    for fs in cfg.get("truetype", {}).get("fonts", []):
        if fs.get("web") or "npm" in fs:
            continue
        name = fs.get("name", "?")
        web_fs = dict(fs)
        if fs.get("locations"):
            web_fs["locations"] = list(w.get("locations", fs["locations"]))
        for f in resolve_fontset(root, fs):
            if wanted and not wanted(name, f):
                continue
            for flavor in flavors:
                try:
                    out.append((name, web_convert.convert(root, "all-" + name, f, flavor), web_fs, f))
                except web_convert.ConvertError as e:
                    raise ConfigError(f"--web: {e}")
    return out


def build_jobs(cfg, root, *, quick=False, fonts=None, sizes=None, modes=None,
               paths=None, engines=("tt", "gr"), extended=False, fontsource_sets=False, web=False,
               odd_texts=False, random_locations=None):
    """The job list, largest first.  `fonts` filters font sets/files,
    `paths` (fonts or folders) replaces the configured font sets, and so
    does `extended` (every font of the [extended] packages).  A TrueType
    set with `locations` is compared at each of them (one job per font,
    face, mode and location); `sizes` in a set replaces [truetype] sizes
    for it (not --sizes, nor --quick's); sets fetched from the npm registry
    (`npm`) run with `fontsource_sets` only.  `web` replaces the corpus by
    its TrueType sets' fonts as WOFF and WOFF2 ([web] flavors, sizes,
    modes and locations), each face's first job checking the decoded tables
    against the original (`original`).  `odd_texts` adds, per Graphite
    font, the odd-text jobs of _odd_jobs.  `random_locations` (N, SEED):
    every face with an fvar at N seeded design locations instead of its
    set's list (_tt_locations)."""
    tt = cfg.get("truetype", {})
    gr = cfg.get("graphite", {})
    q = cfg.get("quick", {}) if quick else cfg.get("extended", {}) if extended else \
        cfg.get("web", {}) if web else {}
    tt_sizes = sizes or [size_str(s) for s in q.get("sizes", tt.get("sizes", []))]
    tt_modes = modes or list(q.get("modes", tt.get("modes", list(MODES))))
    for m in tt_modes:
        if m not in MODES:
            raise ConfigError(f"unknown mode {m!r} in configuration")
    refs = list(gr.get("refs", list(GR_REFS)))
    wanted = _font_filter(fonts)
    jobs = []

    # (set_name, path, fontset-table or None)
    tt_fonts, gr_fonts = [], []
    originals = {}   # --web: web font -> the sfnt it was made from
    if web:
        engines = tuple(e for e in engines if e == "tt")
        for set_name, f, fs, orig in _web_fonts(cfg, root, wanted):
            tt_fonts.append((set_name, f, fs))
            originals[f] = orig
    elif paths:
        for p in paths:
            p = os.path.abspath(p)
            if os.path.isdir(p):
                files = sorted(os.path.join(dp, n) for dp, _, ns in os.walk(p) for n in ns
                               if n.lower().endswith((".ttf", ".otf", ".ttc", ".woff", ".woff2")))
            elif os.path.isfile(p):
                files = [p]
            else:
                raise ConfigError(f"{p}: no such font file or folder")
            if not files:
                warn(f"{p}: no .ttf, .otf or .ttc file in this folder")
            _classify(files, "args", engines, gr.get("default_texts", []), tt_fonts, gr_fonts,
                      strict=True)
    elif extended:
        skipped = {}
        seen = set()   # packages share files (links, transitional packages)
        for pkg in extended_packages(root, cfg):
            files = []
            for f in package_files(pkg):
                real = os.path.realpath(f)
                if f.lower().endswith(FONT_SUFFIXES) and real not in seen:
                    seen.add(real)
                    files.append(f)
            _classify(files, pkg, engines, gr.get("default_texts", []), tt_fonts, gr_fonts,
                      strict=False, skipped=skipped)
        _warn_skipped(skipped)
    else:
        qtt = [x.lower() for x in q.get("truetype_fonts", [])]
        qgr = [x.lower() for x in q.get("graphite_fonts", [])]
        skipped_sets = {}   # reason -> set names
        for fs in tt.get("fonts", []):
            if "tt" not in engines or (wanted and not wanted(fs.get("name", "?"), "") and "npm" in fs):
                continue
            if quick and (fs.get("web") or "npm" in fs) and not any(n.endswith((".woff", ".woff2")) for n in qtt):
                continue   # --quick names no web font: nothing to fetch or convert
            files, skip = _tt_set_files(root, fs, fontsource_sets)
            if skip:
                skipped_sets.setdefault(skip, []).append(fs.get("name", "?"))
                continue
            for f in files:
                if quick and os.path.basename(f).lower() not in qtt:
                    continue
                tt_fonts.append((fs.get("name", "?"), f, fs))
        if not quick:
            for reason, names in skipped_sets.items():
                warn(f"font set(s) {', '.join(names)} skipped: {reason}")
        for fs in gr.get("fonts", []):
            for f in resolve_fontset(root, fs):
                if quick and os.path.basename(f).lower() not in qgr:
                    continue
                gr_fonts.append((fs.get("name", "?"), f, fs))

    if "tt" in engines:
        for set_name, f, fs in tt_fonts:
            if wanted and not web and not wanted(set_name, f):
                continue   # (--web filtered the originals)
            info, data = font_info(f)
            set_sizes = tt_sizes
            if fs and "sizes" in fs and not sizes and not quick and not web:
                set_sizes = [size_str(s) for s in fs["sizes"]]
            for face, ng in enumerate(info.glyphs or [0]):
                cost = tt_case_cost(info, data, face)
                tables = info.faces[face] if face < len(info.faces) else {}
                for li, loc in enumerate(_tt_locations(fs, f, tables, data, random_locations)):
                    for mi, m in enumerate(tt_modes):
                        jobs.append(Job("tt", f, set_name, max(1, ng) * len(set_sizes), face=face,
                                        sizes=list(set_sizes), mode=m, location=loc,
                                        detail_limit=int(tt.get("detail_limit", 8)), case_cost=cost,
                                        # One job per face checks the decoded tables.
                                        original=originals.get(f, "") if li == mi == 0 else ""))
    if "gr" in engines:
        for set_name, f, fs in gr_fonts:
            if wanted and not wanted(set_name, f):
                continue
            texts = resolve_texts(root, fs.get("texts", []))
            if not texts:
                # A font set whose texts are not there (yet): shape the
                # default texts rather than skip the font, and say so.
                texts = resolve_texts(root, gr.get("default_texts", []))
                warn(f"font set {set_name}: none of its texts exist; using the default texts for {os.path.basename(f)}")
            sweep_texts = resolve_texts(root, fs.get("sweep_texts", [])) or texts
            feats = list(q.get("graphite_features", fs.get("features", [""]))) if quick else list(fs.get("features", [""]))
            if quick:
                texts = texts[:int(q.get("graphite_texts_per_font", 1))]
            settings = []
            for ft in feats:
                if ft == "sweep":
                    settings += [(s, sweep_texts) for s in feature_sweep(f)]
                else:
                    settings.append((ft, texts))
            for ft, tx in settings:
                for t in tx:
                    jobs.append(Job("gr", f, set_name, max(1, count_lines(t)) * len(refs),
                                    texts=t, features=ft, rtl=bool(fs.get("rtl", False)),
                                    refs=refs, detail_limit=int(gr.get("detail_limit", 8))))
    if "gr" in engines:
        jobs += _generated_jobs(cfg, root, gr_fonts, wanted, quick, refs, extended)
    if "gr" in engines and odd_texts:
        jobs += _odd_jobs(cfg, root, gr_fonts, wanted, refs)
    # Unique job names: two folders may hold fonts with the same file name.
    seen = {}
    for j in jobs:
        n = seen[j.ident] = seen.get(j.ident, 0) + 1
        j.name = j.ident if n == 1 else f"{j.ident}~{n}"
    for j in jobs:
        j.weight = job_cost(j)
    jobs.sort(key=lambda j: -j.weight)
    return jobs


# --- generated texts --------------------------------------------------------

GENERATED_DIR = os.path.join("build", "gen-texts")


def _graphite_generator(name):
    """A text generator of conformance/graphite (gen_texts, gen_odd_texts)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "graphite"))
    return importlib.import_module(name)


def _each_font(gr_fonts, wanted):
    """(set name, font, set options) once per Graphite font the run wants."""
    done = set()
    for set_name, f, fs in gr_fonts:
        if f in done or (wanted and not wanted(set_name, f)):
            continue
        done.add(f)
        yield set_name, f, fs


def _generated_jobs(cfg, root, gr_fonts, wanted, quick, refs, extended=False):
    """Per Graphite font, text generated from its own cmap
    (conformance/graphite/gen_texts.py), once in each direction: lines
    nobody chose, the multi-word ones where collision avoidance looks
    across words.  [graphite] generated_lines (per direction; a font set
    may set its own), [quick] graphite_generated_lines in the quick
    corpus; generated_seed picks another text."""
    gr = cfg.get("graphite", {})
    q = cfg.get("quick", {}) if quick else {}
    seed = int(gr.get("generated_seed", 1))
    gen_texts = _graphite_generator("gen_texts")
    jobs = []
    for set_name, f, fs in _each_font(gr_fonts, wanted):
        fs = fs or {}
        if quick:
            n = int(q.get("graphite_generated_lines", 0))
        elif extended:
            n = int(cfg.get("extended", {}).get("graphite_generated_lines", 0))
        else:
            n = int(fs.get("generated_lines", gr.get("generated_lines", 0)))
        if n <= 0:
            continue
        base = os.path.splitext(os.path.basename(f))[0]
        for direction in ("ltr", "rtl"):
            out = os.path.join(root, GENERATED_DIR, f"{base}-gen{n}-s{seed}-{direction}.txt")
            if not _write_text(lambda: gen_texts.write(f, n, out, seed, direction),
                               f, out, "generated text"):
                break
            jobs.append(Job("gr", f, set_name, n * len(refs), texts=out, features="",
                            rtl=direction == "rtl", refs=refs,
                            detail_limit=int(gr.get("detail_limit", 8))))
    return jobs


def _write_text(write, font, out, what):
    """Runs write() (a generator's write of one text); False, with a
    warning, when the font cannot give that text (no usable cmap), so the
    caller skips the font; an unwritable file stops the run."""
    try:
        write()
    except ValueError as e:
        warn(f"no {what} for {os.path.basename(font)}: {e}")
        return False
    except OSError as e:
        raise ConfigError(f"cannot write {what} {out}: {e}")
    return True


def _odd_jobs(cfg, root, gr_fonts, wanted, refs):
    """Per Graphite font and direction, the odd text of
    conformance/graphite/gen_odd_texts.py (bidi controls, joiners,
    unassigned and private-use code points, mark stacks, whitespace-only
    and long lines) with the font's defaults, with each language of its
    Sill table, and with [graphite] odd_feature_settings (default 4) seeded
    random feature settings, values no setting lists included."""
    gr = cfg.get("graphite", {})
    seed = int(gr.get("generated_seed", 1))
    nfeat = int(gr.get("odd_feature_settings", 4))
    longest = int(gr.get("odd_longest_line", 3000))
    gen_odd_texts = _graphite_generator("gen_odd_texts")
    jobs = []
    for set_name, f, fs in _each_font(gr_fonts, wanted):
        base = os.path.splitext(os.path.basename(f))[0]
        langs = gen_odd_texts.languages(f)
        for direction in ("ltr", "rtl"):
            out = os.path.join(root, GENERATED_DIR, f"{base}-odd{longest}-s{seed}-{direction}.txt")
            if not _write_text(lambda: gen_odd_texts.write(f, out, seed, direction, longest),
                               f, out, "odd text"):
                break
            settings = [""] + [f"lang={lg}" for lg in langs] + \
                gen_odd_texts.random_features(f, seed, direction, nfeat)
            lines = count_lines(out)
            for ft in settings:
                jobs.append(Job("gr", f, set_name, lines * len(refs), texts=out, features=ft,
                                rtl=direction == "rtl", refs=refs,
                                detail_limit=int(gr.get("detail_limit", 8))))
    return jobs


# Relative costs, measured on this project's machine (2 cores): in the
# default run of 2026-11-25 the TrueType jobs took 359 s for 12.98 M cases
# (28 us a case, both engines) and the Graphite jobs 15.0 s for 370,524
# lines compared with both references (40 us a line and reference: 1.5
# TrueType cases; the 10 used before made the Graphite jobs look 7 times
# dearer than they are, so the ETA ran ahead early in a run); starting a
# runner costs ~20 ms.  Unit: one TrueType case.
GR_CASE_COST = 1.5
JOB_START_COST = 1000.0


# A TrueType case's cost depends on the font far more than on anything
# else: in the default runs of 2026-11-25 a case of DejaVu Sans (6 bytes
# of glyph instructions per glyph) took 2 us, one of Noto Sans Ethiopic
# (137 bytes) 65 us.  Fitted over the 55 fonts: 6.4 us + 0.50 us per
# instruction byte per glyph (mean relative error 1.09 against 2.3 for one
# cost for every font).  In TrueType-case units (the average, 28 us).
TT_CASE_BASE_US = 6.4
TT_CASE_PER_INSTR_BYTE_US = 0.50
TT_AVERAGE_CASE_US = 28.0


def tt_instruction_bytes_per_glyph(info, data, face):
    """Mean glyph-program length of a face's simple glyphs (glyf/loca),
    or None when the tables cannot be read (a WOFF2's transformed glyf, a
    CFF font, a broken table): the planner's cost estimate, nothing else."""
    try:
        t = info.faces[face]
        ng = info.glyphs[face]
        if not ng or "glyf" not in t or "loca" not in t or "head" not in t:
            return None
        long_loca = _u16(data, t["head"][0] + 50) == 1
        loca, glyf_off, glyf_len = t["loca"][0], t["glyf"][0], t["glyf"][1]
        total = 0
        for g in range(ng):
            if long_loca:
                a, b = _u32(data, loca + 4 * g), _u32(data, loca + 4 * g + 4)
            else:
                a, b = 2 * _u16(data, loca + 2 * g), 2 * _u16(data, loca + 2 * g + 2)
            if b <= a or b > glyf_len:
                continue
            contours = _u16(data, glyf_off + a)
            if contours >= 0x8000:          # a composite: no count here
                continue
            total += _u16(data, glyf_off + a + 10 + 2 * contours)
        return total / ng
    except (ValueError, IndexError, KeyError):
        return None


def tt_case_cost(info, data, face):
    ipg = tt_instruction_bytes_per_glyph(info, data, face)
    if ipg is None:
        return 1.0
    return (TT_CASE_BASE_US + TT_CASE_PER_INSTR_BYTE_US * ipg) / TT_AVERAGE_CASE_US


def job_cost_per_case(engine):
    return 1.0 if engine == "tt" else GR_CASE_COST


def job_cost(job):
    per = job.case_cost or job_cost_per_case(job.engine)
    return job.cases * per + JOB_START_COST
