"""How a result shows itself as HTML in Jupyter, with no setup.

IPython asks an object for ``_repr_html_``; :class:`~simulator.engine.result.Result`, a
contest, an outcome and a timeline answer with :func:`html`. The tables are written by the
views (:mod:`simulator.analysis.whatif.display`), a layer the engine does not read: the package
(``simulator/__init__.py``) hands the writer to :data:`writer` when it is imported, which every
import of a ``simulator`` module does first. Without a writer, :func:`html` gives None and
IPython falls back to the plain ``repr``.
"""

from __future__ import annotations

from collections.abc import Callable

#: Writes a result, a contest, an outcome or a timeline as HTML (None: no HTML for it).
writer: Callable[[object], str | None] | None = None


def html(value: object) -> str | None:
    """``value`` as HTML for a notebook, by :data:`writer`; None when no writer is set.

    >>> html(42) is None or isinstance(html(42), str)
    True
    """
    return writer(value) if writer is not None else None
