"""Deadlines as a live list (issue 49, item 2): each listed deadline's state at the replay's
moment, the request deadline listed before any returns, and what no longer applies."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator import load_scenario, parse_scenario, replay
from simulator.law.vocab import DeadlineKind, DeadlineState
from tests.engine.test_properties_engine import logs

SCENARIOS = Path(__file__).parents[2] / "scenarios"
NY = ZoneInfo("America/New_York")


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), st.data())
def test_at_every_cut_each_deadline_is_in_one_state_that_fits_the_cut(
    text: str, data: st.DataObject
) -> None:
    s = parse_scenario(text, fmt="json")
    moments = sorted({ev.known_at for ev in s.events})
    cut = data.draw(st.sampled_from(moments))
    c = replay(s, as_of=cut).contests[0]
    for d in c.deadlines:
        assert d.state in set(DeadlineState)
        if d.state is DeadlineState.UPCOMING:
            assert d.due > cut
        elif d.state in (DeadlineState.MET, DeadlineState.PASSED):
            assert d.due <= cut
        if d.state is DeadlineState.VOID:
            # the ruling that ended it is one the replay of what was known at the cut made
            assert any(r.kind is d.void_because and r.at <= cut for r in c.rulings)
        else:
            assert d.void_because is None
        if d.state is DeadlineState.MET and d.kind is DeadlineKind.RUNOFF_REQUEST:
            assert any(r.kind.value == "runoff_called" for r in c.rulings)


def test_the_runoff_day_after_no_request_in_time_no_longer_applies() -> None:
    # G.S. 163-293(c): Raleigh 2019, no runoff requested
    c = replay(load_scenario(SCENARIOS / "runoff/raleigh-2019-mayor-not-requested.yaml")).contests[
        0
    ]
    day = next(d for d in c.deadlines if d.kind is DeadlineKind.RUNOFF_ELECTION)
    assert day.state is DeadlineState.VOID
    assert day.void_because is not None and day.void_because.value in ("elected", "no_runoff")
    request = next(d for d in c.deadlines if d.kind is DeadlineKind.RUNOFF_REQUEST)
    assert request.state is DeadlineState.PASSED


def test_the_request_deadline_is_listed_before_any_returns() -> None:
    # Cary 2023: the clerk's most urgent date, as electsim calendar prints it
    s = load_scenario(SCENARIOS / "runoff/cary-2023-district-d.yaml")
    c = replay(s, as_of=datetime(2023, 8, 1, tzinfo=NY)).contests[0]
    request = [d for d in c.deadlines if d.kind is DeadlineKind.RUNOFF_REQUEST]
    assert [d.state for d in request] == [DeadlineState.UPCOMING]
    assert request[0].due == datetime(2023, 10, 19, 12, tzinfo=NY)


def test_the_calendar_file_has_the_request_deadline_and_leaves_out_what_no_longer_applies() -> None:
    from simulator.views.ical import deadlines_to_ics

    s = load_scenario(SCENARIOS / "runoff/raleigh-2019-mayor-not-requested.yaml")
    early = replay(s, as_of=datetime(2019, 8, 1, tzinfo=NY)).contests[0]
    ics = deadlines_to_ics([(early.id, early.title, early.deadlines)], name="x").decode()
    assert "runoff_request" in ics and "runoff_election" in ics
    late = replay(s).contests[0]
    ics = deadlines_to_ics([(late.id, late.title, late.deadlines)], name="x").decode()
    assert "runoff_request" in ics and "runoff_election" not in ics


def test_a_tie_for_second_awaiting_its_lot_lists_the_demand_deadline() -> None:
    # G.S. 163-291(6): noon Thursday after the canvass runs while the lot is awaited
    path = "collisions/111b-demand-held-while-the-lot-for-second-place-is-awaited.yaml"
    s = load_scenario(SCENARIOS / path)
    c = replay(s, as_of=datetime(2027, 9, 22, 12, tzinfo=NY)).contests[0]
    assert c.outcome.pending is not None and c.outcome.pending.value == "lot"
    demand = [d for d in c.deadlines if d.kind is DeadlineKind.SECOND_PRIMARY_REQUEST]
    assert [(d.due, d.state) for d in demand] == [
        (datetime(2027, 9, 23, 12, tzinfo=NY), DeadlineState.UPCOMING)
    ]
