"""``electsim calendar``: a year's statutory dates for one method, with their citations and the
moves of G.S. 103-5, as a table, JSON or an iCalendar file."""

from __future__ import annotations

import argparse
import json

from simulator.cli.common import EXIT_OK, FIRST_YEAR, LAST_YEAR, UsageError, write_bytes
from simulator.input.loader.problems import did_you_mean
from simulator.input.output import terminal_width
from simulator.law.calendar import OfficeCalendar, statutory_calendar
from simulator.law.labels import label
from simulator.law.vocab import Method
from simulator.views.columns import fit_table
from simulator.views.ical import deadlines_to_ics, title_of


def cmd_calendar(args: argparse.Namespace) -> int:
    if args.json and args.ics:
        raise UsageError("--json and --ics: expected one output format; found both")
    try:
        method = Method(args.method)
    except ValueError:
        raise UsageError(
            f"--method: expected one of {', '.join(m.value for m in Method)}; "
            f"found {args.method!r}{did_you_mean(args.method, [m.value for m in Method])}"
        ) from None
    if not FIRST_YEAR <= args.year <= LAST_YEAR:
        raise UsageError(
            f"YEAR: expected a year from {FIRST_YEAR} to {LAST_YEAR}; found {args.year}"
        )
    deadlines = statutory_calendar(
        args.year, method, district_based=args.district_based, calendar=OfficeCalendar()
    )
    if args.json:
        doc = {
            "year": args.year,
            "method": method.value,
            "district_based": args.district_based,
            "deadlines": [d.to_json() for d in deadlines],
        }
        print(json.dumps(doc, indent=2))
        return EXIT_OK
    title = f"{args.year} municipal calendar, {label(method)}" + (
        " (district-based)" if args.district_based else ""
    )
    if args.ics:
        group = f"{args.year}-{method.value}" + ("-district" if args.district_based else "")
        write_bytes(deadlines_to_ics([(group, title, deadlines)], name=f"NC {title}"))
        return EXIT_OK
    print(title)
    rows: list[tuple[str, ...]] = []
    for d in deadlines:
        when = d.due.strftime("%a %Y-%m-%d") if d.all_day else d.due.strftime("%a %Y-%m-%d %H:%M")
        note = f"moved from {d.moved_from.date()}: {d.why_moved}" if d.moved_from else ""
        rows.append((title_of(d, deadlines), when, d.cite, note))
    cols: tuple[str, ...] = ("deadline", "due", "cite", "note")
    if not any(r[3] for r in rows):
        cols, rows = cols[:3], [r[:3] for r in rows]
    width = terminal_width()
    for line in fit_table(cols, rows, width=None if width is None else width - 2):
        print("  " + line)
    return EXIT_OK
