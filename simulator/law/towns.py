"""The method each North Carolina town's elections show in the State Board's results, 2011-2025,
with the evidence: the table ``electsim new`` takes a town's method from.

A town chooses its method by ordinance or charter (G.S. 163-290(a)); no statute lists them. The
table, ``town_methods.csv`` beside this module, is derived from the results files of the
odd-year municipal elections (September party primaries, October first elections and
nonpartisan primaries, November elections and runoffs) by
``python -m simulator.analysis.conformance.town_methods --write``, which says how each method is
told from the files; a test checks the table against the files where they are present.

>>> town_method("Town of Erwin").method.value
'nonpartisan-runoff'
>>> town_method("erwin") == town_method("TOWN OF ERWIN")
True
>>> town_method("Town of Nowhere") is None
True
"""

from __future__ import annotations

import csv
import io
import re
from functools import cache
from pathlib import Path

import attrs

from simulator.law.vocab import Method

#: The bundled table (written by the generator named in the module's docstring).
TABLE = Path(__file__).with_name("town_methods.csv")
#: Its columns, in order.
COLUMNS = ("town", "municipality", "method", "evidence")
#: The years of results the table was derived from.
FIRST_YEAR, LAST_YEAR = 2011, 2025


@attrs.frozen
class TownMethod:
    """A town, as the results name it, the method its elections show, and the evidence."""

    town: str  # "Cary"
    municipality: str  # "Town of Cary"
    method: Method
    evidence: str  # in words: which years' results show what


def town_key(name: str) -> str:
    """A town's name for looking it up: case, spacing and a leading "Town of", "City of" or
    "Village of" ignored.

    >>> town_key("  Town of  Rocky Mount "), town_key("ROCKY MOUNT")
    ('rocky mount', 'rocky mount')
    """
    words = " ".join(name.split()).casefold()
    return re.sub(r"^(?:the )?(?:city|town|village) of ", "", words)


def table_text(rows: list[TownMethod]) -> str:
    """The table as the CSV text of ``town_methods.csv``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in rows:
        writer.writerow((r.town, r.municipality, r.method.value, r.evidence))
    return out.getvalue()


def read_table(text: str) -> tuple[TownMethod, ...]:
    """The rows of a CSV text written by :func:`table_text`."""
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header is None or tuple(header) != COLUMNS:
        raise ValueError(f"town methods table: expected the columns {COLUMNS}; found {header}")
    return tuple(TownMethod(t, m, Method(method), e) for t, m, method, e in reader)


@cache
def town_methods() -> dict[str, TownMethod]:
    """The bundled table, by :func:`town_key`."""
    return {town_key(r.town): r for r in read_table(TABLE.read_text(encoding="utf-8"))}


def town_method(name: str) -> TownMethod | None:
    """The method a town's elections show in the results, 2011-2025; None for a town the table
    does not hold (a town the results never name, or a misspelling)."""
    return town_methods().get(town_key(name))


def close_towns(name: str, *, n: int = 3) -> list[str]:
    """The towns of the table that ``name`` looks like (a misspelling, or a part of the name),
    best first.

    >>> close_towns("Town of Carry")
    ['Cary']
    """
    import difflib  # (only for a town that is not in the table)

    key = town_key(name)
    table = town_methods()
    close = difflib.get_close_matches(key, list(table), n=n, cutoff=0.8)
    if not close and len(key) >= 3:
        close = [k for k in table if k.startswith(key) or key in k.split(" ")][:n]
    return [table[k].town for k in close]
