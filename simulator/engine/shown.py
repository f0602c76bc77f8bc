"""How a result shows itself as HTML in Jupyter, with no setup.

IPython asks an object for ``_repr_html_``; :class:`~simulator.engine.result.Result`, a
contest, an outcome and a timeline answer with :func:`html`. The tables are written two layers
up, by :mod:`simulator.analysis.whatif.display`, which the engine does not import (no module
imports from a layer above its own, even inside a function: tests/test_layers.py). So the
display registers its writer here itself, with :func:`register`, when it is imported; the
package imports it (``simulator/__init__.py`` imports :mod:`simulator.whatif`), and every
import of a ``simulator`` module runs the package first. Without a writer, :func:`html` gives
None and IPython falls back to the plain ``repr``.
"""

from __future__ import annotations

from collections.abc import Callable

#: Writes a result, a contest, an outcome or a timeline as HTML (None: no HTML for it).
Writer = Callable[[object], str | None]

#: The registered writer (None until the display module is imported)
writer: Writer | None = None


def register(write: Writer) -> None:
    """Make ``write`` the writer :func:`html` asks (the display module calls this once)."""
    global writer
    writer = write


def html(value: object) -> str | None:
    """``value`` as HTML for a notebook, by the registered writer; None when there is none.

    >>> html(42) is None or isinstance(html(42), str)
    True
    """
    return writer(value) if writer is not None else None
