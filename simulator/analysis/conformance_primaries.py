"""Conformance of primaries: the engine against the primaries held in North Carolina, 2011-2025.

Two methods nominate in a primary, and the real results hold both:

* **Nonpartisan primaries** (G.S. 163-294). The October file holds the primaries of the towns
  that elect in November. Each is replayed as a ``nonpartisan-primary`` primary and the engine's
  nominees (the two highest per seat, 163-294(b)) must be exactly the candidates on the November
  ballot for the same office. A tie at the cut-off is settled by lot (163-294(b)); the check then
  asks that the November ballot hold the sure nominees and as many of the tied as places were
  left, and says so.
* **Partisan primaries** (G.S. 163-111(a), applied to municipalities by 163-291). The September
  file holds them; a second primary, where one was demanded, is in the October file; the
  nominees are on the November ballot. Each is replayed as a ``partisan`` primary under the
  substantial plurality in force on its day (:mod:`simulator.law.parameters`: 40% through 2017, 30%
  from 2018). A second primary must be held only where the engine finds nobody over the
  threshold, and only between the leader and a candidate the engine makes eligible; it is then
  replayed (the demand, then the October returns as second-primary votes) and its winner is the
  engine's nominee. The nominee must be the one on the November ballot.

**Telling an October primary from an October election.** The October file mixes the primaries
of November towns with the deciding first elections of runoff towns (and, in some years, party
second primaries). The data tells them apart without a list of towns: a contest named with a
party (``(DEM)``, ``- DEM``) is a second primary; a contest whose returns include a write-in line
is an election, since a primary ballot has no write-in line (every contest of the eleven listed
runoff towns has one; none of the contests without one is a deciding election: each has its
office on the November ballot with two candidates per seat, all from the October field); any
other contest is a nonpartisan primary. :func:`october_kind` applies this, and
:func:`town_methods` lists the towns whose method this finds but the data README does not list
(towns that hold deciding October elections without being among its runoff towns; listed runoff
towns whose offices are elected in November without an October election).

Seat counts: :mod:`simulator.input.seats` where it knows the office; else a single office where the
contest names a mayor, a ward or a district; else the November ballot (a nonpartisan primary
nominates two per seat, a party primary one per seat); each check names its source.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from datetime import date, datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import Any

import attrs

from simulator.analysis.conformance import (
    STATUS,
    TOWNS,
    _file_day,
    _files,
    _is_office,
    _replay,
    find_data_dir,
    office_key,
    results_file,
    same_person,
)
from simulator.input.importer import (
    ContestReturns,
    ResultsFile,
    build_scenario_dict,
    returns_events,
    split_contest_name,
)
from simulator.input.seats import seats_for, single_office
from simulator.law.vocab import Method, Stage
from simulator.model.errors import ImportResultsError
from simulator.model.events import is_write_in

__all__ = [
    "OctoberKind",
    "PrimaryCheck",
    "PrimaryReport",
    "TownFinding",
    "october_kind",
    "run_primaries",
    "town_methods",
]

FIRST_YEAR, LAST_YEAR = 2011, 2025


class OctoberKind(StrEnum):
    """What an October contest is, told from the data (see the module docstring)."""

    NONPARTISAN_PRIMARY = "nonpartisan primary"
    SECOND_PRIMARY = "second primary"
    ELECTION = "election"


_PARTY_NAME = re.compile(r"\s*(?:-\s*|\(\s*)(DEM|REP|LIB|UNA|GRE|CST)\s*\)?\s*$", re.IGNORECASE)
_FILLER = frozenset({"CITY", "TOWN", "VILLAGE", "OF", "MEMBER", "MEMBERS"})
_ROMAN = {"I": "1", "II": "2", "III": "3", "IV": "4", "V": "5", "VI": "6", "VII": "7"}


def party_of(name: str) -> str | None:
    """The party a contest's name gives (``... (DEM)``, ``... - DEM``), if any.

    >>> party_of("CITY OF CHARLOTTE MAYOR - DEM"), party_of("CITY OF CHARLOTTE MAYOR (REP)")
    ('DEM', 'REP')
    >>> party_of("CITY OF DURHAM MAYOR") is None
    True
    """
    m = _PARTY_NAME.search(name)
    return m.group(1).upper() if m else None


def without_party(name: str) -> str:
    return _PARTY_NAME.sub("", name)


@functools.lru_cache(maxsize=1 << 14)  # each contest name is keyed for several look-ups
def loose_key(name: str) -> str:
    """An office key that also forgives filler words (``COUNCIL DISTRICT 3`` = ``CITY COUNCIL
    DISTRICT 3``) and the councilman / council spelling.

    >>> loose_key("CITY OF GREENSBORO COUNCIL DISTRICT 3")
    'GREENSBORO COUNCIL DISTRICT 3'
    >>> loose_key("City of Greensboro City Council District 03")
    'GREENSBORO COUNCIL DISTRICT 3'
    >>> loose_key("CITY OF LINCOLNTON COUNCIL MEMBER WARD II (DEM)")
    'LINCOLNTON COUNCIL WARD 2'
    """
    words = office_key(without_party(name)).split()
    words = [re.sub(r"^(COUNCIL|ALDER|COMMISSION)(?:MAN|MEN|ER|ERS)$", r"\1", w) for w in words]
    words = [
        _ROMAN.get(w, w) if i and words[i - 1] in ("WARD", "DISTRICT") else w
        for i, w in enumerate(words)
    ]
    return " ".join(w for w in words if w not in _FILLER)


def october_kind(returns: ContestReturns) -> tuple[OctoberKind, str]:
    """What an October contest is, and the evidence (module docstring)."""
    if party_of(returns.name):
        return OctoberKind.SECOND_PRIMARY, "the contest is named with a party"
    write_ins = [n for n in returns.candidates if is_write_in(n)]
    if write_ins:
        return OctoberKind.ELECTION, "the ballot has a write-in line, which a primary has not"
    return OctoberKind.NONPARTISAN_PRIMARY, "no write-in line: a primary ballot"


def _town(name: str) -> str | None:
    municipality, _ = split_contest_name(name)
    if not municipality:
        return None
    place = re.sub(r"^(?:city|town|village) of ", "", municipality, flags=re.IGNORECASE)
    return place


class _Index:
    """A results file's contests by office key, computed once per file."""

    def __init__(self, results: ResultsFile | None) -> None:
        self.exact: dict[str, list[ContestReturns]] = {}
        self.loose: dict[str, list[ContestReturns]] = {}
        for c in results.contests if results is not None else ():
            self.exact.setdefault(office_key(without_party(c.name)), []).append(c)
            self.loose.setdefault(loose_key(c.name), []).append(c)

    def find(self, name: str, *, party: str | None = None) -> list[ContestReturns]:
        """The contests for the same office (and, when given, named with the same party)."""
        for table, key in (
            (self.exact, office_key(without_party(name))),
            (self.loose, loose_key(name)),
        ):
            hits = [c for c in table.get(key, []) if party_of(c.name) == party]
            if hits:
                return hits
        return []


# ---------------------------------------------------------------------------------------------
# Results


@attrs.frozen
class PrimaryCheck:
    """One primary: the engine's nominees against the ballot that followed.

    ``agree`` is True, False, or None when the contest cannot be judged.
    """

    method: Method
    year: int
    town: str
    contest: str
    office: str
    party: str | None
    seats: int | None
    seat_source: str
    total: int
    threshold: str
    engine: str
    nominees: tuple[str, ...] = ()
    second_primary: str = ""
    november: str = ""
    agree: bool | None = None
    explanation: str = ""
    tie: bool = False
    evidence: str = ""

    @property
    def status(self) -> str:
        return STATUS[self.agree]


@attrs.frozen
class TownFinding:
    """A town whose method the data README lists wrongly or omits, with the evidence."""

    town: str
    finding: str
    evidence: tuple[str, ...]


@attrs.frozen
class PrimaryReport:
    checks: tuple[PrimaryCheck, ...]
    towns: tuple[TownFinding, ...]
    data_dir: str
    #: October contests by (listed runoff town or not, kind): the evidence for the classing
    october: tuple[tuple[str, int], ...] = ()

    def of(self, method: Method) -> tuple[PrimaryCheck, ...]:
        return tuple(c for c in self.checks if c.method is method)


# ---------------------------------------------------------------------------------------------
# Known facts the data lacks


#: (method, year, contest name as in the results file) -> what the data lacks, for a contest
#: whose November ballot disagrees with the engine. Each names the scenario under
#: ``scenarios/`` that adds the missing fact and replays to what the board did; the tests check
#: that every disagreement the shared data produces is covered and that the scenarios exist.
EXPLANATIONS: dict[tuple[str, int, str], tuple[str, str]] = {
    ("nonpartisan-primary", 2019, "CITY OF MOUNT AIRY COMMISSIONER AT-LARGE"): (
        "A death the results do not show. Counted as the returns stand, the two highest are "
        "Niland and Armbrister (283, three votes ahead of Livengood), but November had Niland "
        "against Livengood. Jim Armbrister, the sitting at-large commissioner, died on 7 "
        "October 2019, the day before the primary, with the ballots printed (Mount Airy News, "
        "16 October and 1 December 2019). G.S. 163-294.1(b) sets his votes aside and nominates "
        "the next highest, and, since his death left two candidates for the one seat, says the "
        "primary is not held and both are nominees: either way Niland and Livengood, the "
        "November ballot. Replayed with the death added, the engine nominates them.",
        "scenarios/nonpartisan-primary/mount-airy-2019-at-large-candidate-died.yaml",
    ),
}


def explanation_for(method: Method, year: int, contest: str) -> str:
    """The recorded explanation of a contest (with its scenario), or ""."""
    found = EXPLANATIONS.get((method.value, year, contest))
    return f"{found[0]} Scenario: {found[1]}." if found else ""


# ---------------------------------------------------------------------------------------------
# Helpers


def _names(names: Iterable[str]) -> str:
    return ", ".join(names) or "nobody"


def _ruling(result: Any, kind: str) -> list[Any]:
    return [r for r in result.rulings if r.kind.value == kind]


def _on_ballot(nov: ContestReturns, field: Sequence[str]) -> tuple[list[str], list[str]]:
    """November's filers who ran in ``field`` (by :func:`same_person`, named as in ``field``),
    and those who did not."""
    ran: list[str] = []
    others: list[str] = []
    for name in nov.filers:
        same = [f for f in field if not is_write_in(f) and same_person(f, name)]
        if len(same) == 1:
            ran.append(same[0])
        else:
            others.append(name)
    return ran, others


def _seats(
    town: str, returns: ContestReturns, year: int, nov_count: int | None, per_seat: int
) -> tuple[int | None, str]:
    rule = seats_for(town, returns.name, year)
    if rule is not None:
        return rule.seats, rule.source
    _, office = split_contest_name(without_party(returns.name))
    single = single_office(town, office)
    if single is not None:
        return single.seats, single.source
    if nov_count and nov_count % per_seat == 0:
        n = nov_count // per_seat
        how = "two nominees per seat (G.S. 163-294(b))" if per_seat == 2 else "one per seat"
        return n, f"the November ballot: {nov_count} nominee(s) from this primary, {how}"
    return None, ""


# ---------------------------------------------------------------------------------------------
# Nonpartisan primaries


def _check_nonpartisan(
    town: str,
    year: int,
    returns: ContestReturns,
    day: date,
    november: _Index | None,
    evidence: str,
) -> PrimaryCheck:
    _, office = split_contest_name(returns.name)
    matches = november.find(returns.name) if november is not None else []
    nov = matches[0] if matches else None
    ran, others = _on_ballot(nov, returns.candidates) if nov is not None else ([], [])
    seats, source = _seats(town, returns, year, len(ran) + len(others) if nov else None, 2)
    base = PrimaryCheck(
        method=Method.PRIMARY,
        year=year,
        town=town,
        contest=returns.name,
        office=office,
        party=None,
        seats=seats,
        seat_source=source,
        total=returns.total,
        threshold="two highest per seat",
        engine="not replayed: no seat count",
        evidence=evidence,
    )
    if seats is None:
        why = (
            "the November file of this year is missing (2013-11-05 is not in the conversion) "
            "and the seat table does not know the office"
            if november is None
            else "no seat count: the November ballot has no contest for the office, or an odd "
            "number of candidates, and simulator/input/seats.py does not know it"
        )
        return attrs.evolve(base, november="-" if nov is None else "?", explanation=why)
    doc = build_scenario_dict(
        returns,
        day=day,
        seats=seats,
        method=Method.PRIMARY,
        stage=Stage.PRIMARY,
        source=f"{day:%Y%m%d} results",
    )
    result = _replay(doc)
    sure = tuple(result.outcome.nominated)
    pending = result.outcome.pending
    tie = pending is not None and pending.value == "lot"
    places = 2 * seats
    pool: tuple[str, ...] = ()
    if tie:
        counts = returns.totals
        rest = [(n, v) for n, v in counts.items() if n not in sure and not is_write_in(n)]
        cut = rest[0][1] if rest else 0
        pool = tuple(n for n, v in rest if v == cut)
        engine = (
            f"nominated: {_names(sure)}; tie at the cut-off for {places - len(sure)} "
            f"place(s) among {_names(pool)} ({cut} each): ranked by lot (G.S. 163-294(b))"
        )
    else:
        engine = f"nominated: {_names(sure)}"
    base = attrs.evolve(base, engine=engine, nominees=sure, tie=tie)
    known = explanation_for(Method.PRIMARY, year, returns.name)
    if november is None:
        return attrs.evolve(
            base,
            november="no November file",
            explanation=known
            or "the November file of this year is missing (2013-11-05 is not in the "
            "conversion): the nominees cannot be checked",
        )
    if nov is None:
        return attrs.evolve(
            base,
            november="no contest for the office",
            agree=False,
            explanation=known or "November has no contest for this office",
        )
    shown = ", ".join(ran + [f"{o} (not in the primary)" for o in others])
    base = attrs.evolve(base, november=shown)
    if tie:
        won = [n for n in ran if n in pool]
        ok = set(sure) <= set(ran) and not others and len(won) == places - len(sure)
        ok = ok and set(ran) <= set(sure) | set(pool)
        return attrs.evolve(
            base,
            agree=ok,
            explanation=known
            or (
                f"a tie at the cut-off: November shows {_names(won)} won the lot among "
                f"{_names(pool)}"
                if ok
                else f"after the tie November shows {shown}, which is not the sure nominees "
                "plus the lot's winners"
            ),
        )
    ok = set(ran) == set(sure) and not others
    if ok:
        return attrs.evolve(base, agree=True, explanation=known)
    missing = [n for n in sure if n not in ran]
    extra = [n for n in ran if n not in sure] + others
    return attrs.evolve(
        base,
        agree=False,
        explanation=known
        or (
            f"the engine nominates {_names(sure)}; November lacks {_names(missing)}"
            + (f" and has {_names(extra)}" if extra else "")
        ),
    )


# ---------------------------------------------------------------------------------------------
# Partisan primaries


def _second_primary_events(
    doc: dict[str, Any], requester: str | None, second: ContestReturns | None, day: date | None
) -> dict[str, Any]:
    """``doc`` with the demand for a second primary and the October returns as its votes."""
    events: list[dict[str, Any]] = list(doc["events"])
    canvass = datetime.fromisoformat(str(events[-1]["at"]))
    if requester is not None:
        events.append(
            {
                "type": "runoff_requested",
                "at": (canvass + timedelta(hours=3)).isoformat(),
                "candidate": requester,
            }
        )
    if second is not None and day is not None:
        events.extend(returns_events(second.precincts, day, ballot_names={}))
    return {**doc, "events": events}


def _check_partisan(
    town: str,
    year: int,
    returns: ContestReturns,
    day: date,
    october: _Index | None,
    oct_day: date | None,
    november: _Index | None,
) -> PrimaryCheck:
    party = returns.party or party_of(returns.name) or ""
    _, office = split_contest_name(without_party(returns.name))
    matches = november.find(returns.name) if november is not None else []
    nov = matches[0] if matches else None
    ran, _others = _on_ballot(nov, returns.filers) if nov is not None else ([], [])
    seats, source = _seats(town, returns, year, len(ran) if nov else None, 1)
    base = PrimaryCheck(
        method=Method.PARTISAN,
        year=year,
        town=town,
        contest=returns.name,
        office=office,
        party=party,
        seats=seats,
        seat_source=source,
        total=returns.total,
        threshold="",
        engine="not replayed: no seat count",
    )
    if seats is None:
        return attrs.evolve(
            base,
            explanation="no seat count: simulator/input/seats.py does not know the office and "
            "the November ballot cannot give it",
        )
    doc = build_scenario_dict(
        returns,
        day=day,
        seats=seats,
        method=Method.PARTISAN,
        stage=Stage.PRIMARY,
        source=f"{day:%Y%m%d} results",
    )
    result = _replay(doc)
    t = _ruling(result, "majority_threshold")
    threshold = (
        f"> {t[0].get('threshold')} ({_pct(t[0].get('parameter'))}, {_short(t[0].get('source'))})"
        if t
        else ""
    )
    available = _ruling(result, "runoff_available")
    leaders = tuple(result.outcome.nominated)
    eligible = tuple(available[0].candidates) if available else ()
    if available:
        over = [
            n
            for r in _ruling(result, "nominated")
            if any(c.section == "163-111" and c.sub.startswith("(a)") for c in r.cites)
            for n in r.candidates
        ]
        lead = [n for n in leaders if n not in over]
        engine = (
            (f"over the threshold: {_names(over)}; " if over else "")
            + f"no substantial plurality for {_names(lead)}: "
            f"{_names(eligible)} may demand a second primary"
        )
    else:
        engine = f"nominated: {_names(leaders)}"
    base = attrs.evolve(base, threshold=threshold, engine=engine, nominees=leaders)
    known = explanation_for(Method.PARTISAN, year, returns.name)

    # The second primary, in the October file
    seconds = october.find(returns.name, party=party or None) if october is not None else []
    second = seconds[0] if seconds else None
    nominees = leaders
    problems: list[str] = []
    notes: list[str] = []
    if october is None:
        second_text = "no October file"
    elif second is None:
        second_text = "none"
    else:
        ballot = [n for n in second.filers]
        named = {n: next((f for f in returns.filers if same_person(f, n)), n) for n in ballot}
        ballot = [named[n] for n in ballot]
        second_text = "held: " + ", ".join(
            f"{named.get(n, n)} {v}" for n, v in second.totals.items()
        )
        if not available:
            problems.append(
                f"a second primary ({_names(ballot)}) was held, but the engine finds a "
                "substantial plurality"
            )
        else:
            requesters = [n for n in ballot if n in eligible]
            outsiders = [n for n in ballot if n not in eligible and n not in leaders]
            if outsiders or not requesters:
                problems.append(
                    f"the second primary's ballot ({_names(ballot)}) is not the leader against "
                    f"one of {_names(eligible)}"
                )
            renamed = attrs.evolve(
                second,
                precincts=tuple(
                    (u, tuple((named.get(n, n), v) for n, v in counts))
                    for u, counts in second.precincts
                ),
            )
            after = _replay(
                _second_primary_events(doc, requesters[0] if requesters else None, renamed, oct_day)
            )
            engine_ballot = tuple(after.outcome.runoff_candidates)
            if set(engine_ballot) != set(ballot):
                problems.append(
                    f"the engine's second primary would be {_names(engine_ballot)}, October's "
                    f"was {_names(ballot)}"
                )
            nominees = tuple(after.outcome.nominated)
            notes.append(
                f"second primary demanded by {_names(requesters)} and held under the threshold "
                f"in force ({_pct(t[0].get('parameter')) if t else '?'}); replayed, the "
                f"engine nominates {_names(nominees)}"
            )
    if available and (second is None) and october is not None:
        notes.append(
            f"no second primary was demanded, so {_names(leaders)} nominated when the demand "
            "deadline passed"
        )
    base = attrs.evolve(base, nominees=nominees, second_primary=second_text)

    # The November ballot
    if november is None:
        november_text = "no November file"
        if not problems:
            notes.append(
                "the November file is missing (2013-11-05 is not in the conversion): the "
                "nominee is not checked there"
            )
    elif nov is None:
        november_text = "no contest for the office"
        problems.append("November has no contest for this office")
    else:
        november_text = ", ".join(ran) or "none of this primary's candidates"
        if set(ran) != set(nominees):
            problems.append(
                f"the engine nominates {_names(nominees)}; this party's candidates on the "
                f"November ballot are {_names(ran)}"
            )
    if october is None and november is None:
        return attrs.evolve(
            base,
            november=november_text,
            explanation=known or "neither an October nor a November file: nothing to check",
        )
    return attrs.evolve(
        base,
        november=november_text,
        agree=not problems,
        explanation=known or "; ".join(problems + notes),
    )


def _pct(value: object) -> str:
    if value is None:
        return "?"
    from fractions import Fraction

    pct = Fraction(str(value)) * 100
    return f"{pct.numerator}%" if pct.denominator == 1 else f"{float(pct):g}%"


def _short(source: object) -> str:
    text = str(source or "")
    if "2017-214" in text and "before" in text:
        return "before S.L. 2017-214"
    if "2017-214" in text:
        return "S.L. 2017-214"
    return text


# ---------------------------------------------------------------------------------------------
# Towns' methods


def town_methods(
    files: dict[tuple[int, int], Path],
    results: dict[tuple[int, int], ResultsFile | None],
    towns: Sequence[str] = TOWNS,
) -> list[TownFinding]:
    """Towns whose method the data README lists wrongly or omits, with the evidence."""
    listed = {t.casefold() for t in towns}
    deciding: dict[str, list[str]] = {}
    primary_years: dict[str, set[int]] = {}
    november_only: dict[str, list[str]] = {}
    for (year, month), found in sorted(results.items()):
        if month != 10 or found is None:
            continue
        nov = _Index(results.get((year, 11)))
        october_towns: set[str] = set()
        for c in found.contests:
            town = _town(c.name)
            if town is None or not _is_office(c):
                continue
            october_towns.add(town.casefold())
            kind, _ = october_kind(c)
            if kind is OctoberKind.NONPARTISAN_PRIMARY:
                primary_years.setdefault(town.casefold(), set()).add(year)
            if kind is not OctoberKind.ELECTION or town.casefold() in listed:
                continue
            runoff = [
                n
                for n in nov.find(c.name)
                if not any(is_write_in(x) for x in n.candidates)
                and all(any(same_person(o, x) for o in c.filers) for x in n.filers)
            ]
            what = f"{year} {c.name} (write-in line)"
            if runoff:
                what += f"; November runoff {_names(runoff[0].filers)}"
            deciding.setdefault(town, []).append(what)
        nov_file = results.get((year, 11))
        if nov_file is None:
            continue
        for c in nov_file.contests:
            town = _town(c.name)
            if town is None or town.casefold() not in listed or not _is_office(c):
                continue
            if town.casefold() not in october_towns:
                november_only.setdefault(town, []).append(f"{year} {c.name}")
    out: list[TownFinding] = []
    for town, evidence in sorted(deciding.items()):
        runoffs = sum(1 for e in evidence if "November runoff" in e)
        years = sorted({int(e[:4]) for e in evidence})
        other = sorted(primary_years.get(town.casefold(), set()))
        out.append(
            TownFinding(
                town,
                "held deciding elections in October in "
                + ", ".join(map(str, years))
                + " but is not among the data README's runoff towns"
                + (
                    f"; {runoffs} November runoff(s) show the election-and-runoff method"
                    if runoffs
                    else ""
                )
                + (
                    "; it held nonpartisan primaries in "
                    + ", ".join(map(str, other))
                    + ": it changed method"
                    if other
                    else ""
                ),
                tuple(evidence),
            )
        )
    for town, evidence in sorted(november_only.items()):
        listed_years = sorted({e[:4] for e in evidence})
        out.append(
            TownFinding(
                town,
                "listed by the data README as a runoff town, but in "
                + ", ".join(listed_years)
                + " it elected in November with no October election",
                tuple(evidence),
            )
        )
    return out


# ---------------------------------------------------------------------------------------------
# The whole run


def run_primaries(
    data_dir: str | Path | None = None,
    *,
    methods: Iterable[Method] = (Method.PRIMARY, Method.PARTISAN),
    years: Iterable[int] = range(FIRST_YEAR, LAST_YEAR + 1),
) -> PrimaryReport:
    """Check every primary the data holds (module docstring). Raises
    :class:`ImportResultsError` when there is no data folder."""
    folder = find_data_dir(data_dir)
    if folder is None:
        where = data_dir if data_dir is not None else "../shared/data"
        raise ImportResultsError(
            f"--data: expected a folder of results files named YYYYMMDD__... (or its "
            f"nc-results/); found none at {where}"
        )
    files = _files(folder)
    wanted = set(methods)
    chosen = set(years)
    cache: dict[tuple[int, int], ResultsFile | None] = {}

    def load(key: tuple[int, int]) -> ResultsFile | None:
        if key not in cache:
            path = files.get(key)
            cache[key] = results_file(path) if path else None
        return cache[key]

    checks: list[PrimaryCheck] = []
    tally: dict[str, int] = {}
    listed = {t.casefold() for t in TOWNS}
    for year in sorted(chosen):
        oct_results = load((year, 10))
        nov_results = load((year, 11))
        nov = _Index(nov_results) if nov_results is not None else None
        octo = _Index(oct_results) if oct_results is not None else None
        oct_day = _file_day(files[(year, 10)]) if (year, 10) in files else None
        if Method.PRIMARY in wanted and oct_results is not None and oct_day is not None:
            for c in oct_results.contests:
                town = _town(c.name)
                if town is None or not _is_office(c) or town.casefold() in listed:
                    continue
                kind, evidence = october_kind(c)
                if kind is not OctoberKind.NONPARTISAN_PRIMARY:
                    continue
                checks.append(_check_nonpartisan(town, year, c, oct_day, nov, evidence))
        if oct_results is not None:
            for c in oct_results.contests:
                town = _town(c.name)
                if town is None or not _is_office(c):
                    continue
                where = "listed runoff towns" if town.casefold() in listed else "other towns"
                key = f"{where}: {october_kind(c)[0].value}"
                tally[key] = tally.get(key, 0) + 1
        sep_results = load((year, 9))
        if Method.PARTISAN in wanted and sep_results is not None:
            sep_day = _file_day(files[(year, 9)])
            for c in sep_results.contests:
                town = _town(c.name)
                if town is None or not _is_office(c):
                    continue
                if not (c.party or party_of(c.name)):
                    continue
                checks.append(_check_partisan(town, year, c, sep_day, octo, oct_day, nov))
    found = town_methods(files, {k: load(k) for k in files if k[0] in chosen})
    return PrimaryReport(tuple(checks), tuple(found), str(folder), tuple(sorted(tally.items())))


# ---------------------------------------------------------------------------------------------
# Output


_LABEL = {Method.PRIMARY: "Nonpartisan primaries", Method.PARTISAN: "Partisan primaries"}


def _table(cols: Sequence[str], rows: Sequence[Sequence[str]], *, markdown: bool) -> list[str]:
    from simulator.analysis.conformance import _table as table

    return table(cols, rows, markdown=markdown)


def _order(c: PrimaryCheck) -> tuple[int, str, str, str]:
    return c.year, c.town, loose_key(c.contest), c.party or ""


def summary(checks: Iterable[PrimaryCheck]) -> dict[int, dict[str, int]]:
    """Per year: contests, judged, agree, disagree, not judged, second primaries held, ties."""
    out: dict[int, dict[str, int]] = {}
    for c in checks:
        row = out.setdefault(
            c.year,
            {
                "contests": 0,
                "judged": 0,
                "agree": 0,
                "disagree": 0,
                "not_judged": 0,
                "second_primaries": 0,
                "ties": 0,
            },
        )
        row["contests"] += 1
        row["judged"] += c.agree is not None
        row["agree"] += c.agree is True
        row["disagree"] += c.agree is False
        row["not_judged"] += c.agree is None
        row["second_primaries"] += c.second_primary.startswith("held")
        row["ties"] += c.tie
    return dict(sorted(out.items()))


def format_primaries(report: PrimaryReport, *, markdown: bool = False) -> str:
    """The report as text (or Markdown): per method, one line per contest, then the
    disagreements and their explanations, the second primaries, ties, what was not judged; then
    how October primaries were told apart and the towns whose method the README misses."""
    h = "## " if markdown else ""
    out: list[str] = []
    for method in (Method.PRIMARY, Method.PARTISAN):
        checks = sorted(report.of(method), key=_order)
        if not checks:
            continue
        judged = [c for c in checks if c.agree is not None]
        bad = [c for c in checks if c.agree is False]
        unexplained = [c for c in bad if not explanation_for(method, c.year, c.contest)]
        out.append(
            f"{h}{_LABEL[method]}: {len(checks)} contests, {len(judged)} judged, "
            f"{sum(1 for c in judged if c.agree)} agree, {len(bad)} disagree "
            f"({len(unexplained)} unexplained); {len(checks) - len(judged)} not judged"
        )
        if method is Method.PRIMARY:
            out.append(
                "(October contests of towns other than the runoff towns, with no write-in line "
                "and no party in the name; replayed as nonpartisan-primary primaries, G.S. "
                "163-294(b): the two highest per seat are nominated, ties at the cut-off by lot)"
            )
        else:
            out.append(
                "(September contests named with a party; replayed as partisan primaries under "
                "the substantial plurality in force on the primary day, G.S. 163-111(a): 40% "
                "through 2017, 30% from 2018 (S.L. 2017-214); a second primary is looked for in "
                "the October file, the nominee on the November ballot)"
            )
        out.append("")
        cols: tuple[str, ...]
        rows: list[tuple[str, ...]]
        if method is Method.PRIMARY:
            cols = ("year", "town", "office", "seats", "engine", "November", "agree")
            rows = [
                (
                    str(c.year),
                    c.town,
                    c.office,
                    str(c.seats if c.seats is not None else "?"),
                    c.engine,
                    c.november,
                    c.status,
                )
                for c in checks
            ]
        else:
            cols = (
                "year",
                "town",
                "office",
                "party",
                "seats",
                "threshold",
                "engine",
                "second primary",
                "November",
                "agree",
            )
            rows = [
                (
                    str(c.year),
                    c.town,
                    c.office,
                    c.party or "",
                    str(c.seats if c.seats is not None else "?"),
                    c.threshold or "-",
                    c.engine,
                    c.second_primary,
                    c.november,
                    c.status,
                )
                for c in checks
            ]
        out.extend(_table(cols, rows, markdown=markdown))
        out.append("")
        out.append(f"{h}{_LABEL[method]}: disagreements, explained")
        out.extend(f"- {c.year} {c.town} {c.office}: {c.explanation}" for c in bad)
        if not bad:
            out.append("none")
        notes = [c for c in checks if c.agree is True and c.explanation]
        if notes:
            out.append("")
            title = "second primaries and ties" if method is Method.PARTISAN else "ties"
            out.append(f"{h}{_LABEL[method]}: {title}, and what the data cannot show")
            out.extend(
                f"- {c.year} {c.town} {c.office}{' ' + c.party if c.party else ''}: {c.explanation}"
                for c in notes
                if c.tie or c.second_primary.startswith("held") or c.year != 2013
            )
            partial = [
                c for c in notes if c.year == 2013 and not c.second_primary.startswith("held")
            ]
            if partial:
                out.append(
                    f"- 2013: {len(partial)} primaries judged on the September and October files "
                    "only (no second primary where the engine finds a substantial plurality); "
                    "the November file is missing"
                )
        unjudged: dict[str, list[PrimaryCheck]] = {}
        for c in checks:
            if c.agree is None:
                unjudged.setdefault(c.explanation, []).append(c)
        if unjudged:
            out.append("")
            out.append(f"{h}{_LABEL[method]}: not judged")
            for why, group in unjudged.items():
                out.append(f"- {len(group)} contest(s): {why}.")
        out.append("")
    out.append(f"{h}Telling an October primary from an October election")
    primaries = report.of(Method.PRIMARY)
    with_nov = [c for c in primaries if c.november not in ("no November file", "-")]
    on_ballot = [c for c in with_nov if c.november not in ("no contest for the office", "?")]
    counts = "; ".join(f"{k} {n}" for k, n in report.october)
    out.append(
        "An October contest named with a party is a second primary; one whose returns have a "
        "write-in line is an election (a primary ballot has none); any other is a nonpartisan "
        f"primary. October contests of municipal offices in the years checked: {counts}."
        + (
            f" Of the {len(with_nov)} primaries whose November file exists, {len(on_ballot)} "
            "have their office on the November ballot."
            if with_nov
            else ""
        )
    )
    if report.towns:
        out.append("")
        out.append(f"{h}Towns whose method the data README lists wrongly or omits")
        for f in report.towns:
            out.append(f"- {f.town}: {f.finding}. Evidence: {'; '.join(f.evidence)}.")
    return "\n".join(out) + "\n"


def primaries_to_json(report: PrimaryReport) -> dict[str, Any]:
    """The report as plain data for ``electsim conformance --json``."""
    return {
        "checks": [
            {**attrs.asdict(c), "method": c.method.value, "status": c.status}
            for c in sorted(report.checks, key=lambda c: (c.method.value, *_order(c)))
        ],
        "towns": [attrs.asdict(f) for f in report.towns],
        "summary": {
            m.value: {str(y): row for y, row in summary(report.of(m)).items()}
            for m in (Method.PRIMARY, Method.PARTISAN)
        },
    }
