#!/usr/bin/env python3
"""graphite2's own users, unmodified, through fontvm's drop-in libgraphite2.

    peer_programs.py gr2fonttest DROPIN_DIR SOURCE_DIR
    peer_programs.py hb-shape DROPIN_DIR SOURCE_DIR [--quick] [--no-generated]

DROPIN_DIR holds the drop-in libgraphite2.so.3 (build/.../compat/graphite2/
dropin); the programs are Debian's, run once as they are (the real
graphite2 1.3.14) and once with LD_LIBRARY_PATH=DROPIN_DIR, and the test
first checks with ldd that the dynamic loader then picks the drop-in.

gr2fonttest (libgraphite2-utils): every fonttest case of graphite2's suite
(corpus/peer/graphite2/cases.cmake.txt) with -log, compared byte for byte
with standards/NAME.log, and every font's feature listing (gr2fonttest
FONT) compared with the real library's.  Fails on any difference.

hb-shape (libharfbuzz-bin, HarfBuzz 6.0.0): --shapers=graphite2 on every
Graphite job of conformance/conform.toml (fonts, texts, the feature sweeps,
the generated lines unless --no-generated), each in BOTH directions; the
output lines of the two runs are compared.  Prints the agreement counts;
fails on any line that differs.  --quick: the first text of each font set,
no sweeps, no generated lines.
"""
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

# graphite2's suite cases, read as tests/graphite/peer_suite.py reads them.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "graphite"))
from peer_cases import fonttest_cases  # noqa: E402


def env_with(dropin):
    e = dict(os.environ)
    e["LD_LIBRARY_PATH"] = dropin + (":" + e["LD_LIBRARY_PATH"] if e.get("LD_LIBRARY_PATH") else "")
    # an ASan runtime preloaded by a sanitizer build must not reach the
    # uninstrumented programs
    e.pop("LD_PRELOAD", None)
    return e


def check_loader(program, dropin):
    out = subprocess.run(["ldd", program], capture_output=True, text=True, env=env_with(dropin)).stdout
    m = re.search(r"libgraphite2\.so\.3 => (\S+)", out)
    if not m or os.path.realpath(os.path.dirname(m.group(1))) != os.path.realpath(dropin):
        print(f"FAIL: {program} does not load the drop-in from {dropin}: {m.group(1) if m else out.strip()}")
        return False
    real = subprocess.run(["ldd", program], capture_output=True, text=True).stdout
    m2 = re.search(r"libgraphite2\.so\.3 => (\S+)", real)
    if not m2 or os.path.realpath(os.path.dirname(m2.group(1))) == os.path.realpath(dropin):
        print(f"FAIL: without LD_LIBRARY_PATH {program} should load the real graphite2")
        return False
    return True


def run_gr2fonttest(dropin, src):
    prog = "/usr/bin/gr2fonttest"
    if not check_loader(prog, dropin):
        return 1
    peer = os.path.join(src, "corpus", "peer", "graphite2")
    tmp = os.environ.get("TMPDIR", "/tmp")
    same = total = 0
    bad = []
    for name, font, codes, opts in fonttest_cases(peer):
        std = os.path.join(peer, "standards", name + ".log")
        fpath = os.path.join(peer, "fonts", font)
        if not os.path.exists(std) or not os.path.exists(fpath):
            continue
        total += 1
        out = os.path.join(tmp, f"fvg2_peer_{os.getpid()}_{name}.log")
        cmd = [prog, "-log", out, fpath, "-codes", *codes, *opts]
        p = subprocess.run(cmd, capture_output=True, env=env_with(dropin), timeout=120)
        got = open(out, "rb").read() if os.path.exists(out) else b""
        if os.path.exists(out):
            os.unlink(out)
        if p.returncode == 0 and got == open(std, "rb").read():
            same += 1
        else:
            bad.append(f"{name}: exit {p.returncode}, {len(got)} bytes of log: {' '.join(cmd)}")
    fonts = sorted(f for f in os.listdir(os.path.join(peer, "fonts")) if f.endswith(".ttf"))
    fsame = 0
    for f in fonts:
        cmd = [prog, os.path.join(peer, "fonts", f)]
        a = subprocess.run(cmd, capture_output=True, timeout=120)
        b = subprocess.run(cmd, capture_output=True, env=env_with(dropin), timeout=120)
        if (a.returncode, a.stdout) == (b.returncode, b.stdout):
            fsame += 1
        else:
            bad.append(f"feature listing of {f} differs (exit {a.returncode} / {b.returncode})")
    print(f"gr2fonttest through the drop-in: {same}/{total} suite logs byte for byte, "
          f"{fsame}/{len(fonts)} feature listings identical to graphite2's")
    for b in bad:
        print("  " + b)
    return 0 if same == total and total >= 26 and fsame == len(fonts) else 1


def hb_jobs(src, quick, generated):
    sys.path.insert(0, os.path.join(src, "conformance", "report"))
    import config as cfgmod
    cfg = cfgmod.load(os.path.join(src, "conformance", "conform.toml"))
    jobs = cfgmod.build_jobs(cfg, src, engines=("gr",), quick=quick)
    out = set()
    for j in jobs:
        if not generated and os.sep + "gen-texts" + os.sep in j.texts:
            continue
        if not os.path.exists(j.texts):
            continue
        out.add((j.font, j.texts, j.features))
    return sorted(out)


def hb_run(args):
    dropin, font, text, feats, direction = args
    cmd = ["/usr/bin/hb-shape", "--shapers=graphite2", f"--direction={direction}",
           f"--text-file={text}", font]
    if feats:
        cmd.insert(2, f"--features={feats}")
    a = subprocess.run(cmd, capture_output=True, timeout=600)
    b = subprocess.run(cmd, capture_output=True, env=env_with(dropin), timeout=600)
    la, lb = a.stdout.splitlines(), b.stdout.splitlines()
    same = sum(1 for x, y in zip(la, lb) if x == y)
    diffs = [(i, x, y) for i, (x, y) in enumerate(zip(la, lb)) if x != y][:2]
    return (font, text, feats, direction, len(la), len(lb), same, a.returncode, b.returncode,
            diffs, " ".join(cmd))


def run_hb_shape(dropin, src, quick, generated):
    if not check_loader("/usr/bin/hb-shape", dropin):
        return 1
    jobs = hb_jobs(src, quick, generated)
    work = [(dropin, f, t, ft, d) for f, t, ft in jobs for d in ("ltr", "rtl")]
    lines = same = 0
    bad = []
    with ThreadPoolExecutor(max_workers=min(2, os.cpu_count() or 1)) as ex:
        for r in ex.map(hb_run, work):
            font, text, feats, direction, na, nb, s, ra, rb, diffs, cmd = r
            lines += na
            same += s
            if na != nb or s != na or ra != rb:
                bad.append(r)
    fonts = len({w[1] for w in work})
    print(f"hb-shape --shapers=graphite2 through the drop-in: {same}/{lines} lines identical "
          f"to graphite2's ({len(work)} runs: {fonts} fonts, texts and feature settings, both directions)")
    for r in bad[:20]:
        font, text, feats, direction, na, nb, s, ra, rb, diffs, cmd = r
        print(f"  {os.path.basename(font)} {os.path.basename(text)} {feats or '-'} {direction}: "
              f"{s}/{na} identical (drop-in {nb} lines, exit {ra}/{rb})")
        for i, x, y in diffs:
            print(f"    line {i + 1}\n      graphite2: {x[:300]!r}\n      drop-in:   {y[:300]!r}")
    if len(bad) > 20:
        print(f"  ... {len(bad) - 20} more runs differ")
    return 0 if not bad and lines > 0 else 1


def main(argv):
    if len(argv) < 3 or argv[0] in ("-h", "--help") or argv[0] not in ("gr2fonttest", "hb-shape"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    mode, dropin, src = argv[:3]
    rest = argv[3:]
    if not os.path.exists(os.path.join(dropin, "libgraphite2.so.3")):
        print(f"peer_programs: no libgraphite2.so.3 in {dropin}", file=sys.stderr)
        return 2
    if mode == "gr2fonttest":
        return run_gr2fonttest(dropin, src)
    return run_hb_shape(dropin, src, "--quick" in rest, "--no-generated" not in rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
