"""A scenario or a results file from a stranger: the names inside it never become a path
outside the folder the user named, nor a command to the user's terminal; an output that cannot
be written is invalid input (exit 2), not a bug."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.cli.main import main

EMPTY = """\
format: electsim/v1
title: Ids that are paths
contests:
{contests}
events: []
"""


def contests(*ids: str) -> str:
    return "\n".join(
        f"  - {{id: {cid!r}, method: nonpartisan-plurality, year: 2027}}" for cid in ids
    )


@pytest.mark.parametrize("cid", ["../x", "../../x", "/tmp/electsim-x", "a/../../x", "..", "x/.."])
def test_an_id_that_is_a_path_writes_its_calendar_inside_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cid: str
) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(EMPTY.format(contests=contests(cid, "other")), encoding="utf-8")
    folder = tmp_path / "deep" / "calendars"
    before = set(tmp_path.rglob("*"))
    assert main(["replay", str(scenario), "--ics", str(folder)]) == 0
    made = set(tmp_path.rglob("*")) - before
    files = {p for p in made if p.is_file()}
    assert len(files) == 2
    assert all(p.parent == folder and p.suffix == ".ics" for p in files)
    assert not Path("/tmp/electsim-x.ics").exists()
    assert f"({cid})" in capsys.readouterr().err  # the id, as written, beside its file


def test_a_link_in_the_folder_is_not_written_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(EMPTY.format(contests=contests("a", "b")), encoding="utf-8")
    folder = tmp_path / "calendars"
    folder.mkdir()
    victim = tmp_path / "victim.ics"
    victim.write_text("mine\n", encoding="utf-8")
    (folder / "b.ics").symlink_to(victim)
    code = main(["replay", str(scenario), "--ics", str(folder)])
    err = capsys.readouterr().err
    assert code == 2
    assert "symbolic link" in err and str(folder / "b.ics") in err
    assert victim.read_text(encoding="utf-8") == "mine\n"


def test_a_state_graph_per_contest_is_not_written_through_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(EMPTY.format(contests=contests("a", "../b")), encoding="utf-8")
    victim = tmp_path / "victim.dot"
    victim.write_text("mine\n", encoding="utf-8")
    (tmp_path / "g._b.dot").symlink_to(victim)
    code = main(["replay", str(scenario), "--graph", str(tmp_path / "g.dot")])
    assert code == 2
    assert "symbolic link" in capsys.readouterr().err
    assert victim.read_text(encoding="utf-8") == "mine\n"


def test_terminal_escapes_in_a_results_file_are_shown_not_obeyed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "20231010__nc__general__precinct.csv"
    results.write_text(
        "county,precinct,office,district,party,candidate,votes\n"
        'WAKE,P1,"TOWN OF X\x1b]0;title\x07\x1b[2J MAYOR",,,Ann,3\n',
        encoding="utf-8",
    )
    assert main(["import-results", str(results), "--list"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "TOWN OF X\\x1b]0;title\\x07\\x1b[2J MAYOR" in out


def electsim(*args: str, stdout: int | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "simulator", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full to stand for a full disk")
@pytest.mark.parametrize(
    "args",
    [
        ["schema"],
        ["replay", "scenarios/runoff/cary-2023-district-d.yaml", "--json"],
        ["replay", "scenarios/runoff/cary-2023-district-d.yaml", "--ics"],
        ["calendar", "2027", "--method", "nonpartisan-runoff", "--ics"],
    ],
)
def test_a_full_output_device_is_invalid_input_in_one_line(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = electsim(*args, stdout=full.fileno())
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "electsim: standard output: cannot write the output: No space left on device"
    ]


def test_a_closed_pipe_is_invalid_input_in_one_line() -> None:
    read, write = os.pipe()
    os.close(read)  # nobody will read what electsim writes
    try:
        done = electsim("schema", stdout=write)
    finally:
        os.close(write)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "electsim: standard output: cannot write the output: the program reading it closed the pipe"
    ]


def test_a_problem_quoting_control_characters_prints_as_one_visible_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from simulator.cli.common import print_problems
    from simulator.model.errors import Problem, ScenarioError

    # the file name is the user's, but a folder of strangers' files can be named anything
    name = str(tmp_path / "x\x1b]0;title\x07\ny.yaml")
    print_problems(ScenarioError([Problem("events[0].at", "a time", "never", 3, name)]))
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err
    assert len(err.splitlines()) == 2  # the problem, then how many there were
    assert "x\\x1b]0;title\\x07\\x0ay.yaml" in err
