"""Commands that reproduce one difference by copy and paste.

For each example case of a difference group the report prints, run from
the repository root:
  * fontvm's side (`fontvm hint` / `fontvm shape`),
  * the reference's side: FreeType through the runner's own tool
    (`fvconform-tt ... --glyphs G` prints the case record with both
    outlines), graphite2 through `gr2fonttest -log`, HarfBuzz through
    `hb-shape --shapers=graphite2`,
  * where the first divergence is: the culprit instruction in
    `fontvm trace`, or the pass and rule in `fontvm trace --text`.

The options were checked against the tools themselves (fontvm's --help,
gr2fonttest 1.3.14's usage, hb-shape 6.0.0's --help).  Graphite text is
given as code points (`-codes`, `-u`, `--codes`), which survive copying
right-to-left and invisible characters.
"""

import os
import re
import shlex

import config as cfgmod

_NUMERIC_FEATURE = re.compile(r"(?:^|,)\s*\d+\s*=")
# Where the two gr2log files go: not the repository root the commands run in.
LOG_DIR = '"${TMPDIR:-/tmp}"'


def _q(s):
    return shlex.quote(str(s))


def units_per_em(path):
    """head.unitsPerEm of the font's first face, or None."""
    try:
        info, data = cfgmod.font_info(path)
        off = info.faces[0]["head"][0]
        return cfgmod._u16(data, off + 18) or None
    except (OSError, ValueError, KeyError, IndexError):
        return None


class Commands:
    """Builds the commands for one run: `bin_dir` is where fontvm and the
    runners were built (as the user would type it), `root` the repository
    root the report's paths are relative to."""

    def __init__(self, root, bin_dir):
        self.root = root
        rel = os.path.relpath(bin_dir, root) if os.path.isabs(bin_dir) else bin_dir
        self.bin = rel if not rel.startswith("..") else bin_dir
        self._upem = {}

    def tool(self, name):
        return f"{self.bin}/{name}"

    def _abs(self, p):
        return p if os.path.isabs(p) else os.path.join(self.root, p)

    def tt(self, e):
        """[(what, command)] for a TrueType case record (report paths)."""
        font, face = e["font"], int(e.get("face") or 0)
        size, mode, gid = str(e.get("size")), str(e.get("mode")), e.get("gid")
        loc = e.get("location")
        face_opt = f" --face {face}" if face else ""
        where = ""
        if loc:
            # COMPAT: fvconform-tt takes normalized coordinates; fontvm's
            # CLI takes design units or a named instance.
            m = re.fullmatch(r"instance=(\d+)", str(loc))
            where = f" --named-instance {m.group(1)}" if m else ""
        out = []
        if e.get("stage"):
            out.append(("fontvm", f"{self.tool('fontvm')} info {_q(font)}{face_opt}"))
            out.append(("FreeType and fontvm (the runner)",
                        f"{self.tool('fvconform-tt')} --font {_q(font)} --face {face} --sizes {_q(size)} "
                        f"--modes {mode} --glyphs 0"))
            return out
        note = ""
        if loc and not where:
            note = (f"  # the case is at normalized location {loc}: give it to fontvm as design units "
                    "(--variations TAG=V; fontvm info lists the axes)")
        out.append(("fontvm", f"{self.tool('fontvm')} hint {_q(font)}{face_opt} --ppem {_q(size)} --mode {mode} "
                              f"--glyphs {gid}{where} --json{note}"))
        out.append(("FreeType and fontvm (the runner; the case record holds both outlines)",
                    f"{self.tool('fvconform-tt')} --font {_q(font)} --face {face} --sizes {_q(size)} --modes {mode} "
                    f"--glyphs {gid} --detail-limit 1" + (f" --location {_q(loc)}" if loc else "")
                    + " | grep tt_case"))
        cul = e.get("culprit") or {}
        trace = (f"{self.tool('fontvm')} trace {_q(font)}{face_opt} --ppem {_q(size)} --mode {mode} "
                 f"--glyph {gid}{where}")
        if cul.get("program") is not None and cul.get("pc") is not None:
            pat = f"^{re.escape(str(cul['program']))}(\\[[^]]*\\])? @{int(cul['pc'])} "
            out.append((f"first divergent instruction: {cul['program']}@{cul['pc']} {cul.get('mnemonic')}, the last "
                        "that moved the first differing point",
                        f"{trace} | grep -n -E {_q(pat)}"))
        else:
            out.append(("fontvm's instructions", trace))
        return out

    def _codes(self, text):
        return [f"{ord(c):x}" for c in str(text)]

    def gr(self, e):
        """[(what, command)] for a Graphite case record (report paths)."""
        font = e["font"]
        feats = e.get("features") or ""
        rtl = bool(e.get("rtl"))
        codes = self._codes(e.get("text") or "")
        ref = e.get("ref") or "graphite2"
        direction = "rtl" if rtl else "ltr"
        fopt = f" --features {_q(feats)}" if feats else ""
        out = []
        if ref == "graphite2":
            upem = self._upem.get(font)
            if upem is None:
                upem = self._upem[font] = units_per_em(self._abs(font)) or 1000
            # At a point size of the font's units per em (72 dpi) both logs
            # print positions in font units.
            out.append(("fontvm", f"{self.tool('fontvm')} shape {_q(font)}{fopt} --direction {direction} "
                                  f"--format gr2log --ppem {upem} --codes {' '.join(codes)} > {LOG_DIR}/fontvm.log"))
            out.append(("graphite2", "gr2fonttest" + (f" -feat {_q(feats)}" if feats else "") + (" -rtl" if rtl else "")
                        + f" -pt {upem} -log {LOG_DIR}/graphite2.log {_q(font)} -codes {' '.join(codes)} > /dev/null"
                        f"; diff {LOG_DIR}/graphite2.log {LOG_DIR}/fontvm.log"))
        else:
            out.append(("fontvm", f"{self.tool('fontvm')} shape {_q(font)}{fopt} --direction {direction} "
                                  f"--no-glyph-names -u {','.join(codes)}"))
            hb = (f"hb-shape --shapers=graphite2 --no-glyph-names --direction={direction}"
                  + (f" --features={_q(feats)}" if feats else "") + f" -u {','.join(codes)} {_q(font)}")
            if _NUMERIC_FEATURE.search(feats):
                hb += ("  # hb-shape reads a number as a four-letter tag: a numeric Graphite feature id cannot be "
                       "given on its command line; the runner below passes the id")
            out.append(("HarfBuzz (graphite2 shaper)", hb))
        texts = e.get("texts")
        if texts:
            out.append(("both engines compared (the runner; this case is line "
                        f"{e.get('line')} of the text file)",
                        f"{self.tool('fvconform-gr')} --font {_q(font)} --text-file {_q(texts)}{fopt}"
                        + (" --rtl" if rtl else "") + f" --ref {ref} --detail-limit 0 | grep "
                        + _q(f'"line":{int(e.get("line", 0))},')))
        cul = e.get("culprit") or {}
        trace = (f"{self.tool('fontvm')} trace {_q(font)}{fopt} --direction {direction} --codes {' '.join(codes)}")
        if cul.get("pass") is not None:
            out.append((f"first divergent rule: pass {cul['pass']} rule {cul.get('rule')} (fontvm's slot "
                        f"{cul.get('slot')})",
                        trace + " | awk " + _q(f"/^pass /{{p=$2}} p=={int(cul['pass'])} && "
                                               f"/rule {int(cul.get('rule', -1))} fired/{{print NR\": \"$0}}")))
        else:
            out.append(("fontvm's passes and rules (no fontvm rule changed the first differing slot)", trace))
        return out

    def for_case(self, e):
        if e.get("gid") is not None or e.get("mode"):
            return self.tt(e)
        return self.gr(e)
