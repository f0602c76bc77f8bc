"""Forking a scenario: the chain of edits of :class:`Fork`, applied by :meth:`Fork.build`,
and the one-edit functions built on it (:func:`insert_event`, :func:`shift_event`, ...)."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from datetime import timedelta
from typing import Any

import attrs

from simulator.analysis.whatif.edits import EditError, event_dict, position_for, shifted, validated
from simulator.input.loader import scenario_to_dict
from simulator.model.events import Event
from simulator.model.scenario import Scenario


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
                event_dict(self.scenario, old.event)
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

    def __str__(self) -> str:
        return (
            f"a fork of {self.scenario.title!r}: {len(self.items)} events in its log "
            f"({len(self.scenario.events)} in the scenario's); .build() makes the scenario"
        )

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython's plain-text display (Jupyter): one line, not every event."""
        p.text(str(self))

    def build(self) -> Scenario:
        """The new scenario, re-indexed and checked by the loader (:class:`ScenarioError`)."""
        items = list(self.items)
        if any(not isinstance(it.event, Event) for it in items):
            read = validated(self.scenario, self.contests, [it.event for it in items])
            items = [attrs.evolve(it, event=e) for it, e in zip(items, read.events, strict=True)]
        events: list[Event] = []
        placing: list[Event] = []
        for i, it in enumerate(items):
            assert isinstance(it.event, Event)
            e = it.event
            if it.delta:
                e = shifted(e, it.delta, self.scenario, f"events[{i}]")
            (placing if it.by_time else events).append(e)
        for e in placing:
            events.insert(position_for(events, e), e)
        return validated(self.scenario, self.contests, events)


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
