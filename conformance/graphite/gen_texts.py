#!/usr/bin/env python3
"""Generated text for a Graphite font, from its own cmap: lines nobody here
chose, seeded and reproducible, for the differential runs (issue 15).

Each line is written in one script the font serves (one it maps at least 20
letters of; Latin gets a quarter of the lines when there is another) with
what the font maps: every letter of the largest script (runs of eight), then
words of one to eight letters, each letter followed now and then by one or two of the
script's combining marks (mark stacks), zero-width joiners and non-joiners
between letters where the font maps them, digits, and lines of one to ten
words joined by spaces and the punctuation the font maps, with the odd Latin
word when the font maps Latin letters.  Multi-word lines matter: collision
avoidance (Awami Nastaliq, Harmattan) looks across word boundaries.

The same font, seed and line count always give the same text (Python's
random with a seed derived from them; unicodedata of the Python that runs
it), so a line of a report can be regenerated:

    gen_texts.py FONT [--lines N] [--seed S] [--direction ltr|rtl] [-o OUT]
                 [--max-words N] [--mixed]

--max-words makes longer lines (up to N words, default 10) and --mixed
writes each word in a script of its own (every script the font serves,
Latin included), so that lines switch scripts; both change the text only
when given, so the defaults' lines stay the ones the baselines hold.

Exit status: 0 written; 2 bad usage or a font without a usable cmap.
"""
import argparse
import hashlib
import os
import random
import sys
import unicodedata

# Words of a character name that end its script part ("MYANMAR LETTER KA",
# "NEW TAI LUE VOWEL SIGN AA", "ARABIC SMALL HIGH ...").
_NAME_KINDS = {"LETTER", "SIGN", "VOWEL", "DIGIT", "CONSONANT", "MARK", "LIGATURE", "SYLLABLE",
               "SMALL", "CAPITAL", "COMBINING", "NUMBER", "PUNCTUATION", "TONE", "SYMBOL",
               "FRACTION", "INDEPENDENT", "DEPENDENT", "FULL", "COMMA", "SEMICOLON", "QUESTION",
               "ABBREVIATION", "SUBJOINED", "MEDIAL", "FINAL", "INITIAL", "ISOLATED", "MODIFIER"}


def script_of(cp):
    """The script part of a character's Unicode name ("" for inherited
    combining marks and characters without a name)."""
    words = unicodedata.name(chr(cp), "").split()
    if not words or words[0] == "COMBINING":
        return ""
    for i, w in enumerate(words):
        if w in _NAME_KINDS:
            return " ".join(words[:i])   # "" for "MODIFIER LETTER ...": no script
    return words[0]


def font_cmap(path):
    """The code points the font's best cmap maps (fontTools, face 0)."""
    try:
        from fontTools.ttLib import TTFont
    except ImportError:
        raise ValueError("fontTools is missing (apt-get install python3-fonttools; "
                         "scripts/conform installs it and runs Debian's python3)")
    try:
        with TTFont(path, lazy=True, fontNumber=0) as font:
            cmap = font.getBestCmap() or {}
    except Exception as e:  # fontTools raises many kinds on damaged fonts
        raise ValueError(f"{path}: cannot read its cmap ({type(e).__name__}: {e})")
    return sorted(cp for cp in cmap if cp > 0x20 and cp != 0x7F)


class Inventory:
    """What the font maps for one script, by role."""

    def __init__(self, cps, script, letters):
        self.script, self.letters = script, letters
        self.marks = [cp for cp in cps if unicodedata.category(chr(cp)).startswith("M")
                      and script_of(cp) in (script, "")]
        self.digits = [cp for cp in cps if unicodedata.category(chr(cp)) == "Nd" and script_of(cp) == script] \
            or [cp for cp in cps if 0x30 <= cp <= 0x39]
        self.punct = [cp for cp in cps if unicodedata.category(chr(cp)).startswith("P")
                      and (script_of(cp) == script or cp < 0x80)]
        self.joiners = [cp for cp in (0x200C, 0x200D) if cp in cps]
        self.nbsp = 0xA0 in cps
        self.latin = []      # Latin letters for the odd foreign word


MIN_SCRIPT_LETTERS = 20     # fewer letters: a few symbols, not a script the font serves
LATIN_SHARE = 0.25          # of the lines, when the font also serves another script


def inventories(cps):
    """One Inventory per script the font serves (at least
    MIN_SCRIPT_LETTERS letters), largest first; Latin last.  SIL's fonts
    map basic Latin beside their own script, and a Latin font may map
    Cyrillic and Greek too: each is a script of the text."""
    by_script = {}
    for cp in cps:
        if unicodedata.category(chr(cp)).startswith("L"):
            by_script.setdefault(script_of(cp), []).append(cp)
    served = sorted(((s, ls) for s, ls in by_script.items()
                     if s and s != "LATIN" and len(ls) >= MIN_SCRIPT_LETTERS),
                    key=lambda kv: (-len(kv[1]), kv[0]))
    out = [Inventory(cps, s, ls) for s, ls in served]
    latin = by_script.get("LATIN", [])
    if latin:
        out.append(Inventory(cps, "LATIN", latin))
        for inv in out[:-1]:
            inv.latin = [cp for cp in latin if cp < 0x250]
    if not out and by_script:
        s, ls = max(by_script.items(), key=lambda kv: len(kv[1]))
        out.append(Inventory(cps, s, ls))
    return out


def _pick(rng, invs):
    """The script of the next line: Latin for LATIN_SHARE of the lines when
    the font serves another script, the others by their number of letters."""
    if len(invs) == 1:
        return invs[0]
    others = [i for i in invs if i.script != "LATIN"]
    if len(others) < len(invs) and rng.random() < LATIN_SHARE:
        return invs[-1]
    return rng.choices(others, weights=[len(i.letters) for i in others])[0]


def _word(rng, inv):
    out = []
    n = rng.choices(range(1, 9), weights=(8, 14, 18, 18, 14, 10, 6, 4))[0]
    for i in range(n):
        if i and inv.joiners and rng.random() < 0.04:
            out.append(rng.choice(inv.joiners))
        out.append(rng.choice(inv.letters))
        if inv.marks:
            r = rng.random()
            if r < 0.10:
                out += rng.sample(inv.marks, min(2, len(inv.marks)))
            elif r < 0.40:
                out.append(rng.choice(inv.marks))
    return "".join(chr(c) for c in out)


def _line(rng, inv, max_words=10, invs=None):
    """One line in `inv`'s script; with `invs` (mixed scripts) each word
    takes its script from them."""
    words = []
    nwords = 1 if rng.random() < 0.3 else rng.randint(2, max(2, max_words))
    for _ in range(nwords):
        if invs:
            inv = _pick(rng, invs)
        r = rng.random()
        if r < 0.05 and inv.digits:
            words.append("".join(chr(rng.choice(inv.digits)) for _ in range(rng.randint(1, 4))))
        elif r < 0.09 and inv.latin:
            words.append("".join(chr(rng.choice(inv.latin)) for _ in range(rng.randint(2, 6))))
        else:
            words.append(_word(rng, inv))
    line = words[0]
    for w in words[1:]:
        r = rng.random()
        if r < 0.12 and inv.punct:
            sep = chr(rng.choice(inv.punct)) + " "
        elif r < 0.15:
            sep = "  "
        elif r < 0.17 and inv.nbsp:
            sep = "\u00a0"
        else:
            sep = " "
        line += sep + w
    if inv.punct and rng.random() < 0.1:
        line += chr(rng.choice(inv.punct))
    return line


def generate(path, lines, seed=1, direction="ltr", max_words=10, mixed=False):
    """The generated lines (a list of str) for the font at `path`."""
    invs = inventories(font_cmap(path))
    if not invs:
        raise ValueError(f"{path}: its cmap maps no letters")
    key = f"{os.path.basename(path)}|{seed}|{direction}|{lines}"
    if max_words != 10 or mixed:   # the defaults keep their seed (and text)
        key += f"|{max_words}|{int(mixed)}"
    key = key.encode()
    rng = random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))
    out = []
    # Every letter of the first script once, eight to a line.
    first = invs[0].letters
    for i in range(0, min(len(first), 8 * (lines // 4)), 8):
        out.append("".join(chr(c) for c in first[i:i + 8]))
    while len(out) < lines:
        out.append(_line(rng, _pick(rng, invs), max_words, invs if mixed and len(invs) > 1 else None))
    return out


def write(path, lines, out_path, seed=1, direction="ltr", max_words=10, mixed=False):
    """Writes the text to out_path unless it already holds exactly that."""
    text = "".join(line + "\n" for line in generate(path, lines, seed, direction, max_words, mixed))
    return write_text(out_path, text)


def write_text(out_path, text):
    """Writes text to out_path unless it already holds exactly it (so a
    rerun keeps the file's time and the runner's cache); through a
    temporary file, so a reader never sees half a text."""
    try:
        with open(out_path, encoding="utf-8") as f:
            if f.read() == text:
                return out_path
    except OSError:
        pass
    os.makedirs(os.path.dirname(out_path) or ".", exist_ok=True)
    tmp = out_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, out_path)
    return out_path


def main(argv):
    ap = argparse.ArgumentParser(prog="gen_texts.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("font")
    ap.add_argument("--lines", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--direction", choices=("ltr", "rtl"), default="ltr",
                    help="which of the two texts (each direction has its own)")
    ap.add_argument("-o", "--out", help="output file (default: standard output)")
    ap.add_argument("--max-words", type=int, default=10,
                    help="words per line at most (2 to 1000; default 10)")
    ap.add_argument("--mixed", action="store_true",
                    help="each word in one of the font's scripts (lines that switch scripts)")
    a = ap.parse_args(argv)
    if a.lines < 1:
        ap.error("--lines must be at least 1")
    if not 2 <= a.max_words <= 1000:
        ap.error("--max-words must be 2 to 1000")
    try:
        if a.out:
            write(a.font, a.lines, a.out, a.seed, a.direction, a.max_words, a.mixed)
        else:
            sys.stdout.write("".join(l + "\n" for l in generate(a.font, a.lines, a.seed, a.direction,
                                                                 a.max_words, a.mixed)))
    except (ValueError, OSError) as e:
        print(f"gen_texts.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
