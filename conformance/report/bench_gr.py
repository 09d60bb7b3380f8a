#!/usr/bin/env python3
"""Graphite shaping speed of fontvm against graphite2 over the default corpus.

For every Graphite font and text file of conformance/conform.toml (default
features only; the feature sweeps would weigh the fonts with many features),
runs `fontvm shape FONT --text-file T [--rtl] --bench --repeat N`, which
shapes the text with both engines in the same process, and prints segments/s
per font and text, then the whole corpus: total time of graphite2 / total
time of fontvm (> 1: fontvm faster), each engine taking its best pass; and
the time to open each font's face (`open ratio`, and the sum over the
fonts), which a caller pays once per font and a whole-font fuzz target once
per input.

    bench_gr.py --bin BUILD/fontvm [--repeat N] [--fonts NAME,...] [--config F]

Exit status: 0, or 2 on a bad configuration or a failed bench run.
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import config as cfgmod  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ROW = re.compile(r"^(fontvm|graphite2)\s+(\d+)\s+(\d+)\s+(\d+)\s*$")
LINES = re.compile(r"^text: .* \((\d+) lines\) x \d+ passes$")
MEMORY = re.compile(r"^memory KiB .*: face fontvm ([\d.]+) graphite2 ([\d.]+); "
                    r"segment peak fontvm ([\d.]+) graphite2 ([\d.]+)$")
OPEN = re.compile(r"^face open us .*: fontvm ([\d.]+) graphite2 ([\d.]+);")


class Skip(Exception):
    """A job the benchmark cannot time (a font the reference refuses)."""


def refused_by_graphite2(fontvm, job):
    """Whether graphite2 too refuses the font: fontvm's own refusal of a
    font graphite2 shapes is a difference, not a job to skip (the
    conformance run compares the two decisions; this only keeps the
    benchmark from timing a font neither engine takes)."""
    cmd = [fontvm, "shape", job.font, "--text-file", job.texts, "--engine", "graphite2"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode == 2:
        return True  # graphite2 made no face
    lines = r.stdout.splitlines()
    return bool(lines) and all(line == "error: Shaping failed." for line in lines if line)


def bench_one(fontvm, job, repeat):
    """(lines, fontvm best segments/s, graphite2 best segments/s, memory,
    face open); a line whose segment fails counts as shaped (failing is
    work too); memory is (face fontvm, face graphite2, segment fontvm,
    segment graphite2) in KiB, or None where the build does not meter it;
    face open is (fontvm, graphite2) in microseconds per face."""
    cmd = [fontvm, "shape", job.font, "--text-file", job.texts, "--bench", "--repeat", str(repeat)]
    if job.rtl:
        cmd.append("--rtl")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode == 2 and ("cannot load" in r.stderr or refused_by_graphite2(fontvm, job)):
        raise Skip("graphite2 refuses it too; " + r.stderr.strip().splitlines()[-1])
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()[-300:]}")
    rates, segs, memory, opening = {}, 0, None, None
    for line in r.stdout.splitlines():
        m = OPEN.match(line)
        if m:
            opening = (float(m.group(1)), float(m.group(2)))
        m = MEMORY.match(line)
        if m:
            memory = tuple(float(x) for x in m.groups())
        m = ROW.match(line)
        if m:
            rates[m.group(1)] = int(m.group(2))
        m = LINES.match(line)
        if m:
            segs = int(m.group(1))
    if set(rates) != {"fontvm", "graphite2"} or segs == 0:
        raise RuntimeError(f"{' '.join(cmd)}: no benchmark rows in the output")
    return segs, rates["fontvm"], rates["graphite2"], memory, opening


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="the fontvm executable")
    ap.add_argument("--config", default=os.path.join(ROOT, "conformance", "conform.toml"))
    ap.add_argument("--repeat", type=int, default=10, help="passes over each text (best kept)")
    ap.add_argument("--fonts", help="only these font sets or files (comma-separated)")
    a = ap.parse_args(argv)
    try:
        cfg = cfgmod.load(a.config)
        fonts = [f.strip() for f in a.fonts.split(",")] if a.fonts else None
        jobs = [j for j in cfgmod.build_jobs(cfg, ROOT, fonts=fonts, engines=("gr",))
                if not j.features]
    except cfgmod.ConfigError as e:
        print(f"bench_gr: {e}", file=sys.stderr)
        return 2
    if not jobs:
        print("bench_gr: no Graphite jobs in the configuration", file=sys.stderr)
        return 2
    jobs.sort(key=lambda j: (j.font, j.texts))
    print(f"{'font':32} {'text':28} {'lines':>6} {'fontvm seg/s':>13} {'graphite2 seg/s':>16} {'ratio':>6}"
          f" {'face KiB fv/gr2':>17} {'segment KiB fv/gr2':>19} {'open ratio':>10}")
    t_fv = t_gr = 0.0
    opened = {}  # font -> the fastest face open of its jobs (fontvm, graphite2)
    for j in jobs:
        try:
            segs, fv, gr, mem, op = bench_one(a.bin, j, a.repeat)
        except Skip as e:
            print(f"{os.path.basename(j.font)[:32]:32} {os.path.basename(j.texts)[:28]:28} skipped: {e}")
            continue
        except RuntimeError as e:
            print(f"bench_gr: {e}", file=sys.stderr)
            return 2
        if fv == 0 or gr == 0:
            continue  # too fast to time at this repeat count
        t_fv += segs / fv
        t_gr += segs / gr
        mem_s = (f" {mem[0]:8.1f}/{mem[1]:<8.1f} {mem[2]:9.1f}/{mem[3]:<9.1f}" if mem else "")
        open_s = f" {op[1] / op[0]:10.2f}" if op and op[0] > 0 else ""
        if op:
            best = opened.get(j.font, op)
            opened[j.font] = (min(best[0], op[0]), min(best[1], op[1]))
        print(f"{os.path.basename(j.font)[:32]:32} {os.path.basename(j.texts)[:28]:28} {segs:6d} "
              f"{fv:13d} {gr:16d} {fv / gr:6.2f}{mem_s}{open_s}", flush=True)
    if t_fv > 0:
        print(f"whole corpus: fontvm {t_fv * 1000:.2f} ms, graphite2 {t_gr * 1000:.2f} ms per pass; "
              f"ratio fontvm/graphite2 (speed): {t_gr / t_fv:.2f}")
    if opened:
        o_fv = sum(v[0] for v in opened.values())
        o_gr = sum(v[1] for v in opened.values())
        worst = min(opened.items(), key=lambda kv: kv[1][1] / kv[1][0] if kv[1][0] else 0)
        print(f"face open, {len(opened)} fonts (each its fastest of its texts' runs): fontvm "
              f"{o_fv / 1000:.2f} ms, graphite2 {o_gr / 1000:.2f} ms; ratio fontvm/graphite2 "
              f"(speed): {o_gr / o_fv:.2f}; slowest against graphite2: "
              f"{os.path.basename(worst[0])} {worst[1][1] / worst[1][0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
