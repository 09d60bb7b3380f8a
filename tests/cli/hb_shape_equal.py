#!/usr/bin/env python3
"""`fontvm shape --output-format text` against `hb-shape --shapers=graphite2`
(HarfBuzz 6.0.0's command-line tool, Debian's libharfbuzz-bin): every
Graphite font of conformance/conform.toml's font sets, each with every text
its font set lists, must print exactly what hb-shape prints, line by line.
Both tools guess the direction from the text and use the default font size
(the font's units per em).  A few lines are also compared at another font
size, in JSON and with hb-shape's output switches.

    hb_shape_equal.py FONTVM SOURCE_DIR
"""
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import corpus_graphite

# Extra checks on one line of each of these fonts (file names).
OPTION_FONTS = ("Padauk-Regular.ttf", "AwamiNastaliq-Regular.ttf", "Harmattan-Regular.ttf")
OPTION_SETS = (["--font-size", "12"], ["--font-size", "37"], ["--no-glyph-names"],
               ["--no-clusters"], ["--no-positions"], ["--no-advances"], ["--ned"],
               ["--output-format", "json"], ["--output-format=json", "--no-glyph-names"],
               ["--direction", "rtl"], ["--direction=ltr"], ["--features", "-kern,+liga,ss01=1"],
               ["--language", "ur"], ["--language=ks-Arab"], ["--language", "sd"],
               ["--script", "Arab"], ["--script=Latn"])


def run(cmd):
    env = dict(os.environ, LC_ALL="C", LANG="C")  # hb-shape takes its language from $LANG
    p = subprocess.run(cmd, capture_output=True, env=env, timeout=600)
    return p.returncode, p.stdout.decode("utf-8", "replace").split("\n"), p.stderr.decode(
        "utf-8", "replace")


def compare(fontvm, font, text, extra=()):
    hb_rc, hb, hb_err = run(["hb-shape", "--shapers=graphite2", *extra, "--text-file", text, font])
    fv_rc, fv, fv_err = run([fontvm, "shape", font, *extra, "--text-file", text])
    # Both exit 1 when a line could not be shaped (graphite2 refuses it).
    if hb_rc not in (0, 1):
        return font, text, extra, 0, [f"hb-shape exit {hb_rc}: {hb_err.strip()[:200]}"]
    if fv_rc != hb_rc:
        return font, text, extra, 0, [f"fontvm exit {fv_rc}, hb-shape exit {hb_rc}: "
                                      f"{fv_err.strip()[:200]}"]
    diffs = []
    for i in range(max(len(hb), len(fv))):
        a = hb[i] if i < len(hb) else "<missing>"
        b = fv[i] if i < len(fv) else "<missing>"
        if a != b:
            diffs.append(f"line {i + 1}:\n      hb-shape: {a[:300]}\n      fontvm:   {b[:300]}")
    return font, text, extra, len(hb) - 1, diffs


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    fontvm, src = argv
    pairs = corpus_graphite.font_texts(src)
    fonts = {f for f, _ in pairs}
    if len(fonts) < 6:
        print(f"hb_shape_equal: only {len(fonts)} Graphite fonts configured", file=sys.stderr)
        return 1
    jobs = [(f, t, ()) for f, t in pairs]
    # The option checks on each chosen font's first text, one line of it.
    for name in OPTION_FONTS:
        first = next(((f, t) for f, t in pairs if os.path.basename(f) == name), None)
        if first:
            jobs += [(first[0], first[1], tuple(o)) for o in OPTION_SETS]
    option_runs = len(jobs) - len(pairs)
    if option_runs != len(OPTION_FONTS) * len(OPTION_SETS):
        print(f"hb_shape_equal: {option_runs} option runs; are {OPTION_FONTS} configured?",
              file=sys.stderr)
        return 1
    lines = 0
    bad = []
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for font, text, extra, n, diffs in ex.map(lambda j: compare(fontvm, *j), jobs):
            lines += n
            if diffs:
                bad.append((font, text, extra, diffs))
    print(f"hb-shape equality: {len(fonts)} fonts, {len(jobs)} (font, text, options) runs, "
          f"{lines} lines, {sum(len(d) for *_, d in bad)} different")
    for font, text, extra, diffs in bad:
        print(f"DIFFERS: {os.path.basename(font)} {os.path.basename(text)} {' '.join(extra)}: "
              f"{len(diffs)} line(s)")
        for d in diffs[:3]:
            print("    " + d)
    return 1 if bad or lines == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
