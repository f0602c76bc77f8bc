"""The rows of a results file, read as a stream from either layout and given one at a time to
a sink that keeps what it needs of them (:mod:`simulator.input.importer` describes the layouts,
and keeps summaries, one contest's rows or every contest's).

The file is opened plain, gzip- or zip-compressed (told apart by its first bytes), decoded one
line at a time and read up to a limit of text (:func:`simulator.input.files.read_lines`); every
way it can fail is an :class:`ImportResultsError` naming the file, and a row's line. Nothing here
keeps a row once it is given to the sink: the readers keep the tidied names of the contests (a
dict as long as the contests) and of the reporting unit being read.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import gzip
import io
import os
import re
import zipfile
import zlib
from collections.abc import Callable, Iterator
from datetime import date, datetime
from pathlib import Path
from typing import IO, Protocol, cast

from simulator.input.files import InputTooLarge, NotText, describe_size, read_lines
from simulator.model.errors import ImportResultsError
from simulator.model.events import MAX_VOTES

__all__ = ["OPENELECTIONS", "RESULTS_PCT", "RowSink", "read_rows"]

OPENELECTIONS = "openelections"
RESULTS_PCT = "results_pct"
_OPENELECTIONS_COLUMNS = ("county", "precinct", "office", "district", "party", "candidate", "votes")
_RESULTS_PCT_COLUMNS = ("County", "Precinct", "Contest Name", "Choice", "Total Votes")
_GZIP_MAGIC = b"\x1f\x8b"
_ZIP_MAGIC = b"PK\x03\x04"
_FILE_DAY = re.compile(r"(?<!\d)((?:19|20)\d{6})(?:__|_|-|\.)")


class RowSink(Protocol):
    """What the readers give each row to."""

    def add(
        self, contest: str, unit: str, candidate: str, votes: int, party: str, path: Path, line: int
    ) -> None:
        """The row on ``line`` of ``path``: ``votes`` for ``candidate`` (as written) in
        ``contest`` at the reporting unit ``unit``."""

    def vote_for(self, contest: str, seats: int, path: Path, line: int) -> None:
        """A row's ``Vote For`` (results_pct files only)."""


@contextlib.contextmanager
def _opened(path: Path) -> Iterator[IO[bytes]]:
    """The file's bytes as a stream: plain, or decompressed as it is read (gzip, or the first
    .txt/.csv/.tsv member of a zip archive), told apart by the first bytes."""
    try:
        raw = path.open("rb")
    except (OSError, ValueError) as error:  # ValueError: a NUL in the name
        reason = getattr(error, "strerror", None) or error
        raise ImportResultsError(
            f"{path}: expected a readable results file; found {reason}"
        ) from None
    with raw:
        try:
            magic = raw.peek(4)[:4] if isinstance(raw, io.BufferedReader) else b""
        except OSError as error:  # a folder opens but does not read
            raise ImportResultsError(
                f"{path}: expected a readable results file; found {error.strerror or error}"
            ) from None
        if magic.startswith(_GZIP_MAGIC):
            with gzip.GzipFile(fileobj=raw) as inflated:
                yield cast("IO[bytes]", inflated)
        elif magic.startswith(_ZIP_MAGIC):
            try:
                archive = zipfile.ZipFile(raw)
            except (zipfile.BadZipFile, OSError) as error:
                raise ImportResultsError(f"{path}: expected a zip archive; found {error}") from None
            with archive:
                members = [
                    m for m in archive.namelist() if m.lower().endswith((".txt", ".csv", ".tsv"))
                ]
                if not members:
                    raise ImportResultsError(
                        f"{path}: expected a zip archive holding a .txt or .csv results file; "
                        f"found {archive.namelist()[:10]}"
                    )
                with archive.open(members[0]) as member:
                    yield member
        else:
            yield raw


def _lines(
    stream: IO[bytes], path: Path, *, max_bytes: int, encoding: str
) -> Iterator[tuple[int, str]]:
    """Numbered lines of text; every way the bytes can fail is an :class:`ImportResultsError`."""
    try:
        yield from read_lines(stream, max_bytes=max_bytes, encoding=encoding)
    except InputTooLarge as error:
        if error.line is not None:
            raise ImportResultsError(
                f"{path}:{error.line}: expected a line of at most {describe_size(error.limit)}; "
                "found a longer one"
            ) from None
        raise ImportResultsError(
            f"{path}: expected at most {describe_size(error.limit)} of results (uncompressed); "
            f"found more (raise the limit with --max-bytes)"
        ) from None
    except NotText as error:
        raise ImportResultsError(
            f"{path}:{error.line}: expected text in {encoding}; found {error.reason} (at byte "
            f"{error.offset}); pass --encoding with the file's encoding (e.g. cp1252) to read it"
        ) from None
    except (OSError, EOFError, zipfile.BadZipFile, zlib.error) as error:
        raise ImportResultsError(
            f"{path}: expected complete compressed data; found a damaged stream ({error})"
        ) from None


def _day_from_name(path: Path) -> date | None:
    found = _FILE_DAY.search(path.name)
    if not found:
        return None
    try:
        return datetime.strptime(found.group(1), "%Y%m%d").date()
    except ValueError:
        return None


def _parse_day(text: str) -> date | None:
    text = text.strip()
    for fmt in ("%m/%d/%Y", "%Y-%m-%d", "%Y%m%d"):
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def _votes(text: str, path: Path, line: int, column: str) -> int:
    text = text.strip().replace(",", "")
    if not text:
        # (read as 0 before: a missing count is not a count of nobody)
        raise ImportResultsError(
            f"{path}:{line}: {column}: expected a whole number of votes; found an empty cell"
        )
    try:
        value = int(text)
    except ValueError:
        raise ImportResultsError(
            f"{path}:{line}: {column}: expected a whole number of votes; found {text!r}"
        ) from None
    if value < 0:
        raise ImportResultsError(
            f"{path}:{line}: {column}: expected a number of votes, 0 or more; found {value}"
        )
    if value > MAX_VOTES:
        raise ImportResultsError(
            f"{path}:{line}: {column}: expected a number of votes, at most {MAX_VOTES:,}; "
            f"found a number of {len(text.lstrip('+-0'))} digits"
        )
    return value


def _csv_rows(numbered: Iterator[tuple[int, str]], path: Path) -> Iterator[tuple[int, list[str]]]:
    """CSV rows with the line each starts on; an oversize field is invalid input."""
    current = [0, 0]  # the last line read, and the first line of the row being read

    def texts() -> Iterator[str]:
        for number, text in numbered:
            if current[1] == 0:
                current[1] = number
            current[0] = number
            yield text

    reader = csv.reader(texts())
    while True:
        current[1] = 0
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise ImportResultsError(
                f"{path}:{current[1] or current[0]}: expected CSV fields of at most "
                f"{csv.field_size_limit():,} characters, quoted properly; found {error}"
            ) from None
        # (a row is named by the line it starts on: a quote left open runs on over the lines
        # after it, which were named instead)
        yield current[1] or current[0], row


def _read_openelections(
    numbered: Iterator[tuple[int, str]],
    header: list[str],
    path: Path,
    out: RowSink,
    keep: Callable[[str], bool] | None = None,
) -> None:
    col = {name.strip().lower(): i for i, name in enumerate(header)}
    c_county, c_precinct, c_office = col["county"], col["precinct"], col["office"]
    c_district, c_party = col.get("district"), col.get("party")
    c_candidate, c_votes = col["candidate"], col["votes"]
    width = max(col.values()) + 1
    # each office (with its district) is written on many rows: tidied once (a dict as long as
    # the contests); a unit's rows come together: its name is tidied once for them
    offices: dict[tuple[str, str], str] = {}
    where_before: tuple[str, str] | None = None
    unit = ""
    for line, row in _csv_rows(numbered, path):
        if not "".join(row).strip():  # no cell with anything but spaces in it
            continue
        if len(row) != len(header) and (len(row) < width or any(c.strip() for c in row[width:])):
            # (a cell past the header's columns would be left out without a word)
            raise ImportResultsError(
                f"{path}:{line}: expected {len(header)} comma-separated columns "
                f"({','.join(header)}); found {len(row)}"
            )
        written = (row[c_office], row[c_district] if c_district is not None else "")
        office = offices.get(written)
        if office is None:
            office = offices[written] = _office(*written)
        if keep is not None and not keep(office):
            continue
        where = (row[c_county], row[c_precinct])
        if where != where_before:
            where_before = where
            unit = " ".join(f"{where[0]} {where[1]}".split()) or "(no precinct)"
        party = row[c_party] if c_party is not None else ""
        votes = _votes(row[c_votes], path, line, "votes")
        out.add(office, unit, row[c_candidate], votes, party, path, line)


def _office(office: str, district: str) -> str:
    """An openelections office, with its district unless the office already names it."""
    office = " ".join(office.split())
    district = district.strip()
    if district and not re.search(rf"\b{re.escape(district)}\b", office, re.IGNORECASE):
        office = f"{office} DISTRICT {district}"
    return office


def _read_results_pct(
    lines: Iterator[tuple[int, str]],
    header: list[str],
    path: Path,
    out: RowSink,
    keep: Callable[[str], bool] | None = None,
) -> date | None:
    col = {name.strip(): i for i, name in enumerate(header)}
    c_county, c_precinct = col["County"], col["Precinct"]
    c_contest, c_choice, c_total = col["Contest Name"], col["Choice"], col["Total Votes"]
    c_party, c_vote_for, c_date = (
        col.get("Choice Party"),
        col.get("Vote For"),
        col.get("Election Date"),
    )
    width = max(col.values()) + 1
    day: date | None = None
    for line, text in lines:
        if not text.strip():
            continue
        row = text.rstrip("\r\n").split("\t")
        if len(row) < width:
            raise ImportResultsError(
                f"{path}:{line}: expected {len(header)} tab-separated columns; found {len(row)}"
            )
        contest = " ".join(row[c_contest].split())
        if c_date is not None:
            on = _parse_day(row[c_date])
            if day is None:
                day = on
            elif on is not None and on != day:
                raise ImportResultsError(
                    f"{path}:{line}: Election Date: expected the date of the rows before, "
                    f"{day.isoformat()}; found {row[c_date].strip()!r}"
                )
        if keep is not None and not keep(contest):
            continue
        unit = " ".join(f"{row[c_county]} {row[c_precinct]}".split()) or "(no precinct)"
        party = row[c_party] if c_party is not None else ""
        votes = _votes(row[c_total], path, line, "Total Votes")
        out.add(contest, unit, row[c_choice], votes, party, path, line)
        if c_vote_for is not None and row[c_vote_for].strip():
            out.vote_for(contest, _votes(row[c_vote_for], path, line, "Vote For"), path, line)
    return day


def read_rows(
    path: str | os.PathLike[str],
    out: RowSink,
    *,
    encoding: str,
    max_bytes: int,
    keep: Callable[[str], bool] | None = None,
) -> tuple[str, date | None]:
    """Read the rows of a results file into ``out``, as a stream of lines in ``encoding`` (a
    UTF-8 byte-order mark allowed), at most ``max_bytes`` of text; the file's layout
    (:data:`OPENELECTIONS` or :data:`RESULTS_PCT`) and election day (if it tells). With
    ``keep``, only the rows of the contests whose names it accepts: the others' rows are passed
    over once their contest's name is read (their other cells are not read or checked)."""
    p = Path(path)
    try:
        # (base64, zlib, rot13 are codecs too, but of bytes to bytes or text to text: reading
        # with one stopped the program)
        text_encoding = codecs.lookup(encoding)._is_text_encoding
    except LookupError:
        text_encoding = False
    if not text_encoding:
        raise ImportResultsError(
            "--encoding: expected a Python codec name of a text encoding such as utf-8 or "
            f"cp1252; found {encoding!r}"
        )
    with _opened(p) as stream:
        lines = _lines(stream, p, max_bytes=max_bytes, encoding=encoding)
        first = next(lines, (1, ""))[1].rstrip("\r\n")
        if "\t" in first:
            header = [h.strip() for h in first.split("\t")]
            if all(c in header for c in _RESULTS_PCT_COLUMNS):
                day = _read_results_pct(lines, header, p, out, keep)
                return RESULTS_PCT, day or _day_from_name(p)
        try:
            header = next(csv.reader([first]), [])
        except csv.Error as error:
            raise ImportResultsError(f"{path}:1: expected a CSV header; found {error}") from None
        names = [h.strip().lower() for h in header]
        if all(c in names for c in ("county", "precinct", "office", "candidate", "votes")):
            _read_openelections(lines, header, p, out, keep)
            return OPENELECTIONS, _day_from_name(p)
    raise ImportResultsError(
        f"{path}: expected a results file with the header {','.join(_OPENELECTIONS_COLUMNS)} "
        f"(openelections) or a tab-separated State Board results_pct header with "
        f"{', '.join(_RESULTS_PCT_COLUMNS)}; found {first[:120]!r}"
    )
