"""``import-results`` reads a results file in memory bounded by the contests it keeps, not by its
rows: ``--list`` keeps per contest its candidates' names, votes and seats, an import the rows of
the one contest it imports (issue 47).

What the readers hold is counted, not timed or measured by the process's size: the containers a
reading's sink holds are counted through after N and 10 N rows, and the Python allocations of a
whole reading are traced (tracemalloc counts them exactly, whatever else the machine does). The
summaries and imports are checked against the full reader, :func:`read_results`, on random
files of both layouts.
"""

from __future__ import annotations

import gzip
import tempfile
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulator.input import importer
from simulator.input.importer import (
    ContestSummary,
    ResultsFile,
    build_scenario_dict,
    contest_key,
    import_results,
    list_contests,
    read_results,
)
from simulator.input.loader import structure
from simulator.input.results_rows import read_rows
from simulator.model.errors import ImportResultsError, SimulatorError
from simulator.model.scenario import Scenario

T = TypeVar("T")

HEADER = "county,precinct,office,district,party,candidate,votes\n"
PCT_HEADER = (
    "County\tElection Date\tPrecinct\tContest Group ID\tContest Type\tContest Name\tChoice\t"
    "Choice Party\tVote For\tElection Day\tOne Stop\tAbsentee by Mail\tProvisional\tTotal Votes\t"
    "Real Precinct\n"
)


def generated(path: Path, units: int, contests: int = 3, candidates: int = 3) -> Path:
    """A gzip openelections file in which each unit reports on every contest, a unit's rows
    together (as real files give them): units x contests x (candidates + a write-in) rows."""
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write(HEADER)
        for u in range(units):
            for c in range(contests):
                names = [f"Candidate {c}-{k}" for k in range(candidates)]
                for name in [*names, "Write-In (Miscellaneous)"]:
                    out.write(
                        f"COUNTY{u % 7},P{u:05d},TOWN OF T{c} TOWN COUNCIL,,,{name},{u % 9}\n"
                    )
    return path


def held(sink: object) -> int:
    """The entries of every container a reading's sink holds, counted through (a dict of sets
    counts its keys, and the members of each set)."""

    def count(value: object) -> int:
        if isinstance(value, dict):
            return len(value) + sum(count(k) + count(v) for k, v in value.items())
        if isinstance(value, list | tuple | set | frozenset):
            return len(value) + sum(count(v) for v in value)
        return 0

    return sum(count(value) for value in vars(sink).values())


def read_into(path: Path, sink: importer._Rows) -> importer._Rows:
    read_rows(path, sink, encoding="utf-8", max_bytes=1 << 30)
    return sink


def test_the_summaries_of_list_hold_as_much_after_ten_times_the_rows(tmp_path: Path) -> None:
    small = generated(tmp_path / "20271102__small.csv.gz", units=40)  # 480 rows
    large = generated(tmp_path / "20271102__large.csv.gz", units=400)  # 4,800 rows
    # the count sees what a reading keeps by unit: the full reader's grows with the units
    assert held(read_into(large, importer._Builder())) > 5 * held(
        read_into(small, importer._Builder())
    )
    summaries = read_into(small, importer._Summaries())
    assert held(summaries) == held(read_into(large, importer._Summaries()))
    # 3 contests, 4 names each: its names, seats, candidates and votes, and the last unit's run
    assert 0 < held(summaries) <= 3 * 4 * 8
    assert list_contests(large) == [
        ContestSummary(f"TOWN OF T{c} TOWN COUNCIL", 3, 1, 4 * sum(u % 9 for u in range(400)), None)
        for c in range(3)
    ]


def test_an_import_holds_the_units_of_its_contest_only(tmp_path: Path) -> None:
    small = generated(tmp_path / "20271102__small.csv.gz", units=40)
    large = generated(tmp_path / "20271102__large.csv.gz", units=400)

    def none() -> importer._Builder:  # (an import of a contest the file does not have)
        return importer._Builder(only=lambda name: False)

    assert held(read_into(small, none())) == held(read_into(large, none()))
    one = read_into(large, importer._Builder(only=lambda name: name.endswith("T1 TOWN COUNCIL")))
    assert isinstance(one, importer._Builder)
    assert list(one.units) == ["TOWN OF T1 TOWN COUNCIL"]
    assert list(one.names) == [f"TOWN OF T{c} TOWN COUNCIL" for c in range(3)]


def _peak(read: Callable[[], T]) -> int:
    """The most bytes Python had allocated at once while ``read`` ran, above what it had before."""
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        read()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - before


def test_list_allocates_no_more_for_five_times_the_rows(tmp_path: Path) -> None:
    # The whole reading, the readers' own dicts included, where the tests above count the
    # sinks' only. Both files fill the reading's buffers of a mebibyte, so what is left to grow
    # is what the reading keeps; the peak is reached while they fill, so a dict by unit smaller
    # than them may pass unseen: the counts above are the finer check.
    small = generated(tmp_path / "20271102__small.csv.gz", units=300, contests=2)  # 2,400 rows
    large = generated(tmp_path / "20271102__large.csv.gz", units=1500, contests=2)  # 12,000
    list_contests(small)  # (caches warm)
    # the full reader's peak grows with the units (by 1.8 MiB): what the measure sees of a
    # reading that keeps the rows by contest and unit
    assert _peak(lambda: read_results(large)) > _peak(lambda: read_results(small)) + (1 << 20)
    # --list's does not (by 8 KiB): the same buffers, whatever the length of the file
    assert _peak(lambda: list_contests(large)) < _peak(lambda: list_contests(small)) + (128 << 10)


# --- the same answers as the full reader -----------------------------------------------------

CONTESTS = [
    "TOWN OF CARY MAYOR",
    "Town of Cary  Mayor",  # the same key: a name that matches two contests
    "TOWN OF APEX TOWN COUNCIL",
    "CITY OF RALEIGH CITY COUNCIL AT-LARGE",
    "REFERENDUM",
]
CANDIDATES = [
    "Ann Able",
    "ANN ABLE",  # two letter cases: noted, refused when imported
    "Bob Baker",
    " Bob  Baker ",  # the same name written with other spaces: a repeated row
    "Write-In (Miscellaneous)",
    "Miscellaneous (Write-In)",  # the same write-in, another row: summed
    "Cy Cole (write-in)",
    "Flake (Chris) Huggins, Jr.",
    "Dee Dunn",
    "Eve Ennis",
    "Gus Gray",
    "No",
    "NO",
]
_ROW = st.tuples(
    st.sampled_from(CONTESTS),
    st.sampled_from(CANDIDATES),
    st.sampled_from([*range(400), -1]),  # (-1 is refused)
    st.sampled_from([None] * 24 + ["", "0", "1", "2"]),  # Vote For, None: the contest's own
)
_FILE = st.tuples(
    st.lists(
        st.lists(_ROW, min_size=1, max_size=7, unique_by=lambda r: (r[0], r[1])),
        min_size=1,
        max_size=6,
    ),
    st.dictionaries(st.sampled_from(CONTESTS), st.sampled_from(["", "0", "1", "2"])),
)


def write_file(
    folder: Path,
    layout: str,
    units: list[list[tuple[str, str, int, str | None]]],
    vote_for: dict[str, str],
) -> Path:
    """A results file of ``layout`` with the rows of each unit together, in the order given."""
    lines = [HEADER if layout == "openelections" else PCT_HEADER]
    for u, rows in enumerate(units):
        county, precinct = ("WAKE", "CHATHAM")[u % 2], f"{u:02d}"
        for contest, candidate, votes, seats in rows:
            if layout == "openelections":
                quoted = f'"{candidate}"' if "," in candidate else candidate
                lines.append(f"{county},{precinct},{contest},,,{quoted},{votes}\n")
            else:
                vote = vote_for.get(contest, "") if seats is None else seats
                lines.append(
                    f"{county}\t10/10/2027\t{precinct}\t1\tC\t{contest}\t{candidate}\t \t{vote}\t"
                    f"{votes}\t0\t0\t0\t{votes}\tY\n"
                )
    path = folder / f"20271010__{layout}.{'csv' if layout == 'openelections' else 'txt'}"
    path.write_text("".join(lines), encoding="utf-8")
    return path


def outcome(read: Callable[[], T]) -> T | tuple[str, str]:
    """What a reading gives: its value, or the refusal."""
    try:
        return read()
    except SimulatorError as error:
        return ("refused", str(error))


def summaries_of(results: ResultsFile) -> list[ContestSummary]:
    """``--list`` as it was computed: from every contest's returns, unit by unit."""
    return [
        ContestSummary(
            name=c.name,
            candidates=len(c.filers),
            write_ins=len(c.candidates) - len(c.filers),
            total_votes=c.total,
            seats=c.seats,
        )
        for c in results.contests
    ]


def imported_from_all(path: Path, contest: str) -> Scenario:
    """An import as it was made: the whole file read, the contest found among all its contests."""
    results = read_results(path)
    returns = results.find(contest)
    if returns.clash:
        raise ImportResultsError(returns.clash)
    doc = build_scenario_dict(returns, day=results.day, source=path.name)
    return structure(doc, source=f"<import of {path}>")


@pytest.mark.parametrize("layout", ["openelections", "results_pct"])
@given(file=_FILE, data=st.data())
def test_list_and_import_answer_as_the_full_reader_does(
    layout: str,
    file: tuple[list[list[tuple[str, str, int, str | None]]], dict[str, str]],
    data: st.DataObject,
) -> None:
    named = sorted({row[0] for rows in file[0] for row in rows})
    # a contest of the file, most often; else one it lacks, with close matches or none
    asked = data.draw(st.sampled_from([*named, *named, "TOWN OF CARY TOWN COUNCIL", "Apex"]))
    with tempfile.TemporaryDirectory() as tmp:
        path = write_file(Path(tmp), layout, *file)
        full = outcome(lambda: read_results(path))
        expected = full if isinstance(full, tuple) else summaries_of(full)
        assert outcome(lambda: list_contests(path)) == expected
        assert outcome(lambda: import_results(path, asked)) == outcome(
            lambda: imported_from_all(path, asked)
        )


# --- what only an import finds ---------------------------------------------------------------


def test_a_row_repeated_after_other_units_is_found_by_an_import_of_its_contest_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --list keeps no unit: a repeat is found within the run of its unit's rows (real files
    # give a unit's rows together), not after another unit's rows came between
    path = tmp_path / "20271010__x.csv"
    rows = [
        "WAKE,01,TOWN OF CARY MAYOR,,,Ann,5",
        "WAKE,01,TOWN OF APEX MAYOR,,,Bob,4",
        "WAKE,02,TOWN OF CARY MAYOR,,,Ann,3",
        "WAKE,01,TOWN OF CARY MAYOR,,,Ann,2",
    ]
    path.write_text(HEADER + "".join(f"{r}\n" for r in rows), encoding="utf-8")
    says = f"{path}:5: expected one row per candidate in each precinct; found 'Ann' again"
    with pytest.raises(ImportResultsError, match=says):
        read_results(path)
    with pytest.raises(ImportResultsError, match=says):
        import_results(path, "town of cary mayor")
    cary = list_contests(path)[0]
    assert (cary.name, cary.total_votes) == ("TOWN OF CARY MAYOR", 10)
    assert import_results(path, "TOWN OF APEX MAYOR").contests[0].office == "Mayor"
    # within the run of a unit's rows, --list finds it, whatever came between
    path.write_text(HEADER + "".join(f"{r}\n" for r in [*rows[:2], rows[0]]), encoding="utf-8")
    with pytest.raises(ImportResultsError, match=f"{path}:4: expected one row per candidate"):
        list_contests(path)


def test_an_import_of_a_missing_contest_names_the_close_matches_among_all_contests(
    tmp_path: Path,
) -> None:
    path = generated(tmp_path / "20271102__x.csv.gz", units=3)
    with pytest.raises(ImportResultsError) as error:
        import_results(path, "town of t1 council")
    assert "Close matches: 'TOWN OF T1 TOWN COUNCIL'" in str(error.value)
    with pytest.raises(ImportResultsError, match=r"nothing close \(3 contests in the file\)"):
        import_results(path, "Zebulon")
    assert contest_key("TOWN OF T1 TOWN COUNCIL") == "town of t1 town council"
