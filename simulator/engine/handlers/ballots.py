"""Handlers of the board's ballot decisions: ballots printed, and whether to reprint them after a
departure (a determination deferred until the board decides, or settled when the vote begins)."""

from __future__ import annotations

import attrs

from simulator.engine.counting.consult import consult
from simulator.engine.handlers.departure_effects import Departure, apply_effect
from simulator.engine.handlers.departures import departure_facts
from simulator.engine.handlers.registry import handles
from simulator.engine.state import Draft
from simulator.law.machine import Phase
from simulator.law.tables import departure_words, departures
from simulator.law.tables.count import LEFT_VERB
from simulator.law.vocab import RulingKind
from simulator.model.events import BallotsPrinted, ReprintDetermined


@handles(BallotsPrinted)
def on_ballots_printed(d: Draft, e: BallotsPrinted) -> None:
    if d.printed_at is None:
        d.set(printed_at=e.at)


def settle_deferred(d: Draft, why: str) -> None:
    """Names still waiting for a reprint determination stay on the printed ballots (``why``:
    one of the reasons :mod:`~simulator.law.tables.departure_words` words)."""
    for name, cites, verb, _ in d.deferred:
        text = departure_words.NOT_REPRINTED.format(name=name, verb=verb, why=why)
        d.rule(RulingKind.NAME_REMAINS, cites, text, [name])
    d.set(deferred=())


#: Where a contest still waits for its first election's (or primary's) ballots: a finding that
#: there is time to reprint them can change them only here
_BEFORE_THE_VOTE = frozenset(
    {
        Phase.FILING,
        Phase.FILING_REOPENED,
        Phase.FILING_EXTENDED,
        Phase.AWAITING_NOMINATION,
        Phase.BALLOT,
    }
)


@handles(ReprintDetermined)
def on_reprint_determined(d: Draft, e: ReprintDetermined) -> None:
    d.set(reprint=e.enough_time)
    if not e.enough_time:
        settle_deferred(d, departure_words.NO_TIME_TO_REPRINT)
        return
    if not d.awaiting_reprint:
        return
    if d.first_vote_at is not None or d.phase not in _BEFORE_THE_VOTE:
        # too late to change a ballot: the votes are cast on the printed ones, or no vote is
        # held any more (a primary cancelled by a later departure, 163-112(d)(3) or
        # 163-294.1(b)); those still waiting keep their names on the printed ballots
        why = (
            departure_words.VOTES_CAST_FIRST
            if d.first_vote_at is not None
            else departure_words.CONTEST_MOVED_ON.format(phase=d.phase.value)
        )
        settle_deferred(d, why)
        d.set(awaiting_reprint=())
        return
    names = d.awaiting_reprint
    notices = {name: notice for name, _, _, notice in d.deferred}
    d.set(awaiting_reprint=(), deferred=())
    for name in names:
        c = d.cand(name)
        if c is None or c.active:
            continue
        notice = notices.get(name, e.at)
        facts = departure_facts(d, name, c.status, c.off_at or e.at, notice)
        facts = attrs.evolve(facts, reprint=True, remaining=len(d.active_names()))
        finding = consult(d, departures.TABLE, facts)
        effects = finding.effect(facts)
        if not any(eff.kind is departures.EffectKind.NAME_REMOVED for eff in effects):
            continue  # the rule keeps the name whatever the board finds (163-112(b), (d)(2))
        d.update_cand(name, vacant_if_elected=None)
        # the day-counting reading: a reopened period counts from the notice of the death; but here
        # the board reopens on its determination (163-294.4(b) makes the reopening follow the
        # finding of time to reprint), so a determination after the notice counts from itself: a
        # decision never opens a period before it was made
        start = notice if notice >= e.at else e.at
        left = Departure(name, LEFT_VERB[c.status], facts, start, noticed=notice)
        for eff in effects:
            if eff.kind in (departures.EffectKind.NAME_REMOVED, departures.EffectKind.REOPEN):
                apply_effect(d, eff, left)
