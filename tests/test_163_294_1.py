"""G.S. 163-294.1: death, disqualification or withdrawal of municipal candidates and of persons
elected. Dates: the 2027 cycle of tests/contingency_cases."""

from __future__ import annotations

from tests.contingency_cases import (
    NP_PRIMARY,
    PARTY,
    PLURALITY,
    died,
    event,
    filed,
    kinds,
    one,
    returns,
    rulings,
    run,
    scenario,
)

PRINTED_SEP = event("ballots_printed", "2027-09-10T09:00")
NP_CANVASS = event("canvass_held", "2027-10-12T11:00")
NOV_CANVASS = event("canvass_held", "2027-11-09T11:00")
GENERAL = "seats: 1, method: partisan, stage: election"


def test_a_party_candidate_withdrawing_after_printing_is_governed_by_163_112() -> None:
    # G.S. 163-294.1(b) first paragraph: 163-112(b) certifies the one candidate left
    c = run(
        scenario(
            PARTY,
            *filed("Ann", "Bob"),
            event("ballots_printed", "2027-08-20"),
            event("candidate_withdrew", "2027-08-25T10:00", candidate="Bob"),
        )
    )
    r = one(c, "nominee_certified")
    assert r["cite"] == "G.S. 163-112(b); G.S. 163-294.1(b)" and r["candidates"] == ["Ann"]
    assert c["outcome"]["nominated"] == ["Ann"]


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


def test_a_nonpartisan_primary_candidate_dying_after_printing_keeps_the_name() -> None:
    # G.S. 163-294.1(b) second paragraph: no time to reprint, so the name remains; votes that
    # would nominate are disregarded and the next highest is nominated
    c = run(
        scenario(
            NP_PRIMARY + "1",
            *filed("Ann", "Bob", "Cy", "Dee"),
            PRINTED_SEP,
            died("Cy", "2027-09-20T08:00"),
            event("reprint_determined", "2027-09-21T10:00", enough_time="false"),
            returns("2027-10-05T21:00", Ann=500, Cy=450, Bob=300, Dee=100),
            NP_CANVASS,
        )
    )
    assert one(c, "name_remains")["cite"] == "G.S. 163-294.1(b)"
    assert one(c, "votes_disregarded")["candidates"] == ["Cy"]
    assert sorted(c["outcome"]["nominated"]) == ["Ann", "Bob"]


def test_time_to_reprint_takes_the_name_off_and_the_primary_goes_on() -> None:
    # G.S. 163-294.1(b) second paragraph: the board determines there is time to reprint
    c = run(
        scenario(
            NP_PRIMARY + "1",
            *filed("Ann", "Bob", "Cy", "Dee"),
            PRINTED_SEP,
            died("Dee", "2027-09-15T08:00"),
            event("reprint_determined", "2027-09-16T10:00", enough_time="true"),
        )
    )
    assert kinds(c)[:1] == ["name_removed"]  # nothing is ruled before the determination
    assert one(c, "name_removed")["cite"] == "G.S. 163-294.1(b)"
    assert c["state"] == "awaiting_votes"


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


def test_a_withdrawal_leaving_two_per_seat_also_cancels_the_primary_under_reading_7() -> None:
    # G.S. 163-294.1(b); SPEC reading 7
    text = scenario(
        NP_PRIMARY + "1",
        *filed("Ann", "Bob", "Cy"),
        PRINTED_SEP,
        event("candidate_withdrew", "2027-09-15T10:00", candidate="Cy"),
    )
    assert run(text)["outcome"]["nominated"] == ["Ann", "Bob"]
    off = run(
        text.replace(
            "title: a contingency",
            "title: a contingency\ninterpretations: {withdrawal_as_death: false}",
        )
    )
    assert "primary_cancelled" not in kinds(off) and off["state"] == "awaiting_votes"


def test_a_nonpartisan_nominee_who_dies_is_no_longer_nominated() -> None:
    # G.S. 163-294.1(b): the nominee becomes a candidate in the election (163-294.4 governs it)
    c = run(scenario(NP_PRIMARY + "1", *filed("Ann", "Bob"), died("Bob", "2027-08-10T10:00")))
    assert c["outcome"]["nominated"] == ["Ann"]
    assert (
        one(c, "name_removed")["cite"] == "G.S. 163-294.1(b); G.S. 163-294.4(b); G.S. 163-294.4(c)"
    )


def test_a_party_nominee_dying_after_the_primary_is_replaced_by_the_party() -> None:
    # G.S. 163-294.1(b) third paragraph: 163-114 governs
    text = scenario(
        PARTY,
        *filed("Ann", "Bob"),
        returns("2027-09-14T21:00", Ann=700, Bob=300),
        event("canvass_held", "2027-09-21T11:00"),
        died("Ann", "2027-10-01T08:00"),
        event("nominee_named", "2027-10-08T10:00", candidate="Dan"),
    )
    waiting = run(text, as_of="2027-10-02T09:00")
    assert one(waiting, "party_to_nominate")["cite"] == "G.S. 163-114; G.S. 163-294.1(b)"
    assert waiting["outcome"]["pending"] == "nomination"
    assert waiting["outcome"]["nominated"] == []
    assert run(text)["outcome"]["nominated"] == ["Dan"]


def test_votes_for_a_printed_nominee_count_for_the_replacement_in_the_general_election() -> None:
    # G.S. 163-294.1(b) third paragraph; 08 NCAC 06B .0104
    c = run(
        scenario(
            GENERAL,
            event("candidate_filed", "2027-09-21T12:00", candidate="Ann", party="DEM"),
            event("candidate_filed", "2027-09-21T12:00", candidate="Bob", party="REP"),
            event("ballots_printed", "2027-09-24T09:00"),
            died("Ann", "2027-10-10T08:00"),
            event("reprint_determined", "2027-10-11T10:00", enough_time="false"),
            event("nominee_named", "2027-10-13T10:00", candidate="Dan", party="DEM"),
            returns("2027-11-02T21:00", Ann=600, Bob=500),
            NOV_CANVASS,
        )
    )
    assert one(c, "name_remains")["cite"] == "08 NCAC 06B .0104"
    assert c["outcome"]["elected"] == ["Dan"] and c["outcome"]["vacant_seats"] == 0


def test_a_general_election_nominee_leaving_before_printing_is_replaced_on_the_ballot() -> None:
    # G.S. 163-294.1(b) third paragraph; 163-114
    c = run(
        scenario(
            GENERAL,
            event("candidate_filed", "2027-09-21T12:00", candidate="Ann", party="DEM"),
            event("candidate_filed", "2027-09-21T12:00", candidate="Bob", party="REP"),
            event("candidate_withdrew", "2027-09-28T10:00", candidate="Bob"),
            event("nominee_named", "2027-10-01T10:00", candidate="Cal", party="REP"),
            returns("2027-11-02T21:00", Ann=480, Cal=520),
            NOV_CANVASS,
        )
    )
    assert one(c, "name_removed")["cite"] == "G.S. 163-114"
    assert c["outcome"]["elected"] == ["Cal"]


def test_a_disqualified_candidate_who_wins_a_nonpartisan_election_leaves_it_vacant() -> None:
    # G.S. 163-294.1(b) fourth paragraph
    c = run(
        scenario(
            PLURALITY + "1",
            *filed("Ann", "Bob"),
            event("ballots_printed", "2027-09-20"),
            event("candidate_disqualified", "2027-10-20T10:00", candidate="Bob"),
            event("reprint_determined", "2027-10-21T10:00", enough_time="false"),
            returns("2027-11-02T21:00", Ann=400, Bob=450),
            NOV_CANVASS,
        )
    )
    assert one(c, "office_vacant")["cite"] == "G.S. 163-294.1(b)"
    assert c["outcome"]["elected"] == [] and c["outcome"]["vacant_seats"] == 1


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


def test_a_person_elected_who_dies_before_the_oath_leaves_the_office_vacant() -> None:
    # G.S. 163-294.1(c)
    c = run(
        scenario(
            PLURALITY + "1",
            *filed("Ann", "Bob"),
            returns("2027-11-02T21:00", Ann=600, Bob=400),
            NOV_CANVASS,
            died("Ann", "2027-11-20T08:00"),
        )
    )
    assert one(c, "office_vacant")["cite"] == "G.S. 163-294.1(c)"
    assert c["outcome"]["elected"] == [] and c["outcome"]["vacant_seats"] == 1


def test_resigning_or_being_disqualified_before_the_oath_also_leaves_a_vacancy() -> None:
    # G.S. 163-294.1(c): "dies, becomes disqualified, or resigns"
    c = run(
        scenario(
            PLURALITY + "3",
            *filed("Ann", "Bob", "Cy", "Dee"),
            returns("2027-11-02T21:00", Ann=900, Bob=800, Cy=700, Dee=600),
            NOV_CANVASS,
            event("candidate_withdrew", "2027-11-15T10:00", candidate="Ann"),
            event("candidate_disqualified", "2027-11-18T10:00", candidate="Bob"),
        )
    )
    vac = rulings(c, "office_vacant")
    assert [(r["cite"], r["candidates"]) for r in vac] == [
        ("G.S. 163-294.1(c)", ["Ann"]),
        ("G.S. 163-294.1(c)", ["Bob"]),
    ]
    assert c["outcome"]["elected"] == ["Cy"] and c["outcome"]["vacant_seats"] == 2


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


def test_a_primary_candidate_who_dies_on_primary_night_is_a_gap_and_not_nominated() -> None:
    # G.S. 163-294.1(b) speaks of "before the primary" and "after the primary" only
    c = run(
        scenario(
            NP_PRIMARY + "1",
            *filed("Ann", "Bob", "Cy"),
            PRINTED_SEP,
            returns("2027-10-05T20:30", Ann=500, Cy=450, Bob=300),
            died("Cy", "2027-10-05T22:00"),
            NP_CANVASS,
        )
    )
    assert one(c, "no_provision")["gap"] == "left-after-primary-day"
    assert sorted(c["outcome"]["nominated"]) == ["Ann", "Bob"]


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
