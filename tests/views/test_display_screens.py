"""A result's tables in Jupyter read on a phone: the notebook HTML of every bundled scenario,
loaded in one headless Chromium at 390 pixels wide and at 1,280, needs no scrolling sideways,
keeps every cell inside the screen, and gives each ruling's words (a decision's choices, why a
deadline moved) a row across the whole table rather than a column squeezed beside the others."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from simulator.analysis.whatif import compare
from simulator.analysis.whatif.display import html
from tests.conftest import one_in
from tests.views.browser import Browser
from tests.views.test_graph import LIBRARY, replayed

#: What the page says of its layout (a JavaScript expression).
MEASURE = """(() => {
  const w = innerWidth;
  const outside = e => { const r = e.getBoundingClientRect();
                         return r.width > 0 && (r.left < -0.5 || r.right > w + 0.5); };
  const cells = [...document.querySelectorAll("table.electsim-t td")];
  const words = [...document.querySelectorAll("table.electsim-t td[colspan]")];
  const widths = words.map(e => e.getBoundingClientRect().width);
  return {
    width: w,
    page: document.documentElement.scrollWidth,
    cells: cells.length,
    outside: cells.filter(outside).map(e => e.textContent.slice(0, 80)),
    words: words.length,
    narrowest: Math.min(...widths),
    broken: [...document.querySelectorAll("a.cite")].filter(a => a.getClientRects().length > 1)
              .map(a => a.textContent),
    cites: document.querySelectorAll("a.cite").length,
  };
})()"""


def _page(bodies: list[str]) -> str:
    return (
        '<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width">'
        "</head><body>" + "".join(bodies) + "</body></html>"
    )


def test_every_bundled_scenario_s_notebook_tables_read_on_a_phone_and_a_desktop(
    browser: Browser,
) -> None:
    bundled = [c for c in LIBRARY if c.id.startswith("scenarios/") and "@" not in c.id]
    assert len(bundled) > 100
    bodies = []
    expected = 0
    for case in one_in(6, bundled):  # every one of them under the long profile (make fuzz)
        _, result = replayed(case)
        shown = html(result)
        assert shown is not None
        bodies.append(shown)
        for c in result.contests:
            expected += len(c.rulings) + sum(len(p.options) for p in c.decisions)
            expected += len(c.remarks)
            expected += sum(1 for d in c.deadlines if d.moved_from is not None)
    browser.load("about:blank")
    browser.resize(390)
    browser.show(_page(bodies))
    for width in (390, 1280):
        browser.resize(width)
        found: dict[str, Any] = browser.evaluate(MEASURE)
        assert found["page"] <= width, f"at {width} px the page is {found['page']} px wide"
        assert not found["outside"], f"at {width} px: cells off screen {found['outside'][:5]}"
        assert found["words"] == expected
        # a citation reads whole: never "G.S. 163-" on one line and "294.4(c)" on the next
        assert found["cites"] > 100 and not found["broken"], found["broken"][:5]
        # a phone gives the words nearly its whole width (beside three or four other columns
        # a ruling's text had some 70 pixels, a word or two a line); a desktop, a few words
        assert found["narrowest"] >= (width - 40 if width < 700 else 300), found


def test_a_comparison_of_two_scenarios_fits_a_phone(
    browser: Browser,
) -> None:
    bundled = [c for c in LIBRARY if c.id.startswith("scenarios/runoff/") and "@" not in c.id]
    results = [replayed(c)[1] for c in bundled]
    pairs = [
        (a, b)
        for a, b in pairwise(results)
        if [c.id for c in a.contests] == [c.id for c in b.contests]
    ]
    assert len(pairs) >= 3
    page = _page([compare(a, b, names=(a.scenario, b.scenario))._repr_html_() for a, b in pairs])
    browser.load("about:blank")
    browser.resize(390)
    browser.show(page)
    found: dict[str, Any] = browser.evaluate(MEASURE)
    assert found["page"] <= 390, f"the page is {found['page']} px wide"
    assert not found["outside"], f"cells off screen {found['outside'][:5]}"


def test_a_chart_in_a_notebook_keeps_a_readable_width_on_a_phone(
    browser: Browser,
) -> None:
    # a 13-inch timeline shrunk to a phone's 390 pixels was a thumbnail: it keeps at least 720
    # pixels there, in a box that scrolls sideways, and fills the output on a desktop
    from simulator import load_scenario, plot_timeline, replay
    from tests.views.test_graph import ROOT

    scenario = load_scenario(ROOT / "scenarios/runoff/cary-2023-district-d.yaml")
    chart = plot_timeline(replay(scenario), scenario=scenario)
    shown = chart._repr_html_()
    assert shown is not None and "data:image/png;base64," in shown
    measure = """(() => {
      const box = document.querySelector('.electsim-chart');
      const img = box.querySelector('img');
      return {img: img.getBoundingClientRect().width, box: box.clientWidth,
              scroll: box.scrollWidth, page: document.documentElement.scrollWidth};
    })()"""
    browser.load("about:blank")
    browser.resize(390)
    browser.show(_page([shown]))
    phone: dict[str, Any] = browser.until(f"{measure.strip()}.img > 0 ? {measure} : null")
    assert phone["img"] >= 719 and phone["scroll"] > phone["box"], phone
    assert phone["page"] <= 390, phone  # the box scrolls, not the page
    browser.resize(1280)
    desktop: dict[str, Any] = browser.evaluate(measure)
    assert desktop["img"] == desktop["box"] and desktop["scroll"] <= desktop["box"], desktop
