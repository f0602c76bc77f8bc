"""The replay engine: a pure fold of the event log into one state machine per contest.

``replay`` deals the log out to its contests, folds each (:mod:`simulator.engine.fold`) and
builds the result (:mod:`simulator.engine.build`). Time comes only from the events and from an
explicit ``as_of``: before each event the contest's timers (statutory deadlines for optional acts)
that fell due are fired, and at the end of the log either every remaining timer passes unused (the
whole story, docs/cli.md) or only those due before ``as_of`` do (:func:`finish`). Every phase
change is checked against the transition table in :mod:`simulator.law.machine`.

:class:`PrefixReplay` replays variants of one scenario, folding the events they share once.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import operator
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime, timedelta, timezone, tzinfo

import attrs

from simulator.engine.build import ContestSummary, event_entry, outcome_of, result_of
from simulator.engine.fold import fold, fold_together
from simulator.engine.result import ContestResult, Made, Result
from simulator.engine.state import FAR_FUTURE, Context, State, initial_state, stage_day
from simulator.engine.timers import fire_timers
from simulator.law import calendar as cal
from simulator.law.calendar import OfficeCalendar
from simulator.law.tables import departures
from simulator.model.eventlog import EventLog, VoteColumns
from simulator.model.events import (
    BallotsPrinted,
    CandidateFiled,
    CandidateWithdrew,
    Event,
    VotesCast,
)
from simulator.model.scenario import Contest, Scenario


def finish(state: State, ctx: Context, as_of: datetime | None, seq: int) -> State:
    """End of the log: every optional act's deadline passes (whole story) or those before
    ``as_of`` do. A decision nobody recorded is not made here: it stays pending
    (:mod:`simulator.engine.decisions`)."""
    state = fire_timers(state, ctx, as_of if as_of is not None else FAR_FUTURE, seq)
    # a reprint determination nobody recorded stays pending (state.deferred, shown as a pending
    # decision of the result): where the log stops is not an event, and rules nothing
    if as_of is not None and as_of > state.clock:
        state = attrs.evolve(state, clock=as_of)
    return state


def replay_contest(
    ctx: Context,
    events: Sequence[Event],
    as_of: datetime | None = None,
    *,
    batched: bool = True,
) -> State:
    """Fold one contest's events (in the order the board learned them) into its state."""
    state = fold(initial_state(ctx), ctx, events, batched=batched)
    return finish(state, ctx, as_of, events[-1].index if events else -1)


def one_office_bars(
    scenario: Scenario, events: Iterable[Event] | None = None
) -> dict[str, frozenset[int]]:
    """G.S. 163-291(2): a person with a standing notice for one office may not file for
    another at the same election. Returns, per contest, the filing events it bars (see
    :func:`one_office_findings`)."""
    return one_office_findings(scenario, events)[0]


def one_office_findings(
    scenario: Scenario, events: Iterable[Event] | None = None
) -> tuple[dict[str, frozenset[int]], frozenset[int]]:
    """G.S. 163-291(2), read in time order across the contests: per contest, the filing
    events it bars, and those of them barred because the same person filed for another office
    at the very same moment. ``events`` are the scenario's events, or any part of them that
    holds every notice of candidacy and withdrawal (the rule reads no other), in any order of
    contests.

    The notices and withdrawals are read in the order they happened (the moment the board
    learned of them), never in the order the file lists its contests: a notice stands in the way
    of a later one for another office until it is withdrawn, and a withdrawal frees the person
    only from its own moment on. Two notices for two offices at the same moment, with no
    earlier one standing, are both barred (neither came first, and a person may file for only
    one office); a withdrawal at the same moment as a notice is not "withdrawn first"."""
    if events is None:
        events = scenario.events
    offices = {
        c.id: (c.year, c.municipality.strip().lower(), c.office.strip().lower() or c.id)
        for c in scenario.contests
    }
    contexts = {c.id: make_context(scenario, c) for c in scenario.contests}
    periods = {cid: initial_state(ctx).windows[0] for cid, ctx in contexts.items()}
    standing: dict[tuple[int, str, str], tuple[str, str]] = {}  # (year, muni, person) -> office
    barred: dict[str, set[int]] = {c.id: set() for c in scenario.contests}
    together: set[int] = set()
    # one pass over the log (it may hold many thousands of votes): the notices and
    # withdrawals, and when each contest's ballots were first printed
    printed: dict[str, datetime] = {}
    acts: list[Event] = []
    for ev in events:
        kind = type(ev)
        if kind is CandidateFiled or kind is CandidateWithdrew:
            acts.append(ev)
        elif kind is BallotsPrinted:
            printed.setdefault(ev.contest, _KNOWN_AT(ev))
    acts.sort(key=_KNOWN_AT)  # stable: one contest's events at one moment keep their order
    for _, group in itertools.groupby(acts, key=_KNOWN_AT):
        moment = list(group)
        fresh: dict[tuple[int, str, str], list[tuple[str, CandidateFiled]]] = {}
        for ev in moment:
            if not isinstance(ev, CandidateFiled):
                continue
            year, muni, office = offices[ev.contest]
            key = (year, muni, ev.candidate)
            held = standing.get(key)
            window = periods[ev.contest]
            in_period = contexts[ev.contest].lists_nominees or (
                window.opens <= ev.at <= window.closes
            )
            if held is not None and held[0] != office:
                barred[ev.contest].add(ev.index)
            elif held is None and in_period:
                fresh.setdefault(key, []).append((office, ev))
        for key, notices in fresh.items():
            if len({office for office, _ in notices}) > 1:
                for _, ev in notices:  # notices for two offices at one moment
                    barred[ev.contest].add(ev.index)
                    together.add(ev.index)
            else:
                # only a notice the board could accept stands in the way of another office
                office, ev = notices[0]
                standing[key] = (office, ev.contest)
        for ev in moment:
            if isinstance(ev, CandidateWithdrew):
                year, muni, office = offices[ev.contest]
                key = (year, muni, ev.candidate)
                if standing.get(key, ("", ""))[0] == office and _withdrawal_frees(
                    ev, contexts[ev.contest], periods[ev.contest].closes, printed
                ):
                    del standing[key]
    return {k: frozenset(v) for k, v in barred.items()}, frozenset(together)


def _withdrawal_frees(
    ev: CandidateWithdrew, ctx: Context, closes: datetime, printed: dict[str, datetime]
) -> bool:
    """Whether a withdrawal ends the candidacy, so that the person may file for another office.
    A party primary candidate's withdrawal after the 163-106(e) deadline and before the ballots
    are printed leaves the candidacy standing (the ``departures`` table's
    :func:`~simulator.law.tables.departures.late_party_withdrawal`): it frees nobody for
    another office."""
    if not ctx.partisan_primary:
        return True
    known = _KNOWN_AT(ev)
    at_print = printed.get(ev.contest)
    return not departures.late_party_withdrawal(
        known > cal.party_withdrawal_deadline(closes, ctx.office),
        printed=at_print is not None and at_print <= known,
    )


_KNOWN_AT = operator.attrgetter("known_at")


def make_context(
    scenario: Scenario,
    contest: Contest,
    barred: frozenset[int] = frozenset(),
    together: frozenset[int] = frozenset(),
) -> Context:
    office = OfficeCalendar(scenario.timezone, scenario.office_closed)
    return Context(
        contest,
        office,
        scenario.interpretations,
        stage_day(contest),
        barred,
        scenario.parameters,
        together,
    )


def replay(scenario: Scenario, *, as_of: datetime | None = None, batched: bool = True) -> Result:
    """Replay a scenario's log: one result per contest.

    With ``as_of``, only what the board knew by then counts and later deadlines stay open.
    ``batched=False`` applies every vote as a step of its own (the bulk fold gives the same
    result; this is the reference it is tested against).

    The cyclic garbage collector is paused meanwhile (:func:`collector_paused`).
    """
    with collector_paused():
        return _replay(scenario, as_of, batched)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while folding, and while the loader reads a text: the
    fold's values refer to older values, never back, and a reading's containers hold no
    cycles, so it would find nothing, yet a long story (a ruling and two timeline lines for
    every refused request, say) or a big file would have it walk all that is kept again and
    again. It runs again as before afterwards."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _noted(scenario: Scenario, others: Iterable[Event]) -> dict[str, list[Event]]:
    """The events other than votes_cast, dealt out to their contests in one pass: votes have no
    line on the timeline (event_entry), these do (made when the timeline is read)."""
    noted: dict[str, list[Event]] = {c.id: [] for c in scenario.contests}
    for ev in others:
        lines = noted.get(ev.contest)
        if lines is not None:
            lines.append(ev)
    return noted


def as_instant(moment: datetime, tz: tzinfo) -> datetime:
    """``moment`` as the instant it names, in ``tz``: an aware time in any zone, either pass of a
    repeated hour (its ``fold``), or a naive time read on ``tz``'s clocks (its ``fold`` saying
    which pass). A time in the second pass of a repeated hour gets its fixed offset, since Python
    compares two times of one zone by their wall clocks, fold ignored: so an ``as_of`` compares
    with the events' times exactly as ``--as-of`` does (:func:`simulator.cli.times.parse_time`)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=tz)
    local = moment.astimezone(UTC).astimezone(tz)
    if local.fold:
        return local.astimezone(timezone(local.utcoffset() or timedelta(0)))
    return local


def _replay(scenario: Scenario, as_of: datetime | None, batched: bool) -> Result:
    if as_of is not None:
        as_of = as_instant(as_of, scenario.tz)
    if batched and (
        len(scenario.contests) > 1 or len(scenario.events.parts()) < len(scenario.events)
    ):
        return _replay_together(scenario, as_of)  # (one contest too, where votes are columns)
    per, others = _split(scenario, as_of)
    # the one-office rule reads the notices known by ``as_of`` in time order: one known later
    # is later than every one of them, and changes nothing before it
    bars, together = one_office_findings(scenario, others)
    noted = _noted(scenario, others)
    results = []
    for c in scenario.contests:
        ctx = make_context(scenario, c, bars.get(c.id, frozenset()), together)
        state = replay_contest(ctx, per[c.id], as_of, batched=batched)
        results.append(result_of(state, ctx, noted[c.id]))
    return Result(scenario.title, tuple(results), as_of, scenario.interpretations.changed())


def _replay_together(scenario: Scenario, as_of: datetime | None) -> Result:
    """:func:`_replay` of a log of several contests, batched: the same result, the log folded
    in one pass (:func:`fold_together`) instead of dealt out to its contests first."""
    events: Sequence[Event] = scenario.events
    if as_of is not None:
        events = [ev for ev in events if not ev.known_at > as_of]
    votes, columns = VotesCast, VoteColumns
    parts = events.parts() if type(events) is EventLog else events
    others = [ev for ev in parts if type(ev) is not votes and not isinstance(ev, columns)]
    bars, together = one_office_findings(scenario, others)
    noted = _noted(scenario, others)
    contexts = {
        c.id: make_context(scenario, c, bars.get(c.id, frozenset()), together)
        for c in scenario.contests
    }
    folded = fold_together(events, contexts)
    results = []
    for c in scenario.contests:
        ctx = contexts[c.id]
        state, last = folded[c.id]
        state = finish(state, ctx, as_of, last)
        results.append(result_of(state, ctx, noted[c.id]))
    return Result(scenario.title, tuple(results), as_of, scenario.interpretations.changed())


def _split(
    scenario: Scenario, as_of: datetime | None
) -> tuple[dict[str, list[Event]], list[Event]]:
    """The events known by ``as_of`` (all without it), per contest, and those of them that are
    not ``votes_cast``, in the log's order: one pass over the log."""
    events: Sequence[Event] = scenario.events
    if as_of is not None:
        events = [ev for ev in events if not ev.known_at > as_of]
    votes = VotesCast
    if len(scenario.contests) == 1:
        return {scenario.contests[0].id: list(events)}, [
            ev for ev in events if type(ev) is not votes
        ]
    per: dict[str, list[Event]] = {c.id: [] for c in scenario.contests}
    add = {cid: got.append for cid, got in per.items()}
    others: list[Event] = []
    other = others.append
    for ev in events:
        add[ev.contest](ev)
        if type(ev) is not votes:
            other(ev)
    return per, others


#: what a scenario holds besides its events, compared to find a variant with the same facts
_FACTS = tuple(f.name for f in attrs.fields(Scenario) if f.eq and f.name != "events")


class PrefixReplay:
    """Replays variants of one scenario for one contest, folding the events they share once.

    The base scenario's events for ``contest_id`` (those known by ``as_of``) are folded once,
    keeping the state after each of them (after every ``stride``-th for long logs). A variant is
    then replayed from the state after the longest prefix of its own events that is the same as
    the base's (same events at the same positions of the log), so only its suffix is folded. A
    variant whose contests, time zone, office closures or readings differ is replayed whole, and
    so is any part of a prefix where G.S. 163-291(2)'s one-office rule bars a different set of
    notices (the rule looks at the other contests' filings). The state after a prefix is the
    same whatever follows it (the fold is pure and the states are values), so the result is
    exactly ``replay(variant, as_of=as_of).contest(contest_id)``.
    """

    def __init__(
        self, base: Scenario, contest_id: str, *, as_of: datetime | None = None, stride: int = 0
    ) -> None:
        self.base = base
        self.contest_id = contest_id
        self.as_of = as_instant(as_of, base.tz) if as_of is not None else None
        self.contest = base.contest(contest_id)
        self.events = self._events(base)
        self.bars, self.together = self._bars(base)
        ctx = make_context(base, self.contest, self.bars, self.together)
        self.ctx = ctx
        step_ = stride or max(1, len(self.events) // 256)
        # checkpoints[j] is the state after the first j * step_ events
        states = [initial_state(ctx)]
        for j in range(step_, len(self.events) + 1, step_):
            states.append(fold(states[-1], ctx, self.events[j - step_ : j]))
        self.stride = step_
        self.checkpoints = states
        self.entries = [event_entry(ev) for ev in self.events]

    def _events(self, scenario: Scenario) -> list[Event]:
        as_of, cid = self.as_of, self.contest_id
        if as_of is None:
            return [ev for ev in scenario.events if ev.contest == cid]
        return [ev for ev in scenario.events if ev.contest == cid and not ev.known_at > as_of]

    def _bars(self, scenario: Scenario) -> tuple[frozenset[int], frozenset[int]]:
        if len(scenario.contests) == 1:
            # the rule compares offices: one contest has nothing to compare
            return frozenset(), frozenset()
        bars, together = one_office_findings(scenario)
        return bars.get(self.contest_id, frozenset()), together

    def _same_facts(self, variant: Scenario) -> bool:
        base = self.base
        return all(getattr(base, name) == getattr(variant, name) for name in _FACTS)

    def _state(self, variant: Scenario) -> tuple[State, Context, list[Event]]:
        events = self._events(variant)
        bars, together = self._bars(variant)
        base_events, base_bars = self.events, self.bars
        # the same facts (see _same_facts) and the same bars: the same context
        ctx = (
            self.ctx
            if bars == base_bars and together == self.together
            else make_context(variant, self.contest, bars, together)
        )
        shared = 0
        for a, b in zip(events, base_events, strict=False):
            if a is not b and a != b:
                break
            if type(a) is CandidateFiled and (a.index in bars) != (a.index in base_bars):
                break  # the one-office rule bars a different set of notices from here
            shared += 1
        j = shared // self.stride
        state = fold(self.checkpoints[j], ctx, events[j * self.stride :])
        state = finish(state, ctx, self.as_of, events[-1].index if events else -1)
        return state, ctx, events

    def contest_result(self, variant: Scenario) -> ContestResult:
        """``replay(variant, as_of=as_of).contest(contest_id)``, from the shared prefix."""
        if not self._same_facts(variant):
            return replay(variant, as_of=self.as_of).contest(self.contest_id)
        state, ctx, events = self._state(variant)
        known, base_events = self.entries, self.events
        # the events' lines, made when the timeline is read (those of the base are reused)
        entries = Made(
            lambda: tuple(
                known[i] if i < len(known) and ev is base_events[i] else event_entry(ev)
                for i, ev in enumerate(events)
            )
        )
        return result_of(state, ctx, events, entries=entries)

    def summary(self, variant: Scenario) -> ContestResult | ContestSummary:
        """The variant's outcome and rulings for ``contest_id`` (no timeline to build)."""
        if not self._same_facts(variant):
            return replay(variant, as_of=self.as_of).contest(self.contest_id)
        state, ctx, _ = self._state(variant)
        return ContestSummary(outcome_of(state, ctx), state.rulings)
