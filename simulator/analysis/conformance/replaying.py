"""A contest built from the results files, replayed through the engine; the rulings of a kind in
its result."""

from __future__ import annotations

from typing import Any

from simulator.engine.replay import replay
from simulator.engine.result import ContestResult, Ruling
from simulator.input.loader import structure


def replay_contest(doc: dict[str, Any]) -> ContestResult:
    """The result of the one contest of the scenario document ``doc``."""
    scenario = structure(doc, source="<conformance>")
    return replay(scenario).contests[0]


def rulings_of(result: ContestResult, name: str) -> list[Ruling]:
    """The rulings of the kind named ``name`` in a contest's result, in order."""
    return [r for r in result.rulings if r.kind.value == name]
