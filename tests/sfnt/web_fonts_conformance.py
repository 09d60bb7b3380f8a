#!/usr/bin/env python3
"""The conformance runners on web fonts.

FreeType 2.12.1 opens WOFF and WOFF2 itself: fontvm's hinted outlines of
every web font of web_fonts.py's manifest, read from the .woff/.woff2,
must equal FreeType's read from the same file, for every glyph of every
face, at 9 and 12 ppem, in all four modes (fvconform-tt).  graphite2 and
HarfBuzz read sfnt only: fvconform-gr hands them what fontvm decoded, and
Padauk's Myanmar text must shape identically in all three.  And
scripts/conform's job planner (conformance/report/config.py) reads each
web font's faces, tables and glyph count.

    web_fonts_conformance.py FVCONFORM_TT FVCONFORM_GR MANIFEST TEXT"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "conformance", "report"))
import config  # noqa: E402

SIZES = "9,12"
MODES = ["v35", "v40", "v40-mono", "v40-lcd"]


def main():
    runner, gr_runner, manifest, text = sys.argv[1:5]
    total = fonts = gr_cases = 0
    bad = []
    for line in open(manifest):
        kind, path, _original, faces, _container = (line.split() + [""] * 5)[:5]
        if kind != "ok":
            continue
        info, _ = config.font_info(path)
        if len(info.faces) != int(faces) or not all(info.glyphs) or not all("glyf" in t for t in info.faces):
            bad.append("%s: config.font_info read %d faces, glyphs %s" % (path, len(info.faces), info.glyphs))
        for face in range(int(faces)):
            out = subprocess.run([runner, "--font", path, "--face", str(face), "--sizes", SIZES,
                                  "--modes", ",".join(MODES), "--detail-limit", "3"],
                                 capture_output=True, text=True, check=False)
            summaries = 0
            for rec in map(json.loads, out.stdout.splitlines()):
                if rec["type"] == "error":
                    bad.append("%s face %d: %s" % (path, face, rec["message"]))
                if rec["type"] != "tt_summary":
                    continue
                summaries += 1
                total += rec["cases"]
                if rec["identical"] != rec["cases"] or rec["cases"] == 0:
                    bad.append("%s face %d %s %s: %d of %d identical" % (
                        path, face, rec["size"], rec["mode"], rec["identical"], rec["cases"]))
            if out.returncode != 0 or summaries != 2 * len(MODES):
                bad.append("%s face %d: runner exit %d, %d summaries" % (path, face, out.returncode, summaries))
            fonts += 1
        if "Padauk" in path:
            out = subprocess.run([gr_runner, "--font", path, "--text-file", text], capture_output=True,
                                 text=True, check=False)
            refs = [r for r in map(json.loads, out.stdout.splitlines()) if r["type"] == "gr_summary"]
            for rec in refs:
                gr_cases += rec["cases"]
                if rec["identical"] != rec["cases"] or rec["cases"] == 0:
                    bad.append("%s vs %s: %d of %d identical" % (path, rec["ref"], rec["identical"], rec["cases"]))
            if len(refs) != 2:
                bad.append("%s: fvconform-gr exit %d, %d summaries" % (path, out.returncode, len(refs)))
    for b in bad:
        print(b)
    print("web_fonts_conformance: %d faces, %d TrueType cases, %d Graphite lines, %s" % (
        fonts, total, gr_cases, "all identical" if not bad else "%d problems" % len(bad)))
    sys.exit(1 if bad or fonts < 16 or gr_cases == 0 else 0)


if __name__ == "__main__":
    main()
