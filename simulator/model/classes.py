"""attrs classes that start fast: the code of the methods attrs writes for electsim's classes is
kept compiled between runs.

attrs writes each class's ``__init__``, ``__eq__``, ``__hash__``, ``__repr__`` as Python source
and compiles it when the class is created, on every start: for the 75 classes a replay imports,
that compiling took 26 ms of a 150 ms ``electsim replay``. Python keeps a module's own code in
``__pycache__``; this keeps attrs' generated code beside it the same way, as
``__pycache__/attrs-methods.<interpreter>.bin``, keyed by the source and the name attrs gives
it, so a class whose fields change simply compiles again. Only electsim's classes are kept; a
cache that cannot be read or written is ignored (the methods compile as before); where Python
writes no bytecode (``PYTHONDONTWRITEBYTECODE``) the cache is read but not written.

:func:`install` sets this up; the package runs it before any of its classes is made, and it
takes effect when attrs is imported. It works through the one name attrs compiles with
(``compile`` in ``attr._make``); were that to change, the classes would compile as before, and
a test says so.
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import importlib.util
import marshal
import os
import re
import sys
from collections.abc import Callable
from importlib.machinery import ModuleSpec
from types import CodeType, ModuleType
from typing import Any

#: the names attrs gives the code it writes for a class of this package
_OURS = (" simulator.",)
#: the number attrs mixes into a class's hashes, drawn from Python's per-process string hashing:
#: left out of the key (any number does, as long as one process uses one number throughout)
_SALT = re.compile(r"(hash\(\(\n\s*)-?\d+,")
_SALTED = r"\1SALT,"
#: past this many entries the file keeps only those of the run that writes it
_MOST = 2_000


class MethodCache:
    """The compiled code of attrs' methods, by (file name attrs gives it, source)."""

    def __init__(self, path: str | None, *, writes: bool = True) -> None:
        self.path = path
        self.writes = writes
        self.code: dict[tuple[str, str], bytes] = {}
        self.used: set[tuple[str, str]] = set()
        self.new = 0
        if path is not None:
            self.code = _read(path)

    def compile(self, source: Any, filename: Any, mode: str, *args: Any, **kw: Any) -> Any:
        """``compile``, for attrs: the code of one of electsim's classes comes from the cache
        when its source was compiled before."""
        if (
            args
            or kw
            or mode != "exec"
            or not isinstance(source, str)
            or not isinstance(filename, str)
            or not any(mark in filename for mark in _OURS)
        ):
            return builtins.compile(source, filename, mode, *args, **kw)
        key = (filename, _SALT.sub(_SALTED, source))
        self.used.add(key)
        kept = self.code.get(key)
        if kept is not None:
            try:
                code = marshal.loads(kept)
            except (ValueError, EOFError, TypeError):
                code = None
            if isinstance(code, CodeType):
                return code
        code = builtins.compile(source, filename, mode)
        self.code[key] = marshal.dumps(code)
        self.new += 1
        return code

    def write(self) -> None:
        """Write the cache if this run compiled anything new (at the end of the run), with
        what another process wrote meanwhile."""
        if not self.new or self.path is None or not self.writes:
            return
        code = {**_read(self.path), **self.code}
        if len(code) > _MOST:
            code = {k: v for k, v in code.items() if k in self.used}
        part = f"{self.path}.{os.getpid()}"
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            with open(part, "wb") as f:
                f.write(marshal.dumps(code))
            os.replace(part, self.path)  # whole, even with another process writing too
        except OSError:
            with contextlib.suppress(OSError):
                os.remove(part)
            return
        self.new = 0


def _read(path: str) -> dict[tuple[str, str], bytes]:
    """The cache file's entries; none if it cannot be read or is not one."""
    try:
        with open(path, "rb") as f:
            loaded = marshal.loads(f.read())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def cache_path() -> str | None:
    """Where the cache lives: this package's ``__pycache__`` (or under ``sys.pycache_prefix``),
    one file per interpreter."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    prefix = sys.pycache_prefix
    if prefix:  # as Python lays out bytecode there: the source's folders under the prefix
        folder = os.path.join(prefix, os.path.splitdrive(here)[1].lstrip(os.sep))
    else:
        folder = os.path.join(here, "__pycache__")
    return os.path.join(folder, f"attrs-methods.{tag}.bin")


#: the cache in use, once installed
installed: MethodCache | None = None

#: the module of attrs that compiles the methods it writes
_MAKE = "attr._make"


def install() -> None:
    """Let attrs compile electsim's classes through the cache: now if attrs is imported, else
    as soon as it is (a command that makes no class, ``electsim --help``, never imports it)."""
    make = sys.modules.get(_MAKE)
    if make is not None:
        _hook(make)
    elif not any(isinstance(f, _WhenImported) for f in sys.meta_path):
        sys.meta_path.insert(0, _WhenImported())


def _hook(make: ModuleType) -> None:
    global installed
    if installed is not None:
        return
    current: Callable[..., Any] | None = getattr(make, "compile", None)
    if current is not None and current is not builtins.compile:
        return  # someone else's hook: leave it
    cache = MethodCache(cache_path(), writes=not sys.dont_write_bytecode)
    make.compile = cache.compile  # type: ignore[attr-defined]
    atexit.register(cache.write)
    installed = cache


class _WhenImported:
    """An import hook that sets the cache up once attrs' ``_make`` module has been run, then
    leaves the import system as it found it."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        if name != _MAKE:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        loader = None if spec is None else spec.loader
        if spec is None or loader is None:
            return spec
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            _hook(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec
