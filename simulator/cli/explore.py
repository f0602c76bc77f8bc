"""The ``electsim explore`` command line: its options, the command, and all its printing.

The exploration itself is :mod:`simulator.analysis.explore`'s.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.analysis.explore.config import Config
from simulator.analysis.explore.coverage import (
    coverage_markdown,
    coverage_table,
    write_coverage_chart,
)
from simulator.analysis.explore.exploration import explore, explore_grid
from simulator.analysis.explore.findings import (
    finding_file,
    findings_markdown,
    grid_findings,
    render,
    to_json,
    unreached_table_subsections,
)
from simulator.analysis.explore.witnesses import (
    check_witness,
    witness_doc,
    witness_graph,
    write_witness,
    write_witnesses,
)
from simulator.analysis.workers import Dask, EngineError, Processes, Serial
from simulator.cli.accept import AcceptError, read_accepted, report_new
from simulator.cli.parsing import parse_readings
from simulator.input.output import check_output
from simulator.law.vocab import Method
from simulator.model.errors import OutputError

if TYPE_CHECKING:
    from simulator.analysis.explore.config import Config
    from simulator.analysis.explore.outcomes import Exploration
    from simulator.analysis.workers import Engine


def _kinds(args: argparse.Namespace) -> list[tuple[Method, bool]]:
    """The methods ``--method`` and ``--stage`` select, each with whether it is the partisan
    general election: the partisan method's primary and general election both, unless
    ``--stage`` names one."""
    stage = getattr(args, "stage", None)
    methods = [Method(args.method)] if args.method else list(Method)
    out: list[tuple[Method, bool]] = []
    for m in methods:
        if m is Method.PARTISAN:
            out += [
                (m, general) for general in (False, True) if stage in (None, general_of(general))
            ]
        else:
            out.append((m, False))
    return out


def general_of(general: bool) -> str:
    return "election" if general else "primary"


def _grid(args: argparse.Namespace) -> list[Config]:
    top = getattr(args, "max_candidates", None)
    readings = parse_readings(getattr(args, "reading", None) or ())
    return [
        Config(
            method=m,
            seats=s,
            candidates=n,
            departures=args.departures,
            general=g,
            readings=readings,
        )
        for m, g in _kinds(args)
        for s in range(1, args.seats + 1)
        for n in range(1, (top or 2 * s + 2) + 1)
    ]


def _check_outputs(args: argparse.Namespace) -> None:
    """The chart and the GraphML file can be written, with their names' endings, before the
    exploration runs (a missing folder stopped the program after it, exit 1; ``--chart DIR``
    wrote ``DIR.png`` beside the folder; ``--graphml scenario.yaml`` wrote GraphML over it)."""

    for option, path, endings in (
        ("--chart", getattr(args, "chart", None), (".png", ".svg")),
        ("--graphml", getattr(args, "graphml", None), (".graphml",)),
    ):
        if path is None:
            continue
        suffix = Path(path).suffix.lower()
        if suffix not in endings:
            raise OutputError(
                f"{path}: expected a file ending in {' or '.join(endings)} for {option}; found "
                f"{suffix or 'no extension'}"
            )
        check_output(path)


def cmd_explore(args: argparse.Namespace) -> int:
    """``electsim explore``: one configuration (its outcomes with their witnesses, as text or
    JSON) or, with ``--grid``, many; writes and checks the witnesses it is asked to."""
    given = getattr(args, "workers", None)
    wrong = _option_problems(args)
    if wrong:
        print("\n".join(wrong), file=sys.stderr)
        return 2
    args.workers = 1 if given is None else given
    _check_outputs(args)
    problem = _format_problem(args)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    try:
        readings = parse_readings(getattr(args, "reading", None) or ())
    except ValueError as error:
        print(f"electsim explore: {error}", file=sys.stderr)
        return 2
    if getattr(args, "accept", None) is not None:
        try:
            args.accepted = read_accepted(args.accept)
        except AcceptError as error:
            print(f"electsim explore --accept: {error}", file=sys.stderr)
            return 2
    if args.witnesses and Path(args.witnesses).exists() and not Path(args.witnesses).is_dir():
        print(
            f"electsim explore: {args.witnesses}: expected a folder to write the witnesses in; "
            "found a file (name a folder, new or existing)",
            file=sys.stderr,
        )
        return 2
    if args.grid:
        try:
            return _cmd_grid(args)
        except EngineError as error:
            print(error, file=sys.stderr)
            return 2
    if not args.method:
        print("electsim explore: --method is required (or --grid)", file=sys.stderr)
        return 2
    return _cmd_one(args, readings)


def _option_problems(args: argparse.Namespace) -> list[str]:
    """Each number out of its range, and each option given where it is not read (one a line,
    all of them: each was ignored before)."""
    top = getattr(args, "max_candidates", None)
    given = getattr(args, "workers", None)
    ranges = [
        ("--seats", args.seats, 1, 3),
        ("--candidates", args.candidates, 1, 8),
        ("--departures", args.departures, 0, 2),
        ("--max-candidates", top, 1, 8),
        ("--workers", given, 1, None),
    ]
    wrong = [
        f"electsim explore {flag}: expected a whole number from {low} to {high}; found {value}"
        if high is not None
        else f"electsim explore {flag}: expected a whole number, {low} or more; found {value}"
        for flag, value, low, high in ranges
        if value is not None and not (low <= value and (high is None or value <= high))
    ]
    # options that only a grid reads, given to one configuration (they were ignored)
    wrong += [
        f"electsim explore {flag}: expected only with --grid; found it without"
        for flag, value in (
            ("--max-candidates", top),
            ("--workers", given),
            ("--engine", getattr(args, "engine", None)),
            ("--scheduler", getattr(args, "scheduler", None)),
        )
        if value is not None and not args.grid
    ]
    if getattr(args, "overwrite", False) and not args.witnesses:
        wrong.append(
            "electsim explore --overwrite: expected only with --witnesses; found it without"
        )
    return wrong


def _format_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the output format or the stage asked for, if anything."""
    markdown = getattr(args, "markdown", False)
    if markdown and (args.json or not args.grid):
        # (each was ignored: --json printed JSON, one configuration printed its text)
        found = "both --json and --markdown" if args.json else "--markdown without --grid"
        return (
            f"electsim explore: expected one output format, --markdown only with --grid; found "
            f"{found}"
        )
    stage = getattr(args, "stage", None)
    if stage is not None and args.method and args.method != Method.PARTISAN.value:
        return (
            f"electsim explore --stage: expected the partisan method (the {args.method} "
            f"method has one stage); found --method {args.method}"
        )
    return None


def _cmd_one(args: argparse.Namespace, readings: tuple[tuple[str, Any], ...]) -> int:
    """``electsim explore --method ...``: one configuration explored; its chart, GraphML tree
    and witnesses written, the witnesses checked, as asked; its outcomes printed."""
    from simulator.analysis.explore.config import Config
    from simulator.analysis.explore.findings import to_json
    from simulator.analysis.explore.witnesses import witness_doc

    config = Config(
        method=Method(args.method),
        seats=args.seats,
        candidates=args.candidates,
        departures=args.departures,
        general=getattr(args, "stage", None) == "election",
        readings=readings,
    )
    ex = explore(config)
    if getattr(args, "chart", None):
        write_coverage_chart([ex], Path(args.chart))
    if args.graphml:
        import networkx as nx

        nx.write_graphml(witness_graph(ex), args.graphml)
    failures = 0
    if args.witnesses:
        named = [
            (Path(args.witnesses) / f"outcome-{i:03}.yaml", witness_doc(config, o, w))
            for i, (o, w, _k) in enumerate(ex.outcomes, 1)
        ]
        if not _written(named, args):
            return 2
    if args.check:
        failures = _check_witnesses(args, ex)
    if args.json:
        doc = to_json(ex)
        doc["never_reached"] = unreached_table_subsections(ex)
        if args.check:
            doc["check"] = {"witnesses": len(ex.outcomes), "failed": failures}
        print(json.dumps(doc, indent=2))
    else:
        print(render(ex, never=unreached_table_subsections(ex)))
        print(KEY)
        if args.check:
            print(
                f"check: {len(ex.outcomes) - failures} of {len(ex.outcomes)} witnesses replay "
                "to the predicted outcome and rulings"
            )
    if ex.errors:
        return 1
    return 3 if failures else _accepted(args, [ex])


def _check_witnesses(args: argparse.Namespace, ex: Exploration) -> int:
    """Each outcome's witness (the one ``--witnesses`` wrote, else one written to a temporary
    folder) read back and replayed; the number that do not replay to their prediction, each
    reported on stderr."""
    import tempfile

    from simulator.analysis.explore.witnesses import check_witness, witness_doc, write_witness

    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, (o, w, _k) in enumerate(ex.outcomes, 1):
            path = Path(args.witnesses or tmp) / f"outcome-{i:03}.yaml"
            if not args.witnesses:
                write_witness(path, witness_doc(ex.config, o, w))
            bad = check_witness(path)
            if bad:
                failures += 1
                shown = path if args.witnesses else f"witness of outcome {i}"
                print(f"{shown}: {'; '.join(bad)}", file=sys.stderr)
    return failures


def _accepted(args: argparse.Namespace, results: Sequence[Exploration]) -> int:
    """With ``--accept FILE``: 4 if a gap or conflict reached is not in FILE (named on stderr),
    else 0; without it, 0."""
    if getattr(args, "accept", None) is None:
        return 0

    found = {f for ex in results for f, _o, _w in ex.findings}
    return report_new("explore", found, args.accept, args.accepted)


#: What the terms of the text output mean, printed under it.
KEY = """\
key:
  abstract states  the distinct situations the exploration reached; a course is one sequence
                   of events from filing to an end, an outcome the result courses share
  [N course(s)]    how many courses end in that outcome; the witness is one of them, in words
  returns: one, then two tied
                   the candidates' places in the returns, best first: one candidate ahead and
                   two tied behind ("three in distinct places", "all three tied")
  the first over the threshold
                   how many of those places have more than the votes a majority needs
                   (G.S. 163-293(a)); "the next exactly at it": the following place has
                   exactly that many
  by 163-...       the subsections the outcome's rulings cite
  no provision     a gap or conflict of the law the course ran into (scenarios/gaps)\
"""


def _engine(args: argparse.Namespace, stack: ExitStack) -> Engine | None:
    """The engine ``--engine`` names (None: the default of ``--workers``); a Dask client is
    closed with ``stack``."""

    name = getattr(args, "engine", None)
    if name is None or (name == "serial" and args.workers == 1):
        return None
    if name == "serial":
        return Serial()
    if name == "processes":
        return Processes(workers=args.workers, chunksize=1)
    try:
        import distributed
    except ImportError:
        raise EngineError(
            "electsim explore --engine dask: expected the dask extra "
            "(pip install 'electsim[dask]'); found no distributed package"
        ) from None
    if not args.scheduler:
        raise EngineError("electsim explore --engine dask: expected --scheduler ADDRESS")
    try:
        make: Any = distributed.Client  # not annotated by the package
        client = stack.enter_context(make(args.scheduler, timeout=10))
    except OSError as error:
        raise EngineError(
            f"electsim explore --scheduler {args.scheduler}: expected a Dask scheduler; "
            f"found none ({error})"
        ) from None
    return Dask(client=client, chunksize=1)


def _cmd_grid(args: argparse.Namespace, results: Sequence[Exploration] | None = None) -> int:
    """``electsim explore --grid``: every configuration ``--method``, ``--seats`` and the
    candidates select, as a table, JSON or Markdown, with the clause coverage."""

    if results is None:
        with ExitStack() as stack:
            results = explore_grid(_grid(args), workers=args.workers, engine=_engine(args, stack))
    if getattr(args, "chart", None):
        write_coverage_chart(results, Path(args.chart))
    if args.witnesses:
        named = []
        for f, config, o, w in grid_findings(results):
            doc = witness_doc(config, o, w)
            doc["title"] = f"Explored: {f}: {o.words()}"
            named.append((Path(args.witnesses) / finding_file(f), doc))
        if not _written(named, args):
            return 2
    failed: dict[Config, int] = {}
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            for ex in results:
                failed[ex.config] = _check_all(ex, Path(tmp))
    if getattr(args, "markdown", False):
        print(findings_markdown(results, args.witnesses or "scenarios/gaps"))
        print()
        print(coverage_markdown(results))
    elif args.json:
        docs = [to_json(ex) for ex in results]
        if args.check:
            for doc, ex in zip(docs, results, strict=True):
                doc["check"] = {"witnesses": len(ex.outcomes), "failed": failed[ex.config]}
        print(json.dumps(docs, indent=2))
    else:
        check = f" {'failed':>6}" if args.check else ""
        print(
            f"{'configuration':<66} {'states':>7} {'courses':>7} {'merged':>6} {'outcomes':>8} "
            f"{'gaps':>4} {'errors':>6} {'cpu s':>6} {'states/s':>8}" + check
        )
        for ex in results:
            check = f" {failed[ex.config]:>6}" if args.check else ""
            print(
                f"{ex.config.words:<66} {ex.states:>7} {ex.courses:>7} {ex.merged:>6} "
                f"{len(ex.outcomes):>8} {len(ex.findings):>4} {len(ex.errors):>6} "
                f"{ex.cpu:>6.1f} {ex.states / max(ex.cpu, 1e-9):>8,.0f}" + check
            )
        if args.check:
            total = sum(len(ex.outcomes) for ex in results)
            bad = sum(failed.values())
            print(
                f"check: {total - bad} of {total} witnesses replay to the predicted outcome "
                "and rulings"
            )
        found = sorted({f for ex in results for f, _o, _w in ex.findings})
        print(f"gaps and conflicts reached: {len(found)}: " + ", ".join(found))

        print(coverage_table(results))
    if any(ex.errors for ex in results):
        return 1
    return 3 if any(failed.values()) else _accepted(args, results)


def _written(named: Sequence[tuple[Path, dict[str, Any]]], args: argparse.Namespace) -> bool:
    """Write the witnesses ``--witnesses`` asks for (:func:`write_witnesses`); False, with each
    problem on stderr, where nothing could be written."""

    try:
        problems = write_witnesses(named, overwrite=getattr(args, "overwrite", False))
    except OSError as error:
        where = getattr(error, "filename", None) or args.witnesses
        problems = [f"{where}: cannot write the witness: {error.strerror or error}"]
    for line in problems:
        print(f"electsim explore: {line}", file=sys.stderr)
    return not problems


def _check_all(ex: Exploration, tmp: Path) -> int:
    """Write every outcome's witness of ``ex`` and check each replays to its prediction; the
    number that do not (each reported on stderr)."""

    bad = 0
    c = ex.config
    for i, (o, w, _k) in enumerate(ex.outcomes, 1):
        path = tmp / f"{c.kind}-{c.seats}-{c.candidates}-{c.departures}-{i:03}.yaml"
        write_witness(path, witness_doc(c, o, w))
        problems = check_witness(path)
        if problems:
            bad += 1
            print(f"{c.words}: witness of outcome {i}: {'; '.join(problems)}", file=sys.stderr)
    return bad


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``electsim explore`` to the command line."""
    methods = ", ".join(m.value for m in Method)
    p = sub.add_parser(
        "explore",
        help="enumerate the courses of events of one contest: outcomes, gaps, witnesses",
    )
    p.add_argument(
        "--method",
        choices=[m.value for m in Method],
        metavar="METHOD",
        help=f"the method: {methods}",
    )
    p.add_argument("--seats", type=int, default=1, help="seats to fill (1-3; 1)")
    p.add_argument("--candidates", type=int, default=3, help="candidates who file (1-8; 3)")
    p.add_argument(
        "--departures", type=int, default=1, help="candidates who leave, at most (0-2; 1)"
    )
    p.add_argument(
        "--stage",
        choices=["primary", "election"],
        help="with the partisan method: its primary (the default for one configuration) or the "
        "general election of the parties' nominees (--grid explores both unless this names one)",
    )
    p.add_argument(
        "--reading",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="replay every course under this interpretation switch (docs/readings.md), like "
        "left_runoff_ballot=other_declared; repeat for several; the others stay at their defaults",
    )
    p.add_argument("--json", action="store_true", help="print the exploration as JSON")
    p.add_argument(
        "--accept",
        metavar="FILE",
        help="the ids of gaps and conflicts already known, one a line (# comments; electsim "
        "gaps --ids prints them): exit 4 on one reached that is not in FILE, and name it",
    )
    p.add_argument(
        "--witnesses",
        metavar="DIR",
        help="write each outcome's witness scenario here (with --grid: one per gap or conflict); "
        "a file already there with other content is kept and nothing is written (exit 2) "
        "unless --overwrite",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="with --witnesses: replace files already in DIR whose content differs",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="read every witness back and check it replays to the predicted outcome and rulings",
    )
    p.add_argument(
        "--graphml",
        metavar="FILE",
        help="also write the witnesses as a GraphML tree: steps as nodes, outcomes as leaves",
    )
    p.add_argument(
        "--grid",
        action="store_true",
        help="explore every configuration: the method (or all four), seats 1 to --seats, "
        "candidates 1 to 2 x seats + 2",
    )
    p.add_argument(
        "--max-candidates",
        type=int,
        metavar="N",
        help="with --grid: candidates 1 to N (1-8) for every number of seats, instead of 1 to "
        "2 x seats + 2",
    )
    p.add_argument("--workers", type=int, help="processes for --grid (1); same results as one")
    p.add_argument(
        "--engine",
        choices=["serial", "processes", "dask"],
        help="where --grid runs: here, a process pool of --workers, or a Dask cluster (the dask "
        "extra); the results are the same",
    )
    p.add_argument("--scheduler", metavar="ADDRESS", help="the Dask scheduler for --engine dask")
    p.add_argument(
        "--markdown",
        action="store_true",
        help="with --grid: print the gaps and conflicts (with their witness files) and the "
        "clause coverage as Markdown tables",
    )
    p.add_argument(
        "--chart",
        metavar="FILE",
        help="draw the clause coverage (subsections x configurations) as a PNG or SVG chart",
    )
    p.set_defaults(func=cmd_explore)
