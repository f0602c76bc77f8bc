"""What can happen from here where users meet it: the futures of each contest still undecided,
in words, for the text replay, the report and the what-if panel (``electsim next`` and
:func:`simulator.analysis.futures.futures` give them whole)."""

from __future__ import annotations

from datetime import datetime

from simulator.analysis.futures import futures
from simulator.engine.result import Result
from simulator.model.scenario import Scenario
from simulator.views.branches import BranchWords, branches_in_words

#: logs longer than this get no "What can happen from here" section (each branch replays the
#: log: on the bundled scenarios the futures take 8 ms median, 0.7 s at most; ``electsim next``
#: computes them for any log)
FUTURES_MAX_EVENTS = 2000


def undecided_futures(
    scenario: Scenario, result: Result, as_of: datetime | None
) -> tuple[dict[str, tuple[BranchWords, ...]], str | None]:
    """What can happen from here for each contest still undecided (one more death at most),
    in words by contest id; and a note when the log is too long to compute them. A decided
    contest gets none (its futures, the winner's death before the oath, are ``electsim
    next``'s)."""
    if all(c.outcome.pending is None for c in result.contests):
        return {}, None
    if not any(as_of is None or e.known_at <= as_of for e in scenario.events):
        return {}, None  # (nothing had happened yet: nothing to start from)
    if len(scenario.events) > FUTURES_MAX_EVENTS:
        return {}, (
            f"what can happen from here is not computed for a log of more than "
            f"{FUTURES_MAX_EVENTS:,} events: electsim next FILE computes it"
        )
    words = branches_in_words(futures(scenario, as_of=as_of, departures=1).to_json())
    undecided = {c.id for c in result.contests if c.outcome.pending is not None}
    return {k: v for k, v in words.items() if k in undecided}, None
