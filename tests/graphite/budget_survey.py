#!/usr/bin/env python3
"""Runs gr_budget_survey over conform.toml's Graphite jobs: how close the
default corpus comes to fontvm's Graphite work budget (issue 14).

    budget_survey.py SURVEY_BIN [--default-features-only] [--extended] [--headroom N]

Exit status: the survey's (0 every segment under 1/N of its budgets, 1 one
was not, 2 bad input)."""
import argparse
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "conformance", "report"))
import config as cfgmod  # noqa: E402


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("survey")
    ap.add_argument("--default-features-only", action="store_true")
    ap.add_argument("--headroom", default="10")
    ap.add_argument("--extended", action="store_true",
                    help="the [extended] font set (every installed Graphite font) instead")
    a = ap.parse_args(argv)
    cfg = cfgmod.load(os.path.join(ROOT, "conformance", "conform.toml"))
    jobs = list(cfgmod.build_jobs(cfg, ROOT, engines=("gr",), extended=a.extended))
    if a.default_features_only:
        jobs = [j for j in jobs if not j.features]
    lines = []
    for j in jobs:
        font = j.font if os.path.isabs(j.font) else os.path.join(ROOT, j.font)
        text = j.texts if os.path.isabs(j.texts) else os.path.join(ROOT, j.texts)
        lines.append(f"{font}\t{text}\t{1 if j.rtl else 0}\t{j.features}\n")
    r = subprocess.run([a.survey, a.headroom], input="".join(lines), text=True)
    return r.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
