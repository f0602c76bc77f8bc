"""The ``electsim`` command line (docs/cli.md): its parser and its entry point. Exit codes: 0
success, 2 invalid input, 1 anything else (a bug); ``electsim test`` exits 3 when an expectation
does not hold.

Each command lives in a module of its own (``simulator.cli.replay``, ``simulator.cli.test``, ...);
this module adds each command's parser (one function a command) and runs the command named."""

from __future__ import annotations

import argparse
import errno
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from simulator.analysis.conformance.data import METHODS as CHECKED_METHODS
from simulator.cli import cite, explore
from simulator.cli import new as new_command
from simulator.cli.app import cmd_app
from simulator.cli.calendar import cmd_calendar
from simulator.cli.common import EXIT_BUG, EXIT_INVALID, print_problems
from simulator.cli.conformance import cmd_conformance
from simulator.cli.demo import cmd_demo
from simulator.cli.gaps import cmd_gaps
from simulator.cli.import_results import cmd_import_results
from simulator.cli.next import cmd_next
from simulator.cli.parsing import EXAMPLES, Formatter, Parser, Version, refuse_empty_values
from simulator.cli.replay import cmd_replay
from simulator.cli.report import cmd_report
from simulator.cli.schema import cmd_schema
from simulator.cli.test import cmd_test
from simulator.cli.validate import cmd_validate
from simulator.input.files import MAX_INPUT_BYTES, describe_size, parse_size
from simulator.input.output import visible
from simulator.law.vocab import Method, Stage
from simulator.model.errors import ScenarioError, SimulatorError

DOCS = "docs/ in the electsim source (docs/cli.md for the commands)"


def _max_bytes(text: str) -> int:
    """``--max-bytes``: a size like 2000000, 512MiB or 4GiB."""
    try:
        return parse_size(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a size in bytes, like 2000000, 512MiB or 4GiB; found {text!r}"
        ) from None


def _add_max_bytes(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--max-bytes",
        type=_max_bytes,
        default=MAX_INPUT_BYTES,
        help=f"read input files up to this size (default {describe_size(MAX_INPUT_BYTES)})",
    )


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


def _reading(p: argparse.ArgumentParser, what: str) -> None:
    """``--reading NAME=VALUE``, repeatable: an interpretation switch chosen for this run."""
    p.add_argument(
        "--reading",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"{what} under this interpretation switch (docs/readings.md), like "
        "three_way_tie=lot, over the scenario's interpretations:; repeat for several",
    )


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser: a sub-parser for each command of :data:`COMMANDS`, in the
    order ``--help`` lists them."""
    p = Parser(
        prog="electsim",
        formatter_class=Formatter,
        description="Replay North Carolina municipal election law: rulings with citations, "
        "deadlines with how they were computed.",
        epilog=f"Exit codes: 0 success, 2 invalid input, 1 a bug (3: electsim test found an "
        f"expectation that does not hold). Documentation: {DOCS}.",
    )
    p.add_argument("--version", action=Version, help="print the version and exit")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser, metavar="COMMAND")
    for add in COMMANDS:
        add(sub)
    return p


if TYPE_CHECKING:
    #: Where a command's parser is added
    Commands = argparse._SubParsersAction[Any]


def _command(
    sub: Commands, name: str, help: str, description: str | None = None
) -> argparse.ArgumentParser:
    """A command's parser, with its help, its description and its examples."""
    return cast(
        argparse.ArgumentParser,
        sub.add_parser(
            name,
            help=help,
            description=description or help[0].upper() + help[1:] + ".",
            epilog=EXAMPLES[name] + f"\n\ndocumentation: {DOCS}",
            formatter_class=Formatter,
        ),
    )


def _explained(parser: argparse.ArgumentParser, name: str, description: str) -> None:
    """A parser its command's module made, given the description and examples all have."""
    parser.description = description
    parser.epilog = EXAMPLES[name] + f"\n\ndocumentation: {DOCS}"
    parser.formatter_class = Formatter


#: the names of the election methods, for the options that take one
METHOD_NAMES = tuple(m.value for m in Method)


def _add_replay(sub: Commands) -> None:
    """``electsim replay``."""
    r = _command(
        sub,
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
        nargs="?",
        const="-",
        metavar="DIR",
        help="print the contest's deadlines as an iCalendar (.ics) file; with DIR, write one "
        "file per contest there (DIR/CONTEST.ics)",
    )
    _as_of(r)
    _reading(r, "replay")
    r.add_argument(
        "--no-futures",
        action="store_true",
        help="end an undecided contest without what can happen from here (electsim next)",
    )
    r.add_argument("--chart", metavar="OUT", help="also write a timeline chart (.png or .svg)")
    r.add_argument(
        "--graph",
        metavar="OUT",
        help="also write the state graph (.dot, .mmd, .graphml, .json, .png or .svg): the path "
        "taken",
    )
    _color(r)
    _chart_options(r)
    _add_max_bytes(r)
    r.set_defaults(func=cmd_replay)


def _chart_options(r: argparse.ArgumentParser) -> None:
    """``electsim replay``'s options for its chart and graph."""
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


def _add_test(sub: Commands) -> None:
    """``electsim test``."""
    t = _command(
        sub,
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
    _reading(t, "replay each scenario")
    _color(t)
    t.set_defaults(func=cmd_test)


def _add_validate(sub: Commands) -> None:
    """``electsim validate``."""
    v = _command(
        sub,
        "validate",
        "check scenario files without replaying them (exit 0 or 2)",
        "Check scenario files: every problem is printed with its file, line, field, what was "
        "expected and what was found. With --strict, each file is replayed too and every remark "
        "is a problem (one line each: file, event, kind, words). Exit 0 when all are valid, 2 "
        "otherwise.",
    )
    v.add_argument("files", nargs="+", metavar="FILE", help="scenario files")
    v.add_argument("--json", action="store_true", help="print the verdicts and problems as JSON")
    v.add_argument(
        "--strict",
        action="store_true",
        help="replay each valid file too, and count each remark (a fact off the statutory "
        "calendar, like returns on another day than the election's) as a problem",
    )
    _add_max_bytes(v)
    v.set_defaults(func=cmd_validate)


def _add_calendar(sub: Commands) -> None:
    """``electsim calendar``."""
    c = _command(
        sub,
        "calendar",
        "print a year's statutory dates for one method",
        "Print the statutory dates of a year's municipal election cycle for one method, with "
        "citations and G.S. 103-5 moves.",
    )
    c.add_argument("year", type=int, metavar="YEAR", help="the election year, like 2027")
    c.add_argument(
        "--method",
        required=True,
        choices=METHOD_NAMES,
        metavar="METHOD",
        help="the election method: " + ", ".join(METHOD_NAMES),
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


def _add_next(sub: Commands) -> None:
    """``electsim next``."""
    n = _command(
        sub,
        "next",
        "list every way each contest can still end, from what the board knows now",
        "What can happen from here: for each contest, from what the board knew at --as-of (or "
        "at the end of the log), every way the law lets it end, grouped by outcome: the "
        "condition in words, the rulings with their citations, and a witness scenario that "
        "replays to that outcome. The votes still to be counted are taken in every ranking "
        "class; requests in time or not; each answer to a pending board decision; and up to "
        "--departures further deaths, withdrawals or disqualifications. The output states its "
        "bounds.",
    )
    n.add_argument("file", metavar="FILE", help="the scenario file")
    n.add_argument("--as-of", metavar="T", help="what the board knew at this time (ISO 8601)")
    n.add_argument(
        "--departures",
        type=int,
        default=1,
        metavar="K",
        help="how many further departures to consider, 0 to 2 (1)",
    )
    n.add_argument("--json", action="store_true", help="print the futures as JSON")
    _add_max_bytes(n)
    n.set_defaults(func=cmd_next)


def _add_demo(sub: Commands) -> None:
    """``electsim demo``."""
    d = _command(
        sub,
        "demo",
        "replay every scenario in a folder, writing results under --out",
        "Replay every scenario under a folder; write each JSON result (and a chart and an HTML "
        "report for the showcase scenarios of the bundled library, or for the first scenario of "
        "each folder of another, or all with --all-charts) under --out, mirroring the folders; "
        "print one line per scenario.",
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


def _add_report(sub: Commands) -> None:
    """``electsim report``."""
    rp = _command(sub, "report", "write a self-contained HTML report of a replay")
    rp.add_argument("file", metavar="FILE", help="the scenario")
    rp.add_argument("-o", "--output", help="the HTML file to write (default: FILE's stem .html)")
    _as_of(rp)
    _reading(rp, "replay")
    _add_max_bytes(rp)
    rp.set_defaults(func=cmd_report)


def _add_gaps(sub: Commands) -> None:
    """``electsim gaps``."""
    g = _command(
        sub,
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
    g.add_argument(
        "--accept",
        metavar="FILE",
        help="the ids of gaps and conflicts already known, one a line (# comments): exit 4 on "
        "a finding not in FILE, and name it; 0 otherwise",
    )
    g.add_argument(
        "--ids",
        action="store_true",
        help="print only the ids of the findings, one a line (a file --accept reads)",
    )
    g.set_defaults(func=cmd_gaps)


def _add_cite(sub: Commands) -> None:
    """``electsim cite``: its options are the command module's."""
    cite.register(sub)
    _explained(
        sub.choices["cite"],
        "cite",
        "List everything that implements or exercises one subsection of the statutes: the "
        "rules of the rule tables, the state machine's transitions, the gaps, the code that "
        "cites it, the scenarios and the tests.",
    )


def _add_explore(sub: Commands) -> None:
    """``electsim explore``: its options are the command module's."""
    explore.register(sub)
    _explained(
        sub.choices["explore"],
        "explore",
        "Enumerate the courses of events of one contest (departures in each region between "
        "the statutory landmarks, returns in each ranking class, requests, lots, the runoff) "
        "and replay each through the engine: every distinct outcome with a shortest witness, "
        "the gaps and conflicts reached, the subsections cited.",
    )


def _add_new(sub: Commands) -> None:
    """``electsim new``: its options are the command module's."""
    new_command.register(sub, None, docs=DOCS)


def _add_import_results(sub: Commands) -> None:
    """``electsim import-results``."""
    ir = _command(
        sub,
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
        choices=METHOD_NAMES,
        metavar="METHOD",
        help="election method: " + ", ".join(METHOD_NAMES) + " (default: nonpartisan-plurality)",
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
    ir.set_defaults(func=cmd_import_results)


def _add_conformance(sub: Commands) -> None:
    """``electsim conformance``."""
    cf = _command(
        sub,
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
        choices=CHECKED_METHODS,
        metavar="METHOD",
        help="only this method's contests: "
        + ", ".join(CHECKED_METHODS)
        + " (repeatable; default: all three)",
    )
    cf.add_argument(
        "--year", action="append", type=int, help="only this year's contests (repeatable)"
    )
    cf.add_argument("--json", action="store_true", help="print the report as JSON")
    cf.set_defaults(func=cmd_conformance)


def _add_schema(sub: Commands) -> None:
    """``electsim schema``."""
    sc = _command(
        sub,
        "schema",
        "print the JSON Schema of scenario files",
        "Print the JSON Schema of scenario files (the same as docs/scenario.schema.json), for "
        "editor completion and checking.",
    )
    sc.add_argument(
        "--futures",
        action="store_true",
        help="the schema of `electsim next --json` instead (docs/futures.schema.json)",
    )
    sc.set_defaults(func=cmd_schema)


def _add_app(sub: Commands) -> None:
    """``electsim app``."""
    ap = _command(
        sub,
        "app",
        "serve the what-if panel for a scenario as a local web page",
        "Serve the what-if panel for a scenario as a page on this computer (127.0.0.1 only): "
        "change the date of an event, the votes in a return, who asked for a runoff or a "
        "reading, and the outcome, the rulings, the deadlines and the timeline answer. "
        "Ctrl-C stops it.",
    )
    ap.add_argument("file", metavar="FILE", help="the scenario (.yaml, .yml or .json)")
    ap.add_argument(
        "--port", type=int, default=8050, help="the port to listen on (default %(default)s; 0: any)"
    )
    ap.add_argument("--no-browser", action="store_true", help="do not open the browser")
    _add_max_bytes(ap)
    ap.set_defaults(func=cmd_app)


#: Each command's parser, in the order ``electsim --help`` lists them
COMMANDS: tuple[Callable[[Commands], None], ...] = (
    _add_replay,
    _add_test,
    _add_validate,
    _add_calendar,
    _add_next,
    _add_demo,
    _add_report,
    _add_gaps,
    _add_cite,
    _add_explore,
    _add_new,
    _add_import_results,
    _add_conformance,
    _add_schema,
    _add_app,
)


def main(argv: Sequence[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    args = parser.parse_args(given)
    try:
        refuse_empty_values(parser, args)
        code: int = args.func(args)
        sys.stdout.flush()  # (a full device or a closed pipe is found here, not at exit)
        return code
    except ScenarioError as e:
        print_problems(e)
        return EXIT_INVALID
    except SimulatorError as e:
        for line in str(e).splitlines() or [""]:  # (one problem a line, each named so)
            print(f"electsim: {visible(line, keep='')}", file=sys.stderr)
        return EXIT_INVALID
    except OSError as e:
        if not _output_failed(e):
            return _bug(e)
        _quiet_stdout()
        closed = isinstance(e, BrokenPipeError)
        reason = "the program reading it closed the pipe" if closed else (e.strerror or str(e))
        print(f"electsim: standard output: cannot write the output: {reason}", file=sys.stderr)
        return EXIT_INVALID
    except Exception as e:
        return _bug(e)


#: The errors of a write to standard output that are the output's, not electsim's: a full
#: device, a file over its size limit or quota, an input/output error, a closed pipe.
_OUTPUT_ERRNOS = frozenset(
    {errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO, errno.EPIPE, errno.ECONNRESET}
)


def _output_failed(error: OSError) -> bool:
    return isinstance(error, BrokenPipeError) or error.errno in _OUTPUT_ERRNOS


def _quiet_stdout() -> None:
    """Point standard output at the null device, so that the buffered text that could not be
    written is not tried again (and reported again) when the interpreter exits."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass


def _bug(e: BaseException) -> int:
    """A bug: say so plainly and ask for a report."""
    if os.environ.get("ELECTSIM_DEBUG"):
        traceback.print_exc()
    print(
        f"electsim: internal error ({type(e).__name__}: {e}). This is a bug in electsim; "
        "please report it with the scenario file. Set ELECTSIM_DEBUG=1 to see the full trace.",
        file=sys.stderr,
    )
    return EXIT_BUG


if __name__ == "__main__":
    sys.exit(main())
