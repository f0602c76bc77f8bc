"""G.S. 163-111(a) (substantial plurality) and the second primary of municipal partisan
primaries (163-111(b) as applied by 163-291(5)-(6), days from 163-279(a)(2)); and the partisan
general election that follows."""

from __future__ import annotations

from datetime import timedelta

from tests.inline import cites, deadline, filed, local, only, returns, rulings, run

MAYOR = "{id: p, office: Mayor, seats: 1, method: partisan, stage: primary, party: REP, year: 2027}"
GROUP = (
    "{id: p, office: Council At-Large, seats: 2, method: partisan, stage: primary, "
    "party: DEM, year: 2027}"
)
GENERAL = "{id: g, office: Mayor, seats: 1, method: partisan, stage: election, year: 2027}"
NIGHT = "2027-09-14T21:00"  # 2027: Labor Day 6 Sep, primary Tue 14 Sep
CANVASS = '- {type: canvass_held, at: "2027-09-21T11:00"}'
SECOND = "2027-10-05T21:00"  # the fourth Tuesday before Tue 2 Nov
SECOND_CANVASS = '- {type: canvass_held, at: "2027-10-12T11:00"}'


def demand(name: str, at: str) -> str:
    return f'- {{type: runoff_requested, at: "{at}", candidate: "{name}"}}'


def primary(party: str = "REP", **counts: int) -> str:
    return f"{filed(*counts, party=party)}\n{returns(NIGHT, **counts)}\n{CANVASS}"


NO_SP = primary(Ann=290, Bob=270, Cy=250, Dee=190)


def test_more_than_thirty_percent_is_a_substantial_plurality() -> None:
    # G.S. 163-111(a)(1); Charlotte District 3 Democratic primary 2019: 30% of 7581 = 2274.3
    c = run(MAYOR, primary(Watlington=3322, Brown=3105, Theodros=1154))
    t = only(c, "majority_threshold")
    assert (t.get("total"), t.get("threshold")) == (7581, "2274.3")
    assert cites(t, r"163-111\(a\)\(1\)")
    assert c.outcome.nominated == ("Watlington",)
    assert c.outcome.elected == ()


def test_exactly_thirty_percent_is_not_a_substantial_plurality() -> None:
    # G.S. 163-111(a)(1), "any excess" (interpretation write_ins_in_total)
    c = run(MAYOR, primary(Ann=300, Bob=290, Cy=250, Dee=160), as_of="2027-09-22T12:00")
    assert only(c, "majority_threshold").get("threshold") == "300"
    assert c.outcome.nominated == ()
    assert only(c, "runoff_available").candidates == ("Bob",)


def test_when_two_have_a_substantial_plurality_the_highest_is_nominated() -> None:
    # G.S. 163-111(a)(1), last sentence; Charlotte District 2 Democratic primary 2017
    c = run(MAYOR, primary(Harlow=2362, Adams=2346, Erickson=641, McLean=216))
    assert only(c, "majority_threshold").get("threshold") == "1669.5"
    assert c.outcome.nominated == ("Harlow",)
    assert not rulings(c, "runoff_available")


def test_a_group_threshold_divides_by_the_positions_then_takes_thirty_percent() -> None:
    # G.S. 163-111(a)(2): 1000 / 2 x 30% = 150
    c = run(
        GROUP,
        primary(party="DEM", Ann=400, Bob=200, Cy=160, Dee=140, Eve=100),
        as_of="2027-09-21T12:00",
    )
    assert only(c, "majority_threshold").get("threshold") == "150"
    assert cites(only(c, "majority_threshold"), r"163-111\(a\)\(2\)")
    assert set(c.outcome.nominated) == {"Ann", "Bob"}


def test_when_more_have_a_substantial_plurality_than_positions_the_highest_are_nominated() -> None:
    # G.S. 163-111(a)(2), last sentence (the Charlotte at-large Democratic primary of 2019 is
    # the real case: scenarios/partisan/charlotte-2019-at-large-group.yaml)
    c = run(GROUP, primary(party="DEM", Ann=300, Bob=250, Cy=200, Dee=160, Eve=90))
    assert set(c.outcome.nominated) == {"Ann", "Bob"}
    assert not rulings(c, "runoff_available")


def test_without_a_substantial_plurality_the_runner_up_may_demand_by_noon_thursday() -> None:
    # G.S. 163-291(6): the demand is due by noon on the first Thursday after the canvass
    c = run(MAYOR, NO_SP, as_of="2027-09-22T12:00")
    d = deadline(c, "second_primary_request")
    assert local(d.due) == "2027-09-23T12:00:00" and "163-291(6)" in d.cite
    assert c.outcome.pending is not None and c.outcome.pending.value == "runoff_request"
    assert c.outcome.runoff_status.value == "available"
    assert not [x for x in c.deadlines if x.kind.value == "runoff_request"]


def test_the_primary_canvass_is_on_the_seventh_day() -> None:
    # G.S. 163-291(5), 163-279(a)(2)
    c = run(MAYOR, NO_SP)
    assert local(deadline(c, "primary_day").due) == "2027-09-14T00:00:00"
    canvass = next(x for x in c.deadlines if x.kind.value == "canvass")
    assert local(canvass.due) == "2027-09-21T11:00:00" and "163-291(5)" in canvass.cite


def test_a_demand_calls_a_second_primary_on_the_fourth_tuesday_before_the_election() -> None:
    # G.S. 163-111(b), 163-291(6), 163-279(a)(2)
    log = (
        f"{NO_SP}\n{demand('Bob', '2027-09-22T10:00')}\n"
        f"{returns(SECOND, Bob=520, Ann=480)}\n{SECOND_CANVASS}"
    )
    c = run(MAYOR, log)
    assert set(c.outcome.runoff_candidates) == {"Ann", "Bob"}
    assert local(deadline(c, "second_primary").due) == "2027-10-05T00:00:00"
    assert c.outcome.nominated == ("Bob",)
    assert c.outcome.runoff_status.value == "held"
    assert local(rulings(c, "nominated")[-1].at) == "2027-10-12T11:00:00"


def test_without_a_demand_the_leader_is_nominated_when_the_deadline_passes() -> None:
    # G.S. 163-291(6), interpretation group_runoff_ballot
    c = run(MAYOR, NO_SP)
    assert c.outcome.nominated == ("Ann",)
    assert local(only(c, "nominated").at) == "2027-09-23T12:00:00"


def test_only_the_runner_up_may_demand_a_second_primary() -> None:
    # G.S. 163-111(b), interpretation group_runoff_ballot
    c = run(MAYOR, f"{NO_SP}\n{demand('Cy', '2027-09-22T10:00')}")
    assert only(c, "request_rejected").candidates == ("Cy",)
    assert c.outcome.nominated == ("Ann",)


def test_a_demand_after_noon_thursday_is_rejected_as_late() -> None:
    # G.S. 163-291(6)
    c = run(MAYOR, f"{NO_SP}\n{demand('Bob', '2027-09-23T12:30')}")
    late = only(c, "request_rejected")
    assert late.get("reason") == "late" and cites(late, r"163-291\(6\)")
    assert c.outcome.nominated == ("Ann",)


def test_a_group_without_enough_substantial_pluralities_follows_the_default_ballot() -> None:
    # G.S. 163-111(a)(2), interpretation group_runoff_ballot: the next one may demand for the
    # remaining position
    votes = primary(
        party="DEM", Ann=200, Bob=140, Cy=130, Dee=120, Eve=110, Fay=100, Gil=100, Hank=100
    )
    log = (
        f"{votes}\n{demand('Cy', '2027-09-22T10:00')}\n{returns(SECOND, Cy=510, Bob=490)}\n"
        f"{SECOND_CANVASS}"
    )
    c = run(GROUP, log)
    assert set(c.outcome.nominated) == {"Ann", "Cy"}
    assert set(c.outcome.runoff_candidates) == {"Bob", "Cy"}


def test_a_demand_by_a_candidate_with_a_substantial_plurality_is_rejected() -> None:
    # G.S. 163-111(a)(1): the nominee is declared; there is nothing to demand
    c = run(MAYOR, f"{primary(Ann=400, Bob=350, Cy=250)}\n{demand('Bob', '2027-09-22T10:00')}")
    assert c.outcome.nominated == ("Ann",)
    assert only(c, "request_rejected").candidates == ("Bob",)


def test_the_general_election_is_won_by_the_highest_vote_without_a_majority() -> None:
    # G.S. 163-291, 163-279(a)(2) (real case: scenarios/partisan/charlotte-2019-general-election)
    log = (
        f"{filed('Ann', at='2027-09-21T12:00', party='DEM')}\n"
        f"{filed('Bob', at='2027-09-21T12:00', party='REP')}\n"
        + returns("2027-11-02T22:00", Ann=700, Bob=600, **{"Write-In (Miscellaneous)": 400})
        + '\n- {type: canvass_held, at: "2027-11-12T11:00"}'
    )
    c = run(GENERAL, log)
    assert c.outcome.elected == ("Ann",)
    assert not rulings(c, "majority_threshold") and not rulings(c, "runoff_available")
    assert local(deadline(c, "election_day").due) == "2027-11-02T00:00:00"


def test_a_general_election_tie_is_decided_by_lot() -> None:
    # G.S. 163-182.8(2): 5,000 or fewer voters, random selection by the board
    log = (
        f"{filed('Ann', at='2027-09-21T12:00', party='DEM')}\n"
        f"{filed('Bob', at='2027-09-21T12:00', party='REP')}\n"
        f"{returns('2027-11-02T21:00', Ann=700, Bob=700)}\n"
        '- {type: canvass_held, at: "2027-11-12T11:00"}\n'
        '- {type: lot_drawn, at: "2027-11-13T10:00", winner: Ann}'
    )
    waiting = run(GENERAL, log, as_of="2027-11-12T12:00")
    assert waiting.outcome.pending is not None and waiting.outcome.pending.value == "lot"
    c = run(GENERAL, log)
    assert c.outcome.elected == ("Ann",)
    assert cites(only(c, "decided_by_lot"), r"163-182\.8\(2\)")


def test_a_tied_leader_who_dies_before_the_drawing_leaves_the_nomination_to_the_other_at_once() -> (
    None
):
    # Ann and Bob tie over the substantial plurality for one nomination; Ann dies while the
    # count waits for the drawing: she cannot be nominated, so the count is decided again at
    # her death and Bob is nominated without a lot (a drawing for Ann would be refused)
    log = (
        f"{filed('Ann', 'Bob', party='REP')}\n{returns(NIGHT, Ann=500, Bob=500)}\n{CANVASS}\n"
        '- {type: candidate_died, at: "2027-09-22T09:00", candidate: Ann}'
    )
    before = run(MAYOR, log, as_of="2027-09-21T12:00")
    assert before.outcome.pending is not None and before.outcome.pending.value == "lot"
    c = run(MAYOR, log)
    assert c.outcome.nominated == ("Bob",) and c.outcome.pending is None
    nominated = only(c, "nominated")
    assert nominated.at.isoformat().startswith("2027-09-22T09:00")
    assert not rulings(c, "decided_by_lot")


def test_a_departure_that_settles_who_may_demand_after_the_deadline_is_a_named_gap() -> None:
    # a tie for the place that may request settled by lot (interpretation request_place_tie: lot):
    # Cy and Dee tie for the place that may demand a second primary, and a drawing is awaited; Cy
    # dies after the Thursday deadline counted from the canvass. The count is decided again (Dee
    # alone may demand): the deadline is counted from the death, not announced as a day already gone
    from pathlib import Path

    import attrs

    from simulator import load_scenario, replay
    from simulator.model.eventlog import EventLog
    from simulator.model.events import CandidateDied

    here = Path(__file__).resolve().parents[2]
    s = load_scenario(here / "scenarios/gaps/gap-group-tie-for-request-place.yaml")
    s = attrs.evolve(s, interpretations=attrs.evolve(s.interpretations, request_place_tie="lot"))
    events = list(s.events)
    death = CandidateDied(
        at=events[-1].at + timedelta(days=10),
        contest=events[-1].contest,
        candidate="Cy",
        index=len(events),
    )
    c = replay(attrs.evolve(s, events=EventLog([*events, death]))).contests[0]
    gap = next(r for r in c.rulings if r.get("gap") == "demand-after-late-departure")
    assert gap.at == death.at and cites(gap, r"163-291\(6\)")
    available = only(c, "runoff_available")
    assert available.candidates == ("Dee",) and available.at == death.at
    last = [dl for dl in c.deadlines if dl.kind.value == "second_primary_request"][-1]
    assert last.due > death.at and "the departure" in last.how


def test_a_second_primary_leader_who_dies_after_its_day_is_the_after_the_primary_gap() -> None:
    # a death on or after the second primary's day, before its canvass: the gap of a primary
    # candidate who leaves after the primary day (163-294.1(b)), not the gap of a candidate
    # who leaves before the second primary is voted; the other is nominated on the vote
    c = run(
        MAYOR,
        f"{NO_SP}\n{demand('Bob', '2027-09-22T10:00')}\n{returns(SECOND, Ann=600, Bob=590)}\n"
        '- {type: candidate_died, at: "2027-10-07T10:00", candidate: Ann}\n'
        f"{SECOND_CANVASS}",
    )
    gap = only(c, "no_provision")
    assert gap.get("gap") == "left-after-primary-day" and gap.candidates == ("Ann",)
    assert c.outcome.nominated == ("Bob",)


def _tied_second_primary(dies: str) -> str:
    return (
        f"{NO_SP}\n{demand('Bob', '2027-09-22T10:00')}\n{returns(SECOND, Ann=600, Bob=600)}\n"
        f"{SECOND_CANVASS}\n"
        f'- {{type: candidate_died, at: "2027-10-13T10:00", candidate: {dies}}}'
    )


def test_a_second_primary_tie_left_by_a_death_nominates_the_other_whoever_died() -> None:
    # the one who left cannot be nominated and is no party to the tie, whether the votes list
    # them first or second (the order of a tie is no fact of the law)
    for dies, other in (("Ann", "Bob"), ("Bob", "Ann")):
        c = run(MAYOR, _tied_second_primary(dies))
        assert c.outcome.nominated == (other,), dies
        assert c.outcome.pending is None and not rulings(c, "lot_required")[1:], dies


COMMITTEE_FILLS = "interpretations: {left_after_primary_day: committee_fills}"
ANN_DIES = '- {type: candidate_died, at: "2027-09-15T10:00", candidate: Ann}'


def test_a_place_over_the_threshold_of_one_who_left_after_the_primary_day_is_the_committees() -> (
    None
):
    # a party candidate who leaves after the primary day: Ann (600 of 1,000) dies the morning after
    # the primary: by default Bob (310, over 300) is nominated in her place; under committee_fills
    # her place is a vacancy in the nomination for the party's executive committee (163-114), and
    # nobody else is nominated
    log = primary(Ann=600, Bob=310, Cy=90).replace(CANVASS, f"{ANN_DIES}\n{CANVASS}")
    assert run(MAYOR, log).outcome.nominated == ("Bob",)
    c = run(MAYOR, log, head=COMMITTEE_FILLS)
    assert c.outcome.nominated == () and not rulings(c, "nominated")
    vacancy = only(c, "party_to_nominate")
    assert vacancy.candidates == ("Ann",) and cites(vacancy, r"163-114")


def test_one_who_left_after_the_primary_day_short_of_the_threshold_leaves_no_place() -> None:
    # a candidate who leaves after the primary day (interpretation left_after_primary_day) leaves
    # only a place the votes give: Ann (290, not over 300) is passed over under either setting, and
    # the same demand for a second primary follows
    log = NO_SP.replace(CANVASS, f"{ANN_DIES}\n{CANVASS}")
    default, switched = run(MAYOR, log), run(MAYOR, log, head=COMMITTEE_FILLS)
    assert not rulings(switched, "party_to_nominate")
    assert [r.text for r in switched.rulings if r.kind != "no_provision"] == [
        r.text for r in default.rulings if r.kind != "no_provision"
    ]
