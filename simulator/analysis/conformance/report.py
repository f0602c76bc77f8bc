"""The conformance report as people read it: the summary by method and year, the runoff towns'
contests, the runoff-method towns the data README omits, the primaries; as plain text fitted to
a width, or as Markdown; and the primaries as plain data for JSON."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from simulator.analysis.conformance.data import FIRST_YEAR, LAST_YEAR, TOWNS
from simulator.analysis.conformance.matching import loose_key, office_key
from simulator.analysis.conformance.primaries import PrimaryCheck, PrimaryReport, explanation_for
from simulator.analysis.conformance.runoffs import Check, Report
from simulator.analysis.conformance.wording import format_table
from simulator.law.vocab import Method

# ---------------------------------------------------------------------------------------------
# The runoff towns


def _order(check: Check) -> tuple[int, str, str]:
    return check.year, check.town, office_key(check.office)


_CHECK_COLUMNS = ("year", "town", "office", "seats", "threshold", "engine", "November", "agree")


def _check_table(checks: Iterable[Check]) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The columns and rows of a table of judged contests, one row per contest."""
    rows: list[tuple[str, ...]] = [
        (
            str(c.year),
            c.town,
            c.office,
            str(c.seats if c.seats is not None else "?"),
            c.threshold or "-",
            c.engine,
            c.november,
            c.status,
        )
        for c in checks
    ]
    return _CHECK_COLUMNS, rows


def format_report(report: Report, *, markdown: bool = False, width: int | None = None) -> str:
    """The report as text (or Markdown): one line per contest, then the disagreements, the
    contests not judged, the seat counts used, the November-only contests and the calendar.
    ``width`` fits plain text to that many columns (tables wrapped, long lines wrapped)."""
    out: list[str] = []
    h = "## " if markdown else ""
    judged = report.judged
    out.append(
        f"{h}Conformance: {len(report.checks)} October contests of the {len(TOWNS)} runoff "
        f"towns, {FIRST_YEAR}-{LAST_YEAR}: {len(judged)} judged, {report.agreements} agree, "
        f"{len(report.disagreements)} disagree; {len(report.checks) - len(judged)} not judged"
    )
    kinds: dict[str, int] = {}
    for c in judged:
        kinds[c.verdict] = kinds.get(c.verdict, 0) + 1
    held = sum(1 for c in judged if c.november.startswith("runoff"))
    out.append(
        "Judged: "
        + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
        + f"; {held} runoff(s) held in November."
    )
    out.append(
        f"(data: {report.data_dir}; method nonpartisan-runoff, whole story; threshold = "
        "the majority of G.S. 163-293(a), exact)"
    )
    out.append("")
    checks = sorted(report.checks, key=_order)
    cols, rows = _check_table(checks)
    out.extend(format_table(cols, rows, markdown=markdown, width=width))
    out.append("")
    out.append(f"{h}Disagreements")
    out.extend(
        f"- {c.year} {c.town} {c.office}: {c.explanation}"
        for c in sorted(report.disagreements, key=_order)
    )
    if not report.disagreements:
        out.append("none")
    out.append("")
    out.append(f"{h}Runoffs held, replayed through the engine")
    out.extend(
        f"- {c.year} {c.town} {c.office}: {c.explanation}"
        for c in checks
        if c.november.startswith("runoff") and c.agree
    )
    out.extend(_not_judged(checks, h))
    out.append("")
    out.append(f"{h}Seat counts of groups (simulator/input/seats.py)")
    out.extend(
        dict.fromkeys(f"- {c.seat_source}" for c in checks if c.seat_source and (c.seats or 0) > 1)
    )
    out.extend(_november_only(report, h))
    out.extend(_calendar(report, h, markdown=markdown, width=width))
    if width is not None and not markdown:
        out = _wrapped(out, width)
    return "\n".join(out) + "\n"


def _not_judged(checks: Sequence[Check], h: str) -> list[str]:
    """The contests not judged, grouped by why, naming those where a runoff was possible."""
    unjudged: dict[str, list[Check]] = {}
    for c in checks:
        if c.agree is None:
            unjudged.setdefault(c.explanation, []).append(c)
    if not unjudged:
        return []
    out = ["", f"{h}Not judged"]
    for why, group in unjudged.items():
        open_ = [
            f"{c.year} {c.town} {c.office} ({c.engine})"
            for c in group
            if c.verdict in ("no majority", "tie")
        ]
        out.append(
            f"- {len(group)} contest(s): {why}."
            + (
                f" Of these, no majority (a runoff was possible): {'; '.join(open_)}."
                if open_
                else ""
            )
        )
    return out


def _november_only(report: Report, h: str) -> list[str]:
    """The November contests of the runoff towns with no October election, by town."""
    if not report.november_only:
        return []
    out = ["", f"{h}November contests of these towns with no October election (not runoffs)"]
    by_town: dict[str, list[str]] = {}
    for town, year, name, note in report.november_only:
        by_town.setdefault(f"{town}: {note}", []).append(f"{name} ({year})")
    for note, names in by_town.items():
        out.append(f"- {note} Contests: {'; '.join(names)}.")
    return out


def _calendar(report: Report, h: str, *, markdown: bool, width: int | None) -> list[str]:
    """The published dates set against the computed calendar, as a table."""
    out = [""]
    ok = sum(1 for c in report.calendar if c.agree)
    out.append(f"{h}Calendar: {ok} of {len(report.calendar)} dates agree with simulator.calendar")
    out.append("")
    out.extend(
        format_table(
            ("date", "published", "source", "computed", "rule", "agree"),
            [
                (
                    c.what,
                    c.published.isoformat(),
                    c.source,
                    c.computed.isoformat(),
                    c.rule,
                    "agree" if c.agree else "DISAGREE",
                )
                for c in report.calendar
            ],
            markdown=markdown,
            width=width,
        )
    )
    return out


def _wrapped(lines: Sequence[str], width: int) -> list[str]:
    """Lines longer than ``width`` wrapped, a list item's continuation indented."""
    wrapped: list[str] = []
    for line in lines:
        if len(line) <= width:
            wrapped.append(line)
        else:
            indent = "  " if line.startswith("- ") else ""
            wrapped.extend(textwrap.wrap(line, width, subsequent_indent=indent))
    return wrapped


#: The label of the runoff-method towns the data README omits in the summary.
UNLISTED = f"{Method.RUNOFF.value} (towns not listed)"


def format_unlisted(report: Report, *, markdown: bool = False) -> str:
    """The October elections of the towns the README omits, judged like the runoff towns'."""
    h = "## " if markdown else ""
    judged = report.judged
    out = [
        f"{h}Runoff-method towns the data README omits: {len(report.checks)} October "
        f"elections, {len(judged)} judged, {report.agreements} agree, "
        f"{len(report.disagreements)} disagree; {len(report.checks) - len(judged)} not judged",
        "(the towns found holding deciding October elections, listed at the end of the "
        "report; only their contests with a write-in line, since some changed method; groups "
        "the seat table does not know are not judged)",
        "",
    ]
    cols, rows = _check_table(sorted(report.checks, key=_order))
    out.extend(format_table(cols, rows, markdown=markdown))
    notes = [c for c in report.checks if c.agree is not None and c.explanation]
    if notes:
        out.append("")
        out.extend(f"- {c.year} {c.town} {c.office}: {c.explanation}" for c in notes)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# The summary


def summary_rows(
    runoffs: Report | None, primaries: PrimaryReport | None, unlisted: Report | None = None
) -> list[dict[str, int | str]]:
    """One row per method and year: contests, judged, agree, disagree, not judged."""
    rows: list[dict[str, int | str]] = []
    for label, found in ((Method.RUNOFF.value, runoffs), (UNLISTED, unlisted)):
        if found is None:
            continue
        years: dict[int, dict[str, int]] = {}
        for c in found.checks:
            row = years.setdefault(
                c.year, {"contests": 0, "judged": 0, "agree": 0, "disagree": 0, "not_judged": 0}
            )
            row["contests"] += 1
            row["judged"] += c.agree is not None
            row["agree"] += c.agree is True
            row["disagree"] += c.agree is False
            row["not_judged"] += c.agree is None
        rows += [{"method": label, "year": y, **r} for y, r in sorted(years.items())]
    if primaries is not None:
        for method in (Method.PRIMARY, Method.PARTISAN):
            rows += [
                {"method": method.value, "year": y, **r}
                for y, r in summary(primaries.of(method)).items()
            ]
    return rows


def format_summary(rows: Sequence[dict[str, int | str]], *, markdown: bool = False) -> str:
    """The summary table, with a total line per method."""
    cols = ("method", "year", "contests", "judged", "agree", "disagree", "not judged")
    keys = ("contests", "judged", "agree", "disagree", "not_judged")
    table: list[tuple[str, ...]] = []
    methods = list(dict.fromkeys(str(r["method"]) for r in rows))
    for m in methods:
        mine = [r for r in rows if r["method"] == m]
        table += [(m, str(r["year"]), *(str(r[k]) for k in keys)) for r in mine]
        table.append((m, "total", *(str(sum(int(r[k]) for r in mine)) for k in keys)))
    h = "## " if markdown else ""
    lines = format_table(cols, table, markdown=markdown)
    return "\n".join([f"{h}Summary by method and year", "", *lines])


# ---------------------------------------------------------------------------------------------
# The primaries


_LABEL = {Method.PRIMARY: "Nonpartisan primaries", Method.PARTISAN: "Partisan primaries"}


def _primary_order(c: PrimaryCheck) -> tuple[int, str, str, str]:
    return c.year, c.town, loose_key(c.contest), c.party or ""


def summary(checks: Iterable[PrimaryCheck]) -> dict[int, dict[str, int]]:
    """Per year: contests, judged, agree, disagree, not judged, second primaries held, ties."""
    out: dict[int, dict[str, int]] = {}
    for c in checks:
        row = out.setdefault(
            c.year,
            {
                "contests": 0,
                "judged": 0,
                "agree": 0,
                "disagree": 0,
                "not_judged": 0,
                "second_primaries": 0,
                "ties": 0,
            },
        )
        row["contests"] += 1
        row["judged"] += c.agree is not None
        row["agree"] += c.agree is True
        row["disagree"] += c.agree is False
        row["not_judged"] += c.agree is None
        row["second_primaries"] += c.second_primary.startswith("held")
        row["ties"] += c.tie
    return dict(sorted(out.items()))


def format_primaries(report: PrimaryReport, *, markdown: bool = False) -> str:
    """The report as text (or Markdown): per method, one line per contest, then the
    disagreements and their explanations, the second primaries, ties, what was not judged; then
    how October primaries were told apart and the towns whose method the README misses."""
    h = "## " if markdown else ""
    out: list[str] = []
    for method in (Method.PRIMARY, Method.PARTISAN):
        checks = sorted(report.of(method), key=_primary_order)
        if checks:
            out.extend(_method_section(method, checks, h, markdown=markdown))
    out.append(f"{h}Telling an October primary from an October election")
    primaries = report.of(Method.PRIMARY)
    with_nov = [c for c in primaries if c.november not in ("no November file", "-")]
    on_ballot = [c for c in with_nov if c.november not in ("no contest for the office", "?")]
    counts = "; ".join(f"{k} {n}" for k, n in report.october)
    out.append(
        "An October contest named with a party is a second primary; one whose returns have a "
        "write-in line is an election (a primary ballot has none); any other is a nonpartisan "
        f"primary. October contests of municipal offices in the years checked: {counts}."
        + (
            f" Of the {len(with_nov)} primaries whose November file exists, {len(on_ballot)} "
            "have their office on the November ballot."
            if with_nov
            else ""
        )
    )
    if report.towns:
        out.append("")
        out.append(f"{h}Towns whose method the data README lists wrongly or omits")
        for f in report.towns:
            out.append(f"- {f.town}: {f.finding}. Evidence: {'; '.join(f.evidence)}.")
    return "\n".join(out) + "\n"


def _method_section(
    method: Method, checks: Sequence[PrimaryCheck], h: str, *, markdown: bool
) -> list[str]:
    """One method's primaries: the count, how they were replayed, one line per contest, the
    disagreements explained, the notes on second primaries and ties, what was not judged."""
    judged = [c for c in checks if c.agree is not None]
    bad = [c for c in checks if c.agree is False]
    unexplained = [c for c in bad if not explanation_for(method, c.year, c.contest)]
    out = [
        f"{h}{_LABEL[method]}: {len(checks)} contests, {len(judged)} judged, "
        f"{sum(1 for c in judged if c.agree)} agree, {len(bad)} disagree "
        f"({len(unexplained)} unexplained); {len(checks) - len(judged)} not judged"
    ]
    if method is Method.PRIMARY:
        out.append(
            "(October contests of towns other than the runoff towns, with no write-in line "
            "and no party in the name; replayed as nonpartisan-primary primaries, G.S. "
            "163-294(b): the two highest per seat are nominated, ties at the cut-off by lot)"
        )
    else:
        out.append(
            "(September contests named with a party; replayed as partisan primaries under "
            "the substantial plurality in force on the primary day, G.S. 163-111(a): 40% "
            "through 2017, 30% from 2018 (S.L. 2017-214); a second primary is looked for in "
            "the October file, the nominee on the November ballot)"
        )
    out.append("")
    cols, rows = _primaries_table(method, checks)
    out.extend(format_table(cols, rows, markdown=markdown))
    out.append("")
    out.append(f"{h}{_LABEL[method]}: disagreements, explained")
    out.extend(f"- {c.year} {c.town} {c.office}: {c.explanation}" for c in bad)
    if not bad:
        out.append("none")
    notes = [c for c in checks if c.agree is True and c.explanation]
    if notes:
        out.append("")
        title = "second primaries and ties" if method is Method.PARTISAN else "ties"
        out.append(f"{h}{_LABEL[method]}: {title}, and what the data cannot show")
        out.extend(
            f"- {c.year} {c.town} {c.office}{' ' + c.party if c.party else ''}: {c.explanation}"
            for c in notes
            if c.tie or c.second_primary.startswith("held") or c.year != 2013
        )
        partial = [c for c in notes if c.year == 2013 and not c.second_primary.startswith("held")]
        if partial:
            out.append(
                f"- 2013: {len(partial)} primaries judged on the September and October files "
                "only (no second primary where the engine finds a substantial plurality); "
                "the November file is missing"
            )
    unjudged: dict[str, list[PrimaryCheck]] = {}
    for c in checks:
        if c.agree is None:
            unjudged.setdefault(c.explanation, []).append(c)
    if unjudged:
        out.append("")
        out.append(f"{h}{_LABEL[method]}: not judged")
        for why, group in unjudged.items():
            out.append(f"- {len(group)} contest(s): {why}.")
    out.append("")
    return out


def _primaries_table(
    method: Method, checks: Sequence[PrimaryCheck]
) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """One method's table: its columns, and one row per contest."""
    cols: tuple[str, ...]
    if method is Method.PRIMARY:
        cols = ("year", "town", "office", "seats", "engine", "November", "agree")
        return cols, [
            (
                str(c.year),
                c.town,
                c.office,
                str(c.seats if c.seats is not None else "?"),
                c.engine,
                c.november,
                c.status,
            )
            for c in checks
        ]
    cols = (
        "year",
        "town",
        "office",
        "party",
        "seats",
        "threshold",
        "engine",
        "second primary",
        "November",
        "agree",
    )
    return cols, [
        (
            str(c.year),
            c.town,
            c.office,
            c.party or "",
            str(c.seats if c.seats is not None else "?"),
            c.threshold or "-",
            c.engine,
            c.second_primary,
            c.november,
            c.status,
        )
        for c in checks
    ]


def primaries_to_json(report: PrimaryReport) -> dict[str, Any]:
    """The report as plain data for ``electsim conformance --json``."""
    return {
        "checks": [
            {**attrs.asdict(c), "method": c.method.value, "status": c.status}
            for c in sorted(report.checks, key=lambda c: (c.method.value, *_primary_order(c)))
        ],
        "towns": [attrs.asdict(f) for f in report.towns],
        "summary": {
            m.value: {str(y): row for y, row in summary(report.of(m)).items()}
            for m in (Method.PRIMARY, Method.PARTISAN)
        },
    }
