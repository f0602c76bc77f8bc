"""Deadlines as iCalendar files (``calendar --ics``, ``replay --ics``), read back with two
independent parsers: ``icalendar`` and ``vobject``."""

from __future__ import annotations

import io
import subprocess
import sys
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest
import vobject

from simulator import OfficeCalendar, load_scenario, replay, statutory_calendar
from simulator.cli.main import main
from simulator.law.vocab import Method

ROOT = Path(__file__).resolve().parents[2]
NY = ZoneInfo("America/New_York")
CARY = ROOT / "scenarios" / "runoff" / "cary-2023-district-d.yaml"


def ics_of(*argv: str) -> bytes:
    p = subprocess.run([sys.executable, "-m", "simulator", *argv], capture_output=True)
    assert p.returncode == 0, p.stderr.decode()
    return p.stdout


@pytest.fixture(scope="module")
def calendar_2027() -> bytes:
    return ics_of("calendar", "2027", "--method", "nonpartisan-runoff", "--ics")


def test_the_calendar_parses_with_icalendar_one_event_per_deadline(calendar_2027: bytes) -> None:
    cal = icalendar.Calendar.from_ical(calendar_2027)
    events = list(cal.walk("VEVENT"))
    expected = statutory_calendar(2027, Method.RUNOFF, calendar=OfficeCalendar())
    assert len(events) == len(expected) > 3
    assert len({str(e["UID"]) for e in events}) == len(events)
    for d in expected:
        (ev,) = (
            e
            for e in events
            if str(e["CATEGORIES"].cats[0]) == d.kind.value
            and str(e.decoded("DTSTART"))[:10] == d.due.date().isoformat()
        )
        start = ev.decoded("DTSTART")
        if d.all_day:
            # G.S. 163-279(a)(4): election day is a day, an all-day event
            assert type(start) is date and start == d.due.date()
        else:
            assert start == d.due and start.utcoffset() == d.due.astimezone(NY).utcoffset()
            assert str(start.tzinfo) in ("America/New_York", str(NY))
        text = str(ev["DESCRIPTION"])
        assert d.cite in text and d.how in text
        assert str(ev["URL"]).startswith("https://www.ncleg.gov/")
    assert cal.walk("VTIMEZONE"), "times in America/New_York carry their timezone definition"


def test_the_calendar_parses_with_vobject_too(calendar_2027: bytes) -> None:
    cal = vobject.readOne(io.StringIO(calendar_2027.decode("utf-8")))
    events = cal.vevent_list
    expected = statutory_calendar(2027, Method.RUNOFF, calendar=OfficeCalendar())
    assert len(events) == len(expected)
    starts = sorted(e.dtstart.value for e in events if isinstance(e.dtstart.value, datetime))
    moments = sorted(d.due for d in expected if not d.all_day)
    assert starts == moments
    assert all(
        e.summary.value.endswith("2027 municipal calendar, nonpartisan-runoff") for e in events
    )


def test_a_replay_writes_each_contest_deadline_with_how_it_moved(tmp_path: Path) -> None:
    # G.S. 103-5: a request deadline on a day the office is closed moves to the next open day
    path = ROOT / "scenarios" / "runoff" / "request-deadline-office-closed.yaml"
    data = ics_of("replay", str(path), "--ics")
    result = replay(load_scenario(path))
    cal = icalendar.Calendar.from_ical(data)
    events = list(cal.walk("VEVENT"))
    deadlines = [d for c in result.contests for d in c.deadlines]
    assert len(events) == len(deadlines)
    moved = [d for d in deadlines if d.moved_from is not None]
    assert moved
    for d in moved:
        (ev,) = (e for e in events if e.decoded("DTSTART") == d.due)
        assert f"Moved from {d.moved_from.strftime('%A %Y-%m-%d')}" in str(ev["DESCRIPTION"])
    parsed = vobject.readOne(io.StringIO(data.decode("utf-8")))
    assert len(parsed.vevent_list) == len(deadlines)


def test_replay_ics_names_the_scenario_and_rejects_two_formats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # read with vobject, which unescapes a non-standard property as the TEXT it is (icalendar
    # hands it back raw, with the comma escaped)
    cal = vobject.readOne(io.StringIO(ics_of("replay", str(CARY), "--ics").decode("utf-8")))
    assert cal.contents["x-wr-calname"][0].value == "Town of Cary Town Council District D, 2023"
    assert main(["replay", str(CARY), "--ics", "--json"]) == 2
    assert "expected one output format" in capsys.readouterr().err


def test_the_calendar_name_is_escaped_as_text() -> None:
    # a title with the characters RFC 5545 escapes in TEXT (';', ',', '\') reads back whole
    from simulator.views.ical import deadlines_to_ics

    d = statutory_calendar(2027, Method.RUNOFF, calendar=OfficeCalendar())
    title = "Ann; Bob, and C\\D"
    data = deadlines_to_ics([("c", "t", d)], name=title)
    line = next(x for x in data.decode().split("\r\n") if x.startswith("X-WR-CALNAME"))
    assert line == "X-WR-CALNAME:Ann\\; Bob\\, and C\\\\D"
    parsed = vobject.readOne(io.StringIO(data.decode("utf-8")))
    assert parsed.contents["x-wr-calname"][0].value == title
