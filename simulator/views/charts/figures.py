"""The figure every chart is drawn on (:class:`Chart`, which shows itself in Jupyter) and
its output: a PNG or SVG file, PNG bytes, SVG text.

:class:`Chart` is a matplotlib Figure, so this module imports matplotlib when it is imported;
the modules that draw import it inside the functions that draw, as they do matplotlib.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from simulator.model.errors import UnsupportedFormat


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

    def _repr_html_(self) -> str | None:
        """The picture as a notebook shows it: the whole width of the output where it fits,
        and on a narrow screen (a phone) never shrunk below 720 pixels, in a box that scrolls
        sideways, so its words stay readable (a 13-inch timeline shrunk to 390 pixels was a
        thumbnail). None when ``display_as`` is ``"svg"`` (the SVG scales as text does)."""
        if self.display_as != "png":
            return None
        png = figure_png(self)
        natural = round(self.get_figwidth() * self.dpi)
        data = base64.b64encode(png).decode("ascii")
        return (
            '<div class="electsim-chart" style="overflow-x:auto;max-width:100%">'
            f'<img src="data:image/png;base64,{data}" alt="chart" '
            f'style="width:100%;min-width:{min(natural, 720)}px;max-width:{natural}px;'
            'height:auto"></div>'
        )


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
