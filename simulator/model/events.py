"""The event log: one frozen class per event type of docs/scenarios.md.

Events are facts in the past tense. Each carries ``at`` (when the thing happened, timezone-aware),
``contest`` (the contest id it belongs to) and ``index`` (its position in the log, which keeps the
order in which the board learned things) and, optionally, ``id`` (a name the scenario gives the
event, unique in the scenario, so that what-if edits and sweeps can address it however the log
is edited around it). A death also carries ``notice_at``, when the board
received notice of it; the board *knows* an event at :attr:`Event.known_at`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from itertools import repeat
from typing import Any, ClassVar

import attrs


def _freeze_counts(
    value: Mapping[str, int] | Iterable[tuple[str, int]],
) -> tuple[tuple[str, int], ...]:
    """Counts as a tuple of (name, votes) pairs, from a mapping or from pairs."""
    pairs = value.items() if isinstance(value, Mapping) else value
    return tuple((str(k), int(v)) for k, v in pairs)


@attrs.frozen(kw_only=True)
class Event:
    """Base class: what every event carries."""

    type: ClassVar[str] = ""
    fields: ClassVar[tuple[str, ...]] = ()  # the event's own fields, as written in a scenario
    required: ClassVar[tuple[str, ...]] = ()

    at: datetime
    contest: str
    index: int = 0
    id: str | None = None  # the scenario's own name for the event (unique in the scenario)
    line: int | None = attrs.field(default=None, eq=False)

    @property
    def known_at(self) -> datetime:
        """When the board learned of this event."""
        return self.at

    def names(self) -> tuple[str, ...]:
        """Candidate names the event refers to (for input validation)."""
        return ()


@attrs.frozen(kw_only=True)
class FilingOpened(Event):
    type: ClassVar[str] = "filing_opened"


@attrs.frozen(kw_only=True)
class FilingClosed(Event):
    type: ClassVar[str] = "filing_closed"


@attrs.frozen(kw_only=True)
class CandidateFiled(Event):
    type: ClassVar[str] = "candidate_filed"
    fields: ClassVar[tuple[str, ...]] = ("candidate", "party", "fee")
    required: ClassVar[tuple[str, ...]] = ("candidate",)
    candidate: str
    party: str | None = None
    fee: str | None = None  # decimal string, exact

    def names(self) -> tuple[str, ...]:
        return (self.candidate,)


@attrs.frozen(kw_only=True)
class CandidateWithdrew(Event):
    type: ClassVar[str] = "candidate_withdrew"
    fields: ClassVar[tuple[str, ...]] = ("candidate",)
    required: ClassVar[tuple[str, ...]] = ("candidate",)
    candidate: str

    def names(self) -> tuple[str, ...]:
        return (self.candidate,)


@attrs.frozen(kw_only=True)
class CandidateDied(Event):
    type: ClassVar[str] = "candidate_died"
    fields: ClassVar[tuple[str, ...]] = ("candidate", "notice_at")
    required: ClassVar[tuple[str, ...]] = ("candidate",)
    candidate: str
    notice_at: datetime | None = None

    @property
    def known_at(self) -> datetime:
        return self.notice_at if self.notice_at is not None else self.at

    @property
    def notice(self) -> datetime:
        """When the board received notice of the death (defaults to the death itself)."""
        return self.known_at

    def names(self) -> tuple[str, ...]:
        return (self.candidate,)


@attrs.frozen(kw_only=True)
class CandidateDisqualified(Event):
    type: ClassVar[str] = "candidate_disqualified"
    fields: ClassVar[tuple[str, ...]] = ("candidate",)
    required: ClassVar[tuple[str, ...]] = ("candidate",)
    candidate: str

    def names(self) -> tuple[str, ...]:
        return (self.candidate,)


@attrs.frozen(kw_only=True)
class FilingExtended(Event):
    type: ClassVar[str] = "filing_extended"


@attrs.frozen(kw_only=True)
class BallotsPrinted(Event):
    type: ClassVar[str] = "ballots_printed"


@attrs.frozen(kw_only=True)
class ReprintDetermined(Event):
    type: ClassVar[str] = "reprint_determined"
    fields: ClassVar[tuple[str, ...]] = ("enough_time",)
    required: ClassVar[tuple[str, ...]] = ("enough_time",)
    enough_time: bool


@attrs.frozen(kw_only=True)
class VotesCast(Event):
    type: ClassVar[str] = "votes_cast"
    fields: ClassVar[tuple[str, ...]] = ("candidate", "count", "precinct")
    required: ClassVar[tuple[str, ...]] = ("candidate",)
    candidate: str
    count: int = 1
    precinct: str | None = None

    def names(self) -> tuple[str, ...]:
        return (self.candidate,)


@attrs.frozen(kw_only=True)
class ReturnsReported(Event):
    type: ClassVar[str] = "returns_reported"
    fields: ClassVar[tuple[str, ...]] = ("counts", "precinct")
    required: ClassVar[tuple[str, ...]] = ("counts",)
    counts: tuple[tuple[str, int], ...] = attrs.field(converter=_freeze_counts)
    precinct: str | None = None

    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.counts)


@attrs.frozen(kw_only=True)
class CanvassHeld(Event):
    type: ClassVar[str] = "canvass_held"


@attrs.frozen(kw_only=True)
class RecountHeld(Event):
    type: ClassVar[str] = "recount_held"
    fields: ClassVar[tuple[str, ...]] = ("counts",)
    required: ClassVar[tuple[str, ...]] = ("counts",)
    counts: tuple[tuple[str, int], ...] = attrs.field(converter=_freeze_counts)

    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.counts)


@attrs.frozen(kw_only=True)
class RunoffRequested(Event):
    type: ClassVar[str] = "runoff_requested"
    fields: ClassVar[tuple[str, ...]] = ("candidate",)
    required: ClassVar[tuple[str, ...]] = ("candidate",)
    candidate: str

    def names(self) -> tuple[str, ...]:
        return (self.candidate,)


@attrs.frozen(kw_only=True)
class LotDrawn(Event):
    type: ClassVar[str] = "lot_drawn"
    fields: ClassVar[tuple[str, ...]] = ("winner",)
    required: ClassVar[tuple[str, ...]] = ("winner",)
    winner: str

    def names(self) -> tuple[str, ...]:
        return (self.winner,)


@attrs.frozen(kw_only=True)
class OathTaken(Event):
    type: ClassVar[str] = "oath_taken"
    fields: ClassVar[tuple[str, ...]] = ("candidate",)
    required: ClassVar[tuple[str, ...]] = ("candidate",)
    candidate: str

    def names(self) -> tuple[str, ...]:
        return (self.candidate,)


@attrs.frozen(kw_only=True)
class NomineeNamed(Event):
    type: ClassVar[str] = "nominee_named"
    fields: ClassVar[tuple[str, ...]] = ("candidate", "party")
    required: ClassVar[tuple[str, ...]] = ("candidate",)
    candidate: str
    party: str | None = None


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        FilingOpened,
        FilingClosed,
        CandidateFiled,
        CandidateWithdrew,
        CandidateDied,
        CandidateDisqualified,
        FilingExtended,
        BallotsPrinted,
        ReprintDetermined,
        VotesCast,
        ReturnsReported,
        CanvassHeld,
        RecountHeld,
        RunoffRequested,
        LotDrawn,
        OathTaken,
        NomineeNamed,
    )
}


def builder(cls: type[Event], *given: str) -> Callable[..., Event]:
    """A constructor for many events of ``cls``, for a loader that has checked every value
    already: it takes ``at, contest, index, line`` and then the fields named in ``given``,
    positionally, and gives every other field its default.

    The event is the one ``cls(...)`` makes (equal, same hash, same type), made in about half
    the time: the frozen class's ``__init__`` sets each field through ``object.__setattr__`` by
    name, this sets each slot through its descriptor. The fields given may have no converter.
    """
    fields = {f.name: f for f in attrs.fields(cls)}
    names = ("at", "contest", "index", "line", *given)
    for name in names:
        if name not in fields or fields[name].converter is not None:
            raise ValueError(f"{cls.__name__}: {name} cannot be given to a builder")
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls}
    body = []
    for k, (name, field) in enumerate(fields.items()):
        scope[f"set{k}"] = getattr(cls, name).__set__
        if name in names:
            body.append(f"    set{k}(event, {name})")
        elif field.default is attrs.NOTHING or hasattr(field.default, "factory"):
            raise ValueError(f"{cls.__name__}.{name} has no plain default")
        else:
            scope[f"default{k}"] = field.default
            body.append(f"    set{k}(event, default{k})")
    source = "\n".join(
        [f"def build({', '.join(names)}):", "    event = new(cls)", *body, "    return event"]
    )
    exec(source, scope)  # the same technique attrs uses for __init__
    made: Callable[..., Event] = scope["build"]
    return made


def column_builder(cls: type[Event], *given: str) -> Callable[..., list[Event]]:
    """:func:`builder` for a whole run of events at once, column by column: it takes ``n``,
    then columns (iterables of ``n`` values) of ``at, contest, index, line`` and of the fields
    named in ``given``, and gives the ``n`` events :func:`builder` would make one by one
    (``line`` may be None: no event has a line).

    Each slot is set over the whole run by one ``map`` in C, with no Python call per event.
    """
    builder(cls, *given)  # the same checks of what may be given
    names = ("at", "contest", "index", "line", *given)
    slots = [(f.name, getattr(cls, f.name).__set__, f.default) for f in attrs.fields(cls)]
    new = object.__new__

    def build(n: int, *columns: Iterable[Any]) -> list[Event]:
        values = dict(zip(names, columns, strict=True))
        made: list[Event] = list(map(new, repeat(cls, n)))
        for name, set_slot, default in slots:
            column = values.get(name)
            deque(map(set_slot, made, repeat(default, n) if column is None else column), 0)
        return made

    return build


WRITE_IN_GENERIC = "Write-In (Miscellaneous)"

#: The most votes one count may hold (a ``count``, each of ``counts``): far above any
#: electorate, and small enough that every total of a log stays a number the outputs can write
#: (Python writes out integers of at most 4300 digits: two counts of 4300 nines made a total
#: the timeline could not print).
MAX_VOTES = 10**12


def is_write_in(name: str) -> bool:
    """Write-ins need no filing: ``Write-In (Miscellaneous)`` or ``NAME (Write-In)``."""
    return name == WRITE_IN_GENERIC or name.endswith("(Write-In)")
