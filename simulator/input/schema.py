"""A JSON Schema for scenario files, built from the event table the loader reads.

Every event type defined in :data:`simulator.model.events.DEFINITIONS`, with the fields its class
declares (``fields``, ``required``) and its definition's summary, becomes one branch of the
schema; contest fields, the readings' switches (:class:`simulator.law.readings.Interpretations`)
and the ``expect:`` vocabulary (:mod:`simulator.input.expect`) come from the same tables the
loader validates with. The committed copy is ``docs/scenario.schema.json`` (a test keeps it
equal to :func:`scenario_schema`); editors use it for completion and checking while a scenario
is written. The loader stays the authority: it also checks what a schema cannot (times in order,
names that filed, fee bounds).
"""

from __future__ import annotations

from typing import Any

import attrs

from simulator.input.expect import (
    DEADLINE_PATTERN_KEYS,
    ENTRY_KEYS,
    RULING_FIELDS,
    RULING_PATTERN_KEYS,
    RUNOFF_KEYS,
)
from simulator.law.machine import Phase
from simulator.law.parameters import PARAMETERS
from simulator.law.readings import Interpretations
from simulator.law.vocab import (
    DeadlineKind,
    DeadlineState,
    Decision,
    Method,
    Pending,
    RemarkKind,
    RulingKind,
    RunoffStatus,
    Stage,
)
from simulator.model.events import DEFINITIONS, MAX_VOTES
from simulator.model.scenario import DEFAULT_TZ, FORMAT

__all__ = ["FIELD_SCHEMAS", "SCHEMA_ID", "scenario_schema"]

SCHEMA_ID = "https://electsim.invalid/scenario.schema.json"

_TIME = {
    "type": "string",
    "pattern": r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$",
    "description": "an ISO 8601 date or date-time; without an offset, in the scenario's timezone",
}
_DATE = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$", "description": "a date, YYYY-MM-DD"}
#: no control character (a newline, an escape, a NUL): the loader refuses one inside a name, an
#: id or a title (it allows surrounding white space, which this leaves out for simplicity)
_CONTROL = {"pattern": "[\u0000-\u001f\u007f-\u009f\u2028-\u202e\u2066-\u2069]"}
_NAME = {"type": "string", "minLength": 1, "pattern": r"\S", "not": _CONTROL}
_TEXT = {"type": "string", "not": _CONTROL}
_MONEY = {
    "description": "dollars, like 250 or 12.50 (may be quoted)",
    "anyOf": [
        {"type": "number", "minimum": 0},
        {"type": "string", "pattern": r"^\s*\d+(\.\d+)?\s*$"},
    ],
}
_VOTES = {"type": "integer", "minimum": 0, "maximum": MAX_VOTES}
_COUNTS = {
    "type": "object",
    "minProperties": 1,
    "additionalProperties": _VOTES,
    "description": "candidate name to votes, like {Ann: 350, Bob: 180}",
}

#: JSON Schema of each event field (one entry per field an event class declares).
FIELD_SCHEMAS: dict[str, dict[str, Any]] = {
    "candidate": {**_NAME, "description": "the candidate's name, as on the notice of candidacy"},
    "winner": {**_NAME, "description": "the candidate the lot fell to"},
    "party": {**_NAME, "description": "the party's abbreviation, like DEM"},
    "fee": {**_MONEY, "description": "the filing fee paid, in dollars"},
    "notice_at": {**_TIME, "description": "when the board received notice of the death"},
    "enough_time": {"type": "boolean", "description": "whether there is time to reprint"},
    "count": {**_VOTES, "description": "how many ballots (default 1)"},
    "precinct": {
        "anyOf": [{**_NAME}, {"type": "integer"}],
        "description": "the precinct's (or batch's) name or number",
    },
    "counts": _COUNTS,
}


def _event_schema(name: str) -> dict[str, Any]:
    cls = DEFINITIONS[name].cls
    props: dict[str, Any] = {
        "id": {
            "type": "string",
            "pattern": r"^[A-Za-z0-9][A-Za-z0-9._-]*$",
            "description": "optional: a name for this event, unique in the scenario (what-if "
            "edits address the event by it)",
        },
        "type": {"const": name},
        "at": {**_TIME, "description": "when it happened"},
        "contest": {"type": "string", "description": "the contest's id (several contests)"},
    }
    for field in cls.fields:
        props[field] = FIELD_SCHEMAS[field]
    return {
        "title": name,
        "description": DEFINITIONS[name].summary,
        "type": "object",
        "required": ["type", "at", *cls.required],
        "properties": props,
        "additionalProperties": False,
    }


def _interpretations() -> dict[str, Any]:
    props: dict[str, Any] = {}
    for field in attrs.fields(Interpretations):
        if isinstance(field.default, bool):
            props[field.name] = {"type": "boolean", "default": field.default}
        else:
            props[field.name] = {
                "enum": list(Interpretations.CHOICES[field.name]),
                "default": field.default,
            }
    return {
        "type": "object",
        "properties": props,
        "additionalProperties": False,
        "description": "switches for the readings of unclear text (docs/readings.md)",
    }


def _contest() -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["id", "method", "year"],
        "properties": {
            "id": {**_NAME, "description": "unique id, like cary-d"},
            "municipality": _TEXT,
            "office": _TEXT,
            "seats": {"type": "integer", "minimum": 1, "default": 1},
            "method": {"enum": [m.value for m in Method]},
            "stage": {"enum": [s.value for s in Stage], "default": Stage.ELECTION.value},
            "party": {**_NAME, "description": "whose primary (partisan primaries only)"},
            "year": {"type": "integer", "minimum": 1973, "maximum": 2200},
            "date": {**_DATE, "description": "this stage's election day, if not the statutory"},
            "district_based": {"type": "boolean", "default": False},
            "filing": {
                "type": "object",
                "properties": {"opens": _TIME, "closes": _TIME},
                "additionalProperties": False,
            },
            "filing_fee": _MONEY,
            "salary": _MONEY,
        },
        "additionalProperties": False,
    }


def _keys(table: dict[str, str], props: dict[str, Any]) -> dict[str, Any]:
    return {k: {**props.get(k, {}), "description": v} for k, v in table.items()}


def _expect() -> dict[str, Any]:
    names = {"type": "array", "items": {"type": "string"}}
    prefix = {"type": "string", "pattern": r"^\d{4}(-\d{2}(-\d{2}(T\d{2}(:\d{2})?)?)?)?$"}
    regex = {"type": "string", "format": "regex"}
    rulings = [k.value for k in RulingKind]
    ruling = {
        "type": "object",
        "properties": {
            **_keys(
                RULING_PATTERN_KEYS,
                {
                    "kind": {"enum": [*rulings, "*"]},
                    "cite": regex,
                    "text": regex,
                    "candidates": names,
                    "at": prefix,
                },
            ),
            **_keys(RULING_FIELDS, {"opens": prefix, "closes": prefix}),
        },
        "additionalProperties": False,
    }
    deadline = {
        "type": "object",
        "required": ["kind"],
        "properties": _keys(
            DEADLINE_PATTERN_KEYS,
            {
                "kind": {"enum": [k.value for k in DeadlineKind]},
                "due": prefix,
                "moved_from": {"anyOf": [prefix, {"type": "null"}]},
                "cite": regex,
                "state": {"enum": [s.value for s in DeadlineState]},
                "void_because": {"enum": [k.value for k in RulingKind]},
            },
        ),
        "additionalProperties": False,
    }

    entry = {
        "type": "object",
        "properties": _keys(
            ENTRY_KEYS,
            {
                "as_of": _TIME,
                "contest": {"type": "string"},
                "state": {"enum": [p.value for p in Phase]},
                "pending": {"enum": [*(p.value for p in Pending), None]},
                "elected": names,
                "nominated": names,
                "vacant_seats": {"type": "integer", "minimum": 0},
                "decisions": {"type": "array", "items": {"enum": [x.value for x in Decision]}},
                "runoff": {
                    "type": "object",
                    "properties": _keys(
                        RUNOFF_KEYS,
                        {"status": {"enum": [s.value for s in RunoffStatus]}, "candidates": names},
                    ),
                    "additionalProperties": False,
                },
                "rulings": {"type": "array", "items": ruling},
                "no_rulings": {"type": "array", "items": {"enum": rulings}},
                "rulings_count": {
                    "type": "object",
                    "propertyNames": {"enum": rulings},
                    "additionalProperties": {"type": "integer", "minimum": 0},
                },
                "deadlines": {"type": "array", "items": deadline},
                "remarks": {"type": "array", "items": {"enum": [k.value for k in RemarkKind]}},
            },
        ),
        "additionalProperties": False,
    }
    return {
        "type": "array",
        "items": entry,
        "description": "what the replay must show, checked by electsim test",
    }


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a scenario file."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "electsim scenario",
        "description": "A log of what happened in North Carolina municipal contests "
        "(docs/scenarios.md).",
        "type": "object",
        "required": ["format", "title", "contests", "events"],
        "properties": {
            "format": {"const": FORMAT},
            "title": {**_NAME, "description": "names the scenario"},
            "description": {"type": "string"},
            "timezone": {"type": "string", "default": DEFAULT_TZ},
            "office_closed": {
                "type": "array",
                "items": _DATE,
                "description": "extra days the board office is closed (G.S. 103-5)",
            },
            "interpretations": _interpretations(),
            "parameters": {
                "type": "object",
                "properties": {
                    name: {
                        "description": f"pin {p.description} (G.S. {p.cite}): like 40%, 2/5 or 0.4",
                        "anyOf": [
                            {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
                            {"type": "string", "pattern": r"^\s*\d+(\.\d+)?\s*%\s*$"},
                            {"type": "string", "pattern": r"^\s*\d+\s*/\s*\d+\s*$"},
                        ],
                    }
                    for name, p in PARAMETERS.items()
                },
                "additionalProperties": False,
                "description": "values of the law pinned for every contest (docs/statutes.md)",
            },
            "contests": {"type": "array", "minItems": 1, "items": _contest()},
            "events": {
                "type": "array",
                "items": {"oneOf": [_event_schema(name) for name in DEFINITIONS]},
            },
            "expect": _expect(),
        },
        "additionalProperties": False,
    }
