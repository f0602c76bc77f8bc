"""The one error family of electsim.

::

    SimulatorError
    ├── ScenarioError      bad input: one Problem per thing wrong (exit code 2)
    ├── ImportResultsError a results file or contest name that cannot be imported (exit code 2)
    ├── OutputError        an output file that cannot be written (exit code 2)
    └── UnsupportedFormat  an output file named with an extension no writer knows (exit code 2)

Each :class:`Problem` says where (file, line, event index, field), what was expected and what
was found, so a user can fix the scenario without reading code.
"""

from __future__ import annotations

from typing import Any, NoReturn

# Plain Python, not attrs: every command imports this module, ``electsim --help`` too, and
# importing attrs costs about a quarter of that command's start.

#: A problem's fields, in the order they are given and shown
_FIELDS = ("path", "expected", "found", "line", "file")


class Problem:
    """One thing wrong with a scenario: immutable, compared and hashed by its fields."""

    __slots__ = ("expected", "file", "found", "line", "path")

    path: str  # "events[3].candidate"
    expected: str
    found: str
    line: int | None
    file: str | None

    def __init__(
        self,
        path: str,
        expected: str,
        found: str,
        line: int | None = None,
        file: str | None = None,
    ) -> None:
        for name, value in zip(_FIELDS, (path, expected, found, line, file), strict=True):
            object.__setattr__(self, name, value)

    def _fields(self) -> tuple[str, str, str, int | None, str | None]:
        return (self.path, self.expected, self.found, self.line, self.file)

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError(f"a Problem cannot be changed: {name}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"a Problem cannot be changed: {name}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not Problem:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[type[Problem], tuple[Any, ...]]:
        return (Problem, self._fields())

    def __repr__(self) -> str:
        args = ", ".join(f"{n}={v!r}" for n, v in zip(_FIELDS, self._fields(), strict=True))
        return f"Problem({args})"

    def __str__(self) -> str:
        where = self.file or "<scenario>"
        if self.line is not None:
            where += f":{self.line}"
        return f"{where}: {self.path}: expected {self.expected}; found {self.found}"


class SimulatorError(Exception):
    """Base of every error electsim raises on purpose."""


class ScenarioError(SimulatorError):
    """A scenario that cannot be replayed; carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in problems))


class ImportResultsError(SimulatorError):
    """A results file or contest that cannot be imported."""


class OutputError(SimulatorError):
    """An output file that cannot be written: the path and the reason."""


class UnsupportedFormat(SimulatorError, ValueError):
    """An output file whose extension names no format this writer knows."""
