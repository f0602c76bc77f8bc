"""The state graph is the transition table, and every replay walks only its edges.

This module also holds the scenario library that the chart and report tests render: every file
in ``scenarios/`` (at the end of its log and at each ``as_of`` its expectations name), every
replay case of the shared contract examples, and two worked examples kept here so that the
tests have something to draw before the library fills up.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path

import matplotlib.image
import networkx as nx
import numpy as np
import pytest
import yaml
from matplotlib.figure import Figure

from simulator.engine.replay import replay
from simulator.engine.result import Result
from simulator.input.loader import parse_scenario
from simulator.law.labels import label, trigger_words
from simulator.law.machine import TRANSITIONS, Phase
from simulator.model.errors import SimulatorError, UnsupportedFormat
from simulator.model.scenario import Scenario
from simulator.views.graph import (
    coverage,
    draw_graph,
    export_graph,
    replay_graph,
    state_graph,
    to_dot,
    to_mermaid,
)
from tests.chart_cases import layout_problems

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
EXAMPLES = ROOT.parent / "shared" / "contract" / "examples.yaml"
TABLE = {(t.source.value, t.trigger, t.target.value) for t in TRANSITIONS}

# Two runners-up tie (G.S. 163-293(d)(2)): a runoff may be demanded and tied candidates may
# withdraw; a second contest loses a candidate before the ballots are printed. Names and titles
# carry markup, quotes and dollar signs, which every output must show as text.
TIE_FOR_SECOND = """\
format: electsim/v1
title: "Tie for second & a <tag>, 2027"
description: Two runners-up tie at 300; nobody withdraws or demands a runoff.
contests:
  - {id: seat-b, municipality: City of Example, office: 'Council Seat "B" <east>', seats: 1,
     method: nonpartisan-runoff, year: 2027}
  - {id: mayor, municipality: City of Example, office: Mayor, seats: 1,
     method: nonpartisan-plurality, year: 2027}
events:
  - {type: candidate_filed, at: 2027-07-06, candidate: "Ann <b>&</b>", contest: seat-b}
  - {type: candidate_filed, at: 2027-07-07, candidate: Bob, contest: seat-b}
  - {type: candidate_filed, at: 2027-07-08, candidate: "Cy $mith$", contest: seat-b}
  - {type: candidate_filed, at: 2027-07-08, candidate: Dee, contest: mayor}
  - {type: candidate_filed, at: 2027-07-09, candidate: Eve, contest: mayor}
  - {type: candidate_withdrew, at: "2027-08-10T10:00", candidate: Eve, contest: mayor}
  - {type: ballots_printed, at: 2027-09-03, contest: seat-b}
  - {type: returns_reported, at: "2027-10-05T21:00", contest: seat-b,
     counts: {"Ann <b>&</b>": 450, Bob: 300, "Cy $mith$": 300}}
  - {type: canvass_held, at: "2027-10-12T11:00", contest: seat-b}
"""

# A death before the ballots are printed reopens filing (G.S. 163-294.4(b)); the reopened
# period's close falls on a Sunday before Labor Day and moves by G.S. 103-5, as do the opening
# of filing (Independence Day) and the canvass (Veterans Day).
DEATH_REOPENS_FILING = """\
format: electsim/v1
title: Only two filed, one dies before printing, 2025
contests: [{id: mayor, municipality: Town of Example, office: Mayor, seats: 1,
            method: nonpartisan-plurality, year: 2025}]
events:
  - {type: candidate_filed, at: 2025-07-08, candidate: Ann}
  - {type: candidate_filed, at: 2025-07-09, candidate: Bob}
  - {type: candidate_died, at: "2025-08-25T22:00", notice_at: "2025-08-26T10:00", candidate: Bob}
"""


@dataclass(frozen=True)
class Case:
    """One replay of the library: a scenario's text, and the moment to replay it as of."""

    id: str
    text: str
    as_of: str | None = None
    source: str = "<library>"


WORKED = (
    Case("worked:tie-for-second", TIE_FOR_SECOND),
    Case("worked:death-reopens-filing", DEATH_REOPENS_FILING),
    Case("worked:death-reopens-filing@2025-08-27T09:00", DEATH_REOPENS_FILING, "2025-08-27T09:00"),
)


def _scenario_files() -> list[Case]:
    cases = []
    for path in sorted(SCENARIOS.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        raw = yaml.load(text, Loader=yaml.CSafeLoader) or {}  # libyaml: read at collection
        moments = sorted(
            {
                str(e["as_of"])
                for e in raw.get("expect") or []
                if isinstance(e, dict) and e.get("as_of")
            }
        )
        name = str(path.relative_to(SCENARIOS))
        cases.append(Case(f"scenarios/{name}", text, None, str(path)))
        cases.extend(Case(f"scenarios/{name}@{m}", text, m, str(path)) for m in moments)
    return cases


def _contract_examples() -> list[Case]:
    if not EXAMPLES.exists():
        return []
    cases = []
    for case in yaml.safe_load(EXAMPLES.read_text(encoding="utf-8")):
        if "scenario" not in case or case.get("command", "replay") != "replay" or "exit" in case:
            continue
        args = [str(a) for a in case.get("args", [])]
        as_of = args[args.index("--as-of") + 1] if "--as-of" in args else None
        cases.append(Case(f"examples:{case['name']}", case["scenario"], as_of, str(EXAMPLES)))
    return cases


LIBRARY: list[Case] = [*_scenario_files(), *_contract_examples(), *WORKED]


def case_id(case: Case) -> str:
    return case.id


@cache
def replayed(case: Case) -> tuple[Scenario, Result]:
    """The case's scenario and its replay (cached: the chart and report tests share them)."""
    scenario = parse_scenario(case.text, source=case.source)
    as_of = datetime.fromisoformat(case.as_of.replace(" ", "T")) if case.as_of else None
    return scenario, replay(scenario, as_of=as_of)


def worked(name: str) -> tuple[Scenario, Result]:
    return replayed(next(c for c in WORKED if c.id == f"worked:{name}"))


def test_the_contract_examples_are_in_the_library() -> None:
    if not EXAMPLES.exists():
        pytest.skip(f"{EXAMPLES} is absent: the contract examples are not part of this run")
    assert any(c.id.startswith("examples:") for c in LIBRARY)


# ------------------------------------------------------------------------------------------
# The graph is the table
# ------------------------------------------------------------------------------------------


def test_the_graph_has_one_node_per_phase() -> None:
    assert set(state_graph().nodes) == {p.value for p in Phase}


def test_every_row_of_the_transition_table_is_an_edge_with_its_trigger_and_cite() -> None:
    g = state_graph()
    assert g.number_of_edges() == len(TRANSITIONS)
    for t in TRANSITIONS:
        data = g.edges[t.source.value, t.target.value, t.trigger]
        assert data["trigger"] == t.trigger
        assert data["cite"] == str(t.cite)
        assert data["label"] == t.label
        assert data["url"] == t.cite.url


@pytest.mark.parametrize("case", LIBRARY, ids=case_id)
def test_every_step_a_replay_takes_is_an_edge_of_the_graph(case: Case) -> None:
    g = state_graph()
    _, result = replayed(case)
    for c in result.contests:
        for source, trigger, target in c.path:
            assert g.has_edge(source, target, key=trigger), (
                f"{c.id}: {source} --{trigger}--> {target} is not in machine.TRANSITIONS"
            )


def test_the_library_covers_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    # Coverage is reported, not enforced: an untaken row is a scenario still to write.
    paths = [c.path for case in LIBRARY for c in replayed(case)[1].contests]
    taken, untaken = coverage(paths)
    assert set(taken) | set(untaken) == TABLE
    assert not set(taken) & set(untaken)
    assert set(taken) == {step for path in paths for step in path} & TABLE
    with capsys.disabled():
        print(
            f"\nstate-machine coverage: {len(taken)}/{len(TABLE)} transitions taken by "
            f"{len(LIBRARY)} replays; never taken:"
        )
        for source, trigger, target in untaken:
            print(f"  {source} --{trigger}--> {target}")


@pytest.mark.parametrize("case", LIBRARY, ids=case_id)
def test_the_replay_graph_marks_the_path_taken(case: Case) -> None:
    _, result = replayed(case)
    for c in result.contests:
        g = replay_graph(c)
        counts = Counter(c.path)
        for source, target, trigger, data in g.edges(keys=True, data=True):
            assert data["taken"] == counts[(source, trigger, target)]
            assert data["in_table"]
        visited = {n for n, d in g.nodes(data=True) if d["visited"]}
        assert visited == {"filing", c.state} | {s for s, _, _ in c.path} | {t for *_, t in c.path}
        assert [n for n, d in g.nodes(data=True) if d["final"]] == [c.state]


# ------------------------------------------------------------------------------------------
# Exports
# ------------------------------------------------------------------------------------------

_DOT_EDGE = re.compile(r'^\s*"([^"]+)" -> "([^"]+)" \[(.*)\];$', re.M)
_DOT_ATTR = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def _dot_edges(text: str) -> dict[tuple[str, str, str], dict[str, str]]:
    edges = {}
    for source, target, attrs in _DOT_EDGE.findall(text):
        a = dict(_DOT_ATTR.findall(attrs))
        edges[(source, a["trigger"], target)] = a
    return edges


def _graph_edges(g: nx.MultiDiGraph) -> dict[tuple[str, str, str], dict[str, object]]:
    return {(u, d["trigger"], v): d for u, v, d in g.edges(data=True)}


def not_blank(png: Path) -> bool:
    """Whether a PNG has more than one distinct colour."""
    image = np.asarray(matplotlib.image.imread(png))
    return bool((image != image[0, 0]).any())


def test_every_export_format_carries_the_whole_transition_table_with_citations(
    tmp_path: Path,
) -> None:
    # The table does not depend on the case: one contest's exports show it in every format.
    _, result = worked("tie-for-second")
    single = Result(result.scenario, (result.contests[0],), result.as_of)
    (dot,) = export_graph(single, tmp_path / "g.dot")
    edges = _dot_edges(dot.read_text())
    assert set(edges) == TABLE
    (graphml,) = export_graph(single, tmp_path / "g.graphml")
    g = nx.read_graphml(graphml, force_multigraph=True)
    assert set(g.nodes) == {p.value for p in Phase}
    from_graphml = _graph_edges(g)
    (js,) = export_graph(single, tmp_path / "g.json")
    from_json = _graph_edges(nx.node_link_graph(json.loads(js.read_text()), edges="edges"))
    assert set(from_graphml) == set(from_json) == TABLE
    for t in TRANSITIONS:
        row = (t.source.value, t.trigger, t.target.value)
        assert (
            edges[row]["cite"] == from_graphml[row]["cite"] == from_json[row]["cite"] == str(t.cite)
        )


_SEEN: set[tuple[tuple[tuple[str, str, str], ...], str]] = set()


@pytest.mark.sample(48)
@pytest.mark.parametrize("case", LIBRARY, ids=case_id)
def test_the_graph_exports_in_every_format_carry_the_path_taken(case: Case, tmp_path: Path) -> None:
    # The exports depend only on the contest's path and its end: each distinct one is checked
    # once, whichever case (and whichever of its contests) takes it first.
    _, result = replayed(case)
    for contest in result.contests:
        if (contest.path, contest.state) in _SEEN:
            continue
        _SEEN.add((contest.path, contest.state))
        _check_exports(Result(result.scenario, (contest,), result.as_of), tmp_path)


def _check_exports(single: Result, tmp_path: Path) -> None:
    contest = single.contests[0]
    counts = Counter(contest.path)
    (dot,) = export_graph(single, tmp_path / "g.dot")
    edges = _dot_edges(dot.read_text())
    assert {e: int(a["taken"]) for e, a in edges.items() if int(a["taken"])} == dict(counts)

    (graphml,) = export_graph(single, tmp_path / "g.graphml")
    from_graphml = _graph_edges(nx.read_graphml(graphml, force_multigraph=True))
    assert {e: d["taken"] for e, d in from_graphml.items() if d["taken"]} == dict(counts)

    (js,) = export_graph(single, tmp_path / "g.json")
    g = nx.node_link_graph(json.loads(js.read_text()), edges="edges")
    from_json = _graph_edges(g)
    assert {e: d["taken"] for e, d in from_json.items() if d["taken"]} == dict(counts)
    assert {n for n, d in g.nodes(data=True) if d["final"]} == {contest.state}

    (svg,) = export_graph(single, tmp_path / "g.svg")
    text = svg.read_text()
    for _, _, d in replay_graph(contest).edges(data=True):
        if d["taken"]:  # each step taken is labelled with its order, trigger and citation
            assert f"[{d['steps']}] {trigger_words(d['trigger'])}" in text
            assert d["cite"] in text
            assert d["trigger"] not in text  # in words ("filing closes", not filing_closes)

    (png,) = export_graph(single, tmp_path / "g.png")
    assert not_blank(png)
    assert not layout_problems(draw_graph(replay_graph(contest)))
    (full,) = export_graph(single, tmp_path / "full.svg", full=True)
    assert "the path through the state machine" in full.read_text()

    (mmd,) = export_graph(single, tmp_path / "g.mmd")
    mermaid = mmd.read_text()
    assert "stateDiagram-v2" in mermaid and f"{contest.state} --> [*]" in mermaid
    steps = re.findall(r"^    (\w+) --> (\w+) : \[([\d,]+)\] ([^,]+), ", mermaid, re.M)
    assert {(a, t, b) for a, b, _, t in steps} == {
        (a, trigger_words(t), b) for a, t, b in contest.path
    }
    # each phase drawn is named in words
    named = dict(re.findall(r'^    state "([^"]+)" as (\w+)$', mermaid, re.M))
    phases = {p for a, _, b in contest.path for p in (a, b)}
    assert set(named.values()) >= phases
    assert all("_" not in words for words in named)
    assert sorted(int(n) for *_, ns, _ in steps for n in ns.split(",")) == list(
        range(1, len(contest.path) + 1)
    )


def test_several_contests_export_one_file_per_contest(tmp_path: Path) -> None:
    _, result = worked("tie-for-second")
    written = export_graph(result, tmp_path / "graph.dot")
    assert [p.name for p in written] == ["graph.seat-b.dot", "graph.mayor.dot"]
    assert all(p.exists() for p in written)
    (only,) = export_graph(result, tmp_path / "mayor.json", contest="mayor")
    assert json.loads(only.read_text())["graph"]["contest"] == "mayor"
    with pytest.raises(SimulatorError, match="expected one of seat-b, mayor"):
        export_graph(result, tmp_path / "x.dot", contest="nope")


def test_a_result_without_contests_exports_the_bare_machine(tmp_path: Path) -> None:
    (dot,) = export_graph(Result("empty", ()), tmp_path / "machine.dot")
    assert set(_dot_edges(dot.read_text())) == TABLE


def test_dot_output_escapes_quotes_in_titles() -> None:
    _, result = worked("tie-for-second")
    text = to_dot(replay_graph(result.contest("seat-b")))
    assert 'label="City of Example - Council Seat \\"B\\" <east>"' in text


def test_an_unknown_graph_format_is_an_error_that_names_the_known_ones(tmp_path: Path) -> None:
    _, result = worked("tie-for-second")
    known = r"\.dot, \.gv, \.mmd, \.mermaid, \.graphml, \.json, \.png, \.svg"
    with pytest.raises(UnsupportedFormat, match=known):
        export_graph(result, tmp_path / "graph.pdf")
    assert not list(tmp_path.iterdir())


def test_the_bare_machine_in_mermaid_has_every_transition_of_the_table() -> None:
    mermaid = to_mermaid(state_graph())
    found = set(re.findall(r"^    (\w+) --> (\w+) : ([^,]+), ", mermaid, re.M))
    assert {(a, t, b) for a, b, t in found} == {(a, trigger_words(t), b) for a, t, b in TABLE}
    # every phase named in words, once
    named = re.findall(r'^    state "([^"]+)" as (\w+)$', mermaid, re.M)
    assert sorted(p for _, p in named) == sorted(p.value for p in Phase)
    assert [words for words, _ in named] == [label(Phase(p)) for _, p in named]


def test_a_path_drawing_shows_only_the_phases_the_contest_went_through() -> None:
    _, result = worked("tie-for-second")
    contest = result.contest("seat-b")
    fig = draw_graph(replay_graph(contest))
    boxes = {t.get_text() for t in fig.axes[0].texts if "\n" not in t.get_text()}
    visited = {p for step in contest.path for p in (step[0], step[2])}
    assert boxes == {label(Phase(p)) for p in visited}  # in words, not identifiers
    whole = draw_graph(replay_graph(contest), full=True)
    assert {t.get_text() for t in whole.axes[0].texts} >= {label(p) for p in Phase}


def clipped_phases(fig: Figure) -> list[str]:
    """Every phase whose box or name reaches past an edge of the figure, measured with the
    renderer."""
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    w, h = fig.bbox.width, fig.bbox.height
    out = []
    for a in fig.findobj(lambda a: str(a.get_gid() or "").startswith(("node:", "name:"))):
        b = a.get_window_extent(renderer)
        if b.x0 < 0 or b.y0 < 0 or b.x1 > w or b.y1 > h:
            out.append(f"{a.get_gid()} at {b} in {w}x{h}")
    return out


def test_the_whole_machine_draws_every_phase_inside_the_figure() -> None:
    fig = draw_graph(state_graph(), full=True)
    names = fig.findobj(lambda a: str(a.get_gid() or "").startswith("name:"))
    assert len(names) == len(Phase)
    assert clipped_phases(fig) == []
    assert not layout_problems(fig)


@pytest.mark.sample(48)
@pytest.mark.parametrize("case", LIBRARY, ids=case_id)
def test_no_phase_of_a_replay_graph_is_cut_at_an_edge(case: Case) -> None:
    _, result = replayed(case)
    for contest in result.contests:
        whole = draw_graph(replay_graph(contest), full=True)
        assert clipped_phases(whole) == []
        path = draw_graph(replay_graph(contest))
        assert not layout_problems(path)
