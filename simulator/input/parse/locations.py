"""Finding the line of a path (``events[3].at``) that a later check complains about.

The first YAML reading knows the line of every mapping, of every key of a block mapping, and
that a one-line flow mapping (an event like ``{type: votes_cast, ...}``) has all its keys on
its line; :func:`locate` finds a path's line in such a tree, and says when that is not enough
(a multi-line flow mapping, an item of a list of scalars): the text is then read a second
time, recording every line. For JSON, :func:`json_lines` follows just the problems' paths
through the text, skipping everything else with the :mod:`json` scanner: :mod:`json` keeps no
positions, and finding them on every load would add a second pass over the text.
"""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

from simulator.input.parse.messages import RawProblem
from simulator.input.parse.trees import MISSING, Map, Seq

__all__ = ["json_lines", "locate"]

_JSON_SPACE = re.compile(r"[ \t\n\r]*")  # JSON's whitespace (only used to find lines)


def locate(tree: Any, parts: tuple[Any, ...]) -> tuple[int | None, bool]:
    """The line of the deepest part of ``parts`` present in a tree read from YAML, and whether
    that line is exact (in a first-pass tree, a key of a multi-line mapping is not known)."""
    line: int | None = getattr(tree, "line", None)
    node = tree
    for part in parts:
        if isinstance(node, Map):
            try:
                if part not in node:
                    break  # a missing field: the mapping's own line
            except TypeError:
                break
            key_lines = getattr(node, "key_lines", MISSING)
            if key_lines is MISSING:
                return line, False
            line = node.line if key_lines is None else key_lines.get(part, line)
            node = node[part]
        elif isinstance(node, list):
            if type(part) is not int or not 0 <= part < len(node):
                break
            if isinstance(node, Seq):
                line = node.item_lines[part]
            elif isinstance(node[part], Map):
                line = node[part].line
            else:
                return line, False
            node = node[part]
        else:
            break
    return line, True


def json_lines(
    text: str, raws: list[RawProblem], again: dict[tuple[Any, ...], int]
) -> list[RawProblem]:
    """Lines for problems in a JSON text that :func:`json.loads` accepted.

    Walks only the objects and arrays on the problems' paths, skipping everything else with the
    json module's own scanner, and stops once every path is found. ``again`` counts the extra
    occurrences of repeated keys, so that the line given is the repetition's.
    """
    need: dict[tuple[Any, ...], int] = {}
    for parts, _, _, _ in raws:
        for depth in range(len(parts) + 1):
            need.setdefault(parts[:depth], 1)
    for parts, extra in again.items():
        need[parts] = 1 + extra
    remaining = sum(need.values())
    found: dict[tuple[Any, ...], int] = {}
    decoder = json.JSONDecoder()
    match_space = _JSON_SPACE.match
    counted = [0, 1]  # position and line, counted forward as the walk goes on

    class Done(Exception):
        pass

    def space(pos: int) -> int:
        gap = match_space(text, pos)
        return gap.end() if gap is not None else pos

    def mark(parts: tuple[Any, ...], pos: int) -> None:
        nonlocal remaining
        counted[1] += text.count("\n", counted[0], pos)
        counted[0] = pos
        found[parts] = counted[1]
        if need.get(parts, 0) > 0:
            need[parts] -= 1
            remaining -= 1
            if remaining == 0:
                raise Done

    def walk(pos: int, parts: tuple[Any, ...]) -> int:
        """Read the value at ``pos`` (already marked), return the position after it."""
        opener = text[pos]
        if opener not in "{[":
            return int(decoder.raw_decode(text, pos)[1])
        closer = "}" if opener == "{" else "]"
        pos = space(pos + 1)
        index = 0
        while text[pos] != closer:
            at = pos  # where the member (its key) or the item starts
            part: Any
            if opener == "{":
                part, after = decoder.raw_decode(text, pos)
                pos = space(space(after) + 1)  # past the ':'
            else:
                part, index = index, index + 1
            child = (*parts, part)
            if child in need:
                mark(child, at)
                pos = walk(pos, child)
            else:
                pos = decoder.raw_decode(text, pos)[1]
            pos = space(pos)
            if text[pos] == ",":
                pos = space(pos + 1)
        return pos + 1

    with contextlib.suppress(Done, ValueError, IndexError, RecursionError):
        start = space(0)
        mark((), start)
        walk(start, ())
    located = []
    for parts, expected, what, line in raws:
        if line is None:
            depth = len(parts)
            while depth > 0 and parts[:depth] not in found:
                depth -= 1
            line = found.get(parts[:depth])
        located.append((parts, expected, what, line))
    return located
