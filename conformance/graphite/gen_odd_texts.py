#!/usr/bin/env python3
"""Odd text for a Graphite font: the shapes of text gen_texts.py does not
write, seeded and reproducible (issue 15).

gen_texts.py writes words of the scripts a font serves.  This writes the
rest of what a caller may hand a shaper, each shape wrapped around or mixed
with the font's own words: empty and whitespace-only lines; bidi embeddings,
overrides and isolates (U+202A-202E, U+2066-2069) and marks (U+200E/F,
U+061C); joiners and other invisible format characters (ZWJ, ZWNJ, ZWSP,
WJ, CGJ, soft hyphen, variation selectors); mirrored brackets, balanced and
not (right to left they are mirrored); unassigned, private-use,
noncharacter, supplementary and C0/C1 control code points; orphan and
over-long mark stacks; words of every script the font serves in one line;
and long lines (hundreds to thousands of characters) where a segment's slot
pool grows and the engines' budgets bite.

    gen_odd_texts.py FONT [--seed S] [--direction ltr|rtl] [--shapes N] [--long N] [-o OUT]

--shapes N: lines of random odd shapes (default 150); --long N: the
longest line's length in characters (default 3000; 0 leaves
the long lines out).  The same font, seed, direction and --long always give
the same lines.  Exit status: 0 written; 2 bad usage or a font without a
usable cmap.
"""
import argparse
import hashlib
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_texts  # noqa: E402  (same folder; the cmap and script inventories)

WHITESPACE = [0x20, 0x09, 0xA0, 0x2000, 0x2003, 0x2009, 0x200A, 0x202F, 0x205F, 0x3000, 0x1680]
BIDI_OPEN = [0x202A, 0x202B, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068]
BIDI_CLOSE = {0x202A: 0x202C, 0x202B: 0x202C, 0x202D: 0x202C, 0x202E: 0x202C,
              0x2066: 0x2069, 0x2067: 0x2069, 0x2068: 0x2069}
BIDI_MARKS = [0x200E, 0x200F, 0x061C]
INVISIBLE = [0x200B, 0x200C, 0x200D, 0x2060, 0x034F, 0x00AD, 0xFEFF, 0x180E,
             0xFE00, 0xFE01, 0xFE0F, 0xE0100, 0xE0001, 0xE0041]
BRACKETS = [(0x28, 0x29), (0x5B, 0x5D), (0x7B, 0x7D), (0x3C, 0x3E), (0xAB, 0xBB),
            (0x2039, 0x203A), (0x2045, 0x2046), (0x207D, 0x207E), (0x2329, 0x232A),
            (0x3008, 0x3009), (0xFD3E, 0xFD3F), (0x2018, 0x2019), (0x201C, 0x201D)]
ODD_CODE_POINTS = [0x0378, 0x0530, 0x05FF, 0x0EFF, 0xFFFE, 0xFFFF, 0x1FFFE, 0x10FFFF,
                   0xE000, 0xF8FF, 0xF0000, 0x100000, 0x10000, 0x1F600, 0x1F3FB, 0x20000,
                   0x2FA1D, 0x1D11E, 0x0001, 0x001F, 0x007F, 0x0085, 0x009F, 0x2028,
                   0x2029, 0xFFFD, 0xFFFC, 0x25CC]


def _text(cps):
    return "".join(chr(c) for c in cps)


class Odd:
    def __init__(self, path, seed, direction):
        cps = gen_texts.font_cmap(path)
        self.invs = gen_texts.inventories(cps)
        if not self.invs:
            raise ValueError(f"{path}: its cmap maps no letters")
        self.pua = [cp for cp in cps if 0xE000 <= cp <= 0xF8FF or cp >= 0xF0000]
        key = f"{os.path.basename(path)}|{seed}|{direction}|odd".encode()
        self.rng = random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))

    def inv(self):
        return gen_texts._pick(self.rng, self.invs)

    def word(self, inv=None):
        return gen_texts._word(self.rng, inv or self.inv())

    def words(self, n, mixed=False):
        inv = self.inv()
        return [self.word(self.inv() if mixed else inv) for _ in range(n)]

    def marks(self):
        return [m for i in self.invs for m in i.marks] or [0x0301]

    def shape(self):
        """One line of a randomly chosen odd shape."""
        rng = self.rng
        r = rng.randrange(12)
        if r == 0:      # whitespace only, or words in odd whitespace
            ws = [rng.choice(WHITESPACE) for _ in range(rng.randint(1, 6))]
            if rng.random() < 0.5:
                return _text(ws)
            return _text(ws).join(self.words(rng.randint(2, 4))) + _text(ws)
        if r == 1:      # bidi embeddings, overrides, isolates; closed or not
            ws = self.words(rng.randint(2, 5), mixed=True)
            out = []
            for w in ws:
                if rng.random() < 0.5:
                    o = rng.choice(BIDI_OPEN)
                    w = chr(o) + w + (chr(BIDI_CLOSE[o]) if rng.random() < 0.7 else "")
                out.append(w)
            return " ".join(out)
        if r == 2:      # bidi marks between and inside words
            ws = self.words(rng.randint(2, 5), mixed=True)
            return (" " + chr(rng.choice(BIDI_MARKS))).join(ws)
        if r == 3:      # invisible format characters inside words
            w = list(self.word() + self.word())
            for _ in range(rng.randint(1, 4)):
                w.insert(rng.randint(0, len(w)), chr(rng.choice(INVISIBLE)))
            return "".join(w)
        if r == 4:      # mirrored brackets, nested, balanced or not
            ws = self.words(rng.randint(1, 4))
            out = []
            for w in ws:
                o, c = rng.choice(BRACKETS)
                pat = rng.choice(["OwC", "OwC", "OOwCC", "Ow", "wC", "CwO", "OOwC"])
                out.append("".join(chr(o) if ch == "O" else chr(c) if ch == "C" else w for ch in pat))
            return " ".join(out)
        if r == 5:      # unassigned, private-use, noncharacters, controls, astral
            w = list(self.word())
            pool = ODD_CODE_POINTS + self.pua
            for _ in range(rng.randint(1, 3)):
                w.insert(rng.randint(0, len(w)), chr(rng.choice(pool)))
            return "".join(w)
        if r == 6:      # orphan marks: at the line's start, after space, digits, punctuation
            m = self.marks()
            lead = _text(rng.sample(m, min(len(m), rng.randint(1, 3))))
            return lead + self.word() + " " + lead + rng.choice(["1", ".", "-", ""]) + lead
        if r == 7:      # one base with a long mark stack
            m = self.marks()
            return self.word() + _text(rng.choice(m) for _ in range(rng.randint(5, 40)))
        if r == 8:      # every script the font serves, and Latin digits and punctuation
            ws = self.words(rng.randint(3, 10), mixed=True)
            return " ".join(ws) + rng.choice(["", ".", " 123", "!?", ", 4.5%"])
        if r == 9:      # a joiner or invisible run between every letter
            j = chr(rng.choice([0x200D, 0x200C, 0x200B, 0x2060, 0x034F]))
            return j.join(self.word() + self.word())
        if r == 10:     # one letter repeated
            inv = self.inv()
            return chr(rng.choice(inv.letters)) * rng.randint(2, 60)
        return gen_texts._line(rng, self.inv(), 10, self.invs if len(self.invs) > 1 else None)

    def long_lines(self, longest):
        """Lines of ~longest/10, ~longest/3 and ~longest characters of
        words, then one letter, one joiner and one mark repeated."""
        out = []
        for n in (max(1, longest // 10), max(1, longest // 3), longest):
            line = ""
            while len(line) < n:
                line += self.word(self.inv() if self.rng.random() < 0.2 else self.invs[0]) + " "
            out.append(line[:n])
        inv = self.invs[0]
        out.append(chr(inv.letters[0]) * longest)
        out.append(chr(inv.letters[0]) + "\u200d" * (longest - 1))
        out.append(chr(inv.letters[0]) + _text([self.marks()[0]] * (longest - 1)))
        return out


def generate(path, seed=1, direction="ltr", shapes=150, longest=3000):
    odd = Odd(path, seed, direction)
    out = ["", " ", "\u00a0", "\u200d", "\u202e", "\u2069"]
    out += [odd.shape() for _ in range(shapes)]
    if longest > 0:
        out += odd.long_lines(longest)
    # A line may not hold the runner's line separators.
    return [line.replace("\n", " ").replace("\r", " ") for line in out]


def languages(path):
    """The language tags of the font's Sill table (fontTools), sorted."""
    from fontTools.ttLib import TTFont
    try:
        with TTFont(path, lazy=True, fontNumber=0) as font:
            if "Sill" not in font:
                return []
            return sorted({str(k).strip() for k in font["Sill"].langs if str(k).strip().isalnum()})
    except Exception:   # a font fontTools cannot read has no languages here
        return []


def random_features(path, seed=1, direction="ltr", count=4):
    """`count` seeded feature settings ("id=v,...") of the font's Feat
    table: each feature set with probability 1/2, to a listed value (60%),
    a value up to three past the largest listed (20%), 65535 (10%) or any
    16-bit value (10%): values no setting lists are graphite2's to refuse
    or take, and fontvm must do the same."""
    from fontTools.ttLib import TTFont
    try:
        with TTFont(path, lazy=True, fontNumber=0) as font:
            feats = font["Feat"].features if "Feat" in font else {}
            feats = {str(k): sorted(v.settings) for k, v in feats.items()}
    except Exception:
        return []
    feats = {k: v for k, v in feats.items() if k.isalnum() and len(k) <= (10 if k.isdigit() else 4)}
    if not feats:
        return []
    key = f"{os.path.basename(path)}|{seed}|{direction}|features".encode()
    rng = random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))
    out = []
    for _ in range(count):
        spec = []
        for fid, sets in feats.items():
            if rng.random() < 0.5:
                continue
            r = rng.random()
            if r < 0.6 and sets:
                v = rng.choice(sets)
            elif r < 0.8:
                v = rng.randint(0, (max(sets) if sets else 1) + 3)
            elif r < 0.9:
                v = 65535
            else:
                v = rng.randint(0, 65535)
            spec.append(f"{fid}={v & 0xFFFF}")
        out.append(",".join(spec[:60]))   # fvconform-gr takes up to 64
    return [s for s in out if s]


def write(path, out_path, seed=1, direction="ltr", longest=3000):
    """Writes the odd text to out_path unless it already holds exactly it."""
    text = "".join(line + "\n" for line in generate(path, seed, direction, 150, longest))
    return gen_texts.write_text(out_path, text)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("font")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--direction", choices=("ltr", "rtl"), default="ltr")
    p.add_argument("--shapes", type=int, default=150)
    p.add_argument("--long", type=int, default=3000)
    p.add_argument("-o", "--output")
    a = p.parse_args(argv)
    if a.shapes < 0 or a.long < 0:
        p.error("--shapes and --long may not be negative")
    try:
        lines = generate(a.font, a.seed, a.direction, a.shapes, a.long)
    except ValueError as e:
        print(f"gen_odd_texts.py: {e}", file=sys.stderr)
        return 2
    text = "".join(line + "\n" for line in lines)
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
