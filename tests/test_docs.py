"""The documentation under docs/ covers everything the code defines, and the JSON Schema of
scenario files stays in step with the loader and accepts every bundled scenario."""

from __future__ import annotations

import argparse
import json
import re
from datetime import date, datetime
from pathlib import Path
from typing import Any

import attrs
import jsonschema
import pytest
import yaml

from simulator.cli.main import build_parser
from simulator.input import loader
from simulator.input.expect import (
    DEADLINE_PATTERN_KEYS,
    ENTRY_KEYS,
    RULING_FIELDS,
    RULING_PATTERN_KEYS,
    RUNOFF_KEYS,
)
from simulator.input.loader import fields
from simulator.input.schema import scenario_schema
from simulator.law.machine import Phase
from simulator.law.readings import Interpretations
from simulator.law.vocab import (
    DeadlineKind,
    Method,
    Pending,
    PeriodKind,
    RulingKind,
    RunoffStatus,
    Stage,
)
from simulator.model.events import EVENT_TYPES
from tests.conftest import read_yaml

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SCHEMA_FILE = DOCS / "scenario.schema.json"
SCENARIOS = sorted((ROOT / "scenarios").rglob("*.yaml"))


def doc(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def plain(value: Any) -> Any:
    """A YAML document as JSON would hold it (dates as their ISO text)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, date | datetime):
        return value.isoformat()
    return value


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


# -- the schema ----------------------------------------------------------------------------------


def test_the_committed_schema_is_the_one_the_code_generates() -> None:
    committed = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert committed == scenario_schema(), "regenerate: electsim schema > docs/scenario.schema.json"


def test_the_schema_knows_the_fields_the_loader_accepts() -> None:
    schema = scenario_schema()
    assert set(schema["properties"]) == set(fields.TOP_KEYS)
    contest = schema["properties"]["contests"]["items"]["properties"]
    assert set(contest) == set(fields.CONTEST_KEYS)
    branches = schema["properties"]["events"]["items"]["oneOf"]
    assert [b["properties"]["type"]["const"] for b in branches] == list(EVENT_TYPES)
    for branch in branches:
        cls = EVENT_TYPES[branch["title"]]
        assert set(branch["properties"]) == {"id", "type", "at", "contest", *cls.fields}
        assert branch["required"] == ["type", "at", *cls.required]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(ROOT / "scenarios")))
def test_every_bundled_scenario_validates_against_the_schema(
    path: Path, validator: jsonschema.Draft202012Validator
) -> None:
    errors = list(validator.iter_errors(plain(read_yaml(path.read_text()))))
    assert not errors, [(list(e.path), e.message[:200]) for e in errors]


@pytest.mark.parametrize(
    "bad_event",
    [
        {"type": "candidate_filed", "at": "2027-07-06", "candidat": "Ann"},
        {"type": "candidate_fild", "at": "2027-07-06", "candidate": "Ann"},
        {"type": "votes_cast", "at": "2027-07-06", "candidate": "Ann", "count": -1},
        {"type": "reprint_determined", "at": "July 6th", "enough_time": True},
    ],
)
def test_the_schema_rejects_what_the_loader_rejects(
    bad_event: dict[str, Any], validator: jsonschema.Draft202012Validator
) -> None:
    scenario = {
        "format": "electsim/v1",
        "title": "t",
        "contests": [{"id": "a", "method": "nonpartisan-plurality", "year": 2027}],
        "events": [bad_event],
    }
    assert list(validator.iter_errors(scenario))
    with pytest.raises(Exception, match="events\\[0\\]"):
        loader.parse_scenario(json.dumps(scenario), fmt="json")


# -- the documentation covers the code ------------------------------------------------------------


def _sections(text: str) -> dict[str, str]:
    parts = re.split(r"^### `([a-z_]+)`\s*$", text, flags=re.M)
    return {parts[i]: parts[i + 1].split("\n## ", 1)[0] for i in range(1, len(parts), 2)}


def test_every_event_type_and_field_is_documented_with_an_example(
    validator: jsonschema.Draft202012Validator,
) -> None:
    sections = _sections(doc("scenarios.md"))
    assert set(sections) == set(EVENT_TYPES)
    for name, cls in EVENT_TYPES.items():
        body = sections[name]
        for field in cls.fields:
            assert f"`{field}`" in body, f"{name}: field {field} not documented"
        (example,) = re.findall(r"```yaml\n(.*?)```", body, flags=re.S)
        (event,) = plain(yaml.safe_load(example))
        assert event["type"] == name
        assert set(cls.fields) <= set(event), f"{name}: the example shows every field"
        wrapper = {
            "format": "electsim/v1",
            "title": "t",
            "contests": [{"id": "a", "method": "partisan", "year": 2027}],
            "events": [event],
        }
        assert not list(validator.iter_errors(wrapper)), name


def test_every_scenario_and_contest_field_is_documented() -> None:
    text = doc("scenarios.md")
    for key in (*fields.TOP_KEYS, *fields.CONTEST_KEYS):
        assert f"| `{key}` |" in text, key
    for value in (*Method, *Stage):
        assert f"`{value.value}`" in text


@pytest.mark.parametrize(
    ("vocabulary", "page"),
    [
        (RulingKind, "results.md"),
        (DeadlineKind, "results.md"),
        (Pending, "results.md"),
        (RunoffStatus, "results.md"),
        (PeriodKind, "results.md"),
        (Phase, "results.md"),
    ],
)
def test_every_value_of_each_vocabulary_is_explained(vocabulary: Any, page: str) -> None:
    text = doc(page)
    for value in vocabulary:
        row = re.search(rf"^\| `{re.escape(value.value)}` \| (.+) \|$", text, flags=re.M)
        assert row and len(row.group(1)) > 10, f"{vocabulary.__name__}.{value.name}"


def test_every_reading_switch_and_setting_is_documented() -> None:
    text = doc("readings.md")
    for field in attrs.fields(Interpretations):
        assert f"`{field.name}`" in text, field.name
        for choice in Interpretations.CHOICES.get(field.name, ()):
            assert f"`{choice}`" in text or choice == field.default, (field.name, choice)


def test_the_readings_table_numbers_each_switch_as_its_description_does() -> None:
    # each reading is described once, on its switch (simulator.law.readings.ABOUT): the table
    # of docs/readings.md gives each switch the same number
    from simulator.law.readings import ABOUT

    rows = re.findall(r"^\| (\d+) \| .* \| `(\w+)` \| [^|]* \|$", doc("readings.md"), flags=re.M)
    assert {switch: int(number) for number, switch in rows} == {
        switch: about.number for switch, about in ABOUT.items()
    }


def test_every_expect_key_is_documented() -> None:
    text = doc("expectations.md")
    keys = (*ENTRY_KEYS, *RULING_PATTERN_KEYS, *RULING_FIELDS, *DEADLINE_PATTERN_KEYS, *RUNOFF_KEYS)
    for key in keys:
        assert f"`{key}`" in text, key
    results = doc("results.md")
    for key in RULING_FIELDS:
        assert f"`{key}`" in results, key


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_command_and_option_is_documented_with_help_and_examples() -> None:
    text = doc("cli.md")
    for name, parser in _commands().items():
        assert f"## `electsim {name}" in text, name
        section = text.split(f"## `electsim {name}", 1)[1].split("\n## ", 1)[0] + " "
        assert "examples:" in (parser.epilog or ""), name
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, f"{name} {action.dest}: no help"
            if action.option_strings:
                longest = max(action.option_strings, key=len)
                assert re.search(rf"{re.escape(longest)}[\s`/]", section), f"{name} {longest}"
            if action.choices is not None:
                for choice in action.choices:
                    assert str(choice) in (action.help or "") + (action.metavar or "{") or (
                        action.metavar is None
                    ), f"{name} {action.dest}: choices not listed"


def test_the_readme_links_the_documentation() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in ("scenarios.md", "expectations.md", "results.md", "readings.md", "cli.md"):
        assert f"docs/{page}" in readme, page
    for page in re.findall(
        r"\]\(([a-z.-]+\.(?:md|json))[)#]",
        "".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*.md")),
    ):
        assert (DOCS / page).exists(), page


def test_nothing_the_project_ships_points_to_a_file_outside_it() -> None:
    # The public contract behind this project is not shipped with it; users read docs/.
    shipped = [
        ROOT / "README.md",
        *DOCS.glob("*.md"),
        *(ROOT / "simulator").glob("*.py"),
        *(ROOT / "scenarios").rglob("*.yaml"),
        *(ROOT / "notebooks").glob("*.ipynb"),
    ]
    for path in shipped:
        text = path.read_text(encoding="utf-8")
        for needle in ("SPEC", "../shared"):
            if needle == "../shared" and path.suffix == ".py":
                continue  # the default data folder of conformance, not a reference for readers
            assert needle not in text, f"{path.relative_to(ROOT)} mentions {needle}"


def test_help_pages_point_to_the_documentation(capsys: pytest.CaptureFixture[str]) -> None:
    for name, parser in _commands().items():
        parser.print_help()
        out = capsys.readouterr().out
        assert "docs/" in out and "SPEC" not in out, name


def test_the_worked_examples_in_the_docs_pass_electsim_test() -> None:
    from simulator import parse_scenario
    from simulator.input.expect import check_scenario

    # the scenario that opens docs/scenarios.md, as a newcomer would copy it
    first = re.search(r"```yaml\n(.*?)```", doc("scenarios.md"), flags=re.S)
    assert first is not None
    check = check_scenario(parse_scenario(first.group(1)))
    assert check.expectations == 1 and check.passed, check.mismatches
    # the expect: block of docs/expectations.md, on the Cary scenario it describes
    block = re.search(r"```yaml\n(expect:\n.*?)```", doc("expectations.md"), flags=re.S)
    assert block is not None
    cary = (ROOT / "scenarios" / "runoff" / "cary-2023-district-d.yaml").read_text()
    text = cary[: cary.index("\nexpect:")] + "\n" + block.group(1)
    check = check_scenario(parse_scenario(text))
    assert check.expectations == 2 and check.passed, check.mismatches


@pytest.mark.parametrize("name", ["Bob\nEve", "A\x1b[2J", "Cy\x00", "D\x85E"])
def test_the_schema_refuses_the_names_the_loader_refuses(
    name: str, validator: jsonschema.Draft202012Validator
) -> None:
    data = {
        "format": "electsim/v1",
        "title": "T",
        "contests": [{"id": "m", "method": "nonpartisan-plurality", "year": 2027}],
        "events": [{"type": "candidate_filed", "at": "2027-07-06", "candidate": name}],
    }
    assert not validator.is_valid(data)
    with pytest.raises(loader.ScenarioError):
        loader.structure(data)
    data["events"][0]["candidate"] = "Bob Eve"
    assert validator.is_valid(data)
    loader.structure(data)


def test_the_readme_is_a_users_page_under_250_lines() -> None:
    # the history of rounds and measurements lives in docs/development.md and CHANGELOG.md
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 250
    assert "make demo" in "\n".join(lines) and "make test" in "\n".join(lines)
