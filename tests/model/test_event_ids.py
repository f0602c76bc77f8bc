"""Events can carry a stable `id:`; the loader checks it and what-if edits address events by it.

An id names one event of a scenario for as long as the scenario lives: a notebook that sweeps
"the returns" by id keeps sweeping the returns when an event is added before them, where a
position would silently point at another event.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator import (
    EventTime,
    ScenarioError,
    Votes,
    fork,
    load_scenario,
    parse_scenario,
    replay,
    sweep,
)
from simulator.analysis.whatif import EditError
from simulator.input.loader import dump_scenario
from simulator.model.scenario import Scenario
from simulator.whatif import EventField, Margin

RUNOFF = """
format: electsim/v1
title: Example council seat, 2027
contests: [{id: seat-a, seats: 1, method: nonpartisan-runoff, year: 2027}]
events:
  - {type: candidate_filed, at: 2027-07-06, candidate: Ann}
  - {type: candidate_filed, at: 2027-07-07, candidate: Bob}
  - {id: cy-files, type: candidate_filed, at: 2027-07-08, candidate: Cy}
  - {id: returns, type: returns_reported, at: "2027-10-05T21:00",
     counts: {Ann: 480, Bob: 420, Cy: 100}}
  - {id: canvass, type: canvass_held, at: "2027-10-12T11:00"}
"""


@pytest.fixture
def runoff() -> Scenario:
    return parse_scenario(RUNOFF, source="runoff.yaml")


def test_an_event_keeps_the_id_its_scenario_gives_it(runoff: Scenario) -> None:
    assert [e.id for e in runoff.events] == [None, None, "cy-files", "returns", "canvass"]


def test_ids_survive_writing_the_scenario_and_reading_it_back(
    runoff: Scenario, tmp_path: Path
) -> None:
    dump_scenario(runoff, tmp_path / "s.yaml")
    written = yaml.safe_load((tmp_path / "s.yaml").read_text())
    assert written["events"][3]["id"] == "returns" and "id" not in written["events"][0]
    assert load_scenario(tmp_path / "s.yaml").events == runoff.events


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("returns", "an id no other event uses (events[3] is 'returns' already)"),
        ("", "an event id: letters, digits"),
        ("two words", "an event id: letters, digits"),
        ("7", None),  # a quoted number is a fine id
        (7, "an event id: letters, digits"),
    ],
)
def test_an_event_id_is_a_simple_name_used_once(
    runoff: Scenario, value: object, expected: str | None
) -> None:
    text = RUNOFF.replace(
        '  - {id: canvass, type: canvass_held, at: "2027-10-12T11:00"}',
        f"  - {{id: {json.dumps(value)}, type: canvass_held, at: '2027-10-12T11:00'}}",
    )
    if expected is None:
        assert parse_scenario(text).events[-1].id == str(value)
        return
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, source="s.yaml")
    (problem,) = caught.value.problems
    assert problem.path == "events[4].id"
    assert expected in problem.expected


def test_fork_edits_address_events_by_id_wherever_they_moved(runoff: Scenario) -> None:
    early = {"type": "candidate_filed", "at": "2027-07-05", "candidate": "Dee"}
    f = fork(runoff).insert(0, early)  # every position moves by one; the ids do not
    changed = f.replace("returns", counts={"Ann": 520, "Bob": 400, "Cy": 80, "Dee": 0}).build()
    assert changed.events[4].id == "returns" and dict(changed.events[4].counts)["Ann"] == 520
    assert replay(changed).contests[0].outcome.elected == ("Ann",)
    later = fork(runoff).shift("canvass", days=1).remove("cy-files")
    with pytest.raises(ScenarioError, match="never filed"):
        later.build()  # Cy's votes are in the returns, and Cy no longer filed
    with pytest.raises(EditError, match=r"expected one of the ids in the log \(cy-files, returns"):
        fork(runoff).remove("no-such-event")


def test_sweep_variables_address_events_by_id(runoff: Scenario) -> None:
    by_id = sweep(runoff, Votes("returns", "Bob"), range(400, 600, 50), progress=False)
    by_pos = sweep(runoff, Votes(3, "Bob"), range(400, 600, 50), progress=False)
    assert by_id.rows == by_pos.rows
    assert Votes("returns", "Bob").label == "event 'returns' votes for Bob"  # in messages
    assert by_id.variable == by_pos.variable == "votes for Bob"  # in tables and charts: words
    margin = sweep(runoff, Margin("returns", "Bob", over="Ann"), [-1, 0, 1], progress=False)
    assert [(r.elected, r.ruling) for r in margin] == [
        (("Ann",), "elected"),
        ((), "recount_required"),  # a tie for the most votes: G.S. 163-293(d)(1)
        (("Bob",), "elected"),
    ]
    moved = EventTime("canvass")(runoff, date(2027, 10, 13))
    assert moved.events[-1].id == "canvass" and moved.events[-1].at.day == 13
    assert EventField("returns", "precinct")(runoff, "P1").events[3].precinct == "P1"
    with pytest.raises(EditError, match="expected the id of an event"):
        Votes("nope", "Bob")(runoff, 1)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["Dee", "Eve", "Flo"]), unique=True, max_size=3), st.data())
def test_an_id_names_the_same_event_however_the_log_is_edited_before_it(
    names: list[str], data: st.DataObject
) -> None:
    runoff = parse_scenario(RUNOFF)
    f = fork(runoff)
    for name in names:  # filings inserted anywhere before the returns move them along
        where = data.draw(st.integers(0, 3), label=f"position of {name}'s filing")
        at = f.build().events[where].at.isoformat()  # the log stays in order of time
        f = f.insert(where, {"type": "candidate_filed", "at": at, "candidate": name})
    edited = f.build()
    (returns,) = [e for e in edited.events if e.id == "returns"]
    by_id = sweep(edited, Votes("returns", "Bob"), [400, 490], progress=False)
    by_position = sweep(edited, Votes(returns.index, "Bob"), [400, 490], progress=False)
    assert by_id.rows == by_position.rows
    assert [e.id for e in edited.events if e.id] == ["cy-files", "returns", "canvass"]
