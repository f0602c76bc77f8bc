"""The engine against generated logs (STYLE: stateful tests for the engine): every event type,
every method, one to three seats, acts of the board at any point. Replay, and replay as of every
moment an event became known, never raise; the invariants of :func:`tests.stateful.check_result`
hold (never more elected and vacant seats than seats; nobody elected who left before unless a
ruling says why; every ruling cites its law).

This is the bounded profile of ``make test``; ``make fuzz`` runs the same machine for longer."""

from __future__ import annotations

import json
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, settings

from simulator.engine.replay import replay
from simulator.input.loader import parse_scenario
from tests.stateful import ElectionLog, check_result

# Derandomized, so that ``make test`` checks the same logs every time; ``make fuzz`` explores.
ElectionLog.TestCase.settings = settings(
    derandomize=True,
    database=None,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestElectionLog = ElectionLog.TestCase
TestElectionLog.pytestmark = [pytest.mark.early]


def test_a_runoff_canvassed_without_runoff_returns_declares_nothing() -> None:
    # G.S. 163-293(e), (f): a canvass declares the count of the runoff's returns; with none at
    # all there is nothing to declare (not a tie at zero asking for a lot): the canvass is
    # ruled to have no effect and the runoff still waits for its votes (issue 36, item 5)
    from tests.inline import run

    contest = run(
        "{id: c, seats: 1, method: nonpartisan-runoff, year: 2027}",
        """
        - {type: candidate_filed, at: 2027-07-06, candidate: Ann}
        - {type: candidate_filed, at: 2027-07-06, candidate: Bob}
        - {type: candidate_filed, at: 2027-07-06, candidate: Cy}
        - {type: returns_reported, at: "2027-10-05T21:00", counts: {Ann: 40, Bob: 35, Cy: 30}}
        - {type: canvass_held, at: "2027-10-12T11:00"}
        - {type: runoff_requested, at: "2027-10-13T09:00", candidate: Bob}
        - {type: canvass_held, at: "2027-11-12T11:00"}
        """,
    )
    assert contest.state == "runoff_called"
    assert contest.path[-1][:2] == ("runoff_request", "runoff_requested")
    last = contest.rulings[-1]
    assert (last.kind.value, last.get("reason")) == ("no_effect", "canvass without returns")
    assert not any(r.kind.value in ("decided_by_lot", "elected") for r in contest.rulings)


# A log the long run of the state machine found (make fuzz): three seats; a leader who withdrew
# after printing (office vacant), a winner who withdrew before the oath (office vacant), a tie for
# the last place awaiting a lot. The result once showed four vacant seats.
VACANT_TWICE = {
    "format": "electsim/v1",
    "title": "a generated log",
    "contests": [
        {
            "id": "c",
            "office": "Council",
            "seats": 3,
            "method": "nonpartisan-plurality",
            "stage": "election",
            "year": 2027,
        }
    ],
    "events": [
        {"type": "candidate_filed", "at": "2027-07-02T13:10:00", "candidate": "Ann"},
        {"type": "candidate_filed", "at": "2027-07-02T13:20:00", "candidate": "Bob"},
        {"type": "candidate_filed", "at": "2027-07-02T13:30:00", "candidate": "Cy"},
        {"type": "canvass_held", "at": "2027-07-02T13:30:00"},
        {"type": "runoff_requested", "at": "2027-07-02T13:30:00", "candidate": "Ann"},
        {"type": "canvass_held", "at": "2027-07-02T13:30:00"},
        {"type": "votes_cast", "at": "2027-07-02T13:30:00", "candidate": "Ann", "count": 0},
        {"type": "runoff_requested", "at": "2027-07-02T13:30:00", "candidate": "Ann"},
        {"type": "candidate_withdrew", "at": "2027-07-02T13:30:00", "candidate": "Cy"},
        {"type": "returns_reported", "at": "2027-07-15T12:00:00", "counts": {"Ann": 13, "Bob": 13}},
        {"type": "lot_drawn", "at": "2027-07-15T12:00:00", "winner": "Ann"},
        {"type": "candidate_filed", "at": "2027-07-15T12:00:00", "candidate": "Eve"},
        {
            "type": "returns_reported",
            "at": "2027-07-16T12:01:00",
            "counts": {
                "Ann": 18,
                "Bob": 18,
                "Cy": 18,
                "Eve": 18,
                "Write-In (Miscellaneous)": 18,
                "Zed (Write-In)": 18,
            },
        },
        {"type": "candidate_withdrew", "at": "2027-07-16T12:01:00", "candidate": "Ann"},
        {
            "type": "votes_cast",
            "at": "2027-07-16T12:01:00",
            "candidate": "Write-In (Miscellaneous)",
            "count": 16,
        },
        {
            "type": "returns_reported",
            "at": "2027-07-16T12:01:00",
            "counts": {"Ann": 14, "Write-In (Miscellaneous)": 14, "Eve": 14},
        },
        {"type": "votes_cast", "at": "2027-07-16T12:01:00", "candidate": "Ann", "count": 0},
        {"type": "oath_taken", "at": "2027-11-01T00:00:00", "candidate": "Ann"},
        {"type": "runoff_requested", "at": "2027-11-01T00:00:00", "candidate": "Ann"},
        {"type": "returns_reported", "at": "2027-11-01T00:00:00", "counts": {"Ann": 12}},
        {"type": "candidate_withdrew", "at": "2027-11-08T11:00:00", "candidate": "Ann"},
        {"type": "runoff_requested", "at": "2027-11-08T11:00:00", "candidate": "Ann"},
        {"type": "canvass_held", "at": "2027-11-08T11:00:00"},
        {"type": "runoff_requested", "at": "2027-11-08T11:00:00", "candidate": "Ann"},
        {"type": "candidate_withdrew", "at": "2027-11-08T11:00:00", "candidate": "Eve"},
        {"type": "candidate_withdrew", "at": "2027-11-08T11:00:00", "candidate": "Ann"},
        {"type": "candidate_withdrew", "at": "2027-11-08T11:00:00", "candidate": "Ann"},
        {"type": "lot_drawn", "at": "2027-11-08T11:00:00", "winner": "Ann"},
    ],
    "interpretations": {
        "early_request": "wait",
        "late_notice": "death_date",
        "harmless_ties": False,
        "group_runoff_ballot": "remaining_and_requesters",
        "write_ins_in_total": False,
        "three_way_tie": "runoff_all",
    },
}


def test_a_winner_who_left_makes_one_seat_vacant_however_often_declared() -> None:
    scenario = parse_scenario(json.dumps(VACANT_TWICE), fmt="json")
    as_of = datetime(2027, 11, 8, 11, tzinfo=ZoneInfo("America/New_York"))
    check_result(scenario, replay(scenario, as_of=as_of))


# A log the long run found: a runoff among three tied for first (interpretation three_way_tie:
# runoff_all), then one of the three withdraws under left_runoff_ballot: other_declared. Both others
# were once declared elected to the one seat.
THREE_ON_THE_RUNOFF_BALLOT = {
    "format": "electsim/v1",
    "title": "a generated log",
    "contests": [
        {
            "id": "c",
            "office": "Council",
            "seats": 1,
            "method": "nonpartisan-runoff",
            "stage": "election",
            "year": 2027,
        }
    ],
    "events": [
        {"type": "candidate_filed", "at": "2027-07-02T13:10:00-04:00", "candidate": "Ann"},
        {"type": "candidate_filed", "at": "2027-07-02T13:20:00-04:00", "candidate": "Bob"},
        {"type": "candidate_filed", "at": "2027-07-02T13:30:00-04:00", "candidate": "Cy"},
        {"type": "candidate_filed", "at": "2027-07-15T12:00:00-04:00", "candidate": "Dee"},
        # (found with these returns dated in July, set aside, and a canvass of no returns read
        # as a tie at zero; a canvass with no returns now declares nothing, so the returns of
        # zeros are dated on the election night to reach the same tie)
        {
            "type": "returns_reported",
            "at": "2027-10-05T21:00:00-04:00",
            "counts": {
                "Ann": 0,
                "Bob": 0,
                "Cy": 0,
                "Dee": 0,
                "Write-In (Miscellaneous)": 0,
                "Zed (Write-In)": 0,
            },
        },
        {"type": "canvass_held", "at": "2027-11-02T00:00:00-04:00"},
        {"type": "filing_opened", "at": "2027-11-02T00:00:00-04:00"},
        {"type": "runoff_requested", "at": "2027-11-02T00:00:00-04:00", "candidate": "Ann"},
        {"type": "filing_opened", "at": "2027-11-02T00:00:00-04:00"},
        {"type": "votes_cast", "at": "2027-11-02T00:00:00-04:00", "candidate": "Ann", "count": 0},
        {"type": "candidate_withdrew", "at": "2027-11-02T00:00:00-04:00", "candidate": "Bob"},
        {"type": "candidate_filed", "at": "2027-11-02T00:00:00-04:00", "candidate": "Ann"},
        {"type": "candidate_filed", "at": "2027-11-02T00:00:00-04:00", "candidate": "Ann"},
        {"type": "returns_reported", "at": "2027-11-02T00:00:00-04:00", "counts": {"Ann": 0}},
        {"type": "returns_reported", "at": "2027-11-02T00:00:00-04:00", "counts": {"Ann": 0}},
        {"type": "recount_held", "at": "2027-11-02T00:00:00-04:00", "counts": {"Ann": 0}},
        {"type": "candidate_withdrew", "at": "2027-11-08T11:00:00-05:00", "candidate": "Ann"},
    ],
    "interpretations": {
        "dead_tied_for_first": "vacant",
        "harmless_ties": False,
        "write_ins_in_total": False,
        "left_runoff_ballot": "other_declared",
        "withdrawn_winner": "vacant",
        "three_way_tie": "runoff_all",
    },
}


def test_a_runoff_among_three_is_held_when_one_of_them_leaves() -> None:
    scenario = parse_scenario(json.dumps(THREE_ON_THE_RUNOFF_BALLOT), fmt="json")
    as_of = datetime(2027, 11, 8, 11, tzinfo=ZoneInfo("America/New_York"))
    result = replay(scenario, as_of=as_of)
    check_result(scenario, result)
    assert result.contests[0].outcome.elected == ()
    assert result.contests[0].state == "runoff_called"


# A log the long run found: a party primary for three seats with five filed; Ann withdraws after
# the ballots are printed (her name waits for the board's reprint determination), then Bob
# withdraws, which leaves three for three seats and cancels the primary; the board then finds
# time to reprint. The engine once reopened filing in a decided contest (an illegal transition).
REPRINT_AFTER_THE_PRIMARY_IS_CANCELLED = {
    "format": "electsim/v1",
    "title": "a generated log",
    "contests": [
        {
            "id": "c",
            "office": "Council",
            "seats": 3,
            "method": "partisan",
            "stage": "primary",
            "year": 2027,
            "party": "DEM",
        }
    ],
    "events": [
        {
            "type": "candidate_filed",
            "at": "2027-07-02T13:10:00-04:00",
            "candidate": "Ann",
            "party": "DEM",
        },
        {
            "type": "candidate_filed",
            "at": "2027-07-02T13:20:00-04:00",
            "candidate": "Bob",
            "party": "DEM",
        },
        {
            "type": "candidate_filed",
            "at": "2027-07-02T13:30:00-04:00",
            "candidate": "Cy",
            "party": "DEM",
        },
        {
            "type": "candidate_filed",
            "at": "2027-07-02T13:40:00-04:00",
            "candidate": "Dee",
            "party": "DEM",
        },
        {
            "type": "candidate_filed",
            "at": "2027-07-02T13:50:00-04:00",
            "candidate": "Eve",
            "party": "DEM",
        },
        {"type": "ballots_printed", "at": "2027-07-15T12:00:00-04:00"},
        {"type": "candidate_withdrew", "at": "2027-07-16T12:01:00-04:00", "candidate": "Ann"},
        {"type": "candidate_filed", "at": "2027-09-13T01:00:00-04:00", "candidate": "Ann"},
        {"type": "canvass_held", "at": "2027-09-13T02:00:00-04:00"},
        {"type": "candidate_withdrew", "at": "2027-09-13T02:00:00-04:00", "candidate": "Bob"},
        {"type": "reprint_determined", "at": "2027-09-13T02:00:00-04:00", "enough_time": True},
    ],
    "interpretations": {
        "dead_tied_for_first": "vacant",
        "harmless_ties": False,
        "write_ins_in_total": False,
        "withdrawn_winner": "vacant",
        "tie_after_primary": "by_size",
        "three_way_tie": "runoff_all",
        "runner_up_left": "no_runoff",
        "request_place_tie": "all_tied",
        "nonpartisan_fee": "required",
    },
}


def test_a_reprint_determination_after_the_primary_is_cancelled_changes_no_ballot() -> None:
    scenario = parse_scenario(json.dumps(REPRINT_AFTER_THE_PRIMARY_IS_CANCELLED), fmt="json")
    result = replay(scenario)
    check_result(scenario, result)
    contest = result.contests[0]
    assert contest.state == "decided"
    assert contest.outcome.nominated == ("Cy", "Dee", "Eve")
    kinds = [r.kind.value for r in contest.rulings]
    assert "filing_reopened" not in kinds and kinds[-1] == "name_remains"
    assert "decided before the board found time to reprint" in contest.rulings[-1].text
