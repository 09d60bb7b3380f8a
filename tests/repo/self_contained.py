#!/usr/bin/env python3
"""The repository carries everything it needs: a clone with nothing beside
it must build, test and run the conformance corpus.

Fails when
  - a tracked file names the project's private sibling folder (the one that
    held graphite2's test suite before it moved to corpus/peer/graphite2),
    or an environment variable that pointed there;
  - a relative path in conformance/conform.toml (a font folder or a text)
    leaves the repository or does not exist in it;
  - graphite2's suite in corpus/peer/graphite2 is incomplete (its README,
    licence, case list, and the 26 cases with their fonts and logs).

    self_contained.py SOURCE_DIR
"""
import os
import re
import subprocess
import sys
import tomllib

# Built from parts so that this file does not match itself.
FORBIDDEN = ["../" + "shared", "FONTVM_" + "SHARED", "shared" + "/peer", "shared" + "/seeds"]


def tracked_files(root):
    try:
        r = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True)
        return [os.path.join(root, p) for p in r.stdout.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        # Not a git checkout (a source tarball): every file but build output.
        out = []
        for dp, dns, fns in os.walk(root):
            dns[:] = [d for d in dns if d not in (".git", "build", "report", "out")]
            out += [os.path.join(dp, f) for f in fns]
        return out


def config_paths(cfg):
    """Every relative path conform.toml names: (where, path)."""
    gr = cfg.get("graphite", {})
    yield "graphite.default_texts", gr.get("default_texts", [])
    for section in ("truetype", "graphite"):
        for fs in cfg.get(section, {}).get("fonts", []):
            where = f"{section}.fonts {fs.get('name', '?')}"
            if "dir" in fs:
                yield where + " dir", [fs["dir"]]
            yield where + " texts", fs.get("texts", [])
            yield where + " sweep_texts", fs.get("sweep_texts", [])


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    root = os.path.realpath(argv[0])
    problems = []

    files = tracked_files(root)
    for path in files:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            continue
        for word in FORBIDDEN:
            i = data.find(word.encode())
            if i >= 0:
                line = data.count(b"\n", 0, i) + 1
                problems.append(f"{os.path.relpath(path, root)}:{line}: names '{word}', "
                                "which exists only on the project's own machines")
    print(f"{len(files)} tracked files read")

    with open(os.path.join(root, "conformance", "conform.toml"), "rb") as f:
        cfg = tomllib.load(f)
    checked = 0
    for where, paths in config_paths(cfg):
        for p in paths:
            if os.path.isabs(p):
                continue  # Debian's installed fonts: the scripts install them
            full = os.path.realpath(os.path.join(root, p))
            checked += 1
            if not full.startswith(root + os.sep):
                problems.append(f"conform.toml {where}: {p} is outside the repository")
            elif not any(c in p for c in "*?[") and not os.path.exists(full):
                problems.append(f"conform.toml {where}: {p} does not exist")
    print(f"{checked} relative paths of conform.toml checked")

    peer = os.path.join(root, "corpus", "peer", "graphite2")
    for name in ("README.md", "COPYING.graphite2", "cases.cmake.txt"):
        if not os.path.isfile(os.path.join(peer, name)):
            problems.append(f"corpus/peer/graphite2/{name} is missing")
    # The upstream list also names fonts graphite2 does not ship with its
    # tests (charis_fast, Magyar Linux Libertine, PigLatin): count the cases
    # whose font and expected log are both here, as peer_suite.py runs them.
    cases = 0
    if os.path.isfile(os.path.join(peer, "cases.cmake.txt")):
        for line in open(os.path.join(peer, "cases.cmake.txt"), encoding="utf-8"):
            m = re.match(r"\s*fonttest\((\S+)\s+([^\s)]+)", line)
            if m and os.path.isfile(os.path.join(peer, "fonts", m.group(2))) and \
                    os.path.isfile(os.path.join(peer, "standards", m.group(1) + ".log")):
                cases += 1
    print(f"{cases} peer cases with their font and expected log")
    if cases < 26:
        problems.append(f"corpus/peer/graphite2 holds {cases} runnable cases (want 26)")

    for p in problems:
        print("FAIL: " + p)
    if not problems:
        print("the repository is self-contained")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
