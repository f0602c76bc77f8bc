"""What a sweep varies: the :class:`Variable` protocol and the ready-made variables (an
event's time, a candidate's votes, a margin, an event's field, a contest's fact, a new
event), each making one variant of a scenario from one value."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any, Protocol, runtime_checkable

import attrs

from simulator.analysis.whatif.edits import (
    EditError,
    check_year,
    evolve_event,
    in_scenario_zone,
    position_for,
    reindexed,
)
from simulator.analysis.whatif.forks import fork, replace_event, set_contest
from simulator.model.errors import Problem, ScenarioError
from simulator.model.events import (
    DEFINITIONS,
    MAX_VOTES,
    Event,
    RecountHeld,
    ReturnsReported,
    VotesCast,
)
from simulator.model.scenario import Scenario


@runtime_checkable
class Variable(Protocol):
    """What a sweep varies: called with the base scenario and one value, it returns the
    variant. Any function ``(scenario, value) -> Scenario`` will do (a module-level one when
    ``workers > 1``: lambdas cannot be sent to other processes); the classes below are ready
    made, fast, and say what they vary in :attr:`label`."""

    def __call__(self, scenario: Scenario, value: Any, /) -> Scenario: ...


def _where(ref: int | str) -> str:
    """How a variable's label names the event it varies: ``events[6]`` or ``event 'bob'``."""
    return f"event {ref!r}" if isinstance(ref, str) else f"events[{ref}]"


def _locate(scenario: Scenario, ref: int | str, who: str) -> int:
    """The position in the log of the event at position ``ref``, or whose id is ``ref``."""
    if isinstance(ref, str):
        for e in scenario.events:
            if e.id == ref:
                return e.index
        known = ", ".join(e.id for e in scenario.events if e.id is not None)
        raise EditError(
            f"{who}: expected the id of an event ({known or 'none has one: add an id: field'}); "
            f"found {ref!r}"
        )
    n = len(scenario.events)
    if isinstance(ref, bool) or not isinstance(ref, int) or not -n <= ref < n:
        raise EditError(
            f"{who}: expected the position of an event (0..{n - 1}) or its id; found {ref!r}"
        )
    return ref % n


def _event_at(scenario: Scenario, ref: int | str, who: str) -> Event:
    return scenario.events[_locate(scenario, ref, who)]


def _moved(scenario: Scenario, ref: int | str, new: Event, move: bool) -> Scenario:
    events = list(scenario.events)
    j = _locate(scenario, ref, "an event")
    if not move:
        events[j] = new
        return reindexed(scenario, events)
    del events[j]
    events.insert(position_for(events, new), new)
    return reindexed(scenario, events)


@attrs.frozen
class EventTime:
    """Vary when the event at ``index`` (a position, or the event's id) happened. A value is a
    date (the same local time of day on that date), a datetime (naive: the scenario's zone), a
    timedelta or a whole number of days (from the event's own time). A death's notice keeps its
    distance. With ``move`` the event also moves in the log to where its new time falls.

    >>> import simulator
    >>> s = simulator.parse_scenario('''
    ... format: electsim/v1
    ... title: t
    ... contests: [{id: m, method: nonpartisan-plurality, year: 2027}]
    ... events:
    ...   - {type: candidate_filed, at: "2027-07-06T09:00", candidate: Ann}
    ...   - {type: ballots_printed, at: 2027-09-10}
    ... ''')
    >>> v = EventTime(0)(s, date(2027, 9, 20))
    >>> [(e.index, e.type, e.at.isoformat()) for e in v.events]
    ... # doctest: +NORMALIZE_WHITESPACE
    [(0, 'ballots_printed', '2027-09-10T00:00:00-04:00'),
     (1, 'candidate_filed', '2027-09-20T09:00:00-04:00')]
    """

    index: int | str
    move: bool = True

    @property
    def label(self) -> str:
        return f"{_where(self.index)}.at"

    def __call__(self, scenario: Scenario, value: Any, /) -> Scenario:
        old = _event_at(scenario, self.index, f"EventTime({self.index})")
        local = old.at.astimezone(scenario.tz)
        if isinstance(value, datetime):
            at = in_scenario_zone(value, scenario)
        elif isinstance(value, date):
            at = in_scenario_zone(
                datetime.combine(value, local.time().replace(tzinfo=None)), scenario
            )
        elif isinstance(value, timedelta) or (
            isinstance(value, int) and not isinstance(value, bool)
        ):
            delta = value if isinstance(value, timedelta) else timedelta(days=value)
            at = in_scenario_zone(local.replace(tzinfo=None) + delta, scenario)
        else:
            raise EditError(
                f"{self.label}: expected a date, a datetime, a timedelta or a number of days; "
                f"found {type(value).__name__} {value!r}"
            )
        check_year(at, self.label)
        changes: dict[str, Any] = {"at": at}
        notice = getattr(old, "notice_at", None)
        if isinstance(notice, datetime):
            changes["notice_at"] = at + (notice - old.at)
        return _moved(scenario, self.index, evolve_event(old, **changes), self.move)


def _counts_event(scenario: Scenario, index: int | str, who: str) -> Event:
    e = _event_at(scenario, index, who)
    if not isinstance(e, ReturnsReported | RecountHeld | VotesCast):
        raise EditError(
            f"{who}: expected the position of a votes_cast, returns_reported or recount_held "
            f"event; found {e.type} at {index}"
        )
    return e


def _count_problem(path: str, value: Any) -> ScenarioError:
    expected, found = "a whole number of votes, 0 or more", None
    if isinstance(value, int) and not isinstance(value, bool) and value > MAX_VOTES:
        expected += f" and at most {MAX_VOTES:,}"
        if value.bit_length() > 160:  # (one too long to write out would stop the message)
            found = f"a number of about {int(value.bit_length() * 0.30103)} digits"
    return ScenarioError([Problem(path, expected, found or repr(value))])


def _set_count(scenario: Scenario, ref: int | str, name: str, count: Any, path: str) -> Scenario:
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_VOTES:
        raise _count_problem(path, count)
    index = _locate(scenario, ref, path)
    e = scenario.events[index]
    new: Event
    if isinstance(e, ReturnsReported | RecountHeld):
        counts = dict(e.counts)
        if name not in counts:
            raise EditError(
                f"{path}: expected a candidate named in this event's counts "
                f"({', '.join(counts)}); found {name!r}"
            )
        counts[name] = count
        new = attrs.evolve(e, counts=dict(sorted(counts.items())))
    elif isinstance(e, VotesCast):
        if e.candidate != name:
            raise EditError(
                f"{path}: expected the candidate of this votes_cast event ({e.candidate!r}); "
                f"found {name!r}"
            )
        new = evolve_event(e, count=count)
    else:
        raise EditError(
            f"{path}: expected the position of a votes_cast, returns_reported or recount_held "
            f"event; found {e.type} at {index}"
        )
    events = list(scenario.events)
    events[index % len(events)] = new
    return attrs.evolve(scenario, events=tuple(events))


@attrs.frozen
class Votes:
    """Vary one candidate's votes in the event at ``index`` (a position, or the event's id:
    a ``returns_reported``, ``recount_held`` or ``votes_cast``)."""

    index: int | str
    candidate: str

    @property
    def label(self) -> str:
        return f"{_where(self.index)} votes for {self.candidate}"

    def __call__(self, scenario: Scenario, value: Any, /) -> Scenario:
        _counts_event(scenario, self.index, self.label)
        return _set_count(scenario, self.index, self.candidate, value, self.label)


@attrs.frozen
class Margin:
    """Vary ``candidate``'s lead over ``over`` in the counts of the event at ``index``:
    ``candidate`` gets ``over``'s votes plus the value (which may be negative)."""

    index: int | str
    candidate: str
    over: str

    @property
    def label(self) -> str:
        return f"margin of {self.candidate} over {self.over} ({_where(self.index)})"

    def __call__(self, scenario: Scenario, value: Any, /) -> Scenario:
        e = _counts_event(scenario, self.index, self.label)
        counts = dict(getattr(e, "counts", ()))
        if self.over not in counts:
            raise EditError(
                f"{self.label}: expected a candidate named in this event's counts "
                f"({', '.join(counts)}); found {self.over!r}"
            )
        if isinstance(value, bool) or not isinstance(value, int):
            raise _count_problem(self.label, value)
        return _set_count(
            scenario, self.index, self.candidate, counts[self.over] + value, self.label
        )


@attrs.frozen
class EventField:
    """Vary one field of the event at ``index`` (as written in a scenario file:
    ``EventField(5, "enough_time")`` over ``[True, False]``); checked by the loader."""

    index: int | str
    field: str

    @property
    def label(self) -> str:
        return f"{_where(self.index)}.{self.field}"

    def __call__(self, scenario: Scenario, value: Any, /) -> Scenario:
        return replace_event(scenario, self.index, **{self.field: value})


@attrs.frozen
class ContestFact:
    """Vary a fact of a contest (``ContestFact("seats")``, ``ContestFact("method")``);
    checked by the loader."""

    field: str
    contest: str | None = None

    @property
    def label(self) -> str:
        return f"{self.contest + '.' if self.contest else ''}{self.field}"

    def __call__(self, scenario: Scenario, value: Any, /) -> Scenario:
        return set_contest(scenario, self.contest, **{self.field: value})


@attrs.frozen
class NewEvent:
    """Add an event, at the time given by the value (a date, or a datetime), where that time
    falls in the log: ``NewEvent({"type": "ballots_printed"})`` over :func:`each_day`.
    A date means 00:00 local, like a bare date in a scenario file."""

    event: Event | Mapping[str, Any]

    @property
    def label(self) -> str:
        kind = self.event.type if isinstance(self.event, Event) else self.event.get("type", "?")
        return f"time of a new {kind}"

    def prepare(self, scenario: Scenario) -> NewEvent:
        """The event read once by the loader in ``scenario``'s context (a sweep does this)."""
        if isinstance(self.event, Event):
            return self
        placeholder = max(  # the end of the log, where an appended event is in order
            (e.known_at for e in scenario.events),
            default=datetime(scenario.contests[0].year, 1, 1),
        )
        read = fork(scenario).append({"at": placeholder, **self.event}).build()
        return NewEvent(read.events[-1])

    def __call__(self, scenario: Scenario, value: Any, /) -> Scenario:
        template = self.prepare(scenario).event
        assert isinstance(template, Event)
        if isinstance(value, datetime):
            at = in_scenario_zone(value, scenario)
        elif isinstance(value, date):
            at = in_scenario_zone(datetime(value.year, value.month, value.day), scenario)
        else:
            raise EditError(
                f"{self.label}: expected a date or a datetime; found {type(value).__name__} "
                f"{value!r}"
            )
        check_year(at, self.label)
        changes: dict[str, Any] = {"at": at}
        notice = getattr(template, "notice_at", None)
        if isinstance(notice, datetime):
            changes["notice_at"] = at + (notice - template.at)
        new = evolve_event(template, **changes)
        events = list(scenario.events)
        events.insert(position_for(events, new), new)
        return reindexed(scenario, events)


def variable_label(vary: Any) -> str:
    """The name a variable of a sweep goes by: its ``label``, else its function's name."""
    label = getattr(vary, "label", None)
    if isinstance(label, str):
        return label
    return str(getattr(vary, "__name__", "value"))


def _event_words(kind: str, candidate: Any = None) -> str:
    """An event in words: ``"Bob's death"``, ``"the canvass"``, ``"the filing closed"``."""
    definition = DEFINITIONS.get(kind)
    words = definition.noun if definition is not None else None
    if words is None or ("{c}" in words and not candidate):
        return "the " + kind.replace("_", " ")
    return words.format(c=candidate)


def _in_words(text: str) -> str:
    return text.replace("_", " ")


def describe(vary: Any, scenario: Scenario) -> str:
    """What a variable varies, in words, for a sweep's title, table and chart axis:
    ``"date of Bob's death"``, ``"votes for Rachel Jordan"``; a function's name otherwise.

    >>> import simulator
    >>> s = simulator.parse_scenario('''
    ... format: electsim/v1
    ... title: t
    ... contests: [{id: m, method: nonpartisan-plurality, year: 2027}]
    ... events:
    ...   - {type: candidate_filed, at: "2027-07-06T09:00", candidate: Ann}
    ...   - {id: ann-dies, type: candidate_died, at: 2027-09-01, candidate: Ann}
    ... ''')
    >>> describe(EventTime("ann-dies"), s), describe(EventField(0, "party"), s)
    ("date of Ann's death", "party of Ann's filing")
    """
    try:
        if isinstance(vary, EventTime):
            e = _event_at(scenario, vary.index, vary.label)
            return f"date of {_event_words(e.type, getattr(e, 'candidate', None))}"
        if isinstance(vary, Votes):
            return f"votes for {vary.candidate}"
        if isinstance(vary, Margin):
            return f"lead of {vary.candidate} over {vary.over} (votes)"
        if isinstance(vary, EventField):
            e = _event_at(scenario, vary.index, vary.label)
            what = _event_words(e.type, getattr(e, "candidate", None))
            return f"{_in_words(vary.field)} of {what}"
        if isinstance(vary, ContestFact):
            return _in_words(vary.field)
        if isinstance(vary, NewEvent):
            new = vary.event
            kind = new.type if isinstance(new, Event) else new.get("type")
            who = (
                new.get("candidate")
                if isinstance(new, Mapping)
                else getattr(new, "candidate", None)
            )
            return f"time of {_event_words(str(kind), who)}"
    except EditError:
        pass
    return _in_words(variable_label(vary))
