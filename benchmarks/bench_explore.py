"""electsim explore over the small grid (part of ``make bench``).

Every configuration with seats 1-2 and up to 2 x seats + 2 candidates, one departure at most:
per configuration the abstract states visited (the distinct beginnings of the courses, step by
step), the courses replayed (each folded through the engine from the state after the longest
beginning it shares with a course before), the beginnings that reached a canonical state at the
vote reached before (their courses are not repeated), the distinct outcomes, the gaps and
conflicts, and the states and courses per second of processor time; then the whole grid serial
and on two processes (wall time), the ratio between them; then the K=1 grid of every kind, seats
1-3 and 1-8 candidates, on two processes, largest configurations first (``--small`` leaves it
out; ``make bench`` measures it once, beside the engine step and the cold start, in
``bench.py``). The targets of the explorer (25,000 abstract states per second per core by CPU
time, the K=1 grid of seats 1-3 and up to 8 candidates under 20 s on two cores, any configuration
with up to 2 x seats + 2 candidates under 5 s) are printed beside what is measured.
"""

from __future__ import annotations

import gc
import resource
import sys
import time
from collections.abc import Sequence
from typing import Any

from simulator.analysis.explore.config import Config
from simulator.analysis.explore.courses import courses
from simulator.analysis.explore.documents import scenario_doc
from simulator.analysis.explore.exploration import explore, explore_grid
from simulator.analysis.explore.folds import Folds, folds_of, forget_folds
from simulator.engine.replay import finish, replay
from simulator.engine.result import ContestResult
from simulator.input.loader import structure
from simulator.law.vocab import Method


def _whole(config: Config, events: Sequence[dict[str, Any]]) -> ContestResult:
    """A course replayed from its filings, as ``electsim replay`` would."""
    doc = scenario_doc(config, events, "a course")
    return replay(structure(doc, source="<bench>")).contests[0]


def main() -> int:
    configs = [
        Config(method=m, seats=s, candidates=n)
        for m in Method
        for s in (1, 2)
        for n in range(1, 2 * s + 3)
    ]
    print(
        f"{'configuration':<40} {'states':>8} {'courses':>8} {'merged':>6} {'outcomes':>8} "
        f"{'gaps':>5} "
        f"{'cpu s':>7} {'states/s':>9} {'courses/s':>10}"
    )
    total = 0
    states = 0
    cpu = 0.0
    slowest = (0.0, "")
    start = time.perf_counter()
    for c in configs:
        t = time.process_time()
        ex = explore(c)
        dt = time.process_time() - t
        cpu += dt
        total += ex.courses
        states += ex.states
        slowest = max(slowest, (dt, c.label))
        print(
            f"{c.label:<40} {ex.states:>8} {ex.courses:>8} {ex.merged:>6} {len(ex.outcomes):>8} "
            f"{len(ex.findings):>5} {dt:>7.2f} {ex.states / max(dt, 1e-9):>9,.0f} "
            f"{ex.courses / max(dt, 1e-9):>10,.0f}"
        )
    serial = time.perf_counter() - start
    print(
        f"serial: {states:,} abstract states and {total:,} courses in {serial:.1f} s wall, "
        f"{cpu:.1f} s of processor: {states / cpu:,.0f} states/s and {total / cpu:,.0f} "
        f"courses/s per core (target 25,000 abstract states/s per core: "
        f"{states / cpu / 25_000:.2f}x of it)"
    )
    print(f"slowest configuration: {slowest[1]}, {slowest[0]:.1f} s of processor (target 5 s)")
    # the two ways courses share work, each against the enumeration without it, on one
    # configuration: expanding a state at the vote (or a runoff's call) once, and folding from
    # a shared beginning
    one = Config(method=Method.RUNOFF, seats=2, candidates=5)
    forget_folds()  # each of the two starts from the filings
    t = time.process_time()
    memo = explore(one)
    with_memo = time.process_time() - t
    forget_folds()
    t = time.process_time()
    full = explore(one, memo=False)
    without = time.process_time() - t
    print(
        f"{one.label}: {memo.courses:,} courses with states at the vote and at a runoff's "
        f"call expanded once, "
        f"{full.courses:,} without ({full.courses / memo.courses:.2f}x); {with_memo:.2f} s "
        f"against {without:.2f} s of processor ({without / with_memo:.2f}x)"
    )
    logs = [course.events for course, _gone in courses(one, memo=False)]
    t = time.process_time()
    for log in logs:
        _whole(one, log)
    whole = time.process_time() - t
    folds = Folds(one)
    t = time.process_time()
    for log in logs:
        folds.result(log)
    shared = time.process_time() - t
    print(
        f"{one.label}: its {len(logs):,} courses replayed whole in {whole:.2f} s of processor, "
        f"folded from their shared beginnings in {shared:.2f} s ({whole / shared:.2f}x; "
        f"{folds.folded:,} fold steps)"
    )
    engine_share(Config(method=Method.RUNOFF, seats=2, candidates=6))
    t = time.perf_counter()
    explore_grid(configs, workers=2)
    parallel = time.perf_counter() - t
    print(f"two processes: {parallel:.1f} s wall ({serial / parallel:.2f}x the serial speed)")
    if "--small" not in sys.argv:
        whole_grid()
    return 0


def engine_share(config: Config) -> tuple[float, float]:
    """How much of an exploration is the engine's own steps: the same courses folded again
    from their shared beginnings, each to the end of its story, with their events read
    beforehand (what the enumeration, the loader, the canonical states and the reading of
    the results cost is left out). The states per second this allows is the most the
    explorer could reach on this machine with the engine as it is."""
    forget_folds()
    t = time.process_time()
    ex = explore(config)
    whole = time.process_time() - t
    logs = [course.events for course, _gone in courses(config)]
    read = folds_of(config).events
    folds = Folds(config)
    folds.events = read
    # the logs held here for the measurement (an exploration holds one at a time) are left out
    # of the garbage collector's walks: they made the engine's steps look a fifth dearer
    gc.collect()
    gc.freeze()
    t = time.process_time()
    for log in logs:
        state, evs = folds.fold(log)
        finish(state, folds.ctx, None, evs[-1].index if evs else -1)
    engine = time.process_time() - t
    gc.unfreeze()
    forget_folds()
    print(
        f"{config.label}: the engine's own steps take {engine:.2f} s of the exploration's "
        f"{whole:.2f} s of processor ({engine / whole:.0%}; {folds.folded:,} steps, "
        f"{engine / max(folds.folded, 1) * 1e6:.0f} us a step with the end of each story); "
        f"with everything else free, {ex.states / engine:,.0f} abstract states/s per core "
        f"(target 25,000)"
    )
    return engine / max(folds.folded, 1) * 1e6, engine / whole


def whole_grid() -> tuple[float, float, float]:
    """The K=1 grid: every kind (the partisan method as its primary and as its general
    election), seats 1-3, candidates 1-8, on two processes (target: under 20 s). Returns the
    abstract states per second of processor (per core), the wall and the processor seconds."""
    grid = [
        Config(method=m, seats=s, candidates=n, general=g)
        for m in Method
        for g in ((False, True) if m is Method.PARTISAN else (False,))
        for s in (1, 2, 3)
        for n in range(1, 9)
    ]
    t, c = time.perf_counter(), _cpu()
    results = explore_grid(grid, workers=2)
    wall, cpu = time.perf_counter() - t, _cpu() - c
    states = sum(ex.states for ex in results)
    work = sum(ex.cpu for ex in results)
    biggest = max(results, key=lambda ex: ex.cpu)
    print(
        f"the K=1 grid ({len(grid)} configurations, {states:,} abstract states, "
        f"{sum(ex.courses for ex in results):,} courses) on two processes: {wall:.1f} s wall, "
        f"{cpu:.1f} s of processor (target under 20 s wall); {states / work:,.0f} states/s per "
        f"core; the largest, {biggest.config.label}, {biggest.cpu:.1f} s"
    )
    return states / work, wall, cpu


def _cpu() -> float:
    """Processor seconds of this process and of the worker processes it waited for."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


if __name__ == "__main__":
    sys.exit(main())
