"""Run ``electsim`` inside the test's own interpreter, as ``python -m simulator`` would run it.

A command run in a subprocess pays Python's start and every import again (about a third of a
second a command); the CLI's tests run about a hundred commands. The entry point itself (the
console script and ``python -m simulator``) is checked once, in a real subprocess, by
tests/test_package.py and tests/cli/test_readme.py.

What a subprocess gives and this keeps: its own stdout and stderr (text and bytes), its exit
code (a ``SystemExit`` from argparse included), its working folder and its environment; each is
put back when the command ends, so commands cannot see each other's.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

from simulator.cli.main import main


class _Stream(io.TextIOWrapper):
    """A text stream over bytes, like a pipe: ``write_bytes`` reaches ``.buffer``."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO(), encoding="utf-8", newline="\n", write_through=True)

    def text(self) -> str:
        self.flush()
        raw = self.buffer
        assert isinstance(raw, io.BytesIO)
        return raw.getvalue().decode("utf-8")


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None, cwd: Path | None) -> Iterator[None]:
    saved_env, saved_cwd = dict(os.environ), Path.cwd()
    try:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        yield
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


def electsim(
    *args: str,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    check: bool = False,
) -> subprocess.CompletedProcess[str]:
    """``electsim ARGS`` run here; ``env`` replaces the environment (as ``subprocess.run``'s
    does) and ``cwd`` the working folder, both only while the command runs; ``check`` raises
    on a non-zero exit, as ``subprocess.run``'s does."""
    out, err = _Stream(), _Stream()
    with _environment(env, cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as stop:  # argparse's usage errors and --version
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 2)
        finally:
            sys.stdout.flush()
    done = subprocess.CompletedProcess(["electsim", *args], code, out.text(), err.text())
    if check:
        done.check_returncode()
    return done
