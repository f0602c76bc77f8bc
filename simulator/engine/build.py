"""Building the result of a contest from its final state: the outcome, what it waits for, the
timeline of events and rulings, and the ranked tallies of each round."""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence

import attrs

from simulator.engine.deadline_states import stated
from simulator.engine.decisions import pending_decisions
from simulator.engine.ranking import ranked
from simulator.engine.remarks import remarks_of
from simulator.engine.result import (
    ContestResult,
    Deadlines,
    Made,
    Outcome,
    Period,
    Remark,
    Ruling,
    TimelineEntry,
    periods_of,
)
from simulator.engine.state import Context, State
from simulator.law.calendar import Deadline
from simulator.law.machine import Phase
from simulator.law.vocab import Pending, PoolKind, RulingKind
from simulator.model.events import Event, NomineeNamed, VotesCast

#: What each phase waits for (but those :func:`pending_of` reads more of the state for)
_PENDING: dict[Phase, Pending] = {
    Phase.FILING: Pending.FILING,
    Phase.FILING_REOPENED: Pending.FILING,
    Phase.FILING_EXTENDED: Pending.FILING,
    Phase.AWAITING_NOMINATION: Pending.NOMINATION,
    Phase.BALLOT: Pending.VOTES,
    Phase.COUNTING: Pending.CANVASS,
    Phase.AWAITING_RECOUNT: Pending.RECOUNT,
    Phase.RUNOFF_REQUEST: Pending.RUNOFF_REQUEST,
    Phase.AWAITING_LOT: Pending.LOT,
    Phase.AWAITING_NEW_ELECTION: Pending.NEW_ELECTION,
    Phase.RUNOFF_CALLED: Pending.VOTES,
    Phase.RUNOFF_COUNTING: Pending.CANVASS,
}


def pending_of(state: State, ctx: Context) -> Pending | None:
    p = state.phase
    # (a decision that leaves a nomination to make waits in ``awaiting_nomination``: see
    # :func:`simulator.law.machine.settled_phase`; a contest is decided exactly when it waits
    # for nothing)
    if state.to_nominate > 0 and p in (Phase.BALLOT, Phase.COUNTING):
        return Pending.NOMINATION
    if p is Phase.TIE_WITHDRAWAL and state.pool is not None:
        pool = state.pool
        dues = [(pool.withdraw_due, Pending.WITHDRAWAL), (pool.request_due, Pending.RUNOFF_REQUEST)]
        open_ = [(due, k) for due, k in dues if due is not None and due >= state.clock]
        if pool.kind is PoolKind.TIE_FIRST:
            return Pending.WITHDRAWAL
        return min(open_)[1] if open_ else Pending.WITHDRAWAL
    return _PENDING.get(p)


def _event_label(ev: Event) -> str:
    label = _KIND_WORDS.get(ev.type)
    if label is None:
        label = _KIND_WORDS[ev.type] = ev.type.replace("_", " ")
    for f in ev.fields:
        v = getattr(ev, f, None)
        if v is None:
            continue
        if f == "counts":
            v = ", ".join(f"{n} {c}" for n, c in v)
        label = f"{label} {f}={v}"
    return label


_KIND_WORDS: dict[str, str] = {}  # an event type's words ("candidate_filed": "candidate filed")


def outcome_of(state: State, ctx: Context) -> Outcome:
    return Outcome(
        elected=state.elected,
        nominated=state.nominated,
        vacant_seats=state.vacant,
        runoff_status=state.runoff_status,
        runoff_candidates=state.runoff_ballot,
        pending=pending_of(state, ctx),
    )


@attrs.frozen
class ContestSummary:
    """A contest's outcome and rulings, without the timeline (what a sweep's row reads)."""

    outcome: Outcome
    rulings: tuple[Ruling, ...]


def event_entry(ev: Event) -> TimelineEntry | None:
    """The event's line on the timeline (votes are many: they show in the tallies)."""
    kind = type(ev)
    if kind is VotesCast:
        return None
    # the people it is about: a nominee named is new to the log, so not among names()
    who = (ev.candidate,) if kind is NomineeNamed else ev.names()  # type: ignore[attr-defined]
    return TimelineEntry(ev.known_at, "event", _event_label(ev), "", ev.type, ev.index, who)


_AT = operator.attrgetter("at")


def result_of(
    state: State,
    ctx: Context,
    events: Sequence[Event],
    *,
    entries: Sequence[TimelineEntry | None] | None = None,
    timeline: bool = True,
) -> ContestResult:
    """The contest's result; ``entries`` are the events' timeline lines when already made.
    ``timeline=False`` leaves out the timeline and the periods drawn from it, and works out where
    each deadline stands only when the deadlines are read (the explorer, which reads neither
    the timeline nor, for most of its replays, where a deadline stands)."""
    outcome = outcome_of(state, ctx)
    if not timeline:
        lazy = Deadlines(state.deadlines, functools.partial(stated, state))
        return _contest_result(state, ctx, outcome, lazy, (), (), ())
    deadlines = stated(state)
    # built once, when a view first reads them (text, charts, JSON), not for every replay
    remarks = Made(functools.cache(functools.partial(remarks_of, state, ctx, events)))
    both = functools.cache(functools.partial(_timeline, state, deadlines, events, entries, remarks))
    return _contest_result(
        state,
        ctx,
        outcome,
        deadlines,
        Made(lambda: both()[0]),
        Made(lambda: both()[1]),
        remarks,
    )


def _timeline(
    state: State,
    deadlines: Sequence[Deadline],
    events: Sequence[Event],
    entries: Sequence[TimelineEntry | None] | None,
    remarks: Sequence[Remark] = (),
) -> tuple[tuple[TimelineEntry, ...], tuple[Period, ...]]:
    """The contest's timeline (its deadlines, events, remarks and rulings in order of time) and
    the periods drawn from it; ``entries`` are the events' lines when already made."""
    if entries is None:
        entries = [event_entry(ev) for ev in events]
    # deadlines, events, rulings: a stable sort by time keeps that order at the same moment
    lines = [
        TimelineEntry(
            dl.due,
            "deadline",
            f"{dl.kind.value}: {dl.how}; {dl.state_words()}",
            dl.cite,
            dl.kind.value,
        )
        for dl in deadlines
    ]
    lines += [entry for entry in entries if entry is not None]
    # each remark right after its event (the same moment: the stable sort keeps the order)
    lines += [
        TimelineEntry(r.at, "remark", f"{r.kind.value}: {r.text}", r.cite, r.kind.value, r.seq)
        for r in remarks
    ]
    # a story may hold thousands of rulings of a few kinds: each kind's words are read once
    # (and each citation's text is written once: law/cite.joined)
    kinds: dict[RulingKind, str] = {}
    for r in state.ruling_log:
        kind = kinds.get(r.kind)
        if kind is None:
            kind = kinds[r.kind] = r.kind.value
        lines.append(
            TimelineEntry(r.at, "ruling", f"{kind}: {r.text}", r.cite, kind, r.seq, r.candidates)
        )
    lines.sort(key=_AT)
    periods = periods_of(
        ((w.kind, w.opens, w.closes, w.cite) for w in state.windows),
        state.rulings,
        deadlines,
        lines,
    )
    return tuple(lines), periods


def _contest_result(
    state: State,
    ctx: Context,
    outcome: Outcome,
    deadlines: Sequence[Deadline],
    timeline: Sequence[TimelineEntry],
    periods: Sequence[Period],
    remarks: Sequence[Remark],
) -> ContestResult:
    contest = ctx.contest
    return ContestResult(
        id=contest.id,
        title=contest.label,
        method=contest.method.value,
        stage=contest.stage.value,
        seats=contest.seats,
        state=state.phase.value,
        outcome=outcome,
        rulings=state.rulings,
        deadlines=deadlines,
        timeline=timeline,
        tallies=tuple(_ranked_round(t) for t in state.tallies if t),
        path=state.path,
        periods=periods,
        decisions=pending_decisions(state, ctx),
        remarks=remarks,
    )


@functools.lru_cache(maxsize=4096)
def _ranked_round(tally: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """A round's votes best first (states share their tallies: each is ranked once)."""
    return tuple(ranked(dict(tally), [n for n, _ in tally]))
