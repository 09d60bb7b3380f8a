#!/usr/bin/env python3
"""Writes the generated corpus texts for scripts the corpus has no natural
text for (Tifinagh, Lepcha, Tai Viet, New Tai Lue), and every Arabic letter
in every joining form (arabic_forms.txt): every assigned character
of the script's Unicode block, each base letter with the block's combining
marks, every bigram through the block's joiner where it has one, and seeded
pseudo-words.  Deterministic: the same Python (unicodedata) writes the same
files, so a change shows in git.

    make_block_texts.py [OUT_DIR]      (default: this folder)
"""
import os
import random
import sys
import unicodedata

# name: (first, last, joiner or None)
BLOCKS = {
    "tifinagh": (0x2D30, 0x2D7F, 0x2D7F),      # U+2D7F TIFINAGH CONSONANT JOINER
    "lepcha": (0x1C00, 0x1C4F, None),
    "tai_viet": (0xAA80, 0xAADF, None),
    "new_tai_lue": (0x1980, 0x19DF, None),
}


def assigned(first, last):
    return [cp for cp in range(first, last + 1) if unicodedata.category(chr(cp)) != "Cn"]


def lines_for(first, last, joiner):
    cps = assigned(first, last)
    marks = [c for c in cps if unicodedata.category(chr(c)).startswith("M") and c != joiner]
    letters = [c for c in cps if unicodedata.category(chr(c)).startswith("L")]
    out = []
    # 1. every assigned character, in runs of 8
    for i in range(0, len(cps), 8):
        out.append("".join(chr(c) for c in cps[i:i + 8]))
    # 2. each letter with each mark (all pairs when few; else every mark
    #    with a rotating tenth of the letters, and every letter with some mark)
    if letters and marks:
        if len(letters) * len(marks) <= 800:
            pairs = [(b, m) for b in letters for m in marks]
        else:
            step = max(1, len(letters) // 10)
            pairs = [(letters[(j + k * step) % len(letters)], m)
                     for j, m in enumerate(marks) for k in range(10)]
            pairs += [(b, marks[i % len(marks)]) for i, b in enumerate(letters)]
        for i in range(0, len(pairs), 6):
            out.append(" ".join(chr(b) + chr(m) for b, m in pairs[i:i + 6]))
        # two marks on one base, in both orders
        for i, b in enumerate(letters[:60]):
            m1, m2 = marks[i % len(marks)], marks[(i * 7 + 3) % len(marks)]
            out.append(chr(b) + chr(m1) + chr(m2) + " " + chr(b) + chr(m2) + chr(m1))
    # 3. every consonant + joiner + consonant pair, ten to a line (the
    #    Tuareg bi-consonant ligatures: Akatab's cv31-cv40 and Tagmukay's
    #    ss01 act on single pairs only)
    if joiner is not None:
        pairs = [chr(a) + chr(joiner) + chr(b) for a in letters for b in letters]
        for i in range(0, len(pairs), 10):
            out.append(" ".join(pairs[i:i + 10]))
    # 4. pseudo-words of 2-7 letters, a mark after some letters
    rnd = random.Random(first)
    for _ in range(120):
        words = []
        for _ in range(rnd.randint(1, 4)):
            w = ""
            for _ in range(rnd.randint(2, 7)):
                w += chr(rnd.choice(letters))
                if marks and rnd.random() < 0.35:
                    w += chr(rnd.choice(marks))
            words.append(w)
        out.append(" ".join(words))
    return out


# Arabic letters in every joining form: each letter of Arabic (U+0620-U+064A,
# U+066E-U+06D3), Arabic Supplement and Arabic Extended-A alone, between two
# behs, after and before one, after lam and before alef (fonts' character
# variants often change one form only; Harmattan's cv20 needs sad in them).
ARABIC_RANGES = ((0x0620, 0x064A), (0x066E, 0x06D3), (0x0750, 0x077F), (0x08A0, 0x08C9))


def arabic_forms():
    beh, lam, alef, heh = "\u0628", "\u0644", "\u0627", "\u0647"
    out = []
    for first, last in ARABIC_RANGES:
        for cp in assigned(first, last):
            if not unicodedata.category(chr(cp)).startswith("L"):
                continue
            x = chr(cp)
            out.append(f"{x} {beh}{x}{beh} {beh}{x} {x}{beh} {lam}{x} {x}{alef} {heh}{x}{heh}")
    return out


def main(argv):
    out_dir = argv[0] if argv else os.path.dirname(os.path.abspath(__file__))
    for name, (first, last, joiner) in BLOCKS.items():
        lines = lines_for(first, last, joiner)
        path = os.path.join(out_dir, f"{name}.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        print(f"{path}: {len(lines)} lines (U+{first:04X}..U+{last:04X}, "
              f"Unicode {unicodedata.unidata_version})")
    lines = arabic_forms()
    path = os.path.join(out_dir, "arabic_forms.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{path}: {len(lines)} lines (Arabic letters in every joining form)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
