"""electsim explore: the courses of events of a contest, their outcomes and witnesses."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.analysis.explore.config import Config
from simulator.analysis.explore.exploration import explore_grid
from simulator.analysis.explore.findings import to_json
from simulator.analysis.explore.outcomes import Exploration
from simulator.analysis.explore.votes import (
    VoteClass,
    classify,
    compositions,
    feasible,
    realize,
    threshold_share,
    vote_classes,
)
from simulator.analysis.explore.witnesses import (
    check_witness,
    witness_doc,
    witness_text,
    write_witness,
)
from simulator.cli.main import main
from simulator.input.loader.writing import yaml_text
from simulator.law.vocab import Method
from tests import explore_cases
from tests.conftest import one_in
from tests.explore_cases import explored


@pytest.fixture(scope="module")
def grid() -> list[Exploration]:
    return list(explore_cases.grid())


@st.composite
def classes(draw: st.DrawFn) -> tuple[VoteClass, Fraction | None]:
    method = draw(st.sampled_from([Method.RUNOFF, Method.PARTISAN]))
    seats = draw(st.integers(1, 3))
    n = draw(st.integers(1, 8))
    groups = draw(st.sampled_from(list(compositions(n))))
    above = draw(st.integers(0, len(groups)))
    at = draw(st.booleans()) and above < len(groups)
    return VoteClass(groups, above, at), threshold_share(method, seats)


@settings(deadline=None)
@given(classes())
def test_every_feasible_vote_class_is_realized_exactly(
    case: tuple[VoteClass, Fraction | None],
) -> None:
    vc, share = case
    counts = realize(vc, share)
    if feasible(vc, share):
        assert counts is not None
        assert all(v > 0 for v in counts)
        assert classify(counts, share) == vc  # checked with Fraction, not floats
    else:
        assert counts is None


def test_exactly_half_is_a_class_of_its_own() -> None:
    # G.S. 163-293(a)(1): a majority is more than half; exactly half is not one
    share = threshold_share(Method.RUNOFF, 1)
    assert share == Fraction(1, 2)
    counts = realize(VoteClass((1, 2), 0, True), share)
    assert counts is not None and Fraction(counts[0], sum(counts)) == Fraction(1, 2)
    assert realize(VoteClass((1, 1), 0, True), share) is None  # the other would be half too


def test_runoff_one_seat_two_candidates_has_two_vote_classes_the_law_reads() -> None:
    # a tie at exactly half, a majority; the runner-up can never be at or above half alone
    share = threshold_share(Method.RUNOFF, 1)
    found = [vc for vc in vote_classes(Method.RUNOFF, 1, 2) if feasible(vc, share)]
    assert found == [VoteClass((2,), 0, True), VoteClass((1, 1), 1, False)]


def test_no_course_of_the_grid_makes_the_engine_raise(grid: list[Exploration]) -> None:
    for ex in grid:
        assert ex.errors == (), ex.config.label
        assert ex.outcomes, ex.config.label


#: the grid's witnesses are checked in this many shares: the i-th witness of each configuration
#: (shortest first) falls in share i modulo WITNESS_SHARES; the fast profile checks share 0
WITNESS_SHARES = 4


@pytest.mark.early
@pytest.mark.parametrize(
    "share",
    [0, *(pytest.param(share, marks=pytest.mark.long) for share in range(1, WITNESS_SHARES))],
)
def test_every_witness_of_the_grid_replays_to_its_predicted_outcome_and_rulings(
    grid: list[Exploration],
    tmp_path: Path,
    share: int,
) -> None:
    assert sum(len(ex.outcomes) for ex in grid) > 200
    for ex in grid:
        for i, (outcome, witness, _k) in enumerate(ex.outcomes):
            if i % WITNESS_SHARES != share:
                continue
            path = tmp_path / f"{ex.config.method.value}-{ex.config.seats}-{ex.config.candidates}"
            path = path / f"{i}.yaml"
            write_witness(path, witness_doc(ex.config, outcome, witness))
            assert check_witness(path) == [], (ex.config.label, outcome.describe())


def test_witnesses_are_shortest_within_their_outcome(grid: list[Exploration]) -> None:
    for ex in grid:
        lengths = [len(w.course.events) for _o, w, _k in ex.outcomes]
        assert lengths == sorted(lengths)


def test_a_mismatching_witness_is_reported(tmp_path: Path) -> None:
    ex = explored(Config(method=Method.PLURALITY, seats=1, candidates=2))
    outcome, witness, _ = next(row for row in ex.outcomes if row[1].result.outcome.elected)
    doc = witness_doc(ex.config, outcome, witness)
    doc["expect"][0]["elected"] = ["Nobody"]
    path = tmp_path / "bad.yaml"
    write_witness(path, doc)
    assert check_witness(path)


def test_runoff_exploration_finds_the_known_collisions_with_witnesses() -> None:
    # G.S. 163-293 meets 163-294.1 and 163-294.4: a leader who left short of a majority, a
    # runner-up who left before the canvass, a candidate leaving a called runoff's ballot
    ex = explored(Config(method=Method.RUNOFF, seats=1, candidates=3))
    found = {f: w for f, _o, w in ex.findings}
    assert {
        "conflict:left-leader-short-of-majority",
        "gap:runner-up-left",
        "gap:left-runoff-ballot",
        # the runoff's own tie (163-293(f)): among three, and with one of the tied gone
        "gap:runoff-tie-of-three",
        "gap:runoff-tied-candidate-left-before-lot",
    } <= set(found)
    story = found["gap:left-runoff-ballot"].course.steps
    assert any("after the runoff is called" in s for s in story)


def test_a_runoff_winner_who_dies_before_the_runoff_canvass_is_explored() -> None:
    # a death between the runoff's vote and its declaration: 163-294.1(c) leaves the office
    # vacant, with no gap (the runoff-ballot gap is for departures before the runoff's day)
    ex = explored(Config(method=Method.RUNOFF, seats=1, candidates=3))
    night = [
        (outcome, witness)
        for outcome, witness, _ in ex.outcomes
        if any("after the runoff's vote, before its canvass" in s for s in witness.course.steps)
    ]
    assert night
    for outcome, witness in night:
        assert outcome.vacant == 1 and "163-294.1(c)" in outcome.by
        assert "gap:left-runoff-ballot" not in outcome.findings, witness.course.steps


def test_more_candidates_never_lose_an_outcome_kind_of_plurality() -> None:
    # G.S. 163-292: the outcomes of a plurality contest stop growing at seats + 2 candidates
    def kinds(n: int) -> set[str]:
        return {
            o.describe()
            for o, _w, _k in explored(
                Config(method=Method.PLURALITY, seats=1, candidates=n)
            ).outcomes
        }

    assert kinds(3) == kinds(4)


def test_the_grid_on_a_process_pool_equals_the_serial_grid() -> None:
    configs = [
        Config(method=Method.PLURALITY, seats=1, candidates=2),
        Config(method=Method.RUNOFF, seats=1, candidates=2),
    ]
    serial = [to_json(ex) for ex in explore_grid(configs, workers=1)]
    parallel = [to_json(ex) for ex in explore_grid(configs, workers=2)]
    assert serial == parallel


def test_explore_command_checks_its_witnesses(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["explore", "--method", "nonpartisan-runoff", "--candidates", "2", "--check", "--json"]
    assert main(args) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["check"] == {"witnesses": len(doc["outcomes"]), "failed": 0}
    assert "163-293(f)" not in doc["never_reached"]


def test_witnesses_never_replace_a_file_with_other_content_unless_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["explore", "--method", "nonpartisan-runoff", "--candidates", "2"]
    out = tmp_path / "witnesses"
    assert main([*args, "--witnesses", str(out), "--check"]) == 0
    written = {p.name: p.read_text(encoding="utf-8") for p in out.glob("*.yaml")}
    assert len(written) >= 2
    # the same witnesses again: the files are the same, nothing to refuse
    assert main([*args, "--witnesses", str(out)]) == 0
    # a scenario the user edited, and one of the user's own in the way: both kept, nothing
    # written (not even the witnesses that would not replace anything), one line each
    edited = out / "outcome-001.yaml"
    edited.write_text(written["outcome-001.yaml"] + "# my note\n", encoding="utf-8")
    (out / "outcome-002.yaml").write_text("title: mine\n", encoding="utf-8")
    (out / "outcome-003.yaml").unlink()
    capsys.readouterr()
    assert main([*args, "--witnesses", str(out), "--check"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2
    assert all("other content" in line and "--overwrite" in line for line in err)
    assert edited.read_text(encoding="utf-8").endswith("# my note\n")
    assert (out / "outcome-002.yaml").read_text(encoding="utf-8") == "title: mine\n"
    assert not (out / "outcome-003.yaml").exists()
    # told to: every witness written afresh
    assert main([*args, "--witnesses", str(out), "--overwrite", "--check"]) == 0
    assert {p.name: p.read_text(encoding="utf-8") for p in out.glob("*.yaml")} == written
    # a file where the folder should be: said before anything is explored
    assert main([*args, "--witnesses", str(edited)]) == 2
    assert "expected a folder to write the witnesses in; found a file" in capsys.readouterr().err
    # a grid's findings are kept the same way
    grid = ["explore", "--grid", "--method", "nonpartisan-plurality", "--seats", "1"]
    assert main([*grid, "--witnesses", str(tmp_path / "gaps")]) == 0
    first = sorted((tmp_path / "gaps").glob("*.yaml"))[0]
    first.write_text("title: mine\n", encoding="utf-8")
    capsys.readouterr()
    assert main([*grid, "--witnesses", str(tmp_path / "gaps")]) == 2
    assert first.read_text(encoding="utf-8") == "title: mine\n"
    assert str(first) in capsys.readouterr().err


def test_explore_command_refuses_a_configuration_out_of_bounds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["explore", "--method", "partisan", "--seats", "9"]) == 2
    err = capsys.readouterr().err
    assert err == "electsim explore --seats: expected a whole number from 1 to 3; found 9\n"
    assert main(["explore", "--method", "partisan", "--candidates", "0", "--departures", "3"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "electsim explore --candidates: expected a whole number from 1 to 8; found 0",
        "electsim explore --departures: expected a whole number from 0 to 2; found 3",
    ]


@pytest.mark.parametrize(
    "extra",
    [
        ["--max-candidates", "3"],
        ["--workers", "2"],
        ["--workers", "1"],
        ["--engine", "processes"],
        ["--scheduler", "tcp://x:1"],
        ["--overwrite"],
    ],
)
def test_explore_command_refuses_options_one_configuration_would_ignore(
    extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # each ran the configuration as if it were not there, exit 0
    assert main(["explore", "--method", "nonpartisan-plurality", *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"explore {extra[0]}: expected only with --" in err


@pytest.mark.parametrize(
    ("extra", "found"),
    [(["--json", "--markdown"], "both --json and --markdown"), (["--markdown"], "without --grid")],
)
def test_explore_command_refuses_markdown_it_would_not_print(
    extra: list[str], found: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # --markdown was ignored: --json printed JSON, and one configuration its text table
    args = ["explore", "--method", "nonpartisan-plurality", "--candidates", "2", *extra]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.rstrip().endswith(found)


GAPS = Path(__file__).resolve().parents[2] / "scenarios" / "gaps"


@pytest.mark.parametrize("path", sorted(GAPS.glob("*.yaml")), ids=lambda p: p.stem)
def test_each_gap_witness_replays_to_every_predicted_ruling(path: Path) -> None:
    assert check_witness(path) == []


def test_every_gap_and_conflict_the_grid_reaches_has_a_witness_file(
    grid: list[Exploration],
) -> None:
    from simulator.analysis.explore.findings import finding_file, grid_findings

    found = {finding_file(f) for f, _c, _o, _w in grid_findings(grid)}
    assert found, "the grid reaches no gap"
    assert found <= {p.name for p in GAPS.glob("*.yaml")}


@pytest.mark.parametrize(
    ("option", "name", "said"),
    [
        ("--graphml", "missing/w.graphml", "the folder"),
        ("--chart", "missing/c.png", "the folder"),
        ("--chart", "charts", "expected a file ending in .png or .svg for --chart; found no"),
        (
            "--graphml",
            "scenario.yaml",
            "expected a file ending in .graphml for --graphml; found .yaml",
        ),
    ],
)
def test_an_output_explore_cannot_write_is_refused_before_it_explores(
    option: str, name: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A missing folder stopped the program after the exploration (exit 1); `--chart charts`
    # wrote charts.png beside the folder; `--graphml scenario.yaml` wrote GraphML over it.
    (tmp_path / "charts").mkdir()
    (tmp_path / "scenario.yaml").write_text("format: electsim/v1\n", encoding="utf-8")
    args = ["explore", "--method", "nonpartisan-plurality", "--candidates", "2"]
    assert main([*args, option, str(tmp_path / name)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and said in captured.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["charts", "scenario.yaml"]
    assert (tmp_path / "scenario.yaml").read_text(encoding="utf-8") == "format: electsim/v1\n"


def test_graphml_has_one_leaf_per_outcome(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import networkx as nx

    out = tmp_path / "w.graphml"
    args = ["explore", "--method", "nonpartisan-runoff", "--candidates", "2", "--json"]
    assert main([*args, "--graphml", str(out)]) == 0
    g = nx.read_graphml(out)
    leaves = [n for n, data in g.nodes(data=True) if data["kind"] == "outcome"]
    doc = json.loads(capsys.readouterr().out)
    assert len(leaves) == len(doc["outcomes"]) and all(g.out_degree(n) == 0 for n in leaves)
    assert nx.is_tree(g)


def test_the_documentation_lists_every_gap_witness() -> None:
    exploring = (GAPS.parent.parent / "docs" / "exploring.md").read_text(encoding="utf-8")
    for path in GAPS.glob("*.yaml"):
        assert f"(../scenarios/gaps/{path.name})" in exploring, path.name


def test_a_witness_is_written_the_same_by_libyaml_and_by_pyyaml_alone(
    grid: list[Exploration],
) -> None:
    # witnesses are written with libyaml where PyYAML has it: the text (what --witnesses
    # compares with a file already there) must be the same on a machine without it
    import yaml

    if not hasattr(yaml, "CSafeDumper"):
        pytest.skip("PyYAML was built without libyaml here: there is one writer only")
    rows = [(ex, row) for ex in grid for row in ex.outcomes]
    for ex, (outcome, witness, _k) in one_in(8, rows):  # (all of them under the long profile)
        doc = witness_doc(ex.config, outcome, witness)
        fast = witness_text(doc)
        assert fast == yaml_text(doc, dumper=yaml.SafeDumper), ex.config.label
        assert yaml.load(fast, Loader=yaml.CSafeLoader) == yaml.safe_load(fast)


def test_the_explorer_s_text_names_outcomes_in_words_and_its_json_keeps_the_identifiers() -> None:
    # words for people ("awaiting a drawing of lots"), identifiers for programs (awaiting_lot)
    from simulator.analysis.explore.findings import render
    from simulator.law.machine import Phase
    from simulator.law.vocab import Pending

    ex = explored(Config(method=Method.RUNOFF, seats=1, candidates=3))
    text = render(ex)
    states = {o.state for o, _w, _k in ex.outcomes}
    assert {"awaiting_recount", "runoff_called", "decided"} <= states
    for identifier in (*(p.value for p in Phase), *(p.value for p in Pending)):
        if "_" in identifier:
            assert identifier not in text, identifier
    assert "pending " not in text and "awaiting a recount" in text
    doc = to_json(ex)
    assert {o["outcome"]["state"] for o in doc["outcomes"]} == states
    assert any("; pending recount" in o["text"] for o in doc["outcomes"])
