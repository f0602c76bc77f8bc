"""G.S. 163-112: the death of a candidate before a party primary (applied to municipal party
primaries by G.S. 163-294.1(b) and 163-291). Dates: the 2027 cycle of tests/contingency_cases."""

from __future__ import annotations

from tests.contingency_cases import (
    PARTY,
    PARTY_GROUP,
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

PRINTED = event("ballots_printed", "2027-08-20T09:00")
CANVASS = event("canvass_held", "2027-09-21T11:00")


def test_one_of_two_dying_on_day_30_reopens_filing_for_three_days_from_the_notice() -> None:
    # G.S. 163-112(a); SPEC reading 3: notice on Sunday 08-15, so noon Monday to noon Thursday
    text = scenario(
        PARTY, *filed("Ann", "Bob"), died("Bob", "2027-08-15T07:00", "2027-08-15T09:00")
    )
    c = run(text, as_of="2027-08-17T09:00")
    r = one(c, "filing_reopened")
    assert r["cite"] == "G.S. 163-112(a)" and r["candidates"] == ["Bob"]
    assert (local(r["opens"]), local(r["closes"])) == ("2027-08-16T12:00", "2027-08-19T12:00")
    assert c["state"] == "filing_reopened" and c["outcome"]["pending"] == "filing"
    d = deadline(c, "reopened_filing_closes")
    assert local(d["due"]) == "2027-08-19T12:00" and d["moved_from"] is None


def test_if_nobody_files_while_reopened_the_survivor_is_certified_without_a_primary() -> None:
    # G.S. 163-112(a): "Should no candidate file during the three days ... certify"
    text = scenario(PARTY, *filed("Ann", "Bob"), died("Bob", "2027-07-26T09:00"))
    c = run(text)
    assert c["outcome"]["nominated"] == ["Ann"] and c["state"] == "decided"
    assert one(c, "nominee_certified")["cite"] == "G.S. 163-112(a)"
    assert one(c, "primary_cancelled")["candidates"] == ["Ann"]


def test_if_someone_files_while_reopened_the_primary_is_held() -> None:
    # G.S. 163-112(a): a candidate files during the three days, so there is a contest
    text = scenario(
        PARTY,
        *filed("Ann", "Bob"),
        died("Bob", "2027-07-26T09:00"),
        event("candidate_filed", "2027-07-28T10:00", candidate="Cy"),
        returns("2027-09-14T21:00", Ann=350, Cy=650),
        CANVASS,
    )
    c = run(text)
    assert "nominee_certified" not in kinds(c)
    assert c["outcome"]["nominated"] == ["Cy"]


def test_a_death_on_day_30_reopens_but_a_death_on_day_31_certifies_the_survivor() -> None:
    # G.S. 163-112(a) ("within 30 days after the filing period closes") and (b) second paragraph
    day30 = run(scenario(PARTY, *filed("Ann", "Bob"), died("Bob", "2027-08-15T23:59")))
    day31 = run(scenario(PARTY, *filed("Ann", "Bob"), died("Bob", "2027-08-16T00:00")))
    assert one(day30, "filing_reopened")["cite"] == "G.S. 163-112(a)"
    assert "filing_reopened" not in kinds(day31)
    assert one(day31, "nominee_certified")["cite"] == "G.S. 163-112(b)"
    assert day31["outcome"]["nominated"] == ["Ann"]


def test_notice_before_noon_opens_that_noon_and_after_noon_the_next_open_day() -> None:
    # SPEC reading 3 (G.S. 163-112(a) "upon notice of the death")
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


def test_one_of_three_dying_with_notice_within_30_days_is_left_off_and_filing_reopens() -> None:
    # G.S. 163-112(b) first paragraph
    c = run(
        scenario(
            PARTY, *filed("Ann", "Bob", "Cy"), died("Cy", "2027-08-02T05:00", "2027-08-02T14:00")
        ),
        as_of="2027-08-04",
    )
    assert one(c, "name_removed")["cite"] == "G.S. 163-112(b)"
    r = one(c, "filing_reopened")
    assert (local(r["opens"]), local(r["closes"])) == ("2027-08-03T12:00", "2027-08-06T12:00")


def test_a_death_after_day_30_on_printed_ballots_counts_for_no_purpose() -> None:
    # G.S. 163-112(b) second paragraph; SPEC reading 2: left out of the 163-111(a)(1) total
    c = run(
        scenario(
            PARTY,
            *filed("Ann", "Bob", "Cy"),
            PRINTED,
            died("Cy", "2027-08-25T08:00"),
            returns("2027-09-14T21:00", Ann=280, Bob=250, Cy=470),
            CANVASS,
        )
    )
    assert one(c, "name_remains")["cite"] == "G.S. 163-112(b)"
    assert one(c, "votes_disregarded")["candidates"] == ["Cy"]
    t = one(c, "majority_threshold")
    assert (t["total"], t["threshold"]) == (530, "159")
    assert c["outcome"]["nominated"] == ["Ann"]
    assert "filing_reopened" not in kinds(c)


def test_a_death_after_day_30_before_printing_leaves_the_name_off_without_reopening() -> None:
    # G.S. 163-112(b) second paragraph: "the names of the remaining candidates shall be printed"
    c = run(scenario(PARTY, *filed("Ann", "Bob", "Cy"), died("Cy", "2027-08-20T08:00")))
    assert one(c, "name_removed")["cite"] == "G.S. 163-112(b)"
    assert "filing_reopened" not in kinds(c) and c["state"] == "awaiting_votes"


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


def test_a_death_within_30_days_noticed_after_day_30_is_a_gap_the_death_date_decides() -> None:
    # G.S. 163-112(b); SPEC reading 8
    c = run(
        scenario(
            PARTY, *filed("Ann", "Bob", "Cy"), died("Cy", "2027-08-14T08:00", "2027-08-17T09:00")
        )
    )
    gap = one(c, "no_provision")
    assert gap["cite"] == "G.S. 163-112(b)" and gap["gap"] == "reading-8"
    assert "death date decides" in gap["text"]
    r = one(c, "filing_reopened")
    assert (local(r["opens"]), local(r["closes"])) == ("2027-08-17T12:00", "2027-08-20T12:00")


def test_reading_8_switched_to_the_notice_date_reports_the_gap_and_does_not_reopen() -> None:
    # G.S. 163-112(b); SPEC reading 8 switched (interpretations.late_notice: notice_date)
    c = run(
        scenario(
            PARTY,
            *filed("Ann", "Bob", "Cy"),
            died("Cy", "2027-08-14T08:00", "2027-08-17T09:00"),
            extra="interpretations: {late_notice: notice_date}",
        )
    )
    assert one(c, "no_provision")["gap"] == "reading-8"
    assert "filing_reopened" not in kinds(c)
    assert one(c, "name_removed")["cite"] == "G.S. 163-112(b)"


def test_a_group_death_within_30_days_leaving_the_seats_reopens_then_certifies() -> None:
    # G.S. 163-112(c)
    c = run(
        scenario(
            PARTY_GROUP + "3",
            *filed("Ann", "Bob", "Cy", "Dee"),
            died("Dee", "2027-07-30T08:00", "2027-07-30T13:00"),
        )
    )
    r = one(c, "filing_reopened")
    assert r["cite"] == "G.S. 163-112(c)"
    assert (local(r["opens"]), local(r["closes"])) == ("2027-08-02T12:00", "2027-08-05T12:00")
    assert one(c, "nominee_certified")["candidates"] == ["Ann", "Bob", "Cy"]
    assert c["outcome"]["nominated"] == ["Ann", "Bob", "Cy"]


def test_a_group_death_within_30_days_leaving_more_than_the_seats_is_a_gap() -> None:
    # G.S. 163-112(c) reaches deaths that leave the seats or fewer; (d) deaths after day 30
    c = run(
        scenario(
            PARTY_GROUP + "2", *filed("Ann", "Bob", "Cy", "Dee"), died("Dee", "2027-07-26T08:00")
        )
    )
    gap = one(c, "no_provision")
    assert gap["gap"] == "112c-more-than-seats"
    assert gap["cite"] == "G.S. 163-112(c); G.S. 163-112(d)"
    assert one(c, "name_removed")["cite"] == "G.S. 163-112(d)"
    assert "filing_reopened" not in kinds(c)


def test_a_group_death_after_day_30_before_printing_leaves_the_name_off() -> None:
    # G.S. 163-112(d)(1)
    c = run(
        scenario(
            PARTY_GROUP + "2", *filed("Ann", "Bob", "Cy", "Dee"), died("Dee", "2027-08-18T08:00")
        )
    )
    assert one(c, "name_removed")["cite"] == "G.S. 163-112(d)(1)"
    assert c["state"] == "awaiting_votes"


def test_a_group_death_after_day_30_on_printed_ballots_is_not_counted_for_any_purpose() -> None:
    # G.S. 163-112(d)(2); SPEC reading 2 (163-111(a)(2): 30% of 700 / 2 seats = 105)
    c = run(
        scenario(
            PARTY_GROUP + "2",
            *filed("Ann", "Bob", "Cy", "Dee"),
            PRINTED,
            died("Bob", "2027-08-23T22:00", "2027-08-24T09:00"),
            returns("2027-09-14T21:00", Ann=300, Bob=300, Cy=250, Dee=150),
            CANVASS,
        )
    )
    assert one(c, "name_remains")["cite"] == "G.S. 163-112(d)(2)"
    assert one(c, "votes_disregarded")["cite"] == "G.S. 163-112(d)(2)"
    t = one(c, "majority_threshold")
    assert (t["total"], t["threshold"]) == (700, "105")
    assert sorted(c["outcome"]["nominated"]) == ["Ann", "Cy"]


def test_group_deaths_after_day_30_leaving_the_seats_certify_them_without_a_primary() -> None:
    # G.S. 163-112(d)(3); the conflict with (d)(1) is settled by priority and shown
    c = run(
        scenario(
            PARTY_GROUP + "3", *filed("Ann", "Bob", "Cy", "Dee"), died("Dee", "2027-08-20T08:00")
        )
    )
    r = one(c, "nominee_certified")
    assert r["cite"] == "G.S. 163-112(d)(3)" and r["candidates"] == ["Ann", "Bob", "Cy"]
    assert "163-112(d)(1)" in r["text"] and "more specific" in r["text"]
    assert one(c, "primary_cancelled")["cite"] == "G.S. 163-112(d)(3)"


def test_group_deaths_leaving_fewer_than_the_seats_call_on_the_party_to_nominate() -> None:
    # G.S. 163-112(d)(4), 163-114
    text = scenario(
        PARTY_GROUP + "3",
        *filed("Ann", "Bob", "Cy", "Dee"),
        died("Dee", "2027-08-20T08:00"),
        died("Cy", "2027-08-25T08:00"),
        event("nominee_named", "2027-09-01T10:00", candidate="Fay"),
    )
    waiting = run(text, as_of="2027-08-26T09:00")
    r = one(waiting, "party_to_nominate")
    assert r["cite"] == "G.S. 163-112(d)(4); G.S. 163-114" and r["seats"] == 1
    assert waiting["outcome"]["pending"] == "nomination"
    assert waiting["outcome"]["nominated"] == ["Ann", "Bob"]
    done = run(text)
    assert sorted(done["outcome"]["nominated"]) == ["Ann", "Bob", "Fay"]
    assert done["state"] == "decided" and done["outcome"]["pending"] is None


def test_a_nomination_no_vacancy_calls_for_is_rejected() -> None:
    # G.S. 163-114 fills a vacancy among nominees only
    c = run(
        scenario(
            PARTY, *filed("Ann", "Bob"), event("nominee_named", "2027-08-01T10:00", candidate="Fay")
        )
    )
    r = one(c, "request_rejected")
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
