"""The ``electsim`` command line (docs/cli.md). Exit codes: 0 success, 2 invalid input,
1 anything else (a bug); ``electsim test`` exits 3 when an expectation does not hold.

Heavy modules (the engine, matplotlib, networkx) are imported inside the commands, so that
``electsim --help`` and argument errors stay fast."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO, TypeVar

from simulator.cli.gaps import cmd_gaps
from simulator.input.output import check_output, terminal_width, writing
from simulator.model.errors import OutputError, ScenarioError, SimulatorError

EXIT_OK, EXIT_BUG, EXIT_INVALID = 0, 1, 2


class UsageError(SimulatorError):
    """A command-line argument that cannot be used (exit 2)."""


_INVALID_CHOICE = re.compile(r"argument (\S+): invalid choice: '(.*)' \(choose from (.*)\)")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        if m := _INVALID_CHOICE.fullmatch(message):
            option, found, choices = m.groups()
            option = option.split("/")[-1]
            message = f"{option}: expected one of {choices.replace(chr(39), '')}; found {found!r}"
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


def _progress(
    items: Iterable[_T], args: argparse.Namespace, *, what: str, total: int | None = None
) -> Iterator[_T]:
    """``items``, with a progress bar on a terminal's stderr once the work has run 2 s."""
    if not sys.stderr.isatty() or getattr(args, "no_progress", False):
        yield from items
        return
    from tqdm import tqdm

    bar: Iterable[_T] = tqdm(items, desc=what, total=total, file=sys.stderr, leave=False, delay=2.0)
    yield from bar


_AS_OF_YEARS = (1900, 2200)  # the years a scenario's times may have


def _parse_time(text: str, tz: str, flag: str = "--as-of") -> datetime:
    from zoneinfo import ZoneInfo

    from simulator.input.loader import ClockError, exact_offset, wall_clock
    from simulator.input.parse import SUB_MICROSECOND

    first, last = _AS_OF_YEARS
    if SUB_MICROSECOND.search(text):
        raise UsageError(
            f"{flag}: expected a time to the microsecond at most (six digits after the "
            f"seconds' point); found {text!r}"
        )
    try:
        written = text.strip()
        dt = datetime.fromisoformat(written.replace("Z", "+00:00"))
        if dt.tzinfo is None:  # read as a scenario's times are (docs/scenarios.md)
            dt = wall_clock(dt, ZoneInfo(tz), tz, whole_day="T" not in written.upper())
        else:
            dt = exact_offset(dt.astimezone(ZoneInfo(tz)))
    except ClockError as error:
        raise UsageError(f"{flag}: expected {error}; found {text!r}") from None
    except ValueError:
        raise UsageError(
            f"{flag}: expected an ISO 8601 date or date-time like 2027-10-14T12:00; found {text!r}"
        ) from None
    except OverflowError:
        dt = None
    if dt is None or not first <= dt.year <= last:
        raise UsageError(f"{flag}: expected a time in the years {first}-{last}; found {text!r}")
    return dt


def _window_end(text: str, tz: str) -> datetime:
    """``--to``: a date-time as written; a date alone draws its whole day (up to its last
    instant, so ``--from D --to D`` is the day D and ``--to 2019-10-31`` keeps October 31)."""
    end = _parse_time(text, tz, "--to")
    if "T" in text.upper() or " " in text.strip():
        return end
    from zoneinfo import ZoneInfo

    from simulator.input.loader import wall_clock

    last = datetime.combine(end.date(), datetime.max.time())
    return wall_clock(last, ZoneInfo(tz), tz, whole_day=True)


def _max_bytes(text: str) -> int:
    """``--max-bytes``: a size like 2000000, 512MiB or 4GiB."""
    from simulator.input.files import parse_size

    try:
        return parse_size(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a size in bytes, like 2000000, 512MiB or 4GiB; found {text!r}"
        ) from None


def _add_max_bytes(p: argparse.ArgumentParser) -> None:
    from simulator.input.files import MAX_INPUT_BYTES, describe_size

    p.add_argument(
        "--max-bytes",
        type=_max_bytes,
        default=MAX_INPUT_BYTES,
        help=f"read input files up to this size (default {describe_size(MAX_INPUT_BYTES)})",
    )


#: replay's options that shape the chart: (dest, the option as written)
_CHART_OPTIONS = (
    ("width", "--width"),
    ("dpi", "--dpi"),
    ("start", "--from"),
    ("end", "--to"),
    ("title", "--title"),
    ("days_from_election", "--days-from-election"),
    ("compress", "--compress"),
)


def _chart_options(args: argparse.Namespace) -> None:
    """Options for a chart or a graph that is not drawn are refused: they were ignored (a
    timeline asked for ``--from 2027-10-01`` printed the whole of it, exit 0)."""
    if not args.chart:
        given = [
            ("--no-compress" if flag == "--compress" and value is False else flag)
            for dest, flag in _CHART_OPTIONS
            if (value := getattr(args, dest)) is not None
        ]
        if given:
            raise UsageError(
                f"{', '.join(given)}: expected with --chart OUT (chart options shape the chart, "
                "not the timeline); found no --chart"
            )
    if args.full_graph and not args.graph:
        raise UsageError("--full-graph: expected with --graph OUT; found no --graph")


def cmd_replay(args: argparse.Namespace) -> int:
    from simulator.engine.replay import replay
    from simulator.input.loader import load_scenario
    from simulator.views.text import format_result

    if args.json and args.ics:
        raise UsageError("--json and --ics: expected one output format; found both")
    _chart_options(args)
    outputs = [o for o in (args.chart, args.graph) if o]
    for out in outputs:
        check_output(out, inputs=(args.file,))
    if args.chart and args.graph and Path(args.chart) == Path(args.graph):
        raise UsageError(f"--chart and --graph: expected two different files; found {args.chart}")
    scenario = load_scenario(args.file, max_bytes=args.max_bytes)
    as_of = _parse_time(args.as_of, scenario.timezone) if args.as_of else None
    result = replay(scenario, as_of=as_of)
    if args.chart:
        from simulator.views.charts import plot_timeline

        with writing(args.chart):
            plot_timeline(
                result,
                scenario=scenario,
                out=args.chart,
                days_from_election=bool(args.days_from_election),
                compress=args.compress,
                start=_parse_time(args.start, scenario.timezone, "--from") if args.start else None,
                end=_window_end(args.end, scenario.timezone) if args.end else None,
                title=args.title,
                width=1430 if args.width is None else args.width,
                dpi=110 if args.dpi is None else args.dpi,
            )
    if args.graph:
        from simulator.views.graph import export_graph

        with writing(args.graph):
            written = export_graph(result, args.graph, full=args.full_graph)
        if len(written) > 1:
            names = ", ".join(str(w) for w in written)
            print(f"electsim: one state graph per contest: {names}", file=sys.stderr)
    if args.json:
        print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    elif args.ics:
        from simulator.views.ical import deadlines_to_ics

        _write_bytes(
            deadlines_to_ics(
                ((c.id, c.title, c.deadlines) for c in result.contests), name=scenario.title
            )
        )
    else:
        colour = use_colour(args.color, sys.stdout)
        text = format_result(result, colour=colour, width=terminal_width())
        print(text, end="")
    return EXIT_OK


def _write_bytes(data: bytes) -> None:
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


_SHOWN_PROBLEMS = 1000  # a log wrong everywhere is not listed line by line to the end


def _print_problems(e: ScenarioError) -> None:
    for problem in e.problems[:_SHOWN_PROBLEMS]:
        print(str(problem), file=sys.stderr)
    n = len(e.problems)
    if n > _SHOWN_PROBLEMS:
        print(f"... and {n - _SHOWN_PROBLEMS} more problems not shown", file=sys.stderr)
    print(
        f"electsim: {n} problem{'s' if n != 1 else ''} found; nothing was replayed",
        file=sys.stderr,
    )


def cmd_validate(args: argparse.Namespace) -> int:
    from simulator.input.loader import load_scenario

    reports: list[dict[str, Any]] = []
    invalid = 0
    for name in args.files:
        try:
            s = load_scenario(name, max_bytes=args.max_bytes)
        except ScenarioError as e:
            invalid += 1
            if not args.json:
                _print_problems(e)
                continue
            problems = [
                {"path": p.path, "line": p.line, "expected": p.expected, "found": p.found}
                for p in e.problems
            ]
            reports.append({"file": name, "valid": False, "problems": problems})
            continue
        counts = {"contests": len(s.contests), "events": len(s.events)}
        counts["expectations"] = len(s.expectations)
        if args.json:
            reports.append({"file": name, "valid": True, **counts, "problems": []})
        else:
            print(
                f"{name}: valid ({counts['contests']} contest(s), {counts['events']} event(s), "
                f"{counts['expectations']} expectation(s))"
            )
    if args.json:
        print(json.dumps({"files": reports}, indent=2, ensure_ascii=False))
    return EXIT_INVALID if invalid else EXIT_OK


def _scenario_files(paths: Sequence[str]) -> list[Path]:
    """The scenario files named, folders searched recursively for .yaml, .yml and .json."""
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found = sorted(
                f
                for f in path.rglob("*")
                if f.suffix.lower() in (".yaml", ".yml", ".json") and f.is_file()
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
    from simulator.input.expect import EXIT_EXPECTATIONS_FAILED, check_scenario
    from simulator.input.loader import load_scenario

    files = _scenario_files(args.paths)
    paint = _painter(args, sys.stdout)
    reports: list[dict[str, Any]] = []
    counts = {"passed": 0, "failed": 0, "invalid": 0, "no_expectations": 0}
    for f in _progress(files, args, what="scenarios"):
        entry: dict[str, Any] = {"file": str(f), "title": None, "expectations": 0}
        try:
            scenario = load_scenario(f)
            check = check_scenario(scenario)  # (a pattern that never ends matching: invalid)
        except ScenarioError as e:
            entry.update(status="invalid", problems=[str(p) for p in e.problems], differences=[])
            counts["invalid"] += 1
            reports.append(entry)
            if not args.json:
                print(f"{paint('INVALID', 'red')} {f}")
                for problem in e.problems:
                    print(f"    {problem}")
            continue
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
    from simulator.law.calendar import OfficeCalendar, statutory_calendar
    from simulator.law.vocab import Method

    if args.json and args.ics:
        raise UsageError("--json and --ics: expected one output format; found both")
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
    title = f"{args.year} municipal calendar, {method.value}" + (
        " (district-based)" if args.district_based else ""
    )
    if args.ics:
        from simulator.views.ical import deadlines_to_ics

        group = f"{args.year}-{method.value}" + ("-district" if args.district_based else "")
        _write_bytes(deadlines_to_ics([(group, title, deadlines)], name=f"NC {title}"))
        return EXIT_OK
    from simulator.views.columns import fit_table

    print(title)
    rows: list[tuple[str, ...]] = []
    for d in deadlines:
        when = d.due.strftime("%a %Y-%m-%d") if d.all_day else d.due.strftime("%a %Y-%m-%d %H:%M")
        note = f"moved from {d.moved_from.date()}: {d.why_moved}" if d.moved_from else ""
        rows.append((d.kind.value, when, d.cite, note))
    cols: tuple[str, ...] = ("deadline", "due", "cite", "note")
    if not any(r[3] for r in rows):
        cols, rows = cols[:3], [r[:3] for r in rows]
    width = terminal_width()
    for line in fit_table(cols, rows, width=None if width is None else width - 2):
        print("  " + line)
    return EXIT_OK


def _render_one(job: tuple[str, str, str]) -> None:
    """Draw one scenario's chart and write its report (in a worker process)."""
    from simulator.engine.replay import replay
    from simulator.input.loader import load_scenario
    from simulator.views.charts import plot_timeline
    from simulator.views.report import write_report

    source, svg, html = job
    scenario = load_scenario(source)
    result = replay(scenario)
    with writing(svg):
        plot_timeline(result, scenario=scenario, out=svg)
    with writing(html):
        write_report(scenario, result, html)


def _summary(result: Any) -> str:
    parts = []
    for c in result.contests:
        bits = list(c.outcome.brief(" ")) or [c.state]
        parts.append(f"{c.id}: {'; '.join(bits)}")
    return " | ".join(parts)


def cmd_demo(args: argparse.Namespace) -> int:
    from simulator.engine.replay import replay
    from simulator.input.loader import load_scenario

    # (each was let pass: --all-charts won over --no-charts, and --jobs 0 or -3 drew with one
    # process per core)
    if args.all_charts and args.no_charts:
        raise UsageError("--all-charts and --no-charts: expected one of them; found both")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs: expected 1 or more processes; found {args.jobs}")
    root = Path(args.dir)
    out = Path(args.out)
    # (an --out folder inside the scenarios' folder holds the results of the run before, which
    # were read as scenarios: the second run failed on its own output)
    files = _scenario_files([args.dir])
    inside = out.resolve()
    if inside != root.resolve():  # (the same folder: each result would replace a scenario)
        files = [f for f in files if not f.resolve().is_relative_to(inside)]
    if not files:
        raise UsageError(
            f"{args.dir}: expected scenario files outside the output folder {args.out}; found none"
        )
    base = root if root.is_dir() else root.parent
    paint = _painter(args, sys.stdout)
    width = terminal_width() or 100
    # Charts and reports: every scenario with --all-charts, else the first of each folder.
    chosen: set[Path] = set()
    if args.all_charts:
        chosen = set(files)
    elif not args.no_charts:
        firsts: dict[Path, Path] = {}
        for f in files:
            firsts.setdefault(f.parent, f)
        chosen = set(firsts.values())
    _check_demo_outputs(files, base, out, chosen)
    jobs: list[tuple[str, str, str]] = []
    for f in files:
        stem = _demo_stem(f, base, out)
        scenario = load_scenario(f)
        result = replay(scenario)
        with writing(stem.with_suffix(".json")):
            stem.parent.mkdir(parents=True, exist_ok=True)
            stem.with_suffix(".json").write_text(
                json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n"
            )
        shown = stem.with_suffix(".json")
        if f in chosen:
            jobs.append((str(f), str(stem.with_suffix(".svg")), str(stem.with_suffix(".html"))))
            shown = stem.with_suffix(".html")
        name = str(f.relative_to(base))
        summary = _clip(_summary(result), width - len(name) - 2)
        print(f"{paint(name, 'bold')}  {summary}")
        print(f"    -> {shown}")
    if jobs:
        _render_all(jobs, args)
    charts = f"; charts and reports for {len(jobs)}" if jobs else ""
    print(f"replayed {len(files)} scenario(s); results in {out}/{charts}")
    if not args.all_charts and not args.no_charts and len(jobs) < len(files):
        print(f"(all charts and reports: electsim demo {args.dir} --all-charts)")
    return EXIT_OK


def _demo_stem(f: Path, base: Path, out: Path) -> Path:
    """Where ``demo`` writes the outputs of scenario ``f`` (the folders mirrored under ``out``),
    without their suffix."""
    return out / f.relative_to(base).with_suffix("")


def _check_demo_outputs(files: list[Path], base: Path, out: Path, chosen: set[Path]) -> None:
    """Before anything is written: no output of ``demo`` may be one of its scenario files (a
    folder's results written into the folder itself would replace its JSON scenarios), and no
    two scenarios may have their results written to one file (``a.yaml`` and ``a.json``).
    Raises OutputError naming every such file, one line each."""
    problems: list[str] = []
    owner: dict[Path, Path] = {}
    inputs = {f.resolve() for f in files}
    for f in files:
        stem = _demo_stem(f, base, out)
        suffixes = (".json", ".svg", ".html") if f in chosen else (".json",)
        itself = f.resolve()
        for target in (stem.with_suffix(x) for x in suffixes):
            key = target.resolve()
            if key in inputs:
                whose = "this scenario's own result" if key == itself else f"the result of {f}"
                problems.append(
                    f"{target}: cannot write {whose} over a scenario file that is replayed "
                    "(name another folder with --out)"
                )
            elif key in owner:
                problems.append(
                    f"{target}: cannot write the results of both {owner[key]} and {f} to one "
                    "file (rename one of them, or name another folder with --out)"
                )
            else:
                owner[key] = f
    if problems:
        raise OutputError("\n".join(problems))


def _clip(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters (at least 20), ending in ... when cut."""
    width = max(width, 20)
    return text if len(text) <= width else text[: width - 3] + "..."


def _render_all(jobs: list[tuple[str, str, str]], args: argparse.Namespace) -> None:
    workers = max(1, min(args.jobs or os.cpu_count() or 1, len(jobs)))
    if workers == 1:
        for job in _progress(jobs, args, what="charts"):
            _render_one(job)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers) as pool:
        for _ in _progress(pool.map(_render_one, jobs), args, what="charts", total=len(jobs)):
            pass


def cmd_report(args: argparse.Namespace) -> int:
    from simulator.engine.replay import replay
    from simulator.input.loader import load_scenario
    from simulator.views.report import write_report

    out = Path(args.output) if args.output else Path(Path(args.file).stem + ".html")
    check_output(out, inputs=(args.file,))
    scenario = load_scenario(args.file, max_bytes=args.max_bytes)
    as_of = _parse_time(args.as_of, scenario.timezone) if args.as_of else None
    result = replay(scenario, as_of=as_of)
    with writing(out):
        write_report(scenario, result, out)
    print(f"wrote {out}")
    return EXIT_OK


DOCS = "docs/ in the electsim source (docs/cli.md for the commands)"

_EXAMPLES = {
    "replay": """\
examples:
  electsim replay scenarios/runoff/cary-2023-district-d.yaml
  electsim replay FILE --json > result.json
  electsim replay FILE --as-of 2023-10-17T15:00      what the board knew then
  electsim replay FILE --ics > deadlines.ics          the deadlines, for a calendar
  electsim replay FILE --chart timeline.svg --graph states.png""",
    "test": """\
examples:
  electsim test scenarios                  every scenario under the folder
  electsim test my-case.yaml -q            print only what fails
  electsim test scenarios --json > report.json

exit codes: 0 every expectation holds; 3 an expectation does not hold;
2 invalid input (a scenario or expectation that cannot be read); 1 a bug""",
    "validate": """\
examples:
  electsim validate my-case.yaml
  electsim validate scenarios/runoff/*.yaml --json""",
    "calendar": """\
examples:
  electsim calendar 2027 --method nonpartisan-runoff
  electsim calendar 2027 --method partisan --json
  electsim calendar 2027 --method nonpartisan-runoff --ics > nc-2027.ics""",
    "demo": """\
examples:
  electsim demo                              the bundled scenarios, into out/
  electsim demo my-cases --out my-results --all-charts --jobs 2""",
    "report": """\
examples:
  electsim report scenarios/runoff/cary-2023-district-d.yaml -o cary.html
  electsim report FILE --as-of 2023-10-18T09:00""",
    "explore": """\
examples:
  electsim explore --method nonpartisan-runoff --seats 1 --candidates 3
  electsim explore --method partisan --candidates 4 --check --witnesses out/explore
  electsim explore --grid --seats 2 --workers 2""",
    "gaps": """\
examples:
  electsim gaps
  electsim gaps --json""",
    "import-results": """\
examples:
  electsim import-results 20231010__nc__general__precinct.csv.gz --list
  electsim import-results FILE --list --json
  electsim import-results FILE --contest "Town of Cary Town Council District D" \\
      --method nonpartisan-runoff -o cary.yaml""",
    "conformance": """\
examples:
  electsim conformance
  electsim conformance --method nonpartisan-primary --year 2019
  electsim conformance --markdown > conformance.md
  electsim conformance --data ~/nc-results --json""",
    "cite": """\
examples:
  electsim cite "163-294.4(c)"
  electsim cite 163-293 --json""",
    "schema": """\
examples:
  electsim schema > scenario.schema.json""",
}


class _Formatter(argparse.HelpFormatter):
    """Wraps descriptions to the terminal; keeps the line breaks of text that has them (the
    examples)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("electsim")
    except PackageNotFoundError:  # pragma: no cover - running from a plain checkout
        return "unknown"


class _Version(argparse.Action):
    """``--version``, resolved only when asked (package metadata is slow to read)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        print(f"electsim {_version()}")
        parser.exit()


def _color(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the output: auto (on a terminal, unless NO_COLOR is set), always or never "
        "(default: %(default)s)",
    )


def _as_of(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--as-of",
        metavar="DATETIME",
        help="replay only what the board knew at this moment (ISO 8601, like 2027-10-14T12:00; "
        "without an offset, in the scenario's timezone)",
    )


def build_parser() -> argparse.ArgumentParser:
    from simulator.law.vocab import Method, Stage

    methods = [m.value for m in Method]
    # the methods simulator.conformance checks (its METHODS), without importing it here
    checked = (Method.RUNOFF.value, Method.PRIMARY.value, Method.PARTISAN.value)
    p = _Parser(
        prog="electsim",
        description="Replay North Carolina municipal election law: rulings with citations, "
        "deadlines with how they were computed.",
        epilog=f"Exit codes: 0 success, 2 invalid input, 1 a bug (3: electsim test found an "
        f"expectation that does not hold). Documentation: {DOCS}.",
    )
    p.add_argument("--version", action=_Version, help="print the version and exit")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")

    def command(name: str, help: str, description: str | None = None) -> argparse.ArgumentParser:
        return sub.add_parser(
            name,
            help=help,
            description=description or help[0].upper() + help[1:] + ".",
            epilog=_EXAMPLES[name] + f"\n\ndocumentation: {DOCS}",
            formatter_class=_Formatter,
        )

    r = command(
        "replay",
        "replay a scenario and print its timeline, JSON result or deadlines",
        "Replay a scenario: print each contest's timeline (events, rulings with their "
        "citations, deadlines) and outcome; or the JSON result (docs/results.md); or the "
        "deadlines as an iCalendar file.",
    )
    r.add_argument("file", metavar="FILE", help="the scenario (.yaml, .yml or .json)")
    r.add_argument("--json", action="store_true", help="print the JSON result document")
    r.add_argument(
        "--ics",
        action="store_true",
        help="print every contest's deadlines as an iCalendar (.ics) file",
    )
    _as_of(r)
    r.add_argument("--chart", metavar="OUT", help="also write a timeline chart (.png or .svg)")
    r.add_argument(
        "--graph",
        metavar="OUT",
        help="also write the state graph (.dot, .mmd, .graphml, .json, .png or .svg): the path "
        "taken",
    )
    _color(r)
    chart = r.add_argument_group("chart and graph options")
    # (no defaults here: an option given without --chart is refused, see _chart_options)
    chart.add_argument("--width", type=int, help="chart width in pixels (1430)")
    chart.add_argument("--dpi", type=int, help="chart resolution (110)")
    chart.add_argument("--from", dest="start", help="draw only from this date or date-time")
    chart.add_argument("--to", dest="end", help="draw only up to this date or date-time")
    chart.add_argument("--title", help="the chart's title (default: the scenario's)")
    chart.add_argument(
        "--days-from-election",
        action="store_true",
        default=None,
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
    _add_max_bytes(r)
    r.set_defaults(func=cmd_replay)

    t = command(
        "test",
        "check scenarios against their expect: blocks",
        "Replay each scenario and check what its expect: block says the replay must show "
        "(docs/expectations.md). Prints PASS, or FAIL with each difference: the expectation, "
        "the field or ruling, what was expected and what was found.",
    )
    t.add_argument(
        "paths",
        nargs="+",
        metavar="FILE|DIR",
        help="scenario files, or folders searched for .yaml, .yml and .json files",
    )
    t.add_argument("--json", action="store_true", help="print the report as JSON")
    t.add_argument("-q", "--quiet", action="store_true", help="print only what does not pass")
    _color(t)
    t.set_defaults(func=cmd_test)

    v = command(
        "validate",
        "check scenario files without replaying them (exit 0 or 2)",
        "Check scenario files: every problem is printed with its file, line, field, what was "
        "expected and what was found. Exit 0 when all are valid, 2 otherwise.",
    )
    v.add_argument("files", nargs="+", metavar="FILE", help="scenario files")
    v.add_argument("--json", action="store_true", help="print the verdicts and problems as JSON")
    _add_max_bytes(v)
    v.set_defaults(func=cmd_validate)

    c = command(
        "calendar",
        "print a year's statutory dates for one method",
        "Print the statutory dates of a year's municipal election cycle for one method, with "
        "citations and G.S. 103-5 moves.",
    )
    c.add_argument("year", type=int, metavar="YEAR", help="the election year, like 2027")
    c.add_argument(
        "--method",
        required=True,
        choices=methods,
        metavar="METHOD",
        help="the election method: " + ", ".join(methods),
    )
    c.add_argument(
        "--district-based",
        action="store_true",
        help="the census-year filing exception for district elections (G.S. 163-291(2)a, "
        "163-294.2(c)(1))",
    )
    c.add_argument("--json", action="store_true", help="print the dates as JSON")
    c.add_argument("--ics", action="store_true", help="print the dates as an iCalendar file")
    c.set_defaults(func=cmd_calendar)

    d = command(
        "demo",
        "replay every scenario in a folder, writing results under --out",
        "Replay every scenario under a folder; write each JSON result (and a chart and an HTML "
        "report for the first scenario of each folder, or all with --all-charts) under --out, "
        "mirroring the folders; print one line per scenario.",
    )
    d.add_argument(
        "dir", nargs="?", default="scenarios", metavar="DIR", help="default: %(default)s"
    )
    d.add_argument("--out", default="out", help="where results go (default: %(default)s)")
    d.add_argument("--no-charts", action="store_true", help="write JSON results only")
    d.add_argument(
        "--all-charts", action="store_true", help="draw a chart and a report for every scenario"
    )
    d.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="processes drawing charts in parallel (default: one per core)",
    )
    _color(d)
    d.set_defaults(func=cmd_demo)

    rp = command("report", "write a self-contained HTML report of a replay")
    rp.add_argument("file", metavar="FILE", help="the scenario")
    rp.add_argument("-o", "--output", help="the HTML file to write (default: FILE's stem .html)")
    _as_of(rp)
    _add_max_bytes(rp)
    rp.set_defaults(func=cmd_report)

    g = command(
        "gaps",
        "list the facts that fall in a gap of the statutes",
        "List every gap of the statutes the rules can reach, with the facts that reach it and "
        "the fallback a replay uses (a no_provision ruling).",
    )
    g.add_argument("--json", action="store_true", help="print the gaps as JSON")
    g.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also list every combination of facts in each gap",
    )
    g.add_argument(
        "--explore",
        action="store_true",
        help="also list the gaps and conflicts electsim explore reaches, each with a shortest "
        "course of events",
    )
    g.add_argument(
        "--seats",
        type=int,
        choices=[1, 2, 3],
        default=1,
        help="with --explore: explore seats 1 to this (1)",
    )
    g.set_defaults(func=cmd_gaps)

    from simulator.cli import cite as cite_command
    from simulator.cli import explore as explore_command  # light: their work imports lazily

    cite_command.register(sub)
    explore_command.register(sub)
    ex = sub.choices["explore"]
    ex.description = (
        "Enumerate the courses of events of one contest (departures in each region between the "
        "statutory landmarks, returns in each ranking class, requests, lots, the runoff) and "
        "replay each through the engine: every distinct outcome with a shortest witness, the "
        "gaps and conflicts reached, the subsections cited."
    )
    ex.epilog = _EXAMPLES["explore"] + f"\n\ndocumentation: {DOCS}"
    ex.formatter_class = _Formatter
    ct = sub.choices["cite"]
    ct.description = (
        "List everything that implements or exercises one subsection of the statutes: the rules "
        "of the rule tables, the state machine's transitions, the gaps, the code that cites it, "
        "the scenarios and the tests."
    )
    ct.epilog = _EXAMPLES["cite"] + f"\n\ndocumentation: {DOCS}"
    ct.formatter_class = _Formatter

    ir = command(
        "import-results",
        "import one contest of a NC results file as a scenario",
        "Turn one contest of an openelections CSV or a State Board results_pct file into a "
        "scenario: filings, one returns_reported per precinct, the canvass.",
    )
    ir.add_argument(
        "file", metavar="FILE", help="openelections CSV or State Board results_pct (plain or gzip)"
    )
    ir.add_argument("--contest", help="the contest's name in the file (case, spacing ignored)")
    ir.add_argument("--list", action="store_true", help="list the contests in the file")
    ir.add_argument("--json", action="store_true", help="with --list: print the list as JSON")
    ir.add_argument(
        "--seats",
        type=int,
        metavar="N",
        help="seats to fill (default: the file's Vote For, else 1)",
    )
    ir.add_argument(
        "--method",
        choices=methods,
        metavar="METHOD",
        help="election method: " + ", ".join(methods) + " (default: nonpartisan-plurality)",
    )
    ir.add_argument(
        "--stage",
        choices=[s.value for s in Stage],
        help="primary or election (default: election)",
    )
    ir.add_argument("--year", type=int, help="election year (default: the year of the file's date)")
    ir.add_argument(
        "-o",
        "--output",
        help="write the scenario here (.yaml, .yml or .json), not stdout; an existing file is "
        "kept unless --overwrite",
    )
    ir.add_argument(
        "--overwrite", action="store_true", help="let -o replace a file that exists already"
    )
    ir.add_argument("--encoding", default="utf-8", help="the file's text encoding (default utf-8)")
    _add_max_bytes(ir)
    ir.set_defaults(func=_later("simulator.input.importer", "cmd_import_results"))

    cf = command(
        "conformance",
        "check the engine against real NC runoffs and primaries",
        "Replay the real contests of the North Carolina results data and check each against the "
        "ballot that followed: October elections of the runoff towns against November, "
        "primaries against the next ballot; check the calendar against published dates.",
    )
    cf.add_argument(
        "--data", metavar="DIR", help="folder of results files (default: ../shared/data)"
    )
    cf.add_argument("--markdown", action="store_true", help="print Markdown tables")
    cf.add_argument(
        "--method",
        action="append",
        choices=checked,
        metavar="METHOD",
        help="only this method's contests: "
        + ", ".join(checked)
        + " (repeatable; default: all three)",
    )
    cf.add_argument(
        "--year", action="append", type=int, help="only this year's contests (repeatable)"
    )
    cf.add_argument("--json", action="store_true", help="print the report as JSON")
    cf.set_defaults(func=_later("simulator.analysis.conformance", "cmd_conformance"))

    sc = command(
        "schema",
        "print the JSON Schema of scenario files",
        "Print the JSON Schema of scenario files (the same as docs/scenario.schema.json), for "
        "editor completion and checking.",
    )
    sc.set_defaults(func=cmd_schema)

    return p


def cmd_schema(args: argparse.Namespace) -> int:
    from simulator.input.schema import scenario_schema

    print(json.dumps(scenario_schema(), indent=2, ensure_ascii=False))
    return EXIT_OK


def _later(module: str, name: str) -> Callable[[argparse.Namespace], int]:
    """A command whose module is imported only when it runs (``electsim --help`` stays fast)."""

    def run(args: argparse.Namespace) -> int:
        command: Callable[[argparse.Namespace], int] = getattr(
            importlib.import_module(module), name
        )
        return command(args)

    return run


def _refuse_empty_values(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """An option given an empty value (``--as-of ""``, ``--chart ""``, as an unset
    shell variable writes it) is a mistake: it was read as the option not given (no chart was
    drawn, the whole log replayed, the report written under another name), exit 0."""
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    command = commands.choices.get(str(getattr(args, "command", "")))
    for action in command._actions if command is not None else ():
        value = getattr(args, action.dest, None)
        if not action.option_strings:  # (an empty file or citation is no file or citation)
            continue
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, str) and not v.strip():
                name = "/".join(action.option_strings)
                raise UsageError(f"{name}: expected a value; found {v!r}, an empty one")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        _refuse_empty_values(parser, args)
        code: int = args.func(args)
        return code
    except ScenarioError as e:
        _print_problems(e)
        return EXIT_INVALID
    except SimulatorError as e:
        for line in str(e).splitlines() or [""]:  # (one problem a line, each named so)
            print(f"electsim: {line}", file=sys.stderr)
        return EXIT_INVALID
    except BrokenPipeError:
        return EXIT_OK
    except Exception as e:  # a bug: say so plainly and ask for a report
        if os.environ.get("ELECTSIM_DEBUG"):
            import traceback  # only for a bug: it loads the source reading machinery

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
