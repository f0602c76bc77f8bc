"""Timeline charts of a replay: one lane per contest, read only from a :class:`Result`.

Each lane shows the periods of a contest as coloured bands (the filing period, a reopened or
extended filing period, the window to request a runoff, the window for a tied candidate to
withdraw) with a hatched strip from the day the ballots were printed onward; the events of the
log as marks, one per kind and day with a count (fifteen filings on three days are three marks
captioned "5 filed"); every deadline as a vertical tick labelled with its citation, and a
G.S. 103-5 move as a red arrow from the day the statute names to the day the office is next open;
at each declared result the votes (with shares) and the threshold a candidate had to pass. The
outcome is written in full at the end of the lane.

The time axis spends its width on what happened: a stretch of more than two weeks where nothing
happens in any lane is folded to a narrow break (marked on the axis with its length in days),
on by default when such stretches take a third of the span or more (``compress=``). Each month
is named on the axis where it starts or where a stretch of the axis begins.

Labels never pile up or leave the figure: each goes as close as it can to its tick (above) or
its mark (below), to its right or else its left, where it overlaps no other label, with a dotted
leader when it had to move away; a label that finds no room is thinned to a number, and the note
with its text is written under the chart. A deadline that several lanes share is labelled once, in a
header above the lanes. Titles, descriptions and outcomes are wrapped to the width they have,
measured with the font, never cut.

Rendering uses matplotlib's object API (:class:`Chart`, a Figure on an Agg canvas that shows
itself in Jupyter), never ``pyplot``, so it needs no display. SVG output keeps text as text
(``svg.fonttype = "none"``): labels and citations can be searched in the file.

>>> from simulator.engine.result import Result
>>> fig = plot_timeline(Result("Nothing yet", ()))
>>> [t.get_text() for t in fig.axes[0].texts]
['no contests']
"""

from __future__ import annotations

import io
import itertools
import math
import re
import textwrap
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from contextvars import ContextVar
from datetime import date, datetime, timedelta, tzinfo
from functools import cache, lru_cache, partial
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo

import attrs
from matplotlib import dates as mdates
from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Patch, Rectangle
from matplotlib.textpath import text_to_path

from simulator.engine.result import ContestResult, Result, Threshold
from simulator.law.vocab import DeadlineKind, RulingKind, Stage
from simulator.model.errors import SimulatorError
from simulator.model.scenario import Scenario
from simulator.views.markup import ruling_colour

__all__ = ["Chart", "UnsupportedFormat", "figure_png", "figure_svg", "plot_timeline", "save_figure"]

# Layout, in inches: the y axis of the chart is measured in inches from the top of the lanes and
# the x axis in inches from the left of the time axis, so that stacking labels is arithmetic.
DPI = 110
WIDTH_PX = 1430  # 13 inches at 110 dpi
#: The tallest timeline drawn: 2^15 - 1 pixels, past which browsers and image viewers refuse to
#: open a picture (a lane takes about 85 pixels at 110 dpi: some 380 contests).
MAX_HEIGHT_PX = 32_767
TITLE_PT = 12.0
DESC_PT = 7.5
LANE_TITLE_PT = 8.5
SUBTITLE_PT = 6.5
OUTCOME_PT = 8.0
LABEL_PT = 7.0
TICK_PT = 7.5
LEGEND_PT = 7.0
SPACING = 1.2  # line spacing, as a multiple of the font size
LINE_H = LABEL_PT * SPACING / 72
BAND_H = 0.2
STRIP_H = 0.07
TICK_OUT = 0.06  # how far a deadline tick reaches beyond the band
LANE_PAD = 0.14
ABOVE_DEPTH = 1.15  # how far labels may stack above a lane's band, in inches
BELOW_DEPTH = 1.8  # below it (a round's votes take a line a candidate)
HEADER_DEPTH = 0.9
MARGIN = 0.12  # around the figure's edge
GAP_DAYS = 14.0  # a stretch this long with nothing in it may be folded
SPAN_PAD = 2.5  # days kept on either side of what happened, before a fold
GAP_W = 0.34  # the width of a fold, in inches
MIN_SPAN_W = 0.7  # the least width a stretch of the axis gets, in inches
FOLD_SHARE = 1 / 3  # fold by default when the foldable stretches are this share of the span

# Periods: key -> (legend label, face colour, edge colour)
BANDS: dict[str, tuple[str, str, str]] = {
    "filing": ("filing period", "#a6cee3", "#1f78b4"),
    "filing_reopened": ("filing reopened", "#fdbf6f", "#e08214"),
    "filing_extended": ("filing extended", "#ffe48a", "#b8860b"),
    "runoff_request": ("runoff / second primary may be requested", "#cab2d6", "#6a3d9a"),
    "tie_withdrawal": ("tied candidate may withdraw", "#f4cae4", "#ae017e"),
}
PRINTED = ("ballots printed (onward)", "#d9d9d9", "#737373")
MOVE_COLOUR = "#c0392b"  # a G.S. 103-5 move, and nothing else, is red

# Events: kind -> (marker, colour, size, caption for one, caption for several). "{name}" is the
# candidate or the winner, "{n}" the number of events of the kind that day. No two kinds share a
# marker, so a mark reads without its colour.
MARKS: dict[str, tuple[str, str, float, str, str]] = {
    "candidate_filed": ("o", "#2166ac", 5.0, "{name} filed", "{n} filed"),
    # a notice of candidacy the board could not accept: the same circle, hollow
    "filing_rejected": ("o", "#2166ac", 5.0, "{name} filed late (rejected)", "{n} rejected"),
    "candidate_withdrew": ("v", "#8c510a", 6.5, "{name} withdrew", "{n} withdrew"),
    "candidate_died": ("X", "#111111", 7.0, "{name} died", "{n} died"),
    "candidate_disqualified": ("x", "#7f2704", 6.5, "{name} disqualified", "{n} disqualified"),
    "filing_opened": (">", "#01665e", 5.5, "filing opened", "filing opened"),
    "filing_closed": ("<", "#01665e", 5.5, "filing closed", "filing closed"),
    "filing_extended": ("P", "#b8860b", 6.0, "filing extended", "filing extended"),
    "ballots_printed": ("s", "#525252", 5.5, "ballots printed", "ballots printed"),
    "reprint_determined": ("p", "#6a51a3", 6.0, "reprint determined", "reprint determined"),
    "returns_reported": ("h", "#1b9e77", 6.0, "returns", "returns ({n} reports)"),
    "votes_cast": ("8", "#66a61e", 5.0, "votes", "votes ({n} ballots)"),
    "canvass_held": ("D", "#1b7837", 5.5, "canvass", "canvass"),
    "recount_held": ("d", "#d95f02", 7.0, "recount", "recount"),
    "runoff_requested": ("^", "#6a3d9a", 6.5, "{name} requests runoff", "{n} requests"),
    "lot_drawn": ("*", "#c51b7d", 9.0, "lot: {name}", "{n} lots drawn"),
    "oath_taken": ("H", "#00441b", 6.0, "{name} takes oath", "{n} take oath"),
    "nominee_named": ("+", "#08519c", 7.5, "{name} named", "{n} named"),
}
DEFAULT_MARK = ("1", "#7f7f7f", 6.0, "{kind}", "{n} x {kind}")
_PATH = re.compile(r"(?:\.\.?/|/)?(?:[\w.-]+/)+([\w.-]+)")

#: The rulings after which the votes of a round are shown.
DECLARING = frozenset(
    {
        RulingKind.ELECTED,
        RulingKind.NOMINATED,
        RulingKind.RUNOFF_AVAILABLE,
        RulingKind.NO_RUNOFF,
        RulingKind.RECOUNT_REQUIRED,
        RulingKind.OFFICE_VACANT,
        RulingKind.VOTES_DISREGARDED,
    }
)


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
    #: For a timeline: where a moment falls on the time axis, in data coordinates (``x_of(t)``,
    #: or ``x_of(t, lane)`` on a days-from-election chart, where each lane counts from its own
    #: election day). None for other charts.
    x_of: Callable[..., float] | None = None

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
    count: int = 1


@attrs.frozen
class _Lane:
    title: tuple[str, ...]
    subtitle: tuple[str, ...]
    outcome: tuple[str, ...]
    outcome_colour: str
    bands: tuple[_Band, ...]
    printed: float | None
    ticks: tuple[_Tick, ...]
    marks: tuple[_Mark, ...]
    votes: tuple[tuple[float, tuple[str, ...]], ...]  # (x, lines) at each declared result
    as_of: float | None


@attrs.frozen
class _Label:
    """A text placed ``y`` inches away from its anchor (``None``: thinned to a note).
    ``x``, ``left`` and ``right`` are in inches from the left of the time axis."""

    x: float
    lines: tuple[str, ...]
    left: float
    right: float
    align: Literal["left", "right"]
    y: float | None = None
    note: int = 0  # the number of its note under the chart, when thinned


# ------------------------------------------------------------------------------------------
# Measuring and wrapping text
# ------------------------------------------------------------------------------------------


#: The dots per inch of the chart being laid out (see :func:`_width_in`)
_LAYOUT_DPI: ContextVar[int] = ContextVar("layout_dpi", default=DPI)


def _width_in(text: str, size: float = LABEL_PT, bold: bool = False) -> float:
    """Width of one line of text, in inches, in the chart being laid out."""
    return _measured(text, size, bold, _LAYOUT_DPI.get())


@lru_cache(maxsize=16384)
def _measured(text: str, size: float, bold: bool, dpi: int) -> float:
    """Width of one line of text, in inches, at ``dpi`` (remembered: labels repeat across
    lanes and charts, and measuring one is the costliest step of laying out a chart).

    The wider of two measures: the outline's, as an SVG draws it, and the glyphs fitted to
    whole pixels at ``dpi``, as a PNG draws them. The two differ by up to half a pixel a glyph
    either way (sixty narrow letters drew 5 px wider than their outline at 2,400 px, and ran
    off the figure)."""
    font = FontProperties(size=size, weight="bold" if bold else "normal")
    w, _, _ = text_to_path.get_text_width_height_descent(text, font, ismath=False)
    measure = _renderer(dpi).get_text_width_height_descent
    px, _, _ = measure(text, font, ismath=False)  # type: ignore[no-untyped-call]
    return max(float(w) / 72, float(px) / dpi) + 0.04


@cache
def _renderer(dpi: int) -> RendererAgg:
    """A renderer that measures text as a PNG at ``dpi`` draws it."""
    return RendererAgg(1, 1, dpi)  # type: ignore[no-untyped-call]


def _longest(fits: Callable[[int], bool], lo: int, hi: int) -> int:
    """The largest n in lo..hi for which ``fits(n)`` holds (``lo`` if none), for a ``fits``
    that holds up to some n and not beyond: text grows no narrower as it gets longer.

    Searched by doubling from ``lo`` first, then halving: each trial measures text about as
    long as the answer, not half of ``hi`` (halving lo..hi from the start measured half of all
    the words left at every line, and a description of 8,000 words took 44 s to wrap)."""
    step = 1
    while lo < hi:
        trial = min(lo + step, hi)
        if not fits(trial):
            hi = trial - 1
            break
        lo, step = trial, step * 2
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _fits_words(
    fits: Callable[[str], bool], line: str, words: Sequence[str], start: int, n: int
) -> bool:
    return fits(" ".join([line, *words[start : start + n]]))


def _fits_prefix(fits: Callable[[str], bool], line: str, n: int) -> bool:
    return fits(line[:n])


def _wrap(
    text: str, width_in: float, size: float, *, bold: bool = False, indent: str = ""
) -> tuple[str, ...]:
    """``text`` in lines that each fit ``width_in`` at ``size`` points: broken at spaces (never
    at hyphens), a word too long for a line broken where it must be. Nothing is cut. Each line
    takes as many words as fit, found by halving (a few measurements a line, not one a word)."""

    def fits(line: str) -> bool:
        return _width_in(line, size, bold) <= width_in

    words = [w for w in text.split(" ") if w]
    lines: list[str] = []
    line = ""
    i = 0
    while i < len(words):
        if not line:
            trial = (indent if lines else "") + words[i]
            if fits(trial) or len(words[i]) < 2:
                line, i = trial, i + 1
                continue
            line, i = trial, i + 1
        else:
            n = _longest(partial(_fits_words, fits, line, words, i), 0, len(words) - i)
            line = " ".join([line, *words[i : i + n]])
            i += n
            if i == len(words):
                break
            lines.append(line)
            line, i = indent + words[i], i + 1
        while not fits(line) and len(line) > 2:
            cut = _longest(partial(_fits_prefix, fits, line), 1, len(line) - 1)
            lines.append(line[:cut])
            line = indent + line[cut:]
    if line:
        lines.append(line)
    return tuple(lines) or ("",)


#: A name longer than this is shown in a chart by its beginning and its end (see :func:`_shown`)
NAME_CHARS = 32


def _shown(name: str) -> str:
    """A candidate's name as a chart shows it: in full up to :data:`NAME_CHARS` characters,
    else its first 20 and last 11 characters around an ellipsis (the end keeps a suffix such
    as ``(Write-In)`` or ``Jr.``). A chart's labels stand beside marks and columns of votes, so
    a name of a hundred letters would run off the figure or over its neighbours; the text
    timeline, the report and the JSON always give the name in full."""
    if len(name) <= NAME_CHARS:
        return name
    return f"{name[:20].rstrip()}\u2026{name[-11:].lstrip()}"


def _plain(description: str) -> str:
    """A description for the chart: one paragraph, a file path shortened to its file name."""
    return _PATH.sub(r"\1", " ".join(description.split()))


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


def _marks(c: ContestResult, x: XFunc, zone: tzinfo) -> tuple[_Mark, ...]:
    """One mark per kind of event and local day, captioned with the count when several."""
    rejected = {
        (r.at, name)
        for r in c.rulings
        if r.kind is RulingKind.FILING_REJECTED
        for name in r.candidates
    }
    groups: dict[tuple[str, date], list[tuple[datetime, str]]] = {}
    for t in c.timeline:
        if t.what == "event":
            kind = t.kind
            who = t.candidates[0] if len(t.candidates) == 1 else ""
            if kind == "candidate_filed" and (t.at, who) in rejected:
                kind = "filing_rejected"
            groups.setdefault((kind, t.at.astimezone(zone).date()), []).append((t.at, who))
    out = []
    for (kind, _), items in groups.items():
        one, several = MARKS.get(kind, DEFAULT_MARK)[3:]
        names = list(dict.fromkeys(who for _, who in items if who))
        if len(items) == 1 or (len(names) == 1 and "{name}" in one):
            caption = one.format(
                name=_shown(names[0]) if names else "", kind=kind.replace("_", " ")
            )
        else:
            caption = several.format(n=len(items), kind=kind.replace("_", " "))
        at = min(a for a, _ in items) if len(items) > 1 else items[0][0]
        out.append(_Mark(x(at), kind, caption.strip(), len(items)))
    return _one_caption_a_run(sorted(out, key=lambda m: m.x))


#: Kinds whose marks on neighbouring days are captioned once, with their number.
BULK = {"candidate_filed": "{n} filed", "returns_reported": "returns ({n} reports)"}


def _one_caption_a_run(marks: list[_Mark]) -> tuple[_Mark, ...]:
    """Marks of a bulk kind (filings, returns) on days at most three apart make a run: its
    first mark is captioned with the run's count ("15 filed"), the others not at all."""
    out = list(marks)
    for kind, template in BULK.items():
        run: list[int] = []
        for i, m in enumerate([*out, None]):
            if m is not None and m.kind == kind and (not run or m.x - out[run[-1]].x <= 3.0):
                run.append(i)
                continue
            if len(run) > 1:
                total = sum(out[j].count for j in run)
                out[run[0]] = attrs.evolve(out[run[0]], caption=template.format(n=total))
                for j in run[1:]:
                    out[j] = attrs.evolve(out[j], caption="")
            run = [i] if m is not None and m.kind == kind else []
    return tuple(out)


def _votes(c: ContestResult, x: XFunc) -> tuple[tuple[float, tuple[str, ...]], ...]:
    """The votes of each round, with shares and the threshold, where the round was declared."""
    thresholds = [r for r in c.rulings if r.kind is RulingKind.MAJORITY_THRESHOLD]
    declared = [r for r in c.rulings if r.kind in DECLARING]
    winners = set(c.outcome.elected) | set(c.outcome.nominated)
    out = []
    for i, tally in enumerate(c.tallies):
        if not tally:
            continue
        threshold = thresholds[i] if i < len(thresholds) else None
        when = threshold.at if threshold is not None else None
        if when is None:
            later = [r.at for r in declared]
            when = later[min(i, len(later) - 1)] if later else None
        if when is None:
            continue
        total = sum(v for _, v in tally)
        head = "runoff votes" if i else "votes"
        lines = [head]
        shown = tally[: max(c.seats * 2 + 1, 4)]
        for name, v in shown:
            share = f" {100 * v / total:.1f}%" if total else ""
            mark = " *" if name in winners and i == len(c.tallies) - 1 else ""
            lines.append(f"{_shown(name)} {v:,}{share}{mark}")
        rest = tally[len(shown) :]
        if rest:
            others = "1 other" if len(rest) == 1 else f"{len(rest)} others"
            lines.append(f"{others} {sum(v for _, v in rest):,}")
        if threshold is not None:
            t = Threshold.of(threshold)
            lines.append(f"{t.what}: more than {t.limit} of {t.total:,}")
        out.append((x(when), tuple(lines)))
    return tuple(out)


def _outcome(c: ContestResult, width_in: float) -> tuple[tuple[str, ...], str]:
    """The outcome written at the end of a lane, in full, wrapped to ``width_in``; its colour."""
    o = c.outcome
    parts = []
    for part in o.parts():
        if part.notable:
            words = part.words
            for name in part.names:  # a name is never broken across lines
                words = words.replace(name, _shown(name).replace(" ", "\u00a0"))
            parts.append(f"{part.label}: {words}")
    if not parts:
        parts.append(c.state.replace("_", " "))
    if o.pending is not None:
        colour = "#b35806"
    elif o.vacant_seats and not (o.elected or o.nominated):
        colour = "#b2182b"
    else:
        colour = "#1b7837"
    lines = [
        line for part in parts for line in _wrap(part, width_in, OUTCOME_PT, bold=True, indent="  ")
    ]
    return tuple(lines), colour


def _lane(
    c: ContestResult, x: XFunc, as_of: datetime | None, zone: tzinfo, left: float, right: float
) -> _Lane:
    bands = tuple(_Band(p.kind.value, x(p.start), x(p.end)) for p in c.periods)
    printed = [t.at for t in c.timeline if t.what == "event" and t.kind == "ballots_printed"]
    ticks = []
    for d in c.deadlines:
        due = d.due + timedelta(hours=12) if d.all_day else d.due
        lines = (d.kind.value.replace("_", " "), *(str(cite) for cite in d.cites))
        moved = x(d.moved_from) if d.moved_from is not None else None
        ticks.append(_Tick(x(due), lines, moved, d.all_day))
    outcome, colour = _outcome(c, right - 0.2)
    seats = f"{c.seats} seat{'s' if c.seats != 1 else ''}"
    return _Lane(
        title=_wrap(c.title, left - 0.2, LANE_TITLE_PT, bold=True),
        subtitle=_wrap(f"{c.id} | {c.method}, {c.stage}, {seats}", left - 0.2, SUBTITLE_PT),
        outcome=outcome,
        outcome_colour=colour,
        bands=bands,
        printed=x(min(printed)) if printed else None,
        ticks=tuple(ticks),
        marks=_marks(c, x, zone),
        votes=_votes(c, x),
        as_of=x(as_of) if as_of is not None else None,
    )


# ------------------------------------------------------------------------------------------
# The time axis: stretches where something happens, and folds between them
# ------------------------------------------------------------------------------------------


@attrs.frozen
class _Axis:
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


def _axis(xs: Sequence[float], width: float, compress: bool | None) -> _Axis:
    """The axis for things at ``xs``, ``width`` inches wide; stretches of more than
    :data:`GAP_DAYS` with nothing are folded when ``compress`` (or, when None, when they take
    :data:`FOLD_SHARE` of the span or more)."""
    if not xs:
        return _Axis(((0.0, 1.0, 0.0, width),))
    points = sorted(set(xs))
    lo, hi = points[0], points[-1]
    pad = max((hi - lo) * 0.015, 1.0)
    whole = _Axis(((lo - pad, hi + pad, 0.0, width),))
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
    return _Axis(tuple(pieces), tuple(folds))


@attrs.frozen
class _AxisLabel:
    u: float
    text: str
    rank: int  # lower ranks are kept first when labels would overlap
    size: float = TICK_PT


def _date_labels(axis: _Axis, zone: tzinfo) -> list[_AxisLabel]:
    """Day ticks on each stretch; each month named where it starts or where a stretch begins,
    the year with the first month named and wherever it changes."""
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


def _day_labels(axis: _Axis) -> list[_AxisLabel]:
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
        w = _width_in(lab.text, lab.size)
        a, b = lab.u - w / 2, lab.u + w / 2
        if a < lo or b > hi:
            continue
        if all(b + 0.06 < c or d + 0.06 < a for c, d, _ in kept):
            kept.append((a, b, lab))
    return [lab for _, _, lab in sorted(kept, key=lambda k: k[0])]


def _with_years(labels: list[_AxisLabel], axis: _Axis, zone: tzinfo) -> list[_AxisLabel]:
    """The first named month of the chart, and of each new year, carries its year."""
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


def _x_of_u(axis: _Axis, u: float) -> float:
    for x0, x1, u0, u1 in axis.pieces:
        if u0 <= u <= u1 and u1 > u0:
            return x0 + (u - u0) * (x1 - x0) / (u1 - u0)
    return axis.pieces[0][0]


# ------------------------------------------------------------------------------------------
# Placing labels
# ------------------------------------------------------------------------------------------


def _height(lab: _Label) -> float:
    return len(lab.lines) * LINE_H + 0.05


def _stack(labels: Sequence[_Label], depth: float, xmin: float, xmax: float) -> list[_Label]:
    """Place each label, in order of its anchor, as near its anchor as it can go without
    overlapping another, to the right of its anchor or else to its left, no deeper than
    ``depth`` inches; ``y`` stays ``None`` when it finds no room."""
    taken: list[tuple[float, float, float, float]] = []  # left, right, y, y + height
    gap = 0.06
    out = []
    for lab in sorted(labels, key=lambda a: a.x):
        w, h = lab.right - lab.left, _height(lab)
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


def _label(u: float, lines: tuple[str, ...]) -> _Label:
    width = max(_width_in(line) for line in lines)
    return _Label(u, lines, u, u + width, "left")


def _tick_labels(ticks: Iterable[_Tick], axis: _Axis) -> list[_Label]:
    """One label per day and time: deadlines that fall together share a label."""
    together: dict[float, list[str]] = {}
    for t in ticks:
        together.setdefault(round(t.x, 6), []).extend(t.lines)
    return [_label(axis.u(x), tuple(dict.fromkeys(lines))) for x, lines in together.items()]


def _number(labels: Sequence[_Label], notes: list[str]) -> list[_Label]:
    """Give each thinned label the number of a note (appended to ``notes``) with its text."""
    out = []
    for lab in labels:
        if lab.y is None:
            notes.append(f"[{len(notes) + 1}] " + ", ".join(lab.lines))
            lab = attrs.evolve(lab, note=len(notes))
        out.append(lab)
    return out


def _depth(labels: Sequence[_Label]) -> float:
    """How far placed labels reach from their anchors, and a row for thinned ones' numbers."""
    reach = max((lab.y + _height(lab) for lab in labels if lab.y is not None), default=0.0)
    return reach + (LINE_H + 0.04 if any(lab.y is None for lab in labels) else 0.0)


# ------------------------------------------------------------------------------------------
# Drawing
# ------------------------------------------------------------------------------------------


XFunc = Callable[[datetime], float]


def _to_num(t: datetime) -> float:
    # matplotlib.dates has no annotations; date2num gives days since its epoch.
    return float(mdates.date2num(t))  # type: ignore[no-untyped-call]


def _xfunc(result: Result, days_from_election: bool) -> tuple[list[XFunc], str]:
    """One function from time to x per lane, and the x axis label."""
    if not days_from_election:
        return [_to_num for _ in result.contests], ""
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


def _xs(lane: _Lane) -> list[float]:
    xs = [t.x for t in lane.ticks]
    xs.extend(t.moved_from for t in lane.ticks if t.moved_from is not None)
    xs.extend(m.x for m in lane.marks)
    xs.extend(v[0] for v in lane.votes)
    for b in lane.bands:
        xs.extend((b.start, b.end))
    if lane.as_of is not None:
        xs.append(lane.as_of)
    return xs


def _clip(lane: _Lane, lo: float | None, hi: float | None) -> _Lane:
    """The lane with what falls outside [lo, hi] left out (bands cut at the edges)."""

    def inside(x: float) -> bool:
        return (lo is None or x >= lo) and (hi is None or x <= hi)

    bands = []
    for b in lane.bands:
        start = b.start if lo is None else max(b.start, lo)
        end = b.end if hi is None else min(b.end, hi)
        if start < end:
            bands.append(_Band(b.key, start, end))
    printed = lane.printed
    if printed is not None and hi is not None and printed > hi:
        printed = None
    elif printed is not None and lo is not None:
        printed = max(printed, lo)
    return attrs.evolve(
        lane,
        bands=tuple(bands),
        printed=printed,
        ticks=tuple(
            attrs.evolve(t, moved_from=t.moved_from if inside(t.moved_from or t.x) else None)
            for t in lane.ticks
            if inside(t.x)
        ),
        marks=tuple(m for m in lane.marks if inside(m.x)),
        votes=tuple(v for v in lane.votes if inside(v[0])),
        as_of=lane.as_of if lane.as_of is not None and inside(lane.as_of) else None,
    )


def _draw_label(ax: Any, lab: _Label, y: float, va: str, colour: str = "#222222") -> None:
    ax.text(
        lab.x,
        y,
        "\n".join(lab.lines),
        ha=lab.align,
        va=va,
        fontsize=LABEL_PT,
        color=colour,
        linespacing=SPACING,
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


def _draw_notes_marks(ax: Any, labels: Sequence[_Label], y: float, va: str) -> None:
    """The note numbers of thinned labels, in one row at ``y``, nudged apart."""
    right = -1e9
    for lab in sorted((lab for lab in labels if lab.y is None), key=lambda a: a.x):
        text = f"[{lab.note}]"
        w = _width_in(text)
        x = max(lab.x - w / 2, right + 0.04)
        right = x + w
        ax.text(x, y, text, ha="left", va=va, fontsize=LABEL_PT, color="#555555", zorder=6)


def _draw_above(
    ax: Any, labels: Sequence[_Label], base: float, *, leader_to: float | None = None
) -> None:
    """Draw labels stacked up from ``base``; a label moved away from its anchor gets a dotted
    leader down to ``leader_to`` (its tick); thinned ones leave their note numbers in a row
    above the rest."""
    reach = 0.0
    for lab in labels:
        if lab.y is None:
            continue
        y = base - lab.y
        reach = max(reach, lab.y + _height(lab))
        anchor = lab.left if lab.align == "left" else lab.right
        if lab.y and leader_to is not None:
            _dotted(ax, anchor, y, leader_to)
        _draw_label(ax, lab, y, "bottom")
    _draw_notes_marks(ax, labels, base - reach, "bottom")


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
    laying_out = _LAYOUT_DPI.set(dpi)  # (text is measured as it is drawn at this dpi)
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
        _LAYOUT_DPI.reset(laying_out)
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
    zone = _zone(result, scenario)
    left_w = min(max(width * 0.17, 1.5), 2.4)
    right_w = min(max(width * 0.19, 1.7), 2.7)
    axes_w = width - left_w - right_w - MARGIN
    xfuncs, xlabel = _xfunc(result, days_from_election)
    lanes = [
        _lane(c, x, result.as_of, zone, left_w, right_w)
        for c, x in zip(result.contests, xfuncs, strict=True)
    ]
    if start is not None or end is not None:
        lanes = [
            _clip(
                lane,
                x(start) if start is not None else None,
                x(end) if end is not None else None,
            )
            for lane, x in zip(lanes, xfuncs, strict=True)
        ]
    xs = [x for lane in lanes for x in _xs(lane)]
    xs += [x(t) for t in (start, end) if t is not None for x in xfuncs[:1]]
    axis = _axis(xs, axes_w, compress)

    # Deadlines shared by several lanes are labelled once, in the header.
    counts = Counter(t.key for lane in lanes for t in {t.key: t for t in lane.ticks}.values())
    shared = {k for k, n in counts.items() if n > 1}
    header_ticks = {t.key: t for lane in lanes for t in lane.ticks if t.key in shared}
    notes: list[str] = []
    header = _number(
        _stack(_tick_labels(header_ticks.values(), axis), HEADER_DEPTH, 0, axes_w), notes
    )
    header_h = _depth(header)
    header_h += 0.12 if header else 0.0
    placed: list[tuple[list[_Label], list[_Label], float]] = []
    for lane in lanes:
        above = _number(
            _stack(
                _tick_labels((t for t in lane.ticks if t.key not in shared), axis),
                ABOVE_DEPTH,
                0,
                axes_w,
            ),
            notes,
        )
        # (a caption or a line of votes wider than the axis is wrapped to it: a long name
        # would reach over the lane's title)
        captions = [
            _label(axis.u(m.x), _wrap(m.caption, axes_w, LABEL_PT, indent="  "))
            for m in lane.marks
            if m.caption
        ]
        captions += [
            _label(
                axis.u(x),
                tuple(
                    part for line in lines for part in _wrap(line, axes_w, LABEL_PT, indent="  ")
                ),
            )
            for x, lines in lane.votes
        ]
        below = _number(_stack(captions, BELOW_DEPTH, 0, axes_w), notes)
        body = _depth(above) + TICK_OUT + 0.04 + BAND_H + STRIP_H + TICK_OUT + 0.03
        body += _depth(below) + LANE_PAD
        side = max(
            len(lane.title) * LANE_TITLE_PT * SPACING / 72
            + len(lane.subtitle) * SUBTITLE_PT * SPACING / 72,
            len(lane.outcome) * OUTCOME_PT * SPACING / 72,
        )
        placed.append((above, below, max(body, side + 0.2, 0.75)))

    # What is drawn, and only that, is in the legend.
    kinds = list(dict.fromkeys(m.kind for lane in lanes for m in lane.marks))
    kinds.sort(key=lambda k: list(MARKS).index(k) if k in MARKS else len(MARKS))
    bands = [k for k in BANDS if any(b.key == k for lane in lanes for b in lane.bands)]
    handles: list[Any] = [
        Patch(facecolor=BANDS[k][1], edgecolor=BANDS[k][2], label=BANDS[k][0]) for k in bands
    ]
    if any(lane.printed is not None for lane in lanes):
        handles.append(
            Patch(facecolor=PRINTED[1], edgecolor=PRINTED[2], hatch="////", label=PRINTED[0])
        )
    for k in kinds:
        handles.append(
            Line2D([], [], linestyle="none", label=k.replace("_", " "), **_mark_style(k))
        )
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
    label_w = max((_width_in(h.get_label(), LEGEND_PT) for h in handles), default=1.0) + 0.45
    ncol = max(1, min(len(handles), int((width - 2 * MARGIN) // label_w)))
    legend_h = math.ceil(len(handles) / ncol) * LEGEND_PT * 1.9 / 72 + 0.08 if handles else 0

    title_text = title if title is not None else result.scenario
    if result.as_of is not None:
        title_text += f"  (as of {result.as_of.astimezone(zone).strftime('%Y-%m-%d %H:%M')})"
    title_lines = _wrap(title_text, width - 2 * MARGIN, TITLE_PT, bold=True)
    desc_lines: tuple[str, ...] = ()
    if scenario is not None and scenario.description:
        desc_lines = _wrap(_plain(scenario.description), width - 2 * MARGIN, DESC_PT)
    title_h = MARGIN + len(title_lines) * TITLE_PT * SPACING / 72
    title_h += len(desc_lines) * DESC_PT * SPACING / 72 + 0.15
    notes_lines = [
        line for note in notes for line in _wrap(note, width - 2 * MARGIN, LABEL_PT, indent="   ")
    ]
    notes_h = len(notes_lines) * LINE_H + 0.1 if notes_lines else 0.0
    axis_h = 0.42 + (0.16 if days_from_election else 0.0)
    axes_h = header_h + sum(h for _, _, h in placed) if lanes else 1.0
    bottom = MARGIN + notes_h + legend_h + axis_h
    height = title_h + axes_h + bottom
    if height * dpi > MAX_HEIGHT_PX:
        # refused before anything is drawn: drawing it would take minutes for a picture
        # nothing opens
        n = len(lanes)
        raise SimulatorError(
            f"chart size: expected a timeline at most {MAX_HEIGHT_PX:,} pixels tall, which image "
            f"viewers open; found {n:,} contest lane(s) that need {height * dpi:,.0f} pixels "
            f"at {dpi} dpi (about {max(1, int(n * MAX_HEIGHT_PX / (height * dpi))):,} lanes "
            "fit): chart a scenario of fewer contests, or lower --dpi"
        )

    fig = Chart(figsize=(width, height), dpi=dpi)
    ax = fig.add_axes((left_w / width, bottom / height, axes_w / width, axes_h / height))
    ax.set_xlim(0, axes_w)
    ax.set_ylim(axes_h, 0)
    ax.set_yticks([])
    ax.set_xticks([])
    for spine in ("left", "right", "top"):
        ax.spines[spine].set_visible(False)
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
    if not lanes:
        ax.text(0.5, 0.5, "no contests", ha="center", va="center", transform=ax.transAxes)

    if lanes:
        _draw_axis(ax, axis, axes_h, zone, days_from_election, xlabel)
    _draw_above(ax, header, header_h - 0.1)  # shared deadlines, labelled once
    top = header_h
    for lane, (above, below, lane_h) in zip(lanes, placed, strict=True):
        _draw_lane(ax, lane, axis, above, below, top, lane_h)
        top += lane_h
    for key, tick in header_ticks.items():
        rows = [i for i, lane in enumerate(lanes) if any(t.key == key for t in lane.ticks)]
        last = header_h + sum(h for _, _, h in placed[: rows[-1] + 1]) - LANE_PAD
        _dotted(ax, axis.u(tick.x), header_h - 0.1, last, zorder=1)

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


def _locator(axis: _Axis, xfuncs: Sequence[XFunc]) -> Callable[..., float]:
    def x_of(moment: datetime, lane: int = 0) -> float:
        return axis.u(xfuncs[lane](moment))

    return x_of


def _draw_axis(ax: Any, axis: _Axis, axes_h: float, zone: tzinfo, days: bool, xlabel: str) -> None:
    """The time axis: ticks and labels drawn as texts (so that they are measured like every
    other label), each fold shaded down the lanes and marked with its length in days."""
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


def _mark_style(kind: str) -> dict[str, Any]:
    """How a kind of event is marked: its marker, colour and size; a rejected filing hollow."""
    marker, colour, size, _, _ = MARKS.get(kind, DEFAULT_MARK)
    line_marker = marker in "x+1|"
    return {
        "marker": marker,
        "color": colour,
        "markersize": size,
        "markerfacecolor": "white" if kind == "filing_rejected" else colour,
        "markeredgecolor": colour if line_marker or kind == "filing_rejected" else "white",
        "markeredgewidth": 1.4 if line_marker or kind == "filing_rejected" else 0.5,
    }


def _draw_lane(
    ax: Any,
    lane: _Lane,
    axis: _Axis,
    above: Sequence[_Label],
    below: Sequence[_Label],
    top: float,
    lane_h: float,
) -> None:
    """Draw one lane whose top edge is ``top`` (inches below the top of the axes)."""
    u = axis.u
    band_top = top + _depth(above) + TICK_OUT + 0.04
    band_mid = band_top + BAND_H / 2
    tick_top, tick_bottom = band_top - TICK_OUT, band_top + BAND_H + STRIP_H + TICK_OUT
    width = axis.width
    ax.axhline(top + lane_h, color="#dddddd", linewidth=0.8, zorder=1)
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

    for t in lane.ticks:
        ax.vlines(
            u(t.x),
            tick_top,
            tick_bottom,
            colors="#333333",
            linewidth=1.6 if t.all_day else 0.9,
            alpha=0.6 if t.all_day else 0.9,
            zorder=4,
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

    _draw_above(ax, above, band_top - TICK_OUT - 0.02, leader_to=tick_top)

    for m in lane.marks:
        ax.plot([u(m.x)], [band_mid], linestyle="none", zorder=7, **_mark_style(m.kind))
    y = tick_bottom + 0.03
    for lab in below:
        if lab.y is None:
            continue
        ty = y + lab.y
        anchor = lab.left if lab.align == "left" else lab.right
        if lab.y:
            _dotted(ax, anchor, band_mid, ty, colour="#bdbdbd")
        _draw_label(ax, lab, ty, "top", colour="#444444")
    _draw_notes_marks(
        ax, below, y + max((b.y + _height(b) for b in below if b.y is not None), default=0), "top"
    )

    if lane.as_of is not None:
        ax.vlines(
            u(lane.as_of),
            top + 0.03,
            top + lane_h - 0.03,
            colors="#d62728",
            linewidth=1.0,
            linestyles="--",
            zorder=6,
        )
        # the dashed line marks the moment; the chart's title says "as of" and when

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


# ------------------------------------------------------------------------------------------
# Output
# ------------------------------------------------------------------------------------------

_FORMATS = (".png", ".svg")


# ------------------------------------------------------------------------------------------
# A sweep: the outcome against a swept value
# ------------------------------------------------------------------------------------------


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
