"""A scenario: its contests, its event log, and the readings of unclear text it uses."""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import attrs

from simulator.law.instants import maybe_instant
from simulator.law.labels import label
from simulator.law.readings import Interpretations, chosen_words
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

    def words(self) -> str:
        """The contest in one line of words: ``cary-d: Town of Cary - Town Council District D;
        nonpartisan runoff, election of 2023, 1 seat``."""
        seats = f"{self.seats} seat{'s' if self.seats != 1 else ''}"
        party = f", {self.party} party" if self.party else ""
        when = f"{label(self.stage)} of {self.year}"
        if self.date is not None:
            when += f" (on {self.date.isoformat()})"
        return f"{self.id}: {self.label}; {label(self.method)}, {when}, {seats}{party}"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython's plain-text display (Jupyter): :meth:`words`."""
        p.text(self.words())


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

    def summary(self) -> str:
        """The scenario in a few lines of words: its title, contests, events by type, and the
        readings and values it chooses other than the defaults (what Jupyter shows for it)."""
        counts = Counter(e.type for e in self.events)
        events = "; ".join(f"{kind.replace('_', ' ')}: {n}" for kind, n in counts.items())
        lines = [
            f"{self.title}: {len(self.contests)} contest{'s' if len(self.contests) != 1 else ''}"
            f", {len(self.events)} event{'s' if len(self.events) != 1 else ''}"
            + (f" ({self.timezone})" if self.timezone != DEFAULT_TZ else "")
        ]
        lines += [f"  {c.words()}" for c in self.contests]
        if events:
            lines.append(f"  events: {events}")
        readings = chosen_words(self.interpretations.changed())
        lines.append(f"  readings: {readings or 'the defaults'}")
        if self.parameters:
            pinned = "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in self.parameters)
            lines.append(f"  values pinned: {pinned}")
        if self.office_closed:
            closed = ", ".join(d.isoformat() for d in self.office_closed)
            lines.append(f"  office closed: {closed}")
        if self.source:
            lines.append(f"  from {self.source}")
        return "\n".join(lines)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython's plain-text display (Jupyter): :meth:`summary`, not every field."""
        p.text(self.summary())
