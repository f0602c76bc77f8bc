"""The concrete ``electsim/v1`` scenario of a course of events: its dates, from the statutory
calendar of the explorer's year, the times as the scenarios write them, and the document.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import cache, lru_cache
from typing import Any
from zoneinfo import ZoneInfo

from simulator.analysis.explore.config import CONTEST_ID, PRIMARY_PARTY, YEAR, Config
from simulator.law.calendar import statutory_calendar
from simulator.law.vocab import DeadlineKind, Method


def dates_of(config: Config) -> dict[str, datetime]:
    return _dates(config.method, general=config.general)


@cache
def _dates(method: Method, *, general: bool = False) -> dict[str, datetime]:
    cal = statutory_calendar(YEAR, method)
    if general:  # the general election: its day and canvass, no request, no second round
        cal = [d for d in cal if d.kind is not DeadlineKind.PRIMARY_DAY]
        day = next(d.due for d in cal if d.kind is DeadlineKind.ELECTION_DAY)
        cal = [
            d
            for d in cal
            if d.kind is not DeadlineKind.CANVASS or d.due > day
            if d.kind not in (DeadlineKind.SECOND_PRIMARY, DeadlineKind.SECOND_PRIMARY_REQUEST)
        ]
    first: dict[DeadlineKind, datetime] = {}
    canvasses: list[datetime] = []
    for d in cal:
        if d.kind is DeadlineKind.CANVASS:
            canvasses.append(d.due)
        first.setdefault(d.kind, d.due)
    vote = first.get(DeadlineKind.PRIMARY_DAY) or first[DeadlineKind.ELECTION_DAY]
    close = first[DeadlineKind.FILING_CLOSES]
    out = {
        "opens": first[DeadlineKind.FILING_OPENS],
        "close": close,
        "vote": vote.replace(hour=21),
        "canvass": canvasses[0],
    }
    request = first.get(DeadlineKind.RUNOFF_REQUEST) or first.get(
        DeadlineKind.SECOND_PRIMARY_REQUEST
    )
    second = first.get(DeadlineKind.RUNOFF_ELECTION) or first.get(DeadlineKind.SECOND_PRIMARY)
    if request is not None and second is not None:
        out["request"] = request
        out["second"] = second.replace(hour=21)
        later = [c for c in canvasses if c > second]
        out["second_canvass"] = later[0] if later else second + timedelta(days=7)
    return out


def naive_time(t: datetime) -> datetime:
    """A time as the scenarios write it: the wall clock in North Carolina, no zone."""
    return t.astimezone(ZoneInfo("America/New_York")).replace(tzinfo=None)


@lru_cache(maxsize=4096)
def iso_minutes(t: datetime) -> str:
    """A time as the scenarios write it (made once for each time: the courses put their
    events at a few fixed moments)."""
    return t.replace(tzinfo=None).isoformat(timespec="minutes")


def scenario_doc(config: Config, events: Sequence[dict[str, Any]], title: str) -> dict[str, Any]:
    contest: dict[str, Any] = {
        "id": CONTEST_ID,
        "municipality": "City of Example",
        "office": "Council" if config.seats > 1 else "Mayor",
        "seats": config.seats,
        "method": config.method.value,
        "stage": config.stage,
        "year": YEAR,
    }
    if config.method is Method.PARTISAN and not config.general:
        contest["party"] = PRIMARY_PARTY
    # the log in the order the board learned of the events (a death's notice may come later)
    ordered = sorted(events, key=learned_at)
    doc: dict[str, Any] = {"format": "electsim/v1", "title": title}
    if config.readings:
        doc["interpretations"] = dict(config.readings)
    doc["contests"] = [contest]
    doc["events"] = ordered
    return doc


def learned_at(e: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(e.get("notice_at", e["at"]))
