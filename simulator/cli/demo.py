"""``electsim demo``: replay every scenario under a folder and write each JSON result under
``--out``, mirroring the folders; one line per scenario. Charts and HTML reports are drawn for the
showcase scenarios of the bundled library (:data:`SHOWCASE`) where the folder holds them, else for
the first scenario of each folder, or for all with ``--all-charts``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from simulator.cli.common import EXIT_OK, UsageError, painter, progress, scenario_files
from simulator.engine.replay import replay
from simulator.engine.result import Result
from simulator.input.loader import load_scenario
from simulator.input.output import terminal_width, writing
from simulator.model.errors import OutputError
from simulator.views.charts import plot_timeline
from simulator.views.report import write_report

#: The scenarios that show what electsim does, drawn by ``electsim demo scenarios`` and by
#: ``make demo`` into out/reference/: (path under scenarios/, what it shows).
SHOWCASE: tuple[tuple[str, str], ...] = (
    (
        "runoff/cary-2023-district-d.yaml",
        "Cary 2023, District D: no majority, the runner-up asks for a runoff and it is held",
    ),
    (
        "nonpartisan-primary/greensboro-2017-at-large-group.yaml",
        "Greensboro 2017, at large: the primary narrows the field, its nominees run in November",
    ),
    (
        "contingencies/112a-one-of-two-dies-day-30-nobody-files.yaml",
        "a death on the 30th day after the filing closed: filing reopens, nobody files",
    ),
    (
        "runoff/tie-for-second-withdrawal-then-demand.yaml",
        "a tie for second: one withdraws, the other demands the runoff",
    ),
)


def showcase_in(files: list[Path], base: Path) -> list[tuple[Path, str]]:
    """The :data:`SHOWCASE` scenarios among ``files`` (read from folder ``base``), in its order:
    found by their path under the library's folder, whether ``base`` is that folder or a
    folder above or below it."""
    found: list[tuple[Path, str]] = []
    for path, what in SHOWCASE:
        parts = tuple(path.split("/"))
        for f in files:
            whole = f.resolve().parts
            rel = whole[len(base.resolve().parts) :]
            if rel == parts or whole[-len(parts) - 1 :] == ("scenarios", *parts):
                found.append((f, what))
                break
    return found


def render_one(job: tuple[str, str, str]) -> None:
    """Draw one scenario's chart and write its report (in a worker process)."""

    source, svg, html = job
    scenario = load_scenario(source)
    result = replay(scenario)
    with writing(svg):
        plot_timeline(result, scenario=scenario, out=svg)
    with writing(html):
        write_report(scenario, result, html)


def summary(result: Result) -> str:
    """Each contest's outcome in brief, on one line."""
    parts = []
    for c in result.contests:
        bits = list(c.outcome.brief(" ")) or [c.state]
        parts.append(f"{c.id}: {'; '.join(bits)}")
    return " | ".join(parts)


def cmd_demo(args: argparse.Namespace) -> int:
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
    files = scenario_files([args.dir])
    inside = out.resolve()
    if inside != root.resolve():  # (the same folder: each result would replace a scenario)
        files = [f for f in files if not f.resolve().is_relative_to(inside)]
    if not files:
        raise UsageError(
            f"{args.dir}: expected scenario files outside the output folder {args.out}; found none"
        )
    base = root if root.is_dir() else root.parent
    paint = painter(args, sys.stdout)
    width = terminal_width() or 100
    # Charts and reports: every scenario with --all-charts; else the showcase scenarios where
    # the folder has them, the first of each folder where it has none (a folder of one's own).
    chosen: set[Path] = set()
    showcase = showcase_in(files, base)
    if args.all_charts:
        chosen = set(files)
    elif showcase and not args.no_charts:
        chosen = {f for f, _ in showcase}
    elif not args.no_charts:
        firsts: dict[Path, Path] = {}
        for f in files:
            firsts.setdefault(f.parent, f)
        chosen = set(firsts.values())
    check_demo_outputs(files, base, out, chosen)
    jobs: list[tuple[str, str, str]] = []
    for f in files:
        stem = demo_stem(f, base, out)
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
        line = clip(summary(result), width - len(name) - 2)
        print(f"{paint(name, 'bold')}  {line}")
        print(f"    -> {shown}")
    if jobs:
        render_all(jobs, args)
    charts = f"; charts and reports for {len(jobs)}" if jobs else ""
    if jobs and showcase and not args.all_charts:
        print("the showcase, each as a chart and a report:")
        for f, what in showcase:
            print(f"  {demo_stem(f, base, out).with_suffix('.html')}: {what}")
    print(f"replayed {len(files)} scenario(s); results in {out}/{charts}")
    if not args.all_charts and not args.no_charts and len(jobs) < len(files):
        print(f"(all charts and reports: electsim demo {args.dir} --all-charts)")
    return EXIT_OK


def demo_stem(f: Path, base: Path, out: Path) -> Path:
    """Where ``demo`` writes the outputs of scenario ``f`` (the folders mirrored under ``out``),
    without their suffix."""
    return out / f.relative_to(base).with_suffix("")


def check_demo_outputs(files: list[Path], base: Path, out: Path, chosen: set[Path]) -> None:
    """Before anything is written: no output of ``demo`` may be one of its scenario files (a
    folder's results written into the folder itself would replace its JSON scenarios), and no
    two scenarios may have their results written to one file (``a.yaml`` and ``a.json``).
    Raises OutputError naming every such file, one line each."""
    problems: list[str] = []
    owner: dict[Path, Path] = {}
    inputs = {f.resolve() for f in files}
    for f in files:
        stem = demo_stem(f, base, out)
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


def clip(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters (at least 20), ending in ... when cut.

    >>> clip("a" * 30, 10)
    'aaaaaaaaaaaaaaaaa...'
    """
    width = max(width, 20)
    return text if len(text) <= width else text[: width - 3] + "..."


def render_all(jobs: list[tuple[str, str, str]], args: argparse.Namespace) -> None:
    """Draw the charts and reports of ``jobs``, in ``--jobs`` processes (one per core)."""
    workers = max(1, min(args.jobs or os.cpu_count() or 1, len(jobs)))
    if workers == 1:
        for job in progress(jobs, args, what="charts"):
            render_one(job)
        return
    from concurrent.futures import ProcessPoolExecutor  # (only where charts are drawn in parallel)

    with ProcessPoolExecutor(max_workers=workers) as pool:
        for _ in progress(pool.map(render_one, jobs), args, what="charts", total=len(jobs)):
            pass
