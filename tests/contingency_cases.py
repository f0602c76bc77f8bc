"""Helpers for the contingency tests: write a 2027 scenario inline, replay it, read the JSON.

The 2027 cycle: filing from noon Friday 07-02 to noon Friday 07-16 (day 30 after the close is
Sunday 08-15, day 31 Monday 08-16); the partisan primary on 09-14 (canvass 09-21); the
nonpartisan primary and the runoff-method first election on 10-05 (canvass 10-12); the November
election on 11-02 (canvass 11-12, the tenth day); Labor Day 09-06.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import simulator
from simulator.input.expect import local_iso

TZ = ZoneInfo("America/New_York")


LIBRARY = Path(__file__).resolve().parent.parent / "scenarios" / "contingencies"


def library(name: str) -> str:
    """The text of a worked case of scenarios/contingencies (the single source of its facts)."""
    return (LIBRARY / f"{name}.yaml").read_text(encoding="utf-8")


def scenario(contest: str, *events: str, extra: str = "") -> str:
    """A scenario's YAML text: one contest (a flow mapping's inside) and its events."""
    lines = [
        "format: electsim/v1",
        "title: a contingency",
        extra,
        "contests:",
        f"  - {{id: c, municipality: Town of Example, office: Council, year: 2027, {contest}}}",
        "events:",
        *(f"  - {{{e}}}" for e in events),
    ]
    return "\n".join(line for line in lines if line) + "\n"


PARTY = "seats: 1, method: partisan, stage: primary, party: DEM"
PARTY_GROUP = "method: partisan, stage: primary, party: DEM, seats: "
NP_PRIMARY = "method: nonpartisan-primary, stage: primary, seats: "
PLURALITY = "method: nonpartisan-plurality, seats: "
RUNOFF = "method: nonpartisan-runoff, seats: 1"


def filed(*names: str, day: int = 6) -> tuple[str, ...]:
    """Notices of candidacy on successive days of July from ``day``, at 10:00."""
    return tuple(
        f'type: candidate_filed, at: "2027-07-{day + i:02d}T10:00", candidate: {n}'
        for i, n in enumerate(names)
    )


def died(name: str, at: str, notice: str | None = None) -> str:
    text = f'type: candidate_died, at: "{at}", candidate: {name}'
    return text + (f', notice_at: "{notice}"' if notice else "")


def event(kind: str, at: str, **fields: Any) -> str:
    more = "".join(f", {k}: {v}" for k, v in fields.items())
    return f'type: {kind}, at: "{at}"{more}'


def returns(at: str, **counts: int) -> str:
    inner = ", ".join(f"{k}: {v}" for k, v in counts.items())
    return f'type: returns_reported, at: "{at}", counts: {{{inner}}}'


def run(text: str, as_of: str | None = None, contest: str = "c") -> dict[str, Any]:
    """Replay the text (as of a local time) and return one contest's JSON result."""
    s = simulator.parse_scenario(text)
    when = datetime.fromisoformat(as_of).replace(tzinfo=TZ) if as_of else None
    doc = simulator.replay(s, as_of=when).to_json()
    return next(c for c in doc["contests"] if c["id"] == contest)  # type: ignore[no-any-return]


def rulings(c: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [r for r in c["rulings"] if r["kind"] == kind]


def one(c: dict[str, Any], kind: str) -> dict[str, Any]:
    found = rulings(c, kind)
    assert len(found) == 1, (kind, [(r["kind"], r["cite"], r["candidates"]) for r in c["rulings"]])
    return found[0]


def kinds(c: dict[str, Any]) -> list[str]:
    return [r["kind"] for r in c["rulings"]]


def deadline(c: dict[str, Any], kind: str) -> dict[str, Any]:
    found = [d for d in c["deadlines"] if d["kind"] == kind]
    assert len(found) == 1, (kind, c["deadlines"])
    return found[0]


def local(value: Any) -> str:
    """A JSON time as local ``YYYY-MM-DDTHH:MM``."""
    return local_iso(value)
