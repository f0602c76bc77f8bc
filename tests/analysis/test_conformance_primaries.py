"""Conformance of primaries: nonpartisan primaries (G.S. 163-294) against the November ballot,
and partisan primaries (G.S. 163-111(a) via 163-291) against the second primary and the November
ballot, under the substantial plurality in force on the primary day.

Small results files written in ``tmp_path`` test each verdict; the tests marked
``shared_data`` run the whole check on the real files and skip where they are absent.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import attrs
import pytest

import simulator
from simulator.analysis.conformance.matching import OctoberKind, october_kind, party_of
from simulator.analysis.conformance.primaries import (
    EXPLANATIONS,
    PrimaryCheck,
    PrimaryReport,
    explanation_for,
    run_primaries,
)
from simulator.analysis.conformance.report import format_primaries
from simulator.analysis.conformance.runoffs import run_conformance
from simulator.cli.main import main
from simulator.input.importer import ContestReturns, import_results
from simulator.law.vocab import Method

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"
HEADER = "county,precinct,office,district,party,candidate,votes\n"
Rows = list[tuple[str, list[tuple[str, int]]]]
WI = "Write-In (Miscellaneous)"


def write(path: Path, contests: Rows) -> None:
    lines = [HEADER]
    for office, counts in contests:
        for name, votes in counts:
            lines.append(f"GUILFORD,01-01,{office},,,{name},{votes}\n")
    path.write_text("".join(lines))


def returns(name: str, counts: list[tuple[str, int]]) -> ContestReturns:
    return ContestReturns(name, (("P1", tuple(counts)),))


# --- telling an October primary from an October election ------------------------------------


def test_an_october_contest_with_a_write_in_line_is_an_election() -> None:
    kind, why = october_kind(returns("TOWN OF X MAYOR", [("Ann", 5), ("Bob", 4), (WI, 1)]))
    assert kind is OctoberKind.ELECTION and "write-in" in why


def test_an_october_contest_without_a_write_in_line_is_a_nonpartisan_primary() -> None:
    kind, _ = october_kind(returns("CITY OF X MAYOR", [("Ann", 5), ("Bob", 4), ("Cy", 3)]))
    assert kind is OctoberKind.NONPARTISAN_PRIMARY


@pytest.mark.parametrize(
    "name", ["CITY OF CHARLOTTE MAYOR (DEM)", "CITY OF CHARLOTTE CITY COUNCIL DISTRICT 2 - DEM"]
)
def test_an_october_contest_named_with_a_party_is_a_second_primary(name: str) -> None:
    assert october_kind(returns(name, [("Ann", 5), ("Bob", 4)]))[0] is OctoberKind.SECOND_PRIMARY
    assert party_of(name) == "DEM"


# --- small data --------------------------------------------------------------------------------

GSO = "CITY OF GREENSBORO"


@pytest.fixture
def data(tmp_path: Path) -> Path:
    # 2019: a nonpartisan primary town, a runoff-method town the README does not list, a
    # partisan town. Greensboro elects in November after an October primary.
    write(
        tmp_path / "20190910__nc__primary__precinct.csv.gz",
        [
            # 36% is over today's 30%: nominated, no second primary
            (f"{GSO} MAYOR (DEM)", [("Ann Able", 360), ("Bob Baker", 340), ("Cy Cole", 300)]),
            # 29%: no substantial plurality; Dot demanded a second primary
            (
                f"{GSO} CITY COUNCIL DISTRICT 9 (DEM)",
                [("Al Ash", 290), ("Dot Dee", 280), ("Ed Eck", 250), ("Flo Fox", 180)],
            ),
        ],
    )
    write(
        tmp_path / "20191008__nc__general__precinct.csv.gz",
        [
            (f"{GSO} CITY COUNCIL DISTRICT 1", [("Gus G", 500), ("Hal H", 300), ("Ike I", 100)]),
            (f"{GSO} CITY COUNCIL DISTRICT 2", [("Jo J", 500), ("Kai K", 300), ("Lu L", 290)]),
            (f"{GSO} CITY COUNCIL DISTRICT 3", [("Mo M", 500), ("Ned N", 200), ("Oz O", 200)]),
            (f"{GSO} CITY COUNCIL DISTRICT 9 (DEM)", [("Al Ash", 400), ("Dot Dee", 450)]),
            ("TOWN OF NOWHERE MAYOR", [("Pat P", 40), ("Quin Q", 35), ("Ray R", 30), (WI, 1)]),
        ],
    )
    write(
        tmp_path / "20191105__nc__general__precinct.csv.gz",
        [
            (f"{GSO} MAYOR", [("Ann Able", 900), ("Zed Z", 800), (WI, 3)]),
            (f"{GSO} CITY COUNCIL DISTRICT 9", [("Dot Dee", 900), (WI, 3)]),
            (f"{GSO} CITY COUNCIL DISTRICT 1", [("Gus G", 900), ("Hal H", 800), (WI, 3)]),
            # the third, not the second: a fact the data lacks
            (f"{GSO} CITY COUNCIL DISTRICT 2", [("Jo J", 900), ("Lu L", 800), (WI, 3)]),
            (f"{GSO} CITY COUNCIL DISTRICT 3", [("Mo M", 900), ("Oz O", 800), (WI, 3)]),
            ("TOWN OF NOWHERE MAYOR", [("Pat P", 50), ("Quin Q", 45)]),
        ],
    )
    return tmp_path


@pytest.fixture
def report(data: Path) -> PrimaryReport:
    return run_primaries(data)


def check(report: PrimaryReport, method: Method, office: str) -> PrimaryCheck:
    (found,) = [c for c in report.of(method) if c.office == office]
    return found


def test_the_two_highest_on_the_november_ballot_agree(report: PrimaryReport) -> None:
    # G.S. 163-294(b): the two highest for a single office are nominated
    c = check(report, Method.PRIMARY, "City Council District 1")
    assert (c.nominees, c.agree, c.seats) == (("Gus G", "Hal H"), True, 1)
    assert "single office" in c.seat_source


def test_the_third_on_the_november_ballot_disagrees(report: PrimaryReport) -> None:
    c = check(report, Method.PRIMARY, "City Council District 2")
    assert c.agree is False
    assert "lacks Kai K" in c.explanation and "Lu L" in c.explanation


def test_a_tie_at_the_cut_off_is_reported_and_november_shows_the_lot(
    report: PrimaryReport,
) -> None:
    # G.S. 163-294(b): a tie for the second nomination is ranked by lot
    c = check(report, Method.PRIMARY, "City Council District 3")
    assert c.tie and c.agree is True
    assert c.nominees == ("Mo M",)
    assert "tie at the cut-off" in c.engine and "Oz O won the lot" in c.explanation


def test_a_runoff_town_missing_from_the_readme_is_detected(report: PrimaryReport) -> None:
    (found,) = [f for f in report.towns if f.town == "Nowhere"]
    assert "not among the data README's runoff towns" in found.finding
    assert "November runoff" in found.finding
    assert any("write-in line" in e for e in found.evidence)
    assert not report.of(Method.PRIMARY) or all(c.town != "Nowhere" for c in report.checks)


def test_a_substantial_plurality_nominates_without_a_second_primary(
    report: PrimaryReport,
) -> None:
    # G.S. 163-111(a)(1) as in force in 2019 (30%): 360 of 1000 is more than 300
    c = check(report, Method.PARTISAN, "Mayor")
    assert c.threshold.startswith("> 300 (30%")
    assert (c.nominees, c.second_primary, c.november, c.agree) == (
        ("Ann Able",),
        "none",
        "Ann Able",
        True,
    )


def test_a_second_primary_between_the_leader_and_the_runner_up_is_replayed(
    report: PrimaryReport,
) -> None:
    # G.S. 163-111(b), 163-291(6): Dot demanded; the October second primary is replayed and its
    # winner is the November nominee
    c = check(report, Method.PARTISAN, "City Council District 9")
    assert "no substantial plurality for Al Ash" in c.engine
    assert c.second_primary.startswith("held: Dot Dee 450")
    assert (c.nominees, c.agree) == (("Dot Dee",), True)


def test_the_report_prints_every_method_and_the_towns(report: PrimaryReport) -> None:
    text = format_primaries(report)
    assert "Nonpartisan primaries: 3 contests, 3 judged, 2 agree, 1 disagree (1 unexplained)" in (
        text
    )
    assert "Partisan primaries: 2 contests, 2 judged, 2 agree" in text
    assert "Towns whose method the data README lists wrongly or omits" in text
    assert "| year | town | office | party |" in format_primaries(report, markdown=True)


def test_the_same_returns_in_2015_fall_short_of_the_forty_percent_then_in_force(
    tmp_path: Path,
) -> None:
    # G.S. 163-111(a) before S.L. 2017-214: 360 of 1000 is not more than 400, so the October
    # second primary the board held is what the law of 2015 allowed
    write(
        tmp_path / "20150915__nc__primary__precinct.csv.gz",
        [(f"{GSO} MAYOR (DEM)", [("Ann Able", 360), ("Bob Baker", 340), ("Cy Cole", 300)])],
    )
    write(
        tmp_path / "20151006__nc__general__precinct.csv.gz",
        [(f"{GSO} MAYOR (DEM)", [("Ann Able", 500), ("Bob Baker", 400)])],
    )
    write(
        tmp_path / "20151103__nc__general__precinct.csv.gz",
        [(f"{GSO} MAYOR", [("Ann Able", 900), (WI, 3)])],
    )
    (c,) = run_primaries(tmp_path, methods=[Method.PARTISAN]).checks
    assert c.threshold.startswith("> 400 (40%, before S.L. 2017-214)")
    assert c.agree is True and c.second_primary.startswith("held")
    # the same files dated 2019: 30% is in force, so that second primary should not have been
    for old in tmp_path.iterdir():
        old.rename(tmp_path / old.name.replace("2015", "2019").replace("0915", "0910"))
    (c,) = run_primaries(tmp_path, methods=[Method.PARTISAN]).checks
    assert c.agree is False
    assert "the engine finds a substantial plurality" in c.explanation


# --- the command -------------------------------------------------------------------------------


def test_the_command_filters_by_method_and_year_and_prints_a_summary(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["conformance", "--data", str(data), "--method", "partisan"]) == 0
    out = capsys.readouterr().out
    assert "Summary by method and year" in out
    assert "partisan  2019" in out and "partisan  total" in out
    assert "Nonpartisan primaries:" not in out and "October contests of the" not in out
    # a year the results hold narrows the report to it; one they do not hold is refused
    (data / "20111011__nc__general__precinct.csv.gz").write_bytes(
        (data / "20191008__nc__general__precinct.csv.gz").read_bytes()
    )
    assert main(["conformance", "--data", str(data), "--year", "2011"]) == 0
    assert "partisan  2019" not in capsys.readouterr().out


def test_the_command_prints_json(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "--data", str(data), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "electsim-conformance/v1"
    methods = {(r["method"], r["year"]) for r in doc["summary"]}
    assert ("nonpartisan-primary", 2019) in methods and ("partisan", 2019) in methods
    statuses = [c["status"] for c in doc["primaries"]["checks"]]
    assert statuses.count("DISAGREE") == 1
    assert doc["primaries"]["summary"]["partisan"]["2019"]["agree"] == 2


def test_an_unknown_method_exits_2(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["conformance", "--data", str(data), "--method", "plurality"])
    assert caught.value.code == 2


# --- the real elections ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real() -> PrimaryReport:
    if not (SHARED / "nc-results").is_dir():
        pytest.skip(f"the shared North Carolina results are not at {SHARED / 'nc-results'}")
    return run_primaries(SHARED)


@pytest.mark.early
@pytest.mark.shared_data
def test_every_nonpartisan_primary_is_judged_but_2013s(real: PrimaryReport) -> None:
    checks = real.of(Method.PRIMARY)
    assert len(checks) == 145
    assert {c.year for c in checks if c.agree is None} == {2013}
    assert sum(1 for c in checks if c.agree is not None) == 125
    assert sum(1 for c in checks if c.agree) == 124
    assert [c.town for c in checks if c.tie] == ["Hickory"]  # Ward 3, 2019: by lot


@pytest.mark.shared_data
def test_every_partisan_primary_is_judged(real: PrimaryReport) -> None:
    checks = real.of(Method.PARTISAN)
    assert len(checks) == 79
    assert all(c.agree is True for c in checks)


@pytest.mark.shared_data
def test_every_disagreement_is_explained_with_a_scenario(real: PrimaryReport) -> None:
    bad = [c for c in real.checks if c.agree is False]
    assert [(c.year, c.town, c.office) for c in bad] == [
        (2019, "Mount Airy", "Commissioner At-Large")
    ]
    for c in bad:
        assert explanation_for(c.method, c.year, c.contest) in c.explanation
        assert c.explanation
    for _, path in EXPLANATIONS.values():
        assert (ROOT / path).is_file(), path


@pytest.mark.shared_data
def test_the_four_second_primaries_of_2013_2017_were_held_under_forty_percent(
    real: PrimaryReport,
) -> None:
    held = [c for c in real.of(Method.PARTISAN) if c.second_primary.startswith("held")]
    assert [(c.year, c.office) for c in held] == [
        (2013, "City Council District 2"),
        (2013, "City Council District 4"),
        (2015, "Mayor"),
        (2017, "City Council District 5"),
    ]
    for c in held:
        assert "(40%, before S.L. 2017-214)" in c.threshold
        assert c.agree is True


@pytest.mark.shared_data
def test_under_todays_thirty_percent_the_2015_mayoral_second_primary_was_impossible() -> None:
    # Charlotte Democratic mayoral primary, 15 September 2015: Roberts 11070 of 30945 (35.8%)
    if not (SHARED / "nc-results").is_dir():
        pytest.skip(f"the shared North Carolina results are not at {SHARED / 'nc-results'}")
    s = import_results(
        SHARED / "nc-results" / "20150915__nc__primary__precinct.csv.gz",
        "CITY OF CHARLOTTE MAYOR (DEM)",
        method="partisan",
        stage="primary",
    )
    then = simulator.replay(s).contests[0]
    assert [r.kind.value for r in then.rulings].count("runoff_available") == 1
    today = attrs.evolve(s, parameters=(("substantial_plurality", Fraction(3, 10)),))
    now = simulator.replay(today).contests[0]
    assert "runoff_available" not in [r.kind.value for r in now.rulings]
    assert now.outcome.nominated == ("Jennifer Roberts",)


@pytest.mark.shared_data
def test_towns_the_readme_lists_wrongly_or_omits(real: PrimaryReport) -> None:
    found = {f.town: f.finding for f in real.towns}
    assert {"Kingstown", "New Bern", "Shelby", "Roxboro"} <= set(found)
    assert "November runoff" in found["Kingstown"] and "November runoff" in found["New Bern"]
    assert "changed method" in found["Shelby"]
    assert {"Atlantic Beach", "Monroe", "Cary", "Statesville"} <= set(found)
    assert "no October election" in found["Monroe"]


@pytest.mark.shared_data
@pytest.mark.early
def test_the_runoff_towns_keep_207_of_208_with_dated_parameters() -> None:
    if not (SHARED / "nc-results").is_dir():
        pytest.skip("the shared North Carolina results are absent")
    from tests.analysis.test_conformance import runoff_towns_report

    r = runoff_towns_report()
    assert (len(r.judged), r.agreements) == (208, 207)


def test_the_runoff_towns_the_readme_omits_are_judged_like_the_listed(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # G.S. 163-293: Nowhere's mayor had no majority (40 of 106); the runner-up asked for the
    # November runoff the file shows
    assert main(["conformance", "--data", str(data), "--method", "nonpartisan-runoff"]) == 0
    out = capsys.readouterr().out
    assert "nonpartisan-runoff (towns not listed)  2019" in out
    assert "Runoff-method towns the data README omits: 1 October elections, 1 judged, 1 agree" in (
        out
    )
    unlisted = run_conformance(data, towns=("Nowhere",), elections_only=True)
    (c,) = unlisted.checks
    assert (c.verdict, c.agree) == ("no majority", True)
    assert c.november.startswith("runoff: Pat P 50, Quin Q 45")


@pytest.mark.shared_data
def test_the_unlisted_runoff_towns_agree_where_they_can_be_judged(real: PrimaryReport) -> None:
    from simulator.analysis.conformance.primaries import omitted_runoff_towns

    towns = omitted_runoff_towns(real)
    r = run_conformance(SHARED, towns=towns, elections_only=True)
    assert (len(r.checks), len(r.judged), r.agreements) == (56, 29, 29)
    held = [c for c in r.checks if c.november.startswith("runoff")]
    assert [(c.year, c.town, c.office) for c in held] == [
        (2025, "New Bern", "Mayor"),
        (2025, "New Bern", "Alderman Ward 04"),
    ]


def test_a_year_the_results_do_not_hold_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # an empty report for a year outside the data would read as a clean pass
    (tmp_path / "20111011__nc__general__precinct.csv").write_text("", encoding="utf-8")
    assert main(["conformance", "--data", str(tmp_path), "--year", "1800"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "--year 1800: expected a year of the results" in err and "(2011); found 1800" in err


def test_two_results_files_for_one_month_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the second by name was left out without a word
    for name in ("20231010__aa.csv", "20231010__ok.csv"):
        (tmp_path / name).write_text("", encoding="utf-8")
    assert main(["conformance", "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert (
        "expected one results file for 2023-10; found 2: 20231010__aa.csv, 20231010__ok.csv" in err
    )
