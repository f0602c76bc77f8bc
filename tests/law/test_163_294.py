"""G.S. 163-294: results in cities using nonpartisan primaries (the primary, then the election)."""

from __future__ import annotations

from tests.inline import cites, deadline, filed, local, only, returns, rulings, run

PRIMARY = (
    "{id: p, office: Mayor, seats: 1, method: nonpartisan-primary, stage: primary, year: 2027}"
)
GROUP = (
    "{id: p, office: Council At-Large, seats: 2, method: nonpartisan-primary, "
    "stage: primary, year: 2027}"
)
ELECTION = (
    "{id: e, office: Mayor, seats: 1, method: nonpartisan-primary, stage: election, year: 2027}"
)
NIGHT = "2027-10-05T21:00"  # 2027: primary Tue 5 Oct (fourth Tuesday before 2 Nov)
CANVASS = '- {type: canvass_held, at: "2027-10-12T11:00"}'


def lot(winner: str, at: str = "2027-10-12T15:00") -> str:
    return f'- {{type: lot_drawn, at: "{at}", winner: "{winner}"}}'


def test_no_primary_is_held_when_only_two_file_for_a_single_office() -> None:
    # G.S. 163-294(a)
    c = run(PRIMARY, filed("Ann", "Bob"))
    cancelled = only(c, "primary_cancelled")
    assert cites(cancelled, r"163-294\(a\)")
    assert local(cancelled.at) == "2027-07-16T12:00:00"  # when filing closes
    assert set(c.outcome.nominated) == {"Ann", "Bob"}
    assert c.outcome.pending is None


def test_a_lone_candidate_is_nominated_without_a_primary() -> None:
    # G.S. 163-294(a): "only one or two candidates"
    assert run(PRIMARY, filed("Ann")).outcome.nominated == ("Ann",)


def test_no_primary_is_held_when_a_group_has_at_most_twice_the_seats() -> None:
    # G.S. 163-294(a)
    c = run(GROUP, filed("A", "B", "C", "D"))
    assert set(c.outcome.nominated) == {"A", "B", "C", "D"}
    assert cites(only(c, "nominated"), r"163-294\(a\)")


def test_a_primary_is_held_when_more_than_twice_the_seats_file() -> None:
    # G.S. 163-294(a)
    c = run(GROUP, filed("A", "B", "C", "D", "E"))
    assert not rulings(c, "primary_cancelled")
    assert c.outcome.pending is not None and c.outcome.pending.value == "votes"


def test_the_filing_period_decides_whether_a_primary_is_held_not_an_earlier_count() -> None:
    # G.S. 163-294(a): "when the filing period closes"
    before = run(PRIMARY, filed("Ann", "Bob"), as_of="2027-07-16T11:00")
    assert before.outcome.nominated == () and not before.rulings
    assert before.outcome.pending is not None and before.outcome.pending.value == "filing"


def test_the_two_highest_are_nominated_for_a_single_office() -> None:
    # G.S. 163-294(b); Greensboro District 5 2017
    c = run(
        PRIMARY,
        f"{filed('Thurm', 'Wilkins', 'Leone', 'Lucas')}\n"
        f"{returns(NIGHT, Thurm=1066, Wilkins=986, Leone=169, Lucas=96)}\n{CANVASS}",
    )
    assert set(c.outcome.nominated) == {"Thurm", "Wilkins"}
    nominated = only(c, "nominated")
    assert cites(nominated, r"163-294\(b\)")
    assert not rulings(c, "majority_threshold")
    # the text gives the votes of all four as votes, not as a list of those nominated
    nominees, votes = nominated.text.split("; the votes: ")
    assert "Leone" not in nominees and "Leone 169" in votes


def test_twice_the_seats_are_nominated_for_a_group() -> None:
    # G.S. 163-294(b)
    c = run(
        GROUP,
        f"{filed('A', 'B', 'C', 'D', 'E', 'F')}\n"
        f"{returns(NIGHT, A=600, B=500, C=400, D=300, E=200, F=100)}\n{CANVASS}",
    )
    assert set(c.outcome.nominated) == {"A", "B", "C", "D"}


def test_the_canvass_of_the_primary_is_on_the_seventh_day() -> None:
    # G.S. 163-294(b), 163-279(a)(3)
    c = run(PRIMARY, filed("Ann", "Bob", "Cy"))
    assert local(deadline(c, "primary_day").due) == "2027-10-05T00:00:00"
    canvass = deadline(c, "canvass")
    assert local(canvass.due) == "2027-10-12T11:00:00" and "163-294(b)" in canvass.cite


def test_a_tie_at_the_last_nomination_is_ranked_by_lot() -> None:
    # G.S. 163-294(b); Hickory Ward 3 2019: 28, 16, 16
    log = (
        f"{filed('Seaver', 'Jackson', 'Hefner')}\n"
        f"{returns(NIGHT, Seaver=28, Jackson=16, Hefner=16)}\n{CANVASS}\n{lot('Hefner')}"
    )
    waiting = run(PRIMARY, log, as_of="2027-10-12T12:00")
    assert waiting.outcome.nominated == ("Seaver",)
    assert waiting.outcome.pending is not None and waiting.outcome.pending.value == "lot"
    c = run(PRIMARY, log)
    assert set(c.outcome.nominated) == {"Seaver", "Hefner"}
    assert cites(only(c, "decided_by_lot"), r"163-294\(b\)")
    assert [r.candidates for r in rulings(c, "nominated")] == [("Seaver",), ("Hefner",)]


def test_a_three_way_tie_for_two_nominations_takes_two_drawings() -> None:
    # G.S. 163-294(b): the lot ranks the tied; one drawing gives one place
    log = (
        f"{filed('A', 'B', 'C', 'D', 'E', 'F')}\n"
        f"{returns(NIGHT, A=400, B=300, C=200, D=200, E=200, F=100)}\n{CANVASS}\n{lot('E')}"
    )
    one = run(GROUP, log)
    assert set(one.outcome.nominated) == {"A", "B", "E"}
    assert one.outcome.pending is not None and one.outcome.pending.value == "lot"
    two = run(GROUP, f"{log}\n{lot('C', '2027-10-12T15:05')}")
    assert set(two.outcome.nominated) == {"A", "B", "E", "C"}


def test_a_tie_among_those_nominated_anyway_needs_no_lot() -> None:
    # G.S. 163-294(b), interpretation harmless_ties; Jamestown mayor 2017: 141, 141, 136
    c = run(
        PRIMARY,
        f"{filed('Volz', 'Montgomery', 'Frederick')}\n"
        f"{returns(NIGHT, Volz=141, Montgomery=141, Frederick=136)}\n{CANVASS}",
    )
    assert set(c.outcome.nominated) == {"Volz", "Montgomery"}
    assert not rulings(c, "decided_by_lot") and c.outcome.pending is None


def test_a_tie_below_the_nominations_needs_no_lot() -> None:
    # G.S. 163-294(b), interpretation harmless_ties; Goldsboro mayor 2023: third and fourth tied
    # at 138
    c = run(
        PRIMARY,
        f"{filed('Gaylor', 'Smith', 'Foster', 'Lilly', 'Henry', 'Craig')}\n"
        f"{returns(NIGHT, Gaylor=1277, Smith=1203, Foster=138, Lilly=138, Henry=68, Craig=64)}"
        f"\n{CANVASS}",
    )
    assert set(c.outcome.nominated) == {"Gaylor", "Smith"}
    assert not rulings(c, "decided_by_lot")


def test_there_is_no_runoff_after_a_nonpartisan_primary() -> None:
    # G.S. 163-294(b): the primary only narrows the field
    c = run(
        PRIMARY,
        f"{filed('Ann', 'Bob', 'Cy')}\n{returns(NIGHT, Ann=500, Bob=300, Cy=299)}\n"
        f"{CANVASS}\n"
        '- {type: runoff_requested, at: "2027-10-13T09:00", candidate: Cy}',
    )
    assert only(c, "request_rejected").candidates == ("Cy",)
    assert set(c.outcome.nominated) == {"Ann", "Bob"}


def test_in_the_election_the_highest_of_the_nominees_is_elected() -> None:
    # G.S. 163-294(c); Greensboro District 5 2017: 2513 to 2054
    c = run(
        ELECTION,
        f"{filed('Thurm', 'Wilkins', at='2027-10-12')}\n"
        + returns("2027-11-02T21:00", Thurm=2513, Wilkins=2054, **{"Write-In (Miscellaneous)": 8})
        + '\n- {type: canvass_held, at: "2027-11-12T11:00"}',
    )
    assert c.outcome.elected == ("Thurm",)
    assert cites(only(c, "elected"), r"163-294\(c\)")
    assert local(deadline(c, "election_day").due) == "2027-11-02T00:00:00"


def test_the_election_lists_the_nominees_without_a_filing_period_check() -> None:
    # G.S. 163-294(c): the nominees are placed on the ballot (README: listed, not re-filed)
    c = run(ELECTION, filed("Ann", "Bob", at="2027-10-13"))
    assert not rulings(c, "filing_rejected")


def test_a_nominee_who_withdrew_and_then_died_or_was_disqualified_cannot_be_listed_again() -> None:
    # G.S. 163-294.1: the later departure is a gap for the ballot (the withdrawal's effects
    # stand), but the person it names cannot file again; the votes then elect another
    for later, verb in (("candidate_disqualified", "was disqualified"), ("candidate_died", "died")):
        c = run(
            ELECTION,
            f"{filed('Ann', 'Bob', at='2027-10-13')}\n"
            '- {type: candidate_withdrew, at: "2027-10-14T09:00", candidate: Ann}\n'
            f'- {{type: {later}, at: "2027-10-20T09:00", candidate: Ann}}\n'
            '- {type: candidate_filed, at: "2027-10-25T09:00", candidate: Ann}\n'
            + returns("2027-11-02T21:00", Ann=30, Bob=20)
            + '\n- {type: canvass_held, at: "2027-11-12T11:00"}',
        )
        (refused,) = rulings(c, "filing_rejected")
        assert refused.text == f"Ann {verb} and cannot file again"
        assert rulings(c, "no_provision")
        assert c.outcome.elected == ("Bob",)
