"""The event log holds runs of votes as columns and behaves as the tuple of its events.

A file's runs of plain ``votes_cast`` events are kept as :class:`VoteColumns` (no event object
per vote); everything that reads the log as a sequence must see exactly the events the located
reading makes, and the replay, which reads the columns, the same fold (tests/engine/test_batching.py
checks the fold on random logs).
"""

from __future__ import annotations

import json
import pickle
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator import parse_scenario, replay
from simulator.input.loader import _parse_json
from simulator.input.loader.clock import Clock
from simulator.input.loader.values import BadValue
from simulator.model.eventlog import EventLog, VoteColumns
from simulator.model.events import CanvassHeld, Event, VotesCast

NY = ZoneInfo("America/New_York")
T0 = datetime(2027, 10, 5, 8, tzinfo=NY)


def _votes(start: int, n: int, counted: bool, lines: bool) -> VoteColumns:
    return VoteColumns(
        start,
        [T0 + timedelta(minutes=k) for k in range(n)],
        ["c" if k % 3 else "d" for k in range(n)],
        ["Ann" if k % 2 else "Bob" for k in range(n)],
        [k % 4 for k in range(n)] if counted else None,
        [10 + k for k in range(n)] if lines else None,
    )


def _event(index: int) -> Event:
    return CanvassHeld(at=T0 + timedelta(days=30), contest="c", index=index)


@st.composite
def logs(draw: st.DrawFn) -> tuple[EventLog, tuple[Event, ...]]:
    """A log of events and runs of votes, and the tuple of the events it holds."""
    parts: list[Event | VoteColumns] = []
    events: list[Event] = []
    for _ in range(draw(st.integers(0, 6))):
        if draw(st.booleans()):
            run = _votes(
                len(events), draw(st.integers(1, 7)), draw(st.booleans()), draw(st.booleans())
            )
            parts.append(run)
            events += [
                VotesCast(
                    at=run.at[k],
                    contest=run.contest[k],
                    index=run.start + k,
                    line=None if run.line is None else run.line[k],
                    candidate=run.candidate[k],
                    count=1 if run.count is None else run.count[k],
                )
                for k in range(len(run))
            ]
        else:
            ev = _event(len(events))
            parts.append(ev)
            events.append(ev)
    return EventLog(parts), tuple(events)


@settings(deadline=None)
@given(logs(), st.data())
def test_a_log_reads_as_the_tuple_of_its_events(
    made: tuple[EventLog, tuple[Event, ...]], data: st.DataObject
) -> None:
    log, events = made
    n = len(events)
    assert len(log) == n and bool(log) == bool(events)
    for k in range(-n, n):  # one event at a time: the columns stay
        assert log[k] == events[k] and log[k].line == events[k].line
    assert list(log.parts()) == list(EventLog(log.parts()).parts())
    with pytest.raises(IndexError):
        log[n]
    with pytest.raises(IndexError):
        log[-n - 1]
    i, j = data.draw(st.integers(-n - 2, n + 2)), data.draw(st.integers(-n - 2, n + 2))
    copy = pickle.loads(pickle.dumps(log))
    assert [type(p) for p in copy.parts()] == [type(p) for p in log.parts()]
    assert log[i:j] == events[i:j]
    assert log == events and events == log and hash(log) == hash(events)
    assert list(reversed(log)) == list(reversed(events))
    head = events[:1]
    assert log + head == events + head and head + log == head + events
    assert copy == log and copy == EventLog(events)
    assert not any(isinstance(p, VoteColumns) for p in log.parts())  # made once, and kept
    assert log.events() is log.events()


def test_a_log_of_other_length_or_events_is_not_equal() -> None:
    log = EventLog([_votes(0, 3, False, False)])
    assert log != EventLog([_votes(0, 2, False, False)])
    assert log != tuple(log)[:2] and log != [*log] and log != EventLog([_votes(0, 3, True, False)])


def test_columns_of_different_lengths_are_refused() -> None:
    with pytest.raises(ValueError, match="differ in length"):
        VoteColumns(0, [T0], ["c"], ["Ann", "Bob"])
    with pytest.raises(ValueError, match="differ in length"):
        VoteColumns(0, [T0], ["c"], ["Ann"], [1, 2])


def _doc(votes: int) -> str:
    """A log of ``votes`` votes (some with a count), one vote with an id among them, and one
    for a candidate who files only after the votes (a run of columns ends at it)."""
    filed = [
        {"type": "candidate_filed", "at": "2027-07-06T10:00", "candidate": name}
        for name in ("Ann", "Bob")
    ]
    cast = [
        {"type": "votes_cast", "at": f"2027-10-{5 + k * 3 // votes:02d}T09:00"}
        | {"candidate": ("Ann", "Bob")[k % 2]}
        | ({"count": k % 5} if k % 7 else {})
        for k in range(votes)
    ]
    cast.insert(7, {"type": "votes_cast", "at": cast[7]["at"], "candidate": "Ann", "id": "x"})
    cast.insert(300, {"type": "votes_cast", "at": cast[300]["at"], "candidate": "Cy"})
    cast.append({"type": "candidate_filed", "at": "2027-10-09T10:00", "candidate": "Cy"})
    contest = {"id": "c", "office": "Council", "seats": 1, "year": 2027}
    return json.dumps(
        {
            "format": "electsim/v1",
            "title": "columns",
            "contests": [contest | {"method": "nonpartisan-plurality"}],
            "events": [*filed, *cast, {"type": "canvass_held", "at": "2027-11-12T11:00"}],
        }
    )


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_a_files_votes_are_read_as_columns_and_equal_the_located_reading(fmt: str) -> None:
    text = _doc(500)
    if fmt == "yaml":
        import yaml

        text = yaml.safe_dump(json.loads(text), default_flow_style=None, width=200)
    quick = parse_scenario(text, fmt=fmt)
    parts = quick.events.parts()
    runs = [p for p in parts if isinstance(p, VoteColumns)]
    assert runs and sum(map(len, runs)) > 400  # most votes are columns ...
    assert any(isinstance(p, VotesCast) and p.id == "x" for p in parts)  # ... not one with an id
    result = replay(quick).to_json()
    assert len(quick.events.parts()) == len(parts)  # the replay read the columns
    if fmt == "json":
        located = _parse_json(text, "<string>", quick=False)
        assert located == quick
    assert (
        replay(attrs.evolve(quick, events=tuple(quick.events)), batched=False).to_json() == result
    )
    lines = [e.line for e in quick.events]
    assert (fmt == "yaml") == all(line is not None for line in lines[1:])


ODD_TIMES = [
    "2027-03-14T02:30", "2027-11-07T01:30", " 2027-07-06", "2027-07-06Z", "x",
    "2027-07-06T10:00-04:00", "2027-10-05T09:00:00.5", "2027-13-01", "2027-10-05t09:00",
]  # fmt: skip


def _validator(zone: str) -> Clock:
    v = Clock()
    v.tz, v.tz_name = ZoneInfo(zone), zone
    return v


@settings(deadline=None)
@given(
    st.lists(
        st.one_of(
            st.datetimes(datetime(1899, 12, 25), datetime(2201, 1, 5)).map(
                lambda t: t.isoformat(sep=" " if t.second % 2 else "T")
            ),
            st.dates().map(str),
            st.sampled_from(ODD_TIMES),
        ),
        max_size=12,
    ),
    st.sampled_from(["America/New_York", "Australia/Lord_Howe", "UTC", "America/Havana"]),
)
def test_times_read_at_once_are_what_reading_each_gives(values: list[str], zone: str) -> None:
    # the loader reads a run's new times at once (read_times), the rest one by one (time)
    def each(v: Clock) -> list[object]:
        out: list[object] = []
        for value in values:
            try:
                out.append(repr(v.time(value)))  # the zone and fold too
            except BadValue as error:
                out.append((error.expected, error.found))
        return out

    at_once = _validator(zone)
    at_once.read_times(values)
    alone = each(_validator(zone))
    assert each(at_once) == alone
