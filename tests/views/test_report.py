"""The HTML report: one self-contained page, every citation linked, all user text escaped, and
it opens in a real browser without errors."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from simulator import parse_scenario, replay
from simulator.cli.main import main
from simulator.law.labels import label
from simulator.views import report
from simulator.views.charts import figures
from simulator.views.report import render_report, write_report
from simulator.views.text import format_result
from simulator.views.words import event_words
from tests.views.browser import Browser
from tests.views.test_graph import (
    LIBRARY,
    TIE_FOR_SECOND,
    Case,
    case_id,
    not_blank,
    replayed,
    worked,
)

STATUTES = ("https://www.ncleg.gov/", "http://reports.oah.state.nc.us/")
_TAG_HREF = re.compile(r'<([\w:]+)\b[^>]*?\b(?:xlink:)?href="([^"]*)"')


def assert_self_contained(page: str) -> None:
    """The page loads nothing: no scripts, styles, fonts, frames or images from anywhere."""
    for tag in (
        "<script",
        "<link",
        "<iframe",
        "<img",
        "<object",
        "<embed",
        "@import",
        "@font-face",
    ):
        assert tag not in page.lower(), f"{tag} in the page"
    assert not re.search(r"\ssrc=", page)
    assert set(re.findall(r"url\((.)", page)) <= {"#"}  # only references inside the page
    for tag, href in _TAG_HREF.findall(page):
        if tag == "a":
            assert href.startswith(("#", *STATUTES)), href
        else:
            assert href.startswith("#"), (tag, href)


@pytest.fixture
def undrawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """The report's pictures stubbed out: the chart and graph tests draw every case already
    (and the tests below this module's library test embed real drawings)."""
    monkeypatch.setattr(report, "plot_timeline", lambda *a, **k: None)
    monkeypatch.setattr(report, "replay_graph", lambda *a, **k: None)
    monkeypatch.setattr(report, "draw_graph", lambda *a, **k: None)
    monkeypatch.setattr(figures, "figure_svg", lambda *a, **k: '<svg id="p"><g id="q"/></svg>')


@pytest.mark.parametrize("case", LIBRARY, ids=case_id)
@pytest.mark.usefixtures("undrawn")
def test_the_report_shows_outcomes_rulings_deadlines_and_events_with_linked_citations(
    case: Case,
) -> None:
    scenario, result = replayed(case)
    page = render_report(scenario, result)
    assert_self_contained(page)
    assert page.count("<svg") == 1 + len(result.contests)  # the timeline and each path
    for c in result.contests:
        assert f'id="contest-{html.escape(c.id)}"' in page
        for name in (*c.outcome.elected, *c.outcome.nominated):
            assert html.escape(name) in page
        for r in c.rulings:
            assert html.escape(r.text) in page
            for cite in r.cites:
                assert f'href="{html.escape(cite.url)}" rel="noopener">{cite}</a>' in page
        for d in c.deadlines:  # each deadline in words ("runoff request deadline")
            assert f'<td class="deadline" data-label="deadline">{label(d.kind)}</td>' in page
            for cite in d.cites:
                assert f'href="{html.escape(cite.url)}" rel="noopener">{cite}</a>' in page
            if d.why_moved:
                assert html.escape(d.why_moved) in page
    for ev in scenario.events:  # numbered from 1, in words
        assert f'<td class="num" data-label="#">{ev.index + 1}</td>' in page
        assert html.escape(event_words(ev)) in page


def test_the_votes_show_shares_the_threshold_and_who_won() -> None:
    # G.S. 163-293(b): a majority is more than half of the votes cast (1,050 here).
    scenario, result = worked("tie-for-second")
    page = render_report(scenario, result)
    assert "Threshold: majority, more than <b>525</b> of 1,050 votes" in page
    assert re.search(
        r"Ann &lt;b&gt;&amp;&lt;/b&gt; <span class=\"badge good\">elected</span>"
        r"</td><td class=num>450</td><td class=num>42\.9%</td>",
        page,
    )
    assert "<td class=num>300</td><td class=num>28.6%</td>" in page
    assert '<tr class="total"><td>total</td><td class=num>1,050</td>' in page


def test_the_contents_tell_the_primary_from_the_election() -> None:
    case = next(c for c in LIBRARY if "greensboro-2017-at-large" in c.id)
    scenario, result = replayed(case)
    page = render_report(scenario, result)
    toc = re.search(r'<nav class="toc">(.*?)</nav>', page)
    assert toc is not None
    entries = re.findall(r">([^<]+)</a>", toc.group(1))
    titles = [e for e in entries if "Greensboro" in e]
    assert len(titles) == 2 and len(set(titles)) == 2, titles
    assert titles[0].endswith("(primary)") and titles[1].endswith("(election)")
    assert "City Council At-Large, primary" in page


def test_the_report_and_the_text_say_the_readings_chosen_in_words_and_name_their_switch() -> None:
    case = next(c for c in LIBRARY if "2941b-withdrawn-winner-office-vacant" in c.id)
    scenario, result = replayed(case)
    said = "a withdrawal counts as a death: no (interpretation withdrawal_as_death: false)"
    page = render_report(scenario, result)
    assert f"<dt>readings</dt><dd>{said}</dd>" in page
    assert "withdrawal_as_death =" not in page and "False" not in page
    text = format_result(result, events=scenario.events)
    assert f"readings other than the defaults: {said}" in text.splitlines()


def test_the_timeline_is_drawn_for_the_page() -> None:
    scenario, result = worked("tie-for-second")
    page = render_report(scenario, result)
    assert page.count("<svg") == 1 + len(result.contests)  # the timeline and each path
    chart = page[page.index('<section id="timeline">') :]
    box = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', chart)
    assert box is not None
    # 1080 pixels at 100 dpi: 10.8 inches, 777.6 points, shown across a 1184-pixel column,
    # so that a 7-point label is some 14 pixels high on a 1280-pixel screen
    assert float(box.group(1)) == pytest.approx(777.6)


def test_user_text_is_escaped_everywhere() -> None:
    scenario, result = worked("tie-for-second")
    page = render_report(scenario, result)
    for raw in ("<b>&</b>", "<tag>", "<east>"):
        assert raw not in page
    assert "Ann &lt;b&gt;&amp;&lt;/b&gt;" in page
    assert "Tie for second &amp; a &lt;tag&gt;, 2027" in page
    assert "Council Seat &quot;B&quot; &lt;east&gt;" in page
    assert "Cy $mith$" in page  # no TeX anywhere
    assert_self_contained(page)


def test_an_as_of_report_marks_the_events_not_yet_known() -> None:
    scenario, result = worked("death-reopens-filing@2025-08-27T09:00")
    page = render_report(scenario, result)
    assert "later events are ignored" in page
    assert "pending" in page and ">filing<" in page


def test_write_report_and_the_report_command_write_the_page(tmp_path: Path) -> None:
    scenario, result = worked("tie-for-second")
    out = write_report(scenario, result, tmp_path / "direct.html")
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")

    source = tmp_path / "tie.yaml"
    source.write_text(TIE_FOR_SECOND, encoding="utf-8")
    page = tmp_path / "cli.html"
    assert main(["report", str(source), "-o", str(page), "--as-of", "2027-10-13T12:00"]) == 0
    text = page.read_text(encoding="utf-8")
    assert "Tue 2027-10-12 11:00" in text and "later events are ignored" in text
    assert main(["report", str(tmp_path / "missing.yaml"), "-o", str(page)]) == 2


@pytest.mark.browser
def test_the_report_opens_in_a_headless_browser_without_console_errors(
    browser: Browser, tmp_path: Path
) -> None:
    scenario, result = worked("tie-for-second")
    page = write_report(scenario, result, tmp_path / "report.html")
    browser.watch_errors()
    browser.resize(1280)
    browser.load(page.as_uri())
    dom = browser.html()  # (a round trip: what the page said while loading has come in)
    assert browser.errors == []
    assert not_blank(browser.screenshot(tmp_path / "report.png", full=False))
    assert "<h1>Tie for second &amp; a &lt;tag&gt;, 2027</h1>" in dom
    assert dom.count("<svg") == 1 + len(result.contests)


@pytest.mark.browser
def test_a_page_s_errors_are_seen(browser: Browser) -> None:
    # the check above would pass on a browser that hears nothing: here it must hear each kind
    browser.watch_errors()
    browser.show(
        "<script>console.error('said'); undefined_name();</script>"
        '<img src="file:///nowhere/at-all.png">'
    )
    browser.until("document.readyState === 'complete'")
    found = " | ".join(browser.errors)
    assert "console.error: said" in found and "undefined_name" in found, found


_MEASURE = """<script>
window.addEventListener("load", () => {
  const wide = [...document.querySelectorAll(SELECTORS)]
    .filter(e => e.scrollWidth > e.clientWidth + 1).length;
  document.body.dataset.wide = String(wide);
  document.body.dataset.page = String(document.documentElement.scrollWidth > innerWidth);
  // a word of a method cell drawn on two lines ("nonpartis" / "an-runoff")
  let broken = 0;
  for (const cell of document.querySelectorAll("td.method")) {
    const text = cell.firstChild;
    for (const m of text.textContent.matchAll(/[^ ,-]+/g)) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      if (range.getClientRects().length > 1) broken += 1;
    }
  }
  document.body.dataset.broken = String(broken);
});
</script></body>"""


@pytest.mark.browser
@pytest.mark.parametrize(
    ("width", "selectors"),
    [
        # (on a narrow screen the tables of nine columns scroll sideways in their frame, as
        # they do with short names: their headings do not break)
        (800, "td, dd, p, li, h1, h2, h3"),
        (1280, ".scroll, td, dd, p, li, h1, h2, h3"),
    ],
)
def test_a_report_of_long_names_runs_past_no_column(
    browser: Browser, tmp_path: Path, width: int, selectors: str
) -> None:
    # a name of two hundred letters ran past its table and the outcome's box: it now breaks
    # where it must, and the page needs no scrolling sideways
    scenario = parse_scenario(_long_names_scenario(), source="long.yaml")
    page = write_report(scenario, replay(scenario), tmp_path / "report.html")
    measure = _MEASURE.replace("SELECTORS", repr(selectors))
    page.write_text(page.read_text(encoding="utf-8").replace("</body>", measure), "utf-8")
    dom = _dom_after_load(browser, page, width)
    assert 'data-page="false"' in dom and 'data-wide="0"' in dom, dom[:300]
    # a method breaks between its words, never inside one
    assert 'data-broken="0"' in dom, dom[dom.find("<body") :][:200]


def test_a_notebook_table_of_ordinary_names_gets_no_width_limit() -> None:
    # only a cell with a word too long to wrap is held to a width; the rest keep theirs (the
    # rows of a ruling's words across the table hold a line to 48em, a line that reads well)
    from simulator.analysis.whatif import ResultView

    _, result = worked("tie-for-second")
    shown = ResultView(result)._repr_html_()
    assert "max-width:24em" not in shown
    assert shown.count("max-width:") == shown.count("<td colspan=")
    long = parse_scenario(_long_names_scenario(), source="long.yaml")
    assert "max-width:24em" in ResultView(replay(long))._repr_html_()


def _long_names_scenario() -> str:
    """Eight candidates of names two hundred letters long."""
    from tests.views.test_charts import _long_names

    return _long_names(8, 200)


def _dom_after_load(browser: Browser, page: Path, width: int) -> str:
    """The page's DOM once it has loaded ``width`` px wide and the measuring script of
    :data:`_MEASURE` has written its findings on the body."""
    browser.resize(width)
    browser.load(page.as_uri())
    browser.until("document.body.dataset.broken !== undefined")
    return browser.html()


@pytest.mark.browser
def test_a_notebook_display_of_long_names_fits_a_notebook_output(
    browser: Browser, tmp_path: Path
) -> None:
    # a name of two hundred letters pushed the notebook's tables (votes, rulings) far past the
    # output's width; now its cells break the word, and no cell's content runs past the cell
    from simulator.analysis.whatif import ResultView

    shown = ResultView(replay(parse_scenario(_long_names_scenario(), source="long.yaml")))
    page = tmp_path / "notebook.html"
    measure = _MEASURE.replace("SELECTORS", repr("td, td > div"))
    page.write_text(
        f'<!doctype html><html><body style="margin:0">{shown._repr_html_()}{measure}</html>',
        "utf-8",
    )
    dom = _dom_after_load(browser, page, 1000)
    assert 'data-page="false"' in dom and 'data-wide="0"' in dom, dom[dom.find("<body") :][:200]
