"""The event types: each defined once, here, with everything the rest of electsim reads of it.

An event type is a frozen class decorated with :func:`define`. The class gives its fields; the
definition gives its family, a one-line summary (the JSON Schema's description), the paragraph
and example of docs/scenarios.md, and the mark a timeline draws for it. The loader, the schema,
the charts, the explorer and the docs read :data:`DEFINITIONS`; the engine registers each type's
handler against the class (:mod:`simulator.engine.handlers`), and the state machine names the
type as the trigger of its transitions (:mod:`simulator.law.machine`). docs/development.md walks
through adding one.

Events are facts in the past tense. Each carries ``at`` (when the thing happened, timezone-aware),
``contest`` (the contest id it belongs to) and ``index`` (its position in the log, which keeps the
order in which the board learned things) and, optionally, ``id`` (a name the scenario gives the
event, unique in the scenario, so that what-if edits and sweeps can address it however the log
is edited around it). A death also carries ``notice_at``, when the board
received notice of it; the board *knows* an event at :attr:`Event.known_at`.
"""

from __future__ import annotations

import textwrap
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from enum import StrEnum
from itertools import repeat
from typing import Any, ClassVar, TypeVar

import attrs

from simulator.law.instants import instant, maybe_instant
from simulator.law.vocab import EventType


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
    #: the event's own fields, as written in a scenario, in the order the class declares them,
    #: and those of them without a default: both read from the class by :func:`define`
    fields: ClassVar[tuple[str, ...]] = ()
    required: ClassVar[tuple[str, ...]] = ()

    at: datetime = attrs.field(converter=instant)  # (compared as the instant it is)
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
class CandidateEvent(Event):
    """An event about one candidate, who must be one of the contest's (``candidate``)."""

    candidate: str

    def names(self) -> tuple[str, ...]:
        return (self.candidate,)


#: the fields every event carries (not written as an event's own)
_COMMON = frozenset(f.name for f in attrs.fields(Event))


class Family(StrEnum):
    """The families of event types; the engine's handlers and the docs group them so."""

    FILING = "filing"  # the filing period and notices of candidacy
    DEPARTURE = "departure"  # a candidate who dies, withdraws or is disqualified
    BALLOT = "ballot"  # printing the ballots and reprinting them
    VOTES = "votes"  # ballots and returns
    COUNT = "count"  # the canvass, recounts and lots
    REQUEST = "request"  # runoff requests and second-primary demands
    NOMINATION = "nomination"  # a party names a nominee
    OFFICE = "office"  # taking office


@attrs.frozen
class Mark:
    """How a timeline draws an event: a marker, its colour and size, and its caption for one
    event and for several on a day (``{name}``: the candidate or winner; ``{n}``: how many)."""

    marker: str
    colour: str
    size: float
    one: str
    several: str


@attrs.frozen
class Definition:
    """One event type: its class (fields) and what the rest of electsim reads of it."""

    cls: type[Event]
    family: Family
    #: one line: what the event records (the JSON Schema's description)
    summary: str
    #: the paragraph of docs/scenarios.md that explains it
    text: str
    #: one YAML list item of docs/scenarios.md that writes it
    example: str
    mark: Mark
    #: what happened, as a phrase after the person it happened to ("died", "requested a
    #: runoff"), or alone for an event about nobody ("ballots printed")
    verb: str
    #: the event as a noun phrase ({c}: the candidate), for a sweep's axis: "{c}'s death"
    noun: str

    @property
    def type(self) -> str:
        return self.cls.type

    def markdown(self) -> str:
        """Its entry of docs/scenarios.md's list of event types."""
        text = textwrap.fill(self.text, width=96, break_on_hyphens=False, break_long_words=False)
        return f"### `{self.type}`\n\n{text}\n\n```yaml\n{self.example}\n```\n"


#: Every event type, by its name in a scenario, in the order docs/scenarios.md lists them.
DEFINITIONS: dict[str, Definition] = {}
#: Every event type's class, by its name in a scenario (the same order).
EVENT_TYPES: dict[str, type[Event]] = {}
#: How many times the definitions have changed: what is made from them once (the loader's
#: decoders) is made again when this moves
REVISION = [0]

EventClass = TypeVar("EventClass", bound=type[Event])


def define(
    *,
    family: Family,
    summary: str,
    text: str,
    example: str,
    mark: Mark,
    verb: str | None = None,
    noun: str | None = None,
) -> Callable[[EventClass], EventClass]:
    """Define an event type: the class decorated is registered under its ``type`` with what the
    loader, schema, charts, explorer, what-if and docs read of it. A name is defined once; its
    ``verb`` and ``noun`` default to the type's name in words ("the ballots printed")."""

    def register(cls: EventClass) -> EventClass:
        if not cls.type or cls.type in DEFINITIONS:
            raise ValueError(f"event type {cls.type!r}: expected a new, non-empty name")
        own = [f for f in attrs.fields(cls) if f.name not in _COMMON]
        cls.fields = tuple(f.name for f in own)
        cls.required = tuple(f.name for f in own if f.default is attrs.NOTHING)
        words = cls.type.replace("_", " ")
        DEFINITIONS[cls.type] = Definition(
            cls, family, summary, text, example, mark, verb or words, noun or "the " + words
        )
        EVENT_TYPES[cls.type] = cls
        REVISION[0] += 1
        return cls

    return register


def forget(name: str) -> None:
    """Take a defined event type back out (for tests that define one of their own)."""
    del DEFINITIONS[name], EVENT_TYPES[name]
    REVISION[0] += 1


def written(cls: type[Event], **fields: Any) -> dict[str, Any]:
    """An event as a scenario writes it (``{"type": ..., **fields}``), for code that writes
    scenarios: the type's name comes from its class, never from a string typed again."""
    return {"type": cls.type, **fields}


def event_types_markdown() -> str:
    """docs/scenarios.md's list of event types, one entry per definition."""
    return "\n".join(d.markdown() for d in DEFINITIONS.values())


@define(
    family=Family.FILING,
    summary="the filing period opened (optional: derived from the statutes when absent)",
    text="The filing period opened. Optional: without it the statutory period is used.",
    example='- {type: filing_opened, at: "2027-07-02T12:00"}',
    mark=Mark(">", "#01665e", 5.5, "filing opened", "filing opened"),
    verb="filing opened",
)
@attrs.frozen(kw_only=True)
class FilingOpened(Event):
    type: ClassVar[str] = EventType.FILING_OPENED.value


@define(
    family=Family.FILING,
    summary="the filing period closed (optional: derived when absent)",
    text="The filing period closed. Optional, like `filing_opened`.",
    example='- {type: filing_closed, at: "2027-07-16T12:00"}',
    mark=Mark("<", "#01665e", 5.5, "filing closed", "filing closed"),
    verb="filing closed",
)
@attrs.frozen(kw_only=True)
class FilingClosed(Event):
    type: ClassVar[str] = EventType.FILING_CLOSED.value


@define(
    family=Family.FILING,
    summary="a notice of candidacy was filed",
    text=(
        "A notice of candidacy. Fields: `candidate`, `party`? (a party's abbreviation, for "
        "partisan "
        "contests), `fee`? (the fee paid, in dollars). A filing outside the period, or by someone "
        "who already stands for another office at the same election, is rejected with a ruling."
    ),
    example=(
        '- {type: candidate_filed, at: "2027-07-06T09:30", candidate: Ann Smith, party: DEM, '
        "fee: 55}"
    ),
    mark=Mark("o", "#2166ac", 5.0, "{name} filed", "{n} filed"),
    verb="filed",
    noun="{c}'s filing",
)
@attrs.frozen(kw_only=True)
class CandidateFiled(CandidateEvent):
    type: ClassVar[str] = EventType.CANDIDATE_FILED.value
    party: str | None = None
    fee: str | None = None  # decimal string, exact


@define(
    family=Family.DEPARTURE,
    summary="a candidate withdrew",
    text="A candidate withdrew. Field: `candidate`.",
    example='- {type: candidate_withdrew, at: "2027-08-02T10:00", candidate: Bob Jones}',
    mark=Mark("v", "#8c510a", 6.5, "{name} withdrew", "{n} withdrew"),
    verb="withdrew",
    noun="{c}'s withdrawal",
)
@attrs.frozen(kw_only=True)
class CandidateWithdrew(CandidateEvent):
    type: ClassVar[str] = EventType.CANDIDATE_WITHDREW.value


@define(
    family=Family.DEPARTURE,
    summary="a candidate died (at: the death; notice_at: when the board heard)",
    text=(
        "A candidate died. Fields: `candidate`, `notice_at`? (when the board received notice; "
        "default: `at`). `at` is the death itself; the 30-day rules of G.S. 163-112 count from it, "
        "while what the board could do counts from the notice."
    ),
    example=(
        '- {type: candidate_died, at: 2027-08-20, notice_at: "2027-08-23T15:00", candidate: Bob '
        "Jones}"
    ),
    mark=Mark("X", "#111111", 7.0, "{name} died", "{n} died"),
    verb="died",
    noun="{c}'s death",
)
@attrs.frozen(kw_only=True)
class CandidateDied(CandidateEvent):
    type: ClassVar[str] = EventType.CANDIDATE_DIED.value
    notice_at: datetime | None = attrs.field(default=None, converter=maybe_instant)

    @property
    def known_at(self) -> datetime:
        return self.notice_at if self.notice_at is not None else self.at

    @property
    def notice(self) -> datetime:
        """When the board received notice of the death (defaults to the death itself)."""
        return self.known_at


@define(
    family=Family.DEPARTURE,
    summary="a candidate was disqualified",
    text="A candidate was disqualified. Field: `candidate`.",
    example='- {type: candidate_disqualified, at: "2027-08-10T12:00", candidate: Cy Doe}',
    mark=Mark("x", "#7f2704", 6.5, "{name} disqualified", "{n} disqualified"),
    verb="was disqualified",
    noun="{c}'s disqualification",
)
@attrs.frozen(kw_only=True)
class CandidateDisqualified(CandidateEvent):
    type: ClassVar[str] = EventType.CANDIDATE_DISQUALIFIED.value


@define(
    family=Family.FILING,
    summary="the board extended filing by five days (G.S. 163-294.4(a))",
    text="The board extended filing by five days because nobody filed (G.S. 163-294.4(a)).",
    example='- {type: filing_extended, at: "2027-07-16T12:00"}',
    mark=Mark("P", "#b8860b", 6.0, "filing extended", "filing extended"),
    verb="filing extended",
)
@attrs.frozen(kw_only=True)
class FilingExtended(Event):
    type: ClassVar[str] = EventType.FILING_EXTENDED.value


@define(
    family=Family.BALLOT,
    summary="the official ballots were printed",
    text=(
        "The official ballots were printed. After this, a name can come off the ballot only if the "
        "board finds there is time to reprint."
    ),
    example="- {type: ballots_printed, at: 2027-09-01}",
    mark=Mark("s", "#525252", 5.5, "ballots printed", "ballots printed"),
    verb="ballots printed",
    noun="the printing of the ballots",
)
@attrs.frozen(kw_only=True)
class BallotsPrinted(Event):
    type: ClassVar[str] = EventType.BALLOTS_PRINTED.value


@define(
    family=Family.BALLOT,
    summary="the board decided whether there is time to reprint the ballots",
    text=(
        "The board decided whether there is time to reprint the ballots. Field: `enough_time` "
        "(`true` or `false`)."
    ),
    example="- {type: reprint_determined, at: 2027-09-10, enough_time: false}",
    mark=Mark("p", "#6a51a3", 6.0, "reprint determined", "reprint determined"),
    verb="reprint decided",
)
@attrs.frozen(kw_only=True)
class ReprintDetermined(Event):
    type: ClassVar[str] = EventType.REPRINT_DETERMINED.value
    enough_time: bool


@define(
    family=Family.VOTES,
    summary="ballots for one candidate, one or a batch",
    text=(
        "Ballots for one candidate: one ballot, or a batch. Fields: `candidate`, `count`? (default "
        "1), `precinct`? (a name or number). A count (here, or in the `counts` of "
        "`returns_reported` and `recount_held`) is a whole number from 0 to 1,000,000,000,000, "
        "written in plain decimal digits. Any other form YAML 1.1 reads as a number is kept as the "
        "text written: a leading zero or colons (octal or base 60: `0012` as 10, `1:30` as 90), "
        "hexadecimal `0x1F`, binary `0b101`, octal `0o17` or digits grouped with underscores "
        "(`1_000`). So precinct `0012` stays `0012`, and `count: 010`, `count: 0x1F` or `count: "
        "1_000` is an error that shows what was written; the same holds for `seats`, `year` and "
        "the "
        "sums of money (`fee: 1_5` is not 15)."
    ),
    example=(
        '- {type: votes_cast, at: "2027-10-05T19:31", candidate: Ann Smith, count: 12, precinct: '
        "P-07}"
    ),
    mark=Mark("8", "#66a61e", 5.0, "votes", "votes ({n} ballots)"),
    verb="votes cast",
    noun="the ballots for {c}",
)
@attrs.frozen(kw_only=True)
class VotesCast(CandidateEvent):
    type: ClassVar[str] = EventType.VOTES_CAST.value
    count: int = 1
    precinct: str | None = None


@define(
    family=Family.VOTES,
    summary="one precinct's or one batch's tally",
    text=(
        "One precinct's or one batch's tally. Fields: `counts` (candidate name to votes), "
        "`precinct`?. Returns add up; a `recount_held` replaces them."
    ),
    example=(
        '- {type: returns_reported, at: "2027-10-05T21:30", precinct: P-07,\n'
        '   counts: {Ann Smith: 350, Bob Jones: 180, "Write-In (Miscellaneous)": 2}}'
    ),
    mark=Mark("h", "#1b9e77", 6.0, "returns", "returns ({n} reports)"),
    verb="returns reported",
    noun="the returns",
)
@attrs.frozen(kw_only=True)
class ReturnsReported(Event):
    type: ClassVar[str] = EventType.RETURNS_REPORTED.value
    counts: tuple[tuple[str, int], ...] = attrs.field(converter=_freeze_counts)
    precinct: str | None = None

    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.counts)


@define(
    family=Family.COUNT,
    summary="the canvass: the result is officially declared",
    text=(
        "The canvass: the board officially declares the result. Without it a contest with returns "
        "waits (`pending: canvass`); deadlines that run from the declaration (a runoff request) "
        "count from it. A canvass dated before the day of the election it would declare declares "
        "nothing: a `no_effect` ruling says so, and the contest waits for a canvass on or "
        "after the day."
    ),
    example='- {type: canvass_held, at: "2027-10-12T11:00"}',
    mark=Mark("D", "#1b7837", 5.5, "canvass", "canvass"),
    verb="canvass held",
    noun="the canvass",
)
@attrs.frozen(kw_only=True)
class CanvassHeld(Event):
    type: ClassVar[str] = EventType.CANVASS_HELD.value


@define(
    family=Family.COUNT,
    summary="a recount; its counts replace the totals",
    text=(
        "A recount. Field: `counts`, the recounted totals, which replace the totals so far; the "
        "result is declared again."
    ),
    example=(
        '- {type: recount_held, at: "2027-10-20T14:00", counts: {Ann Smith: 351, Bob Jones: 351}}'
    ),
    mark=Mark("d", "#d95f02", 7.0, "recount", "recount"),
    verb="recount held",
    noun="the recount",
)
@attrs.frozen(kw_only=True)
class RecountHeld(Event):
    type: ClassVar[str] = EventType.RECOUNT_HELD.value
    counts: tuple[tuple[str, int], ...] = attrs.field(converter=_freeze_counts)

    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.counts)


@define(
    family=Family.REQUEST,
    summary="a written request for a runoff or second primary",
    text=(
        "A written request for a runoff (nonpartisan-runoff method) or a demand for a second "
        "primary (partisan primary). Field: `candidate`, who asks. A request too late or by "
        "someone "
        "not entitled is rejected with a ruling; one made before the canvass waits for it "
        "(interpretation early_request: wait)."
    ),
    example='- {type: runoff_requested, at: "2027-10-13T09:30", candidate: Bob Jones}',
    mark=Mark("^", "#6a3d9a", 6.5, "{name} requests runoff", "{n} requests"),
    verb="requested a runoff",
    noun="{c}'s runoff request",
)
@attrs.frozen(kw_only=True)
class RunoffRequested(CandidateEvent):
    type: ClassVar[str] = EventType.RUNOFF_REQUESTED.value


@define(
    family=Family.COUNT,
    summary="the board drew lots",
    text="The board drew lots to break a tie. Field: `winner`.",
    example='- {type: lot_drawn, at: "2027-10-21T10:00", winner: Ann Smith}',
    mark=Mark("*", "#c51b7d", 9.0, "lot: {name}", "{n} lots drawn"),
    verb="lots drawn",
    noun="the drawing of lots",
)
@attrs.frozen(kw_only=True)
class LotDrawn(Event):
    type: ClassVar[str] = EventType.LOT_DRAWN.value
    winner: str

    def names(self) -> tuple[str, ...]:
        return (self.winner,)


@define(
    family=Family.OFFICE,
    summary="an elected person took the oath of office",
    text=(
        "A person declared elected took the oath of office (after it, a death or withdrawal no "
        "longer leaves the result open). Field: `candidate`."
    ),
    example='- {type: oath_taken, at: "2027-12-06T19:00", candidate: Ann Smith}',
    mark=Mark("H", "#00441b", 6.0, "{name} takes oath", "{n} take oath"),
    verb="took the oath",
    noun="{c}'s oath",
)
@attrs.frozen(kw_only=True)
class OathTaken(CandidateEvent):
    type: ClassVar[str] = EventType.OATH_TAKEN.value


@define(
    family=Family.NOMINATION,
    summary="a party executive committee named a nominee (G.S. 163-114)",
    text=(
        "A party executive committee named a nominee (G.S. 163-114), where the law leaves the "
        "nomination to the party. Fields: `candidate`, `party`?. A person who died or was "
        "disqualified in the contest, or who already holds a nomination for the office (or already "
        "stands on the election's ballot), is refused, and the vacancy stays open for another name."
    ),
    example='- {type: nominee_named, at: "2027-09-01T12:00", candidate: Dee Roe, party: REP}',
    mark=Mark("+", "#08519c", 7.5, "{name} named", "{n} named"),
    verb="nominee named",
    noun="the naming of {c} as nominee",
)
@attrs.frozen(kw_only=True)
class NomineeNamed(Event):
    type: ClassVar[str] = EventType.NOMINEE_NAMED.value
    candidate: str
    party: str | None = None


def builder(cls: type[Event], *given: str) -> Callable[..., Event]:
    """A constructor for many events of ``cls``, for a loader that has checked every value
    already: it takes ``at, contest, index, line`` and then the fields named in ``given``,
    positionally, and gives every other field its default.

    The event is the one ``cls(...)`` makes (equal, same hash, same type), made faster: the
    frozen class's ``__init__`` sets each field through ``object.__setattr__`` by name, this sets
    each slot through its descriptor. The fields given may have no converter but
    :func:`~simulator.law.instants.instant`, whose times the caller gives as instants already
    (the loader's clock reads them so).
    """
    names = ("at", "contest", "index", "line", *given)
    slots = _slots(cls, names)
    given_slots = [getattr(cls, name).__set__ for name in names]
    other_slots = [(getattr(cls, name).__set__, d) for name, d in slots if name not in names]
    new = object.__new__

    def build(*values: Any) -> Event:
        event: Event = new(cls)
        for set_slot, value in zip(given_slots, values, strict=True):
            set_slot(event, value)
        for set_slot, default in other_slots:
            set_slot(event, default)
        return event

    return build


def _slots(cls: type[Event], given: tuple[str, ...]) -> list[tuple[str, Any]]:
    """Each field of ``cls`` with its default, in order, checking that the fields ``given``
    need no conversion and that every other field has a plain default."""
    fields = {f.name: f for f in attrs.fields(cls)}
    for name in given:
        if name not in fields or fields[name].converter not in (None, instant, maybe_instant):
            raise ValueError(f"{cls.__name__}: {name} cannot be given to a builder")
    for name, field in fields.items():
        if name not in given and (
            field.default is attrs.NOTHING or hasattr(field.default, "factory")
        ):
            raise ValueError(f"{cls.__name__}.{name} has no plain default")
    return [(name, field.default) for name, field in fields.items()]


def column_builder(cls: type[Event], *given: str) -> Callable[..., list[Event]]:
    """:func:`builder` for a whole run of events at once, column by column: it takes ``n``,
    then columns (iterables of ``n`` values) of ``at, contest, index, line`` and of the fields
    named in ``given``, and gives the ``n`` events :func:`builder` would make one by one
    (``line`` may be None: no event has a line).

    Each slot is set over the whole run by one ``map`` in C, with no Python call per event.
    """
    names = ("at", "contest", "index", "line", *given)
    slots = [(name, getattr(cls, name).__set__, default) for name, default in _slots(cls, names)]
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
