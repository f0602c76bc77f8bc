"""electsim explore under the interpretation switches: every other reading of an unclear text,
each on its own, over small configurations of every method. No course may make the engine
raise or end in a result no law allows (a long fuzz run once found a runoff among three tied
for first that elected two to one seat under ``left_runoff_ballot: other_declared``; the
explorer under that reading finds it at once)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from simulator.analysis.explore.config import Config, other_readings
from simulator.analysis.explore.outcomes import impossible
from simulator.analysis.explore.witnesses import check_witness, witness_doc, write_witness
from simulator.cli.explore import parse_readings
from simulator.cli.main import main
from simulator.law.readings import Interpretations
from simulator.law.vocab import Method
from tests.conftest import read_yaml
from tests.explore_cases import explored

#: small configurations of each method, where the readings' facts are reached: ties for first
#: and second, three-way ties, a group's boundaries, departures in every region
SMALL = [
    Config(method=Method.RUNOFF, seats=1, candidates=3),
    Config(method=Method.RUNOFF, seats=2, candidates=3),
    Config(method=Method.PLURALITY, seats=2, candidates=4),
    Config(method=Method.PRIMARY, seats=2, candidates=4),
    Config(method=Method.PARTISAN, seats=1, candidates=3),
    Config(method=Method.PARTISAN, seats=1, candidates=3, general=True),
]


def test_every_other_reading_is_a_value_the_switch_takes_but_its_default() -> None:
    found = other_readings()
    default = Interpretations()
    assert len(found) == len(set(found)) == 36
    for name, value in found:
        now = getattr(default, name)
        assert value != getattr(now, "value", now)
    # every switch, and every value of every switch, is among them or is the default
    assert {name for name, _ in found} == {f for f in Interpretations.CHOICES} | {
        "write_ins_in_total",
        "dead_votes_in_total",
        "withdrawal_as_death",
        "harmless_ties",
    }


def _each_reading_on_each(configs: list[Config]) -> list[Any]:
    """Every (configuration, reading) pair. The fast profile runs every reading on the first
    configuration (a runoff for one seat among three, where most readings' facts are reached)
    and every fourth reading on one other configuration, in turn; the other pairs are marked
    ``long`` and run under the long profile."""
    return [
        pytest.param(
            config,
            reading,
            id=f"{config.label}-{reading[0]}={reading[1]}",
            marks=()
            if i == 0 or (j % 4 == 0 and j // 4 % (len(configs) - 1) == i - 1)
            else pytest.mark.long,
        )
        for i, config in enumerate(configs)
        for j, reading in enumerate(other_readings())
    ]


@pytest.mark.parametrize(("config", "reading"), _each_reading_on_each(SMALL))
def test_no_course_under_any_reading_makes_the_engine_raise_or_fill_too_many_seats(
    config: Config, reading: tuple[str, Any]
) -> None:
    ex = explored(Config(**{**_fields(config), "readings": (reading,)}))
    assert ex.errors == (), (reading, ex.errors[:3])
    assert ex.outcomes


def _fields(config: Config) -> dict[str, Any]:
    return {
        "method": config.method,
        "seats": config.seats,
        "candidates": config.candidates,
        "departures": config.departures,
        "general": config.general,
    }


def test_a_reading_changes_the_outcomes_and_its_witnesses_replay_under_it(tmp_path: Path) -> None:
    base = Config(method=Method.RUNOFF, seats=1, candidates=3)
    other = Config(
        method=Method.RUNOFF,
        seats=1,
        candidates=3,
        readings={"left_runoff_ballot": "other_declared"},
    )
    plain, read = explored(base), explored(other)
    said = {f for o, _, _ in read.outcomes for f in o.findings}
    assert "gap:left-runoff-ballot" in said
    assert {o for o, _, _ in plain.outcomes} != {o for o, _, _ in read.outcomes}
    for i, (o, w, _) in enumerate(read.outcomes):
        path = tmp_path / f"w{i}.yaml"
        write_witness(path, witness_doc(other, o, w))
        doc = read_yaml(path.read_text())
        assert doc["interpretations"] == {"left_runoff_ballot": "other_declared"}
        assert check_witness(path) == []


def test_an_impossible_result_is_named() -> None:
    def result(elected: tuple[str, ...], vacant: int, nominated: tuple[str, ...] = ()) -> Any:
        outcome = SimpleNamespace(elected=elected, vacant_seats=vacant, nominated=nominated)
        return SimpleNamespace(outcome=outcome)

    assert impossible(result(("Ann",), 0), 1) == ""
    assert impossible(result((), 1), 1) == ""
    assert "2 elected (Bob, Cy)" in impossible(result(("Bob", "Cy"), 0), 1)
    assert "1 seat(s) vacant" in impossible(result(("Bob",), 1), 1)
    assert "elected twice" in impossible(result(("Bob", "Bob"), 0), 2)
    assert "nominated twice" in impossible(result((), 0, ("Ann", "Ann")), 2)


def test_readings_are_read_from_the_command_line() -> None:
    assert parse_readings(["harmless_ties=False", "three_way_tie = lot"]) == (
        ("harmless_ties", False),
        ("three_way_tie", "lot"),
    )
    assert parse_readings([]) == ()
    for bad, says in (
        ("three_way_tie", "NAME=VALUE"),
        ("nope=1", "NAME=VALUE"),
        ("three_way_tie=coin", "expected one of runoff_all, lot; found 'coin'"),
        ("harmless_ties=maybe", "expected one of true, false"),
    ):
        with pytest.raises(ValueError, match=says):
            parse_readings([bad])
    with pytest.raises(ValueError, match="given twice"):
        parse_readings(["three_way_tie=lot", "three_way_tie=runoff_all"])


def test_the_explore_command_runs_under_a_reading(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["explore", "--method", "nonpartisan-runoff", "--candidates", "2", "--json"]
    assert main([*args, "--reading", "early_request=reject"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["config"]["interpretations"] == {"early_request": "reject"}
    assert doc["engine_errors"] == []
    assert main([*args, "--reading", "early_request=never"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "early_request" in err and "'never'" in err


@pytest.mark.parametrize(
    "reading",
    [
        pytest.param(
            reading,
            id=f"{reading[0]}={reading[1]}",
            marks=() if reading[0] == "dead_tied_for_first" or j % 16 == 0 else pytest.mark.long,
        )
        for j, reading in enumerate(other_readings())
    ],
)
def test_two_departures_under_any_reading_never_make_the_engine_raise(
    reading: tuple[str, Any],
) -> None:
    # with two departures the runoff method reaches two dead candidates tied for first, where
    # dead_tied_for_first: other_elected once asked the tie table about a tie of nobody (the
    # fast profile runs that switch and one reading in sixteen; the long profile runs them all)
    config = Config(method=Method.RUNOFF, seats=1, candidates=3, departures=2, readings=(reading,))
    ex = explored(config)
    assert ex.errors == (), (reading, ex.errors[:3])
