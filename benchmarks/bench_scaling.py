"""How replay grows with the size of a contest and the number of contests: one contest of 100,
1,000 and 10,000 candidates (each files, one batch of returns, the canvass), and 10, 100 and
1,000 contests of five candidates each. Prints seconds to load and to replay, and the ratio of
each replay to the one ten times smaller (about 10 is linear; about 100 quadratic). Run from the
project root (``make bench`` runs it too):

    python benchmarks/bench_scaling.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simulator.engine.replay import replay
from simulator.input.loader import parse_scenario


def log(candidates: int, contests: int) -> str:
    events: list[dict[str, Any]] = []
    ids = [f"c{c}" for c in range(contests)]
    for cid in ids:
        events += [
            {"type": "candidate_filed", "at": "2027-07-06T09:00", "candidate": f"Cand {i:05d}"}
            | {"contest": cid}
            for i in range(candidates)
        ]
    for cid in ids:
        counts = {f"Cand {i:05d}": (i * 7919) % 10007 for i in range(candidates)}
        events.append({"type": "returns_reported", "at": "2027-11-02T21:00", "counts": counts})
        events[-1]["contest"] = cid
    for cid in ids:
        events.append({"type": "canvass_held", "at": "2027-11-09T11:00", "contest": cid})
    doc = {
        "format": "electsim/v1",
        "title": f"{contests} contest(s) of {candidates} candidates",
        "contests": [
            {"id": cid, "method": "nonpartisan-plurality", "year": 2027, "seats": 3} for cid in ids
        ],
        "events": events,
    }
    return json.dumps(doc)


def measure(candidates: int, contests: int) -> tuple[float, float]:
    text = log(candidates, contests)
    start = time.perf_counter()
    scenario = parse_scenario(text, fmt="json")
    loaded = time.perf_counter()
    replay(scenario)
    return loaded - start, time.perf_counter() - loaded


def main() -> int:
    replay(parse_scenario(log(3, 1), fmt="json"))  # warm up: imports, calendars
    for label, sizes in (
        ("candidates in one contest", [(n, 1) for n in (100, 1_000, 10_000)]),
        ("contests of 5 candidates", [(5, n) for n in (10, 100, 1_000)]),
    ):
        print(f"{label}:")
        before = None
        for candidates, contests in sizes:
            load, run = measure(candidates, contests)
            n = candidates if contests == 1 else contests
            ratio = f"  x{run / before:.1f} for x10" if before else ""
            print(f"  {n:>6,}  load {load:6.3f} s  replay {run:6.3f} s{ratio}")
            before = run
    return 0


if __name__ == "__main__":
    sys.exit(main())
