"""The readable timeline printed by ``electsim replay`` (aligned columns, local times)."""

from __future__ import annotations

import textwrap
from datetime import datetime

from simulator.engine.result import ContestResult, Result

_COLOURS = {"event": "\033[36m", "ruling": "\033[1;33m", "deadline": "\033[35m"}
_RESET = "\033[0m"


def _when(at: datetime) -> str:
    return at.strftime("%a %Y-%m-%d %H:%M")


def format_outcome(c: ContestResult) -> list[str]:
    parts = c.outcome.parts()
    width = max(len(p.label) for p in parts) + 1
    lines = [f"  {(p.label + ':').ljust(width)} {p.words or '-'}" for p in parts]
    for i, t in enumerate(c.tallies):
        label = "votes" if i == 0 else "runoff votes"
        lines.append(f"  {label}: " + ", ".join(f"{n} {v}" for n, v in t))
    return lines


def format_contest(c: ContestResult, *, colour: bool = False, width: int | None = None) -> str:
    head = f"{c.title} [{c.id}] - {c.method}, {c.stage}, {c.seats} seat(s): {c.state}"
    out = [head, "=" * min(len(head), 100)]
    what_width = max((len(t.what) for t in c.timeline), default=8)
    for t in c.timeline:
        label = t.label
        if t.cite:
            label += f"  [{t.cite}]"
        what = t.what.ljust(what_width)
        if colour:
            what = _COLOURS.get(t.what, "") + what + _RESET
        indent = len(_when(t.at)) + 2 + what_width + 2
        if width is not None and indent + len(label) > width:
            lines = textwrap.wrap(label, max(width - indent, 30)) or [""]
            label = ("\n" + " " * indent).join(lines)
        out.append(f"{_when(t.at)}  {what}  {label}")
    out.append("Outcome:")
    out.extend(format_outcome(c))
    return "\n".join(out)


def format_result(result: Result, *, colour: bool = False, width: int | None = None) -> str:
    """The readable timeline; with ``width``, long labels wrap under themselves."""
    parts = [f"# {result.scenario}"]
    if result.as_of is not None:
        parts.append(f"(as of {_when(result.as_of)})")
    if result.readings:
        shown = "; ".join(
            f"{k}: {str(v).lower() if v is True or v is False else v}" for k, v in result.readings
        )
        parts.append(f"(readings other than the defaults: {shown})")
    parts.extend(format_contest(c, colour=colour, width=width) for c in result.contests)
    return "\n\n".join(parts) + "\n"
