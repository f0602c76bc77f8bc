"""Random event logs through the machine: replay never fails, and its invariants hold.

A stateful-style test: Hypothesis draws a contest (any method, stage and seat count) and a
sequence of well-formed events of every type at plausible times; the engine must replay it
without an exception (an ineffective event is a ruling, not an error), deterministically, and
never declare more winners than seats or elect a candidate who died.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator import parse_scenario, replay
from simulator.input.loader import scenario_to_dict  # noqa: F401  (round trip used elsewhere)
from tests.stateful import written

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
START = datetime(2027, 6, 25, 9, 0)
TYPES = [
    "candidate_filed",
    "candidate_filed",
    "candidate_filed",
    "candidate_withdrew",
    "candidate_died",
    "candidate_disqualified",
    "filing_extended",
    "ballots_printed",
    "reprint_determined",
    "votes_cast",
    "returns_reported",
    "returns_reported",
    "canvass_held",
    "canvass_held",
    "recount_held",
    "runoff_requested",
    "lot_drawn",
    "oath_taken",
    "nominee_named",
    "filing_closed",
]
METHODS = [
    ("nonpartisan-plurality", "election", None),
    ("nonpartisan-runoff", "election", None),
    ("nonpartisan-primary", "primary", None),
    ("nonpartisan-primary", "election", None),
    ("partisan", "primary", "DEM"),
    ("partisan", "election", None),
]


@st.composite
def logs(draw: st.DrawFn) -> str:
    method, stage, party = draw(st.sampled_from(METHODS))
    seats = draw(st.integers(1, 2))
    n = draw(st.integers(0, 28))
    t = START
    events: list[dict[str, Any]] = []
    for name in draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=5, unique=True)):
        t += timedelta(hours=draw(st.integers(1, 60)))
        events.append({"type": "candidate_filed", "at": written(t), "candidate": name})
    for _ in range(n):
        t += timedelta(hours=draw(st.integers(1, 24 * 12)))
        kind = draw(st.sampled_from(TYPES))
        ev: dict[str, Any] = {"type": kind, "at": written(t)}
        name = draw(st.sampled_from(NAMES))
        if kind in (
            "candidate_filed",
            "candidate_withdrew",
            "candidate_died",
            "candidate_disqualified",
            "runoff_requested",
            "oath_taken",
            "nominee_named",
            "votes_cast",
        ):
            ev["candidate"] = name
        if kind == "candidate_died" and draw(st.booleans()):
            ev["notice_at"] = written(t + timedelta(hours=draw(st.integers(0, 24 * 40))))
        if kind == "reprint_determined":
            ev["enough_time"] = draw(st.booleans())
        if kind == "votes_cast":
            ev["count"] = draw(st.integers(0, 50))
        if kind in ("returns_reported", "recount_held"):
            ev["counts"] = {
                nm: draw(st.integers(0, 30))
                for nm in draw(st.lists(st.sampled_from(NAMES), min_size=1, unique=True))
            }
        if kind == "lot_drawn":
            ev["winner"] = name
        events.append(ev)
    contest = {
        "id": "c",
        "office": "Council",
        "seats": seats,
        "method": method,
        "stage": stage,
        "year": 2027,
    }
    if party:
        contest["party"] = party
    named = {
        e.get("candidate") for e in events if e["type"] in ("candidate_filed", "nominee_named")
    }
    for e in events:  # keep the log valid input: only names that filed somewhere
        for key in ("candidate", "winner"):
            if e["type"] not in ("candidate_filed", "nominee_named") and e.get(key) not in (
                None,
                *named,
            ):
                e[key] = sorted(x for x in named if x)[0]
        if "counts" in e:
            e["counts"] = {k: v for k, v in e["counts"].items() if k in named} or {
                sorted(x for x in named if x)[0]: 1
            }
    # the log in the order the board learned of things (SPEC section 1)
    events.sort(key=lambda e: e.get("notice_at", e["at"]))
    return json.dumps(
        {"format": "electsim/v1", "title": "random", "contests": [contest], "events": events}
    )


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), st.integers(0, 40))
def test_any_well_formed_log_replays_without_error(text: str, cut: int) -> None:
    s = parse_scenario(text, fmt="json")
    a = replay(s)
    b = replay(s)
    assert json.dumps(a.to_json()) == json.dumps(b.to_json())
    c = a.contests[0]
    seats = s.contests[0].seats
    assert len(c.outcome.elected) + c.outcome.vacant_seats <= seats
    assert len(c.outcome.elected) <= seats
    dead = {e.candidate for e in s.events if e.type in ("candidate_died", "candidate_disqualified")}
    assert not dead & set(c.outcome.elected)
    # as of any moment, replay is also well-defined
    if s.events:
        moment = s.events[min(cut, len(s.events) - 1)].at
        replay(s, as_of=moment)
