#!/usr/bin/env python3
"""FreeType 2.12.1 opens WOFF and WOFF2 itself: fontvm's hinted outlines of
every web font of web_fonts.py's manifest, read from the .woff/.woff2,
must equal FreeType's read from the same file, for every glyph of every
face, at 9 and 12 ppem, in all four modes (fvconform-tt, the conformance
runner).

    web_fonts_freetype.py FVCONFORM_TT MANIFEST"""

import json
import subprocess
import sys

SIZES = "9,12"
MODES = ["v35", "v40", "v40-mono", "v40-lcd"]


def main():
    runner, manifest = sys.argv[1], sys.argv[2]
    total = fonts = 0
    bad = []
    for line in open(manifest):
        kind, path, _original, faces, _container = (line.split() + [""] * 5)[:5]
        if kind != "ok":
            continue
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
    for b in bad:
        print(b)
    print("web_fonts_freetype: %d faces, %d cases, %s" % (fonts, total, "all identical" if not bad else "%d problems" % len(bad)))
    sys.exit(1 if bad or fonts < 16 else 0)


if __name__ == "__main__":
    main()
