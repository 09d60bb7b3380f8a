"""Known differences as data: conformance/known.toml.

Each entry names a difference that has been looked at (an id such as
KD-2, whose bug it is, why, and where it is written up) and a matcher that
recognises its cases in the runners' records.  The report shows every
matched case as "known: KD-2, graphite2 bug"; the headline and `--check`
count only the cases no entry explains (see conformance/README.md).

A matcher is a table of conditions that must all hold; a condition left
out matches anything:

  engine      "tt" or "gr"
  ref         reference(s) compared with: "freetype", "graphite2", "harfbuzz"
  status      case status(es): different, error_fontvm_only, error_ref_only,
              error_both, hardening_limit
  font        glob on the font's file name or its report path
  texts       glob on the text file's name (Graphite)
  lines       line numbers, "10-11,40" (Graphite)
  text        a substring of the line's text (Graphite)
  features    the feature setting exactly as the job gives it ("" = defaults)
  rtl         true / false (Graphite)
  mode, size  TrueType mode(s) and size(s) as the records write them
  glyphs      glyph ids "36,40-42" or glyph names (TrueType)
  error       regular expression searched in either engine's error text
  ref_value_beyond   the reference's first differing glyph, or any glyph of
              the line (a HarfBuzz record's ref_max_abs), carries a value
              whose magnitude is at least this (HarfBuzz's int overflow)
  feature_ids the job's feature setting sets each of these feature ids
              (to any value): "1056" matches "1024=1,1056=2"
"""

import fnmatch
import os
import re
import tomllib

CLASSES = ("reference bug", "fontvm bug open", "hardening limit")
REF_NAMES = {"freetype": "FreeType", "graphite2": "graphite2", "harfbuzz": "HarfBuzz"}
MATCH_KEYS = ("engine", "ref", "status", "font", "texts", "lines", "text", "features", "feature_ids",
              "rtl", "mode", "size", "glyphs", "error", "ref_value_beyond")
ENTRY_KEYS = ("id", "class", "reference", "reason", "upstream", "reproducer", "label", "match")


class KnownError(Exception):
    """known.toml is not what this module reads (a usage error, exit 2)."""


def _as_list(v):
    return v if isinstance(v, list) else [v]


def _ranges(spec, what):
    out = []
    for part in str(spec).split(","):
        part = part.strip()
        if not part:
            continue
        a, _, b = part.partition("-")
        try:
            out.append((int(a), int(b or a)))
        except ValueError:
            raise KnownError(f"{what}: {spec!r} is not a list of numbers and ranges A-B")
    return out


class Entry:
    def __init__(self, d, where):
        unknown = set(d) - set(ENTRY_KEYS)
        if unknown:
            raise KnownError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        for k in ("id", "class", "reason"):
            if not isinstance(d.get(k), str) or not d[k]:
                raise KnownError(f"{where}: '{k}' is required (a string)")
        if d["class"] not in CLASSES:
            raise KnownError(f"{where} ({d['id']}): class must be one of: {', '.join(CLASSES)}")
        self.id = d["id"]
        self.cls = d["class"]
        self.reference = d.get("reference")
        if self.cls == "reference bug" and self.reference not in REF_NAMES:
            raise KnownError(f"{where} ({self.id}): a reference bug names its reference "
                             f"({', '.join(REF_NAMES)})")
        self.reason = d["reason"]
        self.upstream = d.get("upstream") or ""
        self.reproducer = d.get("reproducer") or ""
        m = d.get("match")
        if not isinstance(m, dict) or not m:
            raise KnownError(f"{where} ({self.id}): 'match' is required (a table of conditions)")
        bad = set(m) - set(MATCH_KEYS)
        if bad:
            raise KnownError(f"{where} ({self.id}): unknown condition(s) {', '.join(sorted(bad))}")
        self.m = dict(m)
        self.lines = _ranges(m["lines"], f"{self.id} lines") if "lines" in m else None
        self.gids, self.gnames = None, None
        if "glyphs" in m:
            names = [g for g in str(m["glyphs"]).split(",") if g.strip() and not g.strip()[0].isdigit()]
            nums = ",".join(g for g in str(m["glyphs"]).split(",") if g.strip() and g.strip()[0].isdigit())
            self.gids, self.gnames = _ranges(nums, f"{self.id} glyphs"), {n.strip() for n in names}
        try:
            self.error = re.compile(m["error"]) if "error" in m else None
        except re.error as e:
            raise KnownError(f"{where} ({self.id}): error: {e}")
        self.label = d.get("label") or self.default_label()

    def default_label(self):
        if self.cls == "reference bug":
            return f"{REF_NAMES[self.reference]} bug"
        if self.cls == "fontvm bug open":
            return "fontvm bug (open)"
        return "hardening limit"

    def text(self):
        """"known: KD-2, graphite2 bug": how every place names it."""
        return f"known: {self.id}, {self.label}"

    def as_json(self):
        return {"id": self.id, "class": self.cls, "reference": self.reference, "label": self.label,
                "reason": self.reason, "upstream": self.upstream, "reproducer": self.reproducer}

    def matches(self, engine, font, rec):
        m = self.m
        if "engine" in m and m["engine"] != engine:
            return False
        ref = rec.get("ref") or ("freetype" if engine == "tt" else None)
        if "ref" in m and ref not in _as_list(m["ref"]):
            return False
        if "status" in m and rec.get("status") not in _as_list(m["status"]):
            return False
        if "font" in m and not any(fnmatch.fnmatch(font, p) or fnmatch.fnmatch(os.path.basename(font), p)
                                   for p in _as_list(m["font"])):
            return False
        if "texts" in m and not any(fnmatch.fnmatch(os.path.basename(str(rec.get("texts") or "")), p)
                                    for p in _as_list(m["texts"])):
            return False
        if self.lines is not None and not any(a <= int(rec.get("line", -1)) <= b for a, b in self.lines):
            return False
        if "text" in m and m["text"] not in str(rec.get("text") or ""):
            return False
        if "features" in m and (rec.get("features") or "") != m["features"]:
            return False
        if "feature_ids" in m:
            ids = {kv.split("=")[0].strip() for kv in str(rec.get("features") or "").split(",") if "=" in kv}
            if not all(str(i) in ids for i in _as_list(m["feature_ids"])):
                return False
        if "rtl" in m and bool(rec.get("rtl")) != bool(m["rtl"]):
            return False
        if "mode" in m and rec.get("mode") not in _as_list(m["mode"]):
            return False
        if "size" in m and str(rec.get("size")) not in [str(s) for s in _as_list(m["size"])]:
            return False
        if self.gids is not None:
            gid = int(rec.get("gid", -1))
            if not (any(a <= gid <= b for a, b in self.gids) or rec.get("glyph_name") in self.gnames):
                return False
        if self.error is not None and not any(self.error.search(str(rec.get(k) or ""))
                                              for k in ("ref_error", "fontvm_error")):
            return False
        if "ref_value_beyond" in m:
            limit = abs(int(m["ref_value_beyond"]))
            ref_glyph = (rec.get("first_diff") or {}).get("ref") or {}
            most = rec.get("ref_max_abs")
            if not any(isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) >= limit
                       for v in ref_glyph.values()) and \
                    not (isinstance(most, int) and abs(most) >= limit):
                return False
        return True


class Known:
    """The entries of known.toml, first match wins."""

    def __init__(self, entries=(), source=None):
        self.entries = list(entries)
        self.by_id = {e.id: e for e in self.entries}
        self.source = source

    @classmethod
    def load(cls, path):
        if not path or not os.path.isfile(path):
            return cls()
        try:
            with open(path, "rb") as f:
                data = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise KnownError(f"{path}: {e}")
        raw = data.get("known", [])
        if not isinstance(raw, list):
            raise KnownError(f"{path}: 'known' must be an array of tables ([[known]])")
        entries, seen = [], set()
        for i, d in enumerate(raw):
            if not isinstance(d, dict):
                raise KnownError(f"{path}: entry {i + 1} is not a table")
            e = Entry(d, f"{path}: entry {i + 1}")
            if e.id in seen:
                raise KnownError(f"{path}: {e.id} is defined twice")
            seen.add(e.id)
            entries.append(e)
        return cls(entries, path)

    def match(self, engine, font, rec):
        """The first entry matching a non-identical case, or None."""
        for e in self.entries:
            if e.matches(engine, font, rec):
                return e
        return None
