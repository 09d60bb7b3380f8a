#!/usr/bin/python3
"""The gvar work budget (FV_BUDGET_GVAR_GLYPH_STEPS, vm/common/budget.h) on
make_var_fonts.py's var_gvar_bomb.ttf, through the conformance runner
against FreeType 2.12.1:

    gvar_budget.py FVCONFORM_TT var_gvar_bomb.ttf

At wght=1 and wght=0.5 every tuple of the bomb glyph applies: fontvm stops
at the budget (a hardening limit, budget_steps) where FreeType loads it;
the other glyphs stay identical.  At wght=-1 no tuple applies and without
a location gvar is not read: everything identical."""

import json
import subprocess
import sys


def run(runner, font, *args):
    out = subprocess.run([runner, "--font", font, "--sizes", "12", "--modes", "v35,v40", *args],
                         capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def main():
    runner, font = sys.argv[1:3]
    checked = 0
    for loc in ("wght=1", "wght=0.5"):
        recs = run(runner, font, "--location", loc)
        sums = [r for r in recs if r["type"] == "tt_summary"]
        cases = [r for r in recs if r["type"] == "tt_case"]
        assert len(sums) == 2, recs
        for s in sums:
            assert (s["cases"], s["identical"], s["hardening_limit"]) == (3, 2, 1), s
        for c in cases:
            assert c["glyph_name"] == "bomb" and c["status"] == "hardening_limit", c
            assert c["ref_error"] is None and "budget steps" in c["fontvm_error"], c["fontvm_error"]
            assert c["location"] == loc, c
        checked += len(cases)
    for args in (["--location", "wght=-1"], []):
        sums = [r for r in run(runner, font, *args) if r["type"] == "tt_summary"]
        assert len(sums) == 2 and all(s["cases"] == s["identical"] == 3 for s in sums), sums
    print(f"gvar_budget: {checked} hardening limits at the bomb glyph, every other case identical")


if __name__ == "__main__":
    main()
