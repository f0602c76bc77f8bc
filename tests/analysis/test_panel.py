"""The what-if panel: controls found from the log, driven from Python as a person would, the
outcome and the changed rulings it shows, bad input kept out, and the variant copied as YAML."""

from __future__ import annotations

import time
from datetime import date
from pathlib import Path

import pytest

import simulator
from simulator.analysis.panel.controls import find_controls
from simulator.analysis.panel.model import PanelState
from simulator.analysis.panel.render import outputs_html
from simulator.engine.replay import replay
from simulator.model.scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]
CARY = ROOT / "scenarios/runoff/cary-2023-district-d.yaml"
DAY_31 = ROOT / "scenarios/contingencies/112b-one-of-two-dies-day-31-certified.yaml"
CONTINGENCIES = ROOT / "scenarios/contingencies"
LABOR_DAY = CONTINGENCIES / "2944b-only-two-filed-one-dies-reopen-5-days-past-labor-day.yaml"

pytest.importorskip("ipywidgets", reason="ipywidgets is not installed (pip install -e '.[test]')")


@pytest.fixture(scope="module")
def day31() -> Scenario:
    return simulator.load_scenario(DAY_31)


def test_the_controls_are_found_from_the_log() -> None:
    base, controls = find_controls(simulator.load_scenario(CARY))
    kinds = {c.key: c.kind for c in controls}
    labels = [c.label for c in controls]
    assert sum(k == "date" for k in kinds.values()) == len(base.events) == 10
    # every candidate's votes in every return: 4 + 4 in October, 2 + 2 in November
    assert sum(k == "count" for k in kinds.values()) == 12
    assert "Who requested the runoff" in labels
    request = next(c for c in controls if c.kind == "candidate")
    assert [v for _, v in request.choices] == ["Sarika Bansal", "Rachel Jordan", "Ryan Eades"]
    # the readings, in words
    assert any(c.kind == "switch" and "write-in" in c.label for c in controls)
    assert any(c.kind == "choice" and "reading 8" in c.label for c in controls)
    # the ids the panel gives its events change nothing the law says
    assert (
        replay(base).contests[0].outcome
        == replay(simulator.load_scenario(CARY)).contests[0].outcome
    )


def test_a_death_moved_across_the_30_day_boundary_changes_the_outcome_shown(
    day31: Scenario,
) -> None:
    app = simulator.whatif_app(day31)
    before = app.outputs["outcome"].value
    assert "changed" not in before and "163-112(b)" in before
    app.set("Bob died", date(2027, 8, 15))  # day 30: 163-112(a) reaches it
    after = app.outputs["outcome"].value
    assert after != before
    assert "ws-changed" in after and "163-112(a)" in after
    assert "as written: nominated Ann" in after
    rulings = app.outputs["rulings"].value
    assert rulings.count('class="ws-new"') == 4 and rulings.count('class="ws-gone"') == 2
    assert "filing reopened" in rulings and "filing_reopened" not in rulings
    assert "reopened filing closes" in app.outputs["deadlines"].value
    # the strip beside it: the sweep of the death's date, flipping at the boundary
    strip = app.outputs["flip"].value
    assert "Bob died" in strip and "16 Aug" in strip
    assert date(2027, 8, 16) in app.state.flips()
    # and back over the boundary: as written again
    app.set("Bob died", date(2027, 8, 16))
    assert "ws-changed" not in app.outputs["outcome"].value
    assert 'class="ws-new"' not in app.outputs["rulings"].value


def test_a_death_that_changes_who_is_elected() -> None:
    app = simulator.whatif_app(simulator.load_scenario(LABOR_DAY))
    assert "elected Cy" in app.outcome
    app.set("Bob died", date(2027, 9, 3))  # filing reopens too late for Cy
    assert "elected Ann" in app.outcome and "ws-changed" in app.outputs["outcome"].value


def test_a_count_below_zero_shows_the_error_and_keeps_the_last_result() -> None:
    app = simulator.whatif_app(simulator.load_scenario(CARY))
    app.set("Sarika Bansal's votes (Wake County)", 2300)  # a good change first
    good = app.state.result
    shown = app.outputs["outcome"].value
    app.set("Sarika Bansal's votes (Wake County)", -1)
    assert app.state.result is good
    assert app.outputs["outcome"].value == shown
    error = app.outputs["error"].value
    assert "expected a whole number of votes" in error and "-1" in error
    assert "last good result" in error
    # a good value clears it
    app.set("Sarika Bansal's votes (Wake County)", 2076)
    assert app.outputs["error"].value == ""


def test_a_date_outside_the_year_and_a_variant_the_loader_refuses(
    day31: Scenario,
) -> None:
    p = PanelState(day31, flip_strip=False)
    good = p.result
    assert not p.set(p.key("Bob died"), date(2028, 1, 3))
    assert "a date in the contest's year" in p.error and p.result is good
    # a requester the control does not offer
    cary = PanelState(simulator.load_scenario(CARY), flip_strip=False)
    last = cary.result
    assert not cary.set(cary.key("Who requested"), "Nobody")
    assert "one of" in cary.error and cary.result is last
    # votes typed as words: the loader refuses the variant, in the words it uses for a file
    assert not cary.set(cary.key("Sarika Bansal's votes (Wake County)"), "lots")
    assert "events[3].counts['Sarika Bansal']: expected a whole number of votes" in cary.error
    assert cary.result is last
    html = outputs_html(cary)["error"]
    assert "ws-error" in html and "expected a whole number of votes" in html
    # a refused value is not kept: moving another control replays with the last good ones
    assert cary.set(cary.key("Rachel Jordan requested a runoff"), date(2023, 10, 20))
    assert cary.result.contests[0].outcome.elected == ("Sarika Bansal",)
    assert cary.values[cary.key("Sarika Bansal's votes (Wake County)")] == 2076


def test_nothing_raises_into_the_notebook(day31: Scenario) -> None:
    app = simulator.whatif_app(day31)
    app.inputs[app.state.key("Bob died")].value = None  # a cleared date picker
    assert "expected" in app.outputs["error"].value
    assert "nominated Ann" in app.outcome


def test_reset_and_the_variant_as_yaml(day31: Scenario) -> None:
    app = simulator.whatif_app(day31)
    app.set("Bob died", date(2027, 8, 15))
    text = app.show_yaml()
    assert "panel-event" not in text  # the panel's own ids stay out of the file
    variant = simulator.parse_scenario(text)
    assert replay(variant).contests[0].rulings == app.state.result.contests[0].rulings
    app.reset()
    assert app.inputs[app.state.key("Bob died")].value == date(2027, 8, 16)
    assert "ws-changed" not in app.outputs["outcome"].value
    assert not app.state.changed


def test_a_reading_switch_replays_under_it() -> None:
    s = simulator.load_scenario(CONTINGENCIES / "112b-reading-8-death-within-30-notice-after.yaml")
    p = PanelState(s, flip_strip=False)
    assert p.set("reading.late_notice", "notice_date")
    assert p.variant.interpretations.late_notice.value == "notice_date"
    assert p.result.contests[0].rulings != p.base_result.contests[0].rulings


def test_a_change_redraws_quickly() -> None:
    p = PanelState(simulator.load_scenario(CARY))
    key = p.key("Rachel Jordan requested a runoff")
    t0 = time.perf_counter()
    for d in (20, 18, 19, 17):
        assert p.set(key, date(2023, 10, d)), p.error
        outputs_html(p)
    per = (time.perf_counter() - t0) / 4
    assert per < 0.5, f"{per * 1000:.0f} ms a redraw"  # 200 ms is the target (make bench)
