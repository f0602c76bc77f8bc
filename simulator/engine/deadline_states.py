"""Where each listed deadline stands at the replay's moment (the ``as_of``, or the end of the log):
still to come (``upcoming``), ``met``, ``passed`` or no longer applying (``void``, with the ruling
that ended it).

A deadline is ``upcoming`` while its moment is after the replay's moment, unless a ruling has
ended it; once its moment has come it is ``met`` or ``passed``. What "met" means depends on what
the deadline bounds:

- a request (demand) deadline, G.S. 163-293(c), 163-291(6): met when a runoff (second primary)
  was called on a request in time; passed when none was. It is void when the first round was
  settled without a window to ask in: a majority (a substantial plurality), a tie for first
  (a runoff without a request, 163-293(d)(1)), a vacancy, a primary not held;
- a runoff's (second primary's) day and its canvass: void when the contest was settled without
  one (the ruling that settled it, "no runoff was requested in time" included);
- a filing close: met when someone filed by then (for a reopened or extended period, in it);
- a tie withdrawal deadline (163-293(d)): met when the tie was settled within the three days
  (a tied candidate withdrew), passed when the three days ran out with the tie standing;
- the other days the law fixes (filing opens, an election's day, a canvass): met once they have
  come; every one of them is void when the primary is not held (163-291(3), 163-294(a)).

Pure: it reads the contest's final state and the replay's moment only.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import datetime

import attrs

from simulator.engine.result import Ruling
from simulator.engine.state import State
from simulator.law import calendar as cal
from simulator.law.calendar import Deadline
from simulator.law.vocab import DeadlineKind, DeadlineState, RulingKind, RunoffStatus

_K = DeadlineKind
_R = RulingKind
_REQUESTS = frozenset({_K.RUNOFF_REQUEST, _K.SECOND_PRIMARY_REQUEST})
_SECOND_DAYS = frozenset({_K.RUNOFF_ELECTION, _K.SECOND_PRIMARY})
_FILING = frozenset({_K.FILING_CLOSES, _K.REOPENED_FILING_CLOSES, _K.EXTENDED_FILING_CLOSES})
#: rulings that settle a round with no runoff (second primary) to ask for or to hold
_SETTLED = frozenset(
    {
        _R.ELECTED,
        _R.NOMINATED,
        _R.NO_RUNOFF,
        _R.OFFICE_VACANT,
        _R.DECIDED_BY_LOT,
        _R.PRIMARY_CANCELLED,
        _R.NOMINEE_CERTIFIED,
        _R.PARTY_TO_NOMINATE,
        _R.NEW_ELECTION_ORDERED,
    }
)
#: rulings after which no request is asked for: the runoff comes (or may come) without one
_WITHOUT_REQUEST = frozenset({_R.RUNOFF_UNLESS_WITHDRAWN, _R.RECOUNT_REQUIRED, _R.RUNOFF_CALLED})
#: rulings that open the question of a runoff again (the latest one settles what came before)
_REOPENS = frozenset({_R.RUNOFF_AVAILABLE, _R.RUNOFF_UNLESS_WITHDRAWN, _R.RUNOFF_CALLED})
_CALLED = frozenset({RunoffStatus.CALLED, RunoffStatus.HELD})
#: rulings after which nobody may ask for a runoff any more
_ENDERS = _SETTLED | _WITHOUT_REQUEST
#: rulings that open or settle a tie's three days
_TIE_MARKS = _REOPENS | _SETTLED


@attrs.frozen
class _Facts:
    """What the states read from the rulings, found in one pass over them."""

    moment: datetime
    cancelled: Ruling | None  # the primary was not held
    first_available: datetime | None  # the first window to ask for a runoff opened
    ender: Ruling | None  # the first ruling that left nothing to ask for
    called: bool  # a runoff (second primary) was called
    no_runoff: Ruling | None  # what settled the contest without a runoff
    second: datetime | None  # the runoff's (second primary's) day
    #: (when, kind) of the rulings that open or settle a tie's three days
    tie_marks: tuple[tuple[datetime, RulingKind], ...]


def stated(state: State) -> tuple[Deadline, ...]:
    """The contest's deadlines in order of time, each with its state at the state's clock (the
    replay's moment)."""
    rulings = state.rulings
    listed = sorted(state.deadlines, key=lambda x: x.due)
    second = min((x.due for x in listed if x.kind in _SECOND_DAYS), default=None)
    facts = _Facts(
        moment=state.clock,
        cancelled=next((r for r in rulings if r.kind is _R.PRIMARY_CANCELLED), None),
        first_available=next((r.at for r in rulings if r.kind is _R.RUNOFF_AVAILABLE), None),
        ender=next((r for r in rulings if r.kind in _ENDERS), None),
        called=state.runoff_status in _CALLED or any(r.kind is _R.RUNOFF_CALLED for r in rulings),
        # (read only for a runoff's day and what follows it: without one, not looked for)
        no_runoff=_settled_without_runoff(rulings)
        if second is not None and state.runoff_status is RunoffStatus.NONE
        else None,
        second=second,
        tie_marks=tuple((r.at, r.kind) for r in rulings if r.kind in _TIE_MARKS)
        if any(x.kind is _K.TIE_WITHDRAWAL for x in listed)
        else (),
    )
    return tuple(_with_state(x, state, facts) for x in listed)


@functools.lru_cache(maxsize=4096)
def _in_state(
    dl: Deadline, where: DeadlineState, because: RulingKind | None = None, words: str = ""
) -> Deadline:
    """The deadline in a state. The states of a fold share their deadlines, and a deadline
    takes one of a few states, so that many replays from one beginning (the explorer's, the
    futures') make each once."""
    return attrs.evolve(dl, state=where, void_because=because, void_words=words)


def _void(dl: Deadline, r: Ruling, said: str) -> Deadline:
    """The deadline ended by ``r``, in the calendar's words ``said`` (with ``{why}``)."""
    return _voided(dl, r.kind, said, r.text)


@functools.lru_cache(maxsize=4096)
def _voided(dl: Deadline, because: RulingKind, said: str, why: str) -> Deadline:
    return _in_state(dl, DeadlineState.VOID, because, said.format(why=why))


def _come(dl: Deadline, moment: datetime, met: bool) -> Deadline:
    if dl.due > moment:
        return _in_state(dl, DeadlineState.UPCOMING)
    return _in_state(dl, DeadlineState.MET if met else DeadlineState.PASSED)


def _with_state(dl: Deadline, state: State, f: _Facts) -> Deadline:
    kind, moment = dl.kind, f.moment
    cancelled = f.cancelled
    if cancelled is not None and kind not in (_K.FILING_OPENS, *_FILING) and dl.due > cancelled.at:
        return _void(dl, cancelled, cal.VOID_NO_PRIMARY)
    if kind in _REQUESTS:
        opened = f.first_available is not None and f.first_available <= dl.due
        if not opened and f.ender is not None:
            return _void(dl, f.ender, cal.VOID_NOBODY_MAY_ASK)
        return _come(dl, moment, opened and f.called)
    if kind in _SECOND_DAYS or (kind is _K.CANVASS and f.second is not None and dl.due > f.second):
        if f.no_runoff is not None:
            return _void(dl, f.no_runoff, cal.VOID_NO_RUNOFF)
        return _come(dl, moment, True)
    if kind in _FILING:
        after = state.original_close if kind is not _K.FILING_CLOSES else None
        filed = any(
            c.filed_at is not None
            and c.filed_at <= dl.due
            and (after is None or c.filed_at > after)
            for c in state.cands
        )
        return _come(dl, moment, filed)
    if kind is _K.TIE_WITHDRAWAL:
        opener = max((at for at, k in f.tie_marks if k in _REOPENS and at < dl.due), default=dl.due)
        settled = any(
            opener < at < dl.due and k in _SETTLED | {_R.RUNOFF_CALLED} for at, k in f.tie_marks
        )
        return _come(dl, moment, settled)
    return _come(dl, moment, True)


def _settled_without_runoff(rulings: Sequence[Ruling]) -> Ruling | None:
    """The ruling that settled the contest without a runoff: the first settling one after the
    latest that put a runoff in question, else the first."""
    last = max((i for i, r in enumerate(rulings) if r.kind in _REOPENS), default=-1)
    after = (r for r in rulings[last + 1 :] if r.kind in _SETTLED)
    return next(after, None) or next((r for r in rulings if r.kind in _SETTLED), None)
