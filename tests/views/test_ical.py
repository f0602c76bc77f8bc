"""Deadlines as iCalendar files (``calendar --ics``, ``replay --ics``), read back with two
independent parsers: ``icalendar`` and ``vobject``."""

from __future__ import annotations

import io
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest
import vobject

from simulator import load_scenario, replay
from simulator.cli.main import main
from simulator.law.calendar import OfficeCalendar, statutory_calendar
from simulator.law.vocab import Method
from tests.cli.inprocess import electsim

ROOT = Path(__file__).resolve().parents[2]
NY = ZoneInfo("America/New_York")
CARY = ROOT / "scenarios" / "runoff" / "cary-2023-district-d.yaml"


def ics_of(*argv: str) -> bytes:
    p = electsim(*argv)
    assert p.returncode == 0, p.stderr
    return p.stdout.encode("utf-8")


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
    # the titles are short and tell the events apart; the calendar's name says whose they are
    titles = [e.summary.value for e in events]
    assert len(set(titles)) == len(titles)
    assert all(len(t) <= 40 and "2027" not in t and "_" not in t for t in titles)
    assert "Runoff request deadline" in titles
    assert {"Canvass of the election", "Canvass of the runoff (if requested)"} <= set(titles)
    assert cal.contents["x-wr-calname"][0].value == "NC 2027 municipal calendar, nonpartisan runoff"


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


def _end(ev: icalendar.Event) -> object:
    """When an event ends: its DTEND, else its DURATION after DTSTART, else (RFC 5545 3.6.1, a
    date-time start) its start."""
    if "DTEND" in ev:
        return ev.decoded("DTEND")
    if "DURATION" in ev:
        return ev.decoded("DTSTART") + ev.decoded("DURATION")
    return ev.decoded("DTSTART")


@pytest.mark.parametrize("method", [m.value for m in Method])
def test_deadlines_are_instants_with_a_reminder_the_day_before(method: str) -> None:
    cal = icalendar.Calendar.from_ical(ics_of("calendar", "2027", "--method", method, "--ics"))
    events = list(cal.walk("VEVENT"))
    assert events
    for ev in events:
        start = ev.decoded("DTSTART")
        if isinstance(start, datetime):
            # a deadline is a moment: noon is when filing closes, not a meeting until 12:30
            assert _end(ev) == start, ev["SUMMARY"]
        else:
            assert _end(ev) == start + timedelta(days=1)
        (alarm,) = ev.walk("VALARM")
        assert str(alarm["ACTION"]) == "DISPLAY"
        trigger = alarm.decoded("TRIGGER")
        assert timedelta(days=-1) <= trigger < timedelta(0)
        if isinstance(start, datetime):
            assert trigger == timedelta(days=-1)
        assert str(ev["TRANSP"]) == "TRANSPARENT"


def test_what_happens_only_on_a_request_is_tentative_and_says_so() -> None:
    data = ics_of("calendar", "2027", "--method", "nonpartisan-runoff", "--ics")
    status = {
        str(e["SUMMARY"]): str(e["STATUS"])
        for e in icalendar.Calendar.from_ical(data).walk("VEVENT")
    }
    assert status == {
        "Filing opens": "CONFIRMED",
        "Filing closes": "CONFIRMED",
        "Election day": "CONFIRMED",
        "Canvass of the election": "CONFIRMED",
        "Runoff request deadline": "CONFIRMED",
        "Runoff day (if requested)": "TENTATIVE",
        "Canvass of the runoff (if requested)": "TENTATIVE",
    }
    parsed = vobject.readOne(io.StringIO(data.decode("utf-8")))
    for ev in parsed.vevent_list:
        tentative = ev.status.value == "TENTATIVE"
        assert ("(if requested)" in ev.summary.value) is tentative
        assert ("Only if a runoff" in ev.description.value) is tentative
        assert ev.valarm.trigger.value == timedelta(days=-1) or not isinstance(
            ev.dtstart.value, datetime
        )


def test_a_runoff_the_log_called_is_confirmed() -> None:
    # the tie for second was settled by a withdrawal and the runoff demanded: it is no longer
    # a maybe
    path = ROOT / "scenarios" / "runoff" / "tie-for-second-withdrawal-then-demand.yaml"
    events = icalendar.Calendar.from_ical(ics_of("replay", str(path), "--ics")).walk("VEVENT")
    status = {str(e["SUMMARY"]): str(e["STATUS"]) for e in events}
    assert status["Runoff day"] == status["Canvass of the runoff"] == "CONFIRMED"
    assert status["Tie withdrawal deadline"] == "CONFIRMED"
    assert not any("if requested" in t for t in status)


def test_replay_writes_one_calendar_per_contest_in_a_folder(tmp_path: Path) -> None:
    path = ROOT / "scenarios" / "nonpartisan-primary" / "greensboro-2017-at-large-group.yaml"
    p = electsim("replay", str(path), "--ics")
    assert p.returncode == 2 and not p.stdout
    assert "--ics: expected a folder" in p.stderr and "--ics DIR" in p.stderr
    ics_of("replay", str(path), "--ics", str(tmp_path / "cal"))
    result = replay(load_scenario(path))
    files = sorted((tmp_path / "cal").iterdir())
    assert [f.name for f in files] == sorted(f"{c.id}.ics" for c in result.contests)
    names = set()
    for c in result.contests:
        cal = vobject.readOne(io.StringIO((tmp_path / "cal" / f"{c.id}.ics").read_text()))
        names.add(cal.contents["x-wr-calname"][0].value)
        titles = sorted(e.summary.value for e in cal.vevent_list)
        assert len(titles) == len(c.deadlines) == len(set(titles))
    assert names == {
        "City of Greensboro City Council At-Large, 2017 (primary)",
        "City of Greensboro City Council At-Large, 2017 (election)",
    }


def test_replay_ics_into_a_folder_that_cannot_be_made_is_invalid_input(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    p = electsim("replay", str(CARY), "--ics", str(blocker / "cal"))
    assert p.returncode == 2 and not p.stdout
    assert p.stderr.splitlines() == [
        f"electsim: {blocker / 'cal'}: cannot write the output: Not a directory"
    ]
    # a one-contest scenario given a folder gets its one file there
    ics_of("replay", str(CARY), "--ics", str(tmp_path / "cal"))
    assert [f.name for f in (tmp_path / "cal").iterdir()] == ["cary-d.ics"]
