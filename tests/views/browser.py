"""A headless Chromium driven through the DevTools protocol over a pipe (``--remote-debugging-
pipe``: commands on the browser's file descriptor 3, answers on 4, each a JSON message ended by a
NUL byte), so that a test can load pages, resize the window and measure the layout in one
browser, with nothing to install but the browser itself."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

#: How every browser test starts Chromium: headless, and with nothing that reaches the network
#: (this machine has none, and a refused connection at every start slows it down)
HEADLESS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def chromium() -> str | None:
    """The system's Chromium, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One headless Chromium with one page at a time (:meth:`new_page`). Use as a context
    manager; the tests share one a process (the ``browser`` fixture of tests/conftest.py)."""

    def __init__(self, executable: str, profile: Path, *, timeout: float = 30.0) -> None:
        self.timeout = timeout
        to_browser, self._write = os.pipe()  # commands: the browser reads fd 3
        self._read, from_browser = os.pipe()  # answers: the browser writes fd 4
        self._proc = subprocess.Popen(
            [
                executable,
                *HEADLESS,
                "--hide-scrollbars",
                f"--user-data-dir={profile}",
                "--remote-debugging-pipe",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=False,  # (the two pipes are placed at 3 and 4 just before the browser starts)
            preexec_fn=_pipes_at_3_and_4(to_browser, from_browser),
        )
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._next_id = 0
        self._events: list[dict[str, Any]] = []
        #: what the page reported as an error since :meth:`watch_errors` (one line each)
        self.errors: list[str] = []
        self._target = ""
        self._session = ""
        self.new_page()

    def new_page(self) -> None:
        """A new tab in place of the one before, which is closed: its own document, window
        size, scripts and events, in the same browser (a tab opens in a few hundredths of a
        second, a browser in most of one)."""
        if self._target:
            self.send("Target.closeTarget", targetId=self._target)
        self._events.clear()
        self.errors.clear()
        self._target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.send("Target.attachToTarget", targetId=self._target, flatten=True)[
            "sessionId"
        ]
        self.send("Page.enable", session=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(OSError, TimeoutError, RuntimeError):
            self.send("Browser.close")
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        for fd in (self._read, self._write):
            with contextlib.suppress(OSError):
                os.close(fd)

    # --- the protocol ------------------------------------------------------------------------

    def send(self, method: str, *, session: bool = False, **params: Any) -> dict[str, Any]:
        """Send a command and wait for its answer (events that arrive meanwhile are kept)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self._session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._receive()
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                result: dict[str, Any] = answer.get("result", {})
                return result
            self._keep(answer)

    def _receive(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._read], [], [], left)[0]:
                raise TimeoutError("the browser did not answer")
            chunk = os.read(self._read, 1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        decoded: dict[str, Any] = json.loads(message)
        return decoded

    def _wait_for(self, method: str) -> None:
        while True:
            for i, event in enumerate(self._events):
                if event["method"] == method:
                    del self._events[: i + 1]
                    return
            self._keep(self._receive())

    def _keep(self, message: dict[str, Any]) -> None:
        """Keep an event of this tab (one of a tab closed before is dropped), and an error the
        page reports in :attr:`errors` as well."""
        if "method" in message and message.get("sessionId") == self._session:
            self._events.append(message)
            error = _error_of(message["method"], message.get("params", {}))
            if error is not None:
                self.errors.append(error)

    # --- what a test does --------------------------------------------------------------------

    def watch_errors(self) -> None:
        """From now on, keep in :attr:`errors` what the page reports as an error: an uncaught
        exception, a ``console.error``, a resource that failed to load (what a person would
        see in the browser's console)."""
        self.send("Runtime.enable", session=True)
        self.send("Log.enable", session=True)

    def html(self) -> str:
        """The page's document as it stands now (its scripts run), as HTML."""
        return str(self.evaluate("document.documentElement.outerHTML"))

    def resize(self, width: int, height: int = 900) -> None:
        """The page's viewport, ``width`` CSS pixels wide."""
        self.send(
            "Emulation.setDeviceMetricsOverride",
            session=True,
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=False,
        )

    def load(self, url: str) -> None:
        """Open ``url`` and wait for its load event."""
        self._events.clear()
        self.send("Page.navigate", session=True, url=url)
        self._wait_for("Page.loadEventFired")

    def show(self, page: str) -> None:
        """Make ``page`` (a whole HTML document) the page's document, without a navigation
        (some 40 milliseconds a page quicker than :meth:`load`; the page starts at about:blank)."""
        self.evaluate(f"document.open(); document.write({json.dumps(page)}); document.close(); 0")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        answer = self.send(
            "Runtime.evaluate", session=True, expression=expression, returnByValue=True
        )
        if "exceptionDetails" in answer:
            raise RuntimeError(f"{expression[:60]}: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def until(self, expression: str, *, timeout: float = 20.0) -> Any:
        """The first truthy value of a JavaScript expression in the page, asked again every
        50 ms (what a page filled in by its own script after it loads shows)."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {expression[:80]}")
            time.sleep(0.05)

    def screenshot(self, path: Path, *, full: bool = True) -> Path:
        """A PNG of the page (the whole of its height when ``full``)."""
        import base64

        params: dict[str, Any] = {"format": "png", "captureBeyondViewport": full}
        if full:
            size = self.evaluate(
                "[document.documentElement.clientWidth, document.documentElement.scrollHeight]"
            )
            params["clip"] = {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1}
        data = self.send("Page.captureScreenshot", session=True, **params)["data"]
        path.write_bytes(base64.b64decode(data))
        return path


def _error_of(method: str, params: dict[str, Any]) -> str | None:
    """An event of the page as a line of its console, if it reports an error."""
    if method == "Runtime.exceptionThrown":
        details = params.get("exceptionDetails", {})
        return f"uncaught: {details.get('exception', {}).get('description') or details.get('text')}"
    if method == "Runtime.consoleAPICalled" and params.get("type") == "error":
        said = " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])
        return f"console.error: {said}"
    if method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
        return f"log: {params['entry'].get('text')}"
    return None


def _pipes_at_3_and_4(to_browser: int, from_browser: int) -> Any:
    """In the child: the command pipe's reading end as fd 3, the answer pipe's writing end as
    fd 4 (what ``--remote-debugging-pipe`` reads and writes)."""

    def place() -> None:
        # copied first to descriptors above 4, so that placing one cannot close the other
        a = fcntl.fcntl(to_browser, fcntl.F_DUPFD, 5)
        b = fcntl.fcntl(from_browser, fcntl.F_DUPFD, 5)
        os.dup2(a, 3)
        os.dup2(b, 4)
        os.close(a)
        os.close(b)

    return place
