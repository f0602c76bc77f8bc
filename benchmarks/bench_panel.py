"""How long the what-if panel takes to answer a change on a 50-event scenario: the variant
built and checked, replayed, the "where does it flip" sweep of the control moved (folding the
events its variants share once), and every output written as HTML. The target is 200 ms.

And how long ``electsim app`` takes to start on a contest of 10,000 candidates (each files, one
batch of returns, the canvass): its panel built and its first page written, beside the replay
of the same file in the same process (the panel replays it too, so about 1x is the floor; it
was quadratic in the candidates once, and 100,000 had not started after five minutes).

Run alone (``python benchmarks/bench_panel.py``) or as a section of ``make bench``."""

from __future__ import annotations

import statistics
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench_scaling
import bench_sweep

from simulator.analysis.panel.model import PanelState
from simulator.analysis.panel.page import page_html
from simulator.analysis.panel.render import outputs_html
from simulator.engine.replay import replay
from simulator.input.loader import load_scenario, parse_scenario

GOAL = 0.200  # seconds a redraw


def redraws() -> dict[str, tuple[float, float]]:
    """Seconds of a redraw, by the kind of control moved: the first move of a control (its
    strip swept) and the median of moving it further (the strip reused: the other controls
    have not changed)."""
    state = PanelState(bench_sweep.scenario())
    assert len(state.base.events) == 50
    moves = {
        "a count (late return)": (
            state.key("Ann's votes (P42)"),
            [150, 170, 160, 140, 161, 162, 163, 159],
        ),
        "a date (the request)": (
            state.key("Bob requested a runoff"),
            [date(2027, 10, d) for d in (14, 15, 16, 13, 14, 15, 16, 13)],
        ),
        "a date (an early filing)": (
            state.key("Cy filed"),
            [date(2027, 7, d) for d in (9, 10, 11, 12, 13, 14, 15, 8)],
        ),
    }
    out = {}
    for what, (key, values) in moves.items():
        times, cpus = [], []
        for v in values:
            t0, c0 = time.perf_counter(), time.process_time()
            assert state.set(key, v), state.error
            outputs_html(state)
            times.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
        state.reset()
        out[what] = (times[0], statistics.median(times[1:]))
        CPU[what] = (cpus[0], statistics.median(cpus[1:]))
    return out


#: the CPU seconds of the last :func:`redraws`, likewise
CPU: dict[str, tuple[float, float]] = {}


def start(candidates: int = 10_000) -> tuple[float, float, float, float]:
    """Seconds to load the file, to replay it, to replay it and read its timeline (as
    ``electsim replay`` does to print it), and to start the app on it (its panel built, its
    first page written); all but the load the best of three."""
    import tempfile

    replay(parse_scenario(bench_scaling.log(3, 1), fmt="json"))  # modules loaded, caches warm
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "candidates.json"
        path.write_text(bench_scaling.log(candidates, 1))
        t0 = time.perf_counter()
        scenario = load_scenario(path)
        load = time.perf_counter() - t0
    runs: list[float] = []
    reads: list[float] = []
    starts: list[float] = []
    for _ in range(3):
        t0 = time.perf_counter()
        result = replay(scenario)
        runs.append(time.perf_counter() - t0)
        sum(len(c.timeline) for c in result.contests)
        reads.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        page_html(PanelState(scenario))
        starts.append(time.perf_counter() - t0)
    return load, min(runs), min(reads), min(starts)


def print_start(candidates: int = 10_000) -> None:
    load, run, read, app = start(candidates)
    print(
        f"  {candidates:,} candidates: load {load:6.3f} s, replay {run:6.3f} s, "
        f"with its timeline read {read:6.3f} s"
    )
    print(
        f"  electsim app's start, the panel and its first page: {app:6.3f} s "
        f"({app / read:.1f}x the replay with its timeline, {app / run:.1f}x the bare replay)"
    )


def main() -> int:
    print_start()
    worst = 0.0
    for what, (first, then) in redraws().items():
        print(
            f"  moving {what:<26} first {first * 1000:6.1f} ms, then {then * 1000:6.1f} ms"
            "  (target <= 200 ms)"
        )
        worst = max(worst, first, then)
    return 0 if worst <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
