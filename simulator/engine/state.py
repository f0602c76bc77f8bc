"""A contest's state during replay: the frozen :class:`State`, the :class:`Draft` a step works
on, and the :class:`Context` (what a contest's replay knows besides its own state).

Each step opens a typed draft over the frozen state, changes it, and freezes it again; phase
changes go through :meth:`Draft.go`, which refuses any the transition table lacks. The draft
copies the state's fields only when a step changes one (one shallow dict copy, the values
shared), so a step that changes nothing costs no copy, and the rulings live in a :class:`Log`
that appends in place when nothing newer shares it, so a step costs the same however long the
story already is.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import date, datetime, time
from enum import Enum
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Generic, TypedDict, TypeVar, Unpack
from zoneinfo import ZoneInfo

import attrs

from simulator.engine.result import Ruling
from simulator.law import calendar as cal
from simulator.law.calendar import Deadline, OfficeCalendar
from simulator.law.cite import Cite
from simulator.law.machine import IllegalTransition, Phase, allowed, settled_phase
from simulator.law.readings import Interpretations
from simulator.law.tables import filing
from simulator.law.vocab import (
    CandStatus,
    DeadlineKind,
    Method,
    PoolKind,
    RulingKind,
    RunoffStatus,
    Stage,
    Staged,
    TimerTrigger,
    WindowKind,
    is_partisan_primary,
)
from simulator.model.events import WRITE_IN_GENERIC
from simulator.model.scenario import Contest

ACTIVE = CandStatus.ACTIVE
FAR_FUTURE = datetime(9999, 1, 1, tzinfo=ZoneInfo("UTC"))


_FOR = object()  # the key of a candidate index that holds the tuple it describes


def cand_index(cands: tuple[Cand, ...], index: dict[Any, Any] | None) -> dict[Any, Any]:
    """Name -> position in ``cands``, so that finding a candidate does not scan the tuple (a
    contest may have thousands). An index is handed from state to state; it describes the one
    tuple stored under :data:`_FOR`, and is rebuilt when that is not ``cands``."""
    if index is not None and index.get(_FOR) is cands:
        return index
    fresh: dict[Any, Any] = {}
    for i, c in enumerate(cands):
        fresh.setdefault(c.name, i)
    fresh[_FOR] = cands
    return fresh


def _find(cands: tuple[Cand, ...], index: dict[Any, Any], name: str) -> Cand | None:
    at = index.get(name)
    return None if at is None else cands[at]


@attrs.frozen
class Cand:
    """A candidate as the contest knows them."""

    name: str
    party: str | None = None
    filed_at: datetime | None = None
    status: CandStatus = ACTIVE
    off_at: datetime | None = None
    on_ballot: bool = True  # the name is (or stays) on the ballot
    counted: bool = True  # votes for them count for any purpose
    vacant_if_elected: Cite | None = None  # winning makes the office vacant (and why)
    reopened: bool = False  # filed in a reopened or extended period
    replaces: str | None = None  # a replacement nominee credited with a printed name's votes
    #: a death or disqualification noticed after the candidate withdrew: the withdrawal's
    #: effects stand, but the person cannot file again
    barred: CandStatus | None = None

    @property
    def active(self) -> bool:
        return self.status is ACTIVE


class AtReopenedClose(Enum):
    """What the close of a reopened filing period does in a party primary (set by the rule of
    the ``departures`` table that reopened it)."""

    #: G.S. 163-110: as many candidates as places or fewer are declared the party's nominees
    COUNT = "count"
    #: 163-112(a), (c): if nobody filed, those left are certified
    CERTIFY_IF_NOBODY_FILED = "certify_if_nobody_filed"


@attrs.frozen
class Timer:
    due: datetime
    trigger: TimerTrigger


@attrs.frozen
class Window:
    """A period in which notices of candidacy are accepted."""

    opens: datetime
    closes: datetime
    cite: Cite
    kind: WindowKind


@attrs.frozen
class Pool:
    """What an open post-election window is about (requests, tie withdrawals)."""

    kind: PoolKind
    leaders: tuple[str, ...] = ()  # declared elected unless a runoff is called
    eligible: tuple[str, ...] = ()  # who may request a runoff, or who is tied
    requests: tuple[str, ...] = ()  # valid requests, in order
    seats: int = 1  # places the runoff decides
    request_due: datetime | None = None
    withdraw_due: datetime | None = None
    elected_first: tuple[str, ...] = ()  # already elected by majority (groups)


ItemT = TypeVar("ItemT")


class Log(Generic[ItemT]):
    """An append-only sequence that successive states share.

    Each log is a view of the first ``n`` items of a list. Appending to a log that sees the
    whole list appends in place and returns a longer view; appending to an older view (a state
    kept from before, or forked) copies its items first. No view ever changes, so states stay
    values, and a story of n rulings costs n appends, not n copies of a growing tuple.
    """

    __slots__ = ("_items", "_n")

    def __init__(self, items: list[ItemT] | None = None, n: int | None = None) -> None:
        self._items: list[ItemT] = items if items is not None else []
        self._n = len(self._items) if n is None else n

    def append(self, item: ItemT) -> Log[ItemT]:
        items = self._items
        if self._n == 0:
            items = []
        elif len(items) != self._n:
            items = items[: self._n]
        items.append(item)
        return Log(items, self._n + 1)

    def __len__(self) -> int:
        return self._n

    @property
    def stored(self) -> int:
        """How many items the list this log views holds (its own and any appended since)."""
        return len(self._items)

    def drop_after(self, stored: int) -> None:
        """Forget the items appended in place to this log's list since it held ``stored``:
        only when no view of them is kept (a step tried on a blind draft that gave up)."""
        del self._items[stored:]

    def __iter__(self) -> Iterator[ItemT]:
        items, n = self._items, self._n
        return iter(items if len(items) == n else items[:n])

    def __reversed__(self) -> Iterator[ItemT]:
        items, n = self._items, self._n
        return reversed(items) if len(items) == n else map(items.__getitem__, range(n - 1, -1, -1))

    def as_tuple(self) -> tuple[ItemT, ...]:
        return tuple(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Log):
            return NotImplemented
        return self.as_tuple() == other.as_tuple()

    def __hash__(self) -> int:
        return hash(self.as_tuple())

    def __repr__(self) -> str:
        return f"Log({list(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Log, (list(self),))


# Not slotted: a draft reads the fields as one dict and copies it on its first change (Draft).
@attrs.frozen(slots=False)
class State:
    """One contest's state after some prefix of the log."""

    phase: Phase
    clock: datetime
    cands: tuple[Cand, ...] = ()
    windows: tuple[Window, ...] = ()
    original_close: datetime | None = None
    filed_at_close: int | None = None
    printed_at: datetime | None = None
    reprint: bool | None = None
    round: int = 0
    tallies: tuple[tuple[tuple[str, int], ...], ...] = ((),)
    lots: tuple[str, ...] = ()
    recounted: bool = False
    declared_at: datetime | None = None
    pool: Pool | None = None
    early_requests: tuple[tuple[str, datetime, int], ...] = ()
    runoff_ballot: tuple[str, ...] = ()
    runoff_status: RunoffStatus = RunoffStatus.NONE
    elected: tuple[str, ...] = ()
    nominated: tuple[str, ...] = ()
    vacant: int = 0
    #: elected, nominated and vacant seats as they stood before the runoff's (second primary's)
    #: result was first declared: what a recount of that round declares again from
    before_runoff: tuple[tuple[str, ...], tuple[str, ...], int] | None = None
    sworn: tuple[tuple[str, datetime], ...] = ()  # who took the oath, and when
    to_nominate: int = 0
    after_reopen: AtReopenedClose = AtReopenedClose.COUNT
    awaiting_reprint: tuple[str, ...] = ()  # names kept for want of a reprint decision
    # names whose fate waits for the board's reprint determination: (name, cites, verb, notice)
    deferred: tuple[tuple[str, tuple[Cite, ...], str, datetime], ...] = ()
    first_vote_at: datetime | None = None
    timers: tuple[Timer, ...] = ()
    deadlines: tuple[Deadline, ...] = ()
    ruling_log: Log[Ruling] = attrs.field(factory=Log)
    path: tuple[tuple[str, str, str], ...] = ()

    #: where each candidate is in ``cands`` (see :func:`cand_index`); not part of the state
    cand_index: dict[Any, Any] | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def rulings(self) -> tuple[Ruling, ...]:
        return self.ruling_log.as_tuple()

    def cand(self, name: str) -> Cand | None:
        return _find(self.cands, self.index(), name)

    def index(self) -> dict[Any, Any]:
        """Name -> position in ``cands`` (see :func:`cand_index`), kept with the state."""
        index = cand_index(self.cands, self.cand_index)
        if index is not self.cand_index:
            self.__dict__["cand_index"] = index  # a look-up cache, not part of the state
        return index

    def evolved(self, **kw: Any) -> State:
        """The state with some fields changed: ``attrs.evolve`` without re-running the
        initializer (one shallow copy of the fields); a name that is no field is a bug."""
        check_fields(kw)
        fields = dict(self.__dict__)
        fields.update(kw)
        state = object.__new__(State)
        object.__setattr__(state, "__dict__", fields)
        return state

    @property
    def tally(self) -> dict[str, int]:
        return dict(self.tallies[self.round])


#: the names of the fields of :class:`State`
STATE_FIELDS = frozenset(f.name for f in attrs.fields(State))


def check_fields(changes: dict[str, Any]) -> None:
    """Raise TypeError unless every name in ``changes`` is a field of :class:`State` (the one
    declaration of the state's fields: the draft and ``evolved`` take them from it)."""
    if not changes.keys() <= STATE_FIELDS:
        wrong = sorted(changes.keys() - STATE_FIELDS)
        raise TypeError(f"not fields of the contest's state: {', '.join(wrong)}")


class WouldChange(Exception):
    """A step tried on a :func:`blind_draft` would change the state."""


class RulingExtra(TypedDict, total=False):
    """What a ruling may carry besides its text (``Ruling.extra``, keys of the result JSON)."""

    reason: str  # why a request or a notice was refused
    threshold: str  # the majority or substantial-plurality threshold, exact
    total: int  # the votes in the total the threshold is a share of
    seats: int
    opens: datetime  # a filing period reopened or extended
    closes: datetime
    parameter: str  # a value of the law that changed over time, and where it comes from
    source: str
    rule: str  # the rule of a table that decided
    gap: str  # a gap or conflict a table names (no_provision)
    conflict: bool
    provisions: tuple[str, ...]


class CandFields(TypedDict, total=False):
    """The fields of :class:`Cand` that :meth:`Draft.update_cand` may change."""

    party: str | None
    filed_at: datetime | None
    status: CandStatus
    off_at: datetime | None
    on_ballot: bool
    counted: bool
    vacant_if_elected: Cite | None
    reopened: bool
    replaces: str | None
    barred: CandStatus | None


if TYPE_CHECKING:
    #: what the type checker knows a :class:`Draft`'s fields by: those of :class:`State`
    _Fields = State
else:
    _Fields = object


class Draft(_Fields):
    """The working copy of a :class:`State` inside one step: read a field as ``d.phase``,
    change fields with ``d.set(phase=..., round=...)``; :meth:`freeze` makes the next state.

    Copy on write: the draft reads the state's own field dict until the first change, which
    copies that dict once (the values are shared); a step that changes nothing gives back the
    state it started from, and a step that changes something builds one new state, handing it
    the draft's dict without a second copy. The draft reads the state's fields, declared once
    on :class:`State`: the type checker sees a draft as one (:data:`_Fields`); at run time it is
    a plain object whose fields are its instance dict.
    """

    __slots__ = (
        "__dict__",
        "_base",
        "_blind",
        "_grown",
        "_own",
        "at",
        "contest",
        "ctx",
        "seq",
        "trigger",
    )

    def __init__(self, base: State, ctx: Context, at: datetime, seq: int, trigger: str) -> None:
        self.__dict__ = base.__dict__  # shared until the first change (see _write)
        self._base = base
        self._own = False
        self._blind = False
        self._grown: list[Cand] | None = None
        self.contest = ctx.contest
        self.ctx = ctx
        self.at = at
        self.seq = seq
        self.trigger = trigger

    def _write(self) -> dict[str, Any]:
        """The draft's own field dict, copied from the base state's on the first change."""
        if not self._own:
            if self._blind:
                raise WouldChange
            self.__dict__ = dict(self.__dict__)
            self._own = True
        return self.__dict__

    def set(self, **kw: Any) -> None:
        """Change fields of the state (a name that is no field of :class:`State` is a bug)."""
        check_fields(kw)
        if self._grown is not None and "cands" in kw:
            self._grown = None  # new candidates replace the list growing in place (open_cands)
        self._write().update(kw)

    @property
    def changed(self) -> bool:
        """Whether the draft differs from the state it started from."""
        return self._own

    @property
    def rulings(self) -> tuple[Ruling, ...]:
        return self.ruling_log.as_tuple()

    def freeze(self) -> State:
        grown = self._grown
        if grown is not None:  # a run of filings appended in place (see open_cands)
            frozen = tuple(grown)
            self.index()[_FOR] = frozen
            self._grown = None
            self.set(cands=frozen)
        if not self._own:
            return self._base
        state = object.__new__(State)
        object.__setattr__(state, "__dict__", self.__dict__)
        self._base, self._own = state, False  # a later change copies again
        return state

    def open_cands(self) -> None:
        """Let :meth:`add_cand` append in place, for a run of filings folded in one draft;
        :meth:`freeze` makes the candidates a tuple again. Meanwhile ``cands`` reads the
        growing list (a sequence, not a tuple: handlers only read it)."""
        index = self.index()
        grown = list(self.cands)
        index[_FOR] = grown
        self._grown = grown
        self._write()["cands"] = grown

    def index(self) -> dict[Any, Any]:
        index = cand_index(self.cands, self.cand_index)
        if index is not self.cand_index:
            # a cache, not a change: kept in the shared dict so the base state reuses it
            self.__dict__["cand_index"] = index
        return index

    def add_cand(self, cand: Cand) -> None:
        """A candidate not yet in ``cands`` joins at the end (the index grows with it)."""
        index = self.index()
        grown = self._grown
        if grown is not None:
            index[cand.name] = len(grown)
            grown.append(cand)
            return
        cands = self.cands
        new = (*cands, cand)
        index[cand.name] = len(cands)
        index[_FOR] = new
        self.set(cands=new)

    # -- helpers -------------------------------------------------------------------------
    def go(self, phase: Phase) -> None:
        old = self.phase
        phase = settled_phase(old, self.trigger, phase, to_nominate=self.to_nominate)
        if old == phase:
            return
        if not allowed(old, self.trigger, phase):
            raise IllegalTransition(f"{old} --{self.trigger}--> {phase} is not in the table")
        self.set(path=(*self.path, (old.value, self.trigger, phase.value)), phase=phase)

    def rule(
        self,
        kind: RulingKind,
        cites: Cite | Sequence[Cite],
        text: str,
        candidates: Iterable[str] = (),
        *,
        once: bool = False,
        at: datetime | None = None,
        **extra: Unpack[RulingExtra],
    ) -> None:
        cs = (cites,) if isinstance(cites, Cite) else tuple(cites)
        r = Ruling(kind, at or self.at, cs, text, self.seq, tuple(candidates), tuple(extra.items()))
        log = self.ruling_log
        if once and _said_this_round(log, r):
            return
        if self._blind:
            # a blind draft keeps its rulings in its own field dict: a step that only adds
            # rulings changes nothing a run of votes reads (see replay's runs of votes)
            self.__dict__["ruling_log"] = log.append(r)
            return
        fields = self._write()  # before appending: the copy reads the log it started from
        fields["ruling_log"] = log.append(r)

    def deadline(self, d: Deadline) -> None:
        if d.due < self.at:
            # found only once it had passed (a tie's three days, say, that a later departure
            # brings into play): nobody could act on it by then, and the timeline does not put
            # a deadline into a past that never knew of it; the ruling made now says it passed
            return
        listed = self.deadlines
        for i, x in enumerate(listed):
            if x.kind is d.kind and x.provisional:
                # the deadline listed from the law's calendar, counted now from what happened
                declared = (self.declared_at or self.at).astimezone(self.ctx.tz).date()
                since = cal.SINCE_DECLARATION.format(day=declared.isoformat())
                new = cal.recomputed(x, d, since)
                self.set(deadlines=(*listed[:i], new, *listed[i + 1 :]))
                return
        if not any(x.kind == d.kind and x.due == d.due for x in listed):
            self.set(deadlines=(*listed, d))

    def timer(self, due: datetime, trigger: TimerTrigger) -> None:
        timers = (*self.timers, Timer(due, trigger))
        self.set(timers=tuple(sorted(timers, key=lambda t: t.due)))

    def drop_timers(self, *triggers: TimerTrigger) -> None:
        kept = tuple(t for t in self.timers if t.trigger not in triggers)
        if len(kept) != len(self.timers):
            self.set(timers=kept)

    def update_cand(self, name: str, **kw: Unpack[CandFields]) -> None:
        cands = self.cands
        index = self.index()
        at = index.get(name)
        if at is None:
            return
        changed = list(cands)
        changed[at] = attrs.evolve(cands[at], **kw)
        new = tuple(changed)
        index[_FOR] = new  # the same names in the same places
        self.set(cands=new)

    def cand(self, name: str) -> Cand | None:
        return _find(self.cands, self.index(), name)

    def active_names(self) -> list[str]:
        return [c.name for c in self.cands if c.active and c.name != WRITE_IN_GENERIC]


@attrs.frozen
class Context(Staged):
    """What a contest's replay knows besides its own state: the scenario's facts."""

    contest: Contest
    office: OfficeCalendar
    interp: Interpretations
    election_day: date  # this stage's election (primary) day
    barred: frozenset[int] = frozenset()  # filing events barred by 163-291(2)'s one-office rule
    parameters: tuple[tuple[str, Fraction], ...] = ()  # values the scenario pins
    #: of ``barred``, the notices filed at the same moment as one for another office
    together: frozenset[int] = frozenset()
    #: the start of the day each round is voted on, once worked out (see replay.round_start)
    round_starts: dict[int, datetime] = attrs.field(factory=dict, init=False, eq=False, repr=False)
    #: the readings chosen, by switch (what a table's ``evaluate`` reads as ``chosen``), made once
    chosen: Mapping[str, object] = attrs.field(init=False, eq=False, repr=False)
    #: :attr:`Staged.partisan_primary`, read on every count: found once
    partisan_primary: bool = attrs.field(init=False, eq=False, repr=False)
    #: the office's time zone, read by most steps: found once
    tz: ZoneInfo = attrs.field(init=False, eq=False, repr=False)

    @chosen.default
    def _chosen(self) -> Mapping[str, object]:
        return attrs.asdict(self.interp)

    @partisan_primary.default
    def _partisan_primary(self) -> bool:
        return is_partisan_primary(self.contest.method, self.contest.stage)

    @tz.default
    def _tz(self) -> ZoneInfo:
        return self.office.tz

    @property
    def method(self) -> Method:
        return self.contest.method

    @property
    def stage(self) -> Stage:
        return self.contest.stage

    @property
    def nominating(self) -> bool:
        return self.stage is Stage.PRIMARY

    @property
    def has_runoff(self) -> bool:
        return self.method is Method.RUNOFF or self.partisan_primary

    @property
    def lists_nominees(self) -> bool:
        """An election stage whose candidates are the nominees of an earlier primary."""
        return self.stage is Stage.ELECTION and self.method in (Method.PARTISAN, Method.PRIMARY)

    @property
    def election_start(self) -> datetime:
        return cal.local(self.election_day, time(0, 0), self.tz)

    def filing_cite(self) -> Cite:
        """The provision of this contest's filing period (the ``filing-law`` table)."""
        return filing.filing_cite(partisan=self.method is Method.PARTISAN)


# ----------------------------------------------------------------------------------------
# Setting up a contest
# ----------------------------------------------------------------------------------------


def stage_day(contest: Contest) -> date:
    """The contest's election (or primary) day: ``date`` or G.S. 163-279."""
    if contest.date is not None:
        return contest.date
    return cal.rounds(contest.method, contest.stage)[0].day_of(contest.year)


def initial_state(ctx: Context) -> State:
    c = ctx.contest
    opens_d, closes_d = cal.filing_period(
        c.year,
        calendar=ctx.office,
        district_based=c.district_based,
        method=c.method,
        opening=ctx.interp.filing_opening,
    )
    if c.filing_opens is not None:
        opens_d = Deadline(
            DeadlineKind.FILING_OPENS,
            c.filing_opens,
            (ctx.filing_cite(),),
            how=cal.SET_BY_SCENARIO,
        )
    if c.filing_closes is not None:
        closes_d = Deadline(
            DeadlineKind.FILING_CLOSES,
            c.filing_closes,
            (ctx.filing_cite(),),
            how=cal.SET_BY_SCENARIO,
        )
    first, *later = cal.rounds(ctx.method, ctx.stage)
    canvass = cal.canvass(ctx.election_day, first.canvass, ctx.office)
    deadlines: list[Deadline] = [
        opens_d,
        closes_d,
        first.deadline(c.year, ctx.tz, day=ctx.election_day),
        canvass,
        *(r.deadline(c.year, ctx.tz) for r in later),
    ]
    if first.request is not None and later:
        # the runoff (second primary) request deadline, from the canvass day the law fixes
        # (as ``electsim calendar`` prints it): counted again from the declaration when made
        kind = cal.request_kind(ctx.method)
        request = cal.noon_thursday_after(kind, canvass.due.date(), first.request, ctx.office)
        deadlines.append(attrs.evolve(request, provisional=True))
    window = Window(opens_d.due, closes_d.due, ctx.filing_cite(), WindowKind.ORIGINAL)
    return State(
        phase=Phase.FILING,
        clock=datetime(1900, 1, 1, tzinfo=ctx.tz),
        windows=(window,),
        original_close=closes_d.due,
        timers=(Timer(closes_d.due, TimerTrigger.FILING_CLOSES),),
        deadlines=tuple(deadlines),
    )


def blind_draft(
    fields: dict[str, Any], state: State, ctx: Context, at: datetime, seq: int, trigger: str
) -> Draft:
    """A draft over ``state`` that reads ``fields`` (some of the state's fields, shared, not
    copied) and changes nothing but the rulings (kept in ``fields``): reading a field left out
    raises AttributeError, and the first other change raises :class:`WouldChange`. It asks
    whether a step changes nothing but the rulings without reading those fields (see replay's
    runs of votes), and stops as soon as the answer is no."""
    d = Draft(state, ctx, at, seq, trigger)
    d.__dict__ = fields
    d._blind = True
    return d


def new_draft(state: State, ctx: Context, at: datetime, seq: int, trigger: str) -> Draft:
    d = Draft(state, ctx, at, seq, trigger)
    if at > state.clock:
        d.set(clock=at)
    return d


def _said_this_round(log: Log[Ruling], r: Ruling) -> bool:
    """Whether ``r`` was said already in this round: the same kind, candidates, citations and
    extras (the same gap under another reading is said again), since the runoff or second
    primary was last called (a tie in the second primary between the two who tied in the first
    is a new question, and is ruled again). Read from the latest ruling back."""
    kind, candidates, cites, extra = r.kind, r.candidates, r.cites, r.extra
    boundary = _CALLED if kind is not _CALLED else None
    for x in reversed(log):
        k = x.kind
        if k is boundary:
            return False
        if k is kind and x.candidates == candidates and x.cites == cites and x.extra == extra:
            return True
    return False


_CALLED = RulingKind.RUNOFF_CALLED
