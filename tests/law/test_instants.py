"""Moments compare as the instants they are, whatever zone or pass of a repeated hour they are
written in (simulator.law.instants)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from hypothesis import example, given
from hypothesis import strategies as st

from simulator.law.instants import instant
from simulator.model import events as ev

ZONES = st.sampled_from(["America/New_York", "America/Chicago", "Europe/London", "UTC"])
#: around the nights the clocks change, where Python's comparisons go wrong
MOMENTS = st.datetimes(datetime(2020, 1, 1), datetime(2030, 12, 31), timezones=st.just(UTC)).map(
    lambda m: m.replace(second=0, microsecond=0)
)
NY = ZoneInfo("America/New_York")


@given(MOMENTS, MOMENTS, ZONES, ZONES)
@example(
    datetime(2027, 11, 7, 5, 30, tzinfo=UTC),
    datetime(2027, 11, 7, 5, 30, tzinfo=UTC),
    "America/New_York",
    "UTC",
)
@example(
    datetime(2027, 11, 7, 6, 0, tzinfo=UTC),
    datetime(2027, 11, 7, 5, 45, tzinfo=UTC),
    "America/New_York",
    "America/New_York",
)
def test_instants_compare_and_hash_as_utc(a: datetime, b: datetime, za: str, zb: str) -> None:
    x, y = instant(a.astimezone(ZoneInfo(za))), instant(b.astimezone(ZoneInfo(zb)))
    assert (x == y) is (a == b)
    assert (x < y) is (a < b)
    assert (x <= y) is (a <= b)
    if a == b:
        assert hash(x) == hash(y)


def test_the_two_passes_of_the_repeated_hour_keep_their_order_in_one_zone() -> None:
    first = datetime(2027, 11, 7, 1, 45, tzinfo=NY)  # 05:45 UTC
    second = datetime(2027, 11, 7, 1, 30, tzinfo=NY, fold=1)  # 06:30 UTC
    assert second < first  # Python's own comparison, by the wall clock
    assert instant(first) < instant(second)
    assert instant(second).utcoffset() == timedelta(hours=-5)
    assert instant(first).utcoffset() == timedelta(hours=-4)


def test_a_moment_outside_a_repeated_hour_keeps_its_zone() -> None:
    noon = datetime(2027, 11, 7, 12, tzinfo=NY)
    assert instant(noon) is noon
    fixed = datetime(2027, 11, 7, 1, 30, tzinfo=timezone(timedelta(hours=-5)))
    assert instant(fixed) is fixed


def test_an_event_built_in_python_keeps_its_time_as_an_instant() -> None:
    first_pass = datetime(2027, 11, 7, 1, 30, tzinfo=NY)
    died = ev.CandidateDied(at=first_pass, contest="c", candidate="Ann", notice_at=first_pass)
    same = ev.CandidateDied(
        at=first_pass.astimezone(UTC), contest="c", candidate="Ann", notice_at=first_pass
    )
    assert died == same and hash(died) == hash(same)
    assert died.at.utcoffset() == timedelta(hours=-4)
