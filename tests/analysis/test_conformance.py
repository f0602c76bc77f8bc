"""Conformance with what happened: October first elections of the runoff towns replayed and
compared with November (G.S. 163-293), and the statutory calendar (G.S. 163-279, 163-294.2)
against the dates of the results files and the State Board's published calendars.

Small results files written in ``tmp_path`` test the pairing of October and November contests
and every kind of verdict; the tests marked ``shared_data`` run the whole check on the real
files in ``../shared/data`` and skip where it is absent.
"""

from __future__ import annotations

from datetime import date
from functools import cache
from pathlib import Path

import pytest

import simulator.analysis.conformance.data as conformance_data
from simulator.analysis.conformance.data import find_data_dir, read_ahead, results_file
from simulator.analysis.conformance.matching import match_contest, office_key, same_person, town_of
from simulator.analysis.conformance.published_dates import PUBLISHED, calendar_checks
from simulator.analysis.conformance.report import format_report
from simulator.analysis.conformance.runoffs import EXPLANATIONS, Check, Report, run_conformance
from simulator.cli.main import main
from simulator.input.importer import read_results
from simulator.input.seats import SEAT_RULES, seats_for
from simulator.law import calendar as cal
from simulator.law.vocab import Method
from simulator.model.errors import ImportResultsError

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
needs_data = pytest.mark.skipif(
    not (SHARED / "nc-results").is_dir(),
    reason=f"the shared North Carolina results are not at {SHARED / 'nc-results'}",
)

HEADER = "county,precinct,office,district,party,candidate,votes\n"
Rows = list[tuple[str, list[tuple[str, int]]]]


def write(path: Path, contests: Rows) -> Path:
    lines = [HEADER]
    for office, counts in contests:
        for name, votes in counts:
            lines.append(f"WAKE,01-01,{office},,,{name},{votes}\n")
    path.write_text("".join(lines))
    return path


CARY = "TOWN OF CARY"
OCTOBER: Rows = [
    (f"{CARY} MAYOR", [("Ann Able", 600), ("Bob Baker", 300), ("Write-In (Miscellaneous)", 10)]),
    (
        f"{CARY} TOWN COUNCIL DISTRICT D",
        [
            ("Sarika Bansal", 2285),
            ("Rachel Jordan", 1298),
            ("Ryan Eades", 1088),
            ("Write-In (Miscellaneous)", 3),
        ],
    ),
    (f"{CARY} TOWN COUNCIL DISTRICT B", [("Michelle Craig", 2846), ("Don Frantz", 1796)]),
    (
        f"{CARY} TOWN COUNCIL AT-LARGE",
        [("Lori Bush", 400), ("Mary Insprucker", 350), ("Matthew Gronke", 300)],
    ),
    (f"{CARY} TOWN COUNCIL DISTRICT A", [("Jennifer Robinson", 500), ("Brittany Richards", 500)]),
    (
        f"{CARY} TOWN COUNCIL DISTRICT C",
        [("Jack Smith", 400), ("Bella Huang", 350), ("Renee Miller", 300)],
    ),
    (f"{CARY} TOWN COUNCIL DISTRICT E", [("Eve Early", 10), ("Fay Frost", 9)]),
    (f"{CARY} PARKS BONDS", [("Yes", 700), ("No", 300)]),
    (
        "CITY OF RALEIGH MAYOR",
        [("Mary-Ann Baldwin", 100), ("Charles Francis", 90), ("Zainab Baloch", 50)],
    ),
]
NOVEMBER: Rows = [
    # the runoff carries a suffix and a differently spelled runner-up
    (f"{CARY} TOWN COUNCIL DISTRICT D (RUNOFF)", [("Sarika Bansal", 2760), ("R. Jordan", 2700)]),
    (f"{CARY} TOWN COUNCIL DISTRICT B", [("Michelle Craig", 100), ("Don Frantz", 90)]),
    (f"{CARY} TOWN COUNCIL AT-LARGE", [("Lori Bush", 500), ("Matthew Gronke", 450)]),
    (f"{CARY} TOWN COUNCIL DISTRICT A", [("Brittany Richards", 610), ("Jennifer Robinson", 590)]),
    (f"{CARY} TOWN COUNCIL DISTRICT Z", [("Zed Zane", 5), ("Write-In (Miscellaneous)", 1)]),
]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    write(tmp_path / "20271005__nc__general__precinct.csv", OCTOBER)
    write(tmp_path / "20271102__nc__general__precinct.csv", NOVEMBER)
    write(tmp_path / "20291009__nc__general__precinct.csv", OCTOBER[:2])  # no November file
    return tmp_path


@pytest.fixture
def report(data: Path) -> Report:
    return run_conformance(data, towns=("Cary",), years=(2027, 2029))


def check(report: Report, office: str, year: int = 2027) -> Check:
    (found,) = [c for c in report.checks if c.contest == f"{CARY} {office}" and c.year == year]
    return found


# --- pairing -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("october", "november"),
    [
        (
            "CITY OF ROCKY MOUNT CITY COUNCIL WARD 7",
            "CITY OF ROCKY MOUNT CITY COUNCIL WARD 7 (RUNOFF)",
        ),
        ("CITY OF STATESVILLE COUNCILMAN WARD 01", "CITY OF STATESVILLE COUNCILMAN WARD 1"),
        ("CITY OF HENDERSON ALDERMAN - WARD 3", "City of Henderson Alderman Ward 3"),
        ("TOWN OF CARY TOWN COUNCIL AT-LARGE", "TOWN OF CARY TOWN COUNCIL AT LARGE RUNOFF"),
    ],
)
def test_a_runoff_pairs_with_its_first_election_whatever_the_spelling(
    october: str, november: str
) -> None:
    assert office_key(october) == office_key(november)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("CITY OF STATESVILLE COUNCILMAN WARD 1", "CITY OF STATESVILLE COUNCILMAN WARD 4"),
        ("CITY OF STATESVILLE COUNCILMAN WARD 1", "CITY OF STATESVILLE COUNCILMAN WARD 10"),
        ("CITY OF RALEIGH CITY COUNCIL DISTRICT A", "CITY OF RALEIGH CITY COUNCIL DISTRICT B"),
        ("CITY OF RALEIGH MAYOR", "TOWN OF CARY MAYOR"),
        (
            "CITY OF ROCKY MOUNT CITY COUNCIL WARD 3",
            "CITY OF ROCKY MOUNT CITY COUNCIL WARD 3 (UNEXPIRED TERM)",
        ),
    ],
)
def test_different_offices_never_pair(a: str, b: str) -> None:
    assert office_key(a) != office_key(b)


def test_match_contest_finds_the_runoff_in_a_small_november_file(tmp_path: Path) -> None:
    november = read_results(write(tmp_path / "20271102__nov.csv", NOVEMBER)).contests
    found = match_contest(f"{CARY} TOWN COUNCIL DISTRICT D", november)
    assert [c.name for c in found] == [f"{CARY} TOWN COUNCIL DISTRICT D (RUNOFF)"]
    assert match_contest(f"{CARY} MAYOR", november) == []


def test_match_contest_by_index_gives_what_a_scan_gives(tmp_path: Path) -> None:
    november = read_results(write(tmp_path / "20271102__nov.csv", NOVEMBER)).contests
    for october, _ in OCTOBER:
        indexed = match_contest(october, november)  # a file's tuple: looked up by office key
        assert indexed == match_contest(october, list(november))  # any other iterable: a scan


def test_a_results_file_read_for_its_municipal_contests_keeps_them_whole(tmp_path: Path) -> None:
    county = [("WAKE COUNTY BOARD OF COMMISSIONERS", [("Zed Zane", 9), ("Yul Yates", 8)])]
    later = [("WAKE COUNTY BOARD OF COMMISSIONERS", [("Xia Xu", 7)])]  # its rows in two runs
    path = write(tmp_path / "20271010__oct.csv", [*county, *OCTOBER, *later])
    whole = read_results(path).contests
    municipal = read_results(path, keep=lambda name: name.startswith("TOWN OF")).contests
    assert [c.name for c in whole if c.name.startswith("TOWN OF")] == [c.name for c in municipal]
    assert municipal == tuple(c for c in whole if c.name.startswith("TOWN OF"))
    assert county[0][0] in [c.name for c in whole]
    assert county[0][0] not in [c.name for c in municipal]


def test_files_read_ahead_in_two_processes_are_those_read_one_by_one(
    data: Path, tmp_path: Path
) -> None:
    conformance_data._READ.clear()
    broken = tmp_path / "20311007__nc__general__precinct.csv"
    broken.write_text(HEADER + "WAKE,01-01,TOWN OF CARY MAYOR,,,Ann Able,many\n")
    paths = sorted(data.glob("2027*.csv")) + sorted(data.glob("2029*.csv")) + [broken]
    read_ahead(paths)
    ahead = [results_file(p) for p in paths[:-1]]
    assert len(conformance_data._READ) == len(paths) - 1  # the broken file is left to the run
    conformance_data._READ.clear()
    assert ahead == [read_results(p, keep=conformance_data.is_municipal) for p in paths[:-1]]
    with pytest.raises(ImportResultsError, match="expected a whole number of votes"):
        results_file(broken)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("J. D. Williams", "J.D. Williams", True),  # Statesville 2011
        ("Michael E. Brooks", "Michael Brooks", True),  # Elizabeth City
        ("Harry Archer III", "Harry Archer", True),
        ("Flake (Chris) Huggins, Jr.", "Flake Huggins", True),
        ("Rachel Jordan", "R. Jordan", True),
        ("Billy A. Jordan", "Bob Jordan", False),
        ("Michael Johnson", "Steve Johnson", False),
        ("Ann Able", "Ann Baker", False),
    ],
)
def test_candidates_are_matched_across_spellings(a: str, b: str, same: bool) -> None:
    assert same_person(a, b) is same


def test_contests_belong_to_a_town_by_their_municipality() -> None:
    towns = ("Elizabeth City", "Rocky Mount", "Cary")
    assert town_of("CITY OF ELIZABETH CITY COUNCILMAN 1ST WARD", towns) == "Elizabeth City"
    assert town_of("CITY OF ROCKY MOUNT MAYOR", towns) == "Rocky Mount"
    assert town_of("TOWN OF CARY TOWN COUNCIL DISTRICT D", towns) == "Cary"
    assert town_of("CITY OF GREENSBORO MAYOR", towns) is None
    assert town_of("WAKE COUNTY BOARD OF EDUCATION", towns) is None


# --- verdicts on small files ---------------------------------------------------------------


def test_a_majority_with_no_november_contest_agrees(report: Report) -> None:
    c = check(report, "MAYOR")
    assert (c.verdict, c.threshold, c.november, c.agree) == ("majority", "455", "no runoff", True)


def test_a_runoff_between_the_leader_and_the_runner_up_agrees(report: Report) -> None:
    # G.S. 163-293(b)(1): Cary 2023, District D
    c = check(report, "TOWN COUNCIL DISTRICT D")
    assert (c.verdict, c.threshold) == ("no majority", "2337")
    assert (c.leaders, c.eligible) == (("Sarika Bansal",), ("Rachel Jordan",))
    assert c.agree is True
    assert "Sarika Bansal 2760, Rachel Jordan 2700" in c.november  # R. Jordan is Rachel Jordan
    assert "engine elects Sarika Bansal" in c.explanation


def test_a_november_contest_after_a_majority_disagrees(report: Report) -> None:
    c = check(report, "TOWN COUNCIL DISTRICT B")
    assert (c.verdict, c.agree) == ("majority", False)
    assert "found a majority" in c.explanation


def test_a_runoff_with_someone_not_eligible_disagrees(report: Report) -> None:
    c = check(report, "TOWN COUNCIL AT-LARGE")
    assert c.eligible == ("Mary Insprucker",)
    assert c.agree is False
    assert "Matthew Gronke were not eligible" in c.explanation


def test_a_tie_for_first_means_a_recount_then_a_runoff_between_the_tied(report: Report) -> None:
    # G.S. 163-293(d)(1): Henderson 2015, 1st Ward, was such a tie
    c = check(report, "TOWN COUNCIL DISTRICT A")
    assert c.verdict == "tie"
    assert set(c.eligible) == {"Jennifer Robinson", "Brittany Richards"}
    assert c.agree is True
    assert "engine elects Brittany Richards" in c.explanation


def test_no_runoff_after_no_majority_means_the_leader_was_elected(report: Report) -> None:
    c = check(report, "TOWN COUNCIL DISTRICT C")
    assert (c.verdict, c.leaders, c.november, c.agree) == (
        "no majority",
        ("Jack Smith",),
        "no runoff",
        True,
    )


def test_an_office_with_no_known_seat_count_is_not_judged(report: Report) -> None:
    c = check(report, "TOWN COUNCIL DISTRICT E")
    assert (c.seats, c.verdict, c.agree) == (None, "seat count unknown", None)


def test_without_a_november_file_nothing_is_judged(report: Report) -> None:
    assert {
        check(report, "MAYOR", 2029).agree,
        check(report, "TOWN COUNCIL DISTRICT D", 2029).agree,
    } == {None}


def test_referenda_and_other_towns_are_left_out(report: Report) -> None:
    names = {c.contest for c in report.checks}
    assert f"{CARY} PARKS BONDS" not in names
    assert "CITY OF RALEIGH MAYOR" not in names


def test_november_contests_with_no_october_election_are_listed(report: Report) -> None:
    assert [(t, y, n) for t, y, n, _ in report.november_only] == [
        ("Cary", 2027, f"{CARY} TOWN COUNCIL DISTRICT Z")
    ]


def test_the_report_counts_and_prints_every_contest(report: Report) -> None:
    assert len(report.checks) == 9
    assert report.agreements == 4
    assert len(report.disagreements) == 2
    text = format_report(report)
    assert "9 October contests" in text
    assert "Disagreements" in text
    markdown = format_report(report, markdown=True)
    assert "| year | town | office | seats | threshold | engine | November | agree |" in markdown


def test_the_command_prints_the_report_and_exits_0(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["conformance", "--data", str(data), "--markdown"]) == 0
    assert "## Conformance:" in capsys.readouterr().out


def test_json_and_markdown_together_are_a_usage_error(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --markdown was ignored and the JSON printed
    assert main(["conformance", "--data", str(data), "--json", "--markdown"]) == 2
    assert capsys.readouterr().err == (
        "electsim: --json and --markdown: expected one output format; found both\n"
    )


def test_a_folder_without_results_files_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["conformance", "--data", str(tmp_path)]) == 2
    assert "expected a folder of results files" in capsys.readouterr().err
    with pytest.raises(ImportResultsError):
        run_conformance(tmp_path)
    assert find_data_dir(tmp_path) is None


# --- the seat table ------------------------------------------------------------------------


def test_every_seat_rule_names_its_source() -> None:
    for rule in SEAT_RULES:
        assert rule.seats >= 1
        assert len(rule.source) > 20, rule


@pytest.mark.parametrize(
    ("town", "contest", "seats"),
    [
        ("Raleigh", "CITY OF RALEIGH CITY COUNCIL AT-LARGE", 2),
        ("Statesville", "CITY OF STATESVILLE COUNCIL MEMBER AT LARGE", 2),
        ("Statesville", "CITY OF STATESVILLE COUNCILMAN WARD 01", 1),
        ("Monroe", "CITY OF MONROE COUNCIL", 3),
        ("Atlantic Beach", "TOWN OF ATLANTIC BEACH COMMISSIONER", 5),
        ("Dobbins Heights", "TOWN OF DOBBINS HEIGHTS TOWN COUNCIL", 2),
        ("Dobbins Heights", "TOWN OF DOBBINS HEIGHTS TOWN COUNCIL - Unexpired term ending 2013", 1),
        ("Henderson", "CITY OF HENDERSON ALDERMAN AT-LARGE 3RD WARD", 1),
        ("Elizabeth City", "CITY OF ELIZABETH CITY MAYOR", 1),
    ],
)
def test_seat_counts_of_the_runoff_towns(town: str, contest: str, seats: int) -> None:
    rule = seats_for(town, contest, 2019)
    assert rule is not None and rule.seats == seats


# --- the calendar --------------------------------------------------------------------------


def test_the_published_2019_and_2023_calendars_agree_with_the_calendar_functions() -> None:
    # State Board press releases (data README): filing noon Fri Jul 5 - noon Fri Jul 19, 2019;
    # Sep 10, Oct 8, Nov 5 (2019); Jul 7 - Jul 21, Sep 12, Oct 10, Nov 7 (2023).
    checks = calendar_checks()
    # per year: filing opens and closes (nonpartisan and partisan), the partisan primary, the
    # October day by three functions, the November election
    assert len(checks) == 9 * len(PUBLISHED)
    assert all(c.agree for c in checks), [c for c in checks if not c.agree]
    assert cal.partisan_primary_day(2019) == date(2019, 9, 10)
    assert cal.first_election_day(2023, Method.RUNOFF) == date(2023, 10, 10)
    assert cal.primary_day(2023, Method.PRIMARY) == date(2023, 10, 10)
    assert cal.election_day(2023) == date(2023, 11, 7)


def test_a_results_file_on_the_wrong_day_is_flagged(tmp_path: Path) -> None:
    write(tmp_path / "20271012__nc__general__precinct.csv", OCTOBER[:1])  # a week late
    late = [c for c in calendar_checks(tmp_path) if c.source.startswith("20271012")]
    assert late and not any(c.agree for c in late)
    assert {c.computed for c in late} == {date(2027, 10, 5)}


def test_the_census_year_moves_filing_for_district_cities_but_not_the_election() -> None:
    # G.S. 163-294.2(c)(1): 2021, the year after a census; the October 2021 file is 2021-10-05.
    district = cal.statutory_calendar(2021, Method.RUNOFF, district_based=True)
    regular = cal.statutory_calendar(2021, Method.RUNOFF)
    day = {d.kind.value: d.due.date() for d in district}
    assert day["election_day"] == date(2021, 10, 5)
    assert day["election_day"] == {d.kind.value: d.due.date() for d in regular}["election_day"]
    assert day["filing_opens"] != {d.kind.value: d.due.date() for d in regular}["filing_opens"]


@pytest.mark.shared_data
@needs_data
def test_every_results_file_is_dated_as_the_calendar_says() -> None:
    # September = partisan primary, October = runoff first election / nonpartisan primary,
    # November = general election; 2011-2025.
    checks = calendar_checks(SHARED / "nc-results")
    files = {c.source for c in checks if c.source.endswith(".gz")}
    assert len(files) == 22
    assert all(c.agree for c in checks), [c for c in checks if not c.agree]


# --- the real elections --------------------------------------------------------------------


@cache
def runoff_towns_report() -> Report:
    """``run_conformance(SHARED)``, once per test process: this module's checks of the real
    elections and the count of the primaries' module share it (some two seconds each time)."""
    return run_conformance(SHARED)


@pytest.fixture(scope="module")
def real() -> Report:
    if not (SHARED / "nc-results").is_dir():
        pytest.skip(f"the shared North Carolina results are not at {SHARED / 'nc-results'}")
    return runoff_towns_report()


def real_check(report: Report, town: str, year: int, office: str) -> Check:
    (found,) = [c for c in report.checks if (c.town, c.year, c.office) == (town, year, office)]
    return found


@pytest.mark.shared_data
def test_every_october_contest_of_the_runoff_towns_is_checked(real: Report) -> None:
    assert len(real.checks) == 245
    assert all(c.seats is not None for c in real.checks)  # no seat count unknown
    assert len(real.judged) == 208  # 2013 has no November file
    assert {c.year for c in real.checks if c.agree is None} == {2013}


@pytest.mark.shared_data
def test_every_disagreement_with_november_is_explained(real: Report) -> None:
    for c in real.disagreements:
        assert (c.town, c.year, office_key(c.contest)) in EXPLANATIONS, c
    assert [(c.town, c.year, c.office) for c in real.disagreements] == [
        ("Elizabeth City", 2011, "Councilman 3rd Ward")
    ]


@pytest.mark.shared_data
@pytest.mark.parametrize(
    ("town", "year", "office", "threshold", "verdict"),
    [
        ("Cary", 2023, "Town Council District D", "2337", "no majority"),  # SPEC's example
        ("Elizabeth City", 2025, "Councilman 4th Ward", "196.75", "majority"),  # two seats
        ("Dunn", 2015, "Commissioner Ward 3", "64", "no majority"),  # 64 is not more than 64
        ("Henderson", 2015, "Alderman 1st Ward", "234.5", "tie"),  # 234 = 234
        ("Monroe", 2011, "Council", "598.5", "no majority"),  # 3 seats, runoff for the third
        ("Monroe", 2015, "Council", "1354/3", "majority"),  # exact: 2708 / 3 / 2
    ],
)
def test_real_contests_replay_to_what_happened(
    real: Report, town: str, year: int, office: str, threshold: str, verdict: str
) -> None:
    c = real_check(real, town, year, office)
    assert (c.threshold, c.verdict, c.agree) == (threshold, verdict, True)


@pytest.mark.shared_data
def test_write_ins_in_the_total_decide_dunn_ward_3_in_2015(real: Report) -> None:
    # interpretation write_ins_in_total: McLean 64, Chavis 63 and one write-in: 128 votes, so 64
    # is no majority, and Dunn held the runoff in November 2015.
    c = real_check(real, "Dunn", 2015, "Commissioner Ward 3")
    assert c.total == 128
    assert c.november.startswith("runoff: Frank McLean 83, Fred Chavis 66")


@pytest.mark.shared_data
@needs_data
def test_the_pairwise_reading_reproduces_the_elizabeth_city_2011_runoff() -> None:
    # Elizabeth City 3rd Ward, 2011: nobody over the majority for two seats; Stallings asked for
    # a runoff, and the November ballot was Brooks against Stallings with Spence seated
    import attrs

    import simulator
    from simulator.input.importer import import_results
    from simulator.law.readings import Interpretations

    s = import_results(
        SHARED / "nc-results" / "20111011__nc__general__precinct.csv.gz",
        "CITY OF ELIZABETH CITY COUNCILMAN 3RD WARD",
        seats=2,
        method="nonpartisan-runoff",
    )
    asked = simulator.fork(s).add(
        {"type": "runoff_requested", "at": "2011-10-19T09:00", "candidate": "Dennis B. Stallings"}
    )
    spec = simulator.replay(asked.build()).contests[0]
    assert "Kem Spence" in spec.outcome.runoff_candidates  # interpretation group_runoff_ballot
    pairwise = attrs.evolve(
        asked.build(), interpretations=Interpretations(group_runoff_ballot="pairwise")
    )
    c = simulator.replay(pairwise).contests[0]
    assert c.outcome.elected == ("Kem Spence",)
    assert set(c.outcome.runoff_candidates) == {"Michael E. Brooks", "Dennis B. Stallings"}
