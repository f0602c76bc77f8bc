"""``electsim schema``: print the JSON Schema of scenario files (docs/scenario.schema.json)."""

from __future__ import annotations

import argparse
import json

from simulator.cli.common import EXIT_OK
from simulator.input.schema import scenario_schema


def cmd_schema(args: argparse.Namespace) -> int:
    print(json.dumps(scenario_schema(), indent=2, ensure_ascii=False))
    return EXIT_OK
