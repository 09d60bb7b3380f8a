#!/usr/bin/env python3
"""`fontvm info`'s Graphite block against `gr2fonttest FONT` (graphite2
1.3.14's tool, Debian's libgraphite2-utils), which lists a font's features,
their settings and the languages when given no text: byte for byte on
every Graphite font of conformance/conform.toml that graphite2 loads.
`fontvm info --json` must carry the same features (hidden ones flagged).

    info_gr2fonttest.py FONTVM SOURCE_DIR
"""
import json
import os
import subprocess
import sys

import corpus_graphite

MARK = "graphite features (as gr2fonttest lists them):\n"


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    fontvm, src = argv
    fonts = sorted({f for f, _ in corpus_graphite.font_texts(src)})
    compared, bad = 0, []
    for font in fonts:
        ref = subprocess.run(["gr2fonttest", font], capture_output=True, text=True, timeout=60)
        if ref.returncode != 0 or "features\n" not in ref.stdout:
            continue  # graphite2 refuses the font (no Silf): nothing to list
        got = subprocess.run([fontvm, "info", font], capture_output=True, text=True, timeout=60)
        block = got.stdout.split(MARK, 1)[1] if MARK in got.stdout else None
        js = json.loads(subprocess.run([fontvm, "info", "--json", font], capture_output=True,
                                       text=True, timeout=60).stdout)
        shown = [f for f in js["graphite"]["features"] if not f["hidden"]]
        compared += 1
        if got.returncode != 0 or block != ref.stdout:
            bad.append(f"{os.path.basename(font)}: text listing differs:\n"
                       f"    gr2fonttest: {ref.stdout[:300]!r}\n    fontvm:      {str(block)[:300]!r}")
        elif f"{len(shown)} features\n" != ref.stdout.split("\n", 1)[0] + "\n":
            bad.append(f"{os.path.basename(font)}: --json has {len(shown)} shown features")
    print(f"gr2fonttest listing: {compared} fonts compared, {len(bad)} different")
    for b in bad:
        print("  " + b)
    return 1 if bad or compared < 6 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
