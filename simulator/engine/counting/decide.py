"""What each method declares once the votes are counted (G.S. 163-292 plurality, 163-293 majority
and runoff, 163-294 nonpartisan primaries, 163-111 partisan primaries): the first round, the
runoff, and the count decided again when a tied candidate withdraws."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from simulator.engine.counting.consult import consult, finding_cites
from simulator.engine.counting.declare import (
    declare,
    declare_departed,
    fill_vacancies_if_short,
    lot_ruling,
    ruled_cite,
)
from simulator.engine.counting.majority import decide_majority, leader_left_in_window
from simulator.engine.counting.standing import (
    cannot_be_nominated,
    counted_people,
    effective_tally,
    holds_place,
    how_left,
    left_after_election_day,
    left_facts,
    round_name,
    standing,
    still_tied,
)
from simulator.engine.counting.ties import (
    settle_tie,
    tie_at,
    tie_at_finding,
    tie_goes_to_new_election,
    tie_orders_new_election,
)
from simulator.engine.ranking import Selection, ranked, select
from simulator.engine.state import Draft
from simulator.law.cite import Cite
from simulator.law.machine import Phase
from simulator.law.rules import Finding
from simulator.law.tables import count as count_order
from simulator.law.tables import (
    counted_votes,
    declaration,
    departed_declared,
    tie_steps,
    ties,
)
from simulator.law.tables.declaration import by_highest
from simulator.law.vocab import CandStatus, Method, PoolKind, RulingKind, RunoffStatus, TimerTrigger
from simulator.model.events import is_write_in


def decide_first(d: Draft) -> None:
    """The result of the first election or primary, declared at the canvass (or recount)."""
    _votes_for_names_left_off(d)
    finding = _result(d)
    if finding.effect.threshold_based:
        decide_majority(d, finding)
    elif finding.effect is declaration.Decision.TWO_PER_SEAT:
        _decide_nonpartisan_primary(d, finding)
    elif finding.effect is declaration.Decision.UNOPPOSED:
        _decide_unopposed(d, finding)
    else:
        _decide_plurality(d, finding)


def _decide_unopposed(
    d: Draft, result: Finding[declaration.ResultFacts, declaration.Decision]
) -> None:
    """The ``result`` table's unopposed count: no more names on the ballot than places, so
    nobody is measured against a majority and those named are elected (a place left over is
    vacant)."""
    tally = effective_tally(d, 0)
    names = sorted(
        (c.name for c in d.cands if c.on_ballot and not is_write_in(c.name)),
        key=lambda n: -tally.get(n, 0),
    )
    votes = declaration.votes_of([(n, tally.get(n, 0)) for n in names])
    text = declaration.UNOPPOSED_ELECTED.format(names=", ".join(names), votes=votes)
    declare(d, names, ruled_cite(result), text)
    fill_vacancies_if_short(d, d.contest.seats, names)
    d.go(Phase.DECIDED)


def _votes_for_names_left_off(d: Draft) -> None:
    """Votes the returns give a candidate whose name an earlier ruling left off the ballot (a
    death or a departure before the ballots were printed, or with a reprint): no ballot offered
    the name, so they are not counted and are out of the total. Said once, with the provision
    that left the name off, rather than dropped without a word."""
    tally = effective_tally(d, 0)
    for c in d.cands:
        votes = tally.get(c.name, 0)
        if c.on_ballot or c.counted or not votes or is_write_in(c.name):
            continue
        off = [r for r in d.rulings if r.kind is RulingKind.NAME_REMOVED and c.name in r.candidates]
        if not off or any(
            r.kind is RulingKind.VOTES_DISREGARDED and c.name in r.candidates for r in d.rulings
        ):
            continue
        day = off[-1].at.astimezone(d.ctx.tz).date()
        d.rule(
            RulingKind.VOTES_DISREGARDED,
            list(off[-1].cites),
            counted_votes.LEFT_OFF_THE_BALLOT.format(votes=votes, name=c.name, day=day),
            [c.name],
            once=True,
        )


def _result(
    d: Draft, *, runoff: bool = False
) -> Finding[declaration.ResultFacts, declaration.Decision]:
    """The ``result`` table: which provision decides this count, and how."""
    ctx = d.ctx
    names = sum(1 for c in d.cands if c.on_ballot and not is_write_in(c.name))
    facts = declaration.ResultFacts(
        declaration.count_of(ctx.method, ctx.stage),
        ctx.contest.is_group,
        runoff,
        contested=names > ctx.contest.seats,
    )
    return consult(d, declaration.RESULT, facts)


def _tie_kind(d: Draft) -> ties.Kind:
    if d.ctx.method is Method.PLURALITY:
        return ties.Kind.PLURALITY
    return ties.Kind.AFTER_PRIMARY if d.ctx.method is Method.PRIMARY else ties.Kind.PARTISAN


def _decide_plurality(
    d: Draft, result: Finding[declaration.ResultFacts, declaration.Decision]
) -> None:
    n = d.contest.seats
    tally = effective_tally(d, 0)
    people = counted_people(d, tally, nominating=False)
    if result.no_provision:  # a partisan general election: the rule is not in the sources
        count = declaration.ResultFacts(
            declaration.count_of(d.ctx.method, d.ctx.stage), d.ctx.contest.is_group
        )
        consult(d, declaration.RESULT, count, (), {})
        elected_cite: Cite | list[Cite] = list(result.cites)
    else:
        elected_cite = ruled_cite(result)
    sel = select(people, n, d.lots, harmless_ties=d.ctx.interp.harmless_ties)
    if sel.tied or sel.lot_winners:
        over, estimate = count_order.voters_over_5000(sum(tally.values()), n)
        pool = sel.tie_pool or sel.lot_winners
        gone = [x for x in pool if standing(d.cand(x)) is not CandStatus.ACTIVE]
        # (one who left with the name on the ballot, before the vote, is read first; one who
        # left on or after election day, before the tie was broken, is another question)
        gone.sort(key=lambda x: left_after_election_day(d, d.cand(x)))
        facts = ties.TieFacts(
            _tie_kind(d),
            over,
            estimate,
            departed=standing(d.cand(gone[0])) if gone else CandStatus.ACTIVE,
            withdrawal_as_death=d.ctx.interp.withdrawal_as_death,
            left_after=bool(gone) and left_after_election_day(d, d.cand(gone[0])),
        )
        who = ", ".join(f"{x} ({standing(d.cand(x)).value})" if x in gone else x for x in pool)
        stand = [x for x in sel.tie_pool if x not in gone]
        finding = consult(
            d,
            ties.TIE,
            facts,
            pool,
            {"who": who} if sel.tied else None,  # (a lot drawn completes a ruled tie)
            # `tied_left_before_lot` seats those who stand: only where they are as many as the
            # places
            readings=not (facts.kind is ties.Kind.PLURALITY and facts.left_after)
            or len(stand) == sel.tie_places,
        )
        tie_cites = finding_cites(finding)
        if finding.effect is ties.TieEffect.STANDING and sel.tied:
            if sel.chosen:
                declare(d, sel.chosen, elected_cite, by_highest(people, nominating=False))
            declare(d, stand, tie_cites, standing_text(d, sel, stand))
            d.go(Phase.DECIDED)
            return
        if finding.effect is ties.TieEffect.VACANT and sel.tied:
            if sel.chosen:
                declare(d, sel.chosen, elected_cite, by_highest(people, nominating=False))
            d.set(vacant=d.vacant + sel.tie_places)
            d.rule(
                RulingKind.OFFICE_VACANT,
                tie_cites,
                ties.SEATS_VACANT.format(places=sel.tie_places, who=who) + finding.note(),
                gone,
                once=True,
            )
            d.go(Phase.DECIDED)
            return
        if finding.effect is ties.TieEffect.NEW_ELECTION and not sel.lot_winners:
            if sel.chosen:
                declare(d, sel.chosen, elected_cite, by_highest(people, nominating=False))
            d.rule(
                RulingKind.NEW_ELECTION_ORDERED,
                tie_cites,
                ties.NEW_ELECTION.format(
                    tied=", ".join(sel.tie_pool), places=sel.tie_places, reading=""
                ),
                sel.tie_pool,
                once=True,
                seats=sel.tie_places,
            )
            d.go(Phase.AWAITING_NEW_ELECTION)
            return
        lot_ruling(d, sel, tie_cites)
    text = by_highest(people, nominating=False, lot=sel.lot_winners)
    if sel.tied:
        if sel.chosen:
            declare(d, sel.chosen, elected_cite, text)
        d.go(Phase.AWAITING_LOT)
        return
    declare(d, sel.chosen, elected_cite, text)
    fill_vacancies_if_short(d, n, sel.chosen)
    d.go(Phase.DECIDED)


def _decide_nonpartisan_primary(
    d: Draft, result: Finding[declaration.ResultFacts, declaration.Decision]
) -> None:
    """G.S. 163-294(b): the 2N best are nominated; ties ranked by lot; 163-294.1(b)."""
    n = d.contest.seats
    tally = effective_tally(d, 0)
    everyone = counted_people(d, tally, nominating=False)
    people = counted_people(d, tally, nominating=True)
    sel = select(people, 2 * n, d.lots, harmless_ties=d.ctx.interp.harmless_ties)
    top = {name for name, _ in everyone[: 2 * n]}
    skipped = [
        name
        for name, _ in everyone
        if name in top
        and (c := d.cand(name)) is not None
        and not c.active
        and not holds_place(d, c)  # nominated before they left: 163-294.1(b) is not theirs
    ]
    left = [
        consult(d, departed_declared.DECLARED_LEFT, left_facts(d, c), readings=False)
        for n in skipped
        if (c := d.cand(n))
    ]
    if skipped:
        assert all(f.effect is departed_declared.Seat.NOT_NOMINATED for f in left)
        late = all(left_after_election_day(d, d.cand(x)) for x in skipped)
        d.rule(
            RulingKind.VOTES_DISREGARDED,
            finding_cites(left[0]),
            departed_declared.PASSED_OVER.format(
                names=", ".join(skipped), when=departed_declared.LEFT_WHEN[late]
            ),
            skipped,
            once=True,
        )
    cite = ruled_cite(result)
    if sel.tied or sel.lot_winners:
        tie = tie_at(d, ties.TiePoint.NONPARTISAN_PRIMARY, sel)
        lot_ruling(d, sel, tie)
    if sel.tied:
        if sel.chosen:
            declare(d, sel.chosen, cite, by_highest(people, nominating=True))
        d.go(Phase.AWAITING_LOT)
        return
    text = by_highest(people, nominating=True, lot=sel.lot_winners)
    declare(d, sel.chosen, cite, text)
    d.go(Phase.DECIDED)


def tie_withdrawal(d: Draft, name: str) -> None:
    """The ``tie-withdrawal`` table: a withdrawal while a tie waits on its three days; one in
    time is then weighed by the ``tie-window`` table (:func:`settle_tie`)."""
    pool = d.pool
    assert pool is not None
    left = standing(d.cand(name))
    facts = tie_steps.TieWithdrawalFacts(
        tie_for_first=pool.kind is PoolKind.TIE_FIRST,
        tied=name in pool.eligible,
        late=pool.withdraw_due is not None and d.at > pool.withdraw_due,
        left=left is not CandStatus.ACTIVE,
    )
    found = consult(d, tie_steps.TIE_WITHDRAWAL, facts)
    if found.effect in tie_steps.WITHDRAWAL_WORDS:  # left before, or too late
        said = {"name": name, "how": tie_steps.LEFT_BEFORE.get(left, ""), "effect": found.effect}
        d.rule(
            RulingKind.NO_EFFECT,
            found.cites,
            tie_steps.WITHDRAWAL_WORDS[found.effect].format_map(said),
            [name],
            reason=tie_steps.WITHDRAWAL_REASON[found.effect].format_map(said),
        )
        return
    if found.effect is tie_steps.TieWithdrawal.NOT_TIED:
        d.update_cand(name, status=CandStatus.WITHDREW, off_at=d.at)
        if leader_left_in_window(d, name):
            # (d)(2)'s leader withdrew within the three days: decided again now, as a death is
            d.drop_timers(TimerTrigger.RUNOFF_REQUEST_PASSES, TimerTrigger.TIE_WITHDRAWAL_PASSES)
            decide_first(d)
        return
    d.update_cand(name, status=CandStatus.WITHDREW, off_at=d.at, on_ballot=False)
    first = pool.kind is PoolKind.TIE_FIRST
    d.set(pool=attrs.evolve(pool, eligible=still_tied(d, pool.eligible, first=first)))
    settle_tie(d, tie_steps.TieMoment.WITHDREW, name)


def decide_runoff(d: Draft) -> None:
    """163-293(f): the highest in the runoff are elected; a tie is settled by lot. A second
    primary (163-111(b), partly available) likewise: a candidate on its ballot who left and
    cannot be nominated takes no place, and the places go to the highest of the others (the
    ``left-runoff`` table's fallback)."""
    pool = d.pool
    seats = pool.seats if pool is not None else 1
    tally = effective_tally(d, 1)
    people = ranked(tally, d.runoff_ballot)
    if d.ctx.nominating:
        barred: list[str] = []  # those the places would go to, but for their leaving
        while people:
            # those the places would go to, or who tie for the last of them: one who left
            # takes no place, and is no party to a tie for one
            last = people[min(seats, len(people)) - 1][1]
            out = [n for n, v in people if v >= last and cannot_be_nominated(d, n)]
            if not out:
                break
            barred += out
            people = [(n, v) for n, v in people if n not in out]
        for n in barred:  # each ruled once: not nominated
            c = d.cand(n)
            assert c is not None
            declare_departed(d, c, None)
    sel = select(people, seats, d.lots, harmless_ties=d.ctx.interp.harmless_ties)
    cite = ruled_cite(_result(d, runoff=True))
    some_barred = len(people) < len(d.runoff_ballot)
    of = declaration.IN_THE_ROUND.format(
        round=round_name(d), among=declaration.WHO_CAN_BE_NOMINATED if some_barred else ""
    )
    text = by_highest(people, nominating=d.ctx.nominating, of=of, lot=sel.lot_winners)
    d.set(runoff_status=RunoffStatus.HELD)
    if sel.tied or sel.lot_winners:
        stand = [x for x in sel.tie_pool if standing(d.cand(x)) is CandStatus.ACTIVE]
        found = tie_at_finding(d, ties.TiePoint.RUNOFF, sel, stand)
        if found.effect is ties.TieEffect.STANDING and sel.tied:  # `tied_left_before_lot`
            if sel.chosen:
                declare(d, sel.chosen, cite, text)
            declare(d, stand, finding_cites(found), standing_text(d, sel, stand))
            d.set(pool=None)
            d.go(Phase.DECIDED)
            return
        if not tie_goes_to_new_election(d, ties.TiePoint.RUNOFF, sel):  # `group_runoff_tie`
            lot_ruling(d, sel, finding_cites(found))
    if sel.tied:
        if sel.chosen:
            declare(d, sel.chosen, cite, text)
        if not tie_orders_new_election(d, ties.TiePoint.RUNOFF, sel):
            d.go(Phase.AWAITING_LOT)
        return
    declare(d, sel.chosen, cite, text)
    d.set(pool=None)
    d.go(Phase.DECIDED)


def standing_text(d: Draft, sel: Selection, stand: Sequence[str]) -> str:
    """The ``tied_left_before_lot`` ruling: the tied candidates who still stand take the places the
    tie decides without a drawing of lots."""
    gone = [x for x in sel.tie_pool if x not in stand]
    return ties.STANDING_ELECTED.format(
        stand=", ".join(stand),
        places=ties.THE_LAST[sel.tie_places == 1].format(n=sel.tie_places),
        left=how_left(d, gone, count_order.LEFT_VERB[CandStatus.WITHDREW]),
    )
