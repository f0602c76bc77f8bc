"""A mutation campaign over the scenario library: ``python -m tests.fuzz_mutations``.

Options: ``--variants N`` (default 2000), ``--seconds S`` (stop early when the time is up),
``--seed K`` (the first seed; each variant's seed follows), ``--jobs J`` (worker processes,
default 2), ``--keep DIR`` (where failing variants are copied). Each worker runs the commands
of :func:`tests.mutations.commands` in-process with a per-command alarm; a memory limit is set
on each worker (``--memory``, default 1 GiB above what the worker uses at start). Prints the
counts by command and exit code, and exits 1 if any command exited 1, hung, or gave exit 2
without saying where.
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tests.mutations import LIBRARY, is_bad, run_variant

_limit = [0]


def _start(memory: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import simulator.views.charts
    import simulator.views.report  # noqa: F401 - loaded before the limit is measured

    used = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    _limit[0] = used + memory
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    target = _limit[0] if hard == resource.RLIM_INFINITY else min(_limit[0], hard)
    resource.setrlimit(resource.RLIMIT_DATA, (target, hard))


def _work(seed: int) -> tuple[int, str, list[tuple[list[str], Any, str]], int]:
    source = LIBRARY[seed % len(LIBRARY)]
    with tempfile.TemporaryDirectory(prefix="electsim-fuzz-") as folder:
        try:
            results = run_variant(source, seed, Path(folder))
        except MemoryError:
            results = [(["(variant)", str(source)], "memory", "")]
        bad = [r for r in results if is_bad(*r)]
        kept = ""
        if bad:
            for f in Path(folder).iterdir():
                if f.is_file() and f.suffix in (".yaml", ".json"):
                    kept = f.read_bytes().decode("utf-8", "replace")
                    break
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return seed, kept, results, peak


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz_mutations")
    p.add_argument("--variants", type=int, default=2000)
    p.add_argument("--seconds", type=float, default=0.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--memory", type=int, default=1 << 30)
    p.add_argument("--keep", default="fuzz-failures")
    args = p.parse_args(argv)
    start = time.monotonic()
    counts: Counter[tuple[str, Any]] = Counter()
    failures: list[tuple[int, list[str], Any, str]] = []
    done = 0
    peak = 0
    keep = Path(args.keep)
    seeds = range(args.seed, args.seed + args.variants)
    with multiprocessing.Pool(args.jobs, initializer=_start, initargs=(args.memory,)) as pool:
        for seed, text, results, rss in pool.imap_unordered(_work, seeds, chunksize=4):
            done += 1
            peak = max(peak, rss)
            for argv_, code, err in results:
                counts[argv_[0], code] += 1
                if is_bad(argv_, code, err):
                    failures.append((seed, argv_, code, err.strip()[-400:]))
                    keep.mkdir(exist_ok=True)
                    (keep / f"variant-{seed}.txt").write_text(text, encoding="utf-8")
            if done % 500 == 0:
                print(f"mutations: {done} variants ({time.monotonic() - start:.0f} s)", flush=True)
            if args.seconds and time.monotonic() - start > args.seconds:
                pool.terminate()
                break
    elapsed = time.monotonic() - start
    print(
        f"mutations: {done} variants of {len(LIBRARY)} library scenarios, "
        f"{sum(counts.values())} commands in {elapsed:.0f} s; peak memory of a worker "
        f"{peak / 2**20:.0f} MiB"
    )
    for (command, code), n in sorted(counts.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
        print(f"  {command:<10} exit {code!s:<6} {n:>7}")
    if failures:
        print(f"mutations: {len(failures)} failures (variants kept in {keep}/):")
        for seed, argv_, code, err in failures[:30]:
            print(f"  seed {seed}: {' '.join(argv_[:1])} -> {code}: {err.splitlines()[-1:]}")
        return 1
    shutil.rmtree(keep, ignore_errors=True)
    print("mutations: no exit 1, no hang, no message without a place")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
