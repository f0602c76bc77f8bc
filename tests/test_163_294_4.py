"""G.S. 163-294.4: when too few file, and when a candidate dies before a nonpartisan
election. Dates: the 2027 cycle of tests/contingency_cases (filing closes noon Friday 07-16)."""

from __future__ import annotations

import pytest

from tests.contingency_cases import (
    NP_PRIMARY,
    PARTY,
    PLURALITY,
    RUNOFF,
    deadline,
    died,
    event,
    filed,
    kinds,
    local,
    one,
    returns,
    run,
    scenario,
)

EXTEND = event("filing_extended", "2027-07-16T14:00")
PRINTED = event("ballots_printed", "2027-09-01T09:00")
NO_REPRINT = event("reprint_determined", "2027-09-21T10:00", enough_time="false")
OCT_CANVASS = event("canvass_held", "2027-10-12T11:00")


def test_the_board_may_extend_filing_five_days_when_an_office_has_no_candidate() -> None:
    # G.S. 163-294.4(a); SPEC reading 3: noon five days after the original close
    c = run(scenario(PLURALITY + "1", EXTEND), as_of="2027-07-19T09:00")
    r = one(c, "filing_extended")
    assert r["cite"] == "G.S. 163-294.4(a)"
    assert (local(r["opens"]), local(r["closes"])) == ("2027-07-16T12:00", "2027-07-21T12:00")
    d = deadline(c, "extended_filing_closes")
    assert local(d["due"]) == "2027-07-21T12:00" and d["moved_from"] is None
    assert c["state"] == "filing_extended" and c["outcome"]["pending"] == "filing"


def test_filings_in_the_extension_count_and_filings_after_it_are_rejected() -> None:
    # G.S. 163-294.4(a)
    c = run(
        scenario(
            PLURALITY + "1",
            EXTEND,
            event("candidate_filed", "2027-07-21T12:00", candidate="Ann"),
            event("candidate_filed", "2027-07-21T12:01", candidate="Bob"),
        )
    )
    r = one(c, "filing_rejected")
    assert r["candidates"] == ["Bob"] and r["cite"] == "G.S. 163-294.4(a)"
    assert c["state"] == "awaiting_votes"


def test_an_extended_close_on_a_closed_day_moves_to_the_next_open_day() -> None:
    # G.S. 163-294.4(a), 103-5(a)
    c = run(scenario(PLURALITY + "2", *filed("Ann"), EXTEND, extra="office_closed: [2027-07-21]"))
    d = deadline(c, "extended_filing_closes")
    assert local(d["due"]) == "2027-07-22T12:00" and local(d["moved_from"]) == "2027-07-21T12:00"


@pytest.mark.parametrize(
    ("contest", "events", "reason"),
    [
        (PARTY, (EXTEND,), "partisan election"),
        (PLURALITY + "1", (*filed("Ann"), EXTEND), "every office has candidates"),
        (
            PLURALITY + "1",
            (event("filing_extended", "2027-07-16T12:00"),),
            "filing period not expired",
        ),
        (PLURALITY + "1", (event("filing_extended", "2027-07-21T12:01"),), "five days passed"),
    ],
)
def test_an_extension_the_facts_do_not_allow_is_rejected_with_its_reason(
    contest: str, events: tuple[str, ...], reason: str
) -> None:
    # G.S. 163-294.4(a): nonpartisan only, once the period has run out, only where an office lacks
    # candidates, and only within the five days
    c = run(scenario(contest, *events))
    r = one(c, "filing_rejected")
    assert r["cite"] == "G.S. 163-294.4(a)" and r["reason"] == reason
    assert "filing_extended" not in kinds(c)


def test_an_extension_in_a_nonpartisan_primary_city_then_decides_whether_to_hold_it() -> None:
    # G.S. 163-294.4(a), 163-294(a): two candidates for one seat, so no primary
    c = run(
        scenario(
            NP_PRIMARY + "1",
            event("filing_extended", "2027-07-16T16:00"),
            *filed("Ann", "Bob", day=19),
        )
    )
    assert c["state"] == "decided" and sorted(c["outcome"]["nominated"]) == ["Ann", "Bob"]
    three = run(
        scenario(
            NP_PRIMARY + "1",
            event("filing_extended", "2027-07-16T16:00"),
            *filed("Ann", "Bob", "Cy", day=19),
        )
    )
    assert three["state"] == "awaiting_votes" and three["outcome"]["nominated"] == []


def test_one_of_two_dying_before_printing_reopens_filing_for_five_days() -> None:
    # G.S. 163-294.4(b); 103-5(a): noon Wednesday 09-01 + 5 days is Labor Day, moved to Tuesday
    c = run(
        scenario(
            PLURALITY + "1",
            *filed("Ann", "Bob"),
            died("Bob", "2027-08-31T20:00", "2027-09-01T09:00"),
        )
    )
    assert one(c, "name_removed")["cite"] == "G.S. 163-294.4(b)"
    r = one(c, "filing_reopened")
    assert (local(r["opens"]), local(r["closes"])) == ("2027-09-01T12:00", "2027-09-07T12:00")
    d = deadline(c, "reopened_filing_closes")
    assert local(d["moved_from"]) == "2027-09-06T12:00" and "Labor Day" in d["why_moved"]


def test_as_many_as_the_seats_filing_for_a_group_is_the_same_case() -> None:
    # G.S. 163-294.4(b): "only as many persons ... as there are offices to be filled"
    c = run(
        scenario(
            PLURALITY + "3",
            *filed("Ann", "Bob", "Cy"),
            died("Cy", "2027-08-12T07:00", "2027-08-12T16:00"),
        )
    )
    r = one(c, "filing_reopened")
    assert (local(r["opens"]), local(r["closes"])) == ("2027-08-13T12:00", "2027-08-18T12:00")


def test_with_more_than_two_a_death_before_printing_only_leaves_the_name_off() -> None:
    # G.S. 163-294.4(b)-(c): no reopening; the name remains only on ballots not reprinted
    c = run(scenario(PLURALITY + "1", *filed("Ann", "Bob", "Cy"), died("Cy", "2027-08-10")))
    assert one(c, "name_removed")["cite"] == "G.S. 163-294.4(c)"
    assert "filing_reopened" not in kinds(c)


def test_after_printing_time_to_reprint_reopens_filing_for_three_days() -> None:
    # G.S. 163-294.4(b) last sentence: from the board's determination, three days
    c = run(
        scenario(
            RUNOFF,
            *filed("Ann", "Bob"),
            PRINTED,
            died("Bob", "2027-09-08T06:00", "2027-09-08T15:00"),
            event("reprint_determined", "2027-09-09T10:00", enough_time="true"),
        )
    )
    r = one(c, "filing_reopened")
    assert r["cite"] == "G.S. 163-294.4(b)"
    assert (local(r["opens"]), local(r["closes"])) == ("2027-09-09T12:00", "2027-09-13T12:00")
    assert local(deadline(c, "reopened_filing_closes")["moved_from"]) == "2027-09-12T12:00"


def test_no_time_to_reprint_keeps_the_name_and_a_dead_leader_vacates_the_office() -> None:
    # G.S. 163-294.4(c): "even though short of a majority"; SPEC reading 2 counts the votes
    c = run(
        scenario(
            RUNOFF,
            *filed("Ann", "Bob", "Cy"),
            PRINTED,
            died("Ann", "2027-09-20"),
            NO_REPRINT,
            returns("2027-10-05T21:00", Ann=400, Bob=350, Cy=250),
            OCT_CANVASS,
        )
    )
    assert one(c, "name_remains")["cite"] == "G.S. 163-294.4(c)"
    t = one(c, "majority_threshold")
    assert (t["total"], t["threshold"]) == (1000, "500")
    assert one(c, "office_vacant")["cite"] == "G.S. 163-294.4(c)"
    out = c["outcome"]
    assert out["elected"] == [] and out["vacant_seats"] == 1 and out["runoff"]["status"] == "none"


def test_a_dead_runner_up_means_no_runoff_and_the_leader_is_elected() -> None:
    # G.S. 163-294.4(c), last sentence
    c = run(
        scenario(
            RUNOFF,
            *filed("Ann", "Bob", "Cy"),
            PRINTED,
            died("Bob", "2027-09-20"),
            NO_REPRINT,
            returns("2027-10-05T21:00", Ann=450, Bob=350, Cy=200),
            OCT_CANVASS,
        )
    )
    assert one(c, "no_runoff")["cite"] == "G.S. 163-294.4(c)"
    assert c["outcome"]["elected"] == ["Ann"] and "runoff_available" not in kinds(c)


def test_the_only_candidate_dying_before_printing_is_a_gap_that_leaves_the_seat_vacant() -> None:
    # G.S. 163-294.4(b) reopens only where two (or as many as the seats) filed
    c = run(
        scenario(
            PLURALITY + "1",
            *filed("Ann"),
            died("Ann", "2027-08-10T10:00"),
            event("canvass_held", "2027-11-09T11:00"),
        )
    )
    gap = one(c, "no_provision")
    assert gap["gap"] == "only-candidate-dies"
    assert gap["cite"] == "G.S. 163-294.4(b); G.S. 163-294.4(a)"
    assert "filing_reopened" not in kinds(c) and c["outcome"]["vacant_seats"] == 1


def test_two_nominees_after_a_primary_are_the_only_two_of_163_294_4_b() -> None:
    # G.S. 163-294.4(b) as read in README "Choices made" for the election after a primary
    c = run(
        scenario(
            "seats: 1, method: nonpartisan-primary, stage: election",
            event("candidate_filed", "2027-10-12T12:00", candidate="Ann"),
            event("candidate_filed", "2027-10-12T12:00", candidate="Bob"),
            died("Bob", "2027-10-12T20:00", "2027-10-13T09:00"),
        )
    )
    r = one(c, "filing_reopened")
    assert (local(r["opens"]), local(r["closes"])) == ("2027-10-13T12:00", "2027-10-18T12:00")
