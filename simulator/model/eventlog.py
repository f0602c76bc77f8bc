"""The event log of a scenario: its events in order, some of them held as columns.

A log read from a file is mostly votes: one ``votes_cast`` event per ballot, each for one name,
with nothing else written. The loader keeps a run of such votes as columns
(:class:`VoteColumns`: the times, contests, names and counts of the run, each a list) instead
of one frozen :class:`~simulator.model.events.VotesCast` per vote, and :class:`EventLog` strings
those runs and the other events together. The replay reads the columns directly
(:meth:`EventLog.parts`); anything else sees an ordinary sequence of events: reading a vote
of a run makes that one event (:meth:`VoteColumns.event`), and going through the whole log
makes every event once and keeps them (then the columns are let go).

An :class:`EventLog` equals the tuple of its events (and any log with the same events), hashes
like it, and pickles as its parts.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from itertools import islice, repeat
from typing import Any, overload

from simulator.model.events import Event, VotesCast, column_builder

_MANY = column_builder(VotesCast, "candidate", "count")


class VoteColumns:
    """A run of ``votes_cast`` events with no ``id`` and no ``precinct``, as columns: event
    ``start + k`` of the log is a vote at ``at[k]`` in contest ``contest[k]`` for
    ``candidate[k]``, ``count[k]`` votes (1 each where ``count`` is None), read from line
    ``line[k]`` of its file (None: no lines). ``ordered``: whether the times are known to be in
    order (None: not known yet; :meth:`in_order` finds out once). ``owners``, where given: each
    name -> its contest, such that ``contest[k]`` is ``owners[candidate[k]]`` for every vote
    (the loader knows it where no name is spelt in two contests), so the votes of each contest
    and name are counted from the names alone."""

    __slots__ = ("at", "candidate", "contest", "count", "line", "ordered", "owners", "start")

    def __init__(
        self,
        start: int,
        at: list[datetime],
        contest: list[str],
        candidate: list[str],
        count: list[int] | None = None,
        line: list[int | None] | None = None,
        ordered: bool | None = None,
        owners: Mapping[str, str] | None = None,
    ) -> None:
        n = len(at)
        if not (len(contest) == len(candidate) == n) or any(
            column is not None and len(column) != n for column in (count, line)
        ):
            raise ValueError("the columns of a run of votes differ in length")
        self.start = start
        self.at = at
        self.contest = contest
        self.candidate = candidate
        self.count = count
        self.line = line
        self.ordered = ordered
        self.owners = owners

    def in_order(self) -> bool:
        """Whether each vote's time is no earlier than the one before it."""
        if self.ordered is None:
            at = self.at
            self.ordered = all(map(operator.le, at, islice(at, 1, None)))
        return self.ordered

    def __len__(self) -> int:
        return len(self.at)

    def counts(self) -> Iterable[int]:
        """The votes of each event of the run."""
        return repeat(1, len(self.at)) if self.count is None else self.count

    def event(self, k: int) -> VotesCast:
        """The run's ``k``-th event (from 0)."""
        return VotesCast(
            at=self.at[k],
            contest=self.contest[k],
            index=self.start + k,
            line=None if self.line is None else self.line[k],
            candidate=self.candidate[k],
            count=1 if self.count is None else self.count[k],
        )

    def events(self) -> list[Event]:
        """The run's events, in order (made column by column: see ``column_builder``)."""
        n = len(self.at)
        index = range(self.start, self.start + n)
        return _MANY(n, self.at, self.contest, index, self.line, self.candidate, self.counts())

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            VoteColumns,
            (
                self.start,
                self.at,
                self.contest,
                self.candidate,
                self.count,
                self.line,
                self.ordered,
                self.owners,
            ),
        )


Part = Event | VoteColumns


class EventLog(Sequence[Event]):
    """A scenario's events in order: :class:`Event` values and runs of votes held as
    :class:`VoteColumns` (see the module's documentation)."""

    __slots__ = ("_all", "_len", "_parts", "_starts")

    def __init__(self, parts: Iterable[Part] = ()) -> None:
        self._parts: Sequence[Part] = tuple(parts)
        self._all: tuple[Event, ...] | None = None
        self._starts: list[int] | None = None
        if not any(type(p) is VoteColumns for p in self._parts):
            self._all = self._parts  # type: ignore[assignment]  # events only
        self._len = sum(len(p) if type(p) is VoteColumns else 1 for p in self._parts)

    def parts(self) -> Sequence[Part]:
        """The log as its parts: events, and runs of votes as columns (none, once every event
        was made)."""
        return self._parts

    def events(self) -> tuple[Event, ...]:
        """Every event of the log, made once (runs of votes are let go of then)."""
        made = self._all
        if made is None:
            out: list[Event] = []
            for p in self._parts:
                if type(p) is VoteColumns:
                    out.extend(p.events())
                else:
                    out.append(p)  # type: ignore[arg-type]
            made = tuple(out)
            self._all = self._parts = made
            self._starts = None
        return made

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events())

    def __reversed__(self) -> Iterator[Event]:
        return reversed(self.events())

    @overload
    def __getitem__(self, i: int) -> Event: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, i: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(i, slice):
            return self.events()[i]
        if self._all is not None:
            return self._all[i]
        n = self._len
        k = i.__index__()
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError("event log index out of range")
        starts = self._starts
        if starts is None:  # where each part starts in the log
            starts, at = [], 0
            for p in self._parts:
                starts.append(at)
                at += len(p) if type(p) is VoteColumns else 1
            self._starts = starts
        j = bisect.bisect_right(starts, k) - 1
        part = self._parts[j]
        if type(part) is VoteColumns:
            return part.event(k - starts[j])
        return part  # type: ignore[return-value]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog):
            return self is other or (self._len == other._len and self.events() == other.events())
        if isinstance(other, tuple):
            return self.events() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.events())

    def __add__(self, other: object) -> tuple[Event, ...]:
        if isinstance(other, EventLog | tuple):
            return self.events() + tuple(other)
        return NotImplemented

    def __radd__(self, other: object) -> tuple[Event, ...]:
        if isinstance(other, tuple):
            return other + self.events()
        return NotImplemented

    def __repr__(self) -> str:
        return f"EventLog({self.events()!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (EventLog, (self._parts,))


def event_log(events: Iterable[Event]) -> EventLog:
    """``events`` as a log (a log is itself)."""
    return events if type(events) is EventLog else EventLog(events)
