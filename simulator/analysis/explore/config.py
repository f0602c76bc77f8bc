"""The configurations ``electsim explore`` explores and the words of their courses.

A configuration is one contest: its method, seats, candidates, the departures at most, whether it
is the partisan method's general election, and the interpretation switches (docs/readings.md) its
courses are replayed under. Beside it: how and when a candidate leaves (:class:`Departure`,
:class:`Region`), what the candidate entitled to a runoff does (:class:`Request`), and the names
and parties of the candidates.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import attrs

from simulator.law.labels import label
from simulator.law.readings import Interpretations
from simulator.law.vocab import Method
from simulator.model.events import CandidateDied, CandidateDisqualified, CandidateWithdrew

YEAR = 2027
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu")
CONTEST_ID = "office"


class Departure(StrEnum):
    """How a candidate leaves the contest."""

    DIED = "died"
    WITHDREW = "withdrew"
    DISQUALIFIED = "disqualified"


class Region(StrEnum):
    """When a candidate leaves: the landmarks already passed."""

    FILING = "before the filing closes"
    EARLY = "within 30 days after the close, before printing"
    LATE = "after day 30, before printing"
    REPRINT = "after printing, the board finds time to reprint"
    NO_REPRINT = "after printing, no time to reprint"
    NIGHT = "after the vote, before the canvass"
    WINDOW = "after the canvass, in the request window"
    CALLED = "after the runoff is called"
    SECOND_NIGHT = "after the runoff's vote, before its canvass"
    BEFORE_LOT = "after the runoff's canvass, before the drawing of lots"


BEFORE_VOTE = (Region.FILING, Region.EARLY, Region.LATE, Region.REPRINT, Region.NO_REPRINT)


class Request(StrEnum):
    """What the candidate entitled to ask for a runoff (or second primary) does."""

    NONE = "no request"
    IN_TIME = "requests in time"
    LATE = "requests late"


#: The event type that records each way of leaving (its name in a scenario)
LEAVING_EVENT = {
    Departure.DIED: CandidateDied.type,
    Departure.WITHDREW: CandidateWithdrew.type,
    Departure.DISQUALIFIED: CandidateDisqualified.type,
}


#: The parties of a partisan general election's nominees, one each (a late filer is unaffiliated)
PARTIES = ("DEM", "REP", "LIB", "GRE", "CST", "JSP", "NLP", "WTP")
PRIMARY_PARTY = "REP"  # whose primary a partisan primary is


def reading_values(name: str) -> tuple[Any, ...] | None:
    """The values an interpretation switch takes (None: no switch has that name)."""
    choices = Interpretations.CHOICES.get(name)
    if choices is not None:
        return tuple(choices)
    if name in {f.name for f in attrs.fields(Interpretations)}:
        return (True, False)  # the switches that are yes or no
    return None


def other_readings() -> list[tuple[str, Any]]:
    """Every value of every interpretation switch but its default, as (name, value) pairs: each
    a setting to explore the law under, the other switches left at their defaults."""
    default = Interpretations()
    out: list[tuple[str, Any]] = []
    for f in attrs.fields(Interpretations):
        now = getattr(default, f.name)
        now = getattr(now, "value", now)
        out += [(f.name, v) for v in reading_values(f.name) or () if v != now]
    return sorted(out)


def _sorted_readings(value: Any) -> tuple[tuple[str, Any], ...]:
    pairs = value.items() if isinstance(value, dict) else value
    return tuple(sorted((str(k), v) for k, v in pairs))


def reading_shown(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@attrs.frozen(kw_only=True)
class Config:
    """One configuration of the grid. ``general``: the partisan method's general election
    (G.S. 163-279(a)(2)), where the parties' nominees stand, instead of its primary."""

    method: Method
    seats: int
    candidates: int
    departures: int = 1
    general: bool = attrs.field(default=False)
    #: interpretation switches (docs/readings.md) the courses are replayed under, as (name,
    #: value) pairs sorted by name; none: every switch at its default
    readings: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=_sorted_readings)

    @general.validator
    def _partisan(self, _attribute: Any, value: bool) -> None:
        if value and self.method is not Method.PARTISAN:
            raise ValueError("only the partisan method has a general election of nominees")

    @readings.validator
    def _known_readings(self, _attribute: Any, value: tuple[tuple[str, Any], ...]) -> None:
        for name, chosen in value:
            allowed = reading_values(name)
            if allowed is None:
                raise ValueError(f"no interpretation switch is called {name!r}")
            if chosen not in allowed:
                raise ValueError(
                    f"interpretation {name}: expected one of {', '.join(map(str, allowed))}; "
                    f"found {chosen!r}"
                )

    @property
    def kind(self) -> str:
        """The method, and the partisan general election apart from the primary."""
        return "partisan-general" if self.general else self.method.value

    @property
    def words(self) -> str:
        """The configuration in words, for people (:attr:`label` is the records' short form):
        ``nonpartisan runoff election, 1 seat, 3 candidates, up to 1 departure``."""
        kind = "partisan general election" if self.general else f"{label(self.method)} {self.stage}"
        seats = f"{self.seats} seat{'s' if self.seats != 1 else ''}"
        many = f"{self.candidates} candidate{'s' if self.candidates != 1 else ''}"
        left = f"up to {self.departures} departure{'s' if self.departures != 1 else ''}"
        words = f"{kind}, {seats}, {many}, {left}"
        if self.readings:
            words += " [" + ", ".join(f"{k}: {reading_shown(v)}" for k, v in self.readings) + "]"
        return words

    @property
    def label(self) -> str:
        label = f"{self.kind} s={self.seats} n={self.candidates} k={self.departures}"
        if self.readings:
            label += " [" + ", ".join(f"{k}: {reading_shown(v)}" for k, v in self.readings) + "]"
        return label

    @property
    def stage(self) -> str:
        primary = self.method in (Method.PARTISAN, Method.PRIMARY) and not self.general
        return "primary" if primary else "election"

    @property
    def reads(self) -> Method:
        """The method whose reading of the votes applies: the general election of nominees is
        decided by the highest vote, so its ranking is read as the plurality method's is (up
        to the place after the last seat; no threshold)."""
        return Method.PLURALITY if self.general else self.method

    def party(self, name: str) -> str | None:
        """The party ``name`` files for (None: a nonpartisan contest)."""
        if self.method is not Method.PARTISAN:
            return None
        if not self.general:
            return PRIMARY_PARTY
        return PARTIES[NAMES.index(name)] if name in NAMES else "UNA"
