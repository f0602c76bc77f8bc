"""The ``electsim cite`` command line: its options, the command and its printing.

Finding what implements or exercises a subsection is :mod:`simulator.analysis.references`'s: it
reads the rule tables, the transitions and the scenarios.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from typing import Any

from simulator.analysis.references import (
    CITATION,
    CITATION_FORMS,
    KINDS,
    UNMODELED,
    all_references,
    normalize,
    references,
    section_order,
)
from simulator.law.cite import statute


def cmd_cite(args: argparse.Namespace) -> int:
    """List what implements or exercises the subsection ``args.citation`` (text or JSON)."""

    # full-width letters and digits ("１６３-293(b)") are read as the ASCII they stand for
    query = normalize(unicodedata.normalize("NFKC", args.citation))
    whole = CITATION.fullmatch(query)
    if not query.startswith("08 NCAC") and (whole is None or whole.group(3)):
        print(
            f"electsim cite: expected a section and subsection like {CITATION_FORMS}; found "
            f"{args.citation!r}",
            file=sys.stderr,
        )
        return 2
    found = references(query)
    reason = UNMODELED.get(query)
    if not found and not reason:
        cited = {statute(r.cite).section for r in all_references()}
        section = statute(query).section
        reason = f"nothing in electsim cites G.S. {query}"
        if section not in cited:
            reason += "; the sections it cites are " + ", ".join(sorted(cited, key=section_order))
    if args.json:
        doc = {
            "cite": query,
            "unmodeled": reason,
            "references": [r.to_json() for r in found],
            "counts": {k: sum(1 for r in found if r.kind == k) for k in KINDS},
        }
        print(json.dumps(doc, indent=2))
        return 0
    print(f"G.S. {query}: {len(found)} reference(s)")
    if reason:
        print(f"  not modeled: {reason}")
    for kind in KINDS:
        group = [r for r in found if r.kind == kind]
        if not group:
            continue
        print(f"\n{kind} ({len(group)}):")
        for r in group:
            head = f"  {r.id}" if kind in ("test", "scenario") else f"  {r.id}  [{r.where}]"
            tail = f"  ({r.cite})" if r.cite != query else ""
            print(head + tail)
            if r.summary and kind not in ("code", "test"):
                words = r.summary if len(r.summary) <= 92 else r.summary[:89] + "..."
                print(f"      {words}")
    return 0


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``electsim cite`` to the command line."""
    p = sub.add_parser("cite", help="list what implements or exercises a subsection")
    p.add_argument("citation", help='a section and subsection, like "163-294.4(c)"')
    p.add_argument("--json", action="store_true", help="print the references as JSON")
    p.set_defaults(func=cmd_cite)
