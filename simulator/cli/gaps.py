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
    from simulator.analysis.catalogue import Entry
    from simulator.analysis.gaps import ExploredFinding, TableFinding
    from simulator.law.tables.departure_gaps import GapSummary


def print_catalogue(
    items: Sequence[Entry], width: int, verbose: Sequence[tuple[str, str]] | None
) -> None:
    """The text listing: one entry per id (``gap:ID`` or ``conflict:ID``), as docs/gaps.md has
    them, each with its provisions, what the text leaves open, the fallback, the other readings
    with the ``interpretations:`` key and value that chooses each, and its witness scenario.
    ``verbose``: the departures table's every combination of facts, under its gap."""
    # (a path or an id is never broken at its hyphens)
    wrap = textwrap.TextWrapper(
        width=width,
        initial_indent="    ",
        subsequent_indent="      ",
        break_on_hyphens=False,
        break_long_words=False,
    )
    intro = (
        f"{len(items)} gaps and conflicts of the statutes (docs/gaps.md). In a replay each gives "
        'a "no provision" ruling (no_provision in the JSON) naming its id and the nearest '
        "sections, then the fallback shown; another reading is chosen under interpretations: "
        "(docs/readings.md) or with --reading NAME=VALUE."
    )
    print(textwrap.fill(intro, width=width, break_on_hyphens=False))
    for e in items:
        print(f"\n{e.id}")
        print(wrap.fill(f"provisions: {'; '.join(e.provisions) or 'none named'}"))
        for why in dict.fromkeys(v.open for v in e.variants):
            print(wrap.fill(f"why: {why}"))
        for fallback in dict.fromkeys(v.fallback for v in e.variants):
            print(wrap.fill(f"fallback: {fallback}"))
        for facts in dict.fromkeys(v.facts for v in e.variants if v.facts):
            print(wrap.fill(f"facts: {facts}"))
        if not e.variants and e.explored is not None:
            print(wrap.fill(f"met in a course of events: {e.explored['outcome']}"))
        for switch, setting, fallback in e.readings:
            print(
                wrap.fill(f"other reading, `interpretations: {{{switch}: {setting}}}`: {fallback}")
            )
        # (a path is never broken: one too long for the line goes on its own)
        witness = e.witness or "none among the bundled scenarios"
        long = len(witness) + len("    witness: ") > width
        print(f"    witness:{chr(10) + '      ' if long else ' '}{witness}")
        if verbose is not None and e.kind == "gap":
            rows = [row for name, row in verbose if name == e.name]
            if rows:
                print(f"    every combination of the departures table's facts ({rows[0]}):")
                for row in rows[1:]:
                    print(f"      {row}")


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
    from simulator.analysis.catalogue import EXPLORED, entries

    width = min(terminal_width() or 96, 96)
    verbose: list[tuple[str, str]] | None = None
    if args.verbose:
        heading = " ".join(FACT_FIELDS)
        verbose = []
        for g in groups:
            verbose.append((g.gap.id, heading))
            verbose += [
                (g.gap.id, " ".join(show_value(getattr(x.facts, k)) for k in FACT_FIELDS))
                for x in found
                if x.gap.id == g.gap.id
            ]
    recorded: dict[str, Any] | None = None if EXPLORED.is_file() else {"findings": []}
    print_catalogue(entries(recorded), width, verbose)
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
