"""G.S. 163-182.5(b) and the sections that set each municipal round's canvass: the seventh day
after a primary, a second primary or a runoff city's first election (163-291(5), 163-294(b),
163-293(c)); the tenth day after the November election and the runoff from 2017 (S.L.
2016-109), the seventh before; for the runoff, the seventh day too under interpretation
``runoff_canvass: first_election_seventh_day``."""

from __future__ import annotations

import json
from datetime import date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import simulator
from simulator.input.importer import returns_events
from simulator.law import calendar as cal
from simulator.law.calendar import OfficeCalendar
from simulator.law.cite import statute
from simulator.law.parameters import COUNTY_CANVASS_DAY
from simulator.law.readings import Interpretations, RunoffCanvass
from simulator.law.vocab import DeadlineKind, Method
from tests.cli.inprocess import electsim
from tests.inline import deadline, filed, only, returns, rulings, run

NY = ZoneInfo("America/New_York")
OFFICE = OfficeCalendar()
DK = DeadlineKind


def _canvasses(year: int, method: Method) -> list[datetime]:
    return [d.due for d in cal.statutory_calendar(year, method) if d.kind is DK.CANVASS]


def _at(y: int, m: int, d: int) -> datetime:
    return datetime(y, m, d, 11, tzinfo=NY)


def test_the_2023_canvasses_are_the_state_boards() -> None:
    # The State Board's 2023 list: September 12 -> 19, October 10 -> 17 (the seventh day,
    # 163-291(5), 163-294(b), 163-293(c)), November 7 -> 17 (the tenth, 163-182.5(b))
    assert _canvasses(2023, Method.PARTISAN) == [
        _at(2023, 9, 19),
        _at(2023, 10, 17),
        _at(2023, 11, 17),
    ]
    assert _canvasses(2023, Method.PRIMARY) == [_at(2023, 10, 17), _at(2023, 11, 17)]
    assert _canvasses(2023, Method.RUNOFF) == [_at(2023, 10, 17), _at(2023, 11, 17)]
    assert _canvasses(2023, Method.PLURALITY) == [_at(2023, 11, 17)]


@pytest.mark.parametrize(
    ("year", "november"),
    [
        (2015, _at(2015, 11, 10)),  # the text before S.L. 2016-109: the seventh day, a Tuesday
        (2017, _at(2017, 11, 17)),  # the first municipal year of the tenth day
        (2023, _at(2023, 11, 17)),
        (2025, _at(2025, 11, 14)),
        (2027, _at(2027, 11, 12)),
    ],
)
def test_the_november_canvass_of_each_year(year: int, november: datetime) -> None:
    for method in Method:
        assert _canvasses(year, method)[-1] == november, method


def test_the_deadline_names_the_text_its_day_comes_from() -> None:
    new = cal.round_of(Method.PLURALITY, DK.ELECTION_DAY).canvass_of(date(2027, 11, 2), OFFICE)
    assert new.how == (
        "tenth day after the election of 2027-11-02, 11:00 (G.S. 163-182.5(b) as rewritten by "
        "S.L. 2016-109)"
    )
    old = cal.round_of(Method.PLURALITY, DK.ELECTION_DAY).canvass_of(date(2015, 11, 3), OFFICE)
    assert old.how.endswith("(G.S. 163-182.5(b) as it read before S.L. 2016-109)")
    assert old.how.startswith("seventh day")
    # a municipal section's own seventh day names no other text
    first = cal.round_of(Method.RUNOFF, DK.ELECTION_DAY).canvass_of(date(2027, 10, 5), OFFICE)
    assert (first.how, first.cite) == (
        "seventh day after the election of 2027-10-05, 11:00",
        "G.S. 163-293(c)",
    )


def test_an_even_years_general_election_day_has_the_tenth_day_under_both_texts() -> None:
    # the earlier text of 163-182.5(b): the tenth day after an election held with the November
    # general election of an even year
    before = cal.canvass(date(2014, 11, 4), statute("163-182.5(b)"), OFFICE)
    assert before.due == _at(2014, 11, 14)
    assert "before S.L. 2016-109" in before.how
    assert cal.canvass(date(2022, 11, 8), statute("163-182.5(b)"), OFFICE).due == _at(2022, 11, 18)


def test_the_dated_value_changes_with_2017() -> None:
    assert COUNTY_CANVASS_DAY.at(date(2016, 12, 31)).days == 7
    assert COUNTY_CANVASS_DAY.at(date(2017, 1, 1)).days == 10
    assert COUNTY_CANVASS_DAY.at(date(2099, 11, 3)).days == 10  # the law of today goes on
    assert "S.L. 2016-109" in COUNTY_CANVASS_DAY.at(date(2017, 1, 1)).source


def test_electsim_calendar_lists_the_november_canvass_on_the_law_s_day_every_odd_year() -> None:
    # the tenth day for every odd year from 2017, the seventh for 2011 to 2015
    for year in range(2011, 2052, 2):
        p = electsim("calendar", str(year), "--method", "nonpartisan-plurality", "--json")
        doc = json.loads(p.stdout)
        (found,) = [d for d in doc["deadlines"] if d["kind"] == "canvass"]
        due = datetime.fromisoformat(found["due"]).date()
        days = 10 if year >= 2017 else 7
        nominal = cal.election_day(year) + timedelta(days=days)
        assert due == OFFICE.next_open_day(nominal), year
        if year >= 2017:
            assert due.weekday() == cal.FRI and found["moved_from"] is None


def _expected_days(year: int, method: Method, kind: DeadlineKind, reading: RunoffCanvass) -> int:
    """The days after each election to its canvass, read from the statutes' words."""
    day = cal.round_of(method, kind).day_of(year)
    if year % 2 == 0 and day == cal.election_day(year):
        return 10  # 163-182.5(b), both texts: held with the even year's general election
    municipal = kind in (DK.PRIMARY_DAY, DK.SECOND_PRIMARY) or (
        method is Method.RUNOFF and kind is DK.ELECTION_DAY
    )
    if municipal:
        return 7  # 163-291(5), 163-294(b), 163-293(c)
    if kind is DK.RUNOFF_ELECTION and reading is RunoffCanvass.FIRST_ELECTION_SEVENTH_DAY:
        return 7  # runoff_canvass: first_election_seventh_day: 163-293(e) with (c)
    return 10 if year >= 2017 else 7  # 163-182.5(b), as rewritten by S.L. 2016-109 or before


@given(
    st.integers(min_value=2011, max_value=2051),
    st.sampled_from(list(Method)),
    st.sampled_from(list(RunoffCanvass)),
    st.frozensets(st.dates(date(2011, 9, 1), date(2051, 12, 31)), max_size=3),
)
def test_each_round_is_canvassed_on_the_day_its_reading_says_moved_only_when_closed(
    year: int, method: Method, reading: RunoffCanvass, closed: frozenset[date]
) -> None:
    office = OfficeCalendar(extra_closed=closed)
    for r in cal.CYCLE[method]:
        held = r.day_of(year)
        c = r.canvass_of(held, office, reading)
        nominal = held + timedelta(days=_expected_days(year, method, r.kind, reading))
        assert c.kind is DK.CANVASS and c.due.timetz().replace(tzinfo=None) == time(11)
        # G.S. 103-5(a): moved to the next open day, and only when the office is closed
        assert c.due.date() == office.next_open_day(nominal)
        assert (c.moved_from is None) == office.is_open(nominal)
        if c.moved_from is not None:
            assert c.moved_from.date() == nominal and "103-5(a)" in c.cite


RUNOFF = "{id: seat, office: Council Seat A, seats: 1, method: nonpartisan-runoff, year: 2027}"


def _runoff_log(canvassed: str) -> str:
    return "\n".join(
        [
            filed("Ann", "Bob", "Cy"),
            returns("2027-10-05T21:00", Ann=480, Bob=420, Cy=100),
            '- {type: canvass_held, at: "2027-10-12T11:00"}',
            '- {type: runoff_requested, at: "2027-10-13T09:00", candidate: Bob}',
            returns("2027-11-02T21:00", Ann=480, Bob=520),
            f'- {{type: canvass_held, at: "{canvassed}"}}',
        ]
    )


def test_the_runoff_is_canvassed_on_the_tenth_day_by_default() -> None:
    # 163-182.5(b) as rewritten by S.L. 2016-109: Friday 12 November 2027
    c = run(RUNOFF, _runoff_log("2027-11-12T11:00"))
    assert c.outcome.elected == ("Bob",) and not rulings(c, "no_provision")
    assert deadline(c, "canvass").due == _at(2027, 11, 12)
    # a canvass on the seventh day comes before the day the law fixes
    early = run(RUNOFF, _runoff_log("2027-11-09T11:00"))
    assert only(early, "no_provision").get("gap") == "canvass-before-its-day"
    assert "2027-11-12" in only(early, "no_provision").text


def test_the_other_reading_canvasses_the_runoff_on_the_seventh_day() -> None:
    # interpretation runoff_canvass: first_election_seventh_day: 163-293(e) holds the runoff under
    # the first election's laws, 163-293(c)
    head = "interpretations: {runoff_canvass: first_election_seventh_day}"
    c = run(RUNOFF, _runoff_log("2027-11-09T11:00"), head=head)
    assert c.outcome.elected == ("Bob",) and not rulings(c, "no_provision")
    runoff_canvass = deadline(c, "canvass")
    assert runoff_canvass.due == _at(2027, 11, 9)
    assert runoff_canvass.cite == "G.S. 163-293(c); G.S. 163-293(e)"
    assert "runoff_canvass: first_election_seventh_day" in runoff_canvass.how
    # the first election's canvass is the seventh day under either reading
    firsts = [d for d in c.deadlines if d.kind is DK.CANVASS]
    assert firsts[0].due == _at(2027, 10, 12)


@pytest.mark.parametrize(
    ("method", "kind", "day", "canvass"),
    [
        (Method.PLURALITY, DK.ELECTION_DAY, date(2023, 11, 7), _at(2023, 11, 17)),
        (Method.PLURALITY, DK.ELECTION_DAY, date(2015, 11, 3), _at(2015, 11, 10)),
        (Method.RUNOFF, DK.ELECTION_DAY, date(2023, 10, 10), _at(2023, 10, 17)),
        (Method.RUNOFF, DK.RUNOFF_ELECTION, date(2023, 11, 7), _at(2023, 11, 17)),
        (Method.PRIMARY, DK.PRIMARY_DAY, date(2023, 10, 10), _at(2023, 10, 17)),
        (Method.PARTISAN, DK.PRIMARY_DAY, date(2023, 9, 12), _at(2023, 9, 19)),
        (Method.PARTISAN, DK.SECOND_PRIMARY, date(2023, 10, 10), _at(2023, 10, 17)),
    ],
)
def test_imported_returns_are_canvassed_on_their_rounds_day(
    method: Method, kind: DeadlineKind, day: date, canvass: datetime
) -> None:
    events = returns_events([("P1", [("Ann", 3), ("Bob", 2)])], day, method=method, held=kind)
    assert events[-1]["type"] == "canvass_held"
    assert datetime.fromisoformat(str(events[-1]["at"])) == canvass


def test_the_veterans_day_runoff_stands_only_under_the_seventh_day_reading() -> None:
    # scenarios/collisions: the 2025 runoff canvassed on Tuesday 11 November, the seventh day,
    # Veterans Day (103-5(a) allows the act on the closed day): on time under the runoff_canvass
    # reading, before its day (Friday 14 November) under the default
    path = (
        Path(__file__).resolve().parents[2]
        / "scenarios/collisions/2933e-runoff-canvassed-on-veterans-day-read-as-first-election"
        "-seventh-day.yaml"
    )
    switched = simulator.load_scenario(path)
    assert switched.interpretations.runoff_canvass is RunoffCanvass.FIRST_ELECTION_SEVENTH_DAY
    default = attrs.evolve(switched, interpretations=Interpretations())
    one = simulator.replay(switched).contests[0]
    other = simulator.replay(default).contests[0]
    assert not rulings(one, "no_provision")
    assert only(other, "no_provision").get("gap") == "canvass-before-its-day"
    assert deadline(one, "canvass").due == _at(2025, 11, 12)
    assert deadline(other, "canvass").due == _at(2025, 11, 14)
    assert one.outcome.elected == other.outcome.elected == ("Bob",)
