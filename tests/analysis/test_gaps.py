"""Every no_provision ruling the engine can make names a catalogued gap (electsim gaps)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from simulator.analysis.gaps import table_findings
from simulator.law.rules import Verdict
from simulator.law.tables import TABLES
from simulator.law.tables.departures import GAPS
from simulator.law.vocab import CandStatus
from tests.cli.inprocess import electsim

ROOT = Path(__file__).resolve().parents[2]


def test_every_gap_id_the_engine_uses_is_catalogued() -> None:
    source = "\n".join(p.read_text() for p in (ROOT / "simulator").rglob("*.py"))
    used = set(re.findall(r'gap="([a-z0-9-]+)"', source))
    known = {g.id for g in GAPS}
    known |= {g.id for t in TABLES for g in (*t.gaps, *t.conflicts)}
    assert used <= known, f"uncatalogued gaps: {sorted(used - known)}"


def test_the_gaps_command_lists_contingency_and_table_gaps() -> None:
    p = electsim("gaps", "--json", check=True)
    doc = json.loads(p.stdout)
    assert all(g["cite"].startswith("G.S.") for g in doc["table_gaps"])
    table_ids = {g["id"] for g in doc["table_gaps"]}
    assert {"left-runoff-ballot", "withdrawn-elected"} <= table_ids
    assert {"three-way-tie", "runner-up-left", "leader-left-before-declaration"} <= table_ids
    assert {"tie-over-threshold", "primary-tie", "second-primary-tie"} <= table_ids
    kinds = {g["id"]: g["kind"] for g in doc["table_gaps"]}
    assert kinds["dead-tied-for-first"] == "conflict"
    assert kinds["group-tie-for-request-place"] == "gap"


def test_no_count_table_leaves_a_conflict_or_gap_unnamed() -> None:
    # Catala's semantics: several rules without a declared priority must be a named conflict,
    # and facts no rule covers a named gap; the explorer visits every combination of facts.
    for table in TABLES:
        for facts, finding in table.explore():
            assert "unnamed" not in finding.id, (table.name, facts, finding.id)


def test_every_named_conflict_and_gap_of_the_count_tables_is_reachable() -> None:
    reached = {(t.table, t.id) for t in table_findings()}
    for table in TABLES:
        for named in (*table.gaps, *table.conflicts):
            assert (table.name, named.id) in reached, (table.name, named.id)


def test_a_priority_ruling_shows_the_provisions_that_gave_way() -> None:
    # G.S. 163-294.4(c) over 163-293(d)(2): a dead candidate among those tied for second
    from simulator.law.tables.departed_in_count import SECOND, SecondFacts

    finding = SECOND.evaluate(SecondFacts(CandStatus.DIED, after_election_day=False, tied=True))
    assert finding.verdict is Verdict.PRIORITY
    assert finding.rule is not None and finding.rule.cite == "163-294.4(c)"
    assert [r.cite for r in finding.others] == ["163-293(d)(2)"]
    assert "163-293(d)(2)" in finding.note()


def test_the_gaps_command_lists_each_id_once_with_its_readings_and_witness() -> None:
    text = electsim("gaps", check=True).stdout
    ids = electsim("gaps", "--ids", check=True).stdout.split()
    heads = [ln for ln in text.splitlines() if ln.startswith(("gap:", "conflict:"))]
    assert heads == sorted(ids) and len(set(heads)) == len(heads)
    assert text.splitlines()[0].startswith(f"{len(ids)} gaps and conflicts of the statutes")
    entries = text.split("\n\n")[1:]
    assert len(entries) == len(ids)
    for entry in entries:
        assert "\n    provisions: G.S. " in entry, entry
        assert re.search(r"\n    witness:\s+scenarios/", entry), entry
    (three,) = [e for e in entries if e.startswith("gap:three-way-tie\n")]
    assert "other reading, `interpretations: {three_way_tie: lot}`: " in three
    assert "witness: scenarios/collisions/" in three  # a plain scenario, not the explorer's
    # the JSON keeps its ids
    doc = json.loads(electsim("gaps", "--json", check=True).stdout)
    json_ids = {f"gap:{g['id']}" for g in doc["gaps"]}
    json_ids |= {f"{t['kind']}:{t['id']}" for t in doc["table_gaps"]}
    assert json_ids == set(ids)


def test_a_witness_is_a_plain_scenario_where_one_reaches_the_gap() -> None:
    # the explorer's witness of left-runoff-ballot is a party primary with made-up counts; a
    # scenario written to be read reaches the same gap under the default readings
    from simulator.analysis.catalogue import EXPLORED_TITLE, entries, scenario_findings

    machine = {r.path for r in scenario_findings() if r.explored}
    assert "scenarios/gaps/gap-left-runoff-ballot.yaml" in machine
    for e in entries():
        plain = [p for p in (e.witness, *e.also) if p is not None and p not in machine]
        assert e.witness is not None
        if plain and any(p.startswith(("scenarios/gaps/", "scenarios/collisions/")) for p in plain):
            assert e.witness not in machine, (e.id, e.witness, plain)
    (runoff,) = [e for e in entries() if e.id == "gap:left-runoff-ballot"]
    assert runoff.witness is not None and runoff.witness not in machine
    title = (ROOT / runoff.witness).read_text().split("title:", 1)[1].split("\n", 1)[0]
    assert EXPLORED_TITLE.strip() not in title
