#!/usr/bin/env python3
"""Reproduces a fuzz finding, minimises it to a fixed point and files it.

    fuzz/minimise/minimise.py --target T --binary BIN [options] FILE

BIN is a libFuzzer target (build/fuzz/fuzz/fuzz_T) or the engine-less
replay tool (fvfuzz-replay, or the test build's fvfuzz-replay-planted).
scripts/repro builds the binaries and calls this; use it directly to
minimise with a binary you already have.

Steps:
  1. run FILE; print the failure, its signature and the symbolized stack;
  2. minimise until a whole round shrinks nothing: libFuzzer's
     -minimize_crash=1 under an execution budget (libFuzzer binaries only),
     then the structure-aware passes of fuzz/minimise/shrink.py; every
     candidate is kept only if the target fails with the same signature
     (failure kind + the top frames of the project's code, runner.py);
  3. print size before/after, time, executions, the signature and the
     instruction trace up to the failure (the replay tool's --trace);
  4. with --out-dir: write DIR/<id>-<kind> and a one-line DIR/<id>-<kind>.note.

Exit status: 0 reproduced and minimised (and filed with --out-dir);
1 FILE ran cleanly (did not reproduce); 2 bad usage or unreadable input."""

import argparse
import datetime
import hashlib
import os
import re
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import runner as runner_mod  # noqa: E402
import shrink  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGETS = sorted(shrink.TRAILER)
TRACE_LINES = 20


class Minimiser:
    """Holds the smallest input failing with the signature, and the budget."""

    def __init__(self, run, data, signature, deadline, max_runs):
        self.run = run
        self.best = data
        self.signature = signature
        self.deadline = deadline
        self.max_runs = max_runs
        self.start = time.monotonic()
        self.rejected = set()   # sha1 of candidates that did not fail the same way

    def spent(self):
        return time.monotonic() >= self.deadline or self.run.runs >= self.max_runs

    def test(self, cand, simpler=False):
        """Keeps cand when it is smaller (or, with simpler, the same size
        with fewer non-zero bytes) and fails the same way."""
        if self.spent():
            raise shrink.BudgetSpent()
        if simpler:
            if len(cand) != len(self.best) or cand.count(0) <= self.best.count(0):
                return False
        elif len(cand) >= len(self.best):
            return False
        # Passes meet the same candidates again in the fixed-point round.
        key = hashlib.sha1(cand).digest()
        if key in self.rejected:
            return False
        if self.run.run(cand).signature != self.signature:
            self.rejected.add(key)
            return False
        self.best = cand
        return True


def libfuzzer_step(m, args, tmp):
    """One libFuzzer -minimize_crash run; keeps its result only when it is
    smaller and fails with the same signature."""
    left = m.deadline - time.monotonic()
    if left < 2:
        return
    src, out = os.path.join(tmp, "lf-in"), os.path.join(tmp, "lf-out")
    with open(src, "wb") as fh:
        fh.write(m.best)
    if os.path.exists(out):
        os.unlink(out)
    cmd = [args.binary, "-minimize_crash=1", "-runs=%d" % args.libfuzzer_runs,
           "-max_total_time=%d" % max(1, min(args.libfuzzer_time, int(left) - 1)),
           "-timeout=%d" % args.timeout, "-rss_limit_mb=2560",
           "-exact_artifact_path=%s" % out, "-artifact_prefix=%s/" % tmp, src]
    try:
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=m.run.env(),
                       cwd=tmp, timeout=max(5, left + 5))
    except subprocess.TimeoutExpired:
        return
    if os.path.exists(out):
        with open(out, "rb") as fh:
            m.test(fh.read())


def run_passes(m, passes, target, rounds, log):
    for p in passes:
        try:
            p(m, target)
        except (ValueError, struct.error, IndexError, TypeError) as e:
            # An input whose structure breaks a pass's walk: the other
            # passes (and the byte-level ones) still run.
            log("round %d: %s: skipped (%s)" % (rounds, p.__name__, e))
        log("round %d: %s: %d bytes (%d executions, %.1fs)"
            % (rounds, p.__name__, len(m.best), m.run.runs, time.monotonic() - m.start))


def minimise(m, args, tmp, log):
    """Rounds until one shrinks nothing; the byte-level passes (slow, a
    last resort) run only in a round where the structural ones did not
    shrink the input.  Returns (rounds, whether the fixed point was met)."""
    structural, byte_level = shrink.passes_for(args.target)
    rounds = 0
    while True:
        rounds += 1
        before = len(m.best)
        try:
            if m.run.libfuzzer and not args.no_libfuzzer and m.signature != "timeout":
                libfuzzer_step(m, args, tmp)
                log("round %d: libFuzzer -minimize_crash: %d bytes" % (rounds, len(m.best)))
            run_passes(m, structural, args.target, rounds, log)
            if len(m.best) < before:
                continue
            run_passes(m, byte_level, args.target, rounds, log)
        except shrink.BudgetSpent:
            return rounds, False
        if len(m.best) >= before:
            return rounds, True


def kind_slug(signature):
    """The <kind> of the regression file name."""
    head = signature.split(" in ")[0]
    if head.startswith("diverged"):
        return "diverged"
    if ": leak" in head or head == "leak":
        return "leak"
    if head.startswith("ubsan"):
        return "ubsan"
    if head.startswith(("timeout", "out-of-memory")):
        return head.split()[0]
    first = head.split()[0]
    if ":" in first:
        return "abort"
    return first if first.replace("-", "").isalnum() else "crash"


REPORT_LINES = 14
POINT_LINE = re.compile(r"^\s+point \d+: ")


def differential_report(lines):
    """A differential target's report: its "differ" line and the indented
    lines after it (the engines' results, the culprit instruction)."""
    for i, ln in enumerate(lines):
        if runner_mod.DIFFER.match(ln):
            out = [ln]
            for nxt in lines[i + 1:]:
                if not nxt.startswith(" ") or len(out) >= REPORT_LINES:
                    break
                if not POINT_LINE.match(nxt):     # the point listings are long
                    out.append(nxt)
            return out
    return []


def show_stack(run, path):
    rc, out = run.run_file(path, symbolize=True)
    lines = out.splitlines()
    report = differential_report(lines)
    keep = report + [ln for ln in lines if any(k in ln for k in ("ERROR: ", "SUMMARY: ", "runtime error:",
                                                                   "fvfuzz: "))]
    print("\n".join(keep[:len(report) + 4]))
    frames = []
    for ln in lines:                      # the first stack only
        if ln.lstrip().startswith("#"):
            frames.append(ln)
        elif frames:
            break
    if frames:
        print("== stack (symbolized)")
        print("\n".join(frames[:25]))


def show_trace(args, path):
    if not args.replay or not os.path.exists(args.replay):
        print("(no replay tool given: no trace)")
        return
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:symbolize=0", UBSAN_OPTIONS="symbolize=0")
    try:
        p = subprocess.run([args.replay, "--trace", "--target", args.target, path],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                           timeout=args.timeout + 5)
        out = p.stdout.decode("utf-8", "replace").splitlines()
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace").splitlines()
    trace = [ln for ln in out if ln.startswith("trace ")]
    if trace:
        print("\n".join(trace[-TRACE_LINES:]))
        print("(the last line is the instruction the failure followed)")
    else:
        print("(no instruction ran before the failure)")


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Exit status: 0 reproduced and minimised; 1 did not reproduce; "
               "2 bad usage or input.")
    ap.add_argument("file")
    ap.add_argument("--target", required=True, choices=TARGETS)
    ap.add_argument("--binary", required=True, help="fuzz_T (libFuzzer) or a replay tool")
    ap.add_argument("--replay", help="fvfuzz-replay for the instruction trace")
    ap.add_argument("--out-dir", help="file the case here as <id>-<kind> + .note")
    ap.add_argument("--output", help="also write the minimised input here")
    ap.add_argument("--note", help="the note's text (default: kind, frame, origin)")
    ap.add_argument("--time", type=float, default=300,
                    help="seconds for the whole minimisation (default 300)")
    ap.add_argument("--runs", type=int, default=20000,
                    help="most executions of the target (default 20000)")
    ap.add_argument("--libfuzzer-time", type=int, default=20,
                    help="seconds per libFuzzer -minimize_crash step (default 20)")
    ap.add_argument("--libfuzzer-runs", type=int, default=2000,
                    help="executions per libFuzzer -minimize_crash step (default 2000)")
    ap.add_argument("--no-libfuzzer", action="store_true",
                    help="structure-aware passes only")
    ap.add_argument("--timeout", type=int, default=runner_mod.DEFAULT_TIMEOUT,
                    help="seconds per execution before it counts as a timeout")
    ap.add_argument("--verbose", action="store_true", help="print each pass's result")
    args = ap.parse_args()

    def usage_error(msg):
        print("minimise: error: %s" % msg, file=sys.stderr)
        sys.exit(2)

    if not os.path.isfile(args.file):
        usage_error("no such file: %s" % args.file)
    if not os.access(args.binary, os.X_OK):
        usage_error("not an executable: %s" % args.binary)
    try:
        with open(args.file, "rb") as fh:
            data = fh.read()
    except OSError as e:
        usage_error("cannot read %s: %s" % (args.file, e.strerror))

    args.binary = os.path.abspath(args.binary)
    args.replay = args.replay and os.path.abspath(args.replay)
    run = runner_mod.Runner(args.binary, args.target, ROOT, args.timeout)
    try:
        first = run.run(data)
        if not first.crashed:
            print("did not reproduce: %s runs cleanly through %s" % (args.file, os.path.basename(args.binary)),
                  file=sys.stderr)
            return 1
        print("== failure: %s" % first.signature)
        show_stack(run, args.file)

        start = time.monotonic()
        m = Minimiser(run, data, first.signature, start + args.time, args.runs)
        log = (lambda s: print("   " + s, flush=True)) if args.verbose else (lambda s: None)
        print("== minimising (budget %gs, %d executions)" % (args.time, args.runs), flush=True)
        rounds, fixed = minimise(m, args, run.tmp, log)
        took = time.monotonic() - start
        print("== minimised: %d -> %d bytes in %.1fs, %d executions, %d round(s), %s"
              % (len(data), len(m.best), took, run.runs, rounds,
                 "fixed point" if fixed else "budget spent before the fixed point"))
        print("== signature: %s" % m.signature)

        case = os.path.join(run.tmp, "minimised")
        with open(case, "wb") as fh:
            fh.write(m.best)
        print("== instruction trace up to the failure (last %d)" % TRACE_LINES)
        show_trace(args, case)
        if m.signature.startswith("diverged"):
            print("== the minimised case's report")
            print("\n".join(differential_report(run.run_file(case)[1].splitlines())))
        if args.output:
            with open(args.output, "wb") as fh:
                fh.write(m.best)
        if args.out_dir:
            os.makedirs(args.out_dir, exist_ok=True)
            ident = hashlib.sha1(m.best).hexdigest()[:8]
            dest = os.path.join(args.out_dir, "%s-%s" % (ident, kind_slug(m.signature)))
            with open(dest, "wb") as fh:
                fh.write(m.best)
            note = args.note or "%s; from %s, %d -> %d bytes (scripts/repro, %s)" % (
                m.signature, os.path.basename(args.file), len(data), len(m.best),
                datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"))
            with open(dest + ".note", "w") as fh:
                fh.write(note.replace("\n", " ") + "\n")
            print("== filed: %s" % dest)
            print("   note:  %s" % note)
        return 0
    finally:
        run.close()


if __name__ == "__main__":
    sys.exit(main())
