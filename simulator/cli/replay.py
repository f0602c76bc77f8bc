"""``electsim replay``: replay a scenario and print its timeline, its JSON result or its
deadlines as an iCalendar file; optionally draw the timeline chart and the state graph."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path

from simulator.analysis.futures_shown import undecided_futures
from simulator.cli.common import EXIT_OK, UsageError, use_colour, write_bytes
from simulator.cli.parsing import parse_readings, readings_note, with_readings
from simulator.cli.times import parse_time, window_end
from simulator.engine.replay import replay
from simulator.engine.result import Result
from simulator.input.loader import load_scenario
from simulator.input.output import check_output, file_names, terminal_width, write_inside, writing
from simulator.law.labels import label
from simulator.law.machine import Phase
from simulator.law.vocab import Stage
from simulator.views.branches import BranchWords
from simulator.views.charts import plot_timeline
from simulator.views.graph import export_graph
from simulator.views.ical import deadlines_to_ics
from simulator.views.text import format_result

#: replay's options that shape the chart: (dest, the option as written)
CHART_OPTIONS = (
    ("width", "--width"),
    ("dpi", "--dpi"),
    ("start", "--from"),
    ("end", "--to"),
    ("title", "--title"),
    ("days_from_election", "--days-from-election"),
    ("compress", "--compress"),
)


def check_chart_options(args: argparse.Namespace) -> None:
    """Options for a chart or a graph that is not drawn are refused: they were ignored (a
    timeline asked for ``--from 2027-10-01`` printed the whole of it, exit 0)."""
    if not args.chart:
        given = [
            ("--no-compress" if flag == "--compress" and value is False else flag)
            for dest, flag in CHART_OPTIONS
            if (value := getattr(args, dest)) is not None
        ]
        if given:
            raise UsageError(
                f"{', '.join(given)}: expected with --chart OUT (chart options shape the chart, "
                "not the timeline); found no --chart"
            )
    if args.full_graph and not args.graph:
        raise UsageError("--full-graph: expected with --graph OUT; found no --graph")


def as_of_note(result: Result, known: list[datetime], as_of: datetime) -> str | None:
    """A note when ``--as-of`` falls outside the log's story: after its last event and every
    deadline (the replay is then the whole story, as without ``--as-of``), or before its first
    event (nothing had happened). ``known``: when the board learned of each event."""
    moments = [*known, *(d.due for c in result.contests for d in c.deadlines)]
    if not known or not moments:
        return None
    when = as_of.strftime("%a %Y-%m-%d %H:%M")
    if as_of > max(moments):
        last = max(moments).strftime("%a %Y-%m-%d %H:%M")
        return (
            f"--as-of {when} is after the last event and deadline of this log ({last}): the "
            "replay is the whole story, as without --as-of"
        )
    if as_of < min(known):
        first = min(known).strftime("%a %Y-%m-%d %H:%M")
        return (
            f"--as-of {when} is before the first event of this log ({first}): nothing had happened"
        )
    return None


def write_calendars(result: Result, name: str, where: str) -> None:
    """``--ics``: one calendar per contest. ``-`` (``--ics`` alone) prints the calendar of a
    scenario's only contest; a folder gets one ``CONTEST.ics`` a contest (docs/cli.md)."""

    contests = result.contests
    if where == "-" and len(contests) != 1:
        ids = ", ".join(c.id for c in contests)
        raise UsageError(
            f"--ics: expected a folder for a scenario of {len(contests)} contests ({ids}), "
            "one calendar file each (--ics DIR); found no folder"
        )
    titles = [c.title for c in contests]
    names = file_names([c.id for c in contests])  # (an id is the scenario's, not a path)
    for c, file_name in zip(contests, names, strict=True):
        called = {c.id} if any(step[2] == Phase.RUNOFF_CALLED for step in c.path) else set()
        if len(contests) == 1:
            title = name
        elif titles.count(c.title) > 1:  # a primary and its election
            title = f"{name} ({label(Stage(c.stage))})"
        else:
            title = f"{name}: {c.title}"
        data = deadlines_to_ics([(c.id, c.title, c.deadlines)], name=title, called=called)
        if where == "-":
            write_bytes(data)
            continue
        out = write_inside(where, f"{file_name}.ics", data)
        print(f"electsim: {c.title} ({c.id}): {out}", file=sys.stderr)


def cmd_replay(args: argparse.Namespace) -> int:
    if args.json and args.ics:
        raise UsageError("--json and --ics: expected one output format; found both")
    check_chart_options(args)
    outputs = [o for o in (args.chart, args.graph) if o]
    for out in outputs:
        check_output(out, inputs=(args.file,))
    if args.chart and args.graph and Path(args.chart) == Path(args.graph):
        raise UsageError(f"--chart and --graph: expected two different files; found {args.chart}")
    readings = parse_readings(args.reading)
    scenario = with_readings(load_scenario(args.file, max_bytes=args.max_bytes), readings)
    as_of = parse_time(args.as_of, scenario.timezone) if args.as_of else None
    result = replay(scenario, as_of=as_of)
    if readings:
        # (the JSON result names them in its interpretations)
        print(
            readings_note(readings), file=sys.stdout if not (args.json or args.ics) else sys.stderr
        )
    if as_of is not None and (
        note := as_of_note(result, [e.known_at for e in scenario.events], as_of)
    ):
        print(f"electsim: note: {note}", file=sys.stderr)
    if args.chart:
        with writing(args.chart):
            plot_timeline(
                result,
                scenario=scenario,
                out=args.chart,
                days_from_election=bool(args.days_from_election),
                compress=args.compress,
                start=parse_time(args.start, scenario.timezone, "--from") if args.start else None,
                end=window_end(args.end, scenario.timezone) if args.end else None,
                title=args.title,
                width=1430 if args.width is None else args.width,
                dpi=110 if args.dpi is None else args.dpi,
            )
    if args.graph:
        with writing(args.graph):
            written = export_graph(result, args.graph, full=args.full_graph)
        if len(written) > 1:
            names = ", ".join(str(w) for w in written)
            print(f"electsim: one state graph per contest: {names}", file=sys.stderr)
    if args.json:
        print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    elif args.ics:
        write_calendars(result, scenario.title, args.ics)
    else:
        colour = use_colour(args.color, sys.stdout)
        shown: dict[str, tuple[BranchWords, ...]] = {}
        if not args.no_futures:
            shown, note = undecided_futures(scenario, result, as_of)
            if note:
                print(f"electsim: note: {note}", file=sys.stderr)
        text = format_result(
            result, colour=colour, width=terminal_width(), events=scenario.events, futures=shown
        )
        print(text, end="")
    return EXIT_OK
