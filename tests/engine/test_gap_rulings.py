"""A gap or conflict ruling (``no_provision``) leads to its choice: it names its id as ``electsim
gaps`` lists it and every other reading, with the ``interpretations:`` key and value that selects
it and what that reading rules (docs/readings.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from simulator import load_scenario, replay
from simulator.law.readings import Interpretations
from simulator.law.tables import TABLES
from simulator.law.vocab import RulingKind

ROOT = Path(__file__).resolve().parents[2]
WITNESSES = sorted(
    [*(ROOT / "scenarios/gaps").glob("*.yaml"), *(ROOT / "scenarios/collisions").glob("*.yaml")]
)


def _named() -> dict[str, list[Any]]:
    """Every gap and conflict of the rule tables, by id (an id may name the same question in
    several tables, each with its own words)."""
    out: dict[str, list[Any]] = {}
    for table in TABLES:
        for g in (*table.gaps, *table.conflicts):
            out.setdefault(g.id, []).append(g)
    return out


NAMED = _named()


@pytest.mark.parametrize("path", WITNESSES[::3], ids=lambda p: p.name)
def test_a_gap_ruling_names_its_id_and_every_other_reading(path: Path) -> None:
    scenario = load_scenario(path)
    for contest in replay(scenario).contests:
        for r in contest.rulings:
            if r.kind is not RulingKind.NO_PROVISION:
                continue
            gap_id = r.get("gap")
            prefix = "conflict" if r.get("conflict") else "gap"
            assert f"This is {prefix}:{gap_id}" in r.text, r.text
            readings = [x for g in NAMED.get(gap_id, ()) for x in g.readings]
            if not readings:
                assert "Other reading" not in r.text, r.text
                continue
            chosen = r.get("reading")
            for reading in readings:
                key = f"`interpretations: {{{reading.switch}: {reading.value}}}`: "
                if reading.value == chosen:
                    assert key not in r.text, r.text
                else:
                    assert key in r.text, (key, r.text)
                    words = {x.fallback for x in readings if x.value == reading.value}
                    assert any(key + w in r.text for w in words), (key, r.text)
            if chosen is not None:
                switch = readings[0].switch
                default = Interpretations().setting(switch)
                assert f"`interpretations: {{{switch}: {default}}}`: " in r.text, r.text
            assert r.text.endswith("(docs/readings.md).")


def test_the_three_way_tie_ruling_says_how_to_choose_the_lot() -> None:
    # G.S. 163-293(d)(1) speaks of "the two": three tied for first is gap three-way-tie
    path = ROOT / "scenarios/runoff/three-way-tie-for-first.yaml"
    (gap,) = [
        r
        for r in replay(load_scenario(path)).contests[0].rulings
        if r.kind is RulingKind.NO_PROVISION
    ]
    assert gap.text.endswith(
        "This is gap:three-way-tie. Other reading: `interpretations: {three_way_tie: lot}`: a "
        "drawing of lots among all the tied (docs/readings.md)."
    )
