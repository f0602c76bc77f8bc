"""G.S. 163-292: results in cities using the plurality method (nonpartisan)."""

from __future__ import annotations

from tests.inline import cites, filed, only, returns, rulings, run

MAYOR = "{id: mayor, office: Mayor, seats: 1, method: nonpartisan-plurality, year: 2027}"
BOARD = "{id: board, office: Commissioner, seats: 2, method: nonpartisan-plurality, year: 2027}"
CANVASS = '- {type: canvass_held, at: "2027-11-12T11:00"}'
NIGHT = "2027-11-02T21:00"


def test_the_highest_vote_is_elected_to_a_single_office_without_a_majority() -> None:
    # G.S. 163-292(1)
    c = run(
        MAYOR, f"{filed('Ann', 'Bob', 'Cy')}\n{returns(NIGHT, Ann=400, Bob=350, Cy=250)}\n{CANVASS}"
    )
    assert c.outcome.elected == ("Ann",)
    assert cites(only(c, "elected"), r"163-292\(1\)")
    assert not rulings(c, "majority_threshold")
    assert c.outcome.runoff_status.value == "none"


def test_the_highest_equal_in_number_to_the_offices_are_elected_to_a_group() -> None:
    # G.S. 163-292(2)
    c = run(
        BOARD,
        f"{filed('Ann', 'Bob', 'Cy', 'Dee')}\n"
        f"{returns(NIGHT, Ann=400, Bob=350, Cy=300, Dee=200)}\n{CANVASS}",
    )
    assert set(c.outcome.elected) == {"Ann", "Bob"}
    elected = only(c, "elected")
    assert cites(elected, r"163-292\(2\)")
    # the text names those elected, and gives the whole tally apart from them (it read
    # "highest vote: Ann 400, Bob 350, Cy 300, Dee 200", as if all four were elected)
    who, votes = elected.text.split("; the votes: ")
    assert who == "Ann, Bob elected with the highest votes"
    assert votes == "Ann 400, Bob 350, Cy 300, Dee 200"


def test_write_ins_elect_nobody_who_is_not_among_the_highest() -> None:
    # G.S. 163-292(1): write-in votes are counted; they win only with the highest vote
    c = run(
        MAYOR,
        f"{filed('Ann', 'Bob')}\n"
        + returns(NIGHT, Ann=400, Bob=350, **{"Write-In (Miscellaneous)": 390})
        + f"\n{CANVASS}",
    )
    assert c.outcome.elected == ("Ann",)


def test_nothing_is_declared_before_the_canvass() -> None:
    # G.S. 163-292 with 163-182.5(b): the result is declared at the canvass
    c = run(
        MAYOR,
        f"{filed('Ann', 'Bob')}\n{returns(NIGHT, Ann=400, Bob=350)}\n{CANVASS}",
        as_of="2027-11-05T12:00",
    )
    assert c.outcome.elected == ()
    assert c.outcome.pending is not None and c.outcome.pending.value == "canvass"


def test_a_tie_for_a_single_office_waits_for_the_lot_and_the_lot_decides() -> None:
    # G.S. 163-292(3)
    log = (
        f"{filed('Ann', 'Bob', 'Cy')}\n{returns(NIGHT, Ann=410, Bob=410, Cy=180)}\n{CANVASS}\n"
        '- {type: lot_drawn, at: "2027-11-15T10:00", winner: Bob}'
    )
    before = run(MAYOR, log, as_of="2027-11-13T12:00")
    assert before.outcome.elected == ()
    assert before.outcome.pending is not None and before.outcome.pending.value == "lot"
    after = run(MAYOR, log)
    assert after.outcome.elected == ("Bob",)
    lot = only(after, "decided_by_lot")
    assert cites(lot, r"163-292\(3\)") and lot.candidates == ("Bob",)


def test_the_tie_is_ruled_at_the_canvass_with_what_the_lot_must_decide() -> None:
    # G.S. 163-292(3): the result waits for the drawing, and a ruling says why
    log = f"{filed('Ann', 'Bob', 'Cy')}\n{returns(NIGHT, Ann=410, Bob=410, Cy=180)}\n{CANVASS}"
    c = run(MAYOR, log)
    lot = only(c, "lot_required")
    assert cites(lot, r"163-292\(3\)") and lot.candidates == ("Ann", "Bob")
    assert lot.get("seats") == 1 and "tied for one place" in lot.text
    assert lot.at.isoformat().startswith("2027-11-12T11:00")
    assert c.outcome.pending is not None and c.outcome.pending.value == "lot"
    assert not rulings(c, "decided_by_lot") and not rulings(c, "elected")


def test_what_a_drawing_leaves_tied_is_ruled_again() -> None:
    # G.S. 163-292(2)-(3): three tied for two seats; the first drawing gives one, and the
    # second seat is still tied between the other two
    log = (
        f"{filed('A', 'B', 'C')}\n{returns(NIGHT, A=300, B=300, C=300)}\n{CANVASS}\n"
        '- {type: lot_drawn, at: "2027-11-13T10:00", winner: B}'
    )
    c = run(BOARD, log)
    first, second = rulings(c, "lot_required")
    assert first.candidates == ("A", "B", "C") and first.get("seats") == 2
    assert "tied for two places" in first.text and "decides them" in first.text
    assert set(second.candidates) == {"A", "C"} and second.get("seats") == 1
    assert c.outcome.elected == ("B",) and c.outcome.pending.value == "lot"  # type: ignore[union-attr]
    done = run(BOARD, log + '\n- {type: lot_drawn, at: "2027-11-13T11:00", winner: C}')
    assert set(done.outcome.elected) == {"B", "C"} and len(rulings(done, "lot_required")) == 2


def test_a_three_way_tie_for_one_seat_is_decided_by_one_lot() -> None:
    # G.S. 163-292(3): "two or more candidates ... the same number of votes"
    log = (
        f"{filed('Ann', 'Bob', 'Cy')}\n{returns(NIGHT, Ann=300, Bob=300, Cy=300)}\n{CANVASS}\n"
        '- {type: lot_drawn, at: "2027-11-15T10:00", winner: Cy}'
    )
    assert run(MAYOR, log).outcome.elected == ("Cy",)


def test_only_the_seat_the_tie_decides_waits_for_the_lot() -> None:
    # G.S. 163-292(2)-(3); SPEC section 3: elected omits only those whose seat depends on it
    log = (
        f"{filed('A', 'B', 'C', 'D')}\n{returns(NIGHT, A=300, B=250, C=250, D=100)}\n"
        f"{CANVASS}\n"
        '- {type: lot_drawn, at: "2027-11-12T15:00", winner: C}'
    )
    assert run(BOARD, log, as_of="2027-11-12T12:00").outcome.elected == ("A",)
    done = run(BOARD, log)
    assert set(done.outcome.elected) == {"A", "C"}
    assert only(done, "decided_by_lot").candidates == ("C",)
    # the lot's ruling names only the seat it gave
    assert [r.candidates for r in rulings(done, "elected")] == [("A",), ("C",)]


def test_a_tie_between_two_winners_needs_no_lot() -> None:
    # interpretation harmless_ties with G.S. 163-292(3)
    c = run(BOARD, f"{filed('A', 'B', 'C')}\n{returns(NIGHT, A=300, B=300, C=100)}\n{CANVASS}")
    assert set(c.outcome.elected) == {"A", "B"}
    assert not rulings(c, "decided_by_lot") and not rulings(c, "no_provision")


def test_a_lot_with_no_tie_to_settle_is_rejected() -> None:
    # G.S. 163-292(3) gives the board a lot only for a tie
    c = run(
        MAYOR,
        f"{filed('Ann', 'Bob')}\n{returns(NIGHT, Ann=400, Bob=300)}\n{CANVASS}\n"
        '- {type: lot_drawn, at: "2027-11-13T10:00", winner: Bob}',
    )
    assert c.outcome.elected == ("Ann",)
    assert only(c, "no_effect").candidates == ("Bob",)


def test_a_runoff_request_is_rejected_because_the_plurality_method_has_none() -> None:
    # G.S. 163-292 (no runoff; compare 163-293(b))
    c = run(
        MAYOR,
        f"{filed('Ann', 'Bob', 'Cy')}\n{returns(NIGHT, Ann=400, Bob=350, Cy=250)}\n"
        f"{CANVASS}\n"
        '- {type: runoff_requested, at: "2027-11-13T10:00", candidate: Bob}',
    )
    assert c.outcome.elected == ("Ann",)
    rejected = only(c, "request_rejected")
    assert cites(rejected, r"163-292") and rejected.candidates == ("Bob",)
    assert rejected.get("reason")


def test_a_canvass_dated_before_the_election_declares_nothing_and_says_so() -> None:
    # G.S. 163-182.5(b): the canvass declares an election already held; one dated before the
    # day is refused in a ruling (the event is not passed over in silence), and the canvass
    # on its day still declares the result
    early = '- {type: canvass_held, at: "2027-10-26T11:00"}'
    c = run(MAYOR, f"{filed('Ann', 'Bob')}\n{early}\n{returns(NIGHT, Ann=400, Bob=350)}\n{CANVASS}")
    refused = only(c, "no_effect")
    assert refused.get("reason") == "canvass before the election"
    assert "2027-11-02" in refused.text and cites(refused, r"163-182\.5\(b\)")
    assert c.outcome.elected == ("Ann",)


def test_a_tie_of_three_for_two_seats_takes_two_drawings_and_each_declaration_says_so() -> None:
    # G.S. 163-292(3): one drawing per tied place; a drawing for a candidate already drawn
    # is refused; each declaration names the drawing that settled it
    log = (
        f"{filed('Ann', 'Bob', 'Cy')}\n{returns(NIGHT, Ann=5, Bob=5, Cy=5)}\n{CANVASS}\n"
        '- {type: lot_drawn, at: "2027-11-13T11:00", winner: Cy}\n'
        '- {type: lot_drawn, at: "2027-11-13T12:00", winner: Cy}\n'
        '- {type: lot_drawn, at: "2027-11-13T13:00", winner: Ann}'
    )
    c = run(BOARD, log)
    assert c.outcome.elected == ("Cy", "Ann")
    assert [r.candidates for r in rulings(c, "decided_by_lot")] == [("Cy",), ("Ann",)]
    assert only(c, "no_effect").candidates == ("Cy",)
    assert all("drawing of lots" in r.text for r in rulings(c, "elected"))
    half = run(BOARD, log, as_of="2027-11-13T11:30")
    assert half.outcome.elected == ("Cy",)
    assert half.outcome.pending is not None and half.outcome.pending.value == "lot"


def _tied_then(event: str, *, lot: str = "") -> str:
    log = f"{filed('Ann', 'Bob')}\n{returns(NIGHT, Ann=500, Bob=500)}\n{event}"
    return log + (f'\n- {{type: lot_drawn, at: "2027-11-15T10:00", winner: {lot}}}' if lot else "")


def test_a_tied_candidate_who_dies_before_the_drawing_is_a_named_gap_and_still_drawn() -> None:
    # G.S. 163-292(3) with 163-294.1(c): neither says whether the drawing counts a tied
    # candidate who died after the vote; the lot is held among all, a dead winner's seat vacant
    death = '- {type: candidate_died, at: "2027-11-13T11:00", candidate: Ann}'
    c = run(MAYOR, _tied_then(f"{CANVASS}\n{death}"))
    gap = only(c, "no_provision")
    assert gap.get("gap") == "tied-candidate-left-before-lot"
    assert gap.at.isoformat().startswith("2027-11-13T11:00")  # ruled at the death
    assert cites(gap, r"163-292\(3\)") and cites(gap, r"163-294\.1\(c\)")
    assert "before the election" not in gap.text and "name left on" not in gap.text
    assert set(rulings(c, "lot_required")[-1].candidates) == {"Ann", "Bob"}
    assert c.outcome.pending is not None and c.outcome.pending.value == "lot"
    dead = run(MAYOR, _tied_then(f"{CANVASS}\n{death}", lot="Ann"))
    assert dead.outcome.vacant_seats == 1 and dead.outcome.elected == ()
    assert cites(only(dead, "office_vacant"), r"163-294\.1\(c\)")
    alive = run(MAYOR, _tied_then(f"{CANVASS}\n{death}", lot="Bob"))
    assert alive.outcome.elected == ("Bob",) and alive.outcome.vacant_seats == 0


def test_a_death_after_the_vote_and_before_the_canvass_meets_the_same_gap_at_the_canvass() -> None:
    # the conflict of a dead candidate left on the printed ballot (163-294.4(c)) is not this one
    death = '- {type: candidate_died, at: "2027-11-03T10:00", candidate: Ann}'
    c = run(MAYOR, _tied_then(f"{death}\n{CANVASS}"))
    gap = only(c, "no_provision")
    assert gap.get("gap") == "tied-candidate-left-before-lot" and not gap.get("conflict")
    assert gap.at.isoformat().startswith("2027-11-12T11:00")
    assert not any(cites(r, r"163-294\.4") for r in c.rulings)


def test_tied_candidates_who_left_the_same_way_are_named_together() -> None:
    # G.S. 163-292(3) with 163-294.1(c), the lot drawn among those still standing
    # (interpretation tied_left_before_lot: among_standing): the ruling says "Ann and Cy died",
    # not "Ann died, Cy died"
    c = run(
        MAYOR,
        f"{filed('Ann', 'Bob', 'Cy', 'Dee')}\n"
        f"{returns(NIGHT, Ann=100, Bob=100, Cy=100, Dee=100)}\n"
        '- {type: candidate_died, at: "2027-11-03T10:00", candidate: Ann}\n'
        '- {type: candidate_died, at: "2027-11-04T10:00", candidate: Cy}\n'
        '- {type: candidate_disqualified, at: "2027-11-05T10:00", candidate: Dee}\n'
        f"{CANVASS}",
        head="interpretations: {tied_left_before_lot: among_standing}",
    )
    assert c.outcome.elected == ("Bob",)
    assert "Ann and Cy died and Dee was disqualified before the drawing" in only(c, "elected").text
