"""The ``electsim cite`` command line: its options, without loading the references.

Finding what implements or exercises a subsection (``simulator.analysis.references``) reads the rule
tables, the transitions and the scenarios, so it is imported only when the command runs; every
other command, and ``electsim --help``, starts without it.
"""

from __future__ import annotations

import argparse
from typing import Any


def _run(args: argparse.Namespace) -> int:
    from simulator.analysis.references import cmd_cite

    return cmd_cite(args)


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``electsim cite`` to the command line."""
    p = sub.add_parser("cite", help="list what implements or exercises a subsection")
    p.add_argument("citation", help='a section and subsection, like "163-294.4(c)"')
    p.add_argument("--json", action="store_true", help="print the references as JSON")
    p.set_defaults(func=_run)
