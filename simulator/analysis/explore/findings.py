"""An exploration as JSON and as text, the gaps and conflicts of a grid with their shortest
witnesses (and as a Markdown table), and the subsections of the rule tables no course reached.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from simulator.analysis.explore.config import Config
from simulator.analysis.explore.coverage import Status, coverage, coverage_json
from simulator.analysis.explore.outcomes import Exploration, Outcome, Witness
from simulator.analysis.references import all_references
from simulator.law.cite import key


def to_json(ex: Exploration) -> dict[str, Any]:
    return {
        "config": {
            "method": ex.config.method.value,
            "stage": ex.config.stage,
            "seats": ex.config.seats,
            "candidates": ex.config.candidates,
            "departures": ex.config.departures,
            "interpretations": dict(ex.config.readings),
        },
        "courses": ex.courses,
        "states": ex.states,
        "merged": ex.merged,
        "outcomes": [
            {
                "outcome": o.to_json(),
                "text": o.describe(),
                "courses": k,
                "witness": list(w.course.steps),
                "events": len(w.course.events),
            }
            for o, w, k in ex.outcomes
        ],
        "findings": [
            {"id": f, "witness": list(w.course.steps), "outcome": o.describe()}
            for f, o, w in ex.findings
        ],
        "coverage": dict(ex.cites),
        "deadline_coverage": dict(ex.landmarks),
        "clause_coverage": coverage_json(ex),
        "infeasible_classes": ex.infeasible,
        "engine_errors": [{"course": c, "error": e} for c, e in ex.errors],
    }


_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_ORDINALS = ("", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
_RANKING = re.compile(r"ranking ([\d|]+)")
_ABOVE = re.compile(r"(\d+) group\(s\) above the threshold")
_IN_GROUP = re.compile(r" in group (\d+)")


def _number(n: int) -> str:
    return _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else str(n)


def _ranking_words(found: re.Match[str]) -> str:
    groups = [int(g) for g in found.group(1).split("|")]
    if len(groups) == 1:
        return "one candidate alone" if groups[0] == 1 else f"all {_number(groups[0])} tied"
    if all(g == 1 for g in groups):
        return f"{_number(len(groups))} in distinct places"
    parts = ["one" if g == 1 else f"{_number(g)} tied" for g in groups]
    return parts[0] + "".join(f", then {p}" for p in parts[1:])


def _above_words(found: re.Match[str]) -> str:
    n = int(found.group(1))
    if n == 0:
        return "nobody over the threshold"
    return "the first over the threshold" if n == 1 else f"the first {_number(n)} places over it"


def step_words(step: str) -> str:
    """A course's step as people read it: the ranking class of its returns in words ("returns:
    one, then two tied; the first over the threshold"), where the records keep the short form
    ("returns: ranking 1|2, 1 group(s) above the threshold").

    >>> step_words("returns: ranking 1|2, 1 group(s) above the threshold, Bob in group 2")
    'returns: one, then two tied, the first over the threshold, Bob in the second place'
    """
    text = _RANKING.sub(_ranking_words, step)
    text = _ABOVE.sub(_above_words, text)
    return _IN_GROUP.sub(
        lambda m: (
            f" in the {_ORDINALS[int(m.group(1))]} place"
            if int(m.group(1)) < len(_ORDINALS)
            else m.group(0)
        ),
        text,
    )


def render(ex: Exploration, *, never: Sequence[str] = ()) -> str:
    lines = [
        f"{ex.config.words}: {ex.states} abstract states, {ex.courses} courses, "
        f"{len(ex.outcomes)} outcomes ({ex.merged} beginnings reached a state at the vote or "
        "at a runoff's call reached before: what follows them is not repeated)"
    ]
    for i, (o, w, k) in enumerate(ex.outcomes, 1):
        lines.append(f"  {i:>3}. {o.words()}  [{k} course(s)]")
        lines.append("       witness: " + "; ".join(map(step_words, w.course.steps)))
    found = ex.findings
    lines.append(f"gaps and conflicts reached: {len(found)}")
    for f, _o, w in found:
        lines.append(f"  {f}")
        lines.append("       witness: " + "; ".join(map(step_words, w.course.steps)))
    lines.append("subsections cited by rulings: " + ", ".join(c for c, _ in ex.cites))
    if never:
        lines.append("subsections of the rule tables never reached: " + ", ".join(never))
    cells = coverage(ex)
    reached = [sub for sub, cell in cells.items() if cell.status is Status.REACHED]
    lines.append(
        f"clause coverage: {len(reached)} of {len(cells)} subsections of the five statutes "
        "reached by a ruling"
    )
    for sub, cell in cells.items():
        if cell.status is not Status.REACHED:
            lines.append(f"  {sub}: {cell.status.value} ({cell.why})")
    if ex.infeasible:
        lines.append(f"vote classes no votes can realize (skipped): {ex.infeasible}")
    if ex.errors:
        lines.append(f"ENGINE ERRORS: {len(ex.errors)}")
        for c, e in ex.errors[:10]:
            lines.append(f"  {c}: {e}")
    return "\n".join(lines)


def table_subsections() -> set[str]:
    """Every subsection the rule tables, gaps and transitions cite (the coverage universe)."""
    return {r.cite for r in all_references() if r.kind in ("rule", "gap", "conflict", "transition")}


def unreached_table_subsections(ex: Exploration) -> list[str]:
    reached = {key(c) for c, _ in ex.cites}
    return sorted(
        c for c in table_subsections() if not any(r == c or r.startswith(c + "(") for r in reached)
    )


def grid_findings(results: Sequence[Exploration]) -> list[tuple[str, Config, Outcome, Witness]]:
    """Each gap or conflict reached anywhere on the grid, with its shortest witness (fewest
    events, then fewest steps, then the first configuration)."""
    best: dict[str, tuple[str, Config, Outcome, Witness]] = {}
    for ex in results:
        for f, o, w in ex.findings:
            old = best.get(f)
            size = (len(w.course.events), len(w.course.steps))
            if old is None or size < (len(old[3].course.events), len(old[3].course.steps)):
                best[f] = (f, ex.config, o, w)
    return [best[k] for k in sorted(best)]


def finding_file(finding: str) -> str:
    """``gap:left-runoff-ballot`` -> ``gap-left-runoff-ballot.yaml``."""
    slug = "".join(ch if ch.isalnum() else "-" for ch in finding.lower())
    return "-".join(part for part in slug.split("-") if part) + ".yaml"


def findings_markdown(results: Sequence[Exploration], witnesses: str) -> str:
    """The gaps and conflicts of a grid as a Markdown table, each with its witness file (under
    ``witnesses``, named by :func:`finding_file`) and its course in words."""
    lines = [
        "| gap or conflict | first reached in | witness | course of events |",
        "| --- | --- | --- | --- |",
    ]
    for f, config, _o, w in grid_findings(results):
        name = finding_file(f)
        where = f"{config.kind}, {config.seats} seat(s), {config.candidates} candidate(s)"
        story = "; ".join(w.course.steps[1:]).replace("|", "\\|")
        lines.append(f"| `{f}` | {where} | [{name}]({witnesses}/{name}) | {story} |")
    return "\n".join(lines)
