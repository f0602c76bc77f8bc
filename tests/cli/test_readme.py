"""The README's commands do what it says: each command line of its shell code blocks runs, exits
0 and prints something (or writes the file it is sent to).

Setup lines (``make``, ``source``, ``pip install``, ``jupyter``) are not electsim's commands and
are left to the package tests. Commands that read the State Board's results files run only where
that data is (``ELECTSIM_DATA``, or ``../shared/data``); elsewhere they are skipped, saying so.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SETUP = ("make", "source", "pip", "jupyter")
ELECTSIM = re.compile(r"^(?:\.venv/bin/electsim|electsim|python -m simulator)\b")


def readme_commands() -> list[str]:
    """The command lines of the README's ``sh`` code blocks, continuation lines joined and
    comments dropped."""
    blocks = re.findall(r"^```sh\n(.*?)^```", README.read_text(encoding="utf-8"), re.M | re.S)
    commands: list[str] = []
    for block in blocks:
        for line in block.replace("\\\n", " ").splitlines():
            command = re.split(r"\s+#\s", line, maxsplit=1)[0].strip()
            if command:
                commands.append(command)
    return commands


COMMANDS = readme_commands()


def test_the_readme_has_its_commands_and_only_setup_lines_are_left_out() -> None:
    run = [c for c in COMMANDS if not c.startswith(SETUP)]
    assert len(run) >= 15
    # every other line is a command of electsim, so that each is run below
    assert all(ELECTSIM.match(c) for c in run), [c for c in run if not ELECTSIM.match(c)]
    # no placeholder a reader would have to replace
    assert not any(re.search(r"\b(FILE|NAME|RESULTS)\b|\.\.\.|\[--", c) for c in run)


@pytest.mark.parametrize("command", [c for c in COMMANDS if not c.startswith(SETUP)])
def test_a_readme_command_runs_and_shows_something(command: str, tmp_path: Path) -> None:
    paths = [str(ROOT), os.environ.get("PYTHONPATH", "")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
    if "ELECTSIM_DATA" in command:
        from simulator import find_data_dir

        data = find_data_dir()
        if data is None:
            pytest.skip("the State Board's results files are not here (ELECTSIM_DATA)")
        env["ELECTSIM_DATA"] = str(data)
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    line = ELECTSIM.sub(f"{shlex.quote(sys.executable)} -m simulator", command)
    p = subprocess.run(
        line, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert p.returncode == 0, f"{command}\n{p.stderr}"
    written = [f for f in tmp_path.rglob("*") if f.is_file() and f.parent.name != "scenarios"]
    written = [f for f in written if "scenarios" not in f.relative_to(tmp_path).parts]
    assert all(f.stat().st_size > 0 for f in written), written
    redirect = re.search(r">\s*(\S+)$", command)
    if redirect:
        assert (tmp_path / redirect.group(1)).stat().st_size > 0
    else:
        assert p.stdout.strip() or written, f"{command}: printed nothing and wrote nothing"
    assert "Traceback" not in p.stderr


def test_the_readme_as_of_example_shows_a_moment_inside_the_story() -> None:
    # 2027-10-14 on the 2023 Cary file was the whole story, silently
    (command,) = [c for c in COMMANDS if "--as-of" in c]
    args = shlex.split(ELECTSIM.sub("", command))
    p = subprocess.run(
        [sys.executable, "-m", "simulator", *args], cwd=ROOT, capture_output=True, text=True
    )
    assert p.returncode == 0 and p.stderr == ""
    whole = subprocess.run(
        [sys.executable, "-m", "simulator", *args[:2]], cwd=ROOT, capture_output=True, text=True
    )
    assert p.stdout != whole.stdout
    doc = json.loads(
        subprocess.run(
            [sys.executable, "-m", "simulator", *args, "--json"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    # noon after the canvass: Jordan may still ask for a runoff
    assert doc["contests"][0]["outcome"]["pending"] == "runoff_request"
    assert doc["contests"][0]["outcome"]["runoff"]["status"] == "available"


@pytest.mark.parametrize(
    ("as_of", "note"),
    [
        ("2027-10-14T11:00", "is after the last event and deadline of this log"),
        ("2023-01-02", "is before the first event of this log"),
    ],
)
def test_an_as_of_outside_the_story_is_noted(as_of: str, note: str) -> None:
    cary = ROOT / "scenarios" / "runoff" / "cary-2023-district-d.yaml"
    p = subprocess.run(
        [sys.executable, "-m", "simulator", "replay", str(cary), "--as-of", as_of],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0 and p.stdout
    (line,) = p.stderr.splitlines()
    assert line.startswith("electsim: note: --as-of ") and note in line


def test_the_worked_example_of_a_primary_and_its_election_passes(tmp_path: Path) -> None:
    # docs/primaries.md: the nominees of the primary are listed in the election contest
    from simulator import parse_scenario, replay

    page = (ROOT / "docs" / "primaries.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"```yaml\n(.*?)```", page, flags=re.S)
    scenario = parse_scenario(example)
    result = replay(scenario)
    primary, election = result.contest("primary"), result.contest("election")
    assert primary.outcome.nominated == ("Ann", "Bob")
    listed = [
        e.candidate
        for e in scenario.events
        if e.contest == "election" and e.type == "candidate_filed"
    ]
    assert listed == list(primary.outcome.nominated)
    assert election.outcome.elected == ("Bob",)
    assert not [r for r in election.rulings if r.kind.value == "filing_rejected"]
    (tmp_path / "primary.yaml").write_text(example, encoding="utf-8")
    p = subprocess.run(
        [sys.executable, "-m", "simulator", "test", str(tmp_path / "primary.yaml")],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0, p.stdout + p.stderr
    assert "1 passed" in p.stdout
