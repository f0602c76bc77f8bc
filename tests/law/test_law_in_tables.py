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

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "simulator"
#: the one home of the law: rule tables, the transition table, the statutory calendar
LAW = PACKAGE / "law"

#: (module, citation) written outside the law, and why it is not a decision of law
#: (none now: the importer dates its canvass by the calendar's own rounds, which cite the law)
ALLOWED: dict[tuple[str, str], str] = {}


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


def outside_the_law() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if LAW not in p.parents]


def test_no_module_outside_the_law_writes_a_citation_of_its_own() -> None:
    stray = [
        f"simulator/{path.relative_to(PACKAGE).as_posix()}:{line}: {cite}"
        for path in outside_the_law()
        for line, cite in literal_citations(path)
        if (path.relative_to(PACKAGE).as_posix(), cite) not in ALLOWED
    ]
    assert not stray, "a decision of law outside a table:\n" + "\n".join(stray)


ENGINE = sorted((PACKAGE / "engine").rglob("*.py"))


@pytest.mark.parametrize("path", ENGINE, ids=[p.relative_to(PACKAGE).as_posix() for p in ENGINE])
def test_the_engine_writes_no_citation_at_all(path: Path) -> None:
    # the event handlers and the count: every citation comes from a table's finding
    assert literal_citations(path) == []


def test_the_scan_reads_the_engines_handlers_and_the_laws_tables() -> None:
    assert PACKAGE / "engine" / "handlers" / "departures.py" in ENGINE
    assert any(literal_citations(p) for p in LAW.rglob("*.py"))


def test_the_scan_finds_a_literal_citation(tmp_path: Path) -> None:
    # the check itself can fail: a handler that cites a provision directly is found
    handler = tmp_path / "handler.py"
    handler.write_text('d.rule(K.ELECTED, statute("163-293(d)(1)"), "the other withdrew")\n')
    assert literal_citations(handler) == [(1, "163-293(d)(1)")]


def test_every_allowed_exception_is_still_needed() -> None:
    for module, cite in ALLOWED:
        assert cite in {c for _, c in literal_citations(PACKAGE / module)}, (module, cite)


def test_docs_statutes_lists_the_tables_of_the_code() -> None:
    # docs/statutes.md holds the catalogue between its markers: regenerate it with
    # `python -m simulator.law.tables` when a table changes
    from simulator.law.tables.catalogue import catalogue_markdown, section

    text = (ROOT / "docs" / "statutes.md").read_text(encoding="utf-8")
    assert section(text) == catalogue_markdown(), "run: python -m simulator.law.tables"


def test_the_catalogue_names_every_rule_gap_and_conflict_of_every_table() -> None:
    from simulator.law.tables import EVERY_TABLE
    from simulator.law.tables.catalogue import catalogue_markdown

    text = catalogue_markdown()
    for table, home in EVERY_TABLE:
        assert f"### `{table.name}`" in text and home in text
        for named in (*table.rules, *table.gaps, *table.conflicts):
            assert f"`{named.id}`" in text, (table.name, named.id)


def test_rule_ids_are_words() -> None:
    # a rule id says what the rule decides (`dead-name-left-off`), not where it sits (`2944c`)
    from simulator.law.tables import EVERY_TABLE

    coded = [
        f"{table.name}/{rule.id}"
        for table, _ in EVERY_TABLE
        for rule in table.rules
        if not rule.id[0].isalpha()
    ]
    assert not coded, coded


def test_each_exception_follows_the_rules_it_departs_from() -> None:
    # a table reads as the law does: the general rule first, then its exceptions, naming it
    from simulator.law.tables import EVERY_TABLE

    for table, _ in EVERY_TABLE:
        place = {rule.id: i for i, rule in enumerate(table.rules)}
        for rule in table.rules:
            for general in rule.exception_to:
                assert general in place, (table.name, rule.id, general)
                assert place[general] < place[rule.id], (table.name, rule.id, general)
