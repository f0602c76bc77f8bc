"""``electsim validate``: check scenario files without replaying them; every problem printed with
its file, line, field, what was expected and what was found (exit 0 when all are valid, else
2)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from simulator.cli.common import EXIT_INVALID, EXIT_OK, print_problems
from simulator.input.loader import load_scenario
from simulator.model.errors import ScenarioError


def cmd_validate(args: argparse.Namespace) -> int:
    reports: list[dict[str, Any]] = []
    invalid = 0
    for name in args.files:
        try:
            s = load_scenario(name, max_bytes=args.max_bytes)
        except ScenarioError as e:
            invalid += 1
            if not args.json:
                print_problems(e)
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
