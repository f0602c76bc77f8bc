"""The timeline chart of a replay (:func:`plot_timeline`): its lanes laid out on one time
axis, with the header of shared deadlines, the title, the legend and the notes."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from simulator.engine.result import ContestResult, Result
from simulator.law.vocab import Stage
from simulator.model.errors import SimulatorError
from simulator.model.events import Event
from simulator.model.scenario import Scenario
from simulator.views.charts.dimensions import (
    ABOVE_DEPTH,
    BAND_H,
    BELOW_DEPTH,
    DESC_PT,
    DPI,
    HEADER_DEPTH,
    LABEL_PT,
    LANE_PAD,
    LANE_TITLE_PT,
    LEGEND_PT,
    LINE_H,
    MARGIN,
    OUTCOME_PT,
    SPACING,
    STRIP_H,
    SUBTITLE_PT,
    TICK_OUT,
    TITLE_PT,
    WIDTH_PX,
)
from simulator.views.charts.labels import (
    Label,
    label_at,
    labels_depth,
    number_thinned,
    stack_labels,
    tick_labels,
)
from simulator.views.charts.lane_drawing import draw_above, draw_guide, draw_lane
from simulator.views.charts.lanes import (
    DeadlineTick,
    Lane,
    LaneMark,
    XFunc,
    clip_lane,
    lane_of,
    lane_xs,
    outcome_lines,
    reference_day,
)
from simulator.views.charts.styles import (
    BANDS,
    MOVE_COLOUR,
    PRINTED,
    VOID_COLOUR,
    mark_of,
    mark_style,
    marks,
)
from simulator.views.charts.text_measure import LAYOUT_DPI, shown_name, text_width, wrap_text
from simulator.views.charts.time_axis import Axis, axis_for, draw_axis

if TYPE_CHECKING:
    from simulator.views.charts.figures import Chart

#: The tallest timeline drawn: 2^15 - 1 pixels, past which browsers and image viewers refuse to
#: open a picture (a lane takes about 85 pixels at 110 dpi: some 380 contests).
MAX_HEIGHT_PX = 32_767


_PATH = re.compile(r"(?:\.\.?/|/)?(?:[\w.-]+/)+([\w.-]+)")


def _plain(description: str) -> str:
    """A description for the chart: one paragraph, a file path shortened to its file name."""
    return _PATH.sub(r"\1", " ".join(description.split()))


def _to_num(t: datetime) -> float:
    # matplotlib.dates has no annotations; date2num gives days since its epoch.
    from matplotlib import dates as mdates

    return float(mdates.date2num(t))  # type: ignore[no-untyped-call]


def _xfunc(result: Result, days_from_election: bool) -> tuple[list[XFunc], str]:
    """One function from time to x per lane, and the x axis label."""
    if not days_from_election:
        return [_to_num for _ in result.contests], ""
    refs = [reference_day(c) for c in result.contests]
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


def plot_timeline(
    result: Result,
    *,
    scenario: Scenario | None = None,
    out: str | Path | None = None,
    days_from_election: bool = False,
    compress: bool | None = None,
    start: datetime | None = None,
    end: datetime | None = None,
    title: str | None = None,
    width: int = WIDTH_PX,
    dpi: int = DPI,
) -> Chart:
    """Draw a result's timeline, one lane per contest; save it to ``out`` (.png or .svg) if given.

    ``scenario`` (optional) gives the time zone of the date axis and the description under the
    title. With ``days_from_election`` the x axis counts days before and after each contest's
    election day (its primary day for a primary). ``compress`` folds the stretches where nothing
    happens (None: when they take a third of the span or more). ``start`` and ``end`` keep only
    what falls between them; ``title`` replaces the scenario's title; ``width`` (pixels) and
    ``dpi`` size the picture (text keeps its size in points). Returns the figure.
    """
    from matplotlib import rc_context

    from simulator.views.charts.figures import save_figure

    # (text keeps its size in points: a canvas under 6 inches across cannot hold the lanes'
    # labels without overlaps, and a dpi in the thousands only makes drawing take forever)
    inches = width / dpi if dpi > 0 else 0.0
    if not (400 <= width <= 20_000 and 20 <= dpi <= 600 and inches >= 6):
        raise SimulatorError(
            "chart size: expected a width of 400 to 20,000 pixels and a dpi of 20 to 600, "
            f"at least 6 inches across (width / dpi); found width {width}, dpi {dpi} "
            f"({inches:.3g} inches)"
        )
    if start is not None and end is not None and not start < end:
        raise SimulatorError(
            "chart window: expected its start before its end; "
            f"found from {start.isoformat()} to {end.isoformat()}"
        )
    laying_out = LAYOUT_DPI.set(dpi)  # (text is measured as it is drawn at this dpi)
    try:
        with rc_context({"text.parse_math": False}):  # names and titles are plain text
            fig = _timeline_figure(
                result,
                scenario,
                days_from_election=days_from_election,
                compress=compress,
                start=start,
                end=end,
                title=title,
                width=width / dpi,
                dpi=dpi,
            )
    finally:
        LAYOUT_DPI.reset(laying_out)
    if out is not None:
        save_figure(fig, out)
    return fig


def _timeline_figure(
    result: Result,
    scenario: Scenario | None,
    *,
    days_from_election: bool,
    compress: bool | None,
    start: datetime | None,
    end: datetime | None,
    title: str | None,
    width: float,
    dpi: int,
) -> Chart:
    """The timeline, laid out then drawn: the lanes and their axis, every label placed (the
    notes of thinned ones numbered in the order they are drawn: the header's, then each lane's
    from the top), the legend, the title, the height; then the figure."""
    from simulator.views.charts.figures import Chart

    zone = _zone(result, scenario)
    left_w = min(max(width * 0.17, 1.5), 2.4)
    right_w = _outcome_width(result, zone, min(max(width * 0.19, 1.7), 2.7), width * 0.36)
    axes_w = width - left_w - right_w - MARGIN
    xfuncs, xlabel = _xfunc(result, days_from_election)
    lanes = _lanes(result, scenario, xfuncs, zone, left_w, right_w, start=start, end=end)
    xs = [x for lane in lanes for x in lane_xs(lane)]
    xs += [x(t) for t in (start, end) if t is not None for x in xfuncs[:1]]
    axis = axis_for(xs, axes_w, compress)

    header_ticks = _shared_ticks(lanes)
    notes: list[str] = []
    header = number_thinned(
        stack_labels(tick_labels(header_ticks.values(), axis), HEADER_DEPTH, 0, axes_w), notes
    )
    header_h = labels_depth(header)
    header_h += 0.12 if header else 0.0
    spots = [_spread(lane.marks, axis) for lane in lanes]
    placed = [
        _place_labels(lane, n, axis, axes_w, spots[n], set(header_ticks), notes)
        for n, lane in enumerate(lanes)
    ]

    handles = _legend_handles(lanes, axis)
    label_w = max((text_width(h.get_label(), LEGEND_PT) for h in handles), default=1.0) + 0.45
    ncol = max(1, min(len(handles), int((width - 2 * MARGIN) // label_w)))
    legend_h = math.ceil(len(handles) / ncol) * LEGEND_PT * 1.7 / 72 + 0.08 if handles else 0

    title_lines, desc_lines = _title(result, scenario, title, zone, width)
    title_h = MARGIN + len(title_lines) * TITLE_PT * SPACING / 72
    title_h += len(desc_lines) * DESC_PT * SPACING / 72 + 0.15
    notes_lines = [
        line
        for note in notes
        for line in wrap_text(note, width - 2 * MARGIN, LABEL_PT, indent="   ")
    ]
    notes_h = len(notes_lines) * LINE_H + 0.1 if notes_lines else 0.0
    axis_h = 0.42 + (0.16 if days_from_election else 0.0)
    axes_h = header_h + sum(h for _, _, h in placed) if lanes else 1.0
    bottom = MARGIN + notes_h + legend_h + axis_h
    height = title_h + axes_h + bottom
    _check_height(height, dpi, len(lanes))

    fig = Chart(figsize=(width, height), dpi=dpi)
    ax = fig.add_axes((left_w / width, bottom / height, axes_w / width, axes_h / height))
    ax.set_xlim(0, axes_w)
    ax.set_ylim(axes_h, 0)
    ax.set_yticks([])
    ax.set_xticks([])
    for spine in ("left", "right", "top"):
        ax.spines[spine].set_visible(False)
    _draw_title(fig, title_lines, desc_lines, width, height)
    if not lanes:
        ax.text(0.5, 0.5, "no contests", ha="center", va="center", transform=ax.transAxes)

    if lanes:
        draw_axis(ax, axis, axes_h, zone, days_from_election, xlabel)
    _draw_lanes(ax, lanes, axis, header, header_h, header_ticks, placed, spots)

    if handles:
        fig.legend(
            handles=handles,
            loc="upper left",
            ncol=ncol,
            fontsize=LEGEND_PT,
            frameon=False,
            borderaxespad=0,
            handletextpad=0.4,
            columnspacing=1.0,
            bbox_to_anchor=(MARGIN / width, (MARGIN + notes_h + legend_h) / height),
        )
    if notes_lines:
        fig.text(
            MARGIN / width,
            (MARGIN + notes_h - 0.04) / height,
            "\n".join(notes_lines),
            fontsize=LABEL_PT,
            color="#333333",
            va="top",
            linespacing=SPACING,
        )
    fig.x_of = _locator(axis, xfuncs)
    return fig


def _lanes(
    result: Result,
    scenario: Scenario | None,
    xfuncs: Sequence[XFunc],
    zone: tzinfo,
    left_w: float,
    right_w: float,
    *,
    start: datetime | None,
    end: datetime | None,
) -> list[Lane]:
    """Each contest's lane, with what falls outside ``start``..``end`` left out."""
    events = _events_of(scenario)
    lanes = [
        lane_of(
            c,
            x,
            result.as_of,
            zone,
            left_w,
            right_w,
            events=events,
            carried=_carried(result, c),
        )
        for c, x in zip(result.contests, xfuncs, strict=True)
    ]
    if start is not None or end is not None:
        lanes = [
            clip_lane(
                lane,
                x(start) if start is not None else None,
                x(end) if end is not None else None,
            )
            for lane, x in zip(lanes, xfuncs, strict=True)
        ]
    return lanes


def _shared_ticks(lanes: Sequence[Lane]) -> dict[tuple[float, tuple[str, ...]], DeadlineTick]:
    """The deadlines several lanes share, by key: they are labelled once, in the header."""
    counts = Counter(t.key for lane in lanes for t in {t.key: t for t in lane.ticks}.values())
    shared = {k for k, n in counts.items() if n > 1}
    return {t.key: t for lane in lanes for t in lane.ticks if t.key in shared}


def _place_labels(
    lane: Lane,
    n: int,
    axis: Axis,
    axes_w: float,
    spots: Sequence[float],
    shared: set[tuple[float, tuple[str, ...]]],
    notes: list[str],
) -> tuple[list[Label], list[Label], float]:
    """The ``n``-th lane's labels placed: its own deadlines' above the band, its marks'
    captions and its votes below (each thinned one's note appended to ``notes``); and the
    lane's height, which holds them and its title and outcome beside."""
    above = number_thinned(
        stack_labels(
            tick_labels((t for t in lane.ticks if t.key not in shared), axis, n),
            ABOVE_DEPTH,
            0,
            axes_w,
        ),
        notes,
    )
    # (a caption or a line of votes wider than the axis is wrapped to it: a long name
    # would reach over the lane's title); an event's caption that only repeats its
    # deadline's label (a canvass held on the canvass day) is left to the deadline's
    captions = [
        label_at(
            spot,
            wrap_text(m.caption, axes_w, LABEL_PT, indent="  "),
            key=f"mark:{n}:{i}:{m.x:.6f}",
        )
        for i, (m, spot) in enumerate(zip(lane.marks, spots, strict=True))
        if m.caption and not any(abs(t.x - m.x) < 1 and t.lines[0] == m.caption for t in lane.ticks)
    ]
    captions += [
        label_at(
            axis.u(x),
            tuple(
                part for line in lines for part in wrap_text(line, axes_w, LABEL_PT, indent="  ")
            ),
            rank=1,
            key=f"votes:{n}:{i}:{x:.6f}",
        )
        for i, (x, lines) in enumerate(lane.votes)
    ]
    below = number_thinned(stack_labels(captions, BELOW_DEPTH, 0, axes_w), notes)
    body = labels_depth(above) + TICK_OUT + 0.04 + BAND_H + STRIP_H + TICK_OUT + 0.03
    body += labels_depth(below) + LANE_PAD
    side = max(
        len(lane.title) * LANE_TITLE_PT * SPACING / 72
        + len(lane.subtitle) * SUBTITLE_PT * SPACING / 72,
        len(lane.outcome) * OUTCOME_PT * SPACING / 72,
    )
    return above, below, max(body, side + 0.2, 0.75)


def _draw_lanes(
    ax: Any,
    lanes: Sequence[Lane],
    axis: Axis,
    header: Sequence[Label],
    header_h: float,
    header_ticks: dict[tuple[float, tuple[str, ...]], DeadlineTick],
    placed: Sequence[tuple[list[Label], list[Label], float]],
    spots: Sequence[Sequence[float]],
) -> None:
    """The header's labels, each lane under it with its placed labels, and a guide from each
    shared deadline's label down to the last lane that has it."""
    # shared deadlines, labelled once, each tied to the guide that runs down the lanes
    draw_above(ax, header, header_h - 0.1, leader_to=header_h - 0.1)
    top = header_h
    for n, (lane, (above, below, lane_h)) in enumerate(zip(lanes, placed, strict=True)):
        draw_lane(ax, lane, axis, above, below, top, lane_h, spots=spots[n], number=n)
        top += lane_h
    for key, tick in header_ticks.items():
        rows = [i for i, lane in enumerate(lanes) if any(t.key == key for t in lane.ticks)]
        last = header_h + sum(h for _, _, h in placed[: rows[-1] + 1]) - LANE_PAD
        draw_guide(ax, axis.u(tick.x), header_h - 0.1, last, zorder=1, gid=f"tick::{tick.x:.6f}")


def _legend_handles(lanes: Sequence[Lane], axis: Axis) -> list[Any]:
    """The legend's entries: what is drawn, and only that."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    kinds = list(dict.fromkeys(m.kind for lane in lanes for m in lane.marks))
    order = list(marks())
    kinds.sort(key=lambda k: order.index(k) if k in order else len(order))
    bands = [k for k in BANDS if any(b.key == k for lane in lanes for b in lane.bands)]
    handles: list[Any] = [
        Patch(facecolor=BANDS[k][1], edgecolor=BANDS[k][2], label=BANDS[k][0]) for k in bands
    ]
    if any(lane.printed is not None for lane in lanes):
        handles.append(
            Patch(facecolor=PRINTED[1], edgecolor=PRINTED[2], hatch="////", label=PRINTED[0])
        )
    for k in kinds:
        handles.append(Line2D([], [], linestyle="none", label=_kind_words(k), **mark_style(k)))
    if any(lane.ticks for lane in lanes):
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
    if any(t.void for lane in lanes for t in lane.ticks):
        handles.append(
            Line2D(
                [],
                [],
                color=VOID_COLOUR,
                linestyle=(0, (2, 2)),
                linewidth=1,
                label="deadline that no longer applies",
            )
        )
    if any(t.moved_from is not None for lane in lanes for t in lane.ticks):
        handles.append(Line2D([], [], color=MOVE_COLOUR, linewidth=1, label="G.S. 103-5 move"))
    if axis.folds:
        handles.append(
            Patch(
                facecolor="#f7f7f7",
                edgecolor="#cccccc",
                linestyle=(0, (2, 2)),
                label="days folded: nothing happens",
            )
        )
    if any(lane.votes for lane in lanes):
        handles.append(Line2D([], [], linestyle="none", label="*: elected or nominated"))
    return handles


def _title(
    result: Result, scenario: Scenario | None, title: str | None, zone: tzinfo, width: float
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The title's lines (``title``, else the scenario's, with the moment of an as-of replay)
    and the description's, wrapped to a figure ``width`` inches wide."""
    title_text = title if title is not None else result.scenario
    if result.as_of is not None:
        title_text += f"  (as of {result.as_of.astimezone(zone).strftime('%Y-%m-%d %H:%M')})"
    title_lines = wrap_text(title_text, width - 2 * MARGIN, TITLE_PT, bold=True)
    desc_lines: tuple[str, ...] = ()
    if scenario is not None and scenario.description:
        desc_lines = wrap_text(_plain(scenario.description), width - 2 * MARGIN, DESC_PT)
    return title_lines, desc_lines


def _check_height(height: float, dpi: int, n: int) -> None:
    """Refuse a timeline taller than image viewers open, before anything is drawn: drawing
    it would take minutes for a picture nothing opens."""
    if height * dpi > MAX_HEIGHT_PX:
        raise SimulatorError(
            f"chart size: expected a timeline at most {MAX_HEIGHT_PX:,} pixels tall, which image "
            f"viewers open; found {n:,} contest lane(s) that need {height * dpi:,.0f} pixels "
            f"at {dpi} dpi (about {max(1, int(n * MAX_HEIGHT_PX / (height * dpi))):,} lanes "
            "fit): chart a scenario of fewer contests, or lower --dpi"
        )


def _draw_title(
    fig: Chart, title_lines: Sequence[str], desc_lines: Sequence[str], width: float, height: float
) -> None:
    """The title at the top left of a figure ``width`` by ``height`` inches, and the
    scenario's description under it."""
    y = 1 - MARGIN / height
    fig.text(
        MARGIN / width,
        y,
        "\n".join(title_lines),
        fontsize=TITLE_PT,
        weight="bold",
        va="top",
        linespacing=SPACING,
    )
    if desc_lines:
        y -= len(title_lines) * TITLE_PT * SPACING / 72 / height
        fig.text(
            MARGIN / width,
            y,
            "\n".join(desc_lines),
            fontsize=DESC_PT,
            color="#555555",
            va="top",
            linespacing=SPACING,
        )


def _kind_words(kind: str) -> str:
    """A kind of event in the legend's words."""
    return LEGEND_WORDS.get(kind, kind.replace("_", " "))


LEGEND_WORDS = {
    "filing_rejected": "filing rejected",
    "nominee_carried": "nominee carried from the primary",
}


def _spread(lane_marks: Sequence[LaneMark], axis: Axis) -> list[float]:
    """Where each mark is drawn, in inches: at its moment, or nudged right just enough that it
    does not cover the mark before it (a withdrawal and a runoff request on one afternoon)."""
    order = sorted(range(len(lane_marks)), key=lambda i: lane_marks[i].x)
    spots = [0.0] * len(lane_marks)
    prev: tuple[float, float] | None = None  # where the last one went, its half width
    for i in order:
        m = lane_marks[i]
        half = (mark_of(m.kind)[2] + 2) / 72 / 2
        spot = axis.u(m.x)
        if prev is not None:
            spot = max(spot, prev[0] + prev[1] + half + 0.01)
        spots[i] = spot
        prev = (spot, half)
    return spots


def _events_of(scenario: Scenario | None) -> Callable[[int], Event | None]:
    """The logged event at an index of the scenario's log (None without the scenario)."""
    log = scenario.events if scenario is not None else ()

    def event(seq: int) -> Event | None:
        if 0 <= seq < len(log):
            ev = log[seq]
            return ev if ev.index == seq else None
        return None

    return event


def _carried(result: Result, c: ContestResult) -> frozenset[str]:
    """The nominees of the primary an election contest follows (a primary of the same
    municipality and office in the result): its candidates come from that primary."""
    if c.stage != Stage.ELECTION.value:
        return frozenset()
    return frozenset(
        name
        for p in result.contests
        if p.stage == Stage.PRIMARY.value and p.title == c.title
        for name in p.outcome.nominated
    )


def _outcome_width(result: Result, zone: tzinfo, most: float, cap: float) -> float:
    """The room the outcomes take at the lanes' right: the widest one unwrapped, at most
    ``most`` inches (a longer one is wrapped to it), so no wide blank strip is left; never
    narrower than the longest name (up to ``cap`` inches), which is not broken."""
    names = [n for c in result.contests for part in c.outcome.parts() for n in part.names]
    longest = max(
        (text_width(f"  {shown_name(n)},", OUTCOME_PT, bold=True) for n in names), default=0
    )
    room = top = max(most, min(longest + 0.25, cap))
    for _ in range(2):  # the widest line unwrapped; then, wrapped to the room, its widest
        widest = 0.0
        for c in result.contests:
            lines, _ = outcome_lines(c, room - 0.2)
            widest = max([widest, *(text_width(line, OUTCOME_PT, bold=True) for line in lines)])
        room = min(max(widest + 0.3, 0.6), top)
    return room


def _locator(axis: Axis, xfuncs: Sequence[XFunc]) -> Callable[..., float]:
    def x_of(moment: datetime, lane: int = 0) -> float:
        return axis.u(xfuncs[lane](moment))

    return x_of
