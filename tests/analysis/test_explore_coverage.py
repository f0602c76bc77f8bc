"""Clause coverage of electsim explore: which subsections of the five statutes the explored
courses reach, per configuration, as a table, a chart and JSON; every subsection not reached is
said to be not modeled, outside the bounds or not the method's, or shown as not reached."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from matplotlib.colors import to_rgba

from simulator.analysis.explore.config import Config
from simulator.analysis.explore.coverage import (
    SUBSECTIONS,
    Status,
    coverage,
    coverage_figure,
    coverage_table,
    never_reached,
)
from simulator.analysis.explore.outcomes import Exploration
from simulator.cli.main import main
from simulator.law.vocab import Method
from tests import explore_cases
from tests.chart_cases import layout_problems

LAW = Path(__file__).resolve().parents[3] / "shared" / "law"


@pytest.fixture(scope="module")
def small() -> list[Exploration]:
    return list(explore_cases.grid())


def test_the_subsections_are_those_of_the_five_statute_files() -> None:
    if not LAW.is_dir():
        pytest.skip("../shared/law is not present: the statutes are read from there")
    from tests.analysis.test_cite import all_subsections

    assert list(SUBSECTIONS) == all_subsections()


def test_the_majority_method_reaches_its_runoff_subsections_with_three_candidates(
    small: list[Exploration],
) -> None:
    # G.S. 163-293(b)(1) the runoff, (d) ties, (e) a runoff candidate leaving, (f) its result
    runoff = next(
        ex for ex in small if ex.config == Config(method=Method.RUNOFF, seats=1, candidates=3)
    )
    cells = coverage(runoff)
    for sub in ("163-293(a)(1)", "163-293(b)(1)", "163-293(d)(1)", "163-293(e)", "163-293(f)"):
        assert cells[sub].status is Status.REACHED and cells[sub].courses > 0, sub
    assert cells["163-293(a)(2)"].status is Status.NOT_GOVERNED  # a group's; one seat here
    assert cells["163-112(a)"].status is Status.NOT_GOVERNED
    assert cells["163-294.1(a)"].status is Status.UNMODELED


def test_every_subsection_is_reached_or_explained_on_the_small_grid(
    small: list[Exploration],
) -> None:
    # what no configuration of a method reaches, though the section governs it, is a defect
    assert never_reached(small) == {}


def test_the_table_marks_each_cell_and_gives_the_reasons(small: list[Exploration]) -> None:
    text = coverage_table(small)
    rows = [line for line in text.splitlines() if line.startswith("163-")]
    assert len(rows) == len(SUBSECTIONS)
    assert all(len(r.split()[-1]) == len(small) for r in rows)
    assert "163-291(4): not modeled" in text


def test_the_chart_has_every_label_with_nothing_clipped_or_overlapping(
    small: list[Exploration],
) -> None:
    for results in (small, small[:1], small[:60]):
        fig = coverage_figure(results)
        assert layout_problems(fig) == []
        ax = fig.axes[0]
        assert [t.get_text() for t in ax.get_yticklabels()] == list(SUBSECTIONS)
        assert len(ax.get_xticklabels()) == len(results)
        assert len(ax.patches) == len(results) * len(SUBSECTIONS)


def test_the_command_writes_the_chart_and_the_json_holds_every_subsection(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    png = tmp_path / "coverage.png"
    args = ["explore", "--method", "nonpartisan-plurality", "--candidates", "2", "--json"]
    assert main([*args, "--chart", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    doc = json.loads(capsys.readouterr().out)
    cells = doc["clause_coverage"]
    assert list(cells) == list(SUBSECTIONS)
    assert cells["163-294.1(c)"]["status"] == "reached"
    assert {c["status"] for c in cells.values()} <= {s.value for s in Status}


def test_a_subsection_no_course_can_reach_is_told_apart_from_one_none_did_reach(
    small: list[Exploration],
) -> None:
    # 163-294.4(b) speaks of "only two" filed for one seat: three candidates cannot reach it
    three = next(
        ex for ex in small if ex.config == Config(method=Method.RUNOFF, seats=1, candidates=3)
    )
    cell = coverage(three)["163-294.4(b)"]
    assert cell.status is Status.UNREACHABLE and "exactly 2" in cell.why
    fig = coverage_figure([three])
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any(t.startswith("cannot be reached") for t in legend)
    assert any(t.startswith("not reached") for t in legend)
    colours = {p.get_facecolor() for p in fig.axes[0].patches}
    assert to_rgba("#d73027") not in colours  # nothing red: no defect in this configuration
    assert "- no course can reach it" in coverage_table([three])


def test_the_chart_of_one_configuration_is_as_narrow_as_its_legend(
    small: list[Exploration],
) -> None:
    one = coverage_figure(small[:1])
    many = coverage_figure(small[:60])
    assert one.get_figwidth() < 4.5 < many.get_figwidth()
    assert layout_problems(one) == []


def test_the_text_output_ends_with_a_key_to_its_terms(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", "--method", "nonpartisan-runoff", "--candidates", "2"]) == 0
    out = capsys.readouterr().out
    assert "over the threshold" in out
    key = out[out.index("\nkey:") :]
    for term in ("one, then two tied", "the first over the threshold", "course(s)", "no provision"):
        assert term in key, term
