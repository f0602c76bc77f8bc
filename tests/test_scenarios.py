"""Every worked example in scenarios/ replays to the outcome written in its ``expect:`` block.

Each scenario file is a case the statutes (or a real election) decide; its ``expect`` entries are
checked through the public JSON result, at the end of the log or ``as_of`` a moment, by the same
code as ``electsim test`` (:func:`simulator.check_scenario`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from simulator import check_scenario, load_scenario

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").rglob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(ROOT / "scenarios")))
def test_scenario_replays_to_its_expected_outcome(path: Path) -> None:
    scenario = load_scenario(path)
    assert scenario.expectations, f"{path.name} has no expect: block"
    check = check_scenario(scenario)
    assert check.passed, "\n".join(
        f"expect[{d.expectation}] (line {d.line}, as of {d.as_of}): {d}" for d in check.mismatches
    )


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
