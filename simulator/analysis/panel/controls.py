"""The controls of a what-if panel, found from a scenario's log: the moment (date and time, to
the minute) of each event, the votes of each candidate in each ``returns_reported`` and
``recount_held``, the candidate of each runoff request, and the interpretation readings; the
events a person may add as hypothetical ones; and the variant of the scenario that a set of
values makes."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, time, timedelta
from enum import Enum
from typing import Any

import attrs

from simulator.analysis.whatif.edits import EditError, evolve_event
from simulator.analysis.whatif.forks import fork
from simulator.analysis.whatif.variables import EventTime, Votes
from simulator.law.readings import ABOUT, Interpretations
from simulator.model.errors import Problem, ScenarioError
from simulator.model.events import (
    DEFINITIONS,
    Event,
    RecountHeld,
    ReturnsReported,
    RunoffRequested,
)
from simulator.model.scenario import Scenario

#: the prefix of the ids the panel gives events that have none, to find them after a move
_ID = "panel-event-"
#: the prefix of the ids of the events a person adds in the panel (``hypothetical-1``, ...):
#: they stay in the variant copied as YAML, which they mark as made up
HYPOTHETICAL = "hypothetical-"

#: the readings in words, each with its switch as a scenario writes it (docs/readings.md
#: explains each)
READING_WORDS = {name: f"{about.words} (interpretation {name})" for name, about in ABOUT.items()}


def words(identifier: str) -> str:
    """An identifier as words: ``runs_its_course`` -> ``runs its course``."""
    return identifier.replace("_", " ")


@attrs.frozen
class Control:
    """One thing the panel lets a person change.

    ``kind`` is ``moment`` (an event's date and time, to the minute, in the scenario's zone, as
    a naive datetime: a day in ``first``..``last``), ``count`` (a candidate's votes in a
    ``returns_reported`` or ``recount_held``), ``candidate`` (who made a request:
    ``choices``), ``switch`` (a yes/no reading) or ``choice`` (a reading with several answers:
    ``choices``)."""

    key: str
    kind: str
    label: str
    original: Any
    event: str | None = None  # the id of the event it changes (given by the panel if need be)
    contest: str | None = None
    candidate: str | None = None
    choices: tuple[tuple[str, Any], ...] = ()  # (words, value)
    first: date | None = None
    last: date | None = None
    group: str = ""
    #: whether the control belongs to an event the panel added (not in the scenario as written)
    hypothetical: bool = False
    #: the days the "where does it flip" strip sweeps: the contest's calendar (its events,
    #: rulings and deadlines as written), two weeks either side, within ``first``..``last``
    span: tuple[date, date] | None = None


def with_ids(scenario: Scenario) -> Scenario:
    """The scenario with an id on every event, so a control finds its event after a move.

    The ids are set on the events as they are, in one pass: the loader has read them already,
    and a name of the panel's form is a valid id (a fork would copy the whole log at each
    event, which made the panel's start quadratic in the log's length)."""
    used = {e.id for e in scenario.events if e.id is not None}
    if len(used) == len(scenario.events):
        return scenario
    events = []
    for e in scenario.events:
        if e.id is None:
            name = f"{_ID}{e.index}"
            while name in used:
                name += "-"
            used.add(name)
            e = evolve_event(e, id=name)
        events.append(e)
    return attrs.evolve(scenario, events=tuple(events))


def is_hypothetical(event_id: str | None) -> bool:
    """Whether an event is one the panel added (its id ``hypothetical-1``, ...)."""
    return event_id is not None and event_id.startswith(HYPOTHETICAL)


def local_moment(at: datetime, scenario: Scenario) -> datetime:
    """An instant as the panel's controls hold it: the wall-clock time in the scenario's zone,
    naive."""
    return at.astimezone(scenario.tz).replace(tzinfo=None)


def _bounds(scenario: Scenario, contest: str) -> tuple[date, date]:
    """The days a date control of ``contest`` ranges over: its contest's year."""
    year = scenario.contest(contest).year
    return date(year, 1, 1), date(year, 12, 31)


def _who(e: Event) -> str:
    name = getattr(e, "candidate", None)
    what = DEFINITIONS[e.type].verb if e.type in DEFINITIONS else words(e.type)
    if isinstance(name, str) and e.type != "votes_cast":
        return f"{name} {what}"
    precinct = getattr(e, "precinct", None)
    return f"{what[0].upper()}{what[1:]}" + (f" ({precinct})" if precinct else "")


def _span(bounds: tuple[date, date], days: tuple[date, date] | None) -> tuple[date, date]:
    """The days a date control's strip sweeps: its contest's calendar as written (``days``, its
    first and last), two weeks either side, within the control's own bounds."""
    first, last = days or bounds
    return (
        max(bounds[0], first - timedelta(days=14)),
        min(bounds[1], last + timedelta(days=14)),
    )


def find_controls(
    scenario: Scenario, *, calendars: Mapping[str, tuple[date, date] | None] | None = None
) -> tuple[Scenario, tuple[Control, ...]]:
    """The scenario with an id on each event, and the controls a person would vary.

    ``calendars``, the first and last day of each contest's timeline as written (by contest
    id), gives each date control the days its strip sweeps (its ``span``)."""
    base = with_ids(scenario)
    many = len(base.contests) > 1
    out: list[Control] = []
    # what each contest's controls share, found once per contest: its label, its year's days,
    # the names who filed (each request's choices)
    groups = {c.id: c.label if many else "" for c in base.contests}
    bounds = {c.id: _bounds(base, c.id) for c in base.contests}
    spans = {cid: _span(bounds[cid], days) for cid, days in (calendars or {}).items()}
    filed: dict[str, dict[str, str]] = {}
    for e in base.events:
        name = getattr(e, "candidate", None)
        if e.type == "candidate_filed" and isinstance(name, str):
            filed.setdefault(e.contest, {})[name] = name
    choices = {cid: tuple((n, n) for n in names) for cid, names in filed.items()}
    for e in base.events:
        assert e.id is not None
        group = groups[e.contest]
        first, last = bounds[e.contest]
        made_up = is_hypothetical(e.id)
        out.append(
            Control(
                f"{e.id}.at",
                "moment",
                f"{_who(e)}, at",
                local_moment(e.at, base),
                e.id,
                e.contest,
                first=first,
                last=last,
                group=group,
                hypothetical=made_up,
                span=spans.get(e.contest),
            )
        )
        if isinstance(e, ReturnsReported | RecountHeld):
            where = f" ({e.precinct})" if isinstance(e, ReturnsReported) and e.precinct else ""
            if isinstance(e, RecountHeld):
                where = " in the recount"
            for cand, n in e.counts:
                out.append(
                    Control(
                        f"{e.id}.votes.{cand}",
                        "count",
                        f"{cand}'s votes{where}",
                        n,
                        e.id,
                        e.contest,
                        candidate=cand,
                        group=group,
                        hypothetical=made_up,
                    )
                )
        if isinstance(e, RunoffRequested):
            names = choices.get(e.contest, ())
            if e.candidate not in filed.get(e.contest, {}):
                names = (*names, (e.candidate, e.candidate))
            out.append(
                Control(
                    f"{e.id}.candidate",
                    "candidate",
                    "Who requested the runoff",
                    e.candidate,
                    e.id,
                    e.contest,
                    choices=names,
                    group=group,
                    hypothetical=made_up,
                )
            )
    readings = base.interpretations
    for a in attrs.fields(Interpretations):
        value = getattr(readings, a.name)
        text = READING_WORDS.get(a.name, words(a.name))
        if isinstance(value, bool):
            out.append(Control(f"reading.{a.name}", "switch", text, value, group="readings"))
        elif isinstance(value, Enum):
            options = tuple((words(m.value), m.value) for m in type(value))
            out.append(
                Control(
                    f"reading.{a.name}",
                    "choice",
                    text,
                    value.value,
                    choices=options,
                    group="readings",
                )
            )
    return base, tuple(out)


def _problem(path: str, expected: str, found: Any) -> ScenarioError:
    return ScenarioError([Problem(path, expected, repr(found))])


def check_value(control: Control, value: Any) -> Any:
    """``value`` as the control holds it, or a :class:`ScenarioError` saying what is wrong."""
    path = control.label
    if control.kind == "moment":
        return check_moment(value, control.original, control.first, control.last, path)
    if control.kind == "count":
        # a number typed on the page arrives as text; whether it is a count of votes is the
        # loader's to say, in the words it uses for a file
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                return value
        return value
    if control.kind == "switch":
        if value in ("true", "false"):
            value = value == "true"
        if not isinstance(value, bool):
            raise _problem(path, "yes or no", value)
        return value
    allowed = [v for _, v in control.choices]
    if value not in allowed:
        raise _problem(path, f"one of {', '.join(map(str, allowed))}", value)
    return value


def check_moment(
    value: Any, like: datetime | None, first: date | None, last: date | None, path: str
) -> datetime:
    """``value`` as a moment, to the minute (a naive datetime in the scenario's zone), or a
    :class:`ScenarioError` saying what is wrong. Taken: a datetime, text like
    ``2023-10-19T11:59`` (what a page's date-time box sends) or ``2023-10-19 11:59``, or a day
    alone (a date, or text like ``2023-10-19``), which keeps the time of day of ``like``."""
    expected = "a date and time like 2023-10-19T11:59"
    if isinstance(value, str):
        text = value.strip()
        try:
            value = date.fromisoformat(text) if len(text) == 10 else datetime.fromisoformat(text)
        except ValueError:
            raise _problem(path, expected, value) from None
    moment: datetime
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            raise _problem(path, f"{expected}, in the scenario's own time zone", value)
        moment = value
    elif isinstance(value, date):
        moment = datetime.combine(value, like.time() if like is not None else time(12))
    else:
        raise _problem(path, expected, value)
    moment = moment.replace(second=0, microsecond=0)
    if first is not None and last is not None and not first <= moment.date() <= last:
        raise _problem(
            path,
            f"a date in the contest's year, {first} to {last}",
            f"{moment:%Y-%m-%d %H:%M}",
        )
    return moment


def build_variant(
    base: Scenario, controls: Mapping[str, Control], values: Mapping[str, Any], *, skip: str = ""
) -> Scenario:
    """The variant of ``base`` the values make (every control but ``skip``), checked by the
    loader: a :class:`ScenarioError` when it refuses it."""
    f = fork(base)
    positions = {e.id: e.index for e in base.events}
    readings: dict[str, Any] = {}
    counts: dict[str, dict[str, int]] = {}
    for key, value in values.items():
        c = controls[key]
        if key == skip or value == c.original:
            continue
        if c.kind == "moment":
            assert c.event is not None
            delta = value - c.original  # (wall-clock time: the fork keeps it so)
            f = f.shift(positions[c.event], days=delta.days, minutes=delta.seconds / 60)
        elif c.kind == "count":
            assert c.event is not None and c.candidate is not None
            counts.setdefault(c.event, {})[c.candidate] = value
        elif c.kind == "candidate":
            assert c.event is not None
            f = f.replace(positions[c.event], candidate=value)
        else:
            readings[key.removeprefix("reading.")] = value
    for event, changed in counts.items():
        old = base.events[positions[event]]
        assert isinstance(old, ReturnsReported | RecountHeld)
        f = f.replace(positions[event], counts={**dict(old.counts), **changed})
    variant = f.build() if f.items != fork(base).items else base
    if readings:
        try:
            variant = attrs.evolve(
                variant, interpretations=attrs.evolve(variant.interpretations, **readings)
            )
        except ValueError as err:
            raise EditError(f"readings: {err}") from None
    return variant


def sweep_variable(control: Control) -> Any:
    """The what-if variable that moves ``control`` alone (a moment or a count), or None."""
    if control.kind == "moment":
        return EventTime(control.event or "", move=True)
    if control.kind == "count":
        return Votes(control.event or "", control.candidate or "")
    return None


def sweep_values(control: Control, value: Any, *, most: int = 400) -> list[Any]:
    """The values a "where does it flip" strip sweeps for ``control``: days across the
    contest's calendar (each at the time of day of ``value``), or counts from none to twice the
    larger of the original and the value. (The panel then narrows each change of outcome
    between two of them: to the minute, to the vote.)"""
    if control.kind == "moment":
        assert control.first is not None and control.last is not None
        first, last = control.span or (control.first, control.last)
        span = (last - first).days
        step = max(1, -(-span // most))
        moments = [
            datetime.combine(first + timedelta(days=i), value.time())
            for i in range(0, span + 1, step)
        ]
        if value not in moments:
            moments = sorted({*moments, value})
        return moments
    if control.kind == "count":
        top = max(2 * max(int(control.original), int(value)), 10)
        step = max(1, -(-top // most))
        counts = list(range(0, top + 1, step))
        if value not in counts:
            counts = sorted({*counts, value})
        return counts
    return []


def strip_ids(doc: dict[str, Any]) -> dict[str, Any]:
    """A scenario document without the ids the panel gave its events."""
    for e in doc.get("events", ()):
        if isinstance(e.get("id"), str) and e["id"].startswith(_ID):
            del e["id"]
    return doc
