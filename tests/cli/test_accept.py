"""``--accept FILE`` of ``electsim gaps`` and ``electsim explore``: exit 4 only on a finding the
file does not hold, exit 2 with one line on a file that cannot be used (docs/cli.md)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from simulator.cli.accept import AcceptError, is_accepted, read_accepted
from tests.cli.inprocess import electsim


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return electsim(*args)


@pytest.fixture(scope="module")
def ids() -> list[str]:
    p = run("gaps", "--ids")
    assert p.returncode == 0, p.stderr
    return p.stdout.split()


def test_gaps_ids_prints_each_stable_id_once_sorted(ids: list[str]) -> None:
    assert ids == sorted(set(ids))
    assert {"gap:runner-up-left", "conflict:dead-tied-for-first", "gap:late-notice"} <= set(ids)
    assert all(i.split(":", 1)[0] in ("gap", "conflict") for i in ids)


def test_gaps_accepting_every_finding_exits_0(ids: list[str], tmp_path: Path) -> None:
    known = tmp_path / "known.txt"
    known.write_text("# reviewed\n\n" + "\n".join(ids) + "\n", encoding="utf-8")
    p = run("gaps", "--accept", str(known))
    assert p.returncode == 0, p.stderr
    assert "every finding is in" in p.stderr
    assert "gaps and conflicts of the statutes" in p.stdout  # listed as without --accept


def test_gaps_names_the_findings_not_accepted_and_exits_4(ids: list[str], tmp_path: Path) -> None:
    kept = [i for i in ids if i not in ("gap:runner-up-left", "conflict:dead-tied-for-first")]
    # a bare id accepts the gap or conflict of that name; a comment after an id is allowed
    kept = [("three-way-tie  # either kind" if i == "gap:three-way-tie" else i) for i in kept]
    known = tmp_path / "known.txt"
    known.write_text("\n".join(kept) + "\n", encoding="utf-8")
    p = run("gaps", "--accept", str(known))
    assert p.returncode == 4, p.stderr
    assert p.stderr.strip() == (
        f"electsim gaps: 2 finding(s) not in {known}: conflict:dead-tied-for-first, "
        "gap:runner-up-left"
    )
    doc = json.loads(run("gaps", "--json", "--accept", str(known)).stdout)
    assert doc["not_accepted"] == ["conflict:dead-tied-for-first", "gap:runner-up-left"]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "expected a file of ids, one a line; found no such file"),
        ("gap:runner-up-left\nrunner up left\n", ":2: expected a gap or conflict id"),
        ("GAP:runner-up-left\n", ":1: expected a gap or conflict id"),
        (b"gap:\xff\n", "expected a text file (UTF-8)"),
    ],
)
def test_a_bad_accept_file_is_one_line_and_exit_2(
    content: str | bytes | None, expected: str, tmp_path: Path
) -> None:
    path = tmp_path / "known.txt"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    for command in (
        ["gaps"],
        ["explore", "--method", "nonpartisan-plurality", "--candidates", "1"],
    ):
        p = run(*command, "--accept", str(path))
        assert p.returncode == 2, (command, p.stderr)
        assert len(p.stderr.strip().splitlines()) == 1, p.stderr
        assert expected in p.stderr and str(path) in p.stderr
        assert p.stdout == ""  # refused before any work


def test_a_folder_is_not_an_accept_file(tmp_path: Path) -> None:
    with pytest.raises(AcceptError, match="found a folder"):
        read_accepted(str(tmp_path))


def test_explore_exits_4_only_on_a_finding_not_accepted(tmp_path: Path) -> None:
    # a runoff for one seat between two: a dead candidate tied for first after the recount
    # (conflict:dead-tied-for-first) among others
    config = ["explore", "--method", "nonpartisan-runoff", "--candidates", "2", "--json"]
    found = {f["id"] for f in json.loads(run(*config).stdout)["findings"]}
    assert "conflict:dead-tied-for-first" in found
    known = tmp_path / "known.txt"
    known.write_text("\n".join(sorted(found)) + "\n", encoding="utf-8")
    p = run(*config, "--accept", str(known))
    assert p.returncode == 0, p.stderr
    known.write_text(
        "\n".join(sorted(found - {"conflict:dead-tied-for-first"})) + "\n", encoding="utf-8"
    )
    p = run(*config, "--accept", str(known))
    assert p.returncode == 4
    assert "conflict:dead-tied-for-first" in p.stderr
    assert json.loads(p.stdout)["findings"]  # the exploration is printed as without --accept


def test_a_bare_id_accepts_either_kind() -> None:
    accepted = frozenset({"three-way-tie", "conflict:dead-tied-for-first"})
    assert is_accepted("gap:three-way-tie", accepted)
    assert is_accepted("conflict:dead-tied-for-first", accepted)
    assert not is_accepted("gap:dead-tied-for-first", accepted)
