"""Every worked example in scenarios/ replays to the outcome written in its ``expect:`` block.

Each scenario file is a case the statutes (or a real election) decide; its ``expect`` entries are
checked through the public JSON result, at the end of the log or ``as_of`` a moment.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from simulator import load_scenario, replay
from tests.expectations import check_contest

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").rglob("*.yaml"))


def _expectations(path: Path) -> list[dict[str, Any]]:
    raw = yaml.safe_load(path.read_text())
    exp = raw.get("expect") or []
    return list(exp)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(ROOT / "scenarios")))
def test_scenario_replays_to_its_expected_outcome(path: Path) -> None:
    expectations = _expectations(path)
    assert expectations, f"{path.name} has no expect: block"
    scenario = load_scenario(path)
    errors: list[str] = []
    for exp in expectations:
        as_of = exp.get("as_of")
        from simulator.cli import _parse_time

        result = replay(
            scenario, as_of=_parse_time(str(as_of), scenario.timezone) if as_of else None
        )
        for e in check_contest(exp, result.to_json()):
            errors.append(f"[as_of={as_of}] {e}")
    assert not errors, "\n".join(errors)


def test_the_library_has_worked_examples_for_every_method() -> None:
    methods = set()
    for path in SCENARIOS:
        raw = yaml.safe_load(path.read_text())
        for c in raw.get("contests", []):
            methods.add(c["method"])
    assert methods >= {
        "nonpartisan-plurality",
        "nonpartisan-runoff",
        "nonpartisan-primary",
        "partisan",
    }
