"""Running courses of events through the real engine: each course is folded from the state after
the longest beginning of its log folded before (:class:`Folds`), its events read through the
scenario loader once (and read ahead in one pass where many courses will hold them).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from datetime import datetime
from operator import itemgetter
from typing import Any

import attrs

from simulator.analysis.explore.config import Config
from simulator.analysis.explore.documents import learned_at, naive_time, scenario_doc
from simulator.analysis.explore.states import ballot_state, forget_forms
from simulator.engine.build import result_of
from simulator.engine.fold import fold
from simulator.engine.replay import finish, make_context
from simulator.engine.result import ContestResult
from simulator.engine.state import State, initial_state
from simulator.engine.timers import fire_timers
from simulator.input.loader import structure
from simulator.model.errors import ScenarioError
from simulator.model.events import CandidateFiled, Event, NomineeNamed


def run(
    config: Config, events: Sequence[dict[str, Any]], *, as_of: datetime | None = None
) -> ContestResult:
    """Replay a concrete log through the engine (the same loader and fold as ``electsim``).

    The course is folded from the state after the longest beginning of its log already folded
    for this configuration (:class:`Folds`): the fold is pure and its states are values, so the
    result is exactly the whole replay's, as of ``as_of`` when given (what the board knew then),
    but for the timeline and the periods, not built.
    """
    return folds_of(config).result(events, as_of=as_of)


def folds_of(config: Config) -> Folds:
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
        named = self.names[id(e)] = (e, repr(e), learned_at(e))
        return named

    def _read(self, ordered: Sequence[dict[str, Any]], keys: Sequence[str]) -> None:
        """Read the events of a log not read before, through the scenario loader: with the
        notices that bring names into the contest, in the order of the log."""
        read = self.events
        wanted = [
            i
            for i, e in enumerate(ordered)
            if (keys[i], -1) not in read or e["type"] in (CandidateFiled.type, NomineeNamed.type)
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
        ordered = sorted([*beginning, *new], key=learned_at)
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
        state, evs = self.fold(events, None if as_of is None else naive_time(as_of))
        last = evs[-1].index if evs else -1
        state = finish(state, self.ctx, as_of, last)
        return result_of(state, self.ctx, (), timeline=False)

    def result_and_stopped(
        self, events: Sequence[dict[str, Any]], stop: datetime
    ) -> tuple[ContestResult, State]:
        """The whole story of ``events`` (:meth:`result`), and the state after them with only
        the timers due before ``stop`` fired (what a course that adds an event at ``stop``
        continues from). The timers are fired once, up to ``stop`` and then on: each fires in
        its turn either way, so the story is the same."""
        state, evs = self.fold(events)
        last = evs[-1].index if evs else -1
        stopped = fire_timers(state, self.ctx, stop, last)
        result = result_of(finish(stopped, self.ctx, None, last), self.ctx, (), timeline=False)
        return result, stopped

    def ballot_key(
        self, events: Sequence[dict[str, Any]], as_of: datetime, *, settled: bool
    ) -> Hashable:
        """The canonical abstract state of the contest at the vote, after ``events`` (all known
        by ``as_of``, the day before the vote): see
        :func:`~simulator.analysis.explore.states.ballot_state`."""
        state, evs = self.fold(events)
        last = evs[-1].index if evs else -1
        return ballot_state(finish(state, self.ctx, as_of, last), self.ctx, settled=settled)


#: State fields the vote and what follows it never read: the clock, bookkeeping of the log and


#: The moment the board learned of a named event (see :meth:`Folds.fold`)
_KNOWN_AT = itemgetter(2)


#: The folds of this process's configuration.
_FOLDS: dict[Config, Folds] = {}


def forget_folds() -> None:
    """Forget the states this process folded (:func:`run` keeps those of the last configuration
    it ran; :func:`~simulator.analysis.explore.exploration.explore` lets its own go when it
    ends): the next fold starts from the filings, what a measurement of one exploration
    against another needs."""
    _FOLDS.clear()
    forget_forms()
