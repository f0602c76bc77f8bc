"""Drawing one lane of a timeline and its labels: the bands, the strip of printed ballots,
the deadline ticks and G.S. 103-5 moves, the marks, the captions, the title and the outcome."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from simulator.views.charts.dimensions import (
    BAND_H,
    LABEL_PT,
    LANE_TITLE_PT,
    LINE_H,
    OUTCOME_PT,
    SPACING,
    STRIP_H,
    SUBTITLE_PT,
    TICK_OUT,
)
from simulator.views.charts.labels import INDENT, Label, label_height, labels_depth
from simulator.views.charts.lanes import Lane
from simulator.views.charts.styles import BANDS, MOVE_COLOUR, PRINTED, VOID_COLOUR, mark_style
from simulator.views.charts.text_measure import text_width
from simulator.views.charts.time_axis import Axis

if TYPE_CHECKING:
    pass


def _draw_label(ax: Any, lab: Label, y: float, va: str, colour: str = "#222222") -> None:
    ax.text(
        lab.left + INDENT if lab.align == "left" else lab.right - INDENT,
        y,
        "\n".join(lab.lines),
        ha=lab.align,
        va=va,
        fontsize=LABEL_PT,
        color=colour,
        linespacing=SPACING,
        zorder=8,
        clip_on=False,
        gid=f"label:{lab.key}" if lab.key else None,
        # a light backing keeps the label legible where a guide or the as-of line crosses it
        bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.8, "pad": 0.3},
    )


def draw_guide(
    ax: Any,
    x: float,
    y0: float,
    y1: float,
    *,
    colour: str = "#9e9e9e",
    zorder: int = 3,
    gid: str | None = None,
) -> None:
    """A dotted vertical guide: from the header down the lanes."""
    ax.vlines(
        x, y0, y1, colors=colour, linewidth=0.5, linestyles=(0, (1, 1.5)), zorder=zorder, gid=gid
    )


def _leader(ax: Any, lab: Label, y0: float, y1: float, mid: float) -> None:
    """A label's leader: down (or up) from its tick or mark at ``y0`` along the anchor to
    ``y1``, the label's near edge, then across at ``mid`` (the middle of its first line) when
    the label had to move sideways from its anchor. Drawn over other labels' light backing:
    a reader follows it from the label to what it names."""
    a = lab.anchor
    xs, ys = [a, a], [y0, y1]
    edge = lab.left if a < lab.left else lab.right if a > lab.right else None
    if edge is not None and abs(edge - a) > INDENT + 1e-6:
        xs, ys = [a, a, edge], [y0, mid, mid]
    ax.plot(
        xs,
        ys,
        color="#777777",
        linewidth=0.7,
        linestyle=(0, (1, 1.5)),
        zorder=9,
        solid_capstyle="butt",
        gid=f"leader:{lab.key}" if lab.key else None,
    )


def _draw_notes_marks(ax: Any, labels: Sequence[Label], y: float, va: str) -> None:
    """The note numbers of thinned labels, in one row at ``y``, nudged apart."""
    right = -1e9
    for lab in sorted((lab for lab in labels if lab.y is None), key=lambda a: a.x):
        text = f"[{lab.note}]"
        w = text_width(text)
        x = max(lab.x - w / 2, right + 0.04)
        right = x + w
        ax.text(x, y, text, ha="left", va=va, fontsize=LABEL_PT, color="#555555", zorder=6)


def draw_above(
    ax: Any, labels: Sequence[Label], base: float, *, leader_to: float | None = None
) -> None:
    """Draw labels stacked up from ``base``; a label moved away from its anchor gets a dotted
    leader down to ``leader_to`` (its tick); thinned ones leave their note numbers in a row
    above the rest."""
    reach = 0.0
    for lab in labels:
        if lab.y is None:
            continue
        y = base - lab.y
        reach = max(reach, lab.y + label_height(lab))
        if leader_to is not None and (lab.y or not lab.left - 1e-6 <= lab.anchor <= lab.right):
            _leader(ax, lab, leader_to, y, y - label_height(lab) + LINE_H / 2)
        _draw_label(ax, lab, y, "bottom")
    _draw_notes_marks(ax, labels, base - reach, "bottom")


def draw_lane(
    ax: Any,
    lane: Lane,
    axis: Axis,
    above: Sequence[Label],
    below: Sequence[Label],
    top: float,
    lane_h: float,
    *,
    spots: Sequence[float] | None = None,
    number: int = 0,
) -> None:
    """Draw one lane whose top edge is ``top`` (inches below the top of the axes); ``spots``
    are where its marks go (inches; by default at their moments), ``number`` its place, which
    names its artists (gid). From the top: the deadlines' labels, the ticks across the bands,
    the marks on them and their captions under them; the title at the left, the outcome at
    the right."""
    band_top = top + labels_depth(above) + TICK_OUT + 0.04
    tick_top, tick_bottom = band_top - TICK_OUT, band_top + BAND_H + STRIP_H + TICK_OUT
    ax.axhline(top + lane_h, color="#dddddd", linewidth=0.8, zorder=1)
    _draw_bands(ax, lane, axis, band_top)
    _draw_ticks(ax, lane, axis, tick_top, tick_bottom, number)
    draw_above(ax, above, band_top - TICK_OUT - 0.02, leader_to=tick_top)
    _draw_marks(ax, lane, axis, below, band_top + BAND_H / 2, tick_bottom, spots, number)
    if lane.as_of is not None:
        ax.vlines(
            axis.u(lane.as_of),
            top + 0.03,
            top + lane_h - 0.03,
            colors="#d62728",
            linewidth=1.0,
            linestyles="--",
            zorder=6,
        )
        # the dashed line marks the moment; the chart's title says "as of" and when
    _draw_sides(ax, lane, axis.width, top)


def _draw_bands(ax: Any, lane: Lane, axis: Axis, band_top: float) -> None:
    """The lane's grey track, its periods' bands on it, and the hatched strip under them from
    the day the ballots were printed."""
    from matplotlib.patches import Rectangle

    u = axis.u
    width = axis.width
    ax.add_patch(
        Rectangle((0, band_top), width, BAND_H, facecolor="#f5f5f5", edgecolor="none", zorder=1)
    )
    for b in lane.bands:
        _, face, edge = BANDS[b.key]
        ax.add_patch(
            Rectangle(
                (u(b.start), band_top),
                u(b.end) - u(b.start),
                BAND_H,
                facecolor=face,
                edgecolor=edge,
                linewidth=0.7,
                alpha=0.85,
                zorder=2,
            )
        )
    if lane.printed is not None:
        ax.add_patch(
            Rectangle(
                (u(lane.printed), band_top + BAND_H),
                width - u(lane.printed),
                STRIP_H,
                facecolor=PRINTED[1],
                edgecolor=PRINTED[2],
                hatch="////",
                linewidth=0.5,
                zorder=2,
            )
        )


def _draw_ticks(
    ax: Any, lane: Lane, axis: Axis, tick_top: float, tick_bottom: float, number: int
) -> None:
    """Each deadline as a tick across the bands; a G.S. 103-5 move as a red dashed tick where
    the statute put it and an arrow to where it went."""
    from matplotlib.patches import FancyArrowPatch

    u = axis.u
    for t in lane.ticks:
        ax.vlines(
            u(t.x),
            tick_top,
            tick_bottom,
            colors=VOID_COLOUR if t.void else "#333333",
            linewidth=1.6 if t.all_day else 0.9,
            alpha=0.6 if t.all_day else 0.9,
            linestyles=(0, (2, 2)) if t.void else "solid",
            zorder=4,
            gid=f"tick:{number}:{t.x:.6f}",
        )
        if t.moved_from is not None:
            ax.vlines(
                u(t.moved_from),
                tick_top,
                tick_bottom,
                colors=MOVE_COLOUR,
                linewidth=0.8,
                linestyles=(0, (2, 1.5)),
                zorder=4,
            )
            ax.add_patch(
                FancyArrowPatch(
                    (u(t.moved_from), tick_top),
                    (u(t.x), tick_top),
                    arrowstyle="-|>",
                    mutation_scale=7,
                    connectionstyle="arc3,rad=0.5",
                    color=MOVE_COLOUR,
                    linewidth=1.0,
                    zorder=5,
                    shrinkA=0,
                    shrinkB=0,
                )
            )


def _draw_marks(
    ax: Any,
    lane: Lane,
    axis: Axis,
    below: Sequence[Label],
    band_mid: float,
    tick_bottom: float,
    spots: Sequence[float] | None,
    number: int,
) -> None:
    """The events' marks along the middle of the band, and under the ticks their captions,
    each hanging from its mark, then the note numbers of the thinned ones."""
    xs = spots if spots is not None else [axis.u(m.x) for m in lane.marks]
    for i, (m, x) in enumerate(zip(lane.marks, xs, strict=True)):
        ax.plot(
            [x],
            [band_mid],
            linestyle="none",
            zorder=10,
            gid=f"mark:{number}:{i}:{m.x:.6f}",
            **mark_style(m.kind),
        )
    y = tick_bottom + 0.03
    for lab in below:
        if lab.y is None:
            continue
        ty = y + lab.y
        # every caption hangs from its mark (drawn over the leader's end) by a leader
        _leader(ax, lab, band_mid, ty, ty + LINE_H / 2)
        _draw_label(ax, lab, ty, "top", colour="#444444")
    _draw_notes_marks(
        ax,
        below,
        y + max((b.y + label_height(b) for b in below if b.y is not None), default=0),
        "top",
    )


def _draw_sides(ax: Any, lane: Lane, width: float, top: float) -> None:
    """The lane's title and subtitle at its left, its outcome at its right."""
    left_edge = -0.1
    ax.text(
        left_edge,
        top + 0.08,
        "\n".join(lane.title),
        ha="right",
        va="top",
        fontsize=LANE_TITLE_PT,
        weight="bold",
        color="#222222",
        linespacing=SPACING,
        clip_on=False,
    )
    ax.text(
        left_edge,
        top + 0.1 + len(lane.title) * LANE_TITLE_PT * SPACING / 72,
        "\n".join(lane.subtitle),
        ha="right",
        va="top",
        fontsize=SUBTITLE_PT,
        color="#666666",
        linespacing=SPACING,
        clip_on=False,
    )
    ax.text(
        width + 0.12,
        top + 0.08,
        "\n".join(lane.outcome),
        ha="left",
        va="top",
        fontsize=OUTCOME_PT,
        weight="bold",
        color=lane.outcome_colour,
        linespacing=SPACING,
        clip_on=False,
    )
