"""The one error family of electsim.

::

    SimulatorError
    ├── ScenarioError      bad input: one Problem per thing wrong (exit code 2)
    ├── ImportResultsError a results file or contest name that cannot be imported (exit code 2)
    └── OutputError        an output file that cannot be written (exit code 2)

Each :class:`Problem` says where (file, line, event index, field), what was expected and what
was found, so a user can fix the scenario without reading code.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Problem:
    """One thing wrong with a scenario."""

    path: str  # "events[3].candidate"
    expected: str
    found: str
    line: int | None = None
    file: str | None = None

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
