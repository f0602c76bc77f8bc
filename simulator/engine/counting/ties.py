"""Ties (G.S. 163-293(d), 163-292, 163-294): the ``tie-at`` table, lots, a tie for first or for
second and the three days to withdraw, and demands held until a tie or a departure settles."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from simulator.engine.counting.consult import consult, finding_cites
from simulator.engine.counting.declare import (
    after_declaration,
    declaration_timing,
    declare_leaders,
    lot_awaited,
    lot_ruling,
)
from simulator.engine.counting.runoff import start_runoff
from simulator.engine.counting.standing import (
    effective_tally,
    how_left,
    left_after_election_day,
    standing,
    still_tied,
)
from simulator.engine.ranking import Selection, select
from simulator.engine.state import Draft, Pool
from simulator.law.cite import Cite
from simulator.law.machine import Phase
from simulator.law.readings import named
from simulator.law.rules import Finding
from simulator.law.tables import count as count_order
from simulator.law.tables import departed_in_count, round_timing, tie_steps, ties
from simulator.law.vocab import (
    CandStatus,
    DeadlineKind,
    PoolKind,
    RulingKind,
    RunoffStatus,
    TimerTrigger,
)


def _tie_at_facts(
    d: Draft, point: ties.TiePoint, pool: Sequence[str] = (), *, say: bool = False
) -> ties.TieAtFacts:
    """The ``tie-at`` table's facts for a tie among ``pool`` at ``point``. Where a reading sends
    the tie to 163-182.8 and the votes do not tell how many voted, the ``general-tie`` table's
    voters question is consulted too (`group_tie_voters`), its gap said when ``say``."""
    runoff = point is ties.TiePoint.RUNOFF  # the runoff's ballot item, for the seats it fills
    seats = d.pool.seats if runoff and d.pool is not None else d.contest.seats
    over, estimate = count_order.voters_over_5000(
        sum(effective_tally(d, 1 if runoff else 0).values()), seats
    )
    primary = d.ctx.partisan_primary
    facts = ties.TieAtFacts(
        point,
        primary=primary,
        group=d.ctx.contest.is_group,
        over_5000=estimate if over is None else over,
        many=point is ties.TiePoint.RUNOFF and not primary and len(pool) > 2,
        left=point is ties.TiePoint.RUNOFF and not primary and _tied_one_left(d, pool),
    )
    if over is not None or not ties.counts_voters(consult(d, ties.TIE_AT, facts)):
        return facts
    fields = {"tied": ", ".join(pool)} if say else None
    voters = consult(
        d, ties.TIE, ties.voters_question(over, estimate), pool, fields, asked=ties.VOTERS_ASKED
    )
    return attrs.evolve(facts, over_5000=voters.effect is ties.TieEffect.NEW_ELECTION)


def _tied_one_left(d: Draft, pool: Sequence[str]) -> bool:
    """Whether one of the candidates tied with ``pool`` in the runoff (the pool itself, or,
    once lots are drawn, everyone with a lot winner's vote) has left the race."""
    tally = effective_tally(d, 1)
    votes = {tally.get(n, 0) for n in pool}
    tied = {n for n in d.runoff_ballot if tally.get(n, 0) in votes} | set(pool)
    return any(standing(d.cand(n)) is not CandStatus.ACTIVE for n in tied)


def tie_at(d: Draft, point: ties.TiePoint, sel: Selection) -> list[Cite]:
    """A tie a lot breaks: the ``tie-at`` table names the provision (or the gap, said once while
    the lot is pending); returns what the lot's ruling cites."""
    return finding_cites(tie_at_finding(d, point, sel))


def tie_at_finding(
    d: Draft, point: ties.TiePoint, sel: Selection, stand: Sequence[str] = ()
) -> Finding[ties.TieAtFacts, ties.TieEffect]:
    """The ``tie-at`` table's finding on a tie (the gap said once while the lot is pending);
    ``stand``: the tied candidates who still stand, which `tied_left_before_lot` seats where they
    are as many as the places (otherwise the default fallback holds)."""
    pool = sel.tie_pool or sel.lot_winners
    facts = _tie_at_facts(d, point, pool)
    finding = consult(
        d,
        ties.TIE_AT,
        facts,
        pool,
        {"tied": ", ".join(pool)} if sel.tied else None,
        readings=not facts.left or (sel.tied and len(stand) == sel.tie_places),
    )
    # where 163-182.8 counts voters the votes do not give: the ``group_tie_voters`` gap
    if sel.tied:
        _tie_at_facts(d, point, pool, say=True)
    return finding


def tie_goes_to_new_election(d: Draft, point: ties.TiePoint, sel: Selection) -> bool:
    """Whether the tie still to be broken goes to a new election rather than to a lot
    (`first_election_tie` under 163-182.8(1)), so that no drawing of lots is ruled."""
    if not sel.tied or sel.lot_winners:
        return False
    facts = _tie_at_facts(d, point, sel.tie_pool)
    found = consult(d, ties.TIE_AT, facts)
    return found.effect is ties.TieEffect.NEW_ELECTION


def tie_orders_new_election(d: Draft, point: ties.TiePoint, sel: Selection) -> bool:
    """The first_election_tie and group_runoff_tie readings: a tie of the first election 163-293
    leaves open, or of a group runoff, goes to 163-182.8, whose (1) has the State Board order a new
    election among the tied (True: the contest waits for it)."""
    if not tie_goes_to_new_election(d, point, sel):
        return False
    facts = _tie_at_facts(d, point, sel.tie_pool)
    finding = consult(d, ties.TIE_AT, facts)
    d.rule(
        RulingKind.NEW_ELECTION_ORDERED,
        finding_cites(finding),  # the gap's provisions and 163-182.8(1), which the reading applies
        ties.NEW_ELECTION.format(
            tied=", ".join(sel.tie_pool),
            places=sel.tie_places,
            reading=f" {named(r.switch, r.value)}" if (r := finding.reading) else "",
        ),
        sel.tie_pool,
        once=True,
        seats=sel.tie_places,
    )
    d.go(Phase.AWAITING_NEW_ELECTION)
    return True


def lot_settles(
    d: Draft,
    tied: Sequence[str],
    people: Sequence[tuple[str, int]],
    places: int,
    what: str = tie_steps.FIRST_PLACE,
) -> bool:
    drawn = [n for n in d.lots if n in tied]
    finding = consult(
        d,
        ties.TIE_AT,
        ties.TieAtFacts(ties.TiePoint.PRIMARY_PLACE, primary=True),
        tied,
        # (said only while the drawing has not settled it)
        {"what": what, "tied": ", ".join(tied)} if len(drawn) < places else None,
        asked=ties.PRIMARY_PLACE_ASKED,
    )
    for winner in drawn[:places]:
        d.rule(
            RulingKind.DECIDED_BY_LOT,
            finding_cites(finding),
            tie_steps.LOT_WON.format(winner=winner, what=what),
            [winner],
            once=True,
        )
    if len(drawn) >= places:
        return True
    left = [n for n in tied if n not in drawn]
    lot_awaited(d, left, places - len(drawn), finding_cites(finding), what)
    d.go(Phase.AWAITING_LOT)
    return False


def reorder_by_lot(people: Sequence[tuple[str, int]], lots: Sequence[str]) -> list[tuple[str, int]]:
    order = {n: i for i, n in enumerate(lots)}
    return sorted(people, key=lambda nv: (-nv[1], order.get(nv[0], len(order)), nv[0]))


def settle_tie_for_first(d: Draft, tied: tuple[str, ...]) -> None:
    """The ``recount`` table, then the ``tie-for-first`` table (163-293(d)(1)): a recount; if
    it confirms the tie, a runoff unless one withdraws within three days."""
    if not d.recounted:
        _order_recount(d, tied)
        return
    gone = [n for n in tied if standing(d.cand(n)) is not CandStatus.ACTIVE]
    first_gone = d.cand(gone[0]) if gone else None
    facts = departed_in_count.TieFirstFacts(
        standing(first_gone),
        len(tied),
        left_after_election_day(d, first_gone),
        one_stands=len(gone) < len(tied),
    )
    who = ", ".join(f"{n} ({standing(d.cand(n)).value})" if n in gone else n for n in tied)
    # every tied candidate has left: no reading that elects "the tied candidate who stands"
    # has anyone to elect (``dead_tied_for_first: other_elected``), so the default holds
    finding = consult(
        d,
        departed_in_count.TIE_FIRST,
        facts,
        tied,
        {"who": who},
        readings=facts.one_stands,
    )
    if finding.effect is departed_in_count.TieFirstEffect.VACANT:
        fc = finding_cites(finding)
        d.set(vacant=d.vacant + 1, runoff_status=RunoffStatus.NONE, pool=None)
        d.rule(
            RulingKind.OFFICE_VACANT,
            fc,
            departed_in_count.TIED_VACANT.format(who=who) + finding.note(),
            gone,
            once=True,
        )
        no_runoff = departed_in_count.VACANT_NO_RUNOFF
        d.rule(RulingKind.NO_RUNOFF, fc, no_runoff, tied, once=True)
        d.go(Phase.DECIDED)
        return
    if finding.effect is departed_in_count.TieFirstEffect.OTHER_ELECTED:
        standing_ = tuple(n for n in tied if n not in gone)
        if len(standing_) == 1:
            declare_leaders(
                d,
                standing_,
                finding_cites(finding)[0],
                (
                    departed_in_count.OTHERS_HAD_LEFT
                    if len(gone) > 1
                    else departed_in_count.OTHER_HAD_LEFT
                ).format(gone=", ".join(f"{n} {standing(d.cand(n)).value}" for n in gone)),
            )
            return
        tied = standing_
        # the tie among those still standing is asked again
        facts = departed_in_count.TieFirstFacts(
            CandStatus.ACTIVE, len(tied), False, one_stands=True
        )
        finding = consult(
            d,
            departed_in_count.TIE_FIRST,
            facts,
            tied,
            {"tied": ", ".join(tied)},
            asked=departed_in_count.STILL_TIED_ASKED,
        )
    cites = finding_cites(finding)
    if finding.effect is departed_in_count.TieFirstEffect.LOT:
        sel = select([(n, 0) for n in tied], 1, d.lots)
        if sel.tied:
            lot_awaited(d, sel.tie_pool, sel.tie_places, cites, tie_steps.FIRST_PLACE)
            d.go(Phase.AWAITING_LOT)
            return
        lot_ruling(d, sel, cites)
        declare_leaders(d, sel.chosen, cites, departed_in_count.DECIDED_BY_LOT)
        return
    _open_tie_withdrawal(d, tied, gone, cites)


def _order_recount(d: Draft, tied: tuple[str, ...]) -> None:
    """A tie for first not yet recounted: the ``recount`` table requires the recount first."""
    recount = consult(
        d, tie_steps.RECOUNT, tie_steps.RecountFacts(tie_steps.RecountMoment.TIE_FOR_FIRST)
    )
    assert recount.effect is tie_steps.Recount.REQUIRED
    d.rule(
        RulingKind.RECOUNT_REQUIRED,
        finding_cites(recount),
        tie_steps.RECOUNT_REQUIRED.format(tied=", ".join(tied)),
        tied,
        once=True,
    )
    d.go(Phase.AWAITING_RECOUNT)


def _open_tie_withdrawal(
    d: Draft, tied: tuple[str, ...], gone: Sequence[str], cites: Sequence[Cite]
) -> None:
    """The recount confirms a tie for first: a runoff between the tied unless one withdraws
    within three days (163-293(d)(1)); those days already over are read as passed now."""
    dl = after_declaration(
        d,
        DeadlineKind.TIE_WITHDRAWAL,
        *declaration_timing(d, round_timing.Step.TIE_WITHDRAWAL, tie_for_first=True),
    )
    d.deadline(dl)
    d.set(
        pool=Pool(PoolKind.TIE_FIRST, eligible=tied, withdraw_due=dl.due),
        runoff_status=RunoffStatus.AVAILABLE,
    )
    if dl.due <= d.at:
        # the count reaches this tie only after the three days after the recount ended (a
        # tied candidate left while a drawing among more was awaited): none of these withdrew
        # within them, so what follows their end follows now
        d.go(Phase.TIE_WITHDRAWAL)
        settle_tie(d, tie_steps.TieMoment.WITHDRAWAL_PASSES)
        return
    d.timer(dl.due, TimerTrigger.TIE_WITHDRAWAL_PASSES)
    # (a tied candidate who left on or after election day is still tied: said here, so that
    # the board knows now that the three days cannot end as (d)(1) foresees)
    late = [n for n in tied if n in gone and left_after_election_day(d, d.cand(n))]
    note = (
        tie_steps.LEFT_ON_THE_DAY.format(
            late=", ".join(f"{n} {standing(d.cand(n)).value}" for n in late)
        )
        if late
        else ""
    )
    d.rule(
        RulingKind.RUNOFF_UNLESS_WITHDRAWN,
        cites,
        tie_steps.RUNOFF_UNLESS_WITHDRAWN.format(tied=", ".join(tied), due=dl.due, note=note),
        tied,
        once=True,
    )
    d.go(Phase.TIE_WITHDRAWAL)


def settle_tie_for_second(d: Draft, leader: str, seconds: tuple[str, ...]) -> None:
    """163-293(d)(2): the leader is elected unless all but one tied runner-up withdraw within
    3 days and the last demands a runoff under (c)."""
    wd = after_declaration(
        d, DeadlineKind.TIE_WITHDRAWAL, *declaration_timing(d, round_timing.Step.TIE_WITHDRAWAL)
    )
    rq = after_declaration(
        d, DeadlineKind.RUNOFF_REQUEST, *declaration_timing(d, round_timing.Step.REQUEST)
    )
    d.deadline(wd)
    d.deadline(rq)
    d.timer(wd.due, TimerTrigger.TIE_WITHDRAWAL_PASSES)
    d.timer(rq.due, TimerTrigger.RUNOFF_REQUEST_PASSES)
    d.set(
        pool=Pool(
            PoolKind.TIE_SECOND,
            leaders=(leader,),
            eligible=seconds,
            seats=1,
            request_due=rq.due,
            withdraw_due=wd.due,
        ),
        runoff_status=RunoffStatus.AVAILABLE,
    )
    # the demand's deadline inside the three days: said, so that it is not taken for a slip
    text = tie_steps.TIE_FOR_SECOND.format(
        leader=leader,
        seconds=", ".join(seconds),
        withdraw=wd.due,
        demand=rq.due,
        note=tie_steps.DEMAND_FIRST if rq.due < wd.due else "",
    )
    d.rule(RulingKind.RUNOFF_AVAILABLE, wd.cites[0], text, seconds, once=True)
    d.go(Phase.TIE_WITHDRAWAL)


def settle_tie(d: Draft, moment: tie_steps.TieMoment, who: str = "") -> None:
    """The ``tie-window`` table: what a tie's three days come to when a tied candidate
    withdraws in time (``who``), a tied runner-up's demand counts (``who``) or a deadline
    passes. This gathers the facts and applies the step the table gives."""
    pool = d.pool
    assert pool is not None
    first = pool.kind is PoolKind.TIE_FIRST
    remaining = still_tied(d, pool.eligible, first=first)
    departed = [n for n in remaining if standing(d.cand(n)) is not CandStatus.ACTIVE]
    passed = moment is tie_steps.TieMoment.REQUEST_PASSES or (
        pool.request_due is not None and d.at > pool.request_due
    )
    facts = tie_steps.TieWindowFacts(
        first,
        moment,
        min(len(remaining), 2),
        # (a demand lapses when the one who made it dies or is disqualified before the runoff
        # is called: a runoff with the last tied runner-up needs that runner-up standing)
        demanded=not first
        and any(n in pool.requests and standing(d.cand(n)) is CandStatus.ACTIVE for n in remaining),
        request_passed=not first and passed,
        departed=first and bool(departed),
    )
    standing_now = [n for n in remaining if standing(d.cand(n)) is CandStatus.ACTIVE]
    finding = consult(
        d,
        tie_steps.TIE_WINDOW,
        facts,
        remaining,
        {"tied": ", ".join(remaining)},
        # `departed_in_tie_window` elects the one tied candidate who stands: with none, or several,
        # standing there is no one candidate for it to name, and (d)(1)'s runoff is held
        readings=len(standing_now) == 1,
    )
    step = finding.effect
    if step is tie_steps.TieStep.WAIT:
        return
    cites = finding_cites(finding)
    last = remaining[0] if len(remaining) == 1 else ""
    ended = next(
        (x.due for x in reversed(d.deadlines) if x.kind is DeadlineKind.TIE_WITHDRAWAL), None
    )
    why = tie_steps.tie_step_reason(
        step,
        moment,
        withdrew=who,
        last=last,
        departed=how_left(d, departed, count_order.LEFT_THE_RACE),
        ended=ended.strftime("%Y-%m-%d %H:%M") if ended is not None and d.at >= ended else "",
    )
    if step is tie_steps.TieStep.REMAINING_ELECTED:
        declare_leaders(d, remaining, cites, why)
    elif step is tie_steps.TieStep.STANDING_ELECTED:
        declare_leaders(d, standing_now, cites, why)
    elif step is tie_steps.TieStep.RUNOFF_AMONG_TIED:
        d.set(pool=attrs.evolve(pool, eligible=remaining))
        start_runoff(d, remaining, 1, cites, why)
    elif step is tie_steps.TieStep.RUNOFF_WITH_LAST:
        start_runoff(d, (*pool.leaders, last), 1, cites, why)
    else:  # the leader is declared elected (163-293(d)(2))
        declare_leaders(d, pool.leaders, cites, why)
        answer_held_demands(d, pool, cites, why, among=remaining)


def answer_held_demands(
    d: Draft,
    pool: Pool,
    cites: Cite | Sequence[Cite],
    why: str,
    among: Sequence[str] | None = None,
) -> None:
    """The demands a tie for second held (163-293(d)(2): each waits for the others'
    withdrawals), answered once the contest is decided without a runoff: each calls none, and
    says ``why`` (they were left without a ruling). A demand lapses with a maker who left (said
    where the maker left); ``among``: only those still tied."""
    for n in pool.requests:
        if (among is None or n in among) and standing(d.cand(n)) is CandStatus.ACTIVE:
            d.rule(
                RulingKind.REQUEST_REJECTED,
                cites,
                tie_steps.DEMAND_CALLS_NONE.format(name=n, why=why),
                [n],
                reason=why,
            )
