"""The futures of the bundled scenarios (``electsim next``): the time of
:func:`simulator.analysis.futures.futures` with one further departure, over every bundled
scenario cut at each event's instant, sampled to stay within about a minute; prints the median
and the 95th percentile (issue 46's goal: 0.2 s median, 1 s at the 95th percentile on one core).

``python benchmarks/bench_futures.py [--samples N] [--seconds S] [--departures K]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from simulator.analysis.futures import futures
from simulator.input.loader import load_scenario

ROOT = Path(__file__).resolve().parent.parent


def cases(seed: int = 46) -> list[tuple[Path, int]]:
    """Every bundled scenario with each of its events' instants, in a shuffled order."""
    out = []
    for path in sorted((ROOT / "scenarios").rglob("*.yaml")):
        n = len(load_scenario(path).events)
        out += [(path, i) for i in range(n)]
    random.Random(seed).shuffle(out)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--departures", type=int, default=1)
    args = ap.parse_args()
    all_cases = cases()
    times: list[tuple[float, str]] = []
    start = time.perf_counter()
    for path, i in all_cases[: args.samples]:
        if time.perf_counter() - start > args.seconds:
            break
        s = load_scenario(path)
        cut = list(s.events)[i].known_at
        t0 = time.process_time()
        futures(s, as_of=cut, departures=args.departures)
        times.append((time.process_time() - t0, f"{path.name} @ {cut:%Y-%m-%d %H:%M}"))
    values = sorted(t for t, _ in times)
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    print(
        f"  futures, departures={args.departures}: {len(values)} of {len(all_cases)} cuts, "
        f"CPU median {statistics.median(values):.3f} s, 95th percentile {p95:.3f} s, "
        f"most {values[-1]:.3f} s (goal: 0.2 s median, 1 s at the 95th percentile)"
    )
    for t, what in sorted(times, reverse=True)[:3]:
        print(f"    slowest: {t:.3f} s  {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
