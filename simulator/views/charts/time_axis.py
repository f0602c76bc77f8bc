"""The time axis of a timeline: stretches where something happens and folds between them
(a piecewise map from x units to inches), its day and month labels, and its drawing."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta, tzinfo
from typing import Any

import attrs

from simulator.views.charts.dimensions import (
    FOLD_SHARE,
    GAP_DAYS,
    GAP_W,
    MIN_SPAN_W,
    SPAN_PAD,
    TICK_PT,
)
from simulator.views.charts.text_measure import text_width


@attrs.frozen
class Axis:
    """A piecewise-linear map from x units to inches along the time axis.

    ``pieces`` are (x0, x1, u0, u1), in order and touching; ``folds`` are the pieces that fold
    a stretch where nothing happens."""

    pieces: tuple[tuple[float, float, float, float], ...]
    folds: tuple[tuple[float, float, float, float], ...] = ()

    @property
    def width(self) -> float:
        return self.pieces[-1][3]

    @property
    def stretches(self) -> tuple[tuple[float, float, float, float], ...]:
        return tuple(p for p in self.pieces if p not in self.folds)

    def u(self, x: float) -> float:
        """Where ``x`` falls, in inches from the left of the axis."""
        for x0, x1, u0, u1 in self.pieces:
            if x <= x1 or (x0, x1, u0, u1) == self.pieces[-1]:
                if x < x0 and (x0, x1, u0, u1) != self.pieces[0]:
                    continue
                return u0 + (x - x0) * (u1 - u0) / (x1 - x0) if x1 > x0 else u0
        return 0.0


def axis_for(xs: Sequence[float], width: float, compress: bool | None) -> Axis:
    """The axis for things at ``xs``, ``width`` inches wide; stretches of more than
    :data:`GAP_DAYS` with nothing are folded when ``compress`` (or, when None, when they take
    :data:`FOLD_SHARE` of the span or more)."""
    if not xs:
        return Axis(((0.0, 1.0, 0.0, width),))
    points = sorted(set(xs))
    lo, hi = points[0], points[-1]
    pad = max((hi - lo) * 0.015, 1.0)
    whole = Axis(((lo - pad, hi + pad, 0.0, width),))
    spans: list[list[float]] = [[points[0], points[0]]]
    for p in points[1:]:
        if p - spans[-1][1] > GAP_DAYS:
            spans.append([p, p])
        else:
            spans[-1][1] = p
    if len(spans) == 1 or compress is False:
        return whole
    spans[0][0] -= pad
    spans[-1][1] += pad
    for a, b in itertools.pairwise(spans):
        a[1] += SPAN_PAD
        b[0] -= SPAN_PAD
    folded = sum(b[0] - a[1] for a, b in itertools.pairwise(spans))
    if compress is None and folded < FOLD_SHARE * (hi - lo + 2 * pad):
        return whole
    gap_w = min(GAP_W, width * 0.3 / (len(spans) - 1))
    room = width - gap_w * (len(spans) - 1)
    lengths = [s1 - s0 for s0, s1 in spans]
    widths = [room * n / sum(lengths) for n in lengths]
    short = [w < MIN_SPAN_W for w in widths]
    if any(short) and not all(short):
        spare = room - MIN_SPAN_W * sum(short)
        rest = sum(n for n, s in zip(lengths, short, strict=True) if not s)
        widths = [
            MIN_SPAN_W if s else spare * n / rest for n, s in zip(lengths, short, strict=True)
        ]
    pieces: list[tuple[float, float, float, float]] = []
    folds = []
    u = 0.0
    for k, ((s0, s1), w) in enumerate(zip(spans, widths, strict=True)):
        pieces.append((s0, s1, u, u + w))
        u += w
        if k + 1 < len(spans):
            fold = (s1, spans[k + 1][0], u, u + gap_w)
            pieces.append(fold)
            folds.append(fold)
            u += gap_w
    return Axis(tuple(pieces), tuple(folds))


@attrs.frozen
class _AxisLabel:
    u: float
    text: str
    rank: int  # lower ranks are kept first when labels would overlap
    size: float = TICK_PT


def _date_labels(axis: Axis, zone: tzinfo) -> list[_AxisLabel]:
    """Day ticks on each stretch; each month named where it starts or where a stretch begins,
    the year with the first month named and wherever it changes."""
    from matplotlib import dates as mdates

    out: list[_AxisLabel] = []
    for x0, x1, u0, u1 in axis.stretches:
        per_day = (u1 - u0) / max(x1 - x0, 1e-9)
        step = next((s for s in (1, 2, 7, 14) if s * per_day >= 0.42), 0)
        first_day = mdates.num2date(x0, tz=zone).date()  # type: ignore[no-untyped-call]
        last_day = mdates.num2date(x1, tz=zone).date()  # type: ignore[no-untyped-call]
        clear = u0 + (0.3 if u0 > 0 else 0.0)  # clear of the fold's label before it
        day = first_day
        first = True
        while day <= last_day:
            at = datetime(day.year, day.month, day.day, 12, tzinfo=zone)
            x = float(mdates.date2num(at))  # type: ignore[no-untyped-call]
            if x0 <= x <= x1 and axis.u(x) >= clear:
                if day.day == 1:
                    out.append(_AxisLabel(axis.u(x), day.strftime("%b"), 0))
                elif first:
                    out.append(_AxisLabel(axis.u(x), f"{day:%b} {day.day}", 1))
                elif step and (day.day - 1) % step == 0 and day.day < 28:
                    out.append(_AxisLabel(axis.u(x), str(day.day), 2))
                first = False
            day += timedelta(days=1)
    return out


def _day_labels(axis: Axis) -> list[_AxisLabel]:
    out = []
    for x0, x1, u0, u1 in axis.stretches:
        per_day = (u1 - u0) / max(x1 - x0, 1e-9)
        step = next((s for s in (1, 2, 7, 14, 28, 56) if s * per_day >= 0.4), 112)
        n = math.ceil(x0 / step) * step
        while n <= x1:
            out.append(_AxisLabel(axis.u(n + 0.5), f"{n:+d}" if n else "0", 0 if n == 0 else 2))
            n += step
        out.append(_AxisLabel(axis.u(x0 + 0.5), f"{math.ceil(x0):+d}", 1))
    return out


def _keep(labels: Iterable[_AxisLabel], lo: float, hi: float) -> list[_AxisLabel]:
    """The labels that fit, by rank then from the left: none overlaps another or leaves
    [lo, hi]."""
    kept: list[tuple[float, float, _AxisLabel]] = []
    for lab in sorted(labels, key=lambda a: (a.rank, a.u)):
        w = text_width(lab.text, lab.size)
        a, b = lab.u - w / 2, lab.u + w / 2
        if a < lo or b > hi:
            continue
        if all(b + 0.06 < c or d + 0.06 < a for c, d, _ in kept):
            kept.append((a, b, lab))
    return [lab for _, _, lab in sorted(kept, key=lambda k: k[0])]


def _with_years(labels: list[_AxisLabel], axis: Axis, zone: tzinfo) -> list[_AxisLabel]:
    """The first named month of the chart, and of each new year, carries its year."""
    from matplotlib import dates as mdates

    out = []
    year = None
    for lab in labels:
        if lab.rank in (0, 1) and not lab.text[0].isdigit():
            x = _x_of_u(axis, lab.u)
            y = mdates.num2date(x, tz=zone).year  # type: ignore[no-untyped-call]
            if y != year:
                lab = attrs.evolve(lab, text=f"{lab.text} {y}")
                year = y
        out.append(lab)
    return out


def _x_of_u(axis: Axis, u: float) -> float:
    for x0, x1, u0, u1 in axis.pieces:
        if u0 <= u <= u1 and u1 > u0:
            return x0 + (u - u0) * (x1 - x0) / (u1 - u0)
    return axis.pieces[0][0]


def draw_axis(ax: Any, axis: Axis, axes_h: float, zone: tzinfo, days: bool, xlabel: str) -> None:
    """The time axis: ticks and labels drawn as texts (so that they are measured like every
    other label), each fold shaded down the lanes and marked with its length in days."""
    from matplotlib.patches import Rectangle

    labels = _day_labels(axis) if days else _date_labels(axis, zone)
    folds = [
        _AxisLabel((u0 + u1) / 2, f"{round(x1 - x0)} d", -1, 6.0) for x0, x1, u0, u1 in axis.folds
    ]
    kept = _keep([*folds, *labels], -0.3, axis.width + 0.3)
    if not days:
        kept = _with_years(kept, axis, zone)
        kept = _keep(kept, -0.3, axis.width + 0.3)
    for lab in kept:
        if lab.rank >= 0:
            ax.vlines(lab.u, axes_h, axes_h + 0.05, colors="#555555", linewidth=0.7, clip_on=False)
            ax.vlines(lab.u, 0, axes_h, colors="#eeeeee", linewidth=0.6, zorder=0)
        ax.text(
            lab.u,
            axes_h + 0.08,
            lab.text,
            ha="center",
            va="top",
            fontsize=lab.size,
            color="#333333" if lab.rank >= 0 else "#777777",
            clip_on=False,
        )
    for _, _, u0, u1 in axis.folds:
        ax.add_patch(
            Rectangle(
                (u0, 0),
                u1 - u0,
                axes_h,
                facecolor="#f7f7f7",
                edgecolor="#cccccc",
                linestyle=(0, (2, 2)),
                linewidth=0.5,
                zorder=0.5,
            )
        )
        for u in (u0, u1):
            ax.plot(
                [u - 0.03, u + 0.03],
                [axes_h - 0.05, axes_h + 0.05],
                color="#555555",
                lw=0.8,
                clip_on=False,
                zorder=9,
            )
    if days:
        ax.vlines(axis.u(0.5), 0, axes_h, colors="#555555", linewidth=0.8, zorder=1)
        ax.text(
            axis.width / 2,
            axes_h + 0.3,
            xlabel,
            ha="center",
            va="top",
            fontsize=8,
            color="#333333",
        )
    ax.set_xlabel(xlabel)
    ax.xaxis.label.set_visible(False)
