"""``--reading NAME=VALUE`` on ``electsim replay``, ``report`` and ``test``, as on ``explore``
(docs/cli.md): it overrides the scenario's ``interpretations:`` for the run, and says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
# G.S. 163-293(d)(1): three tied for first after the recount (gap three-way-tie, the three_way_tie
# reading)
THREE_WAY = str(ROOT / "scenarios/runoff/three-way-tie-for-first.yaml")


def test_replay_under_a_reading_chosen_on_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["replay", THREE_WAY, "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["replay", THREE_WAY, "--json", "--reading", "three_way_tie=lot"]) == 0
    chosen = json.loads(capsys.readouterr().out)
    assert plain["interpretations"] == {}
    assert chosen["interpretations"] == {"three_way_tie": "lot"}
    kinds = [r["kind"] for r in chosen["contests"][0]["rulings"]]
    assert "lot_required" in kinds and "runoff_called" not in kinds
    assert main(["replay", THREE_WAY, "--reading", "three_way_tie=lot"]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0] == (
        "readings chosen on the command line (over the scenario's interpretations:): "
        "three_way_tie: lot"
    )


def test_a_reading_the_scenario_sets_is_overridden_by_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the scenario reads left_runoff_ballot: other_declared; the option sets the default back
    path = str(
        ROOT / "scenarios/collisions/2933e-runoff-candidate-dies-read-as-other-declared.yaml"
    )
    assert main(["replay", path, "--json", "--reading", "left_runoff_ballot=name_stays"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["interpretations"] == {}
    assert "name_remains" in [r["kind"] for r in doc["contests"][0]["rulings"]]


def test_test_and_report_take_the_reading_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # the scenario expects the runoff of the default reading: under the other one it fails
    assert main(["test", THREE_WAY]) == 0
    capsys.readouterr()
    assert main(["test", THREE_WAY, "--reading", "three_way_tie=lot"]) == 3
    out = capsys.readouterr().out
    assert out.startswith("readings chosen on the command line") and "FAIL" in out
    html = tmp_path / "r.html"
    assert main(["report", THREE_WAY, "-o", str(html), "--reading", "three_way_tie=lot"]) == 0
    assert "three_way_tie: lot" in capsys.readouterr().out
    assert html.exists()


@pytest.mark.parametrize(
    ("given", "says"),
    [
        (
            "three_way_tie=lott",
            "expected one of runoff_all, lot; found 'lott'; did you mean 'lot'?",
        ),
        ("three_way_ti=lot", "found 'three_way_ti=lot'; did you mean 'three_way_tie'?"),
        ("three_way_tie", "expected NAME=VALUE"),
    ],
)
@pytest.mark.parametrize("command", ["replay", "report", "test"])
def test_a_bad_reading_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, given: str, says: str
) -> None:
    more = ["-o", str(tmp_path / "r.html")] if command == "report" else []
    assert main([command, THREE_WAY, *more, "--reading", given]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and says in captured.err, captured.err
    assert captured.out == "" and not (tmp_path / "r.html").exists()
