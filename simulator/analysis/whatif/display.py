"""Rich display of results in Jupyter, with no setup: a :class:`Result`, a contest, an outcome
and a timeline show as HTML tables by themselves (:func:`html`, which the engine asks through
:mod:`simulator.engine.shown`), in words rather than identifiers
(:func:`simulator.law.labels.label`).

:func:`show` and :func:`enable_rich_display` come from the time this needed a setup call; both
still work, and neither is needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from enum import Enum
from typing import Any

import attrs

from simulator.analysis.whatif.tables import (
    NOTHING,
    html_table,
    names_cell,
    outcome_cells,
    when_cell,
    words_of,
)
from simulator.engine import shown
from simulator.engine.result import ContestResult, Outcome, Period, Result, TimelineEntry
from simulator.law.cite import statute
from simulator.law.labels import label
from simulator.law.machine import Phase
from simulator.law.vocab import DeadlineKind, Method, RemarkKind, RulingKind, Stage
from simulator.views.branches import HEADING, branches_in_words
from simulator.views.markup import cite_links, escape, row, spanning_row, table
from simulator.views.text import format_contest, format_result


def _outcome_html(o: Outcome) -> str:
    """The outcome as a table of two columns, what and its words, one row each (five columns
    side by side ran past a phone's screen)."""
    return html_table(("outcome", ""), outcome_cells(o))


_ENTRY_KINDS: dict[str, type[Enum]] = {
    "ruling": RulingKind,
    "deadline": DeadlineKind,
    "remark": RemarkKind,
}


def _entry_words(t: TimelineEntry) -> str:
    """A timeline line in words: a ruling's or a deadline's kind (which starts its label, as
    the text timeline writes it) becomes its words.

    >>> from datetime import datetime
    >>> _entry_words(TimelineEntry(datetime(2027, 10, 14), "deadline",
    ...     "runoff_request: noon on the first Thursday", kind="runoff_request"))
    'runoff request deadline: noon on the first Thursday'
    """
    vocabulary = _ENTRY_KINDS.get(t.what)
    if vocabulary is None or not t.label.startswith(f"{t.kind}: "):
        return t.label
    return f"{words_of(vocabulary, t.kind)}: {t.label[len(t.kind) + 2 :]}"


def _timeline_html(entries: Sequence[TimelineEntry]) -> str:
    return html_table(
        ("at", "what", "about", "cite"),
        [(when_cell(t.at), t.what, _entry_words(t), t.cite or NOTHING) for t in entries],
    )


def _periods_html(periods: Sequence[Period]) -> str:
    return html_table(
        ("period", "from", "to", "cite"),
        [
            (
                label(p.kind),
                when_cell(p.start),
                when_cell(p.end),
                "; ".join(map(str, p.cites)) or NOTHING,
            )
            for p in periods
        ],
    )


def _moved(moved_from: datetime, why: str | None) -> str:
    return f"moved from {when_cell(moved_from)}" + (f": {why}" if why else "")


def _with_words(head: Sequence[str], items: Sequence[tuple[Sequence[str], Sequence[str]]]) -> str:
    """A notebook table of short cells (HTML), each row followed by its words (HTML) in rows
    across the table: a ruling's text, a decision's choices, why a deadline moved. The words
    take the output's whole width, and the table stays as narrow as a phone's screen."""
    rows = []
    for cells, words in items:
        rows.append(row(cells, inline=True))
        rows.extend(spanning_row(w, len(head)) for w in words)
    return table(head, rows, inline=True)


def _contest_html(c: ContestResult) -> str:
    seats = "1 seat" if c.seats == 1 else f"{c.seats} seats"
    head = (
        f"<h4>{escape(c.title)}</h4>"
        f"<p>{escape(words_of(Method, c.method))}, {escape(words_of(Stage, c.stage))}, "
        f"{seats}: <b>{escape(words_of(Phase, c.state))}</b></p>"
    )
    parts = [head, _outcome_html(c.outcome)]
    if c.decisions:
        # a decision nobody has recorded is shown, never taken (docs/history.md)
        asked = [
            (
                (
                    escape(p.heading),
                    escape(label(p.by)),
                    escape(when_cell(p.since)),
                    cite_links(p.cites, inline=True),
                ),
                [f"<b>if {escape(label(o.choice))}</b>: {escape(o.text)}" for o in p.options],
            )
            for p in c.decisions
        ]
        parts.append(
            "<p><b>decisions still to be made</b> (the log records no answer yet)</p>"
            + _with_words(("decision", "by", "since", "cite"), asked)
        )
    for i, t in enumerate(c.tallies):
        what = "votes" if i == 0 else "runoff votes"
        parts.append(
            f"<p><b>{what}</b></p>"
            + html_table(("candidate", "votes"), [(n, f"{v:,}") for n, v in t])
        )
    if c.rulings:
        said = [
            (
                (
                    escape(when_cell(r.at)),
                    f"<b>{escape(label(r.kind))}</b>",
                    cite_links(r.cites, inline=True),
                    escape(names_cell(r.candidates)),
                ),
                [escape(r.text)],
            )
            for r in c.rulings
        ]
        parts.append(
            "<p><b>rulings</b> (what the law says under each)</p>"
            + _with_words(("at", "ruling", "cite", "about"), said)
        )
    if c.remarks:
        remarked = [
            (
                (
                    escape(when_cell(r.at)),
                    f"<b>{escape(label(r.kind))}</b>",
                    cite_links(r.cites, inline=True),
                    str(r.seq),
                ),
                [escape(r.text)],
            )
            for r in c.remarks
        ]
        parts.append(
            "<p><b>remarks</b> (facts off the statutory calendar; no ruling changes)</p>"
            + _with_words(("at", "remark", "cite", "event"), remarked)
        )
    if c.deadlines:
        due = [
            (
                (escape(label(d.kind)), escape(when_cell(d.due)), cite_links(d.cites, inline=True)),
                [escape(_moved(d.moved_from, d.why_moved))] if d.moved_from else [],
            )
            for d in c.deadlines
        ]
        parts.append("<p><b>deadlines</b></p>" + _with_words(("deadline", "due", "cite"), due))
    if c.timeline:
        parts.append(
            f"<details><summary>timeline ({len(c.timeline)} entries)</summary>"
            + _timeline_html(c.timeline)
            + "</details>"
        )
    return "".join(parts)


def _result_html(r: Result) -> str:
    as_of = f" <i>(as of {escape(when_cell(r.as_of))})</i>" if r.as_of is not None else ""
    body = "".join(_contest_html(c) for c in r.contests) or "<p>no contests</p>"
    return f"<h3>{escape(r.scenario)}{as_of}</h3>{body}"


def futures_html(f: Any) -> str:
    """What can happen from here (:func:`simulator.analysis.futures.futures`) as notebook HTML:
    per contest, a table of its branches in words (if, then, under which provisions), the plain
    count first; the text wraps in its cells, so the table fits a phone's width. ``f`` is a
    :class:`~simulator.analysis.futures.Futures` (which shows itself through this: the
    futures module imports this one, not the other way round).

    >>> from simulator.analysis.futures import Futures
    >>> futures_html(Futures("A <b> town", None, 1, ()))
    '<h3>What can happen from here: A &lt;b&gt; town</h3><p>no contests</p>'
    """
    as_of = f" <i>(as the board knew it at {escape(when_cell(f.as_of))})</i>" if f.as_of else ""
    words = branches_in_words(f.to_json())
    body = []
    for c in f.contests:
        rows = [
            (
                escape(b.condition.removeprefix("if ")),
                escape(b.outcome),
                cite_links((statute(x) for x in b.cites), inline=True) or NOTHING,
            )
            for b in words.get(c.id, ())
        ]
        state = escape(words_of(Phase, c.state))
        table_ = html_table(("if", "then", "under"), rows, raw=True) if rows else "<p>none</p>"
        notes = "".join(f"<li>{escape(n)}</li>" for n in c.notes)
        body.append(
            f"<h4>{escape(c.id)} <i>(now: {state})</i></h4>{table_}"
            + (f"<p>Not covered:</p><ul>{notes}</ul>" if notes else "")
        )
    return f"<h3>{escape(HEADING)}: {escape(f.scenario)}{as_of}</h3>" + (
        "".join(body) or "<p>no contests</p>"
    )


def html(value: object) -> str | None:
    """``value`` as the HTML a notebook shows: a :class:`Result`, a :class:`ContestResult`, an
    :class:`Outcome`, a contest's timeline or periods; None for anything else.

    >>> from simulator.engine.result import Outcome
    >>> "<td" in html(Outcome(elected=("Ann",))), html(42)
    (True, None)
    """
    if isinstance(value, Result):
        return _result_html(value)
    if isinstance(value, ContestResult):
        return _contest_html(value)
    if isinstance(value, Outcome):
        return _outcome_html(value)
    if isinstance(value, Sequence) and value:
        if all(isinstance(t, TimelineEntry) for t in value):
            return _timeline_html(value)
        if all(isinstance(p, Period) for p in value):
            return _periods_html(value)
    return None


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
        return _result_html(self.result)


def show(value: Any) -> Any:
    """A :class:`Result` or :class:`ContestResult` wrapped in a view whose plain text is the
    timeline text (its HTML is the same as the result's own); anything else is returned as it
    is. Not needed for tables: a result shows as HTML in Jupyter by itself."""
    if isinstance(value, Result):
        return ResultView(value)
    if isinstance(value, ContestResult):
        return ContestView(value)
    return value


def enable_rich_display() -> bool:
    """Kept for notebooks written before results showed as tables by themselves: it does
    nothing. Returns whether IPython is running (True in Jupyter), as it always has."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    return get_ipython() is not None


@attrs.frozen
class SideBySide:
    """Results shown next to each other in Jupyter where the page is wide enough, one above the
    other on a narrow one (a phone): each in a box at least 320 px wide, under its title."""

    items: tuple[tuple[str, Any], ...]

    def __str__(self) -> str:
        return "\n\n".join(f"== {title} ==\n{value}" for title, value in self.items)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(str(self))

    def _repr_html_(self) -> str:
        boxes = []
        for title, value in self.items:
            inner = html(value)
            if inner is None:
                shown = getattr(value, "_repr_html_", None)
                inner = shown() if callable(shown) else f"<pre>{escape(str(value))}</pre>"
            boxes.append(
                '<div style="flex:1 1 320px;min-width:0;max-width:100%;overflow-x:auto">'
                f"<h4>{escape(title)}</h4>{inner}</div>"
            )
        return (
            '<div class="electsim-side-by-side" '
            'style="display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start">'
            f"{''.join(boxes)}</div>"
        )


def side_by_side(*items: Any, titles: Sequence[str] | None = None) -> SideBySide:
    """Results (or contests, outcomes...) displayed next to each other in Jupyter where the
    width allows, each under its title (by default the contest's or the scenario's own).

    >>> from simulator.engine.result import Outcome
    >>> shown = side_by_side(Outcome(elected=("Ann",)), Outcome(), titles=("one", "two"))
    >>> shown._repr_html_().count("flex:1 1 320px")
    2
    """
    if titles is not None and len(titles) != len(items):
        raise ValueError(
            f"side_by_side: expected one title for each of the {len(items)} items; "
            f"found {len(titles)}"
        )
    named = titles or [
        getattr(item, "title", None) or getattr(item, "scenario", None) or f"({i + 1})"
        for i, item in enumerate(items)
    ]
    return SideBySide(tuple(zip(named, items, strict=True)))


# results, contests, outcomes and timelines show as these tables in Jupyter (engine/shown.py)
shown.register(html)
