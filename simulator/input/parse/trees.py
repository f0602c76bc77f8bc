"""What a reading builds: mappings and lists that remember their lines.

A YAML reading gives :class:`Map` for every mapping (its line, and where its keys are) and, in
detail mode, :class:`Seq` for every list (its line and each item's); :data:`MISSING` marks a key
that is absent. The loader reads a text with the cyclic collector paused
(:func:`simulator.engine.replay.collector_paused`): a big text becomes millions of these small
containers, none of them in a cycle.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MISSING", "Map", "Seq"]

MISSING: Any = object()  # a key that is absent / no pending key


class Map(dict[Any, Any]):
    """A mapping read from YAML: its 1-based line and where its keys are.

    ``key_lines`` is the line of each key (detail mode), or None when the whole mapping is on its
    one line (a flow mapping like ``{type: votes_cast, ...}``), or not set (not known).
    """

    __slots__ = ("key_lines", "line")
    line: int | None
    key_lines: dict[Any, int] | None


class Seq(list[Any]):
    """A sequence read in detail mode: its line and the line of each item."""

    __slots__ = ("item_lines", "line")
    line: int
    item_lines: list[int]
