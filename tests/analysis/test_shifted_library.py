"""The scenario library with one event moved in time: the engine replays every such log.

Each example takes a library scenario, moves one of its events (and its notice) by hours or
days, puts the log back in the order the board learned of things and replays it, sometimes
under another reading of an unclear text. No log may make the engine fail (a fault that moving
a tied runner-up's early demand once exposed), no ruling may announce as still to come a day
already gone, and no dead candidate may be said to have withdrawn."""

from __future__ import annotations

import re
from datetime import timedelta
from functools import cache
from pathlib import Path

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator import load_scenario, replay
from simulator.analysis.explore import other_readings
from simulator.model.eventlog import EventLog
from simulator.model.events import CandidateDied, CandidateWithdrew, Event
from simulator.model.scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]
PATHS = sorted((ROOT / "scenarios").rglob("*.yaml"))
HOURS = [-170, -50, -26, -3, -1, 1, 2, 5, 26, 50, 170, 600]
READINGS = [None, *other_readings()]
AHEAD = re.compile(
    r"\b(by|until|a runoff on|a second primary on) (\d{4}-\d{2}-\d{2})(?: (\d{2}:\d{2}))?"
)


@cache
def library(k: int) -> tuple[Scenario, list[Event]]:
    s = load_scenario(PATHS[k])
    return s, list(s.events)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, len(PATHS) - 1),
    st.integers(0, 10_000),
    st.sampled_from(HOURS),
    st.sampled_from(READINGS),
)
def test_a_library_scenario_with_an_event_moved_replays(
    k: int, which: int, hours: int, reading: tuple[str, object] | None
) -> None:
    s, events = library(k)
    i = which % len(events)
    shift = timedelta(hours=hours)
    moved = attrs.evolve(events[i], at=events[i].at + shift)
    if getattr(moved, "notice_at", None) is not None:
        moved = attrs.evolve(moved, notice_at=moved.notice_at + shift)
    log = sorted([*events[:i], moved, *events[i + 1 :]], key=lambda e: e.known_at)
    log = [attrs.evolve(e, index=j) for j, e in enumerate(log)]
    if reading is not None:
        s = attrs.evolve(
            s, interpretations=attrs.evolve(s.interpretations, **{reading[0]: reading[1]})
        )
    result = replay(attrs.evolve(s, events=EventLog(log)))
    quit_ = {e.candidate for e in log if isinstance(e, CandidateWithdrew)}
    dead = {e.candidate for e in log if isinstance(e, CandidateDied)} - quit_
    for c in result.contests:
        for r in c.rulings:
            assert not any(f"{d} withdrew" in r.text for d in dead), r.text
            here = r.at.astimezone(s.tz)
            for m in AHEAD.finditer(r.text):
                when = m.group(2) + (f"T{m.group(3)}" if m.group(3) else "")
                now = here.strftime("%Y-%m-%dT%H:%M" if m.group(3) else "%Y-%m-%d")
                assert when >= now, (r.kind.value, r.text)
