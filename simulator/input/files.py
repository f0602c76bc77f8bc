"""Reading input files with bounds: no file a user names can make electsim read forever or fill
the memory.

A scenario or results file is read at once where it is a regular file within the limit, and in
chunks of a mebibyte otherwise (a pipe, a device), stopping as soon as it is more than
``max_bytes`` long (:data:`MAX_INPUT_BYTES`, 1 GiB, unless raised with ``--max-bytes``), holds a
NUL byte (binary data: ``/dev/zero``, an image) or a byte that is not text in its encoding.
Compressed results are decompressed as a stream and the limit counts the bytes they inflate to,
so a small gzip bomb stops at the limit too. Lines are read one at a time, each at most
:data:`MAX_LINE_BYTES` long.
"""

from __future__ import annotations

import codecs
import io
import os
import re
import stat
from collections.abc import Iterator
from typing import IO

__all__ = [
    "MAX_INPUT_BYTES",
    "MAX_LINE_BYTES",
    "InputTooLarge",
    "NotText",
    "decode_text",
    "describe_size",
    "parse_size",
    "read_data",
    "read_lines",
    "read_text",
]

MAX_INPUT_BYTES = 1 << 30
MAX_LINE_BYTES = 1 << 24
_CHUNK = 1 << 20
_SIZE = re.compile(r"\s*(\d+)\s*([kmgt]?i?b?)?\s*", re.IGNORECASE)
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


class InputTooLarge(Exception):
    """More than the limit: ``limit`` bytes (and, for a line, its number)."""

    def __init__(self, limit: int, *, line: int | None = None, what: str = "file") -> None:
        super().__init__(f"{what} over {describe_size(limit)}")
        self.limit = limit
        self.line = line
        self.what = what


class NotText(Exception):
    """Bytes that are not text: a NUL, or a byte the encoding does not decode."""

    def __init__(self, reason: str, *, offset: int, line: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.offset = offset
        self.line = line


def describe_size(size: int) -> str:
    """``1 GiB``, ``16 MiB``, ``1,000 bytes``."""
    for unit, name in ((1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if size >= unit and size % unit == 0:
            return f"{size // unit:,} {name}"
    return f"{size:,} bytes"


def parse_size(text: str) -> int:
    """A size from the command line: ``2000000``, ``512MiB``, ``2G``, ``4 GiB``. Raises
    ValueError for anything else, or for 0."""
    found = _SIZE.fullmatch(text)
    if found is None:
        raise ValueError(text)
    unit = (found.group(2) or "").lower()[:1]
    size = int(found.group(1)) * _UNITS[unit]
    if size <= 0:
        raise ValueError(text)
    return size


def _open_binary(path: str | os.PathLike[str]) -> IO[bytes]:
    return open(path, "rb")


def read_text(
    path: str | os.PathLike[str], *, max_bytes: int = MAX_INPUT_BYTES, encoding: str = "utf-8-sig"
) -> str:
    """A whole text file; raises :class:`InputTooLarge`, :class:`NotText` or OSError.

    A regular file no longer than the limit is read and decoded at once; anything else (a pipe,
    a device, a file that says it is empty) in chunks, stopping at the limit."""
    data = read_data(path, max_bytes=max_bytes, encoding=encoding, decoded=True)
    return data if isinstance(data, str) else decode_text(data, encoding)


def read_data(
    path: str | os.PathLike[str],
    *,
    max_bytes: int = MAX_INPUT_BYTES,
    encoding: str = "utf-8-sig",
    decoded: bool = False,
) -> str | bytes:
    """:func:`read_text`, but a regular file's bytes are given undecoded unless ``decoded``
    (checked for a NUL byte; :func:`decode_text` decodes them, saying where they are not text):
    for a reader that takes UTF-8 bytes itself."""
    with _open_binary(path) as stream:
        try:
            status = os.fstat(stream.fileno())
        except (OSError, AttributeError, io.UnsupportedOperation):
            status = None
        if status is not None and stat.S_ISREG(status.st_mode) and status.st_size > 0:
            if status.st_size > max_bytes:
                raise InputTooLarge(max_bytes)
            # (read to its size and a byte more: it may have grown since)
            data = stream.read(status.st_size + 1)
            if len(data) > status.st_size:
                data += stream.read(max_bytes + 1 - len(data))
            if len(data) > max_bytes:
                raise InputTooLarge(max_bytes)
            if decoded:
                return decode_text(data, encoding)
            _check_nul(data, 0, [])
            return data
        decoder = codecs.getincrementaldecoder(encoding)("strict")
        parts: list[str] = []
        total = 0
        while True:
            chunk = stream.read(_CHUNK)
            final = not chunk
            if total + len(chunk) > max_bytes:
                raise InputTooLarge(max_bytes)
            parts.append(_decode(encoding, decoder, chunk, final, total, parts))
            total += len(chunk)
            if final:
                return "".join(parts)


def _decode(
    encoding: str,
    decoder: codecs.IncrementalDecoder,
    chunk: bytes,
    final: bool,
    total: int,
    before: list[str],
) -> str:
    """``chunk``, the bytes after the first ``total`` (decoded into ``before``), as text; a
    problem located by offset and line (the lines counted only then)."""
    _check_nul(chunk, total, before)
    held = len(decoder.getstate()[0])  # the bytes of a character the last chunk began
    try:
        return decoder.decode(chunk, final=final)
    except UnicodeDecodeError as error:  # (its start counts the bytes held first)
        start = max(error.start - held, 0)
        line = 1 + sum(part.count("\n") for part in before) + chunk.count(b"\n", 0, start)
        raise NotText(
            f"bytes that are not {_encoding_name(encoding)} text",
            offset=total - held + max(error.start, 0),
            line=line,
        ) from None


def decode_text(data: bytes, encoding: str = "utf-8-sig") -> str:
    """The bytes of a whole file as text; raises :class:`NotText` where they are not."""
    return _decode(encoding, codecs.getincrementaldecoder(encoding)("strict"), data, True, 0, [])


def _check_nul(chunk: bytes, total: int, before: list[str]) -> None:
    nul = chunk.find(b"\0")
    if nul >= 0:
        line = 1 + sum(part.count("\n") for part in before) + chunk.count(b"\n", 0, nul)
        raise NotText("a NUL byte: binary data, not text", offset=total + nul, line=line)


def _encoding_name(encoding: str) -> str:
    return "UTF-8" if codecs.lookup(encoding).name.startswith("utf-8") else encoding


class _Counted(io.RawIOBase):
    """A binary stream that refuses to give more than ``limit`` bytes in all."""

    def __init__(self, stream: IO[bytes], limit: int) -> None:
        super().__init__()
        self.stream = stream
        self.limit = limit
        self.total = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.stream.read(len(buffer))
        self.total += len(data)
        if self.total > self.limit:
            raise InputTooLarge(self.limit)
        buffer[: len(data)] = data
        return len(data)


def read_lines(
    stream: IO[bytes], *, max_bytes: int = MAX_INPUT_BYTES, encoding: str = "utf-8"
) -> Iterator[tuple[int, str]]:
    """(line number, text with its line ending) for each line of a binary stream, decoded one
    line at a time so that an undecodable byte is reported with its line. A byte-order mark at
    the start is dropped; NUL bytes are dropped (some State Board files hold them)."""
    buffered = io.BufferedReader(_Counted(stream, max_bytes), buffer_size=_CHUNK)
    number = 0
    offset = 0
    while True:
        raw = buffered.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES:
            raise InputTooLarge(MAX_LINE_BYTES, line=number, what="line")
        if number == 1 and raw.startswith(codecs.BOM_UTF8) and _encoding_name(encoding) == "UTF-8":
            raw = raw[len(codecs.BOM_UTF8) :]
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as error:
            raise NotText(
                f"bytes that are not {_encoding_name(encoding)} text",
                offset=offset + error.start,
                line=number,
            ) from None
        offset += len(raw)
        yield number, text.replace("\x00", "")
