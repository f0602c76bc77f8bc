"""The common shapes of events the events loop reads quickly: an event type without special
fields (no field but ``type``, ``at``, ``contest`` and, where the type has them, ``candidate``
and ``count``), with the builders that make its events one at a time and a run at once
(:func:`simulator.model.events.builder`, :func:`simulator.model.events.column_builder`)."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from simulator.input.loader.families import FILERS
from simulator.model.events import (
    EVENT_TYPES,
    CandidateDied,
    Event,
    VotesCast,
    builder,
    column_builder,
)


@attrs.frozen
class QuickPlan:
    """An event type whose common shape the events loop reads in a few look-ups: no field but
    ``type``, ``at``, ``contest`` and, where the type has them, ``candidate`` and ``count``."""

    allowed: frozenset[str]
    has_name: bool  # it names a candidate
    filer: bool  # and that is a filing
    bare: Callable[..., Event]  # builders (simulator.model.events.builder): no name,
    named: Callable[..., Event]  # a candidate,
    counted: Callable[..., Event]  # a candidate and a count (where the type has ``count``)
    #: the same three for a run of events (simulator.model.events.column_builder)
    many_bare: Callable[..., list[Event]]
    many_named: Callable[..., list[Event]]
    many_counted: Callable[..., list[Event]]
    #: a run of these is kept as columns (simulator.model.eventlog.VoteColumns), not as events
    columns: bool = False


def _quick_plans() -> dict[str, QuickPlan]:
    plans = {}
    for name, cls in EVENT_TYPES.items():
        own = set(cls.fields)
        if cls is CandidateDied or not own <= {"candidate", "party", "fee", "count", "precinct"}:
            continue
        common = own & {"candidate", "count"}
        has_name = "candidate" in common
        named = builder(cls, "candidate") if has_name else builder(cls)
        many_named = column_builder(cls, "candidate") if has_name else column_builder(cls)
        plans[name] = QuickPlan(
            allowed=frozenset({"type", "at", "contest", *common}),
            has_name=has_name,
            filer=name in FILERS,
            bare=named if has_name else builder(cls),
            named=named,
            counted=builder(cls, "candidate", "count") if "count" in common else named,
            many_bare=many_named if has_name else column_builder(cls),
            many_named=many_named,
            many_counted=(
                column_builder(cls, "candidate", "count") if "count" in common else many_named
            ),
            columns=cls is VotesCast,
        )
    return plans


QUICK_PLANS = _quick_plans()
