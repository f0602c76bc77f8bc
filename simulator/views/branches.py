"""What can happen from here, as the views show it: each branch of a contest's futures
(``electsim next``, docs/futures.md) as its condition, its outcome and its citations in words.

The futures are computed two layers up (``simulator.analysis.futures``); a view reads only their
JSON document (``Futures.to_json()``), plain data, turned here into :class:`BranchWords`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from simulator.engine.result import Outcome
from simulator.law.vocab import Pending, RunoffStatus

#: the heading of the section in the text replay, the report and the what-if page
HEADING = "What can happen from here"
#: what the section says of how the branches were found
HOW = (
    "Each way the law lets the contest end from what the log records, with one more death "
    "at most; the plain count first, then requests, then departures (electsim next)."
)


@attrs.frozen
class BranchWords:
    """One branch in words: "if Bob polls the most votes", "elected Bob", its citations."""

    condition: str
    outcome: str
    cites: tuple[str, ...] = ()


def outcome_of(o: Mapping[str, Any]) -> Outcome:
    """An outcome from its JSON (a branch's ``outcome``, a result's ``outcome``)."""
    run = o.get("runoff") or {}
    return Outcome(
        elected=tuple(o.get("elected", ())),
        nominated=tuple(o.get("nominated", ())),
        vacant_seats=int(o.get("vacant_seats", 0)),
        runoff_status=RunoffStatus(run.get("status", "none")),
        runoff_candidates=tuple(run.get("candidates", ())),
        pending=Pending(o["pending"]) if o.get("pending") else None,
    )


def branches_in_words(doc: Mapping[str, Any]) -> dict[str, tuple[BranchWords, ...]]:
    """Each contest's branches in words, by contest id, from a futures document."""
    out: dict[str, tuple[BranchWords, ...]] = {}
    for c in doc.get("contests", ()):
        rows = []
        for b in c.get("branches", ()):
            said = (r.get("cite") or "" for r in b.get("rulings", ()))
            cites = tuple(dict.fromkeys(c for s in said for c in s.split("; ") if c))
            rows.append(BranchWords(b["condition"], outcome_of(b["outcome"]).words(), cites))
        out[c["id"]] = tuple(rows)
    return out


def branch_lines(branches: Sequence[BranchWords]) -> list[str]:
    """The branches as lines of text: "if Bob polls the most votes: elected Bob [G.S. ...]"."""
    out = []
    for b in branches:
        cites = f"  [{'; '.join(b.cites)}]" if b.cites else ""
        out.append(f"{b.condition}: {b.outcome}{cites}")
    return out
