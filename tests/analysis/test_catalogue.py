"""docs/gaps.md, the catalogue of gaps and conflicts: current, complete against ``electsim gaps``
and the explorer's K=1 grid (recorded in docs/gaps-explored.json, and a sample of the grid run
again here), each entry with a witness that replays and another reading or the reason for none.
"""

from __future__ import annotations

import re

import pytest

import simulator
from simulator.analysis.catalogue import (
    DOC,
    GRID_CANDIDATES,
    GRID_SEATS,
    NO_OTHER_READING,
    NO_WITNESS,
    NOT_YET_SWITCHABLE,
    ROOT,
    catalogue_markdown,
    entries,
    read_explored,
)
from simulator.analysis.explore.config import Config
from simulator.analysis.explore.exploration import explore_grid
from simulator.law.vocab import Method
from tests.cli.inprocess import electsim


@pytest.fixture(scope="module")
def text() -> str:
    return DOC.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def headings(text: str) -> list[str]:
    return re.findall(r"^## (\S+)$", text, flags=re.M)


def test_docs_gaps_md_is_what_the_code_makes(text: str) -> None:
    assert text == catalogue_markdown(), "regenerate: python -m simulator.analysis.catalogue"


def test_it_has_one_entry_per_finding_of_electsim_gaps(headings: list[str]) -> None:
    p = electsim("gaps", "--ids", check=True)
    ids = p.stdout.split()
    assert len(ids) > 40
    assert headings == sorted(set(headings))  # one entry each, in order
    assert set(ids) <= set(headings), sorted(set(ids) - set(headings))


def test_it_has_one_entry_per_finding_of_the_recorded_k1_grid(headings: list[str]) -> None:
    doc = read_explored()
    assert doc["configurations"] == 5 * GRID_SEATS * GRID_CANDIDATES == 120
    found = {f["id"] for f in doc["findings"]}
    assert len(found) > 20
    assert found <= set(headings), sorted(found - set(headings))
    for f in doc["findings"]:
        assert f["witness"], f["id"]  # each with its course in words


_SAMPLE = [
    Config(method=Method.RUNOFF, seats=1, candidates=2),
    Config(method=Method.PLURALITY, seats=1, candidates=2),
    Config(method=Method.PARTISAN, seats=1, candidates=2),
    Config(method=Method.PARTISAN, seats=1, candidates=1, general=True),
]


def test_a_sample_of_the_grid_reaches_what_the_record_says() -> None:
    # the recorded file is checked against a run of part of the grid: every finding the sample
    # reaches is recorded, and every finding recorded as first reached in a sampled
    # configuration is reached again
    recorded = read_explored()["findings"]
    results = explore_grid(_SAMPLE)
    labels = {ex.config.label for ex in results}
    reached = {f for ex in results for f, _o, _w in ex.findings}
    assert {f["id"] for f in recorded} >= reached
    first_here = {f["id"] for f in recorded if f["configuration"] in labels}
    assert first_here and first_here <= reached


def test_every_entry_has_a_witness_that_replays_to_it() -> None:
    items = entries()
    missing = {e.id for e in items if e.witness is None}
    assert missing == set(NO_WITNESS), missing
    for e in items:
        if e.witness is None:
            continue
        assert e.witness.startswith(("scenarios/gaps/", "scenarios/collisions/")), e.witness
        result = simulator.replay(simulator.load_scenario(ROOT / e.witness))
        rulings = [r for c in result.contests for r in c.rulings]
        kind = "conflict" if e.kind == "conflict" else "gap"
        assert any(
            r.kind.value == "no_provision"
            and r.get("gap") == e.name
            and bool(r.get("conflict")) == (kind == "conflict")
            and r.get("reading") is None
            for r in rulings
        ), e.id
    witnesses = sorted({str(ROOT / e.witness) for e in items if e.witness})
    p = electsim("test", *witnesses)
    assert p.returncode == 0, p.stdout[-2000:]
    assert "0 without expectations" in p.stdout


def test_every_entry_offers_another_reading_or_says_why_there_is_none() -> None:
    for e in entries():
        if e.readings:
            # a variant without a reading of its own is explained, and only such a one
            bare = [v for v in e.variants if not v.readings]
            assert (e.name in NO_OTHER_READING) == bool(bare), e.id
            for switch, setting, _fallback in e.readings:
                # each other reading has a bundled scenario that chooses it and reaches the gap
                path = e.reading_witnesses.get((switch, setting))
                assert path is not None, (e.id, switch, setting)
                chosen = simulator.load_scenario(ROOT / path).interpretations
                assert chosen.setting(switch) == setting, (e.id, path)
        else:
            # either no defensible other reading (and why), or one not yet a switch (and which)
            said = [NO_OTHER_READING.get(e.name, ""), NOT_YET_SWITCHABLE.get(e.name, "")]
            assert sum(len(x) > 40 for x in said) == 1, e.id
    known = {e.name for e in entries()}
    assert set(NO_OTHER_READING) <= known, sorted(set(NO_OTHER_READING) - known)
    assert set(NOT_YET_SWITCHABLE) <= known, sorted(set(NOT_YET_SWITCHABLE) - known)
