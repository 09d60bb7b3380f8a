#!/usr/bin/env python3
"""gr_seg_justify on random short lines, graphite2 against the drop-in.

    justify_random.py JUSTIFY_PROBE DROPIN_DIR FONT TEXTFILE [--lines N] [--seed S]

Takes N (default 300) pieces of 1 to 12 characters of TEXTFILE's lines,
each with a random direction (0, gr_rtl 1, gr_nobidi 2, 3, gr_nomirror 4,
6), no font or 12 ppm, and 90% to 200% of its advance, and runs
justify_probe (built against graphite2) once as it is and once with
LD_LIBRARY_PATH=DROPIN_DIR.  Counts the identical answers, the lines
where graphite2 does not return within 3 s (there the drop-in must answer
0 and leave the line as it was), and the others, printed.  Not a ctest:
it waits for graphite2's hangs (compat/graphite2/README.md).
"""
import argparse
import os
import random
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("probe")
    ap.add_argument("dropin")
    ap.add_argument("font")
    ap.add_argument("text")
    ap.add_argument("--lines", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    with open(a.text, encoding="utf-8") as fh:
        lines = [l.strip() for l in fh if l.strip()]
    env = dict(os.environ, LD_LIBRARY_PATH=a.dropin)
    same = hang = bad_hang = 0
    differ = []
    for _ in range(a.lines):
        line = rnd.choice(lines)
        start = rnd.randrange(len(line))
        piece = line[start:start + rnd.randint(1, 12)]
        direction = rnd.choice((0, 1, 2, 3, 4, 6))
        ppm = rnd.choice(("0", "12"))
        stretch = rnd.choice(("0.9", "1.1", "1.5", "2"))
        cmd = [a.probe, a.font, str(direction), ppm, stretch] + ["%x" % ord(c) for c in piece]
        dropin = subprocess.run(cmd, capture_output=True, timeout=60, env=env).stdout.decode()
        try:
            ref = subprocess.run(cmd, capture_output=True, timeout=3).stdout.decode()
        except subprocess.TimeoutExpired:
            hang += 1
            before, _, rest = dropin.partition("asked ")
            answer, _, after = rest.partition("\n")
            unchanged = after.split("\n", 1)[-1] == before.split("\n", 1)[-1]
            if not answer.endswith(" got 0") or not unchanged:
                bad_hang += 1
                print("graphite2 hangs, the drop-in changed the line:", " ".join(cmd[1:]))
            continue
        if ref == dropin:
            same += 1
        else:
            differ.append(" ".join(cmd[1:]))
    for d in differ:
        print("differs:", d)
    print(f"{os.path.basename(a.font)}: {same} of {a.lines} identical, {hang} where graphite2 "
          f"does not return ({bad_hang} of them not left as they were by the drop-in), "
          f"{len(differ)} others")
    return 1 if bad_hang else 0


if __name__ == "__main__":
    sys.exit(main())
