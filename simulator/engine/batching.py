"""Runs of votes folded in bulk: a run of ``votes_cast`` and ``returns_reported`` that only adds to
the current round's tally is summed in a plain dict and merged into the state in one step.

A run ends before any other event that reads the tally, before the contest's next timer, before
the vote that starts the count on the round's day, and before any vote that needs a ruling, so it
is the same fold, done in bulk (``replay(..., batched=False)`` is the reference it is tested
against).
"""

from __future__ import annotations

from collections.abc import Container, Iterator
from datetime import datetime, timedelta

from simulator.engine.handlers import HANDLERS
from simulator.engine.rounds import TALLYING, counted_kinds, round_start
from simulator.engine.state import Context, Draft, State, WouldChange, blind_draft
from simulator.law.machine import Phase
from simulator.model.events import Event, ReturnsReported, VotesCast, is_write_in

_COUNTING = (Phase.COUNTING, Phase.RUNOFF_COUNTING)


_RUN_FIELDS = frozenset({"tallies", "clock", "first_vote_at"})  # what a run of votes changes


class VoteRun:
    """An open run of votes that only add to the current round's tally.

    A run is opened at a vote only when that vote, applied as a step, would do nothing but add
    to the tally: no timer falls due before it, the contest is taking votes in the round it is
    on, no name needs a ruling, nothing waits for a reprint decision, and it does not cross the
    start of the round's day (the step that moves the contest to counting is applied on its
    own). Each later vote joins the run under the same conditions, so merging the run is the
    same fold as one step per vote (:func:`on_votes` for each): the tally gets every vote, the
    clock the latest time, the first vote its time; nothing else changes.

    Another event need not end the run when its step changes nothing but the rulings and reads
    none of what the run changes (the tally, the clock, the first vote's time): such a step
    does the same before the votes as after them, and the votes of the run read no ruling, so
    the run goes on past it and keeps its rulings for the merge (see :meth:`passes`).
    """

    __slots__ = (
        "allowed",
        "batch",
        "first",
        "horizon",
        "latest",
        "probe",
        "rnd",
        "start",
        "stop",
        "write_ins",
    )

    def __init__(self, state: State, ctx: Context, rnd: int, ev: Event) -> None:
        # compared with the votes' own times: both are in the contest's zone
        self.horizon: datetime | None = state.timers[0].due if state.timers else None
        self.start: datetime | None = None if state.phase in _COUNTING else round_start(ctx, rnd)
        # the ``votes`` table, once for the run: whether the round's candidates (anyone who
        # filed, in round 0; the runoff ballot's names in a runoff) and write-ins are counted;
        # a vote for any other name is a step of its own (on_votes); names are looked up only
        candidates, write_ins = counted_kinds(ctx, rnd)
        names: Container[str] = frozenset(state.runoff_ballot) if rnd else state.index()
        self.allowed: Container[str] = names if candidates else frozenset()
        self.write_ins = write_ins
        self.rnd = rnd
        self.batch: dict[str, int] = {}
        self.first = ev.at
        self.latest = ev.at
        self.probe: Draft | None = None
        self.stop = _stop(self.horizon, self.start, ev.at)

    def passes(self, ev: Event, state: State, ctx: Context) -> bool:
        """Whether ``ev``'s step, after the run, changes nothing but the rulings and reads
        nothing the run changes: then it does the same whatever the votes, and besides its
        rulings only its time counts (the clock is the latest time the board heard of
        anything). ``state`` is the state the run started from; the step is tried on a draft
        that cannot see the run's fields and keeps the rulings of the steps that passed."""
        at = ev.known_at
        if self.horizon is not None and self.horizon < at:
            return False  # a timer falls due first
        handler = HANDLERS.get(type(ev))
        if handler is None:
            return False
        d = self.probe
        if d is None:
            probe = dict(state.__dict__)
            for name in _RUN_FIELDS:
                del probe[name]
            d = self.probe = blind_draft(probe, state, ctx, at, ev.index, ev.type)
        else:  # one blind draft serves the run: it never changes, only what it is told of
            d.at, d.seq, d.trigger = at, ev.index, ev.type
        log = d.ruling_log
        stored = log.stored
        try:
            handler(d, ev)
        except (AttributeError, WouldChange):
            # it reads the tally, the clock or the first vote's time, or it would change more
            # than the rulings: the rulings it made so far are forgotten
            d.__dict__["ruling_log"] = log
            log.drop_after(stored)
            return False
        if self.latest < at:
            self.latest = at
        return True

    def take(self, ev: Event) -> bool:
        """Add a vote (``votes_cast`` or ``returns_reported``) to the run if it may join it:
        no timer falls due first, it does not start the count, and every name is one the
        round counts (anything else is a step of its own)."""
        at = ev.at
        horizon = self.horizon
        if horizon is not None and horizon < at:
            return False  # a timer falls due first
        start = self.start
        if start is not None and not at < start:
            return False  # this vote starts the count: a step of its own
        allowed, batch = self.allowed, self.batch
        if type(ev) is VotesCast:
            name = ev.candidate
            if name not in allowed and not (self.write_ins and is_write_in(name)):
                return False
            batch[name] = batch.get(name, 0) + ev.count
        else:
            assert isinstance(ev, ReturnsReported)
            counts = ev.counts
            for name, _ in counts:
                if name not in allowed and not (self.write_ins and is_write_in(name)):
                    return False
            for name, n in dict(counts).items():  # as a step reads them
                batch[name] = batch.get(name, 0) + n
        if self.latest < at:
            self.latest = at
        return True

    def drain(self, events: Iterator[Event]) -> Event | None:
        """Take votes from ``events`` while they join the run (:meth:`take`); return the first
        event that does not, or None at the end of the log.

        The common vote (``votes_cast`` before :attr:`stop` for a name the run already took,
        so one the round counts) is summed here with no more work than a bare counting loop
        does; any other event, and a name's first vote in the run, goes through :meth:`take`,
        which decides as before."""
        stop = self.stop
        if stop is None:
            for ev in events:
                kind = type(ev)
                if not ((kind is VotesCast or kind is ReturnsReported) and self.take(ev)):
                    return ev
            return None
        batch, latest = self.batch, self.latest
        count = batch.get
        votes = VotesCast
        for ev in events:
            if type(ev) is votes:
                at = ev.at
                if at < stop:
                    name = ev.candidate
                    n = count(name)
                    if n is not None:  # a name already in the run: one the round counts
                        batch[name] = n + ev.count
                        if latest < at:
                            latest = at
                        continue
            elif type(ev) is not ReturnsReported:
                self.latest = latest
                return ev
            self.latest = latest
            if not self.take(ev):
                return ev
            latest = self.latest
        self.latest = latest
        return None

    def merge(self, state: State) -> State:
        """The state after the run: what :func:`on_votes` does with these votes, in bulk,
        with the rulings of the steps that passed (:meth:`passes`)."""
        rnd = self.rnd
        tallies = list(state.tallies)
        tally = dict(tallies[rnd])
        for name, n in self.batch.items():
            tally[name] = tally.get(name, 0) + n
        tallies[rnd] = tuple(tally.items())
        clock = state.clock if state.clock >= self.latest else self.latest
        probe = self.probe
        log = state.ruling_log if probe is None else probe.ruling_log  # rulings of passed steps
        first = self.first if state.first_vote_at is None else state.first_vote_at
        return state.evolved(
            tallies=tuple(tallies), clock=clock, first_vote_at=first, ruling_log=log
        )


_MICROSECOND = timedelta(microseconds=1)


_NEVER = datetime(9000, 1, 1)


def _stop(horizon: datetime | None, start: datetime | None, first: datetime) -> datetime | None:
    """The earliest time a vote may not join a run (votes strictly before it may, as far as
    time goes): the run's timer (a vote at the timer's moment is still before it) and the start
    of the round's day (a vote then starts the count). In the votes' own zone the comparison
    reads no offsets; None when that cannot be said exactly with one comparison (the run then
    takes each vote through :meth:`VoteRun.take`)."""
    stop = start
    if horizon is not None:
        after = horizon + _MICROSECOND  # at <= horizon is at < after, to the microsecond ...
        if after.utcoffset() != horizon.utcoffset():
            return None  # ... unless the zone's offset changes in that microsecond
        if stop is None or after < stop:
            stop = after
    if stop is None:
        stop = _NEVER.replace(tzinfo=first.tzinfo)
    return stop


def start_run(state: State, ctx: Context, ev: Event) -> VoteRun | None:
    rnd = TALLYING.get(state.phase)
    if rnd is None or rnd != state.round or state.deferred:
        return None
    run = VoteRun(state, ctx, rnd, ev)
    return run if run.take(ev) else None
