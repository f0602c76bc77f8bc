"""The statutory calendar: G.S. 163-279 days, filing periods, canvasses and G.S. 103-5 moves."""

from __future__ import annotations

import json
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.law import calendar as cal
from simulator.law.calendar import OfficeCalendar
from simulator.law.cite import statute
from simulator.law.readings import RunoffCanvass
from simulator.law.vocab import DeadlineKind, Method
from tests.cli.inprocess import electsim

NY = ZoneInfo("America/New_York")
OFFICE = OfficeCalendar()
years = st.integers(min_value=1975, max_value=2100)
days = st.dates(min_value=date(1975, 1, 1), max_value=date(2100, 12, 31))


def _kinds(year: int, method: Method, **kw: bool) -> dict[str, list[datetime]]:
    out: dict[str, list[datetime]] = {}
    for d in cal.statutory_calendar(year, method, calendar=OFFICE, **kw):
        out.setdefault(d.kind.value, []).append(d.due)
    return out


@pytest.mark.parametrize(
    ("year", "opens", "closes", "primary", "first", "november"),
    [
        # Published State Board calendars (see ../shared/data/README.md)
        (
            2019,
            date(2019, 7, 5),
            date(2019, 7, 19),
            date(2019, 9, 10),
            date(2019, 10, 8),
            date(2019, 11, 5),
        ),
        (
            2023,
            date(2023, 7, 7),
            date(2023, 7, 21),
            date(2023, 9, 12),
            date(2023, 10, 10),
            date(2023, 11, 7),
        ),
    ],
)
def test_the_published_calendars_of_2019_and_2023_match(
    year: int, opens: date, closes: date, primary: date, first: date, november: date
) -> None:
    partisan = _kinds(year, Method.PARTISAN)
    assert partisan["filing_opens"] == [datetime.combine(opens, time(12), NY)]
    assert partisan["filing_closes"] == [datetime.combine(closes, time(12), NY)]
    assert partisan["primary_day"][0].date() == primary
    assert partisan["election_day"][0].date() == november
    runoff = _kinds(year, Method.RUNOFF)
    assert runoff["election_day"][0].date() == first
    assert runoff["runoff_election"][0].date() == november
    assert _kinds(year, Method.PRIMARY)["primary_day"][0].date() == first


def test_the_2027_runoff_calendar_of_the_contract_examples() -> None:
    # G.S. 163-279(a)(4), 163-293(c)
    k = _kinds(2027, Method.RUNOFF)
    assert k["filing_opens"][0] == datetime(2027, 7, 2, 12, tzinfo=NY)
    assert k["filing_closes"][0] == datetime(2027, 7, 16, 12, tzinfo=NY)
    assert k["election_day"][0].date() == date(2027, 10, 5)
    assert k["canvass"][0] == datetime(2027, 10, 12, 11, tzinfo=NY)
    assert k["runoff_request"][0] == datetime(2027, 10, 14, 12, tzinfo=NY)
    assert k["runoff_election"][0].date() == date(2027, 11, 2)


def test_a_filing_opening_on_independence_day_moves_to_monday() -> None:
    # G.S. 103-5(a): 2025's first Friday in July is July 4
    opens, _ = cal.filing_period(2025, calendar=OFFICE)
    assert opens.due == datetime(2025, 7, 7, 12, tzinfo=NY)
    assert opens.moved_from == datetime(2025, 7, 4, 12, tzinfo=NY)
    assert opens.why_moved is not None and "Independence Day" in opens.why_moved


def test_a_canvass_on_veterans_day_moves_to_the_next_open_day() -> None:
    # 2003, under 163-182.5(b) before S.L. 2016-109: election Nov 4, the seventh day is Nov 11
    # (Veterans Day)
    c = cal.canvass(date(2003, 11, 4), statute("163-182.5(b)"), OFFICE)
    assert c.due == datetime(2003, 11, 12, 11, tzinfo=NY)
    assert c.moved_from is not None and c.moved_from.date() == date(2003, 11, 11)
    # 2025: the tenth day, Friday Nov 14, is open; the seventh (interpretation runoff_canvass:
    # first_election_seventh_day) is Veterans Day
    assert cal.canvass(date(2025, 11, 4), statute("163-182.5(b)"), OFFICE).moved_from is None
    seventh = cal.canvass(
        date(2025, 11, 4),
        statute("163-182.5(b)"),
        OFFICE,
        runoff=RunoffCanvass.FIRST_ELECTION_SEVENTH_DAY,
    )
    assert seventh.due == datetime(2025, 11, 12, 11, tzinfo=NY)


def test_district_based_cities_file_later_in_the_year_after_a_census() -> None:
    # G.S. 163-291(2)a, 163-294.2(c)(1): fourth Monday in July to second Friday in August
    opens, closes = cal.filing_period(2021, calendar=OFFICE, district_based=True)
    assert opens.due == datetime(2021, 7, 26, 12, tzinfo=NY)
    assert closes.due == datetime(2021, 8, 13, 12, tzinfo=NY)
    regular, _ = cal.filing_period(2021, calendar=OFFICE, district_based=False)
    assert regular.due == datetime(2021, 7, 2, 12, tzinfo=NY)


def test_the_second_year_after_a_census_files_with_the_county_offices() -> None:
    # G.S. 163-291(2)b (163-106.2 modeled: December of the year before)
    opens, closes = cal.filing_period(2022, calendar=OFFICE, method=Method.PARTISAN)
    assert opens.due == datetime(2021, 12, 6, 12, tzinfo=NY)
    assert closes.due == datetime(2021, 12, 17, 12, tzinfo=NY)
    assert "163-291(2)b" in opens.cite


def test_a_nonpartisan_contest_of_the_second_year_after_a_census_cites_163_294_2() -> None:
    # G.S. 163-294.2(c)(2), not 163-291(2)b: 163-291 governs partisan contests only (the text of
    # 163-294.2(c)(2) is cut off in the sources; its dates are read as the partisan rule's)
    for method in (Method.PLURALITY, Method.PRIMARY, Method.RUNOFF):
        opens, closes = cal.filing_period(2022, calendar=OFFICE, method=method)
        assert closes.due == datetime(2021, 12, 17, 12, tzinfo=NY)
        assert opens.cite == closes.cite == "G.S. 163-294.2(c)(2)"
        assert "cut off" in opens.how


def test_scenario_office_closures_move_deadlines_too() -> None:
    closed = OfficeCalendar(extra_closed=frozenset({date(2027, 10, 14)}))
    d = cal.noon_thursday_after(
        DeadlineKind.RUNOFF_REQUEST, date(2027, 10, 12), statute("163-293(c)"), closed
    )
    assert d.due == datetime(2027, 10, 15, 12, tzinfo=NY)
    assert d.why_moved == "2027-10-14 office closed (scenario office_closed)"


@given(years)
def test_election_days_fall_on_the_statutory_weekdays(year: int) -> None:
    nov = cal.election_day(year)
    assert nov.weekday() == cal.TUE and nov.month == 11 and 2 <= nov.day <= 8
    fourth = cal.fourth_tuesday_before_election(year)
    assert fourth.weekday() == cal.TUE and (nov - fourth).days == 28
    primary = cal.partisan_primary_day(year)
    assert primary.weekday() == cal.TUE and 8 <= (primary - cal.labor_day(year)).days <= 8


@given(years, st.sampled_from(list(Method)), st.booleans())
def test_every_statutory_date_is_well_formed(year: int, method: Method, district: bool) -> None:
    ds = cal.statutory_calendar(year, method, calendar=OFFICE, district_based=district)
    opens, closes = ds[0], ds[1]
    assert opens.due < closes.due
    for d in ds:
        assert d.due.tzinfo is not None and d.cite
        if d.moved_from is not None:
            # no date moves earlier, and a moved date is an open day
            assert d.due > d.moved_from
            assert OFFICE.is_open(d.due.date())
            assert not OFFICE.is_open(d.moved_from.date())
        if d.kind in (
            DeadlineKind.FILING_OPENS,
            DeadlineKind.FILING_CLOSES,
            DeadlineKind.RUNOFF_REQUEST,
        ):
            local = d.due.astimezone(NY)
            assert (local.hour, local.minute) == (12, 0)


@given(days)
def test_the_next_open_day_is_open_and_never_earlier(d: date) -> None:
    n = OFFICE.next_open_day(d)
    assert n >= d and OFFICE.is_open(n)
    assert all(not OFFICE.is_open(d + timedelta(days=i)) for i in range((n - d).days))


@given(days)
def test_noon_deadlines_are_at_noon_local_time_across_dst(d: date) -> None:
    dl = cal.noon_thursday_after(DeadlineKind.RUNOFF_REQUEST, d, statute("163-293(c)"), OFFICE)
    local = dl.due.astimezone(NY)
    assert (local.hour, local.minute, local.second) == (12, 0, 0)
    assert dl.due.utcoffset() in (timedelta(hours=-4), timedelta(hours=-5))
    original = dl.moved_from or dl.due
    assert original.date().weekday() == cal.THU and 1 <= (original.date() - d).days <= 7


@given(days, st.integers(min_value=1, max_value=10))
def test_end_of_day_deadlines_are_the_last_second_of_an_open_day(d: date, n: int) -> None:
    dl = cal.end_of_nth_day_after(DeadlineKind.TIE_WITHDRAWAL, d, n, statute("163-293(d)"), OFFICE)
    local = dl.due.astimezone(NY)
    assert local.time() == time(23, 59, 59)
    assert local.date() >= d + timedelta(days=n) and OFFICE.is_open(local.date())


@settings(max_examples=200)
@given(
    st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2090, 1, 1)),
    st.sampled_from([3, 5]),
)
def test_a_reopened_period_opens_at_noon_on_an_open_day_and_lasts_its_days(
    notice: datetime, n: int
) -> None:
    # day counting (docs/readings.md)
    at = notice.replace(tzinfo=NY)
    opens, close = cal.reopened_period(at, n, statute("163-294.4(b)"), OFFICE)
    assert opens >= at or opens.date() == at.date()
    assert opens.astimezone(NY).time() == time(12) and OFFICE.is_open(opens.date())
    assert close.due >= opens + timedelta(days=n) - timedelta(hours=1)  # DST-safe
    assert close.due.astimezone(NY).time() == time(12)


def test_the_calendar_command_prints_json_with_citations() -> None:
    p = electsim("calendar", "2027", "--method", "nonpartisan-runoff", "--json", check=True)
    doc = json.loads(p.stdout)
    assert doc["year"] == 2027 and doc["method"] == "nonpartisan-runoff"
    kinds = {d["kind"]: d for d in doc["deadlines"]}
    assert kinds["runoff_election"]["due"].startswith("2027-11-02")
    assert kinds["election_day"]["cite"] == "G.S. 163-279(a)(4)"


def test_the_calendar_command_rejects_an_unknown_method_with_exit_2() -> None:
    p = electsim(
        "calendar",
        "2027",
        "--method",
        "x",
    )
    assert p.returncode == 2 and "expected one of" in p.stderr and "Traceback" not in p.stderr


def test_the_precomputed_closure_table_is_the_holidays_package_schedule_in_every_year() -> None:
    # G.S. 103-5(a): the office is closed on the State's holidays; the table must agree with
    # the package it was written from, year by year (regenerate: tests/closures_source.py)
    import holidays

    from simulator.law.closures import FIRST, LAST, closures

    for year in range(FIRST, LAST + 1):
        expected = {
            d: str(n) for d, n in holidays.country_holidays("US", subdiv="NC", years=year).items()
        }
        assert closures(year) == expected, f"{year}: regenerate with tests/closures_source.py"


def test_a_year_outside_the_table_asks_the_holidays_package() -> None:
    from simulator.law.closures import FIRST, closures

    assert date(FIRST - 10, 12, 25) in closures(FIRST - 10)


ZONES = ["America/New_York", "America/Chicago", "Europe/Dublin", "Australia/Lord_Howe", "UTC"]


# days the clocks change in one of ZONES (most of their changes fall between 0:00 and 4:00)
CHANGES = [
    date(2027, 3, 14),
    date(2027, 11, 7),
    date(2006, 4, 2),
    date(2006, 10, 29),
    date(2027, 3, 28),
    date(2027, 10, 31),
    date(2027, 4, 4),
    date(2027, 10, 3),
]
any_day = st.tuples(
    st.dates(min_value=date(1970, 1, 1), max_value=date(2100, 12, 31)),
    st.times().map(lambda t: t.replace(microsecond=0)),
)
change_day = st.tuples(
    st.sampled_from(CHANGES),
    st.times(max_value=time(4)).map(lambda t: t.replace(second=0, microsecond=0)),
)


@settings(max_examples=400)
@given(st.one_of(any_day, change_day), st.sampled_from(ZONES))
def test_a_local_time_is_placed_as_pendulum_places_it(moment: tuple[date, time], zone: str) -> None:
    d, t = moment
    # pendulum is the reference for wall times at a change of clocks (skipped or repeated)
    import pendulum

    got = cal.local(d, t, zone)
    p = pendulum.datetime(d.year, d.month, d.day, t.hour, t.minute, t.second, tz=zone)
    # (a time at a change of clocks is kept with its fixed offset: simulator.law.instants)
    assert (got.date(), got.time()) == (d, t)
    utc = ZoneInfo("UTC")
    assert got.astimezone(utc) == datetime.fromtimestamp(p.timestamp(), utc)


@pytest.mark.parametrize(
    ("d", "t", "offset_hours"),
    [
        (date(2027, 3, 14), time(2, 30), -5),  # skipped: 2:30 EST, the moment shown as 3:30 EDT
        (date(2027, 11, 7), time(1, 30), -5),  # repeated: the second one
        (date(2027, 6, 1), time(12, 0), -4),
    ],
)
def test_local_times_at_a_change_of_clocks(d: date, t: time, offset_hours: int) -> None:
    got = cal.local(d, t, NY)
    assert got.astimezone(ZoneInfo("UTC")) - datetime(
        d.year, d.month, d.day, t.hour, t.minute, tzinfo=ZoneInfo("UTC")
    ) == timedelta(hours=-offset_hours)


@pytest.mark.parametrize("kind", [0, 1, 2])
def test_a_party_s_days_cite_163_279_as_163_291_1_applies_it(kind: int) -> None:
    # G.S. 163-291(1): a party's municipal primary, second primary and election are held on the
    # days of 163-279(a)(2); the other methods' days are 163-279's own
    day = cal.CYCLE[Method.PARTISAN][kind].deadline(2027, "America/New_York")
    assert day.cites == (statute("163-279(a)(2)"), statute("163-291(1)"))
    plurality = cal.CYCLE[Method.PLURALITY][0].deadline(2027, "America/New_York")
    assert plurality.cites == (statute("163-279(a)(1)"),)


@pytest.mark.parametrize("year", [2025, 2031])
def test_a_filing_opening_moved_off_july_4_opens_at_noon_or_at_the_start_of_business(
    year: int,
) -> None:
    # Filing that opens on a closed day: the first Friday in July is July 4; G.S. 103-5(a) moves the
    # opening to Monday July 7, at noon by default, at 8:00 a.m. (the start of the office's
    # business) under filing_opening: start_of_business; the close stays at noon
    from simulator.law.readings import FilingOpening

    office = cal.OfficeCalendar()
    noon, closes = cal.filing_period(year, calendar=office)
    early, closes_too = cal.filing_period(
        year, calendar=office, opening=FilingOpening.START_OF_BUSINESS
    )
    ny = ZoneInfo("America/New_York")
    assert noon.moved_from == datetime(year, 7, 4, 12, 0, tzinfo=ny)
    assert noon.due == datetime(year, 7, 7, 12, 0, tzinfo=ny)
    assert early.due == datetime(year, 7, 7, 8, 0, tzinfo=ny)
    assert early.moved_from == noon.moved_from and "8:00 a.m." in early.how
    assert closes == closes_too and closes.due.time() == time(12, 0)


def test_an_opening_on_an_open_day_stays_at_noon_under_either_reading() -> None:
    from simulator.law.readings import FilingOpening

    office = cal.OfficeCalendar()
    for opening in FilingOpening:
        opens, _ = cal.filing_period(2027, calendar=office, opening=opening)
        assert opens.moved_from is None and opens.due.time() == time(12, 0)


def test_the_party_withdrawal_deadline_is_the_third_business_day_before_filing_closes() -> None:
    # G.S. 163-106(e): close of business (5:00 pm) on the third business day before the right to
    # file expires; weekends, State holidays and the scenario's closed days are not business days
    office = cal.OfficeCalendar()
    closes = cal.local(date(2027, 7, 16), cal.NOON)  # Friday
    assert cal.party_withdrawal_deadline(closes, office) == cal.local(
        date(2027, 7, 13), time(17, 0)
    )
    closed = cal.OfficeCalendar(extra_closed=[date(2027, 7, 14)])
    assert cal.party_withdrawal_deadline(closes, closed) == cal.local(
        date(2027, 7, 12), time(17, 0)
    )
    # a Monday close counts back over the weekend: Friday, Thursday, Wednesday
    monday = cal.local(date(2027, 7, 19), cal.NOON)
    assert cal.party_withdrawal_deadline(monday, office).date() == date(2027, 7, 14)
    # a State holiday is not a business day (Independence Day 2025 is a Friday)
    after_july_4 = cal.local(date(2025, 7, 8), cal.NOON)  # Tuesday
    assert cal.party_withdrawal_deadline(after_july_4, office).date() == date(2025, 7, 2)
