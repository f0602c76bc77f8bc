"""Importing real returns: a North Carolina results file in, a scenario of one contest out.

``electsim import-results FILE --contest NAME`` reads precinct-level returns and writes the
scenario that replays them: the contest, a notice of candidacy for every candidate at the opening
of the statutory filing period, one ``returns_reported`` per precinct on the election night and
the canvass on its statutory day (11:00 on the seventh day after a primary or a runoff city's
first election, on the tenth after any other election from 2017, G.S. 163-182.5(b); moved by
G.S. 103-5 when the office is closed).

Two layouts are read, plain, gzip- or zip-compressed (told apart by their first bytes, never by
the file name):

* **openelections** (``county,precinct,office,district,party,candidate,votes``), the layout of
  the openelections conversions of the State Board's files. The ``party`` column may hold NUL
  bytes; they are dropped. There is no seat count ("vote for N") column.
* **results_pct**, the State Board of Elections' own tab-separated layout (``County, Election
  Date, Precinct, Contest Group ID, Contest Type, Contest Name, Choice, Choice Party, Vote For,
  Election Day, One Stop (or Early Voting), Absentee by Mail, Provisional, Total Votes, Real
  Precinct``). ``Vote For`` is the seat count and ``Total Votes`` the votes of a row. Rows that
  are not real precincts (absentee, one-stop, provisional tallies) are reporting units too and
  are imported as such.

A contest's returns are the sum of its rows. The election day is the file's date: the
``YYYYMMDD`` at the start of the file name (``20231010__nc__general__precinct.csv.gz``) or the
``Election Date`` column. Write-ins are named as docs/scenarios.md wants them, whatever the file's
spelling: ``Write-in (miscellaneous)`` and ``Miscellaneous (Write-In)`` become
``Write-In (Miscellaneous)``, ``Name (write-in)`` becomes ``Name (Write-In)``; they get no
notice of candidacy.

>>> canonical_candidate("Write-in (miscellaneous)")
'Write-In (Miscellaneous)'
>>> canonical_candidate("  Ann   Example (write-in) ")
'Ann Example (Write-In)'
>>> split_contest_name("CITY OF ELIZABETH CITY COUNCILMAN 1ST WARD")
('City of Elizabeth City', 'Councilman 1st Ward')
>>> contest_key("Town of Cary  TOWN COUNCIL District D")
'town of cary town council district d'
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import difflib
import functools
import gzip
import io
import os
import re
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import IO, TypeVar, cast

import attrs

from simulator.input.files import MAX_INPUT_BYTES, InputTooLarge, NotText, describe_size, read_lines
from simulator.law.vocab import DeadlineKind, Method, Stage, is_partisan_primary
from simulator.model.errors import ImportResultsError
from simulator.model.events import MAX_VOTES, WRITE_IN_GENERIC, is_write_in
from simulator.model.scenario import Scenario

__all__ = [
    "ContestReturns",
    "ContestSummary",
    "ResultsFile",
    "build_scenario_dict",
    "canonical_candidate",
    "contest_key",
    "format_contest_list",
    "import_results",
    "list_contests",
    "read_results",
    "returns_events",
    "split_contest_name",
]

OPENELECTIONS = "openelections"
RESULTS_PCT = "results_pct"
_OPENELECTIONS_COLUMNS = ("county", "precinct", "office", "district", "party", "candidate", "votes")
_RESULTS_PCT_COLUMNS = ("County", "Precinct", "Contest Name", "Choice", "Total Votes")
_GZIP_MAGIC = b"\x1f\x8b"
_ZIP_MAGIC = b"PK\x03\x04"
_FILE_DAY = re.compile(r"(?<!\d)((?:19|20)\d{6})(?:__|_|-|\.)")
_RETURNS_FROM = time(20, 0)  # the first precinct reports at 20:00 on the election night
_FIRST_YEAR, _LAST_YEAR = 1973, 2200  # the years a scenario's contest may have
_MAX_STEP = 180  # seconds between two precincts' returns, at most
_SPREAD = 4 * 3600  # all returns within four hours, however many precincts


# ---------------------------------------------------------------------------------------------
# Names


def contest_key(name: str) -> str:
    """A contest name for matching: case and repeated whitespace do not count."""
    return " ".join(name.split()).casefold()


_GENERIC_WRITE_IN = re.compile(
    r"^(?:write[- ]?ins?\s*(?:\(\s*misc[a-z.]*\s*\))?|misc[a-z.]*\s*\(\s*write[- ]?ins?\s*\))$",
    re.IGNORECASE,
)
_NAMED_WRITE_IN = re.compile(r"^(.*\S)\s*\(\s*write[- ]?in\s*\)$", re.IGNORECASE)


@functools.lru_cache(maxsize=1 << 14)  # a results file names each candidate once a precinct
def canonical_candidate(raw: str) -> str:
    """A candidate's name as a scenario writes it (docs/scenarios.md): spaces tidied, write-ins
    spelled ``Write-In (Miscellaneous)`` or ``NAME (Write-In)``."""
    name = " ".join(raw.replace("\x00", "").split())
    if _GENERIC_WRITE_IN.match(name):
        return WRITE_IN_GENERIC
    named = _NAMED_WRITE_IN.match(name)
    if named:
        return f"{named.group(1)} (Write-In)"
    return name


_MUNICIPALITY = re.compile(r"^(CITY|TOWN|VILLAGE) OF (.+)$", re.IGNORECASE)
#: Words that begin the office part of a contest name ("... COMMISSIONER WARD 2").
_OFFICE_WORDS = frozenset(
    {
        "MAYOR",
        "COUNCIL",
        "COUNCILMAN",
        "COUNCILMEN",
        "COUNCILWOMAN",
        "COUNCILMEMBER",
        "COUNCILMEMBERS",
        "COUNCILOR",
        "COUNCILORS",
        "COUNCILLOR",
        "COMMISSIONER",
        "COMMISSIONERS",
        "ALDERMAN",
        "ALDERMEN",
        "ALDERPERSON",
        "ALDERWOMAN",
        "BOARD",
        "TRUSTEE",
        "TRUSTEES",
    }
)
#: "CITY COUNCIL", "TOWN BOARD": a body word begins the office only before COUNCIL or BOARD, so
#: that "ELIZABETH CITY COUNCILMAN" keeps the town's own word CITY.
_BODY_WORDS = frozenset({"CITY", "TOWN", "VILLAGE"})
_SMALL_WORDS = frozenset({"OF", "AND", "THE", "FOR", "TO"})


def _cap(word: str) -> str:
    for i, ch in enumerate(word):
        if ch.isalpha():
            return word[:i] + ch.upper() + word[i + 1 :].lower()
    return word


def _title(text: str) -> str:
    """``CITY OF RALEIGH CITY COUNCIL AT-LARGE`` -> ``City of Raleigh City Council At-Large``."""
    out = []
    for i, word in enumerate(text.split()):
        if any(ch.isdigit() for ch in word):
            out.append(word.lower())  # 1ST -> 1st, 01 stays
        elif i and word.upper() in _SMALL_WORDS:
            out.append(word.lower())
        else:
            out.append("-".join(_cap(part) for part in word.split("-")))
    return " ".join(out)


@functools.lru_cache(maxsize=1 << 14)  # each contest name is looked at by several checks
def split_contest_name(name: str) -> tuple[str, str]:
    """(municipality, office) from a contest name like ``TOWN OF CARY MAYOR``; a name that
    does not start with CITY/TOWN/VILLAGE OF is all office."""
    clean = " ".join(name.split())
    found = _MUNICIPALITY.match(clean)
    if found:
        kind, rest = found.groups()
        words = rest.split()
        for i in range(1, len(words)):
            word = words[i].upper().strip(",-")
            after = words[i + 1].upper() if i + 1 < len(words) else ""
            if word in _OFFICE_WORDS or (word in _BODY_WORDS and after in {"COUNCIL", "BOARD"}):
                town = _title(f"{kind} of {' '.join(words[:i])}")
                return town, _title(" ".join(words[i:]))
    return "", _title(clean)


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")
    slug = re.sub(r"^(?:city|town|village)-of-", "", slug)
    return slug or "contest"


_PARTY_SUFFIX = re.compile(r"\(([A-Z]{2,5})\)\s*$")


# ---------------------------------------------------------------------------------------------
# What a results file holds


@attrs.frozen
class ContestReturns:
    """One contest's returns in a results file, reporting unit by reporting unit.

    ``precincts`` keeps the file's order; each unit's ``counts`` has the canonical candidate
    names (:func:`canonical_candidate`) in the order the file first names them. ``seats`` is the
    file's ``Vote For`` where it has one.
    """

    name: str
    precincts: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
    seats: int | None = None
    parties: tuple[tuple[str, str], ...] = ()  # candidate -> party, where the file gives one
    #: a candidate's name written in two letter cases: the message an import of it gives
    clash: str = ""

    @property
    def key(self) -> str:
        return contest_key(self.name)

    @property
    def candidates(self) -> tuple[str, ...]:
        """Every name with votes in the contest (write-ins included), in file order."""
        seen: dict[str, None] = {}
        for _, counts in self.precincts:
            for candidate, _ in counts:
                seen.setdefault(candidate)
        return tuple(seen)

    @property
    def filers(self) -> tuple[str, ...]:
        """The candidates who filed notices of candidacy: everyone but the write-ins."""
        return tuple(c for c in self.candidates if not is_write_in(c))

    @property
    def totals(self) -> dict[str, int]:
        """Votes per candidate over all reporting units, best first (ties in file order)."""
        sums: dict[str, int] = {}
        for _, counts in self.precincts:
            for candidate, votes in counts:
                sums[candidate] = sums.get(candidate, 0) + votes
        order = {c: i for i, c in enumerate(sums)}
        return dict(sorted(sums.items(), key=lambda cv: (-cv[1], order[cv[0]])))

    @property
    def total(self) -> int:
        return sum(votes for _, counts in self.precincts for _, votes in counts)

    @property
    def party(self) -> str | None:
        """The party of a partisan primary: the contest name's ``(DEM)`` suffix, else the one
        party all its candidates share."""
        suffix = _PARTY_SUFFIX.search(self.name)
        if suffix:
            return suffix.group(1)
        found = {p for _, p in self.parties if p}
        return found.pop() if len(found) == 1 else None


@attrs.frozen
class ContestSummary:
    """One line of ``--list``."""

    name: str
    candidates: int
    write_ins: int
    total_votes: int
    seats: int | None


@attrs.frozen
class ResultsFile:
    """A whole results file: its layout, its election day (if it tells) and its contests."""

    path: str
    layout: str
    day: date | None
    contests: tuple[ContestReturns, ...]

    def find(self, name: str) -> ContestReturns:
        """The contest named ``name`` (case and repeated whitespace ignored).

        Raises :class:`ImportResultsError` listing the close matches when no contest or several
        contests have that name.
        """
        key = contest_key(name)
        hits = [c for c in self.contests if c.key == key]
        if len(hits) == 1:
            return hits[0]
        fix = (
            f"pass one of them exactly to --contest (quote it); `electsim import-results "
            f"{self.path} --list` shows every contest"
        )
        if hits:
            names = "; ".join(repr(c.name) for c in hits)
            raise ImportResultsError(
                f"{self.path}: --contest: expected a name that matches one contest; found "
                f"{name!r}, which matches {len(hits)} contests that differ only in case or "
                f"spacing: {names}. These cannot be told apart by name; fix the file or merge "
                "them first"
            )
        close = self.close_matches(name)
        if close:
            listing = "; ".join(repr(c) for c in close)
            raise ImportResultsError(
                f"{self.path}: --contest: expected the name of a contest in the file; found "
                f"{name!r}, which matches none. Close matches: {listing}. Fix: {fix}"
            )
        raise ImportResultsError(
            f"{self.path}: --contest: expected the name of a contest in the file; found "
            f"{name!r}, which matches none and nothing close ({len(self.contests)} contests "
            f"in the file). Fix: {fix}"
        )

    def close_matches(self, name: str, *, n: int = 8) -> list[str]:
        """Contest names that look like ``name``: difflib's close matches, then the names that
        contain it."""
        key = contest_key(name)
        by_key: dict[str, str] = {}
        for c in self.contests:
            by_key.setdefault(c.key, c.name)
        close = difflib.get_close_matches(key, list(by_key), n=n, cutoff=0.6)
        words = key.split()
        within = [
            k for k in by_key if k not in close and words and all(w in k.split() for w in words)
        ]
        return [by_key[k] for k in [*close, *within][:n]]


# ---------------------------------------------------------------------------------------------
# Reading


@contextlib.contextmanager
def _opened(path: Path) -> Iterator[IO[bytes]]:
    """The file's bytes as a stream: plain, or decompressed as it is read (gzip, or the first
    .txt/.csv/.tsv member of a zip archive), told apart by the first bytes."""
    try:
        raw = path.open("rb")
    except (OSError, ValueError) as error:  # ValueError: a NUL in the name
        reason = getattr(error, "strerror", None) or error
        raise ImportResultsError(
            f"{path}: expected a readable results file; found {reason}"
        ) from None
    with raw:
        try:
            magic = raw.peek(4)[:4] if isinstance(raw, io.BufferedReader) else b""
        except OSError as error:  # a folder opens but does not read
            raise ImportResultsError(
                f"{path}: expected a readable results file; found {error.strerror or error}"
            ) from None
        if magic.startswith(_GZIP_MAGIC):
            with gzip.GzipFile(fileobj=raw) as inflated:
                yield cast("IO[bytes]", inflated)
        elif magic.startswith(_ZIP_MAGIC):
            try:
                archive = zipfile.ZipFile(raw)
            except (zipfile.BadZipFile, OSError) as error:
                raise ImportResultsError(f"{path}: expected a zip archive; found {error}") from None
            with archive:
                members = [
                    m for m in archive.namelist() if m.lower().endswith((".txt", ".csv", ".tsv"))
                ]
                if not members:
                    raise ImportResultsError(
                        f"{path}: expected a zip archive holding a .txt or .csv results file; "
                        f"found {archive.namelist()[:10]}"
                    )
                with archive.open(members[0]) as member:
                    yield member
        else:
            yield raw


def _lines(
    stream: IO[bytes], path: Path, *, max_bytes: int, encoding: str
) -> Iterator[tuple[int, str]]:
    """Numbered lines of text; every way the bytes can fail is an :class:`ImportResultsError`."""
    try:
        yield from read_lines(stream, max_bytes=max_bytes, encoding=encoding)
    except InputTooLarge as error:
        if error.line is not None:
            raise ImportResultsError(
                f"{path}:{error.line}: expected a line of at most {describe_size(error.limit)}; "
                "found a longer one"
            ) from None
        raise ImportResultsError(
            f"{path}: expected at most {describe_size(error.limit)} of results (uncompressed); "
            f"found more (raise the limit with --max-bytes)"
        ) from None
    except NotText as error:
        raise ImportResultsError(
            f"{path}:{error.line}: expected text in {encoding}; found {error.reason} (at byte "
            f"{error.offset}); pass --encoding with the file's encoding (e.g. cp1252) to read it"
        ) from None
    except (OSError, EOFError, zipfile.BadZipFile, zlib.error) as error:
        raise ImportResultsError(
            f"{path}: expected complete compressed data; found a damaged stream ({error})"
        ) from None


def _day_from_name(path: Path) -> date | None:
    found = _FILE_DAY.search(path.name)
    if not found:
        return None
    try:
        return datetime.strptime(found.group(1), "%Y%m%d").date()
    except ValueError:
        return None


def _parse_day(text: str) -> date | None:
    text = text.strip()
    for fmt in ("%m/%d/%Y", "%Y-%m-%d", "%Y%m%d"):
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def _votes(text: str, path: Path, line: int, column: str) -> int:
    text = text.strip().replace(",", "")
    if not text:
        # (read as 0 before: a missing count is not a count of nobody)
        raise ImportResultsError(
            f"{path}:{line}: {column}: expected a whole number of votes; found an empty cell"
        )
    try:
        value = int(text)
    except ValueError:
        raise ImportResultsError(
            f"{path}:{line}: {column}: expected a whole number of votes; found {text!r}"
        ) from None
    if value < 0:
        raise ImportResultsError(
            f"{path}:{line}: {column}: expected a number of votes, 0 or more; found {value}"
        )
    if value > MAX_VOTES:
        raise ImportResultsError(
            f"{path}:{line}: {column}: expected a number of votes, at most {MAX_VOTES:,}; "
            f"found a number of {len(text.lstrip('+-0'))} digits"
        )
    return value


class _Builder:
    """Rows in, contests out, keeping the file's order of contests, units and candidates."""

    def __init__(self) -> None:
        self.units: dict[str, dict[str, dict[str, int]]] = {}
        self.seats: dict[str, int] = {}
        self.parties: dict[str, dict[str, str]] = {}
        self.rows: dict[tuple[str, str], set[str]] = {}  # the names written, by contest and unit
        #: each name of a contest as first written, by its letters in one case, and its line
        self.spellings: dict[tuple[str, str], tuple[str, int]] = {}
        self.clashes: dict[str, str] = {}  # contest -> the first name written in two cases

    def add(
        self, contest: str, unit: str, candidate: str, votes: int, party: str, path: Path, line: int
    ) -> None:
        """Add the row on ``line`` of ``path``. A candidate's second row in one
        unit is refused: summing it would count a repeated row twice (real files have one row
        per candidate and unit; two spellings of one name, like the miscellaneous write-ins
        written both ways, are rows of their own and are summed). The first name of a contest
        written in two letter cases is noted: refused when that contest is imported (listing
        the file, or reading other contests, is not stopped by it; real files write a
        referendum's choices No and NO)."""
        counts = self.units.setdefault(contest, {}).setdefault(unit, {})
        name = canonical_candidate(candidate)
        written = " ".join(candidate.split())
        seen = self.rows.setdefault((contest, unit), set())
        if written in seen:
            raise ImportResultsError(
                f"{path}:{line}: expected one row per candidate in each precinct; found "
                f"{candidate!r} again in {unit!r} (as {name!r}): remove the repeated row"
            )
        seen.add(written)
        first = self.spellings.setdefault((contest, written.casefold()), (written, line))
        if first[0] != written and contest not in self.clashes:
            self.clashes[contest] = (
                f"{path}:{line}: expected one spelling of each candidate's name in {contest!r}: "
                f"{first[0]!r} on line {first[1]} differs from this one only in letter case; "
                f"found {written!r}"
            )
        counts[name] = counts.get(name, 0) + votes
        party = party.strip()
        if party:
            self.parties.setdefault(contest, {}).setdefault(name, party)

    def contests(self) -> tuple[ContestReturns, ...]:
        return tuple(
            ContestReturns(
                name=name,
                precincts=tuple((unit, tuple(counts.items())) for unit, counts in units.items()),
                seats=self.seats.get(name),
                parties=tuple(self.parties.get(name, {}).items()),
                clash=self.clashes.get(name, ""),
            )
            for name, units in self.units.items()
        )


def _csv_rows(numbered: Iterator[tuple[int, str]], path: Path) -> Iterator[tuple[int, list[str]]]:
    """CSV rows with the line each starts on; an oversize field is invalid input."""
    current = [0, 0]  # the last line read, and the first line of the row being read

    def texts() -> Iterator[str]:
        for number, text in numbered:
            if current[1] == 0:
                current[1] = number
            current[0] = number
            yield text

    reader = csv.reader(texts())
    while True:
        current[1] = 0
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise ImportResultsError(
                f"{path}:{current[1] or current[0]}: expected CSV fields of at most "
                f"{csv.field_size_limit():,} characters, quoted properly; found {error}"
            ) from None
        # (a row is named by the line it starts on: a quote left open runs on over the lines
        # after it, which were named instead)
        yield current[1] or current[0], row


def _read_openelections(
    numbered: Iterator[tuple[int, str]],
    header: list[str],
    path: Path,
    keep: Callable[[str], bool] | None = None,
) -> _Builder:
    col = {name.strip().lower(): i for i, name in enumerate(header)}
    c_county, c_precinct, c_office = col["county"], col["precinct"], col["office"]
    c_district, c_party = col.get("district"), col.get("party")
    c_candidate, c_votes = col["candidate"], col["votes"]
    width = max(col.values()) + 1
    out = _Builder()
    # each office (with its district) and each unit is written on many rows: tidied once
    offices: dict[tuple[str, str], str] = {}
    units: dict[tuple[str, str], str] = {}
    for line, row in _csv_rows(numbered, path):
        if not "".join(row).strip():  # no cell with anything but spaces in it
            continue
        if len(row) != len(header) and (len(row) < width or any(c.strip() for c in row[width:])):
            # (a cell past the header's columns would be left out without a word)
            raise ImportResultsError(
                f"{path}:{line}: expected {len(header)} comma-separated columns "
                f"({','.join(header)}); found {len(row)}"
            )
        written = (row[c_office], row[c_district] if c_district is not None else "")
        office = offices.get(written)
        if office is None:
            office = offices[written] = _office(*written)
        if keep is not None and not keep(office):
            continue
        where = (row[c_county], row[c_precinct])
        unit = units.get(where)
        if unit is None:
            unit = units[where] = " ".join(f"{where[0]} {where[1]}".split()) or "(no precinct)"
        party = row[c_party] if c_party is not None else ""
        votes = _votes(row[c_votes], path, line, "votes")
        out.add(office, unit, row[c_candidate], votes, party, path, line)
    return out


def _office(office: str, district: str) -> str:
    """An openelections office, with its district unless the office already names it."""
    office = " ".join(office.split())
    district = district.strip()
    if district and not re.search(rf"\b{re.escape(district)}\b", office, re.IGNORECASE):
        office = f"{office} DISTRICT {district}"
    return office


def _read_results_pct(
    lines: Iterator[tuple[int, str]],
    header: list[str],
    path: Path,
    keep: Callable[[str], bool] | None = None,
) -> tuple[_Builder, date | None]:
    col = {name.strip(): i for i, name in enumerate(header)}
    c_county, c_precinct = col["County"], col["Precinct"]
    c_contest, c_choice, c_total = col["Contest Name"], col["Choice"], col["Total Votes"]
    c_party, c_vote_for, c_date = (
        col.get("Choice Party"),
        col.get("Vote For"),
        col.get("Election Date"),
    )
    width = max(col.values()) + 1
    out = _Builder()
    day: date | None = None
    for line, text in lines:
        if not text.strip():
            continue
        row = text.rstrip("\r\n").split("\t")
        if len(row) < width:
            raise ImportResultsError(
                f"{path}:{line}: expected {len(header)} tab-separated columns; found {len(row)}"
            )
        contest = " ".join(row[c_contest].split())
        if c_date is not None:
            on = _parse_day(row[c_date])
            if day is None:
                day = on
            elif on is not None and on != day:
                raise ImportResultsError(
                    f"{path}:{line}: Election Date: expected the date of the rows before, "
                    f"{day.isoformat()}; found {row[c_date].strip()!r}"
                )
        if keep is not None and not keep(contest):
            continue
        unit = " ".join(f"{row[c_county]} {row[c_precinct]}".split()) or "(no precinct)"
        party = row[c_party] if c_party is not None else ""
        votes = _votes(row[c_total], path, line, "Total Votes")
        out.add(contest, unit, row[c_choice], votes, party, path, line)
        if c_vote_for is not None and row[c_vote_for].strip():
            seats = _votes(row[c_vote_for], path, line, "Vote For")
            known = out.seats.get(contest)
            if known is not None and seats != known:
                raise ImportResultsError(
                    f"{path}:{line}: Vote For: expected {known}, as on the contest's rows "
                    f"before; found {seats}"
                )
            if seats >= 1:
                out.seats.setdefault(contest, seats)
    return out, day


def read_results(
    path: str | os.PathLike[str],
    *,
    encoding: str = "utf-8",
    max_bytes: int = MAX_INPUT_BYTES,
    keep: Callable[[str], bool] | None = None,
) -> ResultsFile:
    """Read a results file of either layout (plain, gzip or zip), as a stream of lines in
    ``encoding`` (UTF-8 by default, a byte-order mark allowed), at most ``max_bytes`` of text.
    With ``keep``, only the contests whose names it accepts: the others' rows are passed over
    once their contest's name is read (their other cells are not read or checked)."""
    p = Path(path)
    try:
        # (base64, zlib, rot13 are codecs too, but of bytes to bytes or text to text: reading
        # with one stopped the program)
        text_encoding = codecs.lookup(encoding)._is_text_encoding
    except LookupError:
        text_encoding = False
    if not text_encoding:
        raise ImportResultsError(
            "--encoding: expected a Python codec name of a text encoding such as utf-8 or "
            f"cp1252; found {encoding!r}"
        )
    with _opened(p) as stream:
        lines = _lines(stream, p, max_bytes=max_bytes, encoding=encoding)
        first = next(lines, (1, ""))[1].rstrip("\r\n")
        if "\t" in first:
            header = [h.strip() for h in first.split("\t")]
            if all(c in header for c in _RESULTS_PCT_COLUMNS):
                builder, day = _read_results_pct(lines, header, p, keep)
                return ResultsFile(
                    str(path), RESULTS_PCT, day or _day_from_name(p), builder.contests()
                )
        try:
            header = next(csv.reader([first]), [])
        except csv.Error as error:
            raise ImportResultsError(f"{path}:1: expected a CSV header; found {error}") from None
        names = [h.strip().lower() for h in header]
        if all(c in names for c in ("county", "precinct", "office", "candidate", "votes")):
            builder = _read_openelections(lines, header, p, keep)
            return ResultsFile(str(path), OPENELECTIONS, _day_from_name(p), builder.contests())
    raise ImportResultsError(
        f"{path}: expected a results file with the header {','.join(_OPENELECTIONS_COLUMNS)} "
        f"(openelections) or a tab-separated State Board results_pct header with "
        f"{', '.join(_RESULTS_PCT_COLUMNS)}; found {first[:120]!r}"
    )


def list_contests(
    path: str | os.PathLike[str], *, encoding: str = "utf-8", max_bytes: int = MAX_INPUT_BYTES
) -> list[ContestSummary]:
    """The contests in a results file, in file order: name, candidates, votes and seats."""
    return [
        ContestSummary(
            name=c.name,
            candidates=len(c.filers),
            write_ins=len(c.candidates) - len(c.filers),
            total_votes=c.total,
            seats=c.seats,
        )
        for c in read_results(path, encoding=encoding, max_bytes=max_bytes).contests
    ]


def format_contest_list(summaries: Iterable[ContestSummary]) -> str:
    """``--list`` as text: one contest a line."""
    rows = list(summaries)
    width = max((len(s.name) for s in rows), default=7)
    lines = [f"{'contest':<{width}}  {'candidates':>10}  {'write-ins':>9}  {'votes':>10}  seats"]
    for s in rows:
        seats = str(s.seats) if s.seats is not None else "?"
        lines.append(
            f"{s.name:<{width}}  {s.candidates:>10}  {s.write_ins:>9}  {s.total_votes:>10}  {seats}"
        )
    lines.append(f"{len(rows)} contest(s); seats '?' = the file has no Vote For column")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Building the scenario


def build_scenario_dict(
    returns: ContestReturns,
    *,
    day: date | None,
    year: int | None = None,
    seats: int | None = None,
    method: Method = Method.PLURALITY,
    stage: Stage = Stage.ELECTION,
    source: str = "",
) -> dict[str, object]:
    """The scenario of one contest's returns as plain data in the scenario file format.

    ``day`` is the results' election day (None: the statutory day of ``year``); ``seats``
    defaults to the file's ``Vote For``, else 1.
    """
    from simulator.engine.state import stage_day
    from simulator.law import calendar as cal
    from simulator.model.scenario import Contest

    if year is None:
        if day is None:
            raise ImportResultsError(
                f"{source or 'the results'}: expected an election date (a YYYYMMDD file name or "
                "an Election Date column); found none. Fix: pass --year"
            )
        year = day.year
    if day is not None and day.year != year:
        raise ImportResultsError(
            f"{source or 'the results'}: --year: expected the year of the results ({day.year}); "
            f"found {year}"
        )
    seats = seats if seats is not None else (returns.seats or 1)
    if seats < 1:
        raise ImportResultsError(f"--seats: expected a whole number, 1 or more; found {seats}")
    municipality, office = split_contest_name(returns.name)
    contest_id = _slug(returns.name)
    contest: dict[str, object] = {"id": contest_id}
    if municipality:
        contest["municipality"] = municipality
    contest["office"] = office
    contest["seats"] = seats
    contest["method"] = method.value
    if stage is not Stage.ELECTION:
        contest["stage"] = stage.value
    if is_partisan_primary(method, stage):
        party = returns.party
        if party is None:
            raise ImportResultsError(
                f"{returns.name!r}: expected a party for a partisan primary (a '(DEM)'-style "
                "suffix or one party for every candidate); found none. Fix: import it as "
                "another method"
            )
        contest["party"] = party
    contest["year"] = year
    default_day = stage_day(Contest(contest_id, method, year, seats, stage))
    election_day = day or default_day
    if election_day != default_day:
        contest["date"] = election_day.isoformat()

    office_hours = cal.OfficeCalendar()
    opens, _ = cal.filing_period(year, calendar=office_hours, method=method)
    parties = dict(returns.parties)
    events: list[dict[str, object]] = []
    ranking = {name: i for i, name in enumerate(returns.totals)}
    for name in sorted(returns.filers, key=ranking.__getitem__):  # best first
        filed: dict[str, object] = {
            "type": "candidate_filed",
            "at": opens.due.isoformat(),
            "candidate": name,
        }
        if method is Method.PARTISAN and parties.get(name):
            filed["party"] = parties[name]
        events.append(filed)
    units = returns.precincts
    held = cal.rounds(method, stage)[0].kind
    events.extend(returns_events(units, election_day, method=method, held=held))

    title = " ".join(p for p in (municipality, office) if p)
    where = f" from {source}" if source else ""
    return {
        "format": "electsim/v1",
        "title": f"{title}, {year}",
        "description": (
            f"Imported by electsim import-results{where}: contest {returns.name!r}, "
            f"{len(units)} reporting unit(s), {returns.total} votes, election day "
            f"{election_day.isoformat()}."
        ),
        "contests": [contest],
        "events": events,
    }


def returns_events(
    units: Sequence[tuple[str, Sequence[tuple[str, int]]]],
    day: date,
    *,
    ballot_names: Mapping[str, str] | None = None,
    method: Method = Method.PLURALITY,
    held: DeadlineKind = DeadlineKind.ELECTION_DAY,
) -> list[dict[str, object]]:
    """Each reporting unit's returns on the night of ``day`` (from 20:00, all within four hours)
    and the canvass that follows them on the day the law fixes for the election ``held`` of
    ``method`` (:func:`simulator.law.calendar.canvass`, moved by G.S. 103-5), as events of the
    scenario file format.

    With ``ballot_names`` (the returns of a runoff or a second primary, whose ballot has no
    write-in space, G.S. 163-293(b)), write-ins are left out, names are mapped to the ballot's
    and a unit left with no votes reports nothing.

    >>> [e["at"] for e in returns_events([("P1", [("Ann", 3)])], date(2022, 11, 8))]
    ['2022-11-08T20:00:00-05:00', '2022-11-18T11:00:00-05:00']
    """
    from simulator.law import calendar as cal

    step = timedelta(seconds=max(1, min(_MAX_STEP, _SPREAD // max(1, len(units)))))
    first = cal.local(day, _RETURNS_FROM)
    events: list[dict[str, object]] = []
    for i, (unit, votes) in enumerate(units):
        counts: dict[str, int] = {}
        for name, n in votes:
            if ballot_names is not None:
                if is_write_in(name):
                    continue
                name = ballot_names.get(name, name)
            counts[name] = counts.get(name, 0) + n
        if counts or ballot_names is None:
            at = (first + i * step).isoformat()
            events.append(
                {"type": "returns_reported", "at": at, "precinct": unit, "counts": counts}
            )
    canvass = cal.round_of(method, held).canvass_of(day, cal.OfficeCalendar()).due
    events.append({"type": "canvass_held", "at": canvass.isoformat()})
    return events


def _scenario_from_dict(doc: dict[str, object], source: str) -> Scenario:
    from simulator.input.loader import structure

    return structure(doc, source=source)


def import_results(
    path: str | os.PathLike[str],
    contest: str,
    *,
    seats: int | None = None,
    method: Method | str | None = None,
    stage: Stage | str | None = None,
    year: int | None = None,
    encoding: str = "utf-8",
    max_bytes: int = MAX_INPUT_BYTES,
) -> Scenario:
    """Import one contest of a results file as a validated :class:`Scenario`.

    ``method`` defaults to nonpartisan-plurality and ``stage`` to election; ``seats`` to the
    file's ``Vote For``, else 1; ``year`` to the year of the file's date.
    """
    if year is not None and not _FIRST_YEAR <= year <= _LAST_YEAR:
        raise ImportResultsError(
            f"--year: expected an election year from {_FIRST_YEAR} to {_LAST_YEAR}; found {year}"
        )
    chosen_method = _choice(Method, method, Method.PLURALITY, "--method")
    chosen_stage = _choice(Stage, stage, Stage.ELECTION, "--stage")
    if chosen_stage is Stage.PRIMARY and chosen_method not in (Method.PARTISAN, Method.PRIMARY):
        # (the scenario's loader said so of contests[0].stage, a field nobody wrote)
        given = "" if method is not None else " (the default)"
        raise ImportResultsError(
            "--stage primary: expected --method partisan or nonpartisan-primary with it (only "
            f"they have a primary); found --method {chosen_method.value}{given}"
        )
    results = read_results(path, encoding=encoding, max_bytes=max_bytes)
    returns = results.find(contest)
    if returns.clash:
        raise ImportResultsError(returns.clash)
    doc = build_scenario_dict(
        returns,
        day=results.day
        if year is None or results.day is None or results.day.year == year
        else None,
        year=year,
        seats=seats,
        method=chosen_method,
        stage=chosen_stage,
        source=Path(path).name,
    )
    return _scenario_from_dict(doc, f"<import of {path}>")


ChoiceT = TypeVar("ChoiceT", Method, Stage)


def _choice(
    kind: type[ChoiceT], value: ChoiceT | str | None, default: ChoiceT, option: str
) -> ChoiceT:
    """A closed-vocabulary option (``--method``, ``--stage``) from its documented string."""
    if value is None:
        return default
    try:
        return kind(value)
    except ValueError:
        raise ImportResultsError(
            f"{option}: expected one of {', '.join(k.value for k in kind)}; found {value!r}"
        ) from None
