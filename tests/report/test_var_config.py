#!/usr/bin/env python3
"""Variable and web fonts in the conformance configuration: a font set's
`locations` list (conformance/report/locations.py), the location in the
case key, the records and the baseline check (model.py), the pinned
fontsource sets (conformance/fontsource.py, offline: the tarball is put in
the cache by the test) and WOFF/WOFF2 copies of corpus fonts
(web_convert.py).

    test_var_config.py SOURCE_DIR WORK_DIR [unittest args]
"""

import hashlib
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest

sys.dont_write_bytecode = True

SRC = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WORK = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="fv-var-config-")
sys.path.insert(0, os.path.join(SRC, "conformance", "report"))
sys.path.insert(0, os.path.join(SRC, "conformance"))

import config  # noqa: E402
import fontsource  # noqa: E402
import locations  # noqa: E402
import model  # noqa: E402

KARLA = "/usr/share/fonts/truetype/karla-variable/Karla[wght].ttf"
INTER = "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf"
LIBERATION = "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf"


def axes_of(path):
    info, data = config.font_info(path)
    return locations.fvar_axes(data, info.faces[0].get("fvar"))


class Locations(unittest.TestCase):
    def test_fvar_of_debian_fonts(self):
        self.assertEqual(axes_of(KARLA), (["wght"], 6))
        self.assertEqual(axes_of(INTER), (["wght", "slnt"], 18))
        self.assertEqual(axes_of(LIBERATION), ([], 0))

    def test_one_axis_list(self):
        got = locations.expand(["default", "instances", "axes", "corners"], ["wght"], 3, "K.ttf")
        # The corners of a one-axis font are its axis ends: run once.
        self.assertEqual(got, ["", "instance=1", "instance=2", "instance=3",
                               "wght=-1", "wght=-0.32", "wght=0", "wght=0.42", "wght=1"])

    def test_two_axes_share_their_zero(self):
        got = locations.expand(["axes", "corners"], ["wght", "wdth"], 0, "I.ttf")
        self.assertEqual(got, ["wght=-1", "wght=-0.32", "wght=0", "wght=0.42", "wght=1",
                               "wdth=-1", "wdth=-0.32", "wdth=0.42", "wdth=1",
                               "wght=-1,wdth=-1", "wght=-1,wdth=1", "wght=1,wdth=-1", "wght=1,wdth=1"])

    def test_corners_are_capped(self):
        tags = ["a%03d" % i for i in range(6)]
        got = locations.expand(["corners"], tags, 0, "F.ttf")
        self.assertEqual(len(got), locations.MAX_CORNERS)
        self.assertTrue(all(loc.count(",") == 3 for loc in got))

    def test_random_is_seeded_per_font(self):
        a = locations.expand(["random:5"], ["wght", "wdth"], 0, "A.ttf")
        self.assertEqual(a, locations.expand(["random:5:1"], ["wght", "wdth"], 0, "A.ttf"))
        self.assertNotEqual(a, locations.expand(["random:5:2"], ["wght", "wdth"], 0, "A.ttf"))
        self.assertNotEqual(a, locations.expand(["random:5"], ["wght", "wdth"], 0, "B.ttf"))
        self.assertEqual(len(a), 5)
        for loc in a:
            for part in loc.split(","):
                tag, _, v = part.partition("=")
                self.assertIn(tag, ("wght", "wdth"))
                self.assertTrue(-1 <= float(v) <= 1 and len(v.split(".")[-1]) <= 4, loc)

    def test_literals_and_their_errors(self):
        self.assertEqual(locations.expand(["wght=0.5", "instance=2", "wght=0.50"], ["wght"], 2, "K"),
                         ["wght=0.5", "instance=2"])
        for bad, words in (("wght=2", "in -1..1"), ("wdth=0.5", "no axis 'wdth'"),
                           ("instance=3", "2 named instance"), ("random:x", "random:N"),
                           ("heavy", "expected TAG=N")):
            with self.assertRaises(locations.LocationError) as e:
                locations.expand([bad], ["wght"], 2, "K")
            self.assertIn(words, str(e.exception))
        with self.assertRaises(locations.LocationError):
            locations.expand(["instances"], [], 0, "static.ttf")
        self.assertEqual(locations.expand(["default"], [], 0, "static.ttf"), [""])


def summary(loc, identical, different, size="12"):
    r = {"type": "tt_summary", "font": KARLA, "face": 0, "size": size, "mode": "v40",
         "cases": identical + different, "identical": identical, "different": different,
         "error_fontvm_only": 0, "error_ref_only": 0, "error_both": 0, "seconds": 0.1}
    if loc:
        r["location"] = loc
    return r


def case(loc, gid):
    r = {"type": "tt_case", "font": KARLA, "face": 0, "size": "12", "mode": "v40", "gid": gid,
         "glyph_name": "g", "status": "different", "ref_error": None, "fontvm_error": None,
         "first_diff": {"point": 3, "ref": [0, 0], "fontvm": [64, 0]}, "culprit": None}
    if loc:
        r["location"] = loc
    return r


def configs(records):
    m = model.Model(SRC)
    for r in records:
        m.add(r)
    return model.config_list(m)


class LocationKeys(unittest.TestCase):
    """A case at wght=1 is never compared with the same glyph at another
    location, in the report's configurations or in the baseline check."""

    def test_locations_are_separate_configurations(self):
        got = configs([summary("", 455, 0), summary("wght=1", 454, 1), case("wght=1", 7),
                       summary("instance=2", 455, 0)])
        self.assertEqual([(c.get("location"), c["different"], c["nonidentical"]) for c in got],
                         [(None, 0, {}), ("instance=2", 0, {}), ("wght=1", 1, {"d": "7"})])

    def test_check_keys_on_the_location(self):
        base = configs([summary("", 455, 0), summary("wght=1", 455, 0)])
        # Glyph 7 now differs at wght=1: a regression named with its location.
        now = configs([summary("", 455, 0), summary("wght=1", 454, 1), case("wght=1", 7)])
        regs, imps, compared = model.check(base, now)
        self.assertEqual(compared, 2)
        self.assertEqual([r["case"] for r in regs], ["/usr/share/fonts/truetype/karla-variable/Karla[wght].ttf"
                                                     " at wght=1 size 12 v40 glyph 7"])
        # The same glyph different at the default only: the wght=1 baseline
        # entry must not absorb it, nor the other way round.
        base = configs([summary("", 455, 0), summary("wght=1", 454, 1), case("wght=1", 7)])
        now = configs([summary("", 454, 1), case("", 7), summary("wght=1", 455, 0)])
        regs, imps, compared = model.check(base, now)
        self.assertEqual([r["case"] for r in regs], [KARLA + " size 12 v40 glyph 7"])
        self.assertEqual([i["case"] for i in imps], [KARLA + " at wght=1 size 12 v40 glyph 7"])
        # A baseline without that location (an older one) compares nothing there.
        regs, _, compared = model.check(configs([summary("", 455, 0)]),
                                        configs([summary("wght=0.42", 454, 1), case("wght=0.42", 1)]))
        self.assertEqual((regs, compared), ([], 0))


class Jobs(unittest.TestCase):
    def cfg(self, text):
        path = os.path.join(WORK, "conform.toml")
        os.makedirs(WORK, exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return config.load(path)

    def test_a_location_per_job_and_its_command(self):
        cfg = self.cfg('[truetype]\nsizes = [9, 12]\nmodes = ["v40"]\n'
                       '[[truetype.fonts]]\nname = "karla"\npackage = "fonts-karla"\nglob = "Karla[[]wght].ttf"\n'
                       'sizes = [16]\nlocations = ["default", "instances", "wght=0.42"]\n'
                       '[[truetype.fonts]]\nname = "static"\npackage = "fonts-liberation2"\n'
                       'glob = "LiberationSans-Regular.ttf"\n')
        jobs = config.build_jobs(cfg, SRC, engines=("tt",))
        by_loc = {j.location: j for j in jobs if j.set_name == "karla"}
        self.assertEqual(sorted(by_loc), ["", "instance=1", "instance=2", "instance=3", "instance=4",
                                          "instance=5", "instance=6", "wght=0.42"])
        j = by_loc["wght=0.42"]
        self.assertEqual(j.sizes, ["16"])       # the set's sizes
        self.assertEqual(j.name, "tt-Karla[wght]-v40@wght0.42")
        self.assertEqual(j.command("TT", "GR")[-2:], ["--location", "wght=0.42"])
        self.assertNotIn("--location", by_loc[""].command("TT", "GR"))
        static = [j for j in jobs if j.set_name == "static"]
        self.assertEqual([(j.location, j.sizes) for j in static], [("", ["9", "12"])])
        # --sizes wins over a set's sizes.
        jobs = config.build_jobs(cfg, SRC, engines=("tt",), sizes=["7"])
        self.assertTrue(all(j.sizes == ["7"] for j in jobs))

    def test_locations_for_a_static_font_are_a_configuration_error(self):
        cfg = self.cfg('[[truetype.fonts]]\nname = "static"\npackage = "fonts-liberation2"\n'
                       'glob = "LiberationSans-Regular.ttf"\nlocations = ["instances"]\n')
        with self.assertRaises(config.ConfigError) as e:
            config.build_jobs(cfg, SRC, engines=("tt",))
        self.assertIn("without axes", str(e.exception))

    def test_web_copies(self):
        root = os.path.join(WORK, "web-root")
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(root)
        cfg = self.cfg('[truetype]\nmodes = ["v40"]\nsizes = [12]\n'
                       '[[truetype.fonts]]\nname = "web"\npackage = "fonts-karla"\nglob = "Karla[[]wght].ttf"\n'
                       'web = ["woff", "woff2"]\nlocations = ["wght=1"]\n')
        jobs = config.build_jobs(cfg, root, engines=("tt",))
        self.assertEqual(sorted(os.path.basename(j.font) for j in jobs), ["Karla[wght].woff", "Karla[wght].woff2"])
        for j in jobs:
            with open(j.font, "rb") as f:
                self.assertIn(f.read(4), (b"wOFF", b"wOF2"))
            self.assertEqual(j.location, "wght=1")   # fvar read through the container
            self.assertEqual(j.cases, 455)
            self.assertTrue(j.font.startswith(os.path.join(root, "build", "web-fonts", "web")))


class DesignLocations(unittest.TestCase):
    """--random-locations: seeded design coordinates (locations.py's
    design-random), read from fvar's ranges and avar's segment points."""

    def karla(self, n, seed):
        info, data = config.font_info(KARLA)
        t = info.faces[0]
        tags, instances = locations.fvar_axes(data, t.get("fvar"))
        ranges = locations.fvar_ranges(data, t.get("fvar"))
        points = locations.avar_points(data, t.get("avar"), len(tags))
        return locations.expand([f"design-random:{n}:{seed}"], tags, instances, "Karla[wght].ttf",
                                ranges, points), ranges, points

    @staticmethod
    def fixed(spelling):
        return round(float(spelling.split("=")[1]) * 65536)

    def test_fvar_ranges_and_avar_points(self):
        _, ranges, points = self.karla(0, 1)
        self.assertEqual(ranges, [(200 * 65536, 400 * 65536, 800 * 65536)])
        self.assertEqual(points[0][0], -1.0)
        self.assertEqual(points[0][-1], 1.0)
        self.assertGreater(len(points[0]), 3)   # Karla's avar has inner points

    def test_seeded_and_reproducible(self):
        a, _, _ = self.karla(40, 7)
        self.assertEqual(a, self.karla(40, 7)[0])
        self.assertNotEqual(a, self.karla(40, 8)[0])
        # The first three: the default, the minimum, the maximum.
        self.assertEqual(a[:3], ["design:wght=400.0", "design:wght=200.0", "design:wght=800.0"])
        self.assertTrue(all(x.startswith("design:wght=") for x in a))
        self.assertEqual(len(a), len(set(a)))

    def test_the_kinds_are_drawn(self):
        got, ranges, points = self.karla(300, 1)
        lo, de, hi = ranges[0]
        values = {self.fixed(x) for x in got}
        self.assertTrue({de - 1, de + 1} & values)               # one unit off the default
        self.assertTrue(any(v < lo or v > hi for v in values))   # past the range
        self.assertTrue({lo + 1, hi - 1} & values)               # one unit inside an end
        inner = [locations._design_of_normalized(p, lo, de, hi) for p in points[0][1:-1]]
        self.assertTrue(set(inner) & values)                     # on an avar point
        self.assertTrue(any(v % 65536 for v in values))          # fractional values
        # Every spelling is exact: the runner rounds it back to the value.
        for x in got:
            v = float(x.split("=")[1])
            self.assertEqual(v * 65536, round(v * 65536))

    def test_random_locations_replace_the_lists_of_variable_fonts_only(self):
        cfg = Jobs.cfg(self, '[truetype]\nsizes = [12]\nmodes = ["v40"]\n'
                       '[[truetype.fonts]]\nname = "karla"\npackage = "fonts-karla"\nglob = "Karla[[]wght].ttf"\n'
                       'locations = ["instances"]\n'
                       '[[truetype.fonts]]\nname = "static"\npackage = "fonts-liberation2"\n'
                       'glob = "LiberationSans-Regular.ttf"\n')
        jobs = config.build_jobs(cfg, SRC, engines=("tt",), random_locations=(5, 2))
        karla = [j.location for j in jobs if j.set_name == "karla"]
        self.assertEqual(karla, self.karla(5, 2)[0])
        self.assertEqual([j.location for j in jobs if j.set_name == "static"], [""])
        j = [j for j in jobs if j.set_name == "karla"][0]
        self.assertEqual(j.command("TT", "GR")[-2:], ["--location", "design:wght=400.0"])

    def test_run_py_options(self):
        # scripts/conform --random-locations N --seed S on a font given by
        # path: the job list names the same seeded locations.
        r = subprocess.run([sys.executable, os.path.join(SRC, "conformance", "report", "run.py"), "--list",
                            "--engines", "tt", "--modes", "v40", "--random-locations", "6", "--seed", "9",
                            KARLA], capture_output=True, text=True, cwd=SRC)
        self.assertEqual(r.returncode, 0, r.stderr)
        names = [line.split("\t")[0] for line in r.stdout.splitlines()]
        want = [config.Job("tt", KARLA, "", 0, mode="v40", location=loc).ident
                for loc in self.karla(6, 9)[0]]
        self.assertEqual(names, want)


def fake_package(path, files):
    with tarfile.open(path, "w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class Fontsource(unittest.TestCase):
    """The pinned npm sets, without the network: the tarball `npm pack`
    would write is put in the cache first."""

    SPEC = "@fontsource-variable/karla-test@1.0.0"

    def setUp(self):
        self.root = os.path.join(WORK, "fs-root")
        shutil.rmtree(self.root, ignore_errors=True)
        # The cache is outside the repository: here, inside the test's root.
        self._old_cache = os.environ.get("FONTVM_CACHE")
        os.environ["FONTVM_CACHE"] = os.path.join(self.root, "cache")
        self.addCleanup(self._restore_cache)
        self.cache = fontsource.cache_dir()
        self.assertEqual(self.cache, os.path.join(self.root, "cache", "fontsource"))
        os.makedirs(self.cache)
        self.tgz = os.path.join(self.cache, fontsource.tarball_name(self.SPEC))
        self.assertEqual(os.path.basename(self.tgz), "fontsource-variable-karla-test-1.0.0.tgz")
        with open(KARLA, "rb") as f:
            karla = f.read()
        self.sha = fake_package(self.tgz, {"package/files/karla-latin-wght-normal.ttf": karla,
                                           "package/files/../../escape.ttf": b"x",
                                           "package/index.css": b"body{}"})

    def _restore_cache(self):
        if self._old_cache is None:
            os.environ.pop("FONTVM_CACHE", None)
        else:
            os.environ["FONTVM_CACHE"] = self._old_cache

    def test_unpacks_only_fonts_when_the_checksum_matches(self):
        d = fontsource.fetch(self.SPEC, self.sha)
        self.assertEqual(sorted(os.listdir(d)), [".sha256", "escape.ttf", "karla-latin-wght-normal.ttf"])
        for above in (self.cache, os.path.dirname(self.cache), self.root):
            self.assertFalse(os.path.exists(os.path.join(above, "escape.ttf")))
        # Cached: the tarball is not read again.
        os.remove(self.tgz)
        self.assertEqual(fontsource.fetch(self.SPEC, self.sha), d)

    def test_a_wrong_checksum_is_refused_and_the_tarball_dropped(self):
        with self.assertRaises(fontsource.FetchError) as e:
            fontsource.fetch(self.SPEC, "0" * 64)
        self.assertIn("is not the pinned", str(e.exception))
        self.assertFalse(os.path.exists(self.tgz))

    def test_sets_run_only_with_the_option_and_are_skipped_with_a_reason(self):
        toml = ('[truetype]\nmodes = ["v40"]\nsizes = [12]\n'
                f'[[truetype.fonts]]\nname = "fs"\nnpm = "{self.SPEC}"\nsha256 = "{self.sha}"\n'
                'glob = "karla-*.ttf"\nlocations = ["instances"]\n'
                '[[truetype.fonts]]\nname = "gone"\nnpm = "@fontsource-variable/none@1.0.0"\n'
                f'sha256 = "{"1" * 64}"\nglob = "*.ttf"\n')
        path = os.path.join(self.root, "conform.toml")
        with open(path, "w") as f:
            f.write(toml)
        cfg = config.load(path)
        self.assertEqual(config.build_jobs(cfg, self.root, engines=("tt",)), [])
        # With the option: the cached set runs; the other cannot be fetched
        # (npm is made unfindable) and is named with the reason.
        old_path = os.environ["PATH"]
        os.environ["PATH"] = ""
        try:
            err = io.StringIO()
            saved, sys.stderr = sys.stderr, err
            try:
                jobs = config.build_jobs(cfg, self.root, engines=("tt",), fontsource_sets=True)
            finally:
                sys.stderr = saved
        finally:
            os.environ["PATH"] = old_path
        self.assertEqual(sorted(j.location for j in jobs), ["instance=%d" % i for i in range(1, 7)])
        self.assertIn("font set(s) gone skipped: npm is not installed", err.getvalue())

    def test_conform_toml_pins(self):
        cfg = config.load(os.path.join(SRC, "conformance", "conform.toml"))
        sets = [fs for fs in cfg["truetype"]["fonts"] if "npm" in fs]
        self.assertGreaterEqual(len(sets), 3)
        for fs in sets:
            fontsource.split_spec(fs["npm"])
            self.assertRegex(fs["sha256"], "^[0-9a-f]{64}$")
            # Variable packages are compared at locations; static ones
            # (@fontsource/...) have none to give.
            variable = fs["npm"].startswith("@fontsource-variable/")
            self.assertEqual(bool(fs.get("locations")), variable, fs["name"])
        r = subprocess.run([sys.executable, os.path.join(SRC, "conformance", "report", "run.py"), "--list",
                            "--engines", "tt", "--fonts", "karla-variable"],
                           capture_output=True, text=True, cwd=SRC, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("tt-Karla[wght]-v40@wght0.42\t", r.stdout)
        self.assertIn("tt-Karla-Italic[wght]-v35@instance6\t", r.stdout)
        # A glob in --fonts names sets as well as files.
        self.assertTrue(config._font_filter(["fontsource-static-*"])("fontsource-static-lato", "/x/lato-latin.woff2"))
        self.assertFalse(config._font_filter(["fontsource-static-*"])("fontsource-roboto", "/x/roboto-latin.woff2"))


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:], verbosity=2)
