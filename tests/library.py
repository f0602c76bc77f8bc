"""The bundled scenarios (scenarios/), each read and replayed once per test process.

Several modules go through the whole library (its expectations, its remarks, its histories
cut at every moment, the futures within the enumeration's bounds), some at collection; each
read it and replayed it again. A scenario and its result are frozen values, shared as they are.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from simulator.engine.replay import replay
from simulator.engine.result import Result
from simulator.input.loader import load_scenario
from simulator.model.scenario import Scenario

ROOT = Path(__file__).resolve().parent.parent
PATHS = sorted((ROOT / "scenarios").rglob("*.yaml"))


@cache
def loaded(path: Path) -> Scenario:
    """``load_scenario(path)``, once per process."""
    return load_scenario(path)


@cache
def replayed(path: Path) -> Result:
    """``replay(loaded(path))`` (to the end of its log), once per process."""
    return replay(loaded(path))
