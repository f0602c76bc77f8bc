"""electsim cite: every subsection of the five primary statutes is implemented and exercised,
or listed as deliberately not modeled with a reason."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from simulator.analysis.references import UNMODELED, matches, normalize, references
from simulator.law.tables import TABLES
from tests.cli.inprocess import electsim

ROOT = Path(__file__).resolve().parents[2]
LAW = ROOT.parent / "shared" / "law"
PRIMARY = ("163-112", "163-291", "163-293", "163-294.1", "163-294.4")
LABEL = re.compile(r"^(\([a-z]\)|\([0-9]+\)|[a-z]\.)\s")

IMPLEMENTS = {"rule", "conflict", "gap", "transition", "code"}
EXERCISES = {"scenario", "test"}


def subsections(section: str) -> list[str]:
    """The subsection labels of one statute file, as one-string citations."""
    out: list[str] = []
    letter = number = ""
    for line in (LAW / f"{section}.txt").read_text().splitlines():
        m = LABEL.match(line)
        if not m:
            continue
        label = m.group(1)
        if label.endswith("."):  # 163-291(2)a.
            out.append(f"{section}{letter}{number}{label[0]}")
        elif label[1].isdigit():
            number = label
            out.append(f"{section}{letter}{number}")
        else:
            letter, number = label, ""
            out.append(f"{section}{letter}")
    return out


def all_subsections() -> list[str]:
    if not LAW.is_dir():
        pytest.skip("../shared/law is not present: the statutes are read from there")
    return [s for section in PRIMARY for s in subsections(section)]


def test_the_statute_files_give_the_subsections_the_engine_cites() -> None:
    subs = all_subsections()
    assert "163-293(b)(2)" in subs and "163-291(2)a" in subs and "163-112(d)(4)" in subs
    assert len(subs) == 35


def test_every_subsection_of_the_primary_statutes_is_implemented_and_exercised() -> None:
    # the completeness of `electsim cite`: each subsection has a rule, transition, gap or ruling
    # in code that implements it, and a scenario or test that exercises it, unless the project
    # says why it does not model it
    missing = []
    for sub in all_subsections():
        if sub in UNMODELED:
            continue
        kinds = {r.kind for r in references(sub)}
        if not kinds & IMPLEMENTS or not kinds & EXERCISES:
            missing.append((sub, sorted(kinds)))
    assert not missing, f"subsections neither cited nor listed as unmodeled: {missing}"


def test_every_unmodeled_subsection_exists_and_gives_a_reason() -> None:
    subs = set(all_subsections())
    for sub, reason in UNMODELED.items():
        assert sub in subs, sub
        assert len(reason.split()) >= 6, sub


def test_a_subsection_finds_its_parts_but_not_a_neighbouring_section() -> None:
    assert matches("163-293(b)", "163-293(b)(1)")
    assert matches("163-293(b)(1)", "G.S. 163-293(b)(1)")
    assert not matches("163-293(b)(1)", "163-293(b)")
    assert not matches("163-294", "163-294.1(b)")
    assert not matches("163-293(b)", "163-293(d)(2)")
    assert normalize(r"163-294\.4\(c\)") == "163-294.4(c)"


def test_every_count_table_rule_is_found_by_its_citation() -> None:
    for table in TABLES:
        for rule in table.rules:
            ids = {r.id for r in references(rule.cite) if r.kind == "rule"}
            assert f"{table.name}/{rule.id}" in ids


def test_cite_json_lists_rules_conflicts_scenarios_and_tests() -> None:
    p = electsim("cite", "163-294.4(c)", "--json", check=True, cwd=ROOT)
    doc = json.loads(p.stdout)
    assert doc["cite"] == "163-294.4(c)"
    ids = {r["id"] for r in doc["references"]}
    assert "runner-up-left/dead-candidate-polls-second" in ids
    assert "tie-for-first/dead-tied-for-first" in ids
    assert "scenarios/contingencies/2944c-dead-runner-up-no-runoff.yaml" in ids
    assert any(i.startswith("tests/analysis/test_cite.py::") for i in ids)
    assert doc["counts"]["conflict"] >= 1 and doc["unmodeled"] is None


def test_cite_text_names_an_unmodeled_subsection_and_why() -> None:
    p = electsim("cite", "G.S. 163-291(4)", check=True, cwd=ROOT)
    assert p.stdout.startswith("G.S. 163-291(4): ")
    assert "not modeled: the municipal ballot's layout" in p.stdout


@pytest.mark.parametrize(
    "written", ["", "hello", "163-293(b)x", "(c)", "§", "G.S.", "N.C. Gen. Stat. §", "GS (c)"]
)
def test_cite_refuses_what_is_not_a_citation(written: str) -> None:
    p = electsim("cite", written, cwd=ROOT)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.splitlines() == [
        "electsim cite: expected a section and subsection like 163-294.4(c), G.S. "
        f"163-293(b)(1), § 163-293(c) or 163-114; found {written!r}"
    ]


def test_cite_says_when_nothing_cites_a_subsection_or_its_section() -> None:
    def cite(text: str) -> dict[str, object]:
        p = electsim("cite", text, "--json", check=True, cwd=ROOT)
        return json.loads(p.stdout)  # type: ignore[no-any-return]

    # (written so that this file, which the references read, does not cite them itself)
    nowhere, no_such = "-".join(("163", "999")), "163-293" + "(z)(9)"
    unknown = cite(nowhere)
    assert unknown["references"] == []
    reason = str(unknown["unmodeled"])
    assert reason.startswith(
        f"nothing in electsim cites G.S. {nowhere}; the sections it cites are "
    )
    sections = reason.split("are ", 1)[1].split(", ")
    assert sections[:2] == ["103-5", "160A-63"] and "163-293" in sections
    assert all(re.fullmatch(r"\d{3}A?-[\d.]+|08 NCAC 06B \.0104", s) for s in sections)
    assert cite(no_such)["unmodeled"] == f"nothing in electsim cites G.S. {no_such}"


def test_a_date_is_not_read_as_a_citation() -> None:
    from simulator.analysis.references import citations_in

    assert list(citations_in("canvass 2027-10-12, G.S. 163-293(c) and 160A-63")) == [
        "163-293(c)",
        "160A-63",
    ]


def test_full_width_digits_are_read_as_the_citation_they_stand_for(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # "１６３-293(b)" was taken as a section nothing cites: 0 references, exit 0
    from simulator.cli.main import main

    assert main(["cite", "１６３-２９３(b)", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["cite"] == "163-293(b)" and doc["references"] and doc["unmodeled"] is None
    # digits of another script are no citation: refused, not read as an unknown section
    assert main(["cite", "١٦٣-293(b)"]) == 2
    assert "expected a section and subsection" in capsys.readouterr().err


@pytest.mark.parametrize(
    "written",
    [
        "163-293(c)",
        "GS 163-293(c)",
        "G.S. 163-293(c)",
        "G.S.163-293(c)",
        "g.s. 163-293(c)",
        "§ 163-293(c)",
        "§163-293(c)",
        "§§ 163-293(c)",
        "N.C.G.S. 163-293(c)",
        "NCGS 163-293(c)",
        "N.C.G.S. § 163-293(c)",
        "N.C. Gen. Stat. § 163-293(c)",
        "N.C. Gen. Stat. 163-293(c)",
        "Gen. Stat. § 163-293(c)",
        "Section 163-293(c)",
        "G.S. 163-293 (c)",
        "  § 163-293(c)  ",
    ],
)
def test_cite_reads_the_ways_lawyers_write_a_citation(
    written: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # "GS 163-294.4(c)" and "§ 163-294.4(c)" were refused as not citations
    from simulator.cli.main import main

    assert normalize(written) == "163-293(c)"
    assert main(["cite", written, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["cite"] == "163-293(c)" and doc["references"]
    assert doc["references"] == json.loads(_cite_json("163-293(c)"))["references"]


def test_a_prefix_does_not_change_a_subsection_with_parts_or_a_letter() -> None:
    assert normalize("G.S. 163-294.4(c)") == "163-294.4(c)"
    assert normalize("§ 163-293(b)(1)") == "163-293(b)(1)"
    assert normalize("N.C. Gen. Stat. § 163-291(2)a") == "163-291(2)a"
    assert normalize("08 NCAC 06B .0104") == "08 NCAC 06B .0104"


def _cite_json(text: str) -> str:
    import contextlib
    import io

    from simulator.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["cite", text, "--json"]) == 0
    return out.getvalue()
