"""The primaries check: the engine against the primaries held in North Carolina, 2011-2025.

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
other contest is a nonpartisan primary.
:func:`~simulator.analysis.conformance.matching.october_kind` applies this, and
:func:`~simulator.analysis.conformance.town_methods.town_methods` lists the towns whose method
this finds but the data README does not list (towns that hold deciding October elections without
being among its runoff towns; listed runoff towns whose offices are elected in November without
an October election).

Seat counts: :mod:`simulator.input.seats` where it knows the office; else a single office where
the contest names a mayor, a ward or a district; else the November ballot (a nonpartisan primary
nominates two per seat, a party primary one per seat); each check names its source.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from simulator.analysis.conformance.data import (
    FIRST_YEAR,
    LAST_YEAR,
    TOWNS,
    data_folder,
    file_day,
    files_by_month,
    results_file,
)
from simulator.analysis.conformance.matching import (
    OctoberKind,
    OfficeIndex,
    is_office,
    october_kind,
    party_of,
    same_person,
    town_name,
    without_party,
)
from simulator.analysis.conformance.replaying import replay_contest, rulings_of
from simulator.analysis.conformance.town_methods import TownFinding, town_methods
from simulator.analysis.conformance.wording import STATUS, who
from simulator.engine.result import ContestResult
from simulator.input.importer import (
    ContestReturns,
    ResultsFile,
    build_scenario_dict,
    returns_events,
    split_contest_name,
)
from simulator.input.seats import seats_for, single_office
from simulator.law.vocab import DeadlineKind, Method, Stage
from simulator.model.events import is_write_in

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
class PrimaryReport:
    """The primaries checked, the towns whose method the data README misses, and how the
    October contests were told apart."""

    checks: tuple[PrimaryCheck, ...]
    towns: tuple[TownFinding, ...]
    data_dir: str
    #: October contests by (listed runoff town or not, kind): the evidence for the classing
    october: tuple[tuple[str, int], ...] = ()

    def of(self, method: Method) -> tuple[PrimaryCheck, ...]:
        """The checks of one method's primaries."""
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
# Ballots and seats


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
    november: OfficeIndex | None,
    evidence: str,
) -> PrimaryCheck:
    """One nonpartisan primary replayed, its nominees (the two highest per seat) set against
    the November ballot for the office."""
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
    result = replay_contest(doc)
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
            f"nominated: {who(sure)}; tie at the cut-off for {places - len(sure)} "
            f"place(s) among {who(pool)} ({cut} each): ranked by lot (G.S. 163-294(b))"
        )
    else:
        engine = f"nominated: {who(sure)}"
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
    return _nominees_on_ballot(base, ran, others, pool, known)


def _nominees_on_ballot(
    base: PrimaryCheck, ran: list[str], others: list[str], pool: tuple[str, ...], known: str
) -> PrimaryCheck:
    """The engine's nominees set against November's ballot (``ran``: its candidates who ran
    in the primary; ``others``: those who did not). After a tie at the cut-off (``pool``: the
    tied), the ballot must hold the sure nominees and as many of the tied as places were left."""
    sure, tie = base.nominees, base.tie
    assert base.seats is not None
    places = 2 * base.seats
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
                f"a tie at the cut-off: November shows {who(won)} won the lot among {who(pool)}"
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
            f"the engine nominates {who(sure)}; November lacks {who(missing)}"
            + (f" and has {who(extra)}" if extra else "")
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
        events.extend(
            returns_events(
                second.precincts,
                day,
                ballot_names={},
                method=Method.PARTISAN,
                held=DeadlineKind.SECOND_PRIMARY,
            )
        )
    return {**doc, "events": events}


def _check_partisan(
    town: str,
    year: int,
    returns: ContestReturns,
    day: date,
    october: OfficeIndex | None,
    oct_day: date | None,
    november: OfficeIndex | None,
) -> PrimaryCheck:
    """One partisan primary replayed under the threshold of its day: its second primary, if
    October holds one, checked and replayed; its nominee set against the November ballot."""
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
    result = replay_contest(doc)
    available = rulings_of(result, "runoff_available")
    threshold, engine, in_force = _partisan_verdict(result)
    leaders = tuple(result.outcome.nominated)
    eligible = tuple(available[0].candidates) if available else ()
    base = attrs.evolve(base, threshold=threshold, engine=engine, nominees=leaders)
    known = explanation_for(Method.PARTISAN, year, returns.name)

    # The second primary, in the October file
    seconds = october.find(returns.name, party=party or None) if october is not None else []
    second = seconds[0] if seconds else None
    problems: list[str] = []
    notes: list[str] = []
    nominees, second_text = (leaders, "no October file" if october is None else "none")
    if second is not None:
        nominees, second_text = _second_primary(
            doc,
            returns,
            second,
            oct_day,
            bool(available),
            leaders,
            eligible,
            in_force,
            problems,
            notes,
        )
    if available and (second is None) and october is not None:
        notes.append(
            f"no second primary was demanded, so {who(leaders)} nominated when the demand "
            "deadline passed"
        )
    base = attrs.evolve(base, nominees=nominees, second_primary=second_text)
    november_text = _november_nominees(november, nov, ran, nominees, problems, notes)
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


def _partisan_verdict(result: ContestResult) -> tuple[str, str, str]:
    """The engine's verdict on a partisan primary: the threshold with its source, the verdict
    in words (who passed it; who may demand a second primary), and the threshold's share."""
    t = rulings_of(result, "majority_threshold")
    threshold = (
        f"> {t[0].get('threshold')} ({_pct(t[0].get('parameter'))}, {_short(t[0].get('source'))})"
        if t
        else ""
    )
    available = rulings_of(result, "runoff_available")
    leaders = tuple(result.outcome.nominated)
    eligible = tuple(available[0].candidates) if available else ()
    if available:
        over = [
            n
            for r in rulings_of(result, "nominated")
            if any(c.section == "163-111" and c.sub.startswith("(a)") for c in r.cites)
            for n in r.candidates
        ]
        lead = [n for n in leaders if n not in over]
        engine = (
            f"over the threshold: {who(over)}; " if over else ""
        ) + f"no substantial plurality for {who(lead)}: {who(eligible)} may demand a second primary"
    else:
        engine = f"nominated: {who(leaders)}"
    return threshold, engine, _pct(t[0].get("parameter")) if t else "?"


def _second_primary(
    doc: dict[str, Any],
    returns: ContestReturns,
    second: ContestReturns,
    oct_day: date | None,
    available: bool,
    leaders: tuple[str, ...],
    eligible: tuple[str, ...],
    in_force: str,
    problems: list[str],
    notes: list[str],
) -> tuple[tuple[str, ...], str]:
    """The second primary October holds for the contest ``doc``, checked: it must follow a
    primary with no substantial plurality, between the leader and one the engine makes
    eligible; replayed, its winner is the nominee. Returns the nominees and the second
    primary in words; appends what is wrong to ``problems`` and what was found to ``notes``."""
    ballot = [n for n in second.filers]
    named = {n: next((f for f in returns.filers if same_person(f, n)), n) for n in ballot}
    ballot = [named[n] for n in ballot]
    second_text = "held: " + ", ".join(f"{named.get(n, n)} {v}" for n, v in second.totals.items())
    if not available:
        problems.append(
            f"a second primary ({who(ballot)}) was held, but the engine finds a "
            "substantial plurality"
        )
        return leaders, second_text
    requesters = [n for n in ballot if n in eligible]
    outsiders = [n for n in ballot if n not in eligible and n not in leaders]
    if outsiders or not requesters:
        problems.append(
            f"the second primary's ballot ({who(ballot)}) is not the leader against "
            f"one of {who(eligible)}"
        )
    renamed = attrs.evolve(
        second,
        precincts=tuple(
            (u, tuple((named.get(n, n), v) for n, v in counts)) for u, counts in second.precincts
        ),
    )
    after = replay_contest(
        _second_primary_events(doc, requesters[0] if requesters else None, renamed, oct_day)
    )
    engine_ballot = tuple(after.outcome.runoff_candidates)
    if set(engine_ballot) != set(ballot):
        problems.append(
            f"the engine's second primary would be {who(engine_ballot)}, October's "
            f"was {who(ballot)}"
        )
    nominees = tuple(after.outcome.nominated)
    notes.append(
        f"second primary demanded by {who(requesters)} and held under the threshold "
        f"in force ({in_force}); replayed, the engine nominates {who(nominees)}"
    )
    return nominees, second_text


def _november_nominees(
    november: OfficeIndex | None,
    nov: ContestReturns | None,
    ran: list[str],
    nominees: tuple[str, ...],
    problems: list[str],
    notes: list[str],
) -> str:
    """The engine's nominees set against this party's candidates on the November ballot
    (``ran``); returns what November shows, in words, appending to ``problems`` and
    ``notes``."""
    if november is None:
        if not problems:
            notes.append(
                "the November file is missing (2013-11-05 is not in the conversion): the "
                "nominee is not checked there"
            )
        return "no November file"
    if nov is None:
        problems.append("November has no contest for this office")
        return "no contest for the office"
    if set(ran) != set(nominees):
        problems.append(
            f"the engine nominates {who(nominees)}; this party's candidates on the "
            f"November ballot are {who(ran)}"
        )
    return ", ".join(ran) or "none of this primary's candidates"


def _pct(value: object) -> str:
    if value is None:
        return "?"
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
# The whole run


def run_primaries(
    data_dir: str | Path | None = None,
    *,
    methods: Iterable[Method] = (Method.PRIMARY, Method.PARTISAN),
    years: Iterable[int] = range(FIRST_YEAR, LAST_YEAR + 1),
) -> PrimaryReport:
    """Check every primary the data holds (module docstring). Raises
    :class:`ImportResultsError` when there is no data folder."""
    folder = data_folder(data_dir)
    files = files_by_month(folder)
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
        nov = OfficeIndex(nov_results) if nov_results is not None else None
        octo = OfficeIndex(oct_results) if oct_results is not None else None
        oct_day = file_day(files[(year, 10)]) if (year, 10) in files else None
        if Method.PRIMARY in wanted and oct_results is not None and oct_day is not None:
            for c in oct_results.contests:
                town = town_name(c.name)
                if town is None or not is_office(c) or town.casefold() in listed:
                    continue
                kind, evidence = october_kind(c)
                if kind is not OctoberKind.NONPARTISAN_PRIMARY:
                    continue
                checks.append(_check_nonpartisan(town, year, c, oct_day, nov, evidence))
        if oct_results is not None:
            for c in oct_results.contests:
                town = town_name(c.name)
                if town is None or not is_office(c):
                    continue
                where = "listed runoff towns" if town.casefold() in listed else "other towns"
                key = f"{where}: {october_kind(c)[0].value}"
                tally[key] = tally.get(key, 0) + 1
        sep_results = load((year, 9))
        if Method.PARTISAN in wanted and sep_results is not None:
            sep_day = file_day(files[(year, 9)])
            for c in sep_results.contests:
                town = town_name(c.name)
                if town is None or not is_office(c):
                    continue
                if not (c.party or party_of(c.name)):
                    continue
                checks.append(_check_partisan(town, year, c, sep_day, octo, oct_day, nov))
    found = town_methods(files, {k: load(k) for k in files if k[0] in chosen})
    return PrimaryReport(tuple(checks), tuple(found), str(folder), tuple(sorted(tally.items())))


def omitted_runoff_towns(primaries: PrimaryReport) -> tuple[str, ...]:
    """The towns that hold deciding October elections but are not among :data:`TOWNS`, as
    :func:`~simulator.analysis.conformance.town_methods.town_methods` finds them."""
    return tuple(f.town for f in primaries.towns if "not among" in f.finding)
