"""Handlers of votes: ``votes_cast`` and ``returns_reported`` add to the current round's tally, or
are ruled out by the ``votes`` table. The batched fold (:mod:`simulator.engine.batching`) does the
same for runs of votes, in bulk."""

from __future__ import annotations

from collections.abc import Mapping

from simulator.engine.counting.consult import consult, finding_cites
from simulator.engine.handlers.ballots import settle_deferred
from simulator.engine.handlers.registry import handles
from simulator.engine.rounds import TALLYING, round_start, votes_finding
from simulator.engine.state import Draft
from simulator.law.machine import Phase
from simulator.law.rules import Finding
from simulator.law.tables import counted_votes, departure_words
from simulator.law.vocab import Method, RulingKind
from simulator.model.events import ReturnsReported, VotesCast, is_write_in


def on_votes(d: Draft, counts: Mapping[str, int]) -> None:
    """Votes (a batch): add to the current round's tally, or rule them out."""
    if d.deferred:
        settle_deferred(d, departure_words.VOTING_FIRST)
    phase = d.phase
    ctx = d.ctx
    rnd = TALLYING.get(phase)
    if rnd is None:
        facts = counted_votes.VoteFacts(
            False, False, False, False, False, partisan=ctx.method is Method.PARTISAN
        )
        names = sorted(n for n, v in counts.items() if v)
        if phase is Phase.DECIDED or (
            phase is Phase.AWAITING_NOMINATION and d.declared_at is not None
        ):
            d.rule(
                RulingKind.VOTES_AFTER_DECISION,
                finding_cites(consult(d, counted_votes.VOTES, facts)),
                counted_votes.AFTER_THE_DECISION,
                names,
                once=True,
            )
            return
        d.rule(
            RulingKind.VOTES_DISREGARDED,
            finding_cites(consult(d, counted_votes.VOTES, facts)),
            counted_votes.AT_NO_VOTE.format(phase=phase.value),
            names,
            once=True,
        )
        return
    if d.first_vote_at is None:
        d.set(first_vote_at=d.at)
    ballot = frozenset(d.runoff_ballot) if rnd == 1 else frozenset()
    tally = dict(d.tallies[rnd])
    stray: list[str] = []
    refused: Finding[counted_votes.VoteFacts, counted_votes.Vote] | None = None
    primary, group, partisan = (
        ctx.partisan_primary,
        ctx.contest.is_group,
        ctx.method is Method.PARTISAN,
    )
    for name, n in counts.items():
        finding = votes_finding(
            primary,
            group,
            partisan,
            rnd == 1,
            name in ballot,
            is_write_in(name),
            d.cand(name) is not None,
        )
        if finding.effect is not counted_votes.Vote.COUNTED:
            if n:
                stray.append(name)
                refused = finding
            continue
        tally[name] = tally.get(name, 0) + n
    tallies = list(d.tallies)
    tallies[rnd] = tuple(tally.items())
    d.set(tallies=tuple(tallies))
    if stray:
        assert refused is not None
        d.rule(
            RulingKind.VOTES_DISREGARDED,
            finding_cites(refused),
            counted_votes.REFUSED[refused.effect],
            sorted(stray),
            once=True,
        )
    # votes before the day (absentee, one-stop) are banked; the count starts on the day
    if d.at >= round_start(d.ctx, d.round):
        d.go(Phase.COUNTING if rnd == 0 else Phase.RUNOFF_COUNTING)


@handles(VotesCast)
def on_votes_cast(d: Draft, e: VotesCast) -> None:
    on_votes(d, {e.candidate: e.count})


@handles(ReturnsReported)
def on_returns_reported(d: Draft, e: ReturnsReported) -> None:
    on_votes(d, dict(e.counts))
