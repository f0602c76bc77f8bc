"""``electsim app``: the what-if panel served on 127.0.0.1, answered over HTTP, driven in a
headless Chromium through the DevTools protocol, and stopped by Ctrl-C."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from tests.views.browser import Browser

ROOT = Path(__file__).resolve().parents[2]
CARY = "scenarios/runoff/cary-2023-district-d.yaml"
DAY_31 = "scenarios/contingencies/112b-one-of-two-dies-day-31-certified.yaml"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.status, r.read().decode("utf-8")


def _token(url: str) -> str:
    """The token the server gave its page (what the page sends with each change)."""
    _, page = _get(url)
    found = re.search(r"<meta name='electsim-token' content='([^']+)'>", page)
    assert found, "the page carries no token"
    return found.group(1)


def _post(url: str, body: dict[str, Any], token: str) -> dict[str, Any]:
    req = urllib.request.Request(
        url,
        json.dumps(body).encode(),
        {"Content-Type": "application/json", "X-Electsim-Token": token},
    )
    with urllib.request.urlopen(req, timeout=5) as r:
        answer: dict[str, Any] = json.loads(r.read())
        return answer


def _serve(scenario: str) -> Iterator[tuple[str, threading.Thread]]:
    """``electsim app SCENARIO`` served in this process, as ``cmd_app`` serves it, on a thread:
    its address, and the thread (alive while it serves). The command itself, started as a
    process and stopped by Ctrl-C, is :func:`_serve_process`'s."""
    from simulator.analysis.panel.model import PanelState
    from simulator.cli.app import make_server
    from simulator.input.loader import load_scenario

    server = make_server(PanelState(load_scenario(ROOT / scenario)), 0)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", thread
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def _serve_process(scenario: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "simulator", "app", scenario, "--port", str(port), "--no-browser"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                _get(url + "state.json")
                break
            except OSError as err:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"electsim app did not start: {err}") from err
                time.sleep(0.05)
        yield url, proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=10)  # (closes the pipes)


@pytest.fixture
def cary() -> Iterator[tuple[str, subprocess.Popen[str]]]:
    yield from _serve_process(CARY)


def test_electsim_app_serves_the_page_on_127_0_0_1_and_stops_on_ctrl_c(
    cary: tuple[str, subprocess.Popen[str]],
) -> None:
    url, proc = cary
    status, page = _get(url)
    assert status == 200
    assert "What if? Town of Cary Town Council District D, 2023" in page
    assert 'data-key="' in page and "Who requested the runoff" in page
    assert "import simulator" not in page  # no code on the page
    # a change, answered with the outputs; a bad one with the loader's message
    token = _token(url)
    answer = _post(url + "set", {"key": "panel-event-6.at", "value": "2023-10-20"}, token)
    assert answer["ok"] and "elected Sarika Bansal" in answer["outputs"]["outcome"]
    bad = _post(url + "set", {"key": "panel-event-3.votes.Sarika Bansal", "value": "-3"}, token)
    assert not bad["ok"] and "expected a whole number of votes" in bad["outputs"]["error"]
    assert bad["outputs"]["outcome"] == answer["outputs"]["outcome"]  # the last good result
    status, text = _get(url + "variant.yaml")
    assert status == 200 and "2023-10-20" in text
    # Ctrl-C: a clean stop
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert f"serving the what-if panel at {url}" in out and "stopped" in err
    assert "Traceback" not in err


def _watch_policy(browser: Browser) -> None:
    """Have every page the browser loads next list in ``window.refused`` what its content
    security policy blocked."""
    browser.send(
        "Page.addScriptToEvaluateOnNewDocument",
        session=True,
        source="window.refused = []; document.addEventListener('securitypolicyviolation', "
        "e => window.refused.push(e.violatedDirective + ' ' + e.blockedURI));",
    )


@pytest.mark.browser
def test_a_browser_moves_a_control_and_reads_the_changed_outcome(
    browser: Browser, tmp_path: Path
) -> None:
    for url, server in _serve(DAY_31):
        browser.resize(1280, 1000)
        _watch_policy(browser)
        browser.load(url)
        outcome = ".ws-outcome"
        before = browser.until(f"document.querySelector('{outcome}')?.innerText")
        assert "163-112(b)" in before and "changed" not in before
        # move Bob's death one day earlier, to day 30, as a person would
        browser.evaluate(
            "(() => { const el = [...document.querySelectorAll('label.ws-control')]"
            ".find(l => l.innerText.includes('Bob died')).querySelector('input');"
            "el.value = '2027-08-15T' + el.value.slice(11);"
            "el.dispatchEvent(new Event('change')); return 0; })()"
        )
        browser.until("document.body.dataset.updates === '1'")
        after = browser.evaluate(f"document.querySelector('{outcome}').innerText")
        assert after != before
        assert "163-112(a)" in after and "changed" in after
        assert browser.evaluate("document.querySelectorAll('.ws-rulings li.ws-new').length") == 4
        assert "16 Aug" in browser.evaluate("document.querySelector('.ws-flips').innerText")
        # the page's style sheet, script and answers all ran under its content security policy
        assert browser.evaluate("window.refused") == []
        assert browser.evaluate(
            "getComputedStyle(document.querySelector('.ws-key i')).backgroundColor"
        ) not in ("", "rgba(0, 0, 0, 0)")
        png = browser.screenshot(tmp_path / "app-1280.png")
        assert png.stat().st_size > 10_000
        keep = os.environ.get("ELECTSIM_SCREENSHOTS")
        if keep:
            shutil.copy(png, Path(keep) / png.name)
        assert server.is_alive()


def test_electsim_app_refuses_a_bad_file_and_a_port_in_use(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from simulator.cli.main import main

    assert main(["app", str(tmp_path / "missing.yaml"), "--no-browser"]) == 2
    assert "missing.yaml" in capsys.readouterr().err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["app", str(ROOT / CARY), "--port", str(port), "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert f"--port {port}: cannot listen on 127.0.0.1:{port}" in err and "--port 0" in err


def test_a_scenario_of_several_contests_groups_its_controls_by_contest() -> None:
    from simulator.analysis.panel.model import PanelState
    from simulator.analysis.panel.page import page_html
    from simulator.input.loader import load_scenario

    state = PanelState(
        load_scenario(ROOT / "scenarios/runoff/henderson-dunn-rocky-mount-2023-mayors.yaml")
    )
    groups = {c.group for c in state.controls.values()}
    assert {"City of Henderson - Mayor", "City of Dunn - Mayor", "readings"} <= groups
    page = page_html(state)
    assert page.count("<fieldset>") == 3 and page.count("data-contest=") == 3


#: The page's layout at the current width, once the panel has drawn its flip strip
_PHONE = """(() => {
  const svg = document.querySelector(".ws-scroll svg");
  if (!svg) return null;
  const hint = document.querySelector(".ws-hint");
  const outcome = document.querySelector(".ws-outcome").getBoundingClientRect();
  const control = document.querySelector("#controls input, #controls select")
    .getBoundingClientRect();
  const widest = Math.max(...[...document.querySelectorAll("#answer, #controls, #details, "
    + "label.ws-control, .ws-timeline li")].map(e => e.getBoundingClientRect().right));
  return {
    page: document.documentElement.scrollWidth,
    width: innerWidth,
    widest: widest,
    drawing: svg.getBoundingClientRect().width,
    box: svg.parentElement.getBoundingClientRect().right,
    hint: hint.getBoundingClientRect().height > 0,
    outcome: outcome.bottom,
    control: control.top,
    beside: outcome.left >= control.right,
  };
})()"""

#: Move the control whose label holds WORDS to VALUE, as a person would
_MOVE = """(() => { const el = [...document.querySelectorAll('label.ws-control')]
  .find(l => l.innerText.includes(WORDS)).querySelector('input, select');
  el.value = VALUE; el.dispatchEvent(new Event('change')); return 0; })()"""


def _move(browser: Browser, words: str, value: str) -> None:
    before = int(browser.evaluate("document.body.dataset.updates || '0'"))
    browser.evaluate(_MOVE.replace("WORDS", json.dumps(words)).replace("VALUE", json.dumps(value)))
    browser.until(f"document.body.dataset.updates === '{before + 1}'")


@pytest.mark.browser
def test_on_a_phone_the_answer_comes_before_the_controls_and_nothing_runs_past_the_screen(
    browser: Browser, tmp_path: Path
) -> None:
    # at 390 px, 24 inputs (some 1,000 px) came before the answer, and the timeline was drawn
    # 340 px wide, its 11-unit words some 5 px high
    for url, _server in _serve(CARY):
        browser.resize(390)
        browser.load(url)
        browser.until("document.querySelector('.ws-outcome')?.innerText")
        _move(browser, "Rachel Jordan requested", "2023-10-19T12:01")
        found = browser.until(_PHONE)  # once the panel has drawn its strip
        assert found["outcome"] <= found["control"], found  # the answer first
        assert found["page"] <= 390 and found["widest"] <= 390, found  # nothing runs past
        assert found["box"] <= 390, found  # the drawing scrolls inside its box
        assert found["drawing"] >= 560, found  # at a size its words read at
        assert found["hint"], found  # and the page says it scrolls
        _keep(browser.screenshot(tmp_path / "app-390.png"))
        browser.resize(1280)
        wide = browser.evaluate(_PHONE)
        assert not wide["hint"] and wide["drawing"] <= wide["box"], wide
        assert wide["beside"], wide  # on a wide screen, the answer beside the controls
        _keep(browser.screenshot(tmp_path / "app-flip-1280.png"))


def _keep(png: Path) -> None:
    """Keep a screenshot where ELECTSIM_SCREENSHOTS names a folder (to look at it)."""
    assert png.stat().st_size > 10_000
    keep = os.environ.get("ELECTSIM_SCREENSHOTS")
    if keep:
        shutil.copy(png, Path(keep) / png.name)


@pytest.mark.browser
def test_a_request_at_11_59_and_at_12_01_gives_two_outcomes_flipping_at_noon(
    browser: Browser,
) -> None:
    # Cary 2023: Rachel Jordan's request was due by noon on Thursday 19 October (163-293(c));
    # moving it "a day late" kept 10:00, before noon, and the strip said "flips at 20 Oct"
    for url, _server in _serve(CARY):
        browser.resize(1280, 1000)
        browser.load(url)
        browser.until("document.querySelector('.ws-outcome')?.innerText")
        _move(browser, "Rachel Jordan requested", "2023-10-19T11:59")
        in_time = browser.evaluate("document.querySelector('.ws-outcome').innerText")
        flips = browser.evaluate("document.querySelector('.ws-flips').innerText")
        shown = browser.evaluate("document.querySelector('.ws-outcome-words').innerText")
        _move(browser, "Rachel Jordan requested", "2023-10-19T12:01")
        late = browser.evaluate("document.querySelector('.ws-outcome').innerText")
        assert shown.startswith("elected Sarika Bansal; runoff held")
        words = "document.querySelector('.ws-outcome-words').innerText"
        assert "runoff held" in in_time and "Assumes" not in in_time
        assert browser.evaluate(words) == "elected Sarika Bansal" and "changed" in late
        # what the late outcome rests on, in words beside it
        assert "Assumes Rachel Jordan did not ask for a runoff by Thu 19 Oct 12:00" in late
        # the strip finds the boundary to the minute
        assert "after Thu 19 Oct 12:00 (from 12:01)" in flips
        # the runoff's canvass no longer applies; it is not paired with the election's
        deadlines = browser.evaluate("document.getElementById('out-deadlines').innerText")
        assert "canvass of the runoff" in deadlines and "no longer applies" in deadlines
        assert "17 Oct" not in deadlines


_ADD = """(() => {
  const set = (name, value) => {
    const el = document.querySelector('[data-add="' + name + '"]');
    if (![...(el.options || [])].some(o => o.value === value) && el.tagName === 'SELECT')
      el.add(new Option(value, value));  // (a name the page does not offer)
    el.value = value;
  };
  set('type', TYPE); set('candidate', WHO); set('at', AT);
  document.getElementById('add').click(); return 0; })()"""


def _add(browser: Browser, kind: str, who: str, at: str) -> None:
    before = int(browser.evaluate("document.body.dataset.updates || '0'"))
    script = _ADD.replace("TYPE", json.dumps(kind)).replace("WHO", json.dumps(who))
    browser.evaluate(script.replace("AT", json.dumps(at)))
    browser.until(f"document.body.dataset.updates === '{before + 1}'")


@pytest.mark.browser
def test_a_browser_adds_a_death_sets_its_time_and_reads_the_outcome_and_the_mark(
    browser: Browser, tmp_path: Path
) -> None:
    for url, _server in _serve(CARY):
        browser.resize(1280, 1000)
        _watch_policy(browser)
        browser.load(url)
        outcome = "document.querySelector('.ws-outcome').innerText"
        before = browser.until("document.querySelector('.ws-outcome')?.innerText")
        assert "elected Sarika Bansal" in before
        # Sarika Bansal dies the day before the canvass: the leader's seat is vacant
        _add(browser, "candidate_died", "Sarika Bansal", "2023-10-16T09:00")
        after = browser.evaluate(outcome)
        assert "changed" in after and "vacant" in after and "163-294.1(c)" in after
        # marked hypothetical in the controls and the timeline
        added = browser.evaluate("document.querySelector('.ws-added').innerText")
        assert "Sarika Bansal died, at" in added and "hypothetical" in added
        line = browser.evaluate("document.querySelector('.ws-timeline li.ws-t-hypo').innerText")
        assert "candidate died: Sarika Bansal" in line and "hypothetical" in line
        # its time, moved with its own control: dead before the election, her votes do not
        # count, and Rachel Jordan has a majority
        _move(browser, "Sarika Bansal died, at", "2023-09-01T09:00")
        words = "document.querySelector('.ws-outcome-words').innerText"
        assert browser.evaluate(words) == "elected Rachel Jordan"
        _keep(browser.screenshot(tmp_path / "app-added-1280.png"))
        # copied as YAML with its id and a comment
        text = _get(url + "variant.yaml")[1]
        assert "id: hypothetical-1  # hypothetical" in text and "2023-09-01T09:00" in text
        # and removed again: as written
        browser.evaluate("document.querySelector('[data-remove]').click()")
        browser.until("!document.querySelector('.ws-added')")
        assert browser.evaluate(outcome) == before
        assert browser.evaluate("window.refused") == []


@pytest.mark.browser
def test_bad_input_shows_the_loaders_message_and_keeps_the_last_good_answer(
    browser: Browser,
) -> None:
    for url, _server in _serve(CARY):
        browser.resize(1280, 1000)
        browser.load(url)
        browser.until("document.querySelector('.ws-outcome')?.innerText")
        _move(browser, "Rachel Jordan requested", "2023-10-19T12:01")  # a good change first
        good = browser.evaluate("document.getElementById('out-outcome').innerHTML")
        error = "document.getElementById('out-error').innerText"
        # an event for a candidate who never filed
        _add(browser, "candidate_died", "Zed Nobody", "2023-10-16T09:00")
        said = browser.evaluate(error)
        assert "'Zed Nobody', who never filed" in said and "last good result" in said
        assert browser.evaluate("document.getElementById('out-outcome').innerHTML") == good
        assert not browser.evaluate("document.querySelector('.ws-added')")
        # a time outside the contest's year, for an event added and for one moved
        _add(browser, "candidate_withdrew", "Ryan Eades", "2024-01-02T09:00")
        assert "a date in the contest's year, 2023-01-01 to 2023-12-31" in browser.evaluate(error)
        _move(browser, "Rachel Jordan requested", "2022-12-31T09:00")
        assert "a date in the contest's year" in browser.evaluate(error)
        assert browser.evaluate("document.getElementById('out-outcome').innerHTML") == good
        # a good change clears it
        _move(browser, "Rachel Jordan requested", "2023-10-19T11:59")
        assert browser.evaluate(error) == ""


def _candidates(n: int) -> Any:
    """A contest of ``n`` candidates who each file, one batch of returns, the canvass."""
    from simulator.input.loader import parse_scenario

    events: list[dict[str, Any]] = [
        {"type": "candidate_filed", "at": "2027-07-06T09:00", "candidate": f"Cand {i:05d}"}
        for i in range(n)
    ]
    counts = {f"Cand {i:05d}": (i * 7919) % 10007 for i in range(n)}
    events.append({"type": "returns_reported", "at": "2027-11-02T21:00", "counts": counts})
    events.append({"type": "canvass_held", "at": "2027-11-12T11:00"})
    doc = {
        "format": "electsim/v1",
        "title": f"{n} candidates",
        "contests": [{"id": "c", "method": "nonpartisan-plurality", "year": 2027, "seats": 3}],
        "events": events,
    }
    return parse_scenario(json.dumps(doc), fmt="json")


def _steps(fn: Any) -> int:
    """The calls (of Python functions and of built-in ones) ``fn()`` makes."""
    seen = [0]

    def count(frame: Any, event: str, arg: Any) -> None:
        if event in ("call", "c_call"):
            seen[0] += 1

    sys.setprofile(count)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return seen[0]


def test_the_app_starts_in_steps_linear_in_the_number_of_candidates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # each date control once read its contest's whole timeline, and each event's id was set by
    # copying the whole log: 100,000 candidates had not started after five minutes
    from simulator.analysis.panel import model
    from simulator.analysis.panel.model import PanelState
    from simulator.analysis.panel.page import page_html

    def start(n: int) -> int:
        s = _candidates(n)
        return _steps(lambda: page_html(PanelState(s)))

    start(5)  # modules loaded, caches warm
    half, whole = start(1_500), start(3_000)
    assert whole / half < 2.2, (half, whole)  # twice the candidates, about twice the steps
    # each contest's calendar is read once, not once for each of its 3,002 date controls
    read: list[str] = []
    calendar = model._calendar

    def counted(c: Any) -> Any:
        read.append(c.id)
        return calendar(c)

    monkeypatch.setattr(model, "_calendar", counted)
    state = PanelState(_candidates(3_000))
    assert read == ["c"]
    assert sum(c.kind == "moment" for c in state.controls.values()) == 3_002
    # the ids the panel gives the events: every event has one, each its own
    ids = [e.id for e in state.base.events]
    assert None not in ids and len(set(ids)) == len(ids) == 3_002


# --- what the server accepts and refuses ------------------------------------------------------


@pytest.fixture
def served() -> Iterator[tuple[int, Any]]:
    """The Cary panel served in this process (its connections dropped after half a second of
    silence): the port and the panel's state."""

    from simulator.analysis.panel.model import PanelState
    from simulator.cli.app import make_server
    from simulator.input.loader import load_scenario

    state = PanelState(load_scenario(ROOT / CARY), flip_strip=False)
    server = make_server(state, 0, timeout=0.5)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server.server_address[1], state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def _raw(port: int, head: str, body: bytes = b"") -> tuple[int, dict[str, str], str]:
    """Send a request as it is written (``head``: the request line and headers, without the
    blank line) and read the whole answer: its status, headers and body."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(head.replace("\n", "\r\n").encode("latin-1") + b"\r\n\r\n" + body)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    top, _, rest = data.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, rest.decode("utf-8", "replace")


def _change(
    port: int,
    body: str = '{"key": "panel-event-6.at", "value": "2023-10-20"}',
    *,
    path: str = "/set",
    token: str | None = None,
    kind: str = "application/json",
    host: str | None = None,
    extra: str = "",
) -> tuple[int, str]:
    """A POST as the page sends it (the token read from the page), or with one thing
    changed: the status and the body of the answer."""
    if token is None:
        token = _token(f"http://127.0.0.1:{port}/")
    data = body.encode()
    if host is None:
        host = f"127.0.0.1:{port}"
    head = (
        f"POST {path} HTTP/1.1\nHost: {host}\nContent-Type: {kind}\n"
        f"X-Electsim-Token: {token}\nContent-Length: {len(data)}{extra}"
    )
    status, _, text = _raw(port, head, data)
    return status, text


def _unchanged(port: int, state: Any) -> None:
    assert not state.changed and not state.error
    _, text = _get(f"http://127.0.0.1:{port}/state.json")
    shown = json.loads(text)
    assert (
        shown["ok"]
        and not shown["error"]
        and shown["values"]["panel-event-6.at"] == "2023-10-18T10:00"
    )


def test_a_request_for_another_host_is_refused(served: tuple[int, Any]) -> None:
    # a name some other site points at this computer (DNS rebinding) reaches the server with
    # that name as its Host: nothing is served or changed for it
    port, state = served
    for host in ("evil.example", f"evil.example:{port}", f"127.0.0.1:{port + 1}", ""):
        for path in ("/", "/state.json", "/variant.yaml"):
            status, _, text = _raw(port, f"GET {path} HTTP/1.1\nHost: {host}")
            assert status == 421, (host, path)
            assert "electsim-token" not in text and "Sarika" not in text
        assert _change(port, host=host)[0] == 421
    _unchanged(port, state)
    # its own names: 127.0.0.1 and localhost, with its port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
        assert _raw(port, f"GET /state.json HTTP/1.1\nHost: {host}")[0] == 200
    assert _change(port)[0] == 200 and state.changed


def test_a_change_from_anywhere_but_the_page_is_refused(served: tuple[int, Any]) -> None:
    port, state = served
    token = _token(f"http://127.0.0.1:{port}/")
    refused = {
        "as text/plain (a cross-site form or fetch)": _change(port, kind="text/plain"),
        "as a form": _change(port, kind="application/x-www-form-urlencoded"),
        "from another origin": _change(port, extra="\nOrigin: http://evil.example"),
        "from another port": _change(port, extra=f"\nOrigin: http://127.0.0.1:{port + 1}"),
        "from an opaque origin": _change(port, extra="\nOrigin: null"),
        "from another site": _change(port, extra="\nSec-Fetch-Site: cross-site"),
        "without the token": _change(port, token=""),
        "with another token": _change(port, token=token[:-2] + "xx"),
        "a reset without the token": _change(port, "{}", path="/reset", token=""),
    }
    for what, (status, text) in refused.items():
        assert status in (403, 415), what
        assert text.count("\n") == 1 and "Traceback" not in text, what  # one line, in words
    _unchanged(port, state)
    # the page's own request: its origin, its token, JSON
    status, text = _change(port, extra=f"\nOrigin: http://localhost:{port}")
    assert status == 200 and json.loads(text)["ok"]
    assert state.changed == {"panel-event-6.at": datetime(2023, 10, 20, 10, 0)}


def test_a_malformed_body_gets_an_http_error_and_no_trace(
    served: tuple[int, Any], capfd: pytest.CaptureFixture[str]
) -> None:
    port, state = served
    token = _token(f"http://127.0.0.1:{port}/")
    head = (
        f"POST /set HTTP/1.1\nHost: 127.0.0.1:{port}\nContent-Type: application/json\n"
        f"X-Electsim-Token: {token}"
    )
    lengths = {"-1": 400, "abc": 400, "+5": 400, " ": 400, "10000000": 413, "99" * 20: 400}
    for length, expected in lengths.items():
        assert _raw(port, f"{head}\nContent-Length: {length}")[0] == expected, length
        assert _raw(port, "GET /state.json HTTP/1.1\nHost: " + f"127.0.0.1:{port}")[0] == 200
    assert _raw(port, head)[0] == 411  # no Content-Length
    assert _raw(port, f"{head}\nContent-Length: 2\nContent-Length: 3", b"{}")[0] == 400
    deep = "[" * 30_000 + "]" * 30_000
    bodies = {
        "30,000 deep": deep,
        "not JSON": "{key: 1",
        "not UTF-8": "\udcff",
        "a list": "[1, 2]",
        "no key": "{}",
        "a key not a string": '{"key": 3}',
        "empty": "",
    }
    for what, body in bodies.items():
        data = body.encode("utf-8", "surrogateescape")
        status, _, text = _raw(port, f"{head}\nContent-Length: {len(data)}", data)
        assert status == 400, what
        assert text.count("\n") == 1, what
    _unchanged(port, state)
    assert _change(port)[0] == 200  # and the server goes on
    out, err = capfd.readouterr()
    assert err == "" and out == ""


def test_a_stalled_connection_is_closed_after_the_timeout(served: tuple[int, Any]) -> None:
    port, _ = served  # (dropped after 0.5 s of silence)
    token = _token(f"http://127.0.0.1:{port}/")
    stalls = {
        "nothing sent": b"",
        "half a request line": b"GET /sta",
        "headers never ended": f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode(),
        "a body cut short": (
            f"POST /set HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json"
            f'\r\nX-Electsim-Token: {token}\r\nContent-Length: 100\r\n\r\n{{"key": '
        ).encode(),
    }
    # all four at once (the server answers each connection on a thread of its own)
    with contextlib.ExitStack() as open_:
        started = []
        for what, sent in stalls.items():
            s = open_.enter_context(socket.create_connection(("127.0.0.1", port), timeout=10))
            s.sendall(sent)
            started.append((what, s, time.monotonic()))
        for what, s, t0 in started:
            assert s.recv(65536) == b"", what  # closed, unanswered
            assert time.monotonic() - t0 < 5, what
    assert _raw(port, f"GET /state.json HTTP/1.1\nHost: 127.0.0.1:{port}")[0] == 200


def test_every_answer_forbids_framing_and_sniffing(served: tuple[int, Any]) -> None:
    port, _ = served
    token = _token(f"http://127.0.0.1:{port}/")
    answers = {
        "the page": _raw(port, f"GET / HTTP/1.1\nHost: 127.0.0.1:{port}"),
        "the state": _raw(port, f"GET /state.json HTTP/1.1\nHost: 127.0.0.1:{port}"),
        "not found": _raw(port, f"GET /nothing HTTP/1.1\nHost: 127.0.0.1:{port}"),
        "a refusal": _raw(port, "GET / HTTP/1.1\nHost: evil.example"),
        "an unknown method": _raw(port, f"PUT / HTTP/1.1\nHost: 127.0.0.1:{port}"),
        "a header too long": _raw(
            port, f"GET / HTTP/1.1\nHost: 127.0.0.1:{port}\nX: {'x' * 70_000}"
        ),
    }
    for what, (_, headers, _) in answers.items():
        assert headers["x-frame-options"] == "DENY", what
        assert headers["x-content-type-options"] == "nosniff", what
        assert "frame-ancestors 'none'" in headers["content-security-policy"], what
    status, headers, page = answers["the page"]
    policy = headers["content-security-policy"]
    nonce = re.search(r"script-src 'nonce-([^']+)'", policy)
    assert status == 200 and nonce and "unsafe-inline" not in policy
    assert f"<script nonce='{nonce.group(1)}'>" in page
    assert f"<style nonce='{nonce.group(1)}'>" in page
    assert "style=" not in page.replace("<style nonce", "")  # (no style attribute)
    assert token in page and token not in answers["the state"][2]
    # a fresh nonce for each page
    again = _raw(port, f"GET / HTTP/1.1\nHost: 127.0.0.1:{port}")[1]["content-security-policy"]
    assert again != policy


#: A page of another site that tries to change the panel three ways: a fetch with no CORS
#: (text/plain, what a cross-site script may send unasked), one with CORS (JSON, a guessed
#: token: the browser asks first, and the server does not allow it), then a form of text/plain
#: whose answer, were it taken, would put the attacker's words in the page's error box
_ATTACK = """<!doctype html><html><body>
<form id="f" method="POST" action="APP/set" enctype="text/plain">
<input name='{"key": "ATTACKER TEXT", "value": "1", "x": "' value='"}'></form>
<script>
const body = JSON.stringify({key: "panel-event-6.at", value: "2023-10-20"});
(async () => {
  try { await fetch("APP/set", {method: "POST", mode: "no-cors",
                                headers: {"Content-Type": "text/plain"}, body}); }
  catch (e) {}
  try { await fetch("APP/set", {method: "POST", body,
                                headers: {"Content-Type": "application/json",
                                          "X-Electsim-Token": "guess"}}); }
  catch (e) {}
  document.getElementById("f").submit();
})();
</script></body></html>"""


@pytest.mark.browser
def test_a_page_of_another_site_cannot_change_the_panel(browser: Browser) -> None:
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    for url, _server in _serve(CARY):
        app = url.rstrip("/")

        class Other(BaseHTTPRequestHandler):
            page = _ATTACK.replace("APP", app).encode()

            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(self.page)))
                self.end_headers()
                self.wfile.write(self.page)

            def log_message(self, format: str, *args: Any) -> None:
                return

        other = ThreadingHTTPServer(("127.0.0.1", 0), Other)
        threading.Thread(target=other.serve_forever, daemon=True).start()
        try:
            before = json.loads(_get(url + "state.json")[1])
            browser.load(f"http://localhost:{other.server_address[1]}/")
            # the form's answer replaces the page
            found = browser.until(f"location.href.startsWith('{app}') && document.body?.innerText")
        finally:
            other.shutdown()
            other.server_close()
        after = json.loads(_get(url + "state.json")[1])
        assert after == {**before, "ms": after["ms"]}  # nothing changed
        assert not after["error"]
        assert "panel's own page" in found  # the server's refusal, in words
        # and the panel's page shows nothing of the attack
        browser.load(url)
        assert "ATTACKER" not in browser.evaluate("document.body.innerText")
        assert browser.evaluate("document.getElementById('out-error').innerText") == ""


def test_a_port_outside_0_to_65535_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    from simulator.cli.main import main

    for port in ("70000", "-1", "65536"):
        assert main(["app", str(ROOT / CARY), "--port", port, "--no-browser"]) == 2, port
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"--port {port}" in err and "0 to 65535" in err, err
        assert "internal error" not in err


PENDING = "scenarios/collisions/2944c-reprint-determination-not-recorded-is-pending.yaml"

#: What the page shows of what can happen from here (a JavaScript expression)
_FUTURES = """(() => {
  const box = document.querySelector('.ws-outcome .ws-futures');
  if (!box) return null;
  const items = [...box.querySelectorAll('li')];
  return {
    summary: box.querySelector('summary').innerText,
    open: box.open,
    first: items.length ? items[0].innerText : '',
    items: items.length,
    widest: Math.max(...items.map(e => e.getBoundingClientRect().right)),
    page: document.documentElement.scrollWidth,
  };
})()"""


@pytest.mark.browser
def test_the_page_shows_what_can_happen_from_here_beside_the_outcome(
    browser: Browser, tmp_path: Path
) -> None:
    for url, server in _serve(PENDING):
        _watch_policy(browser)
        browser.resize(390, 900)
        browser.load(url)
        found = browser.until(_FUTURES)
        from simulator.analysis.futures import futures
        from simulator.input.loader import load_scenario

        ways = len(futures(load_scenario(PENDING)).contests[0].branches)
        assert found["summary"] == f"What can happen from here ({ways} ways)"
        assert not found["open"], found  # (a long list waits for a tap)
        browser.evaluate("document.querySelector('.ws-futures summary').click()")
        found = browser.evaluate(_FUTURES)
        assert found["open"] and found["items"] == ways, found
        assert found["first"].startswith("if the board finds there is not time to reprint")
        assert found["widest"] <= 390 and found["page"] <= 390, found
        _keep(browser.screenshot(tmp_path / "app-futures-390.png"))
        browser.resize(1280)
        assert browser.evaluate(_FUTURES)["items"] == found["items"]
        _keep(browser.screenshot(tmp_path / "app-futures-1280.png"))
        assert browser.evaluate("window.refused") == []
        assert server.is_alive()
