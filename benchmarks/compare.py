"""``make bench-compare``: this checkout side by side with another commit, in one run.

    python benchmarks/compare.py [REF] [--rounds N]

REF (default ``HEAD~1``) is checked out in a temporary git worktree. Each workload below then
runs in a fresh process for each side, the two sides alternating for ``--rounds`` rounds (3 by
default), so that whatever else the machine does falls on both alike. Each process measures
only the workload's own processor time (its setup, the imports and the building of its input,
is left out), and the table gives the least of each side's runs (what else the machine does
can only add to a run) and their ratio. A ratio above
1.10 is marked: this checkout is more than 10% slower there.

Both sides run the workloads as this file defines them, against their own ``simulator``
package (the one on ``sys.path`` first): the same work measured on two versions of the code.
The bundled scenarios are this checkout's, for both sides; a file the other side cannot read
is left out there, and the line says how many each side ran. The cold start is left out:
``make bench`` measures it as a guard, not a figure to hold.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: What each side runs: a name, and a function from the checkout's root to the workload (the
#: setup runs when it is called; the workload it returns is what is timed)
Workload = Callable[[Path], Callable[[], object]]
WORKLOADS: dict[str, Workload] = {}


def workload(name: str) -> Callable[[Workload], Workload]:
    def register(setup: Workload) -> Workload:
        WORKLOADS[name] = setup
        return setup

    return register


@workload("replay of 1,000,000 votes in memory")
def _replay_votes(root: Path) -> Callable[[], object]:
    import bench

    from simulator import replay

    scenario = bench.in_memory(1_000_000)
    return lambda: replay(scenario)


@workload("load and replay a 50,000-vote file")
def _load_file(root: Path) -> Callable[[], object]:
    import bench
    import yaml

    from simulator import load_scenario, replay

    path = Path(tempfile.mkdtemp()) / "votes.yaml"
    path.write_text(yaml.safe_dump(bench.scenario_dict(50_000)), encoding="utf-8")
    return lambda: replay(load_scenario(path))


def bundled() -> list[object]:
    """This checkout's bundled scenarios, as the ``simulator`` imported reads them (those it
    cannot read left out)."""
    from simulator import ScenarioError, load_scenario

    out: list[object] = []
    for path in sorted((ROOT / "scenarios").rglob("*.yaml")):
        with contextlib.suppress(ScenarioError):
            out.append(load_scenario(path))
    return out


@workload("replay every bundled scenario, 5 times")
def _bundled(root: Path) -> Callable[[], object]:
    from simulator import replay

    scenarios = bundled()
    return lambda: [replay(s) for _ in range(5) for s in scenarios]


@workload("sweep of 2,000 variants, serial")
def _sweep(root: Path) -> Callable[[], object]:
    import bench_sweep

    from simulator import Votes, sweep

    scenario = bench_sweep.scenario()
    return lambda: sweep(scenario, Votes(47, "Ann"), range(2000))


@workload("futures of 40 sampled cuts")
def _futures(root: Path) -> Callable[[], object]:
    from simulator import futures

    cuts = [(s, e.known_at) for s in bundled() for e in s.events]  # type: ignore[attr-defined]
    random.Random(46).shuffle(cuts)
    return lambda: [futures(s, as_of=at) for s, at in cuts[:40]]


@workload("explorer, runoff method, 2 seats, 6 candidates")
def _explore(root: Path) -> Callable[[], object]:
    from simulator.analysis.explore.config import Config
    from simulator.analysis.explore.exploration import explore
    from simulator.law.vocab import Method

    config = Config(method=Method.RUNOFF, seats=2, candidates=6)
    return lambda: explore(config)


def child(tree: Path, name: str) -> None:
    """Run one workload against the ``simulator`` of ``tree``; print its processor seconds."""
    sys.path[:0] = [str(tree), str(HERE)]
    run = WORKLOADS[name](tree)
    t = time.process_time()
    done = run()
    seconds = time.process_time() - t
    print(json.dumps([seconds, len(done) if isinstance(done, list) else 1]))


def measure(tree: Path, name: str) -> tuple[float, int]:
    """The processor seconds of one run of a workload against ``tree``, and how many items
    (scenarios, cuts) it ran."""
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(tree), name],
        check=True,
        capture_output=True,
        text=True,
    )
    seconds, items = json.loads(out.stdout.strip().splitlines()[-1])
    return float(seconds), int(items)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ref", nargs="?", default="HEAD~1", help="the commit to compare with")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(Path(args.child[0]), args.child[1])
        return 0
    sha = subprocess.run(
        ["git", "rev-parse", "--short", args.ref],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "other"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "-q", str(other), sha], cwd=ROOT, check=True
        )
        try:
            print(
                f"this checkout against {args.ref} ({sha}): processor seconds, the least of "
                f"{args.rounds} alternating runs"
            )
            print(f"  {'':<48} {sha:>9} {'this':>9} {'ratio':>7}")
            slower = 0
            for name in WORKLOADS:
                before: list[float] = []
                after: list[float] = []
                for _ in range(args.rounds):
                    t, n_before = measure(other, name)
                    before.append(t)
                    t, n_after = measure(ROOT, name)
                    after.append(t)
                b, a = min(before), min(after)
                mark = "  more than 10% slower" if a > 1.10 * b else ""
                slower += bool(mark)
                items = f"  ({n_before} against {n_after})" if n_before != n_after else ""
                print(f"  {name:<48} {b:9.3f} {a:9.3f} {a / b:7.2f}{mark}{items}")
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, check=True
            )
    print(f"  {slower} of {len(WORKLOADS)} workloads more than 10% slower than {sha}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
