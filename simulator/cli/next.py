"""``electsim next``: what can happen from here, every way each contest can still end from
what the board knew at a moment (:mod:`simulator.analysis.futures`)."""

from __future__ import annotations

import argparse
import json

from simulator.analysis.futures import futures
from simulator.cli.common import EXIT_OK, UsageError
from simulator.cli.times import parse_time
from simulator.input.loader import load_scenario


def cmd_next(args: argparse.Namespace) -> int:
    if not 0 <= args.departures <= 2:
        raise UsageError(f"--departures: expected 0, 1 or 2; found {args.departures}")
    scenario = load_scenario(args.file, max_bytes=args.max_bytes)
    as_of = parse_time(args.as_of, scenario.timezone) if args.as_of else None
    known = [e.known_at for e in scenario.events]
    if not known:
        raise UsageError(f"{args.file}: expected a log with at least one event; found none")
    if as_of is not None and as_of < min(known):
        first = min(known).strftime("%a %Y-%m-%d %H:%M")
        raise UsageError(
            f"{args.file}: --as-of: expected a time at or after the log's first event "
            f"({first}); found {args.as_of!r}"
        )
    found = futures(scenario, as_of=as_of, departures=args.departures)
    if args.json:
        doc = found.to_json()
        doc["scenario"] = str(args.file)
        print(json.dumps(doc, indent=2))
    else:
        print(found.words())
    return EXIT_OK
