"""Explore the courses of events of one contest: every outcome, gap and conflict, with a witness.

``electsim explore --method M --seats S --candidates N`` enumerates abstract courses of events
breadth-first, from the shortest, and drives the engine itself
(:func:`simulator.engine.replay.replay`)
on each: there is no second model of the law here. An abstract course is

- who leaves before the vote, how (died, withdrew, disqualified) and when, as a region between
  the statutory landmarks (before the filing closes, within 30 days of the close, after day 30,
  after the ballots are printed with the board finding time to reprint or not);
- the returns as a *ranking class*: the weak order of the candidates on the ballot (groups of tied
  candidates, best first), where a departed candidate whose name stayed on the ballot sits in it,
  and for the methods that read a threshold (majority of G.S. 163-293(a), substantial plurality
  of 163-111(a)) how many leading groups are above it and whether the next is exactly at it;
- who leaves after the vote (election night, the request window, after a runoff is called);
- the requests the engine says are open (the entitled runner-up asks in time, late, or never),
  the lot the engine waits for, and the runoff's own returns.

Candidates who share a profile are interchangeable (no rule reads a name or a filing order), so
one representative is tried per distinct place: the canonical form of a course is its class, not
its names. Each abstract course becomes a concrete ``electsim/v1`` scenario (names, dates from
:func:`simulator.law.calendar.statutory_calendar`, integer votes realizing the class exactly,
checked
with :class:`fractions.Fraction`), whose replay is the prediction. The first course (fewest
events) reaching an outcome is its witness. ``--check`` writes nothing new: it reads every witness
back through the scenario loader and checks its ``expect:`` block the way ``electsim test`` does.

Courses share their beginnings: each is folded from the engine's state after the longest
beginning folded before (:class:`Folds`), one fold step per new event. Two beginnings that reach
the same canonical state at the vote (:func:`ballot_state`) have the same futures: those are
enumerated once, after the first (shortest) beginning. So are those of two courses that call a
runoff (a second primary) in the same canonical state (:func:`call_state`).

Bounds of this version (said in the report, never hidden): one contest, K departures (default 1),
the first round and one runoff or second primary; totals near 1,000 votes (a tie among more than
5,000 voters is not reached).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from contextlib import ExitStack
from datetime import datetime, timedelta
from enum import StrEnum
from fractions import Fraction
from functools import cache, lru_cache
from itertools import product
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import attrs
import yaml

from simulator.analysis.coverage import Status, coverage, coverage_json
from simulator.engine.build import result_of
from simulator.engine.fold import fold
from simulator.engine.replay import collector_paused, finish, make_context, replay
from simulator.engine.result import ContestResult, Ruling
from simulator.engine.state import Context, State, initial_state
from simulator.engine.timers import fire_timers
from simulator.input.loader import structure
from simulator.law.calendar import Deadline, statutory_calendar
from simulator.law.cite import Cite
from simulator.law.parameters import in_force
from simulator.law.readings import Interpretations
from simulator.law.tables import count as cr
from simulator.law.vocab import DeadlineKind, Method, Pending, RulingKind, RunoffStatus
from simulator.model.errors import ScenarioError
from simulator.model.events import Event

if TYPE_CHECKING:
    from simulator.analysis.workers import Engine

YEAR = 2027
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu")
CONTEST_ID = "office"


class Departure(StrEnum):
    """How a candidate leaves the contest."""

    DIED = "died"
    WITHDREW = "withdrew"
    DISQUALIFIED = "disqualified"


class Region(StrEnum):
    """When a candidate leaves: the landmarks already passed."""

    FILING = "before the filing closes"
    EARLY = "within 30 days after the close, before printing"
    LATE = "after day 30, before printing"
    REPRINT = "after printing, the board finds time to reprint"
    NO_REPRINT = "after printing, no time to reprint"
    NIGHT = "after the vote, before the canvass"
    WINDOW = "after the canvass, in the request window"
    CALLED = "after the runoff is called"
    SECOND_NIGHT = "after the runoff's vote, before its canvass"
    BEFORE_LOT = "after the runoff's canvass, before the drawing of lots"


BEFORE_VOTE = (Region.FILING, Region.EARLY, Region.LATE, Region.REPRINT, Region.NO_REPRINT)


class Request(StrEnum):
    """What the candidate entitled to ask for a runoff (or second primary) does."""

    NONE = "no request"
    IN_TIME = "requests in time"
    LATE = "requests late"


_EVENT = {
    Departure.DIED: "candidate_died",
    Departure.WITHDREW: "candidate_withdrew",
    Departure.DISQUALIFIED: "candidate_disqualified",
}


#: The parties of a partisan general election's nominees, one each (a late filer is unaffiliated)
PARTIES = ("DEM", "REP", "LIB", "GRE", "CST", "JSP", "NLP", "WTP")
PRIMARY_PARTY = "REP"  # whose primary a partisan primary is


def reading_values(name: str) -> tuple[Any, ...] | None:
    """The values an interpretation switch takes (None: no switch has that name)."""
    choices = Interpretations.CHOICES.get(name)
    if choices is not None:
        return tuple(choices)
    if name in {f.name for f in attrs.fields(Interpretations)}:
        return (True, False)  # the switches that are yes or no
    return None


def other_readings() -> list[tuple[str, Any]]:
    """Every value of every interpretation switch but its default, as (name, value) pairs: each
    a setting to explore the law under, the other switches left at their defaults."""
    default = Interpretations()
    out: list[tuple[str, Any]] = []
    for f in attrs.fields(Interpretations):
        now = getattr(default, f.name)
        now = getattr(now, "value", now)
        out += [(f.name, v) for v in reading_values(f.name) or () if v != now]
    return sorted(out)


def _sorted_readings(value: Any) -> tuple[tuple[str, Any], ...]:
    pairs = value.items() if isinstance(value, dict) else value
    return tuple(sorted((str(k), v) for k, v in pairs))


def _shown(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@attrs.frozen(kw_only=True)
class Config:
    """One configuration of the grid. ``general``: the partisan method's general election
    (G.S. 163-279(a)(2)), where the parties' nominees stand, instead of its primary."""

    method: Method
    seats: int
    candidates: int
    departures: int = 1
    general: bool = attrs.field(default=False)
    #: interpretation switches (docs/readings.md) the courses are replayed under, as (name,
    #: value) pairs sorted by name; none: every switch at its default
    readings: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=_sorted_readings)

    @general.validator
    def _partisan(self, _attribute: Any, value: bool) -> None:
        if value and self.method is not Method.PARTISAN:
            raise ValueError("only the partisan method has a general election of nominees")

    @readings.validator
    def _known_readings(self, _attribute: Any, value: tuple[tuple[str, Any], ...]) -> None:
        for name, chosen in value:
            allowed = reading_values(name)
            if allowed is None:
                raise ValueError(f"no interpretation switch is called {name!r}")
            if chosen not in allowed:
                raise ValueError(
                    f"interpretation {name}: expected one of {', '.join(map(str, allowed))}; "
                    f"found {chosen!r}"
                )

    @property
    def kind(self) -> str:
        """The method, and the partisan general election apart from the primary."""
        return "partisan-general" if self.general else self.method.value

    @property
    def label(self) -> str:
        label = f"{self.kind} s={self.seats} n={self.candidates} k={self.departures}"
        if self.readings:
            label += " [" + ", ".join(f"{k}: {_shown(v)}" for k, v in self.readings) + "]"
        return label

    @property
    def stage(self) -> str:
        primary = self.method in (Method.PARTISAN, Method.PRIMARY) and not self.general
        return "primary" if primary else "election"

    @property
    def reads(self) -> Method:
        """The method whose reading of the votes applies: the general election of nominees is
        decided by the highest vote, so its ranking is read as the plurality method's is (up
        to the place after the last seat; no threshold)."""
        return Method.PLURALITY if self.general else self.method

    def party(self, name: str) -> str | None:
        """The party ``name`` files for (None: a nonpartisan contest)."""
        if self.method is not Method.PARTISAN:
            return None
        if not self.general:
            return PRIMARY_PARTY
        return PARTIES[NAMES.index(name)] if name in NAMES else "UNA"


# ---------------------------------------------------------------------------------------------
# Ranking classes and the integer votes realizing them


@attrs.frozen
class VoteClass:
    """A weak order of the ballot's candidates: group sizes best first, plus the threshold.

    ``above`` counts the leading groups strictly above the threshold and ``at`` says whether the
    next group is exactly at it (``None``: the method reads no threshold).
    """

    groups: tuple[int, ...]
    above: int | None = None
    at: bool = False

    def describe(self) -> str:
        ranks = "|".join(str(g) for g in self.groups)
        if self.above is None:
            return f"ranking {ranks}"
        edge = ", the next exactly at it" if self.at else ""
        return f"ranking {ranks}, {self.above} group(s) above the threshold{edge}"


def compositions(n: int) -> Iterator[tuple[int, ...]]:
    """Every ordered split of ``n`` tied candidates into groups (``2 ** (n - 1)`` of them)."""
    if n == 0:
        yield ()
        return
    for first in range(n, 0, -1):
        for rest in compositions(n - first):
            yield (first, *rest)


def threshold_share(method: Method, seats: int) -> Fraction | None:
    """The share of the total a candidate must pass, as the engine reads it (None: no threshold).

    G.S. 163-293(a): more than half the total per seat; 163-111(a): more than the substantial
    plurality in force, per seat. Plurality and the nonpartisan primary read only the ranking.
    """
    if method is Method.RUNOFF:
        return Fraction(1, 2 * seats)
    if method is Method.PARTISAN:
        day = next(
            d.due.date()
            for d in statutory_calendar(YEAR, method)
            if d.kind is DeadlineKind.PRIMARY_DAY
        )
        return in_force("substantial_plurality", day).value / seats
    return None


def depth(method: Method, seats: int, departures: int = 0) -> int:
    """How many places of the ranking the method reads, best first, with ``departures`` places
    more (a departed candidate in a leading place moves the live ones down).

    Plurality reads the boundary after the last seat (G.S. 163-292); the nonpartisan primary the
    boundary after twice the seats (163-294). The majority method and the partisan primary read
    who is above the threshold among the places that can take a seat, and the runner-up
    boundaries after twice the seats (163-293(b), 163-111(b)-(c)): where more candidates pass the
    threshold than there are seats, those with the highest votes take them (163-293(a),
    163-111(a)(2)), so whether a candidate below place ``2 x seats + 1`` is above it is read by
    no rule. (A test compares the outcomes with those of the whole rankings.)
    """
    places = seats + 1 if method is Method.PLURALITY else 2 * seats + 1
    return places + departures


def truncated(vc: VoteClass, places: int) -> bool:
    """Whether ``vc`` is the canonical one of the classes that agree on the first ``places``
    places: below the group holding place ``places``, every candidate is alone and under the
    threshold (those places are read by no rule, so one representative stands for them all)."""
    seen = 0
    for i, g in enumerate(vc.groups):
        seen += g
        if seen >= places:
            tail = vc.groups[i + 1 :]
            reach = (vc.above or 0) + (1 if vc.at else 0)
            return all(t == 1 for t in tail) and reach <= i + 1
    return True


def vote_classes(
    method: Method, seats: int, n: int, *, places: int | None = None, lead: int | None = None
) -> Iterator[VoteClass]:
    """The ranking classes of ``n`` candidates on the ballot; with ``places``, only the canonical
    class of each set of classes that agree on the first ``places`` places; with ``lead``, only
    the canonical class of each set that agree on which of the first ``lead`` places are above
    the threshold (see :func:`leading`)."""
    share = threshold_share(method, seats)
    for groups in compositions(n):
        if share is None:
            found = [VoteClass(groups)]
        else:
            found = []
            top = len(groups) if lead is None else _groups_over(groups, lead)
            for above in range(top + 1):
                found.append(VoteClass(groups, above, False))
                if above < top:
                    found.append(VoteClass(groups, above, True))
        for vc in found:
            if places is None or truncated(vc, read_depth(vc, places, seats)):
                yield vc


def read_depth(vc: VoteClass, places: int, seats: int) -> int:
    """How deep ``vc``'s ranking is read, of the ``places`` (:func:`depth`) its method reads.

    Each candidate over the threshold takes a seat (up to the seats), and only the seats left
    open carry runners-up: the best placed for those seats and as many below them who may ask
    for the next round (G.S. 163-293(b), 163-111(b)-(c)), and the boundary after them. So a
    class with ``f`` candidates over the threshold is read ``f`` places less deep."""
    if vc.above is None:
        return places
    over = sum(vc.groups[: vc.above])
    return places - min(over, seats)


def leading(seats: int, departures: int = 0) -> int:
    """How many places, best first, the threshold is read for: the seats, with ``departures``
    places more (a departed candidate above moves the live ones down).

    Where more candidates pass the threshold than there are seats, those with the highest votes
    take them (G.S. 163-293(a), 163-111(a)(2)) and the others are runners-up like any below it,
    so whether a candidate further down passes it, or stands exactly at it, is read by no rule:
    one class (those places under it) stands for all that agree above. (A test compares the
    outcomes with those of every class.)
    """
    return seats + departures


def _groups_over(groups: Sequence[int], places: int) -> int:
    """How many of the leading groups it takes to hold the first ``places`` places."""
    seen = 0
    for i, g in enumerate(groups):
        seen += g
        if seen >= places:
            return i + 1
    return len(groups)


def classify(counts: Sequence[int], share: Fraction | None) -> VoteClass:
    """The class of a vector of counts (best first), exactly."""
    groups: list[int] = []
    values: list[int] = []
    for v in counts:
        if values and values[-1] == v:
            groups[-1] += 1
        else:
            groups.append(1)
            values.append(v)
    if share is None:
        return VoteClass(tuple(groups))
    t = share * sum(counts)
    above = sum(1 for v in values if v > t)
    at = above < len(values) and values[above] == t
    return VoteClass(tuple(groups), above, at)


def feasible(vc: VoteClass, share: Fraction | None) -> bool:
    """Whether some positive votes realize ``vc`` (exactly, from the bounds of the total).

    In units of the threshold the total is ``1 / share``. Groups above the threshold are
    unbounded above and strictly above 1, a group at it is exactly 1, the rest lie strictly
    between 0 and the group before; the sum of a convex region is an interval, so the class is
    realizable exactly when ``1 / share`` lies inside it.
    """
    if share is None or vc.above is None:
        return True
    total = 1 / share
    p, g, m = vc.above, vc.groups, len(vc.groups)
    if p > 0:
        return total > sum(g[:p]) + (g[p] if vc.at else 0)
    if vc.at:
        return total == g[0] if m == 1 else g[0] < total < sum(g)
    return 0 < total < sum(g)


def _point(vc: VoteClass, eps: Fraction, high: Fraction | None) -> list[Fraction]:
    """A point of the class's region, one value per group, in units of the threshold: near the
    least total (``high`` None) or with the leading groups at ``high`` and more."""
    p, m = vc.above or 0, len(vc.groups)
    xs: list[Fraction] = []
    for i in range(m):
        if i < p:
            xs.append((high if high is not None else Fraction(1)) + eps * (p - i))
        elif i == p and vc.at:
            xs.append(Fraction(1))
        elif p == 0 and high is not None:  # nothing above: the most the rest can have
            xs.append(1 - eps * (i + 1))
        else:
            xs.append(eps * (m - i))
    return xs


@cache
def realize(vc: VoteClass, share: Fraction | None) -> tuple[int, ...] | None:
    """Positive integer votes (best first) whose class is exactly ``vc``; None if infeasible.

    Two points of the class's (convex) region whose totals bracket the required total are
    interpolated, scaled to integers near 1,000 and checked exactly with Fraction. A class that
    :func:`feasible` admits but that no votes are found for is a defect: it raises.
    """
    m = len(vc.groups)
    if m == 0:
        return ()

    def expand(values: Sequence[int]) -> tuple[int, ...]:
        return tuple(v for v, g in zip(values, vc.groups, strict=True) for _ in range(g))

    if share is None or vc.above is None:
        return expand([100 * (m - i) for i in range(m)])
    if not feasible(vc, share):
        return None
    total = 1 / share

    def weight(xs: Sequence[Fraction]) -> Fraction:
        return sum((x * g for x, g in zip(xs, vc.groups, strict=True)), Fraction(0))

    eps = Fraction(1, 4 * (m + 1))
    for _ in range(60):
        lo = _point(vc, eps, None)
        hi = _point(vc, eps, Fraction(1) + total if (vc.above or 0) > 0 else Fraction(1))
        wl, wh = weight(lo), weight(hi)
        if wl == wh == total:
            xs = lo
        elif wl < total < wh or (wl == total and wl == wh):
            theta = (total - wl) / (wh - wl)
            xs = [a + theta * (b - a) for a, b in zip(lo, hi, strict=True)]
        else:
            eps /= 2
            continue
        scale = 1
        for x in xs:
            scale = scale * x.denominator // _gcd(scale, x.denominator)
        ints = [int(x * scale) for x in xs]
        size = sum(v * g for v, g in zip(ints, vc.groups, strict=True))
        ints = [v * max(1, 1000 // size) for v in ints]
        counts = expand(ints)
        if classify(counts, share) != vc:
            break
        return counts
    raise AssertionError(f"no votes found for a feasible class: {vc.describe()}")


def _gcd(a: int, b: int) -> int:
    import math

    return math.gcd(a, b)


# ---------------------------------------------------------------------------------------------
# Courses of events and their concrete scenarios


@attrs.frozen
class Leave:
    kind: Departure
    region: Region
    place: int  # the group (best first) of the ranking the candidate sits in; 0 before the vote


@attrs.frozen
class Course:
    """An abstract course of events and the concrete log that realizes it."""

    steps: tuple[str, ...]  # the course in words, one line per abstract step
    events: tuple[dict[str, Any], ...]
    # the replay of ``events`` when the enumeration already made it (to choose what follows)
    result: ContestResult | None = attrs.field(default=None, eq=False, repr=False)
    # the course ends in a state reached before: it has no outcome of its own
    merged: bool = False
    # the course calls a runoff in a state reached before (:func:`call_state`): it has its
    # outcome, but the runoff's courses after it are those enumerated after the first
    joined: bool = False


def _dates_of(config: Config) -> dict[str, datetime]:
    return _dates(config.method, general=config.general)


@cache
def _dates(method: Method, *, general: bool = False) -> dict[str, datetime]:
    cal = statutory_calendar(YEAR, method)
    if general:  # the general election: its day and canvass, no request, no second round
        cal = [d for d in cal if d.kind is not DeadlineKind.PRIMARY_DAY]
        day = next(d.due for d in cal if d.kind is DeadlineKind.ELECTION_DAY)
        cal = [
            d
            for d in cal
            if d.kind is not DeadlineKind.CANVASS or d.due > day
            if d.kind not in (DeadlineKind.SECOND_PRIMARY, DeadlineKind.SECOND_PRIMARY_REQUEST)
        ]
    first: dict[DeadlineKind, datetime] = {}
    canvasses: list[datetime] = []
    for d in cal:
        if d.kind is DeadlineKind.CANVASS:
            canvasses.append(d.due)
        first.setdefault(d.kind, d.due)
    vote = first.get(DeadlineKind.PRIMARY_DAY) or first[DeadlineKind.ELECTION_DAY]
    close = first[DeadlineKind.FILING_CLOSES]
    out = {
        "opens": first[DeadlineKind.FILING_OPENS],
        "close": close,
        "vote": vote.replace(hour=21),
        "canvass": canvasses[0],
    }
    request = first.get(DeadlineKind.RUNOFF_REQUEST) or first.get(
        DeadlineKind.SECOND_PRIMARY_REQUEST
    )
    second = first.get(DeadlineKind.RUNOFF_ELECTION) or first.get(DeadlineKind.SECOND_PRIMARY)
    if request is not None and second is not None:
        out["request"] = request
        out["second"] = second.replace(hour=21)
        later = [c for c in canvasses if c > second]
        out["second_canvass"] = later[0] if later else second + timedelta(days=7)
    return out


def _naive(t: datetime) -> datetime:
    """A time as the scenarios write it: the wall clock in North Carolina, no zone."""
    return t.astimezone(ZoneInfo("America/New_York")).replace(tzinfo=None)


@lru_cache(maxsize=4096)
def _iso(t: datetime) -> str:
    """A time as the scenarios write it (made once for each time: the courses put their
    events at a few fixed moments)."""
    return t.replace(tzinfo=None).isoformat(timespec="minutes")


def scenario_doc(config: Config, events: Sequence[dict[str, Any]], title: str) -> dict[str, Any]:
    contest: dict[str, Any] = {
        "id": CONTEST_ID,
        "municipality": "City of Example",
        "office": "Council" if config.seats > 1 else "Mayor",
        "seats": config.seats,
        "method": config.method.value,
        "stage": config.stage,
        "year": YEAR,
    }
    if config.method is Method.PARTISAN and not config.general:
        contest["party"] = PRIMARY_PARTY
    # the log in the order the board learned of the events (a death's notice may come later)
    ordered = sorted(events, key=_known)
    doc: dict[str, Any] = {"format": "electsim/v1", "title": title}
    if config.readings:
        doc["interpretations"] = dict(config.readings)
    doc["contests"] = [contest]
    doc["events"] = ordered
    return doc


def run(
    config: Config, events: Sequence[dict[str, Any]], *, as_of: datetime | None = None
) -> ContestResult:
    """Replay a concrete log through the engine (the same loader and fold as ``electsim``).

    The course is folded from the state after the longest beginning of its log already folded
    for this configuration (:class:`Folds`): the fold is pure and its states are values, so the
    result is exactly the whole replay's, as of ``as_of`` when given (what the board knew then),
    but for the timeline and the periods, not built.
    """
    return _folds(config).result(events, as_of=as_of)


def _folds(config: Config) -> Folds:
    folds = _FOLDS.get(config)
    if folds is None:
        _FOLDS.clear()  # one configuration at a time per process
        folds = _FOLDS[config] = Folds(config)
    return folds


#: A trie of folded beginnings: each event's key to the state after it, the event as read, and
#: the beginnings that continue from there
_Trie = dict[str, tuple[State, Event, "_Trie"]]


class Folds:
    """The engine's states after the beginnings of the logs of one configuration's courses.

    Courses branch from shared beginnings (the same filings, the same departure, the same
    returns), so each course folds only the events after the longest beginning folded before:
    one :func:`simulator.engine.fold.fold` step per abstract step of the enumeration, not a replay
    of the whole log. Events are read by the scenario loader once and kept. The states kept
    are bounded: past ``limit`` all are dropped but those of the log being folded.
    """

    def __init__(self, config: Config, *, limit: int = 20_000) -> None:
        self.config = config
        self.limit = limit
        scenario = structure(scenario_doc(config, [], "explored course"), source="<explore>")
        self.ctx = make_context(scenario, scenario.contests[0])
        self.root = initial_state(self.ctx)
        # the states after each beginning folded: a trie by the events' keys
        self.trie: _Trie = {}
        self.nodes = 0
        # each event as read, by its key and -1, and at each position it took in a log
        self.events: dict[tuple[str, int], Event] = {}
        self.folded = 0  # events folded (steps of the engine)
        # each event of a log as a key and the moment the board learned of it (the log's dicts
        # are shared by the courses that branch from it: each is written once; the dict is kept
        # so that its id stays its own)
        self.names: dict[int, tuple[dict[str, Any], str, datetime]] = {}

    def _name(self, e: dict[str, Any]) -> tuple[dict[str, Any], str, datetime]:
        named = self.names[id(e)] = (e, repr(e), _known(e))
        return named

    def _read(self, ordered: Sequence[dict[str, Any]], keys: Sequence[str]) -> None:
        """Read the events of a log not read before, through the scenario loader: with the
        notices that bring names into the contest, in the order of the log."""
        read = self.events
        wanted = [
            i
            for i, e in enumerate(ordered)
            if (keys[i], -1) not in read or e["type"] in ("candidate_filed", "nominee_named")
        ]
        doc = scenario_doc(self.config, [ordered[i] for i in wanted], "explored course")
        scenario = structure(doc, source="<explore>")
        for i, ev in zip(wanted, scenario.events, strict=True):
            read.setdefault((keys[i], -1), ev)

    def read_ahead(
        self, beginning: Sequence[dict[str, Any]], events: Sequence[dict[str, Any]]
    ) -> None:
        """Read ``events``, each of which courses about to be folded will hold after
        ``beginning``, through the scenario loader in one pass: most of the loader's cost is
        the pass, not the event. An event is read as it would be in any of those logs, but for
        its position, which :meth:`fold` sets. Where the loader refuses them together, each is
        read when a fold first meets it, with its own log."""
        read = self.events
        new = [e for e in events if (self._key(e), -1) not in read]
        if len(new) < 2:
            return
        ordered = sorted([*beginning, *new], key=_known)
        try:
            self._read(ordered, [self._key(e) for e in ordered])
        except ScenarioError:
            return

    def _key(self, e: dict[str, Any]) -> str:
        return (self.names.get(id(e)) or self._name(e))[1]

    def _prune(self, named: Sequence[tuple[dict[str, Any], str, datetime]]) -> None:
        """Let go of every state kept but those after the beginnings of ``named`` (the log
        about to be folded): the courses that follow share most of it, and those before it are
        never met again (the enumeration goes depth first)."""
        chain: list[tuple[str, State, Event]] = []
        node = self.trie
        for x in named:
            hit = node.get(x[1])
            if hit is None:
                break
            chain.append((x[1], hit[0], hit[1]))
            node = hit[2]
        self.trie = node = {}
        for key, state, ev in chain:
            child: _Trie = {}
            node[key] = (state, ev, child)
            node = child
        self.nodes = len(chain)
        self.names = {id(x[0]): x for x in named}

    def fold(
        self, events: Sequence[dict[str, Any]], known: datetime | None = None
    ) -> tuple[State, list[Event]]:
        """The state after ``events`` (before the end of the log) and the events as read; with
        ``known`` (a wall-clock time in North Carolina), only those the board learned of by then,
        as a replay ``as_of`` that time reads them."""
        names = self.names
        named = [names.get(id(e)) or self._name(e) for e in events]
        # the log in the order the board learned of the events, as scenario_doc writes it
        named.sort(key=_KNOWN_AT)
        if known is not None:
            # those learned of later come last: the others keep their places in the log
            named = [x for x in named if x[2] <= known]
        n = len(named)
        if self.nodes + n > self.limit:
            self._prune(named)
        # the longest beginning folded before: a walk down the trie of beginnings
        node = self.trie
        state = self.root
        evs: list[Event] = []
        j = 0
        while j < n:
            hit = node.get(named[j][1])
            if hit is None:
                break
            state, ev, node = hit
            evs.append(ev)
            j += 1
        read = self.events
        for i in range(j, n):
            key = named[i][1]
            # an event is read the same wherever it stands in the log, but for its position
            got = read.get((key, i))
            if got is None:
                got = read.get((key, -1))
                if got is None:
                    self._read([x[0] for x in named], [x[1] for x in named])
                    got = read[(key, -1)]
                got = read[(key, i)] = got if got.index == i else attrs.evolve(got, index=i)
            ev = got
            evs.append(ev)
            state = fold(state, self.ctx, (ev,))
            child: _Trie = {}
            node[key] = (state, ev, child)
            node = child
        self.nodes += n - j
        self.folded += n - j
        return state, evs

    def result(
        self, events: Sequence[dict[str, Any]], *, as_of: datetime | None = None
    ) -> ContestResult:
        """The whole story of ``events`` (or what the board knew of it by ``as_of``): ``replay``
        of their scenario, without the timeline."""
        state, evs = self.fold(events, None if as_of is None else _naive(as_of))
        last = evs[-1].index if evs else -1
        state = finish(state, self.ctx, as_of, last)
        return result_of(state, self.ctx, (), timeline=False)

    def ballot_key(
        self, events: Sequence[dict[str, Any]], as_of: datetime, *, settled: bool
    ) -> Hashable:
        """The canonical abstract state of the contest at the vote, after ``events`` (all known
        by ``as_of``, the day before the vote): see :func:`ballot_state`."""
        state, evs = self.fold(events)
        last = evs[-1].index if evs else -1
        return ballot_state(finish(state, self.ctx, as_of, last), self.ctx, settled=settled)


#: State fields the vote and what follows it never read: the clock, bookkeeping of the log and
#: its timeline, the filing periods (closed before the vote) and the deadlines already set (their
#: subsections are counted from the course that reached the state first)
_FORGOTTEN = frozenset(
    {"clock", "path", "cand_index", "ruling_log", "deadlines", "original_close", "first_vote_at"}
)


#: What no rule reads once no candidate can leave any more (see :func:`ballot_state`)
_SETTLED = frozenset({"printed_at", "reprint", "filed_at_close", "cands"})


def ballot_state(state: State, ctx: Context, *, settled: bool) -> Hashable:
    """What of the contest's state at the vote can change what follows (its canonical form).

    Once the ballot is fixed, when a candidate left matters only as before or on the day of the
    vote (G.S. 163-294.1(c) is the one rule reading it after the ballot), and every other time
    only as before or after the vote begins; the rulings made so far matter only through the
    gaps and conflicts met (and the deciding subsections), which are part of every outcome.
    When nobody else can leave (``settled``: the bound of departures is reached), what decides
    whether a departure reopens filing or keeps a name on the ballot is dead too: the printing
    and the board's reprint determination, the count at the close, and how a candidate whose
    name is off the ballot and whose votes do not count left (such a candidate is only out).
    Every other field of the engine's state is kept as it is, so a field added to the state is
    read here without being named. Two courses with the same form have the same futures: the
    courses after the second are not enumerated (an unsound form could only hide outcomes; the
    witnesses are always whole replays, and a test compares outcomes with and without it).
    """
    start = ctx.election_start
    canon = _canon_shared
    fields = tuple([(name, canon(getattr(state, name), start)) for name in _kept(settled)])
    if settled:
        cands = tuple(
            [
                ("out", c.name) if not c.on_ballot and not c.counted else canon(c, start)
                for c in state.cands
            ]
        )
        fields = (*fields, ("cands", cands))
    deciding = (RulingKind.ELECTED, RulingKind.NOMINATED, RulingKind.OFFICE_VACANT)
    said = frozenset(
        finding_id(r) if r.kind is RulingKind.NO_PROVISION else (r.kind, r.cite, r.candidates)
        for r in state.ruling_log
        if r.kind is RulingKind.NO_PROVISION or r.kind in deciding
    )
    return (fields, said)


@cache
def _kept(settled: bool) -> tuple[str, ...]:
    """The fields of the state :func:`ballot_state` compares (``cands`` apart when settled)."""
    forgotten = _FORGOTTEN | _SETTLED if settled else _FORGOTTEN
    return tuple(f.name for f in attrs.fields(State) if f.name not in forgotten)


def call_state(state: State, ctx: Context, *, settled: bool) -> Hashable | None:
    """What of the contest's state just after a runoff (a second primary) is called can change
    what follows (its canonical form), or None when the state is not one just after a call.

    The call fixes the runoff's ballot, its seats and its day, and starts the count of its
    votes afresh (G.S. 163-293(e), 163-111(c)): after it, the first round's votes are read only
    for how many voted in it (whether more than 5,000, what the ``tie-at`` table reads for a
    tie in the runoff). So the form is :func:`ballot_state`'s with the first round's votes
    replaced by that fact, and with the pending timers at their exact times (a course after the
    call puts its events at fixed days, which a timer can fall before or after). Two courses
    whose calls have the same form have the same futures, whatever first-round returns led to
    them (a test compares the exploration with and without this).
    """
    if state.runoff_status is not RunoffStatus.CALLED or state.round != 1:
        return None
    total = sum(votes for _name, votes in state.tallies[0])
    voters = cr.voters_over_5000(total, ctx.contest.seats)
    rest = attrs.evolve(state, tallies=state.tallies[1:])
    return (ballot_state(rest, ctx, settled=settled), voters, state.timers)


def _canon_shared(v: Any, start: datetime) -> Any:
    """:func:`_canon` of a value of a state, made once for each value: successive states share
    the values a step did not change (the candidates, the periods, the timers), so most values
    met were met before. Each is kept with its form, so that its identity stays its own; past
    50,000 those kept are let go."""
    if type(v) in _PLAIN:
        return v
    memo = _CANONS
    hit = memo.get(id(v))
    if hit is not None and hit[0] is v and hit[1] == start:
        return hit[2]
    form = _canon(v, start)
    if len(memo) > 50_000:
        memo.clear()
    memo[id(v)] = (v, start, form)
    return form


#: Each value :func:`_canon_shared` met, by its identity: the value, the start and its form
_CANONS: dict[int, tuple[Any, datetime, Any]] = {}


def _canon(v: Any, start: datetime) -> Any:
    """A value of the state as :func:`ballot_state` compares it: each time only as before or
    after ``start``, the start of the vote."""
    t = type(v)
    if t in _PLAIN:
        return v
    if t is datetime:
        return v >= start
    if t is tuple:
        return tuple([_canon(x, start) for x in v])
    names = _ATTRS.get(t)
    if names is None:
        if not attrs.has(t):
            _PLAIN.add(t)  # (an enumeration, a string, a number: compared as it is)
            return v
        names = _ATTRS[t] = tuple(f.name for f in attrs.fields(t))
    return (t.__name__, *[_canon(getattr(v, name), start) for name in names])


#: The types :func:`_canon` keeps as they are, and the fields of the attrs classes it reads
_PLAIN: set[type] = {str, int, bool, type(None)}
_ATTRS: dict[type, tuple[str, ...]] = {}


#: The moment the board learned of a named event (see :meth:`Folds.fold`)
_KNOWN_AT = itemgetter(2)


def _known(e: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(e.get("notice_at", e["at"]))


#: The folds of this process's configuration.
_FOLDS: dict[Config, Folds] = {}


def forget_folds() -> None:
    """Forget the states this process folded (:func:`run` keeps those of the last configuration
    it ran; :func:`explore` lets its own go when it ends): the next fold starts from the
    filings, what a measurement of one exploration against another needs."""
    _FOLDS.clear()
    _CANONS.clear()


def _removed(result: ContestResult, name: str) -> bool:
    return any(r.kind is RulingKind.NAME_REMOVED and name in r.candidates for r in result.rulings)


# ---------------------------------------------------------------------------------------------
# Outcomes


@attrs.frozen(cache_hash=True)
class Outcome:
    """The abstract outcome: what a board or a lawyer would call a different result."""

    state: str
    pending: str | None
    runoff: str
    elected: int
    nominated: int
    vacant: int
    departed: str  # what became of the departed: elected / nominated / in the runoff / out / -
    by: str  # the subsections of the deciding rulings (elected, nominated, vacant, no runoff)
    findings: tuple[str, ...]  # gap and conflict ids of no_provision rulings

    def describe(self) -> str:
        bits = [self.state]
        if self.elected:
            bits.append(f"{self.elected} elected")
        if self.nominated:
            bits.append(f"{self.nominated} nominated")
        if self.vacant:
            bits.append(f"{self.vacant} seat(s) vacant")
        if self.runoff != "none":
            bits.append(f"runoff {self.runoff}")
        if self.pending:
            bits.append(f"pending {self.pending}")
        if self.by:
            bits.append(f"by {self.by}")
        if self.departed != "-":
            bits.append(f"departed candidate {self.departed}")
        if self.findings:
            bits.append("no provision: " + ", ".join(self.findings))
        return "; ".join(bits)

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self) | {"findings": list(self.findings)}


def finding_id(r: Ruling) -> str:
    gap = r.get("gap")
    kind = "conflict" if r.get("conflict") else "gap"
    return f"{kind}:{gap}" if gap else f"{kind}:{r.cite}"


#: The rulings whose subsections decide an outcome (its ``by``)
_DECIDING = (RulingKind.ELECTED, RulingKind.NOMINATED, RulingKind.OFFICE_VACANT)


def outcome_of(
    result: ContestResult,
    departed: Sequence[str],
    *,
    read: tuple[set[str], set[str], set[str]] | None = None,
) -> Outcome:
    """The abstract outcome of a course's result (``read``: what :meth:`_Said.rulings` read
    of its rulings, when the exploration has read them already)."""
    o = result.outcome
    fate = "-"
    if departed:
        fates = []
        for name in departed:
            if name in o.elected:
                fates.append("elected")
            elif name in o.nominated:
                fates.append("nominated")
            elif name in o.runoff_candidates:
                fates.append("in the runoff")
            else:
                fates.append("out")
        fate = ", ".join(sorted(fates))
    _, found, deciding = read if read is not None else _Said().rulings(result.rulings)
    findings = tuple(sorted(found))
    by = "; ".join(sorted(deciding))
    return Outcome(
        state=result.state,
        by=by,
        pending=o.pending.value if o.pending else None,
        runoff=o.runoff_status.value,
        elected=len(o.elected),
        nominated=len(o.nominated),
        vacant=o.vacant_seats,
        departed=fate,
        findings=findings,
    )


# ---------------------------------------------------------------------------------------------
# The enumeration


@attrs.frozen
class Witness:
    course: Course
    result: ContestResult
    departed: tuple[str, ...]


@attrs.frozen
class Exploration:
    config: Config
    courses: int  # concrete courses replayed
    states: int  # abstract states visited: distinct beginnings of the courses, step by step
    outcomes: tuple[tuple[Outcome, Witness, int], ...]  # outcome, shortest witness, how many
    cites: tuple[tuple[str, int], ...]  # subsection cited by a ruling, how many courses
    landmarks: tuple[tuple[str, int], ...]  # subsection a deadline of the course cites
    infeasible: int  # vote classes no votes can realize (e.g. two candidates above a majority)
    errors: tuple[tuple[str, str], ...]  # the engine raised: course, error
    # beginnings that reached a state at the vote, or a runoff's call, reached before (what
    # follows is not repeated)
    merged: int = 0
    # processor seconds the exploration took (a measure, not a result: never compared)
    cpu: float = attrs.field(default=0.0, eq=False)

    @property
    def findings(self) -> tuple[tuple[str, Outcome, Witness], ...]:
        seen: dict[str, tuple[str, Outcome, Witness]] = {}
        for outcome, witness, _ in self.outcomes:
            for f in outcome.findings:
                old = seen.get(f)
                if old is None or len(witness.course.events) < len(old[2].course.events):
                    seen[f] = (f, outcome, witness)
        return tuple(seen[k] for k in sorted(seen))


def _filings(config: Config) -> list[dict[str, Any]]:
    opens = _dates_of(config)["opens"]
    out = []
    for i in range(config.candidates):
        ev: dict[str, Any] = {
            "type": "candidate_filed",
            "at": _iso(opens + timedelta(minutes=30 * (i + 1))),
            "candidate": NAMES[i],
        }
        party = config.party(NAMES[i])
        if party is not None:
            ev["party"] = party
        out.append(ev)
    return out


def _leave_events(
    kind: Departure, region: Region, name: str, d: dict[str, datetime]
) -> list[dict[str, Any]]:
    close = d["close"]

    def ev(t: datetime) -> dict[str, Any]:
        return {"type": _EVENT[kind], "at": _iso(t), "candidate": name}

    if region is Region.FILING:
        return [ev(close - timedelta(days=1))]
    if region is Region.EARLY:
        return [ev(close + timedelta(days=10))]
    if region is Region.LATE:
        return [ev(close + timedelta(days=35))]
    printed = close + timedelta(days=40)
    return [
        {"type": "ballots_printed", "at": _iso(printed)},
        ev(printed + timedelta(days=3)),
        {
            "type": "reprint_determined",
            "at": _iso(printed + timedelta(days=4)),
            "enough_time": region is Region.REPRINT,
        },
    ]


LATE_FILER = "Zed"

Prefix = tuple[list[str], list[dict[str, Any]], list[str], bool]


def _filed(config: Config, name: str, at: datetime) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "candidate_filed", "at": _iso(at), "candidate": name}
    party = config.party(name)
    if party is not None:
        ev["party"] = party
    return ev


def _before_vote(config: Config, d: dict[str, datetime], names: Sequence[str]) -> Iterator[Prefix]:
    """The courses up to the vote: (steps, events after the filings, the departed, whether the
    course ends there). Nobody leaves; one candidate leaves, in every way and every region; a
    death whose notice comes later; a late filer; the board extends filing (G.S. 163-294.4(a));
    a newcomer files while filing is reopened; with K = 2, two candidates leave."""
    close = d["close"]
    yield [], [], [], False
    if config.departures < 1 or not names:
        return
    who = names[-1]
    singles: list[tuple[Departure, Region, list[dict[str, Any]]]] = []
    for region, kind in product(BEFORE_VOTE, Departure):
        evs = _leave_events(kind, region, who, d)
        singles.append((kind, region, evs))
        yield [f"{who} {kind.value} {region.value}"], evs, [who], False
        reopened = _reopened_close(config, evs, d)
        if reopened is not None:
            # G.S. 163-112, 163-294.4(b)-(c): filing reopens; a newcomer files inside it
            filed = _filed(config, LATE_FILER, reopened - timedelta(days=1))
            steps = [
                f"{who} {kind.value} {region.value}",
                f"{LATE_FILER} files while filing is reopened",
            ]
            yield steps, [*evs, filed], [who], False
    # a death the board learns of later: after day 30, or after the ballots are printed
    died = close + timedelta(days=10)
    printed = close + timedelta(days=40)
    late = {"type": "candidate_died", "at": _iso(died), "candidate": who}
    yield (
        [f"{who} died within 30 days after the close, the board learns of it after day 30"],
        [late | {"notice_at": _iso(close + timedelta(days=35))}],
        [who],
        False,
    )
    for enough in (True, False):
        printing: list[dict[str, Any]] = [
            {"type": "ballots_printed", "at": _iso(printed)},
            late | {"notice_at": _iso(printed + timedelta(days=3))},
            {
                "type": "reprint_determined",
                "at": _iso(printed + timedelta(days=4)),
                "enough_time": enough,
            },
        ]
        board = "finds time to reprint" if enough else "finds no time to reprint"
        yield (
            [
                f"{who} died before printing, the board learns of it after printing and {board}",
            ],
            printing,
            [who],
            False,
        )
    # a notice of candidacy after the close, and the board extending filing (163-294.4(a))
    yield (
        [f"{LATE_FILER} files after the filing closed"],
        [_filed(config, LATE_FILER, close + timedelta(days=1))],
        [],
        True,
    )
    extend = {"type": "filing_extended", "at": _iso(close + timedelta(hours=1))}
    short = len(names) < config.seats
    yield ["the board extends filing"], [extend], [], not short
    if short:
        filed = _filed(config, LATE_FILER, close + timedelta(days=2))
        yield (
            ["the board extends filing", f"{LATE_FILER} files in the extension"],
            [
                extend,
                filed,
            ],
            [],
            False,
        )
    if config.departures < 2 or len(names) < 2:
        return
    other = names[-2]
    for i, (kind1, region1, evs1) in enumerate(singles):
        for kind2, region2, _ in singles[i:]:
            if BEFORE_VOTE.index(region2) < BEFORE_VOTE.index(region1):
                continue
            if region1 in BEFORE_VOTE[3:] and region2 is not region1:
                continue  # one printing, one determination of the board
            evs2 = [
                e
                for e in _leave_events(kind2, region2, other, d)
                if e["type"] not in ("ballots_printed", "reprint_determined")
                or not any(x["type"] == e["type"] for x in evs1)
            ]
            for e in evs2:
                if e["type"] == _EVENT[kind2]:
                    e["at"] = _iso(datetime.fromisoformat(e["at"]) + timedelta(hours=2))
            steps = [
                f"{who} {kind1.value} {region1.value}",
                f"{other} {kind2.value} {region2.value}",
            ]
            yield steps, [*evs1, *evs2], [who, other], False


def _reopened_close(
    config: Config, evs: list[dict[str, Any]], d: dict[str, datetime]
) -> datetime | None:
    """When filing reopened by a departure closes, if it reopens."""
    result = run(config, [*_filings(config), *evs])
    for dl in result.deadlines:
        if dl.kind is DeadlineKind.REOPENED_FILING_CLOSES:
            return dl.due
    return None


def _ranked(names: Sequence[str], vc: VoteClass, counts: Sequence[int]) -> dict[str, int]:
    return dict(zip(names, counts, strict=True))


def _places(vc: VoteClass, places: int | None, seats: int) -> list[int]:
    """The groups a candidate can be told apart in: every group, or with ``places`` (those the
    method reads: :func:`depth`) only those up to the first group wholly below the places read
    of this class (:func:`read_depth`; it stands for the rest)."""
    if places is None:
        return list(range(len(vc.groups)))
    places = read_depth(vc, places, seats)
    seen = 0
    for i, g in enumerate(vc.groups):
        seen += g
        if seen >= places:
            return list(range(min(i + 2, len(vc.groups))))
    return list(range(len(vc.groups)))


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
    reaches the same canonical state (:func:`ballot_state`, the same ballot) with no fewer
    events ends there, as a course marked ``merged`` (its own rulings and deadlines count for
    the coverage; its futures are those already enumerated). Likewise a course that calls a
    runoff in a canonical state reached before (:func:`call_state`) with no fewer events is
    marked ``joined``: it has its own outcome, and the runoff's courses after it are not
    enumerated again.
    """
    seen: dict[Hashable, int] = {}
    # the canonical states at a runoff's call expanded, each with the length of its log
    calls: dict[Hashable, int] | None = {} if memo else None
    method = config.reads
    read = depth(method, config.seats, config.departures) if reduce else None
    lead = leading(config.seats, config.departures) if reduce else None
    d = _dates_of(config)
    share = threshold_share(method, config.seats)
    filings = _filings(config)
    names = [e["candidate"] for e in filings]
    for steps0, evs0, gone, terminal in _before_vote(config, d, names):
        log0 = filings + evs0
        if terminal:
            yield Course(tuple(["file", *steps0]), tuple(log0)), tuple(gone)
            continue
        # what the board knows the day before the vote: the close and any reopened or extended
        # filing have passed by then
        before = run(config, log0, as_of=d["vote"] - timedelta(days=1))
        if before.outcome.pending is Pending.NOMINATION and gone:
            # G.S. 163-114: the party names a nominee before the vote, and the vote follows
            evs0 = [*evs0, _nominee(config, log0, gone)]
            steps0 = [*steps0, f"the party's executive committee names {LATE_FILER}"]
            log0 = filings + evs0
            before = run(config, log0, as_of=d["vote"] - timedelta(days=1))
        newcomers = [
            e["candidate"] for e in evs0 if e["type"] in ("candidate_filed", "nominee_named")
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
        if any(e["type"] == "nominee_named" for e in evs0) and any(x in gone for x in on_ballot):
            # the departed nominee's name stays printed and its votes count for the party's
            # new nominee (08 NCAC 06B .0104): the new nominee has no place of their own
            on_ballot.remove(LATE_FILER)
        live = [x for x in on_ballot if x not in gone]
        departed_on_ballot = [x for x in on_ballot if x in gone]
        m = len(on_ballot)
        if m == 0 or before.outcome.pending is not Pending.VOTES:
            # the course ends before any vote: nobody left, or no election or primary is held
            yield Course(tuple(["file", *steps0]), tuple(log0)), tuple(gone)
            continue
        if memo:
            key = (
                _folds(config).ballot_key(
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
        ballots = []  # each ranking class with its returns, one for each departed's place
        for vc in vote_classes(method, config.seats, m, places=read, lead=lead):
            counts = realize(vc, share)
            if counts is None:
                continue
            places = _places(vc, read, config.seats) if departed_on_ballot else [0]
            for place in places:
                order = _order(live, departed_on_ballot, vc, place)
                returns = {
                    "type": "returns_reported",
                    "at": _iso(d["vote"]),
                    "counts": _ranked(order, vc, counts),
                }
                ballots.append((vc, place, order, returns))
        _folds(config).read_ahead(log0, [b[3] for b in ballots])
        for vc, place, order, returns in ballots:
            vstep = f"returns: {vc.describe()}"
            if departed_on_ballot:
                vstep += f", {' and '.join(departed_on_ballot)} in group {place + 1}"
            canvass = {"type": "canvass_held", "at": _iso(d["canvass"])}
            base_steps = ["file", *steps0, vstep, "canvass"]
            yield from _after_vote(
                config, d, base_steps, log0, returns, canvass, order, vc, gone, read, calls
            )


def _after_vote(
    config: Config,
    d: dict[str, datetime],
    steps: list[str],
    log0: list[dict[str, Any]],
    returns: dict[str, Any],
    canvass: dict[str, Any],
    order: list[str],
    vc: VoteClass,
    gone: list[str],
    read: int | None,
    calls: dict[Hashable, int] | None,
) -> Iterator[tuple[Course, tuple[str, ...]]]:
    log = [*log0, returns, canvass]
    base = run(config, log)
    yield from _requests(config, d, steps, log, base, gone, calls)
    if len(gone) >= config.departures:
        return
    # one more departure after the vote: one candidate per group of the ranking
    firsts = []
    start = 0
    for g in vc.groups[: len(_places(vc, read, config.seats))]:
        firsts.append(order[start])
        start += g
    for who, kind in product(firsts, Departure):
        if who in gone:
            continue
        night = {
            "type": _EVENT[kind],
            "at": _iso(d["vote"] + timedelta(hours=13)),
            "candidate": who,
        }
        s = [*steps[:-1], f"{who} {kind.value} {Region.NIGHT.value}", steps[-1]]
        lg = [*log0, returns, night, canvass]
        yield from _requests(config, d, s, lg, run(config, lg), [*gone, who], calls)
        if "request" in d:
            window = {
                "type": _EVENT[kind],
                "at": _iso(d["canvass"] + timedelta(hours=22)),
                "candidate": who,
            }
            s = [*steps, f"{who} {kind.value} {Region.WINDOW.value}"]
            lg = [*log, window]
            yield from _requests(config, d, s, lg, run(config, lg), [*gone, who], calls)


def _requests(
    config: Config,
    d: dict[str, datetime],
    steps: list[str],
    log: list[dict[str, Any]],
    result: ContestResult,
    gone: list[str],
    calls: dict[Hashable, int] | None,
) -> Iterator[tuple[Course, tuple[str, ...]]]:
    """The course of ``log`` (replayed: ``result``), then the courses that continue it: the
    recount, the party's nominee or the lot the engine waits for, a departure after the
    declaration, the entitled runner-up's request in time or late, and after a call the
    runoff's (see :func:`_second_round`; with ``calls``, those of a canonical state at the call
    expanded before are not expanded again: :func:`call_state`)."""
    yield Course(tuple(steps), tuple(log), result), tuple(gone)
    pending = result.outcome.pending
    if pending is Pending.RECOUNT and not any(e["type"] == "recount_held" for e in log):
        # G.S. 163-182.7: the recount the engine waits for confirms the returns, or changes them
        first = next(e for e in log if e["type"] == "returns_reported")
        at = _iso(d["canvass"] + timedelta(days=2))
        tied = [c for c in _lot_candidates(result) if c in first["counts"]]
        changed = dict(first["counts"])
        if tied:
            changed[tied[-1]] += 1
        for label, counts in (
            ("the recount confirms the returns", first["counts"]),
            (f"the recount finds one more vote for {tied[-1]}" if tied else "", changed),
        ):
            if not label:
                continue
            lg = [*log, {"type": "recount_held", "at": at, "counts": counts}]
            yield from _requests(config, d, [*steps, label], lg, run(config, lg), gone, calls)
        return
    if pending is Pending.NOMINATION and not any(e["type"] == "nominee_named" for e in log):
        lg = [*log, _nominee(config, log, gone)]
        s = [*steps, f"the party's executive committee names {LATE_FILER}"]
        yield from _requests(config, d, s, lg, run(config, lg), gone, calls)
        return
    if (
        pending is None
        and result.outcome.runoff_status.value != "called"
        and not any(e["type"] == "runoff_requested" for e in log)
    ):
        yield from _after_declaration(config, steps, log, result, gone, calls)
    if pending is Pending.LOT:
        drawn = [e["winner"] for e in log if e["type"] == "lot_drawn"]
        tied = list(_lot_candidates(result, drawn))
        if tied and len(drawn) < config.candidates:
            lot = {
                "type": "lot_drawn",
                "at": _iso(d["canvass"] + timedelta(days=3, hours=len(drawn) - 1)),
                "winner": tied[0],
            }
            lg = [*log, lot]
            yield from _requests(
                config, d, [*steps, f"lot drawn, {tied[0]} wins"], lg, run(config, lg), gone, calls
            )
        return
    available = [r for r in result.rulings if r.kind is RulingKind.RUNOFF_AVAILABLE]
    if not available or "request" not in d:
        return
    asker = next((c for c in available[-1].candidates if c not in gone), None)
    if asker is None:
        return
    last = max(datetime.fromisoformat(e["at"]) for e in log)
    # the deadline the engine set (a recount moves it), else the calendar's
    kinds = (DeadlineKind.RUNOFF_REQUEST, DeadlineKind.SECOND_PRIMARY_REQUEST)
    due = max((_naive(dl.due) for dl in result.deadlines if dl.kind in kinds), default=None)
    due = due or _naive(d["request"])
    for how in (Request.IN_TIME, Request.LATE):
        when = (
            max(last, _naive(d["canvass"])) + timedelta(hours=1)
            if how is Request.IN_TIME
            else max(last, due) + timedelta(hours=2)
        )
        if how is Request.IN_TIME and when > due:
            continue  # the window closed before anything else could happen
        req = {"type": "runoff_requested", "at": _iso(when), "candidate": asker}
        lg = [*log, req]
        res = run(config, lg)
        s = [*steps, f"{asker} {how.value}"]
        if res.outcome.runoff_status.value != "called":
            yield Course(tuple(s), tuple(lg), res), tuple(gone)
            continue
        if calls is not None:
            key = _call_key(config, lg, d, gone)
            if key is not None:
                earlier = calls.get(key)
                if earlier is not None and earlier <= len(lg):
                    yield Course(tuple(s), tuple(lg), res, joined=True), tuple(gone)
                    continue
                calls[key] = len(lg)
        yield Course(tuple(s), tuple(lg), res), tuple(gone)
        yield from _second_round(config, d, s, lg, res, gone, calls)


def _call_key(
    config: Config, log: Sequence[dict[str, Any]], d: dict[str, datetime], gone: Sequence[str]
) -> Hashable | None:
    """The canonical state (:func:`call_state`) of the contest after ``log``, which calls a
    runoff, as the first event :func:`_second_round` adds finds it: the timers due before it
    fired (a group's runoff is called when the time to request it passes)."""
    folds = _folds(config)
    state, evs = folds.fold(log)
    first = d["second"] - _BEFORE_SECOND
    state = fire_timers(state, folds.ctx, first, evs[-1].index if evs else -1)
    key = call_state(state, folds.ctx, settled=len(gone) >= config.departures)
    return None if key is None else (key, tuple(gone))


def _nominee(config: Config, log: Sequence[dict[str, Any]], gone: Sequence[str]) -> dict[str, Any]:
    """G.S. 163-114: the party's executive committee names a nominee (of the departed
    candidate's party), two days after the last event of ``log``."""
    last = max(_known(e) for e in log)
    named: dict[str, Any] = {
        "type": "nominee_named",
        "at": _iso(last + timedelta(days=2)),
        "candidate": LATE_FILER,
    }
    party = config.party(gone[-1]) if gone else config.party(LATE_FILER)
    if party is not None:
        named["party"] = party
    return named


def _after_declaration(
    config: Config,
    steps: list[str],
    log: list[dict[str, Any]],
    result: ContestResult,
    gone: list[str],
    calls: dict[Hashable, int] | None,
) -> Iterator[tuple[Course, tuple[str, ...]]]:
    """After the result is final: an elected or nominated candidate leaves before taking the
    oath, or everyone elected takes it (only on courses where nobody left before, so that the
    number of courses stays bounded)."""
    o = result.outcome
    winners = [*o.elected, *o.nominated]
    if not winners or any(e["type"] == "oath_taken" for e in log):
        return
    # after the last event and after the result was declared (at the request deadline when
    # nobody asked for a runoff)
    deciding = (RulingKind.ELECTED, RulingKind.NOMINATED)
    last = max(
        [datetime.fromisoformat(e.get("notice_at", e["at"])) for e in log]
        + [_naive(r.at) for r in result.rulings if r.kind in deciding]
    )
    d = _dates_of(config)
    who = next((w for w in winners if w not in gone), None)
    if who is not None and len(gone) < config.departures:
        left = {
            "type": "candidate_died",
            "at": _iso(last + timedelta(days=3)),
            "candidate": who,
        }
        lg = [*log, left]
        role = "elected" if o.elected else "nominated"
        s = [*steps, f"{who}, {role}, died after the declaration, before the oath"]
        yield from _requests(config, d, s, lg, run(config, lg), [*gone, who], calls)
    if o.elected and not gone:
        oaths = [
            {"type": "oath_taken", "at": _iso(last + timedelta(days=5)), "candidate": w}
            for w in o.elected
        ]
        lg = [*log, *oaths]
        s = [*steps, "the elected take the oath"]
        yield Course(tuple(s), tuple(lg)), tuple(gone)
        if config.departures >= 1:
            # G.S. 163-294.1(d): an officer who took the oath leaves
            who = o.elected[0]
            left = {
                "type": "candidate_died",
                "at": _iso(last + timedelta(days=9)),
                "candidate": who,
            }
            s = [*s, f"{who} dies after taking the oath"]
            yield Course(tuple(s), tuple([*lg, left])), (who,)


def _lot_candidates(result: ContestResult, drawn: Sequence[str] = ()) -> tuple[str, ...]:
    """The candidates of the tie a lot or a recount waits for, but those ``drawn`` already: those
    of the last ``lot_required`` ruling (the engine names the tie a drawing must settle), else
    the last ruling of a recount or a drawing naming any, else the last naming two or more (a
    ruling on one name is most often a departure's, made after the tie was ruled)."""
    for r in reversed(result.rulings):
        if r.kind is RulingKind.LOT_REQUIRED:
            left = tuple(c for c in r.candidates if c not in drawn)
            if left:
                return left
            break
    for r in reversed(result.rulings):
        if r.kind in (RulingKind.DECIDED_BY_LOT, RulingKind.RECOUNT_REQUIRED):
            left = tuple(c for c in r.candidates if c not in drawn)
            if left:
                return left
    for wanted in (2, 1):
        for r in reversed(result.rulings):
            left = tuple(c for c in r.candidates if c not in drawn)
            if len(r.candidates) >= wanted and left:
                return left
    if result.tallies:  # no ruling names them (a partisan general election's tie): the leaders
        top = result.tallies[-1]
        return tuple(name for name, votes in top if votes == top[0][1])
    return ()


#: When a candidate in a runoff leaves (after the call, before the runoff's day)
_BEFORE_SECOND = timedelta(days=7)


def _second_round(
    config: Config,
    d: dict[str, datetime],
    steps: list[str],
    log: list[dict[str, Any]],
    result: ContestResult,
    gone: list[str],
    calls: dict[Hashable, int] | None,
) -> Iterator[tuple[Course, tuple[str, ...]]]:
    pair = [c for c in result.outcome.runoff_candidates]
    if not pair:
        return
    for label, counts in (
        ("the first named wins", [600 - 10 * i for i in range(len(pair))]),
        ("the last named wins", [500 + 10 * i for i in range(len(pair))]),
    ):
        ret, can = _runoff_count(d, dict(zip(pair, counts, strict=True)))
        lg = [*log, ret, can]
        s = [*steps, f"runoff returns: {label}", "canvass"]
        res = run(config, lg)
        yield Course(tuple(s), tuple(lg), res), tuple(gone)
        # the runoff's (or second primary's) winner leaves before taking the oath, or takes it
        # and then leaves: what the first round's winner may do (see _after_declaration)
        yield from _after_declaration(config, s, lg, res, gone, calls)
        if len(gone) < config.departures:
            # the one these votes put first dies after the runoff's vote, before its canvass
            who = pair[0] if counts[0] >= counts[-1] else pair[-1]
            night = {
                "type": "candidate_died",
                "at": _iso(d["second"] + timedelta(hours=13)),
                "candidate": who,
            }
            lg = [*log, ret, night, can]
            s = [
                *steps,
                f"runoff returns: {label}",
                f"{who} died {Region.SECOND_NIGHT.value}",
                "canvass",
            ]
            yield Course(tuple(s), tuple(lg)), tuple([*gone, who])
        if len(gone) < config.departures:
            who = pair[0]
            leave = {
                "type": "candidate_died",
                "at": _iso(d["second"] - _BEFORE_SECOND),
                "candidate": who,
            }
            lg = [*log, leave, ret, can]
            s = [*steps, f"{who} died {Region.CALLED.value}", f"runoff returns: {label}", "canvass"]
            yield Course(tuple(s), tuple(lg)), tuple([*gone, who])
    yield from _runoff_tie(config, d, steps, log, pair, gone)


def _runoff_count(
    d: dict[str, datetime], counts: dict[str, int]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The runoff's returns (``counts``) on its day, and its canvass."""
    ret = {"type": "returns_reported", "at": _iso(d["second"]), "counts": counts}
    return ret, {"type": "canvass_held", "at": _iso(d["second_canvass"])}


def _runoff_tie(
    config: Config,
    d: dict[str, datetime],
    steps: list[str],
    log: list[dict[str, Any]],
    pair: Sequence[str],
    gone: list[str],
) -> Iterator[tuple[Course, tuple[str, ...]]]:
    """The runoff (or second primary) ends in a tie of everyone on its ballot: the drawing of
    lots the count waits for (163-293(f); the gaps of a tie among three or more and of a second
    primary's tie), and one of the tied dying before it, with the drawing for either."""
    ret, can = _runoff_count(d, dict.fromkeys(pair, 550))
    lg = [*log, ret, can]
    s = [*steps, "runoff returns: a tie", "canvass"]
    res = run(config, lg)
    yield Course(tuple(s), tuple(lg), res), tuple(gone)
    yield from _runoff_lots(config, d, s, lg, res, gone, first=None)
    if len(gone) >= config.departures or res.outcome.pending is not Pending.LOT:
        return
    tied = _lot_candidates(res)
    if len(tied) < 2:
        return
    who = tied[0]
    death = {
        "type": "candidate_died",
        "at": _iso(d["second_canvass"] + timedelta(days=1)),
        "candidate": who,
    }
    lg = [*lg, death]
    s = [*s, f"{who} died {Region.BEFORE_LOT.value}"]
    res = run(config, lg)
    left = [*gone, who]
    yield Course(tuple(s), tuple(lg), res), tuple(left)
    for winner in (who, tied[1]):  # the drawing falls to the one who died, or to another
        yield from _runoff_lots(config, d, s, lg, res, left, first=winner)


def _runoff_lots(
    config: Config,
    d: dict[str, datetime],
    steps: list[str],
    log: list[dict[str, Any]],
    result: ContestResult,
    gone: list[str],
    *,
    first: str | None,
) -> Iterator[tuple[Course, tuple[str, ...]]]:
    """The drawings of lots a runoff's count waits for, one after another until it waits no
    more: the first for ``first`` (when one of the tied), each other for the first one named."""
    drawn: list[str] = []
    while result.outcome.pending is Pending.LOT and len(drawn) < config.candidates:
        tied = _lot_candidates(result, drawn)
        if not tied:
            return
        winner = first if first in tied and not drawn else tied[0]
        lot = {
            "type": "lot_drawn",
            "at": _iso(d["second_canvass"] + timedelta(days=3, hours=len(drawn))),
            "winner": winner,
        }
        drawn.append(winner)
        log = [*log, lot]
        steps = [*steps, f"lot drawn, {winner} wins"]
        result = run(config, log)
        yield Course(tuple(steps), tuple(log), result), tuple(gone)


def _guarded(
    found: Iterator[tuple[Course, tuple[str, ...]]], errors: list[tuple[str, str]]
) -> Iterator[tuple[Course, tuple[str, ...]]]:
    """The courses of ``found`` until the engine raises while the enumeration replays a
    beginning of one (a bug): the error is recorded and the enumeration stops there."""
    last: tuple[str, ...] = ()
    try:
        for item in found:
            last = item[0].steps
            yield item
    except Exception as error:  # an engine error is a finding to report
        where = "; ".join(last) or "the first course"
        errors.append(
            (f"after {where}: the enumeration stopped", f"{type(error).__name__}: {error}")
        )


class _Said:
    """What an exploration reads of the rulings and deadlines of its courses: the subsections
    each cites (as strings), the gap or conflict it names, the subsections that decide an
    outcome. Courses share their rulings and deadlines (the states they come from are shared),
    so each one is read once: it is kept with what was read, so that its identity stays its
    own; past ``limit`` those kept are let go (and read again when met)."""

    def __init__(self, *, limit: int = 50_000) -> None:
        self.memo: dict[int, tuple[Ruling | Deadline, frozenset[str], str, frozenset[str]]] = {}
        self.cited: dict[tuple[Cite, ...], frozenset[str]] = {}
        self.limit = limit

    def _read(
        self, r: Ruling | Deadline
    ) -> tuple[Ruling | Deadline, frozenset[str], str, frozenset[str]]:
        memo = self.memo
        if len(memo) > self.limit:
            memo.clear()
        cites = self.cited.get(r.cites)
        if cites is None:  # many rulings cite the same subsections: each set is made once
            cites = self.cited[r.cites] = frozenset(str(c) for c in r.cites)
        finding = ""
        deciding: frozenset[str] = frozenset()
        if isinstance(r, Ruling):
            if r.kind is RulingKind.NO_PROVISION:
                finding = finding_id(r)
            if r.kind in _DECIDING:
                deciding = frozenset(c.section + c.sub for c in r.cites)
        read = memo[id(r)] = (r, cites, finding, deciding)
        return read

    def rulings(self, rulings: Sequence[Ruling]) -> tuple[set[str], set[str], set[str]]:
        """The subsections the rulings cite, the gaps and conflicts they name, and the
        subsections of those that decide."""
        memo = self.memo
        cites: set[str] = set()
        found: set[str] = set()
        deciding: set[str] = set()
        for r in rulings:
            hit = memo.get(id(r)) or self._read(r)
            cites |= hit[1]
            if hit[2]:
                found.add(hit[2])
            if hit[3]:
                deciding |= hit[3]
        return cites, found, deciding

    def deadlines(self, deadlines: Sequence[Deadline]) -> set[str]:
        """The subsections the deadlines cite."""
        memo = self.memo
        cites: set[str] = set()
        for dl in deadlines:
            hit = memo.get(id(dl)) or self._read(dl)
            cites |= hit[1]
        return cites


def explore(config: Config, *, reduce: bool = True, memo: bool = True) -> Exploration:
    """Enumerate the configuration's courses, replay each, group them by outcome (``reduce``
    and ``memo``: see :func:`courses`).

    The cyclic garbage collector pauses meanwhile: the states, rulings and events kept refer
    only to older values (an exploration leaves no cycles: a test checks), and the collector
    walked all of them, again and again, as they grew. The states folded are let go before it
    runs again as before, once the exploration ends: it would walk them all once more."""
    with collector_paused():
        try:
            return _explore(config, reduce=reduce, memo=memo)
        finally:
            forget_folds()


def _explore(config: Config, *, reduce: bool, memo: bool) -> Exploration:
    best: dict[Outcome, Witness] = {}
    count: dict[Outcome, int] = {}
    cites: Counter[str] = Counter()
    landmarks: Counter[str] = Counter()
    errors: list[tuple[str, str]] = []
    n = 0
    seen: set[tuple[str, ...]] = set()
    merged = 0
    said = _Said()
    started = time.process_time()
    for course, departed in _guarded(courses(config, reduce=reduce, memo=memo), errors):
        ends = len(course.steps) + (0 if course.merged else 1)  # a merge is no step of its own
        # the beginnings not seen before (every beginning of one seen was seen with it)
        for i in range(ends - 1, 0, -1):
            head = course.steps[:i]
            if head in seen:
                break
            seen.add(head)
        try:
            result = course.result or run(config, course.events)
        except Exception as error:  # an engine error is a finding to report
            n += 1
            errors.append(("; ".join(course.steps), f"{type(error).__name__}: {error}"))
            continue
        read = said.rulings(result.rulings)
        cites.update(read[0])
        landmarks.update(said.deadlines(result.deadlines))
        if course.merged:
            merged += 1
            continue
        merged += course.joined
        n += 1
        broken = impossible(result, config.seats)
        if broken:  # a result no law allows is an engine error too, reported with its course
            errors.append(("; ".join(course.steps), broken))
        outcome = outcome_of(result, departed, read=read)
        count[outcome] = count.get(outcome, 0) + 1
        old = best.get(outcome)
        if old is None or len(course.events) < len(old.course.events):
            best[outcome] = Witness(course, result, departed)
    share = threshold_share(config.reads, config.seats)
    infeasible = sum(
        1
        for m in range(1, config.candidates + 1)
        for vc in vote_classes(config.reads, config.seats, m)
        if not feasible(vc, share)
    )
    rows = sorted(
        ((o, best[o], count[o]) for o in best),
        key=lambda row: (len(row[1].course.events), row[0].describe()),
    )
    return Exploration(
        config=config,
        courses=n,
        states=len(seen),
        outcomes=tuple(rows),
        cites=tuple(sorted(cites.items())),
        landmarks=tuple(sorted(landmarks.items())),
        infeasible=infeasible,
        errors=tuple(errors),
        merged=merged,
        cpu=time.process_time() - started,
    )


def impossible(result: ContestResult, seats: int) -> str:
    """What is impossible in a result whatever the law says (empty when nothing is): more
    seats filled or vacant than the contest has, a name elected or nominated twice."""
    o = result.outcome
    if len(o.elected) + o.vacant_seats > seats:
        return (
            f"ImpossibleResult: {len(o.elected)} elected ({', '.join(o.elected)}) and "
            f"{o.vacant_seats} seat(s) vacant for {seats} seat(s)"
        )
    for names, what in ((o.elected, "elected"), (o.nominated, "nominated")):
        if len(set(names)) != len(names):
            return f"ImpossibleResult: a name {what} twice ({', '.join(names)})"
    return ""


def explore_many(configs: Sequence[Config]) -> list[Exploration]:
    """Explore configurations one after another (the job each engine runs on a chunk)."""
    return [explore(c) for c in configs]


def explore_grid(
    configs: Sequence[Config], *, workers: int = 1, engine: Engine | None = None
) -> list[Exploration]:
    """Explore several configurations: in this process, on a pool of ``workers`` processes, or
    on any :class:`simulator.analysis.workers.Engine` (a Dask cluster); the results are the same
    and in
    the order of ``configs`` whichever runs them. Each configuration is one task."""
    from simulator.analysis.workers import Processes, Serial

    if engine is None:
        engine = Processes(workers=workers, chunksize=1) if workers > 1 else Serial()
    # the largest first, so that the small ones fill the workers' last gaps
    order = sorted(range(len(configs)), key=lambda i: -_size(configs[i]))
    done = engine.run(explore_many, [configs[i] for i in order])
    out: list[Exploration | None] = [None] * len(configs)
    for k, i in enumerate(order):
        out[i] = done[k]
    return [ex for ex in out if ex is not None]


def _size(config: Config) -> int:
    """A rough measure of a configuration's work (its courses grow about with the square of
    the candidates, and with the seats), to start the largest first."""
    return config.candidates**2 * config.seats * (1 + config.departures)


# ---------------------------------------------------------------------------------------------
# Witness files


def expectation(result: ContestResult) -> dict[str, Any]:
    """An ``expect:`` entry pinning the whole prediction: outcome and every ruling in order."""
    o = result.outcome
    import re

    return {
        "state": result.state,
        "elected": list(o.elected),
        "nominated": list(o.nominated),
        "vacant_seats": o.vacant_seats,
        "runoff": {"status": o.runoff_status.value, "candidates": list(o.runoff_candidates)},
        "pending": o.pending.value if o.pending else None,
        "rulings": [
            {
                "kind": r.kind.value,
                "cite": "^" + re.escape(r.cite) + "$",
                "candidates": list(r.candidates),
            }
            for r in result.rulings
        ],
    }


def witness_doc(config: Config, outcome: Outcome, witness: Witness) -> dict[str, Any]:
    """The witness as an ``electsim/v1`` scenario whose ``expect:`` block is the prediction."""
    doc = scenario_doc(config, witness.course.events, f"Explored: {outcome.describe()}")
    story = "; ".join(witness.course.steps)
    out: dict[str, Any] = {
        "format": doc["format"],
        "title": doc["title"],
        "description": f"A shortest course found by electsim explore ({config.label}): {story}.",
    }
    if "interpretations" in doc:
        out["interpretations"] = doc["interpretations"]
    out |= {
        "contests": doc["contests"],
        "events": doc["events"],
        "expect": [expectation(witness.result)],
    }
    return out


def witness_text(doc: dict[str, Any]) -> str:
    """A witness scenario as the YAML text written for it."""
    return yaml.safe_dump(
        doc, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None
    )


def write_witness(path: Path, doc: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(witness_text(doc), encoding="utf-8")


def write_witnesses(files: Sequence[tuple[Path, dict[str, Any]]], *, overwrite: bool) -> list[str]:
    """Write witnesses into the folder a user named (``--witnesses``). A file already there
    with other content (a scenario the user edited, say) is replaced only with ``overwrite``;
    otherwise nothing at all is written and each such file is a problem line (the caller
    exits 2). A file with the very same content is left as it is."""
    texts = [(path, witness_text(doc)) for path, doc in files]
    problems = []
    fresh = []  # the witnesses to write: not there yet, or there with other content
    for path, text in texts:
        if path.is_dir():
            problems.append(f"{path}: cannot write the witness: it is a folder")
            continue
        try:
            same = path.read_text(encoding="utf-8") == text
        except (OSError, UnicodeDecodeError):  # (not there, or not text: not the witness)
            same = False
        if same:
            continue
        if path.exists() and not overwrite:
            problems.append(
                f"{path}: expected no file or this witness; found a file with other "
                "content (kept: nothing was written; move it, or pass --overwrite)"
            )
        fresh.append((path, text))
    if problems:
        return problems
    for path, text in fresh:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return []


def check_witness(path: Path) -> list[str]:
    """Read a witness back through the loader and compare its replay with its ``expect:`` block:
    the checks ``electsim test`` makes, then every ruling, in order and nothing more. Returns
    the differences (none: the witness replays to the prediction)."""
    import re

    from simulator.input.expect import check_scenario
    from simulator.input.loader import load_scenario

    scenario = load_scenario(path)
    check = check_scenario(scenario)
    bad = [str(m) for m in check.mismatches] + ([] if check.expectations else ["no expectation"])
    predicted = yaml.safe_load(path.read_text(encoding="utf-8"))["expect"][0]["rulings"]
    found = replay(scenario).contests[0].rulings
    if len(found) != len(predicted):
        bad.append(f"rulings: expected {len(predicted)}; found {len(found)}")
    for want, got in zip(predicted, found, strict=False):
        if not (
            want["kind"] == got.kind.value
            and re.fullmatch(want["cite"], got.cite)
            and list(got.candidates) == want["candidates"]
        ):
            bad.append(
                f"ruling: expected {want['kind']} {want['candidates']}; found {got.kind.value}"
            )
            break
    return bad


# ---------------------------------------------------------------------------------------------
# Output


def to_json(ex: Exploration) -> dict[str, Any]:
    return {
        "config": {
            "method": ex.config.method.value,
            "stage": ex.config.stage,
            "seats": ex.config.seats,
            "candidates": ex.config.candidates,
            "departures": ex.config.departures,
            "interpretations": dict(ex.config.readings),
        },
        "courses": ex.courses,
        "states": ex.states,
        "merged": ex.merged,
        "outcomes": [
            {
                "outcome": o.to_json(),
                "text": o.describe(),
                "courses": k,
                "witness": list(w.course.steps),
                "events": len(w.course.events),
            }
            for o, w, k in ex.outcomes
        ],
        "findings": [
            {"id": f, "witness": list(w.course.steps), "outcome": o.describe()}
            for f, o, w in ex.findings
        ],
        "coverage": dict(ex.cites),
        "deadline_coverage": dict(ex.landmarks),
        "clause_coverage": coverage_json(ex),
        "infeasible_classes": ex.infeasible,
        "engine_errors": [{"course": c, "error": e} for c, e in ex.errors],
    }


def render(ex: Exploration, *, never: Sequence[str] = ()) -> str:
    lines = [
        f"{ex.config.label}: {ex.states} abstract states, {ex.courses} courses, "
        f"{len(ex.outcomes)} outcomes ({ex.merged} beginnings reached a state at the vote or "
        "at a runoff's call reached before: what follows them is not repeated)"
    ]
    for i, (o, w, k) in enumerate(ex.outcomes, 1):
        lines.append(f"  {i:>3}. {o.describe()}  [{k} course(s)]")
        lines.append("       witness: " + "; ".join(w.course.steps))
    found = ex.findings
    lines.append(f"gaps and conflicts reached: {len(found)}")
    for f, _o, w in found:
        lines.append(f"  {f}")
        lines.append("       witness: " + "; ".join(w.course.steps))
    lines.append("subsections cited by rulings: " + ", ".join(c for c, _ in ex.cites))
    if never:
        lines.append("subsections of the rule tables never reached: " + ", ".join(never))
    cells = coverage(ex)
    reached = [sub for sub, cell in cells.items() if cell.status is Status.REACHED]
    lines.append(
        f"clause coverage: {len(reached)} of {len(cells)} subsections of the five statutes "
        "reached by a ruling"
    )
    for sub, cell in cells.items():
        if cell.status is not Status.REACHED:
            lines.append(f"  {sub}: {cell.status.value} ({cell.why})")
    if ex.infeasible:
        lines.append(f"vote classes no votes can realize (skipped): {ex.infeasible}")
    if ex.errors:
        lines.append(f"ENGINE ERRORS: {len(ex.errors)}")
        for c, e in ex.errors[:10]:
            lines.append(f"  {c}: {e}")
    return "\n".join(lines)


def witness_graph(ex: Exploration) -> Any:
    """The shortest witnesses as a networkx tree: one node per abstract step of a story (stories
    share their common beginnings), each outcome a leaf named by its description."""
    import networkx as nx

    g = nx.DiGraph(configuration=ex.config.label)
    g.add_node("start", label="filing", kind="step")
    for i, (o, w, k) in enumerate(ex.outcomes, 1):
        parent = "start"
        for j in range(1, len(w.course.steps)):
            node = " / ".join(w.course.steps[1 : j + 1])
            g.add_node(node, label=w.course.steps[j], kind="step")
            g.add_edge(parent, node)
            parent = node
        leaf = f"outcome {i}"
        g.add_node(
            leaf,
            label=o.describe(),
            kind="outcome",
            courses=k,
            findings=", ".join(o.findings),
        )
        g.add_edge(parent, leaf)
    return g


def table_subsections() -> set[str]:
    """Every subsection the rule tables, gaps and transitions cite (the coverage universe)."""
    from simulator.analysis.references import all_references

    return {r.cite for r in all_references() if r.kind in ("rule", "gap", "conflict", "transition")}


def never_reached(ex: Exploration) -> list[str]:
    from simulator.law.cite import key

    reached = {key(c) for c, _ in ex.cites}
    return sorted(
        c for c in table_subsections() if not any(r == c or r.startswith(c + "(") for r in reached)
    )


def _kinds(args: argparse.Namespace) -> list[tuple[Method, bool]]:
    """The methods ``--method`` and ``--stage`` select, each with whether it is the partisan
    general election: the partisan method's primary and general election both, unless
    ``--stage`` names one."""
    stage = getattr(args, "stage", None)
    methods = [Method(args.method)] if args.method else list(Method)
    out: list[tuple[Method, bool]] = []
    for m in methods:
        if m is Method.PARTISAN:
            out += [
                (m, general) for general in (False, True) if stage in (None, general_of(general))
            ]
        else:
            out.append((m, False))
    return out


def general_of(general: bool) -> str:
    return "election" if general else "primary"


def parse_readings(written: Sequence[str]) -> tuple[tuple[str, Any], ...]:
    """``--reading NAME=VALUE`` options as (name, value) pairs; a yes-or-no switch's value is
    true or false. Raises ValueError saying what is wrong with the first bad one."""
    out: dict[str, Any] = {}
    for text in written:
        name, eq, value = text.partition("=")
        name, value = name.strip(), value.strip()
        allowed = reading_values(name)
        if not eq or allowed is None:
            names = sorted(f.name for f in attrs.fields(Interpretations))
            raise ValueError(
                f"--reading: expected NAME=VALUE with NAME one of {', '.join(names)}; "
                f"found {text!r}"
            )
        chosen: Any = value
        if allowed == (True, False):
            chosen = {"true": True, "false": False}.get(value.lower(), value)
        if chosen not in allowed:
            raise ValueError(
                f"--reading {name}: expected one of {', '.join(map(_shown, allowed))}; "
                f"found {value!r}"
            )
        if name in out and out[name] != chosen:
            raise ValueError(f"--reading {name}: given twice, as {_shown(out[name])} and {value}")
        out[name] = chosen
    return tuple(sorted(out.items()))


def _grid(args: argparse.Namespace) -> list[Config]:
    top = getattr(args, "max_candidates", None)
    readings = parse_readings(getattr(args, "reading", None) or ())
    return [
        Config(
            method=m,
            seats=s,
            candidates=n,
            departures=args.departures,
            general=g,
            readings=readings,
        )
        for m, g in _kinds(args)
        for s in range(1, args.seats + 1)
        for n in range(1, (top or 2 * s + 2) + 1)
    ]


def _check_outputs(args: argparse.Namespace) -> None:
    """The chart and the GraphML file can be written, with their names' endings, before the
    exploration runs (a missing folder stopped the program after it, exit 1; ``--chart DIR``
    wrote ``DIR.png`` beside the folder; ``--graphml scenario.yaml`` wrote GraphML over it)."""
    from simulator.input.output import check_output
    from simulator.model.errors import OutputError

    for option, path, endings in (
        ("--chart", getattr(args, "chart", None), (".png", ".svg")),
        ("--graphml", getattr(args, "graphml", None), (".graphml",)),
    ):
        if path is None:
            continue
        suffix = Path(path).suffix.lower()
        if suffix not in endings:
            raise OutputError(
                f"{path}: expected a file ending in {' or '.join(endings)} for {option}; found "
                f"{suffix or 'no extension'}"
            )
        check_output(path)


def cmd_explore(args: argparse.Namespace) -> int:
    top = getattr(args, "max_candidates", None)
    given = getattr(args, "workers", None)
    ranges = [
        ("--seats", args.seats, 1, 3),
        ("--candidates", args.candidates, 1, 8),
        ("--departures", args.departures, 0, 2),
        ("--max-candidates", top, 1, 8),
        ("--workers", given, 1, None),
    ]
    wrong = [
        f"electsim explore {flag}: expected a whole number from {low} to {high}; found {value}"
        if high is not None
        else f"electsim explore {flag}: expected a whole number, {low} or more; found {value}"
        for flag, value, low, high in ranges
        if value is not None and not (low <= value and (high is None or value <= high))
    ]
    # options that only a grid reads, given to one configuration (they were ignored)
    wrong += [
        f"electsim explore {flag}: expected only with --grid; found it without"
        for flag, value in (
            ("--max-candidates", top),
            ("--workers", given),
            ("--engine", getattr(args, "engine", None)),
            ("--scheduler", getattr(args, "scheduler", None)),
        )
        if value is not None and not args.grid
    ]
    if getattr(args, "overwrite", False) and not args.witnesses:
        wrong.append(
            "electsim explore --overwrite: expected only with --witnesses; found it without"
        )
    if wrong:
        print("\n".join(wrong), file=sys.stderr)
        return 2
    args.workers = 1 if given is None else given
    _check_outputs(args)
    markdown = getattr(args, "markdown", False)
    if markdown and (args.json or not args.grid):
        # (each was ignored: --json printed JSON, one configuration printed its text)
        found = "both --json and --markdown" if args.json else "--markdown without --grid"
        print(
            f"electsim explore: expected one output format, --markdown only with --grid; found "
            f"{found}",
            file=sys.stderr,
        )
        return 2
    stage = getattr(args, "stage", None)
    if stage is not None and args.method and args.method != Method.PARTISAN.value:
        print(
            f"electsim explore --stage: expected the partisan method (the {args.method} "
            "method has one stage); found --method " + args.method,
            file=sys.stderr,
        )
        return 2
    try:
        readings = parse_readings(getattr(args, "reading", None) or ())
    except ValueError as error:
        print(f"electsim explore: {error}", file=sys.stderr)
        return 2
    if args.witnesses and Path(args.witnesses).exists() and not Path(args.witnesses).is_dir():
        print(
            f"electsim explore: {args.witnesses}: expected a folder to write the witnesses in; "
            "found a file (name a folder, new or existing)",
            file=sys.stderr,
        )
        return 2
    if args.grid:
        from simulator.analysis.workers import EngineError

        try:
            return _cmd_grid(args)
        except EngineError as error:
            print(error, file=sys.stderr)
            return 2
    if not args.method:
        print("electsim explore: --method is required (or --grid)", file=sys.stderr)
        return 2
    config = Config(
        method=Method(args.method),
        seats=args.seats,
        candidates=args.candidates,
        departures=args.departures,
        general=getattr(args, "stage", None) == "election",
        readings=readings,
    )
    ex = explore(config)
    if getattr(args, "chart", None):
        from simulator.analysis.coverage import write_coverage_chart

        write_coverage_chart([ex], Path(args.chart))
    if args.graphml:
        import networkx as nx

        nx.write_graphml(witness_graph(ex), args.graphml)
    failures = 0
    if args.witnesses:
        named = [
            (Path(args.witnesses) / f"outcome-{i:03}.yaml", witness_doc(config, o, w))
            for i, (o, w, _k) in enumerate(ex.outcomes, 1)
        ]
        if not _written(named, args):
            return 2
    if args.check:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            for i, (o, w, _k) in enumerate(ex.outcomes, 1):
                path = Path(args.witnesses or tmp) / f"outcome-{i:03}.yaml"
                if not args.witnesses:
                    write_witness(path, witness_doc(config, o, w))
                bad = check_witness(path)
                if bad:
                    failures += 1
                    shown = path if args.witnesses else f"witness of outcome {i}"
                    print(f"{shown}: {'; '.join(bad)}", file=sys.stderr)
    if args.json:
        doc = to_json(ex)
        doc["never_reached"] = never_reached(ex)
        if args.check:
            doc["check"] = {"witnesses": len(ex.outcomes), "failed": failures}
        print(json.dumps(doc, indent=2))
    else:
        print(render(ex, never=never_reached(ex)))
        if args.check:
            print(
                f"check: {len(ex.outcomes) - failures} of {len(ex.outcomes)} witnesses replay "
                "to the predicted outcome and rulings"
            )
    if ex.errors:
        return 1
    return 3 if failures else 0


def grid_findings(results: Sequence[Exploration]) -> list[tuple[str, Config, Outcome, Witness]]:
    """Each gap or conflict reached anywhere on the grid, with its shortest witness (fewest
    events, then fewest steps, then the first configuration)."""
    best: dict[str, tuple[str, Config, Outcome, Witness]] = {}
    for ex in results:
        for f, o, w in ex.findings:
            old = best.get(f)
            size = (len(w.course.events), len(w.course.steps))
            if old is None or size < (len(old[3].course.events), len(old[3].course.steps)):
                best[f] = (f, ex.config, o, w)
    return [best[k] for k in sorted(best)]


def finding_file(finding: str) -> str:
    """``gap:left-runoff-ballot`` -> ``gap-left-runoff-ballot.yaml``."""
    slug = "".join(ch if ch.isalnum() else "-" for ch in finding.lower())
    return "-".join(part for part in slug.split("-") if part) + ".yaml"


def _engine(args: argparse.Namespace, stack: ExitStack) -> Engine | None:
    """The engine ``--engine`` names (None: the default of ``--workers``); a Dask client is
    closed with ``stack``."""
    from simulator.analysis.workers import Dask, EngineError, Processes, Serial

    name = getattr(args, "engine", None)
    if name is None or (name == "serial" and args.workers == 1):
        return None
    if name == "serial":
        return Serial()
    if name == "processes":
        return Processes(workers=args.workers, chunksize=1)
    try:
        import distributed
    except ImportError:
        raise EngineError(
            "electsim explore --engine dask: expected the dask extra "
            "(pip install 'electsim[dask]'); found no distributed package"
        ) from None
    if not args.scheduler:
        raise EngineError("electsim explore --engine dask: expected --scheduler ADDRESS")
    try:
        make: Any = distributed.Client  # not annotated by the package
        client = stack.enter_context(make(args.scheduler, timeout=10))
    except OSError as error:
        raise EngineError(
            f"electsim explore --scheduler {args.scheduler}: expected a Dask scheduler; "
            f"found none ({error})"
        ) from None
    return Dask(client=client, chunksize=1)


def _cmd_grid(args: argparse.Namespace, results: Sequence[Exploration] | None = None) -> int:
    if results is None:
        with ExitStack() as stack:
            results = explore_grid(_grid(args), workers=args.workers, engine=_engine(args, stack))
    if getattr(args, "chart", None):
        from simulator.analysis.coverage import write_coverage_chart

        write_coverage_chart(results, Path(args.chart))
    if args.witnesses:
        named = []
        for f, config, o, w in grid_findings(results):
            doc = witness_doc(config, o, w)
            doc["title"] = f"Explored: {f}: {o.describe()}"
            named.append((Path(args.witnesses) / finding_file(f), doc))
        if not _written(named, args):
            return 2
    failed: dict[Config, int] = {}
    if args.check:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            for ex in results:
                failed[ex.config] = _check_all(ex, Path(tmp))
    if getattr(args, "markdown", False):
        from simulator.analysis.coverage import coverage_markdown

        print(findings_markdown(results, args.witnesses or "scenarios/gaps"))
        print()
        print(coverage_markdown(results))
    elif args.json:
        docs = [to_json(ex) for ex in results]
        if args.check:
            for doc, ex in zip(docs, results, strict=True):
                doc["check"] = {"witnesses": len(ex.outcomes), "failed": failed[ex.config]}
        print(json.dumps(docs, indent=2))
    else:
        check = f" {'failed':>6}" if args.check else ""
        print(
            f"{'configuration':<34} {'states':>7} {'courses':>7} {'merged':>6} {'outcomes':>8} "
            f"{'gaps':>4} {'errors':>6} {'cpu s':>6} {'states/s':>8}" + check
        )
        for ex in results:
            check = f" {failed[ex.config]:>6}" if args.check else ""
            print(
                f"{ex.config.label:<34} {ex.states:>7} {ex.courses:>7} {ex.merged:>6} "
                f"{len(ex.outcomes):>8} {len(ex.findings):>4} {len(ex.errors):>6} "
                f"{ex.cpu:>6.1f} {ex.states / max(ex.cpu, 1e-9):>8,.0f}" + check
            )
        if args.check:
            total = sum(len(ex.outcomes) for ex in results)
            bad = sum(failed.values())
            print(
                f"check: {total - bad} of {total} witnesses replay to the predicted outcome "
                "and rulings"
            )
        found = sorted({f for ex in results for f, _o, _w in ex.findings})
        print(f"gaps and conflicts reached: {len(found)}: " + ", ".join(found))
        from simulator.analysis.coverage import coverage_table

        print(coverage_table(results))
    if any(ex.errors for ex in results):
        return 1
    return 3 if any(failed.values()) else 0


def findings_markdown(results: Sequence[Exploration], witnesses: str) -> str:
    """The gaps and conflicts of a grid as a Markdown table, each with its witness file (under
    ``witnesses``, named by :func:`finding_file`) and its course in words."""
    lines = [
        "| gap or conflict | first reached in | witness | course of events |",
        "| --- | --- | --- | --- |",
    ]
    for f, config, _o, w in grid_findings(results):
        name = finding_file(f)
        where = f"{config.kind}, {config.seats} seat(s), {config.candidates} candidate(s)"
        story = "; ".join(w.course.steps[1:]).replace("|", "\\|")
        lines.append(f"| `{f}` | {where} | [{name}]({witnesses}/{name}) | {story} |")
    return "\n".join(lines)


def _written(named: Sequence[tuple[Path, dict[str, Any]]], args: argparse.Namespace) -> bool:
    """Write the witnesses ``--witnesses`` asks for (:func:`write_witnesses`); False, with each
    problem on stderr, where nothing could be written."""
    try:
        problems = write_witnesses(named, overwrite=getattr(args, "overwrite", False))
    except OSError as error:
        where = getattr(error, "filename", None) or args.witnesses
        problems = [f"{where}: cannot write the witness: {error.strerror or error}"]
    for line in problems:
        print(f"electsim explore: {line}", file=sys.stderr)
    return not problems


def _check_all(ex: Exploration, tmp: Path) -> int:
    """Write every outcome's witness of ``ex`` and check each replays to its prediction; the
    number that do not (each reported on stderr)."""
    bad = 0
    c = ex.config
    for i, (o, w, _k) in enumerate(ex.outcomes, 1):
        path = tmp / f"{c.kind}-{c.seats}-{c.candidates}-{c.departures}-{i:03}.yaml"
        write_witness(path, witness_doc(c, o, w))
        problems = check_witness(path)
        if problems:
            bad += 1
            print(f"{c.label}: witness of outcome {i}: {'; '.join(problems)}", file=sys.stderr)
    return bad


__all__ = ["Config", "Exploration", "Outcome", "VoteClass", "explore", "explore_grid"]
