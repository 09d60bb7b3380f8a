"""The cases of graphite2's own test suite (corpus/peer/graphite2), read
from its cases.cmake.txt, shared by peer_suite.py (through fontvm shape)
and tests/compat/graphite2/peer_programs.py (through gr2fonttest).

fonttest_cases(PEER_DIR) yields (name, font, codes, options) for every
fonttest(...) line: options are gr2fonttest's own, in their order
(["-feat", SETTINGS], ["-rtl"], ["-j", WIDTH]); the rest are the codes.
"""
import os
import re
import shlex

# gr2fonttest's options that take a value (the rest of its words that
# start with '-' are flags: -rtl).
_VALUED = ("-feat", "-j")


def fonttest_cases(peer):
    for line in open(os.path.join(peer, "cases.cmake.txt"), encoding="utf-8"):
        m = re.match(r"\s*fonttest\((.*)\)\s*$", line)
        if not m:
            continue
        args = shlex.split(m.group(1))
        name, font, rest = args[0], args[1], args[2:]
        codes, opts = [], []
        i = 0
        while i < len(rest):
            if rest[i] in _VALUED:
                opts += [rest[i], rest[i + 1]]
                i += 2
            elif rest[i] == "-rtl":
                opts.append("-rtl")
                i += 1
            else:
                codes.append(rest[i])
                i += 1
        yield name, font, codes, opts
