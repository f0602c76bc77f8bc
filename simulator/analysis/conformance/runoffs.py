"""The runoff-town check: the engine against what happened in North Carolina's runoff towns,
2011-2025.

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

Seat counts come from :mod:`simulator.input.seats`; an office it does not know is marked "seat
count unknown" and not judged. October and November contests are paired by office name,
normalised (:func:`~simulator.analysis.conformance.matching.office_key`: case, punctuation,
``(RUNOFF)``, zero-padded ward numbers); candidates by name
(:func:`~simulator.analysis.conformance.matching.same_person`: spelling of initials, middle
names, suffixes and nicknames).

The calendar check (:mod:`simulator.analysis.conformance.published_dates`) is run with it and
reported with it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime, timedelta
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
    is_office,
    match_contest,
    october_kind,
    office_key,
    same_person,
    town_of,
)
from simulator.analysis.conformance.published_dates import CalendarCheck, calendar_checks
from simulator.analysis.conformance.replaying import replay_contest, rulings_of
from simulator.analysis.conformance.wording import STATUS, who
from simulator.engine.result import ContestResult
from simulator.input.importer import (
    ContestReturns,
    ResultsFile,
    build_scenario_dict,
    returns_events,
    split_contest_name,
)
from simulator.input.seats import SeatRule, seats_for, single_office
from simulator.law.vocab import DeadlineKind, Method
from simulator.model.events import is_write_in

#: What the data cannot show, for the contests whose November record disagrees with the engine
#: (or needs a word): (town, year, office key) -> explanation. Each is checked by the tests to
#: cover every disagreement the shared data produces.
EXPLANATIONS: dict[tuple[str, int, str], str] = {
    ("Elizabeth City", 2011, "CITY OF ELIZABETH CITY COUNCILMAN 3RD WARD"): (
        "A reading of G.S. 163-293(b)(2), not arithmetic. Two seats, 852 votes: a majority is more "
        "than 213, and Kem Spence has 212 (the rows include the one-stop, absentee and provisional "
        "units, so the count looks final), so nobody is elected by majority; Spence and Brooks "
        "lead, Stallings and Boone may request. Under the default reading of who is on a group "
        "runoff ballot a request by Stallings puts every remaining leader on the ballot: Spence, "
        "Brooks, Stallings for two seats. The November runoff was Brooks against Stallings only, "
        "without Spence: the board evidently declared Spence elected and gave the requester one "
        "runoff place against the lowest leader (one seat), a reading the statute's wording allows "
        "and the engine offers as the switch `group_runoff_ballot: pairwise` (replayed with it, "
        "the engine seats Spence and calls Brooks against Stallings, as happened). The only other "
        "explanation, a certified count two votes higher for Spence than this uncertified "
        "conversion, the data cannot show."
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
# Results


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
class Report:
    """The runoff towns' October contests checked, the calendar checked, and the November
    contests of those towns with no October election."""

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
# Replaying


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
        events.extend(
            returns_events(
                nov.precincts,
                nov_day,
                ballot_names=names,
                method=Method.RUNOFF,
                held=DeadlineKind.RUNOFF_ELECTION,
            )
        )
    return {**doc, "events": events}


def _threshold(result: ContestResult) -> str:
    found = rulings_of(result, "majority_threshold")
    return str(found[0].get("threshold")) if found else ""


def _majority_winners(result: ContestResult) -> tuple[str, ...]:
    out: list[str] = []
    for r in rulings_of(result, "elected"):
        if any(c.section == "163-293" and c.sub.startswith("(a)") for c in r.cites):
            out.extend(r.candidates)
    return tuple(out)


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
    """One October contest replayed and set against November: the engine's verdict first,
    then, when the data has a November file, whether a runoff was held and on what ballot."""
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
    base = _october_verdict(base, doc, returns, rule, oct_day)
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
        return _without_runoff(base, known)
    return _against_runoff(base, doc, returns, runoffs[0], nov_day, known)


def _october_verdict(
    base: Check, doc: dict[str, Any], returns: ContestReturns, rule: SeatRule, oct_day: date
) -> Check:
    """``base`` with the engine's verdict on the October contest ``doc``: a majority, elected
    unopposed, no majority (and who may request a runoff), or a tie for first (and who would be
    in its runoff after the recount); still pending, if so."""
    result = replay_contest(doc)
    threshold = _threshold(result)
    majority = _majority_winners(result)
    recount = rulings_of(result, "recount_required")
    available = rulings_of(result, "runoff_available")
    tied: tuple[str, ...] = ()
    if recount:
        tied = tuple(recount[0].candidates)
        after = replay_contest(_runoff_events(doc, (), None, {}, oct_day, recount=True))
        eligible = tuple(after.outcome.runoff_candidates) or tied
        leaders: tuple[str, ...] = ()
        verdict = "tie"
        engine = f"tie for first, {' = '.join(tied)}: recount, then a runoff between them"
    elif available:
        eligible = tuple(available[0].candidates)
        leaders = tuple(n for n in result.outcome.elected if n not in majority)
        verdict = "no majority"
        engine = (
            f"majority: {who(majority)}; " if majority else ""
        ) + f"no majority: {who(leaders)} leads; runoff available to {who(eligible)}"
    else:
        eligible, leaders = (), ()
        verdict = "unopposed" if len(returns.filers) <= rule.seats else "majority"
        engine = (
            f"majority: {who(result.outcome.elected)}"
            if verdict == "majority"
            else f"elected unopposed: {who(result.outcome.elected)}"
        )
        if result.outcome.pending is not None:
            verdict = f"pending {result.outcome.pending.value}"
            engine = f"{engine}; still waiting for: {result.outcome.pending.value}"
    return attrs.evolve(
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


def _without_runoff(base: Check, known: str) -> Check:
    """A contest November holds no runoff for: right where the engine found a majority or
    nobody requested one; wrong after a tie, whose runoff the engine calls."""
    if base.verdict in ("majority", "unopposed"):
        return attrs.evolve(base, november="no runoff", agree=True, explanation=known)
    if base.verdict == "no majority":
        return attrs.evolve(
            base,
            november="no runoff",
            agree=True,
            explanation=known
            or (
                f"no runoff was held, so {who(base.leaders)} elected, as the engine declares "
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


def _against_runoff(
    base: Check,
    doc: dict[str, Any],
    returns: ContestReturns,
    nov: ContestReturns,
    nov_day: date,
    known: str,
) -> Check:
    """A contest November holds a runoff for: wrong where the engine found a majority; else
    the October contest replayed on, with the requests of those on November's ballot and its
    returns as the runoff's votes, and the engine's runoff ballot set against November's."""
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
    if base.verdict in ("majority", "unopposed"):
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
    eligible, leaders = base.eligible, base.leaders
    requests = [n for n in ballot if n in eligible and n not in leaders]
    after = replay_contest(
        _runoff_events(doc, requests, nov, names, nov_day, recount=base.verdict == "tie")
    )
    engine_ballot = tuple(after.outcome.runoff_candidates)
    winners = tuple(after.outcome.elected)
    same_ballot = set(engine_ballot) == set(ballot)
    outsiders = [n for n in ballot if n not in eligible and n not in leaders]
    if same_ballot:
        top = [names.get(n, n) for n in totals if not is_write_in(n)][:1]
        elected = [w for w in winners if w in ballot]
        explanation = known or (
            f"the runoff ballot is the engine's ({who(engine_ballot)}); replaying the "
            f"November returns through it the engine elects {who(elected)}"
            + ("" if elected == top else f", not {who(top)} (check the runoff count)")
        )
    else:
        explanation = known or (
            f"the engine's runoff ballot would be {who(engine_ballot)}, November's was "
            f"{who(ballot)}"
            + (f"; {who(outsiders)} were not eligible" if outsiders else "")
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


def run_conformance(
    data_dir: str | Path | None = None,
    *,
    towns: Sequence[str] = TOWNS,
    years: Iterable[int] = range(FIRST_YEAR, LAST_YEAR + 1),
    elections_only: bool = False,
) -> Report:
    """Check every October contest of ``towns`` in ``years`` against November (see the module
    docstring); with ``elections_only``, only the contests the data shows to be elections, not
    primaries (:func:`~simulator.analysis.conformance.matching.october_kind`), for towns whose
    method
    changed. Raises :class:`ImportResultsError` when there is no data folder."""
    folder = data_folder(data_dir)
    files = files_by_month(folder)
    checks: list[Check] = []
    november_only: list[tuple[str, int, str, str]] = []
    for year in years:
        october = files.get((year, 10))
        november = files.get((year, 11))
        oct_results = results_file(october) if october else None
        nov_results = results_file(november) if november else None
        paired: set[str] = set()
        if oct_results is not None and october is not None:
            oct_day = file_day(october)
            for returns in oct_results.contests:
                town = town_of(returns.name, towns)
                if town is None or not is_office(returns):
                    continue
                if elections_only and october_kind(returns)[0] is not OctoberKind.ELECTION:
                    continue
                check = _check(
                    town,
                    year,
                    returns,
                    oct_day,
                    nov_results,
                    file_day(november) if november else None,
                )
                checks.append(check)
                if nov_results is not None:
                    paired.update(c.name for c in match_contest(returns.name, nov_results.contests))
        if nov_results is not None:
            for returns in nov_results.contests:
                town = town_of(returns.name, towns)
                if town is None or not is_office(returns) or returns.name in paired:
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
