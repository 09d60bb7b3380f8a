#!/usr/bin/env python3
"""Speed of fontvm's graphite2 drop-in against graphite2 1.3.14, through
graphite2's API as HarfBuzz calls it (gr2_bench.c), on the Graphite corpus
of conformance/conform.toml (every font with its texts, in its direction).

    bench.py GR2_BENCH DROPIN_DIR SOURCE_DIR [--repeat N] [--rounds R]

Runs gr2_bench for graphite2 and for the drop-in (LD_LIBRARY_PATH) in turn,
R rounds (default 3), each engine keeping its fastest CPU time per font and
text; prints per font and text and in all the drop-in's time over
graphite2's (below 1: the drop-in is faster).
"""
import os
import subprocess
import sys


def jobs(src):
    sys.path.insert(0, os.path.join(src, "conformance", "report"))
    import config as cfgmod
    cfg = cfgmod.load(os.path.join(src, "conformance", "conform.toml"))
    out = []
    for j in cfgmod.build_jobs(cfg, src, engines=("gr",)):
        if j.features or os.sep + "gen-texts" + os.sep in j.texts or not os.path.exists(j.texts):
            continue
        out.append((j.font, j.texts, j.rtl))
    return sorted(set(out))


def run(bench, args, env):
    p = subprocess.run([bench, *args], capture_output=True, text=True, env=env)
    res = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 6:
            res[(f[0], f[1])] = (int(f[3]), int(f[4]), float(f[5]))
    return res


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bench, dropin, src = argv[:3]
    repeat = argv[argv.index("--repeat") + 1] if "--repeat" in argv else "5"
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 3
    args = ["--repeat", repeat]
    for font, text, rtl in jobs(src):
        if rtl:
            args.append("--rtl")
        args += [font, text]
    env_real = dict(os.environ)
    env_real.pop("LD_LIBRARY_PATH", None)
    env_drop = dict(env_real)
    env_drop["LD_LIBRARY_PATH"] = dropin
    best = {"graphite2": {}, "drop-in": {}}
    for _ in range(rounds):
        for name, env in (("graphite2", env_real), ("drop-in", env_drop)):
            for k, v in run(bench, args, env).items():
                if k not in best[name] or v[2] < best[name][k][2]:
                    best[name][k] = v
    tot_g = tot_d = 0.0
    print(f"{'font':32} {'text':28} {'lines':>6} {'graphite2 ms':>12} {'drop-in ms':>11} {'ratio':>6}")
    for k in sorted(best["graphite2"]):
        if k not in best["drop-in"]:
            continue
        g, d = best["graphite2"][k], best["drop-in"][k]
        if g[1] != d[1]:
            print(f"  note: {k}: {g[1]} slots with graphite2, {d[1]} with the drop-in")
        tot_g += g[2]
        tot_d += d[2]
        print(f"{os.path.basename(k[0])[:32]:32} {os.path.basename(k[1])[:28]:28} {g[0]:6} {g[2]:12.2f} "
              f"{d[2]:11.2f} {d[2] / g[2] if g[2] else 0:6.2f}")
    print(f"total: graphite2 {tot_g:.1f} ms, drop-in {tot_d:.1f} ms, drop-in/graphite2 "
          f"{tot_d / tot_g if tot_g else 0:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
