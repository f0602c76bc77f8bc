"""Every rule table compiled to a lookup gives, on every combination of its facts, the finding its
rules give one by one (simulator.law.rules: Table.compile against Table.find); and once compiled,
the engine's look-ups no longer run the rules. Whatever rows a table has: the tables are read
from the catalogue, not named here."""

from __future__ import annotations

from typing import Any

import pytest

from simulator.law.rules import Finding, Rule, Table, Verdict


def _tables() -> list[Table[Any, Any]]:
    from simulator.law.tables import EVERY_TABLE

    return [table for table, _home in EVERY_TABLE]


@pytest.mark.parametrize("table", _tables(), ids=lambda t: t.name)
def test_the_compiled_lookup_agrees_with_the_rules_on_every_combination(
    table: Table[Any, Any],
) -> None:
    facts = list(table.facts())
    assert facts, f"table {table.name} enumerates no facts"
    lookup = table.compile()
    assert set(facts) <= set(lookup)
    for f in facts:
        ruled = table.find(f)
        looked_up = lookup[f]
        assert looked_up == ruled, (table.name, f)
        # the same rules, gap or conflict (not merely equal ones), and the same effect
        assert looked_up.rules == ruled.rules and looked_up.effect is ruled.effect
        assert looked_up.gap is ruled.gap and looked_up.conflict == ruled.conflict
        assert table.evaluate(f) is looked_up


def test_a_compiled_table_answers_without_its_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def counted(facts: int) -> bool:
        calls.append(facts)
        return facts > 1

    table: Table[int, str] = Table(
        name="test",
        question="is it more than one?",
        rules=(
            Rule(
                id="more", cite="163-293(a)", summary="more than one", applies=counted, effect="yes"
            ),
        ),
        facts=lambda: range(4),
        default="no",
    )
    lookup = table.compile()
    assert calls == [0, 1, 2, 3]
    assert {f: lookup[f].verdict for f in range(4)} == {
        0: Verdict.GAP,
        1: Verdict.GAP,
        2: Verdict.RULED,
        3: Verdict.RULED,
    }
    assert table.compile() is lookup and calls == [0, 1, 2, 3]  # made once
    found = [table.evaluate(f) for f in range(4)]
    assert calls == [0, 1, 2, 3]  # looked up, not ruled again
    assert all(isinstance(x, Finding) for x in found)
    assert [x.effect for x in found] == ["no", "no", "yes", "yes"]
    # facts outside the enumeration are still found by the rules (once)
    assert table.evaluate(7).effect == "yes" and table.evaluate(7).effect == "yes"
    assert calls == [0, 1, 2, 3, 7]
