#!/usr/bin/env python3
"""Writes the conformance report from a run model (model.py):

  report.json  machine-readable, schema conformance/report/report.schema.json
  index.html   self-contained page (inline CSS and SVG, no scripts, no network)
  summary.md   short Markdown for a CI job summary or a PR comment

Run by run.py; `run.py --replay DIR` re-renders from saved records.
"""

import datetime
import json
import os
import re
from html import escape

import model as modelmod
import outlines as outlinesmod
import reproduce
import svg

SCHEMA_VERSION = 1
STATUSES = modelmod.STATUSES
STATUS_LABEL = {"different": "different", "error_fontvm_only": "fails only in fontvm",
                "error_ref_only": "fails only in the reference", "error_both": "fails in both",
                "hardening_limit": "stopped by a fontvm hardening limit"}
MAX_SLOTS_SHOWN = 24


# --- opcode lists -------------------------------------------------------------

_X = re.compile(r"^\s*X\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*,\s*(0[xX][0-9A-Fa-f]+|\d+)\s*(?:,\s*(0[xX][0-9A-Fa-f]+|\d+))?")


def opcode_list(path, variants):
    """[(name, first_byte, flag_bits)] from an X-macro opcode list:
    `X(MNEMONIC, first, flag_bits, ...)` for TrueType (vm/tt/opcodes.def:
    the range covers 1 << flag_bits opcodes), `X(NAME, code, ...)` for
    Graphite (vm/graphite/opcodes.def); None if the file is missing."""
    if not os.path.isfile(path):
        return None
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = _X.match(line)
            if not m:
                continue
            bits = int(m.group(3), 0) if (variants and m.group(3)) else 0
            if not 0 <= bits <= 8:
                continue
            out.append((m.group(1), int(m.group(2), 0), bits))
    return out or None


def _variant_name(name, k, bits):
    """MIRP, 0b01101 -> MIRP[01101] (flags MSB first, as the disassembler
    and the culprit mnemonics print them)."""
    return f"{name}[{k:0{bits}b}]" if bits else name


def coverage(engine, counts, fonts, def_path, rel_def):
    """Rows [{name, opcode, count, fonts}] for every opcode of the list,
    plus any key seen in the records the list does not name."""
    lst = opcode_list(def_path, variants=(engine == "tt"))
    rows, used = [], set()
    if lst:
        for name, first, bits in lst:
            for k in range(1 << bits):
                op = first + k
                vname = _variant_name(name, k, bits)
                keys = [f"0x{op:02X}", vname]
                c = sum(counts.get(x, 0) for x in keys)
                nf = max((fonts.get(x, 0) for x in keys), default=0)
                used.update(keys)
                rows.append({"name": vname, "base": name, "opcode": f"0x{op:02X}", "count": c, "fonts": nf})
    for key in sorted(counts):
        if key not in used:
            rows.append({"name": key, "base": key.split("[")[0], "opcode": key if key.startswith("0x") else None,
                         "count": counts[key], "fonts": fonts.get(key, 0)})
    return {"source": rel_def if lst else None, "opcodes": rows}


# --- report.json ----------------------------------------------------------------

COUNT_KEYS = ("cases", "identical") + STATUSES + ("agree", "known", "unknown")


def _counts(s):
    modelmod.classify(s)
    return {k: s[k] for k in COUNT_KEYS}


def _clean_example(ex, commands=None):
    e = {k: v for k, v in ex.items() if k not in ("type",)}
    if commands is not None and e.get("status") in modelmod.DIFF_STATUSES:
        e["reproduce"] = [{"what": w, "command": c} for w, c in commands.for_case(e)]
    return e


def _totals(m):
    t = m.totals()
    t["conformance"] = (t["identical"] / t["cases"]) if t["cases"] else None
    t["agreement"] = (t["agree"] / t["cases"]) if t["cases"] else None
    return t


def _known_list(m):
    """The entries of known.toml with how many cases each explained (also
    the ones that matched nothing: a fixed difference shows as 0)."""
    if not m.known:
        return []
    out = []
    for e in m.known.entries:
        h = m.known_hits.get(e.id) or {"count": 0, "statuses": {}, "fonts": {}}
        out.append(dict(e.as_json(), text=e.text(), count=h["count"], statuses=dict(h["statuses"]),
                        fonts=dict(h["fonts"])))
    return out


def build(m, root, check=None, check_source=None):
    per_cmp, per_font = m.comparisons()
    t = _totals(m)
    tt_groups = sorted(m.tt_groups.values(), key=lambda g: (-g["count"], g["culprit"]))
    gr_groups = sorted(m.gr_groups.values(), key=lambda g: (-g["count"], g["font"], str(g["culprit"])))
    err_groups = sorted(m.err_groups.values(), key=lambda g: (-g["count"], g["status"]))
    cmds = reproduce.Commands(root, getattr(m, "bin_dir", None) or os.path.join(root, "build", "release"))
    rep = {
        "schema": SCHEMA_VERSION,
        "generated": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "interrupted": bool(m.interrupted),
        "seconds": round(float(m.seconds), 3),
        "versions": {k: m.versions.get(k) for k in ("fontvm", "freetype", "graphite2", "harfbuzz")},
        "totals": t,
        "known_source": os.path.relpath(m.known.source, root) if m.known and m.known.source else None,
        "known_differences": _known_list(m),
        "comparisons": [dict(name=n, engine=s["engine"], incomplete=s["incomplete"], **_counts(s))
                        for n, s in sorted(per_cmp.items())],
        "fonts": [dict(comparison=n, engine=s["engine"], font=f, font_name=m.font_names.get(f),
                       incomplete=s["incomplete"], **_counts(s))
                  for (n, f), s in sorted(per_font.items())],
        "tt_differences": [{"culprit": g["culprit"], "kind": g["kind"], "count": g["count"], "known": g["known"],
                            "fonts": dict(g["fonts"]), "modes": dict(g["modes"]),
                            "examples": [_clean_example(e, cmds) for e in g["examples"]]} for g in tt_groups],
        "gr_differences": [{"font": g["font"], "culprit": g["culprit"], "pass": g["pass"], "rule": g["rule"],
                            "known": g["known"],
                            "count": g["count"], "refs": dict(g["modes"]),
                            "examples": [_clean_example(e, cmds) for e in g["examples"]]} for g in gr_groups],
        "errors": [{"engine": g["engine"], "status": g["status"], "known": g["known"], "ref_error": g["ref_error"],
                    "fontvm_error": g["fontvm_error"], "count": g["count"], "fonts": dict(g["fonts"]),
                    "examples": [_clean_example(e, cmds) for e in g["examples"]]} for g in err_groups],
        "coverage": {
            "tt": coverage("tt", m.opcodes["tt"], m.opcode_fonts["tt"],
                           os.path.join(root, "vm", "tt", "opcodes.def"), "vm/tt/opcodes.def"),
            "gr": coverage("gr", m.opcodes["gr"], m.opcode_fonts["gr"],
                           os.path.join(root, "vm", "graphite", "opcodes.def"), "vm/graphite/opcodes.def"),
        },
        "runner_problems": list(m.runner_errors),
        # TrueType load decisions per stage: how many configurations each
        # engine opened the face / set the size up alike (identical) or not.
        "load_decisions": m.load_totals(),
        # Faults FreeType tolerates silently, met by fontvm's loads
        # (fvconform-tt's tt_summary "lint"; `fontvm lint` per font).
        "hinting_diagnostics": m.lint_list(),
        "jobs": [dict(name=n, **{k: j.get(k) for k in ("engine", "font", "status", "seconds", "exit", "error")})
                 for n, j in sorted(m.jobs.items())],
        "check": None,
        # scripts/conform --web: each web font face's decoded tables
        # against its original's (empty otherwise).
        "web_tables": list(m.web_tables),
        "configs": modelmod.config_list(m),
    }
    if check is not None:
        regs, imps, compared = check
        rep["check"] = {"baseline": check_source, "compared": compared, "regressions": regs,
                        "improvements": len(imps)}
    return rep


def write_baseline(m, path):
    base = {"schema": SCHEMA_VERSION, "kind": "baseline",
            "versions": {k: m.versions.get(k) for k in ("fontvm", "freetype", "graphite2", "harfbuzz")},
            "totals": _totals(m), "configs": modelmod.config_list(m)}
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    # One configuration per line, so a baseline update reads well in a diff.
    head = {k: v for k, v in base.items() if k != "configs"}
    with open(path, "w") as f:
        f.write(json.dumps(head, separators=(",", ":"))[:-1] + ',\n"configs":[\n')
        f.write(",\n".join(json.dumps(c, separators=(",", ":"), ensure_ascii=False) for c in base["configs"]))
        f.write("\n]}\n")


# --- formatting helpers ------------------------------------------------------------

def _n(x):
    return f"{x:,}"


def _pct(a, b):
    return modelmod.pct_text(a, b)


def headline_text(t):
    """The headline in words, the same in the terminal, summary.md and
    (with markup) the page."""
    parts = [f"{_n(t['agree'])} of {_n(t['cases'])} cases agree ({_pct(t['agree'], t['cases'])}): "
             f"{_n(t['identical'])} identical, {_n(t['error_both'])} fail in both",
             f"{_n(t['unknown'])} unknown difference(s)", f"{_n(t['known'])} known",
             f"{_n(t['hardening_limit'])} stopped by a hardening limit"]
    return parts[0] + "; " + ", ".join(parts[1:])


def known_pill(kid, kmap):
    """<span>known: KD-2, graphite2 bug</span>, linked to its entry."""
    if not kid:
        return ""
    k = kmap.get(kid) or {"text": f"known: {kid}", "reason": ""}
    return (f" <a class='pill known' href='#known-{_anchor(kid)}' title='{escape(k.get('reason') or '', quote=True)}'>"
            f"{escape(k['text'])}</a>")


def known_text(kid, kmap):
    if not kid:
        return ""
    return (kmap.get(kid) or {}).get("text") or f"known: {kid}"


def _dur(s):
    s = int(round(s))
    return f"{s // 60} min {s % 60:02d} s" if s >= 60 else f"{s} s"


def _font_label(font, names):
    base = os.path.basename(font)
    full = names.get(font)
    return f"{base}" if not full else f"{base} <span class=muted>({escape(full)})</span>"


def _pt(p):
    return "–" if p is None else f"({p[0]}, {p[1]})"


def _tt_case_line(e, kmap):
    fd = e.get("first_diff") or {}
    cul = e.get("culprit") or {}
    face = f"#{e['face']}" if e.get("face") else ""
    what = (f"{escape(str(e['stage']))} decision" if e.get("stage") else
            f"glyph {e.get('gid')} <code>{escape(str(e.get('glyph_name') or ''))}</code>")
    bits = [f"<b>{escape(os.path.basename(e['font']))}{face}</b>", f"size {escape(str(e.get('size')))}",
            escape(str(e.get("mode"))), what]
    if fd.get("point", -1) >= 0:
        bits.append(f"point {fd['point']}: FreeType {_pt(fd.get('ref'))} fontvm {_pt(fd.get('fontvm'))}")
    elif fd:
        bits.append(f"points FreeType {fd.get('ref_points', '?')} fontvm {fd.get('fontvm_points', '?')}")
    if e.get("ref_advance") != e.get("fontvm_advance"):
        bits.append(f"advance FreeType {e.get('ref_advance')} fontvm {e.get('fontvm_advance')}")
    if cul:
        bits.append(f"culprit <code>{escape(str(cul.get('program')))}@{cul.get('pc')} "
                    f"{escape(str(cul.get('mnemonic')))}</code>")
    return " · ".join(bits) + known_pill(e.get("known"), kmap)


def _gr_table(e):
    det = e.get("detail") or {}
    ref = det.get("ref_glyphs") or []
    fv = det.get("fontvm_glyphs") or []
    slot = (e.get("first_diff") or {}).get("slot", 0) or 0
    lo = max(0, slot - 4)
    hi = min(max(len(ref), len(fv)), lo + MAX_SLOTS_SHOWN)
    keys = ["gid", "x", "y"] + (["cluster"] if any("cluster" in g for g in ref + fv) else [])
    rows = []
    for i in range(lo, hi):
        a = ref[i] if i < len(ref) else None
        b = fv[i] if i < len(fv) else None
        same = a is not None and b is not None and all(a.get(k) == b.get(k) for k in keys)
        cls = "" if same else " class=bad"

        def cell(g):
            return f"<td colspan={len(keys)} class=muted>–</td>" if g is None else \
                "".join(f"<td>{escape(str(g.get(k)))}</td>" for k in keys)
        rows.append(f"<tr{cls}><td>{i}</td>{cell(a)}{cell(b)}</tr>")
    more = f"<p class=muted>slots {lo}–{hi - 1} of {max(len(ref), len(fv))}</p>" if hi - lo < max(len(ref), len(fv)) else ""
    head = "".join(f"<th>{k}</th>" for k in keys)
    return (f"<table class=slots><thead><tr><th rowspan=2>slot</th><th colspan={len(keys)}>reference</th>"
            f"<th colspan={len(keys)}>fontvm</th></tr><tr>{head}{head}</tr>"
            "</thead><tbody>" + "".join(rows) + "</tbody></table>" + more)


def _gr_case_line(e, kmap):
    fd = e.get("first_diff") or {}
    feat = e.get("features") or "defaults"
    text = str(e.get("text") or "")
    bits = [f"<b>{escape(os.path.basename(e['font']))}</b>",
            f"{escape(os.path.basename(e.get('texts', '')))}:{e.get('line')}",
            f"features {escape(feat)}", "RTL" if e.get("rtl") else "LTR", f"vs {escape(str(e.get('ref')))}"]
    if fd:
        what = f" ({escape(str(fd['what']))})" if fd.get("what") else ""
        bits.append(f"first differing slot {fd.get('slot')}{what}: reference {escape(json.dumps(fd.get('ref')))} "
                    f"fontvm {escape(json.dumps(fd.get('fontvm')))}")
    cul = e.get("culprit") or {}
    if cul:
        bits.append(f"pass {cul.get('pass')} rule {cul.get('rule')}")
    return (" · ".join(bits) + known_pill(e.get("known"), kmap)
            + f'<div class=text dir=auto>{escape(text[:200])}</div>')


def _repro_html(e, open_):
    """The commands that reproduce a case, from the repository root."""
    rows = e.get("reproduce") or []
    if not rows:
        return ""
    body = "\n".join(f"# {r['what']}\n{r['command']}" for r in rows)
    return (f"<details class=repro{' open' if open_ else ''}><summary>reproduce (from the repository root)</summary>"
            f"<pre>{escape(body)}</pre></details>")


def _tt_group_id(g):
    return g["culprit"] + (f" {g['known']}" if g.get("known") else "")


def _gr_group_id(g):
    return f"{os.path.basename(g['font'])} {g['culprit']}" + (f" {g['known']}" if g.get("known") else "")


_MACHINE_STATUS = None


def _machine_statuses():
    """Graphite machine status number -> words, from the enum in
    vm/graphite/machine.h (GRV_DIED_EARLY -> "died early"), so the report
    follows the engine's own list."""
    global _MACHINE_STATUS
    if _MACHINE_STATUS is None:
        _MACHINE_STATUS = {}
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "vm", "graphite", "machine.h")
        try:
            with open(path, encoding="utf-8") as f:
                body = re.search(r"typedef enum grv_status \{(.*?)\}", f.read(), re.S)
        except OSError:
            body = None
        if body:
            names = re.findall(r"^\s*GRV_([A-Z_]+)", body.group(1), re.M)
            _MACHINE_STATUS = {i: n.lower().replace("_", " ") for i, n in enumerate(names)}
    return _MACHINE_STATUS


def error_text(text):
    """An engine's error text for people: fontvm's Graphite run-time
    failure "pass: segment failed 5 (pass 2 rule 0: machine status 5)"
    says what failed: "rule 0 of pass 2 stopped: died early (machine
    status 5)"."""
    if not text:
        return ""
    m = re.search(r"segment failed \d+ \(pass (\d+) rule (-?\d+): machine status (\d+)\)", str(text))
    if not m:
        return str(text)
    p, r, st = m.group(1), m.group(2), int(m.group(3))
    what = _machine_statuses().get(st)
    return (f"the segment failed: rule {r} of pass {p} stopped"
            + (f": {what} (machine status {st})" if what else f" with machine status {st}"))


def _matrix_cell(s):
    if s is None:
        return "<td class=na>·</td>"
    modelmod.classify(s)
    bits = [f"{_n(s[k])} {w}" for k, w in (("unknown", "unknown"), ("known", "known"),
                                           ("error_both", "fail in both"), ("hardening_limit", "hardening limit"))
            if s[k]]
    if not s["cases"] and s.get("incomplete"):
        return "<td class=bad>not compared</td>"
    cls = "nz" if s["unknown"] else ("known" if s["known"] else "")
    title = f"{_n(s['identical'])} identical of {_n(s['cases'])}"
    return (f"<td class='{cls}' title='{title}'>{_pct(s['agree'], s['cases'])}"
            + (f" <span class=muted>({', '.join(bits)})</span>" if bits else "") + "</td>")


def font_matrix(rep, m):
    """By font: one row per font, a column per comparison (TrueType mode or
    Graphite reference), least conformant first; each cell the share that
    agrees and what does not."""
    o = ["<h2 id=fonts>By font</h2>"]
    # The engine with differences first.
    engines = sorted((("tt", "TrueType"), ("gr", "Graphite")),
                     key=lambda e: -sum(modelmod.classify(r)["unknown"] * 1000000 + r["known"]
                                        for r in rep["fonts"] if r["engine"] == e[0]))
    for eng, title in engines:
        rows = [r for r in rep["fonts"] if r["engine"] == eng]
        if not rows:
            continue
        cols = sorted({r["comparison"] for r in rows})
        fonts = {}
        for r in rows:
            fonts.setdefault(r["font"], {})[r["comparison"]] = r
        def rank(item):
            cells = item[1].values()
            unknown = sum(c["unknown"] for c in cells)
            known = sum(c["known"] for c in cells)
            agree = sum(c["agree"] for c in cells) / max(1, sum(c["cases"] for c in cells))
            return (-unknown, -known, agree, item[0])
        for r in rows:
            modelmod.classify(r)
        short = {c: c.replace(" vs FreeType", "").replace("Graphite vs ", "vs ").replace("TrueType ", "")
                 for c in cols}
        o.append(f"<details open><summary>{title}: {len(fonts)} font(s) × {len(cols)} comparison(s), "
                 f"least conformant first</summary><table class=matrix id='font-table-{eng}'><thead><tr>"
                 "<th class=l>font</th>" + "".join(f"<th class=l>{escape(short[c])}</th>" for c in cols)
                 + "</tr></thead><tbody>")
        for font, cells in sorted(fonts.items(), key=rank):
            o.append(f"<tr><td class=l>{_font_label(font, m.font_names)}</td>"
                     + "".join(_matrix_cell(cells.get(c)) for c in cols) + "</tr>")
        o.append("</tbody></table></details>")
    return "".join(o)


HEAT_COLOURS = (("agree", "#2da44e", "agree"), ("known", "#d4a72c", "known differences only"),
                ("unknown", "#cf222e", "unknown differences"), ("limit", "#8250df", "hardening limits only"),
                ("missing", "#afb8c1", "not compared (runner failed)"))


def _heat_class(c):
    """One configuration's colour class: the worst of what it holds."""
    if not c["summarised"] and not c["cases"]:
        return "missing"
    diffs = sum(c[k] for k in modelmod.DIFF_STATUSES)
    if diffs > c["known_diffs"]:
        return "unknown"
    if diffs:
        return "known"
    return "limit" if c["hardening_limit"] else "agree"


def _size_key(s):
    try:
        return (float(str(s).split("x")[0]), str(s))
    except ValueError:
        return (1e9, str(s))


def _heat_svg(rows, cols, cells, label_w=230, cell=11, groups=()):
    """rows/cols: [(key, label)]; cells: {(row, col): (class, tooltip)}.
    A grid of small squares; agreeing cells are drawn as one background
    per row segment, so the picture stays small for a large corpus."""
    colour = {k: c for k, c, _ in HEAT_COLOURS}
    w, h = label_w + cell * len(cols) + 4, 18 + cell * len(rows) + 2
    o = [f"<svg class=heat xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' viewBox='0 0 {w} {h}'>"]
    for j, gl in groups:
        o.append(f"<text x='{label_w + j * cell}' y='12' font-size='10' font-weight='600'>{escape(gl)}</text>")
    for j, (ck, cl) in enumerate(cols):
        if not groups and len(cols) < 60 and (j % 2 == 0 or len(cols) <= 20):
            o.append(f"<text x='{label_w + j * cell + cell / 2}' y='12' font-size='8' text-anchor='middle'>"
                     f"{escape(str(cl))}</text>")
    for i, (rk, rl) in enumerate(rows):
        y = 18 + i * cell
        o.append(f"<text x='{label_w - 4}' y='{y + cell - 2}' font-size='9' text-anchor='end'>{escape(rl)}</text>")
        j = 0
        while j < len(cols):
            v = cells.get((rk, cols[j][0]))
            if v is None:
                j += 1
                continue
            cls, tip = v
            if cls == "agree":
                # A run of agreeing cells: one rectangle.
                k = j
                while k + 1 < len(cols) and (cells.get((rk, cols[k + 1][0])) or ("",))[0] == "agree":
                    k += 1
                tip = (f"{rl}: {cols[j][1]}–{cols[k][1]}: all agree" if k > j else tip)
            else:
                k = j
            o.append(f"<rect x='{label_w + j * cell}' y='{y}' width='{cell * (k - j + 1) - 1}' height='{cell - 1}' "
                     f"fill='{colour[cls]}'><title>{escape(tip)}</title></rect>")
            j = k + 1
    o.append("</svg>")
    return "".join(o)


def _tt_row_label(row):
    f, face, loc = row
    return os.path.basename(f) + (f"#{face}" if face else "") + (f" at {loc}" if loc else "")


def heat_maps(m):
    """The matrix view: TrueType font × size per mode, Graphite font ×
    text × feature setting (the worse of the two references), each cell
    coloured by what its configuration holds."""
    tt, gr = {}, {}
    for key, c in m.configs.items():
        if key[0] == "tt":
            # A variable font at a location is a row of its own (a key
            # may end with the location: conformance/RECORDS.md).
            loc = key[5] if len(key) > 5 else ""
            tt.setdefault(key[4], {})[((key[1], key[2], loc), key[3])] = c
        else:
            gr.setdefault((key[1], key[2]), {}).setdefault(key[3], []).append((key[4], c))
    if not tt and not gr:
        return ""
    worst = {k: i for i, (k, _, _) in enumerate(HEAT_COLOURS)}
    worst["missing"] = len(HEAT_COLOURS)
    o = ["<h2 id=matrix>Matrix</h2><p class=legend>"
         + "".join(f"<span><span style='color:{c}'>■</span> {escape(t)}</span>" for _, c, t in HEAT_COLOURS)
         + " · hover a square for its counts.</p>"]
    # TrueType: the modes side by side, one column per size.
    cols, groups, cells = [], [], {}
    fonts = sorted({row for cfgs in tt.values() for row, _ in cfgs})
    for mode in sorted(tt):
        cfgs = tt[mode]
        sizes = sorted({s for _, s in cfgs}, key=_size_key)
        if cols:
            cols.append((("gap", mode), ""))
        groups.append((len(cols), mode))
        cols += [((mode, s), f"{s} ppem {mode}") for s in sizes]
        for (row, size), c in cfgs.items():
            cls = _heat_class(c)
            cells[(row, (mode, size))] = (cls, f"{_tt_row_label(row)} {size} ppem {mode}: {_n(c['identical'])} of "
                                             f"{_n(c['cases'])} identical, {_n(c['error_both'])} fail in both, "
                                             f"{_n(c['known_diffs'])} known, "
                                             f"{_n(sum(c[k] for k in modelmod.DIFF_STATUSES) - c['known_diffs'])} unknown")
    if tt:
        rows = [(row, _tt_row_label(row)) for row in fonts]
        lo_hi = sorted({s for cfgs in tt.values() for _, s in cfgs}, key=_size_key)
        o.append(f"<h3>TrueType: font × size ({escape(lo_hi[0])}–{escape(lo_hi[-1])} ppem, left to right) "
                 "for each mode</h3>" + _heat_svg(rows, cols, cells, cell=7, groups=groups))
    if gr:
        # Each row's own settings, packed left: the font's defaults first,
        # then its feature sweep (the tooltip names each).
        cells, width = {}, 0
        for (f, texts), per in gr.items():
            width = max(width, len(per))
            for col, ft in enumerate(sorted(per, key=lambda x: (x != "", x))):
                refs = per[ft]
                cls = max((_heat_class(c) for _, c in refs), key=lambda k: worst[k])
                tip = "; ".join(f"vs {r}: {_n(c['identical'])} of {_n(c['cases'])} identical, "
                                f"{_n(c['known_diffs'])} known, "
                                f"{_n(sum(c[k] for k in modelmod.DIFF_STATUSES) - c['known_diffs'])} unknown"
                                for r, c in sorted(refs))
                cells[((f, texts), col)] = (cls, f"{os.path.basename(f)} {os.path.basename(texts)} "
                                                 f"[{ft or 'defaults'}]: {tip}")
        rows = [(k, f"{os.path.basename(k[0])} · {os.path.basename(k[1])}") for k in sorted(gr)]
        cols = [(i, str(i)) for i in range(width)]
        o.append("<h3>Graphite: font · text × feature setting (the first square is the font's defaults, then "
                 "each value of its feature sweep; the worse of the two references)</h3>"
                 + _heat_svg(rows, cols, cells, label_w=380, cell=9, groups=[(0, "")]))
    return "".join(o)


def terminal_lines(rep, limit=8):
    """What the terminal prints after a run: the headline, then the
    difference groups, unknown first, each known one named."""
    t = rep["totals"]
    kmap = {k["id"]: k for k in rep.get("known_differences") or []}
    out = [f"fontvm conformance: {headline_text(t)}"]
    groups = []
    for g in rep["tt_differences"]:
        groups.append((g.get("known"), g["count"], f"TrueType {g['culprit']}: {_n(g['count'])} case(s) in "
                       f"{len(g['fonts'])} font(s)"))
    for g in rep["gr_differences"]:
        refs = ", ".join(sorted(g["refs"]))
        groups.append((g.get("known"), g["count"], f"{os.path.basename(g['font'])} {g['culprit']}: "
                       f"{_n(g['count'])} Graphite line(s) vs {refs}"))
    for g in rep["errors"]:
        if g["status"] in modelmod.DIFF_STATUSES:
            groups.append((g.get("known"), g["count"], f"{STATUS_LABEL[g['status']]}: "
                           f"{error_text(g['fontvm_error'] or g['ref_error'])[:90]} ({_n(g['count'])})"))
    unknown = sorted((g for g in groups if not g[0]), key=lambda x: -x[1])
    for _, _, text in unknown[:limit]:
        out.append(f"  unknown: {text}")
    if len(unknown) > limit:
        out.append(f"  … {len(unknown) - limit} more unknown group(s) in the report")
    # Known ones: a line per entry, however many groups its cases fall in.
    for k in rep.get("known_differences") or []:
        if k["count"]:
            fonts = ", ".join(sorted(os.path.basename(f) for f in k["fonts"]))
            out.append(f"  {k['text']}: {_n(k['count'])} case(s) ({fonts}) — {k['upstream']}")
    return out


# --- index.html -----------------------------------------------------------------

CSS = """
:root{--ok:#1a7f37;--bad:#d1242f;--warn:#9a6700;--muted:#656d76;--line:#d0d7de;--bg2:#f6f8fa}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328}
header{padding:18px 28px 8px;border-bottom:1px solid var(--line)}main{padding:8px 28px 40px;max-width:1400px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:15px;margin:16px 0 6px}
.headline{font-size:20px;margin:10px 0 6px}.big{font-size:30px;font-weight:700}
.ok{color:var(--ok)}.bad{color:var(--bad)}.warn{color:var(--warn)}.muted{color:var(--muted)}
table{border-collapse:collapse;margin:6px 0 12px}th,td{border:1px solid var(--line);padding:3px 8px;text-align:right;vertical-align:top}
th{background:var(--bg2);font-weight:600}td.l,th.l{text-align:left}tr.total td{font-weight:700;background:var(--bg2)}
td.z{color:#8c959f}td.nz{color:var(--bad);font-weight:600}tr.bad td{background:#fff1f0}
.nw{white-space:nowrap}.bar{display:inline-block;width:120px;height:10px;background:#ffd8d3;vertical-align:middle;border-radius:2px;overflow:hidden}
.bar i{display:block;height:100%;background:var(--ok)}
.meta{color:var(--muted);font-size:13px}.pill{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600}
.pill.ok{background:#dafbe1}.pill.bad{background:#ffebe9}
details{margin:4px 0}summary{cursor:pointer}
.group{border:1px solid var(--line);border-radius:6px;padding:8px 12px;margin:10px 0}
.group h3{margin:0 0 4px}.case{margin:8px 0 14px}.pics{display:flex;gap:16px;flex-wrap:wrap;align-items:flex-start}
svg{background:#fff;border:1px solid var(--line)}.legend span{margin-right:14px}
.text{font-size:16px;margin:2px 0 4px}code{font-size:12.5px;background:var(--bg2);padding:0 3px;border-radius:3px}
.cov{display:flex;flex-wrap:wrap;gap:3px}.cov span{font:11px monospace;padding:1px 4px;border-radius:3px;border:1px solid var(--line)}
.cov .c0{background:#ffebe9;color:var(--bad)}.cov .c1{background:#dafbe1}
table.slots td,table.slots th{font:12px monospace;padding:1px 6px}
.pill.known,a.pill.known{background:#fff8c5;color:#7d4e00;text-decoration:none;font-weight:600}td.known{color:#7d4e00}
.classes{font-size:16px;margin:2px 0 8px}
.repro pre{background:var(--bg2);padding:6px 8px;font-size:12px;white-space:pre-wrap;word-break:break-all;margin:4px 0}
table.matrix td{text-align:left;white-space:nowrap}table.matrix td.na{color:#8c959f;text-align:center}
"""


def _count_cells(s):
    cells = [f"<td>{_n(s['cases'])}</td>",
             f"<td>{_n(s['identical'])}</td>"]
    modelmod.classify(s)
    for k in STATUSES:
        v = s[k]
        # Fails in both is agreement, a hardening limit its own class:
        # neither is marked as a failure; differences are red while some
        # are unknown.
        cls = "z" if not v else ("" if k not in modelmod.DIFF_STATUSES else "nz" if s["unknown"] else "known")
        cells.append(f"<td class={cls or 'plain'}>{_n(v)}</td>")
    if not s["cases"] and s.get("incomplete"):
        cells.append("<td class=l><b class=bad>not compared</b> (runner failed)</td>")
        return "".join(cells)
    modelmod.classify(s)
    cells.append(f"<td class={'z' if not s['known'] else 'known'}>{_n(s['known'])}</td>")
    cells.append(f"<td class={'nz' if s['unknown'] else 'z'}>{_n(s['unknown'])}</td>")
    pct = (s["agree"] / s["cases"]) if s["cases"] else 0
    cells.append(f"<td class='l nw'><span class=bar><i style='width:{pct * 100:.2f}%'></i></span> {_pct(s['agree'], s['cases'])}</td>")
    return "".join(cells)


TABLE_HEAD = ("<th>cases</th><th>identical</th><th>different</th><th>fails only in fontvm</th>"
              "<th>fails only in reference</th><th>fails in both</th><th>hardening limit</th>"
              "<th>known differences</th><th>unknown differences</th><th class=l>agree</th>")


def html(rep, m):
    outlines = outlinesmod.Outlines(m.name.root)
    o = []
    kmap = {k["id"]: k for k in rep.get("known_differences") or []}
    t = rep["totals"]
    v = rep["versions"]
    conform = t["cases"] and t["identical"] == t["cases"]
    o.append("<!doctype html><html lang=en><head><meta charset=utf-8>"
             "<meta name=viewport content='width=device-width,initial-scale=1'>"
             "<title>fontvm conformance report</title><style>" + CSS + "</style></head><body>")
    o.append("<header><h1>fontvm conformance report</h1>")
    refs = [f"{n} {escape(str(v[k]))}" for k, n in (("freetype", "FreeType"), ("graphite2", "graphite2"),
                                                   ("harfbuzz", "HarfBuzz")) if v.get(k)]
    refs_s = ", ".join(refs[:-1]) + " and " + refs[-1] if len(refs) > 1 else (refs[0] if refs else "?")
    o.append("<div class=meta>fontvm " + escape(str(v.get("fontvm") or "?")) + " compared with " + refs_s +
             f" · run time {_dur(rep['seconds'])} · {escape(rep['generated'])}"
             + (" · <b class=bad>run interrupted: partial results</b>" if rep["interrupted"] else "") + "</div>")
    if t["cases"]:
        cls = "ok" if not t["unknown"] else "bad"
        o.append(f"<p class=headline><span class='big {cls}' id=conformance>{_pct(t['agree'], t['cases'])}</span> "
                 f"of {_n(t['cases'])} cases agree with the reference engines: {_n(t['identical'])} identical, "
                 f"{_n(t['error_both'])} fail in both</p>")
        o.append("<p class=classes>"
                 f"<span id=unknown-count class={'bad' if t['unknown'] else 'ok'}><b>{_n(t['unknown'])}</b> unknown "
                 "difference(s)</span> · "
                 f"<a href='#known' id=known-count><b>{_n(t['known'])}</b> known difference(s)</a> "
                 f"<span class=muted>(explained in {escape(str(rep.get('known_source') or 'known.toml'))})</span> · "
                 f"<span id=hardening-count><b>{_n(t['hardening_limit'])}</b> stopped by a fontvm hardening limit</span>"
                 + (" <span class=muted>(a work budget the reference does not have: not a conformance failure)</span>"
                    if t["hardening_limit"] else "")
                 + (f" · of the differences, {_n(t['different'])} different, {_n(t['error_fontvm_only'])} fail only in "
                    f"fontvm, {_n(t['error_ref_only'])} only in the reference"
                    if t["known"] + t["unknown"] else "") + "</p>")
    else:
        o.append("<p class='headline bad'>No cases were compared.</p>")
    loads = rep.get("load_decisions") or {}
    if any(loads.values()):
        parts = []
        for stage, label in (("face", "opens the face"), ("size", "sets the size up"),
                             ("location", "normalizes the design location")):
            c = loads.get(stage) or {}
            n = sum(c.values())
            alike = c.get("identical", 0) + c.get("error_both", 0)   # both refuse: agreed
            if n:
                parts.append(f"{label}: {_n(alike)} of {_n(n)} configurations alike"
                             + (f" ({_n(c['error_both'])} refused by both)" if c.get("error_both") else "")
                             + (f" — <b class=bad>{_n(n - alike)}</b> not" if n - alike else ""))
        o.append("<p class=meta>TrueType load decisions (FreeType vs fontvm) · " + " · ".join(parts) + "</p>")
    # Where it is not: the largest groups, one line each.
    where = []
    unknown_first = (lambda g: bool(g.get("known")))
    for g in sorted(rep["tt_differences"], key=unknown_first)[:4]:
        where.append(f"<a href='#tt-{_anchor(_tt_group_id(g))}'><code>{escape(g['culprit'])}</code></a> "
                     f"({_n(g['count'])} TrueType cases, {len(g['fonts'])} font(s)){known_pill(g.get('known'), kmap)}")
    for g in sorted(rep["gr_differences"], key=unknown_first)[:4]:
        where.append(f"<a href='#gr-{_anchor(_gr_group_id(g))}'>{escape(os.path.basename(g['font']))} "
                     f"{escape(g['culprit'])}</a> ({_n(g['count'])} Graphite lines){known_pill(g.get('known'), kmap)}")
    for g in [e for e in rep["errors"] if e["status"] in modelmod.DIFF_STATUSES][:2]:
        where.append(f"{escape(STATUS_LABEL[g['status']])}: {escape(error_text(g['fontvm_error'] or g['ref_error']))[:80]} "
                     f"({_n(g['count'])}){known_pill(g.get('known'), kmap)}")
    if where:
        o.append("<p><b>Where they differ:</b> " + "; ".join(where) + ".</p>")
    failed = [j for j in rep["jobs"] if j["status"] == "failed"]
    if failed:
        o.append(f"<p class=bad><b>{len(failed)} of {len(rep['jobs'])} runner jobs failed</b>; the cases they "
                 "did not compare are not counted above (see <a href='#runner-problems'>Runner problems</a>).</p>")
    if rep["check"] is not None:
        c = rep["check"]
        regs = [r for r in c["regressions"] if not r.get("known")]
        if regs:
            o.append(f"<p class=bad><b>Baseline check against {escape(str(c['baseline']))}: "
                     f"{len(regs)} regression(s)</b> (see below).</p>")
        else:
            o.append(f"<p class=ok>Baseline check against {escape(str(c['baseline']))}: no regressions "
                     f"({c['compared']} configurations compared, {c['improvements']} case(s) improved).</p>")
    o.append("</header><main>")

    # Summary per comparison.
    o.append("<h2 id=summary>Summary by comparison</h2><table id=summary-table><thead><tr><th class=l>comparison</th>"
             + TABLE_HEAD + "</tr></thead><tbody>")
    for c in rep["comparisons"]:
        inc = (f" <span class=warn>({c['incomplete']} configuration(s) not compared)</span>"
               if c["incomplete"] else "")
        o.append(f"<tr><td class=l>{escape(c['name'])}{inc}</td>{_count_cells(c)}</tr>")
    o.append(f"<tr class=total><td class=l>total</td>{_count_cells(t)}</tr></tbody></table>")
    o.append("<p class=meta>Agree: identical, or both engines refuse the case. A known difference is one an entry of "
             f"<code>{escape(str(rep.get('known_source') or 'conformance/known.toml'))}</code> explains (see below); "
             "<code>--check</code> fails only on unknown ones.</p>")

    # Known differences.
    o.append("<h2 id=known>Known differences</h2>")
    if not kmap:
        o.append("<p class=muted>No known-differences file was read.</p>")
    else:
        o.append("<table id=known-table><thead><tr><th class=l>known</th><th class=l>class</th><th>cases</th>"
                 "<th class=l>fonts</th><th class=l>why</th><th class=l>written up / reproducer</th></tr></thead><tbody>")
        for k in rep["known_differences"]:
            fonts = ", ".join(escape(os.path.basename(f)) for f in sorted(k["fonts"]))
            o.append(f"<tr id='known-{_anchor(k['id'])}'><td class='l nw'><span class='pill known'>{escape(k['text'])}</span></td>"
                     f"<td class=l>{escape(k['class'])}</td><td>{_n(k['count'])}</td><td class=l>{fonts or '–'}</td>"
                     f"<td class=l>{escape(k['reason'])}</td><td class=l><code>{escape(k['upstream'])}</code>"
                     + (f"<br><code>{escape(k['reproducer'])}</code>" if k["reproducer"] else "") + "</td></tr>")
        o.append("</tbody></table>")

    # Regressions first when checking.
    if rep["check"] is not None and rep["check"]["regressions"]:
        o.append("<h2 id=regressions class=bad>Regressions against the baseline</h2><table><thead><tr>"
                 "<th class=l>case</th><th class=l>baseline</th><th class=l>now</th></tr></thead><tbody>")
        for r in rep["check"]["regressions"][:500]:
            o.append(f"<tr{'' if r.get('known') else ' class=bad'}><td class=l>{escape(r['case'])}"
                     f"{known_pill(r.get('known'), kmap)}</td><td class=l>{escape(r['was'])}</td>"
                     f"<td class=l>{escape(r['now'])}</td></tr>")
        o.append("</tbody></table>")

    # Per font: one row, a column per comparison.
    o.append(font_matrix(rep, m))

    # TrueType differences.
    o.append("<h2 id=tt-differences>TrueType differences, by the instruction responsible</h2>")
    if not rep["tt_differences"]:
        o.append("<p class=ok>None.</p>")
    else:
        o.append("<p class=legend><span style='color:#1f6feb'>■ FreeType (filled, circles)</span>"
                 "<span style='color:#d1242f'>□ fontvm (dashed, squares)</span>"
                 "<span style='color:#f59e0b'>◯ points that differ</span> · grid: one pixel; dashed verticals: advances."
                 " The culprit is the last instruction in fontvm's trace that moved the first differing point.</p>")
        o.append("<table><thead><tr><th class=l>culprit</th><th>cases</th><th class=l>fonts</th><th class=l>modes</th></tr>"
                 "</thead><tbody>")
        for g in rep["tt_differences"]:
            fonts = ", ".join(f"{escape(os.path.basename(f))} ({_n(c)})" for f, c in sorted(g["fonts"].items(), key=lambda x: -x[1])[:4])
            more = f" +{len(g['fonts']) - 4}" if len(g["fonts"]) > 4 else ""
            modes = ", ".join(f"{escape(k)} ({_n(c)})" for k, c in sorted(g["modes"].items()))
            o.append(f"<tr><td class=l><a href='#tt-{_anchor(_tt_group_id(g))}'><code>{escape(g['culprit'])}</code></a>"
                     f"{known_pill(g.get('known'), kmap)}</td>"
                     f"<td>{_n(g['count'])}</td><td class=l>{fonts}{more}</td><td class=l>{modes}</td></tr>")
        o.append("</tbody></table>")
        for g in rep["tt_differences"]:
            o.append(f"<div class=group id='tt-{_anchor(_tt_group_id(g))}'><h3><code>{escape(g['culprit'])}</code> — "
                     f"{_n(g['count'])} case(s){known_pill(g.get('known'), kmap)}</h3>")
            for i, e in enumerate(g["examples"]):
                pic = svg.tt_glyph(e)
                if pic:
                    pic += svg.tt_raster(e)
                if i == 1:
                    o.append(f"<details><summary>{len(g['examples']) - 1} more example(s)</summary>")
                o.append(f"<div class=case><div>{_tt_case_line(e, kmap)}</div>"
                         + (f"<div class=pics>{pic}</div>" if pic else "") + _repro_html(e, i == 0) + "</div>")
            if len(g["examples"]) > 1:
                o.append("</details>")
            o.append("</div>")

    # Graphite differences.
    o.append("<h2 id=gr-differences>Graphite differences, by font and rule</h2>")
    if not rep["gr_differences"]:
        o.append("<p class=ok>None.</p>")
    else:
        o.append("<table><thead><tr><th class=l>font</th><th class=l>pass / rule</th><th>lines</th>"
                 "<th class=l>references</th></tr></thead><tbody>")
        for g in rep["gr_differences"]:
            refs = ", ".join(f"{escape(k)} ({_n(c)})" for k, c in sorted(g["refs"].items()))
            o.append(f"<tr><td class=l>{escape(os.path.basename(g['font']))}</td><td class=l>"
                     f"<a href='#gr-{_anchor(_gr_group_id(g))}'>{escape(g['culprit'])}</a>{known_pill(g.get('known'), kmap)}</td>"
                     f"<td>{_n(g['count'])}</td><td class=l>{refs}</td></tr>")
        o.append("</tbody></table>")
        for g in rep["gr_differences"]:
            o.append(f"<div class=group id='gr-{_anchor(_gr_group_id(g))}'><h3>{escape(os.path.basename(g['font']))} — "
                     f"{escape(g['culprit'])} — {_n(g['count'])} line(s){known_pill(g.get('known'), kmap)}</h3>")
            for i, e in enumerate(g["examples"]):
                if i == 1:
                    o.append(f"<details><summary>{len(g['examples']) - 1} more example(s)</summary>")
                pic = svg.gr_overlay(e, outlines.path) + svg.gr_runs(e)
                o.append(f"<div class=case><div>{_gr_case_line(e, kmap)}</div><div class=pics>"
                         + (_gr_table(e) if e.get("detail") else "") + pic + "</div>" + _repro_html(e, i == 0) + "</div>")
            if len(g["examples"]) > 1:
                o.append("</details>")
            o.append("</div>")

    # Error agreement.
    o.append("<h2 id=errors>Error agreement</h2>")
    errs = rep["errors"]
    if not errs:
        o.append("<p class=ok>No case failed in either engine.</p>")
    else:
        o.append("<p>Cases where an engine reported an error. “Fails in both” is agreement; the others are "
                 "differences.</p><table><thead><tr><th class=l>engine</th><th class=l>outcome</th><th>cases</th>"
                 "<th class=l>reference error</th><th class=l>fontvm error</th><th class=l>example</th></tr></thead><tbody>")
        for g in errs:
            ex = g["examples"][0] if g["examples"] else {}
            where = (f"{escape(os.path.basename(ex.get('font', '')))} size {escape(str(ex.get('size')))} "
                     f"{escape(str(ex.get('mode')))} glyph {ex.get('gid')}" if g["engine"] == "tt" else
                     f"{escape(os.path.basename(ex.get('font', '')))} {escape(os.path.basename(ex.get('texts', '')))}:{ex.get('line')}"
                     f" vs {escape(str(ex.get('ref')))}")
            cls = "" if g["status"] in ("error_both", "hardening_limit") or g.get("known") else " class=bad"
            o.append(f"<tr{cls}><td class=l>{'TrueType' if g['engine'] == 'tt' else 'Graphite'}</td>"
                     f"<td class=l>{escape(STATUS_LABEL[g['status']])}{known_pill(g.get('known'), kmap)}</td>"
                     f"<td>{_n(g['count'])}</td>"
                     f"<td class=l><code>{escape(error_text(g['ref_error']) or '–')}</code></td>"
                     f"<td class=l><code>{escape(error_text(g['fontvm_error']) or '–')}</code></td><td class=l>{where}</td></tr>")
        o.append("</tbody></table>")

    o.append(heat_maps(m))
    o.append(lint_section(rep))

    # Coverage.
    o.append("<h2 id=coverage>Opcode coverage</h2><p>How many times the corpus made fontvm execute each opcode "
             "(and flag variant). An opcode executed 0 times is not proven by this corpus.</p>")
    for eng, title in (("tt", "TrueType"), ("gr", "Graphite")):
        cov = rep["coverage"][eng]
        rows = cov["opcodes"]
        zero = sum(1 for r in rows if r["count"] == 0)
        src = (f"opcode list from <code>{escape(cov['source'])}</code>" if cov["source"]
               else "<span class=warn>opcode list not available: only executed opcodes are listed</span>")
        o.append(f"<h3>{title}: {len(rows) - zero} of {len(rows)} executed · {src}</h3>")
        if rows:
            o.append("<div class=cov>")
            for r in rows:
                op = f"{r['opcode']} " if r["opcode"] and r["opcode"] != r["name"] else ""
                o.append(f"<span class={'c0' if r['count'] == 0 else 'c1'} title='{escape(op)}{escape(r['name'])}: "
                         f"{r['count']} in {r['fonts']} font(s)'>{escape(r['name'])} {_n(r['count'])}</span>")
            o.append("</div>")

    if rep["runner_problems"]:
        o.append("<h2 id=runner-problems class=bad>Runner problems</h2><table><thead><tr><th class=l>job</th>"
                 "<th class=l>message</th></tr></thead><tbody>")
        for p in rep["runner_problems"][:300]:
            o.append(f"<tr><td class=l>{escape(p['job'])}</td><td class=l>{escape(p['message'])}</td></tr>")
        o.append("</tbody></table>")

    njobs = len(rep["jobs"])
    o.append(f"<h2 id=about>About this run</h2><p class=meta>{njobs} runner jobs; machine-readable results in "
             "<code>report.json</code> (schema <code>conformance/report/report.schema.json</code>); raw records in "
             "<code>records/</code>. Each case compares every outline point and the advance (TrueType, 26.6 units) "
             "or every glyph id and position (Graphite, font units) exactly.</p>")
    o.append("</main></body></html>")
    return "".join(o)


def lint_section(rep):
    """The faults FreeType tolerates silently that the run's fonts contain:
    one row per font and class (`fontvm lint FONT` lists them per size)."""
    rows = rep.get("hinting_diagnostics") or []
    o = ["<h2 id=lint>Hinting diagnostics: faults FreeType tolerates silently</h2>"
         "<p>While hinting, fontvm counted the faults FreeType ignores (an index out of range, missing stack "
         "values read as zeros), the glyph programs a fault stopped (FreeType keeps the partly hinted glyph) "
         "and the v40 moves dropped after IUP. Neither engine reports them, so they are not differences; "
         "<code>fontvm lint FONT</code> lists them per size.</p>"]
    if not rows:
        o.append("<p class=ok>None in the TrueType fonts of this run.</p>")
        return "".join(o)
    fonts = len({r["font"] for r in rows})
    o.append(f"<p class=meta>{fonts} font(s), {len(rows)} font and diagnostic pair(s).</p>"
             "<table id=lint-table><thead><tr><th class=l>font</th><th class=l>diagnostic</th><th>count</th>"
             "<th>glyph loads</th><th>configurations</th><th class=l>by mode</th>"
             "<th class=l>first (smallest size)</th></tr></thead><tbody>")
    for r in rows[:500]:
        modes = ", ".join(f"{k} {_n(v)}" for k, v in r["modes"].items())
        o.append(f"<tr><td class=l>{escape(os.path.basename(r['font']))}</td><td class=l><code>{escape(r['class'])}</code></td>"
                 f"<td>{_n(r['count'])}</td><td>{_n(r['glyphs'])}</td><td>{_n(r['configs'])}</td>"
                 f"<td class=l>{escape(modes)}</td><td class=l>{escape(r['first_size'])} ppem {escape(r['first_mode'])}: "
                 f"<code>{escape(r['first'])}</code></td></tr>")
    o.append("</tbody></table>")
    if len(rows) > 500:
        o.append(f"<p class=meta>… and {len(rows) - 500} more in report.json.</p>")
    return "".join(o)


def _anchor(s):
    return re.sub(r"[^A-Za-z0-9]+", "-", s).strip("-") or "x"


# --- summary.md ---------------------------------------------------------------------

def markdown(rep):
    t = rep["totals"]
    v = rep["versions"]
    o = ["## fontvm conformance", ""]
    if rep["check"] is not None:
        c = rep["check"]
        regs = [r for r in c["regressions"] if not r.get("known")]
        if regs:
            o.append(f"**:x: {len(regs)} regression(s) against `{c['baseline']}`**")
            o.append("")
            for r in regs[:20]:
                o.append(f"- {r['case']}: {r['was']} → {r['now']}")
            if len(regs) > 20:
                o.append(f"- … and {len(regs) - 20} more")
        else:
            o.append(f":white_check_mark: no regressions against `{c['baseline']}` "
                     f"({c['compared']} configurations; {c['improvements']} case(s) improved)")
        o.append("")
    o.append(f"**{headline_text(t)}**"
             + (" (run interrupted: partial)" if rep["interrupted"] else "") + ".")
    failed = [j for j in rep["jobs"] if j["status"] == "failed"]
    if failed:
        o.append("")
        o.append(f":warning: {len(failed)} of {len(rep['jobs'])} runner jobs failed; their cases are not counted:")
        o.append("")
        seen = []
        for p in rep["runner_problems"]:
            if p["message"] not in seen and not p["message"].startswith("runner exited with status 1 without"):
                seen.append(p["message"])
        for msg in seen[:6]:
            o.append(f"- {msg[:200]}")
    o.append("")
    o.append("| comparison | cases | identical | different | fails only in fontvm | fails only in reference | fails in both "
             "| hardening limit | known | unknown | agree |")
    o.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for c in rep["comparisons"] + [dict(t, name="**total**")]:
        o.append(f"| {c['name']} | {_n(c['cases'])} | {_n(c['identical'])} | {_n(c['different'])} | "
                 f"{_n(c['error_fontvm_only'])} | {_n(c['error_ref_only'])} | {_n(c['error_both'])} | "
                 f"{_n(c['hardening_limit'])} | {_n(c['known'])} | {_n(c['unknown'])} | {_pct(c['agree'], c['cases'])} |")
    o.append("")
    lines = terminal_lines(rep, limit=12)[1:]
    if lines:
        o.append("Differences by group, unknown first:")
        o.append("")
        o += [f"- {x.strip()}" for x in lines]
        o.append("")
    repro = []
    for g in rep["tt_differences"] + rep["gr_differences"] + rep["errors"]:
        ex = next((e for e in g["examples"] if e.get("reproduce")), None)
        if ex and len(repro) < 6:
            name = g.get("culprit") or STATUS_LABEL[g["status"]]
            where = os.path.basename(ex["font"])
            repro.append((bool(g.get("known")), f"{where} {name}" + (f" ({g['known']})" if g.get("known") else ""),
                          ex["reproduce"]))
    if repro:
        o.append("<details><summary>Reproduce (one case per group, from the repository root)</summary>")
        o.append("")
        for _, title, rows in sorted(repro, key=lambda x: x[0]):
            o.append(f"{title}:")
            o.append("")
            o.append("```sh")
            o += [f"# {r['what']}\n{r['command']}" for r in rows]
            o.append("```")
            o.append("")
        o.append("</details>")
        o.append("")
    hits = [k for k in rep.get("known_differences") or [] if k["count"]]
    if hits:
        o.append("Known: " + "; ".join(f"**{k['id']}** ({k['label']}, {_n(k['count'])} case(s)): {k['upstream']}"
                                        for k in hits) + ".")
    bad = sorted((f for f in rep["fonts"] if f["unknown"]), key=lambda f: -f["unknown"])[:10]
    if bad:
        o.append("")
        o.append("Fonts with unknown differences: " + ", ".join(
            f"{os.path.basename(f['font'])} ({f['comparison']}: {_n(f['unknown'])})" for f in bad) + ".")
    o.append("")
    vers = ", ".join(f"{n} {v[k]}" for k, n in (("fontvm", "fontvm"), ("freetype", "FreeType"),
                                                ("graphite2", "graphite2"), ("harfbuzz", "HarfBuzz")) if v.get(k))
    o.append(f"<sub>{vers} · run time {_dur(rep['seconds'])}</sub>")
    return "\n".join(o) + "\n"


def write_all(m, out, root, check=None, check_source=None):
    rep = build(m, root, check, check_source)
    paths = {"json": os.path.join(out, "report.json"), "html": os.path.join(out, "index.html"),
             "md": os.path.join(out, "summary.md")}
    with open(paths["json"], "w", encoding="utf-8") as f:
        # dumps, not dump: json.dump encodes in Python piece by piece,
        # dumps in one call of the C encoder (7 times faster here).
        f.write(json.dumps(rep, ensure_ascii=False, separators=(",", ":")))
        f.write("\n")
    with open(paths["html"], "w", encoding="utf-8") as f:
        f.write(html(rep, m))
    with open(paths["md"], "w", encoding="utf-8") as f:
        f.write(markdown(rep))
    return paths, rep
