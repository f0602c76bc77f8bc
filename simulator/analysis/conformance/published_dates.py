"""The calendar check: the dates the State Board published and the dates the results files imply
(each file's ``YYYYMMDD``: September = partisan primary, October = runoff-method first election
and nonpartisan primary, November = general election), against :mod:`simulator.law.calendar`."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import attrs

from simulator.analysis.conformance.data import file_day, files_by_month
from simulator.law.calendar import (
    OfficeCalendar,
    election_day,
    filing_period,
    first_election_day,
    fourth_tuesday_before_election,
    primary_day,
    statutory_calendar,
)
from simulator.law.vocab import Method


@attrs.frozen
class CalendarCheck:
    """One date the data or the State Board publishes, against :mod:`simulator.law.calendar`."""

    what: str
    source: str
    published: date  # a day, or a moment (a datetime) for the filing period's noon
    computed: date
    rule: str

    @property
    def agree(self) -> bool:
        return self.published == self.computed


_NY = ZoneInfo("America/New_York")
#: The State Board's published municipal calendars (data README): year -> dates. Filing opens
#: and closes at noon: those are moments, compared with the calendar's to the minute.
PUBLISHED: dict[int, dict[str, date]] = {
    2019: {
        "filing_opens": datetime(2019, 7, 5, 12, 0, tzinfo=_NY),
        "filing_closes": datetime(2019, 7, 19, 12, 0, tzinfo=_NY),
        "partisan_primary": date(2019, 9, 10),
        "first_election": date(2019, 10, 8),
        "november": date(2019, 11, 5),
    },
    2023: {
        "filing_opens": datetime(2023, 7, 7, 12, 0, tzinfo=_NY),
        "filing_closes": datetime(2023, 7, 21, 12, 0, tzinfo=_NY),
        "partisan_primary": date(2023, 9, 12),
        "first_election": date(2023, 10, 10),
        "november": date(2023, 11, 7),
    },
}


def _computed(year: int, what: str) -> list[tuple[date, str]]:
    """What :mod:`simulator.law.calendar` says of one kind of date: (date, function and rule) for
    every function that gives it."""
    out: list[tuple[date, str]] = []
    if what in ("filing_opens", "filing_closes"):
        for method in (Method.RUNOFF, Method.PARTISAN):
            opens, closes = filing_period(year, calendar=OfficeCalendar(), method=method)
            d = opens if what == "filing_opens" else closes
            out.append((d.due, f"filing_period({method.value}): {d.how}, {d.cite}"))
        return out
    if what == "partisan_primary":
        return [
            (
                primary_day(year, Method.PARTISAN) or date.min,
                "primary_day(partisan): second Tuesday after Labor Day, G.S. 163-279(a)(2)",
            )
        ]
    if what == "first_election":
        rule = "fourth Tuesday before the November election"
        out += [
            (
                first_election_day(year, Method.RUNOFF),
                f"first_election_day(nonpartisan-runoff): {rule}, G.S. 163-279(a)(4)",
            ),
            (
                primary_day(year, Method.PRIMARY) or date.min,
                f"primary_day(nonpartisan-primary): {rule}, G.S. 163-279(a)(3)",
            ),
            (fourth_tuesday_before_election(year), f"fourth_tuesday_before_election: {rule}"),
        ]
        if year % 10 == 1:  # the year after a census: district-based cities file later
            days = [
                d.due.date()
                for d in statutory_calendar(year, Method.RUNOFF, district_based=True)
                if d.kind.value == "election_day"
            ]
            out.append(
                (
                    days[0] if days else date.min,
                    "statutory_calendar(nonpartisan-runoff, district_based): a census year "
                    "moves only the filing period (G.S. 163-294.2(c)(1)), not the election",
                )
            )
        return out
    return [
        (
            election_day(year),
            "election_day: Tuesday after the first Monday in November, G.S. 163-279(a)",
        )
    ]


_MONTHS = {9: "partisan_primary", 10: "first_election", 11: "november"}


def calendar_checks(folder: str | Path | None = None) -> list[CalendarCheck]:
    """Every published date (data README) and every results file's date (its ``YYYYMMDD``:
    September = partisan primary, October = first election of the runoff method and
    nonpartisan primary, November = general election) against the calendar functions."""
    out: list[CalendarCheck] = []
    for year, dates in PUBLISHED.items():
        for what, published in dates.items():
            for computed, rule in _computed(year, what):
                out.append(
                    CalendarCheck(
                        f"{year} {what.replace('_', ' ')}",
                        "State Board press release (data README)",
                        published,
                        computed,
                        rule,
                    )
                )
    if folder is not None:
        for (year, month), path in sorted(files_by_month(Path(folder)).items()):
            kind = _MONTHS.get(month)
            if kind is None:
                continue
            for computed, rule in _computed(year, kind):
                out.append(
                    CalendarCheck(
                        f"{year} {kind.replace('_', ' ')}",
                        path.name,
                        file_day(path),
                        computed,
                        rule,
                    )
                )
    return out
