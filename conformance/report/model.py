"""The run model: folds the runners' JSON Lines records (conformance/RECORDS.md)
into what the report shows, as they arrive, in bounded memory.

What is kept:
  * one entry per configuration (TT: font, face, size, mode; Graphite: font,
    text file, features, reference) with its counts and the id and
    status of every non-identical case (this is what the baseline check
    compares; identical cases are only counted);
  * difference groups (TT by the culprit instruction, Graphite by font and
    the pass/rule that produced the first differing slot) with a count and
    the first few example cases, preferring cases that carry drawing detail;
  * error groups (which side failed, and the error text with numbers
    blanked);
  * executed-opcode counts per engine.
"""

import os
import re
import time
from collections import Counter

EXAMPLES_PER_GROUP = 6
# hardening_limit: fontvm stopped at one of its work budgets (a budget_*
# error, vm/common/budget.h) where the reference finished: a limit fontvm
# sets on purpose, counted apart from the conformance failures.
STATUSES = ("different", "error_fontvm_only", "error_ref_only", "error_both", "hardening_limit")
STATUS_CODE = {"different": "d", "error_fontvm_only": "f", "error_ref_only": "r", "error_both": "b",
               "hardening_limit": "h"}
LOAD_STAGES = ("face", "size", "location")
# The statuses that are differences: a case with one of them is either
# explained by an entry of conformance/known.toml (known) or not (unknown).
# error_both is agreement (both engines refuse), hardening_limit its own class.
DIFF_STATUSES = ("different", "error_fontvm_only", "error_ref_only")
CODE_STATUS = {v: k for k, v in STATUS_CODE.items()}


def comparison_name(engine, mode_or_ref):
    if engine == "tt":
        return f"TrueType {mode_or_ref} vs FreeType"
    return "Graphite vs graphite2" if mode_or_ref == "graphite2" else "Graphite vs HarfBuzz (graphite2 shaper)"


class PathNames:
    """Stable names for files in case keys: relative to the repository root
    when the file is inside the repository, absolute otherwise (Debian's
    /usr/share/fonts)."""

    def __init__(self, root):
        self.root = os.path.realpath(root)
        self._cache = {}

    def __call__(self, p):
        if p is None:
            return None
        r = self._cache.get(p)
        if r is None:
            a = os.path.realpath(p) if os.path.isabs(p) else os.path.realpath(os.path.join(self.root, p))
            r = os.path.relpath(a, self.root) if a.startswith(self.root + os.sep) else a
            self._cache[p] = r
        return r


def _blank_numbers(s):
    return re.sub(r"\d+", "#", s or "")


def _known_suffix(entry):
    return f" [{entry.id}]" if entry else ""


class Model:
    def __init__(self, root, known=None):
        self.name = PathNames(root)
        self.known = known          # known.Known, or None
        self.known_hits = {}        # known id -> {"count", "statuses", "fonts"}
        self.last_known = None      # the entry the last case record matched
        self.versions = {}
        self.started = time.time()
        self.seconds = 0.0
        self.interrupted = False
        self.configs = {}          # key tuple -> dict
        self.font_names = {}       # font key -> full name from the records
        self.tt_groups = {}        # culprit mnemonic (or pseudo key) -> group
        self.gr_groups = {}
        self.err_groups = {}
        self.opcodes = {"tt": Counter(), "gr": Counter()}
        self.opcode_fonts = {"tt": Counter(), "gr": Counter()}
        self.runner_errors = []    # {"job", "message"}
        self.jobs = {}             # job name -> {"engine","font","status","seconds","exit"}
        self.records = 0
        # Hinting diagnostics (tt_summary "lint"): (font, class) -> the
        # faults FreeType tolerates that fontvm's loads met, over sizes
        # and modes.
        self.lint = {}
        # scripts/conform --web: per web font face, fontvm's decoded tables
        # against the sfnt it was made from (fvconform-tt --original).
        self.web_tables = []

    # --- keys -------------------------------------------------------------
    def tt_key(self, r):
        # The location last ("" for a font as opened), so key[1..4] mean
        # the same for both engines: a variable font's case at wght=0.42
        # is never compared with the same glyph at another location.
        return ("tt", self.name(r["font"]), int(r.get("face", 0)), str(r["size"]), r["mode"],
                r.get("location") or "")

    def gr_key(self, r):
        # The direction is not part of the key: a font and text file are
        # shaped in one direction (and gr_summary does not carry it).
        return ("gr", self.name(r["font"]), self.name(r["texts"]), r.get("features", "") or "",
                r.get("ref", "graphite2"))

    def _config(self, key):
        c = self.configs.get(key)
        if c is None:
            c = dict.fromkeys(("cases", "identical") + STATUSES, 0)
            c.update({"seconds": 0.0, "summarised": False,
                 # Status per case id (TT gid, Graphite line): 0 identical,
                 # else a STATUS_CODE byte.  A byte per case keeps a run
                 # where everything differs (13 M cases) small.
                 "nonidentical": bytearray(),
                 # TrueType load decisions (tt_load): stage -> status.
                 "load": {},
                 # Case id -> known id, for the cases known.toml explains;
                 # known_diffs counts those with a DIFF_STATUSES status.
                 "known": {}, "known_diffs": 0})
            self.configs[key] = c
        return c

    # --- folding records ----------------------------------------------------
    def add(self, rec, job=None):
        """Folds one record.  Returns the case status for case records (so
        the caller can count live), else None."""
        self.records += 1
        t = rec.get("type")
        if t == "run":
            for k in ("fontvm", "freetype", "graphite2", "harfbuzz"):
                if rec.get(k):
                    self.versions[k] = rec[k]
        elif t == "tt_summary":
            self._summary(self.tt_key(rec), rec)
        elif t == "gr_summary":
            # A summary covers a whole text file: the key needs no line.
            self._summary(self.gr_key(rec), rec)
        elif t == "tt_case":
            return self._tt_case(rec)
        elif t == "tt_load":
            return self._tt_load(rec)
        elif t == "gr_case":
            return self._gr_case(rec)
        elif t in ("tt_opcodes", "gr_opcodes"):
            eng = t[:2]
            for k, v in (rec.get("counts") or {}).items():
                if isinstance(v, int) and v > 0:
                    self.opcodes[eng][k] += v
                    self.opcode_fonts[eng][k] += 1
        elif t == "tt_tables":
            self.web_tables.append({k: rec.get(k) for k in ("font", "face", "original", "status", "tables",
                                                             "identical", "glyphs", "glyphs_identical",
                                                             "first_diff")})
            self.web_tables[-1]["font"] = self.name(rec.get("font", ""))
            self.web_tables[-1]["original"] = self.name(rec.get("original", ""))
        elif t == "error":
            self.runner_errors.append({"job": job or "", "message": str(rec.get("message", ""))})
        return None

    def _summary(self, key, rec):
        c = self._config(key)
        for k in ("cases", "identical") + STATUSES:
            c[k] = int(rec.get(k, 0))
        c["seconds"] = float(rec.get("seconds", 0.0))
        c["summarised"] = True
        if rec.get("font_name"):
            self.font_names[key[1]] = rec["font_name"]
        if key[0] == "tt" and isinstance(rec.get("lint"), dict):
            self._lint(key, rec["lint"])

    def _lint(self, key, lint):
        font = key[1] + (f" (face {key[2]})" if key[2] else "") + (f" at {key[5]}" if key[5] else "")
        for cls, v in lint.items():
            if not isinstance(v, dict):
                continue
            e = self.lint.get((font, cls))
            if e is None:
                e = self.lint[(font, cls)] = {"font": font, "class": cls, "count": 0, "glyphs": 0,
                                              "configs": 0, "modes": Counter(), "first": None}
            e["count"] += int(v.get("count", 0))
            e["glyphs"] += int(v.get("glyphs", 0))
            e["configs"] += 1
            e["modes"][key[4]] += int(v.get("count", 0))
            # The first location at the smallest size and first mode seen
            # in a fixed order, so that a merged run reports the same.
            where = (_size_order(key[3]), key[4], str(v.get("first", "")))
            if e["first"] is None or where < e["first"]:
                e["first"] = where

    def lint_list(self):
        """report.json's hinting_diagnostics: one entry per font and class,
        the largest counts first."""
        out = []
        for e in self.lint.values():
            size, mode, first = e["first"]
            out.append({"font": e["font"], "class": e["class"], "count": e["count"], "glyphs": e["glyphs"],
                        "configs": e["configs"], "modes": dict(sorted(e["modes"].items())),
                        "first": first, "first_size": size[1], "first_mode": mode})
        return sorted(out, key=lambda x: (-x["count"], x["font"], x["class"]))

    def _match_known(self, key, rec):
        entry = self.known.match(key[0], key[1], rec) if self.known else None
        self.last_known = entry
        if entry:
            h = self.known_hits.setdefault(entry.id, {"count": 0, "statuses": Counter(), "fonts": Counter()})
            h["count"] += 1
            h["statuses"][rec.get("status")] += 1
            h["fonts"][key[1]] += 1
        return entry

    def _common_case(self, key, rec, case_id):
        status = rec.get("status")
        self.last_known = None
        if status not in STATUSES:
            return None
        c = self._config(key)
        entry = self._match_known(key, rec)
        rec["known"] = entry.id if entry else None
        if entry:
            c["known"][case_id] = entry.id
            if status in DIFF_STATUSES:
                c["known_diffs"] += 1
        if 0 <= case_id < MAX_CASE_ID:
            st = c["nonidentical"]
            if case_id >= len(st):
                st.extend(bytes(case_id + 1 - len(st)))
            st[case_id] = ord(STATUS_CODE[status])
        if status != "different":
            self._error(key, rec, case_id)
        return status

    def _error(self, key, rec, case_id):
        status = rec["status"]
        gk = (key[0], status, _blank_numbers(rec.get("ref_error")), _blank_numbers(rec.get("fontvm_error")),
              rec.get("known"))
        g = self.err_groups.get(gk)
        if g is None:
            g = self.err_groups[gk] = {"engine": key[0], "status": status, "known": rec.get("known"),
                                       "ref_error": rec.get("ref_error"), "fontvm_error": rec.get("fontvm_error"),
                                       "count": 0, "fonts": Counter(), "examples": []}
        g["count"] += 1
        g["fonts"][key[1]] += 1
        if len(g["examples"]) < EXAMPLES_PER_GROUP:
            g["examples"].append(self._example(key, rec, case_id))

    def _example(self, key, rec, case_id):
        ex = dict(rec)
        ex["font"] = key[1]
        if key[0] == "gr":
            ex["texts"] = key[2]
        ex["id"] = case_id
        return ex

    def _group_add(self, groups, gk, meta, key, rec, case_id):
        g = groups.get(gk)
        if g is None:
            g = groups[gk] = dict(meta, count=0, fonts=Counter(), modes=Counter(), examples=[])
        g["count"] += 1
        g["fonts"][key[1]] += 1
        g["modes"][key[4]] += 1   # TT mode or Graphite reference
        ex = g["examples"]
        has = bool(rec.get("detail"))
        if len(ex) < EXAMPLES_PER_GROUP:
            ex.append(self._example(key, rec, case_id))
        elif has and not all(e.get("detail") for e in ex):
            # Prefer examples that can be drawn.
            for i in range(len(ex) - 1, -1, -1):
                if not ex[i].get("detail"):
                    ex[i] = self._example(key, rec, case_id)
                    break
        else:
            return
        # Drawable examples first: the first one is shown open.
        ex.sort(key=lambda e: not e.get("detail"))

    def _tt_case(self, rec):
        key = self.tt_key(rec)
        gid = int(rec.get("gid", -1))
        status = self._common_case(key, rec, gid)
        if status == "different":
            cul = rec.get("culprit") or None
            fd = rec.get("first_diff") or {}
            if cul and cul.get("mnemonic"):
                gk = cul["mnemonic"]
                meta = {"culprit": gk, "kind": "instruction"}
            elif fd.get("point", -1) == -1:
                # Same points, different advance; or a different number
                # of points (then nothing can be compared point by point).
                same = fd.get("ref_points") == fd.get("fontvm_points")
                gk = "(advance only)" if same else "(number of points)"
                meta = {"culprit": gk, "kind": "advance"}
            else:
                gk = "(no instruction moved the point)"
                meta = {"culprit": gk, "kind": "untraced"}
            meta["known"] = rec.get("known")
            gk += _known_suffix(self.last_known)
            self._group_add(self.tt_groups, gk, meta, key, rec, gid)
        return status

    def _tt_load(self, rec):
        """A load decision (does each engine open the face, set the size
        up): kept per configuration and stage; a non-identical one is an
        error case of its own (grouped with the glyph errors)."""
        stage, status = rec.get("stage"), rec.get("status")
        self.last_known = None
        if stage not in LOAD_STAGES or status not in ("identical",) + STATUSES:
            return None
        key = self.tt_key(rec)
        self._config(key)["load"][stage] = status
        if status == "identical":
            return None
        entry = self._match_known(key, rec)
        rec["known"] = entry.id if entry else None
        self._error(key, rec, -1)
        return status

    def load_totals(self):
        """{stage: {status: count}} over every TrueType configuration."""
        out = {s: Counter() for s in LOAD_STAGES}
        for c in self.configs.values():
            for stage, status in c["load"].items():
                out[stage][status] += 1
        return {s: dict(v) for s, v in out.items()}

    def _gr_case(self, rec):
        key = self.gr_key(rec)
        line = int(rec.get("line", -1))
        status = self._common_case(key, rec, line)
        if status == "different":
            cul = rec.get("culprit") or {}
            p, r = cul.get("pass"), cul.get("rule")
            # No culprit: no fontvm rule changed the first differing slot, so
            # the difference comes from before the rules (cmap, features,
            # bidi) or from the reference.
            label = f"pass {p} rule {r}" if p is not None else "no fontvm rule changed the first differing slot"
            gk = (key[1], p, r, rec.get("known"))
            self._group_add(self.gr_groups, gk, {"culprit": label, "font": key[1], "pass": p, "rule": r,
                                                 "known": rec.get("known")},
                            key, rec, line)
        return status

    # --- totals -------------------------------------------------------------
    def comparisons(self):
        """{comparison name: counts} and {(comparison, font): counts}."""
        per_cmp, per_font = {}, {}
        for key, c in self.configs.items():
            name = comparison_name(key[0], key[4])
            for tgt, k in ((per_cmp, name), (per_font, (name, key[1]))):
                s = tgt.setdefault(k, dict(dict.fromkeys(("cases", "identical") + STATUSES, 0),
                                           engine=key[0], configs=0, incomplete=0, known=0))
                s["configs"] += 1
                s["known"] += c["known_diffs"]
                if not c["summarised"]:
                    # A job stopped before its summary: count what was seen.
                    s["incomplete"] += 1
                    for code, status in CODE_STATUS.items():
                        n = c["nonidentical"].count(code.encode())
                        s[status] += n
                        s["cases"] += n
                    continue
                for f in ("cases", "identical") + STATUSES:
                    s[f] += c[f]
        return per_cmp, per_font

    def totals(self):
        per_cmp, _ = self.comparisons()
        t = dict.fromkeys(("cases", "identical") + STATUSES + ("known",), 0)
        for s in per_cmp.values():
            for k in t:
                t[k] += s[k]
        return classify(t)


def classify(s):
    """Adds the headline's classes to a counts dict: agree (identical, or
    both engines refuse), known and unknown differences; hardening limits
    stay their own class."""
    s["known"] = s.get("known", 0)
    s["agree"] = s["identical"] + s["error_both"]
    s["unknown"] = sum(s[k] for k in DIFF_STATUSES) - s["known"]
    return s


def pct_text(a, b):
    """a/b as a percentage for people, the same in the terminal and the
    report: truncated (never rounded up), two decimals, four from 99.99 %
    on, and "100%" only when a == b."""
    if not b:
        return "–"
    if a == b:
        return "100%"
    p = 100.0 * a / b
    digits = 4 if p >= 99.99 else 2
    scale = 10 ** digits
    t = int(p * scale) / scale
    if t >= 100.0:
        t = 100.0 - 1.0 / scale
    return f"{t:.{digits}f}%"


# --- baseline --------------------------------------------------------------

# Case ids are glyph ids (< 65536) and text lines; anything larger is not
# stored per case (it is still counted and grouped).
MAX_CASE_ID = 1 << 20


def encode_statuses(st):
    """bytearray of statuses -> {"d": "0-99,105", "f": "7", ...}: the
    non-identical case ids per status as ranges (compact even when every
    case differs)."""
    out = {}
    for m in re.finditer(rb"d+|f+|r+|b+|h+", bytes(st)):
        a, b = m.start(), m.end() - 1
        code = chr(st[a])
        part = str(a) if a == b else f"{a}-{b}"
        out[code] = out[code] + "," + part if code in out else part
    return {k: out[k] for k in sorted(out)}


def encode_known(known):
    """{case id: known id} -> {known id: "10-11,40"}."""
    by_id = {}
    for cid in sorted(known):
        by_id.setdefault(known[cid], []).append(cid)
    out = {}
    for kid, ids in sorted(by_id.items()):
        parts, start = [], ids[0]
        for prev, cur in zip(ids, ids[1:] + [None]):
            if cur is None or cur != prev + 1:
                parts.append(str(start) if start == prev else f"{start}-{prev}")
                start = cur
        out[kid] = ",".join(parts)
    return out


def decode_known(enc):
    out = {}
    for kid, ranges in (enc or {}).items():
        for part in str(ranges).split(","):
            if part:
                a, _, b = part.partition("-")
                for cid in range(int(a), int(b or a) + 1):
                    out[cid] = kid
    return out


def decode_statuses(enc):
    st = bytearray()
    if isinstance(enc, dict):
        for code, ranges in enc.items():
            if code not in CODE_STATUS or not isinstance(ranges, str):
                continue
            for part in ranges.split(","):
                if not part:
                    continue
                a, _, b = part.partition("-")
                a, b = int(a), int(b or a)
                if not (0 <= a <= b < MAX_CASE_ID):
                    continue
                if b >= len(st):
                    st.extend(bytes(b + 1 - len(st)))
                st[a:b + 1] = code.encode() * (b - a + 1)
    return st


def _nonzero(st):
    for m in re.finditer(rb"[^\x00]+", bytes(st)):
        for i in range(m.start(), m.end()):
            yield i, st[i]

def _size_order(label):
    """A size label ("12", "10.5", "12x16") as a sort key with the label."""
    try:
        return (float(label.split("x")[0]), label)
    except ValueError:
        return (float("inf"), label)


def config_list(model):
    """The configurations as the JSON report and the baseline store them."""
    out = []
    for key, c in sorted(model.configs.items(), key=lambda kv: tuple(str(x) for x in kv[0])):
        e = {"engine": key[0], "font": key[1]}
        if key[0] == "tt":
            e.update(face=key[2], size=key[3], mode=key[4])
            if key[5]:
                e["location"] = key[5]
        else:
            e.update(texts=key[2], features=key[3], ref=key[4])
        e.update({k: c[k] for k in ("cases", "identical") + STATUSES})
        e["complete"] = c["summarised"]
        e["nonidentical"] = encode_statuses(c["nonidentical"])
        if c["load"]:
            e["load"] = dict(sorted(c["load"].items()))
        if c["known"]:
            e["known_cases"] = encode_known(c["known"])
        out.append(e)
    return out


def _config_key(e):
    if e["engine"] == "tt":
        return ("tt", e["font"], int(e.get("face", 0)), str(e["size"]), e["mode"], e.get("location") or "")
    return ("gr", e["font"], e["texts"], e.get("features", ""), e["ref"])


def _describe(key, case_id):
    if key[0] == "tt":
        face = f"#{key[2]}" if key[2] else ""
        at = f" at {key[5]}" if key[5] else ""
        return f"{key[1]}{face}{at} size {key[3]} {key[4]} glyph {case_id}"
    feat = f" [{key[3]}]" if key[3] else ""
    return f"{key[1]} {key[2]}:{case_id}{feat} vs {key[4]}"


def check(baseline, current):
    """Compares two config lists (baseline, current run).  Returns
    (regressions, improvements, compared_configs); a regression is a case
    identical in the baseline that now differs or fails, a case that now
    fails in fontvm where it did not, or a configuration the baseline
    compared that this run started but did not finish."""
    base = {_config_key(e): e for e in baseline}
    regressions, improvements, compared = [], [], 0
    for e in current:
        k = _config_key(e)
        b = base.get(k)
        if b is None:
            continue
        compared += 1
        bn = decode_statuses(b.get("nonidentical", {}))
        cn = decode_statuses(e.get("nonidentical", {}))
        kn = decode_known(e.get("known_cases"))
        for cid, code in _nonzero(cn):
            old = bn[cid] if cid < len(bn) else 0
            reg = None
            if old == 0:
                reg = {"case": _describe(k, cid), "was": "identical", "now": CODE_STATUS[chr(code)]}
            elif code in (ord("f"), ord("b")) and old in (ord("d"), ord("r")):
                reg = {"case": _describe(k, cid), "was": CODE_STATUS[chr(old)], "now": CODE_STATUS[chr(code)]}
            if reg:
                # A known difference (conformance/known.toml) is listed
                # but does not fail the check.
                reg["known"] = kn.get(cid)
                regressions.append(reg)
        # Load decisions: one that agreed (or was not recorded) in the
        # baseline and now disagrees is a regression too.
        for stage, now in (e.get("load") or {}).items():
            was = (b.get("load") or {}).get(stage, "identical")
            case = f"{_describe(k, '*').rsplit(' glyph', 1)[0]} {stage} decision"
            if now != "identical" and was != now and (was == "identical" or now in ("error_fontvm_only", "error_both")):
                regressions.append({"case": case, "was": was, "now": now})
            elif now == "identical" and was != "identical":
                improvements.append({"case": case, "was": was, "now": now})
        if e.get("complete", True):
            for cid, old in _nonzero(bn):
                if cid >= len(cn) or cn[cid] == 0:
                    improvements.append({"case": _describe(k, cid), "was": CODE_STATUS[chr(old)], "now": "identical"})
        elif b.get("complete", True):
            regressions.append({"case": _describe(k, "*"), "was": "compared",
                                "now": "not finished (runner failed or run interrupted)"})
    return regressions, improvements, compared
