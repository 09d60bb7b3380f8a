"""Runs one input through a fuzz target binary and names what happened.

A binary is either a libFuzzer target (fuzz_<t>: `-runs=1 FILE`) or the
engine-less replay tool (fvfuzz-replay: `--target T FILE`).  Every child
runs through subprocess with its output captured, so a child killed by a
signal is a return code here, never a line of shell noise.

The crash signature is what must stay the same while an input shrinks:
the failure kind (sanitizer report kind and access type, the UBSan check
with its numbers blanked, or the target's own fvfuzz_fail message with its
numbers blanked) and the top SIGNATURE_FRAMES frames of the project's code
(function names; the innermost with file and line).  Sanitizers run with
symbolize=0 and the frames are symbolized here by one long-running
llvm-symbolizer, so a run costs a process start, not a symbolizer start."""

import os
import re
import shutil
import subprocess
import tempfile

SIGNATURE_FRAMES = 3
# Per-run wall-clock cap when the caller gives none: well above any
# target's per-input time (the slowest, tt_font, runs in milliseconds).
DEFAULT_TIMEOUT = 25

_FRAME = re.compile(r"^\s*#(\d+) 0x[0-9a-f]+ .*?\(([^()+]+)\+0x([0-9a-f]+)\)")
_ASAN = re.compile(r"ERROR: AddressSanitizer: ([\w-]+)")
_ACCESS = re.compile(r"^(READ|WRITE) of size")
_UBSAN = re.compile(r"runtime error: (.*)")
_FVFUZZ = re.compile(r"^fvfuzz: (\w+): (.*)")
DIFFER = re.compile(r"^(tt_diff|gr_diff|tt_font_diff|gr_font_diff|gr_text_diff|gr2_api_diff): .*(differ|decide)")
_VERDICT = re.compile(r"^  (FreeType|fontvm|graphite2|HarfBuzz): ")
_LIBFUZZER = re.compile(r"ERROR: libFuzzer: ([\w -]+)")
_NUMBER = re.compile(r"(?<![\w.])(0x[0-9a-fA-F]+|-?\d+(\.\d+)?)\b")


def blank_numbers(text):
    return _NUMBER.sub("N", text.strip())


class Symbolizer:
    """module+offset -> [(function, "file:line")], innermost inlined first."""

    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.cache = {}
        exe = shutil.which("llvm-symbolizer") or shutil.which("llvm-symbolizer-14")
        self.proc = None
        if exe:
            self.proc = subprocess.Popen([exe, "--functions=linkage", "--inlining"],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def frames(self, module, offset):
        key = (module, offset)
        if key in self.cache:
            return self.cache[key]
        out = []
        if self.proc is not None:
            self.proc.stdin.write('"%s" 0x%x\n' % (module, offset))
            self.proc.stdin.flush()
            lines = []
            while True:
                line = self.proc.stdout.readline()
                if line == "" or line == "\n":
                    break
                lines.append(line.rstrip("\n"))
            for fn, loc in zip(lines[0::2], lines[1::2]):
                out.append((fn, loc))
        self.cache[key] = out
        return out

    def project_location(self, loc):
        """'fuzz/sfnt.c:138' for a file of the project, else None."""
        path = loc.rsplit(":", 2)[0] if loc.count(":") >= 2 else loc
        real = os.path.realpath(path) if path.startswith("/") else path
        if not real.startswith(self.root + os.sep):
            return None
        rel = os.path.relpath(real, self.root)
        if rel.startswith("build"):
            return None
        line = loc.split(":")[len(path.split(":"))] if loc.count(":") >= 2 else "?"
        return "%s:%s" % (rel, line)

    def close(self):
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait()


class Outcome:
    def __init__(self, signature, output, returncode, frames):
        self.signature = signature   # None: the input ran cleanly
        self.output = output
        self.returncode = returncode
        self.frames = frames         # [(function, location)] of the first stack

    @property
    def crashed(self):
        return self.signature is not None


class Runner:
    def __init__(self, binary, target, root, timeout=DEFAULT_TIMEOUT):
        self.binary = os.path.abspath(binary)
        self.target = target
        self.timeout = timeout
        self.libfuzzer = os.path.basename(binary).startswith("fuzz_")
        self.symbolizer = Symbolizer(root)
        self.tmp = tempfile.mkdtemp(prefix="fvmin-")
        self.runs = 0

    def close(self):
        self.symbolizer.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def env(self, symbolize=False):
        env = dict(os.environ)
        sym = "1" if symbolize else "0"
        env["ASAN_OPTIONS"] = ("abort_on_error=1:handle_abort=1:detect_leaks=1:"
                               "allocator_may_return_null=1:symbolize=" + sym)
        env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1:symbolize=" + sym
        return env

    def command(self, path):
        if self.libfuzzer:
            return [self.binary, "-runs=1", "-timeout=%d" % self.timeout, "-rss_limit_mb=2560",
                    "-artifact_prefix=%s/" % self.tmp, path]
        return [self.binary, "--quiet", "--target", self.target, path]

    def run_file(self, path, symbolize=False, extra=None):
        """(returncode or 'timeout', combined output)."""
        cmd = self.command(path) if extra is None else extra
        self.runs += 1
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               env=self.env(symbolize), cwd=self.tmp, timeout=self.timeout + 5)
            return p.returncode, p.stdout.decode("utf-8", "replace")
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode("utf-8", "replace") if e.stdout else ""
            return "timeout", out

    def run(self, data):
        path = os.path.join(self.tmp, "input")
        with open(path, "wb") as fh:
            fh.write(data)
        rc, out = self.run_file(path)
        return self.classify(rc, out)

    # ---- reading a report
    def first_stack(self, out):
        """[(function, project location or None)] of the report's first stack."""
        frames, started = [], False
        for line in out.splitlines():
            m = _FRAME.match(line)
            if m:
                started = True
                n, module, off = int(m.group(1)), m.group(2), int(m.group(3), 16)
                # Frames above #0 are return addresses: the call is one byte before.
                for fn, loc in self.symbolizer.frames(module, off - 1 if n > 0 else off):
                    frames.append((fn, self.symbolizer.project_location(loc)))
            elif started:
                break
        return frames

    def kind(self, out):
        # A differential target's report line says more than its abort's.
        lines = out.splitlines()
        for i, line in enumerate(lines):
            m = DIFFER.match(line)
            if m:
                kind = "diverged: " + blank_numbers(line.split(":", 1)[1])
                if "decide differently" in line:
                    # A decision's two verdicts (which engine refuses, and
                    # why) follow it: without them a case where fontvm
                    # refuses what the reference takes could shrink into
                    # one where the reference refuses (dropping a table).
                    verdicts = [l for l in lines[i + 1:i + 3] if _VERDICT.match(l)]
                    kind += "".join("; " + blank_numbers(v) for v in verdicts)
                return kind
        for line in out.splitlines():
            m = _FVFUZZ.match(line)
            if m:
                return "%s: %s" % (m.group(1), blank_numbers(m.group(2)))
        m = _ASAN.search(out)
        if m:
            access = next((a.group(1) for a in map(_ACCESS.match, out.splitlines()) if a), "")
            return ("%s %s" % (m.group(1), access)).strip()
        m = _UBSAN.search(out)
        if m:
            return "ubsan: " + blank_numbers(m.group(1))
        if "ERROR: LeakSanitizer" in out:
            return "leak"
        m = _LIBFUZZER.search(out)
        if m:
            return m.group(1).strip()
        return None

    def classify(self, rc, out):
        """The Outcome of one run from its status and report."""
        if rc == "timeout":
            return Outcome("timeout", out, rc, [])
        kind = self.kind(out)
        if kind is None and rc == 0:
            return Outcome(None, out, rc, [])
        if kind is None:
            kind = "signal %d" % -rc if isinstance(rc, int) and rc < 0 else "exit %s" % rc
        if kind.startswith(("timeout", "out-of-memory")):
            # Where a run is stopped for time or memory says nothing.
            return Outcome(kind.split()[0], out, rc, [])
        frames = self.first_stack(out)
        project = [(fn, loc) for fn, loc in frames if loc is not None]
        top = project[:SIGNATURE_FRAMES]
        parts = []
        for i, (fn, loc) in enumerate(top):
            parts.append("%s (%s)" % (fn, loc) if i == 0 else fn)
        return Outcome(kind + (" in " + " < ".join(parts) if parts else ""), out, rc, frames)
