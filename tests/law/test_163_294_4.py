"""G.S. 163-294.4: when too few file, and when a candidate dies before a nonpartisan
election. Dates: the 2027 cycle of tests/contingency_cases (filing closes noon Friday 07-16).

The worked cases of each subsection are scenarios (scenarios/contingencies/2944*.yaml), checked by
tests/test_scenarios.py; this module holds the boundaries and variants that sharpen them."""

from __future__ import annotations

import pytest

from tests.contingency_cases import (
    NP_PRIMARY,
    PARTY,
    PLURALITY,
    deadline,
    died,
    event,
    filed,
    kinds,
    library,
    local,
    one,
    returns,
    run,
    scenario,
)

EXTEND = event("filing_extended", "2027-07-16T14:00")


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


def test_a_reopened_close_moved_past_labor_day_says_why() -> None:
    # G.S. 163-294.4(b); 103-5(a): noon Wednesday 09-01 + 5 days is Labor Day, moved to Tuesday
    c = run(library("2944b-only-two-filed-one-dies-reopen-5-days-past-labor-day"), contest="mayor")
    d = deadline(c, "reopened_filing_closes")
    assert local(d["moved_from"]) == "2027-09-06T12:00" and "Labor Day" in d["why_moved"]


def test_with_more_than_two_a_death_before_printing_only_leaves_the_name_off() -> None:
    # G.S. 163-294.4(b)-(c): no reopening; the name remains only on ballots not reprinted
    c = run(scenario(PLURALITY + "1", *filed("Ann", "Bob", "Cy"), died("Cy", "2027-08-10")))
    assert one(c, "name_removed")["cite"] == "G.S. 163-294.4(c)"
    assert "filing_reopened" not in kinds(c)


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


def test_votes_reported_for_a_dead_candidate_whose_name_was_left_off_are_not_counted() -> None:
    # G.S. 163-294.4: more than two filed and one died before printing, so the name is not on
    # the ballot; votes the returns give that name are ruled out, not dropped without a word
    c = run(
        scenario(
            PLURALITY + "1",
            *filed("Ann", "Bob", "Cy"),
            died("Cy", "2027-08-25T10:00"),
            returns("2027-11-02T21:00", Ann=300, Bob=200, Cy=500),
            event("canvass_held", "2027-11-12T11:00"),
        )
    )
    assert one(c, "votes_disregarded")["candidates"] == ["Cy"]
    assert c["outcome"]["elected"] == ["Ann"]
