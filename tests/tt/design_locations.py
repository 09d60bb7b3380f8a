#!/usr/bin/python3
"""Design locations on fonts with a damaged avar or fvar (make_var_fonts.py's
var_axes_*.ttf): fvconform-tt --location design:... at design values inside,
at the ends of and past every axis, in v35 and v40.  FreeType 2.12.1
normalizes them with FT_Set_Var_Design_Coordinates and fontvm with
fv_font_var_from_design; in every configuration the two must take the same
size and location decisions (the same normalized coordinates, or both
refusing the size: an avar mapping outside -1..1) and give identical glyphs.

    design_locations.py FVCONFORM_TT FONT_DIR
"""
import glob
import json
import os
import subprocess
import sys

# wght and wdth design values (var_gvar's axes: wght 100..900, default 400;
# wdth 50..200, default 100); the damaged fvars move wght's range.
LOCATIONS = ["design:wght=-32768", "design:wght=0", "design:wght=99.99", "design:wght=100",
             "design:wght=250.5", "design:wght=399.99998", "design:wght=400",
             "design:wght=400.00002", "design:wght=555", "design:wght=900", "design:wght=1e4",
             "design:wght=650,wdth=60", "design:wght=120,wdth=199.9", "design:wdth=30000"]
AGREE = ("identical", "error_both")


def check(runner, font, location):
    """The problems of one run, as lines ([] when everything agrees)."""
    r = subprocess.run([runner, "--font", font, "--sizes", "12,9.3", "--modes", "v35,v40",
                        "--location", location], capture_output=True, text=True, timeout=120)
    where = f"{os.path.basename(font)} {location}"
    if r.returncode != 0:
        return [f"{where}: exit {r.returncode}: {r.stderr.strip()[-300:]}"]
    problems, stages, summaries = [], set(), 0
    for line in r.stdout.splitlines():
        rec = json.loads(line)
        if rec["type"] == "tt_load":
            stages.add(rec["stage"])
            if rec["status"] not in AGREE:
                problems.append(f"{where}: {rec['size']} {rec['mode']} {rec['stage']} decision "
                                f"{rec['status']}: FreeType {rec['ref_error']}, fontvm {rec['fontvm_error']}")
        elif rec["type"] == "tt_summary":
            summaries += 1
            if rec["cases"] != rec["identical"] + rec["error_both"]:
                problems.append(f"{where}: {rec['size']} {rec['mode']}: {rec['cases']} cases, "
                                f"{rec['identical']} identical, {rec['error_both']} fail in both")
    if summaries != 4 or "location" not in stages:
        problems.append(f"{where}: {summaries} summaries, decisions {sorted(stages)}")
    return problems


def main():
    runner, font_dir = sys.argv[1], sys.argv[2]
    fonts = sorted(glob.glob(os.path.join(font_dir, "var_axes_*.ttf")))
    if len(fonts) < 14:
        print(f"expected make_var_fonts.py's 14 var_axes_*.ttf in {font_dir}, found {len(fonts)}")
        return 1
    problems = []
    for font in fonts:
        for location in LOCATIONS:
            problems += check(runner, font, location)
    for p in problems:
        print(p)
    print(f"{len(fonts)} fonts x {len(LOCATIONS)} design locations: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
