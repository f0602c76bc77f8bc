"""Timeline charts of a replay: one lane per contest, read only from a :class:`Result`.

Each lane shows the periods of a contest as coloured bands (the filing period, a reopened or
extended filing period, the window to request a runoff, the window for a tied candidate to
withdraw) with a hatched strip from the day the ballots were printed onward; the events of the
log as markers (deaths, withdrawals, requests, canvasses, ...); every deadline as a vertical tick
labelled with its citation, and a G.S. 103-5 move as an arrow from the day the statute names to
the day the office is next open. The outcome is written at the end of the lane.

Labels never pile up: each one goes in the first free tier above its tick (or below its marker);
a deadline label that finds no free tier is thinned to a number, and the number's note (with
the citation) is written under the chart. A deadline that several lanes share is labelled once,
in a header above the lanes.

Rendering uses matplotlib's object API (:class:`~matplotlib.figure.Figure` on an Agg canvas),
never ``pyplot``, so it needs no display. SVG output keeps text as text
(``svg.fonttype = "none"``): labels and citations can be searched in the file.

>>> from simulator.result import Result
>>> fig = plot_timeline(Result("Nothing yet", ()))
>>> [t.get_text() for t in fig.axes[0].texts]
['no contests']
"""

from __future__ import annotations

import io
import re
import textwrap
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta, tzinfo
from functools import cache
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo

import attrs
from matplotlib import dates as mdates
from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Patch, Rectangle
from matplotlib.textpath import text_to_path
from matplotlib.ticker import MultipleLocator
from matplotlib.transforms import blended_transform_factory

from simulator.errors import SimulatorError
from simulator.result import ContestResult, Result
from simulator.scenario import Scenario
from simulator.vocab import DeadlineKind, RulingKind, Stage

__all__ = ["Chart", "UnsupportedFormat", "figure_png", "figure_svg", "plot_timeline", "save_figure"]

# Layout, in inches (the y axis of the chart is measured in inches from the top of the lanes,
# so that stacking labels is exact arithmetic).
WIDTH = 13.0
LEFT = 2.3  # lane titles
RIGHT = 2.5  # outcomes
AXES_W = WIDTH - LEFT - RIGHT
TITLE_H = 0.55
LABEL_PT = 6.5
LINE_H = LABEL_PT * 1.22 / 72
BAND_H = 0.2
STRIP_H = 0.07
TICK_OUT = 0.06  # how far a deadline tick reaches beyond the band
LANE_PAD = 0.14
MAX_TIERS_ABOVE = 5
MAX_TIERS_BELOW = 3
HEADER_TIERS = 5
DPI = 110

# Periods: key -> (legend label, face colour, edge colour)
BANDS: dict[str, tuple[str, str, str]] = {
    "filing": ("filing period", "#a6cee3", "#1f78b4"),
    "filing_reopened": ("filing reopened", "#fdbf6f", "#e08214"),
    "filing_extended": ("filing extended", "#ffe48a", "#c9a300"),
    "runoff_request": ("runoff / second primary may be requested", "#cab2d6", "#6a3d9a"),
    "tie_withdrawal": ("tied candidate may withdraw", "#fb9a99", "#e31a1c"),
}
PRINTED = ("ballots printed (onward)", "#d9d9d9", "#737373")

# Events: kind -> (marker, colour, size, caption; "{name}" is the candidate or the winner)
MARKS: dict[str, tuple[str, str, float, str]] = {
    "candidate_filed": ("|", "#1f4e79", 7.0, ""),
    "candidate_withdrew": ("v", "#8c510a", 6.5, "{name} withdrew"),
    "candidate_died": ("X", "#111111", 7.0, "{name} died"),
    "candidate_disqualified": ("x", "#8c510a", 6.5, "{name} disqualified"),
    "filing_opened": (">", "#1f78b4", 5.5, "filing opened"),
    "filing_closed": ("<", "#1f78b4", 5.5, "filing closed"),
    "filing_extended": ("P", "#c9a300", 6.0, "filing extended"),
    "ballots_printed": ("s", "#525252", 5.5, "ballots printed"),
    "reprint_determined": ("p", "#525252", 6.0, "reprint determined"),
    "returns_reported": ("o", "#1b9e77", 4.0, ""),
    "votes_cast": ("o", "#1b9e77", 3.0, ""),
    "canvass_held": ("D", "#1b7837", 5.5, "canvass"),
    "recount_held": ("d", "#1b7837", 6.5, "recount"),
    "runoff_requested": ("^", "#6a3d9a", 6.5, "{name} requests runoff"),
    "lot_drawn": ("*", "#c51b7d", 9.0, "lot: {name}"),
    "oath_taken": ("h", "#1b7837", 6.0, "{name} takes oath"),
    "nominee_named": ("H", "#2166ac", 6.0, "{name} named"),
}
DEFAULT_MARK = ("o", "#7f7f7f", 4.0, "{kind}")
_NAME = re.compile(r"\b(?:candidate|winner)=(.+?)(?=\s\w+=|$)")

REQUEST_DEADLINES = (DeadlineKind.RUNOFF_REQUEST, DeadlineKind.SECOND_PRIMARY_REQUEST)


class UnsupportedFormat(SimulatorError, ValueError):
    """An output file whose extension names no format this writer knows."""


class Chart(Figure):
    """A matplotlib :class:`~matplotlib.figure.Figure` that shows itself in Jupyter.

    Every figure electsim returns (:func:`plot_timeline`, ``draw_graph``, ``Sweep.plot``) is a
    ``Chart``: a notebook cell that ends with one displays the picture, with no
    ``%matplotlib`` magic and no pyplot, the way pandas' and networkx's objects display
    themselves. ``display_as`` picks the picture Jupyter is given: ``"png"`` (the default,
    light and shown the same everywhere) or ``"svg"`` (text stays text).

    >>> fig = Chart(figsize=(2, 1))
    >>> fig._repr_png_()[:8] == b"\\x89PNG\\r\\n\\x1a\\n" and fig._repr_svg_() is None
    True
    >>> fig.display_as = "svg"
    >>> fig._repr_svg_().lstrip().startswith("<?xml") and fig._repr_png_() is None
    True
    """

    display_as: Literal["png", "svg"] = "png"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        FigureCanvasAgg(self)

    def _repr_png_(self) -> bytes | None:
        """The PNG Jupyter shows (None when ``display_as`` is ``"svg"``)."""
        return figure_png(self) if self.display_as == "png" else None

    def _repr_svg_(self) -> str | None:
        """The SVG Jupyter shows (None when ``display_as`` is ``"png"``)."""
        return figure_svg(self) if self.display_as == "svg" else None


# ------------------------------------------------------------------------------------------
# What a lane holds, in x units (matplotlib date numbers, or days from the election)
# ------------------------------------------------------------------------------------------


@attrs.frozen
class _Band:
    key: str
    start: float
    end: float


@attrs.frozen
class _Tick:
    x: float
    lines: tuple[str, ...]  # the label: the deadline's kind, then one citation a line
    moved_from: float | None
    all_day: bool

    @property
    def key(self) -> tuple[float, tuple[str, ...]]:
        return (round(self.x, 6), self.lines)


@attrs.frozen
class _Mark:
    x: float
    kind: str
    caption: str


@attrs.frozen
class _Lane:
    title: str
    subtitle: str
    outcome: str
    outcome_colour: str
    bands: tuple[_Band, ...]
    printed: float | None
    ticks: tuple[_Tick, ...]
    marks: tuple[_Mark, ...]
    as_of: float | None


@attrs.frozen
class _Label:
    """A text placed in a tier: ``tier`` counts away from its anchor, ``None`` is thinned."""

    x: float
    lines: tuple[str, ...]
    left: float
    right: float
    align: Literal["left", "right"]
    tier: int | None = None
    note: int = 0  # the number of its note under the chart, when thinned


# ------------------------------------------------------------------------------------------
# Reading a contest's result
# ------------------------------------------------------------------------------------------


def _reference_day(c: ContestResult) -> datetime | None:
    """The day a contest's "days from election" count from: its primary or election day."""
    order = (
        (DeadlineKind.PRIMARY_DAY, DeadlineKind.ELECTION_DAY)
        if c.stage == Stage.PRIMARY.value
        else (DeadlineKind.ELECTION_DAY, DeadlineKind.PRIMARY_DAY)
    )
    for kind in order:
        for d in c.deadlines:
            if d.kind is kind:
                return d.due
    return None


def _periods(c: ContestResult) -> list[tuple[str, datetime, datetime]]:
    """The contest's periods as (band key, start, end), from its deadlines and rulings."""
    out: list[tuple[str, datetime, datetime]] = []
    first = {d.kind: d for d in reversed(c.deadlines)}
    opens, closes = first.get(DeadlineKind.FILING_OPENS), first.get(DeadlineKind.FILING_CLOSES)
    if opens is not None and closes is not None:
        out.append(("filing", opens.due, closes.due))
    for r in c.rulings:
        if r.kind in (RulingKind.FILING_REOPENED, RulingKind.FILING_EXTENDED):
            start, end = r.get("opens"), r.get("closes")
            if isinstance(start, datetime) and isinstance(end, datetime):
                out.append((r.kind.value, start, end))
        elif r.kind is RulingKind.RUNOFF_AVAILABLE:
            due = [d.due for d in c.deadlines if d.kind in REQUEST_DEADLINES and d.due >= r.at]
            if due:
                out.append(("runoff_request", r.at, min(due)))
    for d in c.deadlines:
        if d.kind is DeadlineKind.TIE_WITHDRAWAL:
            before = [
                t.at
                for t in c.timeline
                if t.what == "event"
                and t.kind in ("canvass_held", "recount_held")
                and t.at <= d.due
            ]
            out.append(("tie_withdrawal", max(before, default=d.due - timedelta(days=1)), d.due))
    return list(dict.fromkeys(out))


def _caption(kind: str, label: str) -> str:
    template = MARKS.get(kind, DEFAULT_MARK)[3]
    found = _NAME.search(label)
    name = found.group(1).strip() if found else ""
    return template.format(name=name, kind=kind.replace("_", " ")).strip()


def _outcome(c: ContestResult) -> tuple[str, str]:
    """The outcome written at the end of a lane, and its colour."""
    o = c.outcome
    parts: list[str] = []

    def names(word: str, who: Sequence[str]) -> None:
        shown = ", ".join(who[:4]) + (f" +{len(who) - 4} more" if len(who) > 4 else "")
        parts.append(textwrap.fill(f"{word}: {shown}", 34, subsequent_indent="  "))

    if o.elected:
        names("elected", o.elected)
    if o.nominated:
        names("nominated", o.nominated)
    if o.vacant_seats:
        parts.append(f"vacant: {o.vacant_seats} seat{'s' if o.vacant_seats != 1 else ''}")
    if o.runoff_status.value in ("called", "available"):
        parts.append(f"runoff {o.runoff_status.value}")
    if o.pending is not None:
        parts.append(f"pending: {o.pending.value.replace('_', ' ')}")
    if not parts:
        parts.append(c.state.replace("_", " "))
    if o.pending is not None:
        colour = "#b35806"
    elif o.vacant_seats and not (o.elected or o.nominated):
        colour = "#b2182b"
    else:
        colour = "#1b7837"
    return "\n".join(parts), colour


def _lane(c: ContestResult, x: XFunc, as_of: datetime | None) -> _Lane:
    bands = tuple(_Band(k, x(s), x(e)) for k, s, e in _periods(c))
    printed = [t.at for t in c.timeline if t.what == "event" and t.kind == "ballots_printed"]
    ticks = []
    for d in c.deadlines:
        due = d.due + timedelta(hours=12) if d.all_day else d.due
        lines = (d.kind.value.replace("_", " "), *(str(cite) for cite in d.cites))
        moved = x(d.moved_from) if d.moved_from is not None else None
        ticks.append(_Tick(x(due), lines, moved, d.all_day))
    marks = tuple(
        _Mark(x(t.at), t.kind, _caption(t.kind, t.label)) for t in c.timeline if t.what == "event"
    )
    outcome, colour = _outcome(c)
    seats = f"{c.seats} seat{'s' if c.seats != 1 else ''}"
    return _Lane(
        title=textwrap.fill(c.title, 32, max_lines=2, placeholder=" ..."),
        subtitle=f"{c.id} | {c.method}, {c.stage}, {seats}",
        outcome=outcome,
        outcome_colour=colour,
        bands=bands,
        printed=x(min(printed)) if printed else None,
        ticks=tuple(ticks),
        marks=marks,
        as_of=x(as_of) if as_of is not None else None,
    )


# ------------------------------------------------------------------------------------------
# Placing labels
# ------------------------------------------------------------------------------------------


@cache
def _width_in(text: str) -> float:
    """Width of one line of label text, in inches."""
    w, _, _ = text_to_path.get_text_width_height_descent(
        text, FontProperties(size=LABEL_PT), ismath=False
    )
    return float(w) / 72 + 0.04


def _stack(labels: Sequence[_Label], max_tiers: int, xmin: float, xmax: float) -> list[_Label]:
    """Place each label, in order of its anchor, in the nearest tier where it overlaps no other,
    to the right of its anchor or else to its left; ``tier`` stays ``None`` when none is free."""
    tiers: list[list[tuple[float, float]]] = [[] for _ in range(max_tiers)]
    gap = (xmax - xmin) / AXES_W * 0.06
    out = []
    for lab in sorted(labels, key=lambda a: a.x):
        w = lab.right - lab.left
        sides: list[tuple[Literal["left", "right"], float, float]] = [
            ("left", lab.x, lab.x + w),
            ("right", lab.x - w, lab.x),
        ]
        inside = [side for side in sides if side[1] >= xmin and side[2] <= xmax] or sides[:1]
        placed = lab
        for tier, taken in enumerate(tiers):
            free = [s for s in inside if all(s[2] + gap < a or b + gap < s[1] for a, b in taken)]
            if free:
                align, left, right = free[0]
                taken.append((left, right))
                placed = attrs.evolve(lab, left=left, right=right, align=align, tier=tier)
                break
        out.append(placed)
    return out


def _label(x: float, lines: tuple[str, ...], per_inch: float) -> _Label:
    width = max(_width_in(line) for line in lines) * per_inch
    return _Label(x, lines, x, x + width, "left")


def _tick_labels(ticks: Iterable[_Tick], per_inch: float) -> list[_Label]:
    """One label per day and time: deadlines that fall together share a label."""
    together: dict[float, list[str]] = {}
    for t in ticks:
        together.setdefault(round(t.x, 6), []).extend(t.lines)
    return [_label(x, tuple(lines), per_inch) for x, lines in together.items()]


def _number(labels: Sequence[_Label], notes: list[str]) -> list[_Label]:
    """Give each thinned label the number of a note (appended to ``notes``) with its text."""
    out = []
    for lab in labels:
        if lab.tier is None:
            notes.append(f"[{len(notes) + 1}] " + ", ".join(lab.lines))
            lab = attrs.evolve(lab, note=len(notes))
        out.append(lab)
    return out


def _tier_heights(labels: Sequence[_Label]) -> list[float]:
    heights: dict[int, int] = {}
    for lab in labels:
        if lab.tier is not None:
            heights[lab.tier] = max(heights.get(lab.tier, 0), len(lab.lines))
    return [heights[i] * LINE_H + 0.05 for i in range(len(heights))]


# ------------------------------------------------------------------------------------------
# Drawing
# ------------------------------------------------------------------------------------------


XFunc = Callable[[datetime], float]


def _xfunc(result: Result, days_from_election: bool) -> tuple[list[XFunc], str]:
    """One function from time to x per lane, and the x axis label."""
    if not days_from_election:

        def to_num(t: datetime) -> float:
            # matplotlib.dates has no annotations; date2num gives days since its epoch.
            return float(mdates.date2num(t))  # type: ignore[no-untyped-call]

        return [to_num for _ in result.contests], ""
    refs = [_reference_day(c) for c in result.contests]
    fallback = next((r for r in refs if r is not None), None)
    if fallback is None and result.contests:
        raise SimulatorError(
            "days_from_election: expected an election_day or primary_day deadline in some "
            "contest; found none (draw the chart with dates instead)"
        )
    funcs: list[XFunc] = []
    for ref in refs:
        day = ref if ref is not None else fallback
        assert day is not None

        def to_days(t: datetime, day: datetime = day) -> float:
            return (t - day).total_seconds() / 86400

        funcs.append(to_days)
    return funcs, "days from election day (each lane from its own election or primary day)"


def _zone(result: Result, scenario: Scenario | None) -> tzinfo:
    if scenario is not None:
        return ZoneInfo(scenario.timezone)
    for c in result.contests:
        for d in c.deadlines:
            if d.due.tzinfo is not None:
                return d.due.tzinfo
    return ZoneInfo("UTC")


def _extent(lanes: Sequence[_Lane]) -> tuple[float, float]:
    xs: list[float] = []
    for lane in lanes:
        xs.extend(t.x for t in lane.ticks)
        xs.extend(t.moved_from for t in lane.ticks if t.moved_from is not None)
        xs.extend(m.x for m in lane.marks)
        for b in lane.bands:
            xs.extend((b.start, b.end))
        if lane.as_of is not None:
            xs.append(lane.as_of)
    if not xs:
        return 0.0, 1.0
    lo, hi = min(xs), max(xs)
    pad = max((hi - lo) * 0.015, 1.0)
    return lo - pad, hi + pad


def _draw_label(ax: Any, lab: _Label, y: float, va: str, colour: str = "#222222") -> None:
    ax.text(
        lab.x,
        y,
        "\n".join(lab.lines),
        ha=lab.align,
        va=va,
        fontsize=LABEL_PT,
        color=colour,
        linespacing=1.05,
        zorder=8,
        clip_on=False,
        # a light backing keeps the label legible where a guide or the as-of line crosses it
        bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.8, "pad": 0.3},
    )


def _dotted(
    ax: Any, x: float, y0: float, y1: float, *, colour: str = "#9e9e9e", zorder: int = 3
) -> None:
    """A dotted vertical guide: from a label to its tick, or from the header down the lanes."""
    ax.vlines(x, y0, y1, colors=colour, linewidth=0.5, linestyles=(0, (1, 1.5)), zorder=zorder)


def _draw_tiers(
    ax: Any, labels: Sequence[_Label], base: float, *, leader_to: float | None = None
) -> None:
    """Draw labels in tiers stacked up from ``base``; a label above the first tier gets a
    dotted leader down to ``leader_to`` (its tick), and a thinned one leaves its note number."""
    heights = _tier_heights(labels)
    for lab in labels:
        if lab.tier is None:
            ax.text(
                lab.x,
                base,
                f"[{lab.note}]",
                ha="center",
                va="bottom",
                fontsize=LABEL_PT,
                color="#555555",
                zorder=6,
            )
            continue
        y = base - sum(heights[: lab.tier])
        if lab.tier and leader_to is not None:
            _dotted(ax, lab.x, y, leader_to)
        _draw_label(ax, lab, y, "bottom")


def plot_timeline(
    result: Result,
    *,
    scenario: Scenario | None = None,
    out: str | Path | None = None,
    days_from_election: bool = False,
) -> Chart:
    """Draw a result's timeline, one lane per contest; save it to ``out`` (.png or .svg) if given.

    ``scenario`` (optional) gives the time zone of the date axis and the description in the
    title. With ``days_from_election`` the x axis counts days before and after each contest's
    election day (its primary day for a primary). Returns the figure.
    """
    with rc_context({"text.parse_math": False}):  # names and titles are plain text, never TeX
        fig = _timeline_figure(result, scenario, days_from_election)
    if out is not None:
        save_figure(fig, out)
    return fig


def _timeline_figure(result: Result, scenario: Scenario | None, days_from_election: bool) -> Chart:
    xfuncs, xlabel = _xfunc(result, days_from_election)
    lanes = [_lane(c, x, result.as_of) for c, x in zip(result.contests, xfuncs, strict=True)]
    x0, x1 = _extent(lanes)
    per_inch = (x1 - x0) / AXES_W

    # Deadlines shared by several lanes are labelled once, in the header.
    counts = Counter(t.key for lane in lanes for t in {t.key: t for t in lane.ticks}.values())
    shared = {k for k, n in counts.items() if n > 1}
    header_ticks = {t.key: t for lane in lanes for t in lane.ticks if t.key in shared}
    notes: list[str] = []
    header = _number(
        _stack(_tick_labels(header_ticks.values(), per_inch), HEADER_TIERS, x0, x1),
        notes,
    )
    header_h = sum(_tier_heights(header)) + 0.12 if header else 0.0
    placed: list[tuple[list[_Label], list[_Label], float]] = []
    for lane in lanes:
        above = _stack(
            _tick_labels((t for t in lane.ticks if t.key not in shared), per_inch),
            MAX_TIERS_ABOVE,
            x0,
            x1,
        )
        below = _stack(
            [_label(m.x, (m.caption,), per_inch) for m in lane.marks if m.caption],
            MAX_TIERS_BELOW,
            x0,
            x1,
        )
        body = sum(_tier_heights(above)) + TICK_OUT + BAND_H + STRIP_H + TICK_OUT
        body += sum(_tier_heights(below)) + LANE_PAD
        title_h = (lane.title.count("\n") + 2) * 0.16 + 0.1
        out_h = (lane.outcome.count("\n") + 1) * 0.14 + 0.1
        placed.append((_number(above, notes), below, max(body + 0.06, title_h, out_h, 0.75)))

    kinds = sorted({m.kind for lane in lanes for m in lane.marks})
    bands = [k for k in BANDS if any(b.key == k for lane in lanes for b in lane.bands)]
    legend_items = len(kinds) + len(bands) + 2 + any(lane.printed is not None for lane in lanes)
    notes_h = len(notes) * (LINE_H + 0.02) + 0.08
    legend_h = -(-legend_items // 5) * 0.19 + 0.08
    axis_h = 0.55 if days_from_election else 0.4
    axes_h = header_h + sum(h for _, _, h in placed) if lanes else 1.0
    bottom = notes_h + legend_h + axis_h
    height = TITLE_H + axes_h + bottom

    fig = Chart(figsize=(WIDTH, height), dpi=DPI)
    ax = fig.add_axes((LEFT / WIDTH, bottom / height, AXES_W / WIDTH, axes_h / height))
    ax.set_xlim(x0, x1)
    ax.set_ylim(axes_h, 0)
    ax.set_yticks([])
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    ax.grid(axis="x", color="#eeeeee", linewidth=0.6, zorder=0)
    ax.set_axisbelow(True)
    title = result.scenario + (
        f"  (as of {result.as_of.strftime('%Y-%m-%d %H:%M')})" if result.as_of else ""
    )
    fig.text(0.012, 1 - 0.3 / height, title, fontsize=12, weight="bold", va="center")
    if scenario is not None and scenario.description:
        desc = textwrap.shorten(" ".join(scenario.description.split()), 160)
        fig.text(0.012, 1 - 0.5 / height, desc, fontsize=7.5, color="#555555", va="center")
    if not lanes:
        ax.text(0.5, 0.5, "no contests", ha="center", va="center", transform=ax.transAxes)

    _draw_tiers(ax, header, header_h - 0.1)  # shared deadlines, labelled once
    right_of_axes = blended_transform_factory(ax.transAxes, ax.transData)
    top = header_h
    for lane, (above, below, lane_h) in zip(lanes, placed, strict=True):
        _draw_lane(ax, lane, above, below, top, lane_h, right_of_axes)
        top += lane_h
    for key, tick in header_ticks.items():
        rows = [i for i, lane in enumerate(lanes) if any(t.key == key for t in lane.ticks)]
        last = header_h + sum(h for _, _, h in placed[: rows[-1] + 1]) - LANE_PAD
        _dotted(ax, tick.x, header_h - 0.1, last, zorder=1)

    if days_from_election:
        ax.xaxis.set_major_locator(MultipleLocator(7 if x1 - x0 < 120 else 14))
        ax.set_xlabel(xlabel, fontsize=8)
        ax.axvline(0, color="#555555", linewidth=0.8, zorder=1)
    else:
        zone = _zone(result, scenario)
        # matplotlib.dates has no annotations (hence the ignores); ticks fall on local days.
        locator = mdates.AutoDateLocator(tz=zone, minticks=5, maxticks=14)  # type: ignore[no-untyped-call]
        formatter = mdates.ConciseDateFormatter(locator, tz=zone)  # type: ignore[no-untyped-call]
        formatter.offset_formats = ["", "%Y", "%Y", "%Y-%b", "%Y-%b-%d", "%Y-%b-%d"]
        ax.xaxis.set_major_locator(locator)
        ax.xaxis.set_major_formatter(formatter)
    ax.tick_params(axis="x", labelsize=7.5)

    handles: list[Any] = [
        Patch(facecolor=BANDS[k][1], edgecolor=BANDS[k][2], label=BANDS[k][0]) for k in bands
    ]
    if any(lane.printed is not None for lane in lanes):
        handles.append(
            Patch(facecolor=PRINTED[1], edgecolor=PRINTED[2], hatch="////", label=PRINTED[0])
        )
    for k in kinds:
        marker, colour, size, _ = MARKS.get(k, DEFAULT_MARK)
        handles.append(
            Line2D(
                [],
                [],
                marker=marker,
                color=colour,
                markersize=size,
                linestyle="none",
                label=k.replace("_", " "),
            )
        )
    handles.append(
        Line2D(
            [],
            [],
            color="#333333",
            marker="|",
            markersize=9,
            linestyle="none",
            label="deadline (labelled with its citation)",
        )
    )
    handles.append(Line2D([], [], color="#c0392b", linewidth=1, label="G.S. 103-5 move"))
    fig.legend(
        handles=handles,
        loc="upper left",
        ncol=5,
        fontsize=7,
        frameon=False,
        borderaxespad=0,
        bbox_to_anchor=(LEFT / WIDTH, (notes_h + legend_h) / height),
    )
    for i, note in enumerate(notes):
        fig.text(
            LEFT / WIDTH,
            (notes_h - 0.04 - (i + 1) * (LINE_H + 0.02)) / height,
            note,
            fontsize=LABEL_PT,
            color="#333333",
        )
    return fig


def _draw_lane(
    ax: Any,
    lane: _Lane,
    above: Sequence[_Label],
    below: Sequence[_Label],
    top: float,
    lane_h: float,
    right_of_axes: Any,
) -> None:
    """Draw one lane whose top edge is ``top`` (inches below the top of the axes)."""
    heights_above = _tier_heights(above)
    band_top = top + sum(heights_above) + TICK_OUT + 0.04
    band_mid = band_top + BAND_H / 2
    tick_top, tick_bottom = band_top - TICK_OUT, band_top + BAND_H + STRIP_H + TICK_OUT
    xmin, xmax = ax.get_xlim()
    ax.axhline(top + lane_h, color="#dddddd", linewidth=0.8, zorder=1)
    ax.add_patch(
        Rectangle(
            (xmin, band_top), xmax - xmin, BAND_H, facecolor="#f5f5f5", edgecolor="none", zorder=1
        )
    )

    for b in lane.bands:
        _, face, edge = BANDS[b.key]
        ax.add_patch(
            Rectangle(
                (b.start, band_top),
                b.end - b.start,
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
                (lane.printed, band_top + BAND_H),
                xmax - lane.printed,
                STRIP_H,
                facecolor=PRINTED[1],
                edgecolor=PRINTED[2],
                hatch="////",
                linewidth=0.5,
                zorder=2,
            )
        )

    for t in lane.ticks:
        ax.vlines(
            t.x,
            tick_top,
            tick_bottom,
            colors="#333333",
            linewidth=2.2 if t.all_day else 1.0,
            alpha=0.75 if t.all_day else 1.0,
            zorder=4,
        )
        if t.moved_from is not None:
            ax.vlines(
                t.moved_from,
                tick_top,
                tick_bottom,
                colors="#c0392b",
                linewidth=0.8,
                linestyles=(0, (2, 1.5)),
                zorder=4,
            )
            ax.add_patch(
                FancyArrowPatch(
                    (t.moved_from, band_mid),
                    (t.x, band_mid),
                    arrowstyle="-|>",
                    mutation_scale=7,
                    connectionstyle="arc3,rad=0.6",
                    color="#c0392b",
                    linewidth=1.0,
                    zorder=5,
                    shrinkA=0,
                    shrinkB=0,
                )
            )

    _draw_tiers(ax, above, band_top - TICK_OUT - 0.02, leader_to=tick_top)

    for m in lane.marks:
        marker, colour, size, _ = MARKS.get(m.kind, DEFAULT_MARK)
        ax.plot(
            [m.x],
            [band_mid],
            marker=marker,
            color=colour,
            markersize=size,
            markeredgecolor="white" if marker not in "|x" else colour,
            markeredgewidth=0.5 if marker not in "|x" else 1.2,
            linestyle="none",
            zorder=7,
        )
    y = tick_bottom + 0.03
    heights_below = _tier_heights(below)
    for lab in below:
        if lab.tier is None:
            continue
        ty = y + sum(heights_below[: lab.tier])
        if lab.tier:
            _dotted(ax, lab.x, band_mid, ty, colour="#bdbdbd")
        _draw_label(ax, lab, ty, "top", colour="#444444")

    if lane.as_of is not None:
        ax.vlines(
            lane.as_of,
            top + 0.03,
            top + lane_h - 0.03,
            colors="#d62728",
            linewidth=1.0,
            linestyles="--",
            zorder=6,
        )
        # the dashed line marks the moment; the chart's title says "as of" and when

    ax.text(
        -0.012,
        band_mid,
        lane.title,
        transform=right_of_axes,
        ha="right",
        va="bottom",
        fontsize=8.5,
        weight="bold",
        color="#222222",
        linespacing=1.1,
    )
    ax.text(
        -0.012,
        band_mid + 0.04,
        lane.subtitle,
        transform=right_of_axes,
        ha="right",
        va="top",
        fontsize=6.5,
        color="#666666",
    )
    ax.text(
        1.012,
        band_mid,
        lane.outcome,
        transform=right_of_axes,
        ha="left",
        va="center",
        fontsize=8,
        weight="bold",
        color=lane.outcome_colour,
        linespacing=1.2,
    )


# ------------------------------------------------------------------------------------------
# Output
# ------------------------------------------------------------------------------------------

_FORMATS = (".png", ".svg")


def save_figure(fig: Figure, out: str | Path, *, salt: str = "electsim") -> Path:
    """Write ``fig`` as PNG or SVG, chosen by the extension of ``out``.

    SVG keeps its text as text and is reproducible (no date; ids hashed with ``salt``).
    """
    path = Path(out)
    suffix = path.suffix.lower()
    if suffix not in _FORMATS:
        raise UnsupportedFormat(
            f"{path}: expected a file ending in {' or '.join(_FORMATS)}; found "
            f"{suffix or 'no extension'} (name the output e.g. chart.svg)"
        )
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": salt}):
        if suffix == ".svg":
            fig.savefig(path, format="svg", metadata={"Date": None})
        else:
            fig.savefig(path, format="png", dpi=fig.dpi)
    return path


def figure_png(fig: Figure, *, dpi: float | None = None) -> bytes:
    """The figure as PNG bytes, at ``dpi`` (the figure's own by default)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi or fig.dpi)
    return buf.getvalue()


def figure_svg(fig: Figure, *, salt: str = "electsim") -> str:
    """The figure as SVG text (text kept as text, no metadata), for inlining in HTML."""
    buf = io.StringIO()
    bare = {"Date": None, "Creator": None, "Format": None, "Type": None}
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": salt}):
        fig.savefig(buf, format="svg", metadata=bare)
    return buf.getvalue()
