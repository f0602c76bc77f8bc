"""Replay is linear in the number of candidates: the work (counted as lines of electsim run,
never as time) for four times the candidates is about four times the work, not sixteen."""

from __future__ import annotations

import json
import sys
from types import FrameType
from typing import Any

from simulator.engine.replay import replay
from simulator.input.loader import parse_scenario


def _scenario(candidates: int, contests: int = 1) -> Any:
    events: list[dict[str, Any]] = []
    for c in range(contests):
        names = [f"Candidate {i:05d}" for i in range(candidates)]
        events += [
            {
                "type": "candidate_filed",
                "at": "2027-07-06T09:00",
                "candidate": n,
                "contest": f"c{c}",
            }
            for n in names
        ]
    for c in range(contests):
        counts = {f"Candidate {i:05d}": i for i in range(candidates)}
        events.append(
            {
                "type": "returns_reported",
                "at": "2027-11-02T21:00",
                "counts": counts,
                "contest": f"c{c}",
            }
        )
    doc = {
        "format": "electsim/v1",
        "title": "many",
        "contests": [
            {"id": f"c{c}", "method": "nonpartisan-plurality", "year": 2027, "seats": 3}
            for c in range(contests)
        ],
        "events": events,
    }
    return parse_scenario(json.dumps(doc), fmt="json")


def _lines_run(scenario: Any) -> int:
    """Lines of simulator/ code executed by one replay."""
    count = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if "simulator" not in frame.f_code.co_filename:
            return None
        if event == "line":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        replay(scenario)
    finally:
        sys.settrace(None)
    return count


def test_four_times_the_candidates_is_about_four_times_the_work() -> None:
    small, large = _lines_run(_scenario(150)), _lines_run(_scenario(600))
    assert large / small < 6, (small, large)


def test_four_times_the_contests_is_about_four_times_the_work() -> None:
    small, large = _lines_run(_scenario(5, 10)), _lines_run(_scenario(5, 40))
    assert large / small < 6, (small, large)
