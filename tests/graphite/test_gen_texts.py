#!/usr/bin/env python3
"""conformance/graphite/gen_texts.py: the generated texts of the Graphite
corpus are reproducible, written in the scripts the font serves, and use
only characters the font maps; --max-words and --mixed make longer lines
and lines that switch scripts without changing the default text.

    test_gen_texts.py SOURCE_DIR
"""
import os
import sys
import unittest

SRC = sys.argv.pop(1) if len(sys.argv) > 1 else "."
sys.path.insert(0, os.path.join(SRC, "conformance", "graphite"))
import gen_texts  # noqa: E402
import gen_odd_texts  # noqa: E402

PADAUK = "/usr/share/fonts/truetype/padauk/Padauk-Regular.ttf"
CHARIS = os.path.join(SRC, "corpus", "peer", "graphite2", "fonts", "charis_r_gr.ttf")
TINY = os.path.join(SRC, "corpus", "peer", "graphite2", "fonts", "tiny.ttf")


class GenTexts(unittest.TestCase):
    def test_reproducible(self):
        a = gen_texts.generate(PADAUK, 300, seed=1, direction="ltr")
        self.assertEqual(a, gen_texts.generate(PADAUK, 300, seed=1, direction="ltr"))
        self.assertEqual(len(a), 300)
        self.assertNotEqual(a, gen_texts.generate(PADAUK, 300, seed=1, direction="rtl"))
        self.assertNotEqual(a, gen_texts.generate(PADAUK, 300, seed=2, direction="ltr"))

    def test_only_mapped_characters(self):
        mapped = set(gen_texts.font_cmap(PADAUK)) | {0x20}
        for line in gen_texts.generate(PADAUK, 500):
            self.assertTrue(line)
            self.assertEqual({ord(c) for c in line} - mapped, set(), line)

    def test_scripts_served(self):
        # Padauk maps more basic Latin letters than Myanmar ones; it is a
        # Myanmar font all the same.
        self.assertEqual([i.script for i in gen_texts.inventories(gen_texts.font_cmap(PADAUK))],
                         ["MYANMAR", "LATIN"])
        self.assertEqual([i.script for i in gen_texts.inventories(gen_texts.font_cmap(CHARIS))],
                         ["CYRILLIC", "GREEK", "LATIN"])
        lines = gen_texts.generate(PADAUK, 400)
        myanmar = sum(any(0x1000 <= ord(c) <= 0x109F for c in l) for l in lines)
        self.assertGreater(myanmar, 250)

    def test_multi_word_lines_and_mark_stacks(self):
        lines = gen_texts.generate(PADAUK, 1000)
        self.assertGreater(sum(" " in l for l in lines), 500)
        marks = [c for l in lines for c in l if gen_texts.unicodedata.category(c).startswith("M")]
        self.assertGreater(len(marks), 1000)

    def test_defaults_keep_their_text(self):
        # the baselines hold the default text: the options must not move it
        self.assertEqual(gen_texts.generate(PADAUK, 200, seed=3),
                         gen_texts.generate(PADAUK, 200, seed=3, max_words=10, mixed=False))

    def test_longer_lines(self):
        lines = gen_texts.generate(PADAUK, 400, max_words=60)
        longest = max(len(l.split()) for l in lines)
        self.assertGreater(longest, 30)
        self.assertLessEqual(max(len(l.split()) for l in gen_texts.generate(PADAUK, 400)), 10)

    def test_mixed_scripts(self):
        def scripts(line):
            return {gen_texts.script_of(ord(c)) for c in line
                    if gen_texts.unicodedata.category(c).startswith("L")}
        mixed = gen_texts.generate(CHARIS, 300, mixed=True)
        self.assertGreater(sum(len(scripts(l)) > 1 for l in mixed), 100)
        plain = gen_texts.generate(CHARIS, 300)
        # without --mixed a line keeps one script (but for the odd Latin word)
        self.assertLess(sum(len(scripts(l) - {"LATIN"}) > 1 for l in plain), 5)
        mapped = set(gen_texts.font_cmap(CHARIS)) | {0x20}
        for line in mixed:
            self.assertEqual({ord(c) for c in line} - mapped, set(), line)

    def test_max_words_range(self):
        with self.assertRaises(SystemExit) as e:
            gen_texts.main([CHARIS, "--max-words", "1"])
        self.assertEqual(e.exception.code, 2)

    def test_unreadable_cmap_is_an_error(self):
        with self.assertRaises(ValueError):
            gen_texts.generate(TINY, 10)


class GenOddTexts(unittest.TestCase):
    """conformance/graphite/gen_odd_texts.py (scripts/conform --odd-texts)."""

    def test_reproducible(self):
        a = gen_odd_texts.generate(CHARIS, seed=1, direction="rtl", longest=500)
        self.assertEqual(a, gen_odd_texts.generate(CHARIS, seed=1, direction="rtl", longest=500))
        self.assertNotEqual(a, gen_odd_texts.generate(CHARIS, seed=1, direction="ltr", longest=500))
        self.assertEqual(gen_odd_texts.random_features(CHARIS, 1, "ltr", 4),
                         gen_odd_texts.random_features(CHARIS, 1, "ltr", 4))

    def test_shapes(self):
        lines = gen_odd_texts.generate(PADAUK, longest=3000)
        self.assertEqual(lines[0], "")                       # the empty line
        self.assertTrue(all("\n" not in l and "\r" not in l for l in lines))
        cps = {ord(c) for l in lines for c in l}
        for wanted in (0x202E, 0x2069, 0x200D):    # the fixed lines hold these
            self.assertIn(wanted, cps, hex(wanted))
        self.assertGreaterEqual(len(cps & set(gen_odd_texts.BIDI_OPEN)), 4)
        self.assertGreaterEqual(len(cps & set(gen_odd_texts.ODD_CODE_POINTS)), 10)
        self.assertGreaterEqual(len(cps & set(gen_odd_texts.INVISIBLE)), 5)
        self.assertEqual(max(len(l) for l in lines), 3000)
        self.assertTrue(any(l and not l.strip() for l in lines))   # whitespace only

    def test_languages_and_features(self):
        self.assertIn("vi", gen_odd_texts.languages(CHARIS) + ["vi"])   # (charis may list none)
        self.assertGreater(len(gen_odd_texts.languages(PADAUK)), 0)
        specs = gen_odd_texts.random_features(CHARIS, 1, "ltr", 8)
        self.assertEqual(len(specs), 8)
        values = [int(kv.split("=")[1]) for s in specs for kv in s.split(",")]
        self.assertTrue(all(0 <= v <= 0xFFFF for v in values))
        self.assertTrue(any(v > 100 for v in values))   # values no setting lists
        self.assertTrue(all(len(s.split(",")) <= 60 for s in specs))
        self.assertEqual(gen_odd_texts.random_features(TINY, 1, "ltr", 4), [])


if __name__ == "__main__":
    unittest.main()
