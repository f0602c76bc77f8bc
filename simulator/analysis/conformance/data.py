"""The data the conformance checks read: what they cover (the methods, the years, the runoff towns
the data README lists), where the results files are, each month's file, read once.

The results files are the openelections / State Board conversions in ``../shared/data`` (or
wherever ``--data`` or ``ELECTSIM_DATA`` says), named ``YYYYMMDD__...``: the date of the ballot
they hold.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable
from datetime import date
from pathlib import Path

from simulator.input.importer import ResultsFile, read_results, split_contest_name
from simulator.law.vocab import Method
from simulator.model.errors import ImportResultsError

#: The methods ``electsim conformance --method`` checks.
METHODS: tuple[str, ...] = (Method.RUNOFF.value, Method.PRIMARY.value, Method.PARTISAN.value)

#: The towns that used the election-and-runoff method in 2019 (data README, from Ballotpedia).
TOWNS: tuple[str, ...] = (
    "Atlantic Beach",
    "Cary",
    "Dobbins Heights",
    "Dunn",
    "Elizabeth City",
    "Erwin",
    "Henderson",
    "Monroe",
    "Raleigh",
    "Rocky Mount",
    "Statesville",
)

#: The years the data covers and the checks read.
FIRST_YEAR, LAST_YEAR = 2011, 2025
#: A results file's name: the ``YYYYMMDD`` of its ballot, then ``__``.
RESULTS_FILE_NAME = re.compile(r"^((?:19|20)\d{2})(\d{2})(\d{2})__")


# ---------------------------------------------------------------------------------------------
# Finding the data


#: The environment variable naming the folder of results files (see :func:`find_data_dir`).
DATA_ENV = "ELECTSIM_DATA"


def find_data_dir(given: str | Path | None = None) -> Path | None:
    """The folder of results files: ``given`` (the data folder or its ``nc-results``), else
    the folder named by the ``ELECTSIM_DATA`` environment variable, else ``../shared/data``
    beside the project (or the working directory). None when there is no such folder."""
    if given is None and os.environ.get(DATA_ENV):
        given = os.environ[DATA_ENV]
    if given is not None:
        candidates = [Path(given)]
    else:
        root = Path(__file__).resolve().parents[3]
        candidates = [
            root.parent / "shared" / "data",
            Path.cwd().parent / "shared" / "data",
            Path.cwd() / "shared" / "data",
        ]
    for base in candidates:
        for folder in (base / "nc-results", base):
            if folder.is_dir() and any(RESULTS_FILE_NAME.match(p.name) for p in folder.iterdir()):
                return folder
    return None


def data_folder(data_dir: str | Path | None) -> Path:
    """:func:`find_data_dir`, or an :class:`ImportResultsError` saying where none was found."""
    folder = find_data_dir(data_dir)
    if folder is None:
        where = data_dir if data_dir is not None else "../shared/data"
        raise ImportResultsError(
            f"--data: expected a folder of results files named YYYYMMDD__... (or its "
            f"nc-results/); found none at {where}"
        )
    return folder


def month_files(folder: Path) -> dict[tuple[int, int], list[Path]]:
    """(year, month) -> the results files of that month, by name, from the ``YYYYMMDD__``
    file names."""
    out: dict[tuple[int, int], list[Path]] = {}
    for p in sorted(folder.iterdir()):
        m = RESULTS_FILE_NAME.match(p.name)
        if m and p.is_file():
            out.setdefault((int(m.group(1)), int(m.group(2))), []).append(p)
    return out


def files_by_month(folder: Path) -> dict[tuple[int, int], Path]:
    """(year, month) -> results file (the first by name: ``electsim conformance`` refuses a
    folder with two for one month)."""
    return {k: v[0] for k, v in month_files(folder).items()}


def file_day(path: Path) -> date:
    """The day of the ballot a results file holds, from its name."""
    m = RESULTS_FILE_NAME.match(path.name)
    assert m is not None
    return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))


# ---------------------------------------------------------------------------------------------
# Reading the files


def results_file(path: str | os.PathLike[str]) -> ResultsFile:
    """:func:`read_results`, once per file and version, its municipal contests only: the
    runoff check, its unlisted towns and the primaries read the same files (a changed file is
    read again)."""
    key = _file_key(path)
    found = _READ.get(key)
    if found is None:
        if len(_READ) >= 64:
            _READ.clear()
        found = _READ[key] = _read_municipal(key[0])
    return found


#: the results files read, by path, modification time and size
_READ: dict[tuple[str, int, int], ResultsFile] = {}


def _file_key(path: str | os.PathLike[str]) -> tuple[str, int, int]:
    st = os.stat(path)
    return os.fspath(path), st.st_mtime_ns, st.st_size


def _read_municipal(path: str) -> ResultsFile:
    # every check looks at municipal contests only (CITY/TOWN/VILLAGE OF ...): the rest of a
    # statewide file (nine rows in ten) is passed over as it is read
    return read_results(path, keep=is_municipal)


def _read_quietly(path: str) -> ResultsFile | None:
    """A results file read in a helper process; None where it cannot be read (the run reads
    it again itself, and says what is wrong)."""
    try:
        return _read_municipal(path)
    except Exception:  # said where the run reads it again
        return None


def read_ahead(paths: Iterable[str | os.PathLike[str]]) -> None:
    """Read the results files a run is about to read, half of them in one more process while
    this one reads the others (the largest first, alternately): what the run then asks
    :func:`results_file` for is read already. Only where processes can be forked and there
    are two processors or more; otherwise (and for a file the helper could not read) each
    file is read when it is first asked for, as before."""
    keys = sorted({k for k in map(_file_key, paths) if k not in _READ}, key=lambda k: (-k[2], k[0]))
    if len(keys) < 2 or (os.cpu_count() or 1) < 2:
        return
    # (the process pool's modules are imported where one is started: a replay does without)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if "fork" not in multiprocessing.get_all_start_methods():
        return
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        theirs = [(k, pool.submit(_read_quietly, k[0])) for k in keys[0::2]]
        for k in keys[1::2]:
            mine = _read_quietly(k[0])
            if mine is not None:
                _READ[k] = mine
        for k, future in theirs:
            found = future.result()
            if found is not None:
                _READ[k] = found


@functools.lru_cache(maxsize=1 << 14)
def is_municipal(contest_name: str) -> bool:
    """Whether a contest is a municipality's (CITY/TOWN/VILLAGE OF ...)."""
    return bool(split_contest_name(contest_name)[0])
