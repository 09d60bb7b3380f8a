#!/usr/bin/env python3
"""graphite2's whole C API, the real library against fontvm's drop-in.

    api_diff.py GR2_API_DUMP DROPIN_DIR SOURCE_DIR

GR2_API_DUMP (gr2_api_dump.c, built against graphite2's installed headers
and -lgraphite2) prints every answer of the API for a font and a text: the
face, features and labels, languages, fonts (none, 12 ppm, a hinted advance
callback), every slot with every gr_attrCode, char infos, justification
and feature sweeps.  It runs once as it is and once with
LD_LIBRARY_PATH=DROPIN_DIR; the outputs must be identical.  Prints how many
lines of how many runs agree.  Then gr_make_file_face on copies of
small.ttf whose sfnt version is rewritten (graphite2's file face reads 1.0
only, fuzz/FINDINGS.md F-38): the same face decisions and face answers.
And each case's first lines justified against the font's direction.
"""
import os
import subprocess
import sys
import tempfile


# (font, text, font direction, extra options); paths from the source root
PEER = "corpus/peer/graphite2/fonts/"
CASES = [
    (PEER + "Padauk.ttf", "corpus/texts/myanmar.txt", "ltr", []),
    (PEER + "Padauk.ttf", "corpus/texts/latin.txt", "ltr", ["--file-face"]),
    (PEER + "Annapurnarc2.ttf", "corpus/texts/devanagari_nepali.txt", "ltr", []),
    (PEER + "Scheherazadegr.ttf", "corpus/texts/arabic.txt", "rtl", []),
    (PEER + "Scheherazadegr_noglyfs.ttf", "corpus/texts/arabic.txt", "rtl", []),
    (PEER + "charis_r_gr.ttf", "corpus/texts/latin.txt", "ltr", []),
    (PEER + "general.ttf", "corpus/peer/graphite2/texts/test_small.txt", "ltr", []),
    (PEER + "grtest1gr.ttf", "corpus/peer/graphite2/texts/test_small.txt", "ltr", []),
    (PEER + "small.ttf", "corpus/peer/graphite2/texts/test_small.txt", "ltr", []),
    (PEER + "tiny.ttf", "corpus/peer/graphite2/texts/test_small.txt", "ltr", []),
    (PEER + "underflow.ttf", "corpus/peer/graphite2/texts/test_small.txt", "ltr", []),
    ("/usr/share/fonts/truetype/awami/AwamiNastaliq-Regular.ttf", "corpus/texts/urdu.txt", "rtl",
     ["--max-lines", "12"]),
    ("/usr/share/fonts/truetype/harmattan/Harmattan-Regular.ttf", "corpus/texts/arabic.txt", "rtl", []),
    ("/usr/share/fonts/truetype/abyssinica/AbyssinicaSIL-Regular.ttf", "corpus/texts/ethiopic.txt", "ltr", []),
]


# sfnt versions: the known ones (1.0, 2.0, 'true', 'OTTO', 'typ1', a
# collection's 'ttcf', FreeType's A5kbd), 1.0's neighbours, unknown ones
FILE_FACE_VERSIONS = (0x00010000, 0x00020000, 0x74727565, 0x4F54544F, 0x74797031, 0x74746366,
                      0xA56B6264, 0x00010001, 0x0001FFFF, 0x00008000, 0x00210000, 0, 0xFFFFFFFF)


def file_face_versions(dump, env, src, bad):
    """gr2_api_dump --file-face on small.ttf at each FILE_FACE_VERSIONS, the
    face's answers compared; returns (identical runs, {version: "0x..." if
    graphite2 made a face})."""
    with open(os.path.join(src, PEER, "small.ttf"), "rb") as fh:
        font = fh.read()
    text = os.path.join(src, "corpus/peer/graphite2/texts/test_small.txt")
    same, made = 0, {}
    with tempfile.TemporaryDirectory() as tmp:
        for v in FILE_FACE_VERSIONS:
            path = os.path.join(tmp, f"small-{v:08x}.ttf")
            with open(path, "wb") as fh:
                fh.write(v.to_bytes(4, "big") + font[4:])
            cmd = [dump, path, text, "--file-face", "--max-lines", "3"]
            a = subprocess.run(cmd, capture_output=True, timeout=600)
            b = subprocess.run(cmd, capture_output=True, timeout=600, env=env)
            made[v] = f"0x{v:08X}" if b"face ok" in a.stdout else ""
            # the face's answers (decision, glyphs, info, features): the
            # lines before the first segment's; the segments are CASES' work
            head = lambda out: out.split(b"\nL0 ")[0]
            if head(a.stdout) == head(b.stdout) and a.returncode == b.returncode:
                same += 1
                continue
            face = lambda out: next((x for x in out.splitlines() if x.startswith(b"face ")), b"<none>")
            bad.append(f"small.ttf as sfnt version 0x{v:08X}, gr_make_file_face: graphite2 "
                       f"{face(a.stdout)!r}, drop-in {face(b.stdout)!r}\n      {' '.join(cmd)}")
    return same, made


def against_direction(dump, env, src, bad):
    """Each case's first 3 lines justified against the font's direction
    (graphite2 reverses the stream for it and positions the line from the
    caller's first slot to the stream's new last one, which for most lines
    is the first cluster alone, and leaves the rest of the line where
    shaping put it, at the font's size too); returns (identical, compared)
    answers of the justified segments."""
    same = total = runs = 0
    for font, text, direction, extra in CASES:
        fpath = font if font.startswith("/") else os.path.join(src, font)
        if not os.path.exists(fpath):
            continue
        runs += 1
        cmd = [dump, fpath, os.path.join(src, text), "--max-lines", "3",
               "--justify-dir", "ltr" if direction == "rtl" else "rtl", *extra]
        a = subprocess.run(cmd, capture_output=True, timeout=600)
        b = subprocess.run(cmd, capture_output=True, timeout=600, env=env)
        la, lb = a.stdout.splitlines(), b.stdout.splitlines()
        justified, first_bad = False, None
        for i, (x, y) in enumerate(zip(la, lb)):
            if x.startswith(b"L"):
                justified = b"+J" in x or b" justified " in x
            if not justified:
                continue
            total += 1
            if x == y:
                same += 1
            elif first_bad is None:
                first_bad = i
        if a.returncode != b.returncode or len(la) != len(lb) or first_bad is not None:
            i = first_bad if first_bad is not None else min(len(la), len(lb))
            x = la[i] if i < len(la) else b"<end>"
            y = lb[i] if i < len(lb) else b"<end>"
            bad.append(f"{os.path.basename(fpath)} {os.path.basename(text)} justified against its "
                       f"direction, first difference at line {i + 1}:\n      graphite2: {x[:240]!r}\n"
                       f"      drop-in:   {y[:240]!r}\n      {' '.join(cmd)}")
    return same, total, runs


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    dump, dropin, src = argv
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = dropin
    lines = same = runs = 0
    bad = []
    for font, text, direction, extra in CASES:
        fpath = font if font.startswith("/") else os.path.join(src, font)
        if not os.path.exists(fpath):
            print(f"  (skipped: {fpath} is not installed)")
            continue
        cmd = [dump, fpath, os.path.join(src, text), "--features", "--advfn", "--max-lines", "40",
               "--justify-dir", direction, *extra]
        a = subprocess.run(cmd, capture_output=True, timeout=600)
        b = subprocess.run(cmd, capture_output=True, timeout=600, env=env)
        la, lb = a.stdout.splitlines(), b.stdout.splitlines()
        s = sum(1 for x, y in zip(la, lb) if x == y)
        runs += 1
        lines += len(la)
        same += s
        if a.returncode != b.returncode or len(la) != len(lb) or s != len(la):
            first = next((i for i, (x, y) in enumerate(zip(la, lb)) if x != y), min(len(la), len(lb)))
            x = la[first] if first < len(la) else b"<end>"
            y = lb[first] if first < len(lb) else b"<end>"
            bad.append(f"{os.path.basename(fpath)} {os.path.basename(text)}: {s}/{len(la)} lines "
                       f"(exit {a.returncode}/{b.returncode}), first difference at line {first + 1}:\n"
                       f"      graphite2: {x[:240]!r}\n      drop-in:   {y[:240]!r}\n"
                       f"      {' '.join(cmd)}")
    against_same, against_total, against_runs = against_direction(dump, env, src, bad)
    print(f"justified against the font's direction: {against_same}/{against_total} answers "
          f"identical ({against_runs} fonts and texts, 3 lines each)")
    versions_same, versions = file_face_versions(dump, env, src, bad)
    print(f"gr_make_file_face by sfnt version: {versions_same}/{len(versions)} runs identical "
          f"(faces made by graphite2 for {', '.join(versions[v] for v in sorted(versions) if versions[v])})")
    print(f"graphite2 API through the drop-in: {same}/{lines} answers identical ({runs} fonts and "
          f"texts)")
    for m in bad:
        print("  " + m)
    return 0 if not bad and runs >= 10 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
