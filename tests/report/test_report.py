#!/usr/bin/env python3
"""Tests of the conformance report (conformance/report/): the JSON schema,
the baseline check, and the page as a browser shows it.

Run by ctest (tests/report/CMakeLists.txt) as
  test_report.py SOURCE_DIR WORK_DIR [unittest args]
The fixtures (tests/report/fixtures/{base,regressed}) are runner records
(conformance/RECORDS.md): FreeType's real hinted outlines of Liberation Sans
and DejaVu Sans glyphs with a few points moved on the fontvm side, and a
Padauk glyph run, so every section of the report has something to show.
`regressed` is `base` with one identical TrueType glyph now different, one
different glyph now failing and one identical Graphite line now failing.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))   # cdp.py

SRC = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WORK = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="fv-report-")
RUN = os.path.join(SRC, "conformance", "report", "run.py")
FIX = os.path.join(SRC, "tests", "report", "fixtures")
SCHEMA = os.path.join(SRC, "conformance", "report", "report.schema.json")


def run(*args):
    return subprocess.run([sys.executable, RUN, *args], capture_output=True, text=True, cwd=SRC, timeout=300)


def replay(name, out, *extra):
    r = run("--replay", os.path.join(FIX, name), "--out", out, *extra)
    return r


class Schema(unittest.TestCase):
    def test_report_json_validates(self):
        import jsonschema
        out = os.path.join(WORK, "schema")
        r = replay("regressed", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(SCHEMA) as f:
            schema = json.load(f)
        jsonschema.Draft7Validator.check_schema(schema)
        with open(os.path.join(out, "report.json")) as f:
            rep = json.load(f)
        jsonschema.Draft7Validator(schema).validate(rep)
        # The content is what the fixtures say.
        t = rep["totals"]
        self.assertEqual((t["cases"], t["identical"], t["different"], t["error_fontvm_only"], t["error_both"]),
                         (21447, 21438, 6, 2, 1))
        culprits = {g["culprit"]: g["count"] for g in rep["tt_differences"]}
        self.assertEqual(culprits, {"MIRP[01101]": 1, "DELTAP1": 1, "SHPIX": 1, "(advance only)": 1})
        self.assertEqual(rep["gr_differences"][0]["culprit"], "pass 3 rule 12")
        self.assertEqual(rep["gr_differences"][0]["count"], 2)
        self.assertEqual(rep["versions"]["freetype"], "2.12.1")

    def test_baseline_validates(self):
        import jsonschema
        with open(SCHEMA) as f:
            schema = json.load(f)
        out = os.path.join(WORK, "schema-baseline")
        base = os.path.join(out, "baseline.json")
        r = replay("base", out, "--save-baseline", base)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(base) as f:
            b = json.load(f)
        self.assertEqual(b["kind"], "baseline")
        cfg = jsonschema.Draft7Validator(dict(schema, required=["schema", "configs"]))
        cfg.validate(b)

    def test_committed_baselines_validate(self):
        import jsonschema
        with open(SCHEMA) as f:
            schema = json.load(f)
        v = jsonschema.Draft7Validator(dict(schema, required=["schema", "kind", "configs"]))
        d = os.path.join(SRC, "conformance", "baseline")
        names = [n for n in os.listdir(d) if n.endswith(".json")]
        self.assertIn("quick.json", names)
        self.assertIn("default.json", names)
        for n in names:
            with open(os.path.join(d, n)) as f:
                b = json.load(f)
            v.validate(b)
            self.assertEqual(b["kind"], "baseline")
            self.assertTrue(b["configs"], n)

    def test_schema_rejects_a_broken_report(self):
        import jsonschema
        out = os.path.join(WORK, "schema-broken")
        self.assertEqual(replay("base", out).returncode, 0)
        with open(SCHEMA) as f:
            schema = json.load(f)
        with open(os.path.join(out, "report.json")) as f:
            rep = json.load(f)
        rep["configs"][0]["nonidentical"] = {"d": "12,x"}
        with self.assertRaises(jsonschema.ValidationError):
            jsonschema.Draft7Validator(schema).validate(rep)


class Check(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = os.path.join(WORK, "check")
        cls.base = os.path.join(cls.out, "baseline.json")
        r = replay("base", os.path.join(cls.out, "a"), "--save-baseline", cls.base)
        assert r.returncode == 0, r.stderr

    def test_unchanged_run_passes(self):
        r = replay("base", os.path.join(self.out, "b"), "--check", self.base)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("0 regression(s)", r.stdout)

    def test_regression_fails_and_is_printed_first(self):
        r = replay("regressed", os.path.join(self.out, "c"), "--check", self.base)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        lines = r.stdout.splitlines()
        self.assertTrue(lines[0].startswith("REGRESSIONS: 3 case(s)"), lines[:3])
        body = "\n".join(lines[1:4])
        self.assertIn("DejaVuSans.ttf size 16 v40 glyph 36: identical -> different", body)
        self.assertIn("LiberationSans-Regular.ttf size 12 v40 glyph 68: different -> error_fontvm_only", body)
        self.assertIn("my_HeadwordSyllables.txt:40 vs graphite2: identical -> error_fontvm_only", body)
        with open(os.path.join(self.out, "c", "report.json")) as f:
            self.assertEqual(len(json.load(f)["check"]["regressions"]), 3)
        with open(os.path.join(self.out, "c", "summary.md")) as f:
            self.assertIn("3 regression(s)", f.read())

    def test_improvement_passes(self):
        # The regressed run as baseline, the base run now: only improvements.
        b2 = os.path.join(self.out, "baseline-regressed.json")
        self.assertEqual(replay("regressed", os.path.join(self.out, "d"), "--save-baseline", b2).returncode, 0)
        r = replay("base", os.path.join(self.out, "e"), "--check", b2)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("improvements: 2 case(s)", r.stdout)

    def test_report_json_works_as_baseline(self):
        r = replay("regressed", os.path.join(self.out, "f"), "--check", os.path.join(self.out, "a", "report.json"))
        self.assertEqual(r.returncode, 1)

    def test_unrelated_baseline_fails(self):
        empty = os.path.join(self.out, "empty.json")
        with open(empty, "w") as f:
            json.dump({"schema": 1, "configs": []}, f)
        r = replay("base", os.path.join(self.out, "g"), "--check", empty)
        self.assertEqual(r.returncode, 1)
        self.assertIn("nothing was checked", r.stderr)

    def test_bad_baseline_is_a_usage_error(self):
        bad = os.path.join(self.out, "bad.json")
        with open(bad, "w") as f:
            f.write("[1,2")
        r = replay("base", os.path.join(self.out, "h"), "--check", bad)
        self.assertEqual(r.returncode, 2)
        self.assertIn("not a baseline", r.stderr)


class HardeningLimit(unittest.TestCase):
    """A case fontvm stopped at a work budget (a budget_* error, status
    hardening_limit in the runner's records) is counted apart: not a
    conformance failure, and named so in the page and the summary."""

    def test_hardening_limit_is_counted_apart(self):
        import jsonschema
        d = os.path.join(WORK, "hardening-in")
        os.makedirs(d, exist_ok=True)
        font = "/tmp/composite-fanout.ttf"
        recs = [
            {"type": "run", "schema": 1, "runner": "tt", "fontvm": "0.1.0", "freetype": "2.12.1"},
            {"type": "tt_case", "font": font, "face": 0, "size": "12", "mode": "v40", "gid": 3,
             "glyph_name": "", "status": "hardening_limit", "ref_error": None,
             "fontvm_error": "glyf: budget components 2 (more than 2048 component references per glyph load) (glyph 2)",
             "first_diff": None, "culprit": None},
            {"type": "tt_summary", "font": font, "face": 0, "font_name": "Fan-out", "size": "12", "mode": "v40",
             "cases": 4, "identical": 3, "different": 0, "error_fontvm_only": 0, "error_ref_only": 0,
             "error_both": 0, "hardening_limit": 1, "seconds": 0.01},
        ]
        with open(os.path.join(d, "tt-hardening.jsonl"), "w") as f:
            for r in recs:
                f.write(json.dumps(r) + "\n")
        out = os.path.join(WORK, "hardening")
        r = run("--replay", d, "--out", out)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("1 stopped by a hardening limit", r.stdout)
        with open(SCHEMA) as f:
            schema = json.load(f)
        with open(os.path.join(out, "report.json")) as f:
            rep = json.load(f)
        jsonschema.Draft7Validator(schema).validate(rep)
        t = rep["totals"]
        self.assertEqual((t["cases"], t["identical"], t["hardening_limit"], t["error_fontvm_only"]), (4, 3, 1, 0))
        self.assertEqual([g["status"] for g in rep["errors"]], ["hardening_limit"])
        with open(os.path.join(out, "index.html")) as f:
            page = f.read()
        self.assertIn("stopped by a fontvm hardening limit", page)
        self.assertIn("not a conformance failure", page)
        with open(os.path.join(out, "summary.md")) as f:
            self.assertIn("| hardening limit |", f.read())


class Lint(unittest.TestCase):
    """The tt_summary records' "lint" (faults FreeType tolerates that
    fontvm's loads met) become report.json's hinting_diagnostics, one
    entry per font and class summed over sizes and modes with the first
    location at the smallest size, and the page's Hinting diagnostics
    table; a run without them says so."""

    def summary(self, size, mode, lint):
        s = {"type": "tt_summary", "font": "/tmp/lint.ttf", "face": 0, "font_name": "Lint", "size": size,
             "mode": mode, "cases": 10, "identical": 10, "different": 0, "error_fontvm_only": 0,
             "error_ref_only": 0, "error_both": 0, "hardening_limit": 0, "seconds": 0.01}
        if lint:
            s["lint"] = lint
        return s

    def test_lint_section(self):
        import jsonschema
        d = os.path.join(WORK, "lint-in")
        cvt = lambda n, g, first: {"cvt_out_of_range": {"count": n, "glyphs": g, "first": first}}
        write_records(d, "tt-lint.jsonl", [
            {"type": "run", "schema": 1, "runner": "tt", "fontvm": "0.1.0", "freetype": "2.12.1"},
            self.summary("20", "v40", dict(cvt(5, 4, "glyf[9]@2:RCVT: invalid cvt 100"),
                                           after_iup={"count": 7, "glyphs": 3, "first": "glyf[4]@52:DELTAP1: point 11 not moved after IUP"})),
            self.summary("12", "v35", cvt(2, 2, "fpgm[3]@223:RCVT: invalid cvt 134")),
            self.summary("16", "v35", None),
        ])
        out = os.path.join(WORK, "lint")
        r = run("--replay", d, "--out", out)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(SCHEMA) as f:
            schema = json.load(f)
        with open(os.path.join(out, "report.json")) as f:
            rep = json.load(f)
        jsonschema.Draft7Validator(schema).validate(rep)
        got = {(e["class"], e["count"], e["glyphs"], e["configs"], e["first_size"], e["first_mode"], e["first"])
               for e in rep["hinting_diagnostics"]}
        self.assertEqual(got, {
            ("cvt_out_of_range", 7, 6, 2, "12", "v35", "fpgm[3]@223:RCVT: invalid cvt 134"),
            ("after_iup", 7, 3, 1, "20", "v40", "glyf[4]@52:DELTAP1: point 11 not moved after IUP")})
        self.assertEqual([e["class"] for e in rep["hinting_diagnostics"]], ["after_iup", "cvt_out_of_range"])
        self.assertEqual(rep["hinting_diagnostics"][1]["modes"], {"v35": 2, "v40": 5})
        with open(os.path.join(out, "index.html")) as f:
            page = f.read()
        self.assertIn("id=lint-table", page)
        self.assertIn("12 ppem v35: <code>fpgm[3]@223:RCVT: invalid cvt 134</code>", page)
        # Without lint fields: the section says there is nothing.
        write_records(d, "tt-lint.jsonl", [self.summary("12", "v40", None)])
        r = run("--replay", d, "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "index.html")) as f:
            self.assertIn("None in the TrueType fonts of this run.", f.read())


class Pictures(unittest.TestCase):
    """Graphite differences are drawn with the font's own outlines (glyf
    through fontTools), both engines overlaid at their positions, the
    differing slots marked; the box rows stay below.  TrueType differences
    are also rasterised at the size (both engines and a difference map)."""

    def test_graphite_outlines(self):
        out = os.path.join(WORK, "pictures")
        r = replay("base", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "index.html")) as f:
            page = f.read()
        with open(os.path.join(FIX, "base", "gr-fixture.jsonl")) as f:
            cases = [json.loads(l) for l in f if '"gr_case"' in l]
        drawn = [c for c in cases if (c.get("detail") or {}).get("ref_glyphs")]
        self.assertTrue(drawn)
        pics = re.findall(r'<svg class="run outline".*?</svg>', page, re.S)
        self.assertEqual(len(pics), len(drawn))
        from fontTools.ttLib import TTFont
        c = drawn[0]
        font = TTFont(c["font"])
        ref, fv = c["detail"]["ref_glyphs"], c["detail"]["fontvm_glyphs"]
        # Every glyph of both runs is a path of its own; the glyphs with
        # outlines (not spaces) carry their glyf contours.
        paths = re.findall(r'<path(?: class="diffglyph-outline")? transform="translate\(([-0-9.]+) ([-0-9.]+)\) '
                           r'scale\(([0-9.]+) (-[0-9.]+)\)" d="([^"]*)"', pics[0])
        inked = [g for g in ref + fv if font["glyf"][font.getGlyphName(g["gid"])].numberOfContours != 0]
        self.assertEqual(len(paths), len(inked))
        self.assertTrue(all(p[4].startswith("M") for p in paths))
        # The differing slots are marked once per engine that has them.
        differ = [i for i in range(max(len(ref), len(fv)))
                  if i >= len(ref) or i >= len(fv) or any(ref[i][k] != fv[i][k] for k in ("gid", "x", "y"))]
        self.assertTrue(differ)
        self.assertEqual(pics[0].count('class="diffglyph"'),
                         sum((i < len(ref)) + (i < len(fv)) for i in differ))
        for i in differ:
            self.assertIn(f">slot {i}</text>", pics[0])


    def test_truetype_raster(self):
        sys.path.insert(0, os.path.join(SRC, "conformance", "report"))
        import svg
        # A square from (1,1) to (3,3) pixels, and one shifted by half a
        # pixel: coverage 1 on 4 pixels; half on the edges of the other.
        sq = lambda x, y, s: [[x, y], [x, y + s], [x + s, y + s], [x + s, y]]
        case = {"detail": {"contours": [3], "tags": [1, 1, 1, 1],
                           "ref_points": sq(64, 64, 128), "fontvm_points": sq(96, 64, 128)}}
        pic = svg.tt_raster(case, cell=5)
        self.assertTrue(pic.startswith('<svg class="raster"'))
        cov = svg._coverage(svg._flatten(sq(64, 64, 128), [1] * 4, [3]), 0, 0, 4, 4)
        self.assertEqual([[round(v, 3) for v in row] for row in cov],
                         [[0, 0, 0, 0], [0, 1, 1, 0], [0, 1, 1, 0], [0, 0, 0, 0]])
        # Half a pixel to the right: columns 1 and 3 differ, by half, in the
        # two covered rows.
        self.assertEqual(pic.count('class="rdiff"'), 4)
        same = svg.tt_raster({"detail": dict(case["detail"], fontvm_points=sq(64, 64, 128))}, cell=5)
        self.assertEqual(same.count('class="rdiff"'), 0)
        # In the report, beside each drawn TrueType difference.
        out = os.path.join(WORK, "pictures-tt")
        r = replay("base", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "index.html")) as f:
            page = f.read()
        self.assertEqual(page.count('<svg class="raster"'), page.count('<svg class="glyph"'))
        self.assertGreater(page.count('class="rdiff"'), 0)


def write_records(d, name, recs):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "w") as f:
        for r in recs:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def gr_summary(font, texts, ref, cases, **counts):
    s = {"type": "gr_summary", "font": font, "font_name": "Charis", "texts": texts, "features": "1056=1", "ref": ref,
         "cases": cases, "seconds": 0.01}
    for k in ("different", "error_fontvm_only", "error_ref_only", "error_both", "hardening_limit"):
        s[k] = counts.get(k, 0)
    s["identical"] = cases - sum(counts.values())
    return s


class KnownDifferences(unittest.TestCase):
    """conformance/known.toml: a run with a known difference (KD-2's
    charis line), an unknown one, a fail-in-both and a hardening limit.
    Each is counted in its class, the known one is named "known: KD-2,
    graphite2 bug" in the terminal, summary.md and the page, and --check
    fails only on the unknown one."""

    FONT = "corpus/peer/graphite2/fonts/charis_r_gr.ttf"
    TEXTS = "corpus/texts/latin.txt"

    def case(self, line, status, gid_ref, gid_fv, ref="graphite2", **extra):
        r = {"type": "gr_case", "font": self.FONT, "texts": self.TEXTS, "line": line, "text": "Ŋ", "features": "1056=1",
             "rtl": False, "ref": ref, "status": status, "ref_error": None, "fontvm_error": None,
             "first_diff": {"slot": 0, "what": "gid", "ref": {"gid": gid_ref, "x": 0.0, "y": 0.0},
                            "fontvm": {"gid": gid_fv, "x": 0.0, "y": 0.0}}, "culprit": None}
        r.update(extra)
        return r

    @classmethod
    def setUpClass(cls):
        cls.dir = os.path.join(WORK, "known")
        shutil.rmtree(cls.dir, ignore_errors=True)
        cls.known = os.path.join(cls.dir, "known.toml")
        os.makedirs(cls.dir)
        with open(cls.known, "w") as f:
            f.write('[[known]]\nid = "KD-2"\nclass = "reference bug"\nreference = "graphite2"\n'
                    'reason = "graphite2 maps feature 1056 to 1024"\n'
                    'upstream = "conformance/graphite/KNOWN_DIFFERENCES.md#kd-2"\n'
                    'match = { engine = "gr", font = "charis_r_gr.ttf", features = "1056=1", lines = "10-11", '
                    'status = "different" }\n')

    def records(self, name, with_unknown):
        t = self
        recs = [{"type": "run", "schema": 1, "runner": "gr", "fontvm": "0.1.0", "graphite2": "1.3.14"},
                t.case(10, "different", 1643, 1649),
                t.case(3, "error_both", 0, 0, ref_error="gr_make_seg returned NULL",
                       fontvm_error="pass: segment failed 5 (pass 2 rule 0: machine status 5)", first_diff=None),
                t.case(4, "hardening_limit", 0, 0, fontvm_error="budget steps", first_diff=None)]
        if with_unknown:
            recs.append(t.case(20, "different", 7, 8, culprit={"pass": 3, "rule": 12, "slot": 0}))
        recs.append(gr_summary(self.FONT, self.TEXTS, "graphite2", 40, different=1 + with_unknown, error_both=1,
                               hardening_limit=1))
        d = os.path.join(self.dir, name)
        write_records(d, "gr-charis.jsonl", recs)
        return d

    def replay(self, name, with_unknown, *extra):
        out = os.path.join(self.dir, "out-" + name)
        r = run("--replay", self.records(name, with_unknown), "--out", out, "--known", self.known, *extra)
        return r, out

    def test_classes_and_labels(self):
        import jsonschema
        r, out = self.replay("all", True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(os.path.join(out, "report.json")) as f:
            rep = json.load(f)
        with open(SCHEMA) as f:
            jsonschema.Draft7Validator(json.load(f)).validate(rep)
        t = rep["totals"]
        self.assertEqual((t["cases"], t["identical"], t["agree"], t["known"], t["unknown"], t["hardening_limit"]),
                         (40, 36, 37, 1, 1, 1))
        self.assertEqual([(k["id"], k["count"], k["text"]) for k in rep["known_differences"]],
                         [("KD-2", 1, "known: KD-2, graphite2 bug")])
        self.assertEqual(sorted((g["culprit"], g["known"]) for g in rep["gr_differences"]),
                         [("no fontvm rule changed the first differing slot", "KD-2"), ("pass 3 rule 12", None)])
        self.assertEqual(rep["configs"][0]["known_cases"], {"KD-2": "10"})
        # The same words and the same percentage everywhere.
        headline = "37 of 40 cases agree (92.50%): 36 identical, 1 fail in both; 1 unknown difference(s), 1 known, " \
                   "1 stopped by a hardening limit"
        self.assertIn(headline, r.stdout)
        self.assertIn("known: KD-2, graphite2 bug: 1 case(s) (charis_r_gr.ttf)", r.stdout)
        self.assertIn("unknown: charis_r_gr.ttf pass 3 rule 12", r.stdout)
        with open(os.path.join(out, "summary.md")) as f:
            md = f.read()
        self.assertIn(headline, md)
        self.assertIn("known: KD-2, graphite2 bug", md)
        with open(os.path.join(out, "index.html")) as f:
            page = f.read()
        self.assertIn(">92.50%</span>", page)
        self.assertIn("known: KD-2, graphite2 bug</a>", page)
        self.assertRegex(page, r"id=unknown-count class=bad><b>1</b> unknown")
        self.assertIn("rule 0 of pass 2 stopped: died early (machine status 5)", page)
        self.assertNotIn("no rule traced", page)
        # The matrix: the one configuration holds an unknown difference,
        # so its square is red and says so.
        self.assertIn("<h2 id=matrix>", page)
        self.assertRegex(page, r"fill='#cf222e'><title>charis_r_gr.ttf latin.txt \[1056=1\]: vs graphite2: "
                               r"36 of 40 identical, 1 known, 1 unknown</title>")

    RENDERED = """(() => {
      const box = (el) => {
        if (!el) return null;
        const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
        return {text: el.innerText, top: r.top, color: cs.color,
                shown: cs.visibility === "visible" && cs.display !== "none" && r.width > 0 && r.height > 0};
      };
      const rows = (id) => {
        let el = document.getElementById(id);
        while (el && el.tagName !== "TABLE") el = el.nextElementSibling;
        return el ? [...el.querySelectorAll("tbody tr")].map(tr => ({
          cells: [...tr.cells].map(td => td.innerText.trim()), color: getComputedStyle(tr).color,
          shown: tr.getBoundingClientRect().height > 0})) : null;
      };
      const total = document.querySelector("#summary-table tr.total");
      return {height: innerHeight, text: getComputedStyle(document.body).color,
              conformance: box(document.getElementById("conformance")),
              unknown: box(document.getElementById("unknown-count")),
              known: box(document.getElementById("known-count")),
              hardening: box(document.getElementById("hardening-count")),
              total: total ? [...total.cells].map(td => ({text: td.innerText.trim(), color: getComputedStyle(td).color})) : null,
              gr: rows("gr-differences"), errors: rows("errors"), knownList: rows("known")};
    })()"""

    def test_browser_shows_each_class(self):
        # The page as Chromium renders it (DevTools over a pipe, cdp.py):
        # each class counted on the first screen, in its colour, and shown
        # in its section; what is hidden does not count.
        import cdp
        _, out = self.replay("browser", True)
        v = cdp.evaluate("file://" + os.path.join(out, "index.html"), self.RENDERED, width=1280, height=900)
        first = lambda b: b and b["shown"] and 0 <= b["top"] < v["height"]
        self.assertTrue(first(v["conformance"]), v["conformance"])
        self.assertEqual(v["conformance"]["text"], "92.50%")
        self.assertTrue(v["unknown"]["text"].startswith("1 unknown difference(s)") and first(v["unknown"]), v["unknown"])
        self.assertTrue(v["known"]["text"].startswith("1 known difference(s)") and first(v["known"]), v["known"])
        self.assertTrue(v["hardening"]["text"].startswith("1 stopped by a fontvm hardening limit")
                        and first(v["hardening"]), v["hardening"])
        # An unknown difference makes the headline and its count red; the
        # known count and the hardening limit are not.
        red = v["unknown"]["color"]
        self.assertNotEqual(red, v["text"])
        self.assertEqual(v["conformance"]["color"], red)
        self.assertNotEqual(v["known"]["color"], red)
        self.assertNotEqual(v["hardening"]["color"], red)
        # The total row: 40 cases, 36 identical, 2 different, 1 fails in
        # both, 1 hardening limit, 1 known, 1 unknown, 92.50% agree.
        cells = [c["text"] for c in v["total"]]
        self.assertEqual(cells, ["total", "40", "36", "2", "0", "0", "1", "1", "1", "1", "92.50%"])
        self.assertEqual(v["total"][9]["color"], red)                          # unknown
        self.assertTrue(all(v["total"][i]["color"] != red for i in (6, 7, 8)))  # both, limit, known
        # Each in its section.
        gr = {r["cells"][1]: r for r in v["gr"]}
        self.assertIn("pass 3 rule 12", gr)
        self.assertNotIn("known:", gr["pass 3 rule 12"]["cells"][1])
        self.assertEqual(len(v["gr"]), 2)
        self.assertTrue(all(r["shown"] for r in v["gr"]))
        self.assertEqual(gr["pass 3 rule 12"]["cells"][2], "1")
        kd = [r for r in v["gr"] if "known: KD-2, graphite2 bug" in r["cells"][1]]
        self.assertEqual(len(kd), 1)
        self.assertEqual(kd[0]["cells"][2], "1")
        errs = {r["cells"][1]: r for r in v["errors"]}
        self.assertEqual(set(errs), {"fails in both", "stopped by a fontvm hardening limit"})
        for label, r in errs.items():
            self.assertTrue(r["shown"], label)
            self.assertEqual(r["cells"][2], "1", label)
            self.assertNotEqual(r["color"], red, label)
        self.assertEqual([(r["cells"][0], r["shown"]) for r in v["knownList"]][:1], [("known: KD-2, graphite2 bug", True)])

    def test_check_fails_only_on_unknown(self):
        base = os.path.join(self.dir, "baseline.json")
        # A baseline where both differing lines were identical: both
        # differences are new, only the unknown one fails the check.
        before = os.path.join(self.dir, "before")
        write_records(before, "gr-charis.jsonl", [
            self.case(3, "error_both", 0, 0, first_diff=None), self.case(4, "hardening_limit", 0, 0, first_diff=None),
            gr_summary(self.FONT, self.TEXTS, "graphite2", 40, error_both=1, hardening_limit=1)])
        self.assertEqual(run("--replay", before, "--out", os.path.join(self.dir, "out-b"),
                             "--save-baseline", base).returncode, 0)
        r, _ = self.replay("known-only", False, "--check", base)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("(known: KD-2)", r.stdout)
        self.assertIn("0 regression(s) and 1 known difference(s)", r.stdout)
        r, _ = self.replay("with-unknown", True, "--check", base)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertTrue(r.stdout.startswith("REGRESSIONS: 1 case(s)"), r.stdout)
        self.assertIn("latin.txt:20", r.stdout.splitlines()[1])

    def test_bad_known_file_is_a_usage_error(self):
        bad = os.path.join(self.dir, "bad.toml")
        with open(bad, "w") as f:
            f.write('[[known]]\nid = "X"\nclass = "somebody else\'s"\nreason = "r"\nmatch = { engine = "gr" }\n')
        r, _ = self.replay("bad", False, "--known", bad)
        self.assertEqual(r.returncode, 2)
        self.assertIn("class must be one of", r.stderr)

    def test_committed_known_file_matches_kd2(self):
        sys.path.insert(0, os.path.join(SRC, "conformance", "report"))
        import known
        k = known.Known.load(os.path.join(SRC, "conformance", "known.toml"))
        e = k.match("gr", self.FONT, self.case(10, "different", 1643, 1649, ref="harfbuzz"))
        self.assertEqual(e.text(), "known: KD-2, graphite2 bug")
        overflow = self.case(26, "different", 304, 304, ref="harfbuzz")
        overflow["first_diff"]["ref"]["x_offset"] = -2147483648
        overflow["features"] = ""
        self.assertEqual(k.match("gr", "/usr/share/fonts/truetype/awami/AwamiNastaliq-Regular.ttf", overflow).id, "KD-13")
        overflow["first_diff"]["ref"]["x_offset"] = -540
        self.assertIsNone(k.match("gr", "AwamiNastaliq-Regular.ttf", overflow))


class Browser(unittest.TestCase):
    """Opens index.html in headless Chromium (Debian's chromium) the way a
    reader would, and saves a screenshot."""

    FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run"]

    @classmethod
    def setUpClass(cls):
        cls.chromium = shutil.which("chromium")
        cls.out = os.environ.get("FONTVM_REPORT_DIR") or os.path.join(WORK, "browser")
        if not os.environ.get("FONTVM_REPORT_DIR"):
            r = replay("regressed", cls.out)
            assert r.returncode == 0, r.stderr

    def browse(self, *args):
        if not self.chromium:
            self.fail("chromium is not installed (apt-get install chromium; it is in scripts/lib/packages.txt)")
        profile = tempfile.mkdtemp(prefix="fv-chromium-")
        try:
            url = "file://" + os.path.join(self.out, "index.html")
            return subprocess.run([self.chromium, *self.FLAGS, f"--user-data-dir={profile}", *args, url],
                                  capture_output=True, text=True, timeout=120, cwd=self.out)
        finally:
            shutil.rmtree(profile, ignore_errors=True)

    def test_dom_has_summary_table_and_a_difference_picture(self):
        r = self.browse("--dump-dom")
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        dom = r.stdout
        self.assertTrue('id="summary-table"' in dom, 'id="summary-table"' + ' missing from the DOM')
        self.assertTrue("TrueType v40 vs FreeType" in dom, "TrueType v40 vs FreeType" + ' missing from the DOM')
        self.assertTrue('id="conformance"' in dom, 'id="conformance"' + ' missing from the DOM')
        # A TrueType difference picture: an SVG glyph with ringed points.
        self.assertTrue('class="glyph"' in dom, 'class="glyph"' + ' missing from the DOM')
        self.assertTrue('class="diffpt"' in dom, 'class="diffpt"' + ' missing from the DOM')
        # A Graphite run picture.
        self.assertTrue('class="run"' in dom, 'class="run"' + ' missing from the DOM')
        # The opcode coverage and the error agreement sections.
        self.assertTrue('id="coverage"' in dom, 'id="coverage"' + ' missing from the DOM')
        self.assertTrue('id="errors"' in dom, 'id="errors"' + ' missing from the DOM')

    def test_screenshot(self):
        shot = os.path.join(self.out, "screenshot.png")
        if os.path.exists(shot):
            os.remove(shot)
        r = self.browse(f"--screenshot={shot}", "--window-size=1280,1400", "--hide-scrollbars")
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        with open(shot, "rb") as f:
            head = f.read(24)
        self.assertEqual(head[:8], b"\x89PNG\r\n\x1a\n")
        w, h = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
        self.assertEqual((w, h), (1280, 1400))
        self.assertGreater(os.path.getsize(shot), 20000)   # not a blank page
        # Also where the README and the brief expect it.
        dest = os.path.join(SRC, "report")
        os.makedirs(dest, exist_ok=True)
        shutil.copyfile(shot, os.path.join(dest, "screenshot.png"))


class Orchestration(unittest.TestCase):
    """run.py driving runners: tests/report/stand_in_runner.py installed
    under the runners' names (it writes records, it compares nothing)."""

    @classmethod
    def setUpClass(cls):
        cls.bin = os.path.join(WORK, "stand-in-bin")
        os.makedirs(cls.bin, exist_ok=True)
        for n in ("fvconform-tt", "fvconform-gr"):
            p = os.path.join(cls.bin, n)
            if not os.path.lexists(p):
                os.symlink(os.path.join(SRC, "tests", "report", "stand_in_runner.py"), p)

    def start(self, out, env=None, extra=(), **kw):
        e = dict(os.environ, **(env or {}))
        return subprocess.Popen([sys.executable, RUN, "--bin", self.bin, "--out", out, "--quick", "--jobs", "2",
                                 *extra], cwd=SRC, env=e, text=True, **kw)

    def test_hanging_runner_is_killed(self):
        out = os.path.join(WORK, "orch-timeout")
        p = self.start(out, env={"FV_STANDIN_DELAY": "30"}, extra=("--job-timeout", "1", "--fonts", "grtest1gr.ttf"),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        t0 = time.monotonic()
        so, se = p.communicate(timeout=60)
        self.assertLess(time.monotonic() - t0, 20)
        self.assertEqual(p.returncode, 3, se)
        with open(os.path.join(out, "report.json")) as f:
            rep = json.load(f)
        self.assertTrue(rep["jobs"])
        self.assertTrue(all("timed out after 1 s" in (j["error"] or "") for j in rep["jobs"]), rep["jobs"])

    def test_quick_run_completes(self):
        out = os.path.join(WORK, "orch-ok")
        p = self.start(out, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        so, se = p.communicate(timeout=120)
        self.assertEqual(p.returncode, 0, se)
        with open(os.path.join(out, "report.json")) as f:
            rep = json.load(f)
        self.assertTrue(rep["jobs"] and all(j["status"] == "done" for j in rep["jobs"]))
        self.assertFalse(rep["interrupted"])
        # Not a terminal: plain progress lines, no carriage returns.
        self.assertIn("[conform] 100.0%", se)
        self.assertNotIn("\r", se)
        self.assertIn("report: ", so)

    def test_terminal_progress_bar(self):
        import pty
        out = os.path.join(WORK, "orch-tty")
        master, slave = pty.openpty()
        p = self.start(out, env={"FV_STANDIN_DELAY": "0.05"}, stdout=subprocess.DEVNULL, stderr=slave)
        os.close(slave)
        buf = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
        p.wait(timeout=120)
        os.close(master)
        text = buf.decode("utf-8", "replace")
        self.assertEqual(p.returncode, 0, text[-500:])
        self.assertIn("\r\x1b[K[", text)
        self.assertIn("ETA", text)

    def test_crashing_runner_is_reported(self):
        out = os.path.join(WORK, "orch-crash")
        p = self.start(out, env={"FV_STANDIN_CRASH": "1"}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        so, se = p.communicate(timeout=120)
        self.assertEqual(p.returncode, 3, se)
        with open(os.path.join(out, "report.json")) as f:
            rep = json.load(f)
        self.assertTrue(any("signal" in r["message"] for r in rep["runner_problems"]), rep["runner_problems"])
        with open(os.path.join(out, "index.html")) as f:
            self.assertTrue("<h2 id=runner-problems" in f.read(), "no Runner problems section")

    @staticmethod
    def some_case_written(rec):
        if not os.path.isdir(rec):
            return False
        for n in os.listdir(rec):
            if n.endswith(".jsonl"):
                try:
                    with open(os.path.join(rec, n)) as f:
                        if '_case"' in f.read():
                            return True
                except OSError:
                    pass
        return False

    def test_ctrl_c_keeps_what_was_written(self):
        import signal
        out = os.path.join(WORK, "orch-int")
        shutil.rmtree(out, ignore_errors=True)
        p = self.start(out, env={"FV_STANDIN_DELAY": "0.4"}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        # Interrupt once a runner has written a case (on a loaded machine
        # a stand-in may take seconds to start: waiting a fixed time after
        # its record file appears was not enough).
        rec = os.path.join(out, "records")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not self.some_case_written(rec):
            time.sleep(0.05)
        time.sleep(0.3)
        p.send_signal(signal.SIGINT)
        so, se = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 3, se)
        self.assertIn("interrupted", se)
        with open(os.path.join(out, "report.json")) as f:
            rep = json.load(f)
        self.assertTrue(rep["interrupted"])
        self.assertGreater(rep["totals"]["cases"], 0)                  # kept what arrived
        self.assertTrue(any(j["status"] != "done" for j in rep["jobs"]))  # and stopped early
        self.assertTrue(os.listdir(os.path.join(out, "records")))

    def test_sigterm_stops_the_runners_too(self):
        import signal
        out = os.path.join(WORK, "orch-term")
        shutil.rmtree(out, ignore_errors=True)
        p = self.start(out, env={"FV_STANDIN_DELAY": "0.4"}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        rec = os.path.join(out, "records")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (os.path.isdir(rec) and
                                                   any(n.endswith(".jsonl") for n in os.listdir(rec))):
            time.sleep(0.05)
        p.send_signal(signal.SIGTERM)
        so, se = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 3, se)
        with open(os.path.join(out, "report.json")) as f:
            self.assertTrue(json.load(f)["interrupted"])
        # No stand-in runner of this run is left behind.
        time.sleep(0.5)
        left = subprocess.run(["pgrep", "-f", re.escape(os.path.join(self.bin, "fvconform-"))],
                              capture_output=True, text=True).stdout.split()
        self.assertEqual(left, [])


@unittest.skipUnless(os.environ.get("FONTVM_RUNNER_DIR"), "the C runners are not built")
class EndToEnd(unittest.TestCase):
    """A small real run: the C runners (FONTVM_RUNNER_DIR, engines in
    FONTVM_ENGINES) against the real FreeType/graphite2/HarfBuzz, then the
    schema and the browser on its report.  Registered by CMake only when the
    runner targets exist."""

    def test_small_real_run(self):
        import jsonschema
        out = os.path.join(WORK, "e2e")
        engines = os.environ.get("FONTVM_ENGINES", "tt,gr")
        r = run("--bin", os.environ["FONTVM_RUNNER_DIR"], "--out", out, "--engines", engines,
                "--fonts", "LiberationSans-Regular.ttf,grtest1gr.ttf", "--sizes", "9,12,10.5",
                "--modes", "v35,v40", "--jobs", "2")
        self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr[-3000:])
        with open(SCHEMA) as f:
            schema = json.load(f)
        with open(os.path.join(out, "report.json")) as f:
            rep = json.load(f)
        jsonschema.Draft7Validator(schema).validate(rep)
        self.assertFalse(rep["runner_problems"], rep["runner_problems"])
        if "tt" in engines:
            tt = [c for c in rep["configs"] if c["engine"] == "tt"]
            self.assertEqual(len(tt), 3 * 2)
            # Every glyph of the font in every configuration (maxp numGlyphs).
            sys.path.insert(0, os.path.join(SRC, "conformance", "report"))
            import config
            ng = config.font_info("/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf")[0].glyphs[0]
            self.assertTrue(all(c["cases"] == ng and c["complete"] for c in tt), [c["cases"] for c in tt])
            self.assertEqual(rep["versions"]["freetype"], "2.12.1")
        if "gr" in engines:
            gr = [c for c in rep["configs"] if c["engine"] == "gr"]
            self.assertTrue(gr and all(c["complete"] for c in gr))
        Browser.out = out
        b = Browser("test_screenshot")
        b.chromium = shutil.which("chromium")
        r = b.browse("--dump-dom")
        self.assertIn('id="summary-table"', r.stdout)


@unittest.skipUnless(os.environ.get("FONTVM_RUNNER_DIR"), "the C runners are not built")
class Reproduce(unittest.TestCase):
    """The commands the report prints for a difference reproduce it.  The
    fixture is a real run of fvconform-gr on KD-2's case (charis_r_gr,
    latin.txt, feature 1056=1: graphite2 gives gid 1643 where fontvm gives
    1649), replayed into a report; the printed fontvm, gr2fonttest,
    runner and trace commands are then run through the shell, from the
    repository root, as a reader would paste them."""

    @classmethod
    def setUpClass(cls):
        cls.bin = os.environ["FONTVM_RUNNER_DIR"]
        cls.dir = os.path.join(WORK, "reproduce")
        shutil.rmtree(cls.dir, ignore_errors=True)
        rec = os.path.join(cls.dir, "records")
        os.makedirs(rec)
        gr = os.path.join(cls.bin, "fvconform-gr")
        with open(os.path.join(rec, "gr-charis.jsonl"), "w") as f:
            subprocess.run([gr, "--font", "corpus/peer/graphite2/fonts/charis_r_gr.ttf", "--text-file",
                            "corpus/texts/latin.txt", "--features", "1056=1", "--ref", "both"],
                           stdout=f, cwd=SRC, check=True, timeout=120)
        out = os.path.join(cls.dir, "out")
        r = run("--replay", rec, "--out", out, "--bin", cls.bin)
        assert r.returncode == 0, r.stderr
        with open(os.path.join(out, "report.json")) as f:
            cls.rep = json.load(f)

    def sh(self, cmd):
        env = dict(os.environ, TMPDIR=self.dir)
        return subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, cwd=SRC, env=env, timeout=120)

    def examples(self, ref):
        ex = [e for g in self.rep["gr_differences"] for e in g["examples"] if e["ref"] == ref]
        self.assertTrue(ex, f"no difference against {ref} in the fixture run")
        for e in ex:
            self.assertEqual(e["known"], "KD-2")
            yield e, {r["what"].split(" ")[0]: r["command"] for r in e["reproduce"]}

    @staticmethod
    def gr2log_gids(path):
        with open(path) as f:
            return {int(m.group(1)): int(m.group(2)) for m in
                    (re.match(r"^(\d{2,})\s+(\d+)\s", line) for line in f) if m}

    def test_fontvm_and_graphite2_commands_show_the_difference(self):
        for e, cmd in self.examples("graphite2"):
            slot = e["first_diff"]["slot"]
            r = self.sh(cmd["fontvm"])
            self.assertEqual(r.returncode, 0, cmd["fontvm"] + "\n" + r.stderr)
            r = self.sh(cmd["graphite2"])
            self.assertEqual(r.returncode, 1, "the logs should differ:\n" + cmd["graphite2"] + "\n" + r.stdout + r.stderr)
            fv = self.gr2log_gids(os.path.join(self.dir, "fontvm.log"))
            ref = self.gr2log_gids(os.path.join(self.dir, "graphite2.log"))
            self.assertEqual(fv[slot], e["first_diff"]["fontvm"]["gid"], cmd["fontvm"])
            self.assertEqual(ref[slot], e["first_diff"]["ref"]["gid"], cmd["graphite2"])
            self.assertNotEqual(fv[slot], ref[slot])

    def test_runner_command_gives_the_same_case(self):
        for ref in ("graphite2", "harfbuzz"):
            for e, cmd in self.examples(ref):
                r = self.sh(cmd["both"])
                self.assertEqual(r.returncode, 0, cmd["both"] + "\n" + r.stderr)
                case = json.loads(r.stdout.splitlines()[0])
                self.assertEqual((case["status"], case["line"], case["first_diff"]),
                                 ("different", e["line"], e["first_diff"]))

    def test_trace_command_finds_the_rule(self):
        for e, cmd in self.examples("graphite2"):
            tr = cmd.get("first")
            if (e.get("culprit") or {}).get("pass") is None:
                continue
            r = self.sh(tr)
            self.assertEqual(r.returncode, 0, tr + "\n" + r.stderr)
            self.assertIn(f"rule {e['culprit']['rule']} fired", r.stdout, tr)

    def test_harfbuzz_command_runs(self):
        for e, cmd in self.examples("harfbuzz"):
            r = self.sh(cmd["HarfBuzz"])
            self.assertEqual(r.returncode, 0, cmd["HarfBuzz"] + "\n" + r.stderr)
            self.assertRegex(r.stdout, r"^\[\d+=\d+")
            r = self.sh(cmd["fontvm"])
            self.assertEqual(r.returncode, 0, cmd["fontvm"] + "\n" + r.stderr)
            gids = [int(x.split("=")[0]) for x in r.stdout.strip().strip("[]").split("|")]
            self.assertEqual(gids[e["first_diff"]["slot"]], e["first_diff"]["fontvm"]["gid"])

    def test_truetype_commands_address_the_case(self):
        # No TrueType difference is left in the corpus: the fixture's
        # fontvm points were moved by hand, so the printed commands must
        # find FreeType's point (the fixture's reference side) at the case.
        out = os.path.join(self.dir, "tt")
        r = run("--replay", os.path.join(FIX, "base"), "--out", out, "--bin", self.bin)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "report.json")) as f:
            rep = json.load(f)
        checked = 0
        for g in rep["tt_differences"]:
            for e in g["examples"]:
                cmd = {r["what"].split(" ")[0]: r["command"] for r in e["reproduce"]}
                r = self.sh(cmd["fontvm"])
                self.assertEqual(r.returncode, 0, cmd["fontvm"] + "\n" + r.stderr)
                glyph = json.loads(r.stdout.splitlines()[0])
                self.assertEqual(glyph["gid"], e["gid"])
                k = e["first_diff"]["point"]
                if k >= 0:
                    self.assertEqual(glyph["points"][k], e["first_diff"]["ref"], cmd["fontvm"])
                r = self.sh(cmd["FreeType"].replace(" | grep tt_case", ""))
                self.assertEqual(r.returncode, 0, cmd["FreeType"] + "\n" + r.stderr)
                self.assertIn('"type":"tt_summary"', r.stdout)
                self.assertIn('"cases":1,', r.stdout)
                if "first" in cmd:
                    r = self.sh(cmd["first"].split(" | ")[0] + " > /dev/null")
                    self.assertEqual(r.returncode, 0, cmd["first"] + "\n" + r.stderr)
                checked += 1
        self.assertGreater(checked, 0)


class ProgressEstimate(unittest.TestCase):
    """The progress share and ETA follow work done, not jobs done: a case
    costs what finished jobs of its engine measured."""

    def test_truetype_case_cost_follows_the_glyph_programs(self):
        sys.path.insert(0, os.path.join(SRC, "conformance", "report"))
        import config
        costs = {}
        for f in ("dejavu/DejaVuSans.ttf", "noto/NotoSansEthiopic-Regular.ttf"):
            info, data = config.font_info("/usr/share/fonts/truetype/" + f)
            costs[f.split("/")[0]] = config.tt_case_cost(info, data, 0)
        # DejaVu Sans: ~12 bytes of instructions per glyph; Noto Sans
        # Ethiopic: ~137 (measured 2 and 65 us a case).
        self.assertLess(costs["dejavu"], 0.5)
        self.assertGreater(costs["noto"], 2.5)
        # Unreadable tables: the average cost, no exception.
        info, data = config.font_info("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        self.assertEqual(config.tt_case_cost(info, data[:4096], 0), 1.0)

    def test_share_follows_measured_cost(self):
        sys.path.insert(0, os.path.join(SRC, "conformance", "report"))
        import config
        import run as runmod
        jobs = [config.Job("tt", "a.ttf", "s", 100000, name="tt-a"), config.Job("tt", "b.ttf", "s", 100000, name="tt-b"),
                config.Job("gr", "c.ttf", "s", 1000, name="gr-c"), config.Job("gr", "d.ttf", "s", 1000, name="gr-d")]
        for j in jobs:
            j.weight = config.job_cost(j)
        with open(os.devnull, "w") as null:
            p = runmod.Progress(jobs, stream=null)
        # Before any job finished: the planner's estimate (a Graphite line
        # costs 1.5 TrueType cases): the two Graphite jobs are ~1.5 % of
        # the work, whatever their share of the job count.
        p.frac.update({"gr-c": 1.0, "gr-d": 1.0})
        self.assertLess(p.fraction(), 0.03)
        # Measured: the Graphite lines took 100 times a TrueType case: they
        # are now ~50 % of the work; one TrueType job of two done adds a
        # quarter.
        p.job_finished("gr-c", 1.0)
        p.job_finished("gr-d", 1.0)
        p.job_finished("tt-a", 1.0)
        p.frac["tt-a"] = 1.0
        self.assertAlmostEqual(p.fraction(), 0.75, delta=0.02)


class Coverage(unittest.TestCase):
    """Opcode coverage rows come from the X-macro opcode lists: every opcode
    and flag variant, also those executed 0 times."""

    def setUp(self):
        sys.path.insert(0, os.path.join(SRC, "conformance", "report"))
        import render
        self.render = render

    def test_truetype_variants_from_an_opcode_list(self):
        d = tempfile.mkdtemp(prefix="fv-cov-", dir=WORK if os.path.isdir(WORK) else None)
        path = os.path.join(d, "opcodes.def")
        with open(path, "w") as f:
            f.write("/* X(MNEMONIC, first, flag_bits, pops, pushes, inline, family) */\n"
                    "X(SVTCA,     0x00, 1, 0, 0, NONE,   GSTATE)\nX(DELTAP1,   0x5D, 0, 1, 0, NONE,   DELTA)\n"
                    "X(MIRP,      0xE0, 5, 2, 0, NONE,   POINTS)\n")
        cov = self.render.coverage("tt", {"0xED": 5, "0x5D": 2, "0x99": 1}, {"0xED": 1, "0x5D": 1, "0x99": 1},
                                   path, "vm/tt/opcodes.def")
        rows = {r["name"]: r for r in cov["opcodes"]}
        self.assertEqual(cov["source"], "vm/tt/opcodes.def")
        self.assertEqual(len(rows), 2 + 1 + 32 + 1)       # + the unknown 0x99
        self.assertEqual(rows["MIRP[01101]"]["count"], 5)
        self.assertEqual(rows["MIRP[01101]"]["opcode"], "0xED")
        self.assertEqual(rows["MIRP[00000]"]["count"], 0)
        self.assertEqual(rows["SVTCA[1]"]["opcode"], "0x01")
        self.assertEqual(rows["DELTAP1"]["count"], 2)
        self.assertEqual(rows["0x99"]["count"], 1)

    def test_truetype_list_of_the_tree(self):
        path = os.path.join(SRC, "vm", "tt", "opcodes.def")
        if not os.path.isfile(path):
            self.skipTest("vm/tt/opcodes.def does not exist yet")
        cov = self.render.coverage("tt", {"0xB3": 7}, {"0xB3": 1}, path, "vm/tt/opcodes.def")
        rows = {r["name"]: r for r in cov["opcodes"]}
        ops = [r["opcode"] for r in cov["opcodes"]]
        self.assertEqual(len(ops), len(set(ops)))
        self.assertEqual(rows["PUSHB[011]"]["count"], 7)
        self.assertEqual(rows["MIRP[11111]"]["opcode"], "0xFF")
        self.assertIn("DELTAP1", rows)
        self.assertIn("SVTCA[0]", rows)

    def test_graphite_list_of_the_tree(self):
        path = os.path.join(SRC, "vm", "graphite", "opcodes.def")
        if not os.path.isfile(path):
            self.skipTest("vm/graphite/opcodes.def does not exist yet")
        cov = self.render.coverage("gr", {"0x01": 3}, {"0x01": 1}, path, "vm/graphite/opcodes.def")
        ops = [r["opcode"] for r in cov["opcodes"]]
        self.assertEqual(len(ops), len(set(ops)))
        self.assertIn("0x00", ops)
        self.assertEqual([r["count"] for r in cov["opcodes"] if r["opcode"] == "0x01"], [3])


class Config(unittest.TestCase):
    """The default configuration resolves to the corpus issues 3, 4 and 6 ask for."""

    def test_default_corpus(self):
        r = run("--list")
        self.assertEqual(r.returncode, 0, r.stderr)
        jobs = [line.split("\t") for line in r.stdout.splitlines()]
        tt = [j for j in jobs if j[0].startswith("tt-")]
        gr = [j for j in jobs if j[0].startswith("gr-")]
        fonts = {j[2] for j in tt}
        self.assertTrue(any("liberation2" in f for f in fonts))
        self.assertGreaterEqual(sum("/noto/" in f for f in fonts), 20)
        # Four modes for each font and location (variable fonts have
        # several: the job name ends in @LOCATION).
        located = {(j[2], j[0].partition("@")[2]) for j in tt}
        self.assertEqual(len(tt), 4 * len(located))
        grfonts = {j[2] for j in gr}
        for name in ("padauk", "abyssinica", "annapurna", "scheherazade", "peer/graphite2/fonts"):
            self.assertTrue(any(name in f.lower() for f in grfonts), name)

    def test_overrides(self):
        r = run("--list", "--fonts", "LiberationSans-Regular.ttf", "--modes", "v40", "--engines", "tt")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(len(lines), 1)
        self.assertTrue(lines[0].startswith("tt-LiberationSans-Regular-v40\t"))
        d = "/usr/share/fonts/truetype/dejavu"
        r = run("--list", "--sizes", "6-8,10.5", "--modes", "v35,v40", "--engines", "tt", d)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(len(lines), 2 * sum(n.endswith(".ttf") for n in os.listdir(d)))
        # Weight = glyphs x 4 sizes.
        self.assertTrue(all(int(x.split("\t")[1]) % 4 == 0 for x in lines))
        r = run("--list", "--modes", "v41")
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown mode", r.stderr)


@unittest.skipUnless(os.environ.get("FONTVM_RUNNER_DIR"), "the C runners are not built")
class ShardMerge(unittest.TestCase):
    """scripts/conform --shard K/N and --merge on the quick corpus: the two
    shards of a two-way split run different jobs that together are the
    plan's, and the merged report equals the unsharded run's (report.json
    whole, only the time stamp and seconds aside), record for record; a
    shard missing or given twice is refused."""

    TIMING = ("seconds", "seconds_ref", "seconds_fontvm")

    @classmethod
    def setUpClass(cls):
        cls.bin = os.environ["FONTVM_RUNNER_DIR"]
        cls.dir = os.path.join(WORK, "shard")
        shutil.rmtree(cls.dir, ignore_errors=True)
        common = ["--quick", "--bin", cls.bin, "--jobs", "2"]
        cls.one = os.path.join(cls.dir, "one")
        r = run(*common, "--out", cls.one)
        assert r.returncode == 0, r.stderr[-2000:]
        cls.shards = []
        cls.shard_err = []
        for k in (1, 2):
            out = os.path.join(cls.dir, f"s{k}")
            r = run(*common, "--shard", f"{k}/2", "--out", out)
            assert r.returncode == 0, r.stderr[-2000:]
            cls.shards.append(out)
            cls.shard_err.append(r.stderr)
        cls.merged = os.path.join(cls.dir, "merged")
        cls.merge = run("--merge", *cls.shards, "--out", cls.merged, "--bin", cls.bin,
                        "--check", os.path.join(SRC, "conformance", "baseline", "quick.json"))

    def records(self, dirs):
        """Every record line of the runs' records/*.jsonl (progress and
        timings aside), as a multiset, and the record files' names."""
        lines, names = [], []
        for d in dirs:
            rec = os.path.join(d, "records")
            for n in sorted(os.listdir(rec)):
                if not n.endswith(".jsonl"):
                    continue
                names.append(n)
                with open(os.path.join(rec, n)) as f:
                    for line in f:
                        if not line.strip():
                            continue
                        r = json.loads(line)
                        if r.get("type") == "progress":
                            continue
                        for k in self.TIMING:
                            r.pop(k, None)
                        lines.append(json.dumps(r, sort_keys=True))
        return sorted(lines), names

    def test_shards_partition_the_jobs(self):
        _, one = self.records([self.one])
        parts = [self.records([d])[1] for d in self.shards]
        self.assertTrue(parts[0] and parts[1], parts)
        self.assertFalse(set(parts[0]) & set(parts[1]))
        self.assertEqual(sorted(parts[0] + parts[1]), sorted(one))
        for k, err in enumerate(self.shard_err, 1):
            self.assertRegex(err, rf"shard {k}/2: \d+ of {len(one)} jobs")

    def test_same_records(self):
        a, _ = self.records([self.one])
        b, _ = self.records(self.shards)
        self.assertGreater(len(a), 100)
        self.assertEqual(a, b)

    def test_merged_report_equals_single_run(self):
        self.assertEqual(self.merge.returncode, 0, self.merge.stdout[-2000:] + self.merge.stderr[-2000:])
        self.assertIn("0 regression(s)", self.merge.stdout)

        def load(d):
            with open(os.path.join(d, "report.json")) as f:
                rep = json.load(f)
            rep.pop("generated")
            rep.pop("seconds")
            rep.pop("check", None)
            for j in rep["jobs"]:
                j.pop("seconds")
            return rep
        one, merged = load(self.one), load(self.merged)
        self.assertEqual(one["totals"], merged["totals"])
        self.assertGreater(one["totals"]["cases"], 0)
        self.assertEqual(one, merged)

    def test_merge_refuses_incomplete_or_repeated_shards(self):
        out = os.path.join(self.dir, "bad")
        r = run("--merge", self.shards[0], "--out", out)
        self.assertEqual(r.returncode, 2)
        self.assertIn("shard(s) 2/2 missing", r.stderr)
        r = run("--merge", self.shards[0], self.shards[0], self.shards[1], "--out", out)
        self.assertEqual(r.returncode, 2)
        self.assertIn("given twice", r.stderr)
        r = run("--merge", self.one, "--out", out)
        self.assertEqual(r.returncode, 2)
        self.assertIn("not the output of a --shard run", r.stderr)
        r = run("--quick", "--shard", "3/2", "--list")
        self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:], verbosity=2)
