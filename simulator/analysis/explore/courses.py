"""Every abstract course of events of a configuration, as a concrete log: the beginnings up to
the vote, each ranking class of the returns with the departed candidates' places, and what
follows the vote; beginnings that reach a canonical state reached before end there.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any

from simulator.analysis.explore.after_vote import courses_after_vote
from simulator.analysis.explore.before_vote import (
    LATE_FILER,
    courses_before_vote,
    filings_of,
    nominee_event,
)
from simulator.analysis.explore.config import Config
from simulator.analysis.explore.documents import dates_of, iso_minutes
from simulator.analysis.explore.folds import folds_of, run
from simulator.analysis.explore.outcomes import Course
from simulator.analysis.explore.votes import (
    VoteClass,
    depth,
    distinct_places,
    leading,
    realize,
    threshold_share,
    vote_classes,
)
from simulator.engine.result import ContestResult
from simulator.law.vocab import Pending, RulingKind
from simulator.model.events import CandidateFiled, CanvassHeld, NomineeNamed, ReturnsReported


def _removed(result: ContestResult, name: str) -> bool:
    return any(r.kind is RulingKind.NAME_REMOVED and name in r.candidates for r in result.rulings)


def _ranked(names: Sequence[str], vc: VoteClass, counts: Sequence[int]) -> dict[str, int]:
    return dict(zip(names, counts, strict=True))


def _order(names_live: list[str], departed: list[str], vc: VoteClass, place: int) -> list[str]:
    """The ballot's names best first, the ``departed`` first in group ``place``."""
    if not departed:
        return list(names_live)
    start = sum(vc.groups[:place])
    return [*names_live[:start], *departed, *names_live[start:]]


def courses(
    config: Config, *, reduce: bool = True, memo: bool = True
) -> Iterator[tuple[Course, tuple[str, ...]]]:
    """Every abstract course of the configuration as a concrete log, with the departed names.

    Shorter courses come first within each family, so the first course reaching an outcome is a
    shortest witness among those enumerated. With ``reduce``, rankings are read only as deep as
    the method reads them (:func:`depth`, less deep past each candidate over the threshold:
    :func:`read_depth`), and the threshold only for the places that can take a seat
    (:func:`leading`): candidates below are interchangeable losers. With
    ``memo``, the courses from a state at the vote are enumerated once: a later beginning that
    reaches the same canonical state
    (:func:`~simulator.analysis.explore.states.ballot_state`, the same ballot) with no fewer
    events ends there, as a course marked ``merged`` (its own rulings and deadlines count for
    the coverage; its futures are those already enumerated). Likewise a course that calls a
    runoff in a canonical state reached before
    (:func:`~simulator.analysis.explore.states.call_state`) with no fewer events is marked
    ``joined``: it has its own outcome, and the runoff's courses after it are not enumerated
    again.
    """
    seen: dict[Hashable, int] = {}
    # the canonical states at a runoff's call expanded, each with the length of its log
    calls: dict[Hashable, int] | None = {} if memo else None
    method = config.reads
    read = depth(method, config.seats, config.departures) if reduce else None
    lead = leading(config.seats, config.departures) if reduce else None
    d = dates_of(config)
    filings = filings_of(config)
    names = [e["candidate"] for e in filings]
    for steps0, evs0, gone, terminal in courses_before_vote(config, d, names):
        log0 = filings + evs0
        if terminal:
            yield Course(tuple(["file", *steps0]), tuple(log0)), tuple(gone)
            continue
        # what the board knows the day before the vote: the close and any reopened or extended
        # filing have passed by then
        before = run(config, log0, as_of=d["vote"] - timedelta(days=1))
        if before.outcome.pending is Pending.NOMINATION and gone:
            # G.S. 163-114: the party names a nominee before the vote, and the vote follows
            evs0 = [*evs0, nominee_event(config, log0, gone)]
            steps0 = [*steps0, f"the party's executive committee names {LATE_FILER}"]
            log0 = filings + evs0
            before = run(config, log0, as_of=d["vote"] - timedelta(days=1))
        on_ballot = _on_ballot(before, names, evs0, gone)
        live = [x for x in on_ballot if x not in gone]
        departed_on_ballot = [x for x in on_ballot if x in gone]
        m = len(on_ballot)
        if m == 0 or before.outcome.pending is not Pending.VOTES:
            # the course ends before any vote: nobody left, or no election or primary is held
            yield Course(tuple(["file", *steps0]), tuple(log0)), tuple(gone)
            continue
        if memo:
            key = (
                folds_of(config).ballot_key(
                    log0,
                    d["vote"] - timedelta(days=1),
                    settled=len(gone) >= config.departures,
                ),
                tuple(on_ballot),
                tuple(departed_on_ballot),
                tuple(gone),
            )
            first = seen.get(key)
            if first is not None and first <= len(log0):
                steps = ("file", *steps0, "the same state at the vote as a course before")
                yield Course(steps, tuple(log0), before, merged=True), tuple(gone)
                continue
            seen[key] = len(log0)
        ballots = _ballots(config, d["vote"], live, departed_on_ballot, read=read, lead=lead)
        folds_of(config).read_ahead(log0, [b[3] for b in ballots])
        for vc, place, order, returns in ballots:
            vstep = f"returns: {vc.describe()}"
            if departed_on_ballot:
                vstep += f", {' and '.join(departed_on_ballot)} in group {place + 1}"
            canvass = {"type": CanvassHeld.type, "at": iso_minutes(d["canvass"])}
            base_steps = ["file", *steps0, vstep, "canvass"]
            yield from courses_after_vote(
                config, d, base_steps, log0, returns, canvass, order, vc, gone, read, calls
            )


def _on_ballot(
    before: ContestResult, names: Sequence[str], evs0: Sequence[dict[str, Any]], gone: Sequence[str]
) -> list[str]:
    """Who is on the ballot at the vote (``before``: the contest the day before): the filers
    and newcomers, less a departed candidate taken off it and a rejected filing."""
    newcomers = [
        e["candidate"] for e in evs0 if e["type"] in (CandidateFiled.type, NomineeNamed.type)
    ]
    everyone = [*names, *newcomers]
    on_ballot = [
        x
        for x in everyone
        if not (x in gone and _removed(before, x))
        and not any(
            r.kind is RulingKind.FILING_REJECTED and x in r.candidates for r in before.rulings
        )
    ]
    if any(e["type"] == NomineeNamed.type for e in evs0) and any(x in gone for x in on_ballot):
        # the departed nominee's name stays printed and its votes count for the party's
        # new nominee (08 NCAC 06B .0104): the new nominee has no place of their own
        on_ballot.remove(LATE_FILER)
    return on_ballot


def _ballots(
    config: Config,
    vote: datetime,
    live: list[str],
    departed_on_ballot: list[str],
    *,
    read: int | None,
    lead: int | None,
) -> list[tuple[VoteClass, int, list[str], dict[str, Any]]]:
    """Each ranking class of the vote that some counts realise, with its returns, once for
    each place a departed candidate on the ballot can take: the class, the place, the order of
    the names and the returns event."""
    method = config.reads
    share = threshold_share(method, config.seats)
    m = len(live) + len(departed_on_ballot)
    ballots = []
    for vc in vote_classes(method, config.seats, m, places=read, lead=lead):
        counts = realize(vc, share)
        if counts is None:
            continue
        places = distinct_places(vc, read, config.seats) if departed_on_ballot else [0]
        for place in places:
            order = _order(live, departed_on_ballot, vc, place)
            returns = {
                "type": ReturnsReported.type,
                "at": iso_minutes(vote),
                "counts": _ranked(order, vc, counts),
            }
            ballots.append((vc, place, order, returns))
    return ballots
