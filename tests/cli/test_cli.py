"""The command line of SPEC section 2: output, exit codes, no tracebacks."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from simulator import parse_scenario, replay
from simulator.cli.main import main
from tests.cli.inprocess import electsim

SCENARIO = """\
format: electsim/v1
title: Example council seat, election and runoff, 2027
contests: [{id: seat-a, municipality: City of Example, office: Council Seat A, seats: 1,
            method: nonpartisan-runoff, year: 2027}]
events:
  - {type: candidate_filed, at: 2027-07-06, candidate: Ann}
  - {type: candidate_filed, at: 2027-07-07, candidate: Bob}
  - {type: candidate_filed, at: 2027-07-08, candidate: Cy}
  - {type: returns_reported, at: "2027-10-05T21:00", counts: {Ann: 480, Bob: 420, Cy: 100}}
  - {type: canvass_held, at: "2027-10-12T11:00"}
  - {type: runoff_requested, at: "2027-10-13T09:30", candidate: Bob}
  - {type: returns_reported, at: "2027-11-02T21:00", counts: {Bob: 520, Ann: 480}}
  - {type: canvass_held, at: "2027-11-12T11:00"}
"""


@pytest.fixture
def scenario_file(tmp_path: Path) -> Path:
    p = tmp_path / "runoff.yaml"
    p.write_text(SCENARIO)
    return p


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return electsim(*args)


def test_replay_json_follows_the_result_format(scenario_file: Path) -> None:
    p = run("replay", str(scenario_file), "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["format"] == "electsim-result/v1"
    c = doc["contests"][0]
    assert c["outcome"]["elected"] == ["Bob"]
    assert c["outcome"]["runoff"] == {"status": "held", "candidates": ["Ann", "Bob"]}
    assert all(r["cite"].startswith("G.S.") for r in c["rulings"])
    assert {"kind", "due", "cite", "moved_from", "why_moved"} <= set(c["deadlines"][0])


def test_replay_prints_a_readable_timeline_by_default(scenario_file: Path) -> None:
    p = run("replay", str(scenario_file))
    assert p.returncode == 0
    assert "G.S. 163-293(a)(1)" in p.stdout and "more than 500 votes" in p.stdout
    assert "\033[" not in p.stdout  # no colour when not on a terminal


def test_as_of_leaves_later_deadlines_open(scenario_file: Path) -> None:
    p = run("replay", str(scenario_file), "--json", "--as-of", "2027-10-13T09:00")
    c = json.loads(p.stdout)["contests"][0]
    assert c["outcome"]["pending"] == "runoff_request"
    assert c["outcome"]["elected"] == []  # the leader's seat depends on the request
    assert c["outcome"]["runoff"]["status"] == "available"


def test_replay_is_deterministic_byte_for_byte(scenario_file: Path) -> None:
    a = run("replay", str(scenario_file), "--json").stdout
    b = run("replay", str(scenario_file), "--json").stdout
    assert a == b
    s = parse_scenario(SCENARIO)
    assert json.dumps(replay(s).to_json()) == json.dumps(replay(s).to_json())


def test_a_missing_file_is_invalid_input(tmp_path: Path) -> None:
    p = run("replay", str(tmp_path / "nope.yaml"))
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "nope.yaml" in p.stderr


def test_a_bad_as_of_is_invalid_input(scenario_file: Path) -> None:
    p = run("replay", str(scenario_file), "--as-of", "next tuesday")
    assert p.returncode == 2 and "--as-of" in p.stderr and "Traceback" not in p.stderr
    # a time finer than a microsecond would be cut to it: refused, not read as earlier
    p = run("replay", str(scenario_file), "--as-of", "2027-10-14T12:00:00.0000001")
    assert p.returncode == 2
    assert "--as-of: expected a time to the microsecond at most" in p.stderr


def test_an_as_of_the_clocks_skip_or_repeat_is_read_as_scenario_times_are() -> None:
    from simulator.cli.common import UsageError
    from simulator.cli.times import parse_time

    for text, words in (
        ("2027-03-14T02:30", "02:30 never shows"),
        ("2027-11-07T01:30", "2027-11-07T01:30-05:00 for the second"),
    ):
        with pytest.raises(UsageError) as caught:
            parse_time(text, "America/New_York")
        assert str(caught.value).startswith("--as-of: expected a time the clocks show")
        assert words in str(caught.value) and repr(text) in str(caught.value)
    # with its offset, the second pass comes after the first, as the instants do
    first = parse_time("2027-11-07T01:45-04:00", "America/New_York")
    second = parse_time("2027-11-07T01:15-05:00", "America/New_York")
    assert second > first
    assert parse_time("2027-11-07", "America/New_York").hour == 0


def test_validate_exits_0_for_a_good_file_and_2_for_a_bad_one(
    scenario_file: Path, tmp_path: Path
) -> None:
    assert run("validate", str(scenario_file)).returncode == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text(SCENARIO.replace("count", "cuont").replace("seats: 1", "seats: 0"))
    p = run("validate", str(bad))
    assert p.returncode == 2
    lines = [ln for ln in p.stderr.splitlines() if "bad.yaml:" in ln]
    assert len(lines) >= 2  # every problem, one line each
    assert any("contests[0].seats" in ln for ln in lines)


def test_an_unknown_command_is_a_usage_error() -> None:
    p = run("frobnicate")
    assert p.returncode == 2


def test_main_can_be_called_in_process(
    scenario_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(scenario_file), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scenario"].startswith("Example council")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["replay", "FILE", "--jsn"],
            "--jsn: expected an option of electsim replay; found '--jsn'; did you mean '--json'?",
        ),
        (
            ["replay", "FILE", "--as-off=2027-10-14"],
            "--as-off: expected an option of electsim replay; found '--as-off'; did you mean "
            "'--as-of'?",
        ),
        (  # a required option misspelt is named as itself, not as missing
            ["calendar", "2027", "--methd", "nonpartisan-runoff"],
            "--methd: expected an option of electsim calendar; found '--methd'; did you mean "
            "'--method'?",
        ),
        (
            ["calendar", "2027", "--method", "plurality"],
            "found 'plurality'; did you mean 'nonpartisan-plurality'?",
        ),
        (["replya", "FILE"], "found 'replya'; did you mean 'replay'?"),
        (["replay", "FILE", "--color", "alwys"], "found 'alwys'; did you mean 'always'?"),
        (["--verison"], "found '--verison'; did you mean '--version'?"),
    ],
)
def test_a_misspelt_argument_is_answered_with_what_it_looks_like(
    scenario_file: Path, argv: list[str], message: str
) -> None:
    p = run(*(str(scenario_file) if a == "FILE" else a for a in argv))
    assert p.returncode == 2 and not p.stdout
    (error,) = [ln for ln in p.stderr.splitlines() if ln.startswith("electsim: error:")]
    assert error.endswith(message), error


def test_an_option_like_none_says_where_to_look(scenario_file: Path) -> None:
    p = run("replay", str(scenario_file), "--zzz")
    assert p.returncode == 2
    assert p.stderr.splitlines()[-1] == (
        "electsim: error: --zzz: expected an option of electsim replay; found '--zzz' "
        "(electsim replay --help lists them)"
    )
    p = run("replay", str(scenario_file), "extra")
    assert p.returncode == 2 and "found 'extra'" in p.stderr
