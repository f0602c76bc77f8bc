"""The registry of event handlers: what each event type does to a contest's state.

A handler is registered beside its definition, the way ``eventsourcing`` registers mutators::

    @handles(CandidateDied)
    def on_died(d: Draft, e: CandidateDied) -> None: ...

The fold (:func:`simulator.engine.fold.step`) looks the handler up by ``type(event)`` in
:data:`HANDLERS`, one dict lookup per event. An event definition that brings its own handler can
register it with :func:`register` instead of the decorator.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from simulator.engine.state import Draft
from simulator.model.events import Event

EventT = TypeVar("EventT", bound=Event)

#: What an event of one type does: it works on the draft of the contest's state
Handler = Callable[[Draft, Any], None]

#: The handler of each event type, by the event's class
HANDLERS: dict[type[Event], Handler] = {}


def register(kind: type[EventT], handler: Callable[[Draft, EventT], None]) -> None:
    """Make ``handler`` what an event of type ``kind`` does (one handler per type)."""
    if kind in HANDLERS:
        raise ValueError(f"{kind.__name__} already has a handler")
    HANDLERS[kind] = handler


def handles(
    kind: type[EventT],
) -> Callable[[Callable[[Draft, EventT], None]], Callable[[Draft, EventT], None]]:
    """Register the decorated function as the handler of events of type ``kind``."""

    def decorate(handler: Callable[[Draft, EventT], None]) -> Callable[[Draft, EventT], None]:
        register(kind, handler)
        return handler

    return decorate
