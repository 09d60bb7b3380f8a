"""A page as headless Chromium renders it, asked through the DevTools
protocol over a pipe (--remote-debugging-pipe: JSON messages ending in NUL
on file descriptors 3 and 4; no port, no network).  For the report's
browser tests: what a reader sees (innerText leaves out what is hidden),
where it is on the screen and in which colour.  Debian's chromium; the
Python standard library only."""

import json
import os
import shutil
import subprocess
import tempfile
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars"]


def evaluate(url, expression, width=1280, height=900, timeout=60):
    """Loads url and returns the value of the JavaScript expression
    (JSON-serialisable; returned by value)."""
    chromium = shutil.which("chromium")
    if not chromium:
        raise RuntimeError("chromium is not installed (apt-get install chromium; it is in scripts/lib/packages.txt)")
    profile = tempfile.mkdtemp(prefix="fv-cdp-")
    r_cmd, w_cmd = os.pipe()     # our commands -> Chromium's fd 3
    r_res, w_res = os.pipe()     # Chromium's fd 4 -> our answers

    def child():
        a, b = os.dup(r_cmd), os.dup(w_res)
        os.dup2(a, 3)
        os.dup2(b, 4)
        os.set_inheritable(3, True)
        os.set_inheritable(4, True)

    p = subprocess.Popen([chromium, *FLAGS, "--remote-debugging-pipe", f"--user-data-dir={profile}",
                          f"--window-size={width},{height}", "about:blank"],
                         preexec_fn=child, close_fds=False,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(r_cmd)
    os.close(w_res)
    state = {"n": 0, "buf": b""}
    deadline = time.monotonic() + timeout

    def send(method, params=None, session=None):
        state["n"] += 1
        msg = {"id": state["n"], "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(w_cmd, json.dumps(msg).encode() + b"\0")
        return state["n"]

    def answer(i):
        while time.monotonic() < deadline:
            while b"\0" in state["buf"]:
                raw, state["buf"] = state["buf"].split(b"\0", 1)
                msg = json.loads(raw)
                if msg.get("id") == i:
                    if "error" in msg:
                        raise RuntimeError(f"DevTools: {msg['error']}")
                    return msg["result"]
            chunk = os.read(r_res, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            state["buf"] += chunk
        raise TimeoutError(f"no answer from chromium in {timeout} s")

    try:
        target = answer(send("Target.createTarget", {"url": url}))["targetId"]
        session = answer(send("Target.attachToTarget", {"targetId": target, "flatten": True}))["sessionId"]
        answer(send("Emulation.setDeviceMetricsOverride",
                    {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session))
        while True:
            # The new tab starts on about:blank, already "complete".
            r = answer(send("Runtime.evaluate",
                            {"expression": 'document.readyState === "complete" && location.href !== "about:blank"',
                             "returnByValue": True}, session))
            if r["result"].get("value") is True:
                break
            time.sleep(0.05)
        r = answer(send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session))
        if "exceptionDetails" in r:
            raise RuntimeError(f"JavaScript: {r['exceptionDetails'].get('text')} {r['exceptionDetails']}")
        return r["result"].get("value")
    finally:
        try:
            send("Browser.close")
        except OSError:
            pass
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        os.close(w_cmd)
        os.close(r_res)
        shutil.rmtree(profile, ignore_errors=True)
