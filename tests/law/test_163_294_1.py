"""G.S. 163-294.1: death, disqualification or withdrawal of municipal candidates and of persons
elected. Dates: the 2027 cycle of tests/contingency_cases.

The worked cases of each subsection are scenarios (scenarios/contingencies/2941*.yaml), checked by
tests/test_scenarios.py; this module holds the boundaries and variants that sharpen them."""

from __future__ import annotations

from typing import Any

from tests.contingency_cases import (
    NP_PRIMARY,
    PARTY,
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

PRINTED_SEP = event("ballots_printed", "2027-09-10T09:00")
NOV_CANVASS = event("canvass_held", "2027-11-12T11:00")


def test_a_party_candidate_disqualified_after_printing_counts_for_no_purpose() -> None:
    # G.S. 163-294.1(b) first paragraph with 163-112(b) (three candidates, after day 30)
    c = run(
        scenario(
            PARTY,
            *filed("Ann", "Bob", "Cy"),
            event("ballots_printed", "2027-08-20"),
            event("candidate_disqualified", "2027-08-25T10:00", candidate="Cy"),
        )
    )
    assert one(c, "name_remains")["cite"] == "G.S. 163-112(b); G.S. 163-294.1(b)"
    assert one(c, "votes_disregarded")["candidates"] == ["Cy"]


def test_a_party_withdrawal_after_the_close_and_before_printing_has_no_effect() -> None:
    # G.S. 163-106(e) (applied by 163-291): the name is printed and the votes count
    c = run(
        scenario(
            PARTY,
            *filed("Ann", "Bob"),
            event("candidate_withdrew", "2027-07-21T10:00", candidate="Bob"),
            returns("2027-09-14T21:00", Ann=400, Bob=600),
            event("canvass_held", "2027-09-21T11:00"),
        )
    )
    assert one(c, "name_remains")["cite"] == "G.S. 163-106(e)"
    assert c["outcome"]["nominated"] == ["Bob"]


def test_a_death_leaving_two_per_seat_means_no_nonpartisan_primary() -> None:
    # G.S. 163-294.1(b) second paragraph, last sentence
    c = run(
        scenario(
            NP_PRIMARY + "2",
            *filed("Ann", "Bob", "Cy", "Dee", "Eve"),
            PRINTED_SEP,
            died("Eve", "2027-09-14T10:00"),
        )
    )
    assert one(c, "primary_cancelled")["cite"] == "G.S. 163-294.1(b)"
    assert sorted(c["outcome"]["nominated"]) == ["Ann", "Bob", "Cy", "Dee"]
    assert c["state"] == "decided"


def test_a_nonpartisan_nominee_who_dies_is_no_longer_nominated() -> None:
    # G.S. 163-294.1(b): the nominee becomes a candidate in the election (163-294.4 governs it)
    c = run(scenario(NP_PRIMARY + "1", *filed("Ann", "Bob"), died("Bob", "2027-08-10T10:00")))
    assert c["outcome"]["nominated"] == ["Ann"]
    assert (
        one(c, "name_removed")["cite"] == "G.S. 163-294.1(b); G.S. 163-294.4(b); G.S. 163-294.4(c)"
    )


def test_a_withdrawal_before_printing_takes_the_name_off_a_nonpartisan_ballot() -> None:
    # G.S. 163-294.1(b) fourth paragraph (the name remains only on printed ballots)
    c = run(
        scenario(
            PLURALITY + "1",
            *filed("Ann", "Bob", "Cy"),
            event("candidate_withdrew", "2027-08-10T10:00", candidate="Cy"),
        )
    )
    assert one(c, "name_removed")["cite"] == "G.S. 163-294.1(b)"


def test_an_officer_who_dies_after_the_oath_leaves_a_vacancy_in_office() -> None:
    # G.S. 163-294.1(d), 160A-63: the election's result stands; the council fills the vacancy
    c = run(
        scenario(
            PLURALITY + "1",
            *filed("Ann", "Bob"),
            returns("2027-11-02T21:00", Ann=600, Bob=400),
            NOV_CANVASS,
            event("oath_taken", "2027-12-06T19:00", candidate="Ann"),
            died("Ann", "2027-12-20T08:00"),
        )
    )
    r = one(c, "office_vacant")
    assert r["cite"] == "G.S. 163-294.1(d); G.S. 160A-63"
    # 163-294.1(c) speaks of a person who has not yet taken the oath: no collision to settle
    assert "more specific" not in r["text"]
    assert c["outcome"]["elected"] == ["Ann"] and c["outcome"]["vacant_seats"] == 0


def test_a_winner_who_dies_before_the_canvass_is_not_declared_elected() -> None:
    # G.S. 163-294.1(c): "on or after election day"
    c = run(
        scenario(
            PLURALITY + "1",
            *filed("Ann", "Bob"),
            returns("2027-11-02T21:00", Ann=600, Bob=400),
            died("Ann", "2027-11-04T08:00"),
            NOV_CANVASS,
        )
    )
    assert one(c, "office_vacant")["cite"] == "G.S. 163-294.1(c)"
    assert "elected" not in kinds(c) and c["outcome"]["vacant_seats"] == 1


def test_a_winner_who_withdrew_before_the_oath_leaves_one_vacant_seat_when_lots_follow() -> None:
    # G.S. 163-294.1(c): Ann, elected to one of two seats, withdraws before the oath; the second
    # seat still waits for a lot among the five tied at 0. Drawing lots re-declares the result,
    # and Ann's seat must not be counted vacant again each time.
    from simulator import parse_scenario, replay

    names = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo")
    filings = "".join(
        f"  - {{type: candidate_filed, at: 2027-07-06, candidate: {n}}}\n" for n in names
    )
    s = parse_scenario(
        "format: electsim/v1\ntitle: t\n"
        "contests: [{id: c, seats: 2, method: nonpartisan-runoff, year: 2027}]\nevents:\n"
        + filings
        + "  - {type: returns_reported, at: '2027-10-05T21:00', counts: "
        "{Ann: 1, Bob: 0, Cy: 0, Dee: 0, Eve: 0, Flo: 0}}\n"
        "  - {type: canvass_held, at: '2027-10-12T11:00'}\n"
        "  - {type: candidate_withdrew, at: '2027-10-13T09:00', candidate: Ann}\n"
        "  - {type: lot_drawn, at: '2027-10-13T11:00', winner: Ann}\n"
        "  - {type: lot_drawn, at: '2027-10-14T13:00', winner: Ann}\n"
    )
    outcome = replay(s).contests[0].outcome
    assert outcome.vacant_seats == 1
    assert len(outcome.elected) + outcome.vacant_seats <= 2


def test_a_nonpartisan_leader_who_dies_after_the_primary_day_is_said_to_have_left_then() -> None:
    # the gap left-after-primary-day passes the nomination on as 163-294.1(b) does; the ruling
    # says when the candidate left (after the vote), not "after the ballots were printed" alone
    c = run(
        scenario(
            NP_PRIMARY + "1",
            *filed("Ann", "Bob", "Cy"),
            returns("2027-10-05T21:00", Ann=500, Bob=300, Cy=200),
            died("Ann", "2027-10-06T10:00"),
            event("canvass_held", "2027-10-12T11:00"),
        )
    )
    assert c["outcome"]["nominated"] == ["Bob", "Cy"]
    assert "on or after the primary day" in one(c, "votes_disregarded")["text"]
    before = run(
        scenario(
            NP_PRIMARY + "1",
            *filed("Ann", "Bob", "Cy", "Dee"),
            PRINTED_SEP,
            died("Ann", "2027-09-20T10:00"),
            event("reprint_determined", "2027-09-21T10:00", enough_time="false"),
            returns("2027-10-05T21:00", Ann=500, Bob=300, Cy=200, Dee=100),
            event("canvass_held", "2027-10-12T11:00"),
        )
    )
    assert "after the ballots were printed" in one(before, "votes_disregarded")["text"]


def _leader_short_leaves_after_the_canvass(
    *after: str, extra: str = "", bob: int = 420, cy: int = 100
) -> dict[str, Any]:
    """Ann leads with 480 of 1000 (short of the majority), the canvass of 2027-10-12 declares
    it, then ``after`` happens."""
    return run(
        scenario(
            RUNOFF,
            *filed("Ann", "Bob", "Cy"),
            returns("2027-10-05T21:00", Ann=480, Bob=bob, Cy=cy),
            event("canvass_held", "2027-10-12T11:00"),
            *after,
            extra=extra,
        )
    )


def test_a_leader_short_of_a_majority_dying_in_the_request_period_leaves_a_vacancy() -> None:
    # G.S. 163-294.1(c) with 163-293(b)(1): the same collision as a death before the canvass
    # (leader-left-before-declaration), ruled at the death; the runner-up's later request does
    # not call a runoff with the dead leader on its ballot
    c = _leader_short_leaves_after_the_canvass(
        died("Ann", "2027-10-13T08:00"),
        event("runoff_requested", "2027-10-13T11:00", candidate="Bob"),
    )
    gap = one(c, "no_provision")
    assert gap["gap"] == "leader-left-before-declaration"
    assert gap["at"].startswith("2027-10-13T08:00")
    assert one(c, "office_vacant")["candidates"] == ["Ann"]
    assert one(c, "request_rejected")["candidates"] == ["Bob"]
    assert "runoff_called" not in kinds(c)
    assert c["outcome"]["vacant_seats"] == 1
    assert c["outcome"]["runoff"]["status"] == "none"


def test_a_leader_dying_in_the_three_days_of_a_tie_for_second_leaves_a_vacancy() -> None:
    # G.S. 163-294.1(c) with 163-293(d)(2): the last tied runner-up's demand after the leader's
    # death (or withdrawal) does not call a runoff with the departed leader
    for leaves in (
        died("Ann", "2027-10-13T08:00"),
        event("candidate_withdrew", "2027-10-13T08:00", candidate="Ann"),
    ):
        c = _leader_short_leaves_after_the_canvass(
            leaves,
            event("candidate_withdrew", "2027-10-13T10:00", candidate="Cy"),
            event("runoff_requested", "2027-10-13T11:00", candidate="Bob"),
            bob=260,
            cy=260,
        )
        assert one(c, "no_provision")["gap"] == "leader-left-before-declaration"
        assert one(c, "office_vacant")["at"].startswith("2027-10-13T08:00")
        assert "runoff_called" not in kinds(c)
        assert c["outcome"]["vacant_seats"] == 1


def test_under_the_request_reading_a_leader_dying_in_the_window_changes_nothing_yet() -> None:
    # a departed leader short of a majority, read as leaving the request to run (interpretation
    # departed_leader_short: request): 163-293(b)(1) runs its course
    c = _leader_short_leaves_after_the_canvass(
        died("Ann", "2027-10-13T08:00"),
        extra="interpretations: {departed_leader_short: request}",
    )
    assert one(c, "office_vacant")["at"].startswith("2027-10-14T12:00")


GROUP_OF_TWO = "method: nonpartisan-runoff, seats: 2"


def _best_placed_dies_in_the_request_period(extra: str = "") -> dict[str, Any]:
    return run(
        scenario(
            GROUP_OF_TWO,
            *filed("Ann", "Bob", "Cy", "Dee"),
            returns("2027-10-05T21:00", Ann=400, Bob=250, Cy=200, Dee=150),
            event("canvass_held", "2027-10-12T11:00"),
            died("Bob", "2027-10-13T08:00"),
            event("runoff_requested", "2027-10-13T11:00", candidate="Cy"),
            extra=extra,
        )
    )


def test_a_group_seat_s_best_placed_dying_in_the_request_period_is_ruled_at_the_death() -> None:
    # G.S. 163-294.1(c) with 163-293(b)(2): the collision said at the canvass for a departure
    # before it is said at a departure after it too; by default (b)(2) runs its course
    c = _best_placed_dies_in_the_request_period()
    gap = one(c, "no_provision")
    assert gap["gap"] == "left-best-for-group-seat-after-election-day"
    assert gap["at"].startswith("2027-10-13T08:00")
    assert c["outcome"]["runoff"]["status"] == "called"


def test_left_best_for_group_seat_vacant_makes_the_seat_of_one_dying_in_the_period_vacant() -> None:
    # left_best_for_group_seat: vacant: the seat is vacant at the death, as it is
    # at the canvass for a death before it; no runoff is left to request for it
    c = _best_placed_dies_in_the_request_period(
        "interpretations: {left_best_for_group_seat: vacant}"
    )
    assert one(c, "office_vacant")["at"].startswith("2027-10-13T08:00")
    assert one(c, "request_rejected")["candidates"] == ["Cy"]
    assert c["outcome"]["elected"] == ["Ann"] and c["outcome"]["vacant_seats"] == 1
    assert "runoff_called" not in kinds(c)


def test_by_default_a_request_made_before_the_death_counts_for_the_seats_left() -> None:
    # a departed candidate best placed for a group seat, read by default (interpretation
    # left_best_for_group_seat: runs_its_course), with G.S. 163-293(b)(2): three seats, Ann elected
    # by majority, Bob and Cy best placed for the other two; Dee asked for a runoff before Bob died.
    # Bob's seat is vacant at the death, one seat is left, and Dee's request (the next one's) calls
    # its runoff
    c = run(
        scenario(
            "method: nonpartisan-runoff, seats: 3",
            *filed("Ann", "Bob", "Cy", "Dee", "Eve", "Fay"),
            returns("2027-10-05T21:00", Ann=400, Bob=160, Cy=150, Dee=120, Eve=100, Fay=70),
            event("canvass_held", "2027-10-12T11:00"),
            event("runoff_requested", "2027-10-13T10:00", candidate="Dee"),
            died("Bob", "2027-10-13T11:00"),
            extra="interpretations: {left_best_for_group_seat: vacant}",
        )
    )
    assert one(c, "office_vacant")["candidates"] == ["Bob"]
    assert one(c, "runoff_called")["candidates"] == ["Cy", "Dee"]
    assert c["outcome"]["runoff"]["candidates"] == ["Cy", "Dee"]


def test_a_defeated_candidate_who_dies_after_the_result_leaves_it_standing() -> None:
    # G.S. 163-294.1(c) speaks only of a person elected: Bob lost, so the result stands; the
    # ruling says so by its own kind, not as a rejected request (there was no request)
    c = run(
        scenario(
            PLURALITY + "1",
            *filed("Ann", "Bob"),
            returns("2027-11-02T21:00", Ann=600, Bob=400),
            NOV_CANVASS,
            died("Bob", "2027-11-13T08:00"),
        )
    )
    r = one(c, "result_stands")
    assert r["candidates"] == ["Bob"] and r["cite"] == "G.S. 163-294.1(c)"
    assert "the result stands" in r["text"] and "reason" not in r
    assert "request_rejected" not in kinds(c)
    assert c["outcome"]["elected"] == ["Ann"] and c["outcome"]["vacant_seats"] == 0


def test_an_oath_by_someone_not_elected_changes_nothing_and_says_so() -> None:
    # G.S. 163-294.1(c), (d): only a person elected qualifies by the oath; a second oath of the
    # person elected is a request of no effect, the oath of one not elected a kind of its own
    c = run(
        scenario(
            PLURALITY + "1",
            *filed("Ann", "Bob"),
            returns("2027-11-02T21:00", Ann=600, Bob=400),
            NOV_CANVASS,
            event("oath_taken", "2027-12-06T18:00", candidate="Bob"),
            event("oath_taken", "2027-12-06T19:00", candidate="Ann"),
            event("oath_taken", "2027-12-07T19:00", candidate="Ann"),
        )
    )
    assert one(c, "oath_not_elected")["candidates"] == ["Bob"]
    assert one(c, "no_effect")["candidates"] == ["Ann"]
    assert c["outcome"]["elected"] == ["Ann"]


def test_a_primary_whose_leader_left_after_the_primary_day_waits_for_the_committee() -> None:
    # G.S. 163-294.1(b), 163-114, reading left_after_primary_day: committee_fills: the count
    # leaves the committee a nominee to name, so the primary is not decided until it does
    # (its state and what it waits for agree)
    text = scenario(
        PARTY,
        *filed("Ann", "Bob"),
        returns("2027-09-14T21:00", Ann=700, Bob=300),
        event("candidate_withdrew", "2027-09-16T08:00", candidate="Ann"),
        event("canvass_held", "2027-09-21T11:00"),
        event("nominee_named", "2027-09-24T10:00", candidate="Dee", party="DEM"),
        extra="interpretations: {left_after_primary_day: committee_fills}",
    )
    before = run(text, as_of="2027-09-22T12:00")
    assert (before["state"], before["outcome"]["pending"]) == ("awaiting_nomination", "nomination")
    after = run(text)
    assert (after["state"], after["outcome"]["pending"]) == ("decided", None)
    assert after["outcome"]["nominated"] == ["Dee"]
