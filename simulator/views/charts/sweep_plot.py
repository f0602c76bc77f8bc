"""A sweep's chart: the outcome of each variant against the swept value, the background
banded by the kind of the deciding ruling."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from datetime import date
from typing import Any

from matplotlib import dates as mdates
from matplotlib.patches import Patch

from simulator.views.charts.figures import Chart
from simulator.views.markup import ruling_colour


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


def plot_sweep(
    values: Sequence[Any],
    outcomes: Sequence[str],
    bands: Sequence[tuple[int, int, str | None]],
    *,
    variable: str,
    title: str,
    tick: Callable[[Any], str] = str,
) -> Chart:
    """A sweep's chart: the outcome of each variant against its value (dates, numbers, or
    anything else in order), the background banded by the kind of the deciding ruling.

    ``bands`` are (first variant, number of variants, ruling kind or None); ``tick`` writes a
    value that is neither a date nor a number.
    """
    dates: Any = mdates  # its functions carry no annotations
    if values and all(isinstance(v, date) for v in values):
        xs = [float(dates.date2num(v)) for v in values]
        kind = "date"
    elif values and all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        xs = [float(v) for v in values]
        kind = "number"
    else:
        xs = [float(i) for i in range(len(values))]
        kind = "category"
    distinct = list(dict.fromkeys(outcomes))
    ys = [distinct.index(o) for o in outcomes]

    labels = [_tick_outcome(o) for o in distinct]
    rows = sum(0.25 + 0.17 * (label.count("\n") + 1) for label in labels)
    fig = Chart(figsize=(10, 1.6 + max(rows, 0.45)), layout="constrained")
    ax = fig.add_subplot()
    seen: dict[str, str] = {}
    for start, count, ruling in bands:
        i, j = start, start + count - 1
        left = xs[i] - (_gap(xs, i, before=True) / 2)
        right = xs[j] + (_gap(xs, j, before=False) / 2)
        colour = ruling_colour(ruling)
        ax.axvspan(left, right, color=colour, alpha=0.35, linewidth=0)
        seen.setdefault(ruling or "no ruling", colour)
    ax.plot(xs, ys, drawstyle="steps-mid", color="#222222", linewidth=1.2)
    ax.scatter(xs, ys, s=12, color="#222222", zorder=3)
    ax.set_yticks(range(len(distinct)), labels)
    ax.set_ylim(-0.6, max(len(distinct) - 0.4, 0.6))
    ax.set_xlabel(variable)
    ax.set_title(title, fontsize=10)
    if xs:
        ax.set_xlim(
            xs[0] - _gap(xs, 0, before=True) / 2,
            xs[-1] + _gap(xs, len(xs) - 1, before=False) / 2,
        )
    if kind == "date":
        locator = dates.AutoDateLocator()
        ax.xaxis.set_major_locator(locator)
        ax.xaxis.set_major_formatter(dates.ConciseDateFormatter(locator))
    elif kind == "category":
        step = max(1, len(values) // 20)
        ax.set_xticks(xs[::step], [tick(v) for v in values[::step]], rotation=30)
    ax.legend(
        handles=[Patch(color=c, alpha=0.5, label=k) for k, c in seen.items()],
        title="deciding ruling",
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize=8,
        title_fontsize=8,
    )
    return fig
