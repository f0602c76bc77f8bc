"""Each event type is defined once (simulator/model/events.py) and read from that definition."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import attrs
import pytest

from simulator import parse_scenario, replay
from simulator.engine.handlers.registry import HANDLERS, handles
from simulator.engine.state import Draft
from simulator.input.schema import scenario_schema
from simulator.model.errors import ScenarioError
from simulator.model.events import (
    DEFINITIONS,
    EVENT_TYPES,
    CandidateEvent,
    Event,
    Family,
    Mark,
    define,
    event_types_markdown,
    forget,
)
from simulator.views.charts.styles import mark_of
from tests.docs_sections import SECTIONS, written


@pytest.mark.parametrize(("page", "name", "make"), SECTIONS, ids=[s[1] for s in SECTIONS])
def test_each_generated_section_of_the_docs_is_what_the_code_makes(page, name, make) -> None:
    assert written(page, name) == make().strip(), (
        f"docs/{page} is out of date: run python -m tests.docs_sections"
    )


def test_the_docs_list_every_event_type_in_the_order_defined() -> None:
    listed = [line[5:-1] for line in event_types_markdown().splitlines() if line.startswith("### ")]
    assert listed == list(EVENT_TYPES) == list(DEFINITIONS)


def test_every_definition_is_of_its_own_class_and_name() -> None:
    for name, definition in DEFINITIONS.items():
        assert definition.type == name == definition.cls.type
        assert issubclass(definition.cls, Event) and EVENT_TYPES[name] is definition.cls
        assert definition.summary and definition.text and definition.example.startswith("- {type: ")
        assert f"type: {name}" in definition.example


def test_no_two_event_types_share_a_marker() -> None:
    # a mark must read without its colour
    markers = [d.mark.marker for d in DEFINITIONS.values()]
    assert len(markers) == len(set(markers))


@pytest.fixture
def challenge_filed() -> Iterator[type[Event]]:
    """A new event type, added the way docs/development.md says: one definition, plus its law
    (here a handler that records nothing further), taken back out afterwards."""

    @define(
        family=Family.FILING,
        summary="a voter challenged a candidate's qualifications",
        text="A challenge to a candidate's qualifications was filed. Field: `candidate`.",
        example="- {type: challenge_filed, at: 2027-07-20, candidate: Ann Smith}",
        mark=Mark("|", "#444444", 7.0, "{name} challenged", "{n} challenges"),
    )
    @attrs.frozen(kw_only=True)
    class ChallengeFiled(CandidateEvent):
        type: ClassVar[str] = "challenge_filed"

    @handles(ChallengeFiled)
    def on_challenge_filed(d: Draft, e: ChallengeFiled) -> None:
        """The law of the test's event: a challenge alone changes nothing."""

    try:
        yield ChallengeFiled
    finally:
        forget("challenge_filed")
        del HANDLERS[ChallengeFiled]


SCENARIO = """\
format: electsim/v1
title: A challenge
contests: [{id: mayor, method: nonpartisan-plurality, year: 2027}]
events:
  - {type: candidate_filed, at: 2027-07-06, candidate: Ann Smith}
  - {type: candidate_filed, at: 2027-07-07, candidate: Bob Jones}
  - {type: challenge_filed, at: 2027-07-20, candidate: Ann Smith}
  - {type: returns_reported, at: "2027-11-02T21:00", counts: {Ann Smith: 10, Bob Jones: 5}}
  - {type: canvass_held, at: "2027-11-12T11:00"}
"""


def test_an_event_type_defined_once_is_read_validated_replayed_drawn_and_documented(
    challenge_filed: type[Event],
) -> None:
    # the loader accepts it, with its fields read and checked like any event's
    scenario = parse_scenario(SCENARIO)
    (challenge,) = [e for e in scenario.events if isinstance(e, challenge_filed)]
    assert challenge.names() == ("Ann Smith",)
    with pytest.raises(ScenarioError, match=r"events\[2\]"):
        parse_scenario(
            SCENARIO.replace("candidate: Ann Smith}\n  - {type: ret", "}\n  - {type: ret")
        )
    # the schema has a branch for it, with the definition's summary
    branches = scenario_schema()["properties"]["events"]["items"]["oneOf"]
    (branch,) = [b for b in branches if b["title"] == "challenge_filed"]
    assert branch["description"] == "a voter challenged a candidate's qualifications"
    assert branch["required"] == ["type", "at", "candidate"]
    # the replay hands it to its handler and shows it on the timeline; the law is unchanged
    contest = replay(scenario).contests[0]
    assert [t.kind for t in contest.timeline].count("challenge_filed") == 1
    assert contest.outcome.elected == ("Ann Smith",)
    # the chart marks it, and the docs list it
    assert mark_of("challenge_filed")[0] == "|"
    assert "### `challenge_filed`" in event_types_markdown()
    assert list(EVENT_TYPES)[-1] == list(DEFINITIONS)[-1] == "challenge_filed"


def test_a_type_taken_back_out_is_unknown_again(challenge_filed: type[Event]) -> None:
    forget("challenge_filed")
    try:
        with pytest.raises(ScenarioError, match="challenge_filed"):
            parse_scenario(SCENARIO)
    finally:
        define(**_definition_of(challenge_filed))(challenge_filed)


def _definition_of(cls: type[Event]) -> dict[str, object]:
    return {
        "family": Family.FILING,
        "summary": "a voter challenged a candidate's qualifications",
        "text": "A challenge.",
        "example": "- {type: challenge_filed}",
        "mark": Mark("|", "#444444", 7.0, "{name} challenged", "{n} challenges"),
    }


def test_a_name_is_defined_only_once() -> None:
    with pytest.raises(ValueError, match="candidate_filed"):
        define(**_definition_of(Event))(EVENT_TYPES["candidate_filed"])
