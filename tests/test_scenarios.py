"""Every worked example in scenarios/ replays to the outcome written in its ``expect:`` block.

Each scenario file is a case the statutes (or a real election) decide; its ``expect`` entries are
checked through the public JSON result, at the end of the log or ``as_of`` a moment, by the same
code as ``electsim test`` (:func:`simulator.input.expect.check_scenario`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator import replay
from simulator.input.expect import check_scenario
from tests.conftest import read_yaml
from tests.library import PATHS as SCENARIOS
from tests.library import loaded, replayed

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(ROOT / "scenarios")))
def test_scenario_replays_to_its_expected_outcome(path: Path) -> None:
    scenario = loaded(path)
    assert scenario.expectations, f"{path.name} has no expect: block"
    check = check_scenario(scenario)
    assert check.passed, "\n".join(
        f"expect[{d.expectation}] (line {d.line}, as of {d.as_of}): {d}" for d in check.mismatches
    )


def test_the_library_has_worked_examples_for_every_method() -> None:
    methods = set()
    for path in SCENARIOS:
        raw = read_yaml(path.read_text())
        for c in raw.get("contests", []):
            methods.add(c["method"])
    assert methods >= {
        "nonpartisan-plurality",
        "nonpartisan-runoff",
        "nonpartisan-primary",
        "partisan",
    }


#: Sections whose rulings name a subsection: an expectation citing the bare section would match
#: a ruling of any subsection, so it names one (or anchors the bare section with ``$``).
SUBSECTIONED = ("163-112", "163-293", "163-294.1", "163-294.4")


def test_every_expectation_citing_a_subsectioned_section_names_the_subsection() -> None:
    bare = []
    for path in SCENARIOS:
        for i, exp in enumerate(read_yaml(path.read_text()).get("expect") or []):
            items = [*exp.get("rulings", []), *exp.get("deadlines", [])]
            for cite in (str(item.get("cite", "")) for item in items if isinstance(item, dict)):
                for section in SUBSECTIONED:
                    plain = cite.replace("\\", "")
                    after = plain.split(section, 1)[1] if section in plain else "("
                    if not after.startswith(("(", "$")):  # "$": the bare section, exactly
                        bare.append(f"{path.name}: expect[{i}] cites {cite!r}")
    assert not bare, "\n".join(bare)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(ROOT / "scenarios")))
def test_a_contest_is_decided_exactly_when_it_waits_for_nothing(path: Path) -> None:
    # docs/results.md: `state` is `decided` if and only if `outcome.pending` is null, at the end
    # of the log and as of every moment an event became known
    scenario = loaded(path)
    moments = sorted({e.known_at for e in scenario.events})
    for as_of in (None, *moments):
        result = replayed(path) if as_of is None else replay(scenario, as_of=as_of)
        for contest in result.contests:
            decided = contest.state == "decided"
            assert decided == (contest.outcome.pending is None), (
                f"as of {as_of}: {contest.id} is {contest.state}, pending {contest.outcome.pending}"
            )
