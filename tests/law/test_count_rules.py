"""The count's rule tables (simulator.count_rules) where G.S. 163-293, 163-294.1, 163-294.4 and
163-182.8 meet: each family replayed end to end, and the tables' own semantics."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulator.law.rules import Verdict
from simulator.law.tables import (
    TABLES,
    canvass,
    counted_votes,
    declaration,
    runoff_requests,
    tie_steps,
    ties,
)
from simulator.law.tables import count as count_order
from simulator.law.vocab import CandStatus
from tests.contingency_cases import RUNOFF, died, event, filed, kinds, one, returns, run, scenario

CANVASS = event("canvass_held", "2027-10-12T11:00")


def _printed_then(kind: str, name: str) -> tuple[str, ...]:
    return (
        event("ballots_printed", "2027-09-01T09:00"),
        event(kind, "2027-09-20T08:00", candidate=name)
        if kind != "candidate_died"
        else died(name, "2027-09-20T08:00"),
        event("reprint_determined", "2027-09-21T10:00", enough_time=False),
    )


def test_a_dead_leader_short_of_a_majority_leaves_the_office_vacant_by_163_294_4_c() -> None:
    # G.S. 163-294.4(c) over 163-293(b)(1): "even though short of a majority"
    c = run(
        scenario(
            RUNOFF,
            *filed("Ann", "Bob", "Cy"),
            *_printed_then("candidate_died", "Bob"),
            returns("2027-10-05T21:00", Ann=350, Bob=450, Cy=200),
            CANVASS,
        )
    )
    r = one(c, "office_vacant")
    assert r["cite"] == "G.S. 163-294.4(c)" and "163-293(b)(1)" in r["text"]
    assert c["outcome"]["vacant_seats"] == 1 and "no_provision" not in kinds(c)


def test_every_tied_candidate_having_withdrawn_leaves_the_office_vacant() -> None:
    # G.S. 163-293(d)(1) elects the one who remains; none does: gap every-tied-candidate-left
    c = run(
        scenario(
            RUNOFF,
            *filed("Ann", "Bob", "Cy"),
            event("ballots_printed", "2027-09-01T09:00"),
            event("candidate_withdrew", "2027-09-20T08:00", candidate="Ann"),
            event("candidate_withdrew", "2027-09-20T09:00", candidate="Bob"),
            event("reprint_determined", "2027-09-21T10:00", enough_time=False),
            returns("2027-10-05T21:00", Ann=400, Bob=400, Cy=200),
            CANVASS,
            event("recount_held", "2027-10-14T11:00", counts={"Ann": 400, "Bob": 400, "Cy": 200}),
        )
    )
    assert one(c, "no_provision")["gap"] == "every-tied-candidate-left"
    assert c["outcome"]["vacant_seats"] == 1 and c["outcome"]["elected"] == []


def test_a_tied_runner_up_who_dies_in_the_withdrawal_window_has_not_withdrawn() -> None:
    # G.S. 163-293(d)(2) counts written withdrawals: Bob's death after the canvass leaves Cy
    # still tied with him, so Cy's demand cannot call a runoff and Ann is elected
    c = run(
        scenario(
            RUNOFF,
            *filed("Ann", "Bob", "Cy"),
            returns("2027-10-05T21:00", Ann=400, Bob=300, Cy=300),
            CANVASS,
            died("Bob", "2027-10-13T08:00"),
            event("runoff_requested", "2027-10-13T11:00", candidate="Cy"),
        )
    )
    assert "runoff_called" not in kinds(c)
    assert c["outcome"]["elected"] == ["Ann"]
    assert "withdrew" not in one(c, "elected")["text"]


def test_a_partisan_tie_at_exactly_5000_voters_goes_to_lot() -> None:
    # G.S. 163-182.8(2): 5,000 or fewer voters
    c = run(
        scenario(
            "seats: 1, method: partisan, stage: election",
            event("candidate_filed", "2027-09-21T12:00", candidate="Ann", party="DEM"),
            event("candidate_filed", "2027-09-21T12:00", candidate="Bob", party="REP"),
            returns("2027-11-02T21:00", Ann=2500, Bob=2500),
            event("canvass_held", "2027-11-12T11:00"),
        )
    )
    assert c["outcome"]["pending"] == "lot" and "new_election_ordered" not in kinds(c)


@given(st.integers(0, 30000), st.integers(1, 5))
def test_the_voters_estimate_never_contradicts_what_the_votes_prove(votes: int, seats: int) -> None:
    # a group of N seats has between votes / N and votes voters
    over, estimate = count_order.voters_over_5000(votes, seats)
    if over is True:
        assert votes > 5000 * seats or (seats == 1 and votes > 5000)
    if over is False:
        assert votes <= 5000 * seats
    if seats == 1:
        assert over is (votes > 5000)
    assert estimate is (votes > 5000 * seats)


def test_a_table_settles_several_rules_only_by_a_declared_priority() -> None:
    for table in TABLES:
        for _, finding in table.explore():
            if finding.verdict is Verdict.PRIORITY:
                assert finding.rule is not None
                assert {r.id for r in finding.others} <= set(finding.rule.exception_to)
            if finding.verdict is Verdict.CONFLICT:
                assert finding.conflict is not None and len(finding.rules) > 1
                assert finding.extra()["conflict"] is True


def test_the_canvass_table_cites_the_provision_of_each_election_a_method_holds() -> None:
    # G.S. 163-291(5) (party primaries), 163-294(b), 163-293(c), 163-182.5(b) (any other)
    from simulator.law.vocab import DeadlineKind as DK
    from simulator.law.vocab import Method

    found = {
        (f.method, f.held): str(canvass.canvass_cite(f.method, f.held))
        for f in canvass.CANVASS.facts()
    }
    assert found == {
        (Method.PLURALITY, DK.ELECTION_DAY): "G.S. 163-182.5(b)",
        (Method.PARTISAN, DK.PRIMARY_DAY): "G.S. 163-291(5)",
        (Method.PARTISAN, DK.SECOND_PRIMARY): "G.S. 163-291(5)",
        (Method.PARTISAN, DK.ELECTION_DAY): "G.S. 163-182.5(b)",
        (Method.PRIMARY, DK.PRIMARY_DAY): "G.S. 163-294(b)",
        (Method.PRIMARY, DK.ELECTION_DAY): "G.S. 163-182.5(b)",
        (Method.RUNOFF, DK.ELECTION_DAY): "G.S. 163-293(c)",
        (Method.RUNOFF, DK.RUNOFF_ELECTION): "G.S. 163-182.5(b)",
    }
    for facts, f in canvass.CANVASS.explore():
        if facts.before_its_day:
            # a canvass after the vote but before its day: the gap, citing the day's provision
            assert f.verdict is Verdict.GAP and f.id == "canvass-before-its-day", facts
            assert str(f.cites[0]) == str(canvass.canvass_cite(facts.method, facts.held))
            assert "G.S. 163-182.5(b)" in {str(c) for c in f.cites}
        else:
            assert f.verdict is Verdict.RULED, facts
    runoff = canvass.CANVASS.evaluate(canvass.CanvassFacts(Method.RUNOFF, DK.ELECTION_DAY))
    assert runoff.effect is canvass.Canvassed.FIRST_ELECTION


def test_every_day_a_calendar_round_holds_is_canvassed_under_the_tables_rule() -> None:
    from simulator.law import calendar as cal

    for method, rounds in cal.CYCLE.items():
        for r in rounds:
            assert r.canvass == canvass.canvass_cite(method, r.kind)


def test_no_reason_the_tie_window_gives_says_a_departed_candidate_withdrew_or_stands() -> None:
    # G.S. 163-293(d)(1) counts written withdrawals; a candidate who died has made none
    for facts, finding in tie_steps.TIE_WINDOW.explore():
        if not facts.departed or finding.effect is tie_steps.TieStep.WAIT:
            continue
        why = tie_steps.tie_step_reason(
            finding.effect, facts.moment, withdrew="Ann", last="Bob", departed="Bob died"
        )
        assert "still standing" not in why and "Bob withdrew" not in why, (facts, why)


def test_the_tie_window_waits_for_the_last_runner_ups_demand_until_the_thursday() -> None:
    # G.S. 163-293(d)(2) with (c): the three days may end before noon on the Thursday
    facts = tie_steps.TieWindowFacts(False, tie_steps.TieMoment.WITHDRAWAL_PASSES, 1)
    assert tie_steps.TIE_WINDOW.evaluate(facts).effect is tie_steps.TieStep.WAIT
    late = tie_steps.TieWindowFacts(
        False, tie_steps.TieMoment.REQUEST_PASSES, 1, request_passed=True
    )
    assert tie_steps.TIE_WINDOW.evaluate(late).effect is tie_steps.TieStep.LEADER_NO_DEMAND


def test_a_recount_is_required_for_a_tie_for_first_and_other_recounts_are_named_gaps() -> None:
    # G.S. 163-293(d)(1) is the only recount of these statutes
    found = {
        m: tie_steps.RECOUNT.evaluate(tie_steps.RecountFacts(m)) for m in tie_steps.RecountMoment
    }
    assert found[tie_steps.RecountMoment.TIE_FOR_FIRST].effect is tie_steps.Recount.REQUIRED
    assert found[tie_steps.RecountMoment.ORDERED].verdict is Verdict.RULED
    assert found[tie_steps.RecountMoment.DECLARED].verdict is Verdict.GAP
    assert found[tie_steps.RecountMoment.BEFORE_RESULT].effect is tie_steps.Recount.NO_EFFECT


def test_a_lot_decides_only_a_tie_that_awaits_one_among_those_tied() -> None:
    # G.S. 163-292(3): the board determines the winner of a tie by lot
    assert tie_steps.LOT.evaluate(tie_steps.LotFacts(pending=False)).effect is tie_steps.Lot.NO_TIE
    assert (
        tie_steps.LOT.evaluate(tie_steps.LotFacts(True, among_tied=False)).effect
        is tie_steps.Lot.NOT_TIED
    )
    assert tie_steps.LOT.evaluate(tie_steps.LotFacts(True)).effect is tie_steps.Lot.DECIDES


@given(
    st.sampled_from(["nonpartisan-plurality", "nonpartisan-runoff", "partisan"]),
    st.sampled_from(["primary", "election"]),
    st.integers(1, 3),
    st.integers(0, 1),
)
def test_a_run_of_votes_counts_the_names_the_votes_table_counts(
    method: str, stage: str, seats: int, rnd: int
) -> None:
    # the batched path asks the ``votes`` table once per run (163-291(2), 163-294.2(c),
    # 163-293(b), 163-111(b)): a filed candidate, a runoff candidate, a write-in
    from simulator.engine.replay import make_context
    from simulator.engine.rounds import counted_kinds
    from simulator.input.loader import parse_scenario

    if method != "partisan" and stage == "primary":
        method = "nonpartisan-primary"
    party = ", party: DEM" if method == "partisan" and stage == "primary" else ""
    s = parse_scenario(
        "format: electsim/v1\ntitle: t\ncontests:\n  - {id: c, municipality: M, office: O, "
        f"year: 2027, seats: {seats}, method: {method}, stage: {stage}{party}}}\nevents: []\n"
    )
    ctx = make_context(s, s.contests[0], frozenset())
    candidates, write_ins = counted_kinds(ctx, rnd)
    partisan = method == "partisan"
    base = counted_votes.VoteFacts(
        True,
        rnd == 1,
        rnd == 1,
        False,
        True,
        primary=ctx.partisan_primary,
        group=seats > 1,
        partisan=partisan,
    )
    assert candidates is (counted_votes.VOTES.evaluate(base).effect is counted_votes.Vote.COUNTED)
    w = counted_votes.VOTES.evaluate(
        attrs.evolve(base, on_runoff_ballot=False, write_in=True, filed=False)
    )
    assert write_ins is (w.effect is counted_votes.Vote.COUNTED)
    assert candidates and write_ins is (rnd == 0)


def test_the_request_window_closes_on_the_provision_that_gave_the_right_to_request() -> None:
    # G.S. 163-293(b)(1), (b)(2), 163-111(b): elected (nominated) unless the next asks in time

    for facts, finding in runoff_requests.WINDOW_CLOSE.explore():
        right = declaration.RUNOFF_RIGHT.evaluate(
            declaration.RightFacts(facts.primary, facts.group)
        )
        assert finding.rule is not None and right.rule is not None
        assert finding.rule.cite == right.rule.cite, facts
        want = (
            runoff_requests.WindowClose.RUNOFF
            if facts.requested
            else runoff_requests.WindowClose.LEADERS
        )
        assert finding.effect is want, facts


@pytest.mark.parametrize(("first", "cite"), [(True, "163-293(d)(1)"), (False, "163-293(d)(2)")])
def test_only_a_written_withdrawal_takes_a_candidate_out_of_a_tie(first: bool, cite: str) -> None:
    # G.S. 163-293(d)(1), (d)(2): a written notice of withdrawal; a death files none
    for standing in CandStatus:
        found = tie_steps.STILL_TIED.evaluate(tie_steps.TiedFacts(first, standing))
        assert found.near == (cite,)
        out = standing is CandStatus.WITHDREW
        assert found.effect is (tie_steps.Tied.OUT if out else tie_steps.Tied.STILL_TIED), standing


def test_a_canvass_before_the_election_day_declares_nothing_under_the_same_provision() -> None:
    for facts in canvass.CANVASS.facts():
        if facts.before_its_day:
            continue  # the gap canvass-before-its-day (the test above)
        found = canvass.CANVASS.evaluate(facts)
        assert found.verdict is Verdict.RULED
        assert (found.effect is canvass.Canvassed.NOTHING) is facts.early, facts
        on_time = canvass.CANVASS.evaluate(canvass.CanvassFacts(facts.method, facts.held))
        assert found.near == on_time.near


def test_the_count_asks_a_tie_for_first_before_a_departed_leader() -> None:
    # with nobody highest, the provisions on a leader who left have no leader to speak of
    found = count_order.ORDER.evaluate(
        count_order.OrderFacts(count_order.Place.FIRST, False, tie=True, left=True)
    )
    assert found.verdict is Verdict.PRIORITY
    assert found.effect is count_order.Question.TIE_FOR_FIRST
    assert [r.cite for r in found.rules] == ["163-293(d)(1)", "163-294.4(c)"]
    left = count_order.ORDER.evaluate(
        count_order.OrderFacts(count_order.Place.FIRST, False, left=True)
    )
    assert left.effect is count_order.Question.LEADER_LEFT
    for primary, group in ((True, False), (False, True)):
        facts = count_order.OrderFacts(count_order.Place.FIRST, primary, group, tie=True, left=True)
        assert count_order.ORDER.evaluate(facts).effect is count_order.Question.THRESHOLD


def test_the_count_asks_a_departed_runner_up_before_the_tie_for_second() -> None:
    # G.S. 163-294.4(c) is the more specific provision (the second highest vote for the dead)
    found = count_order.ORDER.evaluate(
        count_order.OrderFacts(count_order.Place.SECOND, False, tie=True, left=True)
    )
    assert found.verdict is Verdict.PRIORITY
    assert found.effect is count_order.Question.RUNNER_UP_LEFT
    assert [r.cite for r in found.others] == ["163-293(d)(2)"]
    settled = count_order.ORDER.evaluate(
        count_order.OrderFacts(count_order.Place.SECOND, False, tie=True)
    )
    assert settled.effect is count_order.Question.TIE_FOR_SECOND
    # a party primary's tie for second goes to a lot; a departed runner-up is not asked there
    primary = count_order.ORDER.evaluate(
        count_order.OrderFacts(count_order.Place.SECOND, True, tie=True, left=True)
    )
    assert primary.effect is count_order.Question.SECOND_BY_LOT


def test_the_count_order_answers_every_combination_without_a_gap_or_conflict() -> None:
    for facts, found in count_order.ORDER.explore():
        assert found.verdict in (Verdict.RULED, Verdict.PRIORITY), facts


def test_with_nobody_below_the_highest_there_is_no_runner_up_to_ask() -> None:
    # G.S. 163-293(b)(1), 163-111(b): the request belongs to a runner-up; with none, the
    # highest is declared
    for primary, cite in ((False, "163-293(b)(1)"), (True, "163-111(b)")):
        found = count_order.ORDER.evaluate(
            count_order.OrderFacts(count_order.Place.SECOND, primary, alone=True)
        )
        assert (found.effect, found.near) == (count_order.Question.ALONE, (cite,))


def test_only_a_party_primarys_tie_for_first_short_of_the_threshold_goes_to_a_lot_first() -> None:
    # 163-111(b) (its part on ties is not in the sources: the tie-at table names the gap); a
    # runoff method's tie for first was asked under 163-293(d)(1) before the threshold
    for primary, group, tie in ((True, False, True), (True, True, True), (False, False, True)):
        found = count_order.ORDER.evaluate(
            count_order.OrderFacts(count_order.Place.REMAINING, primary, group, tie)
        )
        lot = primary and not group and tie
        assert found.effect is (
            count_order.Question.FIRST_BY_LOT if lot else count_order.Question.BEST
        )


def test_a_runoff_asked_in_a_partisan_general_election_is_refused_under_163_293_a() -> None:
    # 163-293's runoff is for nonpartisan elections of the election and runoff method; no
    # subsection of 163-291 speaks of a runoff after the partisan general election
    finding = runoff_requests.REQUEST.evaluate(
        runoff_requests.RequestFacts(
            runoff_requests.Moment.NO_RUNOFF_METHOD, no_runoff_under="partisan"
        )
    )
    assert finding.rule is not None and finding.rule.cite == "163-293(a)"
    assert finding.effect is runoff_requests.Answer.NO_RUNOFF_METHOD


def test_a_runoff_tie_of_three_or_more_is_a_gap_settled_by_lot() -> None:
    # G.S. 163-293(f) decides a runoff tie "between two candidates" by lot; three tied (a runoff
    # among three tied for first, interpretation three_way_tie: runoff_all) is a gap whose fallback
    # is a lot among all of them
    two = ties.TIE_AT.evaluate(ties.TieAtFacts(ties.TiePoint.RUNOFF, group=False))
    three = ties.TIE_AT.evaluate(ties.TieAtFacts(ties.TiePoint.RUNOFF, group=False, many=True))
    assert two.verdict is Verdict.RULED and two.near == ("163-293(f)",)
    assert three.verdict is Verdict.GAP and three.id == "runoff-tie-of-three"
    assert two.effect is three.effect is ties.TieEffect.LOT


def test_a_tie_for_a_seat_of_a_group_runoff_is_a_gap_settled_by_lot() -> None:
    # G.S. 163-293(f) has lots drawn when two tie for the top vote, words written for a runoff
    # for one office: a tie for a group runoff's last seat is a named gap
    seat = ties.TIE_AT.evaluate(ties.TieAtFacts(ties.TiePoint.RUNOFF, group=True))
    assert seat.verdict is Verdict.GAP and seat.id == "group-runoff-tie"
    assert seat.effect is ties.TieEffect.LOT and seat.near == ("163-293(f)",)
