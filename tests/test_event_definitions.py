"""Each event type is defined once (simulator/model/events.py) and read from that definition."""

from __future__ import annotations

import pytest

from simulator.law.machine import TRANSITIONS
from simulator.law.vocab import TimerTrigger
from simulator.model.events import DEFINITIONS, EVENT_TYPES, Event, event_types_markdown
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


def test_every_trigger_of_the_state_machine_is_an_event_type_or_a_timer() -> None:
    timers = {t.value for t in TimerTrigger}
    unknown = {t.trigger for t in TRANSITIONS} - set(EVENT_TYPES) - timers
    assert not unknown
