"""Calling a runoff or second primary: the window to request it, the ballot, and starting it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import time

import attrs

from simulator.engine.counting.consult import consult, finding_cites
from simulator.engine.counting.declare import (
    after_declaration,
    declaration_timing,
    declare,
    declare_leaders,
    runoff_cite,
)
from simulator.engine.state import Draft, Pool
from simulator.law import calendar as cal
from simulator.law.cite import Cite
from simulator.law.machine import Phase
from simulator.law.readings import GroupRunoffBallot
from simulator.law.tables import declaration, round_timing, runoff_requests
from simulator.law.vocab import DeadlineKind, PoolKind, RulingKind, RunoffStatus, TimerTrigger


def count_request_deadline(d: Draft) -> None:
    """The first round's result is declared: the request (demand) deadline listed from the law's
    calendar is counted from this declaration (a canvass on another day than the law fixes
    moves it), whether or not anyone may ask (a tie awaiting its lots, a majority)."""
    if d.round or not any(x.provisional for x in d.deadlines):
        return
    kind = cal.request_kind(d.ctx.method)
    d.deadline(after_declaration(d, kind, *declaration_timing(d, round_timing.Step.REQUEST)))


def open_request_window(d: Draft, pool: Pool) -> None:
    ctx = d.ctx
    when, by = declaration_timing(d, round_timing.Step.REQUEST)
    kind = (
        DeadlineKind.SECOND_PRIMARY_REQUEST if ctx.partisan_primary else DeadlineKind.RUNOFF_REQUEST
    )
    dl = after_declaration(d, kind, when, by)
    if dl.due <= d.at:
        # who may ask was settled only after the deadline counted from the canvass: by a
        # drawing of lots, or by a tied candidate's departure while one was awaited (the count
        # is decided again when the candidate leaves)
        drawn = bool(d.lots)
        late = round_timing.TimingFacts(
            round_timing.Step.REQUEST, ctx.partisan_primary, drawn_late=drawn, left_late=not drawn
        )
        at = d.at.astimezone(ctx.tz).strftime("%Y-%m-%d %H:%M")
        finding = consult(
            d,
            round_timing.TIMING,
            late,
            pool.eligible,
            {
                "by": round_timing.SETTLED_BY[drawn],
                "at": at,
                "due": dl.due.strftime("%Y-%m-%d %H:%M"),
            },
        )
        dl = after_declaration(d, kind, finding.effect, by, since=round_timing.SINCE[drawn])
        if dl.due <= d.at:  # `request_after_lot`, from_canvass: nobody can ask any more
            close = runoff_requests.WindowCloseFacts(
                ctx.partisan_primary, ctx.contest.is_group, False
            )
            found = consult(d, runoff_requests.WINDOW_CLOSE, close)
            declare_leaders(
                d,
                pool.leaders,
                finding_cites(found),
                runoff_requests.PASSED_BEFORE_THE_DRAWING[ctx.partisan_primary],
            )
            return
    text = declaration.request_open(ctx.partisan_primary, pool.leaders, pool.eligible, dl.due)
    cites = [runoff_cite(d), by] if ctx.partisan_primary else [runoff_cite(d)]
    pool = attrs.evolve(pool, request_due=dl.due)
    d.deadline(dl)
    d.timer(dl.due, TimerTrigger.RUNOFF_REQUEST_PASSES)
    d.set(pool=pool, runoff_status=RunoffStatus.AVAILABLE)
    d.rule(RulingKind.RUNOFF_AVAILABLE, cites, text, pool.eligible, once=True)
    d.go(Phase.RUNOFF_REQUEST)


def ballot_final(d: Draft, pool: Pool) -> bool:
    """Whether the requests so far fix the runoff ballot: always for a single office; for a
    group (`group_runoff_ballot`) once every runner-up who may request has done so."""
    if (
        not d.ctx.contest.is_group
        or d.ctx.interp.group_runoff_ballot is GroupRunoffBallot.TOP_TWO_R
    ):
        return True
    can = [n for n in pool.eligible if (c := d.cand(n)) is None or c.active]
    return all(n in pool.requests for n in can)


def call_runoff(d: Draft, pool: Pool) -> None:
    """Requests in time call the runoff (`group_runoff_ballot` for groups)."""
    ctx = d.ctx
    seats = pool.seats
    requesters = tuple(n for n in pool.eligible if n in pool.requests)
    if not ctx.contest.is_group:
        ballot = (*pool.leaders, *pool.requests[:1])
    elif ctx.interp.group_runoff_ballot is GroupRunoffBallot.TOP_TWO_R:
        ballot = (*pool.leaders, *pool.eligible[: pool.seats])
    elif ctx.interp.group_runoff_ballot is GroupRunoffBallot.PAIRWISE:
        # each requester contests one place, against the lowest leaders; the others are seated
        k = min(len(requesters), seats)
        seated, contested = pool.leaders[: seats - k], pool.leaders[seats - k :]
        if seated:
            declare(
                d,
                seated,
                runoff_cite(d),
                runoff_requests.PAIRWISE_SEATED.format(names=", ".join(seated)),
            )
        ballot, seats = (*contested, *requesters[:k]), k
    else:
        ballot = (*pool.leaders, *requesters)
    cite = [runoff_cite(d), declaration_timing(d, round_timing.Step.REQUEST)[1]]
    why = runoff_requests.REQUESTED_IN_TIME.format(names=", ".join(pool.requests))
    start_runoff(d, ballot, seats, cite, why)


def start_runoff(
    d: Draft, ballot: Sequence[str], seats: int, cites: Cite | Sequence[Cite], reason: str
) -> None:
    """Call the runoff (second primary): its day, its ballot; no request window stays open."""
    ctx = d.ctx
    ballot = tuple(dict.fromkeys(ballot))
    d.drop_timers(TimerTrigger.RUNOFF_REQUEST_PASSES, TimerTrigger.TIE_WITHDRAWAL_PASSES)
    what = declaration.ROUND_NAME[ctx.partisan_primary]
    second = cal.rounds(ctx.method, ctx.stage)[1]  # G.S. 163-279(a)(2), (a)(4)
    day = second.day_of(ctx.contest.year)
    d.deadline(second.deadline(ctx.contest.year, ctx.tz))
    # the ``round-day`` table: a call on or after the day the law fixes leaves no day at all
    begun = not d.at < cal.local(day, time(0, 0), ctx.tz)
    called = d.at.astimezone(ctx.tz).date()
    gone = round_timing.DAY_GONE[called > day]
    held = consult(
        d,
        round_timing.ROUND_DAY,
        round_timing.DayFacts(ctx.partisan_primary, begun),
        ballot,
        {
            "what": what,
            "ballot": ", ".join(ballot),
            "called": called.isoformat(),
            "day": day.isoformat(),
            "gone": gone,
        },
    )
    if held.effect is round_timing.Day.FIXED:
        d.deadline(second.canvass_of(day, ctx.office, ctx.interp.runoff_canvass))
    pool = d.pool
    d.set(pool=Pool(PoolKind.RUNOFF, leaders=pool.leaders if pool else (), seats=seats))
    d.set(
        runoff_ballot=ballot,
        runoff_status=RunoffStatus.CALLED,
        round=1,
        tallies=(d.tallies[0], ()),
        lots=(),
    )
    d.rule(
        RulingKind.RUNOFF_CALLED,
        cites,
        round_timing.ROUND_CALLED.format(
            reason=reason,
            round=what,
            when=round_timing.DAY_WORDS[held.effect].format(day=day, gone=gone),
            ballot=", ".join(ballot),
            write_ins=round_timing.WRITE_INS[ctx.partisan_primary],
        ),
        ballot,
    )
    d.go(Phase.RUNOFF_CALLED)
