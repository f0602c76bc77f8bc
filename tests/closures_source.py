"""Writes ``simulator/law/closures.py`` from the installed ``holidays`` package.

Run ``python tests/closures_source.py`` when the package's North Carolina schedule changes
(``tests/law/test_calendar.py`` fails then, naming the first year that differs).
"""

from __future__ import annotations

import json
from pathlib import Path

FIRST, LAST = 1900, 2200

HEAD = '''\
"""North Carolina's State holidays, when the board's office is closed (G.S. 103-5(a)), as a
precomputed table for {first} to {last}: the schedule the ``holidays`` package gives for the
United States, subdivision NC. A look-up costs a slice of a string, where the package loads every
country's module on first use; ``tests/law/test_calendar.py`` checks the table against the package
for every year, and a year outside the table asks the package itself.

Each year is one string of 7-character entries: a year offset (0 = the year before, 1 = this
year, 2 = the next: an observed day can fall across the new year), month, day, and the index of
the holiday's name in :data:`NAMES`. Written by ``tests/closures_source.py``; do not edit.
"""

from __future__ import annotations

from datetime import date
from functools import cache

FIRST, LAST = {first}, {last}
NAMES = (
{names}
)
_YEARS = (
{years}
)


@cache
def closures(year: int) -> dict[date, str]:
    """The holidays the package lists for ``year`` (an observed day may fall in a neighbour)."""
    if not FIRST <= year <= LAST:
        import holidays

        table = holidays.country_holidays("US", subdiv="NC", years=year)
        return {{d: str(name) for d, name in table.items()}}
    code = _YEARS[year - FIRST]
    out: dict[date, str] = {{}}
    for i in range(0, len(code), 7):
        day = date(year + int(code[i]) - 1, int(code[i + 1 : i + 3]), int(code[i + 3 : i + 5]))
        out[day] = NAMES[int(code[i + 5 : i + 7])]
    return out
'''


def source() -> str:
    import holidays

    table = {}
    for y in range(FIRST, LAST + 1):
        got = holidays.country_holidays("US", subdiv="NC", years=y)
        table[y] = sorted((d, str(n)) for d, n in got.items())
    names = sorted({n for rows in table.values() for _, n in rows})
    index = {n: i for i, n in enumerate(names)}
    years = [
        '    "'
        + "".join(f"{d.year - y + 1}{d.month:02d}{d.day:02d}{index[n]:02d}" for d, n in rows)
        + '",'
        for y, rows in table.items()
    ]
    return HEAD.format(
        first=FIRST,
        last=LAST,
        names="\n".join(f"    {json.dumps(n)}," for n in names),
        years="\n".join(years),
    )


if __name__ == "__main__":
    Path(__file__).resolve().parent.parent.joinpath("simulator", "closures.py").write_text(source())
