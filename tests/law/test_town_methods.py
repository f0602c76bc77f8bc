"""The towns' methods (G.S. 163-290(a): each town chooses one) as the State Board's results show
them, 2011-2025: the table bundled with the package (simulator/law/town_methods.csv), the rules
that derive it from the results files, and the check that it is what they derive.

Small results files written in ``tmp_path`` test the rules; the test marked ``shared_data`` derives
the whole table from the real files and skips where they are absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.analysis.conformance.town_methods import main, method_table
from simulator.input.importer import ResultsFile, read_results
from simulator.law.towns import TABLE, close_towns, read_table, table_text, town_method
from simulator.law.vocab import Method

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def test_a_town_is_found_however_its_name_is_written() -> None:
    # Erwin held a first election in October in every year of the results
    for name in ("Town of Erwin", "ERWIN", "  town of  erwin ", "Erwin"):
        found = town_method(name)
        assert found is not None, name
        assert (found.town, found.municipality) == ("Erwin", "Town of Erwin")
        assert found.method is Method.RUNOFF
        assert "a first election in October in 2011, 2013" in found.evidence


def test_the_table_holds_each_method_with_its_evidence() -> None:
    charlotte = town_method("City of Charlotte")
    durham = town_method("City of Durham")
    elon = town_method("Town of Elon")
    assert charlotte is not None and charlotte.method is Method.PARTISAN
    assert "a party primary in September" in charlotte.evidence
    assert durham is not None and durham.method is Method.PRIMARY
    assert "a nonpartisan primary in October in 2011" in durham.evidence
    assert elon is not None and elon.method is Method.PLURALITY
    assert "a November election with no primary or election before it" in elon.evidence


def test_a_town_that_changed_its_method_shows_both() -> None:
    # Cary: a first election in October and a runoff through 2023; in 2025 a November
    # election with nothing before it
    cary = town_method("Town of Cary")
    assert cary is not None and cary.method is Method.PLURALITY
    assert cary.evidence.startswith("a November election with no primary or election before it")
    assert "before that, a first election in October in 2011" in cary.evidence
    assert "a runoff in November in 2015, 2023" in cary.evidence


def test_an_unknown_town_is_not_found_and_close_names_are_offered() -> None:
    assert town_method("Town of Carry") is None
    assert close_towns("Town of Carry") == ["Cary"]
    assert "Rocky Mount" in close_towns("Rocky")
    assert close_towns("Zzyzx") == []


def test_the_table_reads_back_what_it_writes() -> None:
    rows = read_table(TABLE.read_text(encoding="utf-8"))
    assert len(rows) > 600
    assert table_text(list(rows)) == TABLE.read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="expected the columns"):
        read_table("name,method\n")


def _file(tmp_path: Path, name: str, rows: list[str]) -> ResultsFile:
    p = tmp_path / name
    p.write_text("county,precinct,office,district,party,candidate,votes\n" + "\n".join(rows))
    return read_results(p)


def test_the_rules_tell_each_method_from_the_files(tmp_path: Path) -> None:
    sep = _file(tmp_path, "20270914__nc__primary__precinct.csv", [
        "Gaston,P1,City of Redtown Mayor (DEM),,DEM,Ann Able,50",
        "Gaston,P1,City of Redtown Mayor (DEM),,DEM,Bob Baker,40",
    ])  # fmt: skip
    octo = _file(tmp_path, "20271005__nc__general__precinct.csv", [
        "Wake,P1,Town of Runville Mayor,,,Cy Cole,50",
        "Wake,P1,Town of Runville Mayor,,,Di Dunn,40",
        "Wake,P1,Town of Runville Mayor,,,Write-In (Miscellaneous),1",
        "Wake,P1,Town of Primton Mayor,,,Ed Eve,50",
        "Wake,P1,Town of Primton Mayor,,,Flo Fay,40",
        "Wake,P1,Town of Primton Mayor,,,Gus Gil,30",
    ])  # fmt: skip
    nov = _file(tmp_path, "20271102__nc__general__precinct.csv", [
        "Gaston,P1,City of Redtown Mayor,,DEM,Ann Able,50",
        "Gaston,P1,City of Redtown Mayor,,REP,Hal Hay,40",
        "Wake,P1,Town of Runville Mayor,,,Cy Cole,60",
        "Wake,P1,Town of Runville Mayor,,,Di Dunn,55",
        "Wake,P1,Town of Primton Mayor,,,Ed Eve,60",
        "Wake,P1,Town of Primton Mayor,,,Flo Fay,50",
        "Wake,P1,Town of Primton Mayor,,,Write-In (Miscellaneous),1",
        "Wake,P1,Village of Plainview Mayor,,,Ivy Ives,60",
        "Wake,P1,Village of Plainview Mayor,,,Write-In (Miscellaneous),1",
    ])  # fmt: skip
    # a later year: the primary town needs no primary, the runoff town changed to plurality
    nov_later = _file(tmp_path, "20291106__nc__general__precinct.csv", [
        "Wake,P1,Town of Primton Mayor,,,Ed Eve,60",
        "Wake,P1,Town of Runville Mayor,,,Cy Cole,60",
    ])  # fmt: skip
    files = {(2027, 9): sep, (2027, 10): octo, (2027, 11): nov, (2029, 11): nov_later}
    rows = {r.town: r for r in method_table(dict(files))}
    assert {t: r.method for t, r in rows.items()} == {
        "Plainview": Method.PLURALITY,
        "Primton": Method.PRIMARY,
        "Redtown": Method.PARTISAN,
        "Runville": Method.PLURALITY,
    }
    assert rows["Redtown"].evidence == (
        "a party primary in September or a party's second primary in October in 2027; "
        "party labels on the November ballot in 2027"
    )
    assert rows["Primton"].evidence == (
        "a nonpartisan primary in October in 2027; a November election with no primary or "
        "election before it in 2029 (no primary is held where no more than twice the seats file)"
    )
    assert rows["Runville"].evidence == (
        "a November election with no primary or election before it in 2029; before that, a "
        "first election in October in 2027; a runoff in November in 2027"
    )
    assert rows["Plainview"].municipality == "Village of Plainview"
    del files[(2029, 11)]
    runville = {r.town: r for r in method_table(dict(files))}["Runville"]
    assert runville.method is Method.RUNOFF


@pytest.mark.early
@pytest.mark.shared_data
def test_the_bundled_table_is_what_the_results_files_show(
    capsys: pytest.CaptureFixture[str],
) -> None:
    if not (SHARED / "nc-results").is_dir():
        pytest.skip(f"the shared North Carolina results are not at {SHARED / 'nc-results'}")
    assert main(["--data", str(SHARED)]) == 0
    derived = capsys.readouterr().out
    assert derived == TABLE.read_text(encoding="utf-8"), (
        "the bundled table is stale: run python -m simulator.analysis.conformance.town_methods "
        "--write"
    )
