#!/usr/bin/env python3
"""graphite2's own test suite (corpus/peer/graphite2) run through fontvm.

Every fonttest(...) line of cases.cmake.txt whose font is present is shaped
with `fontvm shape --format gr2log --codes ...` and compared byte for byte
with standards/NAME.log, which Debian's gr2fonttest (graphite2 1.3.14)
reproduces exactly.  The set of cases that pass is pinned in
peer_expected.txt: the test fails when a pinned case stops passing *or* an
unpinned one starts passing, so every change in conformance is deliberate.

usage: peer_suite.py FONTVM PEER_DIR EXPECTED_FILE [--update]

PEER_DIR is the suite's folder (corpus/peer/graphite2 in the repository).
"""
import os
import subprocess
import sys

from peer_cases import fonttest_cases


# fontvm shape's names for gr2fonttest's options.
FONTVM_OPTION = {"-feat": "--features", "-rtl": "--rtl", "-j": "--justify"}


def cases(peer):
    for name, font, codes, opts in fonttest_cases(peer):
        yield name, font, codes, [FONTVM_OPTION.get(o, o) for o in opts]


def main():
    if len(sys.argv) < 4 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    fontvm, peer, expected_path = sys.argv[1:4]
    update = "--update" in sys.argv[4:]
    if not os.path.isfile(os.path.join(peer, "cases.cmake.txt")):
        print(f"peer_suite: {peer} is not graphite2's test suite (no cases.cmake.txt)", file=sys.stderr)
        return 2
    passing, failing, report = [], [], []
    for name, font, codes, opts in cases(peer):
        font_path = os.path.join(peer, "fonts", font)
        std = os.path.join(peer, "standards", name + ".log")
        if not os.path.exists(font_path) or not os.path.exists(std):
            continue
        cmd = [fontvm, "shape", font_path, "--format", "gr2log", *opts, "--codes", *codes]
        p = subprocess.run(cmd, capture_output=True, timeout=120)
        want = open(std, "rb").read()
        if p.returncode not in (0, 1) or p.stderr.count(b"\n") > 1:
            failing.append(name)
            report.append(f"{name}: exit {p.returncode}: {p.stderr.decode(errors='replace').strip()}")
        elif p.stdout == want:
            passing.append(name)
        else:
            failing.append(name)
            got_lines, want_lines = p.stdout.decode(errors="replace").splitlines(), want.decode(errors="replace").splitlines()
            first = next((i for i, (a, b) in enumerate(zip(got_lines, want_lines)) if a != b),
                         min(len(got_lines), len(want_lines)))
            g = got_lines[first] if first < len(got_lines) else "<end>"
            w = want_lines[first] if first < len(want_lines) else "<end>"
            report.append(f"{name}: first difference at line {first + 1}:\n    fontvm:    {g}\n    graphite2: {w}")
    total = len(passing) + len(failing)
    print(f"peer suite: {len(passing)}/{total} cases identical to graphite2's logs")
    for r in report:
        print("  " + r)
    if update:
        with open(expected_path, "w") as f:
            f.write("# Peer cases (corpus/peer/graphite2) fontvm reproduces byte for byte.\n"
                    "# Regenerate with: tests/graphite/peer_suite.py FONTVM corpus/peer/graphite2 EXPECTED --update\n")
            for n in sorted(passing):
                f.write(n + "\n")
        return 0
    pinned = {l.strip() for l in open(expected_path) if l.strip() and not l.startswith("#")}
    lost = sorted(pinned - set(passing))
    gained = sorted(set(passing) - pinned)
    if total < 26:
        print(f"FAIL: only {total} peer cases found (want 26)")
        return 1
    if lost:
        print("FAIL: cases that used to pass and now differ: " + ", ".join(lost))
    if gained:
        print("FAIL: cases that now pass but are not pinned (run with --update): " + ", ".join(gained))
    return 1 if lost or gained else 0


if __name__ == "__main__":
    sys.exit(main())
