"""``electsim new``: a first scenario for a town's contest, its method from the table of the
methods the towns' elections show in the State Board's results (or --method), its statutory
dates in comments, the filings inside the filing period and, commented out, the returns and the
canvass on their days; uncommented, they make a story that fits the law."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from simulator import parse_scenario, replay
from simulator.law.calendar import OfficeCalendar, statutory_calendar
from simulator.law.vocab import Method, Stage
from tests.cli.inprocess import electsim

#: what a story that fits the law never draws: a refused filing or request, votes set aside
REFUSALS = {"filing_rejected", "request_rejected", "no_effect", "votes_disregarded"}


def new(tmp_path: Path, *args: str, name: str = "new.yaml") -> tuple[Path, str]:
    out = tmp_path / name
    done = electsim("new", *args, "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    return out, done.stderr


def uncommented(text: str) -> str:
    """The file as a user makes it by removing the "# " before the returns and the canvass."""
    return re.sub(r"^  # - ", "  - ", text, flags=re.M)


def replayed(text: str) -> dict[str, object]:
    (contest,) = replay(parse_scenario(text)).to_json()["contests"]
    assert isinstance(contest, dict)
    return contest


def check_story(
    path: Path, method: Method, stage: Stage, *, closed: tuple[str, ...] = ()
) -> dict[str, object]:
    """The file validates, replays to the statutory dates of its stage (those of electsim
    calendar), and with the returns uncommented replays to a decided contest with no refusal;
    returns that contest's JSON."""
    assert electsim("validate", str(path)).returncode == 0
    text = path.read_text(encoding="utf-8")
    contest = parse_scenario(text).contests[0]
    calendar = statutory_calendar(
        contest.year,
        method,
        district_based=contest.district_based,
        calendar=OfficeCalendar(extra_closed=frozenset(map(date.fromisoformat, closed))),
        stage=stage,
    )
    # the replay shows the calendar's dates through the first canvass, and no other (a
    # request deadline counts from a declared result, which the filings alone do not make)
    statutory = [(d.kind.value, d.due.isoformat(), d.cite) for d in calendar]
    first_canvass = next(i for i, d in enumerate(calendar) if d.kind.value == "canvass")
    shown = [(d["kind"], d["due"], d["cite"]) for d in replayed(text)["deadlines"]]
    assert shown[: first_canvass + 1] == statutory[: first_canvass + 1]
    assert set(shown) <= set(statutory)
    # each date is in the file's comments, with its citation
    for d in calendar:
        when = d.due.strftime("%a %Y-%m-%d" if d.all_day else "%a %Y-%m-%d %H:%M")
        assert re.search(rf"^#   .*{re.escape(when)}\s+{re.escape(d.cite)}$", text, re.M), d
    story = replayed(uncommented(text))
    assert story["state"] == "decided"
    assert not REFUSALS & {r["kind"] for r in story["rulings"]}
    # the story fits the law's calendar: no remark (electsim validate --strict passes)
    assert story["remarks"] == []
    fitted = path.with_name(path.stem + "-returns.yaml")
    fitted.write_text(uncommented(text), encoding="utf-8")
    assert electsim("validate", "--strict", str(fitted)).returncode == 0
    return story


def test_a_runoff_town_gets_its_method_its_dates_and_a_story_that_fits_the_law(
    tmp_path: Path,
) -> None:
    # Erwin held a first election in October in every year of the results (G.S. 163-279(a)(4))
    path, said = new(
        tmp_path,
        "--municipality", "Town of Erwin",
        "--office", "Board of Commissioners",
        "--year", "2027",
        "--candidates", "Ann Adams, Bob Brown",
    )  # fmt: skip
    text = path.read_text(encoding="utf-8")
    assert "method: nonpartisan-runoff" in text
    assert "#   Runoff request deadline" in text and "Thu 2027-10-14 12:00" in text
    # the filings inside the filing period, the returns and the canvass commented out
    assert '  - {type: candidate_filed, at: "2027-07-02T13:00", candidate: Ann Adams}' in text
    assert '  # - {type: canvass_held, at: "2027-10-12T11:00"}' in text
    assert replayed(text)["outcome"]["elected"] == []
    story = check_story(path, Method.RUNOFF, Stage.ELECTION)
    assert story["outcome"]["elected"] == ["Ann Adams"]
    # it says what it assumed: the method and its evidence, one seat
    lines = said.splitlines()
    assert lines[0].startswith("electsim new: method nonpartisan-runoff, the one Erwin's")
    assert "a first election in October in 2011" in lines[0]
    assert "1 seat" in lines[1] and "stage election" in lines[1]


def test_a_partisan_town_gets_the_parties_of_its_candidates(tmp_path: Path) -> None:
    path, said = new(
        tmp_path,
        "--municipality", "City of Charlotte",
        "--office", "Mayor",
        "--year", "2027",
        "--candidates", "Ann Adams (DEM), Bob Brown (REP)",
    )  # fmt: skip
    text = path.read_text(encoding="utf-8")
    assert "method: partisan" in text and "candidate: Bob Brown, party: REP}" in text
    assert "method partisan" in said
    story = check_story(path, Method.PARTISAN, Stage.ELECTION)
    assert story["outcome"]["elected"] == ["Ann Adams"]


def test_a_partisan_primary_of_two_seats_nominates_two(tmp_path: Path) -> None:
    path, _ = new(
        tmp_path,
        "--municipality", "City of Charlotte",
        "--office", "City Council At-Large",
        "--year", "2027",
        "--stage", "primary",
        "--party", "DEM",
        "--seats", "2",
        "--candidates", "Ann, Bob, Cy, Di",
    )  # fmt: skip
    text = path.read_text(encoding="utf-8")
    assert "stage: primary, party: DEM" in text and "#   Second primary request deadline" in text
    story = check_story(path, Method.PARTISAN, Stage.PRIMARY)
    assert story["outcome"]["nominated"] == ["Ann", "Bob"]


def test_a_plurality_town_with_a_closed_day_moves_its_filing(tmp_path: Path) -> None:
    # Elon: a November election with nothing before it in every year of the results; the
    # office closed on Friday 2 July 2027 moves the opening to Tuesday 6 July (Monday 5 July is
    # Independence Day observed) under G.S. 103-5(a)
    path, said = new(
        tmp_path,
        "--municipality", "Town of Elon",
        "--office", "Board of Aldermen",
        "--year", "2027",
        "--seats", "3",
        "--closed", "2027-07-02",
        "--candidates", "Ann, Bob",
        "--candidates", "Cy, Di, Ed",
    )  # fmt: skip
    text = path.read_text(encoding="utf-8")
    assert "office_closed: [2027-07-02]" in text
    assert "#   Filing opens" in text and "Tue 2027-07-06 12:00" in text
    assert "moved from Fri 2027-07-02 (G.S. 103-5)" in text
    assert 'at: "2027-07-06T13:00", candidate: Ed}' in text
    assert "office closed on 2027-07-02" in said
    story = check_story(path, Method.PLURALITY, Stage.ELECTION, closed=("2027-07-02",))
    assert story["outcome"]["elected"] == ["Ann", "Bob", "Cy"]


def test_a_primary_the_filings_make_unneeded_is_said_so_with_no_returns(tmp_path: Path) -> None:
    # G.S. 163-294(a): no more than two candidates a seat, no primary
    path, _ = new(
        tmp_path,
        "--municipality", "City of Durham",
        "--office", "Mayor",
        "--year", "2027",
        "--stage", "primary",
        "--candidates", "Ann, Bob",
    )  # fmt: skip
    text = path.read_text(encoding="utf-8")
    assert "returns_reported" not in text
    assert "# no vote is counted: the filings decide the contest" in text
    assert "163-294(a)" in text
    assert replayed(text)["outcome"]["nominated"] == ["Ann", "Bob"]


def test_without_o_it_prints_the_scenario(tmp_path: Path) -> None:
    done = electsim(
        "new", "--municipality", "Town of Example", "--office", "Mayor", "--year", "2029",
        "--method", "nonpartisan-runoff",
        "--candidates", 'No, Yes, O\'Brien, Ann #1, Jo "JJ" Smith: Jr, [Dee]',
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # names YAML would read otherwise (a boolean, a comment, a mapping) are quoted
    scenario = parse_scenario(done.stdout)
    assert [e.candidate for e in scenario.events] == [
        "No", "Yes", "O'Brien", "Ann #1", 'Jo "JJ" Smith: Jr', "[Dee]"
    ]  # fmt: skip
    assert "method nonpartisan-runoff (--method)" in done.stderr
    assert "wrote" not in done.stderr
    story = replayed(uncommented(done.stdout))
    assert story["state"] == "decided" and story["outcome"]["elected"] == ["No"]


def test_a_method_given_against_the_table_is_used_and_the_table_said(tmp_path: Path) -> None:
    _, said = new(
        tmp_path,
        "--municipality", "Town of Erwin", "--office", "Mayor", "--year", "2027",
        "--method", "nonpartisan-plurality", "--candidates", "Ann, Bob",
    )  # fmt: skip
    assert "method nonpartisan-plurality (--method); the State Board's results" in said
    assert "show nonpartisan-runoff for Erwin" in said


def test_an_existing_file_is_never_replaced(tmp_path: Path) -> None:
    out = tmp_path / "mine.yaml"
    out.write_text("my own work\n")
    done = electsim(
        "new", "--municipality", "Town of Erwin", "--office", "Mayor", "--year", "2027",
        "--candidates", "Ann, Bob", "-o", str(out),
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "-o: expected a file that does not exist" in done.stderr
    assert out.read_text() == "my own work\n"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--municipality", "Town of Carry"], "found 'Town of Carry', not found among"),
        (["--method", "runoff"], "did you mean 'nonpartisan-runoff'?"),
        (["--year", "1900"], "--year: expected a year from 1973 to 2200; found 1900"),
        (["--candidates", "Ann, , Bob"], "--candidates: the 2nd name: expected a name"),
        (["--candidates", "Ann, Bob, ann"], "--candidates: the 3rd name: expected each candidate"),
        (["--candidates", "Ann, Jo (Write-In)"], "a write-in"),
        (["--candidates", "Ann, B\x1bob"], "--candidates: the 2nd name: expected a name of"),
        (["--seats", "0"], "--seats: expected a whole number, 1 or more; found 0"),
        (["--stage", "primary"], "--stage: expected election for the nonpartisan-runoff"),
        (["--stage", "runoff"], "--stage: expected one of primary, election; found 'runoff'"),
        (["--party", "DEM"], "--party: expected no party for the nonpartisan-runoff method"),
        (["--closed", "2027-02-30"], "--closed: expected a date like 2027-07-06"),
        (["-o", "x.json"], "-o: expected a .yaml or .yml file name"),
    ],
)
def test_bad_input_is_one_line_naming_the_option(
    tmp_path: Path, args: list[str], says: str
) -> None:
    given = {
        "--municipality": "Town of Erwin",
        "--office": "Mayor",
        "--year": "2027",
        "--candidates": "Ann, Bob",
    }
    given.update(zip(args[::2], args[1::2], strict=True))
    done = electsim("new", *(x for kv in given.items() for x in kv), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert says in done.stderr
    assert done.stdout == "" and list(tmp_path.iterdir()) == []


def test_an_unknown_town_names_the_methods_and_the_close_towns() -> None:
    done = electsim(
        "new", "--municipality", "Town of Carry", "--office", "Mayor", "--year", "2027",
        "--candidates", "Ann, Bob",
    )  # fmt: skip
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith(
        "electsim: --municipality: expected a town of the State Board's results 2011-2025, or "
        "--method with one of partisan, nonpartisan-plurality, nonpartisan-primary, "
        "nonpartisan-runoff; found 'Town of Carry', not found among those towns"
    )
    assert line.endswith("; did you mean 'Cary'?")


def test_a_partisan_primary_needs_its_party() -> None:
    done = electsim(
        "new", "--municipality", "City of Charlotte", "--office", "Mayor", "--year", "2027",
        "--stage", "primary", "--candidates", "Ann, Bob",
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("electsim: --party: expected whose primary it is")


def test_a_district_contest_in_the_year_after_a_census_files_later(tmp_path: Path) -> None:
    # G.S. 163-294.2(c)(1): noon on the fourth Monday in July to noon on the second Friday in
    # August, in the year after a census, for a district election
    path, said = new(
        tmp_path,
        "--municipality", "Town of Elon", "--office", "Ward 1", "--year", "2021",
        "--district-based", "--candidates", "Ann, Bob",
    )  # fmt: skip
    text = path.read_text(encoding="utf-8")
    assert "district_based: true" in text
    assert "Mon 2021-07-26 12:00  G.S. 163-294.2(c)(1)" in text
    assert "Fri 2021-08-13 12:00  G.S. 163-294.2(c)(1)" in text
    assert 'at: "2021-07-26T13:00", candidate: Ann}' in text
    assert "district-based (--district-based)" in said
    check_story(path, Method.PLURALITY, Stage.ELECTION)
