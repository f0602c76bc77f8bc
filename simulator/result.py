"""What a replay produces: rulings, the outcome, and the JSON document of docs/results.md."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Any

import attrs

from simulator.calendar import Deadline
from simulator.law import Cite
from simulator.vocab import Pending, RulingKind, RunoffStatus

RESULT_FORMAT = "electsim-result/v1"


def exact(value: Fraction) -> str:
    """An exact number as the result document writes it: ``"2337"``, ``"196.75"`` or ``"500/3"``.

    >>> exact(Fraction(4674, 2)), exact(Fraction(787, 4)), exact(Fraction(500, 3))
    ('2337', '196.75', '500/3')
    """
    if value.denominator == 1:
        return str(value.numerator)
    d = value.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return f"{value.numerator}/{value.denominator}"
    places = max(twos, fives)
    scaled = value * 10**places
    assert scaled.denominator == 1
    sign = "-" if scaled < 0 else ""
    digits = str(abs(scaled.numerator)).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


@attrs.frozen
class Ruling:
    """One thing the law says follows from the facts, with the subsection it comes from."""

    kind: RulingKind
    at: datetime
    cites: tuple[Cite, ...]
    text: str
    seq: int = -1  # index of the event that led to it (-1: the end of the log)
    candidates: tuple[str, ...] = ()
    extra: tuple[tuple[str, Any], ...] = ()

    @property
    def cite(self) -> str:
        return "; ".join(str(c) for c in self.cites)

    def get(self, key: str) -> Any:
        for k, v in self.extra:
            if k == key:
                return v
        return None

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "seq": self.seq,
            "at": self.at.isoformat(),
            "kind": self.kind.value,
            "cite": self.cite,
            "candidates": list(self.candidates),
            "text": self.text,
        }
        for k, v in self.extra:
            doc[k] = v.isoformat() if isinstance(v, datetime) else v
        doc["url"] = self.cites[0].url if self.cites else None
        return doc


@attrs.frozen
class Outcome:
    elected: tuple[str, ...] = ()
    nominated: tuple[str, ...] = ()
    vacant_seats: int = 0
    runoff_status: RunoffStatus = RunoffStatus.NONE
    runoff_candidates: tuple[str, ...] = ()
    pending: Pending | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "elected": list(self.elected),
            "nominated": list(self.nominated),
            "vacant_seats": self.vacant_seats,
            "runoff": {
                "status": self.runoff_status.value,
                "candidates": list(self.runoff_candidates),
            },
            "pending": self.pending.value if self.pending else None,
        }


@attrs.frozen
class TimelineEntry:
    at: datetime
    what: str  # event | ruling | deadline
    label: str
    cite: str = ""
    kind: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "at": self.at.isoformat(),
            "what": self.what,
            "label": self.label,
            "cite": self.cite,
            "kind": self.kind,
        }


@attrs.frozen
class ContestResult:
    id: str
    title: str
    method: str
    stage: str
    seats: int
    state: str
    outcome: Outcome
    rulings: tuple[Ruling, ...]
    deadlines: tuple[Deadline, ...]
    timeline: tuple[TimelineEntry, ...]
    tallies: tuple[tuple[tuple[str, int], ...], ...] = ()  # per round, best first
    path: tuple[tuple[str, str, str], ...] = ()  # (from phase, trigger, to phase) taken

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "method": self.method,
            "stage": self.stage,
            "seats": self.seats,
            "state": self.state,
            "outcome": self.outcome.to_json(),
            "rulings": [r.to_json() for r in self.rulings],
            "deadlines": [d.to_json() for d in self.deadlines],
            "timeline": [t.to_json() for t in self.timeline],
            "tallies": [{"round": i, "votes": dict(t)} for i, t in enumerate(self.tallies)],
        }


@attrs.frozen
class Result:
    scenario: str
    contests: tuple[ContestResult, ...]
    as_of: datetime | None = None

    def contest(self, contest_id: str) -> ContestResult:
        for c in self.contests:
            if c.id == contest_id:
                return c
        raise KeyError(contest_id)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RESULT_FORMAT,
            "scenario": self.scenario,
            "as_of": self.as_of.isoformat() if self.as_of else None,
            "contests": [c.to_json() for c in self.contests],
        }
