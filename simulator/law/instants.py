"""Moments compared as the instants they are.

Python compares two aware datetimes of one zone by their wall clocks, ignoring ``fold``, so the
second 01:30 of the night the clocks go back sorts before the first 01:45; and it never finds a
time of the repeated hour equal to the same instant written in another zone (PEP 495). So every
moment electsim keeps that falls in a repeated hour (either pass) is kept with its fixed UTC
offset: :func:`instant`. Every other moment keeps its zone, whose wall clock then orders it
correctly. The model's time fields convert what they are given through it, so a scenario built
in Python compares as one read from a file."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

__all__ = ["instant", "maybe_instant"]


def instant(moment: datetime) -> datetime:
    """``moment``, with its fixed UTC offset where its zone shows its wall clock twice (the hour
    the clocks go back), else as it is. A naive moment is returned as it is.

    >>> from zoneinfo import ZoneInfo
    >>> first = datetime(2027, 11, 7, 1, 30, tzinfo=ZoneInfo("America/New_York"))
    >>> instant(first).isoformat(), instant(first).tzinfo is first.tzinfo
    ('2027-11-07T01:30:00-04:00', False)
    >>> instant(first) == first.astimezone(timezone.utc)  # (False for ``first`` itself)
    True
    >>> noon = datetime(2027, 11, 7, 12, tzinfo=ZoneInfo("America/New_York"))
    >>> instant(noon) is noon
    True
    """
    zone = moment.tzinfo
    if zone is None or isinstance(zone, timezone):
        return moment
    offset = moment.utcoffset()
    if offset is None or moment.replace(fold=not moment.fold).utcoffset() == offset:
        return moment
    return moment.astimezone(timezone(offset if offset else timedelta(0)))


def maybe_instant(moment: datetime | None) -> datetime | None:
    """:func:`instant`, letting None through (an optional time field)."""
    return None if moment is None else instant(moment)
