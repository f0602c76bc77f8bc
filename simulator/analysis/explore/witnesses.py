"""Witness scenarios: the shortest course of each outcome as an ``electsim/v1`` scenario whose
``expect:`` block is the prediction; writing them into a folder, reading them back to check that
each replays to its prediction, and the witnesses as a tree of steps (GraphML).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from simulator.analysis.explore.config import Config
from simulator.analysis.explore.documents import scenario_doc
from simulator.analysis.explore.outcomes import Exploration, Outcome, Witness
from simulator.engine.replay import (
    replay,
)
from simulator.engine.result import ContestResult
from simulator.input.expect import check_scenario
from simulator.input.loader import load_scenario
from simulator.input.loader.writing import yaml_text


def expectation(result: ContestResult) -> dict[str, Any]:
    """An ``expect:`` entry pinning the whole prediction: outcome and every ruling in order."""
    o = result.outcome
    return {
        "state": result.state,
        "elected": list(o.elected),
        "nominated": list(o.nominated),
        "vacant_seats": o.vacant_seats,
        "runoff": {"status": o.runoff_status.value, "candidates": list(o.runoff_candidates)},
        "pending": o.pending.value if o.pending else None,
        "rulings": [
            {
                "kind": r.kind.value,
                "cite": "^" + re.escape(r.cite) + "$",
                "candidates": list(r.candidates),
            }
            for r in result.rulings
        ],
    }


def witness_doc(config: Config, outcome: Outcome, witness: Witness) -> dict[str, Any]:
    """The witness as an ``electsim/v1`` scenario whose ``expect:`` block is the prediction."""
    doc = scenario_doc(config, witness.course.events, f"Explored: {outcome.words()}")
    story = "; ".join(witness.course.steps)
    out: dict[str, Any] = {
        "format": doc["format"],
        "title": doc["title"],
        "description": f"A shortest course found by electsim explore ({config.label}): {story}.",
    }
    if "interpretations" in doc:
        out["interpretations"] = doc["interpretations"]
    out |= {
        "contests": doc["contests"],
        "events": doc["events"],
        "expect": [expectation(witness.result)],
    }
    return out


def witness_text(doc: dict[str, Any]) -> str:
    """A witness scenario as the YAML text written for it (as electsim writes any scenario)."""
    return yaml_text(doc)


def write_witness(path: Path, doc: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(witness_text(doc), encoding="utf-8")


def write_witnesses(files: Sequence[tuple[Path, dict[str, Any]]], *, overwrite: bool) -> list[str]:
    """Write witnesses into the folder a user named (``--witnesses``). A file already there
    with other content (a scenario the user edited, say) is replaced only with ``overwrite``;
    otherwise nothing at all is written and each such file is a problem line (the caller
    exits 2). A file with the very same content is left as it is."""
    texts = [(path, witness_text(doc)) for path, doc in files]
    problems = []
    fresh = []  # the witnesses to write: not there yet, or there with other content
    for path, text in texts:
        if path.is_dir():
            problems.append(f"{path}: cannot write the witness: it is a folder")
            continue
        try:
            same = path.read_text(encoding="utf-8") == text
        except (OSError, UnicodeDecodeError):  # (not there, or not text: not the witness)
            same = False
        if same:
            continue
        if path.exists() and not overwrite:
            problems.append(
                f"{path}: expected no file or this witness; found a file with other "
                "content (kept: nothing was written; move it, or pass --overwrite)"
            )
        fresh.append((path, text))
    if problems:
        return problems
    for path, text in fresh:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return []


def check_witness(path: Path) -> list[str]:
    """Read a witness back through the loader and compare its replay with its ``expect:`` block:
    the checks ``electsim test`` makes, then every ruling, in order and nothing more. Returns
    the differences (none: the witness replays to the prediction)."""
    scenario = load_scenario(path)
    check = check_scenario(scenario)
    bad = [str(m) for m in check.mismatches] + ([] if check.expectations else ["no expectation"])
    # (the rulings predicted, as the loader read them with the rest of the expectation)
    predicted = scenario.expectations[0].get("rulings", []) if scenario.expectations else []
    found = replay(scenario).contests[0].rulings
    if len(found) != len(predicted):
        bad.append(f"rulings: expected {len(predicted)}; found {len(found)}")
    for want, got in zip(predicted, found, strict=False):
        if not (
            want["kind"] == got.kind.value
            and re.fullmatch(want["cite"], got.cite)
            and list(got.candidates) == want["candidates"]
        ):
            bad.append(
                f"ruling: expected {want['kind']} {want['candidates']}; found {got.kind.value}"
            )
            break
    return bad


def witness_graph(ex: Exploration) -> Any:
    """The shortest witnesses as a networkx tree: one node per abstract step of a story (stories
    share their common beginnings), each outcome a leaf named by its description."""
    import networkx as nx

    g = nx.DiGraph(configuration=ex.config.label)
    g.add_node("start", label="filing", kind="step")
    for i, (o, w, k) in enumerate(ex.outcomes, 1):
        parent = "start"
        for j in range(1, len(w.course.steps)):
            node = " / ".join(w.course.steps[1 : j + 1])
            g.add_node(node, label=w.course.steps[j], kind="step")
            g.add_edge(parent, node)
            parent = node
        leaf = f"outcome {i}"
        g.add_node(
            leaf,
            label=o.words(),
            kind="outcome",
            courses=k,
            findings=", ".join(o.findings),
        )
        g.add_edge(parent, leaf)
    return g
