"""Importing real returns (``electsim import-results``): both layouts, compressed or not, names
matched loosely, write-ins spelled as SPEC section 1 wants, and a scenario the loader accepts.

The unit tests write small results files in ``tmp_path``; the tests marked ``shared_data`` read
the real North Carolina files in ``../shared/data`` and skip where it is absent.
"""

from __future__ import annotations

import gzip
import io
import json
import zipfile
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import yaml

from simulator import load_scenario, parse_scenario, replay
from simulator.cli.main import main
from simulator.input.importer import (
    canonical_candidate,
    contest_key,
    import_results,
    list_contests,
    read_results,
    split_contest_name,
)
from simulator.law.vocab import Method, Stage
from simulator.model.errors import ImportResultsError
from simulator.model.events import CandidateFiled, CanvassHeld, ReturnsReported

NY = ZoneInfo("America/New_York")
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "nc-results"
needs_data = pytest.mark.skipif(
    not SHARED.is_dir(), reason=f"the shared North Carolina results are not at {SHARED}"
)

HEADER = "county,precinct,office,district,party,candidate,votes\r\n"
# Cary District D, October 2023 (shape of the real returns; totals 2285/1298/1088/3 = 4674)
CARY_D = [
    ("WAKE", "20-14", "Sarika Bansal", 1285),
    ("WAKE", "20-14", "Rachel Jordan", 700),
    ("WAKE", "20-14", "Ryan Eades", 600),
    ("WAKE", "20-14", "Write-in (miscellaneous)", 1),
    ("CHATHAM", "75", "Sarika Bansal", 1000),
    ("CHATHAM", "75", "Rachel Jordan", 598),
    ("CHATHAM", "75", "Ryan Eades", 488),
    ("CHATHAM", "75", "Write-in (miscellaneous)", 2),
]


def openelections(rows: list[tuple[str, str, str, str, int]], *, party: str = "") -> str:
    """An openelections CSV: (county, precinct, office, candidate, votes) rows."""
    lines = [HEADER]
    for county, precinct, office, candidate, votes in rows:
        quoted = f'"{candidate}"' if "," in candidate else candidate
        lines.append(f"{county},{precinct},{office},,{party},{quoted},{votes}\r\n")
    return "".join(lines)


def cary_rows(
    office: str = "TOWN OF CARY TOWN COUNCIL DISTRICT D",
) -> list[tuple[str, str, str, str, int]]:
    return [(c, p, office, n, v) for c, p, n, v in CARY_D]


@pytest.fixture
def cary_csv(tmp_path: Path) -> Path:
    path = tmp_path / "20231010__nc__general__precinct.csv"
    path.write_text(openelections(cary_rows()), encoding="utf-8")
    return path


RESULTS_PCT_HEADER = (
    "County\tElection Date\tPrecinct\tContest Group ID\tContest Type\tContest Name\tChoice\t"
    "Choice Party\tVote For\tElection Day\tOne Stop\tAbsentee by Mail\tProvisional\tTotal Votes\t"
    "Real Precinct\n"
)


def results_pct(rows: list[tuple[str, str, str, str, int, int]], day: str = "10/07/2025") -> str:
    """A State Board results_pct file: (county, precinct, contest, choice, vote for, total)."""
    lines = [RESULTS_PCT_HEADER]
    for county, precinct, contest, choice, vote_for, total in rows:
        lines.append(
            f"{county}\t{day}\t{precinct}\t1\tC\t{contest}\t{choice}\t \t{vote_for}\t{total}\t0\t"
            f"0\t0\t{total}\tY\n"
        )
    return "".join(lines)


# Elizabeth City, 4th Ward, October 2025: two seats; 787 votes, majority more than 196.75
EC4 = "CITY OF ELIZABETH CITY COUNCILMAN 4TH WARD"
EC4_ROWS = [
    ("PASQUOTANK", "EAST", EC4, "Ronnie (Sugar Bear) Morris", 2, 234),
    ("PASQUOTANK", "EAST", EC4, "Tim Jackson", 2, 234),
    ("PASQUOTANK", "EAST", EC4, "Johnnie Walton", 2, 221),
    ("PASQUOTANK", "EAST", EC4, "Barbara A. Baxter", 2, 93),
    ("PASQUOTANK", "EAST", EC4, "Miscellaneous (Write-In)", 2, 5),
]


# --- reading ------------------------------------------------------------------------------


def test_gzip_is_recognised_by_its_first_bytes_not_by_the_file_name(tmp_path: Path) -> None:
    text = openelections(cary_rows())
    disguised = tmp_path / "20231010__plain_name.csv"
    disguised.write_bytes(gzip.compress(text.encode()))
    misnamed = tmp_path / "20231010__really_plain.csv.gz"
    misnamed.write_text(text)
    assert read_results(disguised).contests == read_results(misnamed).contests
    assert read_results(disguised).contests[0].total == 4674


def test_a_zip_archive_of_a_results_pct_file_is_read(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("results_pct_20251007.txt", results_pct(EC4_ROWS))
    path = tmp_path / "results_pct_20251007.zip"
    path.write_bytes(buffer.getvalue())
    assert read_results(path).contests[0].seats == 2


def test_nul_bytes_in_the_party_column_are_dropped(tmp_path: Path) -> None:
    # The openelections conversion writes NUL in the party column of nonpartisan contests.
    path = tmp_path / "20151006__nc__general__precinct.csv.gz"
    path.write_bytes(gzip.compress(openelections(cary_rows(), party="\x00").encode()))
    contest = read_results(path).contests[0]
    assert contest.parties == ()
    assert "\x00" not in json.dumps(contest.candidates)
    assert contest.totals["Sarika Bansal"] == 2285


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [
        ("Write-In (Miscellaneous)", "Write-In (Miscellaneous)"),
        ("Write-in (miscellaneous)", "Write-In (Miscellaneous)"),
        ("Miscellaneous (Write-In)", "Write-In (Miscellaneous)"),
        ("MIscellaneous (Write-In)", "Write-In (Miscellaneous)"),
        ("Jamie Ager (Write-In)", "Jamie Ager (Write-In)"),
        ("HARRY ARCHER (write-in)", "HARRY ARCHER (Write-In)"),
        ("  Flake (Chris)   Huggins, Jr. ", "Flake (Chris) Huggins, Jr."),
    ],
)
def test_write_ins_are_spelled_as_the_spec_wants(raw: str, canonical: str) -> None:
    # SPEC section 1: write-ins are `Write-In (Miscellaneous)` or `NAME (Write-In)`.
    assert canonical_candidate(raw) == canonical


def test_a_candidate_with_a_comma_in_the_name_is_one_candidate(tmp_path: Path) -> None:
    office = "CITY OF STATESVILLE COUNCILMAN WARD 6"
    rows = [("IREDELL", "ST1", office, "Flake (Chris) Huggins, Jr.", 19)]
    path = tmp_path / "20111011__x.csv"
    path.write_text(openelections(rows))
    assert read_results(path).contests[0].candidates == ("Flake (Chris) Huggins, Jr.",)


def test_the_same_precinct_number_in_two_counties_is_two_reporting_units(
    cary_csv: Path,
) -> None:
    units = [unit for unit, _ in read_results(cary_csv).contests[0].precincts]
    assert units == ["WAKE 20-14", "CHATHAM 75"]


def test_results_pct_vote_for_is_the_seat_count_and_total_votes_the_votes(tmp_path: Path) -> None:
    path = tmp_path / "results_pct_20251007.txt"
    path.write_text(results_pct(EC4_ROWS))
    results = read_results(path)
    assert results.layout == "results_pct"
    assert results.day == date(2025, 10, 7)  # the Election Date column
    contest = results.contests[0]
    assert contest.seats == 2
    assert contest.total == 787
    assert "Write-In (Miscellaneous)" in contest.candidates


def test_a_file_in_neither_layout_is_an_import_error(tmp_path: Path) -> None:
    path = tmp_path / "20231010__odd.csv"
    path.write_text("a,b,c\n1,2,3\n")
    with pytest.raises(ImportResultsError, match="expected a results file with the header"):
        read_results(path)


def test_a_vote_count_that_is_not_a_number_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "20231010__bad.csv"
    path.write_text(HEADER + "WAKE,1,TOWN OF CARY MAYOR,,,Ann,lots\n")
    with pytest.raises(ImportResultsError, match=r":2: votes: expected a whole number"):
        read_results(path)


def test_a_vote_count_over_the_most_votes_names_its_line(tmp_path: Path) -> None:
    # Counts of 4,000 digits, summed over precincts, made a scenario no output could write.
    path = tmp_path / "20231010__big.csv"
    path.write_text(HEADER + "WAKE,1,TOWN OF CARY MAYOR,,,Ann," + "9" * 4000 + "\n")
    with pytest.raises(ImportResultsError, match=r":2: votes: expected a number of votes, at most"):
        read_results(path)


def test_a_missing_file_is_an_import_error(tmp_path: Path) -> None:
    with pytest.raises(ImportResultsError, match="expected a readable results file"):
        read_results(tmp_path / "nope.csv")


# --- names ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "municipality", "office"),
    [
        (
            "CITY OF ELIZABETH CITY COUNCILMAN 1ST WARD",
            "City of Elizabeth City",
            "Councilman 1st Ward",
        ),
        ("CITY OF RALEIGH CITY COUNCIL AT-LARGE", "City of Raleigh", "City Council At-Large"),
        ("TOWN OF CARY TOWN COUNCIL DISTRICT D", "Town of Cary", "Town Council District D"),
        (
            "TOWN OF DOBBINS HEIGHTS TOWN COUNCIL - Unexpired term ending 2013",
            "Town of Dobbins Heights",
            "Town Council - Unexpired Term Ending 2013",
        ),
        (
            "TOWN OF ERWIN BOARD OF COMMISSIONERS WARD 1",
            "Town of Erwin",
            "Board of Commissioners Ward 1",
        ),
        ("CITY OF ROCKY MOUNT MAYOR", "City of Rocky Mount", "Mayor"),
        (
            "NC HOUSE OF REPRESENTATIVES DISTRICT 012",
            "",
            "Nc House of Representatives District 012",
        ),
    ],
)
def test_a_contest_name_splits_into_municipality_and_office(
    name: str, municipality: str, office: str
) -> None:
    assert split_contest_name(name) == (municipality, office)


def test_contest_names_match_ignoring_case_and_repeated_whitespace(cary_csv: Path) -> None:
    assert contest_key("  Town of CARY   town council\tdistrict D ") == contest_key(
        "TOWN OF CARY TOWN COUNCIL DISTRICT D"
    )
    scenario = import_results(cary_csv, "town of   cary town council DISTRICT d")
    assert scenario.contests[0].office == "Town Council District D"


def test_a_name_that_matches_nothing_lists_the_close_matches(cary_csv: Path) -> None:
    with pytest.raises(ImportResultsError) as caught:
        import_results(cary_csv, "Cary Town Council District D")
    message = str(caught.value)
    assert "matches none" in message
    assert "'TOWN OF CARY TOWN COUNCIL DISTRICT D'" in message
    assert "--list" in message


def test_a_name_that_matches_several_contests_lists_them(tmp_path: Path) -> None:
    rows = [
        ("WAKE", "1", "TOWN OF CARY MAYOR", "Ann", 5),
        ("WAKE", "1", "Town of Cary Mayor", "Bob", 3),
    ]
    path = tmp_path / "20231010__x.csv"
    path.write_text(openelections(rows))
    with pytest.raises(ImportResultsError, match="matches 2 contests"):
        import_results(path, "town of cary mayor")


# --- the scenario --------------------------------------------------------------------------


def test_the_scenario_files_everyone_but_write_ins_at_the_filing_opening(cary_csv: Path) -> None:
    scenario = import_results(cary_csv, "TOWN OF CARY TOWN COUNCIL DISTRICT D")
    filed = [e for e in scenario.events if isinstance(e, CandidateFiled)]
    # G.S. 163-294.2(c): noon on the first Friday in July; 2023-07-07
    assert {e.at for e in filed} == {datetime(2023, 7, 7, 12, 0, tzinfo=NY)}
    assert [e.candidate for e in filed] == ["Sarika Bansal", "Rachel Jordan", "Ryan Eades"]


def test_each_precinct_reports_on_election_night_and_the_canvass_is_at_eleven(
    cary_csv: Path,
) -> None:
    scenario = import_results(cary_csv, "TOWN OF CARY TOWN COUNCIL DISTRICT D")
    returns = [e for e in scenario.events if isinstance(e, ReturnsReported)]
    assert [e.precinct for e in returns] == ["WAKE 20-14", "CHATHAM 75"]
    assert returns[0].at == datetime(2023, 10, 10, 20, 0, tzinfo=NY)
    assert all(e.at.date() == date(2023, 10, 10) for e in returns)
    assert sum(n for e in returns for _, n in e.counts) == 4674
    canvass = [e for e in scenario.events if isinstance(e, CanvassHeld)]
    # an October plurality election (its real date): G.S. 163-182.5(b), the tenth day after it
    # from 2017 (S.L. 2016-109), 11:00
    assert [e.at for e in canvass] == [datetime(2023, 10, 20, 11, 0, tzinfo=NY)]
    # the same returns as the runoff method's first election: the seventh day (163-293(c))
    runoff = import_results(
        cary_csv, "TOWN OF CARY TOWN COUNCIL DISTRICT D", method="nonpartisan-runoff"
    )
    canvass = [e for e in runoff.events if isinstance(e, CanvassHeld)]
    assert [e.at for e in canvass] == [datetime(2023, 10, 17, 11, 0, tzinfo=NY)]


def test_the_contest_date_is_written_only_when_it_is_not_the_statutory_day(
    cary_csv: Path,
) -> None:
    # G.S. 163-279: the runoff method's first election is the October date; plurality's is in
    # November, so an October plurality import carries its real date.
    runoff = import_results(
        cary_csv, "TOWN OF CARY TOWN COUNCIL DISTRICT D", method="nonpartisan-runoff"
    ).contests[0]
    plurality = import_results(cary_csv, "TOWN OF CARY TOWN COUNCIL DISTRICT D").contests[0]
    assert (runoff.method, runoff.date) == (Method.RUNOFF, None)
    assert (plurality.method, plurality.date) == (Method.PLURALITY, date(2023, 10, 10))
    assert runoff.year == plurality.year == 2023
    assert runoff.stage is Stage.ELECTION


def test_an_imported_runoff_contest_replays_to_the_real_threshold(cary_csv: Path) -> None:
    # Cary 2023: 4674 votes, a majority is more than 2337; Jordan may request a runoff.
    scenario = import_results(
        cary_csv, "TOWN OF CARY TOWN COUNCIL DISTRICT D", method=Method.RUNOFF
    )
    result = replay(scenario).contests[0]
    threshold = [r for r in result.rulings if r.kind.value == "majority_threshold"]
    assert threshold[0].get("threshold") == "2337"
    available = [r for r in result.rulings if r.kind.value == "runoff_available"]
    assert available[0].candidates == ("Rachel Jordan",)
    assert result.outcome.elected == ("Sarika Bansal",)


def test_seats_come_from_vote_for_unless_given(tmp_path: Path) -> None:
    path = tmp_path / "results_pct_20251007.txt"
    path.write_text(results_pct(EC4_ROWS))
    two = import_results(path, EC4, method="nonpartisan-runoff")
    assert two.contests[0].seats == 2
    threshold = [r for r in replay(two).contests[0].rulings if r.kind.value == "majority_threshold"]
    assert threshold[0].get("threshold") == "196.75"  # 787 / 2 seats / 2
    assert import_results(path, EC4, seats=1).contests[0].seats == 1


def test_the_year_comes_from_the_election_date_column_when_the_name_has_none(
    tmp_path: Path,
) -> None:
    path = tmp_path / "results.txt"
    path.write_text(results_pct(EC4_ROWS, day="10/07/2025"))
    contest = import_results(path, EC4, method="nonpartisan-runoff").contests[0]
    assert (contest.year, contest.date) == (2025, None)


def test_without_any_date_the_year_must_be_given(tmp_path: Path) -> None:
    path = tmp_path / "results.csv"
    path.write_text(openelections(cary_rows()))
    with pytest.raises(ImportResultsError, match="pass --year"):
        import_results(path, "TOWN OF CARY TOWN COUNCIL DISTRICT D")
    contest = import_results(
        path, "TOWN OF CARY TOWN COUNCIL DISTRICT D", year=2027, method="nonpartisan-runoff"
    ).contests[0]
    assert (contest.year, contest.date) == (2027, None)  # the statutory day of 2027


def test_a_partisan_primary_takes_its_party_from_the_contest_name(tmp_path: Path) -> None:
    rows = [
        ("MECKLENBURG", "1", "CITY OF CHARLOTTE MAYOR (DEM)", n, v)
        for n, v in (("Vi Lyles", 300), ("Ann Other", 100))
    ]
    path = tmp_path / "20230912__nc__primary__precinct.csv"
    path.write_text(openelections(rows, party="DEM"))
    scenario = import_results(
        path, "city of charlotte mayor (dem)", method="partisan", stage="primary"
    )
    contest = scenario.contests[0]
    assert (contest.party, contest.stage, contest.date) == ("DEM", Stage.PRIMARY, None)
    filed = [e for e in scenario.events if isinstance(e, CandidateFiled)]
    assert {e.party for e in filed} == {"DEM"}


def test_an_unknown_method_is_an_import_error(cary_csv: Path) -> None:
    with pytest.raises(ImportResultsError, match="--method: expected one of"):
        import_results(cary_csv, "TOWN OF CARY TOWN COUNCIL DISTRICT D", method="ranked")


# --- the command line ----------------------------------------------------------------------


def test_list_shows_each_contest_with_candidates_votes_and_seats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "results_pct_20251007.txt"
    path.write_text(results_pct(EC4_ROWS))
    assert main(["import-results", str(path), "--list"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith(EC4))
    assert line.split()[-4:] == ["4", "1", "787", "2"]
    summary = list_contests(path)[0]
    assert (summary.candidates, summary.write_ins, summary.total_votes, summary.seats) == (
        4,
        1,
        787,
        2,
    )


def test_without_output_the_yaml_goes_to_stdout_and_parses(
    cary_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "import-results",
            str(cary_csv),
            "--contest",
            "TOWN OF CARY TOWN COUNCIL DISTRICT D",
            "--method",
            "nonpartisan-runoff",
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    assert yaml.safe_load(text)["format"] == "electsim/v1"
    assert parse_scenario(text) == import_results(
        cary_csv, "TOWN OF CARY TOWN COUNCIL DISTRICT D", method="nonpartisan-runoff"
    )


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_the_output_file_reads_back_as_the_same_scenario(cary_csv: Path, suffix: str) -> None:
    out = cary_csv.with_name("cary-d" + suffix)
    code = main(
        [
            "import-results",
            str(cary_csv),
            "--contest",
            "TOWN OF CARY TOWN COUNCIL DISTRICT D",
            "--seats",
            "1",
            "--stage",
            "election",
            "--method",
            "nonpartisan-runoff",
            "-o",
            str(out),
        ]
    )
    assert code == 0
    assert load_scenario(out) == import_results(
        cary_csv, "TOWN OF CARY TOWN COUNCIL DISTRICT D", method="nonpartisan-runoff"
    )


def test_an_unknown_contest_exits_2_listing_close_matches(
    cary_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["import-results", str(cary_csv), "--contest", "Cary District D"])
    assert code == 2
    err = capsys.readouterr().err
    assert "TOWN OF CARY TOWN COUNCIL DISTRICT D" in err
    assert "Traceback" not in err


def test_neither_contest_nor_list_exits_2(
    cary_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["import-results", str(cary_csv)]) == 2
    assert "expected --contest NAME" in capsys.readouterr().err


def test_seats_below_one_exit_2(cary_csv: Path) -> None:
    args = ["import-results", str(cary_csv), "--contest", "TOWN OF CARY TOWN COUNCIL DISTRICT D"]
    assert main([*args, "--seats", "0"]) == 2


# --- the real files ------------------------------------------------------------------------


@pytest.mark.shared_data
@needs_data
def test_real_cary_district_d_2023_needs_more_than_2337() -> None:
    # Cary 2023, District D: Bansal 2285, Jordan 1298, Eades 1088, write-ins 3.
    path = SHARED / "20231010__nc__general__precinct.csv.gz"
    scenario = import_results(
        path, "TOWN OF CARY TOWN COUNCIL DISTRICT D", method="nonpartisan-runoff"
    )
    result = replay(scenario).contests[0]
    threshold = next(r for r in result.rulings if r.kind.value == "majority_threshold")
    assert (threshold.get("total"), threshold.get("threshold")) == (4674, "2337")
    available = next(r for r in result.rulings if r.kind.value == "runoff_available")
    assert available.candidates == ("Rachel Jordan",)


@pytest.mark.shared_data
@needs_data
def test_real_elizabeth_city_4th_ward_2025_two_seats_need_more_than_196_75() -> None:
    # Elizabeth City elects two councilors per ward; Morris and Jackson tie at 234, both
    # elected (interpretation harmless_ties: a tie between two winners needs no lot).
    path = SHARED / "20251007__nc__general__precinct.csv.gz"
    scenario = import_results(path, EC4, seats=2, method="nonpartisan-runoff")
    result = replay(scenario).contests[0]
    threshold = next(r for r in result.rulings if r.kind.value == "majority_threshold")
    assert threshold.get("threshold") == "196.75"
    assert set(result.outcome.elected) == {"Ronnie (Sugar Bear) Morris", "Tim Jackson"}


@pytest.mark.early
@pytest.mark.shared_data
@needs_data
def test_every_real_file_reads_and_lists(capsys: pytest.CaptureFixture[str]) -> None:
    for path in sorted(SHARED.glob("*.csv.gz")):
        results = read_results(path)
        assert results.layout == "openelections"
        assert results.day is not None and path.name.startswith(f"{results.day:%Y%m%d}")
        assert results.contests
        for contest in results.contests:
            for name in contest.candidates:
                assert "\x00" not in name
                assert (
                    "write-in" not in name.casefold()
                    or name == "Write-In (Miscellaneous)"
                    or name.endswith(" (Write-In)")
                )
    assert (
        main(["import-results", str(SHARED / "20231010__nc__general__precinct.csv.gz"), "--list"])
        == 0
    )
    assert "TOWN OF CARY TOWN COUNCIL DISTRICT D" in capsys.readouterr().out


def test_import_results_keeps_an_existing_file_unless_told_to_overwrite_it(
    cary_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # -o replaced any file silently: a scenario written by hand, or the results file itself
    # under another name
    mine = tmp_path / "mine.yaml"
    mine.write_text("my own scenario, with its expect: block\n", encoding="utf-8")
    args = ["import-results", str(cary_csv), "--contest", "TOWN OF CARY TOWN COUNCIL DISTRICT D"]
    assert main([*args, "-o", str(mine)]) == 2
    err = capsys.readouterr().err
    assert "-o: expected a file that does not exist yet (or --overwrite to replace it)" in err
    assert mine.read_text(encoding="utf-8") == "my own scenario, with its expect: block\n"
    assert main([*args, "-o", str(mine), "--overwrite"]) == 0
    assert load_scenario(mine).contests[0].id
    for name in ("victim.csv", "notes.txt", "noext"):
        assert main([*args, "-o", str(tmp_path / name)]) == 2
        assert "ending .yaml, .yml or .json" in capsys.readouterr().err
        assert not (tmp_path / name).exists()
    assert main([*args, "--overwrite"]) == 2
    assert "--overwrite: expected -o FILE to go with it" in capsys.readouterr().err


_HEAD = "county,precinct,office,district,party,candidate,votes\n"
_MAYOR = "WAKE,1,TOWN OF CARY MAYOR,,"


@pytest.mark.parametrize(
    ("rows", "line", "says"),
    [
        # a repeated row was summed (12 votes), a cell past the header left out, an empty
        # count read as 0, and a quote left open named the last line it swallowed
        ([",Ann,5", ",Bob,3", ",Ann,7"], 4, "expected one row per candidate in each precinct"),
        ([",Ann,5,extra"], 2, "expected 7 comma-separated columns"),
        ([",Ann,"], 2, "votes: expected a whole number of votes; found an empty cell"),
        ([',"Ann,5', ",Bob,3"], 2, "expected 7 comma-separated columns"),
    ],
)
def test_an_openelections_row_that_would_be_merged_or_cut_is_refused_at_its_line(
    tmp_path: Path, rows: list[str], line: int, says: str
) -> None:
    path = tmp_path / "20231010__x.csv"
    path.write_text(_HEAD + "".join(_MAYOR + r + "\n" for r in rows), encoding="utf-8")
    with pytest.raises(ImportResultsError) as error:
        read_results(path)
    assert str(error.value).startswith(f"{path}:{line}: ") and says in str(error.value)


def test_two_spellings_of_the_miscellaneous_write_ins_are_still_summed(tmp_path: Path) -> None:
    # real files write them both ways in one precinct (Norlina, November 2021)
    path = tmp_path / "20231010__x.csv"
    rows = [",Ann,5", ",Write-In (Miscellaneous),1", ",Miscellaneous (Write-In),2"]
    path.write_text(_HEAD + "".join(_MAYOR + r + "\n" for r in rows), encoding="utf-8")
    (contest,) = read_results(path).contests
    assert dict(contest.precincts[0][1]) == {"Ann": 5, "Write-In (Miscellaneous)": 3}


@pytest.mark.parametrize(
    ("second", "says"),
    [
        ((("PASQUOTANK", "WEST", EC4, "Tim Jackson", 1, 9)), "Vote For: expected 2"),
        ((("PASQUOTANK", "EAST", EC4, "Tim Jackson", 2, 9)), "expected one row per candidate"),
    ],
)
def test_a_results_pct_file_whose_rows_disagree_is_refused(
    tmp_path: Path, second: tuple[str, str, str, str, int, int], says: str
) -> None:
    # the first row's Vote For was taken, and a repeated row summed
    path = tmp_path / "results_pct_20251007.txt"
    path.write_text(results_pct([*EC4_ROWS, second]), encoding="utf-8")
    with pytest.raises(ImportResultsError, match=says):
        read_results(path)
    dated = results_pct(EC4_ROWS) + results_pct(EC4_ROWS[:1], day="10/08/2025").split("\n", 1)[1]
    path.write_text(dated.replace("\tEAST\t", "\tWEST\t", 1), encoding="utf-8")
    with pytest.raises(ImportResultsError, match="Election Date: expected the date of the rows"):
        read_results(path)


def test_a_name_written_in_two_cases_is_refused_at_its_csv_line_when_imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the scenario's loader refused it, naming events[1] of a scenario nobody wrote
    path = tmp_path / "20231010__case.csv"
    rows = ["1,TOWN OF CARY MAYOR,,,Ann,5", "2,TOWN OF CARY MAYOR,,,ANN,7", "2,REFERENDUM,,,No,1"]
    rows += ["3,REFERENDUM,,,NO,2"]
    path.write_text(_HEAD + "".join(f"WAKE,{r}\n" for r in rows), encoding="utf-8")
    assert main(["import-results", str(path), "--list"]) == 0  # listing is not stopped by it
    capsys.readouterr()
    assert main(["import-results", str(path), "--contest", "TOWN OF CARY MAYOR"]) == 2
    err = capsys.readouterr().err
    assert (
        f"{path}:3: expected one spelling of each candidate's name in 'TOWN OF CARY MAYOR'" in err
    )
    assert "'Ann' on line 2 differs from this one only in letter case; found 'ANN'" in err
    assert "events[" not in err


def test_a_primary_of_a_method_without_one_is_refused_naming_the_options(
    cary_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["import-results", str(cary_csv), "--contest", "TOWN OF CARY TOWN COUNCIL DISTRICT D"]
    assert main([*args, "--stage", "primary"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "electsim: --stage primary: expected --method partisan or nonpartisan-primary with it "
        "(only they have a primary); found --method nonpartisan-plurality (the default)\n"
    )
    assert main([*args, "--stage", "primary", "--method", "nonpartisan-primary"]) == 0
