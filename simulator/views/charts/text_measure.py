"""Measuring and wrapping a chart's text with its font, at the resolution it is drawn at, and
shortening what a chart shows of a long name."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextvars import ContextVar
from functools import cache, lru_cache, partial
from typing import TYPE_CHECKING

from simulator.views.charts.dimensions import DPI, LABEL_PT

if TYPE_CHECKING:
    from matplotlib.backends.backend_agg import RendererAgg

#: The dots per inch of the chart being laid out (see :func:`text_width`)
LAYOUT_DPI: ContextVar[int] = ContextVar("layout_dpi", default=DPI)


def text_width(text: str, size: float = LABEL_PT, bold: bool = False) -> float:
    """Width of one line of text, in inches, in the chart being laid out."""
    return _measured(text, size, bold, LAYOUT_DPI.get())


@lru_cache(maxsize=16384)
def _measured(text: str, size: float, bold: bool, dpi: int) -> float:
    """Width of one line of text, in inches, at ``dpi`` (remembered: labels repeat across
    lanes and charts, and measuring one is the costliest step of laying out a chart).

    The wider of two measures: the outline's, as an SVG draws it, and the glyphs fitted to
    whole pixels at ``dpi``, as a PNG draws them. The two differ by up to half a pixel a glyph
    either way (sixty narrow letters drew 5 px wider than their outline at 2,400 px, and ran
    off the figure)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path

    font = FontProperties(size=size, weight="bold" if bold else "normal")
    w, _, _ = text_to_path.get_text_width_height_descent(text, font, ismath=False)
    measure = _renderer(dpi).get_text_width_height_descent
    px, _, _ = measure(text, font, ismath=False)  # type: ignore[no-untyped-call]
    return max(float(w) / 72, float(px) / dpi) + 0.04


@cache
def _renderer(dpi: int) -> RendererAgg:
    """A renderer that measures text as a PNG at ``dpi`` draws it."""
    from matplotlib.backends.backend_agg import RendererAgg

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


def wrap_text(
    text: str, width_in: float, size: float, *, bold: bool = False, indent: str = ""
) -> tuple[str, ...]:
    """``text`` in lines that each fit ``width_in`` at ``size`` points: broken at spaces (never
    at hyphens), a word too long for a line broken where it must be. Nothing is cut. Each line
    takes as many words as fit, found by halving (a few measurements a line, not one a word)."""

    def fits(line: str) -> bool:
        return text_width(line, size, bold) <= width_in

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


#: A name longer than this is shown in a chart by its beginning and its end (see :func:`shown_name`)
NAME_CHARS = 32


def shown_name(name: str) -> str:
    """A candidate's name as a chart shows it: in full up to :data:`NAME_CHARS` characters,
    else its first 20 and last 11 characters around an ellipsis (the end keeps a suffix such
    as ``(Write-In)`` or ``Jr.``). A chart's labels stand beside marks and columns of votes, so
    a name of a hundred letters would run off the figure or over its neighbours; the text
    timeline, the report and the JSON always give the name in full."""
    if len(name) <= NAME_CHARS:
        return name
    return f"{name[:20].rstrip()}\u2026{name[-11:].lstrip()}"
