"""``electsim app``: the what-if panel served on 127.0.0.1, answered over HTTP, driven in a
headless Chromium through the DevTools protocol, and stopped by Ctrl-C."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.views.browser import Browser, chromium

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


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=5) as r:
        answer: dict[str, Any] = json.loads(r.read())
        return answer


def _serve(scenario: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
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
    yield from _serve(CARY)


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
    answer = _post(url + "set", {"key": "panel-event-6.at", "value": "2023-10-20"})
    assert answer["ok"] and "elected Sarika Bansal" in answer["outputs"]["outcome"]
    bad = _post(url + "set", {"key": "panel-event-3.votes.Sarika Bansal", "value": "-3"})
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


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Browser]:
    executable = chromium()
    if executable is None:
        pytest.skip("no chromium or chromium-browser on PATH (apt-get install chromium)")
    with Browser(executable, tmp_path / "profile") as b:
        yield b


@pytest.mark.browser
def test_a_browser_moves_a_control_and_reads_the_changed_outcome(
    browser: Browser, tmp_path: Path
) -> None:
    for url, server in _serve(DAY_31):
        browser.resize(1280, 1000)
        browser.load(url)
        outcome = ".ws-outcome"
        before = browser.until(f"document.querySelector('{outcome}')?.innerText")
        assert "163-112(b)" in before and "changed" not in before
        # move Bob's death one day earlier, to day 30, as a person would
        browser.evaluate(
            "(() => { const el = [...document.querySelectorAll('label.ws-control')]"
            ".find(l => l.innerText.includes('Bob died')).querySelector('input');"
            "el.value = '2027-08-15'; el.dispatchEvent(new Event('change')); return 0; })()"
        )
        browser.until("document.body.dataset.updates === '1'")
        after = browser.evaluate(f"document.querySelector('{outcome}').innerText")
        assert after != before
        assert "163-112(a)" in after and "changed" in after
        assert browser.evaluate("document.querySelectorAll('.ws-rulings li.ws-new').length") == 4
        assert "16 Aug" in browser.evaluate("document.querySelector('.ws-flips').innerText")
        png = browser.screenshot(tmp_path / "app-1280.png")
        assert png.stat().st_size > 10_000
        keep = os.environ.get("ELECTSIM_SCREENSHOTS")
        if keep:
            shutil.copy(png, Path(keep) / png.name)
        assert server.poll() is None


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


#: The page's layout at the current width, once the panel has drawn its timeline
_PHONE = """(() => {
  const svg = document.querySelector(".ws-scroll svg");
  if (!svg) return null;
  const hint = document.querySelector(".ws-hint");
  return {
    page: document.documentElement.scrollWidth,
    width: innerWidth,
    drawing: svg.getBoundingClientRect().width,
    box: svg.parentElement.getBoundingClientRect().right,
    hint: hint.getBoundingClientRect().height > 0,
  };
})()"""


@pytest.mark.browser
def test_the_page_reads_on_a_phone_its_timeline_scrolling_in_its_box(browser: Browser) -> None:
    # at 390 px the timeline was drawn 340 px wide, its 11-unit words some 5 px high
    for url, _server in _serve(CARY):
        browser.resize(390)
        browser.load(url)
        found = browser.until(_PHONE)  # once the panel has drawn its timeline
        assert found["page"] <= 390, found  # nothing runs past the screen
        assert found["box"] <= 390, found  # the drawing scrolls inside its box
        assert found["drawing"] >= 560, found  # at a size its words read at
        assert found["hint"], found  # and the page says it scrolls
        browser.resize(1280)
        wide = browser.evaluate(_PHONE)
        assert not wide["hint"] and wide["drawing"] <= wide["box"], wide


def _candidates(n: int) -> Any:
    """A contest of ``n`` candidates who each file, one batch of returns, the canvass."""
    from simulator.input.loader import parse_scenario

    events: list[dict[str, Any]] = [
        {"type": "candidate_filed", "at": "2027-07-06T09:00", "candidate": f"Cand {i:05d}"}
        for i in range(n)
    ]
    counts = {f"Cand {i:05d}": (i * 7919) % 10007 for i in range(n)}
    events.append({"type": "returns_reported", "at": "2027-11-02T21:00", "counts": counts})
    events.append({"type": "canvass_held", "at": "2027-11-09T11:00"})
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
    assert sum(c.kind == "date" for c in state.controls.values()) == 3_002
    # the ids the panel gives the events: every event has one, each its own
    ids = [e.id for e in state.base.events]
    assert None not in ids and len(set(ids)) == len(ids) == 3_002


def test_a_port_outside_0_to_65535_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    from simulator.cli.main import main

    for port in ("70000", "-1", "65536"):
        assert main(["app", str(ROOT / CARY), "--port", port, "--no-browser"]) == 2, port
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"--port {port}" in err and "0 to 65535" in err, err
        assert "internal error" not in err
