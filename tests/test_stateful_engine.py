"""The engine against generated logs (STYLE: stateful tests for the engine): every event type,
every method, one to three seats, acts of the board at any point. Replay, and replay as of every
moment an event became known, never raise; the invariants of :func:`tests.stateful.check_result`
hold (never more elected and vacant seats than seats; nobody elected who left before unless a
ruling says why; every ruling cites its law).

This is the bounded profile of ``make test``; ``make fuzz`` runs the same machine for longer."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

from tests.stateful import ElectionLog

ElectionLog.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestElectionLog = ElectionLog.TestCase


def test_a_runoff_canvassed_without_runoff_returns_declares_a_result() -> None:
    # G.S. 163-293(e), (f): the transition table has the runoff's canvass with no returns
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
        - {type: canvass_held, at: "2027-11-09T11:00"}
        """,
    )
    assert contest.state in ("decided", "awaiting_lot")
    assert contest.path[-1][:2] == ("runoff_called", "canvass_held")
