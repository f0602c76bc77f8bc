"""Comparing two replays: which outcomes, rulings and deadlines differ, contest by contest
(:func:`compare`), as rows, text and HTML (:class:`Comparison`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import attrs

from simulator.analysis.whatif.tables import (
    NOTHING,
    html_table,
    names_cell,
    outcome_cells,
    text_table,
    when_cell,
    words_of,
)
from simulator.engine.replay import replay
from simulator.engine.result import ContestResult, Result, Ruling
from simulator.law.labels import label
from simulator.law.machine import Phase
from simulator.model.scenario import Scenario
from simulator.views.markup import escape


@attrs.frozen
class Difference:
    """One way two replays differ: in a contest's ``outcome``, a ``ruling`` or a ``deadline``."""

    contest: str
    what: str  # contest | outcome | ruling | deadline
    about: str  # the outcome field, the ruling (kind, cite, candidates) or the deadline, in words
    a: str
    b: str

    def to_dict(self) -> dict[str, str]:
        return attrs.asdict(self)


@attrs.frozen
class Comparison:
    """What differs between two replays, as rows (:attr:`rows`), text (``str``) and HTML (a
    table in Jupyter), in words: "runoff request deadline", not ``runoff_request``."""

    names: tuple[str, str]
    rows: tuple[Difference, ...]

    @property
    def same(self) -> bool:
        """Nothing differs."""
        return not self.rows

    def of(self, what: str) -> tuple[Difference, ...]:
        """The rows about ``outcome``, ``ruling``, ``deadline`` or ``contest``."""
        return tuple(r for r in self.rows if r.what == what)

    @property
    def outcomes(self) -> tuple[Difference, ...]:
        return self.of("outcome")

    @property
    def rulings(self) -> tuple[Difference, ...]:
        return self.of("ruling")

    @property
    def deadlines(self) -> tuple[Difference, ...]:
        return self.of("deadline")

    def to_dicts(self) -> list[dict[str, str]]:
        """The rows as plain dicts (``pandas.DataFrame(c.to_dicts())``)."""
        return [r.to_dict() for r in self.rows]

    def _cells(self, rows: Sequence[Difference]) -> list[tuple[str, str, str, str, str]]:
        return [(r.contest, r.what, r.about, r.a, r.b) for r in rows]

    def _head(self) -> tuple[str, ...]:
        return ("contest", "what", "about", *self.names)

    def outcome_table(self) -> str:
        """The outcome rows only, as text."""
        return text_table(self._head(), self._cells(self.outcomes))

    def __str__(self) -> str:
        if self.same:
            return f"{self.names[0]} and {self.names[1]}: no difference"
        return text_table(self._head(), self._cells(self.rows))

    def __repr__(self) -> str:
        return (
            f"<Comparison of {self.names[0]} and {self.names[1]}: {len(self.rows)} difference(s)>"
        )

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython's plain-text display: the text form."""
        p.text(str(self))

    def _repr_html_(self) -> str:
        caption = (
            f"<p><b>{escape(self.names[0])}</b> vs <b>{escape(self.names[1])}</b>: "
            f"{len(self.rows)} difference(s)</p>"
        )
        if self.same:
            return caption
        contests = {r.contest for r in self.rows}
        if len(contests) > 1:
            return caption + html_table(self._head(), self._cells(self.rows))
        # one contest: named above the table, which keeps its four columns within a phone
        (contest,) = contests
        caption = caption.replace("</p>", f", in contest {escape(contest)}</p>")
        return caption + html_table(self._head()[1:], [c[1:] for c in self._cells(self.rows)])


def _pairs(
    a: Sequence[tuple[Any, str]], b: Sequence[tuple[Any, str]]
) -> list[tuple[Any, str, str]]:
    """Match items by key in order; (key, a text, b text) for each pair that differs."""
    out: list[tuple[Any, str, str]] = []
    keys = list(dict.fromkeys([k for k, _ in a] + [k for k, _ in b]))
    for key in keys:
        xs = [t for k, t in a if k == key]
        ys = [t for k, t in b if k == key]
        for i in range(max(len(xs), len(ys))):
            x = xs[i] if i < len(xs) else NOTHING
            y = ys[i] if i < len(ys) else NOTHING
            if x != y:
                out.append((key, x, y))
    return out


def _ruling_key(r: Ruling) -> str:
    who = f" [{names_cell(r.candidates)}]" if r.candidates else ""
    return f"{label(r.kind)} {r.cite}{who}"


def _compare_contests(a: ContestResult, b: ContestResult) -> list[Difference]:
    rows: list[Difference] = []
    oa, ob = a.outcome, b.outcome
    facts = [
        (about, x, y)
        for (about, x), (_, y) in zip(outcome_cells(oa), outcome_cells(ob), strict=True)
    ]
    facts.append(("state", words_of(Phase, a.state), words_of(Phase, b.state)))
    for about, x, y in facts:
        if x != y:
            rows.append(Difference(a.id, "outcome", about, x, y))
    ra = [(_ruling_key(r), when_cell(r.at)) for r in a.rulings]
    rb = [(_ruling_key(r), when_cell(r.at)) for r in b.rulings]
    rows.extend(Difference(a.id, "ruling", k, x, y) for k, x, y in _pairs(ra, rb))

    def due(d: Any) -> str:
        moved = f" (moved from {when_cell(d.moved_from)})" if d.moved_from else ""
        return when_cell(d.due) + moved

    da = [(label(d.kind), due(d)) for d in a.deadlines]
    db = [(label(d.kind), due(d)) for d in b.deadlines]
    rows.extend(Difference(a.id, "deadline", k, x, y) for k, x, y in _pairs(da, db))
    return rows


def compare(
    a: Scenario | Result,
    b: Scenario | Result,
    *,
    as_of: datetime | None = None,
    names: tuple[str, str] = ("a", "b"),
) -> Comparison:
    """Which outcomes, rulings and deadlines differ between two scenarios (replayed, ``as_of``
    a moment if given) or two results. Contests are matched by id."""
    ra = replay(a, as_of=as_of) if isinstance(a, Scenario) else a
    rb = replay(b, as_of=as_of) if isinstance(b, Scenario) else b
    rows: list[Difference] = []
    ids_b = {c.id for c in rb.contests}
    for c in ra.contests:
        if c.id in ids_b:
            rows.extend(_compare_contests(c, rb.contest(c.id)))
        else:
            rows.append(Difference(c.id, "contest", "present", "yes", "no"))
    ids_a = {c.id for c in ra.contests}
    rows.extend(
        Difference(c.id, "contest", "present", "no", "yes")
        for c in rb.contests
        if c.id not in ids_a
    )
    return Comparison(names, tuple(rows))
