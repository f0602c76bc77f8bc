"""The fold's closed vocabularies are enums whose values are the strings the outputs show."""

from __future__ import annotations

import pytest

from simulator.engine.handlers import HANDLERS
from simulator.engine.handlers.registry import handles
from simulator.engine.timers import TIMER_HANDLERS
from simulator.law.machine import TRANSITIONS
from simulator.law.readings import (
    DepartedLeaderShort,
    DepartedTiedForASeat,
    EarlyRequest,
    GroupRunoffBallot,
    Interpretations,
    LateNotice,
    ThreeWayTie,
)
from simulator.law.vocab import TimerTrigger
from simulator.model.events import EVENT_TYPES, FilingOpened


def test_every_trigger_of_the_transition_table_is_an_event_type_or_a_timer() -> None:
    triggers = {t.trigger for t in TRANSITIONS}
    events = set(EVENT_TYPES)
    timers = {t.value for t in TimerTrigger}
    assert triggers - events - {"end_of_log"} <= timers
    # and every timer is handled and can move the contest somewhere the table allows
    assert set(TIMER_HANDLERS) == set(TimerTrigger)
    assert timers <= triggers


def test_each_event_type_takes_its_name_from_the_vocabulary_the_machine_reads() -> None:
    from simulator.law.vocab import EventType

    assert {t.value for t in EventType} == set(EVENT_TYPES)
    assert all(isinstance(t.trigger, EventType | TimerTrigger) for t in TRANSITIONS)


def test_every_event_type_has_one_handler_registered_beside_it() -> None:
    assert set(HANDLERS) == set(EVENT_TYPES.values())
    for kind, handler in HANDLERS.items():
        assert handler.__module__.startswith("simulator.engine.handlers."), kind
    # a second handler for a type is refused: one event type, one handler
    with pytest.raises(ValueError, match="FilingOpened already has a handler"):
        handles(FilingOpened)(lambda d, e: None)
    assert HANDLERS[FilingOpened].__name__ == "on_filing_opened"


def test_every_effect_of_the_departures_table_has_one_function_that_applies_it() -> None:
    from simulator.engine.handlers.departure_effects import APPLIERS, applies
    from simulator.law.tables.departures import EffectKind

    assert set(APPLIERS) == set(EffectKind)
    with pytest.raises(ValueError, match="already has a function"):
        applies(EffectKind.REOPEN)(lambda d, eff, left: None)


def test_a_reading_given_by_name_becomes_its_enum_member() -> None:
    chosen = Interpretations(
        early_request="reject",  # as a scenario file writes it
        three_way_tie="lot",
        departed_leader_short="request",
    )
    assert chosen.early_request is EarlyRequest.REJECT
    assert chosen.three_way_tie is ThreeWayTie.LOT
    assert chosen.departed_leader_short is DepartedLeaderShort.REQUEST
    assert chosen.setting("departed_leader_short") == "request"
    assert chosen.setting("three_way_tie") == "lot"
    assert type(chosen.setting("three_way_tie")) is str
    assert chosen.setting("harmless_ties") is True


def test_the_choices_listed_for_each_reading_are_its_enum_values_default_first() -> None:
    default = Interpretations()
    for name, enum in (
        ("early_request", EarlyRequest),
        ("group_runoff_ballot", GroupRunoffBallot),
        ("three_way_tie", ThreeWayTie),
        ("late_notice", LateNotice),
        ("departed_leader_short", DepartedLeaderShort),
        ("departed_tied_for_a_seat", DepartedTiedForASeat),
    ):
        assert Interpretations.CHOICES[name] == tuple(m.value for m in enum)
        assert Interpretations.CHOICES[name][0] == getattr(default, name)
