"""``electsim conformance``: replay the real contests of the North Carolina results data and check
each against the ballot that followed (:mod:`simulator.analysis.conformance`); print the report as
text, Markdown or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date, datetime
from pathlib import Path
from typing import Any

import attrs

from simulator.analysis.conformance.data import (
    FIRST_YEAR,
    LAST_YEAR,
    METHODS,
    find_data_dir,
    month_files,
    read_ahead,
)
from simulator.analysis.conformance.primaries import (
    PrimaryReport,
    omitted_runoff_towns,
    run_primaries,
)
from simulator.analysis.conformance.report import (
    format_primaries,
    format_report,
    format_summary,
    format_unlisted,
    primaries_to_json,
    summary_rows,
)
from simulator.analysis.conformance.runoffs import Report, run_conformance
from simulator.cli.common import EXIT_INVALID, EXIT_OK
from simulator.input.output import Busy, terminal_width, visible
from simulator.law.vocab import Method


def _jsonable(value: Any) -> Any:
    if isinstance(value, date | datetime):
        return value.isoformat()
    if isinstance(value, Method):
        return value.value
    return str(value)


def _folder_problems(
    folder: Path | None, held: dict[tuple[int, int], list[Path]], asked: list[int] | None
) -> bool:
    """Say on stderr what makes the data folder unfit for the run; whether anything does."""
    # one results file a month is read (the first by name): a second one would be left out
    # without a word
    twice = {k: v for k, v in held.items() if len(v) > 1}
    for (y, mo), paths in sorted(twice.items()):
        print(
            f"electsim: {folder}: expected one results file for {y}-{mo:02d}; found "
            f"{len(paths)}: {', '.join(p.name for p in paths)} (move all but one elsewhere)",
            file=sys.stderr,
        )
    # a year the results do not cover would print an empty report that looks like a pass
    held_years = sorted({y for y, _m in held})
    missing = sorted(set(asked or ()) - set(held_years)) if folder is not None else []
    for y in missing:
        print(
            f"electsim: --year {y}: expected a year of the results in {folder} "
            f"({', '.join(map(str, held_years)) or 'none'}); found {y}",
            file=sys.stderr,
        )
    return bool(twice or missing)


def _document(
    rows: list[dict[str, int | str]],
    runoffs: Report | None,
    unlisted: Report | None,
    primaries: PrimaryReport,
) -> dict[str, Any]:
    """The report as a JSON document (docs/cli.md: ``electsim-conformance/v1``)."""
    doc: dict[str, Any] = {"format": "electsim-conformance/v1", "summary": rows}
    if runoffs is not None:
        doc["runoff"] = {
            "checks": [attrs.asdict(c) for c in runoffs.checks],
            "calendar": [{**attrs.asdict(c), "agree": c.agree} for c in runoffs.calendar],
            "november_only": [list(x) for x in runoffs.november_only],
        }
    if unlisted is not None:
        doc["runoff_unlisted_towns"] = {"checks": [attrs.asdict(c) for c in unlisted.checks]}
    doc["primaries"] = primaries_to_json(primaries)
    return doc


def cmd_conformance(args: argparse.Namespace) -> int:
    """``electsim conformance``: print the report (a summary per method and year, then each
    method's contests); exit 0 (disagreements are explained)."""
    methods = list(getattr(args, "method", None) or METHODS)
    years = sorted(set(getattr(args, "year", None) or range(FIRST_YEAR, LAST_YEAR + 1)))
    markdown = bool(getattr(args, "markdown", False))
    if markdown and getattr(args, "json", False):  # (--markdown was ignored)
        print(
            "electsim: --json and --markdown: expected one output format; found both",
            file=sys.stderr,
        )
        return EXIT_INVALID
    runoff = Method.RUNOFF.value in methods
    wanted = [Method(m) for m in methods if m != Method.RUNOFF.value]
    folder = find_data_dir(args.data)
    held: dict[tuple[int, int], list[Path]] = month_files(folder) if folder is not None else {}
    if _folder_problems(folder, held, getattr(args, "year", None)):
        return EXIT_INVALID
    with Busy("replaying the real contests", args):
        if folder is not None:
            files = {k: v[0] for k, v in held.items()}
            months = (9, 10, 11) if wanted else (10, 11)
            read_ahead(files[(y, m)] for y in years for m in months if (y, m) in files)
        runoffs = run_conformance(args.data, years=years) if runoff else None
        primaries = run_primaries(args.data, methods=wanted, years=years)
        unlisted = (
            run_conformance(
                args.data, towns=omitted_runoff_towns(primaries), years=years, elections_only=True
            )
            if runoff
            else None
        )
    rows = summary_rows(runoffs, primaries if wanted else None, unlisted)
    if getattr(args, "json", False):
        doc = _document(rows, runoffs, unlisted, primaries)
        sys.stdout.write(json.dumps(doc, indent=2, default=_jsonable, ensure_ascii=False) + "\n")
        return EXIT_OK
    parts = [format_summary(rows, markdown=markdown)]
    if runoffs is not None:
        width = None if markdown else terminal_width()
        parts.append(format_report(runoffs, markdown=markdown, width=width))
    if unlisted is not None:
        parts.append(format_unlisted(unlisted, markdown=markdown))
    parts.append(format_primaries(primaries, markdown=markdown))
    text = "\n\n".join(p.rstrip("\n") for p in parts) + "\n"
    sys.stdout.write(visible(text))  # (contest and candidate names come from the results files)
    return EXIT_OK
