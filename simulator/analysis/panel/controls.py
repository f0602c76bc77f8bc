"""The controls of a what-if panel, found from a scenario's log: the date of each event, the
votes of each candidate in each ``returns_reported``, the candidate of each runoff request,
and the interpretation readings; and the variant of the scenario that a set of values makes."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from enum import Enum
from typing import Any

import attrs

from simulator.analysis.whatif.edits import EditError, _evolve
from simulator.analysis.whatif.forks import fork
from simulator.analysis.whatif.variables import EventTime, Votes
from simulator.law.readings import Interpretations
from simulator.model.errors import Problem, ScenarioError
from simulator.model.events import DEFINITIONS, Event, ReturnsReported, RunoffRequested
from simulator.model.scenario import Scenario

#: the prefix of the ids the panel gives events that have none, to find them after a move
_ID = "panel-event-"

#: the readings in words (docs/readings.md explains each)
READING_WORDS = {
    "write_ins_in_total": "write-in votes count in the total (reading 1)",
    "dead_votes_in_total": "a dead candidate's votes count in the total (reading 2)",
    "early_request": "a runoff request before the canvass (reading 4)",
    "group_runoff_ballot": "who is on a group runoff ballot (reading 5)",
    "three_way_tie": "a tie for first among three or more (reading 6)",
    "withdrawal_as_death": "a withdrawal counts as a death (reading 7)",
    "late_notice": "a death noticed after day 30: which date decides (reading 8)",
    "harmless_ties": "only ties that decide something matter (reading 9)",
    "departed_leader_short": "a departed leader short of a majority (reading 10)",
    "departed_tied_for_a_seat": "a departed candidate tied for a seat (reading 11)",
    "runner_up_left": "the runner-up has left the race (reading 12)",
    "left_tied_for_first": "a candidate tied for first withdrew (reading 13)",
    "dead_tied_for_first": "a dead candidate ties for first (reading 14)",
    "withdrawn_winner": "a withdrawn candidate polls enough to win (reading 15)",
    "tie_after_primary": "a tie after a nonpartisan primary (reading 16)",
    "nonpartisan_fee": "a nonpartisan candidate pays too little (reading 17)",
    "left_best_for_group_seat": "a departed candidate best placed for a group seat (reading 18)",
    "request_place_tie": "a tie for the last place that may request (reading 19)",
    "first_election_tie": "a tie the first election does not settle (reading 20)",
    "left_runoff_ballot": "a candidate on a runoff ballot leaves (reading 21)",
    "request_after_lot": "a request after a drawing of lots (reading 22)",
    "filing_opening": "filing opens on a day the office is closed (reading 23)",
    "group_tie_voters": "how many voted in a group's tie (reading 24)",
    "departed_in_tie_window": "a tied candidate left before the three days end (reading 25)",
    "tied_left_before_lot": "a tied candidate left before the drawing of lots (reading 26)",
    "group_runoff_tie": "a tie for a seat in a group runoff (reading 27)",
    "late_nonpartisan_withdrawal": "a nonpartisan withdrawal after filing closes (reading 28)",
    "only_candidate_dies": "the only candidate dies before the election (reading 29)",
    "no_candidate_left": "a death leaves a party primary with no candidate (reading 30)",
    "group_death_within_30": "a death within 30 days leaves more than the seats (reading 31)",
    "disqualified_before_printing": "a party candidate disqualified before printing (reading 32)",
    "recount_not_ordered": "a recount of a declared result no tie ordered (reading 33)",
    "canvass_before_its_day": "a canvass held before the day the law fixes (reading 34)",
    "left_after_primary_day": "a party candidate leaves after the primary day (reading 35)",
    "runoff_canvass": "the day a runoff is canvassed (reading 36)",
}


def words(identifier: str) -> str:
    """An identifier as words: ``runs_its_course`` -> ``runs its course``."""
    return identifier.replace("_", " ")


@attrs.frozen
class Control:
    """One thing the panel lets a person change.

    ``kind`` is ``date`` (an event's day: ``first``..``last``), ``count`` (a candidate's votes
    in a ``returns_reported``), ``candidate`` (who made a request: ``choices``), ``switch`` (a
    yes/no reading) or ``choice`` (a reading with several answers: ``choices``)."""

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
            e = _evolve(e, id=name)
        events.append(e)
    return attrs.evolve(scenario, events=tuple(events))


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
        local = e.at.astimezone(base.tz)
        first, last = bounds[e.contest]
        out.append(
            Control(
                f"{e.id}.at",
                "date",
                f"{_who(e)}, on",
                local.date(),
                e.id,
                e.contest,
                first=first,
                last=last,
                group=group,
                span=spans.get(e.contest),
            )
        )
        if isinstance(e, ReturnsReported):
            for cand, n in e.counts:
                out.append(
                    Control(
                        f"{e.id}.votes.{cand}",
                        "count",
                        f"{cand}'s votes" + (f" ({e.precinct})" if e.precinct else ""),
                        n,
                        e.id,
                        e.contest,
                        candidate=cand,
                        group=group,
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
    if control.kind == "date":
        if isinstance(value, str):
            try:
                value = date.fromisoformat(value)
            except ValueError:
                raise _problem(path, "a date like 2027-10-05", value) from None
        if not isinstance(value, date):
            raise _problem(path, "a date", value)
        assert control.first is not None and control.last is not None
        if not control.first <= value <= control.last:
            raise _problem(
                path,
                f"a date in the contest's year, {control.first} to {control.last}",
                value.isoformat(),
            )
        return value
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
        if c.kind == "date":
            assert c.event is not None
            f = f.shift(positions[c.event], days=(value - c.original).days)
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
        assert isinstance(old, ReturnsReported)
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
    """The what-if variable that moves ``control`` alone (a date or a count), or None."""
    if control.kind == "date":
        return EventTime(control.event or "", move=True)
    if control.kind == "count":
        return Votes(control.event or "", control.candidate or "")
    return None


def sweep_values(control: Control, value: Any, *, most: int = 400) -> list[Any]:
    """The values a "where does it flip" strip sweeps for ``control``: days across the
    contest's calendar, or counts from none to twice the larger of the original and the value."""
    if control.kind == "date":
        assert control.first is not None and control.last is not None
        first, last = control.span or (control.first, control.last)
        span = (last - first).days
        step = max(1, -(-span // most))
        days = [first + timedelta(days=i) for i in range(0, span + 1, step)]
        if value not in days:
            days = sorted({*days, value})
        return days
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
