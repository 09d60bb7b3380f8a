#!/usr/bin/env python3
"""Unit tests of the minimiser's parts (fuzz/minimise/): the failure kinds
read from sanitizer and target reports, and the structure edits on
committed seeds, each checked against an independent reading of the
result (the edited font re-read, counts and offsets recomputed).

    test_minimise.py [REPLAY]

With REPLAY (fvfuzz-replay), edited Graphite fonts are also replayed through
the gr_font target, which must still open them."""

import os
import struct
import subprocess
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "fuzz", "minimise"))
import fonts  # noqa: E402
import minimise  # noqa: E402
import runner  # noqa: E402
import shrink  # noqa: E402

REPLAY = None


def seed(target, prefix):
    d = os.path.join(ROOT, "corpus", target, "seeds")
    name = sorted(n for n in os.listdir(d) if n.startswith(prefix))[0]
    with open(os.path.join(d, name), "rb") as fh:
        return fh.read()


class Kinds(unittest.TestCase):
    def kind(self, text):
        return runner.Runner.kind(None, text)

    def test_asan_kind_and_access(self):
        out = ("==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6 at pc 0x5\n"
               "READ of size 1 at 0x6 thread T0\n")
        self.assertEqual(self.kind(out), "heap-buffer-overflow READ")

    def test_ubsan_numbers_blanked(self):
        out = "vm/tt/x.c:12:5: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented\n"
        self.assertEqual(self.kind(out), "ubsan: signed integer overflow: N + N cannot be represented")

    def test_target_failure_and_leak(self):
        out = "fvfuzz: sfnt: leak: 64 bytes in 1 blocks still allocated after the run (9 allocations, 0 refused)\n"
        self.assertEqual(self.kind(out), "sfnt: leak: N bytes in N blocks still allocated after the run "
                                         "(N allocations, N refused)")
        self.assertEqual(minimise.kind_slug(self.kind(out) + " in fvfuzz_fail (fuzz/fuzz_common.c:9)"), "leak")

    def test_divergence_prefers_the_report_line(self):
        out = ("gr_diff: graphite2 and fontvm differ: different (position, slot 3)\n"
               "fvfuzz: gr_diff: different (report above)\n")
        kind = self.kind(out)
        self.assertEqual(kind, "diverged: graphite2 and fontvm differ: different (position, slot N)")
        self.assertEqual(minimise.kind_slug(kind), "diverged")

    def test_decision_keeps_both_verdicts(self):
        out = ("gr_font_diff: graphite2 and fontvm decide differently: face\n"
               "  graphite2: makes a face\n"
               "  fontvm:    Feat@0x0: bad feat (header)\n"
               "fvfuzz: gr_font_diff: face decision differs (report above)\n")
        kind = self.kind(out)
        self.assertEqual(kind, "diverged: graphite2 and fontvm decide differently: face; "
                               "graphite2: makes a face; fontvm:    Feat@N: bad feat (header)")
        self.assertEqual(minimise.kind_slug(kind), "diverged")
        flipped = out.replace("makes a face", "refused").replace("Feat@0x0: bad feat (header)", "makes a face")
        self.assertNotEqual(self.kind(flipped), kind)

    def test_lsan_and_clean(self):
        self.assertEqual(self.kind("==1==ERROR: LeakSanitizer: detected memory leaks\n"), "leak")
        self.assertIsNone(self.kind("fvfuzz-replay: 1 file(s) replayed\n"))
        self.assertEqual(minimise.kind_slug("heap-buffer-overflow READ in run (fuzz/sfnt.c:1)"),
                         "heap-buffer-overflow")


    def test_timeout_and_oom_have_no_frames(self):
        r = runner.Runner.__new__(runner.Runner)
        out = ("==9== ERROR: libFuzzer: timeout after 25 seconds\n"
               "    #0 0x4f5 in tt_run (/x/fuzz_tt_font+0x4f5)\n")
        self.assertEqual(r.classify(1, out).signature, "timeout")
        out = "==9== ERROR: libFuzzer: out-of-memory (used: 2600Mb; exceeds: 2560Mb)\n"
        self.assertEqual(r.classify(1, out).signature, "out-of-memory")
        self.assertEqual(r.classify("timeout", "").signature, "timeout")
        self.assertIsNone(r.classify(0, "fvfuzz-replay: 1 file(s) replayed\n").signature)


class Shrinking(unittest.TestCase):
    def test_shrink_units_finds_the_needed_pair(self):
        calls = []

        def test(b):
            calls.append(b)
            return 3 in b and 11 in b
        kept = shrink.shrink_units(list(range(16)), bytes, test)
        self.assertEqual(kept, [3, 11])
        self.assertLess(len(calls), 40)

    def test_code_segments_keep_the_split(self):
        data = seed("tt_program", "NotoLoopedLao-Regular-g51-v35-")
        segs, trailer = shrink.code_segments(data, "tt_program")
        self.assertEqual(shrink.code_bytes(segs, trailer, "tt_program"), data)
        fpgm, prep = struct.unpack(">HH", data[-14:-10])
        self.assertEqual((len(segs[0]), len(segs[1])), (fpgm, prep))
        # Dropping one fpgm instruction lowers the fpgm count by one only.
        smaller = shrink.code_bytes([segs[0][1:], segs[1], segs[2]], trailer, "tt_program")
        self.assertEqual(struct.unpack(">HH", smaller[-14:-10]), (fpgm - 1, prep))


class Fonts(unittest.TestCase):
    def test_glyphs_round_trip_and_cut(self):
        data = seed("tt_font", "Arimo-Regular-m0-")[:-8]
        version, tables = fonts.read_tables(data)
        glyphs = fonts.glyphs_of(tables)
        t = fonts.with_glyphs(tables, glyphs[:3])
        self.assertEqual(fonts.glyphs_of(t), [g + b"\0" * (-len(g) % 4) for g in glyphs[:3]])
        self.assertEqual(struct.unpack(">H", t["maxp"][4:6])[0], 3)
        nhm = struct.unpack(">H", t["hhea"][34:36])[0]
        self.assertEqual(len(t["hmtx"]), 4 * nhm + 2 * (3 - nhm))

    def test_glyph_program_replaced(self):
        version, tables = fonts.read_tables(seed("tt_font", "Arimo-Regular-m0-")[:-8])
        g = next(g for g in fonts.glyphs_of(tables) if (fonts.glyph_program(g) or (0, 0))[1] > 2)
        new = fonts.with_glyph_code(g, b"\xb0\x01")
        start, end, _ = fonts.glyph_program(new)
        self.assertEqual(new[start:end], b"\xb0\x01")
        self.assertEqual(len(new), len(g) - (fonts.glyph_program(g)[1] - fonts.glyph_program(g)[0]) + 2)

    def test_cmap_round_trip(self):
        version, tables = fonts.read_tables(seed("tt_font", "Arimo-Regular-m0-")[:-8])
        mappings = fonts.cmap_mappings(tables["cmap"])
        self.assertTrue(mappings)
        self.assertEqual(fonts.cmap_mappings(fonts.build_cmap(mappings.items())), mappings)
        wide = {0x41: 5, 0x1F600: 7}
        self.assertEqual(fonts.cmap_mappings(fonts.build_cmap(wide.items())), wide)

    def graphite_font(self):
        data = seed("gr_font", "gr-general-latin-")
        n = data[-6]
        font, rest = data[:len(data) - 8 - 2 * n], data[len(data) - 8 - 2 * n:]
        version, tables = fonts.read_tables(font)
        return version, tables, rest

    def replay_opens(self, version, tables, rest):
        if REPLAY is None:
            return
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "test_minimise.%d" % os.getpid())
        with open(path, "wb") as fh:
            fh.write(fonts.build_sfnt(tables, version) + rest)
        try:
            out = subprocess.run([REPLAY, "--target", "gr_font", path], stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT).stdout.decode()
        finally:
            os.unlink(path)
        # The face loads (the verifier accepts every pass's edited layout)
        # and shaping runs.
        self.assertNotIn("graphite face:", out)
        self.assertIn("shaped", out)

    def test_drop_pass_keeps_the_other_passes(self):
        version, tables, rest = self.graphite_font()
        silf = fonts.Silf(tables["Silf"])
        _, offs = silf.passes(0)
        n = len(offs) - 1
        self.assertGreater(n, 1)
        before = [fonts.rule_code(silf, 0, k) for k in range(n)]
        codes = [[silf.subs[0][a:b] for _, _, a, b in w[3]] for w in before]
        new = fonts.Silf(fonts.drop_pass(silf, 0, 0))
        self.assertEqual(len(new.passes(0)[1]) - 1, n - 1)
        for k in range(n - 1):           # every later pass's rule code, unchanged, still found
            w = fonts.rule_code(new, 0, k)
            self.assertIsNotNone(w)
            self.assertEqual([new.subs[0][a:b] for _, _, a, b in w[3]], codes[k + 1])
        # The last pass (positioning) is not needed by the others to shape.
        self.replay_opens(version, dict(tables, Silf=fonts.drop_pass(silf, 0, n - 1)), rest)

    def test_rule_code_shortened(self):
        version, tables, rest = self.graphite_font()
        silf = fonts.Silf(tables["Silf"])
        w = fonts.rule_code(silf, 0, 0)
        kind, r, a, b = next(p for p in w[3] if p[3] - p[2] > 2)
        code = silf.subs[0][a:b]
        new = fonts.Silf(fonts.with_rule_code(silf, 0, 0, kind, r, code[-1:]))
        w2 = fonts.rule_code(new, 0, 0)
        got = {(p[0], p[1]): new.subs[0][p[2]:p[3]] for p in w2[3]}
        self.assertEqual(got[(kind, r)], code[-1:])
        for p in w[3]:
            if (p[0], p[1]) != (kind, r):
                self.assertEqual(got[(p[0], p[1])], silf.subs[0][p[2]:p[3]])
        # Emptied rule code is still a table graphite2's rules accept.
        if kind == "c":
            self.replay_opens(version, dict(tables, Silf=fonts.with_rule_code(silf, 0, 0, "c", r, b"")),
                              rest)

    def test_glat_entries_round_trip(self):
        version, tables, rest = self.graphite_font()
        header, entries = fonts.glat_entries(tables)
        t = fonts.with_glat_entries(tables, header, entries)
        self.assertEqual((t["Glat"], t["Gloc"]), (tables["Glat"], tables["Gloc"]))


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        REPLAY = sys.argv.pop(1)
    unittest.main(verbosity=1)
