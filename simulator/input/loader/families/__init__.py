"""The validation of each event type, keyed by the type and grouped by family (filing,
departures, votes, runoffs, canvass, the board's acts): :data:`VALIDATORS` gives the validator
of each type of :data:`simulator.model.events.EVENT_TYPES`, and :func:`event_specs` what the
events loop needs to know of each type (its fields, their readers, its validator)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import attrs

from simulator.input.loader.event_checks import FIELD_READERS, EventValidator, names_nobody
from simulator.input.loader.families import board, canvass, departures, filing, runoffs, votes
from simulator.model.events import EVENT_TYPES, Event

FILERS = filing.FILERS

VALIDATORS: dict[str, EventValidator] = {
    **filing.VALIDATORS,
    **departures.VALIDATORS,
    **votes.VALIDATORS,
    **runoffs.VALIDATORS,
    **canvass.VALIDATORS,
    **board.VALIDATORS,
}
assert VALIDATORS.keys() == EVENT_TYPES.keys(), "a bundled event type without its validation"


@attrs.frozen
class EventSpec:
    """What the events loop needs to know about one event type, computed once."""

    cls: type[Event]
    allowed: frozenset[str]
    names: tuple[str, ...]
    required: tuple[str, ...]
    checks: tuple[tuple[str, Callable[[Any], Any]], ...]
    validate: EventValidator


def event_specs(time: Callable[[Any], datetime]) -> dict[str, EventSpec]:
    """Each event type's spec, its times (``notice_at``) read by ``time``."""
    readers: dict[str, Callable[[Any], Any]] = {**FIELD_READERS, "notice_at": time}
    specs = {}
    for name, cls in EVENT_TYPES.items():
        allowed = ("id", "type", "at", "contest", *cls.fields)
        specs[name] = EventSpec(
            cls=cls,
            allowed=frozenset(allowed),
            names=allowed,
            required=cls.required,
            checks=tuple((field, readers[field]) for field in cls.fields),
            # a type defined with no checks of its own beyond its fields' (see docs/development.md)
            validate=VALIDATORS.get(name, names_nobody),
        )
    return specs
