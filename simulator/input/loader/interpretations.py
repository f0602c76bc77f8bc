"""The scenario-wide settings of the law a scenario may choose: its ``interpretations``
(docs/readings.md: the readings of the law where it is unclear) and its ``parameters`` (values
of the law pinned for every contest, instead of the one in force on its day)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from simulator.input.loader.problems import Problems, did_you_mean
from simulator.input.parse.messages import show
from simulator.input.parse.trees import MISSING
from simulator.law.parameters import MOST_PLACES, PARAMETERS, parse_value
from simulator.law.readings import Interpretations

_INTERPRETATIONS = {f.name: f.default for f in attrs.fields(Interpretations)}


def read_interpretations(problems: Problems, raw: Any) -> Interpretations:
    if raw is MISSING:
        return Interpretations()
    if not isinstance(raw, dict):
        problems.add(
            ("interpretations",),
            "a mapping of interpretation name to setting (docs/readings.md)",
            show(raw),
        )
        return Interpretations()
    problems.unknown_keys(
        ("interpretations",),
        raw,
        tuple(_INTERPRETATIONS),
        "the interpretations (docs/readings.md)",
    )
    chosen: dict[str, Any] = {}
    for name, default in _INTERPRETATIONS.items():
        if name not in raw:
            continue
        value = raw[name]
        if isinstance(default, bool):
            if type(value) is bool:
                chosen[name] = value
            else:
                problems.add(("interpretations", name), "true or false", show(value))
        else:
            options = Interpretations.CHOICES[name]
            if isinstance(value, str) and value in options:
                chosen[name] = value
            else:
                problems.add(
                    ("interpretations", name),
                    "one of " + ", ".join(options),
                    show(value) + did_you_mean(value, options),
                )
    return Interpretations(**chosen)


def read_parameters(problems: Problems, raw: Any) -> tuple[tuple[str, Fraction], ...]:
    # Values of the law pinned for every contest, instead of the one in force on its day.
    if raw is MISSING:
        return ()
    if not isinstance(raw, dict):
        problems.add(
            ("parameters",),
            "a mapping of parameter name to value, like {substantial_plurality: 40%}",
            show(raw),
        )
        return ()
    problems.unknown_keys(("parameters",), raw, tuple(PARAMETERS), "the dated parameters")
    pinned: list[tuple[str, Fraction]] = []
    for name in PARAMETERS:
        if name not in raw:
            continue
        try:
            pinned.append((name, parse_value(raw[name])))
        except (ValueError, ZeroDivisionError):
            problems.add(
                ("parameters", name),
                "a share strictly between 0 and 1: a percentage like 40%, a fraction like "
                f"2/5, or a decimal like 0.4 (of at most {MOST_PLACES} decimal places)",
                show(raw[name]),
            )
    return tuple(pinned)
