"""Who is elected or nominated when a result is declared (simulator.result_rules): G.S. 163-292,
163-293(a), (b) and (f), 163-294(b) and (c), 163-111(a) and (b), and 163-294.1(b) and (c) for a
departed candidate the count reaches; and the other readings of the count tables' conflicts."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulator.law.rules import Verdict
from simulator.law.tables import count as count_order
from simulator.law.tables import (
    counted_votes,
    declaration,
    departed_declared,
    departed_in_count,
    party_nominees,
    repeat_notice,
    round_timing,
    tie_steps,
    vacancies,
)
from simulator.law.vocab import CandStatus, Method, Stage
from tests.contingency_cases import (
    PLURALITY,
    RUNOFF,
    died,
    event,
    filed,
    kinds,
    one,
    returns,
    run,
    scenario,
)


@pytest.mark.parametrize(
    ("method", "stage", "group", "cite", "decision"),
    [
        (Method.PLURALITY, Stage.ELECTION, False, "163-292(1)", declaration.Decision.HIGHEST),
        (Method.PLURALITY, Stage.ELECTION, True, "163-292(2)", declaration.Decision.HIGHEST),
        (Method.PRIMARY, Stage.ELECTION, True, "163-294(c)", declaration.Decision.HIGHEST),
        (Method.PRIMARY, Stage.PRIMARY, True, "163-294(b)", declaration.Decision.TWO_PER_SEAT),
        (Method.RUNOFF, Stage.ELECTION, False, "163-293(a)(1)", declaration.Decision.MAJORITY),
        (Method.RUNOFF, Stage.ELECTION, True, "163-293(a)(2)", declaration.Decision.MAJORITY),
        (
            Method.PARTISAN,
            Stage.PRIMARY,
            False,
            "163-111(a)(1)",
            declaration.Decision.SUBSTANTIAL_PLURALITY,
        ),
        (
            Method.PARTISAN,
            Stage.PRIMARY,
            True,
            "163-111(a)(2)",
            declaration.Decision.SUBSTANTIAL_PLURALITY,
        ),
    ],
)
def test_each_method_and_stage_is_decided_by_its_own_subsection(
    method: Method, stage: Stage, group: bool, cite: str, decision: declaration.Decision
) -> None:
    finding = declaration.RESULT.evaluate(
        declaration.ResultFacts(declaration.count_of(method, stage), group)
    )
    assert finding.verdict is Verdict.RULED
    assert finding.near == (cite,) and finding.effect is decision


@pytest.mark.parametrize("group", [False, True])
def test_no_provision_at_hand_decides_a_partisan_general_election(group: bool) -> None:
    # G.S. 163-290(a)(1) sends the partisan method to 163-291, whose text speaks of nominations
    # and, for the election, only of its date (163-291(1)): a named gap, the highest elected
    finding = declaration.RESULT.evaluate(
        declaration.ResultFacts(declaration.Count.PARTISAN, group)
    )
    assert finding.verdict is Verdict.GAP and finding.id == "partisan-general-election"
    assert finding.near == ("163-290(a)(1)", "163-291(1)")
    assert finding.effect is declaration.Decision.HIGHEST


def test_a_runoff_and_a_second_primary_elect_and_nominate_the_highest() -> None:
    # G.S. 163-293(f), 163-111(b)
    runoff = declaration.RESULT.evaluate(
        declaration.ResultFacts(declaration.Count.RUNOFF_METHOD, True, runoff=True)
    )
    second = declaration.RESULT.evaluate(
        declaration.ResultFacts(declaration.Count.PARTY_PRIMARY, False, runoff=True)
    )
    assert (runoff.near, runoff.effect) == (("163-293(f)",), declaration.Decision.HIGHEST)
    assert (second.near, second.effect) == (("163-111(b)",), declaration.Decision.HIGHEST)


@given(total=st.integers(0, 10**7), seats=st.integers(1, 9))
def test_the_majority_is_half_the_total_per_seat_exactly(total: int, seats: int) -> None:
    # G.S. 163-293(a)(2): the total divided by the seats, halved; no rounding ("any excess" read as
    # strictly more, exactly)
    t = declaration.threshold(declaration.Decision.MAJORITY, total, seats, Fraction(3, 10))
    assert t * 2 * seats == total


@given(total=st.integers(0, 10**7), seats=st.integers(1, 9))
def test_a_substantial_plurality_is_the_share_of_the_total_per_seat(total: int, seats: int) -> None:
    # G.S. 163-111(a)(2), with the value in force passed in
    t = declaration.threshold(
        declaration.Decision.SUBSTANTIAL_PLURALITY, total, seats, Fraction(3, 10)
    )
    assert t * seats * 10 == 3 * total


@pytest.mark.parametrize(
    ("primary", "group", "cite"),
    [(False, False, "163-293(b)(1)"), (False, True, "163-293(b)(2)"), (True, False, "163-111(b)")],
)
def test_the_right_to_the_next_round_has_one_subsection(
    primary: bool, group: bool, cite: str
) -> None:
    assert declaration.RUNOFF_RIGHT.evaluate(declaration.RightFacts(primary, group)).near == (cite,)


def test_a_departed_candidate_is_never_nominated_whatever_else_holds() -> None:
    # G.S. 163-294.1(b): the votes are disregarded and the next highest takes the place
    for facts, finding in departed_declared.DECLARED_LEFT.explore():
        assert (finding.effect is departed_declared.Seat.NOT_NOMINATED) is facts.nominating
        if facts.nominating:
            assert finding.near == ("163-294.1(b)",)


def test_the_provision_named_when_the_name_stayed_governs_a_later_win() -> None:
    # the contingency table named it (163-294.4(c), 163-294.1(b) or (c)); the win cites it
    for preset in (p for p in departed_declared.Preset if p is not departed_declared.Preset.NONE):
        for what in count_order.LEFT:
            facts = departed_declared.LeftFacts(False, what, True, preset)
            assert departed_declared.DECLARED_LEFT.evaluate(facts).near == (preset.value,)


def test_a_withdrawn_winner_without_withdrawal_as_death_is_a_named_gap() -> None:
    # G.S. 163-294.1(b) speaks of deceased or disqualified candidates
    facts = departed_declared.LeftFacts(
        False, CandStatus.WITHDREW, False, departed_declared.Preset.NONE, False
    )
    finding = departed_declared.DECLARED_LEFT.evaluate(facts)
    assert finding.verdict is Verdict.GAP and finding.id == "withdrawn-elected"
    assert finding.effect is departed_declared.Seat.VACANT
    with_r7 = departed_declared.DECLARED_LEFT.evaluate(
        attrs.evolve(facts, withdrawal_as_death=True)
    )
    assert with_r7.verdict is Verdict.RULED and with_r7.near == ("163-294.1(b)",)


def test_every_departure_from_a_called_runoff_ballot_is_the_same_gap() -> None:
    findings = [f for _, f in departed_declared.RUNOFF_LEFT.explore()]
    # a runoff or a second primary, how, one seat with two or with more on its ballot, or several
    assert len(findings) == 18
    assert all(f.verdict is Verdict.GAP and f.id == "left-runoff-ballot" for f in findings)


def test_the_other_candidate_is_declared_only_from_a_runoff_ballot_of_two() -> None:
    # interpretation left_runoff_ballot: other_declared declares "the other candidate": on one
    # seat's ballot of three (interpretation three_way_tie: runoff_all) there are two, and the
    # default (the runoff is held, the name printed) stands
    chosen = {"left_runoff_ballot": "other_declared"}
    for what in (
        CandStatus.DIED,
        CandStatus.WITHDREW,
        CandStatus.DISQUALIFIED,
    ):
        two = departed_declared.RunoffLeftFacts(nominating=False, what=what)
        three = departed_declared.RunoffLeftFacts(nominating=False, what=what, crowded=True)
        assert (
            departed_declared.RUNOFF_LEFT.evaluate(two, chosen=chosen).effect
            is departed_declared.RunoffLeft.OTHER_DECLARED
        )
        kept = departed_declared.RUNOFF_LEFT.evaluate(three, chosen=chosen)
        assert kept.effect is departed_declared.RUNOFF_LEFT.evaluate(three).effect
        assert (
            kept.effect is not departed_declared.RunoffLeft.OTHER_DECLARED and kept.reading is None
        )


def test_a_switch_chooses_a_conflicts_other_reading_and_says_so() -> None:
    # a departed leader short of a majority: the office vacant by default, a runoff request under
    # interpretation departed_leader_short: request
    facts = departed_in_count.LeaderFacts(CandStatus.WITHDREW, False, False)
    default = departed_in_count.LEADER.evaluate(facts)
    other = departed_in_count.LEADER.evaluate(facts, chosen={"departed_leader_short": "request"})
    assert default.effect is departed_in_count.LeaderEffect.VACANT and default.reading is None
    assert (
        other.effect is departed_in_count.LeaderEffect.REQUEST_WINDOW
        and other.verdict is Verdict.CONFLICT
    )
    assert "departed_leader_short: request" in other.fallback
    assert other.extra()["reading"] == "request"
    # a switch set to its default, or one the table does not know, changes nothing
    assert (
        departed_in_count.LEADER.evaluate(facts, chosen={"departed_leader_short": "vacant"})
        == default
    )
    assert departed_in_count.LEADER.evaluate(facts, chosen={"three_way_tie": "lot"}) == default


def test_a_departed_leader_short_of_a_majority_read_as_request_is_vacant_without_a_request() -> (
    None
):
    # a departed leader short of a majority (interpretation departed_leader_short: request):
    # 163-293(b)(1) runs its course; nobody requests; Bob cannot serve
    c = run(
        scenario(
            RUNOFF,
            *filed("Ann", "Bob", "Cy"),
            event("ballots_printed", "2027-09-01T09:00"),
            event("candidate_withdrew", "2027-09-20T08:00", candidate="Bob"),
            event("reprint_determined", "2027-09-21T10:00", enough_time=False),
            returns("2027-10-05T21:00", Ann=250, Bob=400, Cy=350),
            event("canvass_held", "2027-10-12T11:00"),
            extra="interpretations: {departed_leader_short: request}",
        )
    )
    assert one(c, "office_vacant")["cite"] == "G.S. 163-294.1(b)"
    assert "runoff_available" in kinds(c) and "elected" not in kinds(c)
    assert c["outcome"]["vacant_seats"] == 1


def test_every_other_reading_names_a_switch_the_scenario_format_knows() -> None:
    from simulator.law.readings import Interpretations
    from simulator.law.tables import TABLES

    for table in TABLES:
        for _, reading in table.readings():
            assert reading.value in Interpretations.CHOICES[reading.switch]
            default = getattr(Interpretations(), reading.switch)
            assert reading.value != default


#: the tables of the result: the votes, the declaration, the rounds' dates, departed winners,
#: vacancies, a party's nominees, a tie's withdrawal and a repeated notice
RESULT_TABLES = (
    counted_votes.VOTES,
    counted_votes.TOTAL,
    declaration.RESULT,
    declaration.RUNOFF_RIGHT,
    round_timing.TIMING,
    round_timing.ROUND_DAY,
    departed_declared.DECLARED_LEFT,
    departed_declared.RUNOFF_LEFT,
    vacancies.OATH,
    party_nominees.NOMINEE,
    party_nominees.NOMINEE_PLACE,
    party_nominees.TWICE,
    vacancies.EMPTY_SEATS,
    tie_steps.TIE_WITHDRAWAL,
    repeat_notice.REPEAT_NOTICE,
)


@pytest.mark.parametrize("table", RESULT_TABLES, ids=lambda t: t.name)
def test_no_result_table_leaves_a_combination_to_a_conflict(table: object) -> None:
    # each question has one answer for every combination of its facts, or a named gap
    assert isinstance(table, type(declaration.RESULT))
    for facts, finding in table.explore():
        assert finding.verdict in (Verdict.RULED, Verdict.GAP), (table.name, facts)
        assert "unnamed" not in finding.id


@pytest.mark.parametrize(
    ("step", "primary", "first", "cite", "when"),
    [
        (
            round_timing.Step.REQUEST,
            False,
            False,
            "163-293(c)",
            round_timing.When.NOON_THURSDAY_AFTER,
        ),
        (
            round_timing.Step.REQUEST,
            True,
            False,
            "163-291(6)",
            round_timing.When.NOON_THURSDAY_AFTER,
        ),
        (
            round_timing.Step.TIE_WITHDRAWAL,
            False,
            True,
            "163-293(d)(1)",
            round_timing.When.THIRD_DAY_AFTER,
        ),
        (
            round_timing.Step.TIE_WITHDRAWAL,
            False,
            False,
            "163-293(d)(2)",
            round_timing.When.THIRD_DAY_AFTER,
        ),
    ],
)
def test_each_date_after_the_declaration_has_its_subsection(
    step: round_timing.Step, primary: bool, first: bool, cite: str, when: round_timing.When
) -> None:
    finding = round_timing.TIMING.evaluate(round_timing.TimingFacts(step, primary, first))
    assert (finding.near, finding.effect) == ((cite,), when)


def test_a_write_in_on_a_runoff_ballot_is_not_counted_under_163_293_b_1() -> None:
    # G.S. 163-293(b)(1): no space for write-in votes on the runoff ballot
    facts = counted_votes.VoteFacts(True, True, False, True, False)
    finding = counted_votes.VOTES.evaluate(facts)
    assert finding.effect is counted_votes.Vote.OFF_RUNOFF_BALLOT and finding.near == (
        "163-293(b)(1)",
    )


def test_votes_for_a_name_that_never_filed_are_not_counted_in_the_first_round() -> None:
    # G.S. 163-294.2(c) (nonpartisan filing), 163-291(2) (party filing)
    for partisan, cite in ((False, "163-294.2(c)"), (True, "163-291(2)")):
        facts = counted_votes.VoteFacts(True, False, False, False, False, partisan=partisan)
        finding = counted_votes.VOTES.evaluate(facts)
        assert finding.effect is counted_votes.Vote.NOT_A_CANDIDATE and finding.near == (cite,)


@given(
    primary=st.booleans(),
    kind=st.sampled_from(["candidate", "dead", "write_in", "other"]),
    r1=st.booleans(),
    r2=st.booleans(),
)
def test_the_threshold_total_follows_readings_1_and_2(
    primary: bool, kind: str, r1: bool, r2: bool
) -> None:
    # G.S. 163-293(a), 163-111(a): "the total vote cast for all candidates"
    facts = counted_votes.TotalFacts(
        primary,
        write_in=kind == "write_in",
        filed=kind in ("candidate", "dead"),
        died=kind == "dead",
        write_ins_in_total=r1,
        dead_votes_in_total=r2,
    )
    expected = {"candidate": True, "dead": r2, "write_in": r1, "other": False}[kind]
    finding = counted_votes.TOTAL.evaluate(facts)
    assert (finding.effect is counted_votes.Total.IN) is expected
    assert finding.near == ("163-111(a)" if primary else "163-293(a)",)


def test_a_table_answers_the_same_facts_the_same_way_each_time() -> None:
    facts = declaration.ResultFacts(declaration.Count.RUNOFF_METHOD, True)
    assert declaration.RESULT.evaluate(facts) is declaration.RESULT.evaluate(facts)


def test_only_the_first_oath_of_a_person_elected_takes_office() -> None:
    # G.S. 163-294.1(c) runs until the oath of a person elected; (d) after it
    found = {(f.elected, f.sworn): (g.effect, g.id) for f, g in vacancies.OATH.explore()}
    assert found == {
        (True, False): (vacancies.Oath.TAKES_OFFICE, "oath-taken"),
        (True, True): (vacancies.Oath.ALREADY_SWORN, "oath-again"),
        (False, False): (vacancies.Oath.NOT_ELECTED, "oath-not-elected"),
        (False, True): (vacancies.Oath.NOT_ELECTED, "oath-not-elected"),
    }


def test_a_nominee_is_named_only_into_an_open_nomination_and_only_if_able_to_serve() -> None:
    # G.S. 163-114: the committee fills a vacancy with a person who can serve
    def effect(to_fill: bool, departed: bool) -> party_nominees.Nomination:
        return party_nominees.NOMINEE.evaluate(
            party_nominees.NomineeFacts(to_fill=to_fill, departed=departed)
        ).effect

    assert effect(False, False) is party_nominees.Nomination.NO_VACANCY
    assert effect(False, True) is party_nominees.Nomination.NO_VACANCY
    assert effect(True, True) is party_nominees.Nomination.CANNOT_SERVE
    assert effect(True, False) is party_nominees.Nomination.NOMINATED


def test_a_nominee_takes_a_left_name_only_on_general_election_ballots_not_reprinted() -> None:
    # 08 NCAC 06B .0104
    places = {
        (f.general_election, f.name_left): g for f, g in party_nominees.NOMINEE_PLACE.explore()
    }
    assert places[(True, True)].effect is party_nominees.Place.IN_PLACE
    assert str(places[(True, True)].cites[0]) == "08 NCAC 06B .0104"
    assert {p.effect for k, p in places.items() if k != (True, True)} == {
        party_nominees.Place.OWN_NAME
    }


def test_places_no_candidate_fills_are_vacant_only_after_an_election() -> None:
    # G.S. 163-294.1(d): a vacancy in office (filled under 160A-63); a primary fills no office
    election = vacancies.EMPTY_SEATS.evaluate(vacancies.SeatsFacts(nominating=False))
    primary = vacancies.EMPTY_SEATS.evaluate(vacancies.SeatsFacts(nominating=True))
    assert (
        election.effect is vacancies.Seats.VACANT and str(election.cites[0]) == "G.S. 163-294.1(d)"
    )
    assert primary.effect is vacancies.Seats.UNFILLED


@pytest.mark.parametrize("first", [True, False])
def test_a_withdrawal_during_a_ties_three_days_counts_only_for_a_tied_candidate_in_time(
    first: bool,
) -> None:
    # G.S. 163-293(d)(1) (a tie for first) and (d)(2) (a tie for second)
    cite = "G.S. 163-293(d)(1)" if first else "G.S. 163-293(d)(2)"

    def ask(tied: bool, late: bool) -> tie_steps.TieWithdrawal:
        found = tie_steps.TIE_WITHDRAWAL.evaluate(tie_steps.TieWithdrawalFacts(first, tied, late))
        assert [str(c) for c in found.cites] == [cite]
        return found.effect

    assert ask(True, False) is tie_steps.TieWithdrawal.IN_TIME
    assert ask(True, True) is tie_steps.TieWithdrawal.LATE
    assert ask(False, False) is ask(False, True) is tie_steps.TieWithdrawal.NOT_TIED


def test_a_notice_for_a_candidate_already_gone_is_refused_or_named_as_a_gap() -> None:
    # a withdrawal is the candidate's own act (163-106(e), 163-294.2(d)); a repeated death or
    # disqualification was ruled on once (163-294.1); a death after another departure is a gap
    def ask(notice: CandStatus, before: CandStatus, partisan: bool) -> tuple[object, list[str]]:
        found = repeat_notice.REPEAT_NOTICE.evaluate(
            repeat_notice.RepeatNoticeFacts(notice, before, partisan)
        )
        return found.effect, [str(c) for c in found.cites]

    for before in count_order.LEFT:
        assert ask(CandStatus.WITHDREW, before, True) == (
            repeat_notice.RepeatNotice.REJECTED,
            ["G.S. 163-106(e)"],
        )
        assert ask(CandStatus.WITHDREW, before, False) == (
            repeat_notice.RepeatNotice.REJECTED,
            ["G.S. 163-294.2(d)"],
        )
    assert ask(CandStatus.DIED, CandStatus.DIED, False) == (
        repeat_notice.RepeatNotice.REJECTED,
        ["G.S. 163-294.1"],
    )
    gap = repeat_notice.REPEAT_NOTICE.evaluate(
        repeat_notice.RepeatNoticeFacts(CandStatus.DIED, CandStatus.WITHDREW, False)
    )
    assert gap.verdict is Verdict.GAP and gap.effect is repeat_notice.RepeatNotice.EARLIER_STANDS
    assert [str(c) for c in gap.cites] == [
        "G.S. 163-294.1(b)",
        "G.S. 163-294.1(c)",
        "G.S. 163-112",
    ]


def test_a_withdrawal_in_a_dead_candidates_name_is_a_rejected_ruling_saying_he_died() -> None:
    c = run(
        scenario(
            PLURALITY + "1",
            *filed("Ann", "Bob", "Cy"),
            event("ballots_printed", "2027-09-01T10:00"),
            died("Bob", "2027-09-10T10:00"),
            event("candidate_withdrew", "2027-09-12T10:00", candidate="Bob"),
            event("candidate_withdrew", "2027-09-14T10:00", candidate="Cy"),
            died("Cy", "2027-09-21T10:00"),
        )
    )
    rejected = one(c, "no_effect")
    assert rejected["candidates"] == ["Bob"]
    assert rejected["cite"] == "G.S. 163-294.2(d)"
    assert rejected["reason"] == "Bob died on 2027-09-10; no longer a candidate"
    assert "withdrew" not in rejected["text"]
    gap = one(c, "no_provision")
    assert gap["candidates"] == ["Cy"] and "Cy withdrew on 2027-09-14" in gap["text"]
