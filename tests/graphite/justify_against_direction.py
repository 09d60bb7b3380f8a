#!/usr/bin/env python3
"""graphite2's justification of a segment that runs against its font's
direction (vm/graphite/justify.c grv_justify, COMPAT(graphite2)): Debian's
gr2fonttest -j (graphite2 1.3.14) against `fontvm shape --format gr2log
--justify` on corpus lines, every slot line compared.  Right-to-left
segments in left-to-right fonts: slots and the returned width identical.
Left-to-right segments in right-to-left fonts: slots identical (the width
graphite2 returns differs on some lines: open, issue 17).

    justify_against_direction.py FONTVM_BIN SOURCE_DIR

Exit 0 all identical, 1 a difference, 2 bad usage."""
import os
import shutil
import subprocess
import sys

AWAMI = "/usr/share/fonts/truetype/awami/AwamiNastaliq-Regular.ttf"
PEER = "corpus/peer/graphite2/fonts/"
# font, text, lines, segment direction, compare the returned width
CASES = [
    (PEER + "Padauk.ttf", "corpus/texts/myanmar.txt", range(1, 8), "rtl", True),
    (PEER + "charis_r_gr.ttf", "corpus/texts/latin.txt", range(1, 8), "rtl", True),
    (PEER + "Annapurnarc2.ttf", "corpus/texts/devanagari_nepali.txt", range(1, 8), "rtl", True),
    (PEER + "Scheherazadegr.ttf", "corpus/texts/arabic.txt", range(1, 8), "ltr", False),
    (AWAMI, "corpus/texts/urdu.txt", range(1, 8), "ltr", False),
]


def lines_of(out, width):
    keep = []
    for ln in out.splitlines():
        head = ln.split("\t")[0].split()
        if len(head) >= 2 and head[0].isdigit() and len(head[0]) >= 2:
            keep.append(ln)
        elif width and ln.startswith("Advance width"):
            keep.append(ln)
    return keep


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    fontvm, src = argv[1], argv[2]
    gr2 = shutil.which("gr2fonttest")
    if not gr2:
        print("gr2fonttest (libgraphite2-utils) is missing", file=sys.stderr)
        return 2
    bad = compared = 0
    for font, text, lines, direction, width in CASES:
        fpath = font if font.startswith("/") else os.path.join(src, font)
        texts = open(os.path.join(src, text), encoding="utf-8").read().splitlines()
        for n in lines:
            if n > len(texts) or not texts[n - 1].strip():
                continue
            t = texts[n - 1]
            for pct in ("90", "130"):
                ref = subprocess.run([gr2] + (["-rtl"] if direction == "rtl" else []) +
                                     ["-j", pct, fpath, t], capture_output=True, text=True)
                fv = subprocess.run([fontvm, "shape", fpath, "--direction", direction,
                                     "--justify", pct, "--format", "gr2log", "--text", t],
                                    capture_output=True, text=True)
                a, b = lines_of(ref.stdout, width), lines_of(fv.stdout, width)
                compared += 1
                if not a or a != b:
                    bad += 1
                    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y),
                                 min(len(a), len(b)))
                    print(f"DIFFERENT {os.path.basename(fpath)} {text}:{n} {direction} -j {pct}: "
                          f"line {first + 1}\n  graphite2: {a[first] if first < len(a) else '<end>'}"
                          f"\n  fontvm:    {b[first] if first < len(b) else '<end>'}")
    print(f"{compared - bad} of {compared} justified lines identical")
    return 1 if bad or compared < 40 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
