"""Small scenarios written inline, for the tests that read as the statutes.

A test states one contest and its log as YAML text (the same format as ``scenarios/``) and reads
the result through the public API: ``simulator.parse_scenario`` and ``simulator.engine.replay``.
"""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import simulator
from simulator.engine.result import ContestResult, Ruling
from simulator.law.calendar import Deadline
from simulator.model.scenario import Scenario

TZ = ZoneInfo("America/New_York")


def scenario(contest: str, events: str, *, head: str = "") -> Scenario:
    """A one-contest scenario: ``contest`` is the contest's flow mapping, ``events`` the log's
    lines (``- {type: ..., at: ..., ...}``), ``head`` extra top-level lines (interpretations,
    office_closed)."""
    lines = [line.strip() for line in events.strip().splitlines() if line.strip()]
    text = "\n".join(
        [
            "format: electsim/v1",
            "title: an inline test",
            *([head.strip()] if head.strip() else []),
            f"contests: [{contest}]",
            "events:",
            *(f"  {line}" for line in lines),
        ]
    )
    return simulator.parse_scenario(text)


def run(contest: str, events: str, *, head: str = "", as_of: str | None = None) -> ContestResult:
    """Replay the inline scenario (optionally as of a local time) and return its one contest."""
    when = datetime.fromisoformat(as_of).replace(tzinfo=TZ) if as_of else None
    return simulator.replay(scenario(contest, events, head=head), as_of=when).contests[0]


def filed(*names: str, at: str = "2027-07-06", party: str | None = None) -> str:
    """``candidate_filed`` lines for ``names`` (inside the 2027 filing period by default)."""
    extra = f", party: {party}" if party else ""
    return "\n".join(
        f'- {{type: candidate_filed, at: {at}, candidate: "{n}"{extra}}}' for n in names
    )


def returns(at: str, **counts: int) -> str:
    """One ``returns_reported`` line; write-ins are passed with their names spelt out."""
    body = ", ".join(f'"{name}": {n}' for name, n in counts.items())
    return f'- {{type: returns_reported, at: "{at}", counts: {{{body}}}}}'


def rulings(c: ContestResult, kind: str) -> list[Ruling]:
    return [r for r in c.rulings if r.kind.value == kind]


def only(c: ContestResult, kind: str) -> Ruling:
    """The one ruling of ``kind`` (the test fails if there is none or several)."""
    found = rulings(c, kind)
    assert len(found) == 1, f"want one {kind} ruling, have {[r.kind.value for r in c.rulings]}"
    return found[0]


def cites(r: Ruling, pattern: str) -> bool:
    return re.search(pattern, r.cite) is not None


def deadline(c: ContestResult, kind: str) -> Deadline:
    found = [d for d in c.deadlines if d.kind.value == kind]
    assert found, f"no {kind} deadline; have {[d.kind.value for d in c.deadlines]}"
    return found[-1]


def local(d: datetime) -> str:
    """A deadline or ruling time as local ``YYYY-MM-DDTHH:MM:SS``."""
    return d.astimezone(TZ).strftime("%Y-%m-%dT%H:%M:%S")
