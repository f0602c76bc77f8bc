"""The fold: ``step(state, event) -> state`` and its batched form over a contest's events.

``step`` fires the contest's timers due before the event, then applies the event's handler, found
by the event's type in :data:`simulator.engine.handlers.HANDLERS`, on a private mutable draft of
the frozen state, and returns a new frozen state; the old state is never changed, so any
intermediate state can be kept, compared or forked. :func:`fold` folds one contest's events,
batching runs of votes (:mod:`simulator.engine.batching`); :func:`fold_together` folds a log of
several contests in one pass, summing stretches of vote columns at once.
"""

from __future__ import annotations

import bisect
import contextlib
import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from simulator.engine.batching import VoteRun, start_run
from simulator.engine.handlers import HANDLERS
from simulator.engine.handlers.filing import on_candidate_filed
from simulator.engine.state import Context, Draft, State, initial_state, new_draft
from simulator.engine.timers import fire_timers
from simulator.model.eventlog import EventLog, VoteColumns
from simulator.model.events import CandidateFiled, Event, ReturnsReported, VotesCast


def step(state: State, event: Event, ctx: Context) -> State:
    """One event: fire the timers due before it, then apply its handler (:data:`HANDLERS`)."""
    at = event.known_at
    timers = state.timers
    if timers and timers[0].due < at:
        state = fire_timers(state, ctx, at, event.index)
    d = new_draft(state, ctx, at, event.index, event.type)
    HANDLERS[type(event)](d, event)
    return d.freeze()


def fold(state: State, ctx: Context, events: Iterable[Event], *, batched: bool = True) -> State:
    """Fold events into a contest's state, one :func:`step` each. With ``batched``, runs of
    ``votes_cast`` and ``returns_reported`` that only add to the tally are summed in a plain
    dict and merged in one step (see :class:`VoteRun`): the same fold, done in bulk. Each event
    goes to a :class:`_Folder`; while a run is open, :meth:`VoteRun.drain` takes the votes that
    join it, and the first event that does not goes to the folder."""
    if not batched:
        for ev in events:
            state = step(state, ev, ctx)
        return state
    folder = _Folder(state, ctx)
    push = folder.push
    it = iter(events)
    for ev in it:
        push(ev)
        while folder.run is not None:
            nxt = folder.run.drain(it)
            if nxt is None:
                break
            push(nxt)
    return folder.close()


class _Folder:
    """The batched fold of one contest, one event at a time (:func:`fold` drives it, and so does
    the single pass over a log of several contests, :func:`fold_together`). Each event joins
    the open run of votes, passes it, or ends it and is folded (a vote the run does
    not take, handed back by :meth:`VoteRun.drain`, is tried once more: :meth:`VoteRun.take` changes
    nothing when it refuses)."""

    __slots__ = ("ctx", "filing", "filing_horizon", "run", "state")

    def __init__(self, state: State, ctx: Context) -> None:
        self.state = state
        self.ctx = ctx
        self.run: VoteRun | None = None
        self.filing: Draft | None = None  # a run of notices of candidacy folded in one draft
        self.filing_horizon: datetime | None = None

    def push(self, ev: Event) -> None:
        kind = type(ev)
        state, ctx = self.state, self.ctx
        run = self.run
        if run is not None:
            if kind is VotesCast or kind is ReturnsReported:
                if run.take(ev):
                    return
            elif kind is not CandidateFiled and run.passes(ev, state, ctx):
                return
            state = self.state = run.merge(state)
            self.run = None
        filing = self.filing
        if kind is CandidateFiled:
            assert isinstance(ev, CandidateFiled)
            horizon = self.filing_horizon
            if filing is not None and horizon is not None and ev.known_at > horizon:
                state = self.state = filing.freeze()
                filing = None
            if filing is None:
                state = self.state = fire_timers(state, ctx, ev.known_at, ev.index)
                self.filing_horizon = state.timers[0].due if state.timers else None
                filing = new_draft(state, ctx, ev.known_at, ev.index, ev.type)
                filing.open_cands()
            else:  # what new_draft does for each event
                filing.at, filing.seq = ev.known_at, ev.index
                if ev.known_at > filing.clock:
                    filing.set(clock=ev.known_at)
            on_candidate_filed(filing, ev)
            self.filing = filing
            return
        if filing is not None:
            state = filing.freeze()
            self.filing = None
        if kind is VotesCast or kind is ReturnsReported:
            timers = state.timers
            if timers and timers[0].due < ev.at:
                state = fire_timers(state, ctx, ev.at, ev.index)
            run = start_run(state, ctx, ev)
            if run is not None:
                self.run = run
                self.state = state
                return
        self.state = step(state, ev, ctx)

    def close(self) -> State:
        """The state after every event pushed."""
        if self.run is not None:
            self.state = self.run.merge(self.state)
            self.run = None
        if self.filing is not None:
            self.state = self.filing.freeze()
            self.filing = None
        return self.state


def fold_together(
    events: Sequence[Event], contexts: Mapping[str, Context]
) -> dict[str, tuple[State, int]]:
    """Fold a log of several contests in one pass (the same as :func:`fold` of each contest's
    events): each contest's state, and the index of its last event (-1: none).

    A vote that joins its contest's open run (before the run's stop, for a name the run has
    taken) is summed here, as :meth:`VoteRun.drain` sums it; every other event goes to its
    contest's :class:`_Folder`. So the log is not first dealt out to its contests."""
    folders = {cid: _Folder(initial_state(ctx), ctx) for cid, ctx in contexts.items()}
    votes = VotesCast
    parts = events.parts() if type(events) is EventLog else events
    for ev in parts:
        if isinstance(ev, VoteColumns):
            _fold_columns(ev, folders)
            continue
        f = folders[ev.contest]
        if type(ev) is votes:
            run = f.run
            if run is not None:
                at = ev.at
                stop = run.stop
                if stop is not None and at < stop:
                    batch = run.batch
                    name = ev.candidate
                    n = batch.get(name)
                    if n is not None:  # a name already in the run: one the round counts
                        batch[name] = n + ev.count
                        if run.latest < at:
                            run.latest = at
                        continue
        f.push(ev)
    last: dict[str, int] = {}
    for ev in reversed(parts):
        if isinstance(ev, VoteColumns):
            contests = ev.contest
            backwards = contests[::-1] if len(contests) > 1 else contests
            for c in set(contests) - last.keys():
                last[c] = ev.start + len(contests) - 1 - backwards.index(c)
        elif ev.contest not in last:
            last[ev.contest] = ev.index
        if len(last) == len(folders):
            break
    return {cid: (f.close(), last.get(cid, -1)) for cid, f in folders.items()}


#: Votes of a run held as columns that are summed at once, at the least (a shorter stretch is
#: folded vote by vote), and at the most (the stretch looked at in one go)
_AT_ONCE = 64


_WINDOW = 1 << 16


def _fold_columns(run: VoteColumns, folders: Mapping[str, _Folder]) -> None:
    """:func:`fold_together` of a run of votes held as columns: a vote that joins its contest's
    open run is summed from the columns; any other is made an event and pushed.

    Where the times are in order and each vote is one vote, a stretch whose every vote joins
    its contest's open run is summed at once (:func:`_summable`): the same sums and latest
    times as vote by vote, since such votes change nothing else, and the contests' folders
    never read one another. After a stretch that could not be summed, the next one is folded
    vote by vote, for twice as many votes each time (so a run that never joins costs at most
    one more pass over its votes)."""
    n = len(run)
    if run.count is not None or n < _AT_ONCE or not run.in_order():
        _fold_votes(run, folders, 0, n)
        return
    k, step = 0, _AT_ONCE
    while k < n:
        end, pairs = _summable(run, folders, k, min(n, k + _WINDOW))
        if end - k >= _AT_ONCE:
            _sum_votes(run, folders, k, end, pairs)
            k, step = end, _AT_ONCE
        else:
            k = _fold_votes(run, folders, k, min(n, k + step))
            step = min(2 * step, _WINDOW)


def _fold_votes(run: VoteColumns, folders: Mapping[str, _Folder], start: int, end: int) -> int:
    """Votes ``start`` to ``end`` of a run held as columns, one by one; gives ``end``."""
    for k, at, c, name, n in zip(
        itertools.count(start),
        itertools.islice(run.at, start, end),
        itertools.islice(run.contest, start, end),
        itertools.islice(run.candidate, start, end),
        itertools.islice(run.counts(), start, end),
    ):
        f = folders[c]
        open_run = f.run
        if open_run is not None:
            stop = open_run.stop
            if stop is not None and at < stop:
                batch = open_run.batch
                m = batch.get(name)
                if m is not None:  # a name already in the run: one the round counts
                    batch[name] = m + n
                    if open_run.latest < at:
                        open_run.latest = at
                    continue
        f.push(run.event(k))
    return end


def _summable(
    run: VoteColumns, folders: Mapping[str, _Folder], start: int, limit: int
) -> tuple[int, Counter[tuple[str, str]]]:
    """The end of the longest stretch of votes from ``start`` (up to ``limit``) in which every
    vote joins its contest's open run, vote by vote (its time before the run's stop, its name
    one the run took already), and the votes of each contest and name in it. The times are
    in order, so each contest's votes before its stop are those before one index."""
    at, contest = run.at, run.contest
    end = limit
    for c in set(itertools.islice(contest, start, end)):
        open_run = folders[c].run
        stop = None if open_run is None else open_run.stop
        if stop is None:  # (its first vote is a step of its own)
            with contextlib.suppress(ValueError):  # (not before the end found so far)
                end = contest.index(c, start, end)
        else:
            end = bisect.bisect_left(at, stop, start, end)
    pairs = _pairs(run, start, end)
    wrong = {(c, name) for c, name in pairs if name not in folders[c].run.batch}  # type: ignore[union-attr]
    if wrong:  # (a name's first vote in its run: the stretch ends before it)
        end = next(
            k
            for k, pair in enumerate(
                zip(contest[start:end], run.candidate[start:end], strict=True), start
            )
            if pair in wrong
        )
        pairs = _pairs(run, start, end)
    return end, pairs


def _pairs(run: VoteColumns, start: int, end: int) -> Counter[tuple[str, str]]:
    """The votes ``start`` to ``end`` of a run held as columns, by contest and name."""
    owners = run.owners
    if owners is None:
        return Counter(zip(run.contest[start:end], run.candidate[start:end], strict=True))
    names = Counter(run.candidate[start:end])
    return Counter({(owners[name], name): m for name, m in names.items()})


def _sum_votes(
    run: VoteColumns,
    folders: Mapping[str, _Folder],
    start: int,
    end: int,
    pairs: Counter[tuple[str, str]],
) -> None:
    """Add the votes ``start`` to ``end`` (:func:`_summable`'s stretch) to their runs."""
    for (c, name), m in pairs.items():
        batch = folders[c].run.batch  # type: ignore[union-attr]
        batch[name] += m
    backwards = run.contest[start:end][::-1]
    for c in {c for c, _ in pairs}:
        open_run = folders[c].run
        assert open_run is not None
        latest = run.at[end - 1 - backwards.index(c)]  # (the times are in order)
        if open_run.latest < latest:
            open_run.latest = latest
