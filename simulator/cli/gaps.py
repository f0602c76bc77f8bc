"""The ``electsim gaps`` command: every gap of the statutes the rules can reach, printed as text
or JSON (the contingency rules' gaps, the rule tables' gaps and conflicts, and with
``--explore`` those the courses of events of ``electsim explore`` reach).

What it lists is found in :mod:`simulator.law.tables.departures` and
:mod:`simulator.analysis.gaps`.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from simulator.analysis.gaps import explored_findings, table_findings
from simulator.cli.accept import AcceptError, new_findings, read_accepted, report_new
from simulator.input.output import terminal_width
from simulator.law.tables.departure_facts import all_facts
from simulator.law.tables.departure_gaps import FACT_FIELDS, gaps, show_value, summarize

if TYPE_CHECKING:
    from simulator.analysis.gaps import ExploredFinding, TableFinding
    from simulator.law.tables.departure_gaps import GapSummary


def print_table_findings(found: Sequence[TableFinding], start: int) -> None:
    """The text listing of the rule tables' gaps and conflicts, numbered from ``start``."""
    wrap = textwrap.TextWrapper(width=96, initial_indent="    ", subsequent_indent="      ")
    print(f"\n{len(found)} gap(s) and conflict(s) in the rule tables:")
    for i, tf in enumerate(found, start):
        print(f"\n{i}. {tf.id} ({tf.verdict.value}, table {tf.table})")
        print(wrap.fill(f"provisions: {tf.cite}"))
        print(f"    ({tf.combinations} of {tf.of} combinations of the table's facts)")
        print(wrap.fill(f"open: {tf.open}"))
        print(wrap.fill(f"fallback: {tf.fallback}"))
        for switch, value, fallback in tf.readings:
            print(wrap.fill(f"other reading ({switch}: {value}): {fallback}"))


def print_explored(found: Sequence[ExploredFinding], listed: set[str]) -> None:
    """The text listing of the gaps and conflicts the courses of events reach, for ``electsim
    gaps --explore``; ``listed`` are the gap ids listed above it (the others are met only in
    courses of events)."""
    wrap = textwrap.TextWrapper(width=96, initial_indent="    ", subsequent_indent="      ")
    print(
        f"\n{len(found)} gap(s) and conflict(s) reached by a course of events (electsim explore):"
    )
    for i, f in enumerate(found, 1):
        where = "listed above" if f.gap in listed else "met only in courses of events"
        print(f"\n{i}. {f.id} ({where}; first in {f.configuration})")
        print(wrap.fill("witness: " + "; ".join(f.witness)))
        print(wrap.fill(f"outcome: {f.outcome}"))


def cmd_gaps(args: argparse.Namespace) -> int:
    """Every gap of the statutes the contingency rules can hit, with the facts that reach it;
    with ``--accept FILE``, exit :data:`~simulator.cli.accept.EXIT_NEW` on a finding the file
    does not hold."""

    accept = getattr(args, "accept", None)
    accepted: frozenset[str] = frozenset()
    if accept is not None:
        try:
            accepted = read_accepted(accept)
        except AcceptError as error:
            print(f"electsim gaps --accept: {error}", file=sys.stderr)
            return 2
    total = sum(1 for _ in all_facts())
    found = gaps()
    groups = summarize(found)
    tables = table_findings()
    explored = explored_findings(seats=args.seats) if args.explore else []
    ids = finding_ids(groups, tables, explored)
    code = 0 if accept is None else report_new("gaps", ids, accept, accepted)
    if getattr(args, "ids", False):
        print("\n".join(ids))
        return code
    if args.json:
        doc: dict[str, Any] = {
            "combinations": total,
            "in_gaps": len(found),
            "gaps": [g.to_json() for g in groups],
            "table_gaps": [t.to_json() for t in tables],
        }
        if args.explore:
            doc["explored"] = [f.to_json() for f in explored]
        if accept is not None:
            doc["not_accepted"] = new_findings(ids, accepted)
        print(json.dumps(doc, indent=2))
        return code
    width = min(terminal_width() or 96, 96)
    wrap = textwrap.TextWrapper(width=width, initial_indent="    ", subsequent_indent="      ")
    print(
        f"{len(groups)} gap(s) in the statutes, reached by {len(found)} of {total} "
        "combinations of facts the contingency rules read."
    )
    print(
        'In a replay each gives a "no provision" ruling (no_provision in the JSON) citing the\n'
        "nearest sections, then the fallback shown."
    )
    for i, g in enumerate(groups, 1):
        print(f"\n{i}. {g.gap.id}: {g.gap.cite} ({g.combinations} combinations)")
        print(wrap.fill(f"why: {g.gap.open}"))
        for fb in g.fallbacks:
            print(wrap.fill(f"fallback: {fb}"))
        print(wrap.fill(f"facts: {g.words()}"))
        if args.verbose:
            print(f"    every combination ({' '.join(FACT_FIELDS)}):")
            for gap in (x for x in found if x.gap.id == g.gap.id):
                row = " ".join(show_value(getattr(gap.facts, k)) for k in FACT_FIELDS)
                print(f"      {row}")
    print_table_findings(tables, len(groups) + 1)
    if args.explore:
        listed = {g.gap.id for g in groups} | {t.id for t in tables}
        print_explored(explored, listed)
    return code


def finding_ids(
    groups: Sequence[GapSummary],
    tables: Sequence[TableFinding],
    explored: Sequence[ExploredFinding],
) -> list[str]:
    """The stable ids of every finding listed (``gap:ID`` or ``conflict:ID``), sorted, each
    once: the ids ``--accept`` reads and ``--ids`` prints."""
    ids = {f"gap:{g.gap.id}" for g in groups}
    ids |= {f"{t.verdict.value}:{t.id}" for t in tables}
    ids |= {f.id for f in explored}
    return sorted(ids)
