"""One structuring path: :func:`simulator.structure` turns plain data into a Scenario, the file
loaders use its checks, and what-if edits, imported results and conformance runs hand their data
to it directly. Problems in data built in Python name the path, what was expected and what was
found (there are no lines to give)."""

from __future__ import annotations

import json
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

import simulator
from simulator import ScenarioError, fork, load_scenario, parse_scenario, scenario_to_dict
from simulator.input.loader import structure

NY = ZoneInfo("America/New_York")
LIBRARY = sorted((Path(__file__).resolve().parent.parent / "scenarios").rglob("*.yaml"))


def doc(**changes: object) -> dict[str, object]:
    base: dict[str, object] = {
        "format": "electsim/v1",
        "title": "Mayor of Example, 2027",
        "contests": [{"id": "mayor", "method": "nonpartisan-plurality", "year": 2027}],
        "events": [
            {"type": "candidate_filed", "at": "2027-07-06T10:00", "candidate": "Ann"},
            {"type": "candidate_filed", "at": "2027-07-07T10:00", "candidate": "Bob"},
            {"type": "votes_cast", "at": "2027-11-02T09:00", "candidate": "Ann", "count": 3},
        ],
    }
    base.update(changes)
    return base


def test_structure_is_public_and_gives_the_same_scenario_as_the_json_text() -> None:
    assert simulator.structure is structure
    data = doc()
    assert structure(data) == parse_scenario(json.dumps(data), fmt="json")


@pytest.mark.parametrize("path", LIBRARY[::7], ids=lambda p: p.stem)
def test_every_library_scenario_structures_back_to_itself(path: Path) -> None:
    scenario = load_scenario(path)
    again = structure(scenario_to_dict(scenario), source=scenario.source)
    assert again == scenario


def test_python_values_are_read_like_their_text() -> None:
    # A script may hand over datetimes, dates and Decimals where a file has text.
    typed = doc(
        contests=[
            {
                "id": "mayor",
                "method": "nonpartisan-plurality",
                "year": 2027,
                "date": date(2027, 11, 2),
                "filing_fee": Decimal("12.50"),
                "salary": 2000,
            }
        ],
        events=[
            {"type": "candidate_filed", "at": datetime(2027, 7, 6, 10), "candidate": "Ann"},
            {
                "type": "votes_cast",
                "at": datetime(2027, 11, 2, 13, tzinfo=ZoneInfo("UTC")),
                "candidate": "Ann",
            },
        ],
    )
    texts = doc(
        contests=[
            {
                "id": "mayor",
                "method": "nonpartisan-plurality",
                "year": 2027,
                "date": "2027-11-02",
                "filing_fee": "12.50",
                "salary": 2000,
            }
        ],
        events=[
            {"type": "candidate_filed", "at": "2027-07-06T10:00", "candidate": "Ann"},
            {"type": "votes_cast", "at": "2027-11-02T09:00", "candidate": "Ann"},
        ],
    )
    assert structure(typed) == structure(texts)
    assert structure(typed).events[1].at == datetime(2027, 11, 2, 9, tzinfo=NY)


def test_a_problem_in_python_data_names_path_expected_and_found_without_a_line() -> None:
    data = doc()
    data["events"][2]["count"] = 2.5  # type: ignore[index]
    data["events"].append({"type": "votes_cast", "at": object(), "candidate": "Ann"})  # type: ignore[attr-defined]
    with pytest.raises(ScenarioError) as caught:
        structure(data, source="my script")
    found = {(p.path, p.found): p for p in caught.value.problems}
    count = found["events[2].count", "2.5"]
    assert count.expected == "a whole number of votes, 0 or more"
    assert count.line is None and count.file == "my script"
    at = found["events[3].at", "object"]
    assert at.expected.startswith("an ISO 8601 date or date-time")
    assert str(count) == (
        "my script: events[2].count: expected a whole number of votes, 0 or more; found 2.5"
    )


def test_a_document_that_is_not_a_mapping_is_one_problem() -> None:
    with pytest.raises(ScenarioError) as caught:
        structure(["format", "electsim/v1"])
    (problem,) = caught.value.problems
    assert problem.path == "document"
    assert problem.found == "a list ['format', 'electsim/v1']"


def test_events_out_of_order_in_python_data_are_reported_by_index() -> None:
    data = doc()
    data["events"].append(  # type: ignore[attr-defined]
        {"type": "votes_cast", "at": "2027-11-02T08:00", "candidate": "Bob"}
    )
    with pytest.raises(ScenarioError) as caught:
        structure(data)
    (problem,) = caught.value.problems
    assert problem.path == "events[3].at"
    assert "events[2], 2027-11-02T09:00:00-04:00" in problem.expected
    assert problem.line is None


def test_what_if_edits_accept_values_json_could_not_hold() -> None:
    s = structure(doc())
    later = fork(s).replace(2, at=datetime(2027, 11, 2, 10)).build()
    assert later.events[2].at == datetime(2027, 11, 2, 10, tzinfo=NY)
    assert later.source == "fork of 'Mayor of Example, 2027'"


def test_a_what_if_edit_with_a_value_no_scenario_holds_is_a_scenario_error() -> None:
    s = structure(doc())
    with pytest.raises(ScenarioError) as caught:
        fork(s).replace(2, count=object()).build()
    (problem,) = caught.value.problems
    assert (problem.path, problem.found, problem.line) == ("events[2].count", "object", None)


def test_the_second_of_two_equal_wall_clock_times_is_not_taken_for_the_first() -> None:
    # 01:30 on the fall-back day happens twice; from Python, fold=1 says it is the second (EST)
    # one, and fold=0 says nothing (it is every naive time's default): that one is a problem, as
    # the same time written in a file is. The two compare equal, so no cache may answer for one
    # with the other.
    first = datetime(2027, 11, 7, 1, 30)
    second = datetime(2027, 11, 7, 1, 30, fold=1)
    data = doc(
        events=[
            {"type": "candidate_filed", "at": first.replace(tzinfo=NY), "candidate": "Bob"},
            {"type": "candidate_filed", "at": second, "candidate": "Ann"},
            {"type": "canvass_held", "at": second},
        ]
    )
    offsets = [e.at.utcoffset() for e in structure(data).events]
    assert [o.total_seconds() / 3600 for o in offsets if o is not None] == [-4, -5, -5]
    data["events"][0]["at"] = first
    with pytest.raises(ScenarioError) as caught:
        structure(data)
    (problem,) = caught.value.problems
    assert problem.path == "events[0].at" and "shows twice" in problem.expected
