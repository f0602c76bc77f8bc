"""The canonical states of a contest that the exploration compares: at the vote
(:func:`ballot_state`) and just after a runoff is called (:func:`call_state`). Two courses that
reach the same canonical state have the same futures, which are enumerated once.
"""

from __future__ import annotations

from collections.abc import Hashable
from datetime import datetime
from functools import cache
from typing import Any

import attrs

from simulator.analysis.explore.outcomes import finding_id
from simulator.engine.state import Context, State
from simulator.law.tables.count import voters_over_5000
from simulator.law.vocab import RulingKind, RunoffStatus

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
    voters = voters_over_5000(total, ctx.contest.seats)
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


def forget_forms() -> None:
    """Let go of the forms :func:`_canon_shared` kept (a measurement of one exploration against
    another starts afresh: :func:`simulator.analysis.explore.folds.forget_folds`)."""
    _CANONS.clear()


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
