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

import difflib
import functools
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date, time, timedelta
from pathlib import Path
from typing import TypeVar

import attrs

from simulator.engine.state import stage_day
from simulator.input.files import MAX_INPUT_BYTES
from simulator.input.loader import structure
from simulator.input.results_rows import read_rows
from simulator.law import calendar as cal
from simulator.law.vocab import DeadlineKind, Method, Stage, is_partisan_primary
from simulator.model.errors import ImportResultsError
from simulator.model.events import WRITE_IN_GENERIC, is_write_in
from simulator.model.scenario import Contest, Scenario

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


def _names_of(results: ResultsFile) -> tuple[str, ...]:
    return tuple(c.name for c in results.contests)


@attrs.frozen
class ResultsFile:
    """A whole results file: its layout, its election day (if it tells) and its contests.

    ``names`` are the names of every contest read, in file order: by default those of
    ``contests``; an import keeps the returns of one contest only, and the names of all, for
    the close matches of a name that matches none."""

    path: str
    layout: str
    day: date | None
    contests: tuple[ContestReturns, ...]
    names: tuple[str, ...] = attrs.field(
        default=attrs.Factory(_names_of, takes_self=True), repr=False
    )

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
            f"{name!r}, which matches none and nothing close ({len(self.names)} contests "
            f"in the file). Fix: {fix}"
        )

    def close_matches(self, name: str, *, n: int = 8) -> list[str]:
        """Contest names that look like ``name``: difflib's close matches, then the names that
        contain it."""
        key = contest_key(name)
        by_key: dict[str, str] = {}
        for contest in self.names:
            by_key.setdefault(contest_key(contest), contest)
        close = difflib.get_close_matches(key, list(by_key), n=n, cutoff=0.6)
        words = key.split()
        within = [
            k for k in by_key if k not in close and words and all(w in k.split() for w in words)
        ]
        return [by_key[k] for k in [*close, *within][:n]]


# ---------------------------------------------------------------------------------------------
# Reading: what is kept of the rows (simulator.input.results_rows reads them)


class _Rows:
    """What a reading keeps of the rows it is given, and the checks every reading makes.

    This base keeps, in memory bounded by the contests and their candidates (never by the
    rows or the reporting units): every contest's name in file order, its seats (``Vote
    For``), and the names written in the run of rows of the current reporting unit. A
    candidate's second row in one unit is refused (summing it would count a repeated row
    twice; real files have one row per candidate and unit, and two spellings of one name, like
    the miscellaneous write-ins written both ways, are rows of their own and are summed). This
    base finds a repeated row among the rows of its unit's current run: real files give each
    unit's rows together (county, precinct, contest, candidate), so a repeat within them is
    found wherever it is; a repeat after another unit's rows came between is found only where
    the contest's reporting units are kept (:class:`_Builder`).
    """

    def __init__(self) -> None:
        self.names: dict[str, None] = {}  # every contest read, in file order
        self.seats: dict[str, int] = {}
        self._unit: str | None = None  # the reporting unit of the current run of rows
        self._run: set[tuple[str, str]] = set()  # (contest, name as written) in the run

    def add(
        self, contest: str, unit: str, candidate: str, votes: int, party: str, path: Path, line: int
    ) -> None:
        """Add the row on ``line`` of ``path``."""
        written = " ".join(candidate.split())
        if unit != self._unit:
            self._unit = unit
            self._run.clear()
        seen = (contest, written)
        if seen in self._run:
            raise _repeated(candidate, unit, path, line)
        self._run.add(seen)
        self.names[contest] = None
        self._take(contest, unit, candidate, written, votes, party, path, line)

    def _take(
        self,
        contest: str,
        unit: str,
        candidate: str,
        written: str,
        votes: int,
        party: str,
        path: Path,
        line: int,
    ) -> None:
        """What a subclass keeps of a row that passed the checks."""

    def vote_for(self, contest: str, seats: int, path: Path, line: int) -> None:
        """A row's ``Vote For``: the same on every row of the contest (0 says nothing)."""
        known = self.seats.get(contest)
        if known is not None and seats != known:
            raise ImportResultsError(
                f"{path}:{line}: Vote For: expected {known}, as on the contest's rows "
                f"before; found {seats}"
            )
        if seats >= 1:
            self.seats.setdefault(contest, seats)


def _repeated(candidate: str, unit: str, path: Path, line: int) -> ImportResultsError:
    return ImportResultsError(
        f"{path}:{line}: expected one row per candidate in each precinct; found "
        f"{candidate!r} again in {unit!r} (as {canonical_candidate(candidate)!r}): remove the "
        "repeated row"
    )


class _Summaries(_Rows):
    """Rows in, ``--list`` out: per contest only its candidates' names and its votes (no
    reporting unit is kept, so the memory is bounded by the contests and their candidates)."""

    def __init__(self) -> None:
        super().__init__()
        self.candidates: dict[str, dict[str, None]] = {}  # canonical names, by contest
        self.votes: dict[str, int] = {}

    def _take(
        self,
        contest: str,
        unit: str,
        candidate: str,
        written: str,
        votes: int,
        party: str,
        path: Path,
        line: int,
    ) -> None:
        names = self.candidates.get(contest)
        if names is None:
            names = self.candidates[contest] = {}
            self.votes[contest] = 0
        names[canonical_candidate(candidate)] = None
        self.votes[contest] += votes

    def summaries(self) -> list[ContestSummary]:
        out = []
        for contest in self.names:
            names = self.candidates[contest]
            write_ins = sum(1 for name in names if is_write_in(name))
            out.append(
                ContestSummary(
                    name=contest,
                    candidates=len(names) - write_ins,
                    write_ins=write_ins,
                    total_votes=self.votes[contest],
                    seats=self.seats.get(contest),
                )
            )
        return out


class _Builder(_Rows):
    """Rows in, contests out, keeping the file's order of contests, units and candidates.

    With ``only``, just the rows of the contests whose names it accepts are kept (the others'
    rows are checked as :class:`_Rows` checks them, and their names kept): an import keeps the
    reporting units of the one contest it imports. Of a contest it keeps, a candidate's second
    row in one unit is refused wherever it is in the file, and the first name written in two
    letter cases is noted: refused when that contest is imported (listing the file, or reading
    other contests, is not stopped by it; real files write a referendum's choices No and NO).
    """

    def __init__(self, only: Callable[[str], bool] | None = None) -> None:
        super().__init__()
        self.units: dict[str, dict[str, dict[str, int]]] = {}
        self.parties: dict[str, dict[str, str]] = {}
        self.rows: dict[tuple[str, str], set[str]] = {}  # the names written, by contest and unit
        #: each name of a contest as first written, by its letters in one case, and its line
        self.spellings: dict[tuple[str, str], tuple[str, int]] = {}
        self.clashes: dict[str, str] = {}  # contest -> the first name written in two cases
        self._only = only
        self._kept: dict[str, bool] = {}  # only's answer, by contest

    def add(
        self, contest: str, unit: str, candidate: str, votes: int, party: str, path: Path, line: int
    ) -> None:
        if self._only is None:  # (every contest kept: the checks below are the run's and more)
            self.names[contest] = None
            self._take(
                contest, unit, candidate, " ".join(candidate.split()), votes, party, path, line
            )
            return
        super().add(contest, unit, candidate, votes, party, path, line)

    def _take(
        self,
        contest: str,
        unit: str,
        candidate: str,
        written: str,
        votes: int,
        party: str,
        path: Path,
        line: int,
    ) -> None:
        if self._only is not None:
            kept = self._kept.get(contest)
            if kept is None:
                kept = self._kept[contest] = self._only(contest)
            if not kept:
                return
        counts = self.units.setdefault(contest, {}).setdefault(unit, {})
        seen = self.rows.setdefault((contest, unit), set())
        if written in seen:
            raise _repeated(candidate, unit, path, line)
        seen.add(written)
        first = self.spellings.setdefault((contest, written.casefold()), (written, line))
        if first[0] != written and contest not in self.clashes:
            self.clashes[contest] = (
                f"{path}:{line}: expected one spelling of each candidate's name in {contest!r}: "
                f"{first[0]!r} on line {first[1]} differs from this one only in letter case; "
                f"found {written!r}"
            )
        name = canonical_candidate(candidate)
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
    once their contest's name is read (their other cells are not read or checked).

    Every reporting unit of every contest kept is held in memory: :func:`list_contests` and
    :func:`import_results` hold less."""
    builder = _Builder()
    layout, day = read_rows(path, builder, encoding=encoding, max_bytes=max_bytes, keep=keep)
    return ResultsFile(str(path), layout, day, builder.contests())


def list_contests(
    path: str | os.PathLike[str], *, encoding: str = "utf-8", max_bytes: int = MAX_INPUT_BYTES
) -> list[ContestSummary]:
    """The contests in a results file, in file order: name, candidates, votes and seats.

    The file is read as :func:`read_results` reads it, keeping per contest only its
    candidates' names, its votes and its seats: the memory is bounded by the contests and
    their candidates, however many rows and reporting units the file has. It refuses what
    :func:`read_results` refuses, but for a candidate's second row in one reporting unit after
    other units' rows came between (:class:`_Rows`); a name written in two letter cases does
    not stop it (an import of that contest is refused)."""
    summaries = _Summaries()
    read_rows(path, summaries, encoding=encoding, max_bytes=max_bytes)
    return summaries.summaries()


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

    Every row of the file is read and checked, but only the rows of the contest (or contests)
    named ``contest`` are kept, with the names of the others for the close matches: the memory
    is that contest's reporting units, not the file's. A candidate's second row in one unit is
    found wherever it is in that contest, and in the others within their unit's run of rows
    (as :func:`list_contests` finds it).
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
    key = contest_key(contest)
    builder = _Builder(only=lambda name: contest_key(name) == key)
    layout, day = read_rows(path, builder, encoding=encoding, max_bytes=max_bytes)
    # (the names of every contest, for the close matches when none or several are this one)
    results = ResultsFile(str(path), layout, day, builder.contests(), names=tuple(builder.names))
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
