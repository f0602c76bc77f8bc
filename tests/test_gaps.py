"""Every no_provision ruling the engine can make names a catalogued gap (electsim gaps)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from simulator.contingencies import GAPS
from simulator.gaps import COUNTING_GAPS

ROOT = Path(__file__).resolve().parent.parent


def test_every_gap_id_the_engine_uses_is_catalogued() -> None:
    source = "\n".join(p.read_text() for p in (ROOT / "simulator").glob("*.py"))
    used = set(re.findall(r'gap="([a-z0-9-]+)"', source))
    known = {g.id for g in COUNTING_GAPS} | {g.id for g in GAPS}
    assert used, "the engine names its gaps"
    assert used <= known, f"uncatalogued gaps: {sorted(used - known)}"
    assert {g.id for g in COUNTING_GAPS} <= used, "every counting gap is reachable in the engine"


def test_the_gaps_command_lists_contingency_and_counting_gaps() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "simulator", "gaps", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    doc = json.loads(p.stdout)
    ids = {g["id"] for g in doc["counting_gaps"]}
    assert {"three-way-tie", "left-runoff-ballot", "runner-up-left"} <= ids
    assert all(g["cite"].startswith("G.S.") for g in doc["counting_gaps"])
