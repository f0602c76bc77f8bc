"""The report reads on a phone as on a desktop: the report of every bundled scenario, loaded in
one headless Chromium at 390 pixels wide (a phone) and at 1,280, needs no scrolling sideways,
shows every cell of its tables (and so every ruling's text) inside the screen, and keeps its
chart readable, scrolling in a box that says so where the screen is too narrow for it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from simulator.engine.replay import replay
from simulator.views import report
from simulator.views.charts import figures
from simulator.views.report import render_report
from tests.conftest import one_in
from tests.views.browser import Browser
from tests.views.test_graph import LIBRARY, Case, replayed, worked

WIDTHS = (390, 1280)

#: What the page says of its layout at the current width (a JavaScript expression).
MEASURE = """(() => {
  const w = innerWidth;
  const outside = e => { const r = e.getBoundingClientRect();
                         return r.width > 0 && (r.left < -0.5 || r.right > w + 0.5); };
  const cells = [...document.querySelectorAll("td")];
  const rulings = [...document.querySelectorAll("td.ruling")];
  const box = document.querySelector(".chartbox");
  const chart = box.querySelector("svg").getBoundingClientRect();
  const hint = document.querySelector("#timeline .hint");
  // every picture that scrolls in its box (the chart, each state machine drawing) is told of
  const shown = e => e && e.classList.contains("hint") && e.getBoundingClientRect().height > 0;
  const boxes = [...document.querySelectorAll(".chartbox")];
  const scrolls = b => b.scrollWidth > b.clientWidth + 1;
  return {
    page: document.documentElement.scrollWidth,
    width: w,
    rulings: rulings.length,
    rulingsOutside: rulings.filter(outside).map(e => e.textContent.slice(0, 80)),
    cellsOutside: cells.filter(outside).map(e => e.textContent.slice(0, 80)),
    boxOutside: outside(box),
    chartWidth: chart.width,
    chartScrolls: box.scrollWidth > box.clientWidth + 1,
    hintShown: hint.getBoundingClientRect().height > 0,
    boxes: boxes.length,
    boxesOutside: boxes.filter(outside).length,
    untold: boxes.filter(b => scrolls(b) && !shown(b.previousElementSibling)).length,
  };
})()"""


def _stub_drawings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pictures of the real drawings' size, not drawn (the chart tests draw every case): the
    chart is 777.6 points wide, as :data:`report.CHART_PX` at :data:`report.CHART_DPI` makes it."""
    width = report.CHART_PX / report.CHART_DPI * 72
    monkeypatch.setattr(report, "plot_timeline", lambda *a, **k: None)
    monkeypatch.setattr(report, "replay_graph", lambda *a, **k: None)
    monkeypatch.setattr(report, "draw_graph", lambda *a, **k: None)
    svg = f'<svg viewBox="0 0 {width} 400"><rect width="{width}" height="400"/></svg>'
    monkeypatch.setattr(figures, "figure_svg", lambda *a, **k: svg)


def _check(found: dict[str, Any], what: str) -> None:
    w = found["width"]
    assert found["page"] <= w, f"{what}: the page is {found['page']} px wide"
    assert not found["rulingsOutside"], f"{what}: rulings off screen {found['rulingsOutside']}"
    assert not found["cellsOutside"], f"{what}: cells off screen {found['cellsOutside']}"
    assert not found["boxOutside"], f"{what}: the chart's box runs off screen"
    assert not found["boxesOutside"], f"{what}: a drawing's box runs off screen"
    assert not found["untold"], f"{what}: {found['untold']} drawings scroll, and nothing says so"
    if found["chartScrolls"]:
        assert found["hintShown"], f"{what}: the chart scrolls, and nothing says so"
    else:
        assert found["chartWidth"] <= w
    if w < 700:
        # a phone keeps the chart big enough to read (a 7-point label at some 9 pixels)
        assert found["chartWidth"] >= 900, f"{what}: the chart is {found['chartWidth']} px wide"
    else:
        assert not found["chartScrolls"] and not found["hintShown"], what


def _measure(browser: Browser, page: Path | str) -> dict[int, dict[str, Any]]:
    """The page's layout at each width (one load; the window resized): a file is opened, a
    document (a string) written into the page."""
    browser.resize(WIDTHS[0])
    if isinstance(page, Path):
        browser.load(page.as_uri())
    else:
        browser.show(page)
    found = {}
    for width in WIDTHS:
        browser.resize(width)
        found[width] = browser.evaluate(MEASURE)
    return found


@pytest.mark.early
@pytest.mark.browser
def test_every_bundled_scenario_s_report_reads_on_a_phone_and_a_desktop(
    browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stub_drawings(monkeypatch)
    browser.load("about:blank")
    bundled = [c for c in LIBRARY if c.id.startswith("scenarios/") and "@" not in c.id]
    assert len(bundled) > 100
    cases = one_in(8, bundled)  # every one of them under the long profile (make fuzz)
    rulings = 0
    for case in cases:
        scenario, result = replayed(case)
        for width, found in _measure(browser, render_report(scenario, result)).items():
            _check(found, f"{case.id} at {width} px")
            rulings += found["rulings"]
    assert rulings > 150  # the rulings were there to measure


@pytest.mark.browser
@pytest.mark.parametrize("name", ["tie-for-second", "death-reopens-filing"])
def test_the_real_chart_reads_on_a_phone(browser: Browser, tmp_path: Path, name: str) -> None:
    scenario, result = worked(name)
    page = tmp_path / "report.html"
    page.write_text(render_report(scenario, result), encoding="utf-8")
    for width, found in _measure(browser, page).items():
        _check(found, f"{name} at {width} px")
        shot = browser.screenshot(tmp_path / f"{name}-{width}.png")
        assert shot.stat().st_size > 10_000


def test_the_report_names_its_file_without_the_author_s_folders(tmp_path: Path) -> None:
    case = next(c for c in LIBRARY if c.id.startswith("scenarios/runoff/"))
    absolute = str(Path(case.source).resolve())
    scenario, result = replayed(Case(case.id, case.text, None, absolute))
    page = render_report(scenario, result)
    assert absolute not in page
    shown = re.search(r"<dt>scenario file</dt><dd><span class=\"id\">([^<]+)</span>", page)
    assert shown is not None
    assert not Path(shown.group(1)).is_absolute()
    assert absolute.endswith("/" + shown.group(1))


#: What the section "What can happen from here" shows (a JavaScript expression).
FUTURES = """(() => {
  const w = innerWidth;
  const head = document.querySelector("h3.futures");
  const items = [...document.querySelectorAll("ul.futures li")];
  const outside = e => { const r = e.getBoundingClientRect();
                         return r.left < -0.5 || r.right > w + 0.5; };
  return {
    heading: head ? head.textContent : null,
    first: items.length ? items[0].innerText : null,
    items: items.length,
    outside: items.filter(outside).length,
    page: document.documentElement.scrollWidth,
  };
})()"""


@pytest.mark.browser
def test_the_report_reads_what_can_happen_from_here_on_a_phone_and_a_desktop(
    browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    from simulator.analysis.futures import futures
    from simulator.input.loader import load_scenario
    from simulator.views.branches import branches_in_words

    _stub_drawings(monkeypatch)
    scenario = load_scenario(
        "scenarios/collisions/2944c-reprint-determination-not-recorded-is-pending.yaml"
    )
    result = replay(scenario)
    shown = branches_in_words(futures(scenario).to_json())
    browser.resize(WIDTHS[0])
    browser.show(render_report(scenario, result, shown))
    for width in WIDTHS:
        browser.resize(width)
        found = browser.evaluate(FUTURES)
        assert found["heading"] == "What can happen from here", width
        assert found["items"] == len(shown[result.contests[0].id]) > 3, width
        assert found["first"].startswith("if the board finds there is not time to reprint")
        assert not found["outside"] and found["page"] <= width, found
