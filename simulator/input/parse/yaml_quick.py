"""Reading the common shape of a big scenario quickly: an event log of one-line flow mappings.

:func:`read_yaml_quick` reads a top-level ``events:`` whose items are one-line flow mappings of
simple scalars (``- {type: votes_cast, at: '2027-11-02T09:00', candidate: Ann}``) with string
operations, and the rest of the text with :class:`~simulator.input.parse.yaml_reader.YamlReader`;
it steps aside (None) whenever anything is in doubt, and the whole text is then read by
:func:`~simulator.input.parse.yaml_reader.read_yaml`. :func:`read_yaml_quick_log` is the same
reading a piece of the log at a time (:class:`QuickLog`), for a reader that checks each piece
and lets it go.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import yaml

from simulator.input.parse.trees import MISSING, Map
from simulator.input.parse.yaml_reader import YamlReader
from simulator.input.parse.yaml_scalars import MERGE

__all__ = ["QuickDoubt", "QuickLog", "read_yaml_quick", "read_yaml_quick_log"]


# (a line found after its newline: a pattern that starts with ``^`` is tried at every character,
# one that starts with a newline only at each newline)
_EVENTS_KEY = re.compile(r"events:[ ]*$", re.MULTILINE)  # on the first line
_EVENTS_LINE = re.compile(r"\nevents:[ ]*$", re.MULTILINE)  # on a later line
_BLOCK_END = re.compile(r"\n[^-#\s]")  # the next top-level key, after its newline
#: What may not start a plain scalar here (YAML's indicators, quotes, space); what may not be in
#: one (flow indicators, a comment, a tab); the characters that end a quoted one early.
_NOT_FIRST = frozenset("-?:,[]{}#&*!|>'\"%@` ")
_NOT_INSIDE = re.compile(r"[,\[\]{}#\t]|: |:$")


def read_yaml_quick(text: str) -> Any | None:
    """The document exactly as :func:`read_yaml` reads it, for the common shape of a big
    scenario: a top-level ``events:`` whose items are one-line flow mappings of simple scalars
    (``- {type: votes_cast, at: '2027-11-02T09:00', candidate: Ann}``). Those lines are read here
    with string operations (each distinct ``key: value`` once), each item a :class:`Map` with its
    line, and the rest of the text (those lines blanked, so that lines stay where they are) by
    :class:`YamlReader`.

    None when the text has another shape, when anything is in doubt (quotes with escapes, a tag,
    an anchor, a comment on an item's line, a repeated key, ...) or when the rest has a problem:
    the caller then reads the whole text with :func:`read_yaml`, which reports it.

    This is :func:`read_yaml_quick_log` with the whole event log read at once.
    """
    root = read_yaml_quick_log(text)
    if root is None:
        return None
    try:
        root["events"] = [item for _, piece in root["events"].pieces() for item in piece]
    except QuickDoubt:
        return None
    return root


class QuickDoubt(Exception):
    """What :meth:`QuickLog.pieces` raises where the quick reading is in doubt about a line."""


#: About how many characters of an event log :meth:`QuickLog.pieces` reads at once.
_LINES_PIECE = 1 << 20


class QuickLog:
    """The event log of :func:`read_yaml_quick_log`, its one-line flow mappings read piece by
    piece as a reader takes them, so that only one piece of mappings is alive at once."""

    __slots__ = ("end", "first_line", "plain", "start", "text")

    def __init__(
        self, text: str, start: int, end: int, first_line: int, plain: Callable[[str], Any]
    ) -> None:
        self.text = text
        self.start = start
        self.end = end
        self.first_line = first_line
        self.plain = plain

    def pieces(self) -> Iterator[tuple[int, list[Any]]]:
        """Each piece of items (:class:`Map`) with the index of its first item in the log.

        Raises :class:`QuickDoubt` on the first line in doubt, and at the end of a log with
        no items: the whole text is then for :func:`read_yaml`, exactly as if
        :func:`read_yaml_quick` had stepped aside.
        """
        text, end, plain = self.text, self.end, self.plain
        pairs: dict[str, tuple[Any, Any] | None] = {}  # "key: value" -> (key, value) or None
        indent: str | None = None
        first = self.first_line
        at = self.start
        offset = 0
        while at < end:
            cut = text.find("\n", at + _LINES_PIECE, end) if end - at > _LINES_PIECE else -1
            if cut < 0:
                cut = end
            items: list[Any] = []
            lines = text[at:cut].split("\n")
            for number, line in enumerate(lines, first):
                body = line.lstrip(" ")
                if not body or body[0] == "#":
                    continue
                if body[:3] != "- {" or body[-1] != "}":
                    raise QuickDoubt(number)
                if indent is None:
                    indent = line[: len(line) - len(body)]
                elif len(line) - len(body) != len(indent):
                    raise QuickDoubt(number)
                inner = body[3:-1].strip(" ")
                parts = inner.split(", ")
                if "{" in inner:  # a nested mapping (or a doubt)
                    nested = _nested_parts(parts)
                    item = _flow_map(nested, number, pairs, plain) if nested else None
                    if item is None:
                        raise QuickDoubt(number)
                    items.append(item)
                    continue
                item = Map()
                item.line = number
                item.key_lines = None
                for part in parts:
                    pair = pairs.get(part, MISSING)
                    if pair is MISSING:
                        pair = pairs[part] = _flow_pair(part, plain)
                    if pair is None:
                        raise QuickDoubt(number)
                    item[pair[0]] = pair[1]
                if len(item) != len(parts):
                    raise QuickDoubt(number)  # a repeated key: the full reading reports it
                items.append(item)
            first += len(lines)
            del lines
            at = cut + 1
            if items:
                yield offset, items
                offset += len(items)
                del items
        if not offset:
            raise QuickDoubt("no items")


def read_yaml_quick_log(text: str) -> Any | None:
    """:func:`read_yaml_quick`, the event log not read yet: the document, its ``events`` a
    :class:`QuickLog` whose :meth:`~QuickLog.pieces` read it (or raise :class:`QuickDoubt`,
    where :func:`read_yaml_quick` would have given None). None where the text has another shape
    or the rest of it a problem."""
    if "\r" in text:
        return None
    found = _EVENTS_KEY.match(text) or _EVENTS_LINE.search(text)
    if found is None or found.end() == len(text):
        return None
    start = found.end() + 1
    end_match = _BLOCK_END.search(text, start - 1)
    end = end_match.start() + 1 if end_match is not None else len(text)
    first_line = text.count("\n", 0, start) + 1
    try:
        reader = YamlReader(text[:start] + "\n" * text.count("\n", start, end) + text[end:])
    except UnicodeError:
        return None
    try:
        root = reader.build()
        if reader.problems or reader.duplicates:
            return None
    except yaml.YAMLError:
        return None
    finally:
        reader.dispose()
    if (
        type(root) is not Map
        or root.get("events", MISSING) is not None
        or not isinstance(root.key_lines, dict)
        or root.key_lines.get("events") != first_line - 1
    ):
        return None
    root["events"] = QuickLog(text, start, end, first_line, reader.plain_cached)
    return root


def _nested_parts(parts: list[str]) -> list[str] | None:
    """The parts of a one-line flow mapping whose values may be flow mappings themselves
    (``counts: {Ann: 10, Bob: 5}``), one level deep: the parts split inside a nested mapping
    joined again. None if in doubt (a brace elsewhere, deeper nesting)."""
    out: list[str] = []
    open_part: list[str] | None = None
    for part in parts:
        if open_part is None:
            key, sep, value = part.partition(": ")
            if "{" not in part:
                out.append(part)
            elif not sep or "{" in key or not value.startswith("{") or value.count("{") != 1:
                return None
            elif value.endswith("}") and value.count("}") == 1:
                out.append(part)
            elif "}" in value:
                return None
            else:
                open_part = [part]
        else:
            if "{" in part:
                return None
            open_part.append(part)
            if "}" in part:
                if not part.endswith("}") or part.count("}") != 1:
                    return None
                out.append(", ".join(open_part))
                open_part = None
    return out if open_part is None else None


def _flow_map(
    parts: list[str],
    line: int,
    pairs: dict[str, tuple[Any, Any] | None],
    plain: Callable[[str], Any],
    *,
    nested: bool = False,
) -> Map | None:
    """A one-line flow mapping from its ``key: value`` parts, as the full reading builds it
    (its line; each key's line is the mapping's), or None if in doubt. ``pairs`` caches the
    reading of each distinct part; a nested mapping (:func:`_nested_parts`) is read anew."""
    item = Map()
    item.line = line
    item.key_lines = None
    for part in parts:
        key, _, value = part.partition(": ")
        if not nested and value.startswith("{") and value.endswith("}"):
            inner = value[1:-1].strip(" ")
            sub = _flow_map(inner.split(", "), line, {}, plain, nested=True) if inner else None
            name = _flow_pair(key + ": x", plain)
            if sub is None or name is None:
                return None
            item[name[0]] = sub
            continue
        pair = pairs.get(part, MISSING)
        if pair is MISSING:
            pair = pairs[part] = _flow_pair(part, plain, any_key=nested)
        if pair is None:
            return None
        item[pair[0]] = pair[1]
    if len(item) != len(parts):
        return None  # a repeated key: the full reading reports it
    return item


def _flow_pair(
    part: str, plain: Callable[[str], Any], *, any_key: bool = False
) -> tuple[Any, Any] | None:
    """``key: value`` of a one-line flow mapping as libyaml reads it, or None if in doubt.

    Keys are plain ASCII identifiers (an event's fields), or with ``any_key`` any scalar
    written as a value may be (the candidates' names of a nested ``counts`` mapping)."""
    key, sep, value = part.partition(": ")
    if not sep:
        return None
    if any_key:
        name = _flow_scalar(key, plain) if key == key.strip(" ") else MISSING
    else:
        name = plain(key) if key.isidentifier() and key.isascii() else MISSING
    scalar = _flow_scalar(value.strip(" "), plain)
    if name is MISSING or scalar is MISSING:
        return None
    return name, scalar


def _flow_scalar(value: str, plain: Callable[[str], Any]) -> Any:
    """A scalar of a one-line flow mapping as libyaml reads it, or MISSING if in doubt."""
    if not value or not value.isprintable():  # control characters, YAML's other line breaks
        return MISSING
    first = value[0]
    if first == "'" or first == '"':
        inner = value[1:-1]
        if len(value) < 2 or value[-1] != first or first in inner or "\\" in inner:
            return MISSING
        return inner
    if first in _NOT_FIRST or _NOT_INSIDE.search(value):
        return MISSING
    scalar = plain(value)
    return MISSING if scalar is MERGE else scalar
