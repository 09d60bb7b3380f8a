#!/usr/bin/env python3
"""A stand-in for the C runners (fvconform-tt / fvconform-gr) used only to
test run.py's orchestration: parallel jobs, progress, Ctrl-C, exit codes.
It does not compare anything: it writes records shaped like
conformance/RECORDS.md for the options it is given, with one non-identical
case per configuration taken from tests/report/fixtures/base, and it waits
FV_STANDIN_DELAY seconds (default 0) per configuration so a test can
interrupt it.  FV_STANDIN_CRASH=1 makes it die with SIGABRT after its first
configuration, as a crashing runner would.  Installed under the runners'
names by the test (symlinks); never used by scripts/conform."""

import json
import os
import signal
import sys
import time

HERE = os.path.dirname(os.path.realpath(__file__))


def opt(name, default=None):
    a = sys.argv
    return a[a.index(name) + 1] if name in a and a.index(name) + 1 < len(a) else default


def emit(r):
    sys.stdout.write(json.dumps(r) + "\n")
    sys.stdout.flush()


def fixture(kind):
    with open(os.path.join(HERE, "fixtures", "base", f"{kind}-fixture.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            if r["type"] == f"{kind}_case" and r.get("detail"):
                return r


def main():
    name = os.path.basename(sys.argv[0])
    delay = float(os.environ.get("FV_STANDIN_DELAY", "0"))
    crash = os.environ.get("FV_STANDIN_CRASH") == "1"
    font = opt("--font")
    emit({"type": "run", "schema": 1, "runner": "tt" if "tt" in name else "gr", "fontvm": "0.1.0",
          "freetype": "2.12.1", "graphite2": "1.3.14", "harfbuzz": "6.0.0"})
    if "tt" in name:
        sizes = opt("--sizes").split(",")
        mode = opt("--modes")
        case = fixture("tt")
        for i, s in enumerate(sizes):
            time.sleep(delay)
            emit(dict(case, font=font, size=s, mode=mode))
            emit({"type": "tt_summary", "font": font, "face": 0, "font_name": os.path.basename(font), "size": s,
                  "mode": mode, "cases": 100, "identical": 99, "different": 1, "error_fontvm_only": 0,
                  "error_ref_only": 0, "error_both": 0, "seconds": delay})
            emit({"type": "progress", "done": i + 1, "total": len(sizes)})
            if crash:
                os.kill(os.getpid(), signal.SIGABRT)
        emit({"type": "tt_opcodes", "font": font, "counts": {"0xB0": 10}})
    else:
        texts = opt("--text-file")
        refs = ["graphite2", "harfbuzz"] if opt("--ref") == "both" else [opt("--ref")]
        case = fixture("gr")
        for i, r in enumerate(refs):
            time.sleep(delay)
            emit(dict(case, font=font, texts=texts, ref=r, features=opt("--features", "")))
            emit({"type": "gr_summary", "font": font, "font_name": os.path.basename(font), "texts": texts,
                  "features": opt("--features", ""), "ref": r, "cases": 10, "identical": 9, "different": 1,
                  "error_fontvm_only": 0, "error_ref_only": 0, "error_both": 0, "seconds": delay})
            emit({"type": "progress", "done": i + 1, "total": len(refs)})
        emit({"type": "gr_opcodes", "font": font, "counts": {"PushByte": 3}})


if __name__ == "__main__":
    main()
