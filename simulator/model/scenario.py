"""A scenario: its contests, its event log, and the readings of unclear text it uses."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

import attrs

from simulator.law.instants import maybe_instant
from simulator.law.readings import Interpretations
from simulator.law.vocab import Method, Stage
from simulator.model.eventlog import EventLog, event_log

if TYPE_CHECKING:
    from simulator.model.expectations import Expectation

FORMAT = "electsim/v1"
DEFAULT_TZ = "America/New_York"


@attrs.frozen
class Contest:
    """One contest: an office (or group of offices) in one stage of one municipal election."""

    id: str
    method: Method
    year: int
    seats: int = 1
    stage: Stage = Stage.ELECTION
    municipality: str = ""
    office: str = ""
    party: str | None = None
    date: date | None = None  # this stage's election day, overriding G.S. 163-279
    district_based: bool = False
    filing_opens: datetime | None = attrs.field(default=None, converter=maybe_instant)
    filing_closes: datetime | None = attrs.field(default=None, converter=maybe_instant)
    filing_fee: Decimal | None = None
    salary: Decimal | None = None
    line: int | None = attrs.field(default=None, eq=False)

    @property
    def is_group(self) -> bool:
        return self.seats > 1

    @property
    def label(self) -> str:
        parts = [p for p in (self.municipality, self.office) if p]
        return " - ".join(parts) or self.id


@attrs.frozen
class Scenario:
    """A parsed, validated scenario. Build one with :func:`simulator.load_scenario`."""

    title: str
    contests: tuple[Contest, ...]
    #: in order (a tuple or any iterable of events is taken as the log it holds)
    events: EventLog = attrs.field(converter=event_log)
    description: str = ""
    timezone: str = DEFAULT_TZ
    office_closed: tuple[date, ...] = ()
    interpretations: Interpretations = attrs.field(factory=Interpretations)
    source: str | None = attrs.field(default=None, eq=False)
    #: what the scenario says its replay must show (``expect:``), checked by ``electsim test``
    expectations: tuple[Expectation, ...] = attrs.field(default=(), eq=False)
    #: Dated parameters the scenario pins (name, value), overriding the value in force on each
    #: contest's day (:mod:`simulator.law.parameters`).
    parameters: tuple[tuple[str, Fraction], ...] = ()

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    def contest(self, contest_id: str) -> Contest:
        for c in self.contests:
            if c.id == contest_id:
                return c
        raise KeyError(contest_id)
