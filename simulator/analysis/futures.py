"""What can happen from here: every way a contest can still end, from what the board knew at a
moment, as branches grouped by outcome (``electsim next``; docs/futures.md).

No second model of the law: each continuation is a log extended by a few events (the returns
still to come in each ranking class, the canvass on its day, a request in time or none, a lot,
each answer to a pending board decision, up to ``departures`` deaths), replayed by the engine.
The branches keep, for each outcome the replays reach, the continuation with the fewest added
events: its condition in words and as data, the rulings it adds and its witness scenario.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any

import attrs

from simulator.analysis.explore.votes import realize as realize_class
from simulator.analysis.explore.votes import threshold_share, vote_classes
from simulator.analysis.whatif.display import futures_html
from simulator.engine.build import result_of
from simulator.engine.fold import fold
from simulator.engine.replay import PrefixReplay, as_instant, finish, replay
from simulator.engine.result import ContestResult, listed_deadlines
from simulator.engine.state import State, initial_state
from simulator.input.loader import parse_scenario
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
    CandidateDisqualified,
    CandidateEvent,
    CandidateFiled,
    CandidateWithdrew,
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
from simulator.views.branches import outcome_of

FUTURES_FORMAT = "electsim-futures/v1"

#: rankings of more candidates than this are enumerated only as far as the method reads them
#: (who leads, the runner-up, who is over the threshold), not as whole rankings
WHOLE_RANKINGS_UP_TO = 5
#: how many continuations of one contest are replayed at most
MAX_CONTINUATIONS = 2000
#: the steps a continuation may take after the cut (returns, canvass, request, lot, decision)
MAX_STEPS = 8

BOUNDS = (
    f"rankings of up to {WHOLE_RANKINGS_UP_TO} candidates in every class and placement "
    "(beyond, only the places the method reads, and the candidates placed in each rotation of "
    "the ballot's order); departures are deaths, withdrawals and disqualifications, one "
    "moment in each stretch of the calendar, a second one (departures=2) only in the same "
    "stretch or a later one and by a death; a runoff's returns in every ranking class of its "
    f"ballot, then its canvass; at most {MAX_CONTINUATIONS} continuations per contest and "
    "departure (half for the count and the requests, half shared by the departures)"
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
    added: int
    order: int
    ties: int = 0  # how many candidates the condition ties (fewer: a simpler condition)
    #: writes the witness (on first reading: most branches found are replaced by simpler ones)
    make_witness: Callable[[], str] = attrs.field(default=str, eq=False, repr=False)
    _written: dict[str, str] = attrs.field(factory=dict, eq=False, repr=False)

    @property
    def witness(self) -> str:
        """The witness scenario (YAML text): the log extended by the added events."""
        if "yaml" not in self._written:
            self._written["yaml"] = self.make_witness()
        return self._written["yaml"]

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

    def _repr_html_(self) -> str:
        """Jupyter's display: a table of the branches of each contest, in words."""
        return futures_html(self)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython's plain-text display: :meth:`words`."""
        p.text(self.words())

    def words(self) -> str:
        """The futures in words: per contest, each branch's condition, outcome and rulings."""
        lines = [f"What can happen from here: {self.scenario}"]
        if self.as_of is not None:
            lines.append(f"as the board knew it at {self.as_of:%a %Y-%m-%d %H:%M}")
        for c in self.contests:
            lines.append("")
            lines.append(f"{c.id} (now: {c.state.replace('_', ' ')})")
            for b in c.branches:
                lines.append(f"  - {b.condition}: {outcome_of(b.outcome).words()}")
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


def _witness(scenario: Scenario, base: Sequence[Event], added: Sequence[Step]) -> str:
    """The log extended by the added events, as an ``electsim/v1`` scenario (YAML text)."""
    s = _extended(scenario, base, added)
    return yaml_text(scenario_to_dict(attrs.evolve(s, expectations=())))


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


#: how a candidate who could still file is named (SPEC: a new candidate in the words and data)
NEWCOMER = "(new candidate 1)"


def _newcomer(
    result: ContestResult, events: Sequence[Event], later: datetime, contest: str
) -> Step | None:
    """A new candidate filing before a reopened or extended filing period closes, where one is
    still open after ``later`` and nobody new has filed in this continuation."""
    close = _deadline(result, DeadlineKind.REOPENED_FILING_CLOSES) or _deadline(
        result, DeadlineKind.EXTENDED_FILING_CLOSES
    )
    if close is None or close <= later:
        return None
    if any(isinstance(e, CandidateFiled) and e.candidate == NEWCOMER for e in events):
        return None
    at = max(close - timedelta(hours=1), later)
    filed = CandidateFiled(at=at, contest=contest, candidate=NEWCOMER)
    return Step(
        filed,
        (("kind", "filing"), ("candidate", NEWCOMER)),
        f"if a new candidate files by {_day(close)}",
    )


def _request_due(result: ContestResult) -> datetime | None:
    """When the runoff request (G.S. 163-293(c)) or the second primary demand (163-291(6)) of
    the contest is due, if it has one."""
    return _deadline(result, DeadlineKind.RUNOFF_REQUEST) or _deadline(
        result, DeadlineKind.SECOND_PRIMARY_REQUEST
    )


def _request_steps(
    result: ContestResult, who: str, due: datetime, later: datetime, contest: str
) -> list[list[Step]]:
    """The runner-up asking an hour before the deadline, an hour after it (refused), or not at
    all (the log ends and the deadline passes)."""
    asks = RunoffRequested(at=max(due - timedelta(hours=1), later), contest=contest, candidate=who)
    words = f"{who}, second, {_asks(result)} by {_day(due)}"
    ask = [Step(asks, (("kind", "request"), ("candidate", who)), words)]
    return [ask, _late_ask(result, who, due, later, contest), []]


def _late_ask(
    result: ContestResult, who: str, due: datetime, later: datetime, contest: str
) -> list[Step]:
    """The runner-up asking an hour after the deadline: refused, the same outcome as not
    asking, by another ruling (G.S. 163-293(c), 163-291(6))."""
    late = RunoffRequested(at=max(due + timedelta(hours=1), later), contest=contest, candidate=who)
    words = f"{who}, second, {_asks(result)} too late, after {_day(due)}"
    return [Step(late, (("kind", "request"), ("candidate", who), ("late", True)), words)]


def _asks(result: ContestResult) -> str:
    """What the runner-up may do, in words: ask for a runoff, or demand a second primary."""
    if _deadline(result, DeadlineKind.SECOND_PRIMARY_REQUEST) is not None:
        return "demands a second primary"
    return "asks for a runoff"


def _deadline(result: ContestResult, kind: DeadlineKind) -> datetime | None:
    """The latest deadline of ``kind`` the contest lists (where it stands is not read)."""
    return max((d.due for d in listed_deadlines(result) if d.kind is kind), default=None)


def _gone(events: Sequence[Event], contest: str) -> dict[str, str]:
    """The candidates who left the contest, each with a word for how."""
    label: dict[type[Event], str] = {
        CandidateDied: "dead",
        CandidateWithdrew: "withdrawn",
        CandidateDisqualified: "disqualified",
    }
    return {
        e.candidate: label[type(e)]
        for e in events
        if isinstance(e, CandidateEvent) and type(e) in label and e.contest == contest
    }


def _ranking_words(order: Sequence[Sequence[str]], above: int | None, gone: dict[str, str]) -> str:
    def who(n: str) -> str:
        return f"{n} ({gone[n]})" if n in gone else n

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
    names = _ballot(result, [*base, *(a.event for a in added)], c.id)
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
    gone = _gone([*base, *(s.event for s in added)], c.id)
    for vc, order, returns in _ranked_returns(c, names, method, share, places, at):
        when = (
            ("kind", "ranking"),
            *_leading(order),
            ("second", list(order[1]) if len(order) > 1 else []),
            ("majority", None if vc.above is None else vc.above > 0),
        )
        words = "if " + _ranking_words(order, vc.above, gone)
        yield [
            Step(returns, when, words),
            Step(CanvassHeld(at=canvass_at, contest=c.id), (), ""),
        ]


def _ranked_returns(
    c: Any,
    names: Sequence[str],
    method: Method,
    share: Any,
    places: int | None,
    at: datetime,
) -> Iterator[tuple[Any, list[list[str]], ReturnsReported]]:
    """The returns at ``at`` of each ranking class of the votes for ``names`` (with the class
    and the order of the candidates in it). Who sits where: every placement would multiply
    the classes; the candidates are placed in each order of the leading groups (the first two
    places), the rest in order (:func:`_placements`)."""
    for vc in vote_classes(method, c.seats, len(names), places=places):
        counts = realize_class(vc, share)
        if counts is None:
            continue
        for order in _placements(names, vc.groups):
            flat = [n for g in order for n in g]
            yield (
                vc,
                order,
                ReturnsReported(at=at, contest=c.id, counts=tuple(zip(flat, counts, strict=True))),
            )


def _leading(order: Sequence[Sequence[str]]) -> tuple[tuple[str, Any], ...]:
    """Who leads a ranking, as a branch's condition reads it: one leader, or those tied."""
    first = order[0]
    return (
        ("leader", first[0] if len(first) == 1 else None),
        ("tied", list(first) if len(first) > 1 else []),
    )


def _runoff_returns(
    scenario: Scenario, result: ContestResult, base: Sequence[Event], added: Sequence[Step], c: Any
) -> Iterator[list[Step]]:
    """The runoff's returns on its day in every ranking class of the runoff ballot (the most
    votes elect: G.S. 163-293(c)), then its canvass; once (a runoff already counted has none)."""
    if any(dict(a.when).get("kind") == "runoff" for a in added if a.when):
        return
    names = list(result.outcome.runoff_candidates)
    day = _deadline(result, DeadlineKind.RUNOFF_ELECTION)
    which = "runoff"
    if day is None:
        day, which = _deadline(result, DeadlineKind.SECOND_PRIMARY), "second primary"
    if len(names) < 2 or day is None:
        return
    latest = max([e.known_at for e in base] + [s.event.known_at for s in added])
    at = max(_at(scenario, day.replace(hour=21, minute=0)), latest + timedelta(minutes=1))
    # the runoff's canvass on the day the replay lists for it once the runoff is called (the
    # tenth day from 2017, G.S. 163-182.5(b), or the reading that chooses the seventh)
    fixed = [
        d.due for d in listed_deadlines(result) if d.kind is DeadlineKind.CANVASS and d.due > day
    ]
    canvass_at = max(min(fixed), at + timedelta(minutes=1)) if fixed else at + timedelta(days=10)
    gone = _gone([*base, *(s.event for s in added)], c.id)
    places = 2 * c.seats + 2
    for _vc, order, returns in _ranked_returns(c, names, Method.PLURALITY, None, places, at):
        text = _ranking_words(order[:1], None, gone)
        yield [
            Step(returns, (("kind", "runoff"), *_leading(order)), f"if in the {which} {text}"),
            Step(CanvassHeld(at=canvass_at, contest=c.id), (), ""),
        ]


def _placements(names: Sequence[str], groups: Sequence[int]) -> Iterator[list[list[str]]]:
    """The candidates placed in the groups: each choice of the first group and of the second,
    the rest in the ballot's order (the methods read the first places: votes.depth); on a
    ballot of more than :data:`WHOLE_RANKINGS_UP_TO` candidates, each rotation of the ballot's
    order (each candidate leads once, and is in each place once)."""
    from itertools import combinations

    if len(names) > WHOLE_RANKINGS_UP_TO:
        for r in range(len(names)):
            turned = [*names[r:], *names[:r]]
            out, i = [], 0
            for g in groups:
                out.append(turned[i : i + g])
                i += g
            yield out
        return
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
) -> Iterable[list[Step]] | None:
    """The continuations one step further (made as they are read: a long ballot's returns
    are many), or None where the contest ends here."""
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
    # a filing period reopened or extended and still open: someone new may file (or nobody)
    newcomer = _newcomer(result, [*base, *(a.event for a in added)], later, c.id)
    rest = _later_steps(scenario, result, base, added, c, later)
    if newcomer is not None:
        return itertools.chain([[newcomer]], rest if rest is not None else [[]])
    return rest


def _later_steps(
    scenario: Scenario,
    result: ContestResult,
    base: Sequence[Event],
    added: Sequence[Step],
    c: Any,
    later: datetime,
) -> Iterable[list[Step]] | None:
    """The steps of :func:`_next_steps` other than a new candidate's filing."""
    pending = result.outcome.pending
    if result.outcome.runoff_status is RunoffStatus.CALLED:
        return _runoff_returns(scenario, result, base, added, c)
    avail = result.ruling(RulingKind.RUNOFF_AVAILABLE)
    due = _request_due(result)
    asked = any(isinstance(e, RunoffRequested) for e in [*base, *(a.event for a in added)])
    if avail is not None and avail.candidates and due is not None and due > later and not asked:
        # (the replay of a log that ends lets the request deadline pass: asking in time is
        # the other way on)
        return _request_steps(result, avail.candidates[0], due, later, c.id)
    if pending is Pending.VOTES:
        return _returns(scenario, result, base, added, c)
    if pending is Pending.CANVASS:
        canvass = _deadline(result, DeadlineKind.CANVASS) or later
        return [[Step(CanvassHeld(at=max(canvass, later), contest=c.id), (), "")]]
    if pending is Pending.RUNOFF_REQUEST:
        avail = result.ruling(RulingKind.RUNOFF_AVAILABLE)
        due = _request_due(result)
        if avail is None or due is None:
            return None
        return _request_steps(result, avail.candidates[0], due, later, c.id)
    if pending is Pending.LOT:
        # (the tie of the latest round: the lot the engine waits for, drawn among the tied
        # candidates still standing)
        ties = [
            r.candidates
            for r in result.rulings
            if r.kind in (RulingKind.LOT_REQUIRED, RulingKind.RECOUNT_REQUIRED) and r.candidates
        ]
        gone = _gone([*base, *(a.event for a in added)], c.id)
        tied = [n for n in (ties[-1] if ties else tuple(result.votes)[:2]) if n not in gone]
        if added and isinstance(added[-1].event, LotDrawn):
            return None  # (a lot drawn that the engine does not take: the contest ends here)
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


#: each way of leaving: its event, its kind in the data and its verb in the words
LEAVING: tuple[tuple[type[CandidateEvent], str, str], ...] = (
    (CandidateDied, "death", "dies"),
    (CandidateWithdrew, "withdrawal", "withdraws"),
    (CandidateDisqualified, "disqualification", "is disqualified"),
)
DEPARTURE_KINDS = frozenset(kind for _, kind, _ in LEAVING)
AFTER_CALLED = "after the runoff is called, before its vote"


def _moments(
    scenario: Scenario, result: ContestResult, base: Sequence[Event], c: Any, cut: datetime
) -> list[tuple[datetime, str]]:
    """One moment after the cut in each stretch of the calendar where the law treats a departure
    differently (the stretches of ``electsim explore``'s regions), in time order."""
    printed = any(isinstance(e, BallotsPrinted) and e.contest == c.id for e in base)
    close = _deadline(result, DeadlineKind.FILING_CLOSES)
    night = _deadline(result, DeadlineKind.ELECTION_DAY) or _deadline(
        result, DeadlineKind.PRIMARY_DAY
    )
    canvass = _deadline(result, DeadlineKind.CANVASS)
    runoff = _deadline(result, DeadlineKind.RUNOFF_ELECTION)
    soon = cut + timedelta(hours=1)
    vote_day = _at(scenario, night.replace(hour=0, minute=0)) if night is not None else None
    moments: list[tuple[datetime, str]] = []

    def add(at: datetime, before: datetime | None, stretch: str) -> None:
        at = max(at, soon)
        if (before is None or at < before) and (vote_day is None or at < vote_day):
            moments.append((at, stretch))

    if close is not None and not printed:
        # (a week before the close: in time for a party primary's withdrawal, G.S. 163-106(e))
        add(close - timedelta(days=7), close, "before the filing closes")
        add(
            close + timedelta(days=10),
            close + timedelta(days=30),
            "within 30 days after the filing closes, before the ballots are printed",
        )
        add(
            close + timedelta(days=35),
            None,
            "more than 30 days after the filing closes, before the ballots are printed",
        )
    elif printed:
        add(soon, None, "after the ballots are printed")
    elif close is None:
        add(soon, None, "before the ballots are printed")
    if night is not None:
        after_vote = _at(scenario, night.replace(hour=22, minute=0))
        if after_vote > cut and (canvass is None or after_vote < canvass):
            moments.append((after_vote, "after the vote, before the canvass"))
    if canvass is not None:
        declared = max(canvass, cut) + timedelta(hours=1)
        if runoff is None or declared < runoff:
            moments.append((declared, "after the result is declared, before the oath"))
    if runoff is not None and runoff > soon:
        moments.append((max(runoff - timedelta(days=7), soon), AFTER_CALLED))
    return moments


def _departures(
    scenario: Scenario,
    result: ContestResult,
    base: Sequence[Event],
    c: Any,
    cut: datetime,
    after: Sequence[Step] = (),
) -> list[Step]:
    """A death, withdrawal or disqualification of each standing candidate at one moment of each
    stretch of the calendar after the cut where the law treats it differently; after the
    departures ``after`` (a second one), only a death, in the same stretch or a later one."""
    names = _ballot(result, base, c.id)
    gone = {
        e.candidate
        for e in [*base, *(s.event for s in after)]
        if isinstance(e, (CandidateDied, CandidateWithdrew, CandidateDisqualified))
        and e.contest == c.id
    }
    moments = _moments(scenario, result, base, c, cut)
    ways = LEAVING
    if after:
        last = max(s.event.at for s in after)
        moments = [(at, st) for at, st in moments if at >= last]
        moments = [
            (at + timedelta(minutes=30), st) if at == last else (at, st) for at, st in moments
        ]
        ways = LEAVING[:1]
    on_runoff = set(result.outcome.runoff_candidates)
    out = []
    for at, stretch in moments:
        for n in names:
            if n in gone or (stretch == AFTER_CALLED and n not in on_runoff):
                continue  # (the runoff's stretch: only a candidate on its ballot)
            for kind, what, verb in ways:
                ev = kind(at=at, contest=c.id, candidate=n)
                when = (("kind", what), ("candidate", n), ("stretch", stretch))
                out.append(Step(ev, when, f"{n} {verb} {stretch} ({at:%Y-%m-%d})"))
    return out


def _order(added: Sequence[Step]) -> int:
    """Most likely to be asked first: the plain count (0), then requests (1), then departures."""
    kinds = {dict(a.when).get("kind") for a in added if a.when}
    return 2 if kinds & DEPARTURE_KINDS else 1 if "request" in kinds else 0


def _contest_futures(
    scenario: Scenario, base: tuple[Event, ...], c: Any, cut: datetime, departures: int
) -> ContestFutures:
    # the log up to the cut is folded once; each continuation folds only the events it adds to
    # the state its parent reached (the fold is pure and its states are values: the result is
    # exactly the replay of the extended log, which the witnesses are)
    prefix = PrefixReplay(_extended(scenario, base, []), c.id)
    ctx = prefix.ctx
    root = fold(initial_state(ctx), ctx, prefix.events)
    first = max((e.index for e in base), default=-1) + 1
    start = result_of(finish(root, ctx, None, first - 1), ctx, prefix.events, timeline=False)
    found: dict[str, Branch] = {}
    notes: list[str] = []
    replays = 0
    start_kinds = {(x.kind.value, x.cite) for x in start.rulings}

    def explore(state: State, added: list[Step], new: int, steps: int) -> None:
        nonlocal replays
        if replays >= limit:
            return
        replays += 1
        events = [
            attrs.evolve(a.event, index=first + k)
            for k, a in enumerate(added[len(added) - new :], start=len(added) - new)
        ]
        state = fold(state, ctx, events)
        r = result_of(finish(state, ctx, None, first + len(added) - 1), ctx, (), timeline=False)
        nxt = _next_steps(scenario, r, base, added, c) if steps < MAX_STEPS else None
        went = False
        for more in nxt or ():
            went = True
            if replays >= limit:
                break
            if more:
                explore(state, [*added, *more], len(more), steps + 1)
            else:  # (the continuation that adds nothing: the log ends here)
                _record(r, added)
        if not went:
            _record(r, added)

    def _record(r: ContestResult, added: list[Step]) -> None:
        order = _order(added)
        new_rulings = tuple(
            (x.kind.value, x.cite) for x in r.rulings if (x.kind.value, x.cite) not in start_kinds
        )
        # (one branch per outcome and the rulings that lead there, kind and citation: elected
        # with a majority and elected because nobody asked for a runoff are two ways to end, and
        # so are a death and a withdrawal the law treats differently)
        skip = (RulingKind.MAJORITY_THRESHOLD, RulingKind.NO_PROVISION)
        decisive = sorted({(k, cite) for k, cite in new_rulings if k not in skip})
        # (and one per way of leaving: what follows a withdrawal or a disqualification is
        # asked about by itself, even where the law treats it as a death)
        leaving = [
            w["kind"] for w in (dict(a.when) for a in added) if w.get("kind") in DEPARTURE_KINDS
        ]
        key = json.dumps([r.outcome.to_json(), decisive, leaving], sort_keys=True)
        size = sum(1 for a in added if a.words)
        ties = sum(
            len(w.get("tied", [])) + max(0, len(w.get("second", [])) - 1)
            for w in (dict(a.when) for a in added if a.when)
        )
        old = found.get(key)
        if old is not None and (old.order, old.added, old.ties) <= (order, size, ties):
            return
        deadlines = tuple(
            (d.kind.value, d.due.isoformat())
            for d in r.deadlines
            if d.due > cut and (d.state is None or d.state.value != "void")
        )
        # each condition once (two steps can say the same: a ranking read again after a departure)
        words = list(dict.fromkeys(a.words for a in added if a.words))
        asked = any(dict(a.when).get("kind") == "request" for a in added if a.when)
        if not asked and start.outcome.pending in (
            Pending.VOTES,
            Pending.CANVASS,
            Pending.RUNOFF_REQUEST,
        ):
            avail = r.ruling(RulingKind.RUNOFF_AVAILABLE)
            if (
                avail is not None
                and r.outcome.runoff_status is RunoffStatus.NONE
                and not any(isinstance(e, RunoffRequested) for e in base)
            ):
                asks = _asks(r).replace("asks", "ask").replace("demands", "demand")
                words.append(f"{avail.candidates[0]} does not {asks} in time")
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
            make_witness=lambda: _witness(scenario, base, added),
            added=size,
            order=order,
            ties=ties,
        )

    # the budget: half for what follows with no departure, half shared by the departures
    # (each the same share), so that a long ballot's count leaves room for them
    leaving: list[list[Step]] = []
    if departures > 0:
        for d in _departures(scenario, start, base, c, cut):
            leaving.append([d])
            if departures > 1:
                leaving += [[d, d2] for d2 in _departures(scenario, start, base, c, cut, after=[d])]
    most = MAX_CONTINUATIONS * max(1, departures)
    limit = most // 2 if leaving else most
    explore(root, [], 0, 0)
    stopped = replays >= limit
    share = max(1, (most - replays) // max(1, len(leaving)))
    for more in leaving:
        limit = replays + share
        explore(root, more, len(more), 0)
        stopped = stopped or replays >= limit
    if stopped:
        notes.append(
            f"the enumeration stopped at {most} continuations (half for the count and the "
            "requests, half shared by the departures)"
        )
    branches = sorted(found.values(), key=lambda b: (b.order, b.added, b.ties, b.condition))
    return ContestFutures(c.id, start.state, tuple(branches), tuple(notes))


def futures_schema() -> dict[str, Any]:
    """The JSON Schema of the document ``electsim next --json`` prints (docs/futures.schema.json,
    written by ``electsim next --schema``)."""
    names = {"type": "array", "items": {"type": "string"}}
    outcome = {
        "type": "object",
        "required": ["elected", "nominated", "vacant_seats", "runoff", "pending"],
        "properties": {
            "elected": names,
            "nominated": names,
            "vacant_seats": {"type": "integer", "minimum": 0},
            "runoff": {
                "type": "object",
                "required": ["status", "candidates"],
                "properties": {
                    "status": {"enum": [s.value for s in RunoffStatus]},
                    "candidates": names,
                },
            },
            "pending": {"enum": [None, *(p.value for p in Pending)]},
        },
    }
    kinds = {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}}}
    branch = {
        "type": "object",
        "required": ["outcome", "condition", "when", "rulings", "deadlines", "witness"],
        "additionalProperties": False,
        "properties": {
            "outcome": outcome,
            "condition": {"type": "string", "pattern": "^if "},
            "when": {"type": "array", "items": kinds},
            "rulings": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["kind", "cite"],
                    "properties": {
                        "kind": {"enum": [k.value for k in RulingKind]},
                        "cite": {"type": "string"},
                    },
                },
            },
            "deadlines": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["kind", "due"],
                    "properties": {
                        "kind": {"enum": [k.value for k in DeadlineKind]},
                        "due": {"type": "string", "format": "date-time"},
                    },
                },
            },
            "witness": {"type": "string", "description": "a scenario (YAML) that replays to it"},
        },
    }
    contest = {
        "type": "object",
        "required": ["id", "state", "branches", "notes"],
        "additionalProperties": False,
        "properties": {
            "id": {"type": "string"},
            "state": {"type": "string"},
            "branches": {"type": "array", "items": branch},
            "notes": {"type": "array", "items": {"type": "string"}},
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "What can happen from here (electsim next --json)",
        "type": "object",
        "required": ["format", "scenario", "as_of", "departures", "bounds", "contests"],
        "additionalProperties": False,
        "properties": {
            "format": {"const": FUTURES_FORMAT},
            "scenario": {"type": "string"},
            "as_of": {"type": ["string", "null"]},
            "departures": {"type": "integer", "minimum": 0, "maximum": 2},
            "bounds": {"type": "string"},
            "contests": {"type": "array", "items": contest},
        },
    }


def futures(scenario: Scenario, as_of: datetime | None = None, departures: int = 1) -> Futures:
    """Every way each contest of ``scenario`` can still end, from what the board knew at
    ``as_of`` (None: the whole log), with up to ``departures`` further deaths, withdrawals or
    disqualifications (0 to 2)."""
    if not 0 <= departures <= 2:
        raise ValueError(f"departures: expected 0, 1 or 2; found {departures}")
    events = tuple(scenario.events)
    if as_of is not None:
        events = tuple(e for e in events if e.known_at <= as_of)
    cut = as_of if as_of is not None else (max(e.known_at for e in events) if events else None)
    if cut is None or not events:
        raise ValueError("the log has no events to start from (as_of before the first event?)")
    contests = tuple(
        _contest_futures(scenario, events, c, cut, departures) for c in scenario.contests
    )
    if len(scenario.contests) > 1:
        contests = tuple(_read_whole(cf) for cf in contests)
    return Futures(scenario.title, as_of, departures, contests)


def _read_whole(cf: ContestFutures) -> ContestFutures:
    """A contest of a scenario of several contests, each branch's outcome read from the replay
    of its witness, the whole scenario: some rules read other contests (one office per election,
    G.S. 163-106(b)), which the continuations, folded one contest at a time, do not see. Branches
    that then end alike are one (the simpler kept)."""
    kept: dict[str, Branch] = {}
    changed = 0
    for b in cf.branches:
        whole = replay(parse_scenario(b.witness)).contest(cf.id).outcome.to_json()
        if whole != b.outcome:
            changed += 1
            b = attrs.evolve(b, outcome=whole)
        kept.setdefault(json.dumps([b.outcome, b.rulings], sort_keys=True, default=str), b)
    if not changed:
        return cf
    note = (
        f"{changed} branch(es) read again from the whole scenario: a rule of another contest "
        "reaches this one"
    )
    return attrs.evolve(cf, branches=tuple(kept.values()), notes=(*cf.notes, note))
