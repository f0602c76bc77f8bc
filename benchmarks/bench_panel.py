"""How long the what-if panel takes to answer a change on a 50-event scenario: the variant
built and checked, replayed, the "where does it flip" sweep of the control moved (folding the
events its variants share once), and every output written as HTML. The target is 200 ms.

Run alone (``python benchmarks/bench_panel.py``) or as a section of ``make bench``."""

from __future__ import annotations

import statistics
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench_sweep

from simulator.analysis.panel.model import PanelState
from simulator.analysis.panel.render import outputs_html

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


def main() -> int:
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
