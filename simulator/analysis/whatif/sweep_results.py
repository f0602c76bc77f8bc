"""What a sweep gives back: one :class:`SweepRow` per variant, and the :class:`Sweep` that
holds them, finds the bands of equal outcomes and the flips, and writes them as text, HTML
and a chart."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

import attrs

from simulator.analysis.whatif.tables import _NOTHING, _html_table, _text_table
from simulator.engine.result import Outcome
from simulator.law.vocab import Pending, RunoffStatus
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
    ruling: str | None  # the deciding ruling's kind
    cite: str = ""
    ruling_at: datetime | None = None
    candidates: tuple[str, ...] = ()
    text: str = ""

    @property
    def outcome(self) -> str:
        """The outcome in a few words: ``elected Ann``, ``runoff called (Ann, Bob)``, ..."""
        outcome = Outcome(
            self.elected,
            self.nominated,
            self.vacant_seats,
            RunoffStatus(self.runoff),
            self.runoff_candidates,
            Pending(self.pending) if self.pending else None,
        )
        return "; ".join(outcome.brief(" ")) or "no outcome"

    @property
    def decided_by(self) -> str:
        """The deciding ruling and its citation."""
        return f"{self.ruling} ({self.cite})" if self.ruling else _NOTHING

    def to_dict(self) -> dict[str, Any]:
        doc = attrs.asdict(self, recurse=False)
        doc["outcome"] = self.outcome
        return doc


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
            if i == len(self.rows) or _key(self.rows[i]) != _key(self.rows[start]):
                a, b = self.rows[start], self.rows[i - 1]
                out.append(Band(a.value, b.value, i - start, a.outcome, a.ruling, a.cite, start))
                start = i
        return tuple(out)

    def flips(self) -> tuple[tuple[SweepRow, SweepRow], ...]:
        """Each pair of neighbouring variants where the outcome or the deciding ruling changes.

        >>> sw = Sweep("x", "c", tuple(SweepRow(v, ("A",) if v < 2 else ("B",), (), 0,
        ...     "none", (), None, "elected") for v in range(4)))
        >>> [(a.value, b.value) for a, b in sw.flips()]
        [(1, 2)]
        """
        return tuple(
            (a, b) for a, b in zip(self.rows, self.rows[1:], strict=False) if _key(a) != _key(b)
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
                f"{b.ruling} ({b.cite})" if b.ruling else _NOTHING,
            )
            for b in self.bands()
        ]

    _HEAD = ("from", "to", "variants", "outcome", "deciding ruling")

    def _title(self) -> str:
        how = (
            f"first ruling of kind {' / '.join(self.decider)}"
            if self.decider
            else "last ruling that changed the outcome"
        )
        return (
            f"sweep of {self.variable} over {len(self.rows)} variant(s), contest {self.contest}; "
            f"deciding ruling = {how}"
        )

    def __str__(self) -> str:
        return self._title() + "\n" + _text_table(self._HEAD, self._band_cells())

    def __repr__(self) -> str:
        return (
            f"<Sweep of {self.variable} in {self.contest}: {len(self.rows)} variant(s), "
            f"{len(self.bands())} band(s)>"
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
        return f"<p>{escape(self._title())}</p>" + _html_table(self._HEAD, rows, raw=True)

    def plot(self, *, title: str | None = None) -> Chart:
        """A chart of the outcome against the swept value, the background banded by the kind
        of the deciding ruling (:func:`simulator.views.charts.sweep_plot.plot_sweep`)."""
        from simulator.views.charts.sweep_plot import plot_sweep

        return plot_sweep(
            self.values,
            [r.outcome for r in self.rows],
            [(b.start, b.count, b.ruling) for b in self.bands()],
            variable=self.variable,
            title=title or f"{self.contest}: outcome by {self.variable}",
            tick=_fmt_value,
        )


def _key(r: SweepRow) -> tuple[str, str | None, str]:
    return (r.outcome, r.ruling, r.cite)
