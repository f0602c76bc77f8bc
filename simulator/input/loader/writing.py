"""Writing a scenario: :func:`scenario_to_dict` gives it as plain data in the scenario file
format (defaults left out), and :func:`dump_scenario` writes that as YAML or JSON, so that the
file reads back equal."""

from __future__ import annotations

import json
import os
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs
import yaml

from simulator.law.readings import Interpretations
from simulator.law.vocab import Stage
from simulator.model.events import Event
from simulator.model.scenario import DEFAULT_TZ, FORMAT, Contest, Scenario

try:
    from yaml import CSafeDumper as _YamlDumper
except ImportError:  # pragma: no cover - no libyaml: the pure-Python emitter, same text
    from yaml import SafeDumper as _YamlDumper  # type: ignore[assignment]

__all__ = ["dump_scenario", "scenario_to_dict", "yaml_text"]


def _number(amount: Decimal) -> int | float | str:
    """A Decimal as the plainest scalar that reads back equal."""
    if amount == amount.to_integral_value():
        return int(amount)
    as_float = float(amount)
    if Decimal(repr(as_float)) == amount:
        return as_float
    return str(amount)


def _percent_text(value: Fraction) -> str:
    pct = value * 100
    if pct.denominator == 1:
        return f"{pct.numerator}%"
    return f"{value.numerator}/{value.denominator}"


def scenario_to_dict(scenario: Scenario) -> dict[str, Any]:
    """The scenario as plain data in the scenario file format; defaults are left out.

    ``parse_scenario(yaml.safe_dump(scenario_to_dict(s))) == s``.
    """
    out: dict[str, Any] = {"format": FORMAT, "title": scenario.title}
    if scenario.description:
        out["description"] = scenario.description
    if scenario.timezone != DEFAULT_TZ:
        out["timezone"] = scenario.timezone
    if scenario.office_closed:
        out["office_closed"] = [d.isoformat() for d in scenario.office_closed]
    default = Interpretations()
    switched = {
        f.name: scenario.interpretations.setting(f.name)
        for f in attrs.fields(Interpretations)
        if getattr(scenario.interpretations, f.name) != getattr(default, f.name)
    }
    if switched:
        out["interpretations"] = switched
    if scenario.parameters:
        out["parameters"] = {name: _percent_text(v) for name, v in scenario.parameters}
    out["contests"] = [_contest_to_dict(c) for c in scenario.contests]
    several = len(scenario.contests) != 1
    out["events"] = [_event_to_dict(e, several) for e in scenario.events]
    return out


def _contest_to_dict(contest: Contest) -> dict[str, Any]:
    out: dict[str, Any] = {"id": contest.id}
    if contest.municipality:
        out["municipality"] = contest.municipality
    if contest.office:
        out["office"] = contest.office
    out["seats"] = contest.seats
    out["method"] = contest.method.value
    if contest.stage is not Stage.ELECTION:
        out["stage"] = contest.stage.value
    if contest.party is not None:
        out["party"] = contest.party
    out["year"] = contest.year
    if contest.date is not None:
        out["date"] = contest.date.isoformat()
    if contest.district_based:
        out["district_based"] = True
    filing = {}
    if contest.filing_opens is not None:
        filing["opens"] = contest.filing_opens.isoformat()
    if contest.filing_closes is not None:
        filing["closes"] = contest.filing_closes.isoformat()
    if filing:
        out["filing"] = filing
    if contest.filing_fee is not None:
        out["filing_fee"] = _number(contest.filing_fee)
    if contest.salary is not None:
        out["salary"] = _number(contest.salary)
    return out


def _event_to_dict(event: Event, with_contest: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"id": event.id} if event.id is not None else {}
    out.update(type=event.type, at=event.at.isoformat())
    if with_contest:
        out["contest"] = event.contest
    for field in event.fields:
        value = getattr(event, field)
        if value is None or (field == "count" and value == 1):
            continue
        if isinstance(value, datetime):
            value = value.isoformat()
        elif field == "counts":
            value = dict(value)
        elif field == "fee":
            value = int(value) if value.isdigit() else value
        out[field] = value
    return out


def dump_scenario(scenario: Scenario, path: str | os.PathLike[str]) -> None:
    """Write ``scenario`` to ``path``: JSON for a ``.json`` name, else YAML."""
    data = scenario_to_dict(scenario)
    target = Path(path)
    if target.suffix.lower() == ".json":
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    else:
        text = yaml_text(data)
    target.write_text(text, encoding="utf-8")


def yaml_text(data: Any, *, dumper: type[Any] = _YamlDumper) -> str:
    """A scenario document as the YAML text electsim writes: its keys in order, one-line flow
    mappings for the events, 100 columns (libyaml's writer where PyYAML has it; PyYAML's own,
    ``dumper``, writes the same text)."""
    return yaml.dump(
        data, Dumper=dumper, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100
    )
