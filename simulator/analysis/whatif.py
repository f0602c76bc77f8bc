"""What-if analysis, made for notebooks: fork a scenario, compare two replays, sweep a variable.

A scenario is a frozen value, so a *fork* is a new scenario built from an old one; the old one
never changes. Edits are chained on a :class:`Fork` and applied by :meth:`Fork.build`, which
re-indexes the log (``index`` is an event's position) and checks the result through the loader,
so an event written as a dict in the scenario format, or an edit that leaves the log inconsistent,
is reported as a :class:`~simulator.model.errors.ScenarioError` naming the field, exactly as in a
file.

The pieces:

* forking: :func:`fork` (a chain of edits ending in :meth:`Fork.build`) and the one-edit
  functions :func:`insert_event`, :func:`add_event`, :func:`remove_event`,
  :func:`remove_events`, :func:`replace_event`, :func:`shift_event`, :func:`set_contest`;
* comparing: :func:`compare` gives a :class:`Comparison` (rows, text, HTML);
* sweeping: :func:`sweep` over a :class:`Variable` (:class:`EventTime`, :class:`Votes`,
  :class:`Margin`, :class:`EventField`, :class:`ContestFact`, :class:`NewEvent`, or any
  function) gives a :class:`Sweep` (rows, bands, flips, text, HTML, :meth:`Sweep.plot`);
* displaying: :func:`show` wraps a result for Jupyter; :func:`enable_rich_display` makes every
  result display as HTML.

Dependencies point one way: this module reads the loader, the replay and the results, and
nothing in the engine reads it.

>>> import simulator
>>> s = simulator.parse_scenario('''
... format: electsim/v1
... title: Council seat A, 2027
... contests: [{id: seat-a, seats: 1, method: nonpartisan-runoff, year: 2027}]
... events:
...   - {type: candidate_filed, at: 2027-07-06, candidate: Ann}
...   - {type: candidate_filed, at: 2027-07-07, candidate: Bob}
...   - {type: candidate_filed, at: 2027-07-08, candidate: Cy}
...   - {type: returns_reported, at: "2027-10-05T21:00", counts: {Ann: 480, Bob: 420, Cy: 100}}
...   - {type: canvass_held, at: "2027-10-12T11:00"}
... ''')
>>> asked = fork(s).add(
...     {"type": "runoff_requested", "at": "2027-10-13T09:30", "candidate": "Bob"}).build()
>>> len(s.events), len(asked.events), asked.events[-1].type, asked.events[-1].index
(5, 6, 'runoff_requested', 5)
>>> replay(s).contests[0].outcome.elected, replay(asked).contests[0].outcome.runoff_candidates
(('Ann',), ('Ann', 'Bob'))
>>> print(compare(s, asked, names=("as run", "Bob asks")).outcome_table())
contest  what     about    as run   Bob asks
-------  -------  -------  -------  -----------------
seat-a   outcome  elected  Ann      -
seat-a   outcome  runoff   none     called (Ann, Bob)
seat-a   outcome  pending  nothing  votes
seat-a   outcome  state    decided  runoff_called

A sweep replays one variant per value, serially or across processes (``workers=``), and keeps
for each the outcome and the ruling that decided it:

>>> sw = sweep(s, Margin(3, "Ann", over="Bob"), range(-2, 3))  # a tie: G.S. 163-293(d)(1)
>>> [(r.value, r.outcome, r.ruling) for r in sw]  # doctest: +NORMALIZE_WHITESPACE
[(-2, 'elected Bob', 'elected'), (-1, 'elected Bob', 'elected'),
 (0, 'pending recount', 'recount_required'), (1, 'elected Ann', 'elected'),
 (2, 'elected Ann', 'elected')]
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import pickle
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import attrs

from simulator.analysis.workers import Engine, Processes, Serial, engine_named
from simulator.engine.replay import ContestSummary, PrefixReplay, replay
from simulator.engine.result import ContestResult, Outcome, Result, Ruling
from simulator.input.loader import exact_offset, scenario_to_dict, structure
from simulator.law.vocab import Pending, RulingKind, RunoffStatus
from simulator.model.errors import Problem, ScenarioError, SimulatorError
from simulator.model.events import MAX_VOTES, Event, RecountHeld, ReturnsReported, VotesCast
from simulator.model.scenario import Scenario
from simulator.views.markup import cite_links as _cites
from simulator.views.markup import escape as _e
from simulator.views.markup import row, ruling_colour, table
from simulator.views.text import format_contest, format_result

if TYPE_CHECKING:
    from simulator.views.charts.figures import Chart

__all__ = [
    "OUTCOME_KINDS",
    "Band",
    "Comparison",
    "ContestFact",
    "ContestView",
    "Difference",
    "EditError",
    "EventField",
    "EventTime",
    "Fork",
    "Margin",
    "NewEvent",
    "ResultView",
    "Sweep",
    "SweepRow",
    "Variable",
    "Votes",
    "add_event",
    "compare",
    "each_day",
    "enable_rich_display",
    "fork",
    "insert_event",
    "remove_event",
    "remove_events",
    "replace_event",
    "set_contest",
    "shift_event",
    "show",
    "sweep",
]

#: The ruling kinds that can change a contest's outcome (who is elected or nominated, a vacant
#: seat, the runoff's status, what the contest still waits for). The *deciding* ruling of a
#: replay is the last ruling of one of these kinds; the others (``majority_threshold``,
#: ``name_remains``, ``filing_rejected``, ``request_rejected``, ``primary_cancelled``,
#: ``name_removed``) explain an outcome without changing it.
OUTCOME_KINDS: frozenset[RulingKind] = frozenset(
    {
        RulingKind.ELECTED,
        RulingKind.NOMINATED,
        RulingKind.NOMINEE_CERTIFIED,
        RulingKind.OFFICE_VACANT,
        RulingKind.RUNOFF_AVAILABLE,
        RulingKind.RUNOFF_CALLED,
        RulingKind.NO_RUNOFF,
        RulingKind.DECIDED_BY_LOT,
        RulingKind.FILING_REOPENED,
        RulingKind.FILING_EXTENDED,
        RulingKind.PARTY_TO_NOMINATE,
        RulingKind.VOTES_DISREGARDED,
        RulingKind.RECOUNT_REQUIRED,
        RulingKind.LOT_REQUIRED,
        RulingKind.NO_PROVISION,
    }
)

_YEARS = (1900, 2200)  # the loader's range for any time in a scenario
_NOTHING = "-"


class EditError(SimulatorError, ValueError):
    """An edit that cannot be applied: an index out of range, an unknown contest, a value of
    the wrong kind. The message says what was expected, what was found and how to fix it."""


# ---------------------------------------------------------------------------------------------
# Times


def _normal(moment: datetime, scenario: Scenario) -> datetime:
    """An aware time in the scenario's zone. An edit works its times out (a day moved, a delta
    added), so a naive wall time the clocks skip moves forward and one they repeat is the first,
    where a scenario file must say (:func:`simulator.input.loader.wall_clock`); pass an aware
    datetime to say which. The second pass of a repeated hour keeps its fixed offset, as the
    loader keeps it, so that it compares as the instant it is."""
    tz = scenario.tz
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=tz)
    return exact_offset(moment.astimezone(UTC).astimezone(tz))


def _check_year(moment: datetime, path: str) -> None:
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


# ---------------------------------------------------------------------------------------------
# Forks


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


def _event_dict(scenario: Scenario, event: Event) -> dict[str, Any]:
    """One typed event in the plain form of a scenario file (with its contest)."""
    doc = scenario_to_dict(attrs.evolve(scenario, events=(event,)))["events"][0]
    doc["contest"] = event.contest
    return dict(doc)


def _evolve(event: Event, **changes: Any) -> Event:
    """``attrs.evolve`` for events. The ``counts`` converter of ``returns_reported`` and
    ``recount_held`` takes a mapping only, and ``attrs.evolve`` feeds it the stored tuple of
    pairs, so the counts are passed again as a dict."""
    counts = getattr(event, "counts", None)
    if counts is not None and "counts" not in changes:
        changes["counts"] = dict(counts)
    return attrs.evolve(event, **changes)


def _reindexed(scenario: Scenario, events: Iterable[Event]) -> Scenario:
    """``scenario`` with ``events`` as its log, each ``index`` its position."""
    return attrs.evolve(
        scenario,
        events=tuple(e if e.index == i else _evolve(e, index=i) for i, e in enumerate(events)),
    )


def _placed(events: Sequence[Event], moving: Event) -> int:
    """Where ``moving`` goes in a log kept in the order the board learned things: before the
    first event the board learned strictly later."""
    known = moving.known_at
    for i, e in enumerate(events):
        if e.known_at > known:
            return i
    return len(events)


def _shifted(event: Event, delta: timedelta, scenario: Scenario, path: str) -> Event:
    """``event`` moved by ``delta`` of wall-clock time; a death's notice moves with it."""
    at = _normal(event.at.replace(tzinfo=None) + delta, scenario)
    _check_year(at, f"{path}.at")
    changes: dict[str, Any] = {"at": at}
    notice = getattr(event, "notice_at", None)
    if isinstance(notice, datetime):
        changes["notice_at"] = max(at, _normal(notice.replace(tzinfo=None) + delta, scenario))
    return _evolve(event, **changes)


def _validated(
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


@attrs.frozen
class _Item:
    """One entry of a fork's log: a typed event or a dict still to be read, a pending shift of
    its time, and whether it is to be placed where its time falls."""

    event: Event | Mapping[str, Any]
    delta: timedelta = timedelta(0)
    by_time: bool = False

    def field(self, name: str) -> Any:
        if isinstance(self.event, Event):
            return self.event.type if name == "type" else getattr(self.event, name, None)
        return self.event.get(name)


def _as_item(event: Event | Mapping[str, Any], what: str) -> _Item:
    if isinstance(event, Event):
        return _Item(event)
    if isinstance(event, Mapping):
        return _Item(copy.deepcopy(dict(event)))
    raise EditError(
        f"{what}: expected an event (a simulator.events class, or a dict in the scenario format "
        f"like {{'type': 'runoff_requested', 'at': '2027-10-13T09:30', 'candidate': 'Bob'}}); "
        f"found {type(event).__name__} {event!r}"
    )


@attrs.frozen
class Fork:
    """Edits to a scenario, chained; :meth:`build` makes the new scenario.

    Each method returns a new :class:`Fork` (a fork is a value too). Positions are those of
    the log as edited so far, like a list's; negative positions count from the end. Wherever a
    position is taken, the event's ``id`` (its ``id:`` field in the scenario) may be given
    instead, and stays right however the log is edited around it. Events are
    given as :mod:`simulator.model.events` objects or as dicts in the scenario format (``contest``
    may be
    left out when the scenario has one contest); dicts are read by the loader at :meth:`build`.

    >>> import simulator
    >>> s = simulator.parse_scenario('''
    ... format: electsim/v1
    ... title: Mayor, 2027
    ... contests: [{id: mayor, method: nonpartisan-plurality, year: 2027}]
    ... events:
    ...   - {type: candidate_filed, at: 2027-07-06, candidate: Ann}
    ...   - {type: candidate_filed, at: 2027-07-07, candidate: Bob}
    ...   - {type: ballots_printed, at: 2027-09-10}
    ... ''')
    >>> f = fork(s).without(type="ballots_printed").shift(1, days=2)
    >>> f = f.insert(0, {"type": "candidate_filed", "at": "2027-07-05", "candidate": "Cy"})
    >>> t = f.set_contest(seats=2).build()
    >>> [(e.index, e.type, e.at.date().isoformat()) for e in t.events]
    ... # doctest: +NORMALIZE_WHITESPACE
    [(0, 'candidate_filed', '2027-07-05'), (1, 'candidate_filed', '2027-07-06'),
     (2, 'candidate_filed', '2027-07-09')]
    >>> t.contests[0].seats, s.contests[0].seats, len(s.events)
    (2, 1, 3)
    >>> bad = fork(s).insert(3, {"type": "votes_cast", "at": "2027-11-02", "candidate": "Zed"})
    >>> try:
    ...     bad.build()
    ... except simulator.ScenarioError as error:
    ...     print(error.problems[0].file, error.problems[0].path, error.problems[0].found)
    fork of 'Mayor, 2027' events[3].candidate 'Zed', who never filed
    """

    scenario: Scenario
    items: tuple[_Item, ...] = attrs.field()
    contests: tuple[Mapping[str, Any], ...] | None = None

    @items.default
    def _items(self) -> tuple[_Item, ...]:
        return tuple(_Item(e) for e in self.scenario.events)

    # -- positions ----------------------------------------------------------------------------

    def _position(self, i: int | str, *, end: bool = False) -> int:
        n = len(self.items)
        if isinstance(i, str):
            found = [j for j, it in enumerate(self.items) if it.field("id") == i]
            if not found:
                known = [str(it.field("id")) for it in self.items if it.field("id") is not None]
                raise EditError(
                    f"an event id: expected one of the ids in the log "
                    f"({', '.join(known) or 'none: give events an id: field'}); found {i!r}"
                )
            return found[0]
        if isinstance(i, bool) or not isinstance(i, int):
            raise EditError(
                f"an event: expected its position (an integer) or its id (a string); found {i!r}"
            )
        j = i + n if i < 0 else i
        top = n if end else n - 1
        if not 0 <= j <= top:
            raise EditError(
                f"an event position: expected {0 if n or end else 'no position (the log is empty)'}"
                f"{f'..{top}' if top > 0 else ''} (or a negative position counting from the end) "
                f"for a log of {n} event(s); found {i}"
            )
        return j

    def _with(self, items: Iterable[_Item]) -> Fork:
        return attrs.evolve(self, items=tuple(items))

    # -- edits --------------------------------------------------------------------------------

    def insert(self, i: int | str, event: Event | Mapping[str, Any]) -> Fork:
        """Insert ``event`` so that it is at position ``i`` (``len`` appends)."""
        j = self._position(i, end=True)
        items = list(self.items)
        items.insert(j, _as_item(event, f"insert({i}, ...)"))
        return self._with(items)

    def append(self, event: Event | Mapping[str, Any]) -> Fork:
        """Add ``event`` at the end of the log."""
        return self._with((*self.items, _as_item(event, "append(...)")))

    def add(self, event: Event | Mapping[str, Any]) -> Fork:
        """Add ``event`` where its time falls in the log (after every event the board learned at
        the same moment or earlier)."""
        item = attrs.evolve(_as_item(event, "add(...)"), by_time=True)
        return self._with((*self.items, item))

    def remove(self, i: int | str) -> Fork:
        """Remove the event at position ``i``."""
        j = self._position(i)
        return self._with(self.items[:j] + self.items[j + 1 :])

    def replace(
        self, i: int | str, event: Event | Mapping[str, Any] | None = None, /, **changes: Any
    ) -> Fork:
        """Replace the event at ``i`` by ``event``, or change some of its fields:
        ``replace(4, counts={"Ann": 400, "Bob": 410})``, ``replace(2, candidate="Cy")``."""
        j = self._position(i)
        if (event is None) == (not changes):
            raise EditError(
                f"replace({i}, ...): expected either a whole event or field changes "
                f"(like candidate='Bob'); found {'both' if changes else 'neither'}"
            )
        old = self.items[j]
        if event is not None:
            new = attrs.evolve(_as_item(event, f"replace({i}, ...)"), delta=old.delta)
        else:
            base = (
                _event_dict(self.scenario, old.event)
                if isinstance(old.event, Event)
                else dict(old.event)
            )
            base.update(copy.deepcopy(changes))
            new = attrs.evolve(old, event=base)
        return self._with((*self.items[:j], new, *self.items[j + 1 :]))

    def shift(
        self,
        i: int | str,
        *,
        days: float = 0,
        hours: float = 0,
        minutes: float = 0,
        move: bool = True,
    ) -> Fork:
        """Move the time of the event at ``i`` (wall-clock time in the scenario's zone; a
        death's notice moves with it). With ``move`` (the default) the event also moves in the
        log to where its new time falls; without, it keeps its position (a time out of order
        there is invalid input: the log lists events in the order the board learned of them)."""
        j = self._position(i)
        delta = timedelta(days=days, hours=hours, minutes=minutes)
        old = self.items[j]
        new = attrs.evolve(old, delta=old.delta + delta, by_time=old.by_time or move)
        return self._with((*self.items[:j], new, *self.items[j + 1 :]))

    def without(
        self, *, type: str | None = None, candidate: str | None = None, contest: str | None = None
    ) -> Fork:
        """Remove every event that matches all the given criteria: its ``type``, its
        ``candidate`` (or lot ``winner``), its ``contest``."""
        if type is None and candidate is None and contest is None:
            raise EditError(
                "without(): expected at least one of type=, candidate=, contest=; found none "
                "(to empty the log, use fork(s).without(contest=ID) for each contest)"
            )
        only = len(self.scenario.contests) == 1

        def matches(item: _Item) -> bool:
            if type is not None and item.field("type") != type:
                return False
            if candidate is not None and candidate not in (
                item.field("candidate"),
                item.field("winner"),
            ):
                return False
            if contest is not None:
                theirs = item.field("contest")
                if theirs is None and only:
                    theirs = self.scenario.contests[0].id
                if theirs != contest:
                    return False
            return True

        return self._with(it for it in self.items if not matches(it))

    def set_contest(self, contest_id: str | None = None, /, **changes: Any) -> Fork:
        """Change facts of a contest (``seats=2``, ``method="nonpartisan-runoff"``,
        ``date="2027-10-05"``, ``filing={"opens": ..., "closes": ...}``, ...), written as in a
        scenario file. ``contest_id`` may be left out when the scenario has one contest."""
        current = list(
            self.contests
            if self.contests is not None
            else scenario_to_dict(attrs.evolve(self.scenario, events=()))["contests"]
        )
        ids = [c["id"] for c in current]
        if contest_id is None:
            if len(ids) != 1:
                raise EditError(
                    f"set_contest(): expected a contest id (one of {', '.join(ids)}); found none"
                )
            contest_id = ids[0]
        if contest_id not in ids:
            raise EditError(
                f"set_contest({contest_id!r}): expected a contest id, one of {', '.join(ids)}"
            )
        if not changes:
            raise EditError(
                f"set_contest({contest_id!r}): expected changes like seats=2; found none"
            )
        k = ids.index(contest_id)
        new = {**current[k], **copy.deepcopy(changes)}
        current[k] = new
        return attrs.evolve(self, contests=tuple(current))

    # -- the new scenario ---------------------------------------------------------------------

    def build(self) -> Scenario:
        """The new scenario, re-indexed and checked by the loader (:class:`ScenarioError`)."""
        items = list(self.items)
        if any(not isinstance(it.event, Event) for it in items):
            read = _validated(self.scenario, self.contests, [it.event for it in items])
            items = [attrs.evolve(it, event=e) for it, e in zip(items, read.events, strict=True)]
        events: list[Event] = []
        placing: list[Event] = []
        for i, it in enumerate(items):
            assert isinstance(it.event, Event)
            e = it.event
            if it.delta:
                e = _shifted(e, it.delta, self.scenario, f"events[{i}]")
            (placing if it.by_time else events).append(e)
        for e in placing:
            events.insert(_placed(events, e), e)
        return _validated(self.scenario, self.contests, events)


def fork(scenario: Scenario) -> Fork:
    """Start editing a copy of ``scenario`` (see :class:`Fork`)."""
    if not isinstance(scenario, Scenario):
        raise EditError(
            f"fork(): expected a Scenario (from load_scenario or parse_scenario); "
            f"found {type(scenario).__name__}"
        )
    return Fork(scenario)


def insert_event(scenario: Scenario, i: int | str, event: Event | Mapping[str, Any]) -> Scenario:
    """A new scenario with ``event`` at position ``i`` (see :meth:`Fork.insert`)."""
    return fork(scenario).insert(i, event).build()


def add_event(scenario: Scenario, event: Event | Mapping[str, Any]) -> Scenario:
    """A new scenario with ``event`` where its time falls (see :meth:`Fork.add`)."""
    return fork(scenario).add(event).build()


def remove_event(scenario: Scenario, i: int | str) -> Scenario:
    """A new scenario without the event at position ``i``."""
    return fork(scenario).remove(i).build()


def remove_events(
    scenario: Scenario,
    *,
    type: str | None = None,
    candidate: str | None = None,
    contest: str | None = None,
) -> Scenario:
    """A new scenario without the events matching all the criteria (see :meth:`Fork.without`)."""
    return fork(scenario).without(type=type, candidate=candidate, contest=contest).build()


def replace_event(
    scenario: Scenario,
    i: int | str,
    event: Event | Mapping[str, Any] | None = None,
    /,
    **changes: Any,
) -> Scenario:
    """A new scenario with the event at ``i`` replaced or changed (see :meth:`Fork.replace`)."""
    return fork(scenario).replace(i, event, **changes).build()


def shift_event(
    scenario: Scenario,
    i: int | str,
    *,
    days: float = 0,
    hours: float = 0,
    minutes: float = 0,
    move: bool = True,
) -> Scenario:
    """A new scenario with the event at ``i`` moved in time (see :meth:`Fork.shift`)."""
    return fork(scenario).shift(i, days=days, hours=hours, minutes=minutes, move=move).build()


def set_contest(scenario: Scenario, contest_id: str | None = None, /, **changes: Any) -> Scenario:
    """A new scenario with facts of a contest changed (see :meth:`Fork.set_contest`)."""
    return fork(scenario).set_contest(contest_id, **changes).build()


# ---------------------------------------------------------------------------------------------
# Formatting helpers


def _when(at: datetime | None) -> str:
    return at.strftime("%Y-%m-%d %H:%M") if at is not None else _NOTHING


def _names(names: Sequence[str]) -> str:
    return ", ".join(names) or _NOTHING


def _text_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    return "\n".join(lines)


def _html_table(head: Sequence[str], rows: Iterable[Sequence[str]], *, raw: bool = False) -> str:
    """A notebook table; cells are escaped unless ``raw`` (then the caller escaped them)."""
    return table(head, [row(r if raw else map(_e, r), inline=True) for r in rows], inline=True)


# ---------------------------------------------------------------------------------------------
# Rich display of results


def _contest_html(c: ContestResult) -> str:
    o = c.outcome
    head = (
        f"<h4>{_e(c.title)} <code>{_e(c.id)}</code></h4><p>{_e(c.method)}, {_e(c.stage)}, "
        f"{c.seats} seat(s): <b>{_e(c.state)}</b></p>"
    )
    summary = o.parts()
    outcome = _html_table(
        tuple(p.label for p in summary), [tuple(p.words or _NOTHING for p in summary)]
    )
    parts = [head, outcome]
    for i, t in enumerate(c.tallies):
        label = "votes" if i == 0 else "runoff votes"
        parts.append(
            f"<p><b>{label}</b></p>"
            + _html_table(("candidate", "votes"), [(n, str(v)) for n, v in t])
        )
    if c.rulings:
        rows = [
            (
                _e(_when(r.at)),
                f"<b>{_e(r.kind.value)}</b>",
                _cites(r.cites),
                _e(_names(r.candidates)),
                _e(r.text),
            )
            for r in c.rulings
        ]
        parts.append(
            "<p><b>rulings</b></p>"
            + _html_table(("at", "kind", "cite", "candidates", "text"), rows, raw=True)
        )
    if c.deadlines:
        rows = [
            (
                _e(d.kind.value),
                _e(_when(d.due)),
                _cites(d.cites),
                _e(_when(d.moved_from) if d.moved_from else _NOTHING),
                _e(d.why_moved or ""),
            )
            for d in c.deadlines
        ]
        parts.append(
            "<p><b>deadlines</b></p>"
            + _html_table(("kind", "due", "cite", "moved from", "why moved"), rows, raw=True)
        )
    if c.timeline:
        entries = [(_when(t.at), t.what, t.label, t.cite) for t in c.timeline]
        parts.append(
            f"<details><summary>timeline ({len(entries)} entries)</summary>"
            + _html_table(("at", "what", "label", "cite"), entries)
            + "</details>"
        )
    return "".join(parts)


@attrs.frozen
class ContestView:
    """One contest's result, displayed as HTML in Jupyter and as the timeline text elsewhere."""

    contest: ContestResult

    def __str__(self) -> str:
        return format_contest(self.contest)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython's plain-text display: the text form."""
        p.text(str(self))

    def _repr_html_(self) -> str:
        return _contest_html(self.contest)


@attrs.frozen
class ResultView:
    """A replay's result, displayed as HTML in Jupyter and as the timeline text elsewhere.

    >>> from simulator.engine.result import Result
    >>> "<h3>" in ResultView(Result("A <b> title", ()))._repr_html_()
    True
    >>> "A &lt;b&gt; title" in ResultView(Result("A <b> title", ()))._repr_html_()
    True
    """

    result: Result

    def __str__(self) -> str:
        return format_result(self.result)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython's plain-text display: the text form."""
        p.text(str(self))

    def _repr_html_(self) -> str:
        r = self.result
        as_of = f" <i>(as of {_e(_when(r.as_of))})</i>" if r.as_of is not None else ""
        body = "".join(_contest_html(c) for c in r.contests) or "<p>no contests</p>"
        return f"<h3>{_e(r.scenario)}{as_of}</h3>{body}"


def show(value: Any) -> Any:
    """Something Jupyter displays richly: a :class:`Result` or :class:`ContestResult` is wrapped
    in a view with ``_repr_html_``; anything else (a :class:`Comparison`, a :class:`Sweep`) is
    returned as it is."""
    if isinstance(value, Result):
        return ResultView(value)
    if isinstance(value, ContestResult):
        return ContestView(value)
    return value


def enable_rich_display() -> bool:
    """Register HTML display of :class:`Result` and :class:`ContestResult` in the running
    IPython, so a bare ``replay(s)`` shows its tables. Returns False outside IPython."""
    try:
        ipython = importlib.import_module("IPython")
    except ImportError:
        return False
    shell = ipython.get_ipython()
    if shell is None:
        return False
    formatter = shell.display_formatter.formatters["text/html"]
    formatter.for_type(Result, lambda r: ResultView(r)._repr_html_())
    formatter.for_type(ContestResult, lambda c: ContestView(c)._repr_html_())
    return True


# ---------------------------------------------------------------------------------------------
# Comparing two replays


@attrs.frozen
class Difference:
    """One way two replays differ: in a contest's ``outcome``, a ``ruling`` or a ``deadline``."""

    contest: str
    what: str  # contest | outcome | ruling | deadline
    about: str  # the outcome field, the ruling (kind, cite, candidates) or the deadline kind
    a: str
    b: str

    def to_dict(self) -> dict[str, str]:
        return attrs.asdict(self)


@attrs.frozen
class Comparison:
    """What differs between two replays, as rows (:attr:`rows`), text (``str``) and HTML."""

    names: tuple[str, str]
    rows: tuple[Difference, ...]

    @property
    def same(self) -> bool:
        """Nothing differs."""
        return not self.rows

    def of(self, what: str) -> tuple[Difference, ...]:
        """The rows about ``outcome``, ``ruling``, ``deadline`` or ``contest``."""
        return tuple(r for r in self.rows if r.what == what)

    @property
    def outcomes(self) -> tuple[Difference, ...]:
        return self.of("outcome")

    @property
    def rulings(self) -> tuple[Difference, ...]:
        return self.of("ruling")

    @property
    def deadlines(self) -> tuple[Difference, ...]:
        return self.of("deadline")

    def to_dicts(self) -> list[dict[str, str]]:
        """The rows as plain dicts (``pandas.DataFrame(c.to_dicts())``)."""
        return [r.to_dict() for r in self.rows]

    def _cells(self, rows: Sequence[Difference]) -> list[tuple[str, str, str, str, str]]:
        return [(r.contest, r.what, r.about, r.a, r.b) for r in rows]

    def _head(self) -> tuple[str, ...]:
        return ("contest", "what", "about", *self.names)

    def outcome_table(self) -> str:
        """The outcome rows only, as text."""
        return _text_table(self._head(), self._cells(self.outcomes))

    def __str__(self) -> str:
        if self.same:
            return f"{self.names[0]} and {self.names[1]}: no difference"
        return _text_table(self._head(), self._cells(self.rows))

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython's plain-text display: the text form."""
        p.text(str(self))

    def _repr_html_(self) -> str:
        caption = (
            f"<p><b>{_e(self.names[0])}</b> vs <b>{_e(self.names[1])}</b>: "
            f"{len(self.rows)} difference(s)</p>"
        )
        if self.same:
            return caption
        return caption + _html_table(self._head(), self._cells(self.rows))


def _pairs(
    a: Sequence[tuple[Any, str]], b: Sequence[tuple[Any, str]]
) -> list[tuple[Any, str, str]]:
    """Match items by key in order; (key, a text, b text) for each pair that differs."""
    out: list[tuple[Any, str, str]] = []
    keys = list(dict.fromkeys([k for k, _ in a] + [k for k, _ in b]))
    for key in keys:
        xs = [t for k, t in a if k == key]
        ys = [t for k, t in b if k == key]
        for i in range(max(len(xs), len(ys))):
            x = xs[i] if i < len(xs) else _NOTHING
            y = ys[i] if i < len(ys) else _NOTHING
            if x != y:
                out.append((key, x, y))
    return out


def _ruling_key(r: Ruling) -> str:
    who = f" [{_names(r.candidates)}]" if r.candidates else ""
    return f"{r.kind.value} {r.cite}{who}"


def _compare_contests(a: ContestResult, b: ContestResult) -> list[Difference]:
    rows: list[Difference] = []
    oa, ob = a.outcome, b.outcome
    facts = [
        (pa.label, pa.words or _NOTHING, pb.words or _NOTHING)
        for pa, pb in zip(oa.parts(), ob.parts(), strict=True)
    ]
    facts.append(("state", a.state, b.state))
    for about, x, y in facts:
        if x != y:
            rows.append(Difference(a.id, "outcome", about, x, y))
    ra = [(_ruling_key(r), _when(r.at)) for r in a.rulings]
    rb = [(_ruling_key(r), _when(r.at)) for r in b.rulings]
    rows.extend(Difference(a.id, "ruling", k, x, y) for k, x, y in _pairs(ra, rb))

    def due(d: Any) -> str:
        moved = f" (moved from {_when(d.moved_from)})" if d.moved_from else ""
        return _when(d.due) + moved

    da = [(d.kind.value, due(d)) for d in a.deadlines]
    db = [(d.kind.value, due(d)) for d in b.deadlines]
    rows.extend(Difference(a.id, "deadline", k, x, y) for k, x, y in _pairs(da, db))
    return rows


def compare(
    a: Scenario | Result,
    b: Scenario | Result,
    *,
    as_of: datetime | None = None,
    names: tuple[str, str] = ("a", "b"),
) -> Comparison:
    """Which outcomes, rulings and deadlines differ between two scenarios (replayed, ``as_of``
    a moment if given) or two results. Contests are matched by id."""
    ra = replay(a, as_of=as_of) if isinstance(a, Scenario) else a
    rb = replay(b, as_of=as_of) if isinstance(b, Scenario) else b
    rows: list[Difference] = []
    ids_b = {c.id for c in rb.contests}
    for c in ra.contests:
        if c.id in ids_b:
            rows.extend(_compare_contests(c, rb.contest(c.id)))
        else:
            rows.append(Difference(c.id, "contest", "present", "yes", "no"))
    ids_a = {c.id for c in ra.contests}
    rows.extend(
        Difference(c.id, "contest", "present", "no", "yes")
        for c in rb.contests
        if c.id not in ids_a
    )
    return Comparison(names, tuple(rows))


# ---------------------------------------------------------------------------------------------
# Variables a sweep varies


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
        return _reindexed(scenario, events)
    del events[j]
    events.insert(_placed(events, new), new)
    return _reindexed(scenario, events)


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
            at = _normal(value, scenario)
        elif isinstance(value, date):
            at = _normal(datetime.combine(value, local.time().replace(tzinfo=None)), scenario)
        elif isinstance(value, timedelta) or (
            isinstance(value, int) and not isinstance(value, bool)
        ):
            delta = value if isinstance(value, timedelta) else timedelta(days=value)
            at = _normal(local.replace(tzinfo=None) + delta, scenario)
        else:
            raise EditError(
                f"{self.label}: expected a date, a datetime, a timedelta or a number of days; "
                f"found {type(value).__name__} {value!r}"
            )
        _check_year(at, self.label)
        changes: dict[str, Any] = {"at": at}
        notice = getattr(old, "notice_at", None)
        if isinstance(notice, datetime):
            changes["notice_at"] = at + (notice - old.at)
        return _moved(scenario, self.index, _evolve(old, **changes), self.move)


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
        new = _evolve(e, count=count)
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
            at = _normal(value, scenario)
        elif isinstance(value, date):
            at = _normal(datetime(value.year, value.month, value.day), scenario)
        else:
            raise EditError(
                f"{self.label}: expected a date or a datetime; found {type(value).__name__} "
                f"{value!r}"
            )
        _check_year(at, self.label)
        changes: dict[str, Any] = {"at": at}
        notice = getattr(template, "notice_at", None)
        if isinstance(notice, datetime):
            changes["notice_at"] = at + (notice - template.at)
        new = _evolve(template, **changes)
        events = list(scenario.events)
        events.insert(_placed(events, new), new)
        return _reindexed(scenario, events)


def _label(vary: Any) -> str:
    label = getattr(vary, "label", None)
    if isinstance(label, str):
        return label
    return str(getattr(vary, "__name__", "value"))


# ---------------------------------------------------------------------------------------------
# Sweeps


@attrs.frozen
class SweepRow:
    """One variant of a sweep: the value, the contest's outcome and the deciding ruling."""

    value: Any
    elected: tuple[str, ...]
    nominated: tuple[str, ...]
    vacant_seats: int
    runoff: str  # none | available | called | held
    runoff_candidates: tuple[str, ...]
    pending: str | None
    ruling: str | None  # the deciding ruling's kind
    cite: str = ""
    ruling_at: datetime | None = None
    candidates: tuple[str, ...] = ()
    text: str = ""

    @property
    def outcome(self) -> str:
        """The outcome in a few words: ``elected Ann``, ``runoff called (Ann, Bob)``, ..."""
        outcome = Outcome(
            self.elected,
            self.nominated,
            self.vacant_seats,
            RunoffStatus(self.runoff),
            self.runoff_candidates,
            Pending(self.pending) if self.pending else None,
        )
        return "; ".join(outcome.brief(" ")) or "no outcome"

    @property
    def decided_by(self) -> str:
        """The deciding ruling and its citation."""
        return f"{self.ruling} ({self.cite})" if self.ruling else _NOTHING

    def to_dict(self) -> dict[str, Any]:
        doc = attrs.asdict(self, recurse=False)
        doc["outcome"] = self.outcome
        return doc


@attrs.frozen
class Band:
    """A run of consecutive variants with the same outcome and the same deciding ruling."""

    first: Any
    last: Any
    count: int
    outcome: str
    ruling: str | None
    cite: str
    start: int  # position of the first variant in the sweep


@attrs.frozen
class _Job:
    """What each worker needs: picklable, and the same function for serial and parallel runs."""

    base: Scenario
    vary: Any
    contest: str
    as_of: datetime | None
    decider: frozenset[RulingKind] | None

    def replayer(self) -> PrefixReplay:
        """Folds the base scenario's events once; each variant replays only from where its
        events part from the base's."""
        return PrefixReplay(self.base, self.contest, as_of=self.as_of)

    def row(self, value: Any, replayer: PrefixReplay | None = None) -> SweepRow:
        variant = self.vary(self.base, value)
        if not isinstance(variant, Scenario):
            raise EditError(
                f"{_label(self.vary)}: expected the variable to return a Scenario; found "
                f"{type(variant).__name__}"
            )
        c: ContestResult | ContestSummary
        if replayer is None:
            c = replay(variant, as_of=self.as_of).contest(self.contest)
        else:
            c = replayer.summary(variant)
        return _row(value, c, self.decider)

    def rows(self, values: Sequence[Any]) -> list[SweepRow]:
        replayer = self.replayer()
        return [self.row(v, replayer) for v in values]


def _deciding(
    c: ContestResult | ContestSummary, decider: frozenset[RulingKind] | None
) -> Ruling | None:
    if decider is None:
        for r in reversed(c.rulings):
            if r.kind in OUTCOME_KINDS:
                return r
        return None
    return next((r for r in c.rulings if r.kind in decider), None)


def _row(
    value: Any, c: ContestResult | ContestSummary, decider: frozenset[RulingKind] | None
) -> SweepRow:
    o = c.outcome
    r = _deciding(c, decider)
    return SweepRow(
        value=value,
        elected=o.elected,
        nominated=o.nominated,
        vacant_seats=o.vacant_seats,
        runoff=o.runoff_status.value,
        runoff_candidates=o.runoff_candidates,
        pending=o.pending.value if o.pending else None,
        ruling=r.kind.value if r else None,
        cite=r.cite if r else "",
        ruling_at=r.at if r else None,
        candidates=r.candidates if r else (),
        text=r.text if r else "",
    )


def _kinds(
    decider: str | RulingKind | Iterable[str | RulingKind] | None,
) -> frozenset[RulingKind] | None:
    if decider is None:
        return None
    items = [decider] if isinstance(decider, str) else list(decider)
    out = set()
    for k in items:
        try:
            out.add(RulingKind(k))
        except ValueError:
            raise EditError(
                f"decider: expected ruling kinds, from {', '.join(k.value for k in RulingKind)}; "
                f"found {k!r}"
            ) from None
    return frozenset(out)


def _fmt_value(value: Any) -> str:
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


@attrs.frozen(repr=False)
class Sweep:
    """The variants of a sweep, in the order of the values: rows, bands of equal outcomes,
    the values where the outcome flips, a chart (:meth:`plot`), text and HTML."""

    variable: str
    contest: str
    rows: tuple[SweepRow, ...]
    decider: tuple[str, ...] = ()  # the chosen ruling kinds; () = the last that changed it

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[SweepRow]:
        return iter(self.rows)

    def __getitem__(self, i: int) -> SweepRow:
        return self.rows[i]

    @property
    def values(self) -> tuple[Any, ...]:
        return tuple(r.value for r in self.rows)

    def bands(self) -> tuple[Band, ...]:
        """Runs of consecutive variants with the same outcome, ruling kind and citation."""
        out: list[Band] = []
        start = 0
        for i in range(1, len(self.rows) + 1):
            if i == len(self.rows) or _key(self.rows[i]) != _key(self.rows[start]):
                a, b = self.rows[start], self.rows[i - 1]
                out.append(Band(a.value, b.value, i - start, a.outcome, a.ruling, a.cite, start))
                start = i
        return tuple(out)

    def flips(self) -> tuple[tuple[SweepRow, SweepRow], ...]:
        """Each pair of neighbouring variants where the outcome or the deciding ruling changes.

        >>> sw = Sweep("x", "c", tuple(SweepRow(v, ("A",) if v < 2 else ("B",), (), 0,
        ...     "none", (), None, "elected") for v in range(4)))
        >>> [(a.value, b.value) for a, b in sw.flips()]
        [(1, 2)]
        """
        return tuple(
            (a, b) for a, b in zip(self.rows, self.rows[1:], strict=False) if _key(a) != _key(b)
        )

    def to_dicts(self) -> list[dict[str, Any]]:
        """One dict per variant (``pandas.DataFrame(sweep.to_dicts())``)."""
        return [r.to_dict() for r in self.rows]

    def _band_cells(self) -> list[tuple[str, str, str, str, str]]:
        return [
            (
                _fmt_value(b.first),
                _fmt_value(b.last),
                str(b.count),
                b.outcome,
                f"{b.ruling} ({b.cite})" if b.ruling else _NOTHING,
            )
            for b in self.bands()
        ]

    _HEAD = ("from", "to", "variants", "outcome", "deciding ruling")

    def _title(self) -> str:
        how = (
            f"first ruling of kind {' / '.join(self.decider)}"
            if self.decider
            else "last ruling that changed the outcome"
        )
        return (
            f"sweep of {self.variable} over {len(self.rows)} variant(s), contest {self.contest}; "
            f"deciding ruling = {how}"
        )

    def __str__(self) -> str:
        return self._title() + "\n" + _text_table(self._HEAD, self._band_cells())

    def __repr__(self) -> str:
        return (
            f"<Sweep of {self.variable} in {self.contest}: {len(self.rows)} variant(s), "
            f"{len(self.bands())} band(s)>"
        )

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython's plain-text display: the text form."""
        p.text(str(self))

    def _repr_html_(self) -> str:
        rows = []
        for cells, band in zip(self._band_cells(), self.bands(), strict=True):
            colour = ruling_colour(band.ruling)
            swatch = f'<span style="color:{colour}">&#9632;</span> '
            rows.append((*(_e(c) for c in cells[:4]), swatch + _e(cells[4])))
        return f"<p>{_e(self._title())}</p>" + _html_table(self._HEAD, rows, raw=True)

    def plot(self, *, title: str | None = None) -> Chart:
        """A chart of the outcome against the swept value, the background banded by the kind
        of the deciding ruling (:func:`simulator.views.charts.sweep_plot.plot_sweep`)."""
        from simulator.views.charts.sweep_plot import plot_sweep

        return plot_sweep(
            self.values,
            [r.outcome for r in self.rows],
            [(b.start, b.count, b.ruling) for b in self.bands()],
            variable=self.variable,
            title=title or f"{self.contest}: outcome by {self.variable}",
            tick=_fmt_value,
        )


def _key(r: SweepRow) -> tuple[str, str | None, str]:
    return (r.outcome, r.ruling, r.cite)


def sweep(
    scenario: Scenario,
    vary: Variable | Callable[[Scenario, Any], Scenario],
    over: Iterable[Any],
    *,
    contest: str | None = None,
    as_of: datetime | None = None,
    decider: str | RulingKind | Iterable[str | RulingKind] | None = None,
    workers: int = 1,
    chunksize: int | None = None,
    progress: bool = True,
    label: str | None = None,
    engine: str | Engine | None = None,
    client: Any = None,
) -> Sweep:
    """Replay one variant of ``scenario`` per value in ``over``: ``vary(scenario, value)``.

    Each row keeps the value, the ``contest``'s outcome (the only contest when left out) and
    the deciding ruling: the last ruling of a kind in :data:`OUTCOME_KINDS`, or with
    ``decider`` the first ruling of the kind(s) named. ``as_of`` replays each variant as the
    board knew it then. ``workers > 1`` spreads the variants over that many processes in
    chunks (``vary`` and the values must pickle); the rows are the same as a serial run's, in
    the same order. ``progress`` (on by default) shows a tqdm bar once a sweep has run for
    :data:`PROGRESS_AFTER` seconds, so quick sweeps stay quiet; ``progress=False`` never shows
    one. ``label`` names the variable in tables
    and charts (the default is the variable's own label).

    ``engine`` chooses where the variants run: ``"serial"``, ``"processes"`` (the default when
    ``workers > 1``), ``"dask"`` (a Dask cluster: ``client=`` a ``distributed.Client``, or the
    current one; each task carries thousands of variants), or any object with the ``run``
    method of :class:`simulator.analysis.workers.Engine`. Each chunk of variants folds the events
    they
    share with ``scenario`` once, so a sweep of a late event costs little per variant.
    """
    if not isinstance(scenario, Scenario):
        raise EditError(f"sweep(): expected a Scenario; found {type(scenario).__name__}")
    if not callable(vary):
        raise EditError(
            f"sweep(): expected vary to be a variable (EventTime, Votes, Margin, NewEvent, ...) "
            f"or a function (scenario, value) -> Scenario; found {vary!r}"
        )
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise EditError(
            f"sweep(): expected workers to be a whole number, 1 or more; found {workers!r}"
        )
    ids = [c.id for c in scenario.contests]
    if contest is None:
        if len(ids) != 1:
            raise EditError(f"sweep(): expected contest= one of {', '.join(ids)}; found none")
        contest = ids[0]
    elif contest not in ids:
        raise EditError(f"sweep(): expected contest= one of {', '.join(ids)}; found {contest!r}")
    if as_of is not None and as_of.tzinfo is None:
        as_of = as_of.replace(tzinfo=scenario.tz)
    kinds = _kinds(decider)
    prepare = getattr(vary, "prepare", None)
    label = label or _label(vary)
    if callable(prepare):
        vary = prepare(scenario)
    values = list(over)
    job = _Job(scenario, vary, contest, as_of, kinds)
    runner = _engine(engine, workers=workers, chunksize=chunksize, client=client, n=len(values))
    if isinstance(runner, Processes):
        _check_sendable(job, values, "workers>1" if engine is None else f"engine={engine!r}")
    bar = _progress(len(values)) if progress else None
    try:
        rows = runner.run(job.rows, values, progress=bar.update if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    chosen = tuple(sorted(k.value for k in kinds)) if kinds else ()
    return Sweep(label, contest, tuple(rows), chosen)


#: Seconds a sweep runs before its progress bar appears (a quicker sweep shows none).
PROGRESS_AFTER = 2.0


def _progress(total: int) -> Any:
    """A tqdm bar, shown after :data:`PROGRESS_AFTER` seconds: a widget in Jupyter when
    ipywidgets is there, else text (tqdm.auto would warn about the missing widgets instead)."""
    if importlib.util.find_spec("ipywidgets") is not None:
        from tqdm.auto import tqdm
    else:
        from tqdm.std import tqdm
    return tqdm(total=total, desc="sweep", unit="variant", delay=PROGRESS_AFTER)


def _engine(
    engine: str | Engine | None, *, workers: int, chunksize: int | None, client: Any, n: int
) -> Engine:
    if engine is None:
        if workers == 1 or n <= 1:
            return Serial()
        return Processes(workers=workers, chunksize=chunksize)
    if isinstance(engine, str):
        options: dict[str, Any] = {"chunksize": chunksize} if chunksize else {}
        if engine == "processes":
            options["workers"] = max(workers, 2) if workers == 1 else workers
        elif engine == "dask":
            options["client"] = client
        return engine_named(engine, **options)
    if not isinstance(engine, Engine):
        raise EditError(
            "sweep(): expected engine= a name (serial, processes, dask) or an object with a "
            f"run(rows, values) method; found {engine!r}"
        )
    return engine


def _check_sendable(job: _Job, values: list[Any], how: str) -> None:
    try:
        pickle.dumps((job, values))
    except (pickle.PicklingError, TypeError, AttributeError) as error:
        raise EditError(
            f"sweep({how}): expected a variable and values that can be sent to other "
            "processes (a module-level function or one of EventTime, Votes, Margin, EventField, "
            f"ContestFact, NewEvent; not a lambda or a local function); found: {error}"
        ) from None
