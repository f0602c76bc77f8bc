"""Exploring a configuration: enumerate its courses, replay each, group them by outcome with the
shortest witness of each; and a grid of configurations on any engine (this process, a pool of
processes, a Dask cluster).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from simulator.analysis.explore.config import Config
from simulator.analysis.explore.courses import courses
from simulator.analysis.explore.folds import forget_folds, run
from simulator.analysis.explore.outcomes import (
    Course,
    Exploration,
    Outcome,
    RulingReader,
    Witness,
    impossible,
    outcome_of,
)
from simulator.analysis.explore.votes import feasible, threshold_share, vote_classes
from simulator.analysis.workers import Processes, Serial
from simulator.engine.replay import (
    collector_paused,
)
from simulator.engine.result import listed_deadlines

if TYPE_CHECKING:
    from simulator.analysis.workers import Engine


def _guarded(
    found: Iterator[tuple[Course, tuple[str, ...]]], errors: list[tuple[str, str]]
) -> Iterator[tuple[Course, tuple[str, ...]]]:
    """The courses of ``found`` until the engine raises while the enumeration replays a
    beginning of one (a bug): the error is recorded and the enumeration stops there."""
    last: tuple[str, ...] = ()
    try:
        for item in found:
            last = item[0].steps
            yield item
    except Exception as error:  # an engine error is a finding to report
        where = "; ".join(last) or "the first course"
        errors.append(
            (f"after {where}: the enumeration stopped", f"{type(error).__name__}: {error}")
        )


def explore(config: Config, *, reduce: bool = True, memo: bool = True) -> Exploration:
    """Enumerate the configuration's courses, replay each, group them by outcome (``reduce``
    and ``memo``: see :func:`~simulator.analysis.explore.courses.courses`).

    The cyclic garbage collector pauses meanwhile: the states, rulings and events kept refer
    only to older values (an exploration leaves no cycles: a test checks), and the collector
    walked all of them, again and again, as they grew. The states folded are let go before it
    runs again as before, once the exploration ends: it would walk them all once more."""
    with collector_paused():
        try:
            return _explore(config, reduce=reduce, memo=memo)
        finally:
            forget_folds()


def _explore(config: Config, *, reduce: bool, memo: bool) -> Exploration:
    best: dict[Outcome, Witness] = {}
    count: dict[Outcome, int] = {}
    cites: Counter[str] = Counter()
    landmarks: Counter[str] = Counter()
    errors: list[tuple[str, str]] = []
    n = 0
    seen: set[tuple[str, ...]] = set()
    merged = 0
    said = RulingReader()
    started = time.process_time()
    for course, departed in _guarded(courses(config, reduce=reduce, memo=memo), errors):
        ends = len(course.steps) + (0 if course.merged else 1)  # a merge is no step of its own
        # the beginnings not seen before (every beginning of one seen was seen with it)
        for i in range(ends - 1, 0, -1):
            head = course.steps[:i]
            if head in seen:
                break
            seen.add(head)
        try:
            result = course.result or run(config, course.events)
        except Exception as error:  # an engine error is a finding to report
            n += 1
            errors.append(("; ".join(course.steps), f"{type(error).__name__}: {error}"))
            continue
        read = said.rulings(result.rulings)
        cites.update(read[0])
        landmarks.update(said.deadlines(listed_deadlines(result)))
        if course.merged:
            merged += 1
            continue
        merged += course.joined
        n += 1
        broken = impossible(result, config.seats)
        if broken:  # a result no law allows is an engine error too, reported with its course
            errors.append(("; ".join(course.steps), broken))
        outcome = outcome_of(result, departed, read=read)
        count[outcome] = count.get(outcome, 0) + 1
        old = best.get(outcome)
        if old is None or len(course.events) < len(old.course.events):
            best[outcome] = Witness(course, result, departed)
    share = threshold_share(config.reads, config.seats)
    infeasible = sum(
        1
        for m in range(1, config.candidates + 1)
        for vc in vote_classes(config.reads, config.seats, m)
        if not feasible(vc, share)
    )
    rows = sorted(
        ((o, best[o], count[o]) for o in best),
        key=lambda row: (len(row[1].course.events), row[0].describe()),
    )
    return Exploration(
        config=config,
        courses=n,
        states=len(seen),
        outcomes=tuple(rows),
        cites=tuple(sorted(cites.items())),
        landmarks=tuple(sorted(landmarks.items())),
        infeasible=infeasible,
        errors=tuple(errors),
        merged=merged,
        cpu=time.process_time() - started,
    )


def explore_many(configs: Sequence[Config]) -> list[Exploration]:
    """Explore configurations one after another (the job each engine runs on a chunk)."""
    return [explore(c) for c in configs]


def explore_grid(
    configs: Sequence[Config], *, workers: int = 1, engine: Engine | None = None
) -> list[Exploration]:
    """Explore several configurations: in this process, on a pool of ``workers`` processes, or
    on any :class:`simulator.analysis.workers.Engine` (a Dask cluster); the results are the same
    and in
    the order of ``configs`` whichever runs them. Each configuration is one task."""
    if engine is None:
        engine = Processes(workers=workers, chunksize=1) if workers > 1 else Serial()
    # the largest first, so that the small ones fill the workers' last gaps
    order = sorted(range(len(configs)), key=lambda i: -_size(configs[i]))
    done = engine.run(explore_many, [configs[i] for i in order])
    out: list[Exploration | None] = [None] * len(configs)
    for k, i in enumerate(order):
        out[i] = done[k]
    return [ex for ex in out if ex is not None]


def _size(config: Config) -> int:
    """A rough measure of a configuration's work (its courses grow about with the square of
    the candidates, and with the seats), to start the largest first."""
    return config.candidates**2 * config.seats * (1 + config.departures)
