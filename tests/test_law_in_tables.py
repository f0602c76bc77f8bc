"""No decision of law outside a rule table: the handlers gather facts and apply effects.

A ruling's citation comes from the rule (or the gap, or the conflict) of a table that made it, so
a module outside the homes of the law below writes no citation of its own: no
``statute("163-...")`` and no ``Cite(...)`` with a literal provision. The few places that may are
listed here with the reason (docs/statutes.md, "Where the law is written").
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from simulator.rulebook import HOMES

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "simulator"

#: modules that hold the law as data, and why
HOMES_OF_LAW = {
    **{Path(home).name: "its rule tables (simulator.rulebook)" for _, home in HOMES},
    "contingencies.py": "the contingency table of a candidate who leaves (163-112, 163-294.1, "
    "163-294.4(b))",
    "rules.py": "the rule-table machinery itself (no provision of its own)",
    "law.py": "the citation type and its links",
    "machine.py": "the transition table: each allowed phase change with the provision behind it",
    "calendar.py": "the statutory dates, each a pure function that names the provision setting it",
}

#: (module, citation) written outside a home, and why it is not a decision of law
ALLOWED = {
    ("importer.py", "163-182.5(b)"): "an imported results file gets a canvass_held event at the "
    "canvass's usual moment; the deadline's citation is discarded and no ruling is made",
}


def literal_citations(path: Path) -> list[tuple[int, str]]:
    """(line, citation) of every ``statute("...")`` or ``Cite("...")`` call with a literal."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", ""))
        first = node.args[0]
        if name in ("statute", "Cite") and isinstance(first, ast.Constant):
            found.append((node.lineno, str(first.value)))
    return found


def test_no_module_outside_the_homes_of_the_law_writes_a_citation_of_its_own() -> None:
    stray = [
        f"simulator/{path.name}:{line}: {cite}"
        for path in sorted(PACKAGE.glob("*.py"))
        if path.name not in HOMES_OF_LAW
        for line, cite in literal_citations(path)
        if (path.name, cite) not in ALLOWED
    ]
    assert not stray, "a decision of law outside a table:\n" + "\n".join(stray)


@pytest.mark.parametrize("module", ["replay.py", "counting.py", "state.py"])
def test_the_handlers_write_no_citation_at_all(module: str) -> None:
    # the event handlers and the count: every citation comes from a table's finding
    assert literal_citations(PACKAGE / module) == []


def test_the_scan_finds_a_literal_citation(tmp_path: Path) -> None:
    # the check itself can fail: a handler that cites a provision directly is found
    handler = tmp_path / "handler.py"
    handler.write_text('d.rule(K.ELECTED, statute("163-293(d)(1)"), "the other withdrew")\n')
    assert literal_citations(handler) == [(1, "163-293(d)(1)")]


def test_every_allowed_exception_is_still_needed() -> None:
    for module, cite in ALLOWED:
        assert cite in {c for _, c in literal_citations(PACKAGE / module)}, (module, cite)
