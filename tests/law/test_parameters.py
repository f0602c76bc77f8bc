"""Dated parameters: the law in force on the contest's day (G.S. 163-111(a) before and after
S.L. 2017-214), pinned values, and the scenario field that pins them."""

from __future__ import annotations

import signal
from datetime import date, timedelta
from fractions import Fraction
from types import FrameType

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

import simulator
from simulator.input.loader import scenario_to_dict
from simulator.law.parameters import PARAMETERS, in_force, parse_value
from simulator.model.errors import ScenarioError
from tests.inline import filed, only, returns, rulings, run, scenario

SP = "substantial_plurality"


def mayor(year: int) -> str:
    return (
        "{id: p, office: Mayor, seats: 1, method: partisan, stage: primary, party: REP, "
        f"year: {year}}}"
    )


def primary(year: int, night: str, canvass: str, **counts: int) -> str:
    return (
        f"{filed(*counts, at=f'{year}-07-10', party='REP')}\n{returns(night, **counts)}\n"
        f'- {{type: canvass_held, at: "{canvass}"}}'
    )


# Ann 35%: over today's 30%, short of the 40% in force before 2018
SHARES = {"Ann": 350, "Bob": 330, "Cy": 320}
P2015 = primary(2015, "2015-09-15T21:00", "2015-09-22T11:00", **SHARES)
P2019 = primary(2019, "2019-09-10T21:00", "2019-09-17T11:00", **SHARES)


def test_the_forty_percent_threshold_holds_through_2017() -> None:
    # G.S. 163-111(a)(1) before S.L. 2017-214: 40% of 1000 = 400; Ann's 350 is short of it
    c = run(mayor(2015), P2015, as_of="2015-09-23T12:00")
    t = only(c, "majority_threshold")
    assert (t.get("threshold"), t.get("parameter")) == ("400", "0.4")
    assert "S.L. 2017-214" in str(t.get("source")) and "40%" in t.text
    assert only(c, "runoff_available").candidates == ("Bob",)


def test_the_thirty_percent_threshold_holds_from_2018() -> None:
    # G.S. 163-111(a)(1) as amended by S.L. 2017-214: 30% of 1000 = 300; Ann is nominated
    c = run(mayor(2019), P2019)
    t = only(c, "majority_threshold")
    assert (t.get("threshold"), t.get("parameter")) == ("300", "0.3")
    assert "in force from 1 January 2018" in str(t.get("source"))
    assert c.outcome.nominated == ("Ann",)
    assert not rulings(c, "runoff_available")


def test_the_change_takes_effect_on_new_years_day_2018() -> None:
    # S.L. 2017-214: the 30% text is in force from 1 January 2018
    p = PARAMETERS[SP]
    assert p.at(date(2017, 12, 31)).value == Fraction(2, 5)
    assert p.at(date(2018, 1, 1)).value == Fraction(3, 10)


def test_current_law_is_the_default_for_future_years() -> None:
    assert in_force(SP, date(2099, 9, 8)).value == Fraction(3, 10)


def test_a_scenario_can_pin_the_old_value_and_the_ruling_names_the_pin() -> None:
    # What the 2019 primary would have come to under the pre-2018 text
    c = run(mayor(2019), P2019, head="parameters: {substantial_plurality: 40%}")
    t = only(c, "majority_threshold")
    assert t.get("threshold") == "400"
    assert "pinned by the scenario" in str(t.get("source"))
    assert only(c, "runoff_available").candidates == ("Bob",)


@pytest.mark.parametrize("written", ["40%", "2/5", "0.4", 0.4])
def test_a_pinned_value_can_be_written_as_percent_fraction_or_decimal(written: object) -> None:
    assert parse_value(written) == Fraction(2, 5)


@pytest.mark.parametrize("bad", ["[0.3]", "130%", "0", "abc", "true", "1/0"])
def test_a_bad_pinned_value_is_one_problem_naming_the_field(bad: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        scenario(mayor(2019), P2019, head=f"parameters: {{substantial_plurality: {bad}}}")
    (problem,) = caught.value.problems
    assert "parameters.substantial_plurality" in str(problem)
    assert "strictly between 0 and 1" in str(problem)


@pytest.mark.parametrize("bad", ["1e999999999", "1e-999999999", "1.0e-999999999", "0.1e-200"])
def test_a_value_whose_exponent_would_write_out_a_billion_digits_is_refused_at_once(
    bad: str,
) -> None:
    # As a fraction, 1e-999999999 has a denominator of a billion digits: reading it hung.
    def stop(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(bad)

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(20)
    try:
        with pytest.raises(ScenarioError) as caught:
            scenario(mayor(2019), P2019, head=f"parameters: {{substantial_plurality: {bad}}}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    (problem,) = caught.value.problems
    assert problem.path == "parameters.substantial_plurality"
    assert "at most 100 decimal places" in problem.expected


def test_a_value_of_many_decimal_places_within_the_bound_is_read_exactly() -> None:
    assert parse_value("0." + "3" * 100) == Fraction(int("3" * 100), 10**100)
    assert parse_value("4e-1") == Fraction(2, 5)


def test_an_unknown_parameter_is_a_problem() -> None:
    with pytest.raises(ScenarioError) as caught:
        scenario(mayor(2019), P2019, head="parameters: {majority: 50%}")
    assert "parameters.majority" in str(caught.value.problems[0])


def test_a_pinned_value_survives_the_round_trip_to_yaml() -> None:
    s = scenario(mayor(2019), P2019, head="parameters: {substantial_plurality: 1/3}")
    again = simulator.parse_scenario(yaml.safe_dump(scenario_to_dict(s)))
    assert again.parameters == s.parameters == ((SP, Fraction(1, 3)),)


@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2200, 1, 1)))
def test_the_value_in_force_is_the_latest_enacted_on_or_before_the_day(day: date) -> None:
    p = PARAMETERS[SP]
    found = p.at(day)
    assert found.since <= day or found is p.values[0]
    assert all(not (found.since < v.since <= day) for v in p.values)
    assert p.at(day + timedelta(days=1)).since >= found.since  # never goes back in time


@given(
    st.lists(st.integers(min_value=0, max_value=500), min_size=3, max_size=5),
    st.sampled_from([Fraction(1, 5), Fraction(3, 10), Fraction(1, 3), Fraction(2, 5)]),
    st.sampled_from([Fraction(1, 10), Fraction(1, 20)]),
)
def test_a_lower_threshold_never_calls_for_a_second_primary_a_higher_one_did_not(
    votes: list[int], share: Fraction, lower_by: Fraction
) -> None:
    # G.S. 163-111(a)(1): a substantial plurality is more than the share of the total; lowering
    # the share (as S.L. 2017-214 did) can only settle more primaries without a second one
    counts = {f"C{i}": v for i, v in enumerate(votes)}
    log = primary(2019, "2019-09-10T21:00", "2019-09-17T11:00", **counts)

    def second_primary_possible(value: Fraction) -> bool:
        head = f"parameters: {{substantial_plurality: {value.numerator}/{value.denominator}}}"
        return bool(rulings(run(mayor(2019), log, head=head), "runoff_available"))

    if not second_primary_possible(share):
        assert not second_primary_possible(share - lower_by)
