"""Time the timeline chart of a 20-contest result (SVG and PNG).

Builds a synthetic scenario (a mix of methods, deaths, withdrawals, runoffs and a tie), replays
it, and renders the chart the way ``electsim replay --chart`` does. Run from the project root:

    python benchmarks/bench_charts.py [N_CONTESTS]
"""

from __future__ import annotations

import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simulator.engine.replay import replay
from simulator.engine.result import Result
from simulator.law.vocab import Method, Stage
from simulator.model.events import (
    BallotsPrinted,
    CandidateDied,
    CandidateFiled,
    CandidateWithdrew,
    CanvassHeld,
    Event,
    ReturnsReported,
    RunoffRequested,
)
from simulator.model.scenario import Contest, Scenario
from simulator.views.charts import plot_timeline

TZ = ZoneInfo("America/New_York")


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=TZ)


def synthetic_scenario(n_contests: int = 20) -> Scenario:
    """``n_contests`` contests of the 2027 cycle, each with its own small story."""
    contests: list[Contest] = []
    log: list[tuple[datetime, str, type[Event], dict[str, object]]] = []
    for i in range(n_contests):
        cid = f"c{i:02d}"
        kind = i % 4
        method = (Method.PLURALITY, Method.RUNOFF, Method.PRIMARY, Method.PLURALITY)[kind]
        stage = Stage.PRIMARY if method is Method.PRIMARY else Stage.ELECTION
        seats = 2 if kind == 3 else 1
        contests.append(
            Contest(
                cid,
                method,
                2027,
                seats=seats,
                stage=stage,
                municipality=f"Town {i}",
                office="Commissioner" if seats > 1 else "Mayor",
            )
        )
        names = [f"{cid}-{n}" for n in ("Ann", "Bob", "Cy", "Dee")][: 3 + (kind == 3)]
        for j, name in enumerate(names):
            log.append((at(f"2027-07-0{6 + j}T10:00"), cid, CandidateFiled, {"candidate": name}))
        if i % 5 == 1:
            log.append((at("2027-08-02T09:00"), cid, CandidateDied, {"candidate": names[-1]}))
        if i % 7 == 2:
            log.append((at("2027-08-10T09:00"), cid, CandidateWithdrew, {"candidate": names[-1]}))
        log.append((at("2027-09-03T09:00"), cid, BallotsPrinted, {}))
        day = "2027-10-05" if method in (Method.RUNOFF, Method.PRIMARY) else "2027-11-02"
        canvass = "2027-10-12" if day == "2027-10-05" else "2027-11-09"
        counts = {n: 400 - 60 * j + i for j, n in enumerate(names)}
        log.append((at(f"{day}T21:00"), cid, ReturnsReported, {"counts": counts}))
        log.append((at(f"{canvass}T11:00"), cid, CanvassHeld, {}))
        if method is Method.RUNOFF:
            log.append((at("2027-10-13T09:30"), cid, RunoffRequested, {"candidate": names[1]}))
            log.append(
                (
                    at("2027-11-02T21:00"),
                    cid,
                    ReturnsReported,
                    {"counts": {names[0]: 500, names[1]: 510 + i}},
                )
            )
            log.append((at("2027-11-09T11:00"), cid, CanvassHeld, {}))
    log.sort(key=lambda e: e[0])
    events = tuple(
        cls(at=t, contest=cid, index=k, **kw)  # type: ignore[arg-type]
        for k, (t, cid, cls, kw) in enumerate(log)
    )
    return Scenario(f"Synthetic 2027 cycle, {n_contests} contests", tuple(contests), events)


def main(n_contests: int = 20) -> None:
    scenario = synthetic_scenario(n_contests)
    t0 = time.perf_counter()
    result: Result = replay(scenario)
    t1 = time.perf_counter()
    print(f"replay of {n_contests} contests: {t1 - t0:.3f} s")
    with tempfile.TemporaryDirectory() as tmp:
        for suffix in ("svg", "png"):
            t0 = time.perf_counter()
            plot_timeline(result, scenario=scenario, out=Path(tmp) / f"chart.{suffix}")
            t1 = time.perf_counter()
            print(f"chart of {n_contests} contests, {suffix}: {t1 - t0:.3f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
