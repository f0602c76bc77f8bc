"""Times given on the command line (``--as-of``, ``--from``, ``--to``), read as a scenario's times
are: ISO 8601, in the scenario's timezone unless an offset is written (docs/scenarios.md)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from simulator.cli.common import UsageError
from simulator.input.loader import ClockError, wall_clock
from simulator.input.parse.yaml_scalars import SUB_MICROSECOND
from simulator.law.instants import instant

AS_OF_YEARS = (1900, 2200)  # the years a scenario's times may have


def parse_time(text: str, tz: str, flag: str = "--as-of") -> datetime:
    """The moment ``text`` names in the timezone ``tz``; a UsageError naming ``flag`` when it
    names none (or one outside :data:`AS_OF_YEARS`)."""
    first, last = AS_OF_YEARS
    if SUB_MICROSECOND.search(text):
        raise UsageError(
            f"{flag}: expected a time to the microsecond at most (six digits after the "
            f"seconds' point); found {text!r}"
        )
    try:
        written = text.strip()
        dt = datetime.fromisoformat(written.replace("Z", "+00:00"))
        if dt.tzinfo is None:  # read as a scenario's times are (docs/scenarios.md)
            dt = wall_clock(dt, ZoneInfo(tz), tz, whole_day="T" not in written.upper())
        else:
            dt = instant(dt.astimezone(ZoneInfo(tz)))
    except ClockError as error:
        raise UsageError(f"{flag}: expected {error}; found {text!r}") from None
    except ValueError:
        raise UsageError(
            f"{flag}: expected an ISO 8601 date or date-time like 2027-10-14T12:00; found {text!r}"
        ) from None
    except OverflowError:
        dt = None
    if dt is None or not first <= dt.year <= last:
        raise UsageError(f"{flag}: expected a time in the years {first}-{last}; found {text!r}")
    return dt


def window_end(text: str, tz: str) -> datetime:
    """``--to``: a date-time as written; a date alone draws its whole day (up to its last
    instant, so ``--from D --to D`` is the day D and ``--to 2019-10-31`` keeps October 31)."""
    end = parse_time(text, tz, "--to")
    if "T" in text.upper() or " " in text.strip():
        return end
    last = datetime.combine(end.date(), datetime.max.time())
    return wall_clock(last, ZoneInfo(tz), tz, whole_day=True)
