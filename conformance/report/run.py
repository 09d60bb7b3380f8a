#!/usr/bin/env python3
"""conformance/report/run.py — runs the differential conformance corpus and
writes the report.  Called by scripts/conform; see conformance/README.md.

  run.py [--quick] [--fonts PAT,...] [--sizes 6-24,10.5] [--modes v35,v40]
         [--jobs N] [--out DIR] [--check BASELINE.json] [--save-baseline F]
         [--replay DIR|FILE...] [--shard K/N] [--merge DIR...] [FONT-OR-FOLDER...]

Exit status: 0 the run completed (differences are in the report, not in the
exit status); 1 --check found regressions; 2 bad configuration or command
line; 3 a runner failed (crashed, timed out, exited with status >= 2 or
without its summaries) or the run was interrupted.  With --check, failures
that the baseline had too do not count; regressions, crashes and
interruptions do.
"""

import argparse
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True   # no __pycache__ in the source tree

import config as cfgmod  # noqa: E402
import known as knownmod  # noqa: E402
import model as modelmod  # noqa: E402
import render  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
RUNNERS = {"tt": "fvconform-tt", "gr": "fvconform-gr"}
VM_DIRS = {"tt": "the TrueType interpreter, vm/tt", "gr": "the Graphite engine, vm/graphite"}


def say(msg):
    print(f"[conform] {msg}", file=sys.stderr, flush=True)


def fmt_duration(s):
    s = int(max(0, s))
    if s >= 3600:
        return f"{s // 3600}h{(s % 3600) // 60:02d}m"
    if s >= 60:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s}s"


def find_runner(bin_dir, name):
    top = os.path.join(bin_dir, name)
    if os.access(top, os.X_OK) and os.path.isfile(top):
        return top
    for dp, _, names in os.walk(bin_dir):
        if name in names and os.access(os.path.join(dp, name), os.X_OK):
            return os.path.join(dp, name)
    return None


# --- progress display -------------------------------------------------------

class Progress:
    """A bar with ETA on a terminal, a plain line every `interval` seconds
    otherwise.  Progress is work done, not jobs done: each job's weight
    (config.job_cost: its cases times the estimated cost of a case of its
    font) times the fraction its runner reports done.  Once finished jobs
    of an engine hold 2 % of its weight, what they measured (seconds per
    unit of weight) scales that engine's jobs: a corpus whose Graphite
    lines are dearer or cheaper than the estimate does not skew the ETA."""

    def __init__(self, jobs, stream=sys.stderr, interval=10.0):
        self.jobs = {j.name: j for j in jobs}
        self.engine_weight = {}
        for j in jobs:
            self.engine_weight[j.engine] = self.engine_weight.get(j.engine, 0.0) + j.weight
        self.finished = {}    # engine -> [seconds, weight] of finished jobs
        self.frac = {}
        self.jobs_total = len(jobs)
        self.jobs_done = 0
        self.unknown = 0      # differences no known.toml entry explains
        self.known = 0
        self.both = 0         # both engines refuse: agreement
        self.limits = 0
        self.stream = stream
        self.tty = stream.isatty()
        self.interval = interval
        self.t0 = time.monotonic()
        self.last = 0.0
        self.width = shutil.get_terminal_size((100, 20)).columns

    def job_finished(self, name, seconds):
        j = self.jobs.get(name)
        if j is not None:
            f = self.finished.setdefault(j.engine, [0.0, 0.0])
            f[0] += seconds
            f[1] += j.weight

    def seconds_per_weight(self, engine):
        secs, weight = self.finished.get(engine, (0.0, 0.0))
        if weight and weight >= 0.02 * self.engine_weight.get(engine, 0.0) and secs > 0:
            return secs / weight
        # Before any measurement: the planner's weights as they are (a
        # unit is one average TrueType case, ~28 us on this machine).
        return 28e-6

    def fraction(self):
        rate = {e: self.seconds_per_weight(e) for e in self.engine_weight}
        total = sum(j.weight * rate[j.engine] for j in self.jobs.values()) or 1.0
        done = sum(self.jobs[n].weight * rate[self.jobs[n].engine] * f
                   for n, f in self.frac.items() if n in self.jobs)
        return min(1.0, done / total)

    def line(self):
        frac = self.fraction()
        el = time.monotonic() - self.t0
        eta = (el / frac - el) if frac > 0.002 else None
        eta_s = fmt_duration(eta) if eta is not None else "--"
        return frac, (f"{frac * 100:5.1f}%  jobs {self.jobs_done}/{self.jobs_total}  "
                      f"unknown {self.unknown}  known {self.known}  fail in both {self.both}  "
                      + (f"hardening limits {self.limits}  " if self.limits else "") +
                      f"elapsed {fmt_duration(el)}  ETA {eta_s}")

    def update(self, force=False):
        now = time.monotonic()
        if self.tty:
            if not force and now - self.last < 0.2:
                return
            frac, text = self.line()
            barw = max(10, min(40, self.width - len(text) - 4))
            fill = int(frac * barw)
            self.stream.write("\r\033[K[" + "#" * fill + "." * (barw - fill) + "] " + text)
            self.stream.flush()
        else:
            if not force and now - self.last < self.interval:
                return
            self.stream.write("[conform] " + self.line()[1] + "\n")
            self.stream.flush()
        self.last = now

    def finish(self):
        self.update(force=True)
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


# --- running the jobs -------------------------------------------------------

class Runner:
    def __init__(self, jobs, bins, out_dir, model, nproc, job_timeout=0.0):
        self.job_timeout = job_timeout
        self.jobs = jobs
        self.bins = bins
        self.rec_dir = os.path.join(out_dir, "records")
        self.log_dir = os.path.join(out_dir, "logs")
        self.model = model
        self.nproc = nproc
        self.todo = queue.Queue()
        for j in jobs:
            self.todo.put(j)
        self.events = queue.Queue()
        self.stop = threading.Event()
        self.procs = {}
        self.lock = threading.Lock()

    def worker(self):
        while not self.stop.is_set():
            try:
                job = self.todo.get_nowait()
            except queue.Empty:
                return
            self.run_job(job)

    def run_job(self, job):
        cmd = job.command(self.bins.get("tt"), self.bins.get("gr"))
        t0 = time.monotonic()
        rec_path = os.path.join(self.rec_dir, job.name + ".jsonl")
        log_path = os.path.join(self.log_dir, job.name + ".log")
        self.events.put(("start", job, None))
        try:
            with open(rec_path, "w", encoding="utf-8") as rec_f, open(log_path, "w") as log_f:
                # Own session: Ctrl-C reaches only this script, which then
                # stops the runners itself and keeps what they wrote.
                p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log_f,
                                     start_new_session=True, cwd=ROOT)
                with self.lock:
                    self.procs[job.name] = p
                    if self.stop.is_set():
                        # Stopped between taking the job and starting it.
                        p.terminate()
                timed_out = threading.Event()
                timer = None
                if self.job_timeout > 0:
                    # A runner that never finishes (a VM budget that does not
                    # hold) must not hang the whole run.
                    def expire(proc=p):
                        timed_out.set()
                        proc.kill()
                    timer = threading.Timer(self.job_timeout, expire)
                    timer.daemon = True
                    timer.start()
                for raw in p.stdout:
                    rec_f.write(raw.decode("utf-8", "replace"))
                    self.events.put(("line", job, raw))
                rc = p.wait()
                if timer:
                    timer.cancel()
                with self.lock:
                    self.procs.pop(job.name, None)
        except OSError as e:
            self.events.put(("end", job, {"exit": None, "error": f"cannot run {cmd[0]}: {e}",
                                          "seconds": time.monotonic() - t0}))
            return
        err = None
        if timed_out.is_set():
            err = f"runner timed out after {self.job_timeout:.0f} s (killed)"
        elif self.stop.is_set():
            err = "stopped (interrupted)"
        elif rc < 0:
            err = f"runner killed by signal {-rc}"
        elif rc >= 2:
            err = f"runner exited with status {rc}"
        if err:
            try:
                with open(log_path, errors="replace") as f:
                    tail = f.read()[-600:].strip()
            except OSError:
                tail = ""
            if tail:
                err += ": " + tail.splitlines()[-1]
        self.events.put(("end", job, {"exit": rc, "error": err, "seconds": time.monotonic() - t0}))

    def terminate(self):
        self.stop.set()
        with self.lock:
            procs = list(self.procs.values())
        for p in procs:
            try:
                p.terminate()
            except OSError:
                pass

    def run(self, progress):
        os.makedirs(self.rec_dir, exist_ok=True)
        os.makedirs(self.log_dir, exist_ok=True)
        threads = [threading.Thread(target=self.worker, daemon=True) for _ in range(self.nproc)]
        finished = 0
        m = self.model
        try:
            # Inside the try: a signal while the workers start must stop
            # the runners they may already have launched.
            for t in threads:
                t.start()
            while finished < len(self.jobs):
                try:
                    kind, job, data = self.events.get(timeout=0.25)
                except queue.Empty:
                    if not any(t.is_alive() for t in threads) and self.events.empty():
                        break
                    progress.update()
                    continue
                if kind == "start":
                    m.jobs[job.name] = {"engine": job.engine, "font": m.name(job.font), "status": "running",
                                        "seconds": 0.0, "exit": None, "error": None,
                                        "command": " ".join(job.command(self.bins.get("tt"), self.bins.get("gr")))}
                    progress.frac[job.name] = 0.0
                elif kind == "line":
                    self._line(job, data, progress)
                else:
                    finished += 1
                    self._end(job, data, progress)
                progress.update()
        except KeyboardInterrupt:
            # Further Ctrl-C would only lose the report: the runners are
            # stopped below and the drain is bounded.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            if progress.tty:
                sys.stderr.write("\n")
            say("interrupted: stopping the runners and keeping what they wrote")
            m.interrupted = True
            self.terminate()
            deadline = time.monotonic() + 10
            while any(t.is_alive() for t in threads if t.ident is not None) and time.monotonic() < deadline:
                try:
                    kind, job, data = self.events.get(timeout=0.2)
                except queue.Empty:
                    continue
                if kind == "line":
                    self._line(job, data, progress)
                elif kind == "end":
                    self._end(job, data, progress)
            self.terminate()
        # Drain whatever is left.
        while True:
            try:
                kind, job, data = self.events.get_nowait()
            except queue.Empty:
                break
            if kind == "line":
                self._line(job, data, progress)
            elif kind == "end":
                self._end(job, data, progress)
        for j in self.jobs:
            if j.name not in m.jobs:
                m.jobs[j.name] = {"engine": j.engine, "font": m.name(j.font), "status": "not run",
                                  "seconds": 0.0, "exit": None, "error": None, "command": ""}
        progress.finish()

    def _line(self, job, raw, progress):
        line = raw.strip()
        if not line:
            return
        try:
            rec = json.loads(line)
        except ValueError:
            self.model.runner_errors.append({"job": job.name, "message": "unparsable output: " + line[:200].decode("utf-8", "replace")})
            return
        if not isinstance(rec, dict):
            return
        if rec.get("type") == "progress":
            tot = rec.get("total") or 0
            if tot > 0:
                progress.frac[job.name] = min(1.0, float(rec.get("done", 0)) / tot)
            return
        st = self.model.add(rec, job.name)
        if st == "error_both":
            progress.both += 1
        elif st == "hardening_limit":
            progress.limits += 1
        elif st is not None:
            if self.model.last_known:
                progress.known += 1
            else:
                progress.unknown += 1

    def _end(self, job, data, progress):
        m = self.model
        if not data["error"]:
            missing = [k for k in job_keys(m, job) if not m.configs.get(k, {}).get("summarised")]
            if missing:
                data["error"] = (f"runner exited with status {data['exit']} without a summary for "
                                 f"{len(missing)} of {len(job_keys(m, job))} configuration(s)")
        j = m.jobs.setdefault(job.name, {"engine": job.engine, "font": m.name(job.font), "command": ""})
        stopped = (data["error"] or "").startswith("stopped")
        j.update(seconds=data["seconds"], exit=data["exit"], error=data["error"],
                 status="stopped" if stopped else "failed" if data["error"] else "done")
        if data["error"]:
            if not stopped:
                m.runner_errors.append({"job": job.name, "message": data["error"]})
            mark_unfinished(m, job)
        progress.frac[job.name] = 1.0
        progress.jobs_done += 1
        if not data["error"]:
            progress.job_finished(job.name, data["seconds"])


def job_keys(m, job):
    """The configuration keys a job's runner must write summaries for."""
    if job.engine == "tt":
        return [("tt", m.name(job.font), job.face, s, job.mode, job.location) for s in job.sizes]
    return [("gr", m.name(job.font), m.name(job.texts), job.features, r) for r in job.refs]


def mark_unfinished(m, job):
    """Makes the configurations of a job that did not finish visible (as
    incomplete) so the baseline check notices them."""
    for k in job_keys(m, job):
        m._config(k)


def parse_shard(text):
    """"K/N" (1 <= K <= N) -> (K, N); ConfigError otherwise."""
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise cfgmod.ConfigError(f"--shard {text!r}: expected K/N, e.g. 2/4")
    if not (1 <= k <= n):
        raise cfgmod.ConfigError(f"--shard {text!r}: K must be 1 to N")
    return k, n


def plan_id(jobs):
    """Names every job of the whole plan (before sharding): shards of one
    plan carry the same id, so --merge refuses shards of different runs."""
    import hashlib
    h = hashlib.sha256()
    for name in sorted(j.name for j in jobs):
        h.update(name.encode("utf-8") + b"\n")
    return h.hexdigest()[:16]


def shard_jobs(jobs, k, n):
    """The jobs of shard k of n: a deterministic partition balanced by the
    planner's cost model (config.job_cost, the weight the ETA uses too):
    the dearest job first, each to the shard with the least weight so far
    (ties to the lower shard; equal weights ordered by name).  The same
    plan gives the same partition on every machine."""
    load = [0.0] * n
    mine = []
    for j in sorted(jobs, key=lambda j: (-j.weight, j.name)):
        i = min(range(n), key=lambda s: (load[s], s))
        load[i] += j.weight
        if i == k - 1:
            mine.append(j)
    return mine, load


def merge_dirs(dirs):
    """The record files and jobs.json of shard output folders (--out of
    --shard runs): checks that they are the N shards of one plan, each once."""
    shards, files, metas = {}, [], []
    for d in dirs:
        rec = os.path.join(d, "records")
        if not os.path.isdir(rec):
            raise cfgmod.ConfigError(f"--merge: {d} has no records/ folder (the --out of a --shard run)")
        meta_path = os.path.join(rec, "jobs.json")
        try:
            with open(meta_path) as fh:
                meta = json.load(fh)
        except (OSError, ValueError) as e:
            raise cfgmod.ConfigError(f"--merge: {meta_path}: {e}")
        sh = meta.get("shard") or {}
        if not sh:
            raise cfgmod.ConfigError(f"--merge: {d} is not the output of a --shard run")
        key = (sh.get("plan"), sh.get("of"))
        if shards and key != next(iter(shards.values()))[0]:
            raise cfgmod.ConfigError(f"--merge: {d} is a shard of another plan or count "
                                     f"({sh.get('index')}/{sh.get('of')}, plan {sh.get('plan')})")
        if sh.get("index") in shards:
            raise cfgmod.ConfigError(f"--merge: shard {sh.get('index')}/{sh.get('of')} given twice")
        shards[sh.get("index")] = (key, d)
        files += sorted(os.path.join(rec, n) for n in os.listdir(rec) if n.endswith(".jsonl"))
        metas.append(meta)
    n = next(iter(shards.values()))[0][1]
    missing = sorted(set(range(1, n + 1)) - set(shards))
    if missing:
        raise cfgmod.ConfigError(f"--merge: shard(s) {', '.join(f'{i}/{n}' for i in missing)} missing")
    return files, metas


def replay(paths, model, metas=None):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, n) for n in os.listdir(p) if n.endswith(".jsonl"))
        else:
            files.append(p)
    if not files:
        raise cfgmod.ConfigError("--replay: no .jsonl record files found")
    for f in files:
        job = os.path.splitext(os.path.basename(f))[0]
        with open(f, encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    rec = json.loads(line)
                except ValueError:
                    model.runner_errors.append({"job": job, "message": f"{f}:{n}: not JSON"})
                    continue
                if isinstance(rec, dict) and rec.get("type") != "progress":
                    model.add(rec, job)
        model.jobs[job] = {"engine": "", "font": "", "status": "replayed", "seconds": 0.0,
                           "exit": 0, "error": None, "command": f}
    if metas is not None:
        # Merged shards: they ran side by side, so the run took as long as
        # the longest; one interrupted shard makes the whole run partial.
        model.seconds = max(float(m.get("seconds", 0.0)) for m in metas)
        model.interrupted = any(m.get("interrupted") for m in metas)
        for meta in metas:
            for name, j in (meta.get("jobs") or {}).items():
                if isinstance(j, dict) and name in model.jobs:
                    model.jobs[name].update({k: j.get(k) for k in ("engine", "font", "status", "seconds", "exit", "error")})
        return
    jobs_json = os.path.join(os.path.dirname(files[0]), "jobs.json")
    if os.path.isfile(jobs_json):
        try:
            with open(jobs_json) as fh:
                meta = json.load(fh)
            model.seconds = float(meta.get("seconds", 0.0))
            model.interrupted = bool(meta.get("interrupted", False))
            for name, j in (meta.get("jobs") or {}).items():
                if isinstance(j, dict) and name in model.jobs:
                    model.jobs[name].update({k: j.get(k) for k in ("engine", "font", "status", "seconds", "exit", "error")})
        except (OSError, ValueError):
            pass


def print_check(regressions, improvements, compared, limit=50):
    unknown = [r for r in regressions if not r.get("known")]
    known = [r for r in regressions if r.get("known")]
    if unknown:
        print(f"REGRESSIONS: {len(unknown)} case(s) identical (or not failing) in the baseline now differ or fail:")
        for r in unknown[:limit]:
            print(f"  {r['case']}: {r['was']} -> {r['now']}")
        if len(unknown) > limit:
            print(f"  ... and {len(unknown) - limit} more (see report.json 'check')")
    if known:
        print(f"known: {len(known)} case(s) changed from the baseline as a known difference predicts (not failing):")
        for r in known[:limit // 5]:
            print(f"  {r['case']}: {r['was']} -> {r['now']} (known: {r['known']})")
    if improvements:
        print(f"improvements: {len(improvements)} case(s) not identical in the baseline are identical now")
    print(f"baseline check: {compared} configuration(s) compared, {len(unknown)} regression(s)"
          + (f" and {len(known)} known difference(s)" if known else ""))


class OneLineParser(argparse.ArgumentParser):
    """A command-line error is one line and status 2, as in every script."""

    def error(self, message):
        say(f"error: {message} (scripts/conform --help)")
        sys.exit(2)


EXIT_STATUSES = """exit status: 0 done; 1 found something (regressions against the --check
baseline); 2 bad usage or input (command line, conform.toml, a missing font
or text); 3 could not run (install or build failed, a runner failed, the run
was interrupted).

scripts/conform --header-sweep [--collisions] [FONT...] compares instead which
fonts graphite2 and fontvm load (its own --help)."""


def main(argv=None):
    ap = OneLineParser(
        prog="scripts/conform",
        description="Differential conformance run: fontvm against FreeType, graphite2 and HarfBuzz "
                    "on the corpus of conformance/conform.toml (or the fonts given), with a report.",
        epilog=EXIT_STATUSES, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", metavar="FONT-OR-FOLDER",
                    help="fonts to compare instead of the configured corpus")
    ap.add_argument("--config", default=os.path.join(ROOT, "conformance", "conform.toml"))
    ap.add_argument("--quick", action="store_true", help="the small [quick] corpus (< 2 minutes)")
    ap.add_argument("--extended", action="store_true",
                    help="every TrueType and Graphite font of the [extended] Debian packages "
                         "(scripts/lib/packages-extended.txt) at the [extended] sizes and modes; "
                         "not in CI")
    ap.add_argument("--fontsource", action="store_true",
                    help="also the font sets of conform.toml fetched from the npm registry (pinned fontsource "
                         "packages: hinted variable fonts as WOFF2, conformance/fontsource.py); a set that "
                         "cannot be fetched is skipped with the reason")
    ap.add_argument("--web", action="store_true",
                    help="every TrueType font of the corpus as WOFF, WOFF2 (glyf/loca transformed) and WOFF2 with "
                         "hmtx transformed, made at run time with fontTools; FreeType opens the same files, and "
                         "each face's decoded tables are compared with the original's ([web] in conform.toml); "
                         "exit 1 on any difference")
    ap.add_argument("--odd-texts", action="store_true",
                    help="also, per Graphite font and direction, odd text (conformance/graphite/gen_odd_texts.py: "
                         "bidi controls, joiners, unassigned code points, mark stacks, long lines) with the "
                         "defaults, each Sill language and seeded random feature values")
    ap.add_argument("--random-locations", type=int, metavar="N",
                    help="every variable font (any face with an fvar: corpus, --fontsource, --web, --extended or "
                         "the fonts given) at N seeded locations in design coordinates instead of its set's list: "
                         "each engine normalizes them (FT_Set_Var_Design_Coordinates; fvar ranges, avar), and the "
                         "normalized coordinates are compared too (conformance/report/locations.py, "
                         "design-random); exit 1 on any unknown difference")
    ap.add_argument("--seed", type=int,
                    help="the seed of --random-locations (default 1) and of the generated and odd Graphite texts "
                         "and random feature settings (default: [graphite] generated_seed)")
    ap.add_argument("--fonts", help="only these font sets or files (comma-separated names or globs)")
    ap.add_argument("--sizes", help="TrueType sizes, e.g. 6-24,28,10.5")
    ap.add_argument("--odd-sizes", action="store_true",
                    help="the TrueType sizes of [truetype] odd_sizes in conform.toml instead: below 6 ppem, "
                         "fractional, x different from y, and 100 to 16384 ppem")
    ap.add_argument("--modes", help="TrueType modes, e.g. v35,v40,v40-mono,v40-lcd")
    ap.add_argument("--engines", default="tt,gr", help="tt, gr or tt,gr (default)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2, help="parallel runners (default: nproc)")
    ap.add_argument("--job-timeout", type=float, default=1800.0, metavar="SECONDS",
                    help="kill a runner job that takes longer (default 1800; 0: no limit)")
    ap.add_argument("--out", default="report", help="output folder (default: report/)")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "release"),
                    help="build folder holding fvconform-tt and fvconform-gr")
    ap.add_argument("--known", default=os.path.join(ROOT, "conformance", "known.toml"), metavar="FILE",
                    help="known differences (default conformance/known.toml; '' for none)")
    ap.add_argument("--check", metavar="BASELINE.json",
                    help="exit 1 if a case identical in the baseline now differs or fails")
    ap.add_argument("--save-baseline", metavar="FILE", help="write this run as a baseline")
    ap.add_argument("--replay", nargs="+", metavar="RECORDS",
                    help="build the report from record files (.jsonl or folders) instead of running")
    ap.add_argument("--shard", metavar="K/N",
                    help="run only shard K of N: a deterministic partition of the jobs balanced by their "
                         "estimated cost, for running one corpus on N machines; combine with --merge")
    ap.add_argument("--merge", nargs="+", metavar="DIR",
                    help="build one report from the --out folders of the N --shard runs of one plan "
                         "(same totals and records as an unsharded run); with --check, --save-baseline")
    ap.add_argument("--list", action="store_true", help="print the jobs and exit")
    # scripts/conform checks the command line before it installs or builds.
    ap.add_argument("--parse-only", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.parse_only:
        return 0

    try:
        cfg = cfgmod.load(a.config)
        if a.seed is not None:
            cfg.setdefault("graphite", {})["generated_seed"] = a.seed
        engines = tuple(e.strip() for e in a.engines.split(",") if e.strip())
        for e in engines:
            if e not in RUNNERS:
                raise cfgmod.ConfigError(f"--engines: unknown engine {e!r} (tt, gr)")
        baseline = None
        if a.check:
            try:
                with open(a.check) as f:
                    baseline = json.load(f)
                if not isinstance(baseline, dict) or not isinstance(baseline.get("configs"), list):
                    raise ValueError("no 'configs' list")
            except (OSError, ValueError) as e:
                raise cfgmod.ConfigError(f"--check {a.check}: not a baseline or report.json ({e})")
        try:
            known = knownmod.Known.load(a.known)
        except knownmod.KnownError as e:
            raise cfgmod.ConfigError(f"--known: {e}")
        m = modelmod.Model(ROOT, known)
        m.bin_dir = os.path.abspath(a.bin)   # for the reproduce commands
        out = os.path.abspath(a.out)
        t0 = time.monotonic()
        jobs = []
        if a.replay and a.list:
            for p in a.replay:
                if not os.path.exists(p):
                    raise cfgmod.ConfigError(f"--replay: {p} does not exist")
            return 0
        if a.merge and (a.replay or a.shard or a.paths):
            raise cfgmod.ConfigError("--merge builds the report from shard folders: not with --replay, --shard or fonts")
        if a.replay and a.shard:
            raise cfgmod.ConfigError("--shard selects jobs to run: not with --replay")
        shard = parse_shard(a.shard) if a.shard else None
        if a.merge:
            files, metas = merge_dirs(a.merge)
            if a.list:
                return 0
            replay(files, m, metas)
        elif a.replay:
            replay(a.replay, m)
        else:
            if a.fontsource and (a.extended or a.paths):
                raise cfgmod.ConfigError("--fontsource adds to the configured corpus: not with --extended or font paths")
            if a.extended and (a.quick or a.paths):
                raise cfgmod.ConfigError("--extended replaces the corpus: not with --quick or font paths")
            if a.web and (a.quick or a.paths or a.extended or a.fontsource):
                raise cfgmod.ConfigError("--web replaces the corpus: not with --quick, --extended, --fontsource "
                                         "or font paths")
            jobs = cfgmod.build_jobs(cfg, ROOT, quick=a.quick, extended=a.extended,
                                     fonts=[x for x in (a.fonts or "").split(",") if x] or None,
                                     sizes=cfgmod.parse_sizes(a.sizes) if a.sizes else
                                     [cfgmod.size_str(x) for x in cfg.get("truetype", {}).get("odd_sizes", [])]
                                     if a.odd_sizes else None,
                                     modes=cfgmod.parse_modes(a.modes) if a.modes else None,
                                     paths=a.paths or None, engines=engines,
                                     fontsource_sets=a.fontsource, web=a.web, odd_texts=a.odd_texts,
                                     random_locations=(a.random_locations, 1 if a.seed is None else a.seed)
                                     if a.random_locations else None)
            if not jobs:
                raise cfgmod.ConfigError("nothing to run: no font matches")
            shard_meta = None
            if shard:
                plan = plan_id(jobs)
                all_jobs = len(jobs)
                jobs, load = shard_jobs(jobs, *shard)
                shard_meta = {"index": shard[0], "of": shard[1], "plan": plan, "plan_jobs": all_jobs,
                              "weights": [round(w, 1) for w in load]}
                say(f"shard {shard[0]}/{shard[1]}: {len(jobs)} of {all_jobs} jobs, "
                    f"{100 * load[shard[0] - 1] / (sum(load) or 1):.1f}% of the estimated cost (plan {plan})")
            if a.list:
                for j in jobs:
                    print(f"{j.name}\t{j.cases}\t{m.name(j.font)}" + (f"\t{m.name(j.texts)}" if j.texts else ""))
                return 0
            bins, missing = {}, []
            for e in sorted({j.engine for j in jobs}, reverse=True):
                b = find_runner(a.bin, RUNNERS[e])
                if b:
                    bins[e] = b
                else:
                    missing.append(e)
            if missing:
                names = " and ".join(RUNNERS[e] for e in missing)
                needs = " and ".join(VM_DIRS[e] for e in missing)
                hint = f"; --engines {','.join(bins)} runs without it" if bins else ""
                raise cfgmod.ConfigError(f"{names} {'is' if len(missing) == 1 else 'are'} not built in "
                                         f"{os.path.relpath(a.bin)} (needs {needs}){hint}")
            os.makedirs(out, exist_ok=True)
            shutil.rmtree(os.path.join(out, "records"), ignore_errors=True)
            shutil.rmtree(os.path.join(out, "logs"), ignore_errors=True)
            ncases = sum(j.cases for j in jobs)
            say(f"{len(jobs)} jobs (~{ncases:,} cases) on {a.jobs} core(s); records in {os.path.relpath(out)}/records")
            prog = Progress(jobs)
            r = Runner(jobs, bins, out, m, max(1, a.jobs), job_timeout=a.job_timeout)
            r.run(prog)
            m.seconds = time.monotonic() - t0
            with open(os.path.join(out, "records", "jobs.json"), "w") as f:
                meta = {"seconds": m.seconds, "interrupted": m.interrupted, "jobs": m.jobs}
                if shard_meta:
                    meta["shard"] = shard_meta
                json.dump(meta, f, indent=1)
    except cfgmod.ConfigError as e:
        say(f"error: {e}")
        return 2

    check_result = None
    if baseline is not None:
        check_result = modelmod.check(baseline["configs"], modelmod.config_list(m))

    t1 = time.monotonic()
    os.makedirs(out, exist_ok=True)
    # Writing the report takes well under a second: let a late Ctrl-C (or
    # SIGTERM) wait for it rather than leave no report at all.
    prev_int = signal.signal(signal.SIGINT, signal.SIG_IGN)
    prev_term = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        paths, rep = render.write_all(m, out, ROOT, check=check_result,
                                 check_source=os.path.relpath(a.check, ROOT) if a.check else None)
    finally:
        signal.signal(signal.SIGINT, prev_int)
        signal.signal(signal.SIGTERM, prev_term)
    render_s = time.monotonic() - t1
    if a.save_baseline:
        render.write_baseline(m, a.save_baseline)
        say(f"baseline written to {a.save_baseline}")

    # Regressions first: they are what a CI log reader needs.
    if check_result is not None:
        print_check(*check_result)
    for line in render.terminal_lines(rep):
        print(line)
    run_s = m.seconds
    share = f" ({100 * render_s / run_s:.1f}% of the run)" if run_s > 0 else ""
    print(f"run time {fmt_duration(run_s)}; report written in {render_s:.2f}s{share}")
    print(f"report: {paths['html']}")
    failed = [j for j in m.jobs.values() if j.get("status") == "failed"]
    crashed = [j for j in failed if j.get("exit") is None or j["exit"] < 0]
    if failed:
        say(f"{len(failed)} runner job(s) failed ({len(crashed)} crashed); see 'Runner problems' in the report "
            f"and {os.path.relpath(out)}/logs")
    if m.interrupted:
        say("the run was interrupted: the report is partial")
    if a.random_locations and not a.replay and not a.merge:
        loc_rc = print_locations(m, rep)
        if check_result is None and not a.web:
            return 3 if failed or m.interrupted else loc_rc
    if a.web and not a.replay and not a.merge:
        web_rc = print_web(m, jobs)
        if failed or m.interrupted:
            return 3
        if check_result is None:
            return web_rc
    if check_result is None:
        return 3 if failed or m.interrupted else 0
    # With --check, what matters is the baseline: a job that fails now as it
    # did in the baseline is not a regression (one that the baseline
    # completed is, see model.check).  A crash always fails the check.
    regs, _, compared = check_result
    rc = 0
    if any(not r.get("known") for r in regs):
        rc = 1
    elif compared == 0:
        say("the baseline shares no configuration with this run: nothing was checked")
        rc = 1
    if crashed or m.interrupted:
        rc = rc or 3
    return rc


def print_locations(m, rep):
    """--random-locations' verdict: how the design locations were
    normalized and the outlines at them; 1 on an unknown difference or a
    location decision that does not agree, else 0."""
    loc = m.load_totals().get("location", {})
    n = sum(loc.values())
    same = loc.get("identical", 0) + loc.get("error_both", 0)   # both refusing a location agree
    configs = [k for k in m.configs if k[0] == "tt" and k[5].startswith("design:")]
    fonts = {(k[1], k[2]) for k in configs}
    unknown = rep["totals"].get("unknown", 0)
    print(f"design locations: {len(configs):,} TrueType configurations of {len(fonts):,} faces; normalized "
          f"coordinates as FreeType makes them (or refused by both) "
          f"in {same:,} of {n:,}; unknown differences in the run: {unknown:,}")
    return 0 if same == n and unknown == 0 else 1


def print_web(m, jobs):
    """--web's verdict: decoded tables and hinted outlines; 1 on any
    difference (tables, glyphs, a case or a load decision that does not
    agree), else 0."""
    import web_convert
    t = m.web_tables
    same = [w for w in t if w["status"] == "identical"]
    fonts = sorted({j.font for j in jobs})
    hmtx = [f for f in fonts if f.endswith(".hmtx.woff2")]
    hmtx_done = sum(1 for f in hmtx if web_convert.hmtx_transformed(f))
    print(f"web fonts: {len(fonts)} files ({hmtx_done} of {len(hmtx)} .hmtx.woff2 with hmtx transformed); "
          f"decoded tables identical to the original's in {len(same)} of {len(t)} faces "
          f"({sum(w['tables'] for w in t):,} tables, {sum(w['glyphs_identical'] for w in t):,} of "
          f"{sum(w['glyphs'] for w in t):,} glyphs)")
    for w in t:
        if w["status"] != "identical":
            print(f"  {w['font']} face {w['face']}: {w['status']}: {w['first_diff']}")
    tot = m.totals()
    bad = tot["cases"] - tot["identical"] - tot.get("error_both", 0)
    load_bad = sum(n for v in m.load_totals().values() for st, n in v.items()
                   if st not in ("identical", "error_both"))
    print(f"web fonts vs FreeType 2.12.1 opening the same files: {tot['identical']:,} of {tot['cases']:,} "
          f"cases identical, {tot.get('error_both', 0):,} fail in both, {bad:,} not; "
          f"load decisions not agreeing: {load_bad:,}")
    ok = len(same) == len(t) and len(t) > 0 and bad == 0 and load_bad == 0
    return 0 if ok else 1


def _terminated(signum, frame):
    # SIGTERM (a cancelled CI job) stops the run like Ctrl-C, so the runners
    # (in their own sessions) are stopped too and the report is written.
    raise KeyboardInterrupt


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, _terminated)
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        # Before the runners started (or after the report was written).
        say("interrupted")
        sys.exit(3)
