"""The scenario library seen two more ways: as of any moment, and two scenarios as one.

As of a moment, a replay reads only what the board knew then: no ruling it shows may be dated
after that moment, and as of a moment past every event and deadline it is the whole story.
Two scenarios replayed as one scenario of two contests (the second's candidates renamed, its
office another) give each contest the result it has alone: nothing of one contest reaches the
other but through the one-office rule, which names kept apart never meet."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator import load_scenario, replay
from simulator.engine.result import ContestResult
from simulator.model.eventlog import EventLog
from simulator.model.events import Event
from simulator.model.scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]
PATHS = sorted((ROOT / "scenarios").rglob("*.yaml"))
AROUND = [timedelta(0), timedelta(seconds=-1), timedelta(seconds=1), timedelta(hours=1)]


@cache
def library(k: int) -> Scenario:
    return load_scenario(PATHS[k])


@cache
def moments(k: int) -> tuple[datetime, ...]:
    """The scenario's events' times and notices, and its deadlines, whole story."""
    s = library(k)
    whole = replay(s)
    times = {e.at for e in s.events} | {e.known_at for e in s.events}
    times |= {dl.due for c in whole.contests for dl in c.deadlines}
    return tuple(sorted(times))


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(PATHS) - 1), st.integers(0, 10_000), st.sampled_from(AROUND))
def test_as_of_a_moment_no_ruling_comes_from_after_it(k: int, which: int, off: timedelta) -> None:
    s = library(k)
    times = moments(k)
    t = times[which % len(times)] + off
    for c in replay(s, as_of=t).contests:
        late = [(r.at.isoformat(), r.kind.value, r.text) for r in c.rulings if r.at > t]
        assert not late, (PATHS[k].name, t.isoformat(), late)


def _story(c: ContestResult) -> tuple[Any, ...]:
    o = c.outcome
    return (
        c.state,
        o,
        [(r.kind, r.cite, r.text, r.candidates) for r in c.rulings],
        [(d.kind, d.due, d.cite) for d in c.deadlines],
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(PATHS) - 1))
def test_as_of_a_moment_past_everything_is_the_whole_story(k: int) -> None:
    s = library(k)
    late = moments(k)[-1] + timedelta(days=400)
    for a, b in zip(replay(s, as_of=late).contests, replay(s).contests, strict=True):
        assert _story(a) == _story(b), PATHS[k].name


def _renamed(name: str | None) -> str | None:
    # a write-in of no name stays one (it needs no filing in either contest)
    return name if name in (None, "Write-In (Miscellaneous)") else f"Other {name}"


def _moved(e: Event, contest: str, rename: bool) -> Event:
    changes: dict[str, Any] = {"contest": contest}
    if rename:
        for field in ("candidate", "winner"):
            if isinstance(getattr(e, field, None), str):
                changes[field] = _renamed(getattr(e, field))
        if isinstance(getattr(e, "counts", None), tuple):
            changes["counts"] = tuple((_renamed(n), v) for n, v in e.counts)  # type: ignore[attr-defined]
    return attrs.evolve(e, **changes)


def _settings(s: Scenario) -> tuple[Any, ...]:
    return (s.timezone, s.office_closed, s.interpretations, s.parameters)


def _unnamed(text: str) -> str:
    # (a gap ruling's "Other reading: ..." is the ruling's own words, not a renamed candidate)
    return re.sub(r"Other (?!readings?: )", "", text)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(PATHS) - 1), st.integers(0, len(PATHS) - 1))
def test_two_scenarios_as_one_give_each_contest_its_own_result(i: int, j: int) -> None:
    a, b = library(i), library(j)
    if len(a.contests) != 1 or len(b.contests) != 1 or _settings(a) != _settings(b):
        return
    first = attrs.evolve(a.contests[0], id="first")
    second = attrs.evolve(b.contests[0], id="second", office=f"{b.contests[0].office} (other)")
    log = [_moved(e, "first", False) for e in a.events]
    log += [_moved(e, "second", True) for e in b.events]
    log.sort(key=lambda e: e.known_at)  # (a stable sort: each contest keeps its own order)
    both = attrs.evolve(
        a,
        title="two contests",
        contests=(first, second),
        events=EventLog([attrs.evolve(e, index=n) for n, e in enumerate(log)]),
    )
    together = replay(both).contests
    alone_a, alone_b = replay(a).contests[0], replay(b).contests[0]
    assert _story(together[0]) == _story(alone_a), (PATHS[i].name, PATHS[j].name)
    t, o = together[1], alone_b
    assert t.state == o.state, (PATHS[i].name, PATHS[j].name)
    assert [_unnamed(r.text) for r in t.rulings] == [r.text for r in o.rulings]
    assert [tuple(map(_unnamed, r.candidates)) for r in t.rulings] == [
        r.candidates for r in o.rulings
    ]
    assert tuple(map(_unnamed, t.outcome.elected)) == o.outcome.elected
    assert tuple(map(_unnamed, t.outcome.nominated)) == o.outcome.nominated
    assert t.outcome.pending == o.outcome.pending
    assert [(d.kind, d.due) for d in t.deadlines] == [(d.kind, d.due) for d in o.deadlines]
