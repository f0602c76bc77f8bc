"""``electsim schema``: print the JSON Schema of scenario files (docs/scenario.schema.json), or
with ``--futures`` that of ``electsim next --json`` (docs/futures.schema.json)."""

from __future__ import annotations

import argparse
import json

from simulator.analysis.futures import futures_schema
from simulator.cli.common import EXIT_OK
from simulator.input.schema import scenario_schema


def cmd_schema(args: argparse.Namespace) -> int:
    schema = futures_schema() if getattr(args, "futures", False) else scenario_schema()
    print(json.dumps(schema, indent=2, ensure_ascii=False))
    return EXIT_OK
