"""The majority count (G.S. 163-293, 163-111): the threshold, the leaders who reach it, the places
a runoff request is open to, and leaders or runners-up who left."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import attrs

from simulator.engine.counting.consult import consult, finding_cites
from simulator.engine.counting.declare import (
    declare,
    declare_leaders,
    fill_vacancies_if_short,
    lot_ruling,
    ruled_cite,
    runoff_cite,
)
from simulator.engine.counting.runoff import open_request_window
from simulator.engine.counting.standing import (
    counted_people,
    effective_tally,
    holds_place,
    how_left,
    left_after_election_day,
    nobody_below,
    standing,
    threshold_total,
)
from simulator.engine.counting.ties import (
    lot_settles,
    reorder_by_lot,
    settle_tie_for_first,
    settle_tie_for_second,
    tie_at,
    tie_goes_to_new_election,
    tie_orders_new_election,
)
from simulator.engine.ranking import Selection, select
from simulator.engine.result import exact
from simulator.engine.state import Cand, Draft, Pool
from simulator.law.cite import Cite
from simulator.law.machine import Phase
from simulator.law.parameters import in_force
from simulator.law.readings import LeftAfterPrimaryDay
from simulator.law.rules import Finding
from simulator.law.tables import count as count_order
from simulator.law.tables import declaration, departed_in_count, party_nominees, tie_steps, ties
from simulator.law.vocab import CandStatus, PoolKind, RulingKind, RunoffStatus, TimerTrigger


def decide_majority(
    d: Draft, result: Finding[declaration.ResultFacts, declaration.Decision]
) -> None:
    """G.S. 163-293 (majority, runoff) and 163-111 (substantial plurality, second primary): the
    ``result`` table's threshold decision."""
    ctx = d.ctx
    n = ctx.contest.seats
    group = n > 1
    primary = result.effect is declaration.Decision.SUBSTANTIAL_PLURALITY
    tally = effective_tally(d, 0)
    threshold = _threshold(d, result, tally)
    if primary:
        # `left_after_primary_day`: places the count gives candidates who left on or after the
        # primary day are vacancies in the nomination, for the committee; the others count for the
        # rest
        n -= len(_left_places_to_committee(d, tally, threshold, n))
    people = counted_people(d, tally, nominating=primary)
    if not people:
        fill_vacancies_if_short(d, n, ())
        d.go(Phase.DECIDED)
        return
    # the ``count-order`` table: which provision's question comes first
    lead = d.cand(people[0][0])
    order = count_order.OrderFacts(
        count_order.Place.FIRST,
        primary,
        group,
        tie=len(people) > 1 and people[0][1] == people[1][1],
        left=lead is not None and not lead.active,
    )
    question = consult(d, count_order.ORDER, order).effect
    if question is count_order.Question.TIE_FOR_FIRST:
        settle_tie_for_first(d, tuple(nm for nm, v in people if v == people[0][1]))
        return
    if question is count_order.Question.LEADER_LEFT and _leader_left(d, people, threshold):
        return
    tcite = ruled_cite(result)
    first = _over_threshold(d, people, n, threshold, tally, tcite)
    if first is None:
        return
    r = n - len(first)
    if r == 0:
        d.go(Phase.DECIDED)
        return
    rest = [(nm, v) for nm, v in people if nm not in first]
    best = _best_remaining(d, rest, r, primary, group)
    if best is None:
        return
    below = [(nm, v) for nm, v in rest if nm not in best]
    if not group:
        eligible = _runner_up(d, best, below, primary)
        if eligible is None:
            return
    else:
        if not below:
            declare_leaders(d, best, runoff_cite(d), nobody_below(d))
            return
        vacated = _group_left_best(d, best)
        # `left_best_for_group_seat`: their seats are vacant now, the others run their course
        if vacated:
            best = tuple(nm for nm in best if nm not in vacated)
            r = len(best)
            if not best:
                d.set(runoff_status=RunoffStatus.NONE, pool=None)
                d.go(Phase.DECIDED)
                return
        places = _request_places(d, below, r)
        if places is None:  # `request_place_tie`: a lot decides the request places first
            d.go(Phase.AWAITING_LOT)
            return
        eligible = places
        if not eligible:
            declare_leaders(d, best, runoff_cite(d), departed_in_count.NO_ELIGIBLE_RUNNER_UP)
            return
    open_request_window(
        d,
        Pool(
            PoolKind.REQUEST,
            leaders=tuple(best),
            eligible=eligible,
            seats=r,
            elected_first=tuple(first),
        ),
    )


def _threshold(
    d: Draft,
    result: Finding[declaration.ResultFacts, declaration.Decision],
    tally: Mapping[str, int],
) -> Fraction:
    """The majority (163-293) or substantial plurality (163-111) the ``result`` table names,
    said in a ruling the first time the count meets this total (again after a recount that
    changes it)."""
    ctx = d.ctx
    n = ctx.contest.seats
    group = n > 1
    total = threshold_total(d, tally)
    share: dict[str, Any] = {}
    if result.effect is declaration.Decision.SUBSTANTIAL_PLURALITY:
        sp = in_force("substantial_plurality", ctx.election_day, pinned=dict(ctx.parameters))
        threshold = declaration.threshold(result.effect, total, n, sp.value)
        share = {"parameter": exact(sp.value), "source": sp.source}
        named = {"percent": sp.percent, "source": sp.source}
    else:
        threshold = declaration.threshold(result.effect, total, n, Fraction(1, 2))
        named = {}
    what = declaration.THRESHOLD_NAMED[(result.effect, group)].format_map(named)
    if not any(
        r.kind is RulingKind.MAJORITY_THRESHOLD and r.get("total") == total for r in d.rulings
    ):  # again after a recount that changes the total
        d.rule(
            RulingKind.MAJORITY_THRESHOLD,
            ruled_cite(result),
            declaration.THRESHOLD_RULING.format(what=what, total=total, threshold=exact(threshold)),
            total=total,
            threshold=exact(threshold),
            **share,
        )
    return threshold


def _over_threshold(
    d: Draft,
    people: list[tuple[str, int]],
    n: int,
    threshold: Fraction,
    tally: Mapping[str, int],
    tcite: Cite,
) -> tuple[str, ...] | None:
    """Those over the threshold, declared (at most ``n``); None when a tie among them leaves
    the count waiting (a drawing of lots or a new election)."""
    # more than the threshold, exactly: v > p/q where v * q > p
    over, per = threshold.numerator, threshold.denominator
    majority = [(nm, v) for nm, v in people if v * per > over]
    top = select(majority, n, d.lots, harmless_ties=d.ctx.interp.harmless_ties)
    if top.tied or top.lot_winners:
        cites = tie_at(d, ties.TiePoint.OVER_THRESHOLD, top)
        if not tie_goes_to_new_election(d, ties.TiePoint.OVER_THRESHOLD, top):
            lot_ruling(d, top, cites)
    if top.chosen:  # with a tie: the seats the tie does not decide
        declare(
            d,
            top.chosen,
            tcite,
            declaration.OVER_THRESHOLD.format(
                threshold=exact(threshold),
                votes=declaration.votes_of([(nm, tally.get(nm, 0)) for nm in top.chosen]),
            ),
        )
    if top.tied:
        if not tie_orders_new_election(d, ties.TiePoint.OVER_THRESHOLD, top):
            d.go(Phase.AWAITING_LOT)
        return None
    return tuple(top.chosen)


def _best_remaining(
    d: Draft, rest: list[tuple[str, int]], r: int, primary: bool, group: bool
) -> tuple[str, ...] | None:
    """The best placed for the ``r`` places left without a majority; None when a tie leaves
    the count waiting."""
    order = count_order.OrderFacts(
        count_order.Place.REMAINING, primary, group, tie=len(rest) > 1 and rest[0][1] == rest[1][1]
    )
    if consult(d, count_order.ORDER, order).effect is count_order.Question.FIRST_BY_LOT:
        tied = tuple(nm for nm, v in rest if v == rest[0][1])
        if not lot_settles(d, tied, rest, 1):
            return None
        rest = reorder_by_lot(rest, d.lots)
    best_sel = select(rest, r, d.lots, harmless_ties=d.ctx.interp.harmless_ties)
    if best_sel.tied or best_sel.lot_winners:
        cites = tie_at(d, ties.TiePoint.BEST_REMAINING, best_sel)
        if not tie_goes_to_new_election(d, ties.TiePoint.BEST_REMAINING, best_sel):
            lot_ruling(d, best_sel, cites)
    if best_sel.tied:
        if not tie_orders_new_election(d, ties.TiePoint.BEST_REMAINING, best_sel):
            d.go(Phase.AWAITING_LOT)
        return None
    return tuple(best_sel.chosen)


def _runner_up(
    d: Draft, best: tuple[str, ...], below: list[tuple[str, int]], primary: bool
) -> tuple[str, ...] | None:
    """A single office's leader without a majority: who may request the runoff (or demand the
    second primary); None when the count settled it otherwise (nobody below, a runner-up who
    left, a tie for second, a lot awaited)."""
    leader = best[0]
    seconds = tuple(nm for nm, v in below if v == below[0][1]) if below else ()
    order = count_order.OrderFacts(
        count_order.Place.SECOND,
        primary,
        tie=len(seconds) > 1,
        left=any(standing(d.cand(n)) is not CandStatus.ACTIVE for n in seconds),
        alone=not below,
    )
    question = consult(d, count_order.ORDER, order).effect
    if question is count_order.Question.ALONE:
        declare(d, best, runoff_cite(d), count_order.ALONE_DECLARED.format(nobody=nobody_below(d)))
        d.go(Phase.DECIDED)
        return None
    if question is count_order.Question.RUNNER_UP_LEFT:
        if _runner_up_left(d, best, seconds):
            return None
        # a runoff stays possible: the next question, that one settled
        question = consult(d, count_order.ORDER, attrs.evolve(order, left=False)).effect
    if question is count_order.Question.TIE_FOR_SECOND:
        settle_tie_for_second(d, leader, seconds)
        return None
    if question is count_order.Question.SECOND_BY_LOT:
        if not lot_settles(d, seconds, below, 1, what=tie_steps.SECOND_PLACE):
            return None
        seconds = (reorder_by_lot(below, d.lots)[0][0],)
    return (seconds[0],)


def _left_places_to_committee(
    d: Draft, tally: Mapping[str, int], threshold: Fraction, n: int
) -> tuple[str, ...]:
    """``left_after_primary_day: committee_fills``, a party primary's first count:
    the candidates who left on or after the primary day, before being declared nominated, and
    whom the votes put over the substantial plurality for one of the ``n`` places (no tie for
    the last of them). Each place is a vacancy in the nomination that the party's executive
    committee fills (the ``nominee`` table's provision, 163-114), ruled once; by default (and
    in a tie) the place passes to the next candidate, as the ``departures`` table's gap says."""
    ctx = d.ctx
    if d.round != 0 or ctx.interp.left_after_primary_day is not LeftAfterPrimaryDay.COMMITTEE_FILLS:
        return ()
    over, per = threshold.numerator, threshold.denominator
    everyone = counted_people(d, tally, nominating=False)
    above = [(nm, v) for nm, v in everyone if v * per > over]
    sel = select(above, n, d.lots, harmless_ties=ctx.interp.harmless_ties)
    held = tuple(
        nm
        for nm in sel.chosen
        if (c := d.cand(nm)) is not None
        and not c.active
        and left_after_election_day(d, c)
        and not holds_place(d, c)
    )
    found = consult(
        d, party_nominees.NOMINEE, party_nominees.NomineeFacts(to_fill=True, departed=False)
    )
    for nm in held:
        c = d.cand(nm)
        assert c is not None
        if any(r.kind is RulingKind.PARTY_TO_NOMINATE and nm in r.candidates for r in d.rulings):
            continue  # the count decided again (a recount, a lot): ruled already
        d.set(to_nominate=d.to_nominate + 1)
        d.rule(
            RulingKind.PARTY_TO_NOMINATE,
            finding_cites(found),
            party_nominees.LEFT_AFTER_PRIMARY_DAY.format(
                name=nm, status=c.status, threshold=exact(threshold), votes=tally.get(nm, 0)
            ),
            [nm],
            seats=1,
        )
    return held


def _leader_left(d: Draft, people: Sequence[tuple[str, int]], threshold: Fraction) -> bool:
    """The candidate with the highest vote for a single office has left the race: the
    ``leader-left`` table says whether the office is vacant now (True: decided here)."""
    leader, votes = people[0]
    c = d.cand(leader)
    if c is None or c.active:
        return False
    majority = votes > threshold
    facts = departed_in_count.LeaderFacts(
        c.status,
        left_after_election_day(d, c),
        majority,
        d.ctx.interp.withdrawal_as_death,
        tie_for_second=not majority and len(people) > 2 and people[1][1] == people[2][1],
    )
    finding = consult(
        d,
        departed_in_count.LEADER,
        facts,
        [leader],
        {"name": leader, "status": c.status},
    )
    if finding.effect is not departed_in_count.LeaderEffect.VACANT:
        return False
    cites = finding_cites(finding)
    d.set(vacant=d.vacant + 1, runoff_status=RunoffStatus.NONE, pool=None)
    d.rule(
        RulingKind.OFFICE_VACANT,
        cites,
        departed_in_count.LEADER_VACANT.format(
            leader=leader, status=c.status, votes=votes, short=departed_in_count.SHORT[majority]
        )
        + finding.note(),
        [leader],
        once=True,
    )
    if not majority:
        d.rule(
            RulingKind.NO_RUNOFF,
            cites,
            departed_in_count.VACANT_NO_RUNOFF,
            [leader],
            once=True,
        )
    d.go(Phase.DECIDED)
    return True


def _left_in_window(
    d: Draft, name: str, group: bool, kinds: tuple[PoolKind, ...], among: str
) -> tuple[Pool, Cand] | None:
    """The open window and the candidate, when ``name``, one of the window's ``among``
    (``leaders`` or ``eligible``), has left after the first round's result was declared in an
    election (not a nomination) of a group or a single office (``group``), while a window of
    one of ``kinds`` is open; None otherwise."""
    pool = d.pool
    c = d.cand(name)
    if (
        d.round != 0
        or d.ctx.nominating
        or d.ctx.contest.is_group != group
        or pool is None
        or pool.kind not in kinds
        or name not in getattr(pool, among)
        or c is None
        or c.active
    ):
        return None
    return pool, c


def leader_left_in_window(d: Draft, name: str) -> bool:
    """The leader of a single office of the runoff method, short of a majority, left after the
    result was declared, while the runner-up may still request a runoff (or those tied for
    second withdraw): True when the ``leader-left`` table vacates the office, which must then be
    decided again now, as a departure before the declaration is decided at the canvass (a
    request made after the departure no longer calls a runoff with the departed leader)."""
    found_left = _left_in_window(d, name, False, (PoolKind.REQUEST, PoolKind.TIE_SECOND), "leaders")
    if found_left is None:
        return False
    pool, c = found_left
    facts = departed_in_count.LeaderFacts(
        c.status,
        left_after_election_day(d, c),
        False,  # a request period is open only for a leader short of a majority
        d.ctx.interp.withdrawal_as_death,
        tie_for_second=pool.kind is PoolKind.TIE_SECOND,
    )
    found = consult(d, departed_in_count.LEADER, facts)
    return found.effect is departed_in_count.LeaderEffect.VACANT


def group_best_left_in_window(d: Draft, name: str) -> bool:
    """One of the best placed for a group's seats left without a majority leaves after the result
    was declared, while the next may still request a runoff: the ``group-left-best`` table is
    consulted now, as it is at the canvass for a departure before it (its collision is said at the
    departure). True when the table vacates the seat at once (`left_best_for_group_seat` switched),
    so that the count must be decided again."""
    found_left = _left_in_window(d, name, True, (PoolKind.REQUEST,), "leaders")
    if found_left is None:
        return False
    _pool, c = found_left
    facts = departed_in_count.GroupLeftFacts(
        c.status,
        left_after_election_day(d, c),
        d.ctx.interp.withdrawal_as_death,
    )
    found = consult(
        d,
        departed_in_count.GROUP_LEFT,
        facts,
        [name],
        {"name": name, "status": c.status},
    )
    return found.effect is departed_in_count.GroupLeftEffect.VACANT


def runner_up_left_in_window(d: Draft, name: str) -> bool:
    """The runner-up of a single office of the runoff method leaves after the result was
    declared, while the request period is open: the ``runner-up-left`` table is consulted now,
    as at the canvass for a departure before it (its gap is said at the departure). True when
    it leaves no runoff: the leader is then declared elected at once."""
    found_left = _left_in_window(d, name, False, (PoolKind.REQUEST,), "eligible")
    if found_left is None:
        return False
    pool, _c = found_left
    return _runner_up_left(d, pool.leaders, pool.eligible)


def _runner_up_left(d: Draft, best: Sequence[str], seconds: Sequence[str]) -> bool:
    """The runner-up, or one of those tied for second, has left: the ``runner-up-left`` table
    says whether a runoff remains possible (True: decided here, no runoff)."""
    gone = [n for n in seconds if standing(d.cand(n)) is not CandStatus.ACTIVE]
    if not gone:
        return False
    c = d.cand(gone[0])
    assert c is not None
    facts = departed_in_count.SecondFacts(
        standing(c), left_after_election_day(d, c), len(seconds) > 1
    )
    who = ", ".join(f"{n} ({standing(d.cand(n)).value})" for n in gone)
    finding = consult(d, departed_in_count.SECOND, facts, gone, {"who": who})
    if finding.effect is not departed_in_count.SecondEffect.NO_RUNOFF:
        return False
    cites = finding_cites(finding)
    d.rule(
        RulingKind.NO_RUNOFF,
        cites,
        departed_in_count.SECOND_LEFT_NO_RUNOFF.format(who=who) + finding.note(),
        gone,
    )
    d.set(runoff_status=RunoffStatus.NONE, pool=None)
    d.drop_timers(TimerTrigger.RUNOFF_REQUEST_PASSES, TimerTrigger.TIE_WITHDRAWAL_PASSES)
    elected = departed_in_count.NO_RUNOFF_ELECTED.format(names=", ".join(best))
    declare(d, best, cites[0] if len(cites) == 1 else cites, elected)
    d.go(Phase.DECIDED)
    return True


def _group_left_best(d: Draft, best: Sequence[str]) -> tuple[str, ...]:
    """A departed candidate among the best placed for seats left without a majority: the
    ``group-left-best`` table. By default 163-293(b)(2) runs its course (the collisions are named);
    under `left_best_for_group_seat` the seat is vacant at once. Returns those whose seats are
    vacant."""
    vacated: list[str] = []
    for n in best:
        c = d.cand(n)
        if c is None or c.active:
            continue
        facts = departed_in_count.GroupLeftFacts(
            c.status,
            left_after_election_day(d, c),
            d.ctx.interp.withdrawal_as_death,
        )
        finding = consult(
            d,
            departed_in_count.GROUP_LEFT,
            facts,
            [n],
            {"name": n, "status": c.status},
        )
        if finding.effect is departed_in_count.GroupLeftEffect.VACANT:
            vacated.append(n)
            cites = finding_cites(finding)
            if not any(r.kind is RulingKind.OFFICE_VACANT and n in r.candidates for r in d.rulings):
                d.set(vacant=d.vacant + 1)
            d.rule(
                RulingKind.OFFICE_VACANT,
                cites,
                departed_in_count.GROUP_SEAT_VACANT.format(name=n, status=c.status),
                [n],
                once=True,
            )
    return tuple(vacated)


def _request_places(d: Draft, below: Sequence[tuple[str, int]], r: int) -> tuple[str, ...] | None:
    """Who may request a group runoff: the ``group-request-places`` table (None: a lot must
    first decide the tied places, `request_place_tie`)."""
    tied = len(below) > r and below[r - 1][1] == below[r][1]
    boundary = below[min(r, len(below)) - 1][1]
    pool = [nm for nm, v in below if v == boundary] if tied else []
    finding = consult(
        d,
        departed_in_count.PLACES,
        departed_in_count.PlacesFacts(tied),
        pool,
        {"tied": ", ".join(pool)},
    )
    if finding.effect is departed_in_count.PlacesEffect.LOT:
        sel = select(below, r, d.lots)
        if sel.tied and _standing_hold_places(d, sel):
            # the tied who stand hold the places (those who left are dropped below)
            chosen = [*sel.chosen, *(n for n in sel.tie_pool if n not in sel.lot_winners)]
        else:
            lot_ruling(d, sel, finding_cites(finding))
            if sel.tied:
                return None
            chosen = list(sel.chosen)
    elif finding.effect is departed_in_count.PlacesEffect.ALL_TIED:
        chosen = [nm for nm, v in below if v >= boundary]
    else:
        chosen = [nm for nm, _ in below[:r]]
    return tuple(nm for nm in chosen if standing(d.cand(nm)) is CandStatus.ACTIVE)


def _standing_hold_places(d: Draft, sel: Selection) -> bool:
    """A candidate tied for the last request places has left before the drawing that would
    settle them: the ``group-request-place-left`` table. True when those who still stand hold
    the places without a drawing (`tied_left_before_lot`, where they are as many as the places)."""
    undrawn = [n for n in sel.tie_pool if n not in sel.lot_winners]
    stand = [n for n in undrawn if standing(d.cand(n)) is CandStatus.ACTIVE]
    if len(stand) == len(undrawn):
        return False
    gone = how_left(d, [n for n in undrawn if n not in stand], "left")
    finding = consult(
        d,
        departed_in_count.PLACE_LEFT,
        departed_in_count.PlaceLeftFacts(),
        sel.tie_pool,
        {"tied": ", ".join(sel.tie_pool), "gone": gone},
        readings=len(stand) == sel.tie_places,
    )
    return finding.effect is departed_in_count.PlaceLeftEffect.STANDING
