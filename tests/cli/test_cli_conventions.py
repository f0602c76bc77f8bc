"""Command-line conventions: --version, help with examples, --json wherever results are printed,
NO_COLOR and --color, tables fitted to the width, progress only on a terminal, and ``demo``."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.cli.common import progress, use_colour
from simulator.cli.main import build_parser, main
from tests.cli.inprocess import electsim
from tests.input.test_importer import EC4_ROWS, results_pct

ROOT = Path(__file__).resolve().parents[2]
CARY = ROOT / "scenarios" / "runoff" / "cary-2023-district-d.yaml"


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return electsim(*args, env={**os.environ, **(env or {})})


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_version_prints_the_package_version() -> None:
    from importlib.metadata import version

    p = run("--version")
    assert p.returncode == 0
    assert p.stdout == f"electsim {version('electsim')}\n"


def test_every_command_shows_examples_in_its_help() -> None:
    for name in ("replay", "test", "validate", "calendar", "demo", "report", "gaps", "schema"):
        p = run(name, "--help")
        assert p.returncode == 0
        assert "examples:\n  electsim " + name in p.stdout, name
        assert "docs/" in p.stdout


def test_the_method_choices_are_listed_and_enforced() -> None:
    p = run("calendar", "--help")
    assert "partisan, nonpartisan-plurality, nonpartisan-primary, nonpartisan-runoff" in " ".join(
        p.stdout.split()
    )
    bad = run("calendar", "2027", "--method", "ranked-choice")
    assert (
        bad.returncode == 2
        and "expected one of partisan" in bad.stderr
        and "found 'ranked-choice'" in bad.stderr
    )


@pytest.mark.parametrize(
    ("choice", "env", "tty", "expected"),
    [
        ("auto", {}, True, True),
        ("auto", {}, False, False),
        ("auto", {"NO_COLOR": "1"}, True, False),
        ("auto", {"NO_COLOR": ""}, True, True),  # no-color.org: set to a non-empty string
        ("auto", {"TERM": "dumb"}, True, False),
        ("never", {}, True, False),
        ("always", {"NO_COLOR": "1"}, False, True),  # an explicit flag wins
    ],
)
def test_colour_follows_the_flag_the_terminal_and_no_color(
    monkeypatch: pytest.MonkeyPatch, choice: str, env: dict[str, str], tty: bool, expected: bool
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    assert use_colour(choice, Tty() if tty else io.StringIO()) is expected


def test_replay_colours_only_when_asked() -> None:
    assert "\033[" in run("replay", str(CARY), "--color", "always").stdout
    assert "\033[" not in run("replay", str(CARY)).stdout
    assert "\033[" not in run("test", str(CARY), env={"NO_COLOR": "1"}).stdout


def test_validate_json_lists_each_file_and_its_problems(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(CARY.read_text().replace("type: canvass_held", "type: canvas_held", 1))
    p = run("validate", str(CARY), str(bad), "--json")
    assert p.returncode == 2
    doc = json.loads(p.stdout)
    good, wrong = doc["files"]
    assert (good["valid"], good["contests"], good["expectations"]) == (True, 1, 5)
    assert wrong["valid"] is False
    (problem,) = wrong["problems"]
    assert problem["path"].endswith(".type") and problem["found"] == (
        "'canvas_held'; did you mean 'canvass_held'?"
    )
    assert isinstance(problem["line"], int)


def test_validate_checks_every_file_before_exiting(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: electsim/v1\n")
    p = run("validate", str(bad), str(CARY))
    assert p.returncode == 2
    assert f"{CARY}: valid" in p.stdout and "bad.yaml" in p.stderr


def test_import_results_list_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "results_pct_20251007.txt"
    path.write_text(results_pct(EC4_ROWS))
    assert main(["import-results", str(path), "--list", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (contest,) = doc["contests"]
    assert (contest["candidates"], contest["write_ins"], contest["total_votes"]) == (4, 1, 787)
    assert contest["seats"] == 2


def test_every_command_that_prints_results_has_json() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if hasattr(a, "choices") and a.choices)
    prints_results = {"replay", "test", "validate", "calendar", "gaps", "import-results"}
    prints_results |= {"conformance"}
    for name in prints_results:
        options = {s for a in sub.choices[name]._actions for s in a.option_strings}
        assert "--json" in options, name


def test_the_calendar_table_fits_the_terminal_width(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # 2026: the filing period opens on a holiday, and the note on its G.S. 103-5 move is long
    for width in (70, 100):
        monkeypatch.setenv("COLUMNS", str(width))
        monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
        assert main(["calendar", "2026", "--method", "nonpartisan-runoff"]) == 0
        out = capsys.readouterr().out
        assert max(len(line) for line in out.splitlines()) <= width
        assert "Independence" in out and "G.S. 103-5(a)" in out
    # to a pipe, whole lines
    p = run("calendar", "2026", "--method", "nonpartisan-runoff", env={"COLUMNS": "70"})
    assert max(len(line) for line in p.stdout.splitlines()) > 70


def test_the_replay_timeline_wraps_long_labels_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["replay", str(CARY)]) == 0
    out = capsys.readouterr().out
    timeline = [
        line for line in out.splitlines() if line[:3] in ("Mon", "Tue", "Wed", "Thu", "Fri")
    ]
    assert len(timeline) > 10
    assert max(len(line) for line in timeline) <= 80
    assert "returns reported" in out


def test_conformance_text_fits_the_width() -> None:
    from datetime import date

    from simulator.analysis.conformance.published_dates import CalendarCheck
    from simulator.analysis.conformance.report import format_report
    from simulator.analysis.conformance.runoffs import Check, Report

    long = "an explanation " * 40
    check = Check(
        town="Dunn",
        year=2015,
        contest="DUNN CITY COUNCIL WARD 3",
        office="Council Ward 3",
        seats=1,
        seat_source="",
        total=128,
        threshold="64",
        verdict="no majority",
        engine="runoff possible " * 5,
        november="runoff held",
        agree=True,
        explanation=long,
    )
    cal = CalendarCheck("filing", "board", date(2023, 7, 7), date(2023, 7, 7), "first Friday")
    report = Report(checks=(check,), calendar=(cal,), november_only=(), data_dir="d")
    text = format_report(report, width=72)
    assert max(len(line) for line in text.splitlines()) <= 72
    assert "explanation" in text and "Dunn" in text
    assert max(len(line) for line in format_report(report).splitlines()) > 72


def test_progress_is_silent_off_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse

    items = list(range(5))
    assert list(progress(items, argparse.Namespace(), what="x")) == items
    assert capsys.readouterr().err == ""


# --- demo ----------------------------------------------------------------------------------------

SMALL = """\
format: electsim/v1
title: {title}
contests: [{{id: mayor, seats: 1, method: nonpartisan-plurality, year: 2027}}]
events:
  - {{type: candidate_filed, at: 2027-07-06, candidate: {name}}}
  - {{type: returns_reported, at: "2027-11-02T21:00", counts: {{{name}: 10}}}}
  - {{type: canvass_held, at: "2027-11-12T11:00"}}
"""


def test_demo_mirrors_the_folders_so_same_names_do_not_collide(tmp_path: Path) -> None:
    src = tmp_path / "cases"
    for folder, name in (("a", "Ann"), ("b", "Bob")):
        (src / folder).mkdir(parents=True)
        (src / folder / "x.yaml").write_text(SMALL.format(title=f"{folder} case", name=name))
    out = tmp_path / "out"
    p = run("demo", str(src), "--out", str(out), "--no-charts")
    assert p.returncode == 0, p.stderr
    a = json.loads((out / "a" / "x.json").read_text())
    b = json.loads((out / "b" / "x.json").read_text())
    assert a["contests"][0]["outcome"]["elected"] == ["Ann"]
    assert b["contests"][0]["outcome"]["elected"] == ["Bob"]
    assert not (out / "x.json").exists()
    lines = p.stdout.splitlines()
    assert "a/x.yaml  mayor: elected Ann" in lines
    assert f"    -> {out / 'a' / 'x.json'}" in lines
    assert lines[-1].startswith("replayed 2 scenario(s)")


def test_demo_run_again_into_a_folder_inside_its_scenarios_reads_only_the_scenarios(
    tmp_path: Path,
) -> None:
    # the second run read the first's results as scenarios, and failed on them
    src = tmp_path / "cases"
    src.mkdir()
    (src / "x.yaml").write_text(SMALL.format(title="a case", name="Ann"))
    out = src / "out"
    for _ in range(2):
        p = run("demo", str(src), "--out", str(out), "--no-charts")
        assert p.returncode == 0, p.stderr
        assert p.stdout.splitlines()[-1].startswith("replayed 1 scenario(s)")
    assert sorted(x.name for x in out.iterdir()) == ["x.json"]
    p = run("demo", str(out / "x.json"), "--out", str(out), "--no-charts")
    assert p.returncode == 2 and "expected scenario files outside the output folder" in p.stderr


def test_demo_draws_a_chart_and_report_for_the_first_scenario_of_each_folder(
    tmp_path: Path,
) -> None:
    src = tmp_path / "cases"
    for folder, name in (("a", "Ann"), ("a", "Amy"), ("b", "Bob")):
        (src / folder).mkdir(parents=True, exist_ok=True)
        (src / folder / f"{name}.yaml").write_text(SMALL.format(title=name, name=name))
    out = tmp_path / "out"
    p = run("demo", str(src), "--out", str(out), "--jobs", "1")
    assert p.returncode == 0, p.stderr
    assert sorted(x.relative_to(out).as_posix() for x in out.rglob("*.html")) == [
        "a/Amy.html",
        "b/Bob.html",
    ]
    assert (out / "a" / "Amy.svg").read_text().startswith("<?xml")
    assert f"    -> {out / 'a' / 'Amy.html'}" in p.stdout.splitlines()
    assert "--all-charts" in p.stdout


def test_demo_into_a_folder_that_cannot_be_made_is_invalid_input(tmp_path: Path) -> None:
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "Amy.yaml").write_text(
        (Path("scenarios/plurality/single-office.yaml")).read_text()
    )
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    p = run("demo", str(tmp_path / "cases"), "--out", str(blocker / "out"), "--no-charts")
    assert p.returncode == 2
    assert "cannot write the output" in p.stderr
    assert str(blocker) in p.stderr
    assert "Traceback" not in p.stderr


def test_demo_never_writes_over_a_scenario_or_two_results_into_one_file(tmp_path: Path) -> None:
    # results written into the scenarios' own folder would replace its JSON scenarios; a.yaml
    # and a.json have one result file between them
    src = tmp_path / "cases"
    src.mkdir()
    (src / "a.yaml").write_text(SMALL.format(title="a", name="Ann"))
    from simulator.input.loader import dump_scenario, load_scenario

    dump_scenario(load_scenario(src / "a.yaml"), src / "b.json")
    written = (src / "b.json").read_text()
    p = run("demo", str(src), "--out", str(src), "--no-charts")
    assert p.returncode == 2
    assert p.stderr.splitlines() == [
        f"electsim: {src / 'b.json'}: cannot write this scenario's own result over a scenario "
        "file that is replayed (name another folder with --out)"
    ]
    assert (src / "b.json").read_text() == written and not (src / "a.json").exists()
    (src / "a.json").write_text(written)
    p = run("demo", str(src), "--out", str(tmp_path / "out"))
    assert p.returncode == 2
    assert f"{tmp_path / 'out' / 'a.json'}: cannot write the results of both" in p.stderr
    assert "Traceback" not in p.stderr and not (tmp_path / "out").exists()


def test_demo_on_a_folder_without_scenarios_is_invalid_input(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    p = run("demo", str(tmp_path / "empty"), "--out", str(tmp_path / "out"))
    assert p.returncode == 2
    assert "found a folder with none" in p.stderr
    assert run("demo", str(tmp_path / "nowhere")).returncode == 2


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (["replay", str(CARY), "--as-of", ""], "--as-of"),
        (["replay", str(CARY), "--chart", ""], "--chart"),
        (["replay", str(CARY), "--graph", " "], "--graph"),
        (["replay", str(CARY), "--chart", "x.svg", "--from", ""], "--from"),
        (["report", str(CARY), "-o", ""], "-o/--output"),
    ],
)
def test_an_empty_value_is_a_usage_error_not_the_option_left_out(
    args: list[str],
    name: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As an unset shell variable writes it: `--as-of "$WHEN"` replayed the whole log, and
    # `--chart "$OUT"` drew no chart, both with exit 0; `-o ""` wrote the report elsewhere.
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    assert (
        capsys.readouterr().err
        == f"electsim: {name}: expected a value; found {args[-1]!r}, an empty one\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("options", "refused"),
    [
        (["--jobs", "0"], "--jobs: expected 1 or more processes; found 0"),
        (["--jobs", "-3"], "--jobs: expected 1 or more processes; found -3"),
        (["--all-charts", "--no-charts"], "--all-charts and --no-charts: expected one of them"),
    ],
)
def test_demo_refuses_options_it_would_not_follow(
    options: list[str], refused: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --all-charts won over --no-charts, and --jobs 0 or -3 drew with one process per core
    out = tmp_path / "out"
    assert main(["demo", str(CARY), "--out", str(out), *options]) == 2
    assert capsys.readouterr().err.startswith(f"electsim: {refused}")
    assert not out.exists()


def test_demo_draws_the_showcase_not_the_first_scenario_of_each_folder(tmp_path: Path) -> None:
    # `make demo` drew runoff/canvass-before-its-day, the alphabetically first, not Cary 2023
    from simulator.cli.demo import SHOWCASE

    lib = tmp_path / "lib"
    shown = [SHOWCASE[0][0], SHOWCASE[2][0]]  # runoff/cary-..., contingencies/112a-...
    for path in shown:
        (lib / path).parent.mkdir(parents=True, exist_ok=True)
        (lib / path).write_text((ROOT / "scenarios" / path).read_text())
        # an alphabetically first scenario beside each
        (lib / path).with_name("000-first.yaml").write_text(SMALL.format(title="a", name="Ann"))
    out = tmp_path / "out"
    p = run("demo", str(lib), "--out", str(out), "--jobs", "1")
    assert p.returncode == 0, p.stderr
    html = sorted(x.relative_to(out).as_posix() for x in out.rglob("*.html"))
    assert html == sorted(x.replace(".yaml", ".html") for x in shown)
    assert sorted(x.relative_to(out).as_posix() for x in out.rglob("*.svg")) == sorted(
        x.replace(".yaml", ".svg") for x in shown
    )
    lines = p.stdout.splitlines()
    i = lines.index("the showcase, each as a chart and a report:")
    assert lines[i + 1] == f"  {out / 'runoff' / 'cary-2023-district-d.html'}: {SHOWCASE[0][1]}"
    assert lines[i + 2].endswith(SHOWCASE[2][1])


def test_the_showcase_is_in_the_library_and_make_demo_draws_it() -> None:
    from simulator.cli.common import scenario_files
    from simulator.cli.demo import SHOWCASE, showcase_in

    library = ROOT / "scenarios"
    files = scenario_files([str(library)])
    found = showcase_in(files, library)
    assert [f.relative_to(library).as_posix() for f, _ in found] == [p for p, _ in SHOWCASE]
    assert all((what and what[0].isupper()) or what[0].islower() for _, what in SHOWCASE)
    # the Makefile's demo target draws its reference charts from these, and only these
    makefile = (ROOT / "Makefile").read_text()
    target = makefile.split("\ndemo:", 1)[1].split("\n\n", 1)[0]
    drawn = [
        line.split(" simulator replay ", 1)[1].split()[0]
        for line in target.splitlines()
        if " simulator replay " in line
    ]
    assert drawn == [f"scenarios/{p}" for p, _ in SHOWCASE]
    assert all(
        "--chart out/reference/" in line
        for line in target.splitlines()
        if " simulator replay " in line
    )
