"""Deadlines as an iCalendar file (RFC 5545) that a calendar application can import or subscribe to.

``electsim calendar YEAR --method M --ics`` and ``electsim replay FILE --ics`` write one VEVENT per
deadline: a moment (a filing period's noon close, a request deadline) as a short event at that
time in the scenario's timezone, a day (an election day) as an all-day event. Each event's
description gives the citation, how the date was computed, any G.S. 103-5 move, and the link to
the statute. UIDs are stable (kind, contest, day), so importing an updated calendar replaces the
old entries rather than duplicating them. Written with the ``icalendar`` package, which also adds
the VTIMEZONE definitions the times need.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta

from simulator.law.calendar import Deadline

__all__ = ["deadlines_to_ics"]

PRODID = "-//electsim//North Carolina municipal election deadlines//EN"
#: How long a deadline that is a moment lasts in a calendar (so that it is visible).
MOMENT = timedelta(minutes=30)


def _label(deadline: Deadline) -> str:
    return deadline.kind.value.replace("_", " ")


def _description(deadline: Deadline) -> str:
    lines = [f"{deadline.cite}"]
    if deadline.how:
        lines.append(f"How it is computed: {deadline.how}")
    if deadline.moved_from is not None:
        lines.append(
            f"Moved from {deadline.moved_from.strftime('%A %Y-%m-%d')} under G.S. 103-5"
            + (f": {deadline.why_moved}" if deadline.why_moved else "")
        )
    if deadline.cites:
        lines.append(deadline.cites[0].url)
    return "\n".join(lines)


def deadlines_to_ics(
    groups: Iterable[tuple[str, str, Iterable[Deadline]]],
    *,
    name: str,
    stamp: datetime | None = None,
) -> bytes:
    """One calendar of every deadline in ``groups``: (id, title, deadlines) per contest or cycle.

    ``stamp`` is the DTSTAMP of every event (default: now, in UTC).
    """
    from icalendar import Calendar, Event, vText

    stamp = (stamp or datetime.now(UTC)).astimezone(UTC)
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    # a property of no standard type is TEXT (RFC 5545, 3.8.8.2): escaped like SUMMARY, so a
    # title with ';' or ',' reads back whole
    cal.add("x-wr-calname", vText(name))
    years: set[int] = set()
    for group_id, title, deadlines in groups:
        for d in deadlines:
            years.add(d.due.year)
            ev = Event()
            day = d.due.date()
            ev.add("uid", f"{d.kind.value}-{day.isoformat()}-{group_id}@electsim")
            ev.add("dtstamp", stamp)
            ev.add("summary", f"{_label(d)}: {title}")
            if d.all_day:
                ev.add("dtstart", day)
                ev.add("dtend", day + timedelta(days=1))
                ev.add("transp", "TRANSPARENT")
            else:
                ev.add("dtstart", d.due)
                ev.add("dtend", d.due + MOMENT)
            ev.add("description", _description(d))
            ev.add("categories", [d.kind.value])
            if d.cites:
                ev.add("url", d.cites[0].url)
            cal.add_component(ev)
    if years:
        # Only the years the deadlines need: a VTIMEZONE listing every change since 1970 is
        # misread by some parsers.
        cal.add_missing_timezones(
            first_date=date(min(years) - 1, 1, 1), last_date=date(max(years) + 2, 1, 1)
        )
    return bytes(cal.to_ical())
