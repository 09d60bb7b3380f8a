"""What the mutation sweeps share (conformance/graphite/header_sweep.py and
conformance/tt/tt_sweep.py): big-endian readers, the evenly spread sample,
and probe processes that answer one JSON line per font record on stdin,
with the work spread over several of them."""

import json
import queue
import struct
import subprocess
import threading


class BadInput(Exception):
    """A bad command line, configuration or font (exit status 2)."""


def u16(t, o):
    return struct.unpack_from(">H", t, o)[0]


def u32(t, o):
    return struct.unpack_from(">I", t, o)[0]


def spread(items, limit):
    """At most `limit` items, evenly spaced (deterministic), so that a small
    sample still touches every part."""
    if not limit or len(items) <= limit:
        return items
    return [items[i * len(items) // limit] for i in range(limit)]


class Probe:
    """One probe process (argv), restarted after a crash.  ask() sends one
    record and returns the answer, whose "type" must be `answer_type`; a
    crash answers {"type": "crash", "status": exit status}."""

    def __init__(self, argv, answer_type):
        self.argv = argv
        self.answer_type = answer_type
        self.start()

    def start(self):
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)

    def ask(self, record):
        try:
            self.proc.stdin.write(record)
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except BrokenPipeError:
            line = b""
        if line:
            answer = json.loads(line)
            if answer.get("type") != self.answer_type:
                raise RuntimeError(f"{self.argv[0]}: {answer.get('message', line)}")
            return answer
        status = self.proc.wait()
        self.start()
        return {"type": "crash", "status": status}

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def ask_all(probes, jobs, record):
    """The answers to `jobs`, in order, spread over the probes; record(job)
    makes a job's bytes.  A record a probe rejects (RuntimeError) stops
    everything and is raised."""
    answers = [None] * len(jobs)
    work = queue.Queue()
    for i in range(len(jobs)):
        work.put(i)
    failure = []

    def run(probe):
        while not failure:
            try:
                i = work.get_nowait()
            except queue.Empty:
                return
            try:
                answers[i] = probe.ask(record(jobs[i]))
            except Exception as e:   # the probe refused our record: stop everything
                failure.append(e)
    threads = [threading.Thread(target=run, args=(p,)) for p in probes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failure:
        raise failure[0]
    return answers
