"""The pieces every what-if edit is made of: the error an edit raises, times worked out in a
scenario's zone, events copied and changed, a log re-indexed and placed in order, and a
scenario written out and read back through the loader to be checked like a file."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from enum import Enum
from typing import Any

import attrs

from simulator.input.loader import scenario_to_dict, structure
from simulator.law.instants import instant
from simulator.model.errors import Problem, ScenarioError, SimulatorError
from simulator.model.events import Event
from simulator.model.scenario import Scenario

_YEARS = (1900, 2200)  # the loader's range for any time in a scenario


class EditError(SimulatorError, ValueError):
    """An edit that cannot be applied: an index out of range, an unknown contest, a value of
    the wrong kind. The message says what was expected, what was found and how to fix it."""


def in_scenario_zone(moment: datetime, scenario: Scenario) -> datetime:
    """An aware time in the scenario's zone. An edit works its times out (a day moved, a delta
    added), so a naive wall time the clocks skip moves forward and one they repeat is the first,
    where a scenario file must say (:func:`simulator.input.loader.wall_clock`); pass an aware
    datetime to say which. The second pass of a repeated hour keeps its fixed offset, as the
    loader keeps it, so that it compares as the instant it is."""
    tz = scenario.tz
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=tz)
    return instant(moment.astimezone(UTC).astimezone(tz))


def check_year(moment: datetime, path: str) -> None:
    """Refuse a time outside the years a scenario file may hold, naming ``path``."""
    if not _YEARS[0] <= moment.year <= _YEARS[1]:
        raise ScenarioError(
            [
                Problem(
                    path,
                    f"a time in the years {_YEARS[0]}-{_YEARS[1]}",
                    moment.isoformat(),
                )
            ]
        )


def each_day(first: date, last: date) -> tuple[date, ...]:
    """Every calendar day from ``first`` to ``last``, both included (times are cut to days).

    >>> each_day(date(2027, 8, 14), date(2027, 8, 16))
    (datetime.date(2027, 8, 14), datetime.date(2027, 8, 15), datetime.date(2027, 8, 16))
    """
    a = first.date() if isinstance(first, datetime) else first
    b = last.date() if isinstance(last, datetime) else last
    return tuple(a + timedelta(days=i) for i in range((b - a).days + 1))


def _plain(value: Any) -> Any:
    """A value given to an edit, in the plain form of a scenario file: enums as their values,
    tuples and sets as lists (what the file format has); anything else as it is, for
    :func:`~simulator.input.loader.structure` to accept or to report with its path."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    return value


def event_dict(scenario: Scenario, event: Event) -> dict[str, Any]:
    """One typed event in the plain form of a scenario file (with its contest)."""
    doc = scenario_to_dict(attrs.evolve(scenario, events=(event,)))["events"][0]
    doc["contest"] = event.contest
    return dict(doc)


def evolve_event(event: Event, **changes: Any) -> Event:
    """``attrs.evolve`` for events. The ``counts`` converter of ``returns_reported`` and
    ``recount_held`` takes a mapping only, and ``attrs.evolve`` feeds it the stored tuple of
    pairs, so the counts are passed again as a dict."""
    counts = getattr(event, "counts", None)
    if counts is not None and "counts" not in changes:
        changes["counts"] = dict(counts)
    return attrs.evolve(event, **changes)


def reindexed(scenario: Scenario, events: Iterable[Event]) -> Scenario:
    """``scenario`` with ``events`` as its log, each ``index`` its position."""
    return attrs.evolve(
        scenario,
        events=tuple(e if e.index == i else evolve_event(e, index=i) for i, e in enumerate(events)),
    )


def position_for(events: Sequence[Event], moving: Event) -> int:
    """Where ``moving`` goes in a log kept in the order the board learned things: before the
    first event the board learned strictly later."""
    known = moving.known_at
    for i, e in enumerate(events):
        if e.known_at > known:
            return i
    return len(events)


def shifted(event: Event, delta: timedelta, scenario: Scenario, path: str) -> Event:
    """``event`` moved by ``delta`` of wall-clock time; a death's notice moves with it."""
    at = in_scenario_zone(event.at.replace(tzinfo=None) + delta, scenario)
    check_year(at, f"{path}.at")
    changes: dict[str, Any] = {"at": at}
    notice = getattr(event, "notice_at", None)
    if isinstance(notice, datetime):
        changes["notice_at"] = max(
            at, in_scenario_zone(notice.replace(tzinfo=None) + delta, scenario)
        )
    return evolve_event(event, **changes)


def validated(
    scenario: Scenario,
    contests: Sequence[Mapping[str, Any]] | None,
    events: Sequence[Event | Mapping[str, Any]],
) -> Scenario:
    """The scenario in the scenario file format, with ``contests`` and ``events`` in place of
    its own, checked again by :func:`~simulator.input.loader.structure` like a file."""
    doc = scenario_to_dict(attrs.evolve(scenario, events=()))
    if contests is not None:
        doc["contests"] = [_plain(dict(c)) for c in contests]
    typed = [e for e in events if isinstance(e, Event)]
    written = iter(scenario_to_dict(attrs.evolve(scenario, events=tuple(typed)))["events"])
    several = len(scenario.contests) != 1
    out: list[Any] = []
    for e in events:
        if isinstance(e, Event):
            d = next(written)
            if not several and e.contest != scenario.contests[0].id:
                d["contest"] = e.contest
            out.append(d)
        else:
            out.append(_plain(dict(e)))
    doc["events"] = out
    source = scenario.source or ""
    if not source.startswith("fork of "):  # a fork of a fork names the original
        named = source and not source.startswith("<")
        source = f"fork of {source if named else repr(scenario.title)}"
    result = structure(doc, source=source)
    return attrs.evolve(result, source=source)
