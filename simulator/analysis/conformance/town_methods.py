"""Towns whose method the data README lists wrongly or omits: towns that hold deciding October
elections without being among its runoff towns, and listed runoff towns whose offices are
elected in November without an October election; each with the evidence."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import attrs

from simulator.analysis.conformance.data import TOWNS
from simulator.analysis.conformance.matching import (
    OctoberKind,
    OfficeIndex,
    is_office,
    october_kind,
    same_person,
    town_name,
)
from simulator.analysis.conformance.wording import who
from simulator.input.importer import ResultsFile
from simulator.model.events import is_write_in


@attrs.frozen
class TownFinding:
    """A town whose method the data README lists wrongly or omits, with the evidence."""

    town: str
    finding: str
    evidence: tuple[str, ...]


def town_methods(
    files: dict[tuple[int, int], Path],
    results: dict[tuple[int, int], ResultsFile | None],
    towns: Sequence[str] = TOWNS,
) -> list[TownFinding]:
    """Towns whose method the data README lists wrongly or omits, with the evidence."""
    listed = {t.casefold() for t in towns}
    deciding: dict[str, list[str]] = {}
    primary_years: dict[str, set[int]] = {}
    november_only: dict[str, list[str]] = {}
    for (year, month), found in sorted(results.items()):
        if month != 10 or found is None:
            continue
        nov = OfficeIndex(results.get((year, 11)))
        october_towns: set[str] = set()
        for c in found.contests:
            town = town_name(c.name)
            if town is None or not is_office(c):
                continue
            october_towns.add(town.casefold())
            kind, _ = october_kind(c)
            if kind is OctoberKind.NONPARTISAN_PRIMARY:
                primary_years.setdefault(town.casefold(), set()).add(year)
            if kind is not OctoberKind.ELECTION or town.casefold() in listed:
                continue
            runoff = [
                n
                for n in nov.find(c.name)
                if not any(is_write_in(x) for x in n.candidates)
                and all(any(same_person(o, x) for o in c.filers) for x in n.filers)
            ]
            what = f"{year} {c.name} (write-in line)"
            if runoff:
                what += f"; November runoff {who(runoff[0].filers)}"
            deciding.setdefault(town, []).append(what)
        nov_file = results.get((year, 11))
        if nov_file is None:
            continue
        for c in nov_file.contests:
            town = town_name(c.name)
            if town is None or town.casefold() not in listed or not is_office(c):
                continue
            if town.casefold() not in october_towns:
                november_only.setdefault(town, []).append(f"{year} {c.name}")
    out: list[TownFinding] = []
    for town, evidence in sorted(deciding.items()):
        runoffs = sum(1 for e in evidence if "November runoff" in e)
        years = sorted({int(e[:4]) for e in evidence})
        other = sorted(primary_years.get(town.casefold(), set()))
        out.append(
            TownFinding(
                town,
                "held deciding elections in October in "
                + ", ".join(map(str, years))
                + " but is not among the data README's runoff towns"
                + (
                    f"; {runoffs} November runoff(s) show the election-and-runoff method"
                    if runoffs
                    else ""
                )
                + (
                    "; it held nonpartisan primaries in "
                    + ", ".join(map(str, other))
                    + ": it changed method"
                    if other
                    else ""
                ),
                tuple(evidence),
            )
        )
    for town, evidence in sorted(november_only.items()):
        listed_years = sorted({e[:4] for e in evidence})
        out.append(
            TownFinding(
                town,
                "listed by the data README as a runoff town, but in "
                + ", ".join(listed_years)
                + " it elected in November with no October election",
                tuple(evidence),
            )
        )
    return out
