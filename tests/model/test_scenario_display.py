"""A scenario, a contest and the readings show in Jupyter as a few lines of words, not as
every field of their classes."""

from __future__ import annotations

from pathlib import Path

from IPython.lib.pretty import pretty

from simulator.input.loader import load_scenario
from simulator.law.readings import Interpretations, ThreeWayTie

ROOT = Path(__file__).resolve().parents[2]


def test_a_scenario_shows_its_contests_events_and_readings_in_words() -> None:
    scenario = load_scenario(ROOT / "scenarios/runoff/cary-2023-district-d.yaml")
    shown = pretty(scenario).splitlines()
    assert shown[0] == "Town of Cary Town Council District D, 2023: 1 contest, 10 events"
    assert shown[1] == (
        "  cary-d: Town of Cary - Town Council District D; nonpartisan runoff, election of "
        "2023, 1 seat"
    )
    assert "candidate filed: 3" in shown[2] and "returns reported: 4" in shown[2]
    assert shown[3] == "  readings: the defaults"
    assert len(shown) <= 6 and "Interpretations(" not in pretty(scenario)


def test_readings_show_only_what_differs_from_the_defaults() -> None:
    assert pretty(Interpretations()) == "readings: the documented defaults"
    changed = Interpretations(write_ins_in_total=False, three_way_tie=ThreeWayTie.LOT)
    assert pretty(changed) == (
        "readings: write-in votes count in the total: no (interpretation write_ins_in_total: "
        "false); a tie for first among three or more: lot (interpretation three_way_tie: lot)"
    )


def test_a_deadline_and_a_fork_show_in_a_line_of_words() -> None:
    from simulator.analysis.whatif import fork
    from simulator.engine.replay import replay

    scenario = load_scenario(ROOT / "scenarios/runoff/cary-2023-district-d.yaml")
    deadlines = replay(scenario).contests[0].deadlines
    request = next(d for d in deadlines if d.kind.value == "runoff_request")
    assert pretty(request).startswith(
        "runoff request deadline: Thu 2023-10-19 12:00 (G.S. 163-293(c)); noon"
    )
    assert "_" not in pretty(request)
    edited = fork(scenario).add(
        {"type": "candidate_died", "at": "2023-10-01", "candidate": "Ryan Eades"}
    )
    assert pretty(edited) == (
        "a fork of 'Town of Cary Town Council District D, 2023': 11 events in its log (10 in "
        "the scenario's); .build() makes the scenario"
    )
