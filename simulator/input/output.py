"""Writing output, to files and to the terminal: every path a user names is checked before any
work is done, and a write that fails (a missing folder, a folder in the way, no permission, a
full disk) is invalid input (exit code 2) naming the path and the reason, never a crash. The
terminal's width and a "still running" line for long steps live here too.

An output may not be one of the command's own input files: a report written over the scenario
it reports on would lose what the user wrote.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from simulator.model.errors import OutputError

__all__ = [
    "Busy",
    "check_output",
    "file_names",
    "terminal_width",
    "visible",
    "write_inside",
    "writing",
]


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


#: What a terminal acts on instead of printing: the C0 and C1 controls (an escape sequence can
#: retitle the window, clear the screen or colour what follows), DEL, the line and paragraph
#: separators, and the marks, embeddings, overrides and isolates that reorder a line.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def visible(text: str, *, keep: str = "\n") -> str:
    r"""``text`` read from an input file, made safe to print on a terminal: each control
    character (but those in ``keep``: the line breaks of a text electsim wrote) is shown as
    its escape, as Python writes it in a string.

    >>> visible("TOWN OF X\x1b]0;pwned\x07 MAYOR")
    'TOWN OF X\\x1b]0;pwned\\x07 MAYOR'
    >>> visible("a\nb"), visible("a\nb", keep="")
    ('a\nb', 'a\\x0ab')
    """
    if text.isascii() and text.isprintable():
        return text

    def escape(found: re.Match[str]) -> str:
        ch = found.group()
        if ch in keep:
            return ch
        code = ord(ch)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

    return _UNPRINTABLE.sub(escape, text)


def file_names(ids: Iterable[str]) -> list[str]:
    """A safe, distinct part of a file name for each name a scenario holds (a contest id):
    only letters, digits, ``_``, ``.`` and ``-``, never a leading or trailing dot, so that no
    name can climb out of a folder (``../x`` reads ``_x``), reach the root (``/tmp/x`` reads
    ``_tmp_x``) or hide. ``ward 1`` and ``ward/1`` both read ``ward_1``, so the second becomes
    ``ward_1-2`` (distinct even where a file system ignores letter case). A long name is cut to
    80 characters, well inside the 255 bytes a file system allows with a prefix and suffix.

    >>> file_names(["ward 1", "ward/1", "x" * 300]) == ["ward_1", "ward_1-2", "x" * 80]
    True
    >>> file_names(["../../x", "/tmp/x", "a/../../x", ".."])
    ['_.._x', '_tmp_x', 'a_.._.._x', 'contest']
    """
    taken: set[str] = set()
    names = []
    for raw in ids:
        base = re.sub(r"[^A-Za-z0-9_.-]+", "_", raw).strip(".")[:80].strip(".") or "contest"
        name, n = base, 1
        while name.casefold() in taken:
            n += 1
            name = f"{base}-{n}"
        taken.add(name.casefold())
        names.append(name)
    return names


def refuse_link(path: Path) -> None:
    """Raise :class:`OutputError` if ``path`` is a symbolic link: a file electsim names from a
    scenario is written in the folder the user named, never through a link out of it."""
    if path.is_symlink():
        raise OutputError(
            f"{path}: cannot write the output: it is a symbolic link (electsim does not write "
            "through a link; remove it or name another folder)"
        )


def write_inside(folder: str | os.PathLike[str], name: str, data: bytes) -> Path:
    """Write ``data`` to the file ``name`` (one of :func:`file_names`) directly inside
    ``folder``, creating the folder if it is missing. The file is opened without following a
    link (``O_NOFOLLOW``), so a link planted in the folder cannot send the write elsewhere; any
    failure is :class:`OutputError` (exit 2)."""
    base = Path(folder)
    target = base / name
    if target.parent != base or name in ("", ".", "..") or "/" in name or "\\" in name:
        raise OutputError(f"{target}: cannot write the output: {name!r} is not a plain file name")
    with writing(target):
        base.mkdir(parents=True, exist_ok=True)
        refuse_link(target)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(target, flags, 0o666)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
    return target


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


class Busy:
    """A line on a terminal's stderr saying a long step is still running (after 2 s, each second
    the time so far), for work that reports no progress of its own."""

    def __init__(self, what: str, args: argparse.Namespace) -> None:
        self.what = what
        self.on = sys.stderr.isatty() and not getattr(args, "no_progress", False)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        start = time.monotonic()
        shown = False
        while not self.done.wait(0.5):
            elapsed = time.monotonic() - start
            if elapsed >= 2:
                sys.stderr.write(f"\r{self.what}... {elapsed:.0f} s")
                sys.stderr.flush()
                shown = True
        if shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()

    def __enter__(self) -> Busy:
        if self.on:
            self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.on:
            self.done.set()
            self.thread.join()


def terminal_width() -> int | None:
    """The terminal's width (``COLUMNS`` overrides it); None, for no limit, when output is not a
    terminal (a file or a pipe keeps whole lines for the programs that read it)."""
    if sys.stdout.isatty():
        return max(40, terminal_columns(100))
    return None


def terminal_columns(fallback: int = 80) -> int:
    """The terminal's width as ``shutil.get_terminal_size`` gives it (``COLUMNS`` first, then the
    terminal, then ``fallback``), without importing shutil (and with it lzma, bz2 and fnmatch)
    on every start."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or fallback
