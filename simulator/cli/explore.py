"""The ``electsim explore`` command line: its options, without loading the engine.

The exploration itself (``simulator.analysis.explore``) replays scenarios, so it is imported only
when the
command runs; every other command starts without it.
"""

from __future__ import annotations

import argparse
from typing import Any

from simulator.law.vocab import Method


def _run(args: argparse.Namespace) -> int:
    from simulator.analysis.explore import cmd_explore

    return cmd_explore(args)


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
    p.set_defaults(func=_run)
