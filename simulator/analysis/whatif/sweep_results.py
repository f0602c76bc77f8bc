"""What a sweep gives back: one :class:`SweepRow` per variant, and the :class:`Sweep` that
holds them, finds the bands of equal outcomes and the flips, and writes them as text, HTML
and a chart."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

import attrs

from simulator.analysis.whatif.tables import NOTHING, html_table, text_table
from simulator.engine.result import Outcome
from simulator.law.labels import label
from simulator.law.vocab import Pending, RulingKind, RunoffStatus
from simulator.views.charts.sweep_plot import plot_sweep, ruling_words
from simulator.views.markup import escape, ruling_colour

if TYPE_CHECKING:
    from simulator.views.charts.figures import Chart


@attrs.frozen
class SweepRow:
    """One variant of a sweep: the value, the contest's outcome and the deciding ruling."""

    value: Any
    elected: tuple[str, ...]
    nominated: tuple[str, ...]
    vacant_seats: int
    runoff: str  # none | available | called | held
    runoff_candidates: tuple[str, ...]
    pending: str | None
    ruling: str | None  # the deciding ruling's kind (its identifier; :attr:`ruling_words`)
    cite: str = ""
    ruling_at: datetime | None = None
    candidates: tuple[str, ...] = ()
    text: str = ""

    @property
    def outcome(self) -> str:
        """The outcome in a few words: ``elected Ann``, ``runoff called (Ann, Bob)``,
        ``waiting for a recount`` (:meth:`Outcome.words`)."""
        outcome = Outcome(
            self.elected,
            self.nominated,
            self.vacant_seats,
            RunoffStatus(self.runoff),
            self.runoff_candidates,
            Pending(self.pending) if self.pending else None,
        )
        return outcome.words()

    @property
    def ruling_words(self) -> str | None:
        """The deciding ruling's kind in words ("elected", "runoff called"), or None."""
        return _ruling_words(self.ruling)

    @property
    def decided_by(self) -> str:
        """The deciding ruling in words and its citation: ``elected (G.S. 163-293(a)(1))``."""
        return _decided_by(self.ruling, self.cite)

    def to_dict(self) -> dict[str, Any]:
        doc = attrs.asdict(self, recurse=False)
        doc["outcome"] = self.outcome
        return doc

    def __str__(self) -> str:
        return f"{_fmt_value(self.value)}: {self.outcome}; decided by {self.decided_by}"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython's plain-text display: the variant in words."""
        p.text(str(self))


def _change_words(before: SweepRow, after: SweepRow) -> str:
    """What changes between two neighbouring variants, in words: the outcome, or, where the
    outcome stays the same, the deciding ruling and its provision.

    >>> a = SweepRow(1, (), (), 1, "none", (), None, "office_vacant", "G.S. 163-294.4(c)")
    >>> b = attrs.evolve(a, cite="G.S. 163-293(b)(1)")
    >>> _change_words(a, b)
    '1 vacant seat either way; decided under G.S. 163-294.4(c), then G.S. 163-293(b)(1)'
    """
    if before.outcome != after.outcome:
        return f"{before.outcome} → {after.outcome}"
    if before.ruling != after.ruling:
        return (
            f"{before.outcome} either way; decided by {before.decided_by}, then {after.decided_by}"
        )
    return f"{before.outcome} either way; decided under {before.cite}, then {after.cite}"


def _short_change(before: SweepRow, after: SweepRow) -> str:
    """What changes at a flip where the outcome holds, short enough to label the flip's line on
    a chart: the deciding ruling, or its provision; "" where the outcome changes (the chart's
    rows already say so).

    >>> a = SweepRow(1, (), (), 1, "none", (), None, "office_vacant", "G.S. 163-294.4(c)")
    >>> _short_change(a, attrs.evolve(a, cite="G.S. 163-293(b)(1)"))
    '163-294.4(c) → 163-293(b)(1)'
    >>> _short_change(a, attrs.evolve(a, ruling=None, cite=""))
    'office vacant → no deciding ruling'
    """
    if before.outcome != after.outcome:
        return ""
    if before.ruling != after.ruling:
        return f"{ruling_words(before.ruling)} → {ruling_words(after.ruling)}"
    return f"{_provision(before.cite)} → {_provision(after.cite)}"


def _provision(cite: str) -> str:
    """A citation without its "G.S." (a chart's label is short); "none" for no citation."""
    return cite.removeprefix("G.S. ") or "none"


class Flips(tuple[tuple[SweepRow, SweepRow], ...]):
    """The flips of a sweep: each pair of neighbouring variants where the outcome or the
    deciding ruling changes. A tuple of pairs, shown in Jupyter as a table in words: where
    it flips, and what changes there."""

    __slots__ = ()

    def _cells(self) -> list[tuple[str, str]]:
        return [(_flip_words(a.value, b.value), _change_words(a, b)) for a, b in self]

    def __str__(self) -> str:
        if not self:
            return "no flip: every variant has the same outcome and deciding ruling"
        return text_table(("flips between", "what changes"), self._cells())

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(str(self))

    def _repr_html_(self) -> str:
        if not self:
            return f"<p>{escape(str(self))}</p>"
        return html_table(("flips between", "what changes"), self._cells())


@attrs.frozen
class Band:
    """A run of consecutive variants with the same outcome and the same deciding ruling."""

    first: Any
    last: Any
    count: int
    outcome: str
    ruling: str | None
    cite: str
    start: int  # position of the first variant in the sweep


def _ruling_words(kind: str | None) -> str | None:
    """A ruling kind's identifier in words; None stays None.

    >>> _ruling_words("runoff_called"), _ruling_words(None)
    ('runoff called', None)
    """
    if kind is None:
        return None
    try:
        return label(RulingKind(kind))
    except ValueError:
        return kind.replace("_", " ")


def _decided_by(kind: str | None, cite: str) -> str:
    words = _ruling_words(kind)
    if words is None:
        return NOTHING
    return f"{words} ({cite})" if cite else words


def _flip_words(before: Any, after: Any) -> str:
    """Where a flip falls, between two neighbouring values; a date is not written twice.

    >>> _flip_words(399, 400), _flip_words(datetime(2019, 10, 17, 12), datetime(2019, 10, 17, 13))
    ('399 → 400', '2019-10-17 12:00 → 13:00')
    """
    a, b = _fmt_value(before), _fmt_value(after)
    if isinstance(before, datetime) and isinstance(after, datetime) and a[:10] == b[:10]:
        b = b[11:]
    return f"{a} → {b}"


def _flip_label(before: SweepRow, after: SweepRow) -> str:
    """A flip's label on a chart: where it falls and, where the outcome holds, on a second
    line what changes (:func:`_short_change`)."""
    change = _short_change(before, after)
    where = _flip_words(before.value, after.value)
    return f"{where}\n{change}" if change else where


def _fmt_value(value: Any) -> str:
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


@attrs.frozen(repr=False)
class Sweep:
    """The variants of a sweep, in the order of the values: rows, bands of equal outcomes,
    the values where the outcome flips, a chart (:meth:`plot`), text and HTML."""

    variable: str
    contest: str
    rows: tuple[SweepRow, ...]
    decider: tuple[str, ...] = ()  # the chosen ruling kinds; () = the last that changed it
    title: str = ""  # the contest's name ("Town of Cary - Town Council District D")

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[SweepRow]:
        return iter(self.rows)

    def __getitem__(self, i: int) -> SweepRow:
        return self.rows[i]

    @property
    def values(self) -> tuple[Any, ...]:
        return tuple(r.value for r in self.rows)

    def bands(self) -> tuple[Band, ...]:
        """Runs of consecutive variants with the same outcome, ruling kind and citation."""
        out: list[Band] = []
        start = 0
        for i in range(1, len(self.rows) + 1):
            if i == len(self.rows) or outcome_key(self.rows[i]) != outcome_key(self.rows[start]):
                a, b = self.rows[start], self.rows[i - 1]
                out.append(Band(a.value, b.value, i - start, a.outcome, a.ruling, a.cite, start))
                start = i
        return tuple(out)

    def flips(self) -> Flips:
        """Each pair of neighbouring variants where the outcome or the deciding ruling changes.

        >>> sw = Sweep("x", "c", tuple(SweepRow(v, ("A",) if v < 2 else ("B",), (), 0,
        ...     "none", (), None, "elected") for v in range(4)))
        >>> [(a.value, b.value) for a, b in sw.flips()]
        [(1, 2)]
        """
        return Flips(
            (a, b)
            for a, b in zip(self.rows, self.rows[1:], strict=False)
            if outcome_key(a) != outcome_key(b)
        )

    def to_dicts(self) -> list[dict[str, Any]]:
        """One dict per variant (``pandas.DataFrame(sweep.to_dicts())``)."""
        return [r.to_dict() for r in self.rows]

    def _band_cells(self) -> list[tuple[str, str, str, str, str]]:
        return [
            (
                _fmt_value(b.first),
                _fmt_value(b.last),
                str(b.count),
                b.outcome,
                _decided_by(b.ruling, b.cite),
            )
            for b in self.bands()
        ]

    _HEAD = ("from", "to", "variants", "outcome", "deciding ruling")

    @property
    def contest_name(self) -> str:
        """The contest's name for people (its id when the sweep has none)."""
        return self.title or self.contest

    def _title(self) -> str:
        how = (
            "the first ruling of kind " + " or ".join(_ruling_words(k) or k for k in self.decider)
            if self.decider
            else "the last ruling that decided the outcome"
        )
        variants = "1 variant" if len(self.rows) == 1 else f"{len(self.rows)} variants"
        return (
            f"{self.contest_name}: outcome by {self.variable}, {variants}; deciding ruling: {how}"
        )

    def flip_values(self) -> tuple[tuple[Any, Any], ...]:
        """The values on either side of each flip: ``((1, 2),)`` when the outcome changes
        between 1 and 2 (:meth:`flips`)."""
        return tuple((a.value, b.value) for a, b in self.flips())

    def __str__(self) -> str:
        return self._title() + "\n" + text_table(self._HEAD, self._band_cells())

    def __repr__(self) -> str:
        return (
            f"<Sweep of {self.variable} in {self.contest}: {len(self.rows)} variant(s), "
            f"{len(self.bands())} band(s), {len(self.flips())} flip(s)>"
        )

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython's plain-text display: the text form."""
        p.text(str(self))

    def _repr_html_(self) -> str:
        rows = []
        for cells, band in zip(self._band_cells(), self.bands(), strict=True):
            colour = ruling_colour(band.ruling)
            swatch = f'<span style="color:{colour}">&#9632;</span> '
            rows.append((*(escape(c) for c in cells[:4]), swatch + escape(cells[4])))
        return f"<p>{escape(self._title())}</p>" + html_table(self._HEAD, rows, raw=True)

    def plot(self, *, title: str | None = None) -> Chart:
        """A chart of the outcome against the swept value, the background banded by the kind
        of the deciding ruling (:func:`simulator.views.charts.sweep_plot.plot_sweep`)."""

        return plot_sweep(
            self.values,
            [r.outcome for r in self.rows],
            [(b.start, b.count, b.ruling) for b in self.bands()],
            variable=self.variable,
            title=title or f"{self.contest_name}: outcome by {self.variable}",
            tick=_fmt_value,
            flips=[
                (i, _flip_label(self.rows[i - 1], self.rows[i]))
                for i in range(1, len(self.rows))
                if outcome_key(self.rows[i - 1]) != outcome_key(self.rows[i])
            ],
        )


def outcome_key(r: SweepRow) -> tuple[str, str | None, str]:
    """What rows of a sweep are compared by: the outcome, the ruling that decided it and its
    citation. Neighbouring rows with the same key are one band; a change of key is a flip."""
    return (r.outcome, r.ruling, r.cite)
