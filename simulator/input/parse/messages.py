"""How a reader's problems are written: a raw problem, the found value shown, the path named.

A reader records each problem as a :data:`RawProblem` (path parts, what was expected, what was
found, its line); :func:`show` writes a found value for a message, :func:`format_path` writes a
path (``events[3].at``), and :func:`finish` turns the raw problems into a
:class:`~simulator.model.errors.ScenarioError`, sorted by line.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from simulator.input.parse.long_numbers import LongNumber
from simulator.model.errors import Problem, ScenarioError

__all__ = ["REPEATED_KEY", "SHOW", "RawProblem", "finish", "format_path", "show"]

#: One problem before it becomes a :class:`Problem`: path parts, expected, found, line.
RawProblem = tuple[tuple[Any, ...], str, str, int | None]
SHOW = 60  # how much of a found value a message shows
REPEATED_KEY = (
    "each key at most once in a mapping (nothing a user wrote may be lost: remove or rename "
    "the repeated key)"
)


def _render(value: Any, depth: int = 0) -> str:
    """``value`` written as YAML would show it, long strings, numbers and containers cut short."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return repr(value[: SHOW + 1])
    if isinstance(value, int):
        if value.bit_length() > 160:
            return f"a number of about {int(value.bit_length() * 0.30103)} digits"
        return str(value)
    if isinstance(value, Decimal):
        text = str(value)
        if value.is_finite() and "." not in text and "E" not in text:
            return f"{value:E}"  # 2.027e3 is no int: shown as it reads, not as 2027
        return text
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        if depth > 2:
            return "{...}"
        items = []
        for i, (k, v) in enumerate(value.items()):
            if i == 4:
                items.append("...")
                break
            items.append(f"{_render(k, depth + 1)}: {_render(v, depth + 1)}")
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list | tuple | set | frozenset):
        if depth > 2:
            return "[...]"
        items = []
        for i, v in enumerate(value):
            if i == 6:
                items.append("...")
                break
            items.append(_render(v, depth + 1))
        return "[" + ", ".join(items) + "]"
    if isinstance(value, bytes):
        return f"{len(value)} bytes of binary data"
    if isinstance(value, LongNumber):
        return repr(value)
    return type(value).__name__


def show(value: Any) -> str:
    """A found value for a message: YAML-like, truncated to about 60 characters."""
    text = _render(value)
    if len(text) > SHOW:
        text = text[: SHOW - 3] + "..."
    if isinstance(value, bool):
        text += " (a boolean)"
    elif value is None:
        text += " (an empty value)"
    elif isinstance(value, dict):
        text = "a mapping " + text
    elif isinstance(value, list):
        text = "a list " + text
    return text


def format_path(parts: tuple[Any, ...]) -> str:
    """A path's parts as a message names them: ``events[3].at``, ``document`` for none."""
    if not parts:
        return "document"
    out = ""
    for part in parts:
        if type(part) is int:
            out += f"[{part}]"
        elif isinstance(part, str) and (part.isidentifier() or part in ("<key>", "<<")):
            out += f".{part}" if out else part
        else:
            out += f"[{_render(part)}]"
    return out


def finish(raws: list[RawProblem], source: str | None) -> ScenarioError:
    """The raw problems of ``source`` as one error, its problems in order of line."""
    problems = [
        Problem(format_path(parts), expected, found, line, source)
        for parts, expected, found, line in raws
    ]
    problems.sort(key=lambda problem: (problem.line is None, problem.line or 0))
    return ScenarioError(problems)
