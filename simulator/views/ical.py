"""Deadlines as an iCalendar file (RFC 5545) that a calendar application can import or subscribe to.

``electsim calendar YEAR --method M --ics`` writes one calendar for the year; ``electsim replay
FILE --ics`` one calendar per contest (docs/cli.md). Each deadline is one VEVENT with a short title
that says what it is ("Runoff request deadline", "Canvass of the runoff"); the calendar's name says
whose it is, so a month view is not filled with the contest's name.

- A moment (a filing period's noon close, a request deadline, a canvass) is an instant: a start
  time and no end, which RFC 5545 (3.6.1) reads as an event ending when it starts. A deadline is
  not a half-hour meeting: filing does not stay open until 12:30.
- A day (an election day) is an all-day event that does not mark the day busy.
- What happens only if someone asks for it (a runoff, a second primary, and their canvass) is
  TENTATIVE and its title says "if requested", unless the replayed log shows it was called.
- Every event has a reminder (VALARM) the day before.

Each event's description gives what the date is, the citation, how it was computed, any G.S.
103-5 move and the link to the statute. UIDs are stable (kind, contest, day), so importing an
updated calendar replaces the old entries rather than duplicating them. Written with the
``icalendar`` package, which also adds the VTIMEZONE definitions the times need.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import UTC, date, datetime, timedelta

from simulator.law.calendar import Deadline
from simulator.law.labels import label, meaning
from simulator.law.vocab import DeadlineKind, DeadlineState

__all__ = ["contingent", "deadlines_to_ics", "title_of", "vote_before"]

PRODID = "-//electsim//North Carolina municipal election deadlines//EN"
#: When the reminder rings: a day before a moment; for a day, at 09:00 the day before.
REMIND_MOMENT = timedelta(days=-1)
REMIND_DAY = timedelta(hours=-15)

#: the vote a canvass that follows each voting day declares
_VOTE = {
    DeadlineKind.PRIMARY_DAY: "primary",
    DeadlineKind.SECOND_PRIMARY: "second primary",
    DeadlineKind.ELECTION_DAY: "election",
    DeadlineKind.RUNOFF_ELECTION: "runoff",
}
#: the votes held only on a request (G.S. 163-293(c), 163-111(a))
_ON_REQUEST = frozenset({DeadlineKind.RUNOFF_ELECTION, DeadlineKind.SECOND_PRIMARY})


def vote_before(deadline: Deadline, deadlines: Iterable[Deadline]) -> DeadlineKind | None:
    """The last voting day on or before ``deadline`` (the vote a canvass declares)."""
    days = [d for d in deadlines if d.kind in _VOTE and d.due <= deadline.due]
    return max(days, key=lambda d: d.due).kind if days else None


def contingent(deadline: Deadline, deadlines: Iterable[Deadline]) -> bool:
    """Whether ``deadline`` happens only if a runoff or second primary is requested: the vote
    itself and the canvass that follows it."""
    if deadline.kind is DeadlineKind.CANVASS:
        return vote_before(deadline, deadlines) in _ON_REQUEST
    return deadline.kind in _ON_REQUEST


def title_of(deadline: Deadline, deadlines: Collection[Deadline], *, called: bool = False) -> str:
    """The event's short title: "Runoff request deadline", "Canvass of the election", "Runoff
    day (if requested)". ``deadlines`` are the others of the same contest or year (they say which
    vote a canvass declares); ``called``: the runoff or second primary was called."""
    if deadline.kind is DeadlineKind.CANVASS and (vote := vote_before(deadline, deadlines)):
        words = f"canvass of the {_VOTE[vote]}"
    else:
        words = label(deadline.kind)
    if not called and contingent(deadline, deadlines):
        words += " (if requested)"
    return words[0].upper() + words[1:]


def _description(deadline: Deadline, *, tentative: bool) -> str:
    lines = [meaning(deadline.kind)[0].upper() + meaning(deadline.kind)[1:] + "."]
    if tentative:
        lines.append("Only if a runoff (or second primary) is requested in time.")
    lines.append(deadline.cite)
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
    called: Collection[str] = (),
) -> bytes:
    """One calendar named ``name`` of every deadline in ``groups``: (id, title, deadlines) per
    contest or cycle. ``called``: the ids of the groups whose runoff or second primary was called
    (their events are not tentative). ``stamp`` is the DTSTAMP of every event (default: now, in
    UTC)."""
    from icalendar import Alarm, Calendar, Event, vText

    stamp = (stamp or datetime.now(UTC)).astimezone(UTC)
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    # a property of no standard type is TEXT (RFC 5545, 3.8.8.2): escaped like SUMMARY, so a
    # title with ';' or ',' reads back whole
    cal.add("x-wr-calname", vText(name))
    years: set[int] = set()
    for group_id, _title, group in groups:
        # what no longer applies (a runoff day after a majority) is left out
        deadlines = sorted(
            (d for d in group if d.state is not DeadlineState.VOID), key=lambda d: d.due
        )
        for d in deadlines:
            years.add(d.due.year)
            ev = Event()
            day = d.due.date()
            tentative = group_id not in called and contingent(d, deadlines)
            ev.add("uid", f"{d.kind.value}-{day.isoformat()}-{group_id}@electsim")
            ev.add("dtstamp", stamp)
            summary = title_of(d, deadlines, called=group_id in called)
            ev.add("summary", summary)
            if d.all_day:
                ev.add("dtstart", day)
                ev.add("dtend", day + timedelta(days=1))
            else:
                # an instant: no DTEND (RFC 5545 3.6.1: it ends when it starts)
                ev.add("dtstart", d.due)
            ev.add("transp", "TRANSPARENT")
            ev.add("status", "TENTATIVE" if tentative else "CONFIRMED")
            ev.add("description", _description(d, tentative=tentative))
            ev.add("categories", [d.kind.value])
            if d.cites:
                ev.add("url", d.cites[0].url)
            alarm = Alarm()
            alarm.add("action", "DISPLAY")
            alarm.add("description", f"Tomorrow: {summary}")
            alarm.add("trigger", REMIND_DAY if d.all_day else REMIND_MOMENT)
            ev.add_component(alarm)
            cal.add_component(ev)
    if years:
        # Only the years the deadlines need: a VTIMEZONE listing every change since 1970 is
        # misread by some parsers.
        cal.add_missing_timezones(
            first_date=date(min(years) - 1, 1, 1), last_date=date(max(years) + 2, 1, 1)
        )
    return bytes(cal.to_ical())
