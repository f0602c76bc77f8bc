"""Reading JSON text into plain data, and the problems a JSON reader sees on its own.

:func:`read_json` reads with :func:`json.loads`: an ``object_pairs_hook`` notes every object
that repeats a key (:func:`json_duplicates` makes them problems with their paths),
``parse_float=Decimal`` keeps money exact, and a whole number too long to write out becomes a
:class:`~simulator.input.parse.long_numbers.LongNumber`. :func:`json_nesting_line` finds where
a text nests deeper than a reader goes.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

from simulator.input.parse.long_numbers import LongNumber
from simulator.input.parse.messages import REPEATED_KEY, RawProblem, show

__all__ = ["json_duplicates", "json_int", "json_nesting_line", "read_json"]


def json_int(text: str) -> int | LongNumber:
    """A JSON integer, as :func:`json.loads` reads it (``parse_int``), too long ones aside."""
    try:
        return int(text)
    except ValueError:
        return LongNumber(len(text.lstrip("-")))


def read_json(text: str) -> tuple[Any, list[tuple[dict[str, Any], list[str]]]]:
    """The document, and each object that repeats a key (with those keys).

    Raises ValueError (JSONDecodeError included) or RecursionError.
    """
    repeated: list[tuple[dict[str, Any], list[str]]] = []

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen: set[str] = set()
            again = []
            for key, _ in pairs:
                if key in seen:
                    again.append(key)
                seen.add(key)
            repeated.append((obj, again))
        return obj

    doc = json.loads(
        text,
        object_pairs_hook=pairs_hook,
        parse_float=Decimal,
        parse_constant=Decimal,
        parse_int=json_int,
    )
    return doc, repeated


_JSON_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def json_nesting_line(text: str, depth: int) -> int | None:
    """The line of the first ``[`` or ``{`` of a JSON text nested more than ``depth`` deep."""
    level = 0
    for token in _JSON_NESTING.finditer(text):
        symbol = token.group()
        if symbol == "[" or symbol == "{":
            level += 1
            if level > depth:
                return text.count("\n", 0, token.start()) + 1
        elif symbol == "]" or symbol == "}":
            level -= 1
    return None


def json_duplicates(doc: Any, repeated: list[tuple[dict[str, Any], list[str]]]) -> list[RawProblem]:
    """Problems for repeated JSON keys, with their paths."""
    if not repeated:
        return []
    keys = {id(obj): again for obj, again in repeated}
    found: list[RawProblem] = []
    todo: list[tuple[tuple[Any, ...], Any]] = [((), doc)]
    while todo:
        parts, value = todo.pop()
        if isinstance(value, dict):
            for key in keys.get(id(value), ()):
                found.append(((*parts, key), REPEATED_KEY, f"{show(key)} again", None))
            todo.extend(((*parts, k), v) for k, v in value.items())
        elif isinstance(value, list):
            todo.extend(((*parts, i), v) for i, v in enumerate(value))
    return found
