"""electsim benchmarks (``make bench``; not part of ``make test``).

Measures, on this machine:
1. replaying a log of 1,000,000 ``votes_cast`` events over four contests, loaded from a JSON
   file and from a YAML file, and from memory (events already built);
2. peak memory (max RSS) of the process.
Later sections (charts, sweeps, imports) add their own measurements below.
"""

from __future__ import annotations

import json
import random
import resource
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from simulator import load_scenario, replay
from simulator.events import CandidateFiled, CanvassHeld, Event, VotesCast
from simulator.scenario import Contest, Scenario
from simulator.vocab import Method

TZ = ZoneInfo("America/New_York")
N_VOTES = 1_000_000
CONTESTS = [
    ("mayor", Method.PLURALITY, 1, ["Ann", "Bob", "Cy"]),
    ("council", Method.PLURALITY, 3, ["Dee", "Eve", "Fay", "Gus", "Hal"]),
    ("seat-a", Method.RUNOFF, 1, ["Ivy", "Jon", "Kim"]),
    ("seat-b", Method.RUNOFF, 2, ["Lee", "Max", "Ned", "Oz"]),
]


def scenario_dict(n_votes: int = N_VOTES, seed: int = 7) -> dict[str, object]:
    rng = random.Random(seed)
    events: list[dict[str, object]] = []
    for cid, _, _, names in CONTESTS:
        for i, name in enumerate(names):
            events.append(
                {
                    "type": "candidate_filed",
                    "contest": cid,
                    "at": f"2027-07-{6 + i:02d}T10:00",
                    "candidate": name,
                }
            )
    start = datetime(2027, 10, 5, 6, 30)
    weights = {cid: [rng.random() + 0.2 for _ in names] for cid, _, _, names in CONTESTS}
    for k in range(n_votes):
        cid, _, _, names = CONTESTS[k % len(CONTESTS)]
        name = rng.choices(names, weights[cid])[0]
        at = start + timedelta(seconds=k * 46 // 1000)
        events.append(
            {"type": "votes_cast", "contest": cid, "at": at.isoformat(), "candidate": name}
        )
    for cid, _, _, _ in CONTESTS:
        events.append({"type": "canvass_held", "contest": cid, "at": "2027-11-09T11:00"})
    return {
        "format": "electsim/v1",
        "title": "one million votes",
        "contests": [
            {
                "id": cid,
                "municipality": "Town of Bench",
                "office": cid,
                "seats": seats,
                "method": m.value,
                "year": 2027,
                **({"date": "2027-11-02"} if m is Method.PLURALITY else {}),
            }
            for cid, m, seats, _ in CONTESTS
        ],
        "events": events,
    }


def in_memory(n_votes: int = N_VOTES) -> Scenario:
    rng = random.Random(7)
    contests = tuple(
        Contest(
            id=cid,
            method=m,
            year=2027,
            seats=seats,
            municipality="Town of Bench",
            office=cid,
            date=datetime(2027, 11, 2).date() if m is Method.PLURALITY else None,
        )
        for cid, m, seats, _ in CONTESTS
    )
    events: list[Event] = []
    for cid, _, _, names in CONTESTS:
        for i, name in enumerate(names):
            events.append(
                CandidateFiled(
                    at=datetime(2027, 7, 6 + i, 10, tzinfo=TZ),
                    contest=cid,
                    candidate=name,
                    index=len(events),
                )
            )
    start = datetime(2027, 10, 5, 6, 30, tzinfo=TZ)
    for k in range(n_votes):
        cid, _, _, names = CONTESTS[k % len(CONTESTS)]
        events.append(
            VotesCast(
                at=start + timedelta(seconds=k * 46 // 1000),
                contest=cid,
                candidate=names[rng.randrange(len(names))],
                index=len(events),
            )
        )
    for cid, _, _, _ in CONTESTS:
        events.append(
            CanvassHeld(at=datetime(2027, 11, 9, 11, tzinfo=TZ), contest=cid, index=len(events))
        )
    return Scenario(title="one million votes", contests=contests, events=tuple(events))


def timed(label: str, fn, n: int):  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    out = fn()
    dt = time.perf_counter() - t0
    print(f"{label:<44} {dt:8.2f} s   {n / dt:>12,.0f} events/s")
    return out


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else N_VOTES
    print(f"== replaying {n:,} votes_cast events over {len(CONTESTS)} contests ==")
    doc = scenario_dict(n)
    total = len(doc["events"])  # type: ignore[arg-type]
    with tempfile.TemporaryDirectory() as tmp:
        jpath = Path(tmp) / "million.json"
        jpath.write_text(json.dumps(doc))
        s = timed("load JSON file", lambda: load_scenario(jpath), total)
        timed("replay (loaded from JSON)", lambda: replay(s), total)
        import yaml

        ypath = Path(tmp) / "million.yaml"
        ypath.write_text(
            yaml.dump(
                doc,
                Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper),
                default_flow_style=None,
                width=200,
            )
        )
        timed("load YAML file", lambda: load_scenario(ypath), total)
    mem = timed("build events in memory", lambda: in_memory(n), total)
    result = timed("replay from memory", lambda: replay(mem), total)
    for c in result.contests:
        print(f"   {c.id:<8} {c.state:<16} elected={list(c.outcome.elected)}")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {rss:,.0f} MiB")
    for extra in ("bench_charts", "bench_sweep", "bench_import", "bench_scaling", "bench_explore"):
        path = Path(__file__).with_name(f"{extra}.py")
        if path.exists():
            print(f"\n== {extra} ==")
            import runpy

            try:
                runpy.run_path(str(path), run_name="__main__")
            except SystemExit as stop:  # each script ends with sys.exit(main())
                if stop.code not in (None, 0):
                    print(f"{extra} failed with exit code {stop.code}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
