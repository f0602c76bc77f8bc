"""``electsim report``: replay a scenario and write a self-contained HTML report of it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from simulator.analysis.futures_shown import undecided_futures
from simulator.cli.common import EXIT_OK
from simulator.cli.parsing import parse_readings, readings_note, with_readings
from simulator.cli.times import parse_time
from simulator.engine.replay import replay
from simulator.input.loader import load_scenario
from simulator.input.output import check_output, writing
from simulator.views.report import write_report


def cmd_report(args: argparse.Namespace) -> int:
    out = Path(args.output) if args.output else Path(Path(args.file).stem + ".html")
    check_output(out, inputs=(args.file,))
    readings = parse_readings(args.reading)
    scenario = with_readings(load_scenario(args.file, max_bytes=args.max_bytes), readings)
    as_of = parse_time(args.as_of, scenario.timezone) if args.as_of else None
    result = replay(scenario, as_of=as_of)
    shown, note = undecided_futures(scenario, result, as_of)
    if note:
        print(f"electsim: note: {note}", file=sys.stderr)
    with writing(out):
        write_report(scenario, result, out, shown)
    if readings:
        print(readings_note(readings))
    print(f"wrote {out}")
    return EXIT_OK
