"""Rich display of results in Jupyter: a result or a contest wrapped in a view that writes
itself as HTML (:func:`show`), or registered for HTML once (:func:`enable_rich_display`)."""

from __future__ import annotations

import importlib
from typing import Any

import attrs

from simulator.analysis.whatif.tables import _NOTHING, _html_table, _names, _when
from simulator.engine.result import ContestResult, Result
from simulator.views.markup import cite_links, escape
from simulator.views.text import format_contest, format_result


def _contest_html(c: ContestResult) -> str:
    o = c.outcome
    head = (
        f"<h4>{escape(c.title)} <code>{escape(c.id)}</code></h4>"
        f"<p>{escape(c.method)}, {escape(c.stage)}, "
        f"{c.seats} seat(s): <b>{escape(c.state)}</b></p>"
    )
    summary = o.parts()
    outcome = _html_table(
        tuple(p.label for p in summary), [tuple(p.words or _NOTHING for p in summary)]
    )
    parts = [head, outcome]
    for i, t in enumerate(c.tallies):
        label = "votes" if i == 0 else "runoff votes"
        parts.append(
            f"<p><b>{label}</b></p>"
            + _html_table(("candidate", "votes"), [(n, str(v)) for n, v in t])
        )
    if c.rulings:
        rows = [
            (
                escape(_when(r.at)),
                f"<b>{escape(r.kind.value)}</b>",
                cite_links(r.cites),
                escape(_names(r.candidates)),
                escape(r.text),
            )
            for r in c.rulings
        ]
        parts.append(
            "<p><b>rulings</b></p>"
            + _html_table(("at", "kind", "cite", "candidates", "text"), rows, raw=True)
        )
    if c.deadlines:
        rows = [
            (
                escape(d.kind.value),
                escape(_when(d.due)),
                cite_links(d.cites),
                escape(_when(d.moved_from) if d.moved_from else _NOTHING),
                escape(d.why_moved or ""),
            )
            for d in c.deadlines
        ]
        parts.append(
            "<p><b>deadlines</b></p>"
            + _html_table(("kind", "due", "cite", "moved from", "why moved"), rows, raw=True)
        )
    if c.timeline:
        entries = [(_when(t.at), t.what, t.label, t.cite) for t in c.timeline]
        parts.append(
            f"<details><summary>timeline ({len(entries)} entries)</summary>"
            + _html_table(("at", "what", "label", "cite"), entries)
            + "</details>"
        )
    return "".join(parts)


@attrs.frozen
class ContestView:
    """One contest's result, displayed as HTML in Jupyter and as the timeline text elsewhere."""

    contest: ContestResult

    def __str__(self) -> str:
        return format_contest(self.contest)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython's plain-text display: the text form."""
        p.text(str(self))

    def _repr_html_(self) -> str:
        return _contest_html(self.contest)


@attrs.frozen
class ResultView:
    """A replay's result, displayed as HTML in Jupyter and as the timeline text elsewhere.

    >>> from simulator.engine.result import Result
    >>> "<h3>" in ResultView(Result("A <b> title", ()))._repr_html_()
    True
    >>> "A &lt;b&gt; title" in ResultView(Result("A <b> title", ()))._repr_html_()
    True
    """

    result: Result

    def __str__(self) -> str:
        return format_result(self.result)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython's plain-text display: the text form."""
        p.text(str(self))

    def _repr_html_(self) -> str:
        r = self.result
        as_of = f" <i>(as of {escape(_when(r.as_of))})</i>" if r.as_of is not None else ""
        body = "".join(_contest_html(c) for c in r.contests) or "<p>no contests</p>"
        return f"<h3>{escape(r.scenario)}{as_of}</h3>{body}"


def show(value: Any) -> Any:
    """Something Jupyter displays richly: a :class:`Result` or :class:`ContestResult` is wrapped
    in a view with ``_repr_html_``; anything else (a :class:`Comparison`, a :class:`Sweep`) is
    returned as it is."""
    if isinstance(value, Result):
        return ResultView(value)
    if isinstance(value, ContestResult):
        return ContestView(value)
    return value


def enable_rich_display() -> bool:
    """Register HTML display of :class:`Result` and :class:`ContestResult` in the running
    IPython, so a bare ``replay(s)`` shows its tables. Returns False outside IPython."""
    try:
        ipython = importlib.import_module("IPython")
    except ImportError:
        return False
    shell = ipython.get_ipython()
    if shell is None:
        return False
    formatter = shell.display_formatter.formatters["text/html"]
    formatter.for_type(Result, lambda r: ResultView(r)._repr_html_())
    formatter.for_type(ContestResult, lambda c: ContestView(c)._repr_html_())
    return True
