"""The contest's timers: statutory deadlines for optional acts that fire when they pass unused.

Before each event the fold fires every timer due strictly before it (:func:`fire_timers`); at the
end of the log the rest pass unused, or only those due before ``as_of``. Each trigger has one
handler here, registered with :func:`fires` in :data:`TIMER_HANDLERS`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from simulator.engine.counting.consult import consult, finding_cites
from simulator.engine.counting.declare import declare_leaders
from simulator.engine.counting.runoff import call_runoff
from simulator.engine.counting.ties import settle_tie
from simulator.engine.state import AtReopenedClose, Context, Draft, State, new_draft
from simulator.law.machine import Phase
from simulator.law.tables import departure_words, filing, runoff_requests, tie_steps
from simulator.law.vocab import PoolKind, RulingKind, TimerTrigger, WindowKind

TimerHandler = Callable[[Draft], None]

#: The handler of each timer trigger (every :class:`TimerTrigger` has one)
TIMER_HANDLERS: dict[TimerTrigger, TimerHandler] = {}


def fires(trigger: TimerTrigger) -> Callable[[TimerHandler], TimerHandler]:
    """Register the decorated function as what happens when ``trigger``'s deadline passes."""

    def register(handler: TimerHandler) -> TimerHandler:
        if trigger in TIMER_HANDLERS:
            raise ValueError(f"the timer {trigger.value} already has a handler")
        TIMER_HANDLERS[trigger] = handler
        return handler

    return register


def fire_timers(state: State, ctx: Context, until: datetime, seq: int) -> State:
    """Fire every timer due strictly before ``until`` (an act at the deadline is in time)."""
    while state.timers and state.timers[0].due < until:
        t = state.timers[0]
        d = new_draft(state, ctx, t.due, seq, t.trigger.value)  # the path keeps plain names
        d.set(timers=state.timers[1:])
        TIMER_HANDLERS[t.trigger](d)
        state = d.freeze()
    return state


@fires(TimerTrigger.FILING_CLOSES)
def on_filing_closes(d: Draft) -> None:
    """The original filing period ends (or the board closes it)."""
    ctx = d.ctx
    active = d.active_names()
    d.set(filed_at_close=len(active))
    n = d.contest.seats
    if not (ctx.partisan_primary or ctx.nonpartisan_primary):
        d.go(Phase.BALLOT)
        return
    facts = filing.CloseFacts(
        party=ctx.partisan_primary,
        few=len(active) <= (n if ctx.partisan_primary else 2 * n),
    )
    finding = consult(d, filing.CLOSE, facts)
    cites = finding_cites(finding)
    words = filing.NO_PRIMARY_WORDS.get(finding.effect)
    if words is None:  # the primary is held
        d.go(Phase.BALLOT)
        return
    cancelled, nominated = words
    d.rule(
        RulingKind.PRIMARY_CANCELLED, cites, cancelled.format(count=len(active), places=n), active
    )
    if active:
        party = finding.effect is filing.Primary.PARTY_NOMINEES
        kind = RulingKind.NOMINEE_CERTIFIED if party else RulingKind.NOMINATED
        d.rule(kind, cites, nominated, active)
    d.set(nominated=tuple(sorted(active)))
    d.go(Phase.DECIDED)


@fires(TimerTrigger.REOPENED_FILING_CLOSES)
def on_reopened_closes(d: Draft) -> None:
    """A reopened filing period ends. In a party primary, as many candidates as places or fewer
    are certified without a primary: 163-112(a) and (c) say so when nobody filed, and G.S. 163-110
    does at the end of any filing period."""
    if d.phase is not Phase.FILING_REOPENED:
        return  # the contest moved on while filing was reopened (a certification, a nomination)
    if any(w.kind is WindowKind.REOPENED and w.closes > d.at for w in d.windows):
        return  # a later death reopened filing again; its own close decides
    ctx = d.ctx
    active = d.active_names()
    new = [c.name for c in d.cands if c.active and c.reopened]
    cite = next(w.cite for w in reversed(d.windows) if w.kind is WindowKind.REOPENED)
    close = (
        consult(
            d, filing.CLOSE, filing.CloseFacts(party=True, few=len(active) <= ctx.contest.seats)
        )
        if ctx.partisan_primary
        else None
    )
    if close is not None and close.effect is filing.Primary.PARTY_NOMINEES:
        if d.after_reopen is AtReopenedClose.CERTIFY_IF_NOBODY_FILED and not new:
            # the contingency rule that reopened filing certifies if nobody files
            cites = [cite]
            why = filing.NOBODY_FILED_WHILE_REOPENED
        else:
            cites = [cite, *finding_cites(close)]
            why = filing.AT_THE_REOPENED_CLOSE.format(count=len(active), places=ctx.contest.seats)
        if active:
            d.rule(RulingKind.NOMINEE_CERTIFIED, cites, why, active)
        d.rule(RulingKind.PRIMARY_CANCELLED, cites, departure_words.NO_PRIMARY, active)
        d.set(nominated=tuple(sorted(active)), after_reopen=AtReopenedClose.COUNT)
        d.go(Phase.DECIDED)
        return
    d.set(after_reopen=AtReopenedClose.COUNT)
    d.go(Phase.BALLOT)


@fires(TimerTrigger.EXTENDED_FILING_CLOSES)
def on_extended_closes(d: Draft) -> None:
    """The five days of G.S. 163-294.4(a) end: the contest goes on as at the close of filing (a
    nonpartisan primary is held only with more than two candidates per seat, 163-294(a))."""
    if d.phase is not Phase.FILING_EXTENDED:
        return
    on_filing_closes(d)


@fires(TimerTrigger.RUNOFF_REQUEST_PASSES)
def on_request_passes(d: Draft) -> None:
    pool = d.pool
    assert pool is not None
    if d.phase is Phase.TIE_WITHDRAWAL:
        if pool.kind is PoolKind.TIE_SECOND:  # (d)(1) sets no request deadline
            # the ``tie-window`` table: a tie for second at noon on the Thursday
            settle_tie(d, tie_steps.TieMoment.REQUEST_PASSES)
        return
    if d.phase is not Phase.RUNOFF_REQUEST:
        return  # the contest moved on while the window was open (a contingency rule)
    ctx = d.ctx
    facts = runoff_requests.WindowCloseFacts(
        ctx.partisan_primary, ctx.contest.is_group, bool(pool.requests)
    )
    found = consult(d, runoff_requests.WINDOW_CLOSE, facts)
    if found.effect is runoff_requests.WindowClose.RUNOFF:
        call_runoff(d, pool)
        return
    reason = (
        runoff_requests.NO_DEMAND_IN_TIME if ctx.nominating else runoff_requests.NO_REQUEST_IN_TIME
    )
    declare_leaders(d, pool.leaders, finding_cites(found), reason)


@fires(TimerTrigger.TIE_WITHDRAWAL_PASSES)
def on_tie_withdrawal_passes(d: Draft) -> None:
    """The three days of a tie end: the ``tie-window`` table says what follows."""
    pool = d.pool
    assert pool is not None
    if pool.kind is PoolKind.TIE_FIRST or d.phase is Phase.TIE_WITHDRAWAL:
        settle_tie(d, tie_steps.TieMoment.WITHDRAWAL_PASSES)
