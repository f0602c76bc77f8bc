"""Times as a scenario writes them: ISO 8601 dates and date-times read in the scenario's
timezone, strictly. A local time the clocks skip is a problem, and so is one they pass twice
unless it gives its UTC offset (:func:`wall_clock`): nothing is moved or chosen for the file.
:class:`Clock` reads a scenario's times, each distinct one once."""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from itertools import repeat
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

from simulator.input.loader.values import TIME_YEARS, BadValue
from simulator.input.parse.messages import show
from simulator.input.parse.yaml_scalars import SUB_MICROSECOND
from simulator.law.instants import instant
from simulator.model.scenario import DEFAULT_TZ

_TZINFO, _YEAR = operator.attrgetter("tzinfo"), operator.attrgetter("year")


class ClockError(ValueError):
    """A wall-clock time a change of clocks makes skipped or ambiguous; the message says which
    and what to write instead."""


def wall_clock(moment: datetime, tz: ZoneInfo, zone: str, *, whole_day: bool = False) -> datetime:
    """A naive wall-clock time in ``tz`` as an aware time.

    A time the clocks skip (02:30 when they go from 02:00 to 03:00) is a problem, and so is
    one they pass twice (01:30 when they go back from 02:00 to 01:00), unless it says which
    (an offset; from Python, ``fold=1`` for the second): the file does not say what
    happened when, and nothing is moved or chosen for it. A bare date is the start of its
    day: the first moment of it the clocks show. ``zone`` is ``tz``'s name, for the message
    of the :class:`ClockError` raised.

    The second pass of a repeated hour is given with its fixed offset: Python compares two
    times of one zone by their wall clocks, fold ignored, so in the zone it would sort before
    01:45 of the first pass; with its offset it compares as the instant it is.
    """
    first = moment.replace(tzinfo=tz, fold=0)
    second = moment.replace(tzinfo=tz, fold=1)
    before, after = first.utcoffset(), second.utcoffset()
    if before == after or whole_day or before is None or after is None:
        return instant(first.astimezone(UTC).astimezone(tz))
    # the instant the offset changes, to the minute, and the clocks just before and after
    low = (first - timedelta(days=1)).astimezone(UTC)
    high = second.astimezone(UTC) + timedelta(days=1)
    while high - low > timedelta(minutes=1):
        middle = low + (high - low) // 2
        if middle.astimezone(tz).utcoffset() == before:
            low = middle
        else:
            high = middle
    was = (high + before).strftime("%H:%M")
    became = (high + after).strftime("%H:%M")
    day, clock = moment.date().isoformat(), moment.strftime("%H:%M")
    shown = moment.isoformat(timespec="minutes")
    if before < after:  # zoneinfo: in a gap, fold=0 takes the offset before it
        raise ClockError(
            f"a time the clocks show in {zone}: on {day} they go from {was} straight to "
            f"{became}, so {clock} never shows; write the time as the clocks showed it, "
            "or with its UTC offset"
        )
    if moment.fold:
        return instant(second)
    raise ClockError(
        f"a time the clocks show once in {zone}: on {day} they go back from {was} to "
        f"{became}, so {clock} shows twice; give its UTC offset: {shown}{_offset(before)} "
        f"for the first, {shown}{_offset(after)} for the second"
    )


@functools.cache
def _zone_names() -> frozenset[str]:
    return frozenset(available_timezones())


def is_zone_name(name: str) -> bool:
    """Whether ``name`` is a zone of the tz database. ZoneInfo reads any file under the zone
    folders, and ``localtime`` is there too: the machine's own zone, so that one file read on
    two machines gave two answers."""
    return name == DEFAULT_TZ or (name != "localtime" and name in _zone_names())


def _offset(delta: timedelta) -> str:
    """A UTC offset as ISO 8601 writes it: -04:00."""
    minutes = delta // timedelta(minutes=1)
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def explain_time(tz_name: str) -> str:
    return (
        "an ISO 8601 date or date-time, like 2027-07-06 or 2027-07-06T12:15 or "
        f"2027-07-06T12:15:00-04:00 (a time without an offset is in {tz_name}; years "
        f"{TIME_YEARS[0]}-{TIME_YEARS[1]})"
    )


class Clock:
    """The times of one scenario, read in its timezone (``tz``, named ``tz_name``); each value
    as written is read once (``times``), and each day's steadiness once (``steady``)."""

    def __init__(self) -> None:
        self.tz_name = DEFAULT_TZ
        self.tz = ZoneInfo(DEFAULT_TZ)
        self.times: dict[str | date, datetime] = {}  # see time()
        self.steady: dict[int, bool] = {}  # see steady_day()

    def set_zone(self, tz_name: str) -> None:
        """Read the times that follow in the zone ``tz_name`` (one :func:`is_zone_name` knows)."""
        self.tz = ZoneInfo(tz_name)
        self.tz_name = tz_name
        self.steady.clear()

    def time_or_none(self, value: Any) -> datetime | None:
        """:meth:`time`, or None where that raises (the full path then says why)."""
        try:
            return self.time(value)
        except BadValue:
            return None

    def time(self, value: Any) -> datetime:
        """A time as docs/scenarios.md reads it: aware, in the scenario's timezone."""
        # Cached by the value as written: text, or a date or time a reader made of it (two
        # naive times equal but for ``fold`` compare equal, so those are not cached).
        kind = type(value)
        cache = kind is str or kind is date or (kind is datetime and value.fold == 0)
        if cache:
            cached = self.times.get(value)
            if cached is not None:
                return cached
        tz = self.tz
        moment: datetime | None = None
        if isinstance(value, datetime):
            moment = value
        elif isinstance(value, date):
            moment = datetime(value.year, value.month, value.day)
        elif isinstance(value, str):
            if SUB_MICROSECOND.search(value):
                raise BadValue(
                    "a time to the microsecond at most (six digits after the seconds' point): "
                    "a finer one would be cut to the microsecond and compared with the deadlines "
                    "as if earlier",
                    show(value),
                )
            try:
                moment = datetime.fromisoformat(value.strip())
            except ValueError:
                moment = None
        if moment is None or not TIME_YEARS[0] <= moment.year <= TIME_YEARS[1]:
            raise BadValue(explain_time(self.tz_name), show(value))
        if moment.tzinfo is None:
            # On a day whose UTC offset does not change, the time in the zone as it is; on the
            # days the clocks change, see _wall_time.
            result = datetime.combine(moment.date(), moment.time(), tz)  # replace(tzinfo=tz)
            steady = self.steady.get(moment.toordinal())
            if moment.fold or not (self.steady_day(moment) if steady is None else steady):
                whole_day = kind is date or (
                    kind is str and "T" not in value.upper() and " " not in value.strip()
                )
                result = self._wall_time(moment, value, whole_day)
        else:
            result = moment.astimezone(tz)
        result = instant(result)  # a time of a repeated hour: see simulator.law.instants
        if cache:
            if len(self.times) > 100_000:
                self.times.clear()
            self.times[value] = result
        return result

    def read_times(self, values: Iterable[Any]) -> None:
        """Read into the cache at once the times among ``values`` written as naive ISO text,
        not read before, on days the zone keeps one UTC offset: what :meth:`time` gives them,
        with less work per value. Anything else (and a text that does not read) is left to
        :meth:`time`."""
        times = self.times
        fresh = [v for v in values if type(v) is str and v not in times]
        if not fresh or len(times) + len(fresh) > 100_000:
            return
        if max(map(len, fresh)) > 26:  # (naive to the microsecond: 26 characters at most)
            fresh = [v for v in fresh if not SUB_MICROSECOND.search(v)]
            if not fresh:
                return
        try:
            moments = list(map(datetime.fromisoformat, fresh))
        except ValueError:
            return
        tz, steady, steady_day = self.tz, self.steady, self.steady_day
        low, high = TIME_YEARS
        # Most often all of them at once: naive, in range, on steady days, each put in the zone.
        if list(map(_TZINFO, moments)).count(None) == len(moments):
            years = list(map(_YEAR, moments))
            if low <= min(years) and max(years) <= high:
                days = set(map(date.toordinal, moments))
                if all(steady.get(day) or steady_day(datetime.fromordinal(day)) for day in days):
                    # (combine: four times quicker than replace(tzinfo=tz) here)
                    dates, clocks = map(datetime.date, moments), map(datetime.time, moments)
                    zoned = map(datetime.combine, dates, clocks, repeat(tz))
                    times.update(zip(fresh, zoned, strict=True))
                    return
        for value, moment in zip(fresh, moments, strict=True):
            if moment.tzinfo is None and low <= moment.year <= high:
                day = steady.get(moment.toordinal())
                if day or (day is None and steady_day(moment)):
                    times[value] = datetime.combine(moment.date(), moment.time(), tz)

    def _wall_time(self, moment: datetime, value: Any, whole_day: bool) -> datetime:
        """:func:`wall_clock` in the scenario's zone, its complaint a problem of ``value``."""
        try:
            return wall_clock(moment, self.tz, self.tz_name, whole_day=whole_day)
        except ClockError as error:
            raise BadValue(str(error), show(value)) from None

    def steady_day(self, moment: datetime) -> bool:
        """Whether the scenario's timezone keeps one UTC offset all through ``moment``'s day."""
        day = moment.toordinal()
        steady = self.steady.get(day)
        if steady is None:
            midnight = datetime.fromordinal(day)
            offsets = {self.tz.utcoffset(midnight + timedelta(hours=h)) for h in range(0, 25, 3)}
            steady = self.steady[day] = len(offsets) == 1
        return steady

    # -- the document -----------------------------------------------------------------------
