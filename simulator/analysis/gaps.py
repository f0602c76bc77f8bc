"""The gaps and conflicts of the rule tables, and those the explorer's courses of events reach.

The contingency gaps are in :mod:`simulator.law.tables.departures`; the rule tables of filing, of
the result and of the count (:mod:`simulator.law.tables`) name their own gaps and conflicts, and
:func:`table_findings` explores them. :func:`explored_findings` lists every gap and conflict a
course of events of ``electsim explore`` reaches, with its shortest witness. ``electsim gaps``
(:mod:`simulator.cli.gaps`) prints them.
"""

from __future__ import annotations

from collections import Counter

import attrs

from simulator.analysis.explore.config import Config
from simulator.analysis.explore.exploration import explore_grid
from simulator.analysis.explore.findings import grid_findings
from simulator.law.rules import Verdict
from simulator.law.tables import TABLES
from simulator.law.vocab import Method


@attrs.frozen
class TableFinding:
    """One gap or conflict of a count table and how many combinations of its facts reach it."""

    table: str
    question: str
    id: str
    verdict: Verdict  # gap | conflict
    cite: str
    open: str
    fallback: str
    combinations: int
    of: int  # combinations the table was explored over
    #: the other readings a scenario may choose: (switch, setting, fallback)
    readings: tuple[tuple[str, str, str], ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "table": self.table,
            "id": self.id,
            "kind": self.verdict.value,
            "cite": self.cite,
            "open": self.open,
            "fallback": self.fallback,
            "combinations": self.combinations,
            "of": self.of,
            "readings": [{"switch": s, "value": v, "fallback": f} for s, v, f in self.readings],
        }


def table_findings() -> list[TableFinding]:
    """Every gap and conflict of the rule tables, found by exploring all their facts."""

    out: list[TableFinding] = []
    for table in TABLES:
        seen: Counter[str] = Counter()
        first: dict[str, TableFinding] = {}
        total = 0
        for _, finding in table.explore():
            total += 1
            if not finding.no_provision:
                continue
            key = f"{finding.id}|{finding.fallback}"
            seen[key] += 1
            named = finding.conflict if finding.conflict is not None else finding.gap
            others = tuple(
                (r.switch, r.value, r.fallback) for r in (named.readings if named else ())
            )
            first.setdefault(
                key,
                TableFinding(
                    table.name,
                    table.question,
                    finding.id,
                    finding.verdict,
                    "; ".join(f"G.S. {c}" for c in finding.near),
                    finding.open,
                    finding.fallback,
                    0,
                    0,
                    others,
                ),
            )
        for key, tf in first.items():
            out.append(attrs.evolve(tf, combinations=seen[key], of=total))
    return out


@attrs.frozen
class ExploredFinding:
    """A gap or conflict a course of events reaches, with its shortest witness."""

    id: str  # ``gap:ID`` or ``conflict:ID``, ID as the no_provision ruling names it
    configuration: str
    outcome: str
    witness: tuple[str, ...]  # the course in words

    @property
    def gap(self) -> str:
        return self.id.split(":", 1)[1]

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "configuration": self.configuration,
            "outcome": self.outcome,
            "witness": list(self.witness),
        }


def explored_findings(*, seats: int = 1, workers: int = 1) -> list[ExploredFinding]:
    """The gaps and conflicts ``electsim explore`` reaches on the grid of every method, seats 1
    to ``seats`` and 1 to 2 x seats + 2 candidates, one departure: ``electsim gaps --explore``
    is this view of the exploration."""

    configs = [
        Config(method=m, seats=s, candidates=n)
        for m in Method
        for s in range(1, seats + 1)
        for n in range(1, 2 * s + 3)
    ]
    return [
        ExploredFinding(f, config.label, o.describe(), w.course.steps[1:])
        for f, config, o, w in grid_findings(explore_grid(configs, workers=workers))
    ]
