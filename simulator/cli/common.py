"""What the commands share: exit codes, the usage error, colour, progress bars, writing bytes to
stdout, printing a scenario's problems and finding the scenario files a command is given.

Light on purpose: ``electsim --help`` loads it, so it imports nothing from the engine."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TextIO, TypeVar

from simulator.input.output import visible
from simulator.model.errors import ScenarioError, SimulatorError

EXIT_OK, EXIT_BUG, EXIT_INVALID = 0, 1, 2
#: The election years the commands compute statutory dates for (calendar, new).
FIRST_YEAR, LAST_YEAR = 1973, 2200


class UsageError(SimulatorError):
    """A command-line argument that cannot be used (exit 2)."""


ItemT = TypeVar("ItemT")
_ANSI = {"red": "\033[31m", "green": "\033[32m", "yellow": "\033[33m", "bold": "\033[1m"}


def use_colour(choice: str, stream: TextIO) -> bool:
    """``--color always|never|auto``; auto colours a terminal unless ``NO_COLOR`` is set (to
    anything but the empty string) or ``TERM`` is ``dumb``."""
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR", ""):
        return False
    return stream.isatty() and os.environ.get("TERM") != "dumb"


def painter(args: argparse.Namespace, stream: TextIO) -> Callable[[str, str], str]:
    """A function that colours a text (red, green, yellow or bold) when ``--color`` says so."""
    on = use_colour(getattr(args, "color", "auto"), stream)

    def paint(text: str, colour: str) -> str:
        return f"{_ANSI[colour]}{text}\033[0m" if on else text

    return paint


def progress(
    items: Iterable[ItemT], args: argparse.Namespace, *, what: str, total: int | None = None
) -> Iterator[ItemT]:
    """``items``, with a progress bar on a terminal's stderr once the work has run 2 s."""
    if not sys.stderr.isatty() or getattr(args, "no_progress", False):
        yield from items
        return
    from tqdm import tqdm  # (only on a terminal: tqdm is slow to import)

    bar: Iterable[ItemT] = tqdm(
        items, desc=what, total=total, file=sys.stderr, leave=False, delay=2.0
    )
    yield from bar


def write_bytes(data: bytes) -> None:
    """Write ``data`` to stdout as it is (an iCalendar file keeps its CRLF line ends)."""
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


_SHOWN_PROBLEMS = 1000  # a log wrong everywhere is not listed line by line to the end


def print_problems(e: ScenarioError) -> None:
    """A scenario's problems on stderr, one a line, then how many there were."""
    for problem in e.problems[:_SHOWN_PROBLEMS]:
        # (a problem quotes what the file holds: a control character in it is shown, and
        # cannot break the one line of the problem or drive the terminal)
        print(visible(str(problem), keep=""), file=sys.stderr)
    n = len(e.problems)
    if n > _SHOWN_PROBLEMS:
        print(f"... and {n - _SHOWN_PROBLEMS} more problems not shown", file=sys.stderr)
    print(
        f"electsim: {n} problem{'s' if n != 1 else ''} found; nothing was replayed",
        file=sys.stderr,
    )


def scenario_files(paths: Sequence[str]) -> list[Path]:
    """The scenario files named, folders searched recursively for .yaml, .yml and .json."""
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found = sorted(
                f
                for f in path.rglob("*")
                if f.suffix.lower() in (".yaml", ".yml", ".json") and f.is_file()
            )
            if not found:
                raise UsageError(
                    f"{name}: expected a scenario file or a folder holding scenario files "
                    "(.yaml, .yml or .json); found a folder with none"
                )
            files.extend(found)
        elif path.exists():
            files.append(path)
        else:
            raise UsageError(f"{name}: expected a scenario file or folder; found nothing there")
    return files
