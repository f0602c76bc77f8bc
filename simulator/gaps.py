"""Gaps of the statutes met while counting the vote (the contingency gaps are in
:mod:`simulator.contingencies`; the count's rule tables in :mod:`simulator.count_rules` name
their own gaps and conflicts, and :func:`table_findings` explores them).

Each :class:`CountingGap` is what a ``no_provision`` ruling with that ``gap`` id says: the nearest
sections, the facts that reach it, why no provision covers them, and the fallback the engine
uses. ``electsim gaps`` lists the contingency table's gaps, then the count tables' gaps and
conflicts, then these.
"""

from __future__ import annotations

from collections import Counter

import attrs

from simulator.law import Cite, statute
from simulator.rules import Verdict


@attrs.frozen
class CountingGap:
    id: str
    near: tuple[Cite, ...]
    facts: str
    why: str
    fallback: str

    @property
    def cite(self) -> str:
        return "; ".join(str(c) for c in self.near)

    def to_json(self) -> dict[str, str]:
        return {
            "id": self.id,
            "cite": self.cite,
            "facts": self.facts,
            "why": self.why,
            "fallback": self.fallback,
        }


COUNTING_GAPS: tuple[CountingGap, ...] = (
    CountingGap(
        "left-runoff-ballot",
        (statute("163-293(e)"), statute("163-294.4(c)"), statute("163-294.1(b)")),
        "a candidate on a called runoff or second-primary ballot dies, withdraws or is "
        "disqualified before it is held",
        "the statutes speak of candidates who leave before the first election or primary",
        "the name stays on the runoff ballot; if that candidate polls highest the office is "
        "vacant (a second primary: the candidate cannot be nominated)",
    ),
)


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
        }


def table_findings() -> list[TableFinding]:
    """Every gap and conflict of the count's rule tables, found by exploring all their facts."""
    from simulator.count_rules import TABLES

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
                ),
            )
        for key, tf in first.items():
            out.append(attrs.evolve(tf, combinations=seen[key], of=total))
    return out


def print_table_findings(start: int) -> None:
    """The text listing of :func:`table_findings` for ``electsim gaps``."""
    import textwrap

    wrap = textwrap.TextWrapper(width=96, initial_indent="    ", subsequent_indent="      ")
    found = table_findings()
    print(f"\n{len(found)} gap(s) and conflict(s) in the count's rule tables:")
    for i, tf in enumerate(found, start):
        print(f"\n{i}. {tf.id} ({tf.verdict.value}, table {tf.table})")
        print(wrap.fill(f"provisions: {tf.cite}"))
        print(f"    ({tf.combinations} of {tf.of} combinations of the table's facts)")
        print(wrap.fill(f"open: {tf.open}"))
        print(wrap.fill(f"fallback: {tf.fallback}"))
