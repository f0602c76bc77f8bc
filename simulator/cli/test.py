"""``electsim test``: replay each scenario and check what its ``expect:`` block says the replay
must show (docs/expectations.md); PASS, or FAIL with each difference. Exit 0 when every
expectation holds, 3 when one does not, 2 for a scenario that cannot be read."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from simulator.cli.common import EXIT_INVALID, EXIT_OK, painter, progress, scenario_files
from simulator.cli.parsing import parse_readings, readings_note, with_readings
from simulator.input.expect import EXIT_EXPECTATIONS_FAILED, check_scenario
from simulator.input.loader import load_scenario
from simulator.model.errors import ScenarioError


def cmd_test(args: argparse.Namespace) -> int:
    readings = parse_readings(getattr(args, "reading", None) or ())
    files = scenario_files(args.paths)
    paint = painter(args, sys.stdout)
    if readings and not args.json:
        print(readings_note(readings))
    reports: list[dict[str, Any]] = []
    counts = {"passed": 0, "failed": 0, "invalid": 0, "no_expectations": 0}
    for f in progress(files, args, what="scenarios"):
        entry: dict[str, Any] = {"file": str(f), "title": None, "expectations": 0}
        try:
            scenario = with_readings(load_scenario(f), readings)
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
