"""``electsim test`` and the ``expect:`` vocabulary: pass, differences, exit codes, validation."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml

from simulator import ScenarioError, parse_scenario
from simulator.cli.main import main
from simulator.input.expect import EXIT_EXPECTATIONS_FAILED, check_scenario

HEAD = """\
format: electsim/v1
title: Example council seat, 2027
contests: [{id: seat-a, seats: 1, method: nonpartisan-runoff, year: 2027}]
events:
  - {type: candidate_filed, at: 2027-07-06, candidate: Ann}
  - {type: candidate_filed, at: 2027-07-07, candidate: Bob}
  - {type: candidate_filed, at: 2027-07-08, candidate: Cy}
  - {type: returns_reported, at: "2027-10-05T21:00", counts: {Ann: 480, Bob: 420, Cy: 100}}
  - {type: canvass_held, at: "2027-10-12T11:00"}
"""
# G.S. 163-293(a): 1000 votes, a majority is more than 500; Ann's 480 falls short, and nobody
# requests a runoff by noon on the Thursday after the canvass (163-293(c)), so Ann is elected.
GOOD = (
    HEAD
    + """\
expect:
  - as_of: "2027-10-13T09:00"
    pending: runoff_request
    elected: []
    rulings:
      - {kind: majority_threshold, cite: '163-293\\(a\\)', total: 1000, threshold: "500"}
      - {kind: runoff_available, candidates: [Bob]}
    deadlines:
      - {kind: runoff_request, due: "2027-10-14T12:00", moved_from: null}
  - elected: [Ann]
    state: decided
    pending: null
    runoff: {status: none}
    rulings_count: {runoff_called: 0}
    no_rulings: [runoff_called]
"""
)


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    return p


def test_a_scenario_whose_expectations_hold_passes_with_exit_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = write(tmp_path, "good.yaml", GOOD)
    assert main(["test", str(f)]) == 0
    out = capsys.readouterr().out
    assert f"PASS {f} (2 expectation(s))" in out
    assert "1 scenario(s): 1 passed, 0 failed, 0 invalid" in out


def test_a_wrong_expectation_fails_with_its_own_exit_code_naming_field_expected_and_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = GOOD.replace("elected: [Ann]", "elected: [Bob]").replace("total: 1000", "total: 999")
    f = write(tmp_path, "wrong.yaml", wrong)
    code = main(["test", str(f), "--color", "never"])
    assert code == EXIT_EXPECTATIONS_FAILED == 3
    out = capsys.readouterr().out
    assert f"FAIL {f}: 2 of 2 expectation(s) not met" in out
    assert "elected: expected [Bob]; found [Ann]" in out
    assert "rulings[0]: expected a ruling {kind: majority_threshold" in out
    assert "total: 1000" in out.split("rulings[0]")[1]  # the value found is shown
    assert "as of 2027-10-13T09:00" in out and "end of the log" in out


def test_json_report_lists_each_difference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path, "a/good.yaml", GOOD)
    wrong = write(tmp_path, "b/wrong.yaml", GOOD.replace("state: decided", "state: counting"))
    code = main(["test", str(tmp_path), "--json"])
    assert code == 3
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "electsim-test/v1"
    assert (doc["passed"], doc["failed"], doc["invalid"]) == (1, 1, 0)
    by_file = {s["file"]: s for s in doc["scenarios"]}
    assert by_file[str(good)]["status"] == "passed"
    (d,) = by_file[str(wrong)]["differences"]
    assert d == {
        "expectation": 1,
        "line": d["line"],
        "contest": "seat-a",
        "as_of": None,
        "field": "state",
        "expected": "counting",
        "found": "decided",
    }
    assert isinstance(d["line"], int)


@pytest.mark.parametrize(
    ("change", "path", "expected"),
    [
        ("pending: null", "expect[1].pendng", "one of the keys allowed here"),
        ("state: decided", "expect[1].state", "one of filing, "),
        ("no_rulings: [runoff_called]", "expect[1].no_rulings", "one of filing_rejected"),
        ("runoff: {status: none}", "expect[1].runoff.status", "none, available, called, held"),
        ("rulings_count: {runoff_called: 0}", "expect[1].rulings_count.runoff_called", "0 or"),
        ("{kind: runoff_available, candidates: [Bob]}", "expect[0].rulings[1].cite", "compiles"),
        ('due: "2027-10-14T12:00"', "expect[0].deadlines[0].due", "a date or local time prefix"),
        ('as_of: "2027-10-13T09:00"', "expect[0].as_of", "ISO 8601"),
    ],
)
def test_the_expect_vocabulary_is_validated_like_the_rest_of_the_file(
    tmp_path: Path, change: str, path: str, expected: str
) -> None:
    broken = {
        "pending: null": "pendng: null",
        "state: decided": "state: finished",
        "no_rulings: [runoff_called]": "no_rulings: [runoff_calld]",
        "runoff: {status: none}": "runoff: {status: nobody}",
        "rulings_count: {runoff_called: 0}": "rulings_count: {runoff_called: -1}",
        "{kind: runoff_available, candidates: [Bob]}": "{kind: runoff_available, cite: '(163'}",
        'due: "2027-10-14T12:00"': "due: next Thursday",
        'as_of: "2027-10-13T09:00"': "as_of: soon",
    }[change]
    text = GOOD.replace(change, broken)
    assert text != GOOD
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, source="x.yaml")
    (problem,) = info.value.problems
    assert problem.path == path
    assert expected in problem.expected
    assert problem.line is not None and problem.line > 9  # located inside the expect block
    f = write(tmp_path, "bad.yaml", text)
    assert main(["test", str(f)]) == 2
    assert main(["validate", str(f)]) == 2


def test_a_wrong_expectation_is_shown_briefly_however_big_it_is() -> None:
    # Nine lines of aliases make a list of 43 million strings: the message wrote the whole of
    # it out before cutting it to 60 characters (half a minute); a number too long to write
    # out stopped the program (exit 1).
    bomb = '&a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'
    for i in range(1, 9):
        bomb = f"&a{i} [{bomb}, " + ", ".join([f"*a{i - 1}"] * 8) + "]"
    for written, found in [
        (bomb, "[[[[...], [...], [...], [...], [...], [...], ...], [[...]..."),
        ("9" * 5000, "a number of about 5000 digits"),
        ("{elected: [Ann], state: " + bomb + "}", None),
    ]:
        started = time.perf_counter()
        with pytest.raises(ScenarioError) as info:
            parse_scenario(HEAD + "expect:\n  - " + written + "\n", source="x.yaml")
        (problem,) = info.value.problems
        assert problem.line == 11
        assert found is None or problem.found == found
        assert len(problem.found) <= 60
        assert time.perf_counter() - started < 5


@pytest.mark.parametrize(
    ("written", "path"),
    [
        ({"elected": ["Z\ud800"]}, "expect[0].elected[0]"),
        ({"elected": ["Ann", "Bob\nFAIL forged"]}, "expect[0].elected[1]"),
        ({"rulings": [{"kind": "elected", "text": "\ud800"}]}, "expect[0].rulings[0].text"),
        (
            {"rulings": [{"kind": "request_rejected", "reason": "x\ud800"}]},
            "expect[0].rulings[0].reason",
        ),
        (
            {"rulings": [{"kind": "majority_threshold", "total": [[[1] * 9] * 9]}]},
            "expect[0].rulings[0].total",
        ),
    ],
)
def test_an_expected_value_that_could_not_be_printed_is_a_problem(
    written: dict[str, object], path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A lone surrogate passed `validate` and stopped `test` where it printed the difference
    # (exit 1); a newline in a name forged a line of the report; a list of lists was printed whole.
    doc = yaml.safe_load(HEAD)
    doc["expect"] = [written]
    f = tmp_path / "x.json"
    f.write_text(json.dumps(doc, default=str), encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        parse_scenario(f.read_text(encoding="utf-8"), source="x.json", fmt="json")
    assert [p.path for p in info.value.problems] == [path]
    assert main(["test", str(f)]) == 2
    capsys.readouterr()
    assert main(["test", "--json", str(f)]) == 2
    json.loads(capsys.readouterr().out)


def test_an_expectation_must_name_its_contest_when_there_are_several() -> None:
    text = GOOD.replace(
        "contests: [{id: seat-a, seats: 1, method: nonpartisan-runoff, year: 2027}]",
        "contests: [{id: seat-a, seats: 1, method: nonpartisan-runoff, year: 2027},"
        " {id: seat-b, seats: 1, method: nonpartisan-runoff, year: 2027}]",
    ).replace("{type: ", "{contest: seat-a, type: ")
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text)
    assert [p.path for p in info.value.problems] == ["expect[0].contest", "expect[1].contest"]
    fixed = text.replace("  - as_of:", "  - contest: seat-a\n    as_of:")
    assert check_scenario(
        parse_scenario(
            fixed.replace("  - elected: [Ann]", "  - contest: seat-a\n    elected: [Ann]")
        )
    ).passed
    # the same expectation about seat-b, which has no votes yet, does not hold
    check = check_scenario(
        parse_scenario(
            fixed.replace("  - elected: [Ann]", "  - contest: seat-b\n    elected: [Ann]")
        )
    )
    assert {(d.contest, d.field) for d in check.mismatches} >= {
        ("seat-b", "elected"),
        ("seat-b", "state"),
    }


def test_a_scenario_without_expectations_is_reported_not_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = write(tmp_path, "plain.yaml", HEAD)
    assert main(["test", str(f)]) == 0
    assert "SKIP" in capsys.readouterr().out


def test_a_folder_without_scenarios_or_a_missing_path_is_invalid_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty").mkdir()
    assert main(["test", str(tmp_path / "empty")]) == 2
    assert main(["test", str(tmp_path / "nowhere.yaml")]) == 2
    err = capsys.readouterr().err
    assert "found a folder with none" in err and "found nothing there" in err


def test_the_bundled_scenarios_pass_through_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    root = Path(__file__).resolve().parents[2] / "scenarios" / "plurality"
    assert main(["test", str(root), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["passed"] == len(list(root.glob("*.yaml"))) > 0


def test_a_pattern_that_backtracks_without_end_in_re_is_matched_at_once(tmp_path: Path) -> None:
    # '^(\w+\s?)*$' against a ruling's text backtracked for ever in re: `electsim test` hung
    import subprocess
    import sys

    slow = HEAD + "expect:\n  - {rulings: [{text: '^(\\w+\\s?)*$'}], elected: [Ann]}\n"
    f = write(tmp_path, "slow.yaml", slow)
    p = subprocess.run(
        [sys.executable, "-m", "simulator", "test", str(f)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == EXIT_EXPECTATIONS_FAILED, p.stdout + p.stderr
    assert "FAIL" in p.stdout and "rulings" in p.stdout


def test_a_pattern_that_does_not_end_within_the_limit_makes_the_scenario_invalid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import regex  # (expect loads it only to match a pattern)

    import simulator.input.expect as expect

    def never_ends(pattern: str, text: str, timeout: float) -> None:
        assert timeout == expect.MATCH_SECONDS
        raise TimeoutError("regex timed out")

    monkeypatch.setattr(regex, "search", never_ends)
    f = write(tmp_path, "slow.yaml", HEAD + "expect:\n  - {rulings: [{cite: '(a+)+$'}]}\n")
    assert main(["test", str(f)]) == 2
    out = capsys.readouterr().out
    assert f"INVALID {f}" in out
    assert "expect[0]: expected regular expressions that match or fail within 2 s" in out
    assert "found '(a+)+$'" in out


def test_a_folder_is_searched_for_scenario_names_in_any_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a.YAML and b.Yml were skipped in a folder, though each passes when named alone
    for name in ("a.YAML", "b.Yml", "sub/c.yaml"):
        write(tmp_path, name, GOOD)
    write(tmp_path, "notes.txt", "not a scenario")
    assert main(["test", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "3 scenario(s): 3 passed" in out and "a.YAML" in out and "b.Yml" in out


@pytest.mark.parametrize(
    ("entry", "path", "expected"),
    [
        ("{}", "expect[0]", "at least one check besides as_of and contest"),
        ("{as_of: '2027-10-13T09:00'}", "expect[0]", "at least one check besides as_of"),
        ("{runoff: {}}", "expect[0].runoff", "status, candidates or both"),
        ("{elected: [Ann, Ann]}", "expect[0].elected[1]", "each name at most once"),
        ("{runoff: {candidates: [Bob, Ann, Ann]}}", "expect[0].runoff.candidates[2]", "each name"),
    ],
)
def test_an_expectation_that_checks_nothing_or_names_one_twice_is_invalid(
    entry: str, path: str, expected: str
) -> None:
    # each passed: {} and {runoff: {}} checked nothing, and [Bob, Bob] was read as [Bob]
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(HEAD + f"expect:\n  - {entry}\n", source="x.yaml")
    (problem,) = caught.value.problems
    assert problem.path == path and expected in problem.expected and problem.line == 11
