"""Time ``electsim import-results`` on real data: the biggest contest of the largest November file.

Reads the largest November results file in ``../shared/data/nc-results`` (by size), picks its
biggest contest (the most rows: reporting units times candidates), imports it as a scenario
(reading, building the events, validating them through the loader) and replays it. Prints the
seconds of each step. Run from the project root (``make bench`` runs it too):

    python benchmarks/bench_import.py [DATA_DIR]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simulator.analysis.conformance.data import find_data_dir
from simulator.engine.replay import replay
from simulator.input.importer import import_results, read_results


def main(argv: list[str]) -> int:
    """Run the benchmark; 0 on success, 2 when there is no data."""
    folder = find_data_dir(argv[0] if argv else None)
    if folder is None:
        print("bench_import: no results files found (expected ../shared/data/nc-results)")
        return 2
    novembers = [p for p in folder.iterdir() if p.name[4:6] == "11" and p.name[:8].isdigit()]
    if not novembers:
        print(f"bench_import: no November file in {folder}")
        return 2
    largest = max(novembers, key=lambda p: p.stat().st_size)

    t0 = time.perf_counter()
    results = read_results(largest)
    t_read = time.perf_counter() - t0
    biggest = max(results.contests, key=lambda c: sum(len(counts) for _, counts in c.precincts))
    rows = sum(len(counts) for _, counts in biggest.precincts)
    print(
        f"file:    {largest.name} ({largest.stat().st_size:,} bytes, "
        f"{len(results.contests)} contests)"
    )
    print(
        f"contest: {biggest.name!r}: {len(biggest.precincts)} reporting units, "
        f"{len(biggest.candidates)} candidates, {rows:,} rows, {biggest.total:,} votes"
    )

    t0 = time.perf_counter()
    scenario = import_results(largest, biggest.name, seats=biggest.seats)
    t_import = time.perf_counter() - t0
    t0 = time.perf_counter()
    result = replay(scenario).contests[0]
    t_replay = time.perf_counter() - t0

    print(f"read the file alone:                  {t_read:8.3f} s")
    print(
        f"import (read + build + validate):     {t_import:8.3f} s   {len(scenario.events):,} events"
    )
    print(f"replay:                               {t_replay:8.3f} s")
    print(f"import + replay:                      {t_import + t_replay:8.3f} s")
    seats = (
        f"{biggest.seats} (Vote For)" if biggest.seats else "1 (no Vote For column: the default)"
    )
    print(f"outcome: {result.state}, seats {seats}, elected {list(result.outcome.elected)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
