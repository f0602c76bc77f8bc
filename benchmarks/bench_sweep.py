"""Benchmark: a what-if sweep of 10,000 variants of a 50-event scenario, serial and on two
worker processes (``python benchmarks/bench_sweep.py``; not part of ``make test``).

The scenario is a runoff-method first election: four candidates, 44 precinct returns, the
canvass and a runoff request. The sweep varies one candidate's votes in one precinct from 0 to
9,999, so the variants cross from "Bob elected" (his own request rejected: he leads) through
"runoff called" (Ann leads short of a majority, Bob asked) to "Ann elected" (a majority).
The two runs must give the same rows; the script prints the seconds each took (wall clock),
and the CPU seconds spent, which tell a slow engine from a machine busy with other work.
"""

from __future__ import annotations

import os
import resource
import sys
import time

from simulator import Votes, parse_scenario, sweep
from simulator.model.scenario import Scenario

N_VARIANTS = 10_000
WORKERS = 2


def scenario() -> Scenario:
    lines = [
        "format: electsim/v1",
        "title: Sweep benchmark, council seat A, 2027",
        "contests: [{id: seat-a, municipality: City of Example, office: Council Seat A,",
        "            seats: 1, method: nonpartisan-runoff, year: 2027}]",
        "events:",
    ]
    for day, name in enumerate(("Ann", "Bob", "Cy", "Dee"), start=6):
        lines.append(f"  - {{type: candidate_filed, at: 2027-07-{day:02d}, candidate: {name}}}")
    lines.append("  - {type: ballots_printed, at: 2027-09-10}")
    for p in range(43):
        lines.append(
            f"  - {{type: returns_reported, at: '2027-10-05T{20 + p // 30}:{p % 30 * 2:02d}',"
            f" precinct: P{p:02d}, counts: {{Ann: {120 + p}, Bob: {118 + p}, Cy: 40, Dee: 25}}}}"
        )
    lines.append("  - {type: canvass_held, at: '2027-10-12T11:00'}")
    lines.append("  - {type: runoff_requested, at: '2027-10-13T09:30', candidate: Bob}")
    return parse_scenario("\n".join(lines) + "\n", source="bench_sweep")


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> int:
    s = scenario()
    assert len(s.events) == 50, len(s.events)
    vary = Votes(5, "Ann")  # Ann's votes in the first precinct's returns
    values = range(N_VARIANTS)
    print(
        f"sweep of {N_VARIANTS} variants of a {len(s.events)}-event scenario "
        f"({os.cpu_count()} CPUs here)"
    )

    load = os.getloadavg()[0]
    print(f"  load average before: {load:.2f}")

    t0, c0 = time.perf_counter(), _cpu()
    serial = sweep(s, vary, values)
    t1, c1 = time.perf_counter(), _cpu()
    print(f"  serial:    {t1 - t0:6.2f} s  ({c1 - c0:6.2f} CPU s)")

    parallel = sweep(s, vary, values, workers=WORKERS)
    t2, c2 = time.perf_counter(), _cpu()
    print(f"  {WORKERS} workers: {t2 - t1:6.2f} s  ({c2 - c1:6.2f} CPU s, all processes)")

    if serial.rows != parallel.rows:
        print("  MISMATCH: the parallel rows differ from the serial ones", file=sys.stderr)
        return 1
    print(f"  identical rows; {len(serial.bands())} band(s):")
    for band in serial.bands():
        print(f"    {band.first:>6} .. {band.last:>6}  {band.outcome}  [{band.ruling}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
