"""G.S. 163-112: the death of a candidate before a party primary (applied to municipal party
primaries by G.S. 163-294.1(b) and 163-291). Dates: the 2027 cycle of tests/contingency_cases.

The worked cases of each subsection are scenarios (scenarios/contingencies/112*.yaml), checked by
tests/test_scenarios.py; this module holds the boundaries and variants that sharpen them."""

from __future__ import annotations

from tests.contingency_cases import (
    PARTY,
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


def test_a_death_on_day_30_reopens_but_a_death_on_day_31_certifies_the_survivor() -> None:
    # G.S. 163-112(a) ("within 30 days after the filing period closes") and (b) second paragraph
    day30 = run(scenario(PARTY, *filed("Ann", "Bob"), died("Bob", "2027-08-15T23:59")))
    day31 = run(scenario(PARTY, *filed("Ann", "Bob"), died("Bob", "2027-08-16T00:00")))
    assert one(day30, "filing_reopened")["cite"] == "G.S. 163-112(a)"
    assert "filing_reopened" not in kinds(day31)
    assert one(day31, "nominee_certified")["cite"] == "G.S. 163-112(b)"
    assert day31["outcome"]["nominated"] == ["Ann"]


def test_notice_before_noon_opens_that_noon_and_after_noon_the_next_open_day() -> None:
    # day counting (docs/readings.md) (G.S. 163-112(a) "upon notice of the death")
    before = run(
        scenario(PARTY, *filed("Ann", "Bob"), died("Bob", "2027-07-26T06:00", "2027-07-26T11:59"))
    )
    after = run(
        scenario(PARTY, *filed("Ann", "Bob"), died("Bob", "2027-07-26T06:00", "2027-07-26T12:01"))
    )
    assert local(one(before, "filing_reopened")["opens"]) == "2027-07-26T12:00"
    assert local(one(after, "filing_reopened")["opens"]) == "2027-07-27T12:00"
    assert local(one(after, "filing_reopened")["closes"]) == "2027-07-30T12:00"


def test_a_reopened_close_on_a_saturday_moves_to_monday() -> None:
    # G.S. 163-112(a) with G.S. 103-5(a): noon Wednesday 07-28 plus three days is a Saturday
    c = run(scenario(PARTY, *filed("Ann", "Bob"), died("Bob", "2027-07-28T10:00")))
    d = deadline(c, "reopened_filing_closes")
    assert local(d["due"]) == "2027-08-02T12:00" and local(d["moved_from"]) == "2027-07-31T12:00"
    assert "103-5" in d["cite"] and "Saturday" in d["why_moved"]


def test_ballots_printed_after_the_death_are_not_the_ballots_163_112_b_keeps() -> None:
    # G.S. 163-112(b) keeps the name only on ballots that existed when the death occurred
    c = run(
        scenario(
            PARTY,
            *filed("Ann", "Bob", "Cy"),
            event("ballots_printed", "2027-08-21"),
            died("Cy", "2027-08-20T08:00", "2027-08-23T09:00"),
        )
    )
    assert one(c, "name_removed")["cite"] == "G.S. 163-112(b)"


def test_a_nomination_no_vacancy_calls_for_is_rejected() -> None:
    # G.S. 163-114 fills a vacancy among nominees only
    c = run(
        scenario(
            PARTY, *filed("Ann", "Bob"), event("nominee_named", "2027-08-01T10:00", candidate="Fay")
        )
    )
    r = one(c, "no_effect")
    assert r["cite"] == "G.S. 163-114" and r["candidates"] == ["Fay"]


def test_a_second_death_while_filing_is_reopened_waits_for_the_close_to_certify() -> None:
    # G.S. 163-112(b); 163-110 at the close of the reopened period (others may still file)
    text = scenario(
        PARTY,
        *filed("Ann", "Bob", "Cy"),
        died("Cy", "2027-08-02T09:00"),
        died("Bob", "2027-08-04T09:00"),
    )
    mid = run(text, as_of="2027-08-06T09:00")
    assert mid["state"] == "filing_reopened" and mid["outcome"]["nominated"] == []
    done = run(text)
    r = one(done, "nominee_certified")
    assert r["cite"] == "G.S. 163-112(b); G.S. 163-110" and r["candidates"] == ["Ann"]
    assert local(r["at"]) == "2027-08-09T12:00"  # the second period's close, moved past Sunday


def test_votes_reported_for_a_name_left_off_the_ballot_are_ruled_out_not_dropped_silently() -> None:
    # G.S. 163-112(b) second paragraph: a death more than 30 days after the close, before the
    # ballots are printed, leaves the name off the ballot; votes the returns still give it are
    # not counted, and a ruling says so (the nomination reads the other names only)
    c = run(
        scenario(
            PARTY,
            *filed("Ann", "Bob", "Cy"),
            died("Cy", "2027-08-25T10:00"),
            returns("2027-09-14T21:00", Ann=300, Bob=200, Cy=500),
            event("canvass_held", "2027-09-21T11:00"),
        )
    )
    out = one(c, "votes_disregarded")
    assert out["candidates"] == ["Cy"] and out["cite"] == "G.S. 163-112(b)"
    assert "500 votes" in out["text"] and "left off the ballot" in out["text"]
    assert one(c, "majority_threshold")["total"] == 500
    assert c["outcome"]["nominated"] == ["Ann"]
