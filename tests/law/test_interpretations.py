"""Each reading of SPEC section 5 is a named switch; the alternatives change the outcome."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

import simulator
from simulator.engine.result import ContestResult
from simulator.law.readings import Interpretations
from tests.cli.inprocess import electsim
from tests.inline import run

PLURALITY_GROUP = "{id: b, office: Board, seats: 2, method: nonpartisan-plurality, year: 2027}"
RUNOFF = "{id: s, office: Seat, seats: 1, method: nonpartisan-runoff, year: 2027}"
FILED = """
- {type: candidate_filed, at: 2027-07-06, candidate: Ann}
- {type: candidate_filed, at: 2027-07-07, candidate: Bob}
- {type: candidate_filed, at: 2027-07-08, candidate: Cy}
"""


def test_a_tie_between_two_winners_needs_no_lot_by_default_but_does_when_switched() -> None:
    # Only ties that decide something matter (interpretation harmless_ties: true): Ann and Bob both
    # win two seats, so their tie decides nothing
    events = (
        FILED
        + """
    - {type: returns_reported, at: "2027-11-02T21:00", counts: {Ann: 300, Bob: 300, Cy: 100}}
    - {type: canvass_held, at: "2027-11-12T11:00"}
    """
    )
    default = run(PLURALITY_GROUP, events)
    assert set(default.outcome.elected) == {"Ann", "Bob"}
    assert default.outcome.pending is None
    strict = run(PLURALITY_GROUP, events, head="interpretations: {harmless_ties: false}")
    assert strict.outcome.pending is not None and strict.outcome.pending.value == "lot"
    ranked = run(
        PLURALITY_GROUP,
        events + '- {type: lot_drawn, at: "2027-11-12T15:00", winner: Bob}',
        head="interpretations: {harmless_ties: false}",
    )
    assert ranked.outcome.elected == ("Bob", "Ann")
    assert any(r.kind.value == "decided_by_lot" for r in ranked.rulings)


def test_write_ins_count_in_the_majority_total_unless_switched_off() -> None:
    # Write-ins count in the total (interpretation write_ins_in_total: true), G.S. 163-293(a)(1):
    # with the 20 write-ins Ann's 505 of 1010 is no majority
    events = (
        FILED
        + """
    - {type: returns_reported, at: "2027-10-05T21:00",
       counts: {Ann: 505, Bob: 400, Cy: 85, "Write-In (Miscellaneous)": 20}}
    - {type: canvass_held, at: "2027-10-12T11:00"}
    """
    )
    with_write_ins = run(RUNOFF, events)
    threshold = next(r for r in with_write_ins.rulings if r.kind.value == "majority_threshold")
    assert threshold.get("total") == 1010 and threshold.get("threshold") == "505"
    assert with_write_ins.outcome.elected == ("Ann",)  # after the request window passes
    assert any(r.kind.value == "runoff_available" for r in with_write_ins.rulings)
    without = run(RUNOFF, events, head="interpretations: {write_ins_in_total: false}")
    threshold = next(r for r in without.rulings if r.kind.value == "majority_threshold")
    assert threshold.get("total") == 990 and threshold.get("threshold") == "495"
    assert not any(r.kind.value == "runoff_available" for r in without.rulings)


def test_an_early_request_waits_for_the_canvass_unless_switched_to_reject() -> None:
    # A runoff request before the canvass (interpretation early_request), G.S. 163-293(c)
    events = (
        FILED
        + """
    - {type: returns_reported, at: "2027-10-05T21:00", counts: {Ann: 480, Bob: 420, Cy: 100}}
    - {type: runoff_requested, at: "2027-10-06T09:00", candidate: Bob}
    - {type: canvass_held, at: "2027-10-12T11:00"}
    """
    )
    waits = run(RUNOFF, events)
    assert waits.outcome.runoff_status.value == "called"
    rejects = run(RUNOFF, events, head="interpretations: {early_request: reject}")
    assert rejects.outcome.runoff_status.value == "none"
    assert rejects.outcome.elected == ("Ann",)
    assert any(r.kind.value == "request_rejected" for r in rejects.rulings)


def test_a_group_runoff_ballot_follows_the_chosen_reading_of_163_293_b_2() -> None:
    # Who is on a group runoff ballot (interpretation group_runoff_ballot) under each setting;
    # "pairwise" is how Elizabeth City read it in 2011. 525 votes for two seats: a majority needs
    # more than 131.25, which nobody has
    group = "{id: w, office: Ward, seats: 2, method: nonpartisan-runoff, year: 2027}"
    events = """
    - {type: candidate_filed, at: 2027-07-06, candidate: Ann}
    - {type: candidate_filed, at: 2027-07-07, candidate: Bob}
    - {type: candidate_filed, at: 2027-07-08, candidate: Cy}
    - {type: candidate_filed, at: 2027-07-09, candidate: Dee}
    - {type: candidate_filed, at: 2027-07-09, candidate: Eve}
    - {type: candidate_filed, at: 2027-07-09, candidate: Fay}
    - {type: returns_reported, at: "2027-10-05T21:00", counts: {Ann: 100, Bob: 95, Cy: 90,
       Dee: 85, Eve: 80, Fay: 75}}
    - {type: canvass_held, at: "2027-10-12T11:00"}
    - {type: runoff_requested, at: "2027-10-13T10:00", candidate: Cy}
    """
    default = run(group, events, as_of="2027-10-20T12:00")
    assert set(default.outcome.runoff_candidates) == {"Ann", "Bob", "Cy"}
    assert default.outcome.elected == ()
    both = run(
        group,
        events,
        as_of="2027-10-20T12:00",
        head="interpretations: {group_runoff_ballot: top_two_r}",
    )
    assert set(both.outcome.runoff_candidates) == {"Ann", "Bob", "Cy", "Dee"}
    pairwise = run(
        group,
        events,
        as_of="2027-10-20T12:00",
        head="interpretations: {group_runoff_ballot: pairwise}",
    )
    assert pairwise.outcome.elected == ("Ann",)
    assert set(pairwise.outcome.runoff_candidates) == {"Bob", "Cy"}


def test_with_harmless_ties_off_two_tied_majority_winners_are_ranked_by_lot() -> None:
    # Only ties that decide something matter, and the other setting (interpretation harmless_ties:
    # false), in a group under G.S. 163-293(a)(2): 1000 votes for two seats, a majority is more than
    # 250; Ann and Bob both have 400 and both win
    group = "{id: g, office: Council, seats: 2, method: nonpartisan-runoff, year: 2027}"
    events = (
        FILED
        + """
    - {type: returns_reported, at: "2027-10-05T21:00", counts: {Ann: 400, Bob: 400, Cy: 200}}
    - {type: canvass_held, at: "2027-10-12T11:00"}
    """
    )
    default = run(group, events)
    assert set(default.outcome.elected) == {"Ann", "Bob"} and default.outcome.pending is None
    strict = run(group, events, head="interpretations: {harmless_ties: false}")
    assert strict.outcome.pending is not None and strict.outcome.pending.value == "lot"
    ranked = run(
        group,
        events + '- {type: lot_drawn, at: "2027-10-12T15:00", winner: Bob}',
        head="interpretations: {harmless_ties: false}",
    )
    assert ranked.outcome.elected == ("Bob", "Ann")


_SWITCHED = {  # each scenario of scenarios/collisions/ reading a gap or conflict the other way
    "2931b1-withdrawn-leader-short-read-as-request": "departed_leader_short",
    "2923-dead-candidate-tied-for-a-seat-read-as-vacant": "departed_tied_for_a_seat",
    "2932d2-withdrawn-tied-for-second-read-as-running-its-course": "runner_up_left",
    "2931b1-withdrawn-runner-up-read-as-running-its-course": "runner_up_left",
    "2931d1-withdrawn-tied-for-first-read-as-vacant": "left_tied_for_first",
    "2944c-dead-tied-for-first-read-as-other-elected": "dead_tied_for_first",
    "2941b-withdrawn-winner-read-as-elected": "withdrawn_winner",
    "294c-tie-after-primary-read-as-lot": "tie_after_primary",
    "2942-nonpartisan-fee-short-read-as-not-enforced": "nonpartisan_fee",
    "2932b2-withdrawn-best-for-group-seat-read-as-vacant": "left_best_for_group_seat",
    "2932b2-group-tie-for-request-place-read-as-lot": "request_place_tie",
    "2932b2-group-tie-for-best-remaining-read-by-size": "first_election_tie",
    "2933e-runoff-candidate-dies-read-as-other-declared": "left_runoff_ballot",
    "2932b2-runoff-place-drawn-after-the-deadline-read-from-canvass": "request_after_lot",
    "2941c-leader-dies-before-declaration-read-as-request": "departed_leader_short",
    "2932b2-best-placed-dies-in-the-request-period-read-as-vacant": "left_best_for_group_seat",
    "111b-second-primary-place-drawn-after-the-deadline-read-from-canvass": "request_after_lot",
    "2932a2-group-tie-over-the-majority-read-by-size": "first_election_tie",
    "1828-partisan-group-tie-voters-read-as-votes": "group_tie_voters",
    "2931d1-dead-tied-for-first-after-election-day-read-as-other-elected": (
        "departed_in_tie_window"
    ),
    "2923-tied-candidate-dies-before-the-lot-read-as-among-standing": "tied_left_before_lot",
    "2933f-runoff-tie-left-by-a-death-read-as-among-standing": "tied_left_before_lot",
    "2932b2-request-place-settled-by-a-death-read-as-among-standing": "tied_left_before_lot",
    "2933f-group-runoff-tie-read-by-size": "group_runoff_tie",
    "2942d-late-nonpartisan-withdrawal-read-as-no-effect": "late_nonpartisan_withdrawal",
    "2944b-only-candidate-dies-read-as-reopen": "only_candidate_dies",
    "112b-no-candidate-left-read-as-committee-names": "no_candidate_left",
    "112c-group-death-within-30-read-as-reopen": "group_death_within_30",
    "112b-disqualified-before-printing-read-as-name-off": "disqualified_before_printing",
    "2931d1-recount-nobody-awaited-read-as-result-stands": "recount_not_ordered",
    "1825b-canvass-before-its-day-read-as-of-its-day": "canvass_before_its_day",
    "2941b-left-after-primary-day-read-as-committee-fills": "left_after_primary_day",
}


@pytest.mark.parametrize("name", sorted(_SWITCHED))
def test_each_other_reading_changes_the_course_and_its_ruling_names_it(name: str) -> None:
    # The switches of gaps and conflicts: the scenario's switch chooses the other reading of a gap
    # or conflict; the same log under the default reading ends otherwise (or gets there otherwise),
    # and only the switched replay's no_provision ruling records the reading
    path = Path(__file__).resolve().parents[2] / "scenarios" / "collisions" / f"{name}.yaml"
    switched = simulator.load_scenario(path)
    switch = _SWITCHED[name]
    setting = switched.interpretations.setting(switch)
    assert setting != attrs.fields_dict(Interpretations)[switch].default.value
    default = attrs.evolve(
        switched,
        interpretations=attrs.evolve(
            switched.interpretations, **{switch: getattr(Interpretations(), switch)}
        ),
    )
    one = simulator.replay(switched).contests[-1]
    other = simulator.replay(default).contests[-1]
    assert one.outcome != other.outcome or one.rulings != other.rulings
    assert any(r.kind.value == "no_provision" and r.get("reading") == setting for r in one.rulings)
    # (a scenario may choose other readings too: those stay; this one is gone)
    assert not any(r.get("reading") == setting for r in other.rulings)
    others = {v for k, v in default.interpretations.changed()}
    assert {r.get("reading") for r in other.rulings if r.get("reading")} <= others


def test_a_replay_names_the_readings_the_scenario_changed(tmp_path: Path) -> None:
    # the text timeline under its title, the JSON result as `interpretations`; none: {}
    import json

    switched = Path(__file__).resolve().parents[2] / "scenarios" / "collisions"
    path = switched / "2932b2-runoff-place-drawn-after-the-deadline-read-from-canvass.yaml"
    text = electsim("replay", str(path), check=True).stdout
    assert text.splitlines()[2] == (
        "readings other than the defaults: a request after a drawing of lots: from canvass "
        "(interpretation request_after_lot: from_canvass)"
    )
    doc = json.loads(electsim("replay", str(path), "--json", check=True).stdout)
    assert doc["interpretations"] == {"request_after_lot": "from_canvass"}
    plain = tmp_path / "plain.yaml"
    plain.write_text(
        "\n".join(
            line for line in path.read_text().splitlines() if not line.startswith("interpretations")
        ),
        encoding="utf-8",
    )
    doc = json.loads(electsim("replay", str(plain), "--json", check=True).stdout)
    assert doc["interpretations"] == {}
    two = simulator.load_scenario(path)
    both = attrs.evolve(two, interpretations=attrs.evolve(two.interpretations, harmless_ties=False))
    assert simulator.replay(both).readings == (
        ("harmless_ties", False),
        ("request_after_lot", "from_canvass"),
    )


GROUP_RUNOFF = "{id: g, office: Council, seats: 2, method: nonpartisan-runoff, year: 2027}"


def _group_tie(votes: str) -> str:
    return (
        FILED
        + "- {type: candidate_filed, at: 2027-07-08, candidate: Dee}\n"
        + f'- {{type: returns_reported, at: "2027-10-05T21:00", counts: {votes}}}\n'
        + '- {type: canvass_held, at: "2027-10-12T11:00"}\n'
    )


def test_a_group_tie_read_by_size_over_5000_voters_is_ruled_a_new_election_and_no_lot() -> None:
    # Interpretation first_election_tie: by_size applies G.S. 163-182.8(1): a new election among the
    # tied, so no drawing of lots is ruled beside it (for the seat left, and for a tie over the
    # majority)
    head = "interpretations: {first_election_tie: by_size}"
    for votes in ("{Ann: 9000, Bob: 2000, Cy: 2000, Dee: 500}", "{Ann: 9000, Bob: 4000, Cy: 4000}"):
        r = run(GROUP_RUNOFF, _group_tie(votes), head=head)
        kinds = [x.kind.value for x in r.rulings]
        assert "new_election_ordered" in kinds and "lot_required" not in kinds, votes


def test_a_group_tie_read_by_size_names_the_voters_gap_and_group_tie_voters_applies() -> None:
    # 7,500 votes for two seats: 3,750 to 7,500 voters. Interpretation first_election_tie: by_size
    # sends the tie for the seat left to 163-182.8; the voters the log does not give are gap
    # voters-not-in-log, whose default (the fewest) draws lots and whose other setting
    # (interpretation group_tie_voters: votes, as many voters as votes) orders a new election
    events = _group_tie("{Ann: 4000, Bob: 1500, Cy: 1500, Dee: 500}")
    fewest = run(GROUP_RUNOFF, events, head="interpretations: {first_election_tie: by_size}")
    gaps = [x.get("gap") for x in fewest.rulings if x.kind.value == "no_provision"]
    assert gaps == ["tie-for-best-remaining", "voters-not-in-log"]
    assert any(x.kind.value == "lot_required" for x in fewest.rulings)
    most = run(
        GROUP_RUNOFF,
        events,
        head="interpretations: {first_election_tie: by_size, group_tie_voters: votes}",
    )
    assert most.outcome.pending is not None and most.outcome.pending.value == "new_election"
    assert not any(x.kind.value == "lot_required" for x in most.rulings)
    # by default a tie the first election does not settle goes to a lot whatever the voters
    # (interpretation first_election_tie: lot), so the voters are not asked
    lot = run(GROUP_RUNOFF, events, head="interpretations: {group_tie_voters: votes}")
    assert [x.get("gap") for x in lot.rulings if x.kind.value == "no_provision"] == [
        "tie-for-best-remaining"
    ]


def test_a_group_runoff_tie_read_by_size_asks_the_voters_and_group_tie_voters_answers() -> None:
    # Interpretation group_runoff_tie: by_size sends a tie for a group runoff's last seat to
    # 163-182.8; 8,000 runoff votes for two seats are 4,000 to 8,000 voters: gap voters-not-in-log,
    # the fewest by default (a lot), as many as the votes under interpretation group_tie_voters:
    # votes (a new election); by default (group_runoff_tie: lot) the board draws lots
    path = Path(__file__).resolve().parents[2] / "scenarios" / "collisions"
    text = (path / "2933f-group-runoff-tie-read-by-size.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "{Ann: 9000, Bob: 4000, Cy: 4000, Dee: 1000}", "{Ann: 3000, Bob: 2000, Cy: 2000, Dee: 1000}"
    )
    text = text[: text.index("expect:")]

    def runoff(interpretations: str) -> ContestResult:
        head = text.replace("{group_runoff_tie: by_size}", interpretations)
        return simulator.replay(simulator.parse_scenario(head)).contests[-1]

    fewest = runoff("{group_runoff_tie: by_size}")
    assert [x.get("gap") for x in fewest.rulings if x.kind.value == "no_provision"] == [
        "group-runoff-tie",
        "voters-not-in-log",
    ]
    assert fewest.outcome.pending is not None and fewest.outcome.pending.value == "lot"
    most = runoff("{group_runoff_tie: by_size, group_tie_voters: votes}")
    assert most.outcome.pending is not None and most.outcome.pending.value == "new_election"
    assert not any(x.kind.value == "lot_required" for x in most.rulings)
    lot = runoff("{group_tie_voters: votes}")
    assert [x.get("gap") for x in lot.rulings if x.kind.value == "no_provision"] == [
        "group-runoff-tie"
    ]


def _request_place_tie(*deaths: str) -> str:
    # two seats: Ann passes the majority of 375; Bob is best placed for the seat left; Cy, Dee
    # and Eve tie for the one place that carries the right to request a runoff
    return (
        FILED
        + "- {type: candidate_filed, at: 2027-07-08, candidate: Dee}\n"
        + "- {type: candidate_filed, at: 2027-07-08, candidate: Eve}\n"
        + '- {type: returns_reported, at: "2027-10-05T21:00", '
        + "counts: {Ann: 900, Bob: 300, Cy: 100, Dee: 100, Eve: 100}}\n"
        + '- {type: canvass_held, at: "2027-10-12T11:00"}\n'
        + "".join(
            f'- {{type: candidate_died, at: "2027-10-13T0{i + 1}:00", candidate: {name}}}\n'
            for i, name in enumerate(deaths)
        )
    )


@pytest.mark.parametrize(
    ("deaths", "standing", "holder"),
    [(("Cy", "Dee"), True, "Eve"), (("Cy",), False, None), (("Cy", "Dee"), False, None)],
    ids=["as-many-stand-as-places", "more-stand-than-places", "default-reading"],
)
def test_a_request_place_tie_left_before_the_lot_is_settled_as_the_reading_says(
    deaths: tuple[str, ...], standing: bool, holder: str | None
) -> None:
    # a tied candidate who left before the drawing (interpretation tied_left_before_lot), the
    # drawing being for the request place (interpretation request_place_tie: lot): among_standing
    # settles the place without a drawing when as many of the tied stand as there are places;
    # otherwise (or by default) the drawing among all the tied is still awaited, the gap said at the
    # death
    reading = ", tied_left_before_lot: among_standing" if standing else ""
    head = f"interpretations: {{request_place_tie: lot{reading}}}"
    r = run(GROUP_RUNOFF.replace("Council", "Council"), _request_place_tie(*deaths), head=head)
    said = [x for x in r.rulings if x.get("gap") == "request-place-tied-candidate-left-before-lot"]
    assert said and said[0].candidates == ("Cy", "Dee", "Eve")
    if holder is None:
        assert r.outcome.pending is not None and r.outcome.pending.value == "lot"
        assert not any(x.kind.value == "runoff_available" for x in r.rulings)
        assert all(x.get("reading") is None for x in said)
    else:
        (available,) = [x for x in r.rulings if x.kind.value == "runoff_available"]
        assert available.candidates == (holder,)
        assert said[-1].get("reading") == "among_standing"
        assert not any(x.kind.value == "decided_by_lot" for x in r.rulings)
