"""Plain-text tables fitted to a width: columns as wide as their content, the widest wrapped.

>>> rows = [("canvass", "moved from Saturday to Monday")]
>>> for line in fit_table(("kind", "note"), rows, width=28):
...     print(line)
kind     note
-------  -------------------
canvass  moved from Saturday
         to Monday
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

__all__ = ["fit_table"]

_GAP = 2
_MIN = 8  # no column is squeezed below this many characters
_WORDS = 4  # a column with a cell of this many spaces is text, to be wrapped first
_PROSE = 20  # ... down to this width


def _widths(cols: Sequence[str], rows: Sequence[Sequence[str]], width: int | None) -> list[int]:
    widths = [max([len(cols[i]), *(len(r[i]) for r in rows)]) for i in range(len(cols))]
    if width is None:
        return widths
    room = width - _GAP * (len(cols) - 1)
    prose = [any(r[i].count(" ") >= _WORDS for r in rows) for i in range(len(cols))]
    words = [
        max((len(w) for r in (cols, *rows) for w in r[i].split()), default=1)
        for i in range(len(cols))
    ]

    def pick() -> int | None:
        """The column to narrow: text first, then any column wrapping at spaces, then any."""
        floors = (
            [_PROSE if p else 10**9 for p in prose],
            [max(w, _MIN) for w in words],
            [_MIN] * len(widths),
        )
        for floor in floors:
            candidates = [k for k in range(len(widths)) if widths[k] > floor[k]]
            if candidates:
                return max(candidates, key=lambda k: widths[k])
        return None

    while sum(widths) > room and (i := pick()) is not None:
        widths[i] -= 1
    return widths
    # Columns of text (cells of several words) share what the others leave, narrow ones first, so a
    # short column keeps its width and the longest text wraps.
    prose = [i for i in range(len(cols)) if any(r[i].count(" ") >= _WORDS for r in rows)]
    avail = room - sum(w for i, w in enumerate(widths) if i not in prose)
    for k, i in enumerate(sorted(prose, key=lambda j: widths[j])):
        share = avail // (len(prose) - k)
        widths[i] = max(_MIN, min(widths[i], share))
        avail -= widths[i]
    # Still too wide: cut through the widest columns' words.
    while sum(widths) > room:
        i = max(range(len(widths)), key=lambda k: widths[k])
        if widths[i] <= _MIN:
            break
        widths[i] -= 1
    return widths


def fit_table(
    cols: Sequence[str], rows: Sequence[Sequence[str]], *, width: int | None = None
) -> list[str]:
    """The table's lines: a header, a rule, then each row, cells wrapped onto further lines when
    the row would be wider than ``width`` (no limit when None)."""
    widths = _widths(cols, rows, width)
    out: list[str] = []

    def emit(cells: Sequence[str]) -> None:
        parts = [
            textwrap.wrap(c, w, break_on_hyphens=False) or [""]
            for c, w in zip(cells, widths, strict=True)
        ]
        for k in range(max(len(p) for p in parts)):
            line = (" " * _GAP).join(
                (p[k] if k < len(p) else "").ljust(w) for p, w in zip(parts, widths, strict=True)
            )
            out.append(line.rstrip())

    emit(cols)
    out.append((" " * _GAP).join("-" * w for w in widths))
    for r in rows:
        emit(r)
    return out
