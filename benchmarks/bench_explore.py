"""electsim explore over the small grid (part of ``make bench``).

Every configuration with seats 1-2 and up to 2 x seats + 2 candidates, one departure at most:
courses replayed per second (each course is a full replay through the engine), courses,
outcomes and gaps per configuration; then the whole grid serial and on two processes.
"""

from __future__ import annotations

import sys
import time

from simulator.explore import Config, explore, explore_grid
from simulator.vocab import Method


def main() -> int:
    configs = [
        Config(method=m, seats=s, candidates=n)
        for m in Method
        for s in (1, 2)
        for n in range(1, 2 * s + 3)
    ]
    print(f"{'configuration':<40} {'courses':>8} {'outcomes':>8} {'gaps':>5} {'courses/s':>10}")
    total = 0
    start = time.perf_counter()
    for c in configs:
        t = time.perf_counter()
        ex = explore(c)
        dt = time.perf_counter() - t
        total += ex.courses
        print(
            f"{c.label:<40} {ex.courses:>8} {len(ex.outcomes):>8} {len(ex.findings):>5} "
            f"{ex.courses / dt:>10,.0f}"
        )
    serial = time.perf_counter() - start
    print(f"serial: {total:,} courses in {serial:.1f} s ({total / serial:,.0f} courses/s)")
    t = time.perf_counter()
    explore_grid(configs, workers=2)
    parallel = time.perf_counter() - t
    print(f"two processes: {parallel:.1f} s ({serial / parallel:.2f}x the serial speed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
