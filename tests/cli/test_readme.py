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

from tests.cli.inprocess import electsim

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


def run_line(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A README line run as a shell would run it: ``$VARIABLES`` and globs expanded, ``> FILE``
    written. ``python -m simulator`` lines run in a real interpreter (the entry point); the
    others run in this one (tests/cli/inprocess.py), which is what the shell would start."""
    if command.startswith("python -m simulator"):
        line = command.replace("python", shlex.quote(sys.executable), 1)
        return subprocess.run(line, shell=True, cwd=cwd, env=env, capture_output=True, text=True)
    redirect = re.search(r"\s>\s*(\S+)$", command)
    words = shlex.split(ELECTSIM.sub("", command[: redirect.start()] if redirect else command))
    args: list[str] = []
    for word in words:
        word = re.sub(r"\$(\w+)", lambda m: env.get(m.group(1), ""), word)
        matches = sorted(str(p.relative_to(cwd)) for p in cwd.glob(word)) if "*" in word else []
        args.extend(matches or [word])
    p = electsim(*args, cwd=cwd, env=env)
    if redirect:
        (cwd / redirect.group(1)).write_text(p.stdout, encoding="utf-8")
        p.stdout = ""
    return p


@pytest.mark.parametrize("command", [c for c in COMMANDS if not c.startswith(SETUP)])
def test_a_readme_command_runs_and_shows_something(command: str, tmp_path: Path) -> None:
    env = dict(os.environ)
    if "ELECTSIM_DATA" in command or command.startswith("electsim conformance"):
        from simulator import find_data_dir

        data = find_data_dir()
        if data is None:
            pytest.skip("the State Board's results files are not here (ELECTSIM_DATA)")
        env["ELECTSIM_DATA"] = str(data)
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    p = run_line(command, tmp_path, env)
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
    p = electsim(*args, cwd=ROOT)
    assert p.returncode == 0 and p.stderr == ""
    whole = electsim(*args[:2], cwd=ROOT)
    assert p.stdout != whole.stdout
    as_json = electsim(*args, "--json", cwd=ROOT)
    assert as_json.returncode == 0, as_json.stderr
    doc = json.loads(as_json.stdout)
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
    p = electsim("replay", str(cary), "--as-of", as_of)
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
    p = electsim("test", str(tmp_path / "primary.yaml"))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "1 passed" in p.stdout
