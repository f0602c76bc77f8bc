"""A contest's remarks: each event of its log checked against the days the replay computed for
it (the election and runoff days of :func:`~simulator.engine.rounds.round_start`, the canvass
deadlines the state lists), by the rules of :mod:`simulator.law.remarks`.

Remarks are read from the log and the final state after the fold and change nothing in it: a
replay with remarks rules exactly as one without. The single ``votes_cast`` events are not
checked (absentee and one-stop votes are cast before the day, and a log may hold many
thousands); ``returns_reported`` are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from simulator.engine.result import Remark, Ruling
from simulator.engine.rounds import round_start
from simulator.engine.state import Context, State
from simulator.law import calendar as cal
from simulator.law import remarks as law
from simulator.law.calendar import Deadline
from simulator.law.cite import Cite, statute
from simulator.law.labels import label
from simulator.law.tables.count import LEFT_VERB, and_list
from simulator.law.vocab import CandStatus, DeadlineKind, RemarkKind, RulingKind
from simulator.model.events import (
    BallotsPrinted,
    CandidateDied,
    CandidateDisqualified,
    CandidateFiled,
    CandidateWithdrew,
    CanvassHeld,
    Event,
    NomineeNamed,
    ReprintDetermined,
    ReturnsReported,
    RunoffRequested,
)

_DEPARTURES = {
    CandidateDied: CandStatus.DIED,
    CandidateWithdrew: CandStatus.WITHDREW,
    CandidateDisqualified: CandStatus.DISQUALIFIED,
}
_CHECKED = frozenset(
    {
        BallotsPrinted,
        CanvassHeld,
        ReprintDetermined,
        ReturnsReported,
        RunoffRequested,
        *_DEPARTURES,
    }
)


def _day(at: datetime, ctx: Context) -> str:
    return at.astimezone(ctx.tz).strftime("%a %Y-%m-%d")


def _election(kind: DeadlineKind) -> str:
    """The election a round's day is the day of, in words ("election", "runoff")."""
    return label(kind).removesuffix(" day")


def _when(at: datetime, ctx: Context) -> str:
    return at.astimezone(ctx.tz).strftime("%a %Y-%m-%d %H:%M")


class _Rounds:
    """Which round of the contest an event belongs to, and when each round's day starts."""

    def __init__(self, state: State, ctx: Context) -> None:
        self.ctx = ctx
        self.kinds = tuple(r.kind for r in cal.rounds(ctx.method, ctx.stage))
        self.call: Ruling | None = next(
            (r for r in state.ruling_log if r.kind is RulingKind.RUNOFF_CALLED), None
        )
        self.canvasses = sorted(
            (dl for dl in state.deadlines if dl.kind is DeadlineKind.CANVASS), key=lambda d: d.due
        )

    def of(self, ev: Event) -> int:
        """Round 1 from the moment the runoff (second primary) was called, else round 0."""
        call = self.call
        if call is None or len(self.kinds) < 2:
            return 0
        return int(ev.index > call.seq or (ev.index == call.seq and ev.known_at > call.at))

    def start(self, rnd: int) -> datetime | None:
        """The start of the round's voting day, or None where the law fixes none (a runoff
        called once its day had begun: the ``round-day`` table's gap)."""
        start = round_start(self.ctx, rnd)
        if rnd and self.call is not None and self.call.at >= start:
            return None
        return start

    def canvass(self, start: datetime) -> Deadline | None:
        """The canvass the law fixes for the round whose day starts at ``start``."""
        return next((dl for dl in self.canvasses if dl.due >= start), None)


def remarks_of(state: State, ctx: Context, events: Sequence[Event]) -> tuple[Remark, ...]:
    """The remarks of a contest's events (its log but the single votes, in log order)."""
    rounds = _Rounds(state, ctx)
    filed: set[str] = set()
    printed: datetime | None = None
    departed_after_printing = False
    determinations: list[ReprintDetermined] = []
    out: list[Remark] = []
    for ev in events:
        kind = type(ev)
        if kind is CandidateFiled or kind is NomineeNamed:
            filed.add(ev.candidate)  # type: ignore[attr-defined]
            continue
        if kind not in _CHECKED:
            continue
        if kind is ReturnsReported:
            out.extend(_returns(ev, rounds))
        elif kind is CanvassHeld:
            out.extend(_canvass(ev, rounds))
        elif kind is RunoffRequested:
            assert isinstance(ev, RunoffRequested)
            out.extend(_request(ev, rounds, state, filed))
        elif kind is BallotsPrinted:
            out.extend(_ballots(ev, rounds))
            if printed is None:
                printed = ev.known_at
        elif kind is ReprintDetermined:
            assert isinstance(ev, ReprintDetermined)
            determinations.append(ev)
        else:  # a departure
            name: str = ev.candidate  # type: ignore[attr-defined]
            if printed is not None and ev.known_at >= printed:
                departed_after_printing = True
            if name not in filed:
                out.append(_departure(ev, name, LEFT_VERB[_DEPARTURES[kind]], ctx))
    if not departed_after_printing:
        out.extend(_moot(ev, printed, ctx) for ev in determinations)
        out.sort(key=lambda r: r.seq)
    return tuple(out)


def _remark(
    ev: Event,
    kind: RemarkKind,
    fields: Mapping[str, object],
    cites: tuple[Cite, ...] = (),
    reading: str | None = None,
) -> Remark:
    """A remark at ``ev`` in its rule's words (``fields`` filled in), citing ``cites`` (the
    rule's own provision when none is given)."""
    rule = law.RULES[kind]
    text = rule.says.format_map(fields)
    return Remark(ev.index, ev.known_at, kind, text, cites or (statute(rule.cite),), reading)


def _returns(ev: Event, rounds: _Rounds) -> list[Remark]:
    rnd = rounds.of(ev)
    start = rounds.start(rnd)
    if start is None or law.returns_fit(ev.at, start):
        return []
    ctx = rounds.ctx
    held = cal.rounds(ctx.method, ctx.stage)[rnd]
    return [
        _remark(
            ev,
            RemarkKind.RETURNS_OFF_DAY,
            {"at": _when(ev.at, ctx), "election": _election(held.kind), "day": _day(start, ctx)},
            (held.cite,),
        )
    ]


def _canvass(ev: Event, rounds: _Rounds) -> list[Remark]:
    rnd = rounds.of(ev)
    start = rounds.start(rnd)
    fixed = rounds.canvass(start) if start is not None else None
    if start is None or fixed is None:
        return []
    ctx = rounds.ctx
    tz = ctx.tz
    first = fixed.moved_from or fixed.due
    held = ev.at.astimezone(tz).date()
    if first.astimezone(tz).date() <= held <= fixed.due.astimezone(tz).date():
        return []
    first_day = cal.local(first.astimezone(tz).date(), datetime.min.time(), tz)
    kind = cal.rounds(ctx.method, ctx.stage)[rnd].kind
    said = {
        "held": _day(ev.at, ctx),
        "when": law.BEFORE_OR_AFTER[held < first_day.date()],
        "election": _election(kind),
        "day": _day(start, ctx),
        "fixed": _day(fixed.due, ctx),
    }
    reading = law.canvass_reading(ev.at, start, first_day)
    return [_remark(ev, RemarkKind.CANVASS_OFF_DAY, said, fixed.cites, reading)]


def _request(ev: RunoffRequested, rounds: _Rounds, state: State, filed: set[str]) -> list[Remark]:
    ctx = rounds.ctx
    first = cal.rounds(ctx.method, ctx.stage)[0]
    cites = (first.request,) if first.request is not None else ()
    name = ev.candidate
    start = round_start(ctx, 0)
    said = {
        "name": name,
        "asked": law.ASKED[ctx.partisan_primary],
        "election": _election(first.kind),
        "day": _day(start, ctx),
    }
    if state.cand(name) is None:
        return [_remark(ev, RemarkKind.REQUEST_NOT_ON_BALLOT, said, cites)]
    why = []
    if ev.at < start:
        why.append(law.BEFORE_THE_ELECTION.format_map(said))
    if name not in filed:
        why.append(law.BEFORE_FILING.format_map(said))
    if not why:
        return []
    said |= {"at": _day(ev.at, ctx), "why": and_list(why)}
    reading = law.request_reading(ev.at, state.declared_at)
    return [_remark(ev, RemarkKind.REQUEST_EARLY, said, cites, reading)]


def _ballots(ev: Event, rounds: _Rounds) -> list[Remark]:
    ctx = rounds.ctx
    start = round_start(ctx, 0)
    if ev.at.astimezone(ctx.tz).date() <= start.date():
        return []
    kind = cal.rounds(ctx.method, ctx.stage)[0].kind
    return [
        _remark(
            ev,
            RemarkKind.BALLOTS_AFTER_ELECTION,
            {"at": _day(ev.at, ctx), "election": _election(kind), "day": _day(start, ctx)},
        )
    ]


def _departure(ev: Event, name: str, verb: str, ctx: Context) -> Remark:
    said = {"name": name, "verb": verb}
    return _remark(ev, RemarkKind.DEPARTURE_NOT_FILED, said, (ctx.filing_cite(),))


def _moot(ev: Event, printed: datetime | None, ctx: Context) -> Remark:
    why = (
        law.NOTHING_PRINTED
        if printed is None
        else law.NOBODY_LEFT_AFTER_PRINTING.format(day=_day(printed, ctx))
    )
    return _remark(ev, RemarkKind.DETERMINATION_MOOT, {"why": why})
