"""The ``electsim`` command line (SPEC section 2). Exit codes: 0 success, 2 invalid input,
1 anything else (a bug)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO, TypeVar
from zoneinfo import ZoneInfo

from simulator.errors import ScenarioError, SimulatorError

EXIT_OK, EXIT_BUG, EXIT_INVALID = 0, 1, 2


class UsageError(SimulatorError):
    """A command-line argument that cannot be used (exit 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"electsim: error: {message}", file=sys.stderr)
        sys.exit(EXIT_INVALID)


_T = TypeVar("_T")
_ANSI = {"red": "\033[31m", "green": "\033[32m", "yellow": "\033[33m", "bold": "\033[1m"}


def use_colour(choice: str, stream: TextIO) -> bool:
    """``--color always|never|auto``; auto colours a terminal unless ``NO_COLOR`` is set (to
    anything but the empty string) or ``TERM`` is ``dumb``."""
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR", ""):
        return False
    return stream.isatty() and os.environ.get("TERM") != "dumb"


def _painter(args: argparse.Namespace, stream: TextIO) -> Callable[[str, str], str]:
    on = use_colour(getattr(args, "color", "auto"), stream)

    def paint(text: str, colour: str) -> str:
        return f"{_ANSI[colour]}{text}\033[0m" if on else text

    return paint


def _progress(items: Sequence[_T], args: argparse.Namespace, *, what: str) -> Iterator[_T]:
    """``items``, with a progress bar on a terminal's stderr once the work has run 2 s."""
    if not sys.stderr.isatty() or getattr(args, "no_progress", False):
        yield from items
        return
    from tqdm import tqdm

    bar: Iterable[_T] = tqdm(items, desc=what, file=sys.stderr, leave=False, delay=2.0)
    yield from bar


def _parse_time(text: str, tz: str, flag: str = "--as-of") -> datetime:
    try:
        dt = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(
            f"{flag}: expected an ISO 8601 date or date-time like 2027-10-14T12:00; found {text!r}"
        ) from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=ZoneInfo(tz))
    return dt.astimezone(ZoneInfo(tz))


def cmd_replay(args: argparse.Namespace) -> int:
    from simulator.loader import load_scenario
    from simulator.replay import replay
    from simulator.text import format_result

    scenario = load_scenario(args.file)
    as_of = _parse_time(args.as_of, scenario.timezone) if args.as_of else None
    result = replay(scenario, as_of=as_of)
    if args.chart:
        from simulator.charts import plot_timeline

        plot_timeline(
            result,
            scenario=scenario,
            out=args.chart,
            days_from_election=args.days_from_election,
            compress=args.compress,
            start=_parse_time(args.start, scenario.timezone, "--from") if args.start else None,
            end=_parse_time(args.end, scenario.timezone, "--to") if args.end else None,
            title=args.title,
            width=args.width,
            dpi=args.dpi,
        )
    if args.graph:
        from simulator.graph import export_graph

        written = export_graph(result, args.graph, full=args.full_graph)
        if len(written) > 1:
            names = ", ".join(str(w) for w in written)
            print(f"electsim: one state graph per contest: {names}", file=sys.stderr)
    if args.json:
        print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        print(format_result(result, colour=sys.stdout.isatty()), end="")
    return EXIT_OK


def cmd_validate(args: argparse.Namespace) -> int:
    from simulator.loader import load_scenario

    s = load_scenario(args.file)
    print(f"{args.file}: valid ({len(s.contests)} contest(s), {len(s.events)} event(s))")
    return EXIT_OK


def _scenario_files(paths: Sequence[str]) -> list[Path]:
    """The scenario files named, folders searched recursively for .yaml, .yml and .json."""
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found = sorted(
                f for f in path.rglob("*") if f.suffix in (".yaml", ".yml", ".json") and f.is_file()
            )
            if not found:
                raise UsageError(
                    f"{name}: expected a scenario file or a folder holding scenario files "
                    "(.yaml, .yml or .json); found a folder with none"
                )
            files.extend(found)
        elif path.exists():
            files.append(path)
        else:
            raise UsageError(f"{name}: expected a scenario file or folder; found nothing there")
    return files


def cmd_test(args: argparse.Namespace) -> int:
    from simulator.expect import EXIT_EXPECTATIONS_FAILED, check_scenario
    from simulator.loader import load_scenario

    files = _scenario_files(args.paths)
    paint = _painter(args, sys.stdout)
    reports: list[dict[str, Any]] = []
    counts = {"passed": 0, "failed": 0, "invalid": 0, "no_expectations": 0}
    for f in _progress(files, args, what="scenarios"):
        entry: dict[str, Any] = {"file": str(f), "title": None, "expectations": 0}
        try:
            scenario = load_scenario(f)
        except ScenarioError as e:
            entry.update(status="invalid", problems=[str(p) for p in e.problems], differences=[])
            counts["invalid"] += 1
            reports.append(entry)
            if not args.json:
                print(f"{paint('INVALID', 'red')} {f}")
                for problem in e.problems:
                    print(f"    {problem}")
            continue
        check = check_scenario(scenario)
        status = "passed" if check.passed else "failed" if check.mismatches else "no_expectations"
        counts[status] += 1
        entry.update(
            title=scenario.title,
            expectations=check.expectations,
            status=status,
            problems=[],
            differences=[d.to_json() for d in check.mismatches],
        )
        reports.append(entry)
        if args.json:
            continue
        if status == "passed":
            if not args.quiet:
                print(f"{paint('PASS', 'green')} {f} ({check.expectations} expectation(s))")
        elif status == "no_expectations":
            print(f"{paint('SKIP', 'yellow')} {f}: no expect: block")
        else:
            n = check.failed_entries()
            print(f"{paint('FAIL', 'red')} {f}: {n} of {check.expectations} expectation(s) not met")
            shown: int | None = None
            for d in check.mismatches:
                if d.expectation != shown:
                    shown = d.expectation
                    where = [f"expect[{d.expectation}]"]
                    if d.line is not None:
                        where.append(f"line {d.line}")
                    where.append(f"as of {d.as_of}" if d.as_of else "end of the log")
                    if d.contest:
                        where.append(f"contest {d.contest}")
                    print("  " + ", ".join(where))
                print(f"    {d}")
    if args.json:
        doc = {"format": "electsim-test/v1", **counts, "scenarios": reports}
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        print(
            f"{len(files)} scenario(s): {counts['passed']} passed, {counts['failed']} failed, "
            f"{counts['invalid']} invalid, {counts['no_expectations']} without expectations"
        )
    if counts["invalid"]:
        return EXIT_INVALID
    if counts["failed"]:
        return EXIT_EXPECTATIONS_FAILED
    return EXIT_OK


def cmd_calendar(args: argparse.Namespace) -> int:
    from simulator.calendar import OfficeCalendar, statutory_calendar
    from simulator.vocab import Method

    try:
        method = Method(args.method)
    except ValueError:
        raise UsageError(
            f"--method: expected one of {', '.join(m.value for m in Method)}; found {args.method!r}"
        ) from None
    if not 1973 <= args.year <= 2200:
        raise UsageError(f"YEAR: expected a year from 1973 to 2200; found {args.year}")
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
    print(
        f"{args.year} municipal calendar, {method.value}"
        + (" (district-based)" if args.district_based else "")
    )
    for d in deadlines:
        when = d.due.strftime("%a %Y-%m-%d") if d.all_day else d.due.strftime("%a %Y-%m-%d %H:%M")
        line = f"  {d.kind.value:<24} {when:<22} {d.cite}"
        if d.moved_from:
            line += f"  (moved from {d.moved_from.date()}: {d.why_moved})"
        print(line)
    return EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    from simulator.loader import load_scenario
    from simulator.replay import replay
    from simulator.text import format_result

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    files = sorted(Path(args.dir).rglob("*.yaml"))
    for f in files:
        scenario = load_scenario(f)
        result = replay(scenario)
        print(format_result(result, colour=sys.stdout.isatty()))
        stem = f.stem
        (out / f"{stem}.json").write_text(
            json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n"
        )
        if not args.no_charts:
            try:
                from simulator.charts import plot_timeline
                from simulator.report import write_report
            except ImportError:  # pragma: no cover - charts arrive with the report issue
                continue
            plot_timeline(result, scenario=scenario, out=out / f"{stem}.svg")
            write_report(scenario, result, out / f"{stem}.html")
    print(f"replayed {len(files)} scenario(s); results in {out}/")
    return EXIT_OK


def cmd_report(args: argparse.Namespace) -> int:
    from simulator.loader import load_scenario
    from simulator.replay import replay
    from simulator.report import write_report

    scenario = load_scenario(args.file)
    as_of = _parse_time(args.as_of, scenario.timezone) if args.as_of else None
    out = Path(args.output) if args.output else Path(Path(args.file).stem + ".html")
    write_report(scenario, replay(scenario, as_of=as_of), out)
    print(f"wrote {out}")
    return EXIT_OK


def cmd_gaps(args: argparse.Namespace) -> int:
    """Every gap of the statutes the contingency rules can hit, with the facts that reach it."""
    import textwrap

    from simulator.contingencies import FACT_FIELDS, all_facts, gaps, show_value, summarize
    from simulator.gaps import COUNTING_GAPS, print_table_findings, table_findings

    total = sum(1 for _ in all_facts())
    found = gaps()
    groups = summarize(found)
    if args.json:
        doc = {
            "combinations": total,
            "in_gaps": len(found),
            "gaps": [g.to_json() for g in groups],
            "counting_gaps": [g.to_json() for g in COUNTING_GAPS],
            "table_gaps": [t.to_json() for t in table_findings()],
        }
        print(json.dumps(doc, indent=2))
        return EXIT_OK
    wrap = textwrap.TextWrapper(width=96, initial_indent="    ", subsequent_indent="      ")
    print(
        f"{len(groups)} gap(s) in the statutes, reached by {len(found)} of {total} "
        "combinations of facts the contingency rules read."
    )
    print(
        "In a replay each gives a no_provision ruling citing the nearest sections, then the "
        "fallback shown."
    )
    for i, g in enumerate(groups, 1):
        print(f"\n{i}. {g.rule.id}: {g.rule.cite} ({g.combinations} combinations)")
        print(wrap.fill(f"why: {g.rule.note}"))
        for fb in g.fallbacks:
            print(wrap.fill(f"fallback: {fb}"))
        print(wrap.fill(f"facts: {g.describe()}"))
        if args.verbose:
            print(f"    every combination ({' '.join(FACT_FIELDS)}):")
            for gap in (x for x in found if x.rule.id == g.rule.id):
                row = " ".join(show_value(getattr(gap.facts, k)) for k in FACT_FIELDS)
                print(f"      {row}")
    print_table_findings(len(groups) + 1)
    print(f"\n{len(COUNTING_GAPS)} further gap(s) met while counting the vote:")
    for i, cg_ in enumerate(COUNTING_GAPS, len(groups) + len(table_findings()) + 1):
        print(f"\n{i}. {cg_.id}: {cg_.cite}")
        print(wrap.fill(f"facts: {cg_.facts}"))
        print(wrap.fill(f"why: {cg_.why}"))
        print(wrap.fill(f"fallback: {cg_.fallback}"))
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="electsim", description="Replay North Carolina municipal election law.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    r = sub.add_parser("replay", help="replay a scenario and print its timeline or JSON")
    r.add_argument("file")
    r.add_argument("--json", action="store_true", help="print the JSON result (SPEC section 3)")
    r.add_argument("--as-of", help="replay only what the board knew at this moment")
    r.add_argument("--chart", help="write a timeline chart (.png or .svg)")
    r.add_argument(
        "--graph",
        help="write the state graph (.dot, .mmd, .graphml, .json, .png or .svg): the path taken",
    )
    chart = r.add_argument_group("chart and graph options")
    chart.add_argument("--width", type=int, default=1430, help="chart width in pixels (1430)")
    chart.add_argument("--dpi", type=int, default=110, help="chart resolution (110)")
    chart.add_argument("--from", dest="start", help="draw only from this date or date-time")
    chart.add_argument("--to", dest="end", help="draw only up to this date or date-time")
    chart.add_argument("--title", help="the chart's title (default: the scenario's)")
    chart.add_argument(
        "--days-from-election",
        action="store_true",
        help="count the time axis in days from each contest's election (or primary) day",
    )
    chart.add_argument(
        "--compress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="fold stretches where nothing happens (default: when they take a third of the span)",
    )
    chart.add_argument(
        "--full-graph",
        action="store_true",
        help="draw (and write to .mmd) the whole state machine, the path laid over it",
    )
    r.set_defaults(func=cmd_replay)

    t = sub.add_parser(
        "test",
        help="check scenarios against their expect: blocks",
        description="Replay each scenario and check what its expect: block says the result "
        "must show. Exit codes: 0 every expectation holds, 3 some expectation does not hold, "
        "2 invalid input (a scenario or an expectation that cannot be read), 1 a bug.",
    )
    t.add_argument("paths", nargs="+", metavar="FILE|DIR", help="scenario files or folders")
    t.add_argument("--json", action="store_true", help="print the report as JSON")
    t.add_argument("-q", "--quiet", action="store_true", help="print only failures")
    t.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the output (auto: on a terminal, unless NO_COLOR is set)",
    )
    t.set_defaults(func=cmd_test)

    c = sub.add_parser("calendar", help="print a year's statutory dates")
    c.add_argument("year", type=int)
    c.add_argument("--method", required=True)
    c.add_argument("--district-based", action="store_true")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_calendar)

    v = sub.add_parser("validate", help="check a scenario (exit 0 or 2)")
    v.add_argument("file")
    v.set_defaults(func=cmd_validate)

    d = sub.add_parser("demo", help="replay every scenario in a folder, writing results")
    d.add_argument("dir", nargs="?", default="scenarios")
    d.add_argument("--out", default="out")
    d.add_argument("--no-charts", action="store_true")
    d.set_defaults(func=cmd_demo)

    rp = sub.add_parser("report", help="write a self-contained HTML report of a replay")
    rp.add_argument("file")
    rp.add_argument("-o", "--output", help="the HTML file to write (default: FILE's stem .html)")
    rp.add_argument("--as-of", help="replay only what the board knew at this moment")
    rp.set_defaults(func=cmd_report)

    g = sub.add_parser("gaps", help="list the facts that fall in a gap of the statutes")
    g.add_argument("--json", action="store_true")
    g.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also list every combination of facts in each gap",
    )
    g.set_defaults(func=cmd_gaps)

    from simulator import citations, conformance, importer  # light: their work imports lazily

    citations.register(sub)

    ir = sub.add_parser("import-results", help="import one contest of a NC results file")
    ir.add_argument("file", help="openelections CSV or State Board results_pct (plain or gzip)")
    ir.add_argument("--contest", help="the contest's name in the file (case, spacing ignored)")
    ir.add_argument("--list", action="store_true", help="list the contests in the file")
    ir.add_argument("--seats", type=int, help="seats to fill (default: file's Vote For, else 1)")
    ir.add_argument("--method", help="election method (default nonpartisan-plurality)")
    ir.add_argument("--stage", help="primary or election (default election)")
    ir.add_argument("--year", type=int, help="election year (default: the year of the file's date)")
    ir.add_argument("-o", "--output", help="write the scenario here (.yaml or .json), not stdout")
    ir.set_defaults(func=importer.cmd_import_results)

    cf = sub.add_parser(
        "conformance", help="check the engine against real NC runoffs and primaries"
    )
    cf.add_argument("--data", help="folder of results files (default: ../shared/data)")
    cf.add_argument("--markdown", action="store_true", help="print Markdown tables")
    cf.add_argument(
        "--method",
        action="append",
        choices=conformance.METHODS,
        help="only this method's contests (repeatable; default: all three)",
    )
    cf.add_argument(
        "--year", action="append", type=int, help="only this year's contests (repeatable)"
    )
    cf.add_argument("--json", action="store_true", help="print the report as JSON")
    cf.set_defaults(func=conformance.cmd_conformance)

    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
        return code
    except ScenarioError as e:
        for problem in e.problems:
            print(str(problem), file=sys.stderr)
        n = len(e.problems)
        print(
            f"electsim: {n} problem{'s' if n != 1 else ''} found; nothing was replayed",
            file=sys.stderr,
        )
        return EXIT_INVALID
    except SimulatorError as e:
        print(f"electsim: {e}", file=sys.stderr)
        return EXIT_INVALID
    except BrokenPipeError:
        return EXIT_OK
    except Exception as e:  # a bug: say so plainly and ask for a report
        if os.environ.get("ELECTSIM_DEBUG"):
            traceback.print_exc()
        print(
            f"electsim: internal error ({type(e).__name__}: {e}). This is a bug in electsim; "
            "please report it with the scenario file. Set ELECTSIM_DEBUG=1 to see the "
            "full trace.",
            file=sys.stderr,
        )
        return EXIT_BUG


if __name__ == "__main__":
    sys.exit(main())
