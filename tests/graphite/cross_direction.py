#!/usr/bin/env python3
"""Every Graphite font of the default corpus (the font sets of
conformance/conform.toml) shaped with every corpus text in BOTH
directions, against graphite2 and against HarfBuzz's graphite2 shaper: the
default corpus shapes each font in its
script's direction only, and the segments that run against a font's
direction are where KD-3, KD-4, KD-6 and KD-7 were found
(conformance/graphite/KNOWN_DIFFERENCES.md).  Passes when no line differs
and no line fails in one engine only (lines failing in both, general.ttf's
and tiny.ttf's, are counted, not errors).

    cross_direction.py FVCONFORM_GR SOURCE_DIR
"""
import glob
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor



def run(tool, font, text, rtl):
    cmd = [tool, "--font", font, "--text-file", text, "--ref", "both", "--detail-limit", "3"]
    if rtl:
        cmd.append("--rtl")
    r = subprocess.run(cmd, capture_output=True, text=True)
    summaries, details = [], []
    for line in r.stdout.splitlines():
        rec = json.loads(line)
        if rec.get("type") == "gr_summary":
            summaries.append(rec)
        elif rec.get("type") == "gr_case":
            details.append(rec)
    if len(summaries) != 2:
        raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}, {len(summaries)} summaries: "
                           f"{r.stderr[-300:]}")
    return font, text, rtl, summaries, details


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    tool, src = argv
    # the corpus's Graphite fonts, as scripts/conform reads them
    sys.path.insert(0, os.path.join(src, "conformance", "report"))
    import config as cfgmod
    cfg = cfgmod.load(os.path.join(src, "conformance", "conform.toml"))
    fonts = sorted({j.font for j in cfgmod.build_jobs(cfg, src, engines=("gr",))})
    texts = sorted(glob.glob(os.path.join(src, "corpus", "texts", "*.txt")))
    texts += sorted(glob.glob(os.path.join(src, "corpus", "peer", "graphite2", "texts", "*.txt")))
    if len(fonts) < 6 or len(texts) < 6:
        print(f"cross_direction: only {len(fonts)} fonts and {len(texts)} texts found", file=sys.stderr)
        return 1
    jobs = [(f, t, rtl) for f in fonts for t in texts for rtl in (False, True)]
    totals = dict(cases=0, identical=0, different=0, error_fontvm_only=0, error_ref_only=0,
                  error_both=0)
    bad = []
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for font, text, rtl, summaries, details in ex.map(lambda j: run(tool, *j), jobs):
            for s in summaries:
                for k in totals:
                    totals[k] += s[k]
                if s["different"] or s["error_fontvm_only"] or s["error_ref_only"]:
                    bad.append((font, text, rtl, s, details))
    print(f"{len(fonts)} fonts x {len(texts)} texts x 2 directions x 2 references: " +
          ", ".join(f"{k} {v}" for k, v in totals.items()))
    for font, text, rtl, s, details in bad:
        print(f"DIFFERS ({s['ref']}): {os.path.basename(font)} {os.path.basename(text)} "
              f"{'rtl' if rtl else 'ltr'}: {s['different']} different, "
              f"{s['error_fontvm_only']} fail only in fontvm, {s['error_ref_only']} only in the reference")
        for d in (d for d in details if d.get("ref") == s["ref"]):
            print(f"  line {d.get('line')}: {d.get('first_diff')} culprit {d.get('culprit')}")
    return 1 if bad or totals["cases"] == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
