"""``electsim validate``: check scenario files without replaying them; every problem printed with
its file, line, field, what was expected and what was found (exit 0 when all are valid, else
2). With ``--strict`` each valid file is replayed as well, and each remark the replay makes (a
fact off the contest's statutory calendar, docs/results.md) is a problem: one line each, with
the file, the event's index and line, the remark's kind and its words."""

from __future__ import annotations

import argparse
import json
from typing import Any

from simulator.cli.common import EXIT_INVALID, EXIT_OK, print_problems
from simulator.input.loader import load_scenario
from simulator.model.errors import ScenarioError
from simulator.model.events import VotesCast
from simulator.model.scenario import Scenario


def strict_remarks(s: Scenario) -> list[dict[str, Any]]:
    """The remarks a replay of ``s`` makes, as problems of ``validate --strict``."""
    from simulator.engine.replay import replay
    from simulator.law.labels import label

    lines = {ev.index: ev.line for ev in s.events if type(ev) is not VotesCast}
    out: list[dict[str, Any]] = []
    for c in replay(s).contests:
        for r in c.remarks:
            out.append(
                {
                    "path": f"events[{r.seq}]",
                    "line": lines.get(r.seq),
                    "kind": r.kind.value,
                    "expected": f"a fact that fits the statutory calendar ({r.cite})",
                    "found": f"{label(r.kind)}: {r.text}",
                }
            )
    return out


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
        remarks = strict_remarks(s) if getattr(args, "strict", False) else []
        if remarks:
            invalid += 1
            if args.json:
                reports.append({"file": name, "valid": False, **counts, "problems": remarks})
            else:
                for r in remarks:
                    where = f":{r['line']}" if r["line"] is not None else ""
                    print(f"{name}{where}: {r['path']}: {r['kind']}: {r['found']}")
                print(f"{name}: {len(remarks)} remark(s): facts off the statutory calendar")
            continue
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
