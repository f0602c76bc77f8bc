"""Loading against the bare readers, in one process (``make bench`` runs it after bench.py).

The same log of votes (benchmarks/bench.py's four contests) as JSON and as YAML with one-line
flow mappings, each read:

- by the bare reader (``json.loads``; libyaml's event stream alone, and PyYAML's
  ``CSafeLoader`` building the data), the floor electsim cannot go below;
- by electsim (``parse_scenario``): text to validated, typed events, with every check;
- by electsim's full, located path alone (the quick YAML reading switched off), to show what
  the quick reading saves;
- and from plain data already in memory (``structure``), the checks alone.

Then load + replay, the rate the targets speak of (1 M events/s from JSON, 0.2 M/s from YAML).
Ratios are what to compare between runs. ``python benchmarks/bench_load.py [N]``.
"""

from __future__ import annotations

import gc
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench

from simulator import parse_scenario, replay, structure
from simulator.input.loader import _parse_yaml

N = 200_000
_YamlLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_YamlDumper: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


CPU: dict[float, float] = {}  # wall-clock seconds best() gave -> the CPU seconds of that run


def best(fn: Callable[[], object], runs: int = 3) -> float:
    """The fastest of ``runs`` runs, in seconds (the collector paused, as the loader does).
    The CPU seconds of the fastest run are kept in CPU: on a busy machine they tell the
    loader's own cost."""
    times = []
    for _ in range(runs):
        gc.collect()
        gc.disable()
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall = time.perf_counter() - t0
        CPU[wall] = time.process_time() - c0
        times.append(wall)
        gc.enable()
    return min(times)


def show(label: str, seconds: float, n: int, floor: float | None = None) -> None:
    ratio = f"{seconds / floor:7.2f}x the bare reader" if floor else ""
    cpu = CPU.get(seconds)
    used = f"(CPU {cpu:6.3f} s, {n / cpu / 1e6:6.3f} M/s)" if cpu else ""
    print(f"  {label:<44} {seconds:7.3f} s {n / seconds / 1e6:7.3f} M/s {used} {ratio}")


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else N
    doc = bench.scenario_dict(n)
    total = len(doc["events"])  # type: ignore[arg-type]
    json_text = json.dumps(doc)
    yaml_text = yaml.dump(doc, Dumper=_YamlDumper, default_flow_style=None, width=200)
    print(f"== loading {total:,} events, best of 3 ==")

    bare = best(lambda: json.loads(json_text))
    show("JSON: json.loads", bare, total)
    load = best(lambda: parse_scenario(json_text, fmt="json"))
    show("JSON: electsim parse_scenario", load, total, bare)
    data = json.loads(json_text)
    checks = best(lambda: structure(data))
    show("plain data: electsim structure (the checks)", checks, total, bare)

    events_only = best(lambda: sum(1 for _ in yaml.parse(yaml_text, Loader=_YamlLoader)), 1)
    show("YAML: libyaml's event stream alone", events_only, total)
    sample = yaml_text[: len(yaml_text) // 10].rsplit("\n- ", 1)[0] + "\n"
    pyyaml = best(lambda: yaml.load(sample, Loader=_YamlLoader), 1) * len(yaml_text) / len(sample)
    show("YAML: yaml.load with CSafeLoader (from 1/10)", pyyaml, total)
    yload = best(lambda: parse_scenario(yaml_text))
    show("YAML: electsim parse_scenario", yload, total, events_only)
    full = best(lambda: _parse_yaml(yaml_text, "<bench>", quick=False), 1)
    show("YAML: electsim, the full located path only", full, total, events_only)
    print(f"  {'the quick YAML reading saves':<44} {full / yload:7.2f}x")

    scenario = parse_scenario(json_text, fmt="json")
    fold = best(lambda: replay(scenario), 1)
    show("replay (from memory)", fold, total)
    for fmt, seconds, target in (("JSON", load, 1.0), ("YAML", yload, 0.2)):
        rate = total / (seconds + fold) / 1e6
        cpu = total / (CPU[seconds] + CPU[fold]) / 1e6
        print(
            f"  {fmt} load + replay {rate:28.3f} M events/s (target >= {target}); "
            f"CPU {cpu:.3f} M events/s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
