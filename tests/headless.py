"""A small headless-Chromium driver for the report tests (Chrome DevTools Protocol over a pipe).

No Python package needed: Chromium started with ``--remote-debugging-pipe``
reads protocol messages (JSON, each ended by a NUL byte) on its file
descriptor 3 and writes answers and events on 4.

    with Browser() as b:
        page = b.open(Path("report.html").as_uri())
        page.eval("document.title")
        page.click("table th:nth-child(2)")
        page.screenshot(Path("shot.png"), 1200, 900)
        page.errors   # console errors and uncaught exceptions seen so far
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")


class BrowserError(RuntimeError):
    pass


class Browser:
    def __init__(self, executable: Path = CHROMIUM, timeout: float = 60.0):
        self.timeout = timeout
        self._profile = tempfile.mkdtemp(prefix="rouge2-chromium-")
        to_r, self._to_w = os.pipe()
        self._from_r, from_w = os.pipe()

        def child_fds() -> None:  # runs in the child: its ends of the pipes become 3 and 4
            a, b = os.dup(to_r), os.dup(from_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [str(executable), "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-extensions", "--no-first-run", "--no-default-browser-check",
             "--remote-debugging-pipe", f"--user-data-dir={self._profile}", "about:blank"],
            preexec_fn=child_fds, close_fds=False, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self._buf = b""
        self._id = 0
        self.events: list[dict[str, Any]] = []

    # -- protocol --------------------------------------------------------
    def _send(self, method: str, params: dict | None = None, session: str | None = None) -> int:
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._to_w, json.dumps(msg).encode() + b"\0")
        return self._id

    def _pump(self, timeout: float) -> None:
        ready, _, _ = select.select([self._from_r], [], [], max(0.0, timeout))
        if not ready:
            return
        chunk = os.read(self._from_r, 1 << 20)
        if not chunk:
            raise BrowserError("chromium closed the debugging pipe")
        self._buf += chunk
        while b"\0" in self._buf:
            raw, self._buf = self._buf.split(b"\0", 1)
            self.events.append(json.loads(raw))

    def call(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        mid = self._send(method, params, session)
        end = time.monotonic() + self.timeout
        while True:
            for i, ev in enumerate(self.events):
                if ev.get("id") == mid:
                    del self.events[i]
                    if "error" in ev:
                        raise BrowserError(f"{method}: {ev['error']}")
                    return ev.get("result", {})
            if time.monotonic() > end:
                raise BrowserError(f"{method}: no answer in {self.timeout} s")
            self._pump(end - time.monotonic())

    def wait_event(self, method: str, session: str, timeout: float | None = None) -> dict:
        end = time.monotonic() + (timeout or self.timeout)
        while True:
            for i, ev in enumerate(self.events):
                if ev.get("method") == method and ev.get("sessionId") == session:
                    del self.events[i]
                    return ev
            if time.monotonic() > end:
                raise BrowserError(f"no {method} in time")
            self._pump(end - time.monotonic())

    # -- pages -------------------------------------------------------------
    def open(self, url: str, width: int = 1200, height: int = 900) -> Page:
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        for domain in ("Page.enable", "Runtime.enable", "Log.enable"):
            self.call(domain, None, session)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session)
        page.navigate(url)
        return page

    def close(self) -> None:
        try:
            self._send("Browser.close")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_w, self._from_r):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Page:
    def __init__(self, browser: Browser, session: str):
        self.b = browser
        self.session = session
        self.load_seconds: float | None = None

    def navigate(self, url: str) -> None:
        start = time.monotonic()
        self.b.call("Page.navigate", {"url": url}, self.session)
        self.b.wait_event("Page.loadEventFired", self.session)
        self.load_seconds = time.monotonic() - start

    def eval(self, expression: str) -> Any:
        res = self.b.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                               "awaitPromise": True}, self.session)
        if "exceptionDetails" in res:
            raise BrowserError(f"{expression}: {res['exceptionDetails'].get('text')} "
                               f"{res['exceptionDetails'].get('exception', {}).get('description', '')}")
        return res["result"].get("value")

    def click(self, selector: str) -> None:
        found = self.eval(f"(function(){{var e=document.querySelector({json.dumps(selector)});"
                          f"if(!e)return false;e.click();return true;}})()")
        if not found:
            raise BrowserError(f"nothing matches {selector!r}")

    @property
    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and failed loads of this page so far."""
        self.b._pump(0.05)
        out = []
        for ev in self.b.events:
            if ev.get("sessionId") != self.session:
                continue
            m, p = ev.get("method"), ev.get("params", {})
            if m == "Runtime.exceptionThrown":
                out.append(p["exceptionDetails"].get("exception", {}).get("description")
                           or p["exceptionDetails"].get("text", "exception"))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(" ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
            elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                out.append(f"{p['entry'].get('text')} {p['entry'].get('url', '')}".strip())
        return out

    def screenshot(self, path: Path, full_page: bool = False) -> bytes:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
        data = base64.b64decode(self.b.call("Page.captureScreenshot", params, self.session)["data"])
        Path(path).write_bytes(data)
        return data
