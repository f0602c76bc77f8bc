"""Placing a timeline's labels: each as near its anchor as it can go without overlapping
another, else thinned to a numbered note written under the chart."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

import attrs

from simulator.views.charts.dimensions import LINE_H
from simulator.views.charts.lanes import DeadlineTick
from simulator.views.charts.text_measure import text_width
from simulator.views.charts.time_axis import Axis


@attrs.frozen
class Label:
    """A text placed ``y`` inches away from its anchor (``None``: thinned to a note).
    ``x``, ``left`` and ``right`` are in inches from the left of the time axis; ``anchor`` is
    where its tick or mark is, which its leader reaches. Labels of a lower ``rank`` are placed
    first, nearest their anchors (an event's caption before a round's votes); ``key`` names the
    mark or tick it belongs to (the artists' gid, which tests read)."""

    x: float
    lines: tuple[str, ...]
    left: float
    right: float
    align: Literal["left", "right"]
    y: float | None = None
    note: int = 0  # the number of its note under the chart, when thinned
    anchor: float = 0.0
    rank: int = 0
    key: str = ""


def label_height(lab: Label) -> float:
    """How tall a label is, in inches: its lines and a little room."""
    return len(lab.lines) * LINE_H + 0.05


def stack_labels(labels: Sequence[Label], depth: float, xmin: float, xmax: float) -> list[Label]:
    """Place each label, in order of its anchor, as near its anchor as it can go without
    overlapping another, to the right of its anchor or else to its left, no deeper than
    ``depth`` inches; ``y`` stays ``None`` when it finds no room."""
    taken: list[tuple[float, float, float, float]] = []  # left, right, y, y + height
    gap = 0.06
    out = []
    for lab in sorted(labels, key=lambda a: (a.rank, a.x)):
        w, h = lab.right - lab.left, label_height(lab)
        sides: list[tuple[Literal["left", "right"], float, float]] = [
            ("left", lab.x, lab.x + w),
            ("right", lab.x - w, lab.x),
        ]
        inside = [side for side in sides if side[1] >= xmin and side[2] <= xmax]
        if not inside:  # wider than the room on either side: keep it inside the axis
            inside = [("left", xmin, xmin + w)] if lab.x - xmin < xmax - lab.x else []
            inside = inside or [("right", xmax - w, xmax)]
        best: tuple[float, Literal["left", "right"], float, float] | None = None
        for align, left, right in inside:
            near = [t for t in taken if left < t[1] + gap and t[0] < right + gap]
            for y in sorted({0.0, *(t[3] + 0.02 for t in near)}):
                if y + h > depth + 1e-9:
                    break
                if all(y + h <= t[2] or t[3] + 0.02 <= y for t in near):
                    if best is None or y < best[0]:
                        best = (y, align, left, right)
                    break
        placed = lab
        if best is not None:
            y, align, left, right = best
            taken.append((left, right, y, y + h))
            x = left if align == "left" else right
            placed = attrs.evolve(lab, x=x, left=left, right=right, align=align, y=y)
        out.append(placed)
    return out


#: The gap between a label and its anchor: its leader runs down it, clear of the text.
INDENT = 0.05


def label_at(u: float, lines: tuple[str, ...], *, rank: int = 0, key: str = "") -> Label:
    """A label of ``lines`` anchored ``u`` inches along the axis, not yet placed: to the right
    of its anchor, as wide as its widest line."""
    width = max(text_width(line) for line in lines) + INDENT
    return Label(u, lines, u, u + width, "left", anchor=u, rank=rank, key=key)


def tick_labels(ticks: Iterable[DeadlineTick], axis: Axis, lane: int | str = "") -> list[Label]:
    """One label per day and time: deadlines that fall together share a label."""
    together: dict[float, list[str]] = {}
    for t in ticks:
        together.setdefault(round(t.x, 6), []).extend(t.lines)
    return [
        label_at(axis.u(x), tuple(dict.fromkeys(lines)), key=f"tick:{lane}:{x:.6f}")
        for x, lines in together.items()
    ]


def number_thinned(labels: Sequence[Label], notes: list[str]) -> list[Label]:
    """Give each thinned label the number of a note (appended to ``notes``) with its text."""
    out = []
    for lab in labels:
        if lab.y is None:
            notes.append(f"[{len(notes) + 1}] " + ", ".join(lab.lines))
            lab = attrs.evolve(lab, note=len(notes))
        out.append(lab)
    return out


def labels_depth(labels: Sequence[Label]) -> float:
    """How far placed labels reach from their anchors, and a row for thinned ones' numbers."""
    reach = max((lab.y + label_height(lab) for lab in labels if lab.y is not None), default=0.0)
    return reach + (LINE_H + 0.04 if any(lab.y is None for lab in labels) else 0.0)
