"""Conformance: the engine against what happened in North Carolina's runoff towns, 2011-2025.

``electsim conformance [--data DIR] [--markdown]`` takes every October contest of the towns that
elect by the election-and-runoff method (G.S. 163-293; the list is the data README's, from
Ballotpedia 2019), imports its returns, replays them as a nonpartisan-runoff contest with the
whole story (no runoff requests) and compares the engine's verdict with the November file of the
same year:

* the engine finds a majority for every seat -> there must be no runoff for that office in
  November;
* the engine finds no majority -> the leader(s) are declared elected unless a runner-up requests a
  runoff (``runoff_available``). If a runoff was held in November, its candidates must be the
  leader(s) and runner(s)-up the engine made eligible: the November runoff is replayed through
  the engine (the November candidates' requests, then the November returns as runoff votes) and
  the engine's runoff ballot must be the November ballot; if none was held, the engine's leader
  is the winner;
* a tie for first -> G.S. 163-293(d)(1) wants a recount; the data's totals are taken as the
  recount's, and then a runoff between the tied follows unless one withdraws.

Seat counts come from :mod:`simulator.input.seats`; an office it does not know is marked "seat count
unknown" and not judged. October and November contests are paired by office name, normalised
(:func:`office_key`: case, punctuation, ``(RUNOFF)``, zero-padded ward numbers); candidates by
name (:func:`same_person`: spelling of initials, middle names, suffixes and nicknames).

The calendar check (:func:`calendar_checks`) compares the dates the data implies (each file's
``YYYYMMDD``: September = partisan primary, October = runoff-method first election and
nonpartisan primary, November = general election) and the State Board's published calendars
with :mod:`simulator.law.calendar`.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable, Sequence
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import attrs

from simulator.input.importer import (
    ContestReturns,
    ResultsFile,
    build_scenario_dict,
    contest_key,
    read_results,
    returns_events,
    split_contest_name,
)
from simulator.input.seats import seats_for, single_office
from simulator.law.vocab import Method
from simulator.model.errors import ImportResultsError
from simulator.model.events import is_write_in

__all__ = [
    "METHODS",
    "TOWNS",
    "CalendarCheck",
    "Check",
    "Report",
    "calendar_checks",
    "find_data_dir",
    "format_report",
    "format_summary",
    "match_contest",
    "office_key",
    "run_conformance",
    "same_person",
    "summary_rows",
]

#: The towns that used the election-and-runoff method in 2019 (data README, from Ballotpedia).
TOWNS: tuple[str, ...] = (
    "Atlantic Beach",
    "Cary",
    "Dobbins Heights",
    "Dunn",
    "Elizabeth City",
    "Erwin",
    "Henderson",
    "Monroe",
    "Raleigh",
    "Rocky Mount",
    "Statesville",
)

FIRST_YEAR, LAST_YEAR = 2011, 2025
_FILE = re.compile(r"^((?:19|20)\d{2})(\d{2})(\d{2})__")
_NOT_OFFICES = re.compile(
    r"\b(BONDS?|REFERENDUM|REFERENDA|QUESTION|SALES|TAX|BEVERAGE)\b", re.IGNORECASE
)

#: What the data cannot show, for the contests whose November record disagrees with the engine
#: (or needs a word): (town, year, office key) -> explanation. Each is checked by the tests to
#: cover every disagreement the shared data produces.
EXPLANATIONS: dict[tuple[str, int, str], str] = {
    ("Elizabeth City", 2011, "CITY OF ELIZABETH CITY COUNCILMAN 3RD WARD"): (
        "A reading of G.S. 163-293(b)(2), not arithmetic. Two seats, 852 votes: a majority is "
        "more than 213, and Kem Spence has 212 (the rows include the one-stop, absentee and "
        "provisional units, so the count looks final), so nobody is elected by majority; Spence "
        "and Brooks lead, Stallings and Boone may request. Under reading 5 a request by "
        "Stallings puts every remaining leader on the ballot: Spence, Brooks, Stallings for two "
        "seats. The November runoff was Brooks against Stallings only, without Spence: the "
        "board evidently declared Spence elected and gave the requester one runoff place "
        "against the lowest leader (one seat), a reading the statute's wording allows and "
        "the engine offers as the switch `group_runoff_ballot: pairwise` (replayed with it, "
        "the engine seats Spence and calls Brooks against Stallings, as happened). The only "
        "other explanation, a certified count two votes higher for Spence than this "
        "uncertified conversion, the data cannot show."
    ),
}

#: Why a town's contests are (or stop being) October runoff-method contests.
TOWN_NOTES: dict[str, str] = {
    "Atlantic Beach": (
        "October first elections 2011-2017; from 2019 its mayor and council are elected in "
        "November with no October election: the town now uses the nonpartisan plurality "
        "method (UNC School of Government, Forms of Government database: 'Plurality'). The "
        "data README's 2019 list (Ballotpedia) is out of date for it."
    ),
    "Monroe": (
        "October first elections 2011-2015 (the 2011 November council runoff proves the "
        "method). Monroe amended its charter in 2016 (Am. Ord. 2016-11, citing G.S. 163-292, "
        "the plurality method, though its text still says 'election and runoff'): from 2017 "
        "its mayor and council are elected in November only, with no October round and with "
        "write-ins on the ballot: plurality elections, not runoffs, and not checked."
    ),
    "Raleigh": (
        "October first elections 2011-2019; its 2021 election was moved to November 2022 "
        "(census delay) and Raleigh then moved to even-year November plurality elections."
    ),
    "Cary": (
        "October first elections 2011-2023; the 2021 election moved to March 2022 (census "
        "delay). In 2025 its council contests are in the November file with no October "
        "election: Cary no longer held an election-and-runoff first election."
    ),
    "Statesville": (
        "October first elections 2011-2023; 2021 moved to 2022 (census delay); in 2025 its "
        "contests are in the November file only, with no October election."
    ),
}


# ---------------------------------------------------------------------------------------------
# Names


@functools.lru_cache(maxsize=1 << 16)  # one key per contest name, not one per pairing tried
def office_key(name: str) -> str:
    """A contest name for pairing an October contest with its November runoff.

    >>> office_key("CITY OF ROCKY MOUNT CITY COUNCIL WARD 07 (RUNOFF)")
    'CITY OF ROCKY MOUNT CITY COUNCIL WARD 7'
    >>> office_key("City of Henderson Alderman - Ward 3")
    'CITY OF HENDERSON ALDERMAN WARD 3'
    """
    text = name.upper()
    text = re.sub(r"\(\s*(?:RUNOFF|RUN-OFF|SECOND ELECTION)\s*\)", " ", text)
    text = re.sub(r"\b(?:RUNOFF|RUN-OFF)(?: ELECTION)?\b", " ", text)
    text = re.sub(r"[^A-Z0-9()]+", " ", text)
    text = re.sub(r"\b0+(\d)", r"\1", text)
    return " ".join(text.split())


_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv", "v"})


@functools.lru_cache(maxsize=1 << 14)  # each name is compared with several others
def _person(name: str) -> tuple[str, ...]:
    name = re.sub(r"\([^)]*\)", " ", name)  # nicknames, and the (Write-In) mark
    return tuple(t for t in re.findall(r"[a-z]+", name.casefold()) if t not in _SUFFIXES)


def _given(x: str, y: str) -> bool:
    """Two given names agree: equal, an initial of the other, or one a short form (Rob,
    Robert)."""
    return x.startswith(y) or y.startswith(x)


def same_person(a: str, b: str) -> bool:
    """Whether two spellings in results files name the same candidate: the same surname and a
    given name in common (an initial matches its name), ignoring punctuation, suffixes and
    nicknames in parentheses.

    >>> same_person("J. D. Williams", "J.D. Williams")
    True
    >>> same_person("Harry Archer III", "Harry Archer")
    True
    >>> same_person("Michael E. Brooks", "Michael Brooks"), same_person("Billy Tart", "Bob Tart")
    (True, False)
    """
    if contest_key(a) == contest_key(b):
        return True
    ta, tb = _person(a), _person(b)
    if len(ta) < 2 or len(tb) < 2 or ta[-1] != tb[-1]:
        return False
    return any(_given(x, y) for x in ta[:-1] for y in tb[:-1])


def match_contest(october: str, november: Iterable[ContestReturns]) -> list[ContestReturns]:
    """The November contests with the same office as the October contest ``october``."""
    key = office_key(october)
    if isinstance(november, tuple):  # a file's contests: indexed by office once
        held = _BY_OFFICE.get(id(november))
        if held is None or held[0] is not november:
            index: dict[str, list[ContestReturns]] = {}
            for c in november:
                index.setdefault(office_key(c.name), []).append(c)
            held = _BY_OFFICE[id(november)] = (november, index)
        return list(held[1].get(key, ()))
    return [c for c in november if office_key(c.name) == key]


#: id of a file's tuple of contests -> (that tuple, its contests by office key)
_BY_OFFICE: dict[int, tuple[tuple[ContestReturns, ...], dict[str, list[ContestReturns]]]] = {}


def town_of(contest_name: str, towns: Sequence[str]) -> str | None:
    """Which of ``towns`` a contest belongs to (CITY/TOWN/VILLAGE OF that town), if any."""
    return _town_of(contest_name, tuple(towns))


@functools.lru_cache(maxsize=1 << 14)  # each contest name is looked at by several checks
def _town_of(contest_name: str, towns: tuple[str, ...]) -> str | None:
    municipality, _ = split_contest_name(contest_name)
    if not municipality:
        return None
    place = re.sub(r"^(?:city|town|village) of ", "", municipality, flags=re.IGNORECASE)
    for town in towns:
        if place.casefold() == town.casefold():
            return town
    return None


def _is_office(returns: ContestReturns) -> bool:
    if _NOT_OFFICES.search(returns.name):
        return False
    names = {c.casefold() for c in returns.candidates}
    return not names or not names <= {"yes", "no", "for", "against"}


# ---------------------------------------------------------------------------------------------
# Results


#: How a check's ``agree`` reads in the report.
STATUS: dict[bool | None, str] = {True: "agree", False: "DISAGREE", None: "n/a"}


@attrs.frozen
class Check:
    """One October contest: the engine's verdict, what November shows, and whether they agree.

    ``agree`` is True, False, or None when the contest cannot be judged (no November file, no
    seat count).
    """

    town: str
    year: int
    contest: str
    office: str
    seats: int | None
    seat_source: str
    total: int
    threshold: str
    verdict: str  # majority | no majority | tie | unopposed | seat count unknown | ...
    engine: str  # what the engine declares, in words
    leaders: tuple[str, ...] = ()
    eligible: tuple[str, ...] = ()
    november: str = ""
    agree: bool | None = None
    explanation: str = ""

    @property
    def status(self) -> str:
        return STATUS[self.agree]


@attrs.frozen
class CalendarCheck:
    """One date the data or the State Board publishes, against :mod:`simulator.law.calendar`."""

    what: str
    source: str
    published: date  # a day, or a moment (a datetime) for the filing period's noon
    computed: date
    rule: str

    @property
    def agree(self) -> bool:
        return self.published == self.computed


@attrs.frozen
class Report:
    checks: tuple[Check, ...]
    calendar: tuple[CalendarCheck, ...]
    november_only: tuple[tuple[str, int, str, str], ...]  # town, year, contest, note
    data_dir: str

    @property
    def judged(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if c.agree is not None)

    @property
    def agreements(self) -> int:
        return sum(1 for c in self.checks if c.agree is True)

    @property
    def disagreements(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if c.agree is False)


# ---------------------------------------------------------------------------------------------
# Finding the data


#: The environment variable naming the folder of results files (see :func:`find_data_dir`).
DATA_ENV = "ELECTSIM_DATA"


def find_data_dir(given: str | Path | None = None) -> Path | None:
    """The folder of results files: ``given`` (the data folder or its ``nc-results``), else
    the folder named by the ``ELECTSIM_DATA`` environment variable, else ``../shared/data``
    beside the project (or the working directory). None when there is no such folder."""
    if given is None and os.environ.get(DATA_ENV):
        given = os.environ[DATA_ENV]
    if given is not None:
        candidates = [Path(given)]
    else:
        root = Path(__file__).resolve().parents[2]
        candidates = [
            root.parent / "shared" / "data",
            Path.cwd().parent / "shared" / "data",
            Path.cwd() / "shared" / "data",
        ]
    for base in candidates:
        for folder in (base / "nc-results", base):
            if folder.is_dir() and any(_FILE.match(p.name) for p in folder.iterdir()):
                return folder
    return None


def _month_files(folder: Path) -> dict[tuple[int, int], list[Path]]:
    """(year, month) -> the results files of that month, by name, from the ``YYYYMMDD__``
    file names."""
    out: dict[tuple[int, int], list[Path]] = {}
    for p in sorted(folder.iterdir()):
        m = _FILE.match(p.name)
        if m and p.is_file():
            out.setdefault((int(m.group(1)), int(m.group(2))), []).append(p)
    return out


def _files(folder: Path) -> dict[tuple[int, int], Path]:
    """(year, month) -> results file (the first by name: ``electsim conformance`` refuses a
    folder with two for one month)."""
    return {k: v[0] for k, v in _month_files(folder).items()}


def _file_day(path: Path) -> date:
    m = _FILE.match(path.name)
    assert m is not None
    return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))


# ---------------------------------------------------------------------------------------------
# Replaying


def _replay(doc: dict[str, Any]) -> Any:
    from simulator.engine.replay import replay
    from simulator.input.loader import structure

    scenario = structure(doc, source="<conformance>")
    return replay(scenario).contests[0]


def _at(day: date, hour: int, minute: int = 0) -> str:
    from simulator.law.calendar import local

    return local(day, time(hour, minute)).isoformat()


def _runoff_events(
    doc: dict[str, Any],
    requests: Sequence[str],
    nov: ContestReturns | None,
    names: dict[str, str],
    nov_day: date,
    *,
    recount: bool,
) -> dict[str, Any]:
    """``doc`` with what happened after the October canvass: the data's totals confirmed by a
    recount (a tie), the runoff requests, and the November returns as runoff votes."""
    events: list[dict[str, Any]] = list(doc["events"])
    canvass = datetime.fromisoformat(str(events[-1]["at"]))
    if recount:
        totals: dict[str, int] = {}
        for ev in events:
            if ev["type"] == "returns_reported":
                for name, votes in ev["counts"].items():
                    totals[name] = totals.get(name, 0) + votes
        events.append(
            {
                "type": "recount_held",
                "at": (canvass + timedelta(days=1)).isoformat(),
                "counts": totals,
            }
        )
    declared = canvass + timedelta(days=1) if recount else canvass  # the log stays in order
    for name in requests:
        events.append(
            {
                "type": "runoff_requested",
                "at": (declared + timedelta(hours=3)).isoformat(),
                "candidate": name,
            }
        )
    if nov is not None:
        events.extend(returns_events(nov.precincts, nov_day, ballot_names=names))
    return {**doc, "events": events}


def _kind(result: Any, name: str) -> list[Any]:
    return [r for r in result.rulings if r.kind.value == name]


def _threshold(result: Any) -> str:
    found = _kind(result, "majority_threshold")
    return str(found[0].get("threshold")) if found else ""


def _majority_winners(result: Any) -> tuple[str, ...]:
    out: list[str] = []
    for r in _kind(result, "elected"):
        if any(c.section == "163-293" and c.sub.startswith("(a)") for c in r.cites):
            out.extend(r.candidates)
    return tuple(out)


def _names(names: Iterable[str]) -> str:
    return ", ".join(names) or "nobody"


# ---------------------------------------------------------------------------------------------
# Checking one contest


def _check(
    town: str,
    year: int,
    returns: ContestReturns,
    oct_day: date,
    november: ResultsFile | None,
    nov_day: date | None,
) -> Check:
    _, office = split_contest_name(returns.name)
    rule = seats_for(town, returns.name, year)
    if rule is None and town not in TOWNS:  # the listed towns' offices all have sourced rules
        rule = single_office(town, office)
    base = Check(
        town=town,
        year=year,
        contest=returns.name,
        office=office,
        seats=None,
        seat_source="",
        total=returns.total,
        threshold="",
        verdict="seat count unknown",
        engine="not replayed: the data has no seat count and the table none",
        explanation="seat count unknown: add it to simulator/input/seats.py with a source",
    )
    if rule is None:
        return base
    doc = build_scenario_dict(
        returns,
        day=oct_day,
        seats=rule.seats,
        method=Method.RUNOFF,
        source=f"{oct_day:%Y%m%d} results",
    )
    result = _replay(doc)
    threshold = _threshold(result)
    majority = _majority_winners(result)
    recount = _kind(result, "recount_required")
    available = _kind(result, "runoff_available")
    tied: tuple[str, ...] = ()
    if recount:
        tied = tuple(recount[0].candidates)
        after = _replay(_runoff_events(doc, (), None, {}, oct_day, recount=True))
        eligible = tuple(after.outcome.runoff_candidates) or tied
        leaders: tuple[str, ...] = ()
        verdict = "tie"
        engine = f"tie for first, {' = '.join(tied)}: recount, then a runoff between them"
    elif available:
        eligible = tuple(available[0].candidates)
        leaders = tuple(n for n in result.outcome.elected if n not in majority)
        verdict = "no majority"
        engine = (
            f"majority: {_names(majority)}; " if majority else ""
        ) + f"no majority: {_names(leaders)} leads; runoff available to {_names(eligible)}"
    else:
        eligible, leaders = (), ()
        verdict = "unopposed" if len(returns.filers) <= rule.seats else "majority"
        engine = (
            f"majority: {_names(result.outcome.elected)}"
            if verdict == "majority"
            else f"elected unopposed: {_names(result.outcome.elected)}"
        )
        if result.outcome.pending is not None:
            verdict = f"pending {result.outcome.pending.value}"
            engine = f"{engine}; still waiting for: {result.outcome.pending.value}"
    base = attrs.evolve(
        base,
        seats=rule.seats,
        seat_source=rule.source,
        threshold=threshold,
        verdict=verdict,
        engine=engine,
        leaders=leaders,
        eligible=eligible,
        explanation="",
    )
    known = EXPLANATIONS.get((town, year, office_key(returns.name)), "")

    if november is None or nov_day is None:
        return attrs.evolve(
            base,
            november="no November file",
            agree=None,
            explanation=known
            or (
                "the November file of this year is missing from the data (2013-11-05 is not in "
                "the conversion): whether a runoff was held cannot be checked"
            ),
        )
    runoffs = match_contest(returns.name, november.contests)
    if not runoffs:
        if verdict in ("majority", "unopposed"):
            return attrs.evolve(base, november="no runoff", agree=True, explanation=known)
        if verdict == "no majority":
            return attrs.evolve(
                base,
                november="no runoff",
                agree=True,
                explanation=known
                or (
                    f"no runoff was held, so {_names(leaders)} elected, as the engine declares "
                    "when the request deadline passes unused"
                ),
            )
        return attrs.evolve(
            base,
            november="no runoff",
            agree=False,
            explanation=known
            or (
                "the engine calls a runoff between the tied candidates unless one withdraws: none "
                "was held, so one withdrew or the recount broke the tie (the data cannot show "
                "either)"
            ),
        )
    nov = runoffs[0]
    october_names = returns.candidates
    names: dict[str, str] = {}
    for name in nov.filers:
        same = [o for o in october_names if not is_write_in(o) and same_person(o, name)]
        names[name] = same[0] if len(same) == 1 else name
    ballot = tuple(names[n] for n in nov.filers)
    totals = nov.totals
    shown = ", ".join(f"{names.get(n, n)} {v}" for n, v in totals.items())
    november_text = f"runoff: {shown}"
    write_ins = [n for n in nov.candidates if is_write_in(n)]
    if verdict in ("majority", "unopposed"):
        return attrs.evolve(
            base,
            november=november_text,
            agree=False,
            explanation=known
            or (
                "the engine found a majority but November has a contest for the same office"
                + (
                    "; it has write-ins, so it looks like an election after a nonpartisan primary, "
                    "not a runoff"
                    if write_ins
                    else ""
                )
            ),
        )
    requests = [n for n in ballot if n in eligible and n not in leaders]
    after = _replay(_runoff_events(doc, requests, nov, names, nov_day, recount=verdict == "tie"))
    engine_ballot = tuple(after.outcome.runoff_candidates)
    winners = tuple(after.outcome.elected)
    same_ballot = set(engine_ballot) == set(ballot)
    outsiders = [n for n in ballot if n not in eligible and n not in leaders]
    if same_ballot:
        top = [names.get(n, n) for n in totals if not is_write_in(n)][:1]
        elected = [w for w in winners if w in ballot]
        explanation = known or (
            f"the runoff ballot is the engine's ({_names(engine_ballot)}); replaying the "
            f"November returns through it the engine elects {_names(elected)}"
            + ("" if elected == top else f", not {_names(top)} (check the runoff count)")
        )
    else:
        explanation = known or (
            f"the engine's runoff ballot would be {_names(engine_ballot)}, November's was "
            f"{_names(ballot)}"
            + (f"; {_names(outsiders)} were not eligible" if outsiders else "")
            + (
                "; the November contest has write-ins, unlike a runoff ballot (G.S. "
                "163-293(b)): perhaps a general election after a nonpartisan primary"
                if write_ins
                else ""
            )
        )
    return attrs.evolve(base, november=november_text, agree=same_ballot, explanation=explanation)


# ---------------------------------------------------------------------------------------------
# The whole run


def results_file(path: str | os.PathLike[str]) -> ResultsFile:
    """:func:`read_results`, once per file and version, its municipal contests only: the
    runoff check, its unlisted towns and the primaries read the same files (a changed file is
    read again)."""
    key = _file_key(path)
    found = _READ.get(key)
    if found is None:
        if len(_READ) >= 64:
            _READ.clear()
        found = _READ[key] = _read_municipal(key[0])
    return found


#: the results files read, by path, modification time and size
_READ: dict[tuple[str, int, int], ResultsFile] = {}


def _file_key(path: str | os.PathLike[str]) -> tuple[str, int, int]:
    st = os.stat(path)
    return os.fspath(path), st.st_mtime_ns, st.st_size


def _read_municipal(path: str) -> ResultsFile:
    # every check looks at municipal contests only (CITY/TOWN/VILLAGE OF ...): the rest of a
    # statewide file (nine rows in ten) is passed over as it is read
    return read_results(path, keep=_municipal)


def _read_quietly(path: str) -> ResultsFile | None:
    """A results file read in a helper process; None where it cannot be read (the run reads
    it again itself, and says what is wrong)."""
    try:
        return _read_municipal(path)
    except Exception:  # said where the run reads it again
        return None


def read_ahead(paths: Iterable[str | os.PathLike[str]]) -> None:
    """Read the results files a run is about to read, half of them in one more process while
    this one reads the others (the largest first, alternately): what the run then asks
    :func:`results_file` for is read already. Only where processes can be forked and there
    are two processors or more; otherwise (and for a file the helper could not read) each
    file is read when it is first asked for, as before."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    keys = sorted({k for k in map(_file_key, paths) if k not in _READ}, key=lambda k: (-k[2], k[0]))
    if len(keys) < 2 or (os.cpu_count() or 1) < 2:
        return
    if "fork" not in multiprocessing.get_all_start_methods():
        return
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        theirs = [(k, pool.submit(_read_quietly, k[0])) for k in keys[0::2]]
        for k in keys[1::2]:
            mine = _read_quietly(k[0])
            if mine is not None:
                _READ[k] = mine
        for k, future in theirs:
            found = future.result()
            if found is not None:
                _READ[k] = found


@functools.lru_cache(maxsize=1 << 14)
def _municipal(contest_name: str) -> bool:
    return bool(split_contest_name(contest_name)[0])


def run_conformance(
    data_dir: str | Path | None = None,
    *,
    towns: Sequence[str] = TOWNS,
    years: Iterable[int] = range(FIRST_YEAR, LAST_YEAR + 1),
    elections_only: bool = False,
) -> Report:
    """Check every October contest of ``towns`` in ``years`` against November (see the module
    docstring); with ``elections_only``, only the contests the data shows to be elections, not
    primaries (:func:`simulator.analysis.conformance_primaries.october_kind`), for towns whose
    method
    changed. Raises :class:`ImportResultsError` when there is no data folder."""
    from simulator.analysis.conformance_primaries import OctoberKind, october_kind

    folder = find_data_dir(data_dir)
    if folder is None:
        where = data_dir if data_dir is not None else "../shared/data"
        raise ImportResultsError(
            f"--data: expected a folder of results files named YYYYMMDD__... (or its "
            f"nc-results/); found none at {where}"
        )
    files = _files(folder)
    checks: list[Check] = []
    november_only: list[tuple[str, int, str, str]] = []
    for year in years:
        october = files.get((year, 10))
        november = files.get((year, 11))
        oct_results = results_file(october) if october else None
        nov_results = results_file(november) if november else None
        paired: set[str] = set()
        if oct_results is not None and october is not None:
            oct_day = _file_day(october)
            for returns in oct_results.contests:
                town = town_of(returns.name, towns)
                if town is None or not _is_office(returns):
                    continue
                if elections_only and october_kind(returns)[0] is not OctoberKind.ELECTION:
                    continue
                check = _check(
                    town,
                    year,
                    returns,
                    oct_day,
                    nov_results,
                    _file_day(november) if november else None,
                )
                checks.append(check)
                if nov_results is not None:
                    paired.update(c.name for c in match_contest(returns.name, nov_results.contests))
        if nov_results is not None:
            for returns in nov_results.contests:
                town = town_of(returns.name, towns)
                if town is None or not _is_office(returns) or returns.name in paired:
                    continue
                note = TOWN_NOTES.get(town, "")
                november_only.append(
                    (
                        town,
                        year,
                        returns.name,
                        note or ("a November contest with no October first election: not a runoff"),
                    )
                )
    return Report(tuple(checks), tuple(calendar_checks(folder)), tuple(november_only), str(folder))


# ---------------------------------------------------------------------------------------------
# The calendar


_NY = ZoneInfo("America/New_York")
#: The State Board's published municipal calendars (data README): year -> dates. Filing opens
#: and closes at noon: those are moments, compared with the calendar's to the minute.
PUBLISHED: dict[int, dict[str, date]] = {
    2019: {
        "filing_opens": datetime(2019, 7, 5, 12, 0, tzinfo=_NY),
        "filing_closes": datetime(2019, 7, 19, 12, 0, tzinfo=_NY),
        "partisan_primary": date(2019, 9, 10),
        "first_election": date(2019, 10, 8),
        "november": date(2019, 11, 5),
    },
    2023: {
        "filing_opens": datetime(2023, 7, 7, 12, 0, tzinfo=_NY),
        "filing_closes": datetime(2023, 7, 21, 12, 0, tzinfo=_NY),
        "partisan_primary": date(2023, 9, 12),
        "first_election": date(2023, 10, 10),
        "november": date(2023, 11, 7),
    },
}


def _computed(year: int, what: str) -> list[tuple[date, str]]:
    """What :mod:`simulator.law.calendar` says of one kind of date: (date, function and rule) for
    every function that gives it."""
    from simulator.law import calendar as cal

    out: list[tuple[date, str]] = []
    if what in ("filing_opens", "filing_closes"):
        for method in (Method.RUNOFF, Method.PARTISAN):
            opens, closes = cal.filing_period(year, calendar=cal.OfficeCalendar(), method=method)
            d = opens if what == "filing_opens" else closes
            out.append((d.due, f"filing_period({method.value}): {d.how}, {d.cite}"))
        return out
    if what == "partisan_primary":
        return [
            (
                cal.primary_day(year, Method.PARTISAN) or date.min,
                "primary_day(partisan): second Tuesday after Labor Day, G.S. 163-279(a)(2)",
            )
        ]
    if what == "first_election":
        rule = "fourth Tuesday before the November election"
        out += [
            (
                cal.first_election_day(year, Method.RUNOFF),
                f"first_election_day(nonpartisan-runoff): {rule}, G.S. 163-279(a)(4)",
            ),
            (
                cal.primary_day(year, Method.PRIMARY) or date.min,
                f"primary_day(nonpartisan-primary): {rule}, G.S. 163-279(a)(3)",
            ),
            (cal.fourth_tuesday_before_election(year), f"fourth_tuesday_before_election: {rule}"),
        ]
        if year % 10 == 1:  # the year after a census: district-based cities file later
            days = [
                d.due.date()
                for d in cal.statutory_calendar(year, Method.RUNOFF, district_based=True)
                if d.kind.value == "election_day"
            ]
            out.append(
                (
                    days[0] if days else date.min,
                    "statutory_calendar(nonpartisan-runoff, district_based): a census year "
                    "moves only the filing period (G.S. 163-294.2(c)(1)), not the election",
                )
            )
        return out
    return [
        (
            cal.election_day(year),
            "election_day: Tuesday after the first Monday in November, G.S. 163-279(a)",
        )
    ]


_MONTHS = {9: "partisan_primary", 10: "first_election", 11: "november"}


def calendar_checks(folder: str | Path | None = None) -> list[CalendarCheck]:
    """Every published date (data README) and every results file's date (its ``YYYYMMDD``:
    September = partisan primary, October = first election of the runoff method and
    nonpartisan primary, November = general election) against the calendar functions."""
    out: list[CalendarCheck] = []
    for year, dates in PUBLISHED.items():
        for what, published in dates.items():
            for computed, rule in _computed(year, what):
                out.append(
                    CalendarCheck(
                        f"{year} {what.replace('_', ' ')}",
                        "State Board press release (data README)",
                        published,
                        computed,
                        rule,
                    )
                )
    if folder is not None:
        for (year, month), path in sorted(_files(Path(folder)).items()):
            kind = _MONTHS.get(month)
            if kind is None:
                continue
            for computed, rule in _computed(year, kind):
                out.append(
                    CalendarCheck(
                        f"{year} {kind.replace('_', ' ')}",
                        path.name,
                        _file_day(path),
                        computed,
                        rule,
                    )
                )
    return out


# ---------------------------------------------------------------------------------------------
# Output


def _table(
    cols: Sequence[str], rows: Sequence[Sequence[str]], *, markdown: bool, width: int | None = None
) -> list[str]:
    if markdown:
        out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
        out.extend("| " + " | ".join(x.replace("|", "\\|") for x in r) + " |" for r in rows)
        return out
    from simulator.views.columns import fit_table

    return fit_table(cols, rows, width=width)


def _order(check: Check) -> tuple[int, str, str]:
    return check.year, check.town, office_key(check.office)


_CHECK_COLUMNS = ("year", "town", "office", "seats", "threshold", "engine", "November", "agree")


def _check_table(checks: Iterable[Check]) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The columns and rows of a table of judged contests, one row per contest."""
    rows: list[tuple[str, ...]] = [
        (
            str(c.year),
            c.town,
            c.office,
            str(c.seats if c.seats is not None else "?"),
            c.threshold or "-",
            c.engine,
            c.november,
            c.status,
        )
        for c in checks
    ]
    return _CHECK_COLUMNS, rows


def format_report(report: Report, *, markdown: bool = False, width: int | None = None) -> str:
    """The report as text (or Markdown): one line per contest, then the disagreements, the
    contests not judged, the seat counts used, the November-only contests and the calendar.
    ``width`` fits plain text to that many columns (tables wrapped, long lines wrapped)."""
    out: list[str] = []
    h = "## " if markdown else ""
    judged = report.judged
    out.append(
        f"{h}Conformance: {len(report.checks)} October contests of the {len(TOWNS)} runoff "
        f"towns, {FIRST_YEAR}-{LAST_YEAR}: {len(judged)} judged, {report.agreements} agree, "
        f"{len(report.disagreements)} disagree; {len(report.checks) - len(judged)} not judged"
    )
    kinds: dict[str, int] = {}
    for c in judged:
        kinds[c.verdict] = kinds.get(c.verdict, 0) + 1
    held = sum(1 for c in judged if c.november.startswith("runoff"))
    out.append(
        "Judged: "
        + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
        + f"; {held} runoff(s) held in November."
    )
    out.append(
        f"(data: {report.data_dir}; method nonpartisan-runoff, whole story; threshold = "
        "the majority of G.S. 163-293(a), exact)"
    )
    out.append("")
    checks = sorted(report.checks, key=_order)
    cols, rows = _check_table(checks)
    out.extend(_table(cols, rows, markdown=markdown, width=width))
    out.append("")
    out.append(f"{h}Disagreements")
    out.extend(
        f"- {c.year} {c.town} {c.office}: {c.explanation}"
        for c in sorted(report.disagreements, key=_order)
    )
    if not report.disagreements:
        out.append("none")
    out.append("")
    out.append(f"{h}Runoffs held, replayed through the engine")
    out.extend(
        f"- {c.year} {c.town} {c.office}: {c.explanation}"
        for c in checks
        if c.november.startswith("runoff") and c.agree
    )
    unjudged: dict[str, list[Check]] = {}
    for c in checks:
        if c.agree is None:
            unjudged.setdefault(c.explanation, []).append(c)
    if unjudged:
        out.append("")
        out.append(f"{h}Not judged")
        for why, group in unjudged.items():
            open_ = [
                f"{c.year} {c.town} {c.office} ({c.engine})"
                for c in group
                if c.verdict in ("no majority", "tie")
            ]
            out.append(
                f"- {len(group)} contest(s): {why}."
                + (
                    f" Of these, no majority (a runoff was possible): {'; '.join(open_)}."
                    if open_
                    else ""
                )
            )
    out.append("")
    out.append(f"{h}Seat counts of groups (simulator/input/seats.py)")
    out.extend(
        dict.fromkeys(f"- {c.seat_source}" for c in checks if c.seat_source and (c.seats or 0) > 1)
    )
    if report.november_only:
        out.append("")
        out.append(f"{h}November contests of these towns with no October election (not runoffs)")
        by_town: dict[str, list[str]] = {}
        for town, year, name, note in report.november_only:
            by_town.setdefault(f"{town}: {note}", []).append(f"{name} ({year})")
        for note, names in by_town.items():
            out.append(f"- {note} Contests: {'; '.join(names)}.")
    out.append("")
    ok = sum(1 for c in report.calendar if c.agree)
    out.append(f"{h}Calendar: {ok} of {len(report.calendar)} dates agree with simulator.calendar")
    out.append("")
    out.extend(
        _table(
            ("date", "published", "source", "computed", "rule", "agree"),
            [
                (
                    c.what,
                    c.published.isoformat(),
                    c.source,
                    c.computed.isoformat(),
                    c.rule,
                    "agree" if c.agree else "DISAGREE",
                )
                for c in report.calendar
            ],
            markdown=markdown,
            width=width,
        )
    )
    if width is not None and not markdown:
        import textwrap

        wrapped: list[str] = []
        for line in out:
            if len(line) <= width:
                wrapped.append(line)
            else:
                indent = "  " if line.startswith("- ") else ""
                wrapped.extend(textwrap.wrap(line, width, subsequent_indent=indent))
        out = wrapped
    return "\n".join(out) + "\n"


#: The methods ``electsim conformance --method`` checks.
METHODS: tuple[str, ...] = (Method.RUNOFF.value, Method.PRIMARY.value, Method.PARTISAN.value)


#: The label of the runoff-method towns the data README omits in the summary.
UNLISTED = f"{Method.RUNOFF.value} (towns not listed)"


def omitted_runoff_towns(primaries: Any) -> tuple[str, ...]:
    """The towns that hold deciding October elections but are not among :data:`TOWNS`, as
    :func:`simulator.analysis.conformance_primaries.town_methods` finds them."""
    return tuple(f.town for f in primaries.towns if "not among" in f.finding)


def format_unlisted(report: Report, *, markdown: bool = False) -> str:
    """The October elections of the towns the README omits, judged like the runoff towns'."""
    h = "## " if markdown else ""
    judged = report.judged
    out = [
        f"{h}Runoff-method towns the data README omits: {len(report.checks)} October "
        f"elections, {len(judged)} judged, {report.agreements} agree, "
        f"{len(report.disagreements)} disagree; {len(report.checks) - len(judged)} not judged",
        "(the towns found holding deciding October elections, listed at the end of the "
        "report; only their contests with a write-in line, since some changed method; groups "
        "the seat table does not know are not judged)",
        "",
    ]
    cols, rows = _check_table(sorted(report.checks, key=_order))
    out.extend(_table(cols, rows, markdown=markdown))
    notes = [c for c in report.checks if c.agree is not None and c.explanation]
    if notes:
        out.append("")
        out.extend(f"- {c.year} {c.town} {c.office}: {c.explanation}" for c in notes)
    return "\n".join(out) + "\n"


def summary_rows(
    runoffs: Report | None, primaries: Any | None, unlisted: Report | None = None
) -> list[dict[str, int | str]]:
    """One row per method and year: contests, judged, agree, disagree, not judged."""
    from simulator.analysis.conformance_primaries import summary

    rows: list[dict[str, int | str]] = []
    for label, found in ((Method.RUNOFF.value, runoffs), (UNLISTED, unlisted)):
        if found is None:
            continue
        years: dict[int, dict[str, int]] = {}
        for c in found.checks:
            row = years.setdefault(
                c.year, {"contests": 0, "judged": 0, "agree": 0, "disagree": 0, "not_judged": 0}
            )
            row["contests"] += 1
            row["judged"] += c.agree is not None
            row["agree"] += c.agree is True
            row["disagree"] += c.agree is False
            row["not_judged"] += c.agree is None
        rows += [{"method": label, "year": y, **r} for y, r in sorted(years.items())]
    if primaries is not None:
        for method in (Method.PRIMARY, Method.PARTISAN):
            rows += [
                {"method": method.value, "year": y, **r}
                for y, r in summary(primaries.of(method)).items()
            ]
    return rows


def format_summary(rows: Sequence[dict[str, int | str]], *, markdown: bool = False) -> str:
    """The summary table, with a total line per method."""
    cols = ("method", "year", "contests", "judged", "agree", "disagree", "not judged")
    keys = ("contests", "judged", "agree", "disagree", "not_judged")
    table: list[tuple[str, ...]] = []
    methods = list(dict.fromkeys(str(r["method"]) for r in rows))
    for m in methods:
        mine = [r for r in rows if r["method"] == m]
        table += [(m, str(r["year"]), *(str(r[k]) for k in keys)) for r in mine]
        table.append((m, "total", *(str(sum(int(r[k]) for r in mine)) for k in keys)))
    h = "## " if markdown else ""
    lines = _table(cols, table, markdown=markdown)
    return "\n".join([f"{h}Summary by method and year", "", *lines])
