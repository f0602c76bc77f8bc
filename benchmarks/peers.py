"""The same work done with other state-machine and event-sourcing libraries, for ``make bench``.

Each peer folds a list of votes (contest, candidate, count) into one tally per contest through its
library's own machinery: a ``transitions`` machine whose ``vote`` trigger runs a callback, a
``python-statemachine`` machine with a ``vote`` event, an ``eventsourcing`` aggregate whose
``vote`` command records a ``Voted`` event. The bare loop is the floor: a ``Counter`` per contest.
Each function returns the tallies, so the benchmark checks that every peer counted the same.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

Vote = tuple[str, str, int]
Tallies = dict[str, dict[str, int]]


def bare_loop(votes: Sequence[Vote]) -> Tallies:
    tallies: dict[str, Counter[str]] = {}
    for contest, name, count in votes:
        tally = tallies.get(contest)
        if tally is None:
            tally = tallies[contest] = Counter()
        tally[name] += count
    return {c: dict(t) for c, t in tallies.items()}


def with_transitions(votes: Sequence[Vote]) -> Tallies:
    from transitions import Machine

    class Contest:
        def __init__(self) -> None:
            self.tally: dict[str, int] = {}

        def add(self, name: str, count: int) -> None:
            self.tally[name] = self.tally.get(name, 0) + count

    machines: dict[str, Any] = {}
    for contest, name, count in votes:
        model = machines.get(contest)
        if model is None:
            model = machines[contest] = Contest()
            Machine(
                model,
                states=["ballot", "counting"],
                transitions=[
                    {"trigger": "vote", "source": "ballot", "dest": "counting", "after": "add"},
                    {"trigger": "vote", "source": "counting", "dest": None, "after": "add"},
                ],
                initial="ballot",
            )
        model.vote(name, count)
    return {c: m.tally for c, m in machines.items()}


def with_python_statemachine(votes: Sequence[Vote]) -> Tallies:
    from statemachine import State, StateMachine

    class Contest(StateMachine):  # type: ignore[misc]
        ballot = State(initial=True)
        counting = State()
        vote = ballot.to(counting) | counting.to.itself(internal=True)

        def __init__(self) -> None:
            self.tally: dict[str, int] = {}
            super().__init__()

        def on_vote(self, name: str, count: int) -> None:
            self.tally[name] = self.tally.get(name, 0) + count

    machines: dict[str, Any] = {}
    for contest, name, count in votes:
        m = machines.get(contest)
        if m is None:
            m = machines[contest] = Contest()
        m.vote(name=name, count=count)
    return {c: m.tally for c, m in machines.items()}


def with_eventsourcing(votes: Sequence[Vote]) -> Tallies:
    from eventsourcing.domain import Aggregate, event

    class Contest(Aggregate):  # type: ignore[misc]
        def __init__(self) -> None:
            self.tally: dict[str, int] = {}

        @event("Voted")  # type: ignore[misc]
        def vote(self, name: str, count: int) -> None:
            self.tally[name] = self.tally.get(name, 0) + count

    aggregates: dict[str, Any] = {}
    for contest, name, count in votes:
        a = aggregates.get(contest)
        if a is None:
            a = aggregates[contest] = Contest()
        a.vote(name, count)
    return {c: a.tally for c, a in aggregates.items()}


PEERS: dict[str, Callable[[Sequence[Vote]], Tallies]] = {
    "transitions": with_transitions,
    "python-statemachine": with_python_statemachine,
    "eventsourcing": with_eventsourcing,
}
