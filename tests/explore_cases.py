"""The explorations the explore tests share: each configuration is explored once per test
process (:func:`explored`), and the grid whose witnesses are replayed (:func:`grid`)."""

from __future__ import annotations

from functools import cache

from simulator.analysis.explore.config import Config
from simulator.analysis.explore.exploration import explore
from simulator.analysis.explore.outcomes import Exploration
from simulator.law.vocab import Method

# Every witness of this grid is replayed by the tests: one seat up to 2 x seats + 2 candidates,
# two seats up to three (four for the party primary, where G.S. 163-112(d)(1)-(2) first apply).
# The whole small grid (two seats up to six) runs with `electsim explore --grid --seats 2
# --check`, in `make bench`.
GRID = [
    Config(method=m, seats=s, candidates=n)
    for m in Method
    for s, top in ((1, 4), (2, 4 if m is Method.PARTISAN else 3))
    for n in range(1, top + 1)
] + [  # the partisan general election of the parties' nominees
    Config(method=Method.PARTISAN, seats=s, candidates=n, general=True)
    for s, top in ((1, 4), (2, 3))
    for n in range(1, top + 1)
]


@cache
def explored(config: Config) -> Exploration:
    """``explore(config)``, made once per process (an exploration is a frozen value)."""
    return explore(config)


@cache
def grid() -> tuple[Exploration, ...]:
    return tuple(explored(c) for c in GRID)
