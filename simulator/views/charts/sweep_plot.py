"""A sweep's chart: the outcome of each variant against the swept value, the background
banded by the kind of the deciding ruling, and a line where the outcome flips, labelled with
the value it flips at. Every word on it is for people: the axis says what varies, the legend
names rulings in words (:func:`simulator.law.labels.label`)."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from simulator.law.labels import label
from simulator.law.vocab import RulingKind
from simulator.views.markup import ruling_colour

if TYPE_CHECKING:
    from simulator.views.charts.figures import Chart

#: The colour of the lines that mark where the outcome flips.
FLIP_COLOUR = "#c51b7d"


def _gap(xs: Sequence[float], i: int, *, before: bool) -> float:
    j = i - 1 if before else i + 1
    if 0 <= j < len(xs):
        return abs(xs[i] - xs[j])
    if len(xs) > 1:
        return abs(xs[1] - xs[0]) if before else abs(xs[-1] - xs[-2])
    return 1.0


def _tick_outcome(text: str, width: int = 40) -> str:
    """An outcome as a tick label: in full, wrapped at spaces, never cut.

    >>> print(_tick_outcome("elected Mary-Ann Baldwin, Charles Francis, Caroline Sullivan"))
    elected Mary-Ann Baldwin, Charles
    Francis, Caroline Sullivan
    """
    return textwrap.fill(text, width, break_on_hyphens=False, break_long_words=False)


def ruling_words(kind: str | None) -> str:
    """A ruling kind as the legend says it: ``"runoff called"``; "no deciding ruling" for None.

    >>> ruling_words("votes_disregarded"), ruling_words(None)
    ('votes set aside', 'no deciding ruling')
    """
    if kind is None:
        return "no deciding ruling"
    try:
        return label(RulingKind(kind))
    except ValueError:
        return kind.replace("_", " ")


def _label_rows(spans: Sequence[tuple[float, float]]) -> list[int]:
    """The row above the plot of each flip's label, given where each label reaches from and
    to (in pixels, in the order of the flips): the lowest row where it clears by a few pixels
    every label already placed in that row, so that labels never overlap.

    >>> _label_rows([(0, 50), (45, 90), (60, 100), (95, 140), (200, 240)])
    [0, 1, 0, 1, 0]
    """
    placed: list[list[tuple[float, float]]] = []
    rows: list[int] = []
    for a, b in spans:
        row = next(
            (
                r
                for r, taken in enumerate(placed)
                if all(b + 4 <= c or d + 4 <= a for c, d in taken)
            ),
            len(placed),
        )
        if row == len(placed):
            placed.append([])
        placed[row].append((a, b))
        rows.append(row)
    return rows


def plot_sweep(
    values: Sequence[Any],
    outcomes: Sequence[str],
    bands: Sequence[tuple[int, int, str | None]],
    *,
    variable: str,
    title: str,
    tick: Callable[[Any], str] = str,
    flips: Sequence[tuple[int, str]] = (),
) -> Chart:
    """A sweep's chart: the outcome of each variant against its value (dates, numbers, or
    anything else in order), the background banded by the kind of the deciding ruling.

    ``bands`` are (first variant, number of variants, ruling kind or None); ``tick`` writes a
    value that is neither a date nor a number; ``flips`` are (the first variant after a flip,
    where it falls in words: "399 → 400", and on a second line, where the outcome holds, what
    changes: "163-294.4(c) → 163-294.1(c)"): each is marked by a dashed line between that
    variant and the one before (the line's ``gid`` is ``"flip"``), labelled with those words,
    one row higher where it would clash with a label beside it. ``variable`` labels the
    x axis; with dates all in one year, the year is added to it (the ticks then need none).
    """
    from matplotlib.patches import Patch

    from simulator.views.charts.figures import Chart

    xs, kind = _positions(values)
    distinct = list(dict.fromkeys(outcomes))
    ys = [distinct.index(o) for o in outcomes]

    labels = [_tick_outcome(o) for o in distinct]
    rows = sum(0.25 + 0.17 * (lab.count("\n") + 1) for lab in labels)
    fig = Chart(figsize=(10, 1.9 + max(rows, 0.45)), layout="constrained")
    ax = fig.add_subplot()
    seen = _draw_bands(ax, xs, bands)
    ax.plot(xs, ys, drawstyle="steps-mid", color="#222222", linewidth=1.2)
    ax.scatter(xs, ys, s=12, color="#222222", zorder=3)
    ax.set_yticks(range(len(distinct)), labels)
    ax.set_ylim(-0.6, max(len(distinct) - 0.4, 0.6))
    years = {v.year for v in values} if kind == "date" else set()
    (year,) = years if len(years) == 1 else (None,)
    ax.set_xlabel(f"{variable} ({year})" if year is not None else variable)
    _format_x(ax, values, xs, kind, year, tick)
    handles = [Patch(color=c, alpha=0.5, label=k) for k, c in seen.items()]
    if flips:
        handles.append(
            Patch(
                facecolor="none",
                edgecolor=FLIP_COLOUR,
                linestyle="--",
                label="flip: outcome or ruling changes",
            )
        )
    ax.legend(
        handles=handles,
        title="deciding ruling",
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize=8,
        title_fontsize=8,
    )
    # the flips' labels are placed last, measured where the rest of the chart puts them
    ax.set_title(title, fontsize=10, pad=3 + _draw_flips(ax, xs, flips))
    return fig


def _dates() -> Any:
    """matplotlib's dates module (its functions carry no annotations), imported when a chart is
    drawn."""
    from matplotlib import dates

    return dates


def _positions(values: Sequence[Any]) -> tuple[list[float], str]:
    """Where each value goes on the x axis, and what kind of axis it is: dates (as
    matplotlib's day numbers), numbers, or a category (each value its place in order)."""
    if values and all(isinstance(v, date) for v in values):
        return [float(_dates().date2num(v)) for v in values], "date"
    if values and all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return [float(v) for v in values], "number"
    return [float(i) for i in range(len(values))], "category"


def _draw_bands(
    ax: Any, xs: Sequence[float], bands: Sequence[tuple[int, int, str | None]]
) -> dict[str, str]:
    """The background behind each run of variants, in the colour of their deciding ruling
    (reaching halfway to the neighbours); returns the rulings seen, in words, with their
    colours, for the legend."""
    seen: dict[str, str] = {}
    for start, count, ruling in bands:
        i, j = start, start + count - 1
        left = xs[i] - (_gap(xs, i, before=True) / 2)
        right = xs[j] + (_gap(xs, j, before=False) / 2)
        colour = ruling_colour(ruling)
        ax.axvspan(left, right, color=colour, alpha=0.35, linewidth=0)
        seen.setdefault(ruling_words(ruling), colour)
    return seen


def _draw_flips(ax: Any, xs: Sequence[float], flips: Sequence[tuple[int, str]]) -> float:
    """A dashed line where each flip falls, labelled above the plot; labels that would clash
    are stacked in rows (see :func:`_label_rows`), measured with the renderer once the chart
    is laid out. Returns how high the rows reach above the plot, in points."""
    notes = []
    for i, words in flips:
        at = (xs[i - 1] + xs[i]) / 2
        ax.axvline(at, color=FLIP_COLOUR, linestyle="--", linewidth=1.2, zorder=4, gid="flip")
        notes.append(
            ax.annotate(
                words,
                (at, 1.0),
                xycoords=("data", "axes fraction"),
                xytext=(0, 3),
                textcoords="offset points",
                ha="center",
                va="bottom",
                fontsize=8,
                color=FLIP_COLOUR,
                linespacing=1.1,
                gid="flip-label",
            )
        )
    if not notes:
        return 0.0
    fig = ax.get_figure()
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    boxes = [n.get_window_extent(renderer) for n in notes]
    rows = _label_rows([(box.x0, box.x1) for box in boxes])
    pt = 72 / fig.dpi
    heights = [0.0] * (max(rows) + 1)
    for row, box in zip(rows, boxes, strict=True):
        heights[row] = max(heights[row], box.height * pt + 2)
    for note, row in zip(notes, rows, strict=True):
        note.xyann = (0, 3 + sum(heights[:row]))
    return 3 + sum(heights)


def _format_x(
    ax: Any,
    values: Sequence[Any],
    xs: Sequence[float],
    kind: str,
    year: int | None,
    tick: Callable[[Any], str],
) -> None:
    """The x axis's reach (halfway beyond the first and last variants) and its ticks: dates
    without the year when the axis label carries it; a category's values written by ``tick``,
    at most about twenty of them."""
    if xs:
        ax.set_xlim(
            xs[0] - _gap(xs, 0, before=True) / 2,
            xs[-1] + _gap(xs, len(xs) - 1, before=False) / 2,
        )
    if kind == "date":
        locator = _dates().AutoDateLocator()
        ax.xaxis.set_major_locator(locator)
        formatter = _dates().ConciseDateFormatter(locator, show_offset=False)
        if year is None:  # the ticks carry the year when the axis label does not
            formatter.zero_formats = ["", "%Y", "%b %Y", "%d %b %Y", "%H:%M", "%H:%M"]
        else:
            formatter.zero_formats = ["", "%Y", "%b", "%d %b", "%H:%M", "%H:%M"]
        ax.xaxis.set_major_formatter(formatter)
    elif kind == "category":
        step = max(1, len(values) // 20)
        ax.set_xticks(xs[::step], [tick(v) for v in values[::step]], rotation=30)
