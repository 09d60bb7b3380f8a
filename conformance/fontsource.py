#!/usr/bin/env python3
"""conformance/fontsource.py — the pinned fontsource font sets of
conform.toml: fetches each package with `npm pack` at the version the set
pins, checks the tarball's sha256 against the one recorded beside it in
conform.toml, and unpacks its font files (.woff2, .woff, .ttf; nothing
else) into CACHE/NAME-VERSION/, CACHE being $FONTVM_CACHE/fontsource, or
$XDG_CACHE_HOME/fontvm/fontsource, or ~/.cache/fontvm/fontsource: outside
the repository, so a clean clone, a `git clean` or a new build folder does
not fetch again, and nothing of it can be committed.

    conformance/fontsource.py [--config conform.toml] [SET...]

fetches every set with an `npm` key (or the named ones) and prints where
the fonts are.  scripts/conform does the same for `--fontsource`; a set
that cannot be fetched (no npm, no network, a checksum that does not match)
is then skipped with the reason, and the run goes on without it.

Exit status: 0 every set is there; 1 a set could not be fetched or its
checksum does not match; 2 bad usage or configuration.

Why fontsource: its `@fontsource-variable/*` packages carry Google Fonts'
variable fonts as WOFF2 per subset, several of them TrueType-hinted with
cvar (conform.toml names which), at fixed versions that stay downloadable.
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib

def cache_dir():
    """Where fetched tarballs and their fonts stay (see the module doc)."""
    if os.environ.get("FONTVM_CACHE"):
        return os.path.join(os.environ["FONTVM_CACHE"], "fontsource")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "fontvm", "fontsource")


FONT_SUFFIXES = (".woff2", ".woff", ".ttf")
# npm retries a dead network for minutes by default: one short try, then
# the set is skipped.
NPM_TIMEOUT_SECONDS = 180


class FetchError(Exception):
    """Why a set is not available (the run skips it and says this)."""


def split_spec(spec):
    """"@fontsource-variable/open-sans@5.3.0" -> ("@fontsource-variable/open-sans", "5.3.0")."""
    name, at, version = spec.rpartition("@")
    if not at or not name or not version or name.startswith("@") and "/" not in name:
        raise FetchError(f"npm = {spec!r}: expected @SCOPE/NAME@VERSION or NAME@VERSION")
    return name, version


def tarball_name(spec):
    """The file `npm pack` writes for the spec."""
    name, version = split_spec(spec)
    return f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"


def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _npm_pack(spec, dest):
    npm = shutil.which("npm")
    if npm is None:
        raise FetchError("npm is not installed (apt-get install npm)")
    cmd = [npm, "pack", spec, "--pack-destination", dest, "--silent",
           "--fetch-retries=0", "--fetch-timeout=60000"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=NPM_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        raise FetchError(f"npm pack {spec} did not finish in {NPM_TIMEOUT_SECONDS} s (no network?)")
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["no message"])[-1]
        raise FetchError(f"npm pack {spec} failed: {last}")


def fetch(spec, sha256):
    """The folder holding the set's unpacked font files; FetchError when
    the tarball cannot be had or does not match its checksum."""
    if not isinstance(sha256, str) or len(sha256) != 64:
        raise FetchError(f"npm = {spec!r} needs sha256 = the tarball's 64-digit sha256")
    cache = cache_dir()
    tgz = os.path.join(cache, tarball_name(spec))
    out = os.path.join(cache, os.path.basename(tgz)[:-len(".tgz")])
    stamp = os.path.join(out, ".sha256")
    if os.path.isfile(stamp):
        with open(stamp) as f:
            if f.read().strip() == sha256:
                return out
    os.makedirs(cache, exist_ok=True)
    if not os.path.isfile(tgz):
        _npm_pack(spec, cache)
        if not os.path.isfile(tgz):
            raise FetchError(f"npm pack {spec} wrote no {os.path.basename(tgz)}")
    got = _sha256(tgz)
    if got != sha256:
        os.remove(tgz)   # a later run fetches it again
        raise FetchError(f"{os.path.basename(tgz)}: sha256 {got} is not the pinned {sha256}")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    with tarfile.open(tgz, "r:gz") as tar:
        for m in tar.getmembers():
            base = os.path.basename(m.name)
            # Font files only, by their base name: no path from the tarball
            # reaches the file system.
            if m.isfile() and base.lower().endswith(FONT_SUFFIXES) and not base.startswith("."):
                src = tar.extractfile(m)
                with open(os.path.join(out, base), "wb") as dst:
                    shutil.copyfileobj(src, dst)
    with open(stamp, "w") as f:
        f.write(sha256 + "\n")
    return out


def main(argv=None):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(prog="conformance/fontsource.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sets", nargs="*", help="font set names (default: every set with an npm key)")
    ap.add_argument("--config", default=os.path.join(root, "conformance", "conform.toml"))
    a = ap.parse_args(argv)
    try:
        with open(a.config, "rb") as f:
            cfg = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        print(f"[fontsource] error: {a.config}: {e}", file=sys.stderr)
        return 2
    sets = [fs for fs in cfg.get("truetype", {}).get("fonts", []) if "npm" in fs]
    unknown = set(a.sets) - {fs.get("name") for fs in sets}
    if unknown:
        print(f"[fontsource] error: no fontsource set named {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    rc = 0
    for fs in sets:
        if a.sets and fs.get("name") not in a.sets:
            continue
        try:
            d = fetch(fs["npm"], fs.get("sha256"))
            n = sum(1 for x in os.listdir(d) if x.lower().endswith(FONT_SUFFIXES))
            print(f"{fs['name']}\t{fs['npm']}\t{d}\t{n} font files")
        except FetchError as e:
            print(f"[fontsource] {fs.get('name')}: {e}", file=sys.stderr)
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
