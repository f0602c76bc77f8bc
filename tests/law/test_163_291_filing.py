"""G.S. 163-291(2) and (3): when a notice of candidacy may be filed, for how many offices, and
for what fee (163-294.2(c) for nonpartisan contests). Dates: the 2027 cycle of
tests/contingency_cases (filing from noon Friday 07-02 to noon Friday 07-16)."""

from __future__ import annotations

from pathlib import Path

import pytest

import simulator
from simulator.cli.main import main
from tests.contingency_cases import (
    PARTY,
    PLURALITY,
    died,
    event,
    filed,
    one,
    rulings,
    run,
    scenario,
)


def _filing(name: str, at: str, **more: str) -> str:
    return event("candidate_filed", at, candidate=name, **more)


@pytest.mark.parametrize(
    ("at", "accepted"),
    [
        ("2027-07-02T11:59", False),
        ("2027-07-02T12:00", True),
        ("2027-07-16T12:00", True),
        ("2027-07-16T12:01", False),
    ],
)
def test_a_notice_is_accepted_only_from_noon_on_the_first_friday_to_noon_on_the_third(
    at: str, accepted: bool
) -> None:
    # G.S. 163-291(2); an act at the deadline is in time
    others, cy = filed("Ann", "Bob"), _filing("Cy", at)  # the others file on 2027-07-06
    c = run(scenario(PARTY, *((cy, *others) if at < "2027-07-06" else (*others, cy))))
    rejected = [r for r in rulings(c, "filing_rejected") if r["candidates"] == ["Cy"]]
    assert bool(rejected) is not accepted
    if rejected:
        assert rejected[0]["cite"] == "G.S. 163-291(2)"
        assert rejected[0]["reason"] == "outside the filing period"


def test_a_nonpartisan_notice_outside_the_period_cites_163_294_2() -> None:
    # G.S. 163-294.2(c)
    c = run(scenario(PLURALITY + "1", *filed("Ann"), _filing("Bob", "2027-07-19T10:00")))
    assert one(c, "filing_rejected")["cite"] == "G.S. 163-294.2(c)"


def test_the_year_after_a_census_a_district_city_files_in_late_july_and_august() -> None:
    # G.S. 163-291(2)a: noon fourth Monday in July to noon second Friday in August
    text = scenario(
        "seats: 1, method: partisan, stage: primary, party: DEM, district_based: true",
        _filing("Ann", "2031-07-28T12:00"),
        _filing("Bob", "2031-08-08T12:01"),
    )
    c = run(text.replace("year: 2027", "year: 2031"))
    r = one(c, "filing_rejected")
    assert r["candidates"] == ["Bob"] and r["cite"] == "G.S. 163-291(2)a"


def test_a_notice_before_a_reopened_period_opens_or_after_it_closes_is_rejected() -> None:
    # G.S. 163-112(b); day counting (docs/readings.md): notice at 14:00 Monday 08-02 opens noon
    # Tuesday 08-03
    c = run(
        scenario(
            PARTY,
            *filed("Ann", "Bob", "Cy"),
            died("Cy", "2027-08-02T05:00", "2027-08-02T14:00"),
            _filing("Dee", "2027-08-02T15:00"),
            _filing("Eve", "2027-08-06T12:00"),
            _filing("Fay", "2027-08-06T12:01"),
        )
    )
    rejected = {r["candidates"][0]: r for r in rulings(c, "filing_rejected")}
    assert sorted(rejected) == ["Dee", "Fay"]
    assert rejected["Fay"]["cite"] == "G.S. 163-112(b)"


def test_a_notice_on_the_day_a_reopened_period_was_moved_to_is_in_time() -> None:
    # G.S. 163-112(c), 103-5(a): the Saturday close moves to Monday 08-02
    c = run(
        scenario(
            "method: partisan, stage: primary, party: REP, seats: 2",
            *filed("Ann", "Bob", "Cy"),
            died("Cy", "2027-07-27T23:00", "2027-07-28T10:00"),
            _filing("Eve", "2027-08-02T11:00"),
        )
    )
    assert rulings(c, "filing_rejected") == []


def test_a_candidate_may_file_for_only_one_office_unless_the_first_notice_is_withdrawn() -> None:
    # G.S. 163-291(2): a second notice needs the first one withdrawn beforehand
    office = "municipality: City of Example, method: partisan, stage: primary, party: DEM"
    acts = [
        ("candidate_filed", "07-06T10:00", "mayor", "Ann"),
        ("candidate_filed", "07-06T11:00", "mayor", "Bob"),
        ("candidate_filed", "07-07T10:00", "council", "Ann"),
        ("candidate_withdrew", "07-08T10:00", "mayor", "Bob"),
        ("candidate_filed", "07-08T11:00", "council", "Bob"),
    ]
    text = "\n".join(
        [
            "format: electsim/v1",
            "title: one office",
            "contests:",
            f"  - {{id: mayor, office: Mayor, seats: 1, year: 2027, {office}}}",
            f"  - {{id: council, office: Council, seats: 2, year: 2027, {office}}}",
            "events:",
            *(
                f'  - {{type: {t}, at: "2027-{at}", contest: {c}, candidate: {n}}}'
                for t, at, c, n in acts
            ),
        ]
    )
    council = run(text, contest="council")
    r = one(council, "filing_rejected")
    assert r["candidates"] == ["Ann"] and r["cite"] == "G.S. 163-291(2)"
    assert r["reason"] == "one municipal office per election"
    assert rulings(run(text, contest="mayor"), "filing_rejected") == []


def test_a_notice_the_board_could_not_accept_does_not_bar_another_office() -> None:
    # G.S. 163-291(2): only a notice that stands counts; one filed before the period opened
    # was rejected, so the same person may file for another office in the period
    office = "municipality: City of Example, method: partisan, stage: primary, party: DEM"
    text = "\n".join(
        [
            "format: electsim/v1",
            "title: an early notice",
            "contests:",
            f"  - {{id: mayor, office: Mayor, seats: 1, year: 2027, {office}}}",
            f"  - {{id: council, office: Council, seats: 2, year: 2027, {office}}}",
            "events:",
            '  - {type: candidate_filed, at: "2027-06-28T10:00", contest: mayor, candidate: Ann}',
            '  - {type: candidate_filed, at: "2027-07-06T10:00", contest: council, candidate: Ann}',
        ]
    )
    assert one(run(text, contest="mayor"), "filing_rejected")["reason"] == (
        "outside the filing period"
    )
    assert rulings(run(text, contest="council"), "filing_rejected") == []


def test_a_notice_without_the_full_filing_fee_is_rejected() -> None:
    # G.S. 163-291(3): "The fee shall be paid ... at the time notice of candidacy is filed."
    c = run(
        scenario(
            PARTY + ", filing_fee: 20, salary: 12000",
            _filing("Ann", "2027-07-06T10:00", fee="20"),
            _filing("Bob", "2027-07-07T10:00", fee="10"),
        )
    )
    r = one(c, "filing_rejected")
    assert r["candidates"] == ["Bob"] and r["cite"] == "G.S. 163-291(3)"


@pytest.mark.parametrize(
    ("fee", "salary", "ok"),
    [
        ("5", "400", True),  # 1% of the salary is $4: the fee is exactly $5
        ("6", "400", False),
        ("4.99", "12000", False),  # at least $5
        ("120", "12000", True),  # at most 1% of the salary
        ("120.01", "12000", False),
    ],
)
def test_a_filing_fee_outside_its_bounds_for_the_salary_is_invalid_input(
    fee: str, salary: str, ok: bool
) -> None:
    # G.S. 163-291(3): not less than $5 nor more than 1% of the salary (unless 1% is under $5)
    text = scenario(PARTY + f", filing_fee: {fee}, salary: {salary}", *filed("Ann"))
    if ok:
        simulator.parse_scenario(text)
        return
    with pytest.raises(simulator.ScenarioError) as info:
        simulator.parse_scenario(text)
    assert any("filing_fee" in p.path for p in info.value.problems)


def test_the_command_line_exits_2_on_a_filing_fee_over_one_percent_of_the_salary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # G.S. 163-291(3); SPEC section 1: bad input is an error, exit 2
    f = tmp_path / "fee.yaml"
    f.write_text(scenario(PARTY + ", filing_fee: 500, salary: 12000", *filed("Ann")))
    assert main(["replay", str(f)]) == 2
    assert "filing_fee" in capsys.readouterr().err


def test_the_partisan_primary_falls_on_the_second_tuesday_after_labor_day() -> None:
    # G.S. 163-291(1): the dates of primary and election are those of 163-279 (Labor Day 2027
    # is 09-06, so the primary is on 09-14; the election on 11-02)
    from datetime import date

    from simulator.law import calendar as cal
    from simulator.law.vocab import Method

    assert cal.primary_day(2027, Method.PARTISAN) == date(2027, 9, 14)
    assert cal.first_election_day(2027, Method.PARTISAN) == date(2027, 11, 2)
