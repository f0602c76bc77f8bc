"""Writing output files: every path a user names is checked before any work is done, and a
write that fails (a missing folder, a folder in the way, no permission, a full disk) is invalid
input (exit code 2) naming the path and the reason, never a crash.

An output may not be one of the command's own input files: a report written over the scenario
it reports on would lose what the user wrote.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from simulator.errors import OutputError

__all__ = ["check_output", "writing"]


def _same(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and a.samefile(b)
    except (OSError, ValueError):
        return False


def check_output(
    path: str | os.PathLike[str], *, inputs: Iterable[str | os.PathLike[str]] = ()
) -> None:
    """Raise :class:`OutputError` unless a file can be written at ``path``."""
    text = os.fspath(path)
    if not text or "\0" in text:
        raise OutputError(f"{text!r}: expected the name of a file to write; found none")
    target = Path(text)
    folder = target.parent
    try:
        if target.is_dir():
            raise OutputError(
                f"{text}: cannot write the output: it is a folder (name a file inside it)"
            )
        if not folder.exists():
            raise OutputError(
                f"{text}: cannot write the output: the folder {folder} does not exist "
                "(create it first)"
            )
        if not folder.is_dir():
            raise OutputError(f"{text}: cannot write the output: {folder} is not a folder")
        if target.exists():
            if not os.access(target, os.W_OK):
                raise OutputError(f"{text}: cannot write the output: permission denied")
        elif not os.access(folder, os.W_OK | os.X_OK):
            raise OutputError(
                f"{text}: cannot write the output: permission denied in the folder {folder}"
            )
    except OSError as error:  # a name too long, a loop of links
        raise OutputError(f"{text}: cannot write the output: {error.strerror or error}") from None
    for source in inputs:
        if _same(target, Path(source)):
            raise OutputError(
                f"{text}: cannot write the output over the input file {os.fspath(source)} "
                "(name another file)"
            )


@contextlib.contextmanager
def writing(path: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> Iterator[None]:
    """Turn an operating-system error met while writing ``path`` into :class:`OutputError`."""
    try:
        yield
    except OSError as error:
        where = getattr(error, "filename", None) or (
            os.fspath(path) if isinstance(path, str | os.PathLike) else "the output"
        )
        raise OutputError(f"{where}: cannot write the output: {error.strerror or error}") from None
