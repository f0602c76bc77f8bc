"""The method each town's elections show in the results, and the towns whose method the data
README lists wrongly or omits.

:func:`method_table` derives, for every town the results name, the method its elections show
(the table :mod:`simulator.law.towns` bundles, which ``electsim new`` reads); run
``python -m simulator.analysis.conformance.town_methods --write`` to write it afresh from the
results files (``--data DIR``, else where ``electsim conformance`` finds them). Each year's files
tell a town's method by what they hold of it:

* a party primary in September, a party's second primary in October, or party labels on its
  November ballot: **partisan**;
* a first election in October (a contest with a write-in line, which a primary ballot has not:
  :func:`~simulator.analysis.conformance.matching.october_kind`): **nonpartisan-runoff**, the
  runoff (if one was requested) in November;
* a nonpartisan primary in October: **nonpartisan-primary**;
* a November election and nothing before it: **nonpartisan-plurality**, or a nonpartisan
  primary town where no more than twice the seats filed (163-294(a): no primary is held).

A town takes the method of the last year that shows one; a year with only a November election
after a year with a primary keeps the primary method (the primary was not needed), while after
a year of the runoff or partisan method it shows a change to plurality (a runoff town always
holds its first election in October, a partisan town's ballot always names the parties).

:func:`town_methods` lists the towns that hold deciding October elections without being among
the data README's runoff towns, and listed runoff towns whose offices are elected in November
without an October election; each with the evidence.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path

import attrs

from simulator.analysis.conformance.data import TOWNS
from simulator.analysis.conformance.matching import (
    OctoberKind,
    OfficeIndex,
    is_office,
    october_kind,
    party_of,
    same_person,
    town_name,
)
from simulator.analysis.conformance.wording import who
from simulator.input.importer import ContestReturns, ResultsFile, split_contest_name
from simulator.law.towns import TownMethod, town_key
from simulator.law.vocab import Method
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
            runoff = _runoff_of(c, nov)
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


# ---------------------------------------------------------------------------------------------
# The method each town's elections show (the table simulator.law.towns bundles)


class _Sign(StrEnum):
    """What one year's files show of a town, in the words of the table's evidence."""

    PARTY_PRIMARY = "a party primary in September or a party's second primary in October"
    PARTY_BALLOT = "party labels on the November ballot"
    FIRST_ELECTION = "a first election in October"
    RUNOFF = "a runoff in November"
    PRIMARY = "a nonpartisan primary in October"
    NOVEMBER = "a November election with no primary or election before it"


#: The method each sign shows (a November election alone shows none for certain).
_SHOWS: dict[_Sign, Method | None] = {
    _Sign.PARTY_PRIMARY: Method.PARTISAN,
    _Sign.PARTY_BALLOT: Method.PARTISAN,
    _Sign.FIRST_ELECTION: Method.RUNOFF,
    _Sign.RUNOFF: Method.RUNOFF,
    _Sign.PRIMARY: Method.PRIMARY,
    _Sign.NOVEMBER: None,
}
#: Which method a year shows when its signs show several (a party's primaries decide; then a
#: deciding October election).
_FIRST = (Method.PARTISAN, Method.RUNOFF, Method.PRIMARY)


def _year_method(signs: set[_Sign]) -> Method | None:
    shown = {_SHOWS[s] for s in signs}
    return next((m for m in _FIRST if m in shown), None)


def method_table(results: dict[tuple[int, int], ResultsFile | None]) -> list[TownMethod]:
    """Every town the results name, with the method its elections show and the evidence, by
    town (the rules: the module's docstring)."""
    signs: dict[str, dict[int, set[_Sign]]] = {}
    names: dict[str, tuple[int, str, str]] = {}  # key -> (year, town, municipality) last seen

    def saw(contest: ContestReturns, year: int, sign: _Sign | None) -> str | None:
        town = town_name(contest.name)
        if town is None or not is_office(contest):
            return None
        key = town_key(town)
        if names.get(key, (0,))[0] <= year:
            names[key] = (year, town, split_contest_name(contest.name)[0])
        if sign is not None:
            signs.setdefault(key, {}).setdefault(year, set()).add(sign)
        return key

    for year in sorted({y for y, _ in results}):
        before: set[str] = set()  # the towns with a contest in September or October
        for c in _contests(results.get((year, 9))):
            if c.party or party_of(c.name):
                before.add(saw(c, year, _Sign.PARTY_PRIMARY) or "")
        nov = results.get((year, 11))
        nov_index = OfficeIndex(nov)
        for c in _contests(results.get((year, 10))):
            kind, _ = october_kind(c)
            if kind is OctoberKind.SECOND_PRIMARY:
                sign = _Sign.PARTY_PRIMARY
            elif kind is OctoberKind.ELECTION:
                sign = _Sign.FIRST_ELECTION
            else:
                sign = _Sign.PRIMARY
            key = saw(c, year, sign)
            if key is None:
                continue
            before.add(key)
            if kind is OctoberKind.ELECTION and _runoff_of(c, nov_index):
                signs[key][year].add(_Sign.RUNOFF)
        for c in _contests(nov):
            labelled = any(p for _, p in c.parties)
            key = saw(c, year, _Sign.PARTY_BALLOT if labelled else None)
            if key is not None and not labelled and key not in before:
                signs.setdefault(key, {}).setdefault(year, set()).add(_Sign.NOVEMBER)
    out = [_town_row(names[key][1], names[key][2], signs.get(key, {})) for key in names]
    return sorted(out, key=lambda r: town_key(r.town))


def _contests(found: ResultsFile | None) -> tuple[ContestReturns, ...]:
    return found.contests if found is not None else ()


def _runoff_of(october: ContestReturns, november: OfficeIndex) -> list[ContestReturns]:
    """The November runoff of an October first election: the same office, no write-in line,
    only candidates of the October field."""
    return [
        n
        for n in november.find(october.name)
        if not any(is_write_in(x) for x in n.candidates)
        and all(any(same_person(o, x) for o in october.filers) for x in n.filers)
    ]


def _town_row(town: str, municipality: str, by_year: dict[int, set[_Sign]]) -> TownMethod:
    """A town's row: the method of the last year that shows one (a November election alone
    keeps a primary town's method, and shows a runoff or partisan town's change to plurality),
    the signs since the last year that showed another method, then the signs before it."""
    years = sorted(by_year)
    shown = [(y, m) for y in years if (m := _year_method(by_year[y])) is not None]
    if not shown:
        method = Method.PLURALITY
    elif _year_method(by_year[years[-1]]) is None and shown[-1][1] is not Method.PRIMARY:
        method = Method.PLURALITY  # a runoff or partisan town since elected in November only
    else:
        method = shown[-1][1]

    def agrees(y: int) -> bool:
        m = _year_method(by_year[y])
        return m is method or (m is None and method in (Method.PLURALITY, Method.PRIMARY))

    changed = max((y for y in years if not agrees(y)), default=None)
    now = [y for y in years if changed is None or y > changed]
    evidence = _signs_text(by_year, now)
    if method is Method.PRIMARY and any(_Sign.NOVEMBER in by_year[y] for y in now):
        evidence += " (no primary is held where no more than twice the seats file)"
    if changed is not None:
        evidence += "; before that, " + _signs_text(by_year, [y for y in years if y <= changed])
    return TownMethod(town, municipality, method, evidence)


def _signs_text(by_year: dict[int, set[_Sign]], years: list[int]) -> str:
    """ "a first election in October in 2011, 2013; a runoff in November in 2013"."""
    parts = []
    for sign in _Sign:
        held = [str(y) for y in years if sign in by_year[y]]
        if held:
            parts.append(f"{sign.value} in {', '.join(held)}")
    return "; ".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m simulator.analysis.conformance.town_methods [--data DIR] [--write]``: print
    the table derived from the results files, or write it over the bundled one."""
    import argparse
    import sys

    from simulator.analysis.conformance.data import (
        FIRST_YEAR,
        LAST_YEAR,
        data_folder,
        files_by_month,
        read_ahead,
        results_file,
    )
    from simulator.law.towns import TABLE, table_text

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--data", metavar="DIR", help="folder of results files")
    parser.add_argument("--write", action="store_true", help=f"write {TABLE.name}")
    args = parser.parse_args(argv)
    files = {
        k: p
        for k, p in files_by_month(data_folder(args.data)).items()
        if FIRST_YEAR <= k[0] <= LAST_YEAR
    }
    read_ahead(files.values())
    text = table_text(method_table({k: results_file(p) for k, p in files.items()}))
    if args.write:
        TABLE.write_text(text, encoding="utf-8")
        print(f"wrote {TABLE} ({text.count(chr(10)) - 1} towns)", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
