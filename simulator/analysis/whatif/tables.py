"""The small text and HTML tables that a comparison, a sweep and a displayed result are
written in, and how a time or a list of names reads in their cells."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from enum import Enum

from simulator.engine.result import Outcome
from simulator.law.labels import label
from simulator.views.markup import escape, row, table

#: What a cell shows where there is nothing to say (no time, no names)
NOTHING = "-"


def when_cell(at: datetime | None) -> str:
    """A time as a table's cell shows it, to the minute in its own zone."""
    return at.strftime("%Y-%m-%d %H:%M") if at is not None else NOTHING


def names_cell(names: Sequence[str]) -> str:
    """Names as a table's cell shows them: separated by commas."""
    return ", ".join(names) or NOTHING


def text_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain-text table: each column as wide as its widest cell, a rule under the head."""
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    return "\n".join(lines)


def html_table(head: Sequence[str], rows: Iterable[Sequence[str]], *, raw: bool = False) -> str:
    """A notebook table; cells are escaped unless ``raw`` (then the caller escaped them)."""
    return table(head, [row(r if raw else map(escape, r), inline=True) for r in rows], inline=True)


def words_of(vocabulary: type[Enum], value: str) -> str:
    """The words for an identifier of ``vocabulary`` (``"awaiting_votes"`` of
    :class:`~simulator.law.machine.Phase`: "awaiting the vote"); an unknown one as it is."""
    try:
        return label(vocabulary(value))
    except ValueError:
        return value


def outcome_cells(o: Outcome) -> list[tuple[str, str]]:
    """An outcome as (what, words) pairs, in the order of :meth:`Outcome.parts`, each in words.

    >>> from simulator.law.vocab import Pending
    >>> outcome_cells(Outcome(elected=("Ann",), pending=Pending.RUNOFF_REQUEST))[-1]
    ('waiting for', 'a runoff request')
    """
    runoff = label(o.runoff_status)
    if o.runoff_candidates:
        runoff += f" ({', '.join(o.runoff_candidates)})"
    return [
        ("elected", names_cell(o.elected)),
        ("nominated", names_cell(o.nominated)),
        ("vacant seats", str(o.vacant_seats)),
        ("runoff", runoff),
        ("waiting for", label(o.pending) if o.pending is not None else "nothing"),
    ]
