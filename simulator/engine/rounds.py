"""Rounds of voting: which round each phase tallies, when a round's voting day starts, and which
kinds of names the ``votes`` table counts in it."""

from __future__ import annotations

import functools
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from simulator.engine.counting.consult import consult
from simulator.engine.state import Context
from simulator.law import calendar as cal
from simulator.law.machine import Phase
from simulator.law.rules import Finding
from simulator.law.tables import counted_votes
from simulator.law.vocab import Method
from simulator.model.events import WRITE_IN_GENERIC, is_write_in


@functools.lru_cache(maxsize=256)
def _day_start(day: date, tz: ZoneInfo) -> datetime:
    return cal.local(day, time(0, 0), tz)


def round_start(ctx: Context, round_: int) -> datetime:
    """The start of the day round ``round_`` is voted on (G.S. 163-279)."""
    start = ctx.round_starts.get(round_)
    if start is not None:
        return start
    if round_ == 0:
        start = _day_start(ctx.election_day, ctx.tz)
    else:
        day = cal.rounds(ctx.method, ctx.stage)[round_].day_of(ctx.contest.year)
        start = _day_start(day, ctx.tz)
    ctx.round_starts[round_] = start
    return start


#: The round each phase adds votes to (phases not here take no votes)
TALLYING = {Phase.BALLOT: 0, Phase.COUNTING: 0, Phase.RUNOFF_CALLED: 1, Phase.RUNOFF_COUNTING: 1}


@functools.cache
def votes_finding(
    primary: bool,
    group: bool,
    partisan: bool,
    runoff: bool,
    on_ballot: bool,
    write_in: bool,
    filed: bool,
) -> Finding[counted_votes.VoteFacts, counted_votes.Vote]:
    """The ``votes`` table's finding for a vote (in a runoff or not) for a name on the runoff
    ballot or not, a write-in or not, who filed or not: found once for each (the table is pure,
    and a count asks it for every name it reads)."""
    facts = counted_votes.VoteFacts(
        True, runoff, on_ballot, write_in, filed, primary=primary, group=group, partisan=partisan
    )
    return consult(None, counted_votes.VOTES, facts)


def counted_kinds(ctx: Context, rnd: int) -> tuple[bool, bool]:
    """The ``votes`` table's answers for the names a run of votes may take: (a candidate of the
    round is counted, a write-in who did not file is counted). A candidate of the round is one
    who filed, in round 0, or one on the runoff ballot, in a runoff."""
    runoff = rnd == 1
    flags = (ctx.partisan_primary, ctx.contest.is_group, ctx.method is Method.PARTISAN, runoff)
    candidate = votes_finding(*flags, runoff, False, True)
    write_in = votes_finding(*flags, False, is_write_in(WRITE_IN_GENERIC), False)
    counted = counted_votes.Vote.COUNTED
    return candidate.effect is counted, write_in.effect is counted
