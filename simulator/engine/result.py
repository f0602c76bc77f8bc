"""What a replay produces: rulings, the outcome, and the JSON document of docs/results.md."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime, timedelta
from fractions import Fraction
from functools import cache
from typing import Any, TypeVar, overload

import attrs

from simulator.engine import shown
from simulator.law.calendar import Deadline
from simulator.law.cite import Cite, joined
from simulator.law.labels import label
from simulator.law.vocab import (
    Choice,
    DeadlineKind,
    Decider,
    Decision,
    Pending,
    PeriodKind,
    RemarkKind,
    RulingKind,
    RunoffStatus,
)

RESULT_FORMAT = "electsim-result/v1"


def _plural(n: int, one: str) -> str:
    return f"{n} {one}" if n == 1 else f"{n} {one}s"


def exact(value: Fraction) -> str:
    """An exact number as the result document writes it: ``"2337"``, ``"196.75"`` or ``"500/3"``.

    >>> exact(Fraction(4674, 2)), exact(Fraction(787, 4)), exact(Fraction(500, 3))
    ('2337', '196.75', '500/3')
    """
    return _exact(value.numerator, value.denominator)


@cache
def _exact(numerator: int, denominator: int) -> str:
    """:func:`exact` of ``numerator / denominator`` in lowest terms, written once for each
    (a Fraction's own hash is slow to work out; its two whole numbers' is not)."""
    value = Fraction(numerator, denominator)
    if value.denominator == 1:
        return str(value.numerator)
    d = value.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return f"{value.numerator}/{value.denominator}"
    places = max(twos, fives)
    scaled = value * 10**places
    assert scaled.denominator == 1
    sign = "-" if scaled < 0 else ""
    digits = str(abs(scaled.numerator)).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


@attrs.frozen(repr=False)
class Ruling:
    """One thing the law says follows from the facts, with the subsection it comes from. Its
    ``repr`` is one line of words:

    >>> _example().ruling("elected")
    <Ruling elected, 2027-10-12 11:00: Ann elected>
    """

    kind: RulingKind
    at: datetime
    cites: tuple[Cite, ...]
    text: str
    seq: int = -1  # index of the event that led to it (-1: the end of the log)
    candidates: tuple[str, ...] = ()
    extra: tuple[tuple[str, Any], ...] = ()

    @property
    def cite(self) -> str:
        return joined(self.cites)

    def __repr__(self) -> str:
        cite = f" ({self.cite})" if self.cites else ""
        return f"<Ruling {label(self.kind)}{cite}, {self.at:%Y-%m-%d %H:%M}: {self.text}>"

    def get(self, key: str) -> Any:
        for k, v in self.extra:
            if k == key:
                return v
        return None

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "seq": self.seq,
            "at": self.at.isoformat(),
            "kind": self.kind.value,
            "cite": self.cite,
            "candidates": list(self.candidates),
            "text": self.text,
        }
        for k, v in self.extra:
            doc[k] = v.isoformat() if isinstance(v, datetime) else v
        doc["url"] = self.cites[0].url if self.cites else None
        return doc


@attrs.frozen(repr=False)
class Remark:
    """A fact of the log that does not fit the contest's statutory calendar, said at its event
    (``seq``, known to the board ``at``) in words, with the provision
    (:mod:`simulator.law.remarks`). It rules nothing; ``reading`` names the interpretation
    switch the fact relies on, if any.

    >>> from datetime import datetime
    >>> Remark(3, datetime(2027, 11, 2, 21), RemarkKind.RETURNS_OFF_DAY, "returns dated ...", ())
    <Remark returns on another day, 2027-11-02 21:00: returns dated ...>
    """

    seq: int
    at: datetime
    kind: RemarkKind
    text: str
    cites: tuple[Cite, ...]
    reading: str | None = None

    @property
    def cite(self) -> str:
        return joined(self.cites)

    def __repr__(self) -> str:
        return f"<Remark {label(self.kind)}, {self.at:%Y-%m-%d %H:%M}: {self.text}>"

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "at": self.at.isoformat(),
            "kind": self.kind.value,
            "text": self.text,
            "cite": self.cite,
            "reading": self.reading,
        }


@attrs.frozen
class Threshold:
    """What a ``majority_threshold`` ruling says, for the views: the kind of threshold
    (``majority`` or ``substantial plurality``), the number to exceed written with thousands
    separators (an integer, a decimal or a fraction, exactly), and the votes in the total."""

    what: str
    limit: str
    total: int

    @classmethod
    def of(cls, r: Ruling) -> Threshold:
        """
        >>> from datetime import datetime
        >>> r = Ruling(RulingKind.MAJORITY_THRESHOLD, datetime(2027, 1, 1), (),
        ...     "majority (more than half)", extra=(("threshold", "2337"), ("total", 4674)))
        >>> Threshold.of(r)
        Threshold(what='majority', limit='2,337', total=4674)
        """
        limit = str(r.get("threshold"))
        return cls(
            r.text.split(" (")[0],
            f"{int(limit):,}" if limit.isdigit() else limit,
            int(r.get("total") or 0),
        )


@attrs.frozen(repr=False)
class Outcome:
    """Who is elected or nominated, the seats left vacant, the runoff's status and what the
    contest still waits for. In Jupyter it shows as a table, elsewhere as its words:

    >>> Outcome(elected=("Ann",))
    <Outcome: elected Ann>
    """

    elected: tuple[str, ...] = ()
    nominated: tuple[str, ...] = ()
    vacant_seats: int = 0
    runoff_status: RunoffStatus = RunoffStatus.NONE
    runoff_candidates: tuple[str, ...] = ()
    pending: Pending | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "elected": list(self.elected),
            "nominated": list(self.nominated),
            "vacant_seats": self.vacant_seats,
            "runoff": {
                "status": self.runoff_status.value,
                "candidates": list(self.runoff_candidates),
            },
            "pending": self.pending.value if self.pending else None,
        }

    def words(self) -> str:
        """The outcome in a few words, for people: identifiers become words
        (:func:`simulator.law.labels.label`).

        >>> Outcome(runoff_status=RunoffStatus.AVAILABLE, runoff_candidates=("Ann", "Bob"),
        ...     pending=Pending.RUNOFF_REQUEST).words()
        'runoff may be requested (Ann, Bob); waiting for a runoff request'
        >>> Outcome(vacant_seats=2).words(), Outcome().words()
        ('2 vacant seats', 'no outcome')
        """
        out = []
        if self.elected:
            out.append(f"elected {', '.join(self.elected)}")
        if self.nominated:
            out.append(f"nominated {', '.join(self.nominated)}")
        if self.vacant_seats:
            out.append(_plural(self.vacant_seats, "vacant seat"))
        if self.runoff_status is not RunoffStatus.NONE:
            who = f" ({', '.join(self.runoff_candidates)})" if self.runoff_candidates else ""
            out.append(f"runoff {label(self.runoff_status)}{who}")  # never for a runoff not held
        if self.pending is not None:
            out.append(f"waiting for {label(self.pending)}")
        return "; ".join(out) or "no outcome"

    def __repr__(self) -> str:
        return f"<Outcome: {self.words()}>"

    def _repr_html_(self) -> str | None:
        return shown.html(self)

    def parts(self) -> tuple[OutcomePart, ...]:
        """The outcome in words, in the order every view shows it (the text timeline, the
        charts, the report, the notebook tables, a sweep's rows)."""
        runoff = self.runoff_status.value
        if self.runoff_candidates and self.runoff_status is not RunoffStatus.NONE:
            runoff += f" ({', '.join(self.runoff_candidates)})"
        return (
            OutcomePart("elected", ", ".join(self.elected), self.elected, bool(self.elected)),
            OutcomePart(
                "nominated", ", ".join(self.nominated), self.nominated, bool(self.nominated)
            ),
            OutcomePart("vacant seats", str(self.vacant_seats), (), self.vacant_seats > 0),
            OutcomePart(
                "runoff",
                runoff,
                self.runoff_candidates,
                self.runoff_status is not RunoffStatus.NONE,
            ),
            OutcomePart(
                "pending",
                self.pending.value if self.pending else "nothing",
                (),
                self.pending is not None,
            ),
        )

    def brief(self, sep: str = ": ") -> tuple[str, ...]:
        """The parts worth a short summary's room, each ``label`` + ``sep`` + its words.

        >>> Outcome(elected=("Ann",), runoff_status=RunoffStatus.HELD).brief(" ")
        ('elected Ann', 'runoff held')
        """
        return tuple(f"{p.label}{sep}{p.words}" for p in self.parts() if p.notable)


@attrs.frozen
class Option:
    """One answer open to a pending decision, and what it leads to: ``effects`` are the
    identifiers of what follows (``name_removed``, ``reopen``...), ``text`` says it in words."""

    choice: Choice
    effects: tuple[str, ...]
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"choice": self.choice.value, "effects": list(self.effects), "text": self.text}


@attrs.frozen
class PendingDecision:
    """A decision the law leaves to someone that the log has not recorded (docs/history.md):
    what is to be decided, by whom, under which provisions, since when (the moment the facts
    that call for it were known), about whom, and each answer open with what it leads to.
    A replay never decides it for the board where the log stops."""

    decision: Decision
    by: Decider
    since: datetime
    cites: tuple[Cite, ...]
    candidates: tuple[str, ...]
    options: tuple[Option, ...]

    @property
    def cite(self) -> str:
        return joined(self.cites)

    @property
    def heading(self) -> str:
        """What is to be decided and about whom, in words: "reprint determination (Bob)"."""
        return f"{label(self.decision)} ({', '.join(self.candidates)})"

    def to_json(self) -> dict[str, Any]:
        return {
            "decision": self.decision.value,
            "by": self.by.value,
            "since": self.since.isoformat(),
            "cite": self.cite,
            "candidates": list(self.candidates),
            "options": [o.to_json() for o in self.options],
        }

    def words(self) -> str:
        """The decision in words (labels, not identifiers)."""
        who = ", ".join(self.candidates)
        head = f"{label(self.decision)} ({who}), by {label(self.by)}"
        answers = "; ".join(f"if {label(o.choice)}: {o.text}" for o in self.options)
        return f"{head}: {answers}"


@attrs.frozen
class OutcomePart:
    """One line of an outcome: its label, its words ("" when there is nobody to name), the
    names it holds, and whether it says something worth a short summary's room."""

    label: str
    words: str
    names: tuple[str, ...] = ()
    notable: bool = False


@attrs.frozen
class TimelineEntry:
    """One line of a contest's timeline: an event (``seq`` its index in the log), a ruling
    (``seq`` the event that led to it) or a deadline (no ``seq``); ``candidates`` are the people
    it is about."""

    at: datetime
    what: str  # event | ruling | deadline | remark
    label: str
    cite: str = ""
    kind: str = ""
    seq: int | None = None
    candidates: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "at": self.at.isoformat(),
            "what": self.what,
            "label": self.label,
            "cite": self.cite,
            "kind": self.kind,
            "seq": self.seq,
            "candidates": list(self.candidates),
        }


@attrs.frozen
class Period:
    """A stretch of time the contest went through: a filing period (the original, a reopened
    or an extended one), a window for runoff requests, the days tied candidates may withdraw."""

    kind: PeriodKind
    start: datetime
    end: datetime
    cites: tuple[Cite, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "cite": joined(self.cites),
        }


_WINDOW_KIND = {
    "original": PeriodKind.FILING,
    "reopened": PeriodKind.FILING_REOPENED,
    "extended": PeriodKind.FILING_EXTENDED,
}
_REQUEST_DEADLINES = (DeadlineKind.RUNOFF_REQUEST, DeadlineKind.SECOND_PRIMARY_REQUEST)


def periods_of(
    windows: Iterable[tuple[str, datetime, datetime, Cite]],
    rulings: Sequence[Ruling],
    deadlines: Sequence[Deadline],
    timeline: Sequence[TimelineEntry],
) -> tuple[Period, ...]:
    """A contest's periods, in order of their start: its filing windows (``(kind, opens,
    closes, cite)``, kind original, reopened or extended), each runoff request window (from the
    ruling that made a runoff available to the request deadline, G.S. 163-293(c), 163-291(6))
    and each tie-withdrawal window (from the canvass or recount that left the tie to its
    deadline, G.S. 163-293(d))."""
    out = [
        Period(_WINDOW_KIND[kind], opens, closes, (cite,)) for kind, opens, closes, cite in windows
    ]
    for r in rulings:
        if r.kind is RulingKind.RUNOFF_AVAILABLE:
            due = [d for d in deadlines if d.kind in _REQUEST_DEADLINES and d.due >= r.at]
            if due:
                first = min(due, key=lambda d: d.due)
                out.append(Period(PeriodKind.RUNOFF_REQUEST, r.at, first.due, first.cites))
    for d in deadlines:
        if d.kind is DeadlineKind.TIE_WITHDRAWAL:
            counted = [
                t.at
                for t in timeline
                if t.what == "event"
                and t.kind in ("canvass_held", "recount_held")
                and t.at <= d.due
            ]
            start = max(counted, default=d.due - timedelta(days=1))
            out.append(Period(PeriodKind.TIE_WITHDRAWAL, start, d.due, d.cites))
    return tuple(sorted(dict.fromkeys(out), key=lambda p: p.start))


ItemT = TypeVar("ItemT")


class Made(Sequence[ItemT]):
    """A tuple made the first time it is read. A result's timeline and periods are built this
    way, so that a replay read only for its outcome and rulings (a sweep, a notebook's
    comparison, a benchmark) does not build a line for every event. It compares, hashes,
    prints and pickles as the tuple it stands for."""

    __slots__ = ("_items", "_make")

    def __init__(self, make: Callable[[], tuple[ItemT, ...]]) -> None:
        self._make: Callable[[], tuple[ItemT, ...]] | None = make
        self._items: tuple[ItemT, ...] | None = None

    @property
    def items(self) -> tuple[ItemT, ...]:
        items = self._items
        if items is None:
            assert self._make is not None
            items = self._items = self._make()
            self._make = None  # what it was made from is let go
        return items

    @overload
    def __getitem__(self, i: int) -> ItemT: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[ItemT, ...]: ...
    def __getitem__(self, i: int | slice) -> ItemT | tuple[ItemT, ...]:
        return self.items[i]

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[ItemT]:
        return iter(self.items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Made):
            other = other.items
        return self.items == other if isinstance(other, tuple) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.items)

    def __repr__(self) -> str:
        return repr(self.items)

    def __reduce__(self) -> tuple[Any, ...]:
        return (tuple, (self.items,))

    def _repr_html_(self) -> str | None:
        """Jupyter's display: a contest's timeline (or its periods) as a table."""
        return shown.html(self.items)


class Deadlines(Made[Deadline]):
    """A result's deadlines, each with where it stands (:mod:`simulator.engine.deadline_states`),
    made the first time they are read; ``listed`` holds them as the contest's state lists them,
    in the order they were set and without where they stand: what a reader of only their kinds,
    days and citations needs (the explorer reads those of every course it replays, and where
    they stand of almost none)."""

    __slots__ = ("listed",)

    def __init__(
        self, listed: tuple[Deadline, ...], make: Callable[[], tuple[Deadline, ...]]
    ) -> None:
        super().__init__(make)
        self.listed = listed


def listed_deadlines(result: ContestResult) -> Sequence[Deadline]:
    """The result's deadlines in any order, where each stands or not (:class:`Deadlines`): for
    reading their kinds, days and citations only."""
    deadlines = result.deadlines
    return deadlines.listed if isinstance(deadlines, Deadlines) else deadlines


@attrs.frozen(repr=False)
class ContestResult:
    """One contest as the replay left it: its outcome, the rulings that led there, the
    deadlines, the timeline and the count of each round. In Jupyter it shows as tables (the
    outcome, the votes, the rulings, the deadlines and the timeline); its ``repr`` is one line.
    """

    id: str
    title: str
    method: str
    stage: str
    seats: int
    state: str
    outcome: Outcome
    rulings: tuple[Ruling, ...]
    deadlines: Sequence[Deadline]  # a tuple, or one made when first read (Deadlines)
    timeline: Sequence[TimelineEntry]  # a tuple, or one made when first read (Made)
    tallies: tuple[tuple[tuple[str, int], ...], ...] = ()  # per round, best first
    path: tuple[tuple[str, str, str], ...] = ()  # (from phase, trigger, to phase) taken
    periods: Sequence[Period] = ()  # the same
    #: decisions the law leaves to someone that the log has not recorded yet
    decisions: tuple[PendingDecision, ...] = ()
    #: facts that do not fit the statutory calendar, in log order (a tuple, or made when read)
    remarks: Sequence[Remark] = ()

    @property
    def votes(self) -> Mapping[str, int]:
        """The votes of the latest round that was counted (the runoff's when one was held,
        else the election's or the primary's), by candidate, best first; empty before any
        returns.

        >>> c = _example()
        >>> c.votes["Bob"], list(c.votes)
        (420, ['Ann', 'Bob', 'Cy'])
        """
        return dict(self.tallies[-1]) if self.tallies else {}

    @property
    def runner_up(self) -> str | None:
        """Second place in the latest round's count, or None (no count, or one candidate).

        >>> _example().runner_up
        'Bob'
        """
        latest = self.tallies[-1] if self.tallies else ()
        return latest[1][0] if len(latest) > 1 else None

    def ruling(self, kind: RulingKind | str) -> Ruling | None:
        """The latest ruling of ``kind`` (a :class:`~simulator.law.vocab.RulingKind` or its
        value, ``"runoff_called"``), or None when there is none.

        >>> c = _example()
        >>> c.ruling("elected").candidates, c.ruling(RulingKind.RUNOFF_CALLED) is None
        (('Ann',), True)
        """
        wanted = RulingKind(kind)
        return next((r for r in reversed(self.rulings) if r.kind is wanted), None)

    def __repr__(self) -> str:
        return f"<ContestResult {self.id}: {self.outcome.words()}>"

    def _repr_html_(self) -> str | None:
        return shown.html(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "method": self.method,
            "stage": self.stage,
            "seats": self.seats,
            "state": self.state,
            "outcome": self.outcome.to_json(),
            "rulings": [r.to_json() for r in self.rulings],
            "deadlines": [d.to_json() for d in self.deadlines],
            "timeline": [t.to_json() for t in self.timeline],
            "tallies": [{"round": i, "votes": dict(t)} for i, t in enumerate(self.tallies)],
            "periods": [p.to_json() for p in self.periods],
            "remarks": [r.to_json() for r in self.remarks],
        } | ({"decisions": [d.to_json() for d in self.decisions]} if self.decisions else {})


@attrs.frozen(repr=False)
class Result:
    """What a replay gives back: each contest's result, as the board knew it ``as_of`` a
    moment (None: the whole log). In Jupyter it shows as tables; its ``repr`` is one line a
    contest:

    >>> Result("Council seat A, 2027", (_example(),))
    <Result of 'Council seat A, 2027': seat-a: elected Ann>
    """

    scenario: str
    contests: tuple[ContestResult, ...]
    as_of: datetime | None = None
    #: the interpretation switches the scenario set otherwise than their defaults (docs/readings.md)
    readings: tuple[tuple[str, bool | str], ...] = ()

    def contest(self, contest_id: str) -> ContestResult:
        for c in self.contests:
            if c.id == contest_id:
                return c
        raise KeyError(contest_id)

    def __repr__(self) -> str:
        head = f"<Result of {self.scenario!r}"
        if self.as_of is not None:
            head += f" as of {self.as_of.isoformat()}"
        if not self.contests:
            return head + ": no contests>"
        lines = [f"{c.id}: {c.outcome.words()}" for c in self.contests]
        if len(lines) == 1:
            return f"{head}: {lines[0]}>"
        return head + ":\n" + "\n".join(f"  {line}" for line in lines) + ">"

    def _repr_html_(self) -> str | None:
        return shown.html(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RESULT_FORMAT,
            "scenario": self.scenario,
            "as_of": self.as_of.isoformat() if self.as_of else None,
            "interpretations": dict(self.readings),
            "contests": [c.to_json() for c in self.contests],
        }


def _example() -> ContestResult:
    """A small decided contest, for the examples above (its ruling cites nothing: the law's
    citations are written in the rule tables only)."""
    at = datetime(2027, 10, 12, 11)
    elected = Ruling(RulingKind.ELECTED, at, (), "Ann elected", candidates=("Ann",))
    return ContestResult(
        "seat-a",
        "Council seat A",
        "nonpartisan-runoff",
        "election",
        1,
        "decided",
        Outcome(elected=("Ann",)),
        (elected,),
        (),
        (),
        tallies=((("Ann", 560), ("Bob", 420), ("Cy", 100)),),
    )
