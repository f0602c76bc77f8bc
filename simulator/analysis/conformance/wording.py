"""How the checks and the reports word what they find: a check's status, a list of names, a table
as plain text or Markdown."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from simulator.views.columns import fit_table

#: How a check's ``agree`` reads in the report.
STATUS: dict[bool | None, str] = {True: "agree", False: "DISAGREE", None: "n/a"}


def who(names: Iterable[str]) -> str:
    """Names, joined by commas, or "nobody".

    >>> who(["Ann Able", "Bob Baker"]), who([])
    ('Ann Able, Bob Baker', 'nobody')
    """
    return ", ".join(names) or "nobody"


def format_table(
    cols: Sequence[str], rows: Sequence[Sequence[str]], *, markdown: bool, width: int | None = None
) -> list[str]:
    """The lines of a table: Markdown, or plain text fitted to ``width`` columns."""
    if markdown:
        out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
        out.extend("| " + " | ".join(x.replace("|", "\\|") for x in r) + " |" for r in rows)
        return out
    return fit_table(cols, rows, width=width)
