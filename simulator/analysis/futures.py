"""What can happen from here: every way a contest can still end, from what the board knew at a
moment, as branches grouped by outcome (``electsim next``; docs/futures.md).

No second model of the law: each continuation is a log extended by a few events (the returns
still to come in each ranking class, the canvass on its day, a request in time or none, a lot,
each answer to a pending board decision, up to ``departures`` deaths), replayed by the engine.
The branches keep, for each outcome the replays reach, the continuation with the fewest added
events: its condition in words and as data, the rulings it adds and its witness scenario.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any

import attrs

from simulator.analysis.explore.votes import realize as realize_class
from simulator.analysis.explore.votes import threshold_share, vote_classes
from simulator.engine.replay import as_instant, replay
from simulator.engine.result import ContestResult
from simulator.input.loader.writing import scenario_to_dict, yaml_text
from simulator.law.vocab import (
    Choice,
    DeadlineKind,
    Decision,
    Method,
    Pending,
    RulingKind,
    RunoffStatus,
)
from simulator.model.events import (
    BallotsPrinted,
    CandidateDied,
    CandidateFiled,
    CanvassHeld,
    Event,
    LotDrawn,
    NomineeNamed,
    RecountHeld,
    ReprintDetermined,
    ReturnsReported,
    RunoffRequested,
)
from simulator.model.scenario import Scenario

FUTURES_FORMAT = "electsim-futures/v1"

#: rankings of more candidates than this are enumerated only as far as the method reads them
#: (who leads, the runner-up, who is over the threshold), not as whole rankings
WHOLE_RANKINGS_UP_TO = 5
#: how many continuations of one contest are replayed at most
MAX_CONTINUATIONS = 2000
#: the steps a continuation may take after the cut (returns, canvass, request, lot, decision)
MAX_STEPS = 8

BOUNDS = (
    f"rankings of up to {WHOLE_RANKINGS_UP_TO} candidates in every class (beyond, only the "
    "places the method reads); departures are deaths, one moment in each stretch of the "
    "calendar; a runoff's own returns are not enumerated (a branch that calls a runoff ends "
    f"there); at most {MAX_CONTINUATIONS} continuations per contest"
)


@attrs.frozen
class Step:
    """One added event with its condition as data and in words."""

    event: Event
    when: tuple[tuple[str, Any], ...]
    words: str


@attrs.frozen
class Branch:
    """One way the contest can end: its outcome, the simplest condition that leads there, the
    rulings and deadlines it brings and the witness scenario (YAML text)."""

    outcome: dict[str, Any]
    condition: str
    when: tuple[dict[str, Any], ...]
    rulings: tuple[tuple[str, str], ...]
    deadlines: tuple[tuple[str, str], ...]
    witness: str
    added: int
    order: int
    ties: int = 0  # how many candidates the condition ties (fewer: a simpler condition)

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "condition": self.condition,
            "when": [dict(w) for w in self.when],
            "rulings": [{"kind": k, "cite": c} for k, c in self.rulings],
            "deadlines": [{"kind": k, "due": d} for k, d in self.deadlines],
            "witness": self.witness,
        }


@attrs.frozen
class ContestFutures:
    id: str
    state: str
    branches: tuple[Branch, ...]
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "state": self.state,
            "branches": [b.to_json() for b in self.branches],
            "notes": list(self.notes),
        }


@attrs.frozen
class Futures:
    """The futures of every contest of a scenario (:func:`futures`)."""

    scenario: str
    as_of: datetime | None
    departures: int
    contests: tuple[ContestFutures, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FUTURES_FORMAT,
            "scenario": self.scenario,
            "as_of": self.as_of.isoformat() if self.as_of else None,
            "departures": self.departures,
            "bounds": BOUNDS,
            "contests": [c.to_json() for c in self.contests],
        }

    def words(self) -> str:
        """The futures in words: per contest, each branch's condition, outcome and rulings."""
        lines = [f"What can happen from here: {self.scenario}"]
        if self.as_of is not None:
            lines.append(f"as the board knew it at {self.as_of:%a %Y-%m-%d %H:%M}")
        for c in self.contests:
            lines.append("")
            lines.append(f"{c.id} (now: {c.state.replace('_', ' ')})")
            for b in c.branches:
                lines.append(f"  - {b.condition}: {_outcome_words(b.outcome)}")
                if b.rulings:
                    said = "; ".join(f"{k.replace('_', ' ')} ({c_})" for k, c_ in b.rulings)
                    lines.append(f"      rulings: {said}")
            for n in c.notes:
                lines.append(f"  Not covered: {n}")
        lines.append("")
        lines.append(f"Bounds: {BOUNDS}.")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.words()


def _outcome_words(o: dict[str, Any]) -> str:
    parts = []
    if o["elected"]:
        parts.append("elected " + ", ".join(o["elected"]))
    if o["nominated"]:
        parts.append("nominated " + ", ".join(o["nominated"]))
    if o["vacant_seats"]:
        parts.append(f"{o['vacant_seats']} seat(s) vacant")
    run = o["runoff"]
    if run["status"] != "none":
        parts.append(f"runoff {run['status']}: " + ", ".join(run["candidates"]))
    if o["pending"]:
        parts.append("still waiting for " + o["pending"].replace("_", " "))
    return "; ".join(parts) or "nobody elected"


def _day(t: datetime) -> str:
    return f"{t:%a %Y-%m-%d %H:%M}"


def _at(scenario: Scenario, t: datetime) -> datetime:
    return as_instant(t, scenario.events[0].at.tzinfo) if scenario.events else t  # type: ignore[arg-type]


def _extended(scenario: Scenario, base: Sequence[Event], added: Sequence[Step]) -> Scenario:
    """``base`` with the added events placed where the board learns them, re-indexed."""
    events = list(base)
    for s in added:
        k = len(events)
        for i, e in enumerate(events):
            if e.known_at > s.event.known_at:
                k = i
                break
        events.insert(k, s.event)
    return attrs.evolve(scenario, events=tuple(attrs.evolve(e, index=0) for e in events))


def _ballot(result: ContestResult, base: Sequence[Event], contest: str) -> list[str]:
    """The candidates whose names are on the ballot (filed, not rejected or removed)."""
    names = [
        e.candidate
        for e in base
        if isinstance(e, (CandidateFiled, NomineeNamed)) and e.contest == contest
    ]
    gone = {
        c
        for r in result.rulings
        if r.kind in (RulingKind.FILING_REJECTED, RulingKind.NAME_REMOVED)
        for c in r.candidates
    }
    return list(dict.fromkeys(n for n in names if n not in gone))


def _deadline(result: ContestResult, kind: DeadlineKind) -> datetime | None:
    found = [d.due for d in result.deadlines if d.kind is kind]
    return found[-1] if found else None


def _dead(added: Sequence[Step]) -> set[str]:
    return {s.event.candidate for s in added if isinstance(s.event, CandidateDied)}


def _ranking_words(order: Sequence[Sequence[str]], above: int | None, dead: set[str]) -> str:
    def who(n: str) -> str:
        return f"{n} (dead)" if n in dead else n

    first = order[0]
    if len(first) > 1:
        text = f"{' and '.join(who(n) for n in first)} tie for the most votes"
    else:
        text = f"{who(first[0])} polls the most votes"
    if above is not None:
        text += " with a majority" if above > 0 else " without a majority"
    if len(order) > 1 and len(first) == 1:
        second = order[1]
        text += f", {' and '.join(who(n) for n in second)} second"
    return text


def _returns(
    scenario: Scenario, result: ContestResult, base: Sequence[Event], added: Sequence[Step], c: Any
) -> Iterator[list[Step]]:
    """The returns of the round still to be counted, one per ranking class, then the canvass."""
    names = _ballot(result, base, c.id)
    if not names:
        return
    night = _deadline(result, DeadlineKind.ELECTION_DAY) or _deadline(
        result, DeadlineKind.PRIMARY_DAY
    )
    canvass = _deadline(result, DeadlineKind.CANVASS)
    if night is None or canvass is None:
        return
    latest = max([e.known_at for e in base] + [s.event.known_at for s in added])
    at = _at(scenario, night.replace(hour=21, minute=0))
    if at <= latest:
        at = latest + timedelta(minutes=1)
    canvass_at = canvass if canvass > at else at + timedelta(minutes=1)
    method = Method(c.method)
    share = threshold_share(method, c.seats)
    places = None if len(names) <= WHOLE_RANKINGS_UP_TO else 2 * c.seats + 2
    dead = _dead(added) | {
        e.candidate for e in base if isinstance(e, CandidateDied) and e.contest == c.id
    }
    for vc in vote_classes(method, c.seats, len(names), places=places):
        counts = realize_class(vc, share)
        if counts is None:
            continue
        # who sits where: every placement would multiply the classes; the candidates are
        # placed in each order of the leading groups (the first two places), the rest in order
        for order in _placements(names, vc.groups):
            flat = [n for g in order for n in g]
            returns = ReturnsReported(
                at=at, contest=c.id, counts=tuple(zip(flat, counts, strict=True))
            )
            when: tuple[tuple[str, Any], ...] = (
                ("kind", "ranking"),
                ("leader", order[0][0] if len(order[0]) == 1 else None),
                ("tied", list(order[0]) if len(order[0]) > 1 else []),
                ("second", list(order[1]) if len(order) > 1 else []),
                ("majority", None if vc.above is None else vc.above > 0),
            )
            words = "if " + _ranking_words(order, vc.above, dead)
            yield [
                Step(returns, when, words),
                Step(CanvassHeld(at=canvass_at, contest=c.id), (), ""),
            ]


def _placements(names: Sequence[str], groups: Sequence[int]) -> Iterator[list[list[str]]]:
    """The candidates placed in the groups: each choice of the first group and of the second,
    the rest in the ballot's order (the methods read the first places: votes.depth)."""
    from itertools import combinations

    n0 = groups[0]
    for first in combinations(names, n0):
        rest = [n for n in names if n not in first]
        if len(groups) == 1:
            yield [list(first)]
            continue
        n1 = groups[1]
        for second in combinations(rest, n1):
            tail = [n for n in rest if n not in second]
            out = [list(first), list(second)]
            i = 0
            for g in groups[2:]:
                out.append(tail[i : i + g])
                i += g
            yield out


def _next_steps(
    scenario: Scenario,
    result: ContestResult,
    base: Sequence[Event],
    added: Sequence[Step],
    c: Any,
) -> list[list[Step]] | None:
    """The continuations one step further, or None where the contest ends here."""
    latest = max([e.known_at for e in base] + [s.event.known_at for s in added])
    later = latest + timedelta(hours=1)
    for d in result.decisions:
        if d.decision is Decision.REPRINT:
            out = []
            for o in d.options:
                enough = o.choice is Choice.ENOUGH_TIME
                ev = ReprintDetermined(at=later, contest=c.id, enough_time=enough)
                words = (
                    "if the board finds there is " + ("" if enough else "not ") + "time to reprint"
                )
                out.append([Step(ev, (("kind", "decision"), ("choice", o.choice.value)), words)])
            return out
    pending = result.outcome.pending
    if result.outcome.runoff_status is RunoffStatus.CALLED:
        return None
    avail = result.ruling(RulingKind.RUNOFF_AVAILABLE)
    due = _deadline(result, DeadlineKind.RUNOFF_REQUEST)
    asked = any(isinstance(e, RunoffRequested) for e in [*base, *(a.event for a in added)])
    if avail is not None and avail.candidates and due is not None and due > later and not asked:
        # (the replay of a log that ends lets the request deadline pass: asking in time is
        # the other way on)
        who = avail.candidates[0]
        asks = RunoffRequested(at=max(due - timedelta(hours=1), later), contest=c.id, candidate=who)
        words = f"{who}, second, asks for a runoff by {_day(due)}"
        return [[Step(asks, (("kind", "request"), ("candidate", who)), words)], []]
    if pending is Pending.VOTES:
        return list(_returns(scenario, result, base, added, c))
    if pending is Pending.CANVASS:
        canvass = _deadline(result, DeadlineKind.CANVASS) or later
        return [[Step(CanvassHeld(at=max(canvass, later), contest=c.id), (), "")]]
    if pending is Pending.RUNOFF_REQUEST:
        avail = result.ruling(RulingKind.RUNOFF_AVAILABLE)
        due = _deadline(result, DeadlineKind.RUNOFF_REQUEST)
        if avail is None or due is None:
            return None
        who = avail.candidates[0]
        asks = RunoffRequested(at=max(due - timedelta(hours=1), later), contest=c.id, candidate=who)
        words = f"{who}, second, asks for a runoff by {_day(due)}"
        ask = [Step(asks, (("kind", "request"), ("candidate", who)), words)]
        return [ask, []]  # (asking, or not: the log ends and the deadline passes)
    if pending is Pending.LOT:
        tied = (
            next(
                (
                    r.candidates
                    for r in reversed(result.rulings)
                    if r.kind is RulingKind.RECOUNT_REQUIRED
                ),
                (),
            )
            or tuple(result.votes)[:2]
        )
        return [
            [
                Step(
                    LotDrawn(at=later, contest=c.id, winner=w),
                    (("kind", "lot"), ("winner", w)),
                    f"{w} wins the drawing of lots",
                )
            ]
            for w in tied
        ]
    if pending is Pending.RECOUNT:
        counts = tuple(result.votes.items())
        recount = RecountHeld(at=later, contest=c.id, counts=counts)
        return [[Step(recount, (("kind", "recount"),), "the recount confirms the count")]]
    return None


def _departures(
    scenario: Scenario, result: ContestResult, base: Sequence[Event], c: Any, cut: datetime
) -> list[Step]:
    """A death of each standing candidate at one moment of each stretch of the calendar after
    the cut where the law treats it differently."""
    names = _ballot(result, base, c.id)
    dead = {e.candidate for e in base if isinstance(e, CandidateDied) and e.contest == c.id}
    printed = any(isinstance(e, BallotsPrinted) and e.contest == c.id for e in base)
    night = _deadline(result, DeadlineKind.ELECTION_DAY) or _deadline(
        result, DeadlineKind.PRIMARY_DAY
    )
    canvass = _deadline(result, DeadlineKind.CANVASS)
    moments: list[tuple[datetime, str]] = []
    if night is not None:
        vote_day = _at(scenario, night.replace(hour=0, minute=0))
        if cut + timedelta(hours=1) < vote_day:
            stretch = (
                "after the ballots are printed" if printed else "before the ballots are printed"
            )
            moments.append((cut + timedelta(hours=1), stretch))
        after_vote = _at(scenario, night.replace(hour=22, minute=0))
        if after_vote > cut and (canvass is None or after_vote < canvass):
            moments.append((after_vote, "after the vote, before the canvass"))
    if canvass is not None:
        declared = max(canvass, cut) + timedelta(hours=1)
        moments.append((declared, "after the result is declared, before the oath"))
    out = []
    for at, stretch in moments:
        for n in names:
            if n in dead:
                continue
            ev = CandidateDied(at=at, contest=c.id, candidate=n)
            when = (("kind", "death"), ("candidate", n), ("stretch", stretch))
            out.append(Step(ev, when, f"{n} dies {stretch} ({at:%Y-%m-%d})"))
    return out


def _contest_futures(
    scenario: Scenario, base: tuple[Event, ...], c: Any, cut: datetime, departures: int
) -> ContestFutures:
    start = replay(attrs.evolve(scenario, events=base)).contest(c.id)
    found: dict[str, Branch] = {}
    notes: list[str] = []
    replays = 0
    seq = 0

    def explore(added: list[Step], order: int, left: int, steps: int) -> None:
        nonlocal replays, seq
        if replays >= MAX_CONTINUATIONS:
            return
        s = _extended(scenario, base, added)
        replays += 1
        r = replay(s).contest(c.id)
        nxt = _next_steps(scenario, r, base, added, c) if steps < MAX_STEPS else None
        if not nxt:
            _record(s, r, added, order)
        else:
            for more in nxt:
                if more:
                    explore([*added, *more], order, left, steps + 1)
                else:  # (the continuation that adds nothing: the log ends here)
                    _record(s, r, added, order)

    def _record(s: Scenario, r: ContestResult, added: list[Step], order: int) -> None:
        nonlocal seq
        kinds_added = {dict(a.when).get("kind") for a in added if a.when}
        order = 2 if "death" in kinds_added else 1 if "request" in kinds_added else 0
        kinds = {(x.kind.value, x.cite) for x in start.rulings}
        new_rulings = tuple(
            (x.kind.value, x.cite) for x in r.rulings if (x.kind.value, x.cite) not in kinds
        )
        # (one branch per outcome and the kinds of rulings that lead there: elected with a
        # majority and elected because nobody asked for a runoff are two ways to end)
        skip = (RulingKind.MAJORITY_THRESHOLD, RulingKind.NO_PROVISION)
        decisive = sorted({k for k, _ in new_rulings if k not in skip})
        key = json.dumps([r.outcome.to_json(), decisive], sort_keys=True)
        size = sum(1 for a in added if a.words)
        ties = sum(
            len(w.get("tied", [])) + max(0, len(w.get("second", [])) - 1)
            for w in (dict(a.when) for a in added if a.when)
        )
        old = found.get(key)
        if old is not None and (old.order, old.added, old.ties) <= (order, size, ties):
            return
        seq += 1
        deadlines = tuple(
            (d.kind.value, d.due.isoformat())
            for d in r.deadlines
            if d.due > cut and (d.state is None or d.state.value != "void")
        )
        words = [a.words for a in added if a.words]
        asked = any(dict(a.when).get("kind") == "request" for a in added if a.when)
        if not asked and start.outcome.pending in (
            Pending.VOTES,
            Pending.CANVASS,
            Pending.RUNOFF_REQUEST,
        ):
            avail = r.ruling(RulingKind.RUNOFF_AVAILABLE)
            if avail is not None and r.outcome.runoff_status is not RunoffStatus.CALLED:
                words.append(f"{avail.candidates[0]} does not ask for a runoff in time")
        condition = " and ".join(words) if words else "if nothing more happens"
        if not condition.startswith("if "):
            condition = "if " + condition
        condition = condition.replace(" and if ", " and ")
        found[key] = Branch(
            outcome=r.outcome.to_json(),
            condition=condition,
            when=tuple(dict(a.when) for a in added if a.when),
            rulings=new_rulings,
            deadlines=deadlines,
            witness=yaml_text(scenario_to_dict(attrs.evolve(s, expectations=()))),
            added=size,
            order=order,
            ties=ties,
        )

    explore([], 0, departures, 0)
    if departures > 0:
        for d in _departures(scenario, start, base, c, cut):
            explore([d], 2, departures - 1, 0)
    if departures > 1:
        notes.append("a second departure is not enumerated yet (one is)")
    if replays >= MAX_CONTINUATIONS:
        notes.append(f"the enumeration stopped at {MAX_CONTINUATIONS} continuations")
    notes.append("a runoff's own returns: a branch that calls a runoff ends there")
    branches = sorted(found.values(), key=lambda b: (b.order, b.added, b.ties, b.condition))
    return ContestFutures(c.id, start.state, tuple(branches), tuple(notes))


def futures(scenario: Scenario, as_of: datetime | None = None, departures: int = 1) -> Futures:
    """Every way each contest of ``scenario`` can still end, from what the board knew at
    ``as_of`` (None: the whole log), with up to ``departures`` further deaths (0 to 2)."""
    if not 0 <= departures <= 2:
        raise ValueError(f"departures: expected 0, 1 or 2; found {departures}")
    events = tuple(scenario.events)
    if as_of is not None:
        events = tuple(e for e in events if e.known_at <= as_of)
    cut = as_of if as_of is not None else (max(e.known_at for e in events) if events else None)
    if cut is None:
        raise ValueError("the log has no events to start from")
    contests = tuple(
        _contest_futures(scenario, events, c, cut, departures) for c in scenario.contests
    )
    return Futures(scenario.title, as_of, departures, contests)
